//! Training a halfKP 256x2-32-32 network in floating point, and writing it as an
//! `nn.bin` network ([`Trainer::quantize`]). With [`Settings::exact`] (the
//! default) the forward pass computes in the file's integer arithmetic, so the
//! file gives exactly the values the network was trained to; gradients pass the
//! rounding straight through to the float weights.
//!
//! The float network mirrors the integer one scale for scale: the accumulator's
//! 1.0 is the integer 127 (where the clipping ends), a hidden layer's weight 1.0
//! is 64 (`>> 6`), and the output is in pawns, so that the file's value
//! (output / 16) is `100 ×` the float output in centipawns. Weights are kept
//! within what the integer types hold.
//!
//! Few training positions reach a given king square, so the feature transformer
//! is factorised while training: a feature (king square, piece) also feeds a
//! row for the piece alone and, for a piece on the board, a row for the piece's
//! place relative to the king. The file gets their sum per feature, so a king
//! square the data rarely saw still starts from what every king square taught.
//!
//! A sample's loss is the cross-entropy between `sigmoid(value / scale)` and the
//! target `lambda × sigmoid(score / scale) + (1 − lambda) × result`, all from the
//! side to move's view. The feature transformer learns by lazy Adam (only the
//! rows a batch touched move), the layers above by Adam.

// The layers are written as the matrix arithmetic they are: index loops read best.
#![allow(clippy::needless_range_loop)]

use eval::nnue::features::{self, DIMENSIONS, PIECES, SET};
use eval::nnue::file::{Layers, Network, HALF, HIDDEN};
use eval::nnue::network::OUTPUT_SCALE;
use shogi::{Color, Position};

/// Rows of the piece-alone factor, after the halfKP rows.
const PIECE_ROWS: usize = PIECES;
/// Board piece groups (18: nine kinds, friend and enemy) × 17 × 17 offsets.
const RELATIVE_ROWS: usize = 18 * 17 * 17;
/// All rows of the factorised feature transformer.
const ROWS: usize = DIMENSIONS + PIECE_ROWS + RELATIVE_ROWS;
/// The first Bona piece number on the board.
const BOARD_FIRST: usize = 90;
const INPUTS: usize = 2 * HALF;
/// Centipawns per unit of the float output.
const OUTPUT_CP: f32 = 100.0;
/// The float network's weights are kept where the file's integers reach.
const HIDDEN_WEIGHT_LIMIT: f32 = 127.0 / 64.0;
/// The file's output divisor, which the network is trained at (a player may
/// change it later with `FV_SCALE`).
const FILE_OUTPUT_SCALE: f32 = OUTPUT_SCALE as f32;
const OUTPUT_WEIGHT_LIMIT: f32 = 127.0 * 127.0 / (FILE_OUTPUT_SCALE * OUTPUT_CP);

/// One training position: its features from the side to move's view and from
/// the other side's, and its labels from the side to move's view.
#[derive(Clone, Debug)]
pub struct Sample {
    features: [[u32; SET]; 2],
    /// The search's score, centipawns.
    pub score: f32,
    /// The game's result: 1 won, 0.5 drawn, 0 lost.
    pub result: f32,
}

impl Sample {
    /// A sample of `pos` with the score and result given from Black's view;
    /// `None` when the position is not made of the standard set of pieces.
    pub fn new(pos: &Position, black_score: f32, black_result: f32) -> Option<Sample> {
        let pieces = features::pieces(pos)?;
        let us = pos.side_to_move();
        let mut out = [[0u32; SET]; 2];
        for (slot, view) in [us, us.flip()].into_iter().enumerate() {
            let king = features::king_square(pos, view)?;
            for (f, piece) in out[slot].iter_mut().zip(&pieces) {
                *f = features::index(king, piece[view.index()]) as u32;
            }
        }
        let black = us == Color::Black;
        Some(Sample {
            features: out,
            score: if black { black_score } else { -black_score },
            result: if black { black_result } else { 1.0 - black_result },
        })
    }

    /// The same position mirrored left to right (file 1 becomes file 9): shogi's
    /// rules do not tell the two apart, so neither should the value. A second
    /// sample for free.
    pub fn mirrored(&self) -> Sample {
        let mirror = |sq: usize| (8 - sq / 9) * 9 + sq % 9;
        let mut out = self.clone();
        for f in out.features.iter_mut().flatten() {
            let (king, piece) = (*f as usize / PIECES, *f as usize % PIECES);
            let piece = if piece >= BOARD_FIRST {
                let (group, sq) = ((piece - BOARD_FIRST) / 81, (piece - BOARD_FIRST) % 81);
                BOARD_FIRST + group * 81 + mirror(sq)
            } else {
                piece
            };
            *f = features::index(mirror(king), piece as u16) as u32;
        }
        out
    }

    /// Parses a line `SFEN<TAB>result<TAB>score` (Black's view; the layout the
    /// `selfplay` example writes).
    pub fn parse(line: &str) -> Option<Sample> {
        let mut cols = line.split('\t');
        let pos = Position::from_sfen(cols.next()?).ok()?;
        let result: f32 = cols.next()?.trim().parse().ok()?;
        let score: f32 = cols.next()?.trim().parse().ok()?;
        Sample::new(&pos, score, result)
    }
}

/// The transformer rows a halfKP feature feeds while training (its own row
/// only `with_own`).
fn rows_of(feature: u32, with_own: bool, mut each: impl FnMut(usize)) {
    let feature = feature as usize;
    let (king, piece) = (feature / PIECES, feature % PIECES);
    if with_own {
        each(feature);
    }
    each(DIMENSIONS + piece);
    if piece >= BOARD_FIRST {
        let (group, sq) = ((piece - BOARD_FIRST) / 81, (piece - BOARD_FIRST) % 81);
        let dx = (sq / 9) as isize - (king / 9) as isize + 8;
        let dy = (sq % 9) as isize - (king % 9) as isize + 8;
        each(DIMENSIONS + PIECE_ROWS + group * 289 + dx as usize * 17 + dy as usize);
    }
}

/// `x` rounded to the nearest integer (ties to even) by float additions alone,
/// which vectorise where `f32::round` is a library call; exact for |x| < 2^22.
#[inline(always)]
fn round_near(x: f32) -> f32 {
    const MAGIC: f32 = 12_582_912.0; // 1.5 × 2^23: the sum keeps no fraction bits
    (x + MAGIC) - MAGIC
}

/// A dot product summed in eight lanes, which the compiler can vectorise; the
/// lengths are multiples of 8 (the layers' 512 and 32).
fn dot(a: &[f32], b: &[f32]) -> f32 {
    debug_assert!(a.len() == b.len() && a.len().is_multiple_of(8));
    let mut lanes = [0.0f32; 8];
    for (x, y) in a.chunks_exact(8).zip(b.chunks_exact(8)) {
        for k in 0..8 {
            lanes[k] += x[k] * y[k];
        }
    }
    lanes.iter().sum()
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

fn clip(x: f32) -> f32 {
    x.clamp(0.0, 1.0)
}

/// The gradient of the clip: 1 inside the linear part.
fn passes(x: f32) -> f32 {
    if x > 0.0 && x < 1.0 {
        1.0
    } else {
        0.0
    }
}

/// How to train.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    /// Centipawns per unit of the logistic's input (values and scores alike).
    pub scale: f32,
    /// Weight of the score in the target (the result has `1 − lambda`).
    pub lambda: f32,
    pub learning_rate: f32,
    /// Whether each (king square, piece) pair has a row of its own; without,
    /// only the factors learn (the piece alone and its place relative to the
    /// king): far fewer weights, for small data.
    pub own_rows: bool,
    /// Whether the forward pass computes in the file's integers (rounded
    /// weights, rounded and clipped activations), so that the values trained
    /// are the values the file gives; gradients pass the rounding straight
    /// through. Off, the pass is smooth (for checking the gradients).
    pub exact: bool,
    /// Threads sharing each batch's forward and backward passes (each with
    /// gradients of its own, summed before the step). The result depends on the
    /// count only through the order of the sums.
    pub threads: usize,
    /// Steps over which the learning rate rises linearly from nothing to
    /// `learning_rate` at the start of training (0: none). Adam's first steps
    /// move every weight by about the whole rate whatever its gradient, which at
    /// a high rate can push every unit of a hidden layer out of its clipping
    /// range for good.
    pub warmup_steps: u32,
    /// The layers above the transformer learn at `learning_rate` times this.
    /// Every step moves each of their weights by about the rate (Adam), where a
    /// transformer row moves only in the steps whose positions have its
    /// feature: copies of the handcrafted evaluation trained with a quarter
    /// followed it more closely among a position's children (docs/BENCHMARKS.md).
    pub dense_rate_scale: f32,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            scale: 820.0,
            lambda: 0.7,
            learning_rate: 1e-3,
            own_rows: true,
            exact: true,
            threads: 1,
            warmup_steps: 0,
            dense_rate_scale: 1.0,
        }
    }
}

/// Adam's moments for a block of parameters.
#[derive(Clone)]
struct Moments {
    m: Vec<f32>,
    v: Vec<f32>,
}

impl Moments {
    fn new(n: usize) -> Moments {
        Moments { m: vec![0.0; n], v: vec![0.0; n] }
    }
}

const BETA1: f32 = 0.9;
const BETA2: f32 = 0.999;

/// One Adam step on `params[range]` with gradient `grads[range]`; `rate` is
/// the learning rate with the bias corrections folded in.
fn adam(params: &mut [f32], grads: &[f32], moments: &mut Moments, rate: f32, limit: f32) {
    for i in 0..params.len() {
        let g = grads[i];
        let m = &mut moments.m[i];
        let v = &mut moments.v[i];
        *m = BETA1 * *m + (1.0 - BETA1) * g;
        *v = BETA2 * *v + (1.0 - BETA2) * g * g;
        params[i] = (params[i] - rate * *m / (v.sqrt() + 1e-8)).clamp(-limit, limit);
    }
}

/// The float network's layers above the feature transformer.
#[derive(Clone)]
struct Dense {
    w1: Vec<f32>, // [HIDDEN][INPUTS]
    b1: Vec<f32>,
    w2: Vec<f32>, // [HIDDEN][HIDDEN]
    b2: Vec<f32>,
    w3: Vec<f32>, // [HIDDEN]
    b3: f32,
}

impl Dense {
    fn zeros() -> Dense {
        Dense {
            w1: vec![0.0; HIDDEN * INPUTS],
            b1: vec![0.0; HIDDEN],
            w2: vec![0.0; HIDDEN * HIDDEN],
            b2: vec![0.0; HIDDEN],
            w3: vec![0.0; HIDDEN],
            b3: 0.0,
        }
    }
}

/// The layers above the transformer as the file holds them (integers, kept as
/// floats: every sum stays below 2^24, so the float arithmetic is exact).
#[derive(Clone)]
struct FileDense {
    w1: Vec<f32>,
    b1: Vec<f32>,
    w2: Vec<f32>,
    b2: Vec<f32>,
    w3: Vec<f32>,
    b3: f32,
}

/// The output layer's weight scale: a float weight 1 on a hidden value of 1
/// (127) is `OUTPUT_CP` centipawns after the file's division by 16.
const OUTPUT_FACTOR: f32 = FILE_OUTPUT_SCALE * OUTPUT_CP / 127.0;

impl FileDense {
    fn of(d: &Dense) -> FileDense {
        let weight =
            |w: &[f32], s: f32| w.iter().map(|&x| (x * s).round().clamp(-127.0, 127.0)).collect();
        // The file's hidden layers shift right (rounding down): half a step more
        // bias makes that rounding to the nearest.
        let bias = |b: &[f32]| b.iter().map(|x| (x * 127.0 * 64.0).round() + 32.0).collect();
        FileDense {
            w1: weight(&d.w1, 64.0),
            b1: bias(&d.b1),
            w2: weight(&d.w2, 64.0),
            b2: bias(&d.b2),
            w3: weight(&d.w3, OUTPUT_FACTOR),
            b3: (d.b3 * FILE_OUTPUT_SCALE * OUTPUT_CP).round(),
        }
    }
}

/// A hidden layer in the file's arithmetic: `weights` `[HIDDEN][input.len()]`
/// and `biases` as the file holds them, `input` integers 0..=127. Returns the
/// outputs as integers; `z` and `h` get the sums and outputs in the float
/// network's units.
fn exact_layer(
    weights: &[f32],
    biases: &[f32],
    input: &[f32],
    z: &mut [f32; HIDDEN],
    h: &mut [f32; HIDDEN],
) -> [f32; HIDDEN] {
    let n = input.len();
    let mut out = [0.0f32; HIDDEN];
    for o in 0..HIDDEN {
        let sum = biases[o] + dot(&weights[o * n..(o + 1) * n], input);
        out[o] = (sum / 64.0).floor().clamp(0.0, 127.0);
        z[o] = sum / (64.0 * 127.0);
        h[o] = out[o] / 127.0;
    }
    out
}

/// The gradients of a batch, or of one thread's share of it.
struct Gradients {
    /// Transformer rows `[ROWS][HALF]`; `touched` lists the rows reached.
    ft: Vec<f32>,
    touched: Vec<u32>,
    is_touched: Vec<bool>,
    ft_bias: Vec<f32>,
    dense: Dense,
    loss: f32,
}

impl Gradients {
    fn new() -> Gradients {
        Gradients {
            ft: vec![0.0; ROWS * HALF],
            touched: Vec::new(),
            is_touched: vec![false; ROWS],
            ft_bias: vec![0.0; HALF],
            dense: Dense::zeros(),
            loss: 0.0,
        }
    }

    /// Adds `other` to these gradients and leaves `other` zero.
    fn absorb(&mut self, other: &mut Gradients) {
        let d = &mut self.dense;
        let o = &mut other.dense;
        for (mine, theirs) in
            [(&mut d.w1, &mut o.w1), (&mut d.b1, &mut o.b1), (&mut d.w2, &mut o.w2)]
                .into_iter()
                .chain([(&mut d.b2, &mut o.b2), (&mut d.w3, &mut o.w3)])
        {
            for (a, b) in mine.iter_mut().zip(theirs.iter_mut()) {
                *a += std::mem::take(b);
            }
        }
        d.b3 += std::mem::take(&mut o.b3);
        for (a, b) in self.ft_bias.iter_mut().zip(other.ft_bias.iter_mut()) {
            *a += std::mem::take(b);
        }
        for &row in &other.touched {
            let row = row as usize;
            if !self.is_touched[row] {
                self.is_touched[row] = true;
                self.touched.push(row as u32);
            }
            let r = row * HALF..(row + 1) * HALF;
            for (a, b) in self.ft[r.clone()].iter_mut().zip(other.ft[r].iter_mut()) {
                *a += std::mem::take(b);
            }
            other.is_touched[row] = false;
        }
        other.touched.clear();
        self.loss += std::mem::take(&mut other.loss);
    }
}

/// A block of transformer rows, from `first_row` on: the weights, Adam's
/// moments and the batch's gradients, which one thread updates alone.
struct RowBlocks<'a> {
    ft: &'a mut [f32],
    m: &'a mut [f32],
    v: &'a mut [f32],
    grad: &'a mut [f32],
    first_row: usize,
}

impl<'a> RowBlocks<'a> {
    /// The rows before `row`, and the rest.
    fn split_at_row(self, row: usize) -> (RowBlocks<'a>, RowBlocks<'a>) {
        let at = (row - self.first_row) * HALF;
        let (ft, ft_rest) = self.ft.split_at_mut(at);
        let (m, m_rest) = self.m.split_at_mut(at);
        let (v, v_rest) = self.v.split_at_mut(at);
        let (grad, grad_rest) = self.grad.split_at_mut(at);
        (
            RowBlocks { ft, m, v, grad, first_row: self.first_row },
            RowBlocks { ft: ft_rest, m: m_rest, v: v_rest, grad: grad_rest, first_row: row },
        )
    }

    /// One Adam step on `rows` (all in this block) with the gradients times
    /// `scale`, which are left zero.
    fn adam(self, rows: &[u32], rate: f32, scale: f32) {
        for &row in rows {
            let start = (row as usize - self.first_row) * HALF;
            for k in start..start + HALF {
                let grad = self.grad[k] * scale;
                self.grad[k] = 0.0;
                self.m[k] = BETA1 * self.m[k] + (1.0 - BETA1) * grad;
                self.v[k] = BETA2 * self.v[k] + (1.0 - BETA2) * grad * grad;
                self.ft[k] -= rate * self.m[k] / (self.v[k].sqrt() + 1e-8);
            }
        }
    }
}

/// The intermediate values of one sample's forward pass.
struct Forward {
    acc: [[f32; HALF]; 2],
    input: [f32; INPUTS],
    z1: [f32; HIDDEN],
    h1: [f32; HIDDEN],
    z2: [f32; HIDDEN],
    h2: [f32; HIDDEN],
    /// The value in centipawns.
    value: f32,
}

/// A float halfKP network being trained.
pub struct Trainer {
    /// Feature transformer rows `[ROWS][HALF]` and biases.
    ft: Vec<f32>,
    ft_bias: Vec<f32>,
    dense: Dense,
    /// `dense` as the file will hold it.
    file_dense: FileDense,
    ft_moments: Moments,
    ft_bias_moments: Moments,
    dense_moments: [Moments; 6],
    /// Gradients of a batch, one set per thread (made as the threads are).
    grads: Vec<Gradients>,
    steps: u32,
    pub settings: Settings,
}

/// A small deterministic generator for the initial weights.
struct SplitMix(u64);
impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in `[-r, r]`.
    fn uniform(&mut self, r: f32) -> f32 {
        ((self.next() >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0) * r
    }
}

impl Trainer {
    /// A fresh network: halfKP and relative rows zero (the piece rows carry the
    /// start), accumulators starting mid-way in the clipping range, the layers
    /// above drawn uniformly at the usual fan-in scale.
    pub fn new(seed: u64, settings: Settings) -> Trainer {
        let mut rng = SplitMix(seed);
        let mut ft = vec![0.0; ROWS * HALF];
        for w in &mut ft[DIMENSIONS * HALF..(DIMENSIONS + PIECE_ROWS) * HALF] {
            *w = rng.uniform(0.05);
        }
        let mut dense = Dense::zeros();
        let r1 = (6.0 / INPUTS as f32).sqrt();
        dense.w1.iter_mut().for_each(|w| *w = rng.uniform(r1));
        let r2 = (6.0 / HIDDEN as f32).sqrt();
        dense.w2.iter_mut().for_each(|w| *w = rng.uniform(r2));
        dense.w3.iter_mut().for_each(|w| *w = rng.uniform(r2));
        Trainer {
            ft,
            ft_bias: vec![0.5; HALF],
            file_dense: FileDense::of(&dense),
            dense,
            ft_moments: Moments::new(ROWS * HALF),
            ft_bias_moments: Moments::new(HALF),
            dense_moments: [
                Moments::new(HIDDEN * INPUTS),
                Moments::new(HIDDEN),
                Moments::new(HIDDEN * HIDDEN),
                Moments::new(HIDDEN),
                Moments::new(HIDDEN),
                Moments::new(1),
            ],
            grads: vec![Gradients::new()],
            steps: 0,
            settings,
        }
    }

    fn forward(&self, sample: &Sample) -> Forward {
        let mut f = Forward {
            acc: [[0.0; HALF]; 2],
            input: [0.0; INPUTS],
            z1: [0.0; HIDDEN],
            h1: [0.0; HIDDEN],
            z2: [0.0; HIDDEN],
            h2: [0.0; HIDDEN],
            value: 0.0,
        };
        if self.settings.exact {
            self.forward_exact(sample, &mut f);
            return f;
        }
        for view in 0..2 {
            let acc = &mut f.acc[view];
            acc.copy_from_slice(&self.ft_bias);
            for &feature in &sample.features[view] {
                rows_of(feature, self.settings.own_rows, |row| {
                    for (a, w) in acc.iter_mut().zip(&self.ft[row * HALF..(row + 1) * HALF]) {
                        *a += w;
                    }
                });
            }
            for (x, a) in f.input[view * HALF..(view + 1) * HALF].iter_mut().zip(acc.iter()) {
                *x = clip(*a);
            }
        }
        let d = &self.dense;
        for o in 0..HIDDEN {
            let row = &d.w1[o * INPUTS..(o + 1) * INPUTS];
            f.z1[o] = d.b1[o] + dot(row, &f.input);
            f.h1[o] = clip(f.z1[o]);
        }
        for o in 0..HIDDEN {
            let row = &d.w2[o * HIDDEN..(o + 1) * HIDDEN];
            f.z2[o] = d.b2[o] + dot(row, &f.h1);
            f.h2[o] = clip(f.z2[o]);
        }
        let out = d.b3 + d.w3.iter().zip(&f.h2).map(|(w, x)| w * x).sum::<f32>();
        f.value = out * OUTPUT_CP;
        f
    }

    /// The forward pass in the file's arithmetic: each feature's weights summed
    /// over its rows and rounded, the accumulator clipped to 0..=127, the hidden
    /// layers' sums shifted right by 6 and clipped, the output divided by 16.
    /// `f` gets the values in the float network's units (integers / 127; the
    /// hidden layers' sums / (64 × 127)).
    fn forward_exact(&self, sample: &Sample, f: &mut Forward) {
        let mut input = [0.0f32; INPUTS];
        for view in 0..2 {
            let acc = &mut f.acc[view];
            for (a, b) in acc.iter_mut().zip(&self.ft_bias) {
                *a = round_near(b * 127.0);
            }
            for &feature in &sample.features[view] {
                let mut sum = [0.0f32; HALF];
                rows_of(feature, self.settings.own_rows, |row| {
                    for (s, w) in sum.iter_mut().zip(&self.ft[row * HALF..(row + 1) * HALF]) {
                        *s += w;
                    }
                });
                for (a, s) in acc.iter_mut().zip(sum) {
                    *a += round_near(s * 127.0);
                }
            }
            for (j, a) in acc.iter_mut().enumerate() {
                input[view * HALF + j] = a.clamp(0.0, 127.0);
                f.input[view * HALF + j] = input[view * HALF + j] / 127.0;
                *a /= 127.0;
            }
        }
        let q = &self.file_dense;
        let h1 = exact_layer(&q.w1, &q.b1, &input, &mut f.z1, &mut f.h1);
        let h2 = exact_layer(&q.w2, &q.b2, &h1, &mut f.z2, &mut f.h2);
        let out = q.b3 + q.w3.iter().zip(&h2).map(|(w, x)| w * x).sum::<f32>();
        f.value = (out / FILE_OUTPUT_SCALE).trunc();
    }

    /// The float network's value of a sample, centipawns from the side to
    /// move's view.
    pub fn value(&self, sample: &Sample) -> f32 {
        self.forward(sample).value
    }

    /// The target probability of a sample.
    pub fn target(&self, sample: &Sample) -> f32 {
        let s = &self.settings;
        s.lambda * sigmoid(sample.score / s.scale) + (1.0 - s.lambda) * sample.result
    }

    /// A sample's cross-entropy loss, less the target's own entropy (so a
    /// perfect value scores 0).
    pub fn loss(&self, sample: &Sample) -> f32 {
        self.loss_at(self.value(sample), sample)
    }

    /// The loss a sample would have if the value were `value` (centipawns,
    /// side to move's view): how other evaluations compare.
    pub fn loss_at(&self, value: f32, sample: &Sample) -> f32 {
        let p = sigmoid(value / self.settings.scale).clamp(1e-7, 1.0 - 1e-7);
        let t = self.target(sample).clamp(1e-7, 1.0 - 1e-7);
        t * (t / p).ln() + (1.0 - t) * ((1.0 - t) / (1.0 - p)).ln()
    }

    /// Adds one sample's gradient and loss to `grads`.
    fn backward(&self, sample: &Sample, grads: &mut Gradients) {
        let f = self.forward(sample);
        grads.loss += self.loss_at(f.value, sample);
        let p = sigmoid(f.value / self.settings.scale);
        let d_out = (p - self.target(sample)) * OUTPUT_CP / self.settings.scale;
        let d = &self.dense;
        let g = &mut grads.dense;
        g.b3 += d_out;
        let mut dz2 = [0.0; HIDDEN];
        for o in 0..HIDDEN {
            g.w3[o] += d_out * f.h2[o];
            dz2[o] = d_out * d.w3[o] * passes(f.z2[o]);
        }
        let mut dz1 = [0.0; HIDDEN];
        for o in 0..HIDDEN {
            g.b2[o] += dz2[o];
            let row = o * HIDDEN;
            for i in 0..HIDDEN {
                g.w2[row + i] += dz2[o] * f.h1[i];
                dz1[i] += dz2[o] * d.w2[row + i];
            }
        }
        let mut d_input = [0.0; INPUTS];
        for o in 0..HIDDEN {
            let dz = dz1[o] * passes(f.z1[o]);
            if dz == 0.0 {
                continue;
            }
            g.b1[o] += dz;
            let row = o * INPUTS;
            for i in 0..INPUTS {
                g.w1[row + i] += dz * f.input[i];
                d_input[i] += dz * d.w1[row + i];
            }
        }
        for view in 0..2 {
            let mut d_acc = [0.0; HALF];
            for j in 0..HALF {
                d_acc[j] = d_input[view * HALF + j] * passes(f.acc[view][j]);
                grads.ft_bias[j] += d_acc[j];
            }
            for &feature in &sample.features[view] {
                rows_of(feature, self.settings.own_rows, |row| {
                    if !grads.is_touched[row] {
                        grads.is_touched[row] = true;
                        grads.touched.push(row as u32);
                    }
                    for (g, d) in grads.ft[row * HALF..(row + 1) * HALF].iter_mut().zip(&d_acc) {
                        *g += d;
                    }
                });
            }
        }
    }

    /// The batch's gradients, summed over `settings.threads` threads, each
    /// taking an equal share of the samples, into `grads[0]`.
    fn batch_gradients(&mut self, batch: &[&Sample]) {
        let threads = self.settings.threads.clamp(1, batch.len().max(1));
        let mut grads = std::mem::take(&mut self.grads);
        grads.truncate(threads);
        while grads.len() < threads {
            grads.push(Gradients::new());
        }
        if threads == 1 {
            for sample in batch {
                self.backward(sample, &mut grads[0]);
            }
        } else {
            let this = &*self;
            let share = batch.len().div_ceil(threads);
            std::thread::scope(|scope| {
                for (g, part) in grads.iter_mut().zip(batch.chunks(share)) {
                    scope.spawn(move || {
                        for sample in part {
                            this.backward(sample, g);
                        }
                    });
                }
            });
            let (first, rest) = grads.split_at_mut(1);
            for g in rest {
                first[0].absorb(g);
            }
        }
        self.grads = grads;
    }

    /// One step of the optimiser on a batch of samples; returns the batch's
    /// mean loss before the step.
    pub fn step(&mut self, batch: &[&Sample]) -> f32 {
        self.batch_gradients(batch);
        self.steps += 1;
        let t = self.steps as i32;
        let rate =
            self.settings.learning_rate * self.warmup_factor() * (1.0 - BETA2.powi(t)).sqrt()
                / (1.0 - BETA1.powi(t));
        let grads = &mut self.grads[0];
        let loss = std::mem::take(&mut grads.loss);
        let scale = 1.0 / batch.len().max(1) as f32;
        let g = &mut grads.dense;
        for block in [&mut g.w1, &mut g.b1, &mut g.w2, &mut g.b2, &mut g.w3] {
            block.iter_mut().for_each(|x| *x *= scale);
        }
        g.b3 *= scale;
        let d = &mut self.dense;
        let [m1, mb1, m2, mb2, m3, mb3] = &mut self.dense_moments;
        let dense_rate = rate * self.settings.dense_rate_scale;
        adam(&mut d.w1, &g.w1, m1, dense_rate, HIDDEN_WEIGHT_LIMIT);
        adam(&mut d.b1, &g.b1, mb1, dense_rate, f32::MAX);
        adam(&mut d.w2, &g.w2, m2, dense_rate, HIDDEN_WEIGHT_LIMIT);
        adam(&mut d.b2, &g.b2, mb2, dense_rate, f32::MAX);
        adam(&mut d.w3, &g.w3, m3, dense_rate, OUTPUT_WEIGHT_LIMIT);
        let mut b3 = [d.b3];
        adam(&mut b3, &[g.b3], mb3, dense_rate, f32::MAX);
        d.b3 = b3[0];
        *g = Dense::zeros();
        self.file_dense = FileDense::of(d);

        grads.ft_bias.iter_mut().for_each(|x| *x *= scale);
        adam(&mut self.ft_bias, &grads.ft_bias, &mut self.ft_bias_moments, rate, f32::MAX);
        grads.ft_bias.iter_mut().for_each(|x| *x = 0.0);
        // Lazy Adam on the rows the batch touched, in sorted order so that the
        // threads can take disjoint blocks of rows.
        grads.touched.sort_unstable();
        let threads = self.settings.threads.clamp(1, grads.touched.len().max(1));
        let share = grads.touched.len().div_ceil(threads).max(1);
        let mut blocks = RowBlocks {
            ft: &mut self.ft,
            m: &mut self.ft_moments.m,
            v: &mut self.ft_moments.v,
            grad: &mut grads.ft,
            first_row: 0,
        };
        std::thread::scope(|scope| {
            let mut chunks = grads.touched.chunks(share).peekable();
            while let Some(rows) = chunks.next() {
                // This block ends where the next chunk's first row begins.
                let end = chunks.peek().map_or(ROWS, |next| next[0] as usize);
                let (mine, rest) = blocks.split_at_row(end);
                blocks = rest;
                if chunks.peek().is_none() {
                    mine.adam(rows, rate, scale);
                } else {
                    scope.spawn(move || mine.adam(rows, rate, scale));
                }
            }
        });
        for &row in &grads.touched {
            grads.is_touched[row as usize] = false;
        }
        grads.touched.clear();
        loss * scale
    }

    /// The share of the learning rate the warm-up allows at this step (1 once it
    /// is over).
    fn warmup_factor(&self) -> f32 {
        match self.settings.warmup_steps {
            0 => 1.0,
            n => (self.steps as f32 / n as f32).min(1.0),
        }
    }

    /// Steps taken so far.
    pub fn steps(&self) -> u32 {
        self.steps
    }

    /// How many units of each hidden layer are inside their clipping range
    /// (where gradients pass) for at least one of `samples`: a unit outside it
    /// for every position has stopped learning, and a layer with none left
    /// gives every position the same value.
    pub fn live_units(&self, samples: &[Sample]) -> [usize; 2] {
        let (mut first, mut second) = ([false; HIDDEN], [false; HIDDEN]);
        for sample in samples {
            let f = self.forward(sample);
            for o in 0..HIDDEN {
                first[o] |= passes(f.z1[o]) > 0.0;
                second[o] |= passes(f.z2[o]) > 0.0;
            }
        }
        let count = |live: [bool; HIDDEN]| live.iter().filter(|&&l| l).count();
        [count(first), count(second)]
    }

    /// The network in the file's integers.
    pub fn quantize(&self) -> Network {
        let round16 = |x: f32| round_near(x * 127.0).clamp(i16::MIN as f32, i16::MAX as f32) as i16;
        let mut feature_weights = vec![0i16; DIMENSIONS * HALF];
        for feature in 0..DIMENSIONS {
            let mut sum = [0.0f32; HALF];
            rows_of(feature as u32, true, |row| {
                for (s, w) in sum.iter_mut().zip(&self.ft[row * HALF..(row + 1) * HALF]) {
                    *s += w;
                }
            });
            for (q, s) in feature_weights[feature * HALF..(feature + 1) * HALF].iter_mut().zip(sum)
            {
                *q = round16(s);
            }
        }
        let q = FileDense::of(&self.dense);
        let bytes = |w: &[f32]| w.iter().map(|&x| x as i8).collect::<Vec<i8>>();
        let words = |b: &[f32]| b.iter().map(|&x| x as i32).collect();
        Network::from(Layers {
            feature_biases: self.ft_bias.iter().map(|&b| round16(b)).collect(),
            feature_weights,
            hidden1_biases: words(&q.b1),
            hidden1_weights: bytes(&q.w1),
            hidden2_biases: words(&q.b2),
            hidden2_weights: bytes(&q.w2),
            output_bias: q.b3 as i32,
            output_weights: bytes(&q.w3),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use eval::nnue::stack::evaluate_afresh;
    use std::sync::Arc;

    fn samples() -> Vec<Sample> {
        let sfens = [
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2",
            "ln1g1gsnl/1r1s2kb1/p1pppp1pp/6p2/1p7/2P6/PPBPPPPPP/7R1/LNSGKGSNL b - 11",
            "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
            "8l/1l+R2P3/p2pBG1pp/kps1p4/Nn1P2G2/P1P1P2PP/1PS6/1KSG3+r1/LN2+p3L w Sbgn2p 1",
            "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b RB 1",
        ];
        sfens
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let pos = Position::from_sfen(s).unwrap();
                Sample::new(&pos, (i as f32 - 2.0) * 300.0, [0.0, 0.5, 1.0][i % 3]).unwrap()
            })
            .collect()
    }

    /// `sfen` with each rank's squares in the reverse order.
    fn mirror_sfen(sfen: &str) -> String {
        let (board, rest) = sfen.split_once(' ').unwrap();
        let ranks: Vec<String> = board
            .split('/')
            .map(|rank| {
                let mut squares: Vec<String> = Vec::new();
                let mut promoted = false;
                for c in rank.chars() {
                    if c == '+' {
                        promoted = true;
                        continue;
                    }
                    squares.push(if promoted { format!("+{c}") } else { c.to_string() });
                    promoted = false;
                }
                squares.reverse();
                squares.concat()
            })
            .collect();
        format!("{} {rest}", ranks.join("/"))
    }

    #[test]
    fn rounding_by_additions_rounds_to_the_nearest() {
        for (x, r) in
            [(0.4, 0.0), (0.6, 1.0), (-0.6, -1.0), (2.5, 2.0), (3.5, 4.0), (-126.7, -127.0)]
        {
            assert_eq!(round_near(x), r, "{x}");
        }
    }

    #[test]
    fn a_mirrored_sample_is_the_mirrored_position() {
        shogi::attacks::init();
        for sfen in [
            "ln1g1gsnl/1r1s2kb1/p1pppp1pp/6p2/1p7/2P6/PPBPPPPPP/7R1/LNSGKGSNL b - 11",
            "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
        ] {
            let a = Position::from_sfen(sfen).unwrap();
            let b = Position::from_sfen(&mirror_sfen(sfen)).unwrap();
            let (a, b) = (Sample::new(&a, 0.0, 0.5).unwrap(), Sample::new(&b, 0.0, 0.5).unwrap());
            let sorted = |s: &Sample| {
                s.features.map(|mut v| {
                    v.sort();
                    v
                })
            };
            assert_eq!(sorted(&a.mirrored()), sorted(&b), "{sfen}");
            assert_ne!(sorted(&a), sorted(&b));
        }
    }

    /// The analytic gradient matches finite differences, in every block of
    /// parameters (a weight of each layer and transformer rows of each factor).
    #[test]
    fn gradients_match_finite_differences() {
        shogi::attacks::init();
        let samples = samples();
        let settings = Settings { scale: 300.0, exact: false, ..Settings::default() };
        let mut t = Trainer::new(5, settings);
        // Spread the transformer so that accumulators are not all clipped alike.
        let mut rng = SplitMix(11);
        t.ft.iter_mut().for_each(|w| *w += rng.uniform(0.05));
        let sample = &samples[3];
        let mut grads = Gradients::new();
        t.backward(sample, &mut grads);
        let feature = sample.features[0][30] as usize;
        let mut rows = Vec::new();
        rows_of(feature as u32, true, |r| rows.push(r));
        assert_eq!(rows.len(), 3, "a board piece feeds three rows");
        let eps = 1e-2;
        let check = |t: &mut Trainer, get: &dyn Fn(&mut Trainer) -> &mut f32, analytic: f32| {
            let old = *get(t);
            let base = t.loss(sample);
            *get(t) = old + eps;
            let up = t.loss(sample);
            *get(t) = old - eps;
            let down = t.loss(sample);
            *get(t) = old;
            let numeric = (up - down) / (2.0 * eps);
            let tolerance = 1e-3 + 0.05 * numeric.abs().max(analytic.abs());
            if ((up - base) / eps - (base - down) / eps).abs() > tolerance {
                return false; // a clipping kink within eps: no derivative to compare
            }
            assert!(
                (numeric - analytic).abs() < tolerance,
                "numeric {numeric} analytic {analytic}"
            );
            numeric != 0.0
        };
        // The loss's gradient is the sum over the sample; backward's is the same.
        let mut nonzero = 0;
        for j in 0..HALF {
            for &row in &rows {
                let analytic = grads.ft[row * HALF + j];
                nonzero += check(&mut t, &|t| &mut t.ft[row * HALF + j], analytic) as usize;
            }
        }
        assert!(nonzero > 30, "only {nonzero} transformer gradients were not zero");
        let g = grads.dense;
        for i in (0..HIDDEN * INPUTS).step_by(97) {
            check(&mut t, &|t| &mut t.dense.w1[i], g.w1[i]);
        }
        for i in 0..HIDDEN * HIDDEN {
            check(&mut t, &|t| &mut t.dense.w2[i], g.w2[i]);
        }
        for i in 0..HIDDEN {
            check(&mut t, &|t| &mut t.dense.w3[i], g.w3[i]);
            check(&mut t, &|t| &mut t.dense.b1[i], g.b1[i]);
        }
        check(&mut t, &|t| &mut t.dense.b3, g.b3);
    }

    /// A batch's gradients summed over threads are the one thread's, up to the
    /// order of the sums; so is the step.
    #[test]
    fn threads_share_a_batch_without_changing_its_gradient() {
        shogi::attacks::init();
        let samples = samples();
        let batch: Vec<&Sample> = samples.iter().collect();
        let mut one = Trainer::new(3, Settings::default());
        let mut three = Trainer::new(3, Settings { threads: 3, ..Settings::default() });
        one.batch_gradients(&batch);
        three.batch_gradients(&batch);
        let (a, b) = (&one.grads[0], &three.grads[0]);
        let close = |x: f32, y: f32| (x - y).abs() <= 1e-4 * (1.0 + x.abs().max(y.abs()));
        assert!(close(a.loss, b.loss), "{} {}", a.loss, b.loss);
        let mut rows_a = a.touched.clone();
        let mut rows_b = b.touched.clone();
        rows_a.sort();
        rows_b.sort();
        assert_eq!(rows_a, rows_b);
        assert!(a.ft.iter().zip(&b.ft).all(|(&x, &y)| close(x, y)));
        assert!(a.ft.iter().any(|&x| x != 0.0));
        assert!(a.dense.w1.iter().zip(&b.dense.w1).all(|(&x, &y)| close(x, y)));
        assert!(a.dense.w2.iter().zip(&b.dense.w2).all(|(&x, &y)| close(x, y)));
        assert!(close(a.dense.b3, b.dense.b3));
        // The helpers' gradients were handed over and left zero.
        assert!(three.grads[1..].iter().all(|g| g.touched.is_empty() && g.loss == 0.0));
        assert!(three.grads[1..].iter().all(|g| g.ft.iter().all(|&x| x == 0.0)));
        // Whole steps stay together too.
        let mut one = Trainer::new(3, Settings::default());
        let mut three = Trainer::new(3, Settings { threads: 3, ..Settings::default() });
        for _ in 0..5 {
            let (x, y) = (one.step(&batch), three.step(&batch));
            assert!(close(x, y), "{x} {y}");
        }
    }

    /// The warm-up scales the first steps' rate from nothing up to the whole
    /// rate: the first step moves the weights by about a hundredth of what it
    /// moves them without, and once the warm-up is over the steps are alike.
    #[test]
    fn the_warmup_raises_the_rate_step_by_step() {
        shogi::attacks::init();
        let samples = samples();
        let batch: Vec<&Sample> = samples.iter().collect();
        let mut plain = Trainer::new(2, Settings::default());
        let mut warm = Trainer::new(2, Settings { warmup_steps: 100, ..Settings::default() });
        let start = plain.dense.w3.clone();
        plain.step(&batch);
        warm.step(&batch);
        let moved =
            |t: &Trainer| t.dense.w3.iter().zip(&start).map(|(a, b)| (a - b).abs()).sum::<f32>();
        let ratio = moved(&warm) / moved(&plain);
        assert!((0.005..0.02).contains(&ratio), "first step moved {ratio} of the plain one");
        for _ in 1..100 {
            warm.step(&batch);
        }
        assert_eq!(warm.steps(), 100);
        assert_eq!(warm.warmup_factor(), 1.0);
        assert_eq!(plain.warmup_factor(), 1.0);
        let [first, second] = warm.live_units(&samples);
        assert!(first > 0 && second > 0 && first <= HIDDEN && second <= HIDDEN);
    }

    /// The layers above the transformer step at their own share of the rate: at
    /// none they stay where they are while the transformer learns.
    #[test]
    fn the_dense_layers_learn_at_their_own_rate() {
        shogi::attacks::init();
        let samples = samples();
        let batch: Vec<&Sample> = samples.iter().collect();
        let mut t = Trainer::new(4, Settings { dense_rate_scale: 0.0, ..Settings::default() });
        let (w1, ft) = (t.dense.w1.clone(), t.ft.clone());
        for _ in 0..3 {
            t.step(&batch);
        }
        assert_eq!(t.dense.w1, w1);
        assert_ne!(t.ft, ft);
    }

    /// Training moves the values towards the targets, and the file's integer
    /// network gives the values the trainer's exact forward pass gives.
    #[test]
    fn training_fits_and_the_file_keeps_the_values() {
        shogi::attacks::init();
        let samples = samples();
        let mut t = Trainer::new(1, Settings { learning_rate: 5e-4, ..Settings::default() });
        let batch: Vec<&Sample> = samples.iter().collect();
        let first = t.step(&batch);
        let mut last = first;
        for _ in 0..500 {
            last = t.step(&batch);
        }
        assert!(last < first * 0.35, "loss {first} -> {last}");
        let network = Arc::new(t.quantize());
        let sfens = [
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "ln1g1gsnl/1r1s2kb1/p1pppp1pp/6p2/1p7/2P6/PPBPPPPPP/7R1/LNSGKGSNL b - 11",
            "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
        ];
        for sfen in sfens {
            let pos = Position::from_sfen(sfen).unwrap();
            let float = t.value(&Sample::new(&pos, 0.0, 0.5).unwrap());
            let int = evaluate_afresh(&network, &pos).unwrap() as f32;
            assert_eq!(float, int, "{sfen}");
        }
    }
}
