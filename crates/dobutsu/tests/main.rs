//! The integration tests of this crate, one binary (each file is a module).

mod common;
mod notation;
mod oracle;
mod perft;
mod reference;
mod rules;
mod search;
