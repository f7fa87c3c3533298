//! The transposition table, shared by all search threads without locks.
//!
//! Each entry is two 64-bit words: the data, and the key XORed with the data. A
//! reader accepts an entry only when both words agree with its key, so an entry torn
//! by two threads writing at once reads as a miss, never as a wrong hit.
//!
//! Data layout: move (32 bits) | value (16) | depth (8, offset by `DEPTH_OFFSET`) |
//! bound (2) | generation (6). Four entries make a 64-byte bucket; a new entry
//! replaces the same key, else the entry that is shallowest after an aging penalty.

use crate::value::Value;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering::Relaxed};
use table::ZeroedSlice;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true value is at most the stored value (every move failed low).
    Upper = 1,
    /// The true value is at least the stored value (a move failed high).
    Lower = 2,
    Exact = 3,
}

impl Bound {
    /// What a node's value `best` is, searched with window (`alpha`, `beta`):
    /// at least itself when it reached beta, exact when it rose above alpha at a
    /// node searched with an open window (`exact_possible`), at most itself
    /// otherwise.
    #[inline]
    pub fn of(best: Value, alpha: Value, beta: Value, exact_possible: bool) -> Bound {
        if best >= beta {
            Bound::Lower
        } else if exact_possible && best > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }

    /// Whether `value`, a value of this kind, decides a node of window
    /// (`alpha`, `beta`) as the exact value would: exact, a lower bound at or
    /// above beta, an upper bound at or below alpha.
    #[inline]
    pub fn settles(self, value: Value, alpha: Value, beta: Value) -> bool {
        match self {
            Bound::Exact => true,
            Bound::Lower => value >= beta,
            Bound::Upper => value <= alpha,
        }
    }
}

/// What a probe found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtEntry {
    pub mv: u32,
    /// As stored: mate values relative to the node (see `value::from_tt`).
    pub value: Value,
    pub depth: i32,
    pub bound: Bound,
}

const DEPTH_OFFSET: i32 = 16;
const BUCKET: usize = 4;
const GENERATIONS: u8 = 64;

#[derive(Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

#[repr(align(64))]
#[derive(Default)]
struct Bucket([Slot; BUCKET]);

// SAFETY: a bucket is atomic integers only; all zero is the empty bucket.
unsafe impl table::Zeroable for Bucket {}

/// Buckets in zeroed memory (see the `table` crate: made in no time, fallibly).
fn zeroed_buckets(count: usize) -> Option<ZeroedSlice<Bucket>> {
    ZeroedSlice::try_new(count, std::mem::align_of::<Bucket>())
}

pub struct TranspositionTable {
    buckets: ZeroedSlice<Bucket>,
    generation: AtomicU8,
}

fn pack(mv: u32, value: Value, depth: i32, bound: Bound, generation: u8) -> u64 {
    let depth = (depth + DEPTH_OFFSET).clamp(0, 255) as u64;
    u64::from(mv)
        | (u64::from(value as i16 as u16)) << 32
        | depth << 48
        | (bound as u64) << 56
        | u64::from(generation & (GENERATIONS - 1)) << 58
}

fn unpack(data: u64) -> Option<(TtEntry, u8)> {
    let bound = match (data >> 56) & 3 {
        1 => Bound::Upper,
        2 => Bound::Lower,
        3 => Bound::Exact,
        _ => return None,
    };
    Some((
        TtEntry {
            mv: data as u32,
            value: Value::from((data >> 32) as u16 as i16),
            depth: ((data >> 48) & 0xff) as i32 - DEPTH_OFFSET,
            bound,
        },
        (data >> 58) as u8,
    ))
}

/// A table the memory could not be found for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AllocError {
    pub mb: usize,
}

impl std::fmt::Display for AllocError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cannot allocate a table of {} MiB", self.mb)
    }
}

impl std::error::Error for AllocError {}

impl TranspositionTable {
    /// A table of about `mb` megabytes (at least one bucket).
    ///
    /// # Panics
    /// When the memory cannot be had; see [`TranspositionTable::try_new`].
    pub fn new(mb: usize) -> TranspositionTable {
        TranspositionTable::try_new(mb).unwrap_or_else(|e| panic!("{e}"))
    }

    /// A table of about `mb` megabytes (at least one bucket), or an error when the
    /// memory cannot be had (a user-sized table must not abort the process).
    pub fn try_new(mb: usize) -> Result<TranspositionTable, AllocError> {
        let bytes = mb.max(1).checked_mul(1024 * 1024).ok_or(AllocError { mb })?;
        let count = (bytes / std::mem::size_of::<Bucket>()).max(1);
        let buckets = zeroed_buckets(count).ok_or(AllocError { mb })?;
        Ok(TranspositionTable { buckets, generation: AtomicU8::new(0) })
    }

    /// Writes one word of every page, so that the search does not wait for the
    /// system to hand them out (done at `isready`, where GUIs wait).
    pub fn touch_pages(&self) {
        let step = (4096 / std::mem::size_of::<Bucket>()).max(1);
        for b in self.buckets.as_slice().iter().step_by(step) {
            b.0[0].check.store(0, Relaxed);
        }
    }

    pub fn size_mb(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<Bucket>() / (1024 * 1024)
    }

    /// Empties the table. Fresh zeroed memory replaces the old (so that clearing a
    /// large table at `usinewgame` does not hold up the game's first move); where
    /// none can be had beside the old, the old buckets are emptied one by one.
    pub fn clear(&mut self) {
        match zeroed_buckets(self.buckets.len()) {
            Some(fresh) => self.buckets = fresh,
            None => self.buckets.as_mut_slice().fill_with(Bucket::default),
        }
        self.generation.store(0, Relaxed);
    }

    /// Called once per search: older entries become cheaper to replace.
    pub fn new_search(&self) {
        let g = self.generation.load(Relaxed);
        self.generation.store((g + 1) % GENERATIONS, Relaxed);
    }

    #[inline]
    fn bucket(&self, key: u64) -> &Bucket {
        let i = ((u128::from(key) * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets.as_slice()[i]
    }

    /// Starts loading `key`'s bucket into the cache: called as soon as a move is made,
    /// the probe at the child node then finds it there instead of waiting on memory.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let address = (self.bucket(key) as *const Bucket).cast::<i8>();
            // SAFETY: SSE is part of every x86_64 target, and a prefetch is only a
            // hint: it reads nothing the program sees, never faults and changes no
            // memory, whatever the address (here a live bucket).
            unsafe { _mm_prefetch::<_MM_HINT_T0>(address) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    pub fn probe(&self, key: u64) -> Option<TtEntry> {
        for slot in &self.bucket(key).0 {
            let data = slot.data.load(Relaxed);
            if slot.check.load(Relaxed) ^ data == key {
                return unpack(data).map(|(e, _)| e);
            }
        }
        None
    }

    /// Stores a result. A move of 0 keeps the move already stored for this key.
    pub fn store(&self, key: u64, mv: u32, value: Value, depth: i32, bound: Bound) {
        let generation = self.generation.load(Relaxed);
        let bucket = self.bucket(key);
        let mut victim = &bucket.0[0];
        let mut victim_worth = i32::MAX;
        for slot in &bucket.0 {
            let data = slot.data.load(Relaxed);
            let stored = unpack(data);
            if slot.check.load(Relaxed) ^ data == key {
                if let Some((old, _)) = stored {
                    // Keep a deeper non-exact result for the same position.
                    if bound != Bound::Exact && old.depth > depth + 3 && old.bound == bound {
                        return;
                    }
                    let mv = if mv == 0 { old.mv } else { mv };
                    let data = pack(mv, value, depth, bound, generation);
                    slot.data.store(data, Relaxed);
                    slot.check.store(key ^ data, Relaxed);
                    return;
                }
            }
            let worth = match stored {
                None => i32::MIN,
                Some((e, g)) => {
                    let age = i32::from(generation.wrapping_sub(g) & (GENERATIONS - 1));
                    e.depth - 8 * age
                }
            };
            if worth < victim_worth {
                victim_worth = worth;
                victim = slot;
            }
        }
        let data = pack(mv, value, depth, bound, generation);
        victim.data.store(data, Relaxed);
        victim.check.store(key ^ data, Relaxed);
    }

    /// Per-mille of a sample of entries written in the current search (USI `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation.load(Relaxed) & (GENERATIONS - 1);
        let sample = self.buckets.len().min(250);
        let mut used = 0;
        for b in &self.buckets.as_slice()[..sample] {
            for slot in &b.0 {
                if let Some((_, g)) = unpack(slot.data.load(Relaxed)) {
                    if g == generation {
                        used += 1;
                    }
                }
            }
        }
        (used * 1000 / (sample * BUCKET).max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// **Regression pin** of the layout in the module doc: a bucket is one cache
    /// line of four entries, and each field keeps its bits. Changing the layout
    /// updates this test deliberately.
    #[test]
    fn regression_pin_entry_layout() {
        assert_eq!(std::mem::size_of::<Bucket>(), 64);
        assert_eq!(std::mem::align_of::<Bucket>(), 64);
        let data = pack(0xdead_beef, -2, 5, Bound::Lower, 3);
        assert_eq!(data & 0xffff_ffff, 0xdead_beef);
        assert_eq!((data >> 32) & 0xffff, 0xfffe);
        assert_eq!((data >> 48) & 0xff, (5 + DEPTH_OFFSET) as u64);
        assert_eq!((data >> 56) & 3, Bound::Lower as u64);
        assert_eq!(data >> 58, 3);
        let (e, generation) = unpack(data).expect("a bound is set");
        assert_eq!(
            (e.mv, e.value, e.depth, e.bound, generation),
            (0xdead_beef, -2, 5, Bound::Lower, 3)
        );
    }

    #[test]
    fn a_table_too_large_for_memory_is_an_error() {
        assert_eq!(
            TranspositionTable::try_new(usize::MAX / 2).err(),
            Some(AllocError { mb: usize::MAX / 2 })
        );
        // Larger than any machine's address space but not overflowing the size.
        let mb = 1usize << 40;
        assert!(TranspositionTable::try_new(mb).is_err());
    }

    #[test]
    fn zeroed_memory_is_an_empty_table_and_clear_empties_it() {
        let mut tt = TranspositionTable::try_new(2).unwrap();
        assert_eq!(tt.size_mb(), 2);
        for k in 0..1000u64 {
            assert_eq!(tt.probe(k.wrapping_mul(0x9E37_79B9_7F4A_7C15)), None);
        }
        tt.store(12345, 77, -321, 9, Bound::Lower);
        tt.clear();
        assert_eq!(tt.size_mb(), 2);
        assert_eq!(tt.probe(12345), None);
        assert_eq!(tt.hashfull(), 0);
    }

    #[test]
    fn stores_and_finds() {
        let tt = TranspositionTable::new(1);
        assert_eq!(tt.probe(12345), None);
        tt.store(12345, 77, -321, 9, Bound::Lower);
        let e = tt.probe(12345).unwrap();
        assert_eq!((e.mv, e.value, e.depth, e.bound), (77, -321, 9, Bound::Lower));
        // A move of 0 keeps the stored move.
        tt.store(12345, 0, 5, 10, Bound::Exact);
        assert_eq!(tt.probe(12345).unwrap().mv, 77);
        // Negative (quiescence) depths survive packing.
        tt.store(999, 1, 31000, -3, Bound::Upper);
        assert_eq!(tt.probe(999).unwrap().depth, -3);
        assert_eq!(tt.probe(999).unwrap().value, 31000);
    }

    #[test]
    fn prefetching_changes_nothing() {
        let tt = TranspositionTable::new(1);
        tt.store(12345, 77, -321, 9, Bound::Lower);
        // Every bucket, the extreme keys included (the first and the last bucket).
        for key in [0, 1, 12345, u64::MAX].into_iter().chain((0..4096).map(|i| i << 52)) {
            tt.prefetch(key);
        }
        assert_eq!(tt.probe(12345).map(|e| e.mv), Some(77));
        assert_eq!(tt.probe(0), None);
    }

    #[test]
    fn deep_entries_survive_shallow_ones_of_the_same_key() {
        let tt = TranspositionTable::new(1);
        tt.store(42, 3, 100, 12, Bound::Lower);
        tt.store(42, 4, 50, 2, Bound::Lower);
        assert_eq!(tt.probe(42).unwrap().depth, 12);
    }

    #[test]
    fn hashfull_counts_this_generation_only() {
        let tt = TranspositionTable::new(1);
        assert_eq!(tt.hashfull(), 0);
        for k in 1..200_000u64 {
            tt.store(k.wrapping_mul(0x9E37_79B9_7F4A_7C15), 1, 0, 1, Bound::Exact);
        }
        assert!(tt.hashfull() > 900, "{}", tt.hashfull());
        tt.new_search();
        assert_eq!(tt.hashfull(), 0);
    }

    #[test]
    fn old_generations_are_replaced_first() {
        let tt = TranspositionTable::new(1);
        // Fill one bucket: the keys must map to the same bucket, so reuse the top bits.
        let base = 0xABCD_0000_0000_0000u64;
        for i in 0..4 {
            tt.store(base + i, 1, 0, 20, Bound::Exact);
        }
        tt.new_search();
        tt.new_search();
        tt.new_search();
        tt.store(base + 10, 1, 0, 1, Bound::Exact);
        assert!(tt.probe(base + 10).is_some());
    }
}
