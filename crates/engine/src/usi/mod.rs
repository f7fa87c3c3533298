//! The USI protocol: GUIs launch `kyobo` and speak to it over stdin/stdout.
//!
//! - [`command`]: one line of input → a typed [`command::Command`] (or an error).
//! - [`options`]: the option declarations and checked `setoption`.
//! - [`session`]: the state machine; searches run on their own thread so that
//!   `stop`, `ponderhit` and `isready` are answered at once.
//! - [`report`]: `info` and `bestmove` lines.
//! - [`mate_hook`]: where `go mate` is answered.
//! - [`mate_probe`]: a short checkmate search before each game move.

pub mod command;
mod mate_hook;
mod mate_probe;
pub mod options;
mod report;
mod session;

pub use session::Session;

use std::io::{BufRead, Write};

/// Writes one protocol line and flushes it (GUIs read line by line from a pipe).
pub fn send(line: &str) {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

/// Runs the USI loop until `quit` or the end of input.
pub fn run() -> Result<(), String> {
    shogi::attacks::init();
    let mut session = Session::new();
    let stdin = std::io::stdin();
    for line in stdin.lock().lines() {
        let line = line.map_err(|e| format!("reading stdin: {e}"))?;
        if session.handle(&line) == session::Flow::Quit {
            return Ok(());
        }
    }
    session.end_of_input();
    Ok(())
}
