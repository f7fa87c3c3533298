//! The solver on the project's own mate fixture, `tools/fixtures/mates.tsv` (made by
//! `tools/gen_mate_fixtures.py`: random tsume-like positions, the shortest mate
//! proven by an exhaustive search on cshogi's move generator, every ply counted).
//! Each position is solved at exactly the stated length and the answers replay.

use crate::common;
use mate::verify::verify_usi_mate;
use mate::{verify_mate, Limits, MateResult, Solver};
use shogi::Position;
use std::time::Duration;

use common::fixture;

fn limits(futile_rule: bool) -> Limits {
    Limits { time: Some(Duration::from_secs(30)), futile_rule, ..Limits::default() }
}

/// Counting every ply, as the fixture does, the solver finds the stated length and
/// proves that nothing shorter exists.
#[test]
fn every_fixture_mate_at_stated_length() {
    let set = fixture();
    assert!(set.len() >= 100, "{} positions", set.len());
    for n in [1, 3, 5] {
        assert!(set.iter().filter(|p| p.2 == n).count() >= 15, "too few mates in {n}");
    }
    let mut solver = Solver::new(32);
    for (line, sfen, plies, expected) in &set {
        let pos = Position::from_sfen(sfen).expect("valid SFEN");
        let moves: Vec<&str> = expected.iter().map(String::as_str).collect();
        assert_eq!(moves.len(), *plies, "line {line}");
        verify_usi_mate(&pos, &moves, false)
            .unwrap_or_else(|e| panic!("line {line}: the stated mate does not replay: {e}"));
        let report = solver.solve(&pos, &limits(false));
        let MateResult::Mate(pv) = &report.result else {
            panic!("line {line}: {:?} instead of a mate", report.result);
        };
        verify_mate(&pos, pv, false).unwrap_or_else(|e| panic!("line {line}: {e}"));
        assert_eq!(pv.len(), *plies, "line {line}: {sfen}: {pv:?}");
        assert!(report.shortest_proven, "line {line}");
    }
}

/// With the futile-interposition rule (the solver's default) a mate can only get
/// shorter, and it still replays. (In one fixture position the 3-ply mate `5c5a
/// B*4a 5a4a` is a mate in 1 under the rule: every answer to `5c5a` is a futile
/// drop on 4a.)
#[test]
fn the_futile_rule_never_lengthens_a_mate() {
    let mut solver = Solver::new(32);
    for (line, sfen, plies, _) in fixture() {
        let pos = Position::from_sfen(&sfen).expect("valid SFEN");
        let report = solver.solve(&pos, &limits(true));
        let MateResult::Mate(pv) = &report.result else {
            panic!("line {line}: {:?} instead of a mate", report.result);
        };
        verify_mate(&pos, pv, true).unwrap_or_else(|e| panic!("line {line}: {e}"));
        assert!(pv.len() <= plies && pv.len() % 2 == 1, "line {line}: {sfen}: {pv:?}");
        assert!(report.shortest_proven, "line {line}");
    }
}
