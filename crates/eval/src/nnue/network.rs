//! The network's arithmetic: the feature transformer's accumulators (kept per
//! side and updated move by move) and the layers above them, exactly as the
//! `nn.bin` format defines them, so that a file gives the same value to the unit
//! here and in YaneuraOu:
//!
//! - accumulator: biases plus the weight rows of the active features, in 16-bit
//!   wrapping arithmetic;
//! - input: both accumulators clipped to 0..=127, the side to move's first;
//! - hidden layers: 32-bit sums of 8-bit products plus the bias, shifted right by
//!   6 and clipped to 0..=127;
//! - output: the sum divided by 16 (rounding toward zero).
//!
//! The loops are plain Rust; on x86-64 CPUs with AVX2 (checked at run time, as the
//! slider tables check BMI2) the same loops are compiled for AVX2 and the layers'
//! dot products use its byte multiplies.

use super::file::{Network, HALF, HIDDEN};
use std::sync::LazyLock;

/// The output's divisor (YaneuraOu's `FV_SCALE`).
pub const OUTPUT_SCALE: i32 = 16;
const WEIGHT_SCALE_BITS: u32 = 6;
const INPUTS: usize = 2 * HALF;

/// Both sides' accumulators, indexed by `Color::index`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct Accumulator(pub [[i16; HALF]; 2]);

impl Default for Accumulator {
    fn default() -> Self {
        Accumulator([[0; HALF]; 2])
    }
}

static AVX2: LazyLock<bool> = LazyLock::new(|| {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx2") && std::env::var_os("KYOBO_NO_AVX2").is_none()
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
});

/// Whether the network runs its AVX2 code on this machine (AVX2 present and
/// `KYOBO_NO_AVX2` unset).
pub fn uses_avx2() -> bool {
    *AVX2
}

#[inline(always)]
fn apply_rows(acc: &mut [i16; HALF], weights: &[i16], added: &[usize], removed: &[usize]) {
    for &f in removed {
        let row = &weights[f * HALF..(f + 1) * HALF];
        for (a, w) in acc.iter_mut().zip(row) {
            *a = a.wrapping_sub(*w);
        }
    }
    for &f in added {
        let row = &weights[f * HALF..(f + 1) * HALF];
        for (a, w) in acc.iter_mut().zip(row) {
            *a = a.wrapping_add(*w);
        }
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn apply_rows_avx2(
    acc: &mut [i16; HALF],
    weights: &[i16],
    added: &[usize],
    removed: &[usize],
) {
    apply_rows(acc, weights, added, removed)
}

/// The dot products of one layer: `out[o] = biases[o] + Σ weights[o][i] × input[i]`.
#[inline(always)]
fn affine(input: &[u8], weights: &[i8], biases: &[i32], out: &mut [i32]) {
    for (o, sum) in out.iter_mut().enumerate() {
        let row = &weights[o * input.len()..(o + 1) * input.len()];
        *sum = biases[o]
            + input.iter().zip(row).map(|(&x, &w)| i32::from(x) * i32::from(w)).sum::<i32>();
    }
}

/// [`affine`] with AVX2's byte multiplies. Exact: an input is at most 127, so a
/// pair of products fits the 16-bit lanes `maddubs` saturates at.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn affine_avx2(input: &[u8], weights: &[i8], biases: &[i32], out: &mut [i32]) {
    use std::arch::x86_64::*;
    let n = input.len();
    assert!(n.is_multiple_of(32) && weights.len() >= out.len() * n && biases.len() >= out.len());
    let ones = _mm256_set1_epi16(1);
    for (o, sum) in out.iter_mut().enumerate() {
        let mut acc = _mm256_setzero_si256();
        for c in (0..n).step_by(32) {
            // SAFETY: `c + 32 <= n = input.len()` and `o * n + c + 32 <= weights.len()`
            // (asserted above); unaligned loads.
            let x = _mm256_loadu_si256(input.as_ptr().add(c) as *const __m256i);
            let w = _mm256_loadu_si256(weights.as_ptr().add(o * n + c) as *const __m256i);
            acc = _mm256_add_epi32(acc, _mm256_madd_epi16(_mm256_maddubs_epi16(x, w), ones));
        }
        let half = _mm_add_epi32(_mm256_castsi256_si128(acc), _mm256_extracti128_si256(acc, 1));
        let quarter = _mm_add_epi32(half, _mm_shuffle_epi32(half, 0b01_00_11_10));
        let one = _mm_add_epi32(quarter, _mm_shuffle_epi32(quarter, 0b10_11_00_01));
        *sum = biases[o] + _mm_cvtsi128_si32(one);
    }
}

/// Hidden layer 1 (512 inputs, 32 outputs) with AVX2, reading the weights by
/// groups of four inputs (`by_input`: `[input / 4][output][4]`) and skipping the
/// groups whose inputs are all zero, as most are. Exact, as [`affine_avx2`].
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn hidden1_sparse_avx2(
    input: &[u8; INPUTS],
    by_input: &[i8],
    biases: &[i32],
    out: &mut [i32; HIDDEN],
) {
    use std::arch::x86_64::*;
    assert!(by_input.len() == INPUTS * HIDDEN && biases.len() == HIDDEN);
    let ones = _mm256_set1_epi16(1);
    let mut acc = [_mm256_setzero_si256(); HIDDEN / 8];
    for (g, group) in input.chunks_exact(4).enumerate() {
        let x = u32::from_le_bytes([group[0], group[1], group[2], group[3]]);
        if x == 0 {
            continue;
        }
        let x = _mm256_set1_epi32(x as i32);
        for (k, a) in acc.iter_mut().enumerate() {
            // SAFETY: `g < INPUTS / 4` and `k < HIDDEN / 8`, so the 32 bytes read
            // start at most at `INPUTS * HIDDEN - 32` (asserted length); unaligned load.
            let w = _mm256_loadu_si256(
                by_input.as_ptr().add(g * HIDDEN * 4 + k * 32) as *const __m256i
            );
            *a = _mm256_add_epi32(*a, _mm256_madd_epi16(_mm256_maddubs_epi16(x, w), ones));
        }
    }
    for (k, a) in acc.iter().enumerate() {
        let mut lanes = [0i32; 8];
        // SAFETY: `lanes` is 32 bytes; unaligned store.
        _mm256_storeu_si256(lanes.as_mut_ptr() as *mut __m256i, *a);
        for (j, lane) in lanes.iter().enumerate() {
            out[k * 8 + j] = biases[k * 8 + j] + lane;
        }
    }
}

fn clipped(v: i32) -> u8 {
    (v >> WEIGHT_SCALE_BITS).clamp(0, 127) as u8
}

impl Network {
    /// Subtracts the weight rows of the features `removed` from one side's
    /// accumulator and adds those of `added` (indices from
    /// [`super::features::index`]).
    #[inline]
    pub fn update(&self, acc: &mut [i16; HALF], added: &[usize], removed: &[usize]) {
        #[cfg(target_arch = "x86_64")]
        if *AVX2 {
            // SAFETY: AVX2 is present (checked at run time in `AVX2`).
            unsafe { apply_rows_avx2(acc, &self.layers.feature_weights, added, removed) };
            return;
        }
        apply_rows(acc, &self.layers.feature_weights, added, removed)
    }

    /// One side's accumulator computed afresh from its active features.
    pub fn refresh(&self, acc: &mut [i16; HALF], features: &[usize]) {
        acc.copy_from_slice(&self.layers.feature_biases);
        self.update(acc, features, &[]);
    }

    /// Hidden layer 1's sums: by non-zero input groups with AVX2, plainly without.
    fn first_layer(&self, input: &[u8; INPUTS], out: &mut [i32; HIDDEN]) {
        #[cfg(target_arch = "x86_64")]
        if *AVX2 {
            // SAFETY: AVX2 is present (checked at run time in `AVX2`).
            unsafe {
                hidden1_sparse_avx2(input, &self.hidden1_by_input, &self.layers.hidden1_biases, out)
            };
            return;
        }
        affine(input, &self.layers.hidden1_weights, &self.layers.hidden1_biases, out)
    }

    /// Hidden layer 2's sums.
    fn second_layer(&self, input: &[u8; HIDDEN], out: &mut [i32; HIDDEN]) {
        #[cfg(target_arch = "x86_64")]
        if *AVX2 {
            // SAFETY: AVX2 is present (checked at run time in `AVX2`).
            unsafe {
                affine_avx2(input, &self.layers.hidden2_weights, &self.layers.hidden2_biases, out)
            };
            return;
        }
        affine(input, &self.layers.hidden2_weights, &self.layers.hidden2_biases, out)
    }

    /// The network's value for the side to move (`us`: `Color::index`), before
    /// it is divided by [`OUTPUT_SCALE`].
    pub fn propagate(&self, acc: &Accumulator, us: usize) -> i32 {
        #[repr(align(32))]
        struct Aligned<const N: usize>([u8; N]);
        let mut input = Aligned([0u8; INPUTS]);
        for (half, view) in [us, 1 - us].into_iter().enumerate() {
            for (x, &a) in input.0[half * HALF..(half + 1) * HALF].iter_mut().zip(&acc.0[view]) {
                *x = a.clamp(0, 127) as u8;
            }
        }
        let mut sums1 = [0i32; HIDDEN];
        let mut sums2 = [0i32; HIDDEN];
        let mut hidden1 = Aligned([0u8; HIDDEN]);
        let mut hidden2 = Aligned([0u8; HIDDEN]);
        self.first_layer(&input.0, &mut sums1);
        for (h, &s) in hidden1.0.iter_mut().zip(&sums1) {
            *h = clipped(s);
        }
        self.second_layer(&hidden1.0, &mut sums2);
        for (h, &s) in hidden2.0.iter_mut().zip(&sums2) {
            *h = clipped(s);
        }
        let mut output = [0i32; 1];
        affine(&hidden2.0, &self.layers.output_weights, &[self.layers.output_bias], &mut output);
        output[0]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn avx2_dot_products_equal_the_plain_ones() {
        if !uses_avx2() {
            // Straight to the terminal: the harness captures `eprintln!`.
            use std::io::Write;
            let _ = writeln!(
                std::io::stderr().lock(),
                "skipped avx2_dot_products_equal_the_plain_ones: no AVX2 here (or KYOBO_NO_AVX2)"
            );
            return;
        }
        #[cfg(target_arch = "x86_64")]
        {
            let mut seed = 12345u64;
            let mut next = || {
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                (seed >> 33) as u32
            };
            for _ in 0..50 {
                let input: Vec<u8> = (0..512).map(|_| (next() % 128) as u8).collect();
                let weights: Vec<i8> = (0..32 * 512).map(|_| next() as u8 as i8).collect();
                let biases: Vec<i32> = (0..32).map(|_| next() as i32 >> 8).collect();
                let (mut a, mut b) = ([0; 32], [0; 32]);
                affine(&input, &weights, &biases, &mut a);
                // SAFETY: `uses_avx2` says the CPU has AVX2.
                unsafe { affine_avx2(&input, &weights, &biases, &mut b) };
                assert_eq!(a, b);
                // The first layer by input groups, with many zero inputs.
                let sparse: Vec<u8> =
                    input.iter().map(|&x| if next() % 3 == 0 { x } else { 0 }).collect();
                let by_input = crate::nnue::file::by_input_groups(&weights);
                let mut c = [0; 32];
                affine(&sparse, &weights, &biases, &mut a);
                // SAFETY: `uses_avx2` says the CPU has AVX2.
                unsafe {
                    hidden1_sparse_avx2(
                        sparse.as_slice().try_into().unwrap(),
                        &by_input,
                        &biases,
                        &mut c,
                    )
                };
                assert_eq!(a, c);
            }
        }
    }
}
