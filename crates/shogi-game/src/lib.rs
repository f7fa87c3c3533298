//! Shogi as a game of the search framework: what the game-generic searches of the
//! `search` crate need to play shogi, over the rules of `shogi` and the evaluation
//! of `eval`.
//!
//! - [`game`]: [`ShogiGame`], the [`search::Game`] adapter (rules, the end of the
//!   game, tactics and the evaluation, handcrafted or NNUE);
//! - [`eval_scales`]: the handcrafted evaluation's king-danger scales, for a tuner;
//! - [`mate1`]: mate in one, for the search's tactics;
//! - [`bad_shape`]: the bad-shape checks, and [`shape_rule`], the root rule that
//!   replaces a bad-shape best move by a close one that is not.

pub mod bad_shape;
pub mod eval_scales;
pub mod game;
pub mod mate1;
pub mod shape_rule;

pub use eval_scales::EvalScales;
pub use game::ShogiGame;

#[cfg(test)]
mod tests {
    #[test]
    fn evaluations_stay_below_the_search_s_mate_values() {
        assert_eq!(eval::MAX_EVAL, search::value::MATE_IN_MAX_PLY - 1);
    }
}
