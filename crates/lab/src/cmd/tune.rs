//! Texel tuning of the evaluation weights from self-play results (`selfplay.rs`).
//!
//! Minimises the mean squared error between `sigmoid(eval / K)` and the game result
//! (Black's side) over the positions: first `K` with the current weights, then every
//! tunable weight (`eval::params`) at once by Adam on the exact gradient (the eval is
//! linear in the weights, so the gradient comes from the per-position feature counts),
//! with a small pull towards the starting weights so rarely seen features stay put.
//! Every tenth block of 500 positions is held out for validation, and the weights
//! with the lowest validation error (checked every 25 steps) are kept. With
//! `--lambda L` below 1, positions that carry the search's score are fitted to
//! `L × result + (1 − L) × sigmoid(score / K_s)`, where the score is the one in
//! column `--score-column` (2: the engine's own from `selfplay`; 3: GPS Shogi's from
//! `tools/gps_label.py`, a distillation target) and `K_s` is fitted the same way as
//! `K`, from the scores to the results (so a score on another scale fits too). The
//! weights are then kept by the validation error against that blended target; `--ks`
//! fixes `K_s` instead (`--k` fixes `K`). Where the data carry scores, the correlation
//! of the evaluation with them on the held-out positions is reported before and after
//! (`tools/gps_eval_label.py` labels positions with GPS Shogi's static evaluation).
//! `--heldout FILE` reports the same for positions kept out of the fit altogether.
//! `--progress-features` fits a model of the game's progress instead, and `--phase`
//! fits the phase weights along with the rest (see below and `eval::phase`).
//! `--only T1,T2` fits only the named tables and keeps the rest as compiled in. Writes
//! the weights as Rust source (`crates/eval/src/tuned_weights.rs`, compiled into the
//! engine). The error, its gradient, the scale fits, the split and the blend are in
//! `crate::tuning`, with their tests.
//!
//! ```text
//! cargo run --release -p lab -- tune \
//!     --data /tmp/kyobo-selfplay.txt --iters 600 --out crates/eval/src/tuned_weights.rs
//! ```

use super::common::{arg, load_split};
use crate::tuning::{
    blended_target, fit_scale, fit_score_scale, golden_section, gradient,
    mean_squared_error as mse, prior_pull, sigmoid, tunable_mask,
};
use eval::params::{self, Features};

/// Steps of the phase (the phase features' counts are scaled by up to this).
const STEPS: f64 = eval::phase::PHASE_STEPS as f64;

pub fn main(args: Vec<String>) {
    let data_path: String = arg(&args, "--data", "/tmp/kyobo-selfplay.txt".to_string());
    let iters: usize = arg(&args, "--iters", 600);
    let lr: f64 = arg(&args, "--lr", 1.0);
    let prior: f64 = arg(&args, "--prior", 1e-8);
    let out: String = arg(&args, "--out", String::new());
    // A line for the generated file's header, e.g. how the data was made.
    let note: String = arg(&args, "--note", String::new());
    shogi::attacks::init();

    // Weight of the game result in the training target; the rest is the search score.
    let lambda: f64 = arg(&args, "--lambda", 1.0);
    let score_column: usize = arg(&args, "--score-column", 2);
    // `--residuals N`: only list the N training positions the current weights miss the
    // target by most, to see what the evaluation does not know.
    let residuals: usize = arg(&args, "--residuals", 0);
    // `--only T1,T2`: fit only these tables (names as in `eval::params::TABLES`) and
    // keep every other weight as compiled in, e.g. new terms on data too thin to
    // refit the rest.
    let only: String = arg(&args, "--only", String::new());
    // `--heldout FILE`: positions kept out of the fit altogether (e.g. the games of
    // the engine being improved), on which the fit of the scores is reported before
    // and after: correlation, and the error against `sigmoid(score / K_s)`.
    let heldout_path: String = arg(&args, "--heldout", String::new());
    let tunable = tunable_mask(&only).unwrap_or_else(|unknown| {
        eprintln!("--only: {unknown}");
        std::process::exit(2);
    });
    // `--progress-features`: count every feature once for either side, without signs
    // or the king danger, to fit a model of the game's progress (the same from both
    // sides) instead of an evaluation; the result column then holds the progress
    // as a fraction (GPS Shogi's progress / 510).
    let progress_features = args.iter().any(|a| a == "--progress-features");
    // `--phase`: fit the phase weights too (`eval::phase`): every feature gets a
    // second weight, scaled by the phase t = min(progress / 256, 1) in 64ths, with the
    // progress from the compiled-in progress model, as the engine computes it; they
    // start from the compiled-in phase weights and are written to `--phase-out FILE`.
    // `--phase-model FILE` takes the progress model from FILE instead (weights written
    // by a `--progress-features` fit), and `--phase-column C` reads the progress from
    // column C (GPS Shogi's, 0-510), an experiment only (nothing is written).
    let phase_column: usize = arg(&args, "--phase-column", 0);
    let phase_model: Vec<i32> = match arg(&args, "--phase-model", String::new()) {
        path if path.is_empty() => params::progress(),
        path => {
            let src = std::fs::read_to_string(&path).expect("--phase-model file");
            params::parse_weights(&src).expect("--phase-model: weights as tune writes them")
        }
    };
    let phased = phase_column > 0
        || args.iter().any(|a| a == "--phase" || a == "--phase-model") && !progress_features;
    let phase_out: String = arg(&args, "--phase-out", String::new());
    // The phase weights' steps are this fraction of `--lr` (in centipawns at the full
    // phase; 1/64 moves them as fast as the base weights).
    let phase_lr: f64 = arg(&args, "--phase-lr", 1.0 / 64.0);
    let featurize = |pos: &shogi::Position, fields: &[&str]| -> Features {
        let mut f =
            if progress_features { params::progress_features(pos) } else { params::features(pos) };
        if phased {
            let steps = if phase_column > 0 {
                let progress = fields
                    .get(phase_column)
                    .and_then(|p| p.trim().parse::<f64>().ok())
                    .unwrap_or(0.0);
                ((progress / 256.0).clamp(0.0, 1.0) * 64.0).round() as i32
            } else {
                eval::phase::phase_of(params::progress_sum(pos, &phase_model))
            };
            f = params::with_phase(f, steps);
        }
        f
    };
    let (raw_train, raw_valid) = load_split(&data_path, score_column, |pos, y, score, fields| {
        let sfen = if residuals > 0 { pos.to_sfen() } else { String::new() };
        (featurize(&pos, fields), y, score, sfen)
    });
    let sfens: Vec<String> = raw_train.iter().map(|x| x.3.clone()).collect();
    let strip =
        |raw: Vec<(Features, f64, Option<f64>, String)>| -> Vec<(Features, f64, Option<f64>)> {
            raw.into_iter().map(|(f, y, s, _)| (f, y, s)).collect()
        };
    let (raw_train, raw_valid) = (strip(raw_train), strip(raw_valid));
    let valid: Vec<(Features, f64)> = raw_valid.iter().map(|(f, y, _)| (f.clone(), *y)).collect();
    // The held-out positions that carry a score, to report how closely the evaluation
    // follows it (a distillation target's fit, on any scale).
    let valid_scores: Vec<(Features, f64)> =
        raw_valid.iter().filter_map(|(f, _, s)| s.map(|s| (f.clone(), s))).collect();
    let train: Vec<(Features, f64)> = raw_train.iter().map(|(f, y, _)| (f.clone(), *y)).collect();
    eprintln!("positions: {} train, {} validation", train.len(), valid.len());
    let heldout: Vec<(Features, f64)> = if heldout_path.is_empty() {
        Vec::new()
    } else {
        let (a, b) = load_split(&heldout_path, score_column, |pos, _, score, fields| {
            score.map(|s| (featurize(&pos, fields), s))
        });
        a.into_iter().chain(b).flatten().collect()
    };

    let mut w0: Vec<f64> = params::current().iter().map(|&x| x as f64).collect();
    if progress_features {
        // The progress model has weights only where it has features.
        (0..params::N).filter(|&i| !params::is_incremental(i)).for_each(|i| w0[i] = 0.0);
    }
    if phased {
        w0.extend(params::phase().iter().map(|&x| x as f64 / STEPS));
    }
    let nw = w0.len();
    // K by golden-section search on the training error with the current weights.
    // `--k K` fixes the scale instead: a distillation target on another engine's scale
    // would otherwise stretch every weight to that engine's calibration.
    let fixed_k: f64 = arg(&args, "--k", 0.0);
    // `--ks K_s` fixes the scores' scale the same way, e.g. to the one fitted on games
    // against the engine that made them when the results at hand are noisier.
    let fixed_ks: f64 = arg(&args, "--ks", 0.0);
    let k = match fixed_k {
        k if k > 0.0 => k,
        _ => fit_scale(&train, &w0),
    };
    let (train0, valid0) = (mse(&train, &w0, k), mse(&valid, &w0, k));
    eprintln!("K = {k:.1}; MSE before: train {train0:.6}, validation {valid0:.6}");
    if !valid_scores.is_empty() {
        let r = correlation(&valid_scores, &w0);
        eprintln!("correlation with column {score_column} (validation) before: {r:.4}");
    }

    // The training target: the result, blended with the search score where known.
    let (fit, valid_target) = if lambda < 1.0 {
        let scored: Vec<(f64, f64)> =
            raw_train.iter().filter_map(|(_, y, s)| s.map(|s| (s, *y))).collect();
        let ks = match fixed_ks {
            ks if ks > 0.0 => ks,
            _ => fit_score_scale(&scored),
        };
        eprintln!("K_s = {ks:.1} for the {} scores in column {score_column}", scored.len());
        let blend = |raw: Vec<(Features, f64, Option<f64>)>| -> Vec<(Features, f64)> {
            raw.into_iter().map(|(f, y, score)| (f, blended_target(lambda, y, score, ks))).collect()
        };
        (blend(raw_train), blend(raw_valid))
    } else {
        (train.clone(), valid.clone())
    };
    let fit = &fit[..];
    if residuals > 0 {
        let mut worst: Vec<(f64, usize)> = fit
            .iter()
            .enumerate()
            .map(|(i, (f, y))| ((sigmoid(f.eval(&w0) / k) - y).abs(), i))
            .collect();
        worst.sort_by(|a, b| b.0.total_cmp(&a.0));
        for &(miss, i) in worst.iter().take(residuals) {
            let (f, y) = &fit[i];
            let target = k * (y / (1.0 - y)).ln();
            println!("{}\teval {:.0}\ttarget {target:.0}\tmiss {miss:.2}", sfens[i], f.eval(&w0));
        }
        return;
    }
    let mut w = w0.clone();
    let (mut m, mut v) = (vec![0.0; nw], vec![0.0; nw]);
    let (b1, b2, eps) = (0.9f64, 0.999f64, 1e-12);
    let mut best = (mse(&valid_target, &w0, k), w0.clone());
    for it in 1..=iters {
        let grad = gradient(fit, &w, k);
        for i in 0..nw {
            if grad[i] == 0.0 || !tunable[i % params::N] {
                continue; // a feature never seen, or a frozen table: keep the weight
            }
            let gi = grad[i] + prior_pull(prior, w[i], w0[i]);
            m[i] = b1 * m[i] + (1.0 - b1) * gi;
            v[i] = b2 * v[i] + (1.0 - b2) * gi * gi;
            let mh = m[i] / (1.0 - b1.powi(it as i32));
            let vh = v[i] / (1.0 - b2.powi(it as i32));
            let rate = if i < params::N { lr } else { lr * phase_lr };
            w[i] -= rate * mh / (vh.sqrt() + eps);
        }
        if it % 25 == 0 || it == iters {
            let e = mse(&valid_target, &w, k);
            if e < best.0 {
                best = (e, w.clone());
            }
            if it % 100 == 0 || it == iters {
                eprintln!(
                    "iter {it}: train (target) {:.6} validation (target) {e:.6}, (result) {:.6}",
                    mse(fit, &w, k),
                    mse(&valid, &w, k)
                );
            }
        }
    }
    let w = best.1;
    if !heldout.is_empty() {
        report_heldout(&heldout, &w0, &w, k, fixed_ks);
    }
    // Phase weights are written in centipawns at the full phase.
    let rounded: Vec<i32> = w
        .iter()
        .enumerate()
        .map(|(i, x)| if i < params::N { x.round() } else { (x * STEPS).round() } as i32)
        .collect();
    let wr: Vec<f64> = rounded
        .iter()
        .enumerate()
        .map(|(i, &x)| if i < params::N { x as f64 } else { x as f64 / STEPS })
        .collect();
    let (train1, valid1) = (mse(&train, &wr, k), mse(&valid, &wr, k));
    eprintln!("MSE after (rounded): train {train1:.6}, validation {valid1:.6}");
    if !valid_scores.is_empty() {
        let r = correlation(&valid_scores, &wr);
        eprintln!("correlation with column {score_column} (validation) after: {r:.4}");
    }

    let mut changes: Vec<(i32, usize)> =
        (0..params::N).map(|i| ((rounded[i] - w0[i] as i32).abs(), i)).collect();
    changes.sort_by(|x, y| y.cmp(x));
    for &(d, i) in changes.iter().take(25).filter(|c| c.0 > 0) {
        eprintln!("  {:<24} {:>5} -> {:>5} ({d})", params::name(i), w0[i], rounded[i]);
    }
    if phase_column > 0 {
        return; // GPS Shogi's progress is not the engine's: nothing to write
    }
    if !out.is_empty() {
        let header = format!(
            "Generated by `cargo run --release -p lab -- tune\n  \
             --data {data_path} --iters {iters} --lr {lr} --prior {prior} --lambda {lambda} --score-column {score_column}{}{}{}{}`.\n\
             {} training positions, K = {k:.1}; MSE train {train0:.6} -> {train1:.6}, \
             validation {valid0:.6} -> {valid1:.6}.",
            if fixed_k > 0.0 { format!(" --k {fixed_k}") } else { String::new() },
            if fixed_ks > 0.0 { format!(" --ks {fixed_ks}") } else { String::new() },
            if only.is_empty() { String::new() } else { format!(" --only {only}") },
            if phased { format!(" --phase --phase-lr {phase_lr}") } else { String::new() },
            train.len()
        ) + &if note.is_empty() { String::new() } else { format!("\n{note}") };
        std::fs::write(&out, params::to_rust(&rounded[..params::N], &header))
            .expect("write weights");
        eprintln!("wrote {out}");
        if phased && !phase_out.is_empty() {
            let header = format!("Phase weights (centipawns at the full phase) of:\n{header}");
            std::fs::write(&phase_out, params::to_rust(&rounded[params::N..], &header))
                .expect("write phase weights");
            eprintln!("wrote {phase_out}");
        }
    }
}

/// The fit of the held-out positions' scores with the starting weights `w0` and the
/// fitted `w`: correlation, and the mean squared error of `sigmoid(eval / k)` against
/// `sigmoid(score / ks)` (`ks` fitted to the starting weights when not fixed).
fn report_heldout(data: &[(Features, f64)], w0: &[f64], w: &[f64], k: f64, ks: f64) {
    let ks = match ks {
        ks if ks > 0.0 => ks,
        _ => golden_section(|ks| {
            data.iter().map(|(f, s)| (sigmoid(f.eval(w0) / k) - sigmoid(s / ks)).powi(2)).sum()
        }),
    };
    let target: Vec<(Features, f64)> =
        data.iter().map(|(f, s)| (f.clone(), sigmoid(s / ks))).collect();
    eprintln!(
        "held out ({} positions, K_s {ks:.0}): correlation {:.4} -> {:.4}, error {:.6} -> {:.6}",
        data.len(),
        correlation(data, w0),
        correlation(data, w),
        mse(&target, w0, k),
        mse(&target, w, k)
    );
}

/// Pearson's correlation between the evaluation and the score over `data`.
fn correlation(data: &[(Features, f64)], w: &[f64]) -> f64 {
    let n = data.len() as f64;
    let pairs: Vec<(f64, f64)> = data.iter().map(|(f, s)| (f.eval(w), *s)).collect();
    let (mx, my) = pairs.iter().fold((0.0, 0.0), |(a, b), (x, y)| (a + x / n, b + y / n));
    let (mut sxy, mut sxx, mut syy) = (0.0, 0.0, 0.0);
    for (x, y) in &pairs {
        sxy += (x - mx) * (y - my);
        sxx += (x - mx) * (x - mx);
        syy += (y - my) * (y - my);
    }
    sxy / (sxx * syy).sqrt().max(f64::MIN_POSITIVE)
}
