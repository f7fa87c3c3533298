//! Shogi evaluation, and shogi as a [`search::Game`].
//!
//! The evaluation is a sum of terms from Black's point of view, negated for White:
//! - material and piece-square (kept incrementally, see [`incremental`]),
//! - pieces in hand valued by how many of a kind are held,
//! - king safety: attacks on the squares around each king, defenders near it,
//!   and the droppable pieces the attacker holds (see [`king_safety`]).
//!
//! The weights live in [`weights`], one place, so a tuner can rewrite them.

pub mod evaluate;
pub mod game;
pub mod incremental;
pub mod king_safety;
pub mod mate1;
pub mod see;
pub mod weights;

pub use evaluate::evaluate;
pub use game::ShogiGame;
