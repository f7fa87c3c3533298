//! Feeds arbitrary bytes to the SFEN parser and, on every position that parses, to
//! the USI move parser and the move generator. Nothing may panic. The body is
//! `shogi::fuzzing::parsers`, which the shogi crate's tests also run on the seeds
//! and the corpus.
//!
//! Run: `cargo fuzz run parsers -- -max_total_time=60` (from the repository root).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| shogi::fuzzing::parsers(data));
