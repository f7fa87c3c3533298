//! Correction history: how far the static value has been from what searches
//! below it found, remembered by features of the position the evaluation reads
//! badly (the game chooses them: see [`Game::correction_keys`]), and added back
//! to the static value where the same features meet again. Pruning that trusts
//! the static value (futility, null move, improving) then trusts a truer one.
//!
//! [`Game::correction_keys`]: crate::game::Game::correction_keys

use crate::value::{Value, MATE_IN_MAX_PLY};

/// Keys a position gives: one entry is read and learnt per feature.
pub const FEATURES: usize = 3;
/// Entries per feature (a power of two: a key's low bits choose its entry).
const ENTRIES: usize = 1 << 14;
/// An entry holds the value's error in 1/GRAIN of a value unit.
const GRAIN: i32 = 8;
/// Entries stay within ±LIMIT; a step moves at most a quarter of that.
const LIMIT: i32 = 1024;

/// The learnt errors of each feature, for one search thread.
pub struct CorrectionHistory {
    table: Vec<i16>,
}

impl Default for CorrectionHistory {
    fn default() -> Self {
        CorrectionHistory { table: vec![0; FEATURES * ENTRIES] }
    }
}

#[inline]
fn slot(feature: usize, key: u64) -> usize {
    feature * ENTRIES + (key as usize & (ENTRIES - 1))
}

impl CorrectionHistory {
    /// What to add to a static value of a position with these keys, at `weight`
    /// per cent: the sum of the features' entries, in value units, halved.
    pub fn correction(&self, keys: &[u64; FEATURES], weight: i32) -> Value {
        let sum: i32 = (0..FEATURES).map(|f| i32::from(self.table[slot(f, keys[f])])).sum();
        sum * weight / (100 * GRAIN * 2)
    }

    /// The static value `eval` corrected, kept off the mate values.
    pub fn corrected(&self, eval: Value, keys: &[u64; FEATURES], weight: i32) -> Value {
        let bound = MATE_IN_MAX_PLY - 1;
        (eval + self.correction(keys, weight)).clamp(-bound, bound)
    }

    /// Learns that a search `depth` plies deep found `searched` where the
    /// (corrected) static value said `eval`: each feature's entry moves towards
    /// the error by a step that grows with depth, and less the nearer the entry
    /// already is to the limit on the step's side.
    pub fn learn(&mut self, keys: &[u64; FEATURES], searched: Value, eval: Value, depth: i32) {
        let step = ((searched - eval) * GRAIN * depth / 8).clamp(-LIMIT / 4, LIMIT / 4);
        for (f, &key) in keys.iter().enumerate() {
            let entry = &mut self.table[slot(f, key)];
            let old = i32::from(*entry);
            let new = old + step - old * step.abs() / LIMIT;
            *entry = new.clamp(-LIMIT, LIMIT) as i16;
        }
    }

    /// Whether the table has the size this build's features give (a kept one
    /// always does; the test mirrors the histories').
    pub fn is_whole(&self) -> bool {
        self.table.len() == FEATURES * ENTRIES
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEYS: [u64; FEATURES] = [1, 2, 3];

    #[test]
    fn a_fresh_table_corrects_nothing() {
        let c = CorrectionHistory::default();
        assert_eq!(c.correction(&KEYS, 100), 0);
        assert_eq!(c.corrected(57, &KEYS, 100), 57);
    }

    #[test]
    fn one_step_learns_a_share_of_the_error_per_feature() {
        let mut c = CorrectionHistory::default();
        // Error 10 at depth 8: each entry steps 10 × 8 × 8 / 8 = 80 grains
        // (10 units); three features, halved: 3 × 80 / (8 × 2) = 15.
        c.learn(&KEYS, 110, 100, 8);
        assert_eq!(c.correction(&KEYS, 100), 15);
        assert_eq!(c.correction(&KEYS, 0), 0, "weight 0 turns it off");
        assert_eq!(c.correction(&KEYS, 200), 30);
        assert_eq!(c.correction(&[9, 9, 9], 100), 0, "other keys are other entries");
    }

    #[test]
    fn steps_are_bounded_and_entries_stay_within_the_limit() {
        let mut c = CorrectionHistory::default();
        c.learn(&KEYS, 10_000, 0, 60);
        // One step is a quarter of the limit: 256 grains an entry.
        assert_eq!(c.correction(&KEYS, 100), 3 * 256 / 16);
        for _ in 0..1000 {
            c.learn(&KEYS, 10_000, 0, 60);
        }
        assert_eq!(c.correction(&KEYS, 100), 3 * LIMIT / 16);
        for _ in 0..1000 {
            c.learn(&KEYS, -10_000, 0, 60);
        }
        assert_eq!(c.correction(&KEYS, 100), -3 * LIMIT / 16);
    }

    #[test]
    fn the_corrected_value_stays_off_the_mate_values() {
        let mut c = CorrectionHistory::default();
        for _ in 0..100 {
            c.learn(&KEYS, 10_000, 0, 60);
        }
        assert_eq!(c.corrected(MATE_IN_MAX_PLY - 5, &KEYS, 300), MATE_IN_MAX_PLY - 1);
        assert!(c.is_whole());
    }
}
