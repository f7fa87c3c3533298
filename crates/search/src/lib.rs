//! Game-generic search. Nothing here knows shogi: a game is seen only through the
//! [`Game`] trait, and every algorithm is written once against it and
//! monomorphised, so explicit trees ([`tree::TreeGame`]), small games in the
//! tests and shogi all run the same code.
//!
//! - [`game`]: the trait (rules, the end of the game, sides, the value unit;
//!   tactics; the PVS engine's heuristics).
//! - [`textbook`]: plain minimax, alpha-beta in max/min form and negamax, with traces.
//! - [`qsearch`]: quiescence search, for any algorithm, in a table of its choice.
//! - [`searcher`]: what an algorithm implements to be run: the `Searcher` and
//!   `SearchThread` traits, the root moves, each thread's context.
//! - [`engine`]: the engine layer — limits, time control, threads, stop and
//!   ponder, reports, MultiPV — running any [`engine::Searcher`].
//! - [`abc`]: ABC search, KFEnd's alpha-beta-conspiracy search (KFEnd's ABC article).
//! - [`pvs`]: the classical algorithm — PVS with aspiration windows, transposition
//!   table, staged ordering, pruning, reductions and extensions.
//! - [`correction`]: correction history, the static value's learnt errors (PVS).
//! - [`time`]: time management for byoyomi, Fischer increment and sudden death.
//! - [`options`]: the algorithms' numeric options, each declared once.

pub mod abc;
pub mod correction;
pub mod engine;
pub mod game;
pub mod history;
pub mod limits;
pub mod options;
pub mod picker;
pub mod plies;
pub mod pvs;
pub mod qsearch;
pub mod searcher;
pub mod textbook;
pub mod time;
pub mod tree;
pub mod tt;
pub mod value;

pub use engine::{Engine, Info, SearchResult};
pub use game::{Game, Outcome, RepetitionStatus, Side};
pub use limits::Limits;
pub use value::Value;
