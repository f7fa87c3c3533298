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
const SEED_COUNT: [(&str, i64); 3] =
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
    let quiescence_keys = [SEED_COUNT[0], SEED_COUNT[1], SEED_COUNT[2], ("ABC_SearchedKeys", 0)];
    let (forced_mean, open_mean) = leaf_plies(&quiescence_keys, 4);
    assert!(forced_mean > 1.5 * open_mean, "forced {forced_mean:.2} plies, open {open_mean:.2}");
    let (forced_mean, open_mean) = leaf_plies(&SEED_COUNT, 4);
    assert!(forced_mean > open_mean, "forced {forced_mean:.2} plies, open {open_mean:.2}");
}

/// Searches `positions` to threshold `threshold` with KFEnd's count and the
/// switch `option` off and on (every best move legal) and checks that ABC's
/// counter `counter` counts something only with it on.
fn counts_only_with(option: &str, counter: &str, positions: &[&str], threshold: i32) {
    counts_only_at(option, 1, counter, positions, threshold);
}

/// [`counts_only_with`] for an option that is on at `value`.
fn counts_only_at(option: &str, value: i64, counter: &str, positions: &[&str], threshold: i32) {
    for on in [0, 1] {
        let mut sum = 0;
        for sfen in positions {
            let mut engine =
                abc_engine(&[SEED_COUNT[0], SEED_COUNT[1], SEED_COUNT[2], (option, on * value)]);
            let game = ShogiGame::new(Position::from_sfen(sfen).expect("a test SFEN"));
            let r = engine.search(&game, &Limits::depth(threshold), &Signals::new(), &mut |_| {});
            assert!(r.best_move.is_some_and(|m| search::Game::is_legal(&game, m)));
            sum += count(&r, counter);
        }
        assert_eq!(sum > 0, on == 1, "{counter} {sum} with {option} {on}");
    }
}

/// `ABC_Killers`: the quiet moves that cut a node's siblings off are kept beyond
/// the width (counted by `killer_keys`), and only with the option.
#[test]
fn killer_moves_are_kept_only_with_the_option() {
    shogi::attacks::init();
    counts_only_with("ABC_Killers", "killer_keys", &POSITIONS[1..3], 4);
}

/// `ABC_MateKeys`: a move's key sees the mate in one it allows. Black's rook can
/// take White's rook, but any move that leaves 5h to White lets G*5h mate (the
/// pawn on 5g guards the gold). KFEnd's key for the capture is the quiescence
/// value, a rook up; with the option it is the loss, mated two plies on, and
/// ABC keeps the king.
#[test]
fn mate_keys_see_the_mate_a_move_allows() {
    shogi::attacks::init();
    let sfen = "4k4/8r/9/9/9/9/4p4/8R/4K4 b g 1";
    let game = ShogiGame::new(Position::from_sfen(sfen).expect("a test SFEN"));
    let capture = |trace: &[String]| -> search::Value {
        let keys = trace[0].split("root keys ").nth(1).expect("the root's keys");
        let key = keys.split(", ").find_map(|k| k.strip_prefix("1h1b+ ")).expect("the capture");
        key.parse().expect("a value")
    };
    for mate_keys in [false, true] {
        let options = search::abc::AbcOptions { mate_keys, ..Default::default() };
        let found = search::abc::traced(&game, 1, options);
        let key = capture(&found.trace);
        assert_eq!(found.counters.mate_keys > 0, mate_keys);
        if mate_keys {
            assert_eq!(key, search::value::mated_in(2), "the capture lets White mate");
            let first = found.pv[0].to_string();
            assert!(!first.starts_with("1h1b"), "ABC took the rook and is mated: {first}");
        } else {
            assert!(key > 500, "KFEnd's key: the quiescence value, a rook up ({key})");
        }
    }
}

/// `ABC_MateThreats`: quiet moves that threaten mate in one are kept beyond the
/// width (counted by `threats_kept`), and only with the option.
#[test]
fn mate_threats_are_kept_only_with_the_option() {
    shogi::attacks::init();
    counts_only_with("ABC_MateThreats", "threats_kept", &POSITIONS[2..4], 3);
}

/// `ABC_QuietEstimates`: with a small count, a node's quiet moves beyond it are
/// pruned by their cheap estimate before any static value (counted by
/// `estimates_pruned`), and only with the option.
#[test]
fn quiet_moves_are_pruned_by_estimate_only_with_the_option() {
    shogi::attacks::init();
    counts_only_with("ABC_QuietEstimates", "estimates_pruned", &POSITIONS[0..2], 3);
}

/// `ABC_Checks`: checking moves beyond a node's width and captures are kept
/// (counted by `checks_kept`), and only with the option.
#[test]
fn checks_are_kept_beyond_the_width_only_with_the_option() {
    shogi::attacks::init();
    counts_only_with("ABC_Checks", "checks_kept", &POSITIONS[1..3], 3);
}

/// `ABC_Revive`: a node read from the table whose kept moves the search pushed
/// below the best pruned move's key is keyed again (counted by `revivals`), and
/// only with the option.
#[test]
fn nodes_are_keyed_again_only_with_the_option() {
    shogi::attacks::init();
    counts_only_with("ABC_Revive", "revivals", &POSITIONS, 4);
}

/// `ABC_LateMoves`: a node's late quiet moves are searched with a penalty to
/// the conspiracy depths below them (counted by `late_searches`), and only with
/// the option.
#[test]
fn late_moves_are_searched_with_a_penalty_only_with_the_option() {
    shogi::attacks::init();
    counts_only_with("ABC_LateMoves", "late_searches", &POSITIONS[0..2], 3);
}

/// `ABC_LateWidth`: forward pruning keeps moves beyond the width, and they
/// are searched with a penalty (counted by `late_searches`), only with the
/// option; a node keeps at most that many moves by key, and its captures.
#[test]
fn moves_beyond_the_width_are_kept_with_a_penalty_only_with_the_option() {
    shogi::attacks::init();
    counts_only_at("ABC_LateWidth", 20, "late_searches", &POSITIONS[0..2], 4);
    for sfen in POSITIONS {
        let game = ShogiGame::new(Position::from_sfen(sfen).expect("a test SFEN"));
        let defaults = search::abc::AbcOptions::default();
        let narrow = search::abc::kept_moves(&game, defaults).len();
        let wide = search::abc::AbcOptions { late_width: 20, ..defaults };
        let wide = search::abc::kept_moves(&game, wide).len();
        let captures = defaults.captures;
        assert!(narrow <= defaults.width + captures, "{narrow} kept at width 12");
        assert!(wide > narrow && wide <= 20 + captures, "{wide} kept at late width 20");
    }
}

/// `ABC_ThreatExtensions`: leaves whose side to move would lose material were
/// it to pass are searched as nodes (counted by `threat_extensions`), only with
/// the option, and at most as many times along one line as the option says.
#[test]
fn threatened_leaves_are_searched_on_at_most_n_times_a_line() {
    shogi::attacks::init();
    counts_only_with("ABC_ThreatExtensions", "threat_extensions", &POSITIONS[1..3], 3);
    let game = ShogiGame::new(Position::from_sfen(POSITIONS[2]).expect("a test SFEN"));
    for limit in [1, 2] {
        let mut options =
            search::abc::AbcOptions { threat_extensions: limit, ..Default::default() };
        for (name, value) in SEED_COUNT {
            options.set(name, value).expect("a known option");
        }
        let found = search::abc::traced(&game, 3, options);
        // The trace indents a node's entry by its ply and what the node did
        // by one more: count the extensions on the line down to each entry.
        let mut extended = vec![false; 256];
        let (mut most, mut total) = (0, 0);
        for line in &found.trace {
            let indent = (line.len() - line.trim_start().len()) / 2;
            if line.trim_start().starts_with("threatened:") {
                extended[indent - 1] = true;
                total += 1;
                most = most.max(extended[..indent].iter().filter(|&&e| e).count());
            } else if line.contains(" by ") && line.contains(", key ") {
                extended[indent..].iter_mut().for_each(|e| *e = false);
            }
        }
        assert!(total > 0, "no extension with {limit}");
        assert_eq!(most, limit, "at most {limit} extensions a line");
    }
}

/// `ABC_QuietProbes` and `ABC_TacticalFirst` look for a node's β-cut before
/// every quiet move has a static value: by keying the best few quiet moves by
/// the cheap estimate first, or by searching the best tactical move first where
/// its key is at or above β and the node's share of the conspiracy depth is
/// already SFunc's most. With the other defaults, on [`POSITIONS`] at threshold
/// 6, each cuts nodes so (counted by `probe_cuts`, `tactical_cuts`) only with
/// its option, gives fewer quiet moves a static value, and finds the same move
/// and value.
#[test]
fn cuts_before_the_static_values_save_them_and_change_no_result() {
    shogi::attacks::init();
    for (option, value, counter) in
        [("ABC_QuietProbes", 8, "probe_cuts"), ("ABC_TacticalFirst", 1, "tactical_cuts")]
    {
        let (mut cuts, mut with, mut without) = (0, 0, 0);
        for sfen in POSITIONS {
            let game = ShogiGame::new(Position::from_sfen(sfen).expect("a test SFEN"));
            let search = |options: &[(&str, i64)]| {
                abc_engine(options).search(&game, &Limits::depth(6), &Signals::new(), &mut |_| {})
            };
            let plain = search(&[(option, 0)]);
            let r = search(&[(option, value)]);
            assert_eq!(count(&plain, counter), 0);
            assert_eq!((r.best_move, r.score), (plain.best_move, plain.score), "{option} {sfen}");
            cuts += count(&r, counter);
            with += count(&r, "static_values");
            without += count(&plain, "static_values");
        }
        assert!(cuts > 0, "no {counter}");
        assert!(with < without, "{option}: {with} static values, {without} without");
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
