//! Feeds arbitrary bytes to the SFEN parser and, on every position that parses, to
//! the USI move parser and the move generator. Nothing may panic.
//!
//! Run: `cargo fuzz run parsers -- -max_total_time=60` (from the repository root).
#![no_main]

use libfuzzer_sys::fuzz_target;
use shogi::Position;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    // Split the input: the first line is an SFEN, the rest move strings.
    let mut lines = text.lines();
    let sfen = lines.next().unwrap_or("");
    let pos = match Position::from_sfen(sfen) {
        Ok(pos) => pos,
        Err(_) => Position::startpos(),
    };
    let _ = pos.to_sfen();
    let _ = shogi::legal_moves(&pos);
    for line in lines {
        for word in line.split_whitespace() {
            let _ = pos.parse_usi_move(word);
        }
    }
});
