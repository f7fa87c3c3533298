//! ABC search on shogi positions: forced lines are searched deeper than open ones.

use search::engine::Signals;
use search::{Engine, Limits};
use shogi::Position;
use shogi_game::ShogiGame;

/// An opening, two middle games and the "Matsuri" attack.
const POSITIONS: [&str; 4] = [
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    "ln1g1gsnl/1r1s1k1b1/p1pppp1pp/6p2/1p7/2P6/PPSPPPPPP/1B2K2R1/LN1G1GSNL b - 11",
    "lr5nl/3g1kg2/2n1pps1p/p1ps2p2/1p5P1/P1PSP1P1P/1PS2P3/2GK1G3/LN5RL b Bbnp 41",
    "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1",
];

/// KFEnd's count of conspiracy depth (no count of the line's length, no null
/// move) with Δ 250, which the tests of single refinements below are written
/// for: with the defaults' Δ 750 nearly every sibling counts as close, and few
/// lines are forced.
const KFEND_COUNT: [(&str, i64); 3] =
    [("ABC_Delta", 250), ("ABC_PliesPerDepth", 0), ("ABC_NullMove", 0)];

/// An engine in ABC mode with `options` set (`NAME`, value).
fn abc_engine(options: &[(&str, i64)]) -> Engine<ShogiGame> {
    let mut engine = Engine::new(16, 1);
    engine.set_algorithm("ABC").expect("ABC is an algorithm");
    for &(name, value) in options {
        engine.set_algorithm_option(name, value).expect("a known option");
    }
    engine
}

/// ABC's counter `name` in the search result `r` (0 where it has none).
fn count(r: &search::SearchResult<shogi::Move>, name: &str) -> u64 {
    r.counters.iter().find(|c| c.0 == name).map_or(0, |c| c.1)
}

/// The mean plies of ABC's leaves at `threshold` on [`POSITIONS`], with
/// `options`: of lines with fewer than three moves per node close to the leaf's
/// value (ABC's counters `leaves_open0..2`), and of open lines (`leaves_open3`).
fn leaf_plies(options: &[(&str, i64)], threshold: i32) -> (f64, f64) {
    let (mut forced, mut forced_plies, mut open, mut open_plies) = (0u64, 0u64, 0u64, 0u64);
    for sfen in POSITIONS {
        let mut engine = abc_engine(options);
        let game = ShogiGame::new(Position::from_sfen(sfen).expect("a test SFEN"));
        let r = engine.search(&game, &Limits::depth(threshold), &Signals::new(), &mut |_| {});
        let counter = |name: &str| count(&r, name);
        for k in 0..3 {
            forced += counter(&format!("leaves_open{k}"));
            forced_plies += counter(&format!("leaf_plies_open{k}"));
        }
        open += counter("leaves_open3");
        open_plies += counter("leaf_plies_open3");
    }
    assert!(forced >= 20 && open >= 100, "{forced} forced and {open} open leaves");
    (forced_plies as f64 / forced as f64, open_plies as f64 / open as f64)
}

/// Forced lines lie deeper than open ones: ABC's conspiracy depth lets them run
/// on. With KFEnd's count and KFEnd's quiescence keys by more than half as
/// much again (7.7 plies against 4.3 with the root window closing above the last
/// value, so that lines end sooner by the `key ≥ β` case; 13.6 against 8.4 with
/// it open); with searched values as keys by less (4.4 against 3.6; 12.8 against
/// 10.8 open), as a move the search refuted no longer counts as a close
/// alternative. With the defaults (Δ 750, which counts nearly every sibling as
/// close, and every 4 plies counted) forced lines are rare: at threshold 7 with
/// quiescence keys 19 leaves of 5,605, 6.3 plies against 4.2.
#[test]
fn forced_lines_are_searched_deeper_than_open_ones() {
    shogi::attacks::init();
    let quiescence_keys = [KFEND_COUNT[0], KFEND_COUNT[1], KFEND_COUNT[2], ("ABC_SearchedKeys", 0)];
    let (forced_mean, open_mean) = leaf_plies(&quiescence_keys, 4);
    assert!(forced_mean > 1.5 * open_mean, "forced {forced_mean:.2} plies, open {open_mean:.2}");
    let (forced_mean, open_mean) = leaf_plies(&KFEND_COUNT, 4);
    assert!(forced_mean > open_mean, "forced {forced_mean:.2} plies, open {open_mean:.2}");
}

/// Searches `positions` to threshold `threshold` with KFEnd's count and the
/// switch `option` off and on (every best move legal) and checks that ABC's
/// counter `counter` counts something only with it on.
fn counts_only_with(option: &str, counter: &str, positions: &[&str], threshold: i32) {
    for on in [0, 1] {
        let mut sum = 0;
        for sfen in positions {
            let mut engine =
                abc_engine(&[KFEND_COUNT[0], KFEND_COUNT[1], KFEND_COUNT[2], (option, on)]);
            let game = ShogiGame::new(Position::from_sfen(sfen).expect("a test SFEN"));
            let r = engine.search(&game, &Limits::depth(threshold), &Signals::new(), &mut |_| {});
            assert!(r.best_move.is_some_and(|m| search::Game::is_legal(&game, m)));
            sum += count(&r, counter);
        }
        assert_eq!(sum > 0, on == 1, "{counter} {sum} with {option} {on}");
    }
}

/// `ABC_NullMove`: a node whose static value is at or above β passes first and
/// fails high where the pass holds β (counted by `null_cuts`), only with the
/// option.
#[test]
fn null_moves_cut_only_with_the_option() {
    shogi::attacks::init();
    counts_only_with("ABC_NullMove", "null_cuts", &POSITIONS[0..2], 4);
}
