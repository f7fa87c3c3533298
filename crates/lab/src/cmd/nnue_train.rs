//! Trains a halfKP 256x2-32-32 network on self-play positions (`selfplay.rs`:
//! `SFEN<TAB>result<TAB>score`, Black's view) and writes it as `nn.bin`
//! (`crate::trainer`).
//!
//! Blocks of 500 lines (about ten games), every tenth held out, are the
//! validation set; the network is written after each epoch whose validation
//! loss is the lowest so far. `--limit N` trains on the training positions
//! of the first N lines only (the strength-against-data curve; the validation
//! set stays the whole file's). The learning rate is
//! multiplied by `--decay` after each epoch. At the end the file's integer
//! values are compared with the float network's on validation positions each
//! time the file is written.
//! `--mirror` adds each training position mirrored left to right;
//! `--factors-only` trains without the rows of each (king square, piece) pair.
//! The last `--exact-epochs` epochs (all of them unless told) train in the
//! file's integer arithmetic, so the file's values are the network's exactly.
//! `--pretrain FILE` first trains `--pretrain-epochs` epochs (learning rate
//! `--pretrain-lr`, 4e-3 unless told) on the values of another file
//! (`nnue_teacher.rs`: the handcrafted evaluation's), then on the data from
//! `--lr`; in the smooth arithmetic with `--pretrain-smooth`; with `--epochs 0`
//! the pretrained network is written as it is. `--warmup N` raises the rate
//! linearly over the first N steps (1,000 unless told): without it Adam's first
//! steps at 4e-3 could leave the first hidden layer with no unit, or one, in its
//! clipping range for good, and the network learnt nothing, or little. The layers
//! above the transformer learn at `--dense-lr-scale` times the rate (0.25 unless
//! told: copies followed the handcrafted evaluation among children more closely
//! than at 1.0). `--report N` prints the recent loss and each hidden layer's live
//! units every N batches (2,000 unless told; 0, never). `--threads N` shares each
//! batch among N threads (the machine's cores; the default is one).
//!
//! ```text
//! cargo run --release -p lab -- nnue-train \
//!     --data nnue-data.txt --epochs 12 --out nets/nn.bin
//! ```

use super::common::{arg, load_split};
use crate::trainer::{Sample, Settings, Trainer};
use eval::nnue::file::HIDDEN;
use eval::nnue::stack::evaluate_afresh;
use std::io::Write;
use std::sync::Arc;
use std::time::Instant;

pub fn main(args: Vec<String>) {
    let data: String = arg(&args, "--data", "nnue-data.txt".to_string());
    let out: String = arg(&args, "--out", "nn.bin".to_string());
    let epochs: usize = arg(&args, "--epochs", 12);
    let batch_size: usize = arg(&args, "--batch", 1024);
    let limit: usize = arg(&args, "--limit", usize::MAX);
    let seed: u64 = arg(&args, "--seed", 1);
    let decay: f32 = arg(&args, "--decay", 0.8);
    let exact_epochs: usize = arg(&args, "--exact-epochs", epochs);
    // Batches between progress lines (0: none).
    let report: usize = arg(&args, "--report", 2000);
    let defaults = Settings::default();
    let settings = Settings {
        scale: arg(&args, "--scale", defaults.scale),
        lambda: arg(&args, "--lambda", defaults.lambda),
        learning_rate: arg(&args, "--lr", defaults.learning_rate),
        own_rows: !args.iter().any(|a| a == "--factors-only"),
        threads: arg(&args, "--threads", defaults.threads),
        warmup_steps: arg(&args, "--warmup", 1000),
        dense_rate_scale: arg(&args, "--dense-lr-scale", 0.25),
        ..defaults
    };
    shogi::attacks::init();

    let start = Instant::now();
    let (train, valid) = load_split(&data, 2, |pos, result, score, fields| {
        let sample = Sample::new(&pos, score.unwrap_or(0.0) as f32, result as f32);
        (sample.filter(|_| score.is_some()), fields[0].to_string())
    });
    let mut train: Vec<Sample> = train.into_iter().filter_map(|(s, _)| s).collect();
    // The first `limit` lines' training positions (the teacher's `--limit`).
    let limit_lines = train_lines_before(limit);
    train.truncate(limit_lines);
    if args.iter().any(|a| a == "--mirror") {
        let mirrored: Vec<Sample> = train.iter().map(Sample::mirrored).collect();
        train.extend(mirrored);
    }
    let valid: Vec<(Sample, String)> =
        valid.into_iter().filter_map(|(s, sfen)| Some((s?, sfen))).collect();
    let seconds = start.elapsed().as_secs_f64();
    eprintln!(
        "read {} training and {} validation positions in {seconds:.1} s ({:.0} positions/s)",
        train.len(),
        valid.len(),
        (train.len() + valid.len()) as f64 / seconds
    );

    let mut trainer = Trainer::new(seed, settings);
    let valid_loss = |t: &Trainer| {
        valid.iter().map(|(s, _)| t.loss(s) as f64).sum::<f64>() / valid.len().max(1) as f64
    };
    let handcrafted = valid
        .iter()
        .filter_map(|(s, sfen)| {
            let pos = shogi::Position::from_sfen(sfen).ok()?;
            let value = eval::evaluate::evaluate(&pos, eval::incremental::full(&pos));
            Some(trainer.loss_at(value as f32, s) as f64)
        })
        .sum::<f64>()
        / valid.len().max(1) as f64;
    eprintln!(
        "epoch 0: validation loss {:.5} (the handcrafted evaluation's: {handcrafted:.5})",
        valid_loss(&trainer)
    );
    let mut rng = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    if let Some(path) = args.iter().position(|a| a == "--pretrain").and_then(|i| args.get(i + 1)) {
        let begun = Instant::now();
        let text = std::fs::read_to_string(path).expect("pretraining file");
        let mut samples: Vec<Sample> = text.lines().filter_map(Sample::parse).collect();
        if args.iter().any(|a| a == "--mirror") {
            let mirrored: Vec<Sample> = samples.iter().map(Sample::mirrored).collect();
            samples.extend(mirrored);
        }
        eprintln!(
            "pretraining on {} positions of {path}, read in {:.1} s",
            samples.len(),
            begun.elapsed().as_secs_f64()
        );
        let lambda = trainer.settings.lambda;
        trainer.settings.lambda = 1.0; // the teacher's values carry no results
        trainer.settings.learning_rate = arg(&args, "--pretrain-lr", 4e-3);
        trainer.settings.exact = !args.iter().any(|a| a == "--pretrain-smooth");
        for epoch in 1..=arg(&args, "--pretrain-epochs", 1usize) {
            let (loss, rate) = run_epoch(&mut trainer, &samples, &mut rng, batch_size, report);
            eprintln!(
                "pretraining epoch {epoch}: training loss {loss:.5}, validation loss {:.5}, \
                 {rate:.0} positions/s",
                valid_loss(&trainer)
            );
            trainer.settings.learning_rate *= decay;
        }
        trainer.settings.lambda = lambda;
        trainer.settings.learning_rate = settings.learning_rate;
    }
    let mut best = f64::MAX;
    for epoch in 1..=epochs {
        // In the file's arithmetic for the last epochs (all by default), so
        // that the rounding is trained for.
        trainer.settings.exact = epoch + exact_epochs > epochs;
        let (loss, rate) = run_epoch(&mut trainer, &train, &mut rng, batch_size, report);
        let v = valid_loss(&trainer);
        eprintln!(
            "epoch {epoch}: training loss {loss:.5}, validation loss {v:.5}, {rate:.0} positions/s, \
             lr {:.2e}",
            trainer.settings.learning_rate
        );
        if v < best {
            best = v;
            write_network(&trainer, &out, &valid);
        }
        trainer.settings.learning_rate *= decay;
    }

    if epochs == 0 {
        // Pretrained only: the network as the teacher's values left it.
        write_network(&trainer, &out, &valid);
        eprintln!("validation loss {:.5}: {out}", valid_loss(&trainer));
    } else {
        eprintln!("best validation loss {best:.5}: {out}");
    }
}

/// Writes the trainer's network to `out` as `nn.bin`, and reports how far the
/// file's integer values are from the float network's on validation positions.
fn write_network(trainer: &Trainer, out: &str, valid: &[(Sample, String)]) {
    let network = trainer.quantize();
    let mut bytes = Vec::new();
    network.write(&mut bytes).expect("write to memory");
    let mut file = std::fs::File::create(out).expect("create the output file");
    file.write_all(&bytes).expect("write the output file");
    let network = Arc::new(network);
    let (mut diff, mut n) = (0.0f64, 0usize);
    for (sample, sfen) in valid.iter().take(2000) {
        let Ok(pos) = shogi::Position::from_sfen(sfen) else { continue };
        if let Some(int) = evaluate_afresh(&network, &pos) {
            diff += (trainer.value(sample) as f64 - int as f64).abs();
            n += 1;
        }
    }
    eprintln!(
        "  written {out}: file vs float mean |difference| {:.1} cp on {n} positions",
        diff / n.max(1) as f64
    );
}

/// One pass over `samples` in a random order; returns the mean training loss
/// and the positions trained per second. Every `report` batches it prints the
/// recent loss and the hidden layers' live units.
fn run_epoch(
    trainer: &mut Trainer,
    samples: &[Sample],
    rng: &mut u64,
    batch: usize,
    report: usize,
) -> (f64, f64) {
    let begun = Instant::now();
    let mut order: Vec<usize> = (0..samples.len()).collect();
    for i in (1..order.len()).rev() {
        *rng ^= *rng << 13;
        *rng ^= *rng >> 7;
        *rng ^= *rng << 17;
        order.swap(i, (*rng % (i as u64 + 1)) as usize);
    }
    let (mut loss, mut batches) = (0.0f64, 0usize);
    let mut recent = 0.0f64;
    let probe: Vec<Sample> = samples.iter().step_by(samples.len() / 2000 + 1).cloned().collect();
    for chunk in order.chunks(batch) {
        let batch: Vec<&Sample> = chunk.iter().map(|&i| &samples[i]).collect();
        let step = trainer.step(&batch) as f64;
        loss += step;
        recent += step;
        batches += 1;
        if report > 0 && batches % report == 0 {
            // A stall shows here first: the loss stops falling and a hidden
            // layer's live units go to none.
            let [first, second] = trainer.live_units(&probe);
            eprintln!(
                "  step {}: training loss {:.5} over the last {report} batches, \
                 live units {first} and {second} of {HIDDEN}",
                trainer.steps(),
                recent / report as f64
            );
            recent = 0.0;
        }
    }
    let rate = samples.len() as f64 / begun.elapsed().as_secs_f64();
    (loss / batches.max(1) as f64, rate)
}

/// How many training (not held-out) lines come before line `limit`.
fn train_lines_before(limit: usize) -> usize {
    if limit == usize::MAX {
        return limit;
    }
    (0..limit).filter(|&n| !crate::tuning::is_validation_line(n)).count()
}
