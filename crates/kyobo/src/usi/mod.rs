//! The USI protocol: GUIs launch `kyobo` and speak to it over stdin/stdout.
//!
//! - [`command`]: one line of input → a typed [`command::Command`] (or an error).
//! - [`options`]: the option declarations and checked `setoption`.
//! - [`session`]: the state machine; searches run on their own thread so that
//!   `stop`, `ponderhit` and `isready` are answered at once.
//! - [`report`]: `info` and `bestmove` lines.
//! - [`display`]: `d`, `moves`, `eval` and `help`, for people at a terminal.
//! - [`variant`]: what the session asks of a game, and the search thread.
//! - [`shogi_state`]: shogi (option `Variant` = `shogi`): its position, engine,
//!   book, network and `go`.
//! - [`dobutsu`]: Dobutsu shogi (option `Variant` = `dobutsu`): its position,
//!   database and `go`.
//! - [`mate_hook`]: where `go mate` is answered.
//! - [`mate_probe`]: a short checkmate search before each game move.
//! - [`mate_guard`]: a short search for the opponent's mate after it (`MateGuard`).
//! - [`book`]: the opening book's options and the book move, and RandomOpeningPly.

mod book;
pub mod command;
pub(crate) mod declare;
mod display;
mod dobutsu;
mod mate_guard;
mod mate_hook;
mod mate_probe;
mod nnue;
pub mod options;
mod report;
mod session;
mod shape_time;
mod shogi_state;
mod variant;

pub use session::Session;

use std::io::{BufRead, Read, Write};

/// Lines longer than this are not read (a game of 2,000 moves is 10 KiB).
const MAX_LINE_BYTES: u64 = 4 << 20;

/// Writes one protocol line and flushes it (GUIs read line by line from a pipe).
pub fn send(line: &str) {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

/// One line of input as the session should see it: without its end of line and
/// without a UTF-8 byte-order mark (some Windows GUIs send one before `usi`), or
/// why it cannot be read.
pub fn decode_line(bytes: &[u8]) -> Result<&str, String> {
    let bytes = bytes.strip_suffix(b"\n").unwrap_or(bytes);
    let bytes = bytes.strip_suffix(b"\r").unwrap_or(bytes);
    let bytes = bytes.strip_prefix("\u{feff}".as_bytes()).unwrap_or(bytes);
    std::str::from_utf8(bytes).map_err(|_| {
        let text = String::from_utf8_lossy(bytes);
        format!("a line that is not UTF-8 ignored: '{}'", command::excerpt(&text))
    })
}

/// Runs the USI loop until `quit` or the end of input. Bad input (bytes that are
/// not UTF-8, a line of megabytes) is answered with `info string error: …` and
/// the loop goes on.
pub fn run() -> Result<(), String> {
    shogi::attacks::init();
    let mut session = Session::new();
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut buf = Vec::new();
    loop {
        buf.clear();
        let read = (&mut input).take(MAX_LINE_BYTES).read_until(b'\n', &mut buf);
        match read {
            Ok(0) => break,
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(format!("reading stdin: {e}")),
        }
        if buf.len() as u64 == MAX_LINE_BYTES && buf.last() != Some(&b'\n') {
            skip_rest_of_line(&mut input);
            send(&format!("info string error: a line over {MAX_LINE_BYTES} bytes ignored"));
            continue;
        }
        let flow = match decode_line(&buf) {
            Ok(line) => session.handle(line),
            Err(e) => {
                send(&format!("info string error: {e}"));
                session::Flow::Continue
            }
        };
        if flow == session::Flow::Quit {
            return Ok(());
        }
    }
    session.end_of_input();
    Ok(())
}

/// Reads and drops input up to the next end of line.
fn skip_rest_of_line(input: &mut impl BufRead) {
    loop {
        let (done, used) = match input.fill_buf() {
            Ok([]) | Err(_) => return,
            Ok(chunk) => match chunk.iter().position(|&b| b == b'\n') {
                Some(i) => (true, i + 1),
                None => (false, chunk.len()),
            },
        };
        input.consume(used);
        if done {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_decoded_without_bom_and_line_ends() {
        assert_eq!(decode_line(b"usi\r\n"), Ok("usi"));
        assert_eq!(decode_line(b"\xEF\xBB\xBFusi\n"), Ok("usi"));
        assert_eq!(decode_line(b"isready"), Ok("isready"));
        let e = decode_line(b"setoption name \x83n\x83b\x83V\x83\x85 value 1\n").unwrap_err();
        assert!(e.starts_with("a line that is not UTF-8 ignored: 'setoption name "), "{e}");
    }

    #[test]
    fn the_rest_of_a_long_line_is_skipped() {
        let mut input = std::io::Cursor::new(b"xxxxxxxx\nusi\n".to_vec());
        skip_rest_of_line(&mut input);
        let mut rest = String::new();
        input.read_to_string(&mut rest).unwrap();
        assert_eq!(rest, "usi\n");
    }
}
