//! Perft against the published node counts (the same numbers YaneuraOu, Apery
//! and cshogi report). Depths that take seconds in release mode (minutes in a debug
//! build) run only in release builds: `cargo test --release` runs them.

use shogi::perft::perft;
use shogi::{legal_moves, Position};

const MATSURI: &str = "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1";

/// The position with the most legal moves known in shogi.
const MAX_MOVES: &str = "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1";

fn perft_sfen(sfen: &str, depth: u32) -> u64 {
    let mut pos = Position::from_sfen(sfen).expect("valid SFEN");
    let before = pos.to_sfen();
    let nodes = perft(&mut pos, depth);
    // perft must leave the position as it found it.
    assert_eq!(pos.to_sfen(), before);
    nodes
}

#[test]
fn perft_startpos_shallow() {
    let expected = [30, 900, 25_470, 719_731];
    for (i, &nodes) in expected.iter().enumerate() {
        let depth = i as u32 + 1;
        assert_eq!(perft_sfen(shogi::STARTPOS, depth), nodes, "depth {depth}");
    }
}

#[test]
fn perft_startpos_depth5() {
    assert_eq!(perft_sfen(shogi::STARTPOS, 5), 19_861_490);
}

#[test]
fn perft_matsuri_shallow() {
    let expected = [207, 28_684, 4_809_015];
    for (i, &nodes) in expected.iter().enumerate() {
        let depth = i as u32 + 1;
        assert_eq!(perft_sfen(MATSURI, depth), nodes, "depth {depth}");
    }
}

#[test]
fn max_moves_position_has_593() {
    let pos = Position::from_sfen(MAX_MOVES).unwrap();
    assert_eq!(legal_moves(&pos).len(), 593);
    assert_eq!(perft_sfen(MAX_MOVES, 1), 593);
}

#[test]
fn max_moves_without_defending_king_fits_the_move_list() {
    // from_sfen accepts positions without a king. Removing White's king from the
    // 593 position frees 1b for six more drops (R B G S L P; a knight there would
    // be dead): 599, one short of MAX_MOVES. A fuller list must not overflow.
    let sfen = "R8/2K1S1SS1/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1";
    let pos = Position::from_sfen(sfen).unwrap();
    let n = legal_moves(&pos).len();
    assert_eq!(n, 599);
    assert!(n <= shogi::movegen::MAX_MOVES);
}

#[test]
#[cfg_attr(debug_assertions, ignore = "slow in a debug build: run with --release")]
fn perft_startpos_depth6() {
    assert_eq!(perft_sfen(shogi::STARTPOS, 6), 547_581_517);
}

#[test]
#[cfg_attr(debug_assertions, ignore = "slow in a debug build: run with --release")]
fn perft_matsuri_depth4() {
    assert_eq!(perft_sfen(MATSURI, 4), 516_925_165);
}
