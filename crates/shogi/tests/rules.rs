//! One test per rule trap, each on a hand-made position.
//!
//! Every `expect(..)` / `expect_exact(..)` call below is also checked against the
//! cshogi Python package by `verify_rules_cshogi.py` (next to this file), so the
//! expectations do not rest on this crate's own reading of the rules.
//!
//! SFEN reminder: ranks run a (White's back rank) to i, files 9 to 1 left to right;
//! Black moves towards rank a.

use shogi::{
    legal_moves, Color, Declaration, EnteringKingRule, MoveParseError, Position, Repetition,
};
use std::collections::BTreeSet;

fn pos(sfen: &str) -> Position {
    Position::from_sfen(sfen).unwrap_or_else(|e| panic!("{sfen}: {e}"))
}

fn move_set(p: &Position) -> BTreeSet<String> {
    legal_moves(p).iter().map(|m| m.to_usi()).collect()
}

/// No generated move may leave the mover's king attacked.
fn assert_king_safe_after_every_move(p: &mut Position) {
    let us = p.side_to_move();
    for &m in legal_moves(p).iter() {
        p.do_move(m);
        if let Some(ksq) = p.king_square(us) {
            let attacked = p.is_attacked(us.flip(), ksq, p.occupied());
            assert!(!attacked, "{m} leaves the king attacked in {p:?}");
        }
        p.undo_move(m);
    }
}

/// `present` moves are legal, `absent` ones are not.
fn expect(sfen: &str, present: &[&str], absent: &[&str]) {
    let mut p = pos(sfen);
    let moves = move_set(&p);
    for m in present {
        assert!(moves.contains(*m), "{m} should be legal in {sfen}; legal: {moves:?}");
    }
    for m in absent {
        assert!(!moves.contains(*m), "{m} should be illegal in {sfen}");
    }
    assert_king_safe_after_every_move(&mut p);
}

/// The legal moves are exactly `expected`.
fn expect_exact(sfen: &str, expected: &[&str]) {
    let mut p = pos(sfen);
    let want: BTreeSet<String> = expected.iter().map(|s| s.to_string()).collect();
    assert_eq!(move_set(&p), want, "{sfen}");
    assert_king_safe_after_every_move(&mut p);
}

fn play(p: &mut Position, moves: &[&str]) {
    for text in moves {
        let m = p.parse_usi_move(text).unwrap_or_else(|e| panic!("{text} in {p:?}: {e}"));
        p.do_move(m);
    }
}

// ---- Promotion -------------------------------------------------------------------

#[test]
fn pawn_must_promote_on_last_rank() {
    expect("4k4/8P/9/9/9/9/9/9/4K4 b - 1", &["1b1a+"], &["1b1a"]);
    // White's last rank is i.
    expect("4k4/9/9/9/9/9/9/p8/4K4 w - 1", &["9h9i+"], &["9h9i"]);
    let p = pos("4k4/8P/9/9/9/9/9/9/4K4 b - 1");
    assert_eq!(p.parse_usi_move("1b1a"), Err(MoveParseError::MustPromote("1b1a".into())));
}

#[test]
fn lance_must_promote_on_last_rank_only() {
    expect("4k4/9/8L/9/9/9/9/9/4K4 b - 1", &["1c1a+", "1c1b", "1c1b+"], &["1c1a"]);
    expect("4k4/9/9/9/9/9/8l/9/4K4 w - 1", &["1g1i+", "1g1h", "1g1h+"], &["1g1i"]);
}

#[test]
fn knight_must_promote_on_last_two_ranks() {
    expect("4k4/9/9/7N1/9/9/9/9/4K4 b - 1", &["2d1b+", "2d3b+"], &["2d1b", "2d3b"]);
    // Rank c is in the zone but not dead: both.
    expect("4k4/9/9/9/7N1/9/9/9/4K4 b - 1", &["2e1c", "2e1c+", "2e3c", "2e3c+"], &[]);
    expect("4k4/9/9/9/9/8n/9/9/4K4 w - 1", &["1f2h+"], &["1f2h"]);
}

#[test]
fn pawn_entering_zone_may_promote() {
    expect("4k4/9/9/6P2/9/9/9/9/4K4 b - 1", &["3d3c", "3d3c+"], &[]);
    // Outside the zone there is no promotion.
    expect("4k4/9/9/9/6P2/9/9/9/4K4 b - 1", &["3e3d"], &["3e3d+"]);
}

#[test]
fn silver_leaving_zone_may_promote() {
    // From 3c the silver steps back diagonally out of the zone: promotion allowed.
    expect(
        "4k4/9/6S2/9/9/9/9/9/4K4 b - 1",
        &["3c2d", "3c2d+", "3c4d", "3c4d+", "3c3b", "3c3b+"],
        &[],
    );
}

#[test]
fn bishop_leaving_zone_may_promote() {
    expect("4k4/7B1/9/9/9/9/9/9/4K4 b - 1", &["2b4d", "2b4d+", "2b9i", "2b9i+"], &[]);
    // A bishop that stays outside the zone cannot.
    expect("4k4/9/9/9/4B4/9/9/9/4K4 b - 1", &["5e4f", "5e6d"], &["5e4f+", "5e6d+"]);
    let p = pos("4k4/9/9/9/4B4/9/9/9/4K4 b - 1");
    assert_eq!(p.parse_usi_move("5e4f+"), Err(MoveParseError::CannotPromote("5e4f+".into())));
}

// ---- Drops -----------------------------------------------------------------------

#[test]
fn nifu_forbids_second_unpromoted_pawn() {
    expect("4k4/9/9/9/9/9/4P4/9/4K4 b P 1", &["P*4e"], &["P*5e", "P*5b", "P*5h"]);
    let p = pos("4k4/9/9/9/9/9/4P4/9/4K4 b P 1");
    assert_eq!(p.parse_usi_move("P*5e"), Err(MoveParseError::Nifu("P*5e".into())));
}

#[test]
fn nifu_ignores_promoted_pawn() {
    expect("4k4/9/9/9/9/9/4+P4/9/4K4 b P 1", &["P*5e", "P*5h"], &[]);
}

#[test]
fn nifu_ignores_opponent_pawn() {
    expect("4k4/9/4p4/9/9/9/9/9/4K4 b P 1", &["P*5e", "P*5d"], &[]);
}

#[test]
fn dead_drops_are_illegal() {
    expect(
        "4k4/9/9/9/9/9/9/9/4K4 b PLN 1",
        &["P*1b", "L*1b", "N*1c"],
        &["P*1a", "L*1a", "N*1a", "N*1b"],
    );
    expect(
        "4k4/9/9/9/9/9/9/9/4K4 w pln 1",
        &["P*1h", "L*1h", "N*1g"],
        &["P*1i", "L*1i", "N*1i", "N*1h"],
    );
    let p = pos("4k4/9/9/9/9/9/9/9/4K4 b PLN 1");
    for text in ["P*1a", "L*1a", "N*1b"] {
        assert_eq!(p.parse_usi_move(text), Err(MoveParseError::DeadDrop(text.into())));
    }
}

// ---- Uchifuzume (pawn-drop mate) ---------------------------------------------------

/// White king 1a boxed in by its own knight (2a) and pawn (2b); the black gold on
/// 1c guards 1b. P*1b would be mate.
const UCHIFUZUME: &str = "7nk/7p1/8G/9/9/9/9/9/4K4 b P 1";

#[test]
fn uchifuzume_pawn_drop_mate_is_illegal() {
    expect(UCHIFUZUME, &["P*1d", "P*3b"], &["P*1b"]);
    assert_eq!(
        pos(UCHIFUZUME).parse_usi_move("P*1b"),
        Err(MoveParseError::Uchifuzume("P*1b".into()))
    );
    // The same square with a gold is an ordinary mate.
    let mut p = pos("7nk/7p1/8G/9/9/9/9/9/4K4 b G 1");
    play(&mut p, &["G*1b"]);
    assert!(p.in_check() && legal_moves(&p).is_empty());
}

#[test]
fn uchifuzume_pawn_drop_check_legal_when_king_can_capture() {
    // No gold on 1c: the king takes the pawn.
    expect("7nk/7p1/9/9/9/9/9/9/4K4 b P 1", &["P*1b"], &[]);
}

#[test]
fn uchifuzume_pawn_drop_check_legal_when_defender_can_capture() {
    // A silver on 2a can take 1b.
    expect("7sk/7p1/8G/9/9/9/9/9/4K4 b P 1", &["P*1b"], &[]);
}

#[test]
fn uchifuzume_pawn_drop_illegal_when_only_capturer_is_pinned() {
    // The silver on 2a is pinned by the rook on 9a along rank a.
    expect("R6sk/7p1/8G/9/9/9/9/9/4K4 b P 1", &[], &["P*1b"]);
}

#[test]
fn uchifuzume_pawn_drop_check_legal_when_king_can_step_away() {
    // 2a is empty and unguarded.
    expect("8k/7p1/8G/9/9/9/9/9/4K4 b P 1", &["P*1b"], &[]);
}

#[test]
fn uchifuzume_white_pawn_drop_mate_is_illegal() {
    // The UCHIFUZUME position rotated: White drops on 9h in front of Black's 9i king.
    expect("4k4/9/9/9/9/9/g8/1P7/KN7 w p 1", &["P*9f"], &["P*9h"]);
}

#[test]
fn uchifuzume_escape_covered_by_pinned_piece_still_counts() {
    // The silver on 3b is pinned to its king by the lance on 3a, but it still
    // guards 2a, so the king has no escape: P*1b is mate and illegal.
    expect("6l1k/6Sp1/8G/9/6K2/9/9/9/9 b P 1", &["P*1d"], &["P*1b"]);
}

#[test]
fn uchifuzume_pins_are_judged_with_the_pawn_on_the_board() {
    // The gold on 1c is pinned by the lance on 1i only until the pawn lands on
    // 1b: then two pieces block the file and the gold may take the pawn.
    expect("7nk/7p1/8g/7N1/9/9/9/9/4K3L b P 1", &["P*1b"], &[]);
}

#[test]
fn uchifuzume_applies_to_interposing_drop() {
    // Black is in check from the rook on 4e. P*5e would block it and mate the
    // 5d king, since the rook is pinned by the bishop on 1h: illegal. P*6e blocks
    // without check.
    let sfen = "9/9/3ppp3/3nkn3/2K2r3/4G4/9/8B/9 b P 1";
    assert!(pos(sfen).in_check());
    expect(sfen, &["P*6e"], &["P*5e"]);
    // Without the pinning bishop the rook can take the pawn: legal.
    expect("9/9/3ppp3/3nkn3/2K2r3/4G4/9/9/9 b BP 1", &["P*5e", "P*6e"], &[]);
}

#[test]
fn pawn_move_that_mates_is_legal() {
    // Only drops are restricted: pushing the 1c pawn to 1b mates legally.
    let sfen = "7nk/7p1/7GP/9/9/9/9/9/4K4 b - 1";
    expect(sfen, &["1c1b", "1c1b+"], &[]);
    let mut p = pos(sfen);
    play(&mut p, &["1c1b"]);
    assert!(p.in_check());
    assert!(legal_moves(&p).is_empty(), "1c1b should be mate");
}

// ---- King safety ------------------------------------------------------------------

#[test]
fn pinned_pieces_move_only_along_the_pin() {
    // Rook 5e pinned on file 5 by the rook on 5a; silver 3g pinned on the
    // 1e-5i diagonal by the bishop on 1e.
    let sfen = "4r3k/9/9/9/4R3b/9/6S2/9/4K4 b - 1";
    expect(
        sfen,
        &["5e5d", "5e5b+", "5e5a", "5e5a+", "5e5h", "3g2f", "3g4h"],
        &["5e4e", "5e6e", "5e1e", "3g3f", "3g4f", "3g2h"],
    );
    let p = pos(sfen);
    assert_eq!(p.parse_usi_move("5e4e"), Err(MoveParseError::LeavesKingInCheck("5e4e".into())));
}

#[test]
fn king_cannot_step_onto_attacked_square() {
    // The rook on 4a covers file 4.
    expect_exact("5r2k/9/9/9/9/9/9/9/4K4 b - 1", &["5i5h", "5i6h", "5i6i"]);
    // In check by a pawn guarded by a gold: the king cannot take it, and the
    // gold covers 4h and 6h.
    expect_exact("4k4/9/9/9/9/9/4g4/4p4/4K4 b - 1", &["5i4i", "5i6i"]);
}

#[test]
fn king_cannot_retreat_along_checking_rook_line() {
    // 5f is still on the rook's file once the king has left 5e.
    expect_exact("4r3k/9/9/9/4K4/9/9/9/9 b - 1", &["5e4d", "5e4e", "5e4f", "5e6d", "5e6e", "5e6f"]);
}

#[test]
fn king_cannot_retreat_along_checking_lance_line() {
    expect_exact("4l3k/9/9/9/4K4/9/9/9/9 b - 1", &["5e4d", "5e4e", "5e4f", "5e6d", "5e6e", "5e6f"]);
}

#[test]
fn king_cannot_retreat_along_checking_bishop_line() {
    // The bishop on 9a checks along 9a-5e; 4f lies beyond the king.
    expect(
        "b7k/9/9/9/4K4/9/9/9/9 b - 1",
        &["5e5d", "5e5f", "5e4e", "5e6e", "5e4d", "5e6f"],
        &["5e4f", "5e6d"],
    );
}

#[test]
fn double_check_allows_only_king_moves() {
    // Rook 5a and bishop 1e both check the 5i king. The gold on 6h could block
    // the rook and a pawn could be dropped, but not against two checkers.
    let sfen = "4r3k/9/9/9/R7b/9/9/3G5/4K4 b P 1";
    let p = pos(sfen);
    assert!(p.checkers().more_than_one());
    expect_exact(sfen, &["5i4i", "5i6i"]);
}

#[test]
fn drops_interpose_against_a_slider_check() {
    // Rook check down file 5: gold drops anywhere between, knight drops where
    // the knight is not dead; never off the line.
    expect_exact(
        "4r3k/9/9/9/9/9/9/9/4K4 b GN 1",
        &[
            "5i4h", "5i4i", "5i6h", "5i6i", "G*5b", "G*5c", "G*5d", "G*5e", "G*5f", "G*5g", "G*5h",
            "N*5c", "N*5d", "N*5e", "N*5f", "N*5g", "N*5h",
        ],
    );
}

#[test]
fn tsume_position_without_attacker_king() {
    // Black has no king (a tsume problem). G*5b mates.
    let sfen = "4k4/9/4P4/9/9/9/9/9/9 b G 1";
    let mut p = pos(sfen);
    assert_eq!(p.king_square(Color::Black), None);
    expect(sfen, &["G*5b", "5c5b", "5c5b+", "G*1i"], &[]);
    // Node counts from cshogi.
    let counts: Vec<u64> = (1..=3).map(|d| shogi::perft::perft(&mut p, d)).collect();
    assert_eq!(counts, [81, 304, 2572]);
    play(&mut p, &["G*5b"]);
    assert!(p.in_check());
    assert!(legal_moves(&p).is_empty());
    // White to move in a kingless-Black position generates normally too.
    expect("4k4/9/9/9/9/9/9/9/4P4 w r 1", &["R*5h", "5a4b"], &[]);
}

// ---- Repetition ---------------------------------------------------------------------

/// Kings step out and back: the start position recurs every 4 plies.
const SHUFFLE: [&str; 4] = ["5i5h", "5a5b", "5h5i", "5b5a"];

#[test]
fn repetition_detects_first_recurrence() {
    let mut p = Position::startpos();
    for (i, m) in SHUFFLE.iter().enumerate() {
        assert_eq!(p.repetition(16), None, "before ply {}", i + 1);
        play(&mut p, &[m]);
    }
    assert_eq!(p.repetition(16), Some(Repetition::Draw));
    // The cycle is 4 plies long; a shorter window does not see it.
    assert_eq!(p.repetition(3), None);
}

#[test]
fn sennichite_needs_four_occurrences() {
    let mut p = Position::startpos();
    for cycle in 1..=3 {
        play(&mut p, &SHUFFLE);
        if cycle < 3 {
            assert_eq!(p.sennichite(), None, "occurrence {}", cycle + 1);
        }
    }
    // The start position has now occurred four times.
    assert_eq!(p.sennichite(), Some(Repetition::Draw));
}

/// Black's rook checks from 9a and 9b while White's king shuffles 1a-1b.
const PERPETUAL: &str = "8k/9/R8/9/9/9/9/9/4K4 b - 1";
const PERPETUAL_CYCLE: [&str; 4] = ["1a1b", "9a9b", "1b1a", "9b9a"];

#[test]
fn perpetual_check_loses_for_the_checker() {
    let mut p = pos(PERPETUAL);
    play(&mut p, &["9c9a"]); // check; White to move: occurrence 1
    assert!(p.in_check());
    play(&mut p, &PERPETUAL_CYCLE); // occurrence 2, every Black move checked
    assert_eq!(p.side_to_move(), Color::White);
    assert_eq!(p.repetition(16), Some(Repetition::WinByPerpetualCheck));
    play(&mut p, &["1a1b"]); // Black (the checker) to move in a repeated position
    assert_eq!(p.repetition(16), Some(Repetition::LossByPerpetualCheck));
}

#[test]
fn sennichite_by_perpetual_check() {
    let mut p = pos(PERPETUAL);
    play(&mut p, &["9c9a"]);
    for _ in 0..2 {
        play(&mut p, &PERPETUAL_CYCLE);
        assert_eq!(p.sennichite(), None);
    }
    play(&mut p, &PERPETUAL_CYCLE); // fourth occurrence
    assert_eq!(p.sennichite(), Some(Repetition::WinByPerpetualCheck));
}

#[test]
fn repetition_without_every_move_checking_is_a_draw() {
    // The rook checks only every other move: an ordinary draw.
    let mut p = pos(PERPETUAL);
    play(&mut p, &["9c9a", "1a1b", "9a9c", "1b1a", "9c9a"]);
    assert_eq!(p.repetition(16), Some(Repetition::Draw));
}

#[test]
fn superior_and_inferior_positions() {
    // White drops a pawn in front of the rook, Black takes it and the rook and
    // king go back: same board, Black has gained a pawn.
    let mut p = pos("8k/9/9/9/4R4/9/9/9/4K4 b p 1");
    play(&mut p, &["5e5d", "P*5c", "5d5c", "1a1b", "5c5e", "1b1a"]);
    assert_eq!(p.side_to_move(), Color::Black);
    assert_eq!(p.repetition(16), Some(Repetition::Superior));
    assert_eq!(p.sennichite(), None);
    // One more move: White to move on the board it had after 5e5d, a pawn short.
    play(&mut p, &["5e5d"]);
    assert_eq!(p.repetition(16), Some(Repetition::Inferior));
}

// ---- Entering-king declaration ---------------------------------------------------------

/// Black king on 5b; in the zone 4 golds, 4 silvers, rook and bishop (10 pieces,
/// 18 points) plus `hand`.
fn declaring_black(hand: &str) -> Position {
    pos(&format!("GGGG1SSSS/4K4/R7B/9/9/9/9/9/4k4 b {hand} 1"))
}

#[test]
fn declaration_black_needs_28_points() {
    let p = declaring_black("RB"); // 18 + 10 = 28
    assert_eq!(p.declaration_points(Color::Black), (28, 10));
    assert_eq!(p.declaration(EnteringKingRule::Point27), Some(Declaration::Win));
    assert_eq!(p.declaration(EnteringKingRule::None), None);
    let p = declaring_black("R4P"); // 18 + 9 = 27
    assert_eq!(p.declaration_points(Color::Black), (27, 10));
    assert_eq!(p.declaration(EnteringKingRule::Point27), None);
}

#[test]
fn declaration_white_needs_27_points() {
    // The 27-point Black position rotated, White to move.
    let p = pos("4K4/9/9/9/9/9/b7r/4k4/ssss1gggg w r4p 1");
    assert_eq!(p.declaration_points(Color::White), (27, 10));
    assert_eq!(p.declaration(EnteringKingRule::Point27), Some(Declaration::Win));
}

#[test]
fn declaration_needs_king_in_zone() {
    let p = pos("GGGG1SSSS/9/R7B/4K4/9/9/9/9/4k4 b RB 1");
    assert_eq!(p.declaration(EnteringKingRule::Point27), None);
    assert_eq!(p.declaration(EnteringKingRule::Point24), None);
}

#[test]
fn declaration_not_in_check() {
    // A white pawn on 5a checks the 5b king.
    let p = pos("GGGGpSSSS/4K4/R7B/9/9/9/9/9/4k4 b RB 1");
    assert!(p.in_check());
    assert_eq!(p.declaration(EnteringKingRule::Point27), None);
}

#[test]
fn a_side_not_to_move_threatens_its_declaration() {
    // The 28-point position with White to move: Black could declare on its turn.
    let p = pos("GGGG1SSSS/4K4/R7B/9/9/9/9/9/4k4 w RB 1");
    assert_eq!(p.declaration(EnteringKingRule::Point27), None);
    assert_eq!(p.declaration_for(Color::Black, EnteringKingRule::Point27), Some(Declaration::Win));
    assert_eq!(p.declaration_for(Color::White, EnteringKingRule::Point27), None);
    assert_eq!(p.declaration_for(Color::Black, EnteringKingRule::None), None);
    // In check now, it could still declare once out of check.
    let p = pos("GGGGpSSSS/4K4/R7B/9/9/9/9/9/4k4 b RB 1");
    assert_eq!(p.declaration_for(Color::Black, EnteringKingRule::Point27), Some(Declaration::Win));
}

#[test]
fn declaration_needs_ten_pieces_in_zone() {
    // A silver moved from the board to the hand: still 28 points, only 9 pieces.
    let p = pos("GGGG2SSS/4K4/R7B/9/9/9/9/9/4k4 b RBS 1");
    assert_eq!(p.declaration_points(Color::Black), (28, 9));
    assert_eq!(p.declaration(EnteringKingRule::Point27), None);
}

#[test]
fn declaration_24_point_rule() {
    let cases = [
        ("R", None),                       // 23
        ("RP", Some(Declaration::Draw)),   // 24
        ("RB", Some(Declaration::Draw)),   // 28
        ("RB2P", Some(Declaration::Draw)), // 30
        ("RB3P", Some(Declaration::Win)),  // 31
    ];
    for (hand, want) in cases {
        let p = declaring_black(hand);
        assert_eq!(p.declaration(EnteringKingRule::Point24), want, "hand {hand}");
    }
}
