//! Conspiracy depth and the termination test of ABC search (KFEnd's ABC article, after
//! McAllester and Yuret).
//!
//! Every node on the current line keeps its *head*: the moves it kept, each with
//! its *key* (the quiescence value of the position after the move, from the
//! mover's side) and whether it is the move being searched now. The conspiracy
//! depth of side `t` at a frontier value `v` (from `t`'s side) is
//!
//! ```text
//! Σ over the heads of the line where t is to move:  SFunc(k),
//!     k = the moves of that head not being searched whose key is above v − Δ
//! ```
//!
//! with `SFunc(c) = min(c, cap)`, plus, beyond KFEnd's article, each head's penalty
//! (`ABC_LateMoves`) and `⌊plies / N⌋` for a line of `plies` plies where
//! `plies_per_depth` N is set (`ABC_PliesPerDepth`). A node reached by a move
//! of key `v` from a parent of side `t` and window `(α, β)` is a leaf when
//! - `v ≥ β`: `t`'s conspiracy depth at `β − Δ` reaches `t`'s threshold;
//! - `v ≤ α`: the opponent's at `−α − Δ` reaches the opponent's;
//! - otherwise both: `t`'s at `v − Δ` and the opponent's at `−v − Δ`.
//!
//! A frontier value that stands well above its siblings' keys (a forced line)
//! counts few siblings and lets the search go deeper.

use crate::game::Side;
use crate::tt::Bound;
use crate::value::Value;

/// A move kept at a node, with its key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Child<M> {
    pub mv: M,
    /// The quiescence value after the move, from the mover's side (at the
    /// root: the previous iteration's value).
    pub key: Value,
    /// What the key is: a quiescence search with the node's window gives a bound
    /// where the value lies outside it (at the root: always exact).
    pub bound: Bound,
    /// The move is on the line being searched now.
    pub searching: bool,
}

/// The moves of one node of the current line.
#[derive(Clone, Debug)]
pub struct Head<M> {
    /// Who moves here.
    pub side: Side,
    /// Best key first.
    pub children: Vec<Child<M>>,
    /// What the move being searched adds to both sides' conspiracy depths beyond
    /// SFunc, so that its lines end sooner: the null move's reduction for a pass
    /// (`ABC_NullMove`), else 0 as in KFEnd's article.
    pub penalty: usize,
}

impl<M> Head<M> {
    pub fn new(side: Side) -> Head<M> {
        Head { side, children: Vec::new(), penalty: 0 }
    }

    /// How many moves not being searched have a key above `value`.
    pub fn count_above(&self, value: Value) -> usize {
        self.children.iter().filter(|c| !c.searching && c.key > value).count()
    }
}

/// The parameters of the termination test.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Conspiracy {
    /// Δ, in the game's values.
    pub delta: Value,
    /// The cap of SFunc: one head adds at most this much.
    pub cap: usize,
    /// Each side's threshold, by `Side::index`.
    pub thresholds: [usize; 2],
    /// Every this many plies of a line add 1 to both sides' depths (0: none,
    /// as in KFEnd's article): a line where neither side has alternatives within Δ, a
    /// melee of captures and drops, still ends.
    pub plies_per_depth: usize,
}

impl Conspiracy {
    /// SFunc: one head's share of the conspiracy depth.
    pub fn sfunc(&self, count: usize) -> usize {
        count.min(self.cap)
    }

    /// What a line of `plies` plies adds to both sides' depths for its length.
    pub fn length_depth(&self, plies: usize) -> usize {
        plies.checked_div(self.plies_per_depth).unwrap_or(0)
    }

    /// The conspiracy depth of `side` at frontier value `value` (from `side`'s
    /// point of view), over the heads of the line `heads` (root first), with
    /// every head's penalty and the line's length.
    pub fn depth<M>(&self, heads: &[Head<M>], side: Side, value: Value) -> usize {
        let threshold = value.saturating_sub(self.delta);
        let counted: usize = heads
            .iter()
            .map(|h| {
                let own = if h.side == side { self.sfunc(h.count_above(threshold)) } else { 0 };
                own + h.penalty
            })
            .sum();
        counted + self.length_depth(heads.len())
    }

    /// What must hold for the node reached by a move of key `key` (by `mover`,
    /// searched with window `(alpha, beta)`) to be a leaf: the case, and each
    /// (side, frontier value) whose conspiracy depth must reach the side's
    /// threshold.
    fn conditions(
        mover: Side,
        alpha: Value,
        beta: Value,
        key: Value,
    ) -> (&'static str, [Option<(Side, Value)>; 2]) {
        let opponent = mover.flip();
        if key >= beta {
            ("key >= beta", [Some((mover, beta)), None])
        } else if key <= alpha {
            ("key <= alpha", [Some((opponent, alpha.saturating_neg())), None])
        } else {
            ("inside", [Some((mover, key)), Some((opponent, key.saturating_neg()))])
        }
    }

    /// Whether the node reached by a move of key `key` from the last head of
    /// `heads` (whose side `mover` searched it with window `(alpha, beta)`) is a
    /// leaf of this iteration.
    pub fn terminates<M>(
        &self,
        heads: &[Head<M>],
        mover: Side,
        alpha: Value,
        beta: Value,
        key: Value,
    ) -> bool {
        let (_, conditions) = Self::conditions(mover, alpha, beta, key);
        conditions
            .iter()
            .flatten()
            .all(|&(side, value)| self.depth(heads, side, value) >= self.thresholds[side.index()])
    }

    /// [`Conspiracy::terminates`] with its reasons, for traces: the case, and
    /// each side's depth against its threshold.
    pub fn explain<M>(
        &self,
        heads: &[Head<M>],
        mover: Side,
        alpha: Value,
        beta: Value,
        key: Value,
    ) -> String {
        let (case, conditions) = Self::conditions(mover, alpha, beta, key);
        let depths: Vec<String> = conditions
            .iter()
            .flatten()
            .map(|&(side, value)| {
                let depth = self.depth(heads, side, value);
                format!("{side:?} {depth}/{}", self.thresholds[side.index()])
            })
            .collect();
        format!("{case}: {}", depths.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn head(side: Side, keys: &[Value], searching: usize) -> Head<u32> {
        Head {
            side,
            penalty: 0,
            children: keys
                .iter()
                .enumerate()
                .map(|(i, &key)| Child {
                    mv: i as u32,
                    key,
                    bound: Bound::Exact,
                    searching: i == searching,
                })
                .collect(),
        }
    }

    const FIRST: Side = Side::First;
    const SECOND: Side = Side::Second;

    /// The line of Figure 2 of KFEnd's ABC article, worked by hand: First to move at plies 0
    /// and 2, Second at 1 and 3; the move searched at each head is marked.
    fn line() -> Vec<Head<u32>> {
        vec![
            head(FIRST, &[300, 250, 100, -50], 0), // First's keys
            head(SECOND, &[-200, -280, -300], 0),  // Second's keys
            head(FIRST, &[320, 310, 290, 200], 1), // searching 310
            head(SECOND, &[-310, -330, -500], 0),  // searching -310
        ]
    }

    #[test]
    fn conspiracy_depth_counts_unsearched_siblings_above_the_value_less_delta() {
        let c = Conspiracy { delta: 50, cap: 5, thresholds: [3, 3], plies_per_depth: 0 };
        let heads = line();
        // First at 310: siblings above 260 not being searched: ply 0 has 250? no
        // (250 ≤ 260), 100, -50 no → 0; ply 2 has 320 and 290 → 2.
        assert_eq!(c.depth(&heads, FIRST, 310), 2);
        // At 250 (threshold 200): ply 0: 250 (not searching) → 1... 300 is the
        // searched one; ply 2: 320, 290 (200 is not above 200) → 2. Total 3.
        assert_eq!(c.depth(&heads, FIRST, 250), 3);
        // Second at -310 (threshold -360): ply 1: -280, -300 → 2; ply 3: -330 → 1.
        assert_eq!(c.depth(&heads, SECOND, -310), 3);
        // A large value: nothing above it.
        assert_eq!(c.depth(&heads, FIRST, 10_000), 0);
    }

    #[test]
    fn a_penalty_counts_for_both_sides() {
        let c = Conspiracy { delta: 50, cap: 5, thresholds: [3, 3], plies_per_depth: 0 };
        let mut heads = line();
        heads[1].penalty = 2;
        assert_eq!(c.depth(&heads, FIRST, 310), 2 + 2);
        assert_eq!(c.depth(&heads, SECOND, -310), 3 + 2);
        assert_eq!(c.depth(&heads, FIRST, 10_000), 2);
        // Inside the window First's depth at 310 reached 4 ≥ 3: now a leaf.
        assert!(c.terminates(&heads, SECOND, -400, -200, -310));
    }

    #[test]
    fn every_n_plies_of_a_line_count_for_both_sides() {
        let seed = Conspiracy { delta: 50, cap: 5, thresholds: [3, 3], plies_per_depth: 0 };
        let heads = line();
        for (n, added) in [(1, 4), (2, 2), (3, 1), (4, 1), (5, 0)] {
            let c = Conspiracy { plies_per_depth: n, ..seed };
            assert_eq!(c.length_depth(heads.len()), added);
            assert_eq!(c.depth(&heads, FIRST, 310), 2 + added, "every {n} plies");
            assert_eq!(c.depth(&heads, SECOND, -310), 3 + added, "every {n} plies");
            assert_eq!(c.depth(&heads, FIRST, 10_000), added, "every {n} plies");
        }
        // Inside the window First's depth at 310 is 2 < 3 as KFEnd counts; a
        // line of four plies counting one more ends there.
        assert!(!seed.terminates(&heads, SECOND, -400, -200, -310));
        let four = Conspiracy { plies_per_depth: 4, ..seed };
        assert!(four.terminates(&heads, SECOND, -400, -200, -310));
    }

    #[test]
    fn sfunc_caps_each_head() {
        let c = Conspiracy { delta: 0, cap: 2, thresholds: [0, 0], plies_per_depth: 0 };
        let heads = vec![head(FIRST, &[9, 8, 7, 6, 5], 0)];
        assert_eq!(c.depth(&heads, FIRST, 0), 2);
        let uncapped = Conspiracy { cap: 10, ..c };
        assert_eq!(uncapped.depth(&heads, FIRST, 0), 4);
    }

    #[test]
    fn the_three_termination_cases() {
        let heads = line();
        // The child of the last head (Second moved, key -310 from Second's side).
        let c = Conspiracy { delta: 50, cap: 5, thresholds: [3, 3], plies_per_depth: 0 };
        // Inside the window: both sides. Second at -310: 3 ≥ 3; First at 310: 2 < 3.
        assert!(!c.terminates(&heads, SECOND, -400, -200, -310));
        let lower = Conspiracy { thresholds: [2, 3], ..c };
        assert!(lower.terminates(&heads, SECOND, -400, -200, -310));
        // At or above beta: Second's depth at beta (-350 → threshold -400): ply 1
        // -280, -300 → 2; ply 3: -330 → 1; 3 ≥ 3.
        assert!(c.terminates(&heads, SECOND, -500, -350, -310));
        let higher = Conspiracy { thresholds: [3, 4], ..c };
        assert!(!higher.terminates(&heads, SECOND, -500, -350, -310));
        // At or below alpha: First's depth at -alpha (alpha -300 → 300, threshold
        // 250): ply 0: none above 250 but the searched 300 → 0; ply 2: 320, 290 → 2.
        assert!(!c.terminates(&heads, SECOND, -300, -100, -310));
        let first_two = Conspiracy { thresholds: [2, 9], ..c };
        assert!(first_two.terminates(&heads, SECOND, -300, -100, -310));
        assert_eq!(c.explain(&heads, SECOND, -400, -200, -310), "inside: Second 3/3, First 2/3");
        assert_eq!(c.explain(&heads, SECOND, -500, -350, -310), "key >= beta: Second 3/3");
        assert_eq!(c.explain(&heads, SECOND, -300, -100, -310), "key <= alpha: First 2/3");
    }
}
