//! Game-generic search. Nothing here knows shogi: a game is seen only through the
//! [`Game`] trait, and every algorithm is written once against it and
//! monomorphised, so explicit trees ([`tree::TreeGame`]), Dobutsu shogi and shogi all
//! run the same code.
//!
//! - [`textbook`]: plain minimax, alpha-beta in max/min form and negamax, with traces.
//! - [`engine`]: the classical engine — iterative deepening, PVS with aspiration
//!   windows, transposition table, staged ordering, quiescence, pruning and
//!   reductions, Lazy SMP threads, MultiPV.
//! - [`time`]: time management for byoyomi, Fischer increment and sudden death.

pub mod engine;
pub mod game;
pub mod history;
pub mod limits;
pub mod picker;
pub mod textbook;
pub mod time;
pub mod tree;
pub mod tt;
pub mod value;

pub use engine::{Engine, Info, SearchResult};
pub use game::{Game, RepetitionStatus};
pub use limits::Limits;
pub use value::Value;
