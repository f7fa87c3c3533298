//! Drives the built `kyobo` binary over stdin/stdout, as a GUI does.

#![allow(dead_code)]

use shogi::Position;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// Runs `kyobo ARGS` to its end: its success, standard output and standard error.
pub fn kyobo(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_kyobo")).args(args).output().expect("kyobo runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// An engine that opened `book` (`BookFile`) with `options` set, ready.
pub fn engine_with_book(book: &std::path::Path, options: &[(&str, &str)]) -> Gui {
    let secs = Duration::from_secs(1);
    let mut gui = Gui::start();
    gui.send("usi");
    gui.expect("usiok", 5 * secs);
    gui.send(&format!("setoption name BookFile value {}", book.display()));
    for (name, value) in options {
        gui.send(&format!("setoption name {name} value {value}"));
    }
    gui.send("isready");
    let lines = gui.lines_until("readyok", 10 * secs);
    assert!(
        lines.iter().any(|l| l.starts_with("info string book ") && l.contains("opened")),
        "{lines:?}"
    );
    gui
}

pub struct Gui {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Every line the engine wrote, for failure messages.
    pub transcript: Vec<String>,
}

impl Gui {
    pub fn start() -> Gui {
        Gui::spawn(Command::new(env!("CARGO_BIN_EXE_kyobo")))
    }

    /// The engine with at most `kib` KiB of address space (`ulimit -v`), so that a
    /// table larger than that cannot be made, whatever the machine's memory.
    pub fn start_with_memory_limit(kib: u64) -> Gui {
        let mut shell = Command::new("sh");
        shell
            .arg("-c")
            .arg(format!("ulimit -v {kib} && exec \"$0\""))
            .arg(env!("CARGO_BIN_EXE_kyobo"));
        Gui::spawn(shell)
    }

    fn spawn(mut command: Command) -> Gui {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("kyobo starts");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Gui { child, stdin: Some(stdin), lines: rx, transcript: Vec::new() }
    }

    pub fn send(&mut self, line: &str) {
        self.send_bytes(format!("{line}\n").as_bytes());
    }

    /// Writes raw bytes (not necessarily UTF-8, not necessarily a whole line).
    pub fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin still open");
        stdin.write_all(bytes).expect("write to engine");
        stdin.flush().expect("flush");
    }

    /// Closes the engine's input, as a script that ends does.
    pub fn close_input(&mut self) {
        self.stdin = None;
    }

    /// Waits up to `timeout` for the process to end; its success, or `None`.
    pub fn wait_exit(&mut self, timeout: Duration) -> Option<bool> {
        let deadline = Instant::now() + timeout;
        while Instant::now() < deadline {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Some(status.success());
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        None
    }

    /// Every line until one starting with `prefix` (included); panics after `timeout`.
    pub fn lines_until(&mut self, prefix: &str, timeout: Duration) -> Vec<String> {
        let start = self.transcript.len();
        self.expect(prefix, timeout);
        self.transcript[start..].to_vec()
    }

    /// The next line, or `None` after `timeout`.
    pub fn next_line(&mut self, timeout: Duration) -> Option<String> {
        match self.lines.recv_timeout(timeout) {
            Ok(l) => {
                self.transcript.push(l.clone());
                Some(l)
            }
            Err(RecvTimeoutError::Timeout) | Err(RecvTimeoutError::Disconnected) => None,
        }
    }

    /// Reads until a line starting with `prefix`; panics after `timeout`.
    pub fn expect(&mut self, prefix: &str, timeout: Duration) -> String {
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.next_line(left) {
                Some(l) if l.starts_with(prefix) => return l,
                Some(_) => {}
                None => panic!(
                    "no line starting with '{prefix}' within {timeout:?}; transcript:\n{}",
                    self.transcript.join("\n")
                ),
            }
        }
    }

    /// Lines that arrive within `window` (none expected to be missed).
    pub fn drain(&mut self, window: Duration) -> Vec<String> {
        let deadline = Instant::now() + window;
        let mut out = Vec::new();
        while let Some(l) = self.next_line(deadline.saturating_duration_since(Instant::now())) {
            out.push(l);
        }
        out
    }

    pub fn handshake(&mut self) {
        self.send("usi");
        self.expect("usiok", Duration::from_secs(5));
        self.send("isready");
        self.expect("readyok", Duration::from_secs(10));
    }

    /// Sends `quit` and checks the process ends cleanly.
    pub fn quit(mut self) {
        self.send("quit");
        let deadline = Instant::now() + Duration::from_secs(5);
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                assert!(status.success(), "exit status {status}");
                return;
            }
            assert!(Instant::now() < deadline, "kyobo did not quit");
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Drop for Gui {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The move of a `bestmove` line (`resign` and `win` included).
pub fn bestmove_of(line: &str) -> String {
    line.split_whitespace().nth(1).unwrap_or("").to_string()
}

/// Asserts the `bestmove` line names a legal move of `pos` and returns it.
pub fn assert_legal(pos: &Position, line: &str) -> shogi::Move {
    let text = bestmove_of(line);
    match pos.parse_usi_move(&text) {
        Ok(m) => m,
        Err(e) => panic!("illegal bestmove '{line}' in {}: {e}", pos.to_sfen()),
    }
}

/// `position` command text and the position it sets up.
pub fn position_after(moves: &[String]) -> (String, Position) {
    let mut pos = Position::startpos();
    for m in moves {
        let mv = pos.parse_usi_move(m).expect("test moves are legal");
        pos.do_move(mv);
    }
    let cmd = if moves.is_empty() {
        "position startpos".to_string()
    } else {
        format!("position startpos moves {}", moves.join(" "))
    };
    (cmd, pos)
}

/// Replays `checkmate <moves>` from `sfen` and checks every attacker move checks,
/// every move is legal, and the end is mate.
pub fn assert_mate_line(sfen: &str, line: &str) {
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

/// After `line`, one `bestmove` and no other before `isready` is answered.
pub fn exactly_one_bestmove(gui: &mut Gui, line: &str) -> String {
    gui.send(line);
    let seen = gui.lines_until("bestmove", Duration::from_secs(10));
    gui.send("isready");
    let after = gui.lines_until("readyok", Duration::from_secs(10));
    let count = seen.iter().chain(&after).filter(|l| l.starts_with("bestmove")).count();
    assert_eq!(count, 1, "{line}: {seen:?} {after:?}");
    seen.last().cloned().unwrap_or_default()
}
