//! Which book move to play: the `Book…` options as YaneuraOu documents them.
//!
//! The moves of a position are filtered in turn, and one is drawn from what is
//! left with a weight for its count and its value:
//! 1. `NarrowBook`: moves played in under a tenth of the position's games go;
//! 2. `BookDepthLimit`: moves whose value comes from a shallower search go
//!    (0 keeps every depth, also the unsearched moves of a book of games);
//! 3. `BookEvalBlackLimit` / `BookEvalWhiteLimit`: moves valued below the side's
//!    limit go;
//! 4. `BookEvalDiff`: moves valued more than this below the best left go — with
//!    searched values, a move the search finds clearly worse is never played.
//!
//! A move's weight is its count (`ConsiderBookMoveCount`; else 1) times
//! `(diff + 1 − gap) / (diff + 1)`, `gap` being how far it is below the best.

use crate::entry::BookMove;
use crate::rng::Rng;

/// The options that decide a book move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Policy {
    pub eval_diff: i32,
    pub black_limit: i32,
    pub white_limit: i32,
    pub depth_limit: i32,
    pub consider_count: bool,
    pub narrow: bool,
}

impl Default for Policy {
    /// YaneuraOu's defaults but two: `BookDepthLimit` 0 (books made from games
    /// carry depth 0) and `ConsiderBookMoveCount` on (the count is all such a
    /// book knows of a move).
    fn default() -> Self {
        Policy {
            eval_diff: 30,
            black_limit: 0,
            white_limit: -140,
            depth_limit: 0,
            consider_count: true,
            narrow: false,
        }
    }
}

/// A book move drawn.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Choice {
    /// Its index in the position's moves.
    pub index: usize,
    /// How many moves passed the filters.
    pub candidates: usize,
    /// Its chance of being drawn.
    pub probability: f64,
}

impl Policy {
    /// The moves that pass the filters, with their weights (indices into `moves`).
    pub fn candidates(&self, moves: &[BookMove], black_to_move: bool) -> Vec<(usize, f64)> {
        let total: u64 = moves.iter().map(|m| m.count).fold(0, u64::saturating_add);
        let limit = if black_to_move { self.black_limit } else { self.white_limit };
        let passed: Vec<usize> = (0..moves.len())
            .filter(|&i| !self.narrow || moves[i].count.saturating_mul(10) >= total)
            .filter(|&i| self.depth_limit <= 0 || moves[i].depth >= self.depth_limit)
            .filter(|&i| moves[i].value >= limit)
            .collect();
        let Some(best) = passed.iter().map(|&i| moves[i].value).max() else {
            return Vec::new();
        };
        let diff = i64::from(self.eval_diff.max(0));
        passed
            .into_iter()
            .filter_map(|i| {
                let gap = i64::from(best) - i64::from(moves[i].value);
                if gap > diff {
                    return None;
                }
                let count = if self.consider_count { moves[i].count.max(1) as f64 } else { 1.0 };
                Some((i, count * (diff + 1 - gap) as f64 / (diff + 1) as f64))
            })
            .collect()
    }

    /// Draws a book move (`None` when no move passes).
    pub fn choose(&self, moves: &[BookMove], black_to_move: bool, rng: &mut Rng) -> Option<Choice> {
        let candidates = self.candidates(moves, black_to_move);
        let weights: Vec<f64> = candidates.iter().map(|c| c.1).collect();
        let total: f64 = weights.iter().sum();
        let k = rng.weighted(&weights)?;
        Some(Choice {
            index: candidates[k].0,
            candidates: candidates.len(),
            probability: candidates[k].1 / total,
        })
    }

    /// The move with the greatest weight (for the book's line shown as `pv`).
    pub fn most_likely(&self, moves: &[BookMove], black_to_move: bool) -> Option<usize> {
        self.candidates(moves, black_to_move)
            .into_iter()
            .max_by(|a, b| a.1.total_cmp(&b.1))
            .map(|c| c.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::entry::parse_move_line;

    fn moves(lines: &[&str]) -> Vec<BookMove> {
        lines.iter().map(|l| parse_move_line(l).unwrap()).collect()
    }

    #[test]
    fn filters_in_turn() {
        let m = moves(&[
            "7g7f none 40 20 10",
            "2g2f none 20 20 30",
            "5g5f none -5 20 50",
            "1g1f none 39 4 1",
        ]);
        let p = Policy::default();
        let c: Vec<usize> = p.candidates(&m, true).iter().map(|c| c.0).collect();
        assert_eq!(c, vec![0, 1, 3], "black limit 0 drops 5g5f");
        let c: Vec<usize> = p.candidates(&m, false).iter().map(|c| c.0).collect();
        assert_eq!(c, vec![0, 1, 3], "5g5f is 45 below the best for White too");
        let deep = Policy { depth_limit: 10, ..p };
        assert_eq!(deep.candidates(&m, true).len(), 2);
        let strict = Policy { eval_diff: 0, ..p };
        assert_eq!(strict.candidates(&m, true), vec![(0, 10.0)]);
        let narrow = Policy { narrow: true, white_limit: -99, eval_diff: 100, ..p };
        let c: Vec<usize> = narrow.candidates(&m, false).iter().map(|c| c.0).collect();
        assert_eq!(c, vec![0, 1, 2], "1g1f has 1 of 91 games");
        let none = Policy { black_limit: 100, ..p };
        assert!(none.choose(&m, true, &mut Rng::new(1)).is_none());
    }

    #[test]
    fn weights_follow_count_and_value() {
        let m = moves(&["7g7f none 30 0 10", "2g2f none 0 0 10", "5g5f none 30 0 30"]);
        let p = Policy::default();
        let w = p.candidates(&m, true);
        assert_eq!(w, vec![(0, 10.0), (1, 10.0 / 31.0), (2, 30.0)]);
        assert_eq!(p.most_likely(&m, true), Some(2));
        let flat = Policy { consider_count: false, ..p };
        assert_eq!(flat.candidates(&m, true)[2], (2, 1.0));
        let mut rng = Rng::new(3);
        let mut seen = [0u32; 3];
        for _ in 0..10_000 {
            let c = p.choose(&m, true, &mut rng).unwrap();
            assert_eq!(c.candidates, 3);
            seen[c.index] += 1;
        }
        assert!(seen[1] > 0 && seen[1] < 200 && seen[2] > 2 * seen[0], "{seen:?}");
    }
}
