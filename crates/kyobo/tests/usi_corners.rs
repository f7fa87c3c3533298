//! The USI session's corners: silence after `gameover`, `stop` during ponder,
//! the ponder move, the end of input in every state, the mate probe end to end,
//! `checkmate notimplemented`, `EnteringKingRule`'s values, `go nodes` and a
//! repetition the opponent can leave.

use crate::common;

use common::{assert_legal, position_after, Gui};
use shogi::Position;
use std::time::Duration;

const SECS: Duration = Duration::from_secs(1);

/// A position where Black can declare under the 27-point rule (king in the camp,
/// ten pieces there, 28 points) but not under the 24-point rule (31 to win).
const DECLARABLE: &str = "9/1+R2K1+B2/PPPPPPPPP/9/9/9/9/9/8k b 2G2S2N2LP 1";
/// The same with a rook and a bishop more in hand: 38 points, declarable under both.
const DECLARABLE_BOTH: &str = "9/1+R2K1+B2/PPPPPPPPP/9/9/9/9/9/8k b RB2G2S2N2LP 1";

#[test]
fn nothing_after_gameover_but_what_is_asked() {
    let mut gui = Gui::start();
    gui.handshake();
    let hard_mate = "position sfen 9/9/9/4k4/9/9/9/9/9 b RBGSNLPrb3g3s3n3l17p 1";
    for (position, search) in [
        ("position startpos moves 7g7f", "go infinite"),
        ("position startpos moves 7g7f", "go ponder btime 0 wtime 0 byoyomi 1000"),
        (hard_mate, "go mate infinite"),
    ] {
        gui.send(position);
        gui.send(search);
        std::thread::sleep(Duration::from_millis(200));
        gui.send("gameover win");
        // No bestmove (or checkmate) may follow, however long we wait.
        let after = gui.drain(Duration::from_millis(700));
        let stray: Vec<_> = after
            .iter()
            .filter(|l| l.starts_with("bestmove") || l.starts_with("checkmate"))
            .collect();
        assert!(stray.is_empty(), "{search}: {stray:?}");
        gui.send("isready");
        gui.expect("readyok", SECS * 5);
    }
    gui.quit();
}

/// With each algorithm.
#[test]
fn stop_during_ponder_answers_a_legal_move_and_a_legal_ponder_move() {
    for algorithm in search::engine::ALGORITHMS.map(|a| a.name) {
        ponder_with(algorithm);
    }
}

fn ponder_with(algorithm: &str) {
    let mut gui = Gui::start();
    gui.handshake();
    gui.send(&format!("setoption name SearchAlgorithm value {algorithm}"));
    gui.send("setoption name USI_Ponder value true");
    let (cmd, pos) = position_after(&["2g2f".into(), "8c8d".into()]);
    gui.send(&cmd);
    gui.send("go ponder btime 0 wtime 0 byoyomi 500");
    std::thread::sleep(Duration::from_millis(600));
    gui.send("stop");
    let line = gui.expect("bestmove", SECS * 2);
    assert_legal(&pos, &line);
    // A timed move names a ponder move, legal after the best move.
    gui.send(&cmd);
    gui.send("go btime 0 wtime 0 byoyomi 500");
    let line = gui.expect("bestmove", SECS * 3);
    let best = assert_legal(&pos, &line);
    let words: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(words.get(2), Some(&"ponder"), "{algorithm}: {line}");
    let mut after = pos.clone();
    after.do_move(best);
    assert!(after.parse_usi_move(words[3]).is_ok(), "{algorithm}: {line}");
    gui.quit();
}

/// The end of input in every state: idle, after `position`, during a limited
/// search (it finishes and answers), during infinite, ponder and `go mate
/// infinite` searches (stopped, answered): the process always ends, cleanly.
#[test]
fn the_end_of_input_in_every_state() {
    let cases: [(&[&str], Option<&str>); 7] = [
        (&[], None),
        (&["usi"], None),
        (&["position startpos moves 7g7f"], None),
        (&["position startpos", "go depth 3"], Some("bestmove")),
        (&["position startpos", "go infinite"], Some("bestmove")),
        (&["position startpos", "go ponder btime 0 wtime 0 byoyomi 100"], Some("bestmove")),
        (
            &["position sfen 9/9/9/4k4/9/9/9/9/9 b RBGSNLPrb3g3s3n3l17p 1", "go mate infinite"],
            Some("checkmate"),
        ),
    ];
    for (lines, answer) in cases {
        let mut gui = Gui::start();
        for l in lines {
            gui.send(l);
        }
        std::thread::sleep(Duration::from_millis(100));
        gui.close_input();
        if let Some(prefix) = answer {
            gui.expect(prefix, SECS * 10);
        }
        assert_eq!(gui.wait_exit(SECS * 10), Some(true), "{lines:?}");
    }
}

#[test]
fn checkmate_notimplemented_where_the_side_not_to_move_has_no_king() {
    let mut gui = Gui::start();
    gui.handshake();
    gui.send("position sfen 4k4/9/9/9/9/9/9/9/9 w G 1");
    gui.send("go mate 1000");
    assert_eq!(gui.expect("checkmate", SECS * 2), "checkmate notimplemented");
    gui.quit();
}

#[test]
fn entering_king_rule_values() {
    let mut gui = Gui::start();
    gui.handshake();
    for (sfen, rule, declares) in [
        (DECLARABLE, "CSARule27", true),
        (DECLARABLE, "CSARule24", false),
        (DECLARABLE_BOTH, "CSARule24", true),
        (DECLARABLE_BOTH, "NoEnteringKing", false),
    ] {
        gui.send(&format!("position sfen {sfen}"));
        gui.send(&format!("setoption name EnteringKingRule value {rule}"));
        gui.send("go btime 0 wtime 0 byoyomi 200");
        let line = gui.expect("bestmove", SECS * 3);
        if declares {
            assert_eq!(line, "bestmove win", "{rule}: {sfen}");
        } else {
            assert_legal(&Position::from_sfen(sfen).unwrap(), &line);
        }
    }
    gui.quit();
}

#[test]
fn go_nodes_is_obeyed() {
    let mut gui = Gui::start();
    gui.handshake();
    gui.send("position startpos moves 7g7f 3c3d");
    gui.send("go nodes 20000");
    let lines = gui.lines_until("bestmove", SECS * 10);
    let nodes: Vec<u64> = lines
        .iter()
        .filter_map(|l| l.split(" nodes ").nth(1)?.split(' ').next()?.parse().ok())
        .collect();
    let last = *nodes.last().expect("info lines with nodes");
    // The limit is read every 1,024 nodes.
    assert!(last <= 20_000 + 1024, "{last}");
    assert!(last >= 1000, "{last}");
    gui.quit();
}

/// `ResignValue`: a side this many centipawns down resigns; by default (99999)
/// it plays on.
#[test]
fn resign_value_is_obeyed() {
    // White's bare king against a rook and two golds: about 40 pawns down.
    let sfen = "4k4/9/9/9/9/9/9/8R/4K4 w 2G 1";
    let mut gui = Gui::start();
    gui.handshake();
    gui.send(&format!("position sfen {sfen}"));
    gui.send("go depth 4");
    assert_legal(&Position::from_sfen(sfen).unwrap(), &gui.expect("bestmove", SECS * 5));
    gui.send("setoption name ResignValue value 1000");
    gui.send("go depth 4");
    assert_eq!(gui.expect("bestmove", SECS * 5), "bestmove resign");
    gui.quit();
}

/// A declaration that wins is answered with `bestmove win` when a ponder search
/// is released: not before `ponderhit` (or `stop`), and at once after it.
#[test]
fn a_declaration_during_ponder_waits_for_the_ponderhit() {
    let mut gui = Gui::start();
    gui.handshake();
    for release in ["ponderhit", "stop"] {
        gui.send(&format!("position sfen {DECLARABLE}"));
        gui.send("go ponder btime 0 wtime 0 byoyomi 200");
        let early = gui.drain(Duration::from_millis(300));
        assert!(early.iter().all(|l| !l.starts_with("bestmove")), "{early:?}");
        gui.send(release);
        assert_eq!(gui.expect("bestmove", SECS * 2), "bestmove win", "after {release}");
    }
    gui.quit();
}

/// Black's king in check from a gold White has moved 5i-6i-5i twice, each move a
/// check: the position after 5h6h has occurred before, with White checking all
/// the way. White, to move there, is not lost (it can stop checking), so neither
/// search may call 5h6h a mate in one: both once did, stopping at once on it.
#[test]
fn a_repetition_the_opponent_can_leave_is_no_mate() {
    let position = "position sfen l1B2k2l/1r2g4/p1n1pPGp1/2p2S3/Pp1p1s2p/2P1P1P2/1PnP1p3/4K4/L+rG5+b w 2S2NL2Pgp 90 moves G*5i 5h6h 5i6i 6h5h 6i5i";
    for algorithm in ["PVS", "ABC"] {
        let mut gui = Gui::start();
        gui.handshake();
        gui.send(&format!("setoption name SearchAlgorithm value {algorithm}"));
        gui.send(position);
        gui.send("go depth 3");
        let lines = gui.lines_until("bestmove", SECS * 30);
        let scores: Vec<&String> = lines.iter().filter(|l| l.contains(" score ")).collect();
        assert!(!scores.is_empty(), "{algorithm}: {lines:?}");
        assert!(scores.iter().all(|l| !l.contains(" score mate ")), "{algorithm}: {scores:?}");
        gui.quit();
    }
}
