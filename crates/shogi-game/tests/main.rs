//! The integration tests of this crate, one binary (each file is a module).

mod abc;
mod bad_shape;
mod determinism;
mod game_end;
mod mates;
mod nnue_reference;
mod picker_checks_only;
