//! The integration tests of `kyobo`, one binary (each file is a module). The tests
//! that time a real process are the binary `timed` (tests/timed/).

mod analyse;
mod bench;
mod cli_output;
mod cli_promises;
mod common;
mod convert;
mod convert_cli;
mod dobutsu_cli;
mod hostile_input;
mod japanese;
mod mate_book_cli;
mod serve;
mod tree_cli;
mod usi;
mod usi_book;
mod usi_corners;
mod usi_dobutsu;
mod usi_nnue;
mod usi_promises;
