//! Round trips: write → read gives back the record as far as the format holds it
//! (`Record::restricted_to`), and read → write → read is stable, for every format,
//! on records with everything in them, handicap starts, other starts (board
//! diagrams with hands and a move number) and the cshogi fixture games.

use crate::common;

use common::{plain_record, random_moves, rich_record};
use records::{
    convert, read, read_csa, write, write_csa, CsaVersion, EndReason, Format, Handicap, Record,
    Start,
};
use shogi::Position;
use std::time::Duration;

fn check_round_trip(record: &Record, what: &str) {
    for format in Format::ALL {
        let text = write(record, format);
        let back =
            read(&text, format).unwrap_or_else(|e| panic!("{what} as {format:?}: {e}\n{text}"));
        assert_eq!(back, record.restricted_to(format), "{what} as {format:?}\n{text}");
        assert_eq!(write(&back, format), text, "{what}: writing is stable in {format:?}");
        let again = read(&write(&back, format), format).expect("rereadable");
        assert_eq!(again, back, "{what}: read → write → read in {format:?}");
    }
}

#[test]
fn rich_records_from_the_start_position() {
    for seed in 0..40 {
        let record = rich_record(Start::default(), 30 + seed as usize * 3, seed);
        check_round_trip(&record, &format!("seed {seed}"));
    }
}

#[test]
fn rich_records_hold_what_each_format_promises() {
    let record = rich_record(Start::default(), 120, 7);
    assert!(record.variation_count() > 0);
    let kif = record.restricted_to(Format::Kif);
    assert_eq!(kif.variation_count(), record.variation_count(), "KIF keeps variations");
    assert!(kif.moves.iter().any(|m| m.bookmark.is_some()), "KIF keeps bookmarks");
    let csa = record.restricted_to(Format::Csa);
    assert_eq!(csa.variation_count(), 0, "CSA has no variations");
    assert_eq!(csa.headers, record.headers);
    let ki2 = record.restricted_to(Format::Ki2);
    assert!(ki2.moves.iter().all(|m| m.time.is_none()), "KI2 has no times");
    let usi = record.restricted_to(Format::Usi);
    assert_eq!(usi.main_line(), record.main_line());
    assert!(usi.headers.is_empty() && usi.ending.is_none());
    let jkf = record.restricted_to(Format::Jkf);
    assert_eq!(jkf.variation_count(), record.variation_count(), "JKF keeps forks");
    assert_eq!(jkf.comments, record.comments);
}

#[test]
fn every_handicap_start() {
    for (i, h) in Handicap::ALL.iter().enumerate() {
        let start = Start::Handicap(*h);
        let record = rich_record(start.clone(), 40, 100 + i as u64);
        check_round_trip(&record, h.kif_name());
        let kif = write(&record, Format::Kif);
        if *h != Handicap::Even {
            assert!(kif.contains(&format!("手合割：{}", h.kif_name())), "{kif}");
            assert!(kif.contains("下手："), "handicap games name 下手 and 上手");
            assert_eq!(record.start_position().side_to_move(), shogi::Color::White);
        }
        let csa = write(&record, Format::Csa);
        assert!(csa.contains(&format!("\nPI{}\n", h.csa_removals())), "{csa}");
        let jkf = write(&record, Format::Jkf);
        if *h != Handicap::Even {
            assert!(jkf.contains(&format!("\"preset\":\"{}\"", h.jkf_preset())));
        }
    }
}

#[test]
fn other_starts_with_hands_and_move_numbers() {
    let sfens = [
        // A middle game with pieces in both hands, White to move, move 37.
        "ln1g3nl/1r1s1kg2/p1ppppsp1/1p4p1p/9/2P1P1P2/PPSP1P1PP/2G2S1R1/LN2KG1NL w Bb 37",
        // A tsume problem: no Black king, every other piece in White's hand.
        "7nl/6gk1/7pp/9/7N1/9/9/9/9 b 2G2r2bg4s2n3l15p 1",
        // Promoted pieces on the board.
        "4k4/9/4+P4/9/2+B1+R4/9/9/9/4K4 b 2G 5",
    ];
    for (i, sfen) in sfens.iter().enumerate() {
        let start = Start::from_sfen(sfen).expect("valid");
        assert!(matches!(start, Start::Sfen(_)));
        let record = rich_record(start, 25, 200 + i as u64);
        check_round_trip(&record, sfen);
        let kif = write(&record, Format::Kif);
        assert!(kif.contains("後手の持駒："), "{kif}");
        let ply = record.start_position().game_ply();
        if ply > 1 {
            assert!(kif.contains(&format!("手数＝{}", ply - 1)), "{kif}");
            assert!(kif.contains(&format!("\n{:>4} ", ply)), "the first move is numbered {ply}");
        }
        // USI keeps the move number; CSA does not.
        assert_eq!(read(&write(&record, Format::Usi), Format::Usi).unwrap().start, record.start);
    }
}

#[test]
fn plain_random_games_in_every_format() {
    for seed in 0..30 {
        let start = Position::startpos();
        let moves = random_moves(&start, 150, 1000 + seed);
        let record = plain_record(Start::default(), &moves);
        check_round_trip(&record, &format!("plain {seed}"));
        // Conversions between any two formats keep the moves.
        for from in Format::ALL {
            for to in Format::ALL {
                let text = convert(&write(&record, from), from, to).expect("convertible");
                assert_eq!(read(&text, to).unwrap().main_line(), moves, "{from:?} → {to:?}");
            }
        }
    }
}

#[test]
fn csa_versions() {
    let mut record = rich_record(Start::default(), 20, 5);
    record.moves[0].time = Some(Duration::from_millis(12_345));
    record.ending = Some(records::Ending::new(EndReason::MaxMoves));
    let v3 = write_csa(&record, CsaVersion::V30);
    assert!(v3.starts_with("'CSA encoding=UTF-8\nV3.0\n"));
    assert!(v3.contains("\nT12.345\n"), "{v3}");
    assert!(v3.contains("\n%MAX_MOVES\n"));
    let back = read_csa(&v3).unwrap();
    assert_eq!(back.moves[0].time, Some(Duration::from_millis(12_345)));
    let v2 = write_csa(&record, CsaVersion::V22);
    assert!(v2.starts_with("V2.2\n"));
    assert!(v2.contains("\nT12\n") && v2.contains("\n%JISHOGI\n"), "{v2}");
    let back = read_csa(&v2).unwrap();
    assert_eq!(back.moves[0].time, Some(Duration::from_secs(12)));
    assert_eq!(back.ending.unwrap().reason, EndReason::Jishogi);
}

#[test]
fn every_ending_in_every_format() {
    let moves = random_moves(&Position::startpos(), 12, 3);
    for reason in EndReason::ALL {
        let mut record = plain_record(Start::default(), &moves);
        record.ending = Some(records::Ending::new(reason));
        check_round_trip(&record, &format!("{reason:?}"));
        let kif = read(&write(&record, Format::Kif), Format::Kif).unwrap();
        let ki2 = read(&write(&record, Format::Ki2), Format::Ki2).unwrap();
        let csa = read(&write(&record, Format::Csa), Format::Csa).unwrap();
        let jkf = read(&write(&record, Format::Jkf), Format::Jkf).unwrap();
        assert_eq!(csa.ending.as_ref().unwrap().reason, reason);
        assert_eq!(jkf.ending.as_ref().unwrap().reason, reason);
        // Black is to move after 12 plies: Black's own foul is 反則負け.
        assert_eq!(record.final_position().side_to_move(), shogi::Color::Black);
        let kif_reason = match reason {
            EndReason::IllegalAction(shogi::Color::Black) => EndReason::IllegalMove,
            r => r,
        };
        assert_eq!(kif.ending.as_ref().unwrap().reason, kif_reason);
        let ki2_reason = if reason == EndReason::Mate { EndReason::Resign } else { kif_reason };
        assert_eq!(ki2.ending.as_ref().unwrap().reason, ki2_reason);
    }
}
