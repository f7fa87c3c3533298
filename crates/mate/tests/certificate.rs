//! The no-mate certificate (`mate::certify`, `Solver::certify_nomate`): it must
//! never close around a position that has a mate, whatever table orders its
//! tries, and it closes around positions known to have none.

use crate::common;

use common::{fixture, mate_within};
use mate::{Limits, MateResult, Solver};
use shogi::Position;

/// Positions the certifier may expand: five times what the certificates below
/// need (each closes within 1,000), while its tries around a position with a
/// mate, which can never close, stop after a few milliseconds.
const BUDGET: u64 = 5_000;

/// Known mateless positions, attacker (Black) to move: no piece to check with; a
/// lone gold; a pawn drop that would mate but is forbidden (uchifuzume) and
/// nothing else; a lone dragon, which checks forever.
const NO_MATE: [&str; 4] = [
    "4k4/9/9/9/9/9/9/9/9 b - 1",
    "4k4/9/9/9/9/9/9/9/9 b G 1",
    "kn7/9/1G7/9/9/9/9/9/9 b P 1",
    "8k/9/9/9/9/9/9/9/+R8 b - 1",
];

fn position(sfen: &str) -> Position {
    Position::from_sfen(sfen).unwrap_or_else(|e| panic!("{sfen}: {e}"))
}

/// Every mate of the fixture (in 1, 3 and 5 plies), with the attacker to move and
/// with the defender to move after the first check: no certificate, neither with
/// an empty table (nothing orders the tries) nor after the solver has proven the
/// mate in its table. (Many of these tries end when the budget does, which the
/// certifier may also do; `soundness.rs` gives it positions small enough to try
/// out in full.)
#[test]
fn no_certificate_for_a_position_with_a_mate() {
    let mut solver = Solver::new(16);
    let limits = Limits { futile_rule: false, ..Limits::default() };
    let mut refused = 0;
    for (line, sfen, plies, stated_line) in fixture() {
        let pos = position(&sfen);
        let mut defender_to_move = pos.clone();
        defender_to_move.do_move(pos.parse_usi_move(&stated_line[0]).unwrap());
        for (pos, what) in [(pos, "attacker"), (defender_to_move, "defender")] {
            let fresh = Solver::new(1);
            assert_eq!(fresh.certify_nomate(&pos, BUDGET), None, "line {line} ({what} to move)");
            let report = solver.solve(&pos, &limits);
            let MateResult::Mate(pv) = &report.result else {
                panic!("line {line} ({what} to move): {:?}", report.result);
            };
            assert!(pv.len() <= plies, "line {line} ({what} to move): {pv:?}");
            assert_eq!(solver.certify_nomate(&pos, BUDGET), None, "line {line} ({what} to move)");
            refused += 1;
        }
    }
    assert!(refused >= 200, "{refused} positions");
}

/// Known mateless positions are answered `nomate` and certified, with the
/// search's table and with an empty one; a position without any check is its own
/// closed set of one.
#[test]
fn known_nomates_are_certified() {
    let mut solver = Solver::new(16);
    for sfen in NO_MATE {
        let mut pos = position(sfen);
        assert!(!mate_within(&mut pos, 5), "{sfen}: a mate within 5 plies");
        let report = solver.solve(&pos, &Limits::default());
        assert_eq!(report.result, MateResult::NoMate, "{sfen}");
        let with_table = solver.certify_nomate(&pos, BUDGET);
        assert!(with_table.is_some_and(|n| n >= 1), "{sfen}: {with_table:?}");
        let without = Solver::new(1).certify_nomate(&pos, BUDGET);
        assert!(without.is_some(), "{sfen}: no certificate without the search's table");
    }
    let no_checks = position(NO_MATE[0]);
    assert_eq!(Solver::new(1).certify_nomate(&no_checks, BUDGET), Some(1));
}

/// The defender to move (in check) with an escape and no mate after it: the
/// certificate starts from the defender's node.
#[test]
fn a_nomate_with_the_defender_to_move_is_certified() {
    // The rook on 5c checks the king on 5a; a lone rook cannot mate it.
    let pos = position("4k4/9/4R4/9/9/9/9/9/9 w - 1");
    assert!(pos.in_check());
    let mut solver = Solver::new(16);
    assert_eq!(solver.solve(&pos, &Limits::default()).result, MateResult::NoMate);
    let size = solver.certify_nomate(&pos, BUDGET);
    assert!(size.is_some_and(|n| n > 1), "{size:?}");
}

/// The certifier keeps to its budget: with none, it certifies nothing, not even
/// a position without a check.
#[test]
fn with_no_budget_nothing_is_certified() {
    for sfen in NO_MATE {
        assert_eq!(Solver::new(1).certify_nomate(&position(sfen), 0), None, "{sfen}");
    }
}
