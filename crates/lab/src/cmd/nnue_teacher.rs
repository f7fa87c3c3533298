//! Positions labelled by the handcrafted evaluation, for pretraining a network
//! (`nnue_train.rs --pretrain`): every position of a self-play file and up to
//! `--children N` positions one random legal move away from it, each with the
//! handcrafted static evaluation from Black's view, as
//! `SFEN<TAB>0.5<TAB>value` (the result column is a placeholder: pretraining
//! fits the values alone). Static values cost microseconds where searched ones
//! cost tens of milliseconds, so a network can first learn what the handcrafted
//! evaluation knows from millions of positions, then what the search adds from
//! the few it can label. Positions in check are left out, and so are the lines
//! `nnue_train.rs` holds out for validation (`crate::tuning::is_validation_line`),
//! so that the validation positions stay unseen. `--limit N` reads the first N
//! lines only (the strength-against-data curve). `--grandchildren M` adds up to
//! M positions one random legal move away from each child as well (two plies
//! from the game: more varied positions from the same games).
//!
//! `--search-depth D` values each position by a search of `D` plies (PVS with
//! the handcrafted evaluation and its quiescence search, scores clamped to
//! ±5000) instead of the static evaluation: labels that know the captures and
//! threats one or two moves ahead, which the static evaluation's piece-by-piece
//! part cannot see, at about 1,700 positions a second a process (with glibc's
//! `MALLOC_MMAP_THRESHOLD_=1000000` in the environment: each search allocates
//! its continuation history anew, and reused memory has to be cleared, which
//! takes most of the time without it). `--shard I/N` labels
//! only the lines whose number is `I` modulo `N`, so that `N` processes share
//! the work (concatenate their outputs). With `--quiet-only` a searched position
//! is kept only where the search's best move is quiet (no capture, no
//! promotion), as the self-play data keeps its positions: a random child often
//! leaves a piece hanging, and its searched value then says what the capture
//! wins, which the evaluation is not asked (the quiescence search takes it).
//!
//! ```text
//! cargo run --release -p lab -- nnue-teacher \
//!     --data nnue-data.txt --children 24 --out nnue-teacher.txt
//! MALLOC_MMAP_THRESHOLD_=1000000 cargo run --release -p lab -- nnue-teacher \
//!     --data nnue-data.txt --children 12 --search-depth 2 --shard 0/2 --out t0.txt
//! ```

use super::common::arg;
use eval::evaluate::evaluate;
use eval::incremental::full;
use search::engine::Signals;
use search::{Engine, Limits};
use shogi::{legal_moves, Color, Position};
use shogi_game::ShogiGame;
use std::io::{BufWriter, Write};
use std::time::Instant;

pub fn main(args: Vec<String>) {
    let data: String = arg(&args, "--data", "nnue-data.txt".to_string());
    let out: String = arg(&args, "--out", "nnue-teacher.txt".to_string());
    let children: usize = arg(&args, "--children", 24);
    let grandchildren: usize = arg(&args, "--grandchildren", 0);
    let limit: usize = arg(&args, "--limit", usize::MAX);
    let search_depth: i32 = arg(&args, "--search-depth", 0);
    let shard: String = arg(&args, "--shard", "0/1".to_string());
    let (shard, shards) = shard
        .split_once('/')
        .and_then(|(i, n)| Some((i.parse::<usize>().ok()?, n.parse::<usize>().ok()?)))
        .filter(|&(i, n)| i < n)
        .expect("--shard I/N with I < N");
    let quiet_only = args.iter().any(|a| a == "--quiet-only");
    // The searcher and its 16 MB table only where positions are searched.
    let mut engine: Option<Engine<ShogiGame>> = (search_depth > 0).then(|| Engine::new(16, 1));
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
        let value = if let Some(engine) = engine.as_mut() {
            let game = ShogiGame::new(pos.clone());
            let r =
                engine.search(&game, &Limits::depth(search_depth), &Signals::new(), &mut |_| {});
            if quiet_only && r.best_move.is_some_and(|m| m.is_capture() || m.is_promotion()) {
                return;
            }
            r.score.clamp(-5000, 5000)
        } else {
            evaluate(pos, full(pos))
        };
        let black = if pos.side_to_move() == Color::Black { value } else { -value };
        writeln!(w, "{}\t0.5\t{black}", pos.to_sfen()).expect("write");
        written += 1;
    };
    for (n, line) in text.lines().enumerate().take(limit) {
        if crate::tuning::is_validation_line(n) || n % shards != shard {
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
