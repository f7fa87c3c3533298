//! The integration tests of this crate, one binary (each file is a module).

mod common;
mod cshogi_fixtures;
mod errors;
mod formats;
mod ki2_notation;
mod robustness;
mod round_trips;
