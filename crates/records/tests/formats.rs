//! What each format's reader understands, on texts written by hand the way other
//! software writes them: KIF handicaps, board diagrams and variations, Shift_JIS,
//! CSA position lines, JKF's specification examples, USI lists; format detection,
//! files and the time to read and write a long KIF.

use crate::common;

use records::{
    decode, encode, read, read_csa, read_csa_all, read_file, read_jkf, read_ki2, read_kif,
    read_usi, write, write_file, write_kif, EndReason, Format, Handicap, HeaderKey, Start,
    TextEncoding,
};
use shogi::{Color, Position};
use std::time::{Duration, Instant};

fn usi(r: &records::Record) -> Vec<String> {
    r.moves.iter().map(|m| m.mv.to_usi()).collect()
}

const KIF: &str = "\
# ---- Kifu for Windows V7 棋譜ファイル ----
開始日時：1999/07/15(木) 19:07:12
終了日時：1999/07/15(木) 19:07:17
棋戦：テスト
手合割：平手
先手：先手の対局者名
後手：後手の対局者名
手数----指手---------消費時間--
*開始前のコメント
   1 ７六歩(77)   ( 0:16/00:00:16)
*初手のコメント
&しおり
   2 ３四歩(33)   ( 0:00/00:00:00)+
   3 ２二角成(88) ( 1:05/00:01:21)
   4 同　銀(31)   ( 0:02/00:00:02)
   5 ４五角打     ( 0:03/00:01:24)
   6 中断         ( 0:03/ 0:00:05)
まで5手で中断

変化：2手
   2 ８四歩(83)   ( 0:01/00:00:01)
   3 ２六歩(27)   ( 0:01/00:00:17)+
   4 投了
まで3手で先手の勝ち

変化：3手
   3 ７八金(69)   ( 0:01/00:00:17)

変化：2手
   2 ４四歩(43)   ( 0:01/00:00:01)
   3 ６六歩(67)
";

#[test]
fn kif_as_kifu_for_windows_writes_it() {
    let r = read_kif(KIF).unwrap();
    assert_eq!(r.header(&HeaderKey::StartTime), Some("1999/07/15(木) 19:07:12"));
    assert_eq!(r.header(&HeaderKey::Event), Some("テスト"));
    assert_eq!(r.header(&HeaderKey::BlackName), Some("先手の対局者名"));
    assert_eq!(r.start, Start::Handicap(Handicap::Even));
    assert_eq!(r.comments, ["開始前のコメント"]);
    assert_eq!(usi(&r), ["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e"]);
    assert_eq!(r.moves[0].comments, ["初手のコメント"]);
    assert_eq!(r.moves[0].bookmark.as_deref(), Some("しおり"));
    assert_eq!(r.moves[2].time, Some(Duration::from_secs(65)));
    let e = r.ending.as_ref().unwrap();
    assert_eq!((e.reason, e.time), (EndReason::Abort, Some(Duration::from_secs(3))));
    // Move 2 has two alternatives (8四歩, 8八角成); 8四歩's line has its own at 3.
    let alts = &r.moves[1].variations;
    assert_eq!(alts.len(), 2, "siblings, not nested");
    assert_eq!(
        usi(&records::Record { moves: alts[0].moves.clone(), ..Default::default() }),
        ["8c8d", "2g2f"]
    );
    assert_eq!(alts[0].ending.as_ref().map(|e| e.reason), Some(EndReason::Resign));
    assert_eq!(alts[0].moves[1].variations.len(), 1);
    assert_eq!(alts[0].moves[1].variations[0].moves[0].mv.to_usi(), "6i7h");
    assert_eq!(alts[1].moves[1].mv.to_usi(), "6g6f");
    assert_eq!(r.variation_count(), 3);
    // Written back and read again: the same record.
    assert_eq!(read_kif(&write_kif(&r)).unwrap(), r);
}

#[test]
fn kif_handicaps() {
    for (name, first) in [
        ("香落ち", "5c5d"),
        ("角落ち", "5c5d"),
        ("飛車落ち", "5c5d"),
        ("飛香落ち", "5c5d"),
        ("二枚落ち", "5c5d"),
        ("四枚落ち", "5c5d"),
        ("六枚落ち", "5c5d"),
        ("八枚落ち", "5c5d"),
        ("十枚落ち", "5c5d"),
    ] {
        let text = format!("手合割：{name}\n下手：A\n上手：B\n手数----指手---------消費時間--\n   1 ５四歩(53)\n   2 ７六歩(77)\n");
        let r = read_kif(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        let h = Handicap::from_kif_name(name).unwrap();
        assert_eq!(r.start, Start::Handicap(h));
        assert_eq!(r.start_position().side_to_move(), Color::White, "上手 moves first");
        assert_eq!(usi(&r)[0], first);
        assert_eq!(r.header(&HeaderKey::BlackName), Some("A"), "下手 is Black");
        assert_eq!(r.header(&HeaderKey::WhiteName), Some("B"));
    }
    let p = Start::Handicap(Handicap::TenPieces).position();
    assert_eq!(p.pieces(Color::White).count(), 10, "king and nine pawns");
    let p = Start::Handicap(Handicap::LeftSevenPieces).position();
    assert!(p.piece_on(shogi::Square::new(2, 0)).is_empty(), "3一 silver gone");
    assert!(!p.piece_on(shogi::Square::new(6, 0)).is_empty(), "7一 silver there");
}

const BOD: &str = "\
後手の持駒：飛　角　金　銀　桂　香　歩四　
  ９ ８ ７ ６ ５ ４ ３ ２ １
+---------------------------+
| ・ ・ ・ ・ ・ ・ ・v桂v香|一
| ・ ・ ・ ・ ・ ・v金v玉 ・|二
| ・ ・ ・ ・ ・ ・ ・v歩v歩|三
| ・ ・ ・ ・ ・ ・ ・ ・ ・|四
| ・ ・ ・ ・ ・ ・ ・ 桂 ・|五
| ・ ・ ・ ・ ・ ・ ・ ・ ・|六
| ・ ・ ・ ・ ・ ・ ・ ・ ・|七
| ・ ・ ・ ・ ・ ・ ・ ・ ・|八
| ・ ・ ・ ・ ・ ・ ・ ・ 龍|九
+---------------------------+
先手の持駒：金二　銀三　歩十
手数＝36  ▲７六歩  まで
";

#[test]
fn kif_board_diagrams() {
    let text = format!("{BOD}\n手数----指手---------消費時間--\n  37 ３三金打\n  38 同　金(32)\n");
    let r = read_kif(&text).unwrap();
    let start = r.start_position();
    assert_eq!(start.game_ply(), 37, "手数＝36: the diagram is after move 36");
    assert_eq!(start.side_to_move(), Color::Black);
    assert_eq!(start.hand(Color::Black).count(shogi::PieceKind::Gold), 2);
    assert_eq!(start.hand(Color::Black).count(shogi::PieceKind::Pawn), 10);
    assert_eq!(start.hand(Color::White).count(shogi::PieceKind::Pawn), 4);
    assert_eq!(
        start.piece_on(shogi::Square::new(0, 8)),
        shogi::Piece::new(Color::Black, shogi::PieceKind::Dragon)
    );
    assert_eq!(usi(&r), ["G*3c", "3b3c"]);
    // KIF and KI2 write the diagram back; numbering from 37 too.
    let kif = write_kif(&r);
    assert!(kif.contains("手数＝36") && kif.contains("\n  37 ３三金打"), "{kif}");
    assert_eq!(read_kif(&kif).unwrap(), r);
    assert_eq!(read_ki2(&write(&r, Format::Ki2)).unwrap().start, r.start);
    // Numbering from 1 after a diagram is accepted too.
    let from_one =
        format!("{BOD}手数----指手---------消費時間--\n   1 ３三金打\n   2 同　金(32)\n");
    assert_eq!(usi(&read_kif(&from_one).unwrap()), ["G*3c", "3b3c"]);
    // White to move, a handicap diagram with 上手/下手 hands.
    let white =
        BOD.replace("手数＝36  ▲７六歩  まで\n", "後手番\n").replace("後手の持駒", "上手の持駒");
    let r = read_kif(&format!("{white}   1 １二玉(22)\n")).unwrap();
    assert_eq!(r.start_position().side_to_move(), Color::White);
    assert_eq!(usi(&r), ["2b1b"]);
}

#[test]
fn shift_jis_kif_files() {
    let bytes = encode(KIF, TextEncoding::ShiftJis).unwrap();
    assert!(std::str::from_utf8(&bytes).is_err(), "really Shift_JIS");
    let (text, enc) = decode(&bytes).unwrap();
    assert_eq!(enc, TextEncoding::ShiftJis);
    assert_eq!(read_kif(&text).unwrap(), read_kif(KIF).unwrap());
    // Files: .kif is written in Shift_JIS, .kifu in UTF-8; both read back.
    let dir = testdata::ScratchDir::new("records");
    let r = read_kif(KIF).unwrap();
    for (name, enc) in [
        ("a.kif", TextEncoding::ShiftJis),
        ("a.kifu", TextEncoding::Utf8),
        ("a.ki2", TextEncoding::ShiftJis),
    ] {
        let path = dir.join(name);
        write_file(&path, &r).unwrap();
        let (_, found) = decode(&std::fs::read(&path).unwrap()).unwrap();
        assert_eq!(found, enc, "{name}");
        let (format, back) = read_file(&path).unwrap();
        assert_eq!(back, r.restricted_to(format), "{name}");
    }
    // A UTF-8 .kif (as many sites now serve) reads too: the content decides.
    let path = dir.join("utf8.kif");
    std::fs::write(&path, KIF).unwrap();
    assert_eq!(read_file(&path).unwrap().1, r);
}

#[test]
fn ki2_lines_and_summaries() {
    let text = "\
開始日時：2024/01/01
手合割：平手
先手：A
後手：B

▲７六歩    △３四歩    ▲２六歩    △８四歩    ▲２五歩    △８五歩
▲７八金    △３二金    ▲２四歩    △同　歩    ▲同　飛    △２三歩
*飛車を引く
▲２八飛
まで13手で先手の勝ち
";
    let r = read_ki2(text).unwrap();
    assert_eq!(r.moves.len(), 13);
    assert_eq!(r.moves[11].mv.to_usi(), "P*2c", "a drop without 打 where no board piece can go");
    assert_eq!(r.moves[11].comments, ["飛車を引く"]);
    assert_eq!(r.ending.as_ref().unwrap().reason, EndReason::Resign);
    // Black moved last: White, to move, resigned.
    assert_eq!(r.winner(), Some(Color::Black));
    for (phrase, stm_reason) in [
        ("まで13手で時間切れにより先手の勝ち", EndReason::TimeUp),
        ("まで13手で後手の反則負け", EndReason::IllegalMove),
        ("まで13手で先手の反則負け", EndReason::IllegalAction(Color::Black)),
        ("まで13手で後手の反則勝ち", EndReason::IllegalAction(Color::Black)),
        ("まで13手で後手の勝ち", EndReason::IllegalAction(Color::Black)),
        ("まで13手で千日手", EndReason::Sennichite),
        ("まで13手で持将棋", EndReason::Jishogi),
        ("まで13手で中断", EndReason::Abort),
        ("まで13手で後手の入玉勝ち", EndReason::DeclareWin),
    ] {
        let t = text.replace("まで13手で先手の勝ち", phrase);
        assert_eq!(read_ki2(&t).unwrap().ending.unwrap().reason, stm_reason, "{phrase}");
    }
}

#[test]
fn csa_position_lines() {
    // PI with removals (二枚落ち), White to move.
    let r = read_csa("V2.2\nPI82HI22KA\n-\n-5354FU\n").unwrap();
    assert_eq!(r.start, Start::Handicap(Handicap::TwoPieces));
    assert_eq!(usi(&r), ["5c5d"]);
    // P1-P9 with hands: `00` pieces and `AL` for the rest.
    let text = "\
'CSA encoding=UTF-8
V3.0
N+攻め方
N-玉方
$EVENT:詰将棋
P1 *  *  *  *  *  *  * -KE-KY
P2 *  *  *  *  *  * -KI-OU *
P3 *  *  *  *  *  *  * -FU-FU
P4 *  *  *  *  *  *  *  *  *
P5 *  *  *  *  *  *  * +KE *
P6 *  *  *  *  *  *  *  *  *
P7 *  *  *  *  *  *  *  *  *
P8 *  *  *  *  *  *  *  *  *
P9 *  *  *  *  *  *  *  *  *
P+00KI00KI
P-00AL
+
+0033KI,T1.5
'* 金打ち
-3233KI,T0.25
%TSUMI
";
    let r = read_csa(text).unwrap();
    let p = r.start_position();
    assert_eq!(p.hand(Color::Black).count(shogi::PieceKind::Gold), 2);
    assert_eq!(p.hand(Color::White).count(shogi::PieceKind::Rook), 2, "AL: all the rest");
    assert_eq!(p.hand(Color::White).count(shogi::PieceKind::Pawn), 16);
    assert_eq!(p.hand(Color::White).count(shogi::PieceKind::Gold), 1);
    assert!(p.king_square(Color::Black).is_none());
    assert_eq!(usi(&r), ["G*3c", "3b3c"]);
    assert_eq!(r.moves[0].time, Some(Duration::from_millis(1500)));
    assert_eq!(r.moves[0].comments, [" 金打ち"]);
    assert_eq!(r.moves[1].time, Some(Duration::from_millis(250)));
    assert_eq!(r.ending.as_ref().unwrap().reason, EndReason::Mate);
    assert_eq!(r.header(&HeaderKey::Event), Some("詰将棋"));
    assert_eq!(r.header(&HeaderKey::BlackName), Some("攻め方"));
    assert_eq!(read_csa(&write(&r, Format::Csa)).unwrap(), r);
}

#[test]
fn csa_several_records_and_plain_comments() {
    let text = "V2.2\nN+A\nPI\n+\n' skipped\n+7776FU\n%TORYO\n/\nN+B\nPI\n+\n+2726FU\n-8384FU\n";
    let all = read_csa_all(text);
    assert_eq!(all.len(), 2);
    let a = all[0].as_ref().unwrap();
    let b = all[1].as_ref().unwrap();
    assert_eq!((usi(a), a.header(&HeaderKey::BlackName)), (vec!["7g7f".to_string()], Some("A")));
    assert!(a.moves[0].comments.is_empty(), "plain ' comments are skipped");
    assert_eq!(usi(b), ["2g2f", "8c8d"]);
    assert_eq!(read_csa(text).unwrap(), *a, "read_csa reads the first");
    // Errors in a later record name the line in the whole text.
    let bad = read_csa_all("PI\n+\n/\nPI\n+\n+7775FU\n");
    assert_eq!(bad[1].as_ref().unwrap_err().error.line, 6);
}

#[test]
fn jkf_specification_examples() {
    // The examples of the JKF README (na2hiro/json-kifu-format).
    let normal = r#"{
  "header": {"先手": "na2hiro", "後手": "うひょ"},
  "moves": [
    {},
    {"move":{"from":{"x":7,"y":7},"to":{"x":7,"y":6},"color":0,"piece":"FU"}},
    {"move":{"from":{"x":3,"y":3},"to":{"x":3,"y":4},"color":1,"piece":"FU"}},
    {"move":{"from":{"x":8,"y":8},"to":{"x":2,"y":2},"color":0,"piece":"KA","capture":"KA","promote":false}},
    {"move":{"from":{"x":3,"y":1},"to":{"x":2,"y":2},"color":1,"piece":"GI","capture":"KA","same":true}},
    {"move":{"to":{"x":4,"y":5},"color":0,"piece":"KA"}},
    {"special": "CHUDAN"}
  ]
}"#;
    let r = read_jkf(normal).unwrap();
    assert_eq!(usi(&r), ["7g7f", "3c3d", "8h2b", "3a2b", "B*4e"]);
    assert_eq!(r.header(&HeaderKey::WhiteName), Some("うひょ"));
    assert_eq!(r.ending.as_ref().unwrap().reason, EndReason::Abort);

    let forks = r#"{
  "header": {},
  "moves": [
    {"comments":["分岐の例"]},
    {"move":{"from":{"x":7,"y":7},"to":{"x":7,"y":6},"color":0,"piece":"FU"}},
    {"move":{"from":{"x":3,"y":3},"to":{"x":3,"y":4},"color":1,"piece":"FU"}, "comments":["次の手で二種類が考えられる：７七桂か２二角成である．","２二角成を選ぶと筋違い角となる．"]},
    {"move":{"from":{"x":8,"y":9},"to":{"x":7,"y":7},"color":0,"piece":"KE"}, "forks":[
      [
        {"move":{"from":{"x":8,"y":8},"to":{"x":2,"y":2},"color":0,"piece":"KA","capture":"KA","promote":false}},
        {"move":{"from":{"x":3,"y":1},"to":{"x":2,"y":2},"color":1,"piece":"GI","capture":"KA","same":true}},
        {"move":{"to":{"x":4,"y":5},"color":0,"piece":"KA"}}
      ]
    ]},
    {"move":{"from":{"x":2,"y":2},"to":{"x":7,"y":7},"color":1,"piece":"KA","capture":"KE","promote":true,"same":true}},
    {"move":{"from":{"x":8,"y":8},"to":{"x":7,"y":7},"color":0,"piece":"KA","capture":"UM","same":true}},
    {"move":{"to":{"x":3,"y":3},"color":1,"piece":"KE","relative":"H"}}
  ]
}"#;
    let r = read_jkf(forks).unwrap();
    assert_eq!(r.comments, ["分岐の例"]);
    assert_eq!(usi(&r), ["7g7f", "3c3d", "8i7g", "2b7g+", "8h7g", "N*3c"]);
    assert_eq!(r.moves[1].comments.len(), 2);
    let v = &r.moves[2].variations[0];
    assert_eq!(
        usi(&records::Record { moves: v.moves.clone(), ..Default::default() }),
        ["8h2b", "3a2b", "B*4e"]
    );
    // The writer adds relative "H" for that knight drop (a board knight could go? no: none).
    assert_eq!(read_jkf(&write(&r, Format::Jkf)).unwrap(), r);

    let handicap = r#"{"header": {}, "initial": {"preset": "6"}, "moves": [{},
      {"move":{"from":{"x":5,"y":1},"to":{"x":4,"y":2},"color":1,"piece":"OU"}},
      {"move":{"from":{"x":7,"y":7},"to":{"x":7,"y":6},"color":0,"piece":"FU"}},
      {"move":{"from":{"x":6,"y":1},"to":{"x":7,"y":2},"color":1,"piece":"KI"}}]}"#;
    let r = read_jkf(handicap).unwrap();
    assert_eq!(r.start, Start::Handicap(Handicap::SixPieces));
    assert_eq!(usi(&r), ["5a4b", "7g7f", "6a7b"]);

    // "初形変則": preset OTHER with the board as data (飛車角先落ち).
    let mut board = Vec::new();
    let start =
        Position::from_sfen("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPP1P/1B5R1/LNSGKGSNL b - 1")
            .unwrap();
    for x in 0..9u8 {
        let cells: Vec<String> = (0..9u8)
            .map(|y| {
                let p = start.piece_on(shogi::Square::new(x, y));
                match p.kind() {
                    None => "{}".to_string(),
                    Some(k) => format!(
                        "{{\"color\":{},\"kind\":\"{}\"}}",
                        p.color().index(),
                        records::csa::csa_piece_name(k)
                    ),
                }
            })
            .collect();
        board.push(format!("[{}]", cells.join(",")));
    }
    let other = format!(
        "{{\"header\":{{}},\"initial\":{{\"preset\":\"OTHER\",\"data\":{{\"board\":[{}],\"color\":0,\
         \"hands\":[{{\"FU\":0,\"KY\":0,\"KE\":0,\"GI\":0,\"KI\":0,\"KA\":0,\"HI\":0}},{{\"FU\":0,\"KY\":0,\"KE\":0,\"GI\":0,\"KI\":0,\"KA\":0,\"HI\":0}}]}}}},\
         \"moves\":[{{\"comments\":[\"飛車角先落ち．\"]}},{{\"move\":{{\"from\":{{\"x\":2,\"y\":8}},\"to\":{{\"x\":2,\"y\":3}},\"color\":0,\"piece\":\"HI\",\"promote\":true,\"capture\":\"FU\"}}}}]}}",
        board.join(",")
    );
    let r = read_jkf(&other).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(r.start_position(), start);
    assert_eq!(usi(&r), ["2h2c+"]);
}

#[test]
fn usi_lists() {
    let r = read_usi("position startpos moves 7g7f 3c3d\n").unwrap();
    assert_eq!(usi(&r), ["7g7f", "3c3d"]);
    let r2 = read_usi("startpos moves 7g7f 3c3d").unwrap();
    assert_eq!(r2, r);
    let r3 = read_usi("7g7f 3c3d").unwrap();
    assert_eq!(r3, r);
    let r =
        read_usi("sfen lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1 moves 5c5d")
            .unwrap();
    assert_eq!(r.start, Start::Handicap(Handicap::Lance));
    assert_eq!(write(&r, Format::Usi), "position sfen lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1 moves 5c5d\n");
    let r = read_usi("position sfen 4k4/9/9/9/9/9/9/9/4K4 b G 12 moves G*5b").unwrap();
    assert_eq!(r.start_position().game_ply(), 12);
    assert_eq!(write(&read_usi("position startpos").unwrap(), Format::Usi), "position startpos\n");
}

#[test]
fn detection() {
    let r = common::rich_record(Start::default(), 20, 9);
    for f in Format::ALL {
        assert_eq!(Format::detect(&write(&r, f)), Some(f), "{f:?}");
    }
    assert_eq!(Format::detect(KIF), Some(Format::Kif));
    assert_eq!(
        Format::detect(&format!("{BOD}手数----指手---------消費時間--\n")),
        Some(Format::Kif)
    );
    assert_eq!(Format::detect("V2.2\nPI\n+\n"), Some(Format::Csa));
    assert_eq!(Format::detect("N+a\nN-b\nPI\n"), Some(Format::Csa));
    assert_eq!(Format::detect("先手：A\n後手：B\n\n▲７六歩"), Some(Format::Ki2));
    assert_eq!(Format::detect("sfen 4k4/9/9/9/9/9/9/9/4K4 b G 1"), Some(Format::Usi));
    assert_eq!(Format::detect("7g7f 3c3d"), Some(Format::Usi));
    assert_eq!(Format::detect(" \n{\"header\":{}}"), Some(Format::Jkf));
    assert_eq!(Format::detect("hello world"), None);
    assert_eq!(Format::from_extension("KIF"), Some((Format::Kif, TextEncoding::ShiftJis)));
    assert_eq!(Format::from_extension("kifu"), Some((Format::Kif, TextEncoding::Utf8)));
    assert_eq!(Format::from_extension("ki2u"), Some((Format::Ki2, TextEncoding::Utf8)));
    assert_eq!(Format::from_extension("jkf"), Some((Format::Jkf, TextEncoding::Utf8)));
    assert_eq!(Format::from_extension("txt"), None);
}

#[test]
fn convert_between_formats() {
    let csa = records::convert(KIF, Format::Kif, Format::Csa).unwrap();
    assert!(csa.contains("+7776FU\nT16\n") && csa.contains("%CHUDAN"), "{csa}");
    let ki2 = records::convert(&csa, Format::Csa, Format::Ki2).unwrap();
    assert!(ki2.contains("▲７六歩") && ki2.contains("△同　銀"), "{ki2}");
    let back = read(&ki2, Format::Ki2).unwrap();
    assert_eq!(usi(&back), usi(&read_kif(KIF).unwrap()));
    let err = records::convert("V2.2\nPI\n+\n+7775FU\n", Format::Csa, Format::Kif).unwrap_err();
    assert_eq!(err.error.line, 4);
}

#[test]
fn reading_and_writing_a_long_kif_is_fast() {
    // 240 moves with times and comments; the measured time is printed, not judged
    // (run with --nocapture to see it).
    let r = common::rich_record(Start::default(), 240, 4242);
    let text = write_kif(&r);
    assert!(r.moves.len() >= 200, "{} moves", r.moves.len());
    let t0 = Instant::now();
    let mut back = None;
    for _ in 0..10 {
        back = Some(read_kif(&text).unwrap());
    }
    let read_time = t0.elapsed() / 10;
    let t1 = Instant::now();
    let mut out = String::new();
    for _ in 0..10 {
        out = write_kif(back.as_ref().unwrap());
    }
    let write_time = t1.elapsed() / 10;
    assert_eq!(out, text);
    eprintln!(
        "KIF of {} moves ({} bytes, {} variations): read {:?}, written {:?}",
        r.moves.len(),
        text.len(),
        r.variation_count(),
        read_time,
        write_time
    );
}
