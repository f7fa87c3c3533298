//! The USI protocol end to end: the binary is started and spoken to as a GUI would.
//! Every `bestmove` seen is checked to be legal.

use crate::common;

use common::{assert_legal, bestmove_of, position_after, Gui};
use shogi::Position;
use std::time::Duration;

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
    for algorithm in search::engine::ALGORITHMS.map(|a| a.name) {
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
    for algorithm in search::engine::ALGORITHMS.map(|a| a.name) {
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

/// `go searchmoves` keeps to the moves given (an illegal one is named and
/// ignored), with each algorithm.
#[test]
fn searchmoves_keeps_to_the_moves_given() {
    for algorithm in search::engine::ALGORITHMS.map(|a| a.name) {
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

/// The last `info … pv` line before `bestmove` names the move played first,
/// with a score, wherever the search stopped: at many node limits (cutting
/// iterations at every stage), and at `stop` after `go infinite`, with each
/// algorithm.
#[test]
fn the_last_line_reported_is_the_move_played() {
    let check = |lines: &[String], what: &str| {
        let best = bestmove_of(lines.last().expect("bestmove"));
        let last = lines
            .iter()
            .rev()
            .find(|l| l.starts_with("info") && l.contains(" pv "))
            .unwrap_or_else(|| panic!("{what}: no info line with a pv: {lines:?}"));
        let pv_first = last.split(" pv ").nth(1).and_then(|pv| pv.split(' ').next());
        assert_eq!(pv_first, Some(best.as_str()), "{what}: {last}");
        assert!(last.contains(" score "), "{what}: {last}");
    };
    for algorithm in search::engine::ALGORITHMS.map(|a| a.name) {
        let mut gui = Gui::start();
        gui.handshake();
        gui.send(&format!("setoption name SearchAlgorithm value {algorithm}"));
        for moves in ["7g7f", "7g7f 3c3d 2g2f", "2g2f 8c8d 2f2e 8d8e 6i7h"] {
            gui.send(&format!("position startpos moves {moves}"));
            for nodes in (0..24).map(|k| 1_000 + k * 2_700) {
                gui.send(&format!("go nodes {nodes}"));
                let lines = gui.lines_until("bestmove", SECS * 10);
                check(&lines, &format!("{algorithm} {moves} nodes {nodes}"));
            }
            for ms in [30, 120, 250] {
                gui.send("go infinite");
                std::thread::sleep(Duration::from_millis(ms));
                gui.send("stop");
                let lines = gui.lines_until("bestmove", SECS * 5);
                check(&lines, &format!("{algorithm} {moves} stop after {ms} ms"));
            }
        }
        gui.quit();
    }
}
