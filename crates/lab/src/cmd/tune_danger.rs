//! Tunes the king-danger weights (`eval::king_safety::DangerWeights`) from
//! self-play results, with the linear weights fixed.
//!
//! The danger term is quadratic in its weights, so `tune.rs` (exact gradient of a
//! linear evaluation) keeps it fixed. Here the rest of the evaluation is fixed
//! instead and the danger weights are fitted by Texel's local search: each weight in
//! turn is moved up and down by a step, a move is kept when it lowers the training
//! error of `sigmoid(eval / K)` against the result, and the step halves after a pass
//! without gain. The weights with the lowest validation error are printed as Rust.
//!
//! ```text
//! cargo run --release -p lab -- tune-danger --data /tmp/kyobo-selfplay-both.txt --k 930
//! ```

use super::common::{arg, golden_section, load_split};
use eval::king_safety::{king_danger_with, DangerWeights, DANGER};
use eval::params;
use shogi::{Color, Position};

/// A position with its linear (fixed) part of the evaluation and the result (or the
/// blended target, see `--lambda`).
struct Sample {
    pos: Position,
    linear: f64,
    result: f64,
}

/// The expected result of an evaluation `v` (Black's side).
fn sigmoid(v: f64, k: f64) -> f64 {
    1.0 / (1.0 + (-v / k).exp())
}

fn mse(data: &[Sample], w: &DangerWeights, k: f64) -> f64 {
    let sum: f64 = data
        .iter()
        .map(|s| {
            let danger = king_danger_with(&s.pos, Color::White, w)
                - king_danger_with(&s.pos, Color::Black, w);
            (sigmoid(s.linear + danger as f64, k) - s.result).powi(2)
        })
        .sum();
    sum / data.len().max(1) as f64
}

/// The tunable entries, as mutable references in a fixed order.
fn entries(w: &mut DangerWeights) -> Vec<(&'static str, &mut i32)> {
    const ATTACKERS: [(usize, &str); 13] = [
        (1, "attack pawn"),
        (2, "attack lance"),
        (3, "attack knight"),
        (4, "attack silver"),
        (5, "attack bishop"),
        (6, "attack rook"),
        (7, "attack gold"),
        (9, "attack tokin"),
        (10, "attack +lance"),
        (11, "attack +knight"),
        (12, "attack +silver"),
        (13, "attack horse"),
        (14, "attack dragon"),
    ];
    const HAND: [&str; 7] = [
        "hand pawn",
        "hand lance",
        "hand knight",
        "hand silver",
        "hand gold",
        "hand bishop",
        "hand rook",
    ];
    let DangerWeights { attack, hand, defender_near, defender_far, scale, cap: _, guard } = w;
    let mut out: Vec<(&'static str, &mut i32)> = Vec::new();
    let mut attack_refs: Vec<Option<&mut i32>> = attack.iter_mut().map(Some).collect();
    for (i, name) in ATTACKERS {
        if let Some(r) = attack_refs[i].take() {
            out.push((name, r));
        }
    }
    for (r, name) in hand.iter_mut().zip(HAND) {
        out.push((name, r));
    }
    out.push(("defender near", defender_near));
    out.push(("defender far", defender_far));
    out.push(("scale", scale));
    out.push(("guard", guard));
    out
}

/// The error for scaled linear and danger parts of the evaluation (see `--scan`).
fn scan(data: &[Sample], k: f64) {
    let danger: Vec<f64> = data
        .iter()
        .map(|s| {
            f64::from(
                king_danger_with(&s.pos, Color::White, &DANGER)
                    - king_danger_with(&s.pos, Color::Black, &DANGER),
            )
        })
        .collect();
    println!("MSE over {} positions, rows: linear × a, columns: danger × b", data.len());
    let b_values = [0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0];
    println!("a \\ b {}", b_values.map(|b| format!("{b:>8}")).join(""));
    for a in [1.0, 0.8, 0.6, 0.4] {
        let row = b_values.map(|b| {
            let sum: f64 = data
                .iter()
                .zip(&danger)
                .map(|(s, d)| (sigmoid(a * s.linear + b * d, k) - s.result).powi(2))
                .sum();
            format!("{:>8.5}", sum / data.len().max(1) as f64)
        });
        println!("{a:<6} {}", row.join(""));
    }
}

pub fn main(args: Vec<String>) {
    let data_path: String = arg(&args, "--data", "/tmp/kyobo-selfplay.txt".to_string());
    let k: f64 = arg(&args, "--k", 930.0);
    let passes: usize = arg(&args, "--passes", 6);
    shogi::attacks::init();

    let w_linear: Vec<f64> = params::current().iter().map(|&x| x as f64).collect();
    // The same split as `tune.rs`.
    // As in `tune.rs`: with `--lambda` below 1 the target blends in the score of
    // column `--score-column` (3: GPS Shogi's, from `tools/gps_label.py`).
    let lambda: f64 = arg(&args, "--lambda", 1.0);
    let score_column: usize = arg(&args, "--score-column", 2);
    let (train, valid) = load_split(&data_path, score_column, |pos, result, score, _| {
        let f = params::features(&pos);
        (Sample { linear: f.eval(&w_linear) - f.fixed as f64, pos, result }, score)
    });
    let (train, valid) = if lambda < 1.0 {
        let scored: Vec<(f64, f64)> =
            train.iter().filter_map(|(s, score)| score.map(|v| (v, s.result))).collect();
        // `--ks K_s` fixes the scores' scale, as in `tune.rs`.
        let ks = match arg(&args, "--ks", 0.0) {
            ks if ks > 0.0 => ks,
            _ => golden_section(|ks| {
                scored.iter().map(|(v, y)| (sigmoid(*v, ks) - y).powi(2)).sum::<f64>()
            }),
        };
        eprintln!("K_s = {ks:.1} for the {} scores in column {score_column}", scored.len());
        let blend = |data: Vec<(Sample, Option<f64>)>| -> Vec<Sample> {
            data.into_iter()
                .map(|(mut s, score)| {
                    if let Some(v) = score {
                        s.result = lambda * s.result + (1.0 - lambda) * sigmoid(v, ks);
                    }
                    s
                })
                .collect()
        };
        (blend(train), blend(valid))
    } else {
        (train.into_iter().map(|x| x.0).collect(), valid.into_iter().map(|x| x.0).collect())
    };
    eprintln!("positions: {} train, {} validation", train.len(), valid.len());
    if args.iter().any(|a| a == "--scan") {
        let all: Vec<Sample> = train.into_iter().chain(valid).collect();
        scan(&all, k);
        return;
    }

    let mut w = DANGER;
    let mut err = mse(&train, &w, k);
    let mut best = (mse(&valid, &w, k), w);
    eprintln!("start: train {err:.6} validation {:.6}", best.0);
    let mut step_share = 4; // a step is a quarter of the weight, at least 1
    for pass in 1..=passes {
        let mut improved = false;
        let count = entries(&mut w.clone()).len();
        for i in 0..count {
            for sign in [1, -1] {
                let mut trial = w;
                {
                    let mut e = entries(&mut trial);
                    let v = &mut e[i].1;
                    let step = ((**v).abs() / step_share).max(1);
                    **v += sign * step;
                    if **v < 0 || (e[i].0 == "scale" && *e[i].1 < 1) {
                        continue;
                    }
                }
                let t = mse(&train, &trial, k);
                if t < err {
                    err = t;
                    w = trial;
                    improved = true;
                    break;
                }
            }
        }
        let v = mse(&valid, &w, k);
        if v < best.0 {
            best = (v, w);
        }
        eprintln!("pass {pass} (step 1/{step_share}): train {err:.6} validation {v:.6}");
        if !improved {
            step_share *= 2;
        }
    }
    let w = best.1;
    println!("// validation MSE {:.6} (start {:.6})", best.0, mse(&valid, &DANGER, k));
    println!("{w:?}");
    for (name, v) in entries(&mut w.clone()) {
        eprintln!("  {name:<16} {v}");
    }
}
