//! Solves that a node or time limit cuts short after the first mate is proven,
//! while the solver is still proving it shortest: the line found so far is still
//! answered (read out of the table after the limit, within the read-out grace),
//! it replays as a mate, and the report says it is not proven shortest. A mate
//! once proven is never answered `timeout`.

use crate::common;

use common::fixture;
use mate::verify::verify_usi_mate;
use mate::{verify_mate, Limits, MateResult, Report, Solver};
use shogi::Position;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

/// From the project's fixture (`tools/fixtures/mates.tsv`): a mate in 5 whose
/// first proof is 13 plies long, found within 2,048 nodes, and which takes more
/// than 2,048 nodes to prove shortest.
const FIRST_PROOF_13_SHORTEST_5: &str = "5R3/9/7k1/9/6+P2/9/9/9/9 b GNr2b3g4s3n4l17p 1";

/// From the fixture: a mate in 3 whose first proof (5 plies) takes fewer than 16
/// nodes, the interval at which the clock is read.
const FIRST_PROOF_5_SHORTEST_3: &str = "8k/6+P2/5R+Sr1/9/9/9/9/9/9 b 2S2b4gs4n4l17p 1";

/// Rook, bishop, gold and silver in hand against a bare king in the centre (made
/// up for this test): a first proof of 23 plies, shorter ones soon after, and far
/// more than 100,000 nodes to prove the shortest.
const LONG_TO_SHORTEN: &str = "9/9/9/9/4k4/9/9/9/9 b RBGS 1";

/// Every ply counted, as the fixture counts them.
fn counted(nodes: Option<u64>, time: Option<Duration>) -> Limits {
    Limits { nodes, time, futile_rule: false, ..Limits::default() }
}

/// The fixture's stated length of `sfen`.
fn stated_length(sfen: &str) -> usize {
    let entry = fixture().into_iter().find(|p| p.1 == sfen);
    entry.unwrap_or_else(|| panic!("{sfen} is not in the fixture")).2
}

/// What a report may say of a solve stopped by a limit, whatever the limit hit:
/// `timeout` only when no mate was proven; otherwise a line that replays as a
/// mate, of the stated length when proven shortest, else no longer than the last
/// length proven and flagged (`proven_longer_than`) when shorter.
fn check_stopped_report(pos: &Position, stated: usize, report: &Report, what: &str) {
    let last = report.lengths.last().map(|l| l.0);
    match &report.result {
        MateResult::Timeout => {
            assert_eq!(last, None, "{what}: a proven mate answered timeout");
            assert!(!report.shortest_proven, "{what}: timeout proven shortest");
        }
        MateResult::Mate(pv) => {
            verify_mate(pos, pv, false).unwrap_or_else(|e| panic!("{what}: {e}"));
            let last = last.unwrap_or_else(|| panic!("{what}: a mate with no length proven"));
            if report.shortest_proven {
                assert_eq!(pv.len(), stated, "{what}: proven shortest at the wrong length");
                assert_eq!(last, stated, "{what}: {:?}", report.lengths);
            } else {
                assert!(pv.len() <= last, "{what}: a line longer than any mate proven");
                let flagged = (pv.len() < last).then_some(last);
                assert_eq!(report.proven_longer_than(pv.len()), flagged, "{what}");
            }
        }
        other => panic!("{what}: {other:?}"),
    }
}

/// A node limit that falls after the first proof (13 plies) and before the mate
/// in 5 is proven shortest: the 13-ply line is kept, replays as a mate, and is
/// reported as not proven shortest. Without the limit the same solver proves 5.
#[test]
fn a_node_limit_after_the_first_proof_keeps_that_line_not_proven_shortest() {
    let pos = Position::from_sfen(FIRST_PROOF_13_SHORTEST_5).unwrap();
    assert_eq!(stated_length(FIRST_PROOF_13_SHORTEST_5), 5);
    let mut solver = Solver::new(16);
    let report = solver.solve(&pos, &counted(Some(2048), None));
    let MateResult::Mate(pv) = &report.result else {
        panic!("{:?} instead of the first mate", report.result);
    };
    verify_mate(&pos, pv, false).unwrap_or_else(|e| panic!("{e}"));
    assert!(!report.shortest_proven);
    assert_eq!(report.first_mate().map(|m| m.0), Some(13), "{:?}", report.lengths);
    assert!(pv.len() > 5 && pv.len() <= 13, "{pv:?}");
    assert!(report.nodes >= 2048, "stopped at {} nodes", report.nodes);
    check_stopped_report(&pos, 5, &report, "limit 2048");

    let full = solver.solve(&pos, &counted(None, None));
    assert!(matches!(&full.result, MateResult::Mate(pv) if pv.len() == 5), "{:?}", full.result);
    assert!(full.shortest_proven);
    assert!(full.nodes > 2048, "{} nodes: the limit of 2,048 no longer cuts", full.nodes);
}

/// With a 1 MiB table, full long before a node limit of 100,000 stops the
/// shortening, the line of the last mate proven is no longer all in the table:
/// reading it out needs bounded searches after the limit is spent (the read-out
/// grace: the limit is lifted for them). The answer is that mate, replaying, not
/// proven shortest; without the grace it would be `timeout`.
#[test]
fn the_line_is_read_out_after_the_node_limit_from_a_full_table() {
    let pos = Position::from_sfen(LONG_TO_SHORTEN).unwrap();
    let mut solver = Solver::new(1);
    let limit = 100_000;
    let report = solver.solve(&pos, &Limits { nodes: Some(limit), ..Limits::default() });
    assert!(report.hashfull > 900, "hashfull {}", report.hashfull);
    let MateResult::Mate(pv) = &report.result else {
        panic!("{:?} after mates of {:?} plies", report.result, report.lengths);
    };
    verify_mate(&pos, pv, true).unwrap_or_else(|e| panic!("{e}"));
    assert!(!report.shortest_proven);
    assert_eq!(report.first_mate().map(|m| m.0), Some(23), "{:?}", report.lengths);
    let last = report.lengths.last().map_or(0, |l| l.0);
    assert!(last < 23 && pv.len() <= last, "{} plies, {:?}", pv.len(), report.lengths);
    // The limit stops the search at the first multiple of 1,024 above it.
    assert!(report.nodes > limit.div_ceil(1024) * 1024, "{} nodes", report.nodes);
}

/// Every node limit below what the full solve needs, on every fixture mate that
/// needs more than one check of the limit (1,024 nodes): the answer is `timeout`
/// before the first proof and a replaying mate after it, flagged as above. Some
/// of these limits must land between the first proof and the proof of shortest.
#[test]
fn every_node_limit_below_the_full_solve_answers_a_kept_line_or_timeout() {
    let mut solver = Solver::new(16);
    let mut cut_while_shortening = 0;
    for (line, sfen, stated, _) in fixture() {
        let pos = Position::from_sfen(&sfen).unwrap();
        let full = solver.solve(&pos, &counted(None, None));
        assert!(full.shortest_proven, "line {line}");
        for limit in (1..).map(|k| k * 1024).take_while(|&l| l < full.nodes) {
            let report = solver.solve(&pos, &counted(Some(limit), None));
            check_stopped_report(&pos, stated, &report, &format!("line {line}, {limit} nodes"));
            if matches!(report.result, MateResult::Mate(_)) && !report.shortest_proven {
                cut_while_shortening += 1;
            }
        }
    }
    assert!(cut_while_shortening >= 2, "{cut_while_shortening} solves cut while shortening");
}

/// A time limit already over when the clock is first read (at the 16th node):
/// a first proof found before then is kept and answered although the time is
/// spent, and reported as not proven shortest. Over the whole fixture, every
/// answer is `timeout` (no mate proven yet) or a replaying mate.
#[test]
fn a_time_limit_over_after_the_first_proof_still_answers_its_line() {
    let mut solver = Solver::new(16);
    let no_time = counted(None, Some(Duration::from_nanos(1)));
    let pos = Position::from_sfen(FIRST_PROOF_5_SHORTEST_3).unwrap();
    assert_eq!(stated_length(FIRST_PROOF_5_SHORTEST_3), 3);
    let report = solver.solve(&pos, &no_time);
    let MateResult::Mate(pv) = &report.result else {
        panic!("{:?} instead of the first mate", report.result);
    };
    verify_mate(&pos, pv, false).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(pv.len(), 5, "{pv:?}");
    assert_eq!(report.lengths.iter().map(|l| l.0).collect::<Vec<_>>(), [5]);
    assert!(!report.shortest_proven);
    assert_eq!(report.proven_longer_than(pv.len()), None);

    let mut kept = 0;
    for (line, sfen, stated, _) in fixture() {
        let pos = Position::from_sfen(&sfen).unwrap();
        let report = solver.solve(&pos, &no_time);
        check_stopped_report(&pos, stated, &report, &format!("line {line}"));
        if matches!(report.result, MateResult::Mate(_)) && !report.shortest_proven {
            kept += 1;
        }
    }
    assert!(kept >= 2, "only {kept} first mates kept after the time ran out");
}

/// USI `go mate` with no time to spare: the first mate is answered, after an
/// `info string` saying that it is not proven the shortest.
#[test]
fn go_mate_announces_a_mate_not_proven_shortest() {
    let mut solver = Solver::new(16);
    let pos = Position::from_sfen(FIRST_PROOF_5_SHORTEST_3).unwrap();
    let stop = Arc::new(AtomicBool::new(false));
    let answer = mate::go_mate_answer(&mut solver, &pos, Some(Duration::from_nanos(1)), stop);
    assert_eq!(answer.len(), 2, "{answer:?}");
    assert_eq!(
        answer[0],
        "info string mate in 5 plies, not proven the shortest: the search stopped first"
    );
    let moves: Vec<&str> =
        answer[1].strip_prefix("checkmate ").expect("a mate").split(' ').collect();
    assert_eq!(moves.len(), 5, "{answer:?}");
    verify_usi_mate(&pos, &moves, true).unwrap_or_else(|e| panic!("{answer:?}: {e}"));
}
