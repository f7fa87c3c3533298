//! The integration tests of this crate, one binary (each file is a module).

mod abc;
mod common;
mod pvs;
mod textbook;
mod tictactoe;
