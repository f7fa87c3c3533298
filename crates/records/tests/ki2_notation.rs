//! Japanese notation: the words that tell pieces apart, worked out by hand from
//! the JSA's rules (棋譜の表記方法) on positions built for each case, and checked
//! on every legal move of many positions: what is written reads back to the same
//! move, and no word is written that is not needed.

use crate::common;

use common::{random_moves, Rng};
use records::japanese::{move_body, relative};
use records::{japanese, japanese_line, parse_japanese, ErrorKind, Motion, Relative, Side};
use shogi::{legal_moves, Move, Position};

fn pos(sfen: &str) -> Position {
    Position::from_sfen(sfen).unwrap_or_else(|e| panic!("{sfen}: {e}"))
}

/// Asserts the notation of each USI move in `sfen`, and that it reads back.
fn check(sfen: &str, cases: &[(&str, &str)]) {
    let p = pos(sfen);
    for &(usi, want) in cases {
        let m = p.parse_usi_move(usi).unwrap_or_else(|e| panic!("{usi}: {e}"));
        assert_eq!(japanese(&p, m, None), want, "{usi} in {sfen}");
        assert_eq!(parse_japanese(&p, want, None), Ok(m), "{want} reads back");
    }
}

#[test]
fn motion_alone_up_sideways_down() {
    // Golds on 5三 (below 5二), 4二 (beside it) and, in the second position, 5一.
    check(
        "k8/9/4G4/9/9/9/9/9/4K4 b - 1",
        &[("5c5b", "▲５二金")], // one gold: nothing added
    );
    check("k8/5G3/4G4/9/9/9/9/9/4K4 b - 1", &[("5c5b", "▲５二金上"), ("4b5b", "▲５二金寄")]);
    check("k3G4/9/3G5/9/9/9/9/9/4K4 b - 1", &[("5a5b", "▲５二金引"), ("6c5b", "▲５二金上")]);
}

#[test]
fn position_left_straight_right() {
    // Three golds side by side below 5二 all move up: 左, 直, 右 (JSA).
    check(
        "k8/9/3GGG3/9/9/9/9/9/4K4 b - 1",
        &[("6c5b", "▲５二金左"), ("5c5b", "▲５二金直"), ("4c5b", "▲５二金右")],
    );
    // Two of them: still 左/右 for the side ones, 直 for the straight one.
    check("k8/9/4GG3/9/9/9/9/9/4K4 b - 1", &[("5c5b", "▲５二金直"), ("4c5b", "▲５二金右")]);
}

#[test]
fn position_and_motion_together() {
    // 6三 and 4三 go up, 6二 goes sideways: 6二 is 寄 alone; 4三 is 右 alone; 6三
    // shares 上 with 4三 and 左 with 6二, so it is 左上.
    check(
        "k8/3G5/3G1G3/9/9/9/9/9/4K4 b - 1",
        &[("6b5b", "▲５二金寄"), ("4c5b", "▲５二金右"), ("6c5b", "▲５二金左上")],
    );
    // Four silvers around 5二 (6一 4一 6三 4三): each needs both words, and as the
    // silvers reach the promotion zone each needs 成 or 不成 too.
    check(
        "k2S1S3/9/3S1S3/9/9/9/9/9/4K4 b - 1",
        &[
            ("6a5b+", "▲５二銀左引成"),
            ("4a5b", "▲５二銀右引不成"),
            ("6c5b", "▲５二銀左上不成"),
            ("4c5b+", "▲５二銀右上成"),
        ],
    );
}

#[test]
fn white_sees_the_board_turned_round() {
    // White's golds on 6七 5七 4七 moving "up" (towards rank 9) to 5八: from White's
    // side 6七 is on the right.
    check(
        "4k4/9/9/9/9/9/3ggg3/9/K8 w - 1",
        &[("6g5h", "△５八金右"), ("5g5h", "△５八金直"), ("4g5h", "△５八金左")],
    );
    check("4k4/9/9/9/9/9/4g4/3g5/K8 w - 1", &[("5g5h", "△５八金上"), ("6h5h", "△５八金寄")]);
}

#[test]
fn dragons_and_horses_compare_with_each_other() {
    // Wikipedia's example: dragons on 1三 and 2二 both go down to 2四; 2二 is on the
    // left of 1三 (no 直 for dragons, though 2二 is straight above 2四).
    check("k8/7+R1/8+R/9/9/9/9/9/4K4 b - 1", &[("1c2d", "▲２四龍右"), ("2b2d", "▲２四龍左")]);
    // Horses on 9一 and 8一 both go down to 8二.
    check("+B+B7/9/9/9/9/9/9/9/k3K4 b - 1", &[("9a8b", "▲８二馬左"), ("8a8b", "▲８二馬右")]);
    // Motion first: dragons above and below 5五.
    check("4+R4/9/9/9/9/9/k8/9/4+R3K b - 1", &[("5a5e", "▲５五龍引"), ("5i5e", "▲５五龍上")]);
}

#[test]
fn rooks_knights_and_promotions() {
    check("4k4/9/9/9/R7R/9/9/9/4K4 b - 1", &[("9e5e", "▲５五飛左"), ("1e5e", "▲５五飛右")]);
    check("k8/9/9/9/9/9/9/9/4R3K b - 1", &[("5i5e", "▲５五飛")]);
    check("8k/9/9/9/R8/9/9/9/4R3K b - 1", &[("5i5e", "▲５五飛上"), ("9e5e", "▲５五飛寄")]);
    check("k8/9/9/9/9/9/9/9/3N1N2K b - 1", &[("6i5g", "▲５七桂左"), ("4i5g", "▲５七桂右")]);
    check("k8/9/9/9/3N1N3/9/9/9/4K4 b - 1", &[("6e5c+", "▲５三桂左成"), ("4e5c", "▲５三桂右不成")]);
    // A forced promotion is written 成.
    check("k8/4P4/9/9/9/9/9/9/4K4 b - 1", &[("5b5a+", "▲５一歩成")]);
}

#[test]
fn promoted_pieces_have_their_own_names() {
    // A gold and a promoted silver both reach 5二: different names, no words.
    check("k8/9/4G1+S2/9/9/9/9/9/4K4 b - 1", &[("5c5b", "▲５二金"), ("3c4b", "▲４二成銀")]);
    check("k8/9/3+S+S4/9/9/9/9/9/4K4 b - 1", &[("6c5b", "▲５二成銀左"), ("5c5b", "▲５二成銀直")]);
    check(
        "k8/9/3+P+L+N3/9/9/9/9/9/4K4 b - 1",
        &[("6c6b", "▲６二と"), ("5c5b", "▲５二成香"), ("4c4b", "▲４二成桂")],
    );
}

#[test]
fn drops_say_uchi_only_when_a_board_piece_could_go() {
    let sfen = "k8/9/4G4/9/9/9/9/9/4K4 b G 1";
    check(sfen, &[("G*5b", "▲５二金打"), ("5c5b", "▲５二金"), ("G*9e", "▲９五金")]);
    // A silver in hand and a gold on the board: nothing to tell apart.
    check("k8/9/4G4/9/9/9/9/9/4K4 b S 1", &[("S*5b", "▲５二銀")]);
    // cshogi's KI2 reader takes ▲５七金左 for a drop when a gold is in hand; the
    // board move is meant (no 打).
    check(
        "k8/9/9/9/9/9/9/3G1G3/4K4 b G 1",
        &[("6h5g", "▲５七金左"), ("4h5g", "▲５七金右"), ("G*5g", "▲５七金打")],
    );
}

#[test]
fn pinned_pieces_do_not_count() {
    // The gold on 4三 is pinned to its king on 4九 by the rook on 4一: only 6三 can
    // go to 5二, and no word is needed.
    check("k4r3/9/3G1G3/9/9/9/9/9/5K3 b - 1", &[("6c5b", "▲５二金")]);
}

#[test]
fn same_square_is_dou() {
    // ▲3七銀 then △同　歩成: the pawn on 3六 takes on 3七 and promotes.
    let p = pos("k8/9/9/9/9/6p2/9/5S3/4K4 b - 1");
    let silver = p.parse_usi_move("4h3g").unwrap();
    let mut after = p.clone();
    after.do_move(silver);
    let take = after.parse_usi_move("3f3g+").unwrap();
    assert_eq!(japanese(&after, take, Some(silver)), "△同　歩成");
    assert_eq!(parse_japanese(&after, "△同　歩成", Some(silver)), Ok(take));
    assert_eq!(parse_japanese(&after, "△同歩成", Some(silver)), Ok(take));
    assert_eq!(parse_japanese(&after, "△３七同歩成", Some(silver)), Ok(take));
    let not = after.parse_usi_move("3f3g").unwrap();
    assert_eq!(japanese(&after, not, Some(silver)), "△同　歩不成");
    assert_eq!(parse_japanese(&after, "△同　歩生", Some(silver)), Ok(not));
    // Two-character names take no padding.
    let q = pos("k8/9/9/9/9/5+s3/9/5S3/4K4 b - 1");
    let s = q.parse_usi_move("4h4g").unwrap();
    let mut a = q.clone();
    a.do_move(s);
    let t = a.parse_usi_move("4f4g").unwrap();
    assert_eq!(japanese(&a, t, Some(s)), "△同成銀");
    assert_eq!(
        parse_japanese(&p, "▲同　銀", None),
        Err(ErrorKind::NoPreviousMove("▲同　銀".into()))
    );
}

#[test]
fn reading_accepts_the_usual_variants() {
    // 行 and 入 for 上 (with sliders), 竜 for 龍, 王 for 玉, ☗, half-width digits.
    let p = pos("8k/9/9/9/R8/9/9/9/4R3K b - 1");
    let up = p.parse_usi_move("5i5e").unwrap();
    for text in ["▲５五飛上", "▲５五飛行", "▲５五飛入", "☗５五飛上", "55飛上", "５五飛上"]
    {
        assert_eq!(parse_japanese(&p, text, None), Ok(up), "{text}");
    }
    let d = pos("k8/7+R1/8+R/9/9/9/9/9/4K4 b - 1");
    assert_eq!(parse_japanese(&d, "▲２四竜左", None), Ok(d.parse_usi_move("2b2d").unwrap()));
    let k = Position::startpos();
    assert_eq!(parse_japanese(&k, "▲５八王", None), Ok(k.parse_usi_move("5i5h").unwrap()));
    assert_eq!(
        parse_japanese(&k, "▲５八金", None),
        Err(ErrorKind::Ambiguous("▲５八金".into())),
        "two golds can go"
    );
    assert_eq!(parse_japanese(&k, "▲５八金左", None), Ok(k.parse_usi_move("6i5h").unwrap()));
    assert!(matches!(parse_japanese(&k, "▲５八金★", None), Err(ErrorKind::Syntax(_))));
}

#[test]
fn relative_words_in_jkf_letters() {
    let p = pos("k8/3G5/3G1G3/9/9/9/9/9/4K4 b - 1");
    let m = p.parse_usi_move("6c5b").unwrap();
    let r = relative(&p, m);
    assert_eq!(r, Relative { side: Some(Side::Left), motion: Some(Motion::Up), drop: false });
    assert_eq!(r.jkf(), "LU");
    assert_eq!(Relative::from_jkf("LU"), Some(r));
    assert_eq!(Relative::from_jkf("H").map(|r| r.drop), Some(true));
}

/// The text of `m` with only the chosen words of `rel` (for minimality).
fn with_words(p: &Position, m: Move, rel: Relative) -> String {
    let full = move_body(p, m, None);
    let words = relative(p, m).japanese();
    full.replacen(&words, &rel.japanese(), 1)
}

#[test]
fn every_legal_move_reads_back_and_no_word_is_spare() {
    let mut rng = Rng::new(77);
    let mut checked = 0;
    let mut with_words_count = 0;
    for game in 0..60 {
        let moves = random_moves(&Position::startpos(), 160, 500 + game);
        let mut p = Position::startpos();
        for (i, &played) in moves.iter().enumerate() {
            if i % 3 == 0 || rng.chance(10) {
                for &m in legal_moves(&p).iter() {
                    let text = japanese(&p, m, None);
                    assert_eq!(parse_japanese(&p, &text, None), Ok(m), "{text} in {}", p.to_sfen());
                    let rel = relative(&p, m);
                    if m.is_drop() || rel.is_empty() {
                        checked += 1;
                        continue;
                    }
                    with_words_count += 1;
                    // Preferred order: motion alone, else side alone, else both.
                    let motion_only = Relative { side: None, ..rel };
                    let side_only = Relative { motion: None, ..rel };
                    let reads =
                        |r: Relative| parse_japanese(&p, &with_words(&p, m, r), None) == Ok(m);
                    match (rel.side, rel.motion) {
                        (None, Some(_)) => {}
                        (Some(_), None) => assert!(
                            !reads(Relative {
                                side: None,
                                motion: Some(motion_of(&p, m)),
                                drop: false
                            }),
                            "{text}: the motion alone would do"
                        ),
                        (Some(_), Some(_)) => {
                            assert!(!reads(motion_only), "{text}: motion alone would do");
                            assert!(!reads(side_only), "{text}: side alone would do");
                        }
                        (None, None) => unreachable!(),
                    }
                    checked += 1;
                }
            }
            p.do_move(played);
        }
    }
    assert!(checked > 100_000, "{checked}");
    assert!(with_words_count > 1_000, "{with_words_count} moves needed words");
}

/// The motion word of a board move, as the writer would compute it.
fn motion_of(p: &Position, m: Move) -> Motion {
    let us = p.side_to_move();
    let fwd = |sq: shogi::Square| match us {
        shogi::Color::Black => 8 - sq.rank() as i32,
        shogi::Color::White => sq.rank() as i32,
    };
    match fwd(m.to()).cmp(&fwd(m.from())) {
        std::cmp::Ordering::Greater => Motion::Up,
        std::cmp::Ordering::Equal => Motion::Sideways,
        std::cmp::Ordering::Less => Motion::Down,
    }
}

#[test]
fn a_pv_in_japanese() {
    let p = Position::startpos();
    let moves: Vec<Move> = ["7g7f", "3c3d", "8h2b+", "3a2b"]
        .iter()
        .scan(p.clone(), |q, u| {
            let m = q.parse_usi_move(u).unwrap();
            q.do_move(m);
            Some(m)
        })
        .collect();
    assert_eq!(japanese_line(&p, &moves, None), "▲７六歩 △３四歩 ▲２二角成 △同　銀");
}
