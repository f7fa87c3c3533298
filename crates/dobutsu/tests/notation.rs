//! SFEN and USI-style notation: round trips on many positions and moves, and a
//! typed error for every way input can be wrong.

use crate::common;

use common::{moves_of, random_game, random_setup, Lcg};
use dobutsu::{Color, Dobutsu, Kind, Move, MoveParseError, Position, SfenError, Square, STARTPOS};

fn positions() -> Vec<Position> {
    let mut rng = Lcg(11);
    let mut out = Vec::new();
    for _ in 0..500 {
        out.extend(random_game(&mut rng, 40));
    }
    for _ in 0..3000 {
        out.extend(random_setup(&mut rng, 6));
    }
    out
}

#[test]
fn sfen_round_trips() {
    let mut hens = 0;
    for pos in positions() {
        let sfen = pos.to_sfen();
        if pos.check().is_ok() {
            assert_eq!(Position::from_sfen(&sfen), Ok(pos), "{sfen}");
            assert_eq!(sfen.parse::<Position>(), Ok(pos));
            hens += usize::from(sfen.contains('+'));
        } else {
            // Only a captured lion makes a position without one of each.
            assert!(matches!(Position::from_sfen(&sfen), Err(SfenError::LionCount { .. })));
        }
    }
    assert!(hens > 100);
}

#[test]
fn sfen_accepts_the_documented_variants() {
    let pos = Position::from_sfen("gle/1c1/1C1/ELG b -").unwrap();
    assert_eq!(pos, Position::startpos());
    assert_eq!(Position::from_sfen("  gle/1c1/1C1/ELG   b  -  1 "), Ok(pos));
    // The hen may be written H/h; it is written +C/+c.
    let hen = Position::from_sfen("Hl1/3/3/1Lh w - 7").unwrap();
    assert_eq!(hen.to_sfen(), "+Cl1/3/3/1L+c w - 1");
    assert_eq!(Position::from_sfen_numbered("+Cl1/3/3/1L+c w - 7"), Ok((hen, 7)));
    // Hands in any order, counts optional.
    let a = Position::from_sfen("1l1/3/3/1L1 b e2CG1g 1").unwrap();
    let b = Position::from_sfen("1l1/3/3/1L1 b G2Cge 1").unwrap();
    assert_eq!(a, b);
    assert_eq!(a.to_sfen(), "1l1/3/3/1L1 b G2Cge 1");
    assert_eq!(a.hand_count(Color::Sente, Kind::Chick), 2);
    assert_eq!(a.hand_count(Color::Gote, Kind::Elephant), 1);
}

#[test]
fn every_sfen_error() {
    let cases: Vec<(&str, SfenError)> = vec![
        ("", SfenError::MissingField("board")),
        ("gle/1c1/1C1/ELG", SfenError::MissingField("side to move")),
        ("gle/1c1/1C1/ELG b", SfenError::MissingField("hands")),
        ("gle/1c1/1C1/ELG b - 1 x", SfenError::TrailingInput("x".into())),
        ("gle/1c1/1C1 b - 1", SfenError::RankCount(3)),
        ("gle/1c1/1C1/ELG/3 b - 1", SfenError::RankCount(5)),
        ("gle/1c/1C1/ELG b - 1", SfenError::RankWidth { rank: 2, width: 2 }),
        ("gle/1c2/1C1/ELG b - 1", SfenError::RankWidth { rank: 2, width: 4 }),
        ("gle/4/1C1/ELG b - 1", SfenError::UnknownPiece('4')),
        ("gle/0c1/1C1/ELG b - 1", SfenError::UnknownPiece('0')),
        ("gle/1x1/1C1/ELG b - 1", SfenError::UnknownPiece('x')),
        ("gle/1p1/1C1/ELG b - 1", SfenError::UnknownPiece('p')),
        ("g+le/1c1/1C1/ELG b - 1", SfenError::BadPromotion("+l".into())),
        ("gle/1c1/1C1/ELG+ b - 1", SfenError::BadPromotion("+".into())),
        ("gle/1c1/1+H1/ELG b - 1", SfenError::BadPromotion("+H".into())),
        ("ge1/1c1/1C1/ELG b - 1", SfenError::LionCount { color: Color::Gote, count: 0 }),
        ("gll/1c1/1C1/ELG b - 1", SfenError::LionCount { color: Color::Gote, count: 2 }),
        ("gle/1c1/1C1/EGG b - 1", SfenError::LionCount { color: Color::Sente, count: 0 }),
        ("gle/1c1/1C1/ELG b C 1", SfenError::TooManyPieces { kind: 'C', count: 3, max: 2 }),
        ("gle/1c1/1+C1/ELG b c 1", SfenError::TooManyPieces { kind: 'C', count: 3, max: 2 }),
        ("gle/gc1/1C1/ELG b - 1", SfenError::TooManyPieces { kind: 'G', count: 3, max: 2 }),
        ("gle/1c1/1C1/ELG B - 1", SfenError::BadSide("B".into())),
        ("gle/1c1/1C1/ELG black - 1", SfenError::BadSide("black".into())),
        ("1l1/3/3/1L1 b L 1", SfenError::BadHandPiece("L".into())),
        ("1l1/3/3/1L1 b +C 1", SfenError::BadHandPiece("+C".into())),
        ("1l1/3/3/1L1 b H 1", SfenError::BadHandPiece("H".into())),
        ("1l1/3/3/1L1 b X 1", SfenError::BadHandPiece("X".into())),
        ("1l1/3/3/1L1 b G- 1", SfenError::BadHandPiece("-".into())),
        ("1l1/3/3/1L1 b 3C 1", SfenError::BadHandCount("3C".into())),
        ("1l1/3/3/1L1 b 0C 1", SfenError::BadHandCount("0C".into())),
        ("1l1/3/3/1L1 b 12C 1", SfenError::BadHandCount("12".into())),
        ("1l1/3/3/1L1 b G2 1", SfenError::BadHandCount("2".into())),
        ("1l1/3/3/1L1 b CC 1", SfenError::DuplicateHandPiece('C')),
        ("1l1/3/3/1L1 b Cgc2g 1", SfenError::DuplicateHandPiece('g')),
        ("gle/1c1/1C1/ELG b - 0", SfenError::BadMoveNumber("0".into())),
        ("gle/1c1/1C1/ELG b - -3", SfenError::BadMoveNumber("-3".into())),
        ("gle/1c1/1C1/ELG b - one", SfenError::BadMoveNumber("one".into())),
    ];
    for (sfen, error) in cases {
        let got = Position::from_sfen(sfen);
        assert_eq!(got, Err(error.clone()), "{sfen}");
        // Every error explains itself.
        assert!(!error.to_string().is_empty());
    }
}

#[test]
fn usi_moves_round_trip() {
    let mut count = 0;
    for pos in positions() {
        for m in moves_of(&pos) {
            let text = m.to_string();
            assert_eq!(pos.parse_move(&text), Ok(m), "{text} in {}", pos.to_sfen());
            // The `+` of a promotion may be left out.
            if let Some(bare) = text.strip_suffix('+') {
                assert_eq!(pos.parse_move(bare), Ok(m));
            }
            count += 1;
        }
    }
    assert!(count > 20_000, "{count} moves");
}

#[test]
fn every_move_parse_error() {
    let start = Position::startpos();
    let cases: Vec<(&str, &str, MoveParseError)> = vec![
        (STARTPOS, "", MoveParseError::Syntax("".into())),
        (STARTPOS, "b3", MoveParseError::Syntax("b3".into())),
        (STARTPOS, "b3b2x", MoveParseError::Syntax("b3b2x".into())),
        (STARTPOS, "b3b2++", MoveParseError::Syntax("b3b2++".into())),
        (STARTPOS, "d3b2", MoveParseError::Syntax("d3b2".into())),
        (STARTPOS, "b5b2", MoveParseError::Syntax("b5b2".into())),
        (STARTPOS, "B3B2", MoveParseError::Syntax("B3B2".into())),
        (STARTPOS, "3b2b", MoveParseError::Syntax("3b2b".into())),
        (STARTPOS, "L*b2", MoveParseError::Syntax("L*b2".into())),
        (STARTPOS, "c*b2", MoveParseError::Syntax("c*b2".into())),
        (STARTPOS, "H*b2", MoveParseError::Syntax("H*b2".into())),
        (STARTPOS, "C*b2+", MoveParseError::Syntax("C*b2+".into())),
        (STARTPOS, "b3…", MoveParseError::Syntax("b3…".into())),
        (STARTPOS, "a3a2", MoveParseError::NoPiece("a3a2".into())),
        (STARTPOS, "b2b3", MoveParseError::NotYourPiece("b2b3".into())),
        (STARTPOS, "C*a2", MoveParseError::NotInHand('C')),
        (STARTPOS, "b4a4", MoveParseError::Occupied("b4a4".into())),
        ("1l1/3/3/1L1 b C 1", "C*b1", MoveParseError::Occupied("C*b1".into())),
        (STARTPOS, "a4a2", MoveParseError::Unreachable("a4a2".into())),
        (STARTPOS, "a4a3", MoveParseError::Unreachable("a4a3".into())),
        (STARTPOS, "c4b3", MoveParseError::Occupied("c4b3".into())),
        (STARTPOS, "c4c3+", MoveParseError::CannotPromote("c4c3+".into())),
        (STARTPOS, "b3b2+", MoveParseError::CannotPromote("b3b2+".into())),
    ];
    for (sfen, text, error) in cases {
        let pos = Position::from_sfen(sfen).unwrap();
        assert_eq!(pos.parse_move(text), Err(error.clone()), "{text} in {sfen}");
        assert!(!error.to_string().is_empty());
    }
    // A hen does not promote again.
    let pos = Position::from_sfen("1l1/+C2/3/1L1 b - 1").unwrap();
    assert_eq!(pos.parse_move("a2a1+"), Err(MoveParseError::CannotPromote("a2a1+".into())));
    assert!(pos.parse_move("a2a1").is_ok());
    // Gote's chick promotes on rank 4.
    let pos = Position::from_sfen("1l1/3/c2/2L w - 1").unwrap();
    assert!(pos.parse_move("a3a4").unwrap().is_promotion());
    assert_eq!(start.parse_move("b3b2").unwrap().captured(), Some(Kind::Chick));
}

#[test]
fn moves_display_in_usi_and_long_notation() {
    let pos = Position::from_sfen("1l1/C2/3/1L1 b G 1").unwrap();
    let promote = pos.parse_move("a2a1").unwrap();
    assert_eq!(promote.to_string(), "a2a1+");
    assert_eq!(promote.long_notation(), "Ca2-a1+");
    let drop = pos.parse_move("G*c2").unwrap();
    assert_eq!(drop.to_string(), "G*c2");
    assert_eq!(drop.long_notation(), "G*c2");
    assert_eq!(format!("{drop:?}"), "Move(G*c2)");
    assert_eq!(Move::NONE.to_string(), "none");
    let capture = Position::startpos().parse_move("b3b2").unwrap();
    assert_eq!(capture.long_notation(), "Cb3xb2");
    let hen = Position::from_sfen("1l1/3/+C2/1L1 b - 1").unwrap().parse_move("a3a2").unwrap();
    assert_eq!(hen.long_notation(), "Ha3-a2");
    // Gote's drops are written with the uppercase letter too.
    let pos = Position::from_sfen("1l1/3/3/1L1 w e 1").unwrap();
    assert_eq!(pos.parse_move("E*a2").unwrap().to_string(), "E*a2");
}

#[test]
fn the_board_drawing_names_the_pieces() {
    let pos = Position::from_sfen("+cl1/2e/G2/1L1 w Cg 5").unwrap();
    let drawing = pos.to_string();
    assert_eq!(
        drawing,
        "Gote in hand: giraffe
        a          b          c
  1  vhen       vlion      .
  2  .          .          velephant
  3  ^giraffe   .          .
  4  .          ^lion      .
Sente in hand: chick
Gote to move
sfen +cl1/2e/G2/1L1 w Cg 1"
    );
    let pos = Position::from_sfen("1l1/3/3/1L1 b 2C2g 1").unwrap();
    assert!(pos.to_string().contains("Sente in hand: chick x2"));
    assert!(pos.to_string().contains("Gote in hand: giraffe x2"));
    assert_eq!(format!("{pos:?}"), "Position(1l1/3/3/1L1 b 2C2g 1)");
}

#[test]
fn the_game_keeps_the_move_number() {
    let mut game = Dobutsu::from_sfen("gle/1c1/1C1/ELG b - 9").unwrap();
    assert_eq!(game.to_sfen(), "gle/1c1/1C1/ELG b - 9");
    game.play_usi("b3b2").unwrap();
    assert_eq!(game.to_sfen(), "gle/1C1/3/ELG w C 10");
    assert_eq!(game.play_usi("b2b3"), Err(MoveParseError::NotYourPiece("b2b3".into())));
    assert_eq!(game.history().len(), 1);
    assert_eq!(Dobutsu::from_sfen("gle"), Err(SfenError::MissingField("side to move")));
    assert_eq!(Square::parse("b2").map(|s| s.to_string()), Some("b2".to_string()));
}
