//! The USI protocol end to end: the binary is started and spoken to as a GUI would.
//! Every `bestmove` seen is checked to be legal.

mod common;

use common::{assert_legal, bestmove_of, position_after, Gui};
use shogi::Position;
use std::time::{Duration, Instant};

const SECS: Duration = Duration::from_secs(1);

#[test]
fn handshake_names_the_engine_and_its_options() {
    let mut gui = Gui::start();
    gui.send("usi");
    let id = gui.expect("id name", SECS * 5);
    assert!(id.contains("Kyobo"));
    let mut options = Vec::new();
    loop {
        let l = gui.next_line(SECS * 5).expect("usiok");
        if l == "usiok" {
            break;
        }
        if l.starts_with("option") {
            options.push(l);
        }
    }
    for name in [
        "USI_Hash",
        "USI_Ponder",
        "Threads",
        "MultiPV",
        "NetworkDelay",
        "NetworkDelay2",
        "MinimumThinkingTime",
        "MaxMovesToDraw",
        "ResignValue",
        "EnteringKingRule",
        "SearchAlgorithm",
    ] {
        assert!(options.iter().any(|o| o.contains(&format!("name {name} "))), "{name} missing");
    }
    gui.send("isready");
    gui.expect("readyok", SECS * 5);
    gui.quit();
}

/// A game of 24 moves with each search algorithm, as a GUI plays it.
#[test]
fn a_full_game_session_with_legal_moves_only() {
    for algorithm in search::engine::ALGORITHMS {
        full_game(algorithm);
    }
}

fn full_game(algorithm: &str) {
    let mut gui = Gui::start();
    gui.handshake();
    gui.send("setoption name SearchAlgorithm value Nonsense");
    let error = gui.expect("info string error", SECS * 5);
    assert!(error.contains("SearchAlgorithm"), "{error}");
    gui.send(&format!("setoption name SearchAlgorithm value {algorithm}"));
    gui.send("setoption name USI_Hash value 16");
    gui.send("setoption name NetworkDelay2 value 0");
    gui.send("setoption name MinimumThinkingTime value 0");
    gui.send("isready");
    gui.expect("readyok", SECS * 5);
    gui.send("usinewgame");
    let mut moves: Vec<String> = Vec::new();
    for _ in 0..24 {
        let (cmd, pos) = position_after(&moves);
        gui.send(&cmd);
        gui.send("go btime 0 wtime 0 byoyomi 100");
        let line = gui.expect("bestmove", SECS * 5);
        if matches!(bestmove_of(&line).as_str(), "resign" | "win") {
            break;
        }
        let m = assert_legal(&pos, &line);
        moves.push(m.to_usi());
    }
    assert!(moves.len() >= 20, "{algorithm}: the game ended early: {moves:?}");
    gui.send("gameover draw");
    gui.send("isready");
    gui.expect("readyok", SECS * 5);
    gui.quit();
}

/// `stop` is answered at once. The promise of 50 ms is measured by
/// `tools/stop_latency.py` (medians over many tries); this test, which runs beside
/// the others on a loaded machine, allows half a second.
#[test]
fn stop_during_infinite_answers_a_legal_move_at_once() {
    let mut gui = Gui::start();
    gui.handshake();
    let (cmd, pos) = position_after(&["7g7f".into(), "3c3d".into()]);
    gui.send(&cmd);
    gui.send("go infinite");
    gui.expect("info depth", SECS * 5);
    std::thread::sleep(Duration::from_millis(400));
    // Nothing may come before stop.
    assert!(gui.drain(Duration::from_millis(50)).iter().all(|l| !l.starts_with("bestmove")));
    let sent = Instant::now();
    gui.send("stop");
    let line = gui.expect("bestmove", SECS);
    let took = sent.elapsed();
    assert!(took < Duration::from_millis(500), "stop answered after {took:?}");
    assert_legal(&pos, &line);
    gui.quit();
}

#[test]
fn ponder_then_ponderhit() {
    let mut gui = Gui::start();
    gui.handshake();
    gui.send("setoption name USI_Ponder value true");
    gui.send("setoption name NetworkDelay2 value 0");
    gui.send("setoption name MinimumThinkingTime value 0");
    let (cmd, pos) = position_after(&["2g2f".into(), "8c8d".into()]);
    gui.send(&cmd);
    gui.send("go ponder btime 0 wtime 0 byoyomi 300");
    // While pondering no bestmove, however long it takes.
    let early = gui.drain(Duration::from_millis(700));
    assert!(early.iter().all(|l| !l.starts_with("bestmove")), "{early:?}");
    gui.send("ponderhit");
    let line = gui.expect("bestmove", SECS * 2);
    assert_legal(&pos, &line);

    // Early ponder: no times with `go ponder`, the clock arrives with `ponderhit`.
    gui.send(&cmd);
    gui.send("go ponder");
    let early = gui.drain(Duration::from_millis(500));
    assert!(early.iter().all(|l| !l.starts_with("bestmove")), "{early:?}");
    let sent = Instant::now();
    gui.send("ponderhit btime 0 wtime 0 byoyomi 300");
    let line = gui.expect("bestmove", SECS * 2);
    assert!(sent.elapsed() < Duration::from_millis(1000));
    assert_legal(&pos, &line);
    gui.quit();
}

#[test]
fn gameover_during_search_keeps_the_engine_alive() {
    let mut gui = Gui::start();
    gui.handshake();
    gui.send("position startpos");
    gui.send("go infinite");
    gui.expect("info depth", SECS * 5);
    gui.send("gameover lose");
    gui.send("isready");
    gui.expect("readyok", SECS);
    gui.send("usinewgame");
    gui.send("position startpos moves 7g7f");
    gui.send("go depth 3");
    let line = gui.expect("bestmove", SECS * 5);
    let (_, pos) = position_after(&["7g7f".into()]);
    assert_legal(&pos, &line);
    gui.quit();
}

#[test]
fn malformed_lines_get_errors_and_change_nothing() {
    let mut gui = Gui::start();
    gui.handshake();
    gui.send("position startpos moves 7g7f");
    let bad = [
        "foo bar",
        "setoption name USI_Hash value lots",
        "setoption name USI_Hash value 0",
        "setoption name NoSuchOption value 1",
        "setoption name EnteringKingRule value TryHarder",
        "isready please",
    ];
    for line in bad {
        gui.send(line);
        let reply = gui.expect("info string error:", SECS * 2);
        assert!(reply.len() > "info string error: ".len(), "{line} -> {reply}");
    }
    // The position is still the one after 7g7f: White to move.
    gui.send("go depth 2");
    let line = gui.expect("bestmove", SECS * 5);
    let (_, pos) = position_after(&["7g7f".into()]);
    assert_legal(&pos, &line);
    gui.send("isready");
    gui.expect("readyok", SECS);
    gui.quit();
}

#[test]
fn a_mated_side_resigns() {
    let mut gui = Gui::start();
    gui.handshake();
    gui.send("position sfen 4k4/4G4/4P4/9/9/9/9/9/4K4 w - 1");
    gui.send("go btime 1000 wtime 1000 byoyomi 100");
    let line = gui.expect("bestmove", SECS * 5);
    assert_eq!(line, "bestmove resign");
    gui.quit();
}

#[test]
fn a_declarable_position_answers_win() {
    let mut gui = Gui::start();
    gui.handshake();
    let sfen = "9/1+R2K1+B2/PPPPPPPPP/9/9/9/9/9/8k b 2G2S2N2LP 1";
    gui.send(&format!("position sfen {sfen}"));
    gui.send("go btime 1000 wtime 1000 byoyomi 100");
    assert_eq!(gui.expect("bestmove", SECS * 5), "bestmove win");
    // With declaration switched off it plays a move instead.
    gui.send("setoption name EnteringKingRule value NoEnteringKing");
    gui.send("go depth 2");
    let line = gui.expect("bestmove", SECS * 5);
    assert_legal(&Position::from_sfen(sfen).unwrap(), &line);
    gui.quit();
}

/// Every field of `info`, and three MultiPV lines, with each algorithm.
#[test]
fn info_lines_carry_the_required_fields_and_multipv() {
    for algorithm in search::engine::ALGORITHMS {
        info_lines_with(algorithm);
    }
}

fn info_lines_with(algorithm: &str) {
    let mut gui = Gui::start();
    gui.handshake();
    gui.send(&format!("setoption name SearchAlgorithm value {algorithm}"));
    gui.send("setoption name MultiPV value 3");
    gui.send("position startpos");
    gui.send("go depth 4");
    let mut seen = [false; 3];
    loop {
        let l = gui.next_line(SECS * 10).expect("bestmove");
        if l.starts_with("bestmove") {
            assert_legal(&Position::startpos(), &l);
            break;
        }
        if l.starts_with("info depth") {
            for field in
                [" seldepth ", " time ", " nodes ", " nps ", " hashfull ", " score ", " pv "]
            {
                assert!(l.contains(field), "{field} missing: {l}");
            }
            for (i, s) in seen.iter_mut().enumerate() {
                if l.contains(&format!(" multipv {} ", i + 1)) {
                    *s = true;
                }
            }
        }
    }
    assert_eq!(seen, [true; 3], "{algorithm}");
    gui.quit();
}

#[test]
fn go_nodes_and_movetime_are_honoured() {
    let mut gui = Gui::start();
    gui.handshake();
    gui.send("position startpos");
    gui.send("go nodes 5000");
    let line = gui.expect("bestmove", SECS * 5);
    assert_legal(&Position::startpos(), &line);
    gui.send("setoption name NetworkDelay value 0");
    let sent = Instant::now();
    gui.send("go movetime 300");
    let line = gui.expect("bestmove", SECS * 3);
    let took = sent.elapsed();
    assert!(took >= Duration::from_millis(250) && took < Duration::from_millis(800), "{took:?}");
    assert_legal(&Position::startpos(), &line);
    gui.quit();
}

#[test]
fn perpetual_check_is_avoided() {
    // Black's rook checked from 1c and 2c; checking from 1c again repeats the cycle,
    // which loses for the side giving perpetual check.
    let mut gui = Gui::start();
    gui.handshake();
    let sfen = "8k/9/7R1/9/9/9/9/9/4K4 b 2b2g 1";
    let moves = "2c1c 1a2a 1c2c 2a1a";
    gui.send(&format!("position sfen {sfen} moves {moves}"));
    gui.send("go depth 6");
    let line = gui.expect("bestmove", SECS * 10);
    let mut pos = Position::from_sfen(sfen).unwrap();
    for m in moves.split(' ') {
        let mv = pos.parse_usi_move(m).unwrap();
        pos.do_move(mv);
    }
    assert_legal(&pos, &line);
    assert_ne!(bestmove_of(&line), "2c1c", "walked into a perpetual-check loss");
    gui.quit();
}

#[test]
fn lazy_smp_threads_search_together() {
    let mut gui = Gui::start();
    gui.handshake();
    gui.send("setoption name Threads value 2");
    gui.send("position startpos moves 7g7f 3c3d");
    gui.send("go depth 7");
    let line = gui.expect("bestmove", SECS * 20);
    let (_, pos) = position_after(&["7g7f".into(), "3c3d".into()]);
    assert_legal(&pos, &line);
    gui.quit();
}

/// Replays `checkmate <moves>` from `sfen` and checks every attacker move checks,
/// every move is legal, and the end is mate.
fn assert_mate_line(sfen: &str, line: &str) {
    let mut pos = Position::from_sfen(sfen).expect("valid test SFEN");
    let moves: Vec<&str> =
        line.strip_prefix("checkmate ").expect("a checkmate answer").split(' ').collect();
    for (ply, text) in moves.iter().enumerate() {
        let m = pos.parse_usi_move(text).unwrap_or_else(|e| panic!("{line}: {e}"));
        pos.do_move(m);
        if ply % 2 == 0 {
            assert!(pos.in_check(), "{text} in {line} does not check");
        }
    }
    assert!(shogi::legal_moves(&pos).is_empty(), "{line} does not end in mate");
}

#[test]
fn go_mate_answers_mate_nomate_and_timeout() {
    let mut gui = Gui::start();
    gui.handshake();
    // A 7-ply problem: the answer is replayed.
    let problem = "+N1R6/1k7/9/2B6/9/9/9/9/9 b rb4g4s3n4l18p 1";
    gui.send(&format!("position sfen {problem}"));
    gui.send("go mate 10000");
    let line = gui.expect("checkmate", SECS * 10);
    assert_mate_line(problem, &line);
    assert_eq!(line.split(' ').count(), 1 + 7, "not the shortest mate: {line}");
    // A lone gold cannot mate: proved.
    gui.send("position sfen 4k4/9/9/9/9/9/9/9/9 b G2r2b3g4s4n4l18p 1");
    gui.send("go mate 10000");
    assert_eq!(gui.expect("checkmate", SECS * 10), "checkmate nomate");
    // `stop` ends an infinite mate search that cannot finish soon: a lone king in
    // the centre against one piece of each kind in hand (no answer in seconds).
    let sfen = "9/9/9/4k4/9/9/9/9/9 b RBGSNLPrb3g3s3n3l17p 1";
    gui.send(&format!("position sfen {sfen}"));
    gui.send("go mate infinite");
    std::thread::sleep(Duration::from_millis(300));
    assert!(gui.drain(Duration::from_millis(10)).iter().all(|l| !l.starts_with("checkmate")));
    gui.send("stop");
    assert_eq!(gui.expect("checkmate", SECS * 5), "checkmate timeout");
    gui.quit();
}

/// `go searchmoves` keeps to the moves given (an illegal one is named and
/// ignored), with each algorithm.
#[test]
fn searchmoves_keeps_to_the_moves_given() {
    for algorithm in search::engine::ALGORITHMS {
        let mut gui = Gui::start();
        gui.handshake();
        gui.send(&format!("setoption name SearchAlgorithm value {algorithm}"));
        gui.send("position startpos");
        gui.send("go depth 4 searchmoves 1g1f 9g9f 5e5d");
        let lines = gui.lines_until("bestmove", SECS * 10);
        assert!(lines.iter().any(|l| l.starts_with("info string warning") && l.contains("5e5d")));
        let best = bestmove_of(lines.last().expect("bestmove"));
        assert!(best == "1g1f" || best == "9g9f", "{algorithm}: {best}");
        gui.quit();
    }
}

/// With `BadShapeCheck` on, moves stay legal and timely; the `shape` command lists
/// the bad-shape moves of the position.
#[test]
fn bad_shape_check_plays_legal_moves() {
    let mut gui = Gui::start();
    gui.handshake();
    gui.send("setoption name BadShapeCheck value true");
    gui.send("setoption name BadShapeMargin value 300");
    gui.send("position startpos");
    gui.send("shape");
    let lines = gui.lines_until("info string 2h1h", SECS * 2);
    assert!(lines.iter().any(|l| l.contains("1 of 30 legal moves are bad shape")), "{lines:?}");
    let mut moves: Vec<String> = Vec::new();
    for _ in 0..16 {
        let (cmd, pos) = position_after(&moves);
        gui.send(&cmd);
        let sent = Instant::now();
        gui.send("go btime 0 wtime 0 byoyomi 300");
        let line = gui.expect("bestmove", SECS * 5);
        assert!(sent.elapsed() < Duration::from_millis(1500), "{:?}", sent.elapsed());
        let m = assert_legal(&pos, &line);
        moves.push(m.to_usi());
    }
    gui.quit();
}
