//! The bad-shape checks (`shogi_game::bad_shape`): for every check a move it fires on and
//! a move it must not fire on, the Figures of KFEnd's bad-shape article 1-4 rebuilt as positions, the
//! mover's relative view for both colours, and the record replay behind
//! `kyobo shape --rates`.

use shogi::{Color, Position, Square, STARTPOS};
use shogi_game::bad_shape::{self, Rates, Rel, CHECKS};

/// The start position.
const START: &str = STARTPOS;

/// Figure 4: Black's Fourth-file Rook in a finished Mino (king 28, silver 38,
/// golds 49 and 58) against White's Boat castle.
const MINO: &str = "ln3g1nl/1r1sgskb1/p2ppp1pp/2p3p2/1p7/P1PPPP2P/1PBS2PP1/3RG1SK1/LN3G1NL b - 1";
/// The Mino position with White to move, a knight in hand to check the king with.
const MINO_CHECKED: &str =
    "ln3g1nl/1r1sgskb1/p2ppp1pp/2p3p2/1p7/P1PPPP2P/1PBS2PP1/3RG1SK1/L4G1NL w n 1";
/// Both sides in a Yagura (king 88, silver 77, golds 78 and 67; White turned round).
const YAGURA: &str =
    "ln4bnl/1r1s2gk1/p1p2gsp1/1p1pppp1p/9/P1PPPP1P1/1PSG2P1P/1KG2S1R1/LNB4NL b - 1";
/// The same with White to move: White's castle is judged turned round.
const YAGURA_WHITE: &str =
    "ln4bnl/1r1s2gk1/p1p2gsp1/1p1pppp1p/9/P1PPPP1P1/1PSG2P1P/1KG2S1R1/LNB4NL w - 1";
/// Black in an Anaguma (king 99, lance 98, silver 88; the knight has jumped to 77).
const ANAGUMA: &str = "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2PPPP1PP/PPN2SP2/LSGB3R1/K1G4NL b - 1";
/// Black's king on 78 with its 8th-file pawn gone and White's rook on 82.
const OPEN_ROOK_FILE: &str = "lnsgkgsnl/1r5b1/p1ppppppp/9/1p7/2P6/P1BPPPPPP/2K4R1/LNSG1GSNL b p 1";
/// The same with Black's pawn still on 87.
const CLOSED_ROOK_FILE: &str =
    "lnsgkgsnl/1r5b1/p1ppppppp/9/1p7/2P6/PPBPPPPPP/2K4R1/LNSG1GSNL b - 1";
/// Black's king on 69, a silver on 57, White's bishop on 24 aiming down 35-46-57-68.
const BISHOP_LINE: &str = "lnsgkgsnl/1r7/pppppp1pp/6pb1/9/4P4/PPPPSPPPP/1BG4R1/LNSK1G1NL b - 1";
/// Black's king castled on 78 (Boat castle) with the rook at home on 28.
const BOAT: &str = "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1BK4R1/LNSG1GSNL b - 1";
/// The Boat castle with the lance on 18 and a gold in Black's hand.
const BOAT_GOLD_IN_HAND: &str =
    "lns1kgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1BK4RL/LNSG1GSN1 b G 1";
/// Boat castle with the right gold on 58.
const BOAT_GOLD_58: &str = "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1BK1G2R1/LNSG2SNL b - 1";
/// A White tokin on 59 that Black's silver on 48 can take.
const TOKIN_ON_59: &str = "lnsgkgsnl/1r5b1/pppp1pppp/9/9/9/PPPPPPPPP/1BGK1S1R1/LNS1+pG1NL b - 1";
/// A White silver on 27 in front of Black's rook on 26.
const SILVER_ON_27: &str = "lnsgkg1nl/1r5b1/ppppppp1p/9/9/7R1/PPPPPPPsP/1B7/LNSGKGSNL b P 1";
/// White's king on 22, near Black's first file.
const KING_ON_22: &str = "lnsg1gsnl/1r5k1/ppppppbpp/6p2/9/8P/PPPPPPPP1/1B5R1/LNSGKGSNL b - 1";
/// White's bishop on 64 attacking Black's rook on 28 through 37.
const ROOK_ATTACKED: &str = "lnsgkgsnl/1r7/ppppppppp/3b5/9/6P2/PPPPPP1PP/1B5R1/LNSGKGSNL b - 1";

/// Figure 1: the rook on 26 after the 2nd-file pawn exchange, pawns on 37 and 47.
const FIG1: &str = "2g2f 8c8d 2f2e 8d8e 2e2d 2c2d 2h2d P*2c 2d2f 4a3b";
/// Figure 2: White's bishop takes on 77 (△77角成); Black's gold stands on 78 and
/// silver on 88, the king on 69.
const FIG2: &str = "7g7f 3c3d 6i7h 8c8d 8h7g 8d8e 7i8h 4a3b 5i6i 2b7g+";

/// `check` fires (`true`) or not on `mv` after `before` from `sfen`.
struct Case {
    check: &'static str,
    sfen: &'static str,
    before: &'static str,
    mv: &'static str,
    fires: bool,
}

const fn case(
    check: &'static str,
    sfen: &'static str,
    before: &'static str,
    mv: &'static str,
    fires: bool,
) -> Case {
    Case { check, sfen, before, mv, fires }
}

const CASES: &[Case] = &[
    // Figure 1: ▲36飛 and ▲46飛 onto the pawns' heads; ▲36飛 aiming at a loose
    // pawn on 34 has a purpose.
    case("rook_on_pawn_head", START, FIG1, "2f3f", true),
    case("rook_on_pawn_head", START, FIG1, "2f4f", true),
    case(
        "rook_on_pawn_head",
        START,
        "2g2f 8c8d 2f2e 8d8e 2e2d 2c2d 2h2d P*2c 2d2f 3c3d",
        "2f3f",
        false,
    ),
    // Figure 2: ▲77同金 makes the wall, ▲77同銀 clears it.
    case("gold_into_wall", START, FIG2, "7h7g", true),
    case("gold_into_wall", START, FIG2, "8h7g", false),
    // Figure 3 and Figure 5: ▲18飛, △92飛; not when fleeing or attacking the edge.
    case("rook_to_own_edge", START, "", "2h1h", true),
    case("rook_to_own_edge", START, "7g7f", "8b9b", true),
    case("rook_to_own_edge", ROOK_ATTACKED, "", "2h1h", false),
    case("rook_to_own_edge", KING_ON_22, "", "2h1h", false),
    // Figure 3: ▲28銀 after ▲18飛 shuts the rook in; ▲38銀 leaves it 28.
    case("rook_shut_in", START, "2h1h 3c3d", "3i2h", true),
    case("rook_shut_in", START, "2h1h 3c3d", "3i3h", false),
    // Item 19: ▲27飛; taking a piece on 27 is natural.
    case("rook_to_own_third_rank", START, FIG1, "2f2g", true),
    case("rook_to_own_third_rank", SILVER_ON_27, "", "2f2g", false),
    // Figure 4: ▲39玉, then ▲48玉; Mino-Anaguma's ▲19玉 and a king in check are not.
    case("king_leaves_castle", MINO, "", "2h3i", true),
    case("king_leaves_castle", MINO, "2h3i 9c9d", "3i4h", true),
    case("king_leaves_castle", MINO, "1i1h 9c9d", "2h1i", false),
    case("king_leaves_castle", MINO_CHECKED, "N*3f", "2h3i", false),
    case("king_leaves_castle", YAGURA, "", "8h9h", true),
    case("king_leaves_castle", YAGURA, "9i9h 9c9d", "8h9i", false),
    case("king_leaves_castle", YAGURA_WHITE, "", "2b1b", true),
    case("king_leaves_castle", ANAGUMA, "", "9i8i", true),
    case("castle_gold_leaves", MINO, "", "4i4h", true),
    case("castle_gold_leaves", YAGURA, "", "7h6h", true),
    case("castle_gold_leaves", YAGURA_WHITE, "", "3b4b", true),
    case("castle_gold_leaves", MINO, "5h4g 9c9d", "4i5h", false),
    // 壁銀: ▲88銀 beside a king on 78; with the king still on 59 it is no wall.
    case("wall_piece", START, "7g7f 3c3d 5i6h 8c8d 6h7h 8d8e 8h7g 4a3b", "7i8h", true),
    case("wall_piece", START, "7g7f 3c3d 8h7g 4a3b", "7i8h", false),
    // The right gold of the Boat castle wanders off; High Mino's ▲58金 does not.
    case("gold_leaves_king", BOAT_GOLD_58, "", "5h4h", true),
    case("gold_leaves_king", BOAT_GOLD_58, "", "5h6h", false),
    case("gold_leaves_king", MINO, "5h4g 9c9d", "4i5h", false),
    // ▲45銀 over the pawn on 46; the sitting silver ▲56銀 (腰掛け銀) is normal.
    case("silver_on_pawn_head", START, "4g4f 3c3d 3i4h 4a3b 4h4g 8c8d 4g5f 8d8e", "5f4e", true),
    case("silver_on_pawn_head", START, "4g4f 3c3d 3i4h 4a3b 4h4g 8c8d", "4g5f", false),
    case("gold_on_pawn_head", START, "4g4f 3c3d 4i4h 4a3b 4h4g 8c8d 4g5f 8d8e", "5f4e", true),
    case("gold_on_pawn_head", START, "5g5f 3c3d 6i5h 4a3b 5h5g 8c8d", "5g4f", false),
    case("gold_to_front", START, "4g4f 3c3d 4i4h 4a3b 4h4g 8c8d 4g5f 8d8e", "5f5e", true),
    case("gold_to_front", START, "5g5f 3c3d 6i5h 4a3b 5h5g 8c8d", "5g4f", false),
    // ▲97銀 with the king on 59; with the king on 78 the edge is its own wing.
    case("guard_to_own_edge", START, "9g9f 8c8d 7g7f 8d8e 8h7g 3c3d 7i8h 4a3b", "8h9g", true),
    case(
        "guard_to_own_edge",
        START,
        "9g9f 8c8d 7g7f 8d8e 8h7g 3c3d 7i8h 4a3b 5i6h 5a4a 6h7h 7a6b",
        "8h9g",
        false,
    ),
    // ▲59銀 back; taking the tokin on 59 is natural.
    case("silver_to_back_rank", START, "3i4h 3c3d 5i6h 8c8d", "4h5i", true),
    case("silver_to_back_rank", TOKIN_ON_59, "", "4h5i", false),
    // ▲88角 back behind the pawn on 66; with 66 open the bishop keeps its diagonal.
    case("bishop_buried", START, "7g7f 3c3d 6g6f 8c8d 8h7g 8d8e", "7g8h", true),
    case("bishop_buried", START, "7g7f 3c3d 8h7g 4a3b", "7g8h", false),
    // ▲97角 behind the pawn on 86; with 86 open it aims at 53.
    case("bishop_to_own_edge", START, "9g9f 3c3d 8g8f 8c8d", "8h9g", true),
    case("bishop_to_own_edge", START, "9g9f 3c3d 7g7f 8c8d", "8h9g", false),
    // ▲45桂 into △44歩's mouth; hitting a silver on 53 it is an attack.
    case("knight_to_pawn_head", START, "3g3f 4c4d 2i3g 8c8d", "3g4e", true),
    case("knight_to_pawn_head", START, "3g3f 5c5d 2i3g 3a4b 9g9f 4b5c 1g1f 4c4d", "3g4e", false),
    // ▲17桂 with White's king far away; against a king on 22 it is an edge attack.
    case("knight_to_own_edge", START, "1g1f 3c3d", "2i1g", true),
    case("knight_to_own_edge", KING_ON_22, "", "2i1g", false),
    // ▲96歩 in front of one's own Anaguma; the far edge pawn is free.
    case("anaguma_edge_pawn", ANAGUMA, "", "9g9f", true),
    case("anaguma_edge_pawn", ANAGUMA, "", "1f1e", false),
    // ▲68飛 next to the king on 78; 中飛車's ▲58飛 beside the uncastled king is not.
    case("rook_beside_king", BOAT, "", "2h6h", true),
    case("rook_beside_king", START, "", "2h5h", false),
    case("king_onto_rook_file", OPEN_ROOK_FILE, "", "7h8h", true),
    case("king_onto_rook_file", CLOSED_ROOK_FILE, "", "7h8h", false),
    case("king_walks_into_pin", BISHOP_LINE, "", "6i6h", true),
    case("king_walks_into_pin", BISHOP_LINE, "", "6i5h", false),
    // ▲57玉 in the opening; 天守閣美濃's ▲87玉 over the bishop is a castle.
    case("king_climbs_early", START, "5g5f 3c3d 5i5h 8c8d", "5h5g", true),
    case("king_climbs_early", START, "7g7f 3c3d 5i6h 8c8d 6h7h 8d8e 8g8f 4a3b", "7h8g", false),
    // A gold dropped on 19 does nothing; on 59 it guards 68 beside the king.
    case("pointless_back_rank_drop", BOAT_GOLD_IN_HAND, "", "G*1i", true),
    case("pointless_back_rank_drop", BOAT_GOLD_IN_HAND, "", "G*5i", false),
];

/// The position after the USI moves `before` from `sfen`.
fn after(sfen: &str, before: &str) -> Position {
    shogi::attacks::init();
    let mut pos = Position::from_sfen(sfen).unwrap_or_else(|e| panic!("{sfen}: {e}"));
    for text in before.split_whitespace() {
        let m = pos.parse_usi_move(text).unwrap_or_else(|e| panic!("{sfen} {before}: {e}"));
        pos.do_move(m);
    }
    pos
}

/// The names of the checks that fire on `mv` (which must be legal).
fn fired(sfen: &str, before: &str, mv: &str) -> Vec<&'static str> {
    let pos = after(sfen, before);
    let m = pos.parse_usi_move(mv).unwrap_or_else(|e| panic!("{sfen} {before} / {mv}: {e}"));
    bad_shape::firing(&pos, m).map(|c| c.name).collect()
}

#[test]
fn every_case_fires_or_stays_quiet_as_expected() {
    for c in CASES {
        assert!(bad_shape::check_named(c.check).is_some(), "no check named {}", c.check);
        let names = fired(c.sfen, c.before, c.mv);
        assert_eq!(
            names.contains(&c.check),
            c.fires,
            "{} on {} after [{}] from {}: fired {names:?}",
            c.check,
            c.mv,
            c.before,
            c.sfen
        );
        // A move some check fires on is bad shape, and the first check answers.
        let pos = after(c.sfen, c.before);
        let m = pos.parse_usi_move(c.mv).unwrap();
        assert_eq!(bad_shape::is_bad_shape(&pos, m).map(|k| k.name), names.first().copied());
    }
}

#[test]
fn every_check_has_a_case_that_fires_and_one_that_does_not() {
    for check in &CHECKS {
        for fires in [true, false] {
            assert!(
                CASES.iter().any(|c| c.check == check.name && c.fires == fires),
                "{} has no case where it {}",
                check.name,
                if fires { "fires" } else { "stays quiet" }
            );
        }
    }
}

#[test]
fn checks_have_unique_names_and_one_line_reasons() {
    for (i, check) in CHECKS.iter().enumerate() {
        assert!(!check.name.is_empty() && !check.name.contains(' '), "{}", check.name);
        assert!(!check.reason.is_empty() && !check.reason.contains('\n'), "{}", check.name);
        assert!(CHECKS[..i].iter().all(|c| c.name != check.name), "{} twice", check.name);
    }
    assert!(CHECKS.len() >= 20);
}

#[test]
fn figure_1_rook_onto_the_pawns_head_is_the_first_check_to_fire() {
    let pos = after(START, FIG1);
    for mv in ["2f3f", "2f4f"] {
        let m = pos.parse_usi_move(mv).unwrap();
        let check = bad_shape::is_bad_shape(&pos, m).expect(mv);
        assert_eq!(check.name, "rook_on_pawn_head", "{mv}");
    }
    // The rook back home on 28 is fine; so is the list of every bad move consistent.
    let home = pos.parse_usi_move("2f2h").unwrap();
    assert!(bad_shape::is_bad_shape(&pos, home).is_none());
    let bad = bad_shape::bad_moves(&pos);
    assert!(bad.iter().any(|(m, c)| m.to_usi() == "2f3f" && c.name == "rook_on_pawn_head"));
    assert!(bad.iter().all(|(m, c)| bad_shape::is_bad_shape(&pos, *m).unwrap().name == c.name));
}

#[test]
fn figure_2_the_gold_recapture_is_bad_shape_though_it_captures() {
    let pos = after(START, FIG2);
    assert!(!pos.in_check());
    let gold = pos.parse_usi_move("7h7g").unwrap();
    let silver = pos.parse_usi_move("8h7g").unwrap();
    let knight = pos.parse_usi_move("8i7g").unwrap();
    assert!(gold.is_capture() && silver.is_capture());
    assert_eq!(bad_shape::is_bad_shape(&pos, gold).map(|c| c.name), Some("gold_into_wall"));
    assert!(bad_shape::is_bad_shape(&pos, silver).is_none());
    assert!(bad_shape::is_bad_shape(&pos, knight).is_none());
}

#[test]
fn figure_3_the_rook_to_the_corner_and_then_shut_in() {
    assert_eq!(fired(START, "", "2h1h").first(), Some(&"rook_to_own_edge"));
    assert_eq!(fired(START, "2h1h 3c3d", "3i2h").first(), Some(&"rook_shut_in"));
    // Taken one at a time: ▲38銀 after ▲18飛 still leaves the rook 28.
    assert!(fired(START, "2h1h 3c3d", "3i3h").is_empty());
}

#[test]
fn figure_4_the_king_stays_in_its_mino() {
    // Every king move out of the finished Mino is bad shape, the gold's too.
    let pos = after(MINO, "");
    let bad = bad_shape::bad_moves(&pos);
    for mv in ["2h3i", "2h1h", "4i4h", "4i3i"] {
        assert!(bad.iter().any(|(m, _)| m.to_usi() == mv), "{mv} not in {bad:?}");
    }
    assert_eq!(fired(MINO, "2h3i 9c9d", "3i4h"), vec!["king_leaves_castle"]);
    // Back into the castle is fine.
    assert!(fired(MINO, "2h3i 9c9d", "3i2h").is_empty());
}

#[test]
fn a_side_in_check_has_no_bad_shape_move() {
    let pos = after(MINO_CHECKED, "N*3f");
    assert!(pos.in_check());
    assert!(bad_shape::bad_moves(&pos).is_empty());
}

#[test]
fn captures_reach_only_the_checks_that_judge_them() {
    let judges_captures: Vec<_> = CHECKS.iter().filter(|c| c.captures).map(|c| c.name).collect();
    assert_eq!(judges_captures, vec!["gold_into_wall"]);
    // The rook taking the silver on 27 would be item 19 if it took nothing.
    assert!(fired(SILVER_ON_27, "", "2f2g").is_empty());
}

#[test]
fn the_relative_view_turns_the_board_round_for_white() {
    let sq = |usi: &str| Square::from_usi(usi.as_bytes()).unwrap();
    assert_eq!(Rel::of(sq("7g"), Color::Black), Rel::new(7, 7));
    assert_eq!(Rel::of(sq("2h"), Color::Black), Rel::new(2, 8));
    // △92飛 is ▲18飛 seen from White's side; △33 is ▲77.
    assert_eq!(Rel::of(sq("9b"), Color::White), Rel::new(1, 8));
    assert_eq!(Rel::of(sq("3c"), Color::White), Rel::new(7, 7));
    for color in [Color::Black, Color::White] {
        for s in Square::all() {
            assert_eq!(Rel::of(s, color).square(color), Some(s));
        }
    }
    assert_eq!(Rel::new(0, 5).square(Color::Black), None);
    assert_eq!(Rel::new(2, 8).mirrored(true), Rel::new(8, 8));
    assert_eq!(Rel::new(2, 8).distance(Rel::new(4, 9)), 2);
}

#[test]
fn records_are_replayed_and_bad_lines_refused() {
    shogi::attacks::init();
    let (start, moves) = bad_shape::parse_record("startpos moves 7g7f 3c3d 2h1h").unwrap();
    assert_eq!(start, Position::startpos());
    assert_eq!(moves.len(), 3);
    let (_, none) = bad_shape::parse_record("position startpos").unwrap();
    assert!(none.is_empty());
    let sfen = format!("sfen {MINO} moves 2h3i");
    assert_eq!(bad_shape::parse_record(&sfen).unwrap().1.len(), 1);
    assert!(bad_shape::parse_record("startpos moves 7g7f 7g7f").unwrap_err().contains("move 2"));
    assert!(bad_shape::parse_record("sfen 9/9 b - 1").is_err());
    assert!(bad_shape::parse_record("startpos moves 7g7").is_err());
    assert!(bad_shape::parse_record("nonsense").is_err());

    // ▲18飛 on the third move fires; from ply 4 on nothing is judged.
    let mut rates = Rates::new();
    rates.add_game(&start, &moves, 1);
    assert_eq!((rates.games, rates.judged, rates.bad), (1, 3, 1));
    let edge = CHECKS.iter().position(|c| c.name == "rook_to_own_edge").unwrap();
    assert_eq!(rates.fired[edge], 1);
    assert!((rates.percent(1) - 100.0 / 3.0).abs() < 1e-9);
    let mut later = Rates::new();
    later.add_game(&start, &moves, 4);
    assert_eq!((later.games, later.judged, later.bad), (1, 0, 0));
    assert_eq!(later.percent(0), 0.0);
}
