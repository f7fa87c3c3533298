//! What a search is asked to do: how deep, how many nodes, how long.

use crate::time::Clock;
use std::time::Duration;

#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Stop after this many iterations (plies).
    pub depth: Option<i32>,
    /// Stop after about this many nodes (all threads together).
    pub nodes: Option<u64>,
    /// Think exactly this long.
    pub movetime: Option<Duration>,
    /// The game clock of the side to move; `None` with no other limit means infinite.
    pub clock: Option<Clock>,
    /// Search until told to stop (`go infinite`).
    pub infinite: bool,
    /// Pondering: no time limit until `ponderhit`, no bestmove before it or `stop`.
    pub ponder: bool,
    /// How many best lines to report (MultiPV), at least 1.
    pub multipv: usize,
    /// The SFEN move number at the root, to estimate the moves left in the game.
    pub game_ply: u32,
}

impl Limits {
    pub fn depth(depth: i32) -> Limits {
        Limits { depth: Some(depth), multipv: 1, ..Limits::default() }
    }

    /// Whether time decides when to stop (as opposed to depth, nodes or the user).
    pub fn uses_clock(&self) -> bool {
        self.clock.is_some() || self.movetime.is_some()
    }
}
