//! Move-ordering memory gathered during search: killer moves per ply, the
//! butterfly-style history of quiet moves, and continuation history (how good a
//! quiet move was as an answer to the move one or two plies before it).

use crate::value::MAX_PLY;

/// Two quiet moves per ply that recently caused a beta cutoff.
pub struct Killers<M> {
    slots: Vec<[M; 2]>,
}

impl<M: Copy + Eq + Default> Killers<M> {
    pub fn new() -> Killers<M> {
        Killers { slots: vec![[M::default(); 2]; MAX_PLY as usize + 4] }
    }

    pub fn get(&self, ply: usize) -> [M; 2] {
        self.slots[ply]
    }

    pub fn update(&mut self, ply: usize, m: M) {
        let s = &mut self.slots[ply];
        if s[0] != m {
            s[1] = s[0];
            s[0] = m;
        }
    }

    /// The children of the root's children start fresh each iteration.
    pub fn clear_ply(&mut self, ply: usize) {
        self.slots[ply] = [M::default(); 2];
    }
}

impl<M: Copy + Eq + Default> Default for Killers<M> {
    fn default() -> Self {
        Killers::new()
    }
}

/// How often a quiet move was good, indexed by the game's `history_index`.
#[derive(Default)]
pub struct History {
    table: Vec<i32>,
}

/// Scores stay within ±HISTORY_MAX; each update pulls towards the bound it pushes.
pub const HISTORY_MAX: i32 = 16384;

impl History {
    pub fn new(size: usize) -> History {
        History { table: vec![0; size.max(1)] }
    }

    #[inline]
    pub fn get(&self, index: usize) -> i32 {
        self.table[index]
    }

    /// The bonus for a cutoff at `depth`.
    pub fn bonus(depth: i32) -> i32 {
        (depth * depth * 16).min(1600)
    }

    /// Adds `bonus` (negative for a malus) with gravity, so that scores stay bounded
    /// and old news fades.
    #[inline]
    pub fn update(&mut self, index: usize, bonus: i32) {
        let h = &mut self.table[index];
        *h += bonus - *h * bonus.abs() / HISTORY_MAX;
    }

    /// Whether the table has `size` scores (as [`History::new`] makes it).
    pub fn has_size(&self, size: usize) -> bool {
        self.table.len() == size.max(1)
    }
}

/// Quiet-move scores keyed by the move one or two plies earlier and the move now
/// (both as the game's `continuation_index`). Rows also split by the ply's parity:
/// one search has one side to move at the root, so parity says who moves, and a
/// Black answer is never scored with a White one's statistics.
#[derive(Default)]
pub struct ContinuationHistory {
    size: usize,
    table: Vec<i16>,
}

/// A row of the continuation table: the context a quiet move is scored in.
pub type ContinuationRow = Option<usize>;

impl ContinuationHistory {
    /// `size`: how many values the game's `continuation_index` takes.
    pub fn new(size: usize) -> ContinuationHistory {
        let size = size.max(1);
        ContinuationHistory { size, table: vec![0; 2 * 2 * size * size] }
    }

    /// Whether the table is the one [`ContinuationHistory::new`] makes for `size`.
    pub fn has_size(&self, size: usize) -> bool {
        self.size == size.max(1) && !self.table.is_empty()
    }

    /// The row for scoring moves at `ply` after the move `previous` made
    /// `distance` (1 or 2) plies earlier.
    #[inline]
    pub fn row(&self, distance: usize, ply: usize, previous: usize) -> ContinuationRow {
        debug_assert!((1..=2).contains(&distance) && previous < self.size);
        Some((((distance - 1) * 2 + (ply & 1)) * self.size + previous) * self.size)
    }

    #[inline]
    pub fn get(&self, row: ContinuationRow, index: usize) -> i32 {
        row.map_or(0, |r| i32::from(self.table[r + index]))
    }

    /// Same gravity as [`History::update`].
    #[inline]
    pub fn update(&mut self, row: ContinuationRow, index: usize, bonus: i32) {
        if let Some(r) = row {
            let h = &mut self.table[r + index];
            let v = i32::from(*h);
            *h = (v + bonus - v * bonus.abs() / HISTORY_MAX) as i16;
        }
    }
}

/// Everything a quiet move's ordering score comes from at one node.
pub struct QuietStats<'a> {
    pub history: &'a History,
    pub continuation: &'a ContinuationHistory,
    /// Rows for the moves one and two plies back (`None`: null move or root).
    pub rows: [ContinuationRow; 2],
}

impl QuietStats<'_> {
    /// The ordering score of a quiet move with these two indices.
    #[inline]
    pub fn score(&self, history_index: usize, continuation_index: usize) -> i32 {
        self.history.get(history_index)
            + self.continuation.get(self.rows[0], continuation_index)
            + self.continuation.get(self.rows[1], continuation_index)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn history_stays_bounded() {
        let mut h = History::new(4);
        for _ in 0..10_000 {
            h.update(1, History::bonus(20));
        }
        assert!(h.get(1) <= HISTORY_MAX);
        for _ in 0..10_000 {
            h.update(1, -History::bonus(20));
        }
        assert!(h.get(1) >= -HISTORY_MAX);
    }

    #[test]
    fn continuation_rows_are_disjoint_and_bounded() {
        let mut c = ContinuationHistory::new(10);
        let rows = [c.row(1, 0, 3), c.row(1, 1, 3), c.row(2, 0, 3), c.row(2, 1, 3)];
        for _ in 0..10_000 {
            c.update(rows[0], 7, History::bonus(20));
        }
        assert!(c.get(rows[0], 7) <= HISTORY_MAX && c.get(rows[0], 7) > 0);
        for &r in &rows[1..] {
            assert_eq!(c.get(r, 7), 0);
        }
        assert_eq!(c.get(None, 7), 0);
        for _ in 0..10_000 {
            c.update(rows[0], 7, -History::bonus(20));
        }
        assert!(c.get(rows[0], 7) >= -HISTORY_MAX);
    }

    #[test]
    fn killers_keep_two_distinct() {
        let mut k = Killers::<u32>::new();
        k.update(3, 5);
        k.update(3, 5);
        k.update(3, 7);
        assert_eq!(k.get(3), [7, 5]);
    }
}
