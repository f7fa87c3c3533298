//! What the fuzz target `parsers` (`fuzz/fuzz_targets/parsers.rs`) runs on each
//! input, here so that the target and the tests that replay its seeds and corpus
//! (`tests/fuzz_seeds.rs`) run the same code.

use crate::{legal_moves, Position};

/// Feeds arbitrary bytes to the SFEN parser and, on the position (the start
/// where the first line is no SFEN), to the move generator and the USI move
/// parser (every word of the other lines). Nothing may panic.
pub fn parsers(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let mut lines = text.lines();
    let sfen = lines.next().unwrap_or("");
    let pos = Position::from_sfen(sfen).unwrap_or_else(|_| Position::startpos());
    let _ = pos.to_sfen();
    let _ = legal_moves(&pos);
    for line in lines {
        for word in line.split_whitespace() {
            let _ = pos.parse_usi_move(word);
        }
    }
}
