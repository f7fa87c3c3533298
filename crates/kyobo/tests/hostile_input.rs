//! What GUIs and people send that is not what the protocol expects: every case
//! is answered (an `info string error: …` or `warning: …`), the engine keeps its
//! state, and every `go` gets exactly one `bestmove` (every `go mate` one
//! `checkmate`).

use crate::common;

use common::{assert_legal, exactly_one_bestmove, position_after, Gui};
use std::process::Command;
use std::time::Duration;

const SECS: Duration = Duration::from_secs(1);

#[test]
fn bytes_that_are_not_utf8_and_a_byte_order_mark() {
    let mut gui = Gui::start();
    gui.send_bytes(b"\xEF\xBB\xBFusi\n");
    gui.expect("usiok", SECS * 5);
    // Shift-JIS for an option name (a Japanese GUI), and a stray byte.
    gui.send_bytes(b"setoption name \x83n\x83b\x83V\x83\x85 value 1\n");
    let e = gui.expect("info string error:", SECS * 2);
    assert!(e.contains("not UTF-8"), "{e}");
    gui.send_bytes(b"isready\xff\n");
    gui.expect("info string error:", SECS * 2);
    gui.send("isready");
    gui.expect("readyok", SECS * 5);
    gui.quit();
}

#[test]
fn option_names_in_any_letter_case() {
    let mut gui = Gui::start();
    gui.handshake();
    for line in ["setoption name usi_hash value 32", "setoption name THREADS value 1"] {
        gui.send(line);
    }
    gui.send("setoption name usi_ponder value True");
    gui.send("isready");
    let lines = gui.lines_until("readyok", SECS * 5);
    assert!(lines.iter().all(|l| !l.contains("error")), "{lines:?}");
    gui.quit();
}

#[test]
fn a_huge_line_is_answered_briefly_and_escaped() {
    let mut gui = Gui::start();
    gui.handshake();
    let mut line = b"position sfen \x07\x1b[31m".to_vec();
    line.extend(std::iter::repeat_n(b'x', 1 << 20));
    line.push(b'\n');
    gui.send_bytes(&line);
    let e = gui.expect("info string error:", SECS * 5);
    assert!(e.len() < 400, "{} bytes", e.len());
    assert!(!e.bytes().any(|b| b.is_ascii_control()), "{e:?}");
    // A word of 1 MB as a command: the same.
    let mut line = vec![b'y'; 1 << 20];
    line.push(b'\n');
    gui.send_bytes(&line);
    let e = gui.expect("info string error:", SECS * 5);
    assert!(e.len() < 400, "{} bytes", e.len());
    gui.send("isready");
    gui.expect("readyok", SECS * 5);
    gui.quit();
}

/// A line over the reader's limit (4 MiB) is dropped whole, with one error, and
/// what follows it is read as usual: the position set before it stands.
#[test]
fn a_line_over_the_limit_is_dropped_whole() {
    let mut gui = Gui::start();
    gui.handshake();
    let (cmd, pos) = position_after(&["7g7f".into()]);
    gui.send(&cmd);
    let mut line = b"position startpos moves ".to_vec();
    line.extend(std::iter::repeat_n(b'x', 5 << 20));
    line.extend(b" 2g2f\n");
    gui.send_bytes(&line);
    let e = gui.expect("info string error:", SECS * 10);
    assert_eq!(e, "info string error: a line over 4194304 bytes ignored");
    // Nothing of the line's end is read as a command, and the old position stands.
    let best = exactly_one_bestmove(&mut gui, "go depth 2");
    assert_legal(&pos, &best);
    assert!(
        gui.transcript.iter().filter(|l| l.contains("error")).count() == 1,
        "{:?}",
        gui.transcript
    );
    gui.quit();
}

#[test]
fn every_go_is_answered_once() {
    let mut gui = Gui::start();
    gui.handshake();
    gui.send("position startpos");
    for line in ["go depth 2 sideways", "go depth deep nodes 3000", "go nodes 5000 movetime"] {
        let best = exactly_one_bestmove(&mut gui, line);
        assert_legal(&position_after(&[]).1, &best);
        assert!(gui.transcript.iter().any(|l| l.starts_with("info string warning:")));
    }
    gui.send("go mate soon 300");
    let seen = gui.lines_until("checkmate", SECS * 5);
    assert!(seen.iter().any(|l| l.starts_with("info string warning:")), "{seen:?}");
    gui.send("isready");
    let after = gui.lines_until("readyok", SECS * 5);
    assert!(after.iter().all(|l| !l.starts_with("checkmate")), "{after:?}");
    gui.quit();
}

#[test]
fn the_legal_prefix_of_a_bad_position_is_played() {
    let mut gui = Gui::start();
    gui.handshake();
    gui.send("position startpos moves 7g7f 3c3d 2g2g 8c8d");
    let e = gui.expect("info string error:", SECS * 2);
    assert!(e.contains("move 3 (2g2g)") && e.contains("after move 2"), "{e}");
    // Black is to move after 7g7f 3c3d: the answer is Black's move there.
    let best = exactly_one_bestmove(&mut gui, "go depth 2");
    assert_legal(&position_after(&["7g7f".into(), "3c3d".into()]).1, &best);
    // A bad SFEN leaves no position: the answer is an error and a resignation.
    gui.send("position sfen lnsgkgsnl/9/9 b - 1");
    gui.expect("info string error:", SECS * 2);
    assert_eq!(exactly_one_bestmove(&mut gui, "go depth 2"), "bestmove resign");
    gui.send("go mate 100");
    assert_eq!(gui.expect("checkmate", SECS * 2), "checkmate notimplemented");
    gui.quit();
}

#[test]
fn go_mate_in_check_or_mated_is_nomate() {
    let mut gui = Gui::start();
    gui.handshake();
    // White to move, in check from the gold on 5b (defended by the pawn): mated.
    gui.send("position sfen 4k4/4G4/4P4/9/9/9/9/9/4K4 w - 1");
    gui.send("go mate 1000");
    assert_eq!(gui.expect("checkmate", SECS * 2), "checkmate nomate");
    // In check but not mated, with a mate of its own after it escapes: still
    // no mate by the side to move.
    gui.send("position sfen 4k4/9/4G4/9/9/9/9/9/4K4 w RB 1");
    gui.send("go mate infinite");
    assert_eq!(gui.expect("checkmate", SECS * 2), "checkmate nomate");
    gui.quit();
}

#[test]
fn a_bare_go_ends_with_the_input() {
    let mut gui = Gui::start();
    gui.handshake();
    gui.send("position startpos");
    gui.send("go");
    std::thread::sleep(Duration::from_millis(200));
    gui.close_input();
    gui.expect("bestmove", SECS * 5);
    assert_eq!(gui.wait_exit(SECS * 5), Some(true));
}

#[test]
fn a_hash_too_large_is_refused_at_isready_and_the_old_table_kept() {
    // 4 GiB of address space: the 64 GiB asked for below cannot be had on any
    // machine.
    let mut gui = Gui::start_with_memory_limit(4 << 20);
    gui.handshake();
    gui.send("position startpos");
    exactly_one_bestmove(&mut gui, "go depth 3");
    // Changed after a search: made (here: refused) at isready, before readyok.
    gui.send("setoption name USI_Hash value 65536");
    gui.send("isready");
    let lines = gui.lines_until("readyok", SECS * 10);
    let refused = lines.iter().any(|l| l.starts_with("info string error: USI_Hash 65536"));
    assert!(refused, "{:?}", gui.transcript);
    // The engine goes on with its old table, without trying again at `go`.
    gui.send("go depth 4");
    let lines = gui.lines_until("bestmove", SECS * 10);
    assert!(lines.iter().all(|l| !l.contains("error")), "{lines:?}");
    gui.send("go mate 200");
    gui.expect("checkmate", SECS * 2);
    gui.quit();
}

#[test]
fn commands_for_people() {
    let mut gui = Gui::start();
    gui.handshake();
    gui.send("position startpos moves 7g7f");
    gui.send("d");
    let lines = gui.lines_until("info string sfen", SECS * 2);
    assert!(lines.iter().any(|l| l == "info string side to move: White (gote)"), "{lines:?}");
    assert!(lines.last().unwrap().ends_with("w - 2"), "{lines:?}");
    gui.send("moves");
    assert_eq!(gui.expect("info string", SECS * 2), "info string 30 legal moves");
    gui.send("eval");
    let lines = gui.lines_until("info string phase", SECS * 2);
    assert!(lines.iter().any(|l| l.starts_with("info string total")), "{lines:?}");
    gui.send("help");
    assert!(gui.expect("info string", SECS * 2).contains("usi"));
    gui.quit();
}

#[test]
fn kyobo_mate_refuses_bad_limits_without_a_panic() {
    let sfen = "4k4/9/4P4/9/9/9/9/9/9 b G 1";
    for args in [
        vec!["--time-limit", "-1"],
        vec!["--time-limit", "NaN"],
        vec!["--time-limit", "inf"],
        vec!["--time-limit", "1e300"],
        vec!["--hash", "1000000000"],
        vec!["--hash", "-5"],
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_kyobo"))
            .args(["mate", "--sfen", sfen])
            .args(&args)
            .output()
            .expect("kyobo runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert!(stderr.contains("error"), "{args:?}: {stderr}");
    }
}
