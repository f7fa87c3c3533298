//! Conspiracy depth as PVS's depth policy (`PVS_ConspiracyDepth`): a move costs
//! a fraction of a ply that depends on how forced it is, after McAllester &
//! Yuret's conspiracy numbers and the realization-probability search of
//! Tsuruoka et al.
//!
//! Each move's *key* is a cheap bound of the value after it: the static value
//! plus the exchange value on its square, counted in steps of Δ (a capture that
//! wins a Δ or more, two, three; a move that loses one; every other move the
//! static value itself). A move's *alternatives* are its siblings whose keys are
//! within Δ of its own, that is at its step or above. With SFunc's cap `c`, a
//! move with `a` alternatives costs `(1 + 3 min(a, c) / c)` quarter plies: a
//! move with none (the one winning capture, the one evasion) a quarter, one with
//! `c` or more a full ply, with PVS's reductions as they are. What a line saves
//! is carried down it; each full ply saved extends the line by one, within
//! PVS's bound on extensions.

use crate::game::Game;
use crate::value::Value;

/// Steps of Δ a key is counted in: −Δ, 0, Δ, 2Δ, 3Δ or more.
const STEPS: usize = 5;

/// A quarter of a ply, the unit of the charge.
pub(super) const PLY: i32 = 4;

/// The step of `m`'s key in the position `game`: 0 for a move that loses Δ in
/// the exchange on its square, 1 for one that neither wins nor loses that
/// much (every quiet move: its key is the static value), 2 to 4 for a capture
/// winning one, two, three Δ or more.
pub(super) fn step<G: Game>(game: &G, m: G::Move, delta: Value) -> usize {
    if !game.is_tactical(m) {
        return 1;
    }
    if !game.see_ge(m, -delta + 1) {
        return 0;
    }
    let mut step = 1;
    while step < STEPS - 1 && game.see_ge(m, delta * step as Value) {
        step += 1;
    }
    step
}

/// How many of a node's moves are at each step.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Siblings {
    at: [u32; STEPS],
}

impl Siblings {
    /// The steps of every move of `moves` in `game`.
    pub(super) fn of<G: Game>(game: &G, moves: &[G::Move], delta: Value) -> Siblings {
        let mut s = Siblings::default();
        for &m in moves {
            s.at[step(game, m, delta)] += 1;
        }
        s
    }

    /// The alternatives of a move at step `step`: the other moves at that step
    /// or above.
    pub(super) fn alternatives(&self, step: usize) -> usize {
        let at_or_above: u32 = self.at[step.min(STEPS - 1)..].iter().sum();
        at_or_above.saturating_sub(1) as usize
    }
}

/// What a move with `alternatives` alternatives costs, in quarter plies, with
/// SFunc's cap `cap` (at least 1).
pub(super) fn charge(alternatives: usize, cap: usize) -> i32 {
    let cap = cap.max(1);
    1 + (3 * alternatives.min(cap) / cap) as i32
}

/// The carry of a line after a move costing `charge` quarter plies, from a
/// carry of `carry`: whether the move is extended by a ply, and the carry
/// after it (the full ply spent when it is extended).
pub(super) fn carried(carry: i32, charge: i32) -> (bool, i32) {
    let saved = carry + PLY - charge;
    if saved >= PLY {
        (true, saved - PLY)
    } else {
        (false, saved)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The charge of a move with 0, 1, … alternatives, SFunc's cap 3: a
    /// quarter, a half, three quarters, then a full ply however many more.
    #[test]
    fn a_move_costs_a_quarter_ply_more_per_alternative_up_to_a_ply() {
        let charges: Vec<i32> = (0..6).map(|a| charge(a, 3)).collect();
        assert_eq!(charges, [1, 2, 3, 4, 4, 4]);
        // Cap 1: any alternative makes it a full ply; cap 6: half steps.
        assert_eq!([charge(0, 1), charge(1, 1), charge(5, 1)], [1, 4, 4]);
        assert_eq!([charge(0, 6), charge(1, 6), charge(2, 6), charge(3, 6)], [1, 1, 2, 2]);
        assert_eq!([charge(4, 6), charge(5, 6), charge(6, 6)], [3, 3, 4]);
        assert_eq!(charge(0, 0), 1, "a cap of 0 is read as 1");
    }

    /// Alternatives are the siblings at the move's step or above.
    #[test]
    fn alternatives_are_the_siblings_at_the_same_step_or_above() {
        // Two losing captures, 30 quiet moves and even captures, one capture
        // winning Δ, none two, one three or more.
        let s = Siblings { at: [2, 30, 1, 0, 1] };
        assert_eq!(s.alternatives(4), 0, "the one big win");
        assert_eq!(s.alternatives(2), 1, "the Δ win sees the bigger one");
        assert_eq!(s.alternatives(1), 31);
        assert_eq!(s.alternatives(0), 33);
        // One evasion: none.
        let forced = Siblings { at: [0, 1, 0, 0, 0] };
        assert_eq!(forced.alternatives(1), 0);
    }

    /// The carry: a full ply saved along the line becomes an extension.
    #[test]
    fn four_quarters_saved_extend_a_line_by_one_ply() {
        // A move costing a quarter saves three; the next such one extends.
        assert_eq!(carried(0, 1), (false, 3));
        assert_eq!(carried(3, 1), (true, 2));
        // A full ply saves nothing and keeps the carry.
        assert_eq!(carried(2, 4), (false, 2));
        assert_eq!(carried(3, 3), (true, 0));
    }
}
