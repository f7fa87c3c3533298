//! The integration tests of this crate, one binary (each file is a module).

mod checks;
mod differential;
mod fuzz_seeds;
mod perft;
mod properties;
mod rules;
mod sfen_errors;
