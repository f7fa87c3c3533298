//! One test per error kind: the line it is reported on, and the record read up
//! to it (what came before the error is kept).

use records::{
    decode, read_csa, read_jkf, read_ki2, read_kif, read_usi, ErrorKind, HeaderKey, PartialRecord,
    ReadResult,
};
use shogi::{MoveParseError, SfenError};

fn fail(result: ReadResult) -> PartialRecord {
    *result.expect_err("the record is bad")
}

fn usi(p: &PartialRecord) -> Vec<String> {
    p.record.moves.iter().map(|m| m.mv.to_usi()).collect()
}

const KIF_HEAD: &str = "先手：A\n後手：B\n手数----指手---------消費時間--\n";

#[test]
fn encoding() {
    // Shift_JIS text whose third line has a lead byte with no valid trail byte.
    let mut bytes = records::encode("先手：A\n後手：B\n", records::TextEncoding::ShiftJis).unwrap();
    bytes.extend_from_slice(b"\x82\xff\xff\n");
    let e = decode(&bytes).unwrap_err();
    assert_eq!(e.line, 3);
    assert!(matches!(e.kind, ErrorKind::Encoding(_)));
}

#[test]
fn syntax() {
    let p = fail(read_kif(&format!("{KIF_HEAD}   1 ７六歩(77)\n   2 ?????\n")));
    assert_eq!(p.error.line, 5);
    assert_eq!(p.error.kind, ErrorKind::Syntax("?????".into()));
    assert_eq!(usi(&p), ["7g7f"]);
    assert_eq!(p.record.header(&HeaderKey::BlackName), Some("A"));

    let p = fail(read_csa("V2.2\nPI\n+\n+7776FU\nX123\n"));
    assert_eq!((p.error.line, p.error.kind.clone()), (5, ErrorKind::Syntax("X123".into())));
    assert_eq!(usi(&p), ["7g7f"]);

    let p = fail(read_usi("position startpos moves 7g7f\nsomething else\n"));
    assert_eq!(p.error.line, 2, "the second line is the bad one");
    assert_eq!(p.error.kind, ErrorKind::Syntax("something else".into()));
    assert_eq!(usi(&p), ["7g7f"], "the moves of the line are kept");

    let p = fail(read_ki2("先手：A\n▲７六歩 △３四歩\n▲２六歩 ▲▲\n"));
    assert_eq!(p.error.line, 3);
    assert_eq!(usi(&p), ["7g7f", "3c3d", "2g2f"]);
}

#[test]
fn board() {
    let p = fail(read_csa("V2.2\nN+A\nP1-KY-KE-GI-KI-OU-KI-GI-KE-XX\n"));
    assert_eq!(p.error.line, 3);
    assert!(matches!(p.error.kind, ErrorKind::Board(_)));
    assert_eq!(p.record.header(&HeaderKey::BlackName), Some("A"));
    let p = fail(read_csa("V2.2\nPI82HI82HI\n+\n"));
    assert_eq!(p.error.line, 2, "removing a piece that is not there");
    // A diagram with 8 ranks: reported at the diagram's last line.
    let bod = "後手の持駒：なし\n  ９ ８ ７ ６ ５ ４ ３ ２ １\n+---------------------------+\n\
               |v香v桂v銀v金v玉v金v銀v桂v香|一\n| ・v飛 ・ ・ ・ ・ ・v角 ・|二\n\
               |v歩v歩v歩v歩v歩v歩v歩v歩v歩|三\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|四\n\
               | ・ ・ ・ ・ ・ ・ ・ ・ ・|五\n| 歩 歩 歩 歩 歩 歩 歩 歩 歩|七\n\
               | ・ 角 ・ ・ ・ ・ ・ 飛 ・|八\n| 香 桂 銀 金 玉 金 銀 桂 香|九\n\
               +---------------------------+\n先手の持駒：なし\n";
    let p = fail(read_kif(&format!("{bod}手数----指手---------消費時間--\n   1 ７六歩(77)\n")));
    assert_eq!(p.error.line, 14);
    assert!(matches!(p.error.kind, ErrorKind::Board(_)), "{:?}", p.error);
}

#[test]
fn position() {
    let p = fail(read_csa(
        "V2.2\nP1-KY-KE-GI-KI-OU-KI-GI-KE-KY\nP9+KY+KE+GI+KI+OU+KI+GI+KE+KY\nP+53OU\n+\n",
    ));
    assert_eq!(p.error.line, 5, "the position is judged at the side-to-move line");
    assert_eq!(p.error.kind, ErrorKind::Position(SfenError::TwoKings(shogi::Color::Black)));
    let p = fail(read_usi("\n\nsfen 9/9/9/9/9/9/9/9/9 x - 1 moves\n"));
    assert_eq!(p.error.line, 3);
    assert_eq!(p.error.kind, ErrorKind::Position(SfenError::BadSide("x".into())));
    let p = fail(read_csa("V2.2\nP2 * +FU\nP3 * +FU\n+\n"));
    assert_eq!(p.error.line, 4);
    assert_eq!(
        p.error.kind,
        ErrorKind::Position(SfenError::DoublePawn { color: shogi::Color::Black, file: 8 })
    );
}

#[test]
fn unknown_handicap() {
    let p = fail(read_kif("先手：A\n手合割：謎落ち\n手数----指手---------消費時間--\n"));
    assert_eq!(
        (p.error.line, p.error.kind.clone()),
        (2, ErrorKind::UnknownHandicap("謎落ち".into()))
    );
    assert_eq!(p.record.header(&HeaderKey::BlackName), Some("A"));
    let p = fail(read_jkf("{\"header\":{},\n\"initial\":{\"preset\":\"XX\"},\n\"moves\":[{}]}"));
    assert_eq!((p.error.line, p.error.kind.clone()), (2, ErrorKind::UnknownHandicap("XX".into())));
}

#[test]
fn illegal_move() {
    let p =
        fail(read_kif(&format!("{KIF_HEAD}   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ７四歩(76)\n")));
    assert_eq!(p.error.line, 6);
    assert_eq!(
        p.error.kind,
        ErrorKind::IllegalMove {
            text: "７四歩(76)".into(),
            reason: MoveParseError::Unreachable("7f7d".into())
        }
    );
    assert_eq!(usi(&p), ["7g7f", "3c3d"]);

    let p =
        fail(read_csa("V2.2\nPI\n+\n+7776FU\nT3\n-3334FU\n+8822UM\n-3122GI\n+0055KA\n-0044HI\n"));
    assert_eq!(p.error.line, 10);
    assert!(matches!(p.error.kind, ErrorKind::IllegalMove { .. }), "{:?}", p.error.kind);
    assert_eq!(usi(&p), ["7g7f", "3c3d", "8h2b+", "3a2b", "B*5e"]);
    assert_eq!(p.record.moves[0].time, Some(std::time::Duration::from_secs(3)));

    let p = fail(read_usi("position startpos moves 7g7f 3c3d 2g2f 2b2g\n"));
    assert_eq!(p.error.line, 1);
    assert!(matches!(p.error.kind, ErrorKind::IllegalMove { ref text, .. } if text == "2b2g"));
    assert_eq!(usi(&p), ["7g7f", "3c3d", "2g2f"]);

    // Nifu, told as such.
    let p = fail(read_usi("sfen 4k4/9/9/9/9/9/4P4/9/4K4 b P 1 moves P*5e"));
    assert_eq!(
        p.error.kind,
        ErrorKind::IllegalMove { text: "P*5e".into(), reason: MoveParseError::Nifu("P*5e".into()) }
    );
}

#[test]
fn wrong_piece() {
    let p = fail(read_kif(&format!("{KIF_HEAD}   1 ７六金(77)\n")));
    assert_eq!(
        (p.error.line, p.error.kind.clone()),
        (4, ErrorKind::WrongPiece("７六金(77)".into()))
    );
    let p = fail(read_csa("PI\n+\n+7776FU\n-3334KA\n"));
    assert_eq!((p.error.line, p.error.kind.clone()), (4, ErrorKind::WrongPiece("-3334KA".into())));
    assert_eq!(usi(&p), ["7g7f"]);
}

#[test]
fn wrong_side() {
    let p = fail(read_csa("V2.2\nPI\n+\n+7776FU\n+2726FU\n"));
    assert_eq!((p.error.line, p.error.kind.clone()), (5, ErrorKind::WrongSide("+2726FU".into())));
    let p = fail(read_ki2("▲７六歩\n▲２六歩\n"));
    assert_eq!((p.error.line, p.error.kind.clone()), (2, ErrorKind::WrongSide("▲２六歩".into())));
    assert_eq!(usi(&p), ["7g7f"]);
    let jkf = "{\"header\":{},\"moves\":[{},\n{\"move\":{\"color\":1,\"from\":{\"x\":7,\"y\":7},\"to\":{\"x\":7,\"y\":6},\"piece\":\"FU\"}}]}";
    let p = fail(read_jkf(jkf));
    assert_eq!(p.error.line, 2);
    assert!(matches!(p.error.kind, ErrorKind::WrongSide(_)));
}

#[test]
fn no_such_move_and_ambiguous() {
    let p = fail(read_ki2("▲７六歩 △３四歩\n▲５五金\n"));
    assert_eq!((p.error.line, p.error.kind.clone()), (2, ErrorKind::NoSuchMove("▲５五金".into())));
    assert_eq!(usi(&p), ["7g7f", "3c3d"]);
    let p = fail(read_ki2("手合割：平手\n\n▲５八金\n"));
    assert_eq!((p.error.line, p.error.kind.clone()), (3, ErrorKind::Ambiguous("▲５八金".into())));
}

#[test]
fn no_previous_move() {
    let p = fail(read_kif(&format!("{KIF_HEAD}   1 同　歩(77)\n")));
    assert_eq!(
        (p.error.line, p.error.kind.clone()),
        (4, ErrorKind::NoPreviousMove("同　歩(77)".into()))
    );
    let p = fail(read_ki2("▲同　歩\n"));
    assert_eq!(
        (p.error.line, p.error.kind.clone()),
        (1, ErrorKind::NoPreviousMove("▲同　歩".into()))
    );
}

#[test]
fn move_number() {
    let p = fail(read_kif(&format!("{KIF_HEAD}   1 ７六歩(77)\n   3 ３四歩(33)\n")));
    assert_eq!(p.error.line, 5);
    assert_eq!(p.error.kind, ErrorKind::MoveNumber { expected: 2, found: 3 });
    assert_eq!(usi(&p), ["7g7f"]);
}

#[test]
fn after_end() {
    let p = fail(read_csa("PI\n+\n+7776FU\n%TORYO\n-3334FU\n"));
    assert_eq!((p.error.line, p.error.kind.clone()), (5, ErrorKind::AfterEnd("-3334FU".into())));
    assert_eq!(p.record.ending.as_ref().map(|e| e.reason), Some(records::EndReason::Resign));
    let p = fail(read_kif(&format!("{KIF_HEAD}   1 ７六歩(77)\n   2 投了\n   3 ２六歩(27)\n")));
    assert_eq!(p.error.line, 6);
    assert!(matches!(p.error.kind, ErrorKind::AfterEnd(_)));
}

#[test]
fn variation_without_a_base() {
    let text = format!("{KIF_HEAD}   1 ７六歩(77)\n   2 ３四歩(33)\n\n変化：2手\n   2 ８四歩(83)\n\n変化：9手\n   9 ２六歩(27)\n");
    let p = fail(read_kif(&text));
    assert_eq!((p.error.line, p.error.kind.clone()), (10, ErrorKind::Variation(9)));
    assert_eq!(usi(&p), ["7g7f", "3c3d"]);
    assert_eq!(p.record.variation_count(), 1, "the variation before the error is kept");
}

#[test]
fn json() {
    let p =
        fail(read_jkf("{\n  \"header\": {},\n  \"moves\": [\n    {},\n    {\"move\": }\n  ]\n}"));
    assert_eq!(p.error.line, 5);
    assert!(matches!(p.error.kind, ErrorKind::Json(_)));
    let p = fail(read_jkf("{\"header\":{\"先手\":\"A\"},\n\"moves\":{}}"));
    assert_eq!(p.error.line, 2);
    assert!(matches!(p.error.kind, ErrorKind::Json(_)));
    assert_eq!(p.record.header(&HeaderKey::BlackName), Some("A"));
    // A bad move deep in a fork: its own line, and the main line before it kept.
    let jkf = "{\"header\":{},\"moves\":[{},\n\
        {\"move\":{\"color\":0,\"from\":{\"x\":7,\"y\":7},\"to\":{\"x\":7,\"y\":6},\"piece\":\"FU\"}},\n\
        {\"move\":{\"color\":1,\"from\":{\"x\":3,\"y\":3},\"to\":{\"x\":3,\"y\":4},\"piece\":\"FU\"},\"forks\":[[\n\
        {\"move\":{\"color\":1,\"from\":{\"x\":8,\"y\":3},\"to\":{\"x\":8,\"y\":5},\"piece\":\"FU\"}}]]}]}";
    let p = fail(read_jkf(jkf));
    assert_eq!(p.error.line, 4);
    assert!(matches!(p.error.kind, ErrorKind::IllegalMove { .. }));
    assert_eq!(usi(&p), ["7g7f", "3c3d"]);
}

#[test]
fn empty() {
    let p = fail(read_usi("\n# nothing\n\n"));
    assert_eq!(p.error.kind, ErrorKind::Empty);
}

#[test]
fn errors_display_their_line() {
    let p = fail(read_kif(&format!("{KIF_HEAD}   1 ７六歩(77)\n   3 ３四歩(33)\n")));
    let text = p.to_string();
    assert!(text.starts_with("line 5: move number 3, expected 2"), "{text}");
}
