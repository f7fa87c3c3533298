//! SFEN and USI-move parsing: every error variant on a malformed input, and
//! round trips of valid SFENs.

use shogi::{Color, MoveParseError, Position, SfenError, STARTPOS};
use std::mem::discriminant;

/// The start position's board, for inputs that break only the other fields.
const BOARD: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL";

fn too_many(kind: char, count: u32, max: u32) -> SfenError {
    SfenError::TooManyPieces { kind, count, max }
}

fn dead(piece: &str, square: &str) -> SfenError {
    SfenError::DeadPiece { piece: piece.into(), square: square.into() }
}

/// A `BadHand` whose message is not part of the contract.
fn bad_hand() -> SfenError {
    SfenError::BadHand(String::new())
}

fn sfen_error_cases() -> Vec<(String, SfenError)> {
    let b = |rest: &str| format!("{BOARD} {rest}");
    vec![
        // Fields.
        (String::new(), SfenError::MissingField("board")),
        ("   ".into(), SfenError::MissingField("board")),
        (BOARD.into(), SfenError::MissingField("side to move")),
        (b("b"), SfenError::MissingField("hands")),
        (b("b - 1 extra"), SfenError::TrailingInput("extra".into())),
        // Board shape.
        (
            "lnsgkgsnl/1r5b1/ppppppppp/8/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1".into(),
            SfenError::RankWidth { rank: 'd', width: 8 },
        ),
        (
            "lnsgkgsnl/1r5b1/ppppppppp/9/91/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1".into(),
            SfenError::RankWidth { rank: 'e', width: 10 },
        ),
        (
            "lnsgkgsnl1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1".into(),
            SfenError::RankWidth { rank: 'a', width: 10 },
        ),
        (
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1".into(),
            SfenError::RankCount(8),
        ),
        (
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1".into(),
            SfenError::RankCount(10),
        ),
        ("4k4/9/9/9/4x4/9/9/9/4K4 b - 1".into(), SfenError::UnknownPiece('x')),
        ("4k4/9/9/9/405/9/9/9/4K4 b - 1".into(), SfenError::UnknownPiece('0')),
        // Promotion marks.
        ("4k4/9/9/9/4+G4/9/9/9/4K4 b - 1".into(), SfenError::BadPromotion("+G".into())),
        ("4k4/9/9/9/9/9/9/9/4+K4 b - 1".into(), SfenError::BadPromotion("+K".into())),
        ("4k4/9/9/9/9/9/9/9/4K3+ b - 1".into(), SfenError::BadPromotion("+".into())),
        ("4k4/9/9/9/+9/9/9/9/4K4 b - 1".into(), SfenError::BadPromotion("+9".into())),
        ("4k4/9/9/9/++P8/9/9/9/4K4 b - 1".into(), SfenError::BadPromotion("++".into())),
        // Material.
        (b("b R 1"), too_many('R', 3, 2)),
        (b("b p 1"), too_many('P', 19, 18)),
        (b("b G 1"), too_many('G', 5, 4)),
        ("4k4/9/9/9/9/9/9/9/4K4 b 3B 1".into(), too_many('B', 3, 2)),
        ("4k4/9/9/9/9/9/9/9/4K4 b 5L 1".into(), too_many('L', 5, 4)),
        ("4k4/9/9/9/9/9/9/9/3KK4 b - 1".into(), SfenError::TwoKings(Color::Black)),
        ("3kk4/9/9/9/9/9/9/9/4K4 b - 1".into(), SfenError::TwoKings(Color::White)),
        // Pieces that could never move.
        ("P3k4/9/9/9/9/9/9/9/4K4 b - 1".into(), dead("P", "9a")),
        ("4k4/9/9/9/9/9/9/9/p3K4 b - 1".into(), dead("p", "9i")),
        ("L3k4/9/9/9/9/9/9/9/4K4 b - 1".into(), dead("L", "9a")),
        ("4k4/9/9/9/9/9/9/9/4K3l b - 1".into(), dead("l", "1i")),
        ("4k4/N8/9/9/9/9/9/9/4K4 b - 1".into(), dead("N", "9b")),
        ("4k4/9/9/9/9/9/9/n8/4K4 b - 1".into(), dead("n", "9h")),
        // Nifu.
        (
            "4k4/9/9/9/9/9/4P4/4P4/4K4 b - 1".into(),
            SfenError::DoublePawn { color: Color::Black, file: 5 },
        ),
        (
            "4k4/8p/8p/9/9/9/9/9/4K4 b - 1".into(),
            SfenError::DoublePawn { color: Color::White, file: 1 },
        ),
        // Side to move.
        (b("x - 1"), SfenError::BadSide("x".into())),
        (b("B - 1"), SfenError::BadSide("B".into())),
        (b("bw - 1"), SfenError::BadSide("bw".into())),
        // Hands.
        (b("b 0P 1"), bad_hand()),
        (b("b K 1"), bad_hand()),
        (b("b k 1"), bad_hand()),
        (b("b 2 1"), bad_hand()),
        (b("b P2 1"), bad_hand()),
        (b("b PP 1"), bad_hand()),
        (b("b 99P 1"), bad_hand()),
        (b("b x 1"), bad_hand()),
        (b("b -P 1"), bad_hand()),
        // Move number.
        (b("b - 0"), SfenError::BadMoveNumber("0".into())),
        (b("b - x"), SfenError::BadMoveNumber("x".into())),
        (b("b - -1"), SfenError::BadMoveNumber("-1".into())),
        (b("b - 1.5"), SfenError::BadMoveNumber("1.5".into())),
        // The side that just moved left its king in check.
        ("4k4/4P4/9/9/9/9/9/9/4K4 b - 1".into(), SfenError::OpponentInCheck),
        ("4k4/9/9/9/9/9/9/4p4/4K4 w - 1".into(), SfenError::OpponentInCheck),
        ("4k4/9/9/9/9/9/9/9/4R4 b - 1".into(), SfenError::OpponentInCheck),
    ]
}

#[test]
fn malformed_sfens_give_the_exact_error() {
    let mut failures = Vec::new();
    for (sfen, want) in sfen_error_cases() {
        let got = Position::from_sfen(&sfen);
        let ok = match (&got, &want) {
            (Err(SfenError::BadHand(_)), SfenError::BadHand(_)) => true,
            (Err(e), want) => e == want,
            (Ok(_), _) => false,
        };
        if !ok {
            failures.push(format!("{sfen:?}: want {want:?}, got {got:?}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_sfen_error_variant_is_covered() {
    // Guards the table above against losing a variant.
    let cases = sfen_error_cases();
    let all = [
        SfenError::MissingField(""),
        SfenError::TrailingInput(String::new()),
        SfenError::RankCount(0),
        SfenError::RankWidth { rank: 'a', width: 0 },
        SfenError::UnknownPiece(' '),
        SfenError::BadPromotion(String::new()),
        too_many(' ', 0, 0),
        SfenError::TwoKings(Color::Black),
        dead("", ""),
        SfenError::DoublePawn { color: Color::Black, file: 0 },
        SfenError::BadSide(String::new()),
        bad_hand(),
        SfenError::BadMoveNumber(String::new()),
        SfenError::OpponentInCheck,
    ];
    for v in all {
        assert!(
            cases.iter().any(|(_, e)| discriminant(e) == discriminant(&v)),
            "no case for {v:?}"
        );
    }
}

#[test]
fn positions_without_a_king_are_accepted() {
    // Tsume problems omit the attacker's king; an empty board is a position too.
    for sfen in
        ["4k4/9/9/9/9/9/9/9/9 b G 1", "9/9/9/9/9/9/9/9/4K4 w - 1", "9/9/9/9/9/9/9/9/9 b - 1"]
    {
        let p = Position::from_sfen(sfen).unwrap_or_else(|e| panic!("{sfen}: {e}"));
        assert_eq!(p.to_sfen(), sfen);
    }
}

#[test]
fn edge_cases_that_are_valid() {
    for sfen in [
        // Promoted pieces on the last ranks are not dead; a promoted pawn
        // does not count for nifu.
        "+P3k3+L/+N8/9/9/9/9/4P4/4+P4/4K4 b - 1",
        "4k4/9/9/9/9/9/9/+n8/+p3K4 b - 1",
        // The full set, all in hand apart from the kings.
        "4k4/9/9/9/9/9/9/9/4K4 b 2R2B4G4S4N4L18P 1",
        "4k4/9/9/9/9/9/9/9/4K4 w 9P2r2b4g4s4n4l9p 1",
        // A move number other than 1.
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 42",
    ] {
        let p = Position::from_sfen(sfen).unwrap_or_else(|e| panic!("{sfen}: {e}"));
        assert_eq!(p.to_sfen(), sfen);
    }
    // The move number is optional and defaults to 1; extra whitespace is fine.
    let p = Position::from_sfen(&format!("  {BOARD}   b  - ")).unwrap();
    assert_eq!(p.to_sfen(), STARTPOS);
    // A hand may be written in any order and with a redundant count of 1.
    let p = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b p1PrR 1").unwrap();
    assert_eq!(p.to_sfen(), "4k4/9/9/9/9/9/9/9/4K4 b RPrp 1");
}

#[test]
fn valid_sfens_round_trip() {
    for sfen in [
        STARTPOS,
        // Hands in the canonical order R B G S N L P, Black first.
        "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
        "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2",
        "ln1g1g1nl/1ks2r3/1pppp1bpp/p3spp2/9/P1P1P1PP1/1P1PSP2P/1BK1GR3/LNSG3NL b - 1",
    ] {
        let p = Position::from_sfen(sfen).unwrap_or_else(|e| panic!("{sfen}: {e}"));
        assert_eq!(p.to_sfen(), sfen);
        let q = Position::from_sfen(&p.to_sfen()).unwrap();
        assert_eq!(q, p);
        assert_eq!(q.key(), p.key());
        assert!(p.is_consistent());
    }
}

// ---- USI moves -----------------------------------------------------------------------

fn move_error_cases() -> Vec<(&'static str, &'static str, MoveParseError)> {
    use MoveParseError::*;
    let s = |t: &str| t.to_string();
    // Black king 5i, white king 5a, Black holds a pawn and a gold.
    let hand = "4k4/9/9/9/9/9/9/4G4/4K4 b PG 1";
    // A pawn one step from the last rank and a pawn on file 5.
    let pawns = "4k4/8P/9/9/9/9/4P4/9/4K4 b P 1";
    // Rook 5e pinned on file 5, silver 3g pinned on a diagonal.
    let pinned = "4r3k/9/9/9/4R3b/9/6S2/9/4K4 b - 1";
    // Black in check from the rook on 5a.
    let check = "4r3k/9/9/9/9/9/9/9/4K4 b G 1";
    vec![
        (STARTPOS, "", Syntax(s(""))),
        (STARTPOS, "7g7", Syntax(s("7g7"))),
        (STARTPOS, "7g7f=", Syntax(s("7g7f="))),
        (STARTPOS, "7g7f++", Syntax(s("7g7f++"))),
        (STARTPOS, "7g7f ", Syntax(s("7g7f "))),
        (STARTPOS, "7G7F", Syntax(s("7G7F"))),
        (STARTPOS, "0a1a", Syntax(s("0a1a"))),
        (STARTPOS, "7g7j", Syntax(s("7g7j"))),
        (STARTPOS, "P*5e+", Syntax(s("P*5e+"))),
        (STARTPOS, "p*5e", Syntax(s("p*5e"))),
        (STARTPOS, "K*5e", Syntax(s("K*5e"))),
        (STARTPOS, "X*5e", Syntax(s("X*5e"))),
        (STARTPOS, "７g7f", Syntax(s("７g7f"))),
        (STARTPOS, "5e5d", NoPiece(s("5e5d"))),
        (STARTPOS, "3c3d", NotYourPiece(s("3c3d"))),
        (STARTPOS, "P*5e", NotInHand('P')),
        (STARTPOS, "9i8i", Occupied(s("9i8i"))),
        (STARTPOS, "7g7e", Unreachable(s("7g7e"))),
        (STARTPOS, "8h2b", Unreachable(s("8h2b"))), // blocked by 7g
        (STARTPOS, "7g7g", Occupied(s("7g7g"))),    // its own square
        (STARTPOS, "7g7f+", CannotPromote(s("7g7f+"))),
        (hand, "G*5a", Occupied(s("G*5a"))),
        (hand, "5h5g+", CannotPromote(s("5h5g+"))), // a gold never promotes
        (hand, "B*5e", NotInHand('B')),
        (hand, "P*1a", DeadDrop(s("P*1a"))),
        (hand, "5a5b", NotYourPiece(s("5a5b"))),
        (pawns, "1b1a", MustPromote(s("1b1a"))),
        (pawns, "P*5c", Nifu(s("P*5c"))),
        ("7nk/7p1/8G/9/9/9/9/9/4K4 b P 1", "P*1b", Uchifuzume(s("P*1b"))),
        (pinned, "5e4e", LeavesKingInCheck(s("5e4e"))),
        (pinned, "3g3f", LeavesKingInCheck(s("3g3f"))),
        ("5r2k/9/9/9/9/9/9/9/4K4 b - 1", "5i4h", LeavesKingInCheck(s("5i4h"))),
        (check, "G*1e", LeavesKingInCheck(s("G*1e"))),
        (check, "5i5h", LeavesKingInCheck(s("5i5h"))),
        ("4k4/9/9/9/9/9/9/9/4K4 w - 1", "5i5h", NotYourPiece(s("5i5h"))),
    ]
}

#[test]
fn bad_moves_give_the_exact_error() {
    let mut failures = Vec::new();
    for (sfen, text, want) in move_error_cases() {
        let p = Position::from_sfen(sfen).unwrap();
        let got = p.parse_usi_move(text);
        if got != Err(want.clone()) {
            failures.push(format!("{text:?} in {sfen}: want {want:?}, got {got:?}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_move_parse_error_variant_is_covered() {
    use MoveParseError::*;
    let cases = move_error_cases();
    let s = String::new;
    for v in [
        Syntax(s()),
        NoPiece(s()),
        NotYourPiece(s()),
        NotInHand(' '),
        Occupied(s()),
        Unreachable(s()),
        CannotPromote(s()),
        MustPromote(s()),
        DeadDrop(s()),
        Nifu(s()),
        Uchifuzume(s()),
        LeavesKingInCheck(s()),
    ] {
        assert!(
            cases.iter().any(|(_, _, e)| discriminant(e) == discriminant(&v)),
            "no case for {v:?}"
        );
    }
}

#[test]
fn every_legal_move_parses_back() {
    for sfen in [
        STARTPOS,
        "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1",
        "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1",
    ] {
        let p = Position::from_sfen(sfen).unwrap();
        for &m in shogi::legal_moves(&p).iter() {
            assert_eq!(p.parse_usi_move(&m.to_usi()), Ok(m), "{m} in {sfen}");
        }
    }
}
