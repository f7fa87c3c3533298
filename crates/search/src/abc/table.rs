//! ABC's position table: for a position, the moves its node kept and their keys,
//! so that an iteration does not compute again the quiescence values the last one
//! computed. It never ends a search (it is not a cutoff table).
//!
//! An entry is 24 words of 64 bits (three cache lines): a check word, then up to 23
//! moves, each `move (32 bits) | key (16) | 1 (bit 48) | bound (bits 49-50)`,
//! best key first, a zero word after the last. A key is a quiescence value computed with the window its node had then, so it is
//! kept with what it is, exact or a bound, and a later node whose window the
//! bound does not settle computes it again. The check word is the position's key
//! XORed with every move word, so an entry torn by two threads writing at once
//! reads as a miss. Shared by all threads without locks; one entry per position
//! slot, the newest kept.

use crate::searcher::AllocError;
use crate::tt::Bound;
use crate::value::Value;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use table::ZeroedSlice;

/// The most moves an entry holds.
pub const MAX_MOVES: usize = 23;
const WORDS: usize = MAX_MOVES + 1;
const PRESENT: u64 = 1 << 48;

#[repr(align(64))]
struct Entry([AtomicU64; WORDS]);

// SAFETY: an entry is atomic integers only; all zero is an empty entry (a check
// word of 0 matches only key 0 with no moves, which reads as a miss).
unsafe impl table::Zeroable for Entry {}

pub struct PositionTable {
    entries: ZeroedSlice<Entry>,
}

/// A stored move: its code, its key, and what the key is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stored {
    pub code: u32,
    pub key: Value,
    pub bound: Bound,
}

fn pack(s: Stored) -> u64 {
    u64::from(s.code) | u64::from(s.key as i16 as u16) << 32 | PRESENT | (s.bound as u64) << 49
}

fn unpack(word: u64) -> Stored {
    let bound = match (word >> 49) & 3 {
        1 => Bound::Upper,
        2 => Bound::Lower,
        _ => Bound::Exact,
    };
    let key = Value::from((word >> 32) as u16 as i16);
    Stored { code: word as u32, key, bound }
}

impl PositionTable {
    /// A table of about `mb` MiB (at least one entry), or an error when the memory
    /// cannot be had.
    pub fn try_new(mb: usize) -> Result<PositionTable, AllocError> {
        let bytes = mb.max(1).checked_mul(1024 * 1024).ok_or(AllocError { mb })?;
        let count = (bytes / std::mem::size_of::<Entry>()).max(1);
        let entries =
            ZeroedSlice::try_new(count, std::mem::align_of::<Entry>()).ok_or(AllocError { mb })?;
        Ok(PositionTable { entries })
    }

    /// Writes one word of every page now rather than during the search.
    pub fn touch_pages(&self) {
        let step = (4096 / std::mem::size_of::<Entry>()).max(1);
        for e in self.entries.as_slice().iter().step_by(step) {
            e.0[0].store(0, Relaxed);
        }
    }

    pub fn clear(&mut self) {
        if let Some(fresh) = ZeroedSlice::try_new(self.entries.len(), 64) {
            self.entries = fresh;
        } else {
            for e in self.entries.as_mut_slice() {
                e.0.iter().for_each(|w| w.store(0, Relaxed));
            }
        }
    }

    fn entry(&self, key: u64) -> &Entry {
        let i = ((u128::from(key) * self.entries.len() as u128) >> 64) as usize;
        &self.entries.as_slice()[i]
    }

    /// The moves and keys stored for `key` (appended to `out`), or `false` when
    /// there are none.
    pub fn probe(&self, key: u64, out: &mut Vec<Stored>) -> bool {
        let entry = self.entry(key);
        let mut words = [0u64; WORDS];
        for (w, a) in words.iter_mut().zip(&entry.0) {
            *w = a.load(Relaxed);
        }
        let check = words[1..].iter().fold(key, |c, w| c ^ w);
        if words[0] != check || words[1] & PRESENT == 0 {
            return false;
        }
        let start = out.len();
        for &w in &words[1..] {
            if w & PRESENT == 0 {
                break;
            }
            out.push(unpack(w));
        }
        out.len() > start
    }

    /// Stores the first `MAX_MOVES` of `moves` (best first) for `key`, replacing
    /// what the slot held.
    pub fn store(&self, key: u64, moves: &[Stored]) {
        let entry = self.entry(key);
        let mut check = key;
        for i in 0..MAX_MOVES {
            let word = moves.get(i).map_or(0, |&m| pack(m));
            check ^= word;
            entry.0[i + 1].store(word, Relaxed);
        }
        entry.0[0].store(check, Relaxed);
    }

    /// Permille of the first thousand entries in use.
    pub fn hashfull(&self) -> u32 {
        let sample = &self.entries.as_slice()[..self.entries.len().min(1000)];
        let used = sample.iter().filter(|e| e.0[1].load(Relaxed) != 0).count();
        (used * 1000 / sample.len().max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_are_three_cache_lines() {
        assert_eq!(std::mem::size_of::<Entry>(), 192);
    }

    #[test]
    fn stores_and_finds_moves_and_keys() {
        let t = PositionTable::try_new(1).unwrap();
        let mut out = Vec::new();
        assert!(!t.probe(42, &mut out));
        let stored = [
            Stored { code: 7, key: 300, bound: Bound::Lower },
            Stored { code: 9, key: -32000, bound: Bound::Exact },
            Stored { code: 1, key: 0, bound: Bound::Upper },
            Stored { code: 4, key: -50, bound: Bound::Lower },
        ];
        t.store(42, &stored);
        assert!(t.probe(42, &mut out));
        assert_eq!(out, stored);
        // Another key in the same slot (small keys all map to the first) is a miss.
        assert!(std::ptr::eq(t.entry(43), t.entry(42)));
        out.clear();
        assert!(!t.probe(43, &mut out));
        // More than MAX_MOVES: the best are kept.
        let many: Vec<Stored> = (0..30)
            .map(|i| Stored { code: i + 1, key: 100 - i as Value, bound: Bound::Exact })
            .collect();
        t.store(5, &many);
        out.clear();
        assert!(t.probe(5, &mut out));
        assert_eq!(out.len(), MAX_MOVES);
        assert_eq!(out[0], Stored { code: 1, key: 100, bound: Bound::Exact });
    }

    #[test]
    fn a_torn_entry_reads_as_a_miss() {
        let t = PositionTable::try_new(1).unwrap();
        t.store(
            77,
            &[
                Stored { code: 3, key: 10, bound: Bound::Exact },
                Stored { code: 4, key: 20, bound: Bound::Exact },
            ],
        );
        // A second writer got as far as one move word.
        t.entry(77).0[2].store(pack(Stored { code: 5, key: 50, bound: Bound::Exact }), Relaxed);
        assert!(!t.probe(77, &mut Vec::new()));
    }

    #[test]
    fn no_moves_is_a_miss() {
        let t = PositionTable::try_new(1).unwrap();
        t.store(0, &[]);
        assert!(!t.probe(0, &mut Vec::new()));
    }
}
