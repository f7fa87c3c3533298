//! The arithmetic of the Texel tuner (`kyobo-lab tune`), apart from reading files
//! and flags, so that it can be tested.
//!
//! A position with features `f` ([`Features`]) and weights `w` evaluates to
//! `e = f.fixed + Σ_i w_i × c_i` (Black's side), and the tuner reads that as the
//! expected result `p = sigmoid(e / K)`, where `sigmoid(x) = 1 / (1 + exp(−x))`.
//! Over `n` samples with targets `y` it minimises the mean squared error
//!
//! ```text
//! E(w) = 1/n × Σ (sigmoid(e / K) − y)²
//! ```
//!
//! whose gradient, since `e` is linear in the weights and `sigmoid' = p (1 − p)`, is
//!
//! ```text
//! ∂E/∂w_i = 1/n × Σ 2 (p − y) p (1 − p) / K × c_i
//! ```
//!
//! ([`gradient`]), plus `2 × prior × (w_i − w0_i)` from the pull `prior × (w_i − w0_i)²`
//! towards the starting weights ([`prior_pull`]). The scale `K` is the one in 20..2000
//! that minimises `E` with the starting weights, found by golden-section search
//! ([`golden_section`], [`fit_scale`]).
//!
//! The target is the game result, or with `λ < 1` and a search score `s` known,
//! `λ × result + (1 − λ) × sigmoid(s / K_s)` ([`blended_target`]), with `K_s` fitted from
//! the scores to the results the same way ([`fit_score_scale`]). Lines of the data file
//! go to training or validation in blocks ([`is_validation_line`]), and `--only`
//! restricts the fit to some weight tables ([`tunable_mask`]).

use eval::params::{self, Features};
use std::fmt;

/// Lines of the data file that go to the same side of the split (about ten games,
/// so that a game rarely straddles it).
pub const SPLIT_BLOCK_LINES: usize = 500;

/// One block in this many is held out for validation (the last of each run).
pub const SPLIT_PERIOD_BLOCKS: usize = 10;

/// The logistic function `1 / (1 + exp(−x))`: 0.5 at 0, towards 0 and 1 at −∞ and +∞.
pub fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The mean over `data` (features, target) of `(sigmoid(f.eval(w) / k) − target)²`;
/// 0 for no data. `w` must cover every index in the features.
pub fn mean_squared_error(data: &[(Features, f64)], w: &[f64], k: f64) -> f64 {
    let sum: f64 = data.iter().map(|(f, y)| (sigmoid(f.eval(w) / k) - y).powi(2)).sum();
    sum / data.len().max(1) as f64
}

/// The exact gradient of [`mean_squared_error`]`(data, w, k)` with respect to `w`: one
/// entry per weight, exactly 0 for a weight no sample's features use.
pub fn gradient(data: &[(Features, f64)], w: &[f64], k: f64) -> Vec<f64> {
    let mut grad = vec![0.0; w.len()];
    let scale = 1.0 / data.len().max(1) as f64;
    for (f, y) in data {
        let p = sigmoid(f.eval(w) / k);
        // d/de (p − y)² = 2 (p − y) p (1 − p) / k, and de/dw_i is the count.
        let d = 2.0 * (p - y) * p * (1.0 - p) / k * scale;
        for &(i, c) in &f.counts {
            grad[i as usize] += d * c as f64;
        }
    }
    grad
}

/// The derivative with respect to `weight` of `prior × (weight − start)²`: the pull
/// that keeps rarely seen weights near where they started.
pub fn prior_pull(prior: f64, weight: f64, start: f64) -> f64 {
    2.0 * prior * (weight - start)
}

/// The `x` in 20..2000 that minimises `error`, by 40 steps of golden-section search
/// (to within about 1e-5). `error` must have a single minimum in the range; a minimum
/// outside it gives the nearer end.
pub fn golden_section(error: impl Fn(f64) -> f64) -> f64 {
    let (mut a, mut b) = (20.0f64, 2000.0f64);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..40 {
        let (c, d) = (b - g * (b - a), a + g * (b - a));
        if error(c) < error(d) {
            b = d;
        } else {
            a = c;
        }
    }
    (a + b) / 2.0
}

/// The scale `K` that minimises [`mean_squared_error`]`(data, w, K)`, by
/// [`golden_section`].
pub fn fit_scale(data: &[(Features, f64)], w: &[f64]) -> f64 {
    golden_section(|k| mean_squared_error(data, w, k))
}

/// The scale `K_s` that minimises `Σ (sigmoid(score / K_s) − result)²` over `scored`
/// (score, result) pairs, by [`golden_section`]: how the scores map to results.
pub fn fit_score_scale(scored: &[(f64, f64)]) -> f64 {
    golden_section(|ks| scored.iter().map(|(s, y)| (sigmoid(s / ks) - y).powi(2)).sum::<f64>())
}

/// The training target of a sample with `result` and maybe a search `score`:
/// `lambda × result + (1 − lambda) × sigmoid(score / score_scale)` when the score is
/// known, else the result.
pub fn blended_target(lambda: f64, result: f64, score: Option<f64>, score_scale: f64) -> f64 {
    match score {
        Some(s) => lambda * result + (1.0 - lambda) * sigmoid(s / score_scale),
        None => result,
    }
}

/// Whether line `line` (0-based, counting every line of the file, unreadable ones
/// too) of the data is held out for validation: blocks of [`SPLIT_BLOCK_LINES`]
/// lines, the last of every [`SPLIT_PERIOD_BLOCKS`] blocks held out.
pub fn is_validation_line(line: usize) -> bool {
    (line / SPLIT_BLOCK_LINES) % SPLIT_PERIOD_BLOCKS == SPLIT_PERIOD_BLOCKS - 1
}

/// A name in `--only` that is none of [`params::TABLES`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownTable(pub String);

impl fmt::Display for UnknownTable {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "no table named {}", self.0)
    }
}

impl std::error::Error for UnknownTable {}

/// Which of the [`params::N`] weights the fit may move: all for an empty `only`, else
/// those of the comma-separated tables named in it (as in [`params::TABLES`]). A name
/// that is no table (an empty one included) is an error.
pub fn tunable_mask(only: &str) -> Result<Vec<bool>, UnknownTable> {
    if only.is_empty() {
        return Ok(vec![true; params::N]);
    }
    let mut mask = vec![false; params::N];
    for name in only.split(',') {
        let table = params::TABLES
            .iter()
            .find(|t| t.name == name)
            .ok_or_else(|| UnknownTable(name.to_string()))?;
        mask[table.offset..table.offset + table.len()].iter_mut().for_each(|m| *m = true);
    }
    Ok(mask)
}

#[cfg(test)]
mod tests {
    use super::*;
    use shogi::Position;

    /// Central differences of the penalised error against [`gradient`] plus
    /// [`prior_pull`], weight by weight; the relative error of each must be tiny.
    fn check_gradient(data: &[(Features, f64)], w: &[f64], start: &[f64], k: f64, prior: f64) {
        let objective = |w: &[f64]| {
            let pull: f64 = w.iter().zip(start).map(|(x, s)| prior * (x - s).powi(2)).sum();
            mean_squared_error(data, w, k) + pull
        };
        let data_grad = gradient(data, w, k);
        assert_eq!(data_grad.len(), w.len());
        let used: Vec<bool> = (0..w.len())
            .map(|i| {
                data.iter().any(|(f, _)| f.counts.iter().any(|&(j, c)| j as usize == i && c != 0))
            })
            .collect();
        let mut checked = 0;
        for i in 0..w.len() {
            if !used[i] {
                assert_eq!(data_grad[i], 0.0, "weight {i} is in no features");
                continue;
            }
            let h = 1e-3;
            let (mut up, mut down) = (w.to_vec(), w.to_vec());
            up[i] += h;
            down[i] -= h;
            let numeric = (objective(&up) - objective(&down)) / (2.0 * h);
            let exact = data_grad[i] + prior_pull(prior, w[i], start[i]);
            let relative = (exact - numeric).abs() / exact.abs().max(numeric.abs());
            assert!(relative < 1e-6, "weight {i}: exact {exact:e}, numeric {numeric:e}");
            checked += 1;
        }
        assert!(checked > 0);
    }

    #[test]
    fn the_gradient_matches_finite_differences_on_synthetic_features() {
        let data = vec![
            (Features { counts: vec![(0, 1), (1, -2), (3, 4)], fixed: 30 }, 1.0),
            (Features { counts: vec![(1, 3), (2, -1)], fixed: -120 }, 0.0),
            (Features { counts: vec![(0, -1), (2, 2), (3, -1)], fixed: 0 }, 0.5),
            (Features { counts: vec![(3, 7)], fixed: 250 }, 0.8),
        ];
        // Weight 4 is in no features: its gradient must be exactly 0.
        let w = [90.0, -35.0, 140.0, 20.0, 7.0];
        let start = [100.0, -30.0, 120.0, 25.0, 7.0];
        check_gradient(&data, &w, &start, 150.0, 0.0);
        check_gradient(&data, &w, &start, 150.0, 1e-4);
    }

    #[test]
    fn the_gradient_matches_finite_differences_on_real_positions() {
        shogi::attacks::init();
        let sfens = [
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2",
            "ln1g3nl/1r1s1kg2/p1ppppsp1/1p4p1p/7P1/2P3P2/PPSPPP2P/2G1K2R1/LN3GSNL b Bb 19",
            "4k4/9/4n4/9/3G1R3/9/9/9/4K4 b - 1",
        ];
        let mut data: Vec<(Features, f64)> = vec![(params::features(&Position::startpos()), 0.5)];
        for (n, sfen) in sfens.iter().enumerate() {
            let pos = Position::from_sfen(sfen).unwrap();
            // One with phase features (indices from N), as `--phase` fits them.
            let f = if n == 1 {
                params::with_phase(params::features(&pos), 40)
            } else {
                params::features(&pos)
            };
            data.push((f, [0.0, 1.0, 0.7][n]));
        }
        let start: Vec<f64> = params::current()
            .iter()
            .map(|&x| x as f64)
            .chain(params::phase().iter().map(|&x| x as f64 / eval::phase::PHASE_STEPS as f64))
            .collect();
        // Away from the start, so that the pull is not zero.
        let w: Vec<f64> = start.iter().enumerate().map(|(i, x)| x + (i % 7) as f64 - 3.5).collect();
        check_gradient(&data, &w, &start, 600.0, 1e-6);
    }

    #[test]
    fn the_error_is_the_mean_of_the_squared_misses() {
        let even = Features { counts: vec![(0, 1)], fixed: 0 };
        let data = vec![(even.clone(), 1.0), (even, 0.0)];
        // sigmoid(0) = 0.5 misses both targets by 0.5.
        assert_eq!(mean_squared_error(&data, &[0.0], 100.0), 0.25);
        assert_eq!(mean_squared_error(&[], &[0.0], 100.0), 0.0);
        assert_eq!(sigmoid(0.0), 0.5);
        assert!((sigmoid(2.0) + sigmoid(-2.0) - 1.0).abs() < 1e-15);
    }

    #[test]
    fn golden_section_finds_the_minimum_of_a_parabola() {
        let x = golden_section(|x| (x - 777.0).powi(2));
        assert!((x - 777.0).abs() < 1e-3, "{x}");
        // A minimum outside the range gives its nearer end.
        assert!((golden_section(|x| x) - 20.0).abs() < 1e-3);
    }

    #[test]
    fn the_scale_fit_recovers_a_known_scale() {
        const K: f64 = 600.0;
        let evals: Vec<f64> = (-20..=20).map(|i| i as f64 * 100.0 + 13.0).collect();
        // The evaluation is weight 0 (1.0) times the count, plus the fixed part.
        let data: Vec<(Features, f64)> = evals
            .iter()
            .map(|&e| (Features { counts: vec![(0, 1)], fixed: e as i32 - 1 }, sigmoid(e / K)))
            .collect();
        let k = fit_scale(&data, &[1.0]);
        assert!((k - K).abs() / K < 1e-3, "K = {k}");

        const KS: f64 = 1200.0;
        let scored: Vec<(f64, f64)> = evals.iter().map(|&s| (s, sigmoid(s / KS))).collect();
        let ks = fit_score_scale(&scored);
        assert!((ks - KS).abs() / KS < 1e-3, "K_s = {ks}");
    }

    #[test]
    fn every_tenth_block_of_500_lines_is_held_out() {
        let validation =
            |lines: std::ops::Range<usize>| lines.map(is_validation_line).collect::<Vec<_>>();
        assert!(validation(0..4500).iter().all(|&v| !v));
        assert!(validation(4500..5000).iter().all(|&v| v));
        assert!(validation(5000..9500).iter().all(|&v| !v));
        assert!(validation(9500..10000).iter().all(|&v| v));
        assert!(!is_validation_line(10000));
        assert!(is_validation_line(14_999));
        let held_out = validation(0..100_000).iter().filter(|&&v| v).count();
        assert_eq!(held_out, 10_000);
    }

    #[test]
    fn lambda_blends_the_result_with_the_scaled_score() {
        let (result, score, ks) = (1.0, -300.0, 450.0);
        let from_score = sigmoid(score / ks);
        assert_eq!(blended_target(1.0, result, Some(score), ks), result);
        assert_eq!(blended_target(0.0, result, Some(score), ks), from_score);
        assert_eq!(blended_target(0.5, result, Some(score), ks), (result + from_score) / 2.0);
        for lambda in [0.0, 0.3, 1.0] {
            assert_eq!(blended_target(lambda, 0.5, None, ks), 0.5);
        }
    }

    #[test]
    fn only_the_named_tables_are_tunable() {
        let all = tunable_mask("").unwrap();
        assert_eq!(all, vec![true; params::N]);

        let mask = tunable_mask("KING_RANK,TEMPO").unwrap();
        assert_eq!(mask.len(), params::N);
        let expected: Vec<usize> = (params::KR..params::KR + 9).chain([params::TEMPO_AT]).collect();
        let tunable: Vec<usize> = (0..params::N).filter(|&i| mask[i]).collect();
        assert_eq!(tunable, expected);

        assert_eq!(tunable_mask("KING_RANK,NO_SUCH"), Err(UnknownTable("NO_SUCH".into())));
        assert_eq!(tunable_mask("TEMPO,"), Err(UnknownTable(String::new())));
        assert_eq!(UnknownTable("X".into()).to_string(), "no table named X");
    }
}
