//! NNUE evaluation: the halfKP 256x2-32-32 networks of YaneuraOu's `nn.bin`
//! format, read from a file (USI `EvalFile`) and evaluated incrementally, to the
//! same values as YaneuraOu's NNUE edition gives for the same file.
//!
//! - [`file`]: the file format, with typed errors for every way a file can be
//!   wrong, and a writer;
//! - [`features`]: the input features (HalfKP) of a position and what a move
//!   changes in them;
//! - [`network`]: the accumulators and layers (plain Rust, AVX2 where the CPU
//!   has it);
//! - [`stack`]: the accumulators along the search's line, updated lazily.

pub mod features;
pub mod file;
pub mod network;
pub mod stack;

pub use file::{Layers, Network, NnueError};
pub use stack::NnueStack;
