//! Move-ordering memory gathered during search: killer moves per ply and the
//! butterfly-style history of quiet moves.

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

    pub fn clear(&mut self) {
        for s in &mut self.slots {
            *s = [M::default(); 2];
        }
    }
}

impl<M: Copy + Eq + Default> Default for Killers<M> {
    fn default() -> Self {
        Killers::new()
    }
}

/// How often a quiet move was good, indexed by the game's `history_index`.
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

    pub fn clear(&mut self) {
        self.table.iter_mut().for_each(|h| *h = 0);
    }

    /// Between searches: halve, keeping the shape but letting new evidence win.
    pub fn age(&mut self) {
        self.table.iter_mut().for_each(|h| *h /= 2);
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
    fn killers_keep_two_distinct() {
        let mut k = Killers::<u32>::new();
        k.update(3, 5);
        k.update(3, 5);
        k.update(3, 7);
        assert_eq!(k.get(3), [7, 5]);
    }
}
