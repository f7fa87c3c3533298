//! The verifier (`mate::verify_mate`, `mate::verify::verify_usi_mate`) that
//! replays every answer before it is printed: each kind of error it reports is
//! shown on a line that has exactly that fault, and its message names the ply and
//! the move. It checks the rules (checks, legal replies, no repetition, mate at
//! the end), not whether the defence was the longest.

use crate::common;

use common::{fixture, mate_within};
use mate::verify::verify_usi_mate;
use mate::{verify_mate, MateEnd};
use shogi::movegen::generate_checks;
use shogi::{legal_moves, Move, MoveList, PieceKind, Position, Square};

/// A mate in 1: `G*5b`, the pawn on 5c guarding the gold.
const MATE_IN_1: &str = "4k4/9/4P4/9/9/9/9/9/9 b G 1";

/// From the project's fixture: a mate in 3, `S*5b 6a6b 5c6c+`; after `S*5b` the
/// king's only move is 6b (7a is the gold's, 5a the silver's, 5b guarded by the
/// rook).
const MATE_IN_3: &str = "3k5/1G7/4R4/9/9/9/9/9/9 b Sr2b3g3s4n4l18p 1";

/// From the fixture: after `5c5a` the defender has only drops on 4a, every one
/// of them futile (the rook takes it and mates).
const ONLY_FUTILE_REPLIES_AFTER_5C5A: &str = "6k2/5P3/4R1S2/9/9/9/9/9/9 b LPr2b4g3s4n3l16p 1";

/// A lone dragon against a king in the corner: checks forever, mates never.
const LONE_DRAGON: &str = "8k/9/9/9/9/9/9/9/+R8 b - 1";

fn position(sfen: &str) -> Position {
    Position::from_sfen(sfen).unwrap_or_else(|e| panic!("{sfen}: {e}"))
}

/// The moves of a line given in USI, each parsed (and so legal) where it is played.
fn line(pos: &Position, usi: &[&str]) -> Vec<Move> {
    let mut p = pos.clone();
    usi.iter()
        .map(|text| {
            let m = p.parse_usi_move(text).unwrap_or_else(|e| panic!("{text}: {e}"));
            p.do_move(m);
            m
        })
        .collect()
}

fn square(usi: &str) -> Square {
    Square::from_usi(usi.as_bytes()).expect("a square")
}

/// The lines the fixture states, as a baseline: they replay, ending in checkmate.
#[test]
fn correct_lines_replay_to_checkmate() {
    let pos = position(MATE_IN_1);
    assert_eq!(verify_mate(&pos, &line(&pos, &["G*5b"]), true), Ok(MateEnd::Checkmate));
    let pos = position(MATE_IN_3);
    let mate = line(&pos, &["S*5b", "6a6b", "5c6c+"]);
    assert_eq!(verify_mate(&pos, &mate, false), Ok(MateEnd::Checkmate));
    // With the defender to move (in check), the line starts with its reply.
    let mut after_check = pos.clone();
    after_check.do_move(mate[0]);
    assert_eq!(verify_mate(&after_check, &mate[1..], false), Ok(MateEnd::Checkmate));
}

/// An attacker move that is legal but gives no check, and a move the attacker
/// cannot play at all (a rook it does not hold), are refused at their ply.
#[test]
fn an_attacker_move_that_is_not_a_legal_check_is_refused() {
    let pos = position(MATE_IN_1);
    let quiet = line(&pos, &["G*9i"]);
    assert_eq!(verify_mate(&pos, &quiet, true), Err("ply 1: G*9i is not a legal check".into()));
    let not_held = Move::drop(PieceKind::Rook, square("5b"));
    assert_eq!(
        verify_mate(&pos, &[not_held], true),
        Err("ply 1: R*5b is not a legal check".into())
    );
    // At ply 3 of the mate in 3: the silver steps back, no check.
    let pos = position(MATE_IN_3);
    let no_check = line(&pos, &["S*5b", "6a6b", "5b4c"]);
    assert_eq!(verify_mate(&pos, &no_check, false), Err("ply 3: 5b4c is not a legal check".into()));
}

/// A defender reply that leaves its king in check (the king steps onto the
/// gold's square 7a), and an attacker's move where the defender is to move, are
/// refused as replies.
#[test]
fn a_defender_move_that_is_not_a_legal_reply_is_refused() {
    let pos = position(MATE_IN_3);
    let check = line(&pos, &["S*5b"]);
    let into_check = Move::board(square("6a"), square("7a"), false, PieceKind::King, None);
    let mut after_check = pos.clone();
    after_check.do_move(check[0]);
    assert!(!legal_moves(&after_check).contains(into_check));
    assert_eq!(
        verify_mate(&pos, &[check[0], into_check], false),
        Err("ply 2: 6a7a is not a legal reply".into())
    );
    // The defender to move: the attacker's mating move cannot come first.
    let mate = line(&pos, &["S*5b", "6a6b", "5c6c+"]);
    assert_eq!(
        verify_mate(&after_check, &mate[2..], false),
        Err("ply 1: 5c6c+ is not a legal reply".into())
    );
}

/// Checks that bring back a position already seen on the line (here the one
/// after the first check) are refused at the move that repeats it.
#[test]
fn a_line_that_repeats_a_position_is_refused() {
    let pos = position(LONE_DRAGON);
    let round = line(&pos, &["9i1i", "1a2a", "1i2i", "2a1a", "2i1i"]);
    assert_eq!(verify_mate(&pos, &round, true), Err("ply 5: 2i1i repeats a position".into()));
    // The same line one move shorter repeats nothing; it fails only at its end.
    assert_eq!(
        verify_mate(&pos, &round[..4], true),
        Err("the sequence ends with the attacker to move".into())
    );
}

/// A line that stops after a defender's reply (or is empty with the attacker to
/// move) is not a mate.
#[test]
fn a_line_that_ends_with_the_attacker_to_move_is_refused() {
    let pos = position(MATE_IN_3);
    let two = line(&pos, &["S*5b", "6a6b"]);
    let expected = Err("the sequence ends with the attacker to move".to_string());
    assert_eq!(verify_mate(&pos, &two, false), expected);
    assert_eq!(verify_mate(&pos, &[], false), expected);
}

/// A line whose last check leaves the defender a reply is refused, with the
/// number of replies left.
#[test]
fn a_line_that_ends_without_mate_is_refused() {
    let pos = position(MATE_IN_3);
    let first_check = line(&pos, &["S*5b"]);
    assert_eq!(
        verify_mate(&pos, &first_check, false),
        Err("the defender still has 1 replies at the end".into())
    );
    let pos = position(LONE_DRAGON);
    let check = line(&pos, &["9i1i"]);
    assert_eq!(
        verify_mate(&pos, &check, true),
        Err("the defender still has 2 replies at the end".into())
    );
}

/// A position whose only replies are futile interpositions is a mate under the
/// futile rule (and said so), and not a mate when every ply is counted.
#[test]
fn only_futile_replies_end_a_mate_under_the_futile_rule_only() {
    let pos = position(ONLY_FUTILE_REPLIES_AFTER_5C5A);
    let rook_check = line(&pos, &["5c5a"]);
    let mut after = pos.clone();
    after.do_move(rook_check[0]);
    let replies = legal_moves(&after).as_slice().to_vec();
    assert!(replies.iter().all(|m| m.is_drop() && m.to() == square("4a")), "{replies:?}");
    assert_eq!(verify_mate(&pos, &rook_check, true), Ok(MateEnd::OnlyFutileInterpositions));
    assert_eq!(
        verify_mate(&pos, &rook_check, false),
        Err(format!("the defender still has {} replies at the end", replies.len()))
    );
    assert_eq!(replies.len(), 7, "{replies:?}");
}

/// USI text that is not a move, or a move the rules refuse where it is played,
/// is refused with the ply and the rules core's reason.
#[test]
fn usi_moves_that_do_not_parse_are_refused_with_their_ply() {
    let pos = position(MATE_IN_1);
    assert_eq!(
        verify_usi_mate(&pos, &["G*5b", "5a5b"], true),
        Err("ply 2: 5a5b: leaves the king in check".into())
    );
    assert_eq!(
        verify_usi_mate(&pos, &["gold"], true),
        Err("ply 1: 'gold' is not a USI move".into())
    );
    assert_eq!(verify_usi_mate(&pos, &["G*5b"], true), Ok(MateEnd::Checkmate));
}

/// The verifier does not judge the defence: a line in a 5-ply problem where the
/// defender replies so that a mate in 1 follows is accepted as a 3-ply mate.
/// (The solver's own line-reading and the lengths it proves answer for that.)
#[test]
fn a_line_with_a_defence_that_is_not_the_longest_still_replays() {
    let mut found = None;
    'problems: for (line_no, sfen, stated, stated_line) in fixture() {
        if stated != 5 {
            continue;
        }
        let mut pos = position(&sfen);
        let first = pos.parse_usi_move(&stated_line[0]).unwrap();
        pos.do_move(first);
        for reply in legal_moves(&pos).iter().copied() {
            pos.do_move(reply);
            let mut checks = MoveList::new();
            generate_checks(&pos, &mut checks);
            for &mate in checks.iter() {
                pos.do_move(mate);
                let mated = legal_moves(&pos).is_empty();
                pos.undo_move(mate);
                if mated {
                    found = Some((line_no, sfen.clone(), vec![first, reply, mate]));
                    break 'problems;
                }
            }
            pos.undo_move(reply);
        }
    }
    let (line_no, sfen, short) = found.expect("a 5-ply problem with a short defence");
    let mut pos = position(&sfen);
    assert!(!mate_within(&mut pos, 3), "line {line_no}: a forced mate in 3 after all");
    assert_eq!(verify_mate(&pos, &short, false), Ok(MateEnd::Checkmate), "line {line_no}");
}
