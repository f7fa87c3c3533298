//! Positions labelled by the handcrafted evaluation, for pretraining a network
//! (`nnue_train.rs --pretrain`): every position of a self-play file and up to
//! `--children N` positions one random legal move away from it, each with the
//! handcrafted static evaluation from Black's view, as
//! `SFEN<TAB>0.5<TAB>value` (the result column is a placeholder: pretraining
//! fits the values alone). Static values cost microseconds where searched ones
//! cost tens of milliseconds, so a network can first learn what the handcrafted
//! evaluation knows from millions of positions, then what the search adds from
//! the few it can label. Positions in check are left out, and so are the lines
//! `nnue_train.rs` holds out for validation (`eval::tuning::is_validation_line`),
//! so that the validation positions stay unseen. `--limit N` reads the first N
//! lines only (the strength-against-data curve). `--grandchildren M` adds up to
//! M positions one random legal move away from each child as well (two plies
//! from the game: more varied positions from the same games).
//!
//! ```text
//! cargo run --release -p eval --example nnue_teacher -- \
//!     --data nnue-data.txt --children 24 --out nnue-teacher.txt
//! ```

mod common;

use common::arg;
use eval::evaluate::evaluate;
use eval::incremental::full;
use shogi::{legal_moves, Color, Position};
use std::io::{BufWriter, Write};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let data: String = arg(&args, "--data", "nnue-data.txt".to_string());
    let out: String = arg(&args, "--out", "nnue-teacher.txt".to_string());
    let children: usize = arg(&args, "--children", 24);
    let grandchildren: usize = arg(&args, "--grandchildren", 0);
    let limit: usize = arg(&args, "--limit", usize::MAX);
    let mut rng: u64 = arg(&args, "--seed", 1u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    shogi::attacks::init();

    let start = Instant::now();
    let text = std::fs::read_to_string(&data).expect("data file");
    let mut w = BufWriter::new(std::fs::File::create(&out).expect("output file"));
    let mut written = 0usize;
    let mut write = |pos: &Position, w: &mut BufWriter<std::fs::File>| {
        if pos.in_check() {
            return;
        }
        let value = evaluate(pos, full(pos));
        let black = if pos.side_to_move() == Color::Black { value } else { -value };
        writeln!(w, "{}\t0.5\t{black}", pos.to_sfen()).expect("write");
        written += 1;
    };
    for (n, line) in text.lines().enumerate().take(limit) {
        if eval::tuning::is_validation_line(n) {
            continue;
        }
        let Some(sfen) = line.split('\t').next() else { continue };
        let Ok(pos) = Position::from_sfen(sfen) else { continue };
        write(&pos, &mut w);
        for child in random_children(&pos, children, &mut rng) {
            write(&child, &mut w);
            for grandchild in random_children(&child, grandchildren, &mut rng) {
                write(&grandchild, &mut w);
            }
        }
    }
    w.flush().expect("flush");
    let seconds = start.elapsed().as_secs_f64();
    eprintln!(
        "{written} positions in {seconds:.1} s ({:.0} positions/s) -> {out}",
        written as f64 / seconds
    );
}

/// Up to `count` distinct positions one random legal move away from `pos`.
fn random_children(pos: &Position, count: usize, rng: &mut u64) -> Vec<Position> {
    if count == 0 {
        return Vec::new();
    }
    let mut moves: Vec<shogi::Move> = legal_moves(pos).iter().copied().collect();
    let mut children = Vec::with_capacity(count.min(moves.len()));
    for k in 0..count.min(moves.len()) {
        *rng ^= *rng << 13;
        *rng ^= *rng >> 7;
        *rng ^= *rng << 17;
        let pick = k + (*rng % (moves.len() - k) as u64) as usize;
        moves.swap(k, pick);
        let mut child = pos.clone();
        child.do_move(moves[k]);
        children.push(child);
    }
    children
}
