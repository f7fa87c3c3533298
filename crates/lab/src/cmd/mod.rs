//! The subcommands of `kyobo-lab`, one module each.

pub mod abc_trace;
mod common;
pub mod kept_moves;
pub mod nnue_random;
pub mod nnue_siblings;
pub mod nnue_teacher;
pub mod nnue_train;
pub mod selfplay;
pub mod tune;
pub mod tune_danger;
