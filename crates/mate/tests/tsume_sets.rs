//! The solver on real problem sets (../shared/data/tsume beside the repository):
//! every problem of the 3- to 11-ply sets (a sample of each in a debug build) is
//! solved at exactly the stated length, proven shortest, and every answer is
//! replayed by the rules core; a timeout or any answer but a mate fails the test.
//! Positions made mateless by taking the key piece away answer `nomate`,
//! cross-checked by a plain exhaustive search.

use crate::common;

use common::{mate_within, move_hand_piece};
use mate::problem::{parse_problems, Problem};
use mate::verify::verify_usi_mate;
use mate::{verify_mate, Limits, MateResult, Solver};
use shogi::Position;
use std::path::PathBuf;
use std::time::Duration;

/// The problems of one set, or `None` (after a notice naming `test`) without the data.
fn load(test: &str, name: &str) -> Option<Vec<Problem>> {
    let text = testdata::shared_text(test, &format!("tsume/{name}"))?;
    Some(parse_problems(&text).expect("the problem file parses"))
}

/// `n` problems spread evenly over the set.
fn sample(problems: Vec<Problem>, n: usize) -> Vec<Problem> {
    let step = (problems.len() / n).max(1);
    problems.into_iter().step_by(step).take(n).collect()
}

fn limits() -> Limits {
    Limits { time: Some(Duration::from_secs(30)), ..Limits::default() }
}

/// Fewer problems than this in a set means the file is not the one expected.
const MIN_SET_SIZE: usize = 100;

/// Solves every problem of `tsume_{plies}ply.txt` (in a debug build, where the
/// whole set is slow, 50 spread over it): each must be answered with a mate of exactly
/// `plies` plies that replays and is proven shortest. A timeout, `nomate`, a
/// longer or shorter mate, or one not proven shortest fails.
fn solve_set(test: &str, plies: usize) {
    let Some(problems) = load(test, &format!("tsume_{plies}ply.txt")) else { return };
    assert!(problems.len() >= MIN_SET_SIZE, "{test}: only {} problems", problems.len());
    let problems =
        if cfg!(debug_assertions) { sample(problems, MIN_SET_SIZE / 2) } else { problems };
    let mut solver = Solver::new(32);
    for p in &problems {
        let pos = Position::from_sfen(&p.sfen).expect("valid SFEN");
        let expected = p.expected_pv.as_ref().expect("the set gives the mate");
        assert_eq!(expected.len(), plies, "line {}: the stated mate", p.line);
        let moves: Vec<&str> = expected.iter().map(String::as_str).collect();
        verify_usi_mate(&pos, &moves, true)
            .unwrap_or_else(|e| panic!("line {}: the stated mate does not replay: {e}", p.line));
        let report = solver.solve(&pos, &limits());
        let MateResult::Mate(pv) = &report.result else {
            panic!("line {}: {:?} instead of a mate", p.line, report.result);
        };
        verify_mate(&pos, pv, true).unwrap_or_else(|e| panic!("line {}: {e}", p.line));
        assert_eq!(pv.len(), plies, "line {}: {pv:?}", p.line);
        assert!(report.shortest_proven, "line {}", p.line);
    }
}

/// Every 3-ply problem solved at its stated length.
#[test]
fn every_three_ply_problem_at_stated_length() {
    solve_set("every_three_ply_problem_at_stated_length", 3);
}

/// Every 5-ply problem solved at its stated length.
#[test]
fn every_five_ply_problem_at_stated_length() {
    solve_set("every_five_ply_problem_at_stated_length", 5);
}

/// Every 7-ply problem solved at its stated length.
#[test]
fn every_seven_ply_problem_at_stated_length() {
    solve_set("every_seven_ply_problem_at_stated_length", 7);
}

/// Every 9-ply problem solved at its stated length.
#[test]
fn every_nine_ply_problem_at_stated_length() {
    solve_set("every_nine_ply_problem_at_stated_length", 9);
}

/// Every 11-ply problem solved at its stated length.
#[test]
fn every_eleven_ply_problem_at_stated_length() {
    solve_set("every_eleven_ply_problem_at_stated_length", 11);
}

/// The SFEN with one piece of `letter` (upper case) moved from the attacker's hand
/// to the defender's. The attacker is Black in these sets.
fn take_from_attacker(sfen: &str, letter: char) -> Option<String> {
    if sfen.split_whitespace().nth(1) != Some("b") {
        return None;
    }
    move_hand_piece(sfen, letter, letter.to_ascii_lowercase())
}

#[test]
fn removing_the_key_piece_leaves_no_mate() {
    let mut solver = Solver::new(32);
    let mut nomates = 0;
    let Some(problems) = load("removing_the_key_piece_leaves_no_mate", "tsume_3ply.txt") else {
        return;
    };
    for p in problems.into_iter().take(120) {
        let first = &p.expected_pv.as_ref().expect("the set gives the mate")[0];
        // Only problems that start with a drop: that piece is the one taken away.
        let Some((letter, _)) = first.split_once('*') else {
            continue;
        };
        let Some(letter) = letter.chars().next() else {
            continue;
        };
        let Some(sfen) = take_from_attacker(&p.sfen, letter) else {
            continue;
        };
        let Ok(mut pos) = Position::from_sfen(&sfen) else {
            continue;
        };
        let report = solver.solve(&pos, &limits());
        match &report.result {
            MateResult::NoMate => {
                // A plain search agrees: nothing within 5 plies.
                assert!(!mate_within(&mut pos, 5), "line {}: {sfen} has a short mate", p.line);
                nomates += 1;
            }
            MateResult::Mate(pv) => {
                verify_mate(&pos, pv, true).unwrap_or_else(|e| panic!("line {}: {e}", p.line));
            }
            other => panic!("line {}: {other:?} on {sfen}", p.line),
        }
    }
    assert!(nomates >= 10, "only {nomates} positions became mateless");
}

#[test]
fn a_lone_gold_cannot_mate() {
    let pos = Position::from_sfen("4k4/9/9/9/9/9/9/9/9 b G 1").unwrap();
    assert_eq!(mate::solve(&pos, &limits()), MateResult::NoMate);
}

#[test]
fn pawn_drop_mate_is_not_a_mate_but_a_pawn_push_is() {
    // P*9b would mate, which the rules forbid (uchifuzume); nothing else mates.
    let pos = Position::from_sfen("kn7/9/1G7/9/9/9/9/9/9 b P 1").unwrap();
    assert_eq!(mate::solve(&pos, &limits()), MateResult::NoMate);
    // Pushing a pawn to mate is allowed (the lance guards 9b, the gold 8b).
    let pos = Position::from_sfen("kn7/9/P1G6/L8/9/9/9/9/9 b - 1").unwrap();
    let MateResult::Mate(pv) = mate::solve(&pos, &limits()) else {
        panic!("the pawn push mates");
    };
    assert_eq!(pv.len(), 1);
    assert_eq!(pv[0].from().to_string(), "9c");
}

#[test]
fn pawn_drop_mates_of_the_fixture_are_never_played() {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tools/fixtures/uchifuzume.tsv");
    let text = std::fs::read_to_string(&path).expect("the uchifuzume fixture");
    let mut solver = Solver::new(16);
    let mut checked = 0;
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let fields: Vec<&str> = line.split('\t').collect();
        if fields.len() < 4 || fields[3] != "illegal" {
            continue;
        }
        let pos = Position::from_sfen(fields[0]).expect("valid SFEN");
        let limits = Limits { nodes: Some(200_000), ..Limits::default() };
        // Only an answer counts: a mate that does not start with the pawn drop,
        // or no mate at all; a search that ran out of nodes checked nothing.
        match solver.solve(&pos, &limits).result {
            MateResult::Mate(pv) => {
                assert_ne!(pv[0].to_usi(), fields[2], "{}", fields[0]);
                verify_mate(&pos, &pv, true).unwrap_or_else(|e| panic!("{}: {e}", fields[0]));
                checked += 1;
            }
            MateResult::NoMate => checked += 1,
            _ => {}
        }
    }
    assert!(checked >= 20, "only {checked} positions answered");
}

#[test]
fn usi_answers() {
    use std::sync::atomic::AtomicBool;
    use std::sync::Arc;
    let mut solver = Solver::new(16);
    let stop = Arc::new(AtomicBool::new(false));
    let pos = Position::from_sfen("4k4/9/4P4/9/9/9/9/9/9 b G 1").unwrap();
    assert_eq!(mate::go_mate_answer(&mut solver, &pos, None, stop.clone()), ["checkmate G*5b"]);
    let pos = Position::from_sfen("4k4/9/9/9/9/9/9/9/9 b G 1").unwrap();
    let answer = mate::go_mate_answer(&mut solver, &pos, None, stop.clone());
    assert_eq!(answer, ["checkmate nomate"]);
    // Stopped before it starts: a hard problem cannot be answered.
    let Some(set) = load("usi_answers", "tsume_11ply.txt") else { return };
    let hard = &set[0];
    let pos = Position::from_sfen(&hard.sfen).unwrap();
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let answer = mate::go_mate_answer(&mut solver, &pos, Some(Duration::from_secs(5)), stop);
    assert_eq!(answer.last().map(String::as_str), Some("checkmate timeout"), "{answer:?}");
}
