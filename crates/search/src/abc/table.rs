//! ABC's position table: for a position, the moves its node kept and their keys,
//! so that an iteration does not compute again the quiescence values the last one
//! computed, and the value its search found, which ends a later search of the
//! same position where it allows no less (a table of bounds).
//!
//! The subtree below an ABC node depends on its ancestors only through each
//! side's conspiracy depth, so a node's value is kept with each side's
//! *budget*: its threshold less its conspiracy depth at the window's end where
//! that side's lines would stop (the side to move at β, the opponent at −α).
//! A budget is how much more conspiracy the side may spend below the node. A
//! later node may take the stored value where neither of its budgets is larger
//! (the stored search went at least as far for both sides) and the stored bound
//! settles its window.
//!
//! An entry is 24 words of 64 bits (three cache lines): a check word, the node's
//! word, then up to 22 moves, each `move (32 bits) | key (16) | 1 (bit 48) |
//! bound (bits 49-50)`, best key first, a zero word after the last. The node's
//! word is `value (16) | bound (16-17) | budget of the side to move (18-25) |
//! the opponent's (26-33) | generation (34-41) | value present (bit 42) | 1 (bit
//! 48)`; budgets are stored offset by 128. A key is a quiescence value computed
//! with the window its node had then, so it is kept with what it is, exact or a
//! bound, and a later node whose window the bound does not settle computes it
//! again. Values and keys are stored with mate distances counted from the node
//! (`to_tt`). The check word is the position's key XORed with every other word,
//! so an entry torn by two threads writing at once reads as a miss.
//!
//! Entries come in pairs: a position goes to the pair its key selects, into the
//! entry that already holds it, else the one worth less (one from an earlier
//! search, else the one with the smaller budgets). Shared by all threads
//! without locks.

use crate::searcher::AllocError;
use crate::tt::Bound;
use crate::value::Value;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering::Relaxed};
use table::ZeroedSlice;

/// The most moves an entry holds.
pub const MAX_MOVES: usize = 22;
const WORDS: usize = MAX_MOVES + 2;
const PRESENT: u64 = 1 << 48;
const HAS_VALUE: u64 = 1 << 42;

#[repr(align(64))]
struct Entry([AtomicU64; WORDS]);

// SAFETY: an entry is atomic integers only; all zero is an empty entry (a check
// word of 0 matches only key 0 with nothing in it, which reads as a miss).
unsafe impl table::Zeroable for Entry {}

pub struct PositionTable {
    entries: ZeroedSlice<Entry>,
    generation: AtomicU8,
}

/// A stored move: its code, its key, and what the key is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stored {
    pub code: u32,
    pub key: Value,
    pub bound: Bound,
}

/// A node's value as its search found it, with the budgets it had.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StoredValue {
    pub value: Value,
    pub bound: Bound,
    /// The side to move's budget and the opponent's (see the module's comment),
    /// each clamped to −128..=127.
    pub budgets: [i32; 2],
}

impl StoredValue {
    /// Whether a node with budgets `budgets` and window `(alpha, beta)` may take
    /// this value as its own: neither budget is larger than the stored one, and
    /// the bound decides the window as the exact value would.
    pub fn cuts(&self, budgets: [i32; 2], alpha: Value, beta: Value) -> bool {
        let clamped = budgets.map(clamp_budget);
        let deep_enough = clamped[0] <= self.budgets[0] && clamped[1] <= self.budgets[1];
        deep_enough && self.bound.settles(self.value, alpha, beta)
    }
}

fn clamp_budget(b: i32) -> i32 {
    b.clamp(-128, 127)
}

fn bound_bits(b: Bound) -> u64 {
    b as u64 & 3
}

fn bound_of(bits: u64) -> Bound {
    match bits & 3 {
        1 => Bound::Upper,
        2 => Bound::Lower,
        _ => Bound::Exact,
    }
}

fn pack(s: Stored) -> u64 {
    u64::from(s.code) | u64::from(s.key as i16 as u16) << 32 | PRESENT | bound_bits(s.bound) << 49
}

fn unpack(word: u64) -> Stored {
    let key = Value::from((word >> 32) as u16 as i16);
    Stored { code: word as u32, key, bound: bound_of(word >> 49) }
}

fn pack_node(value: Option<StoredValue>, generation: u8) -> u64 {
    let mut word = PRESENT | u64::from(generation) << 34;
    if let Some(v) = value {
        let budget = |b: i32| (clamp_budget(b) + 128) as u64;
        word |= u64::from(v.value as i16 as u16)
            | bound_bits(v.bound) << 16
            | budget(v.budgets[0]) << 18
            | budget(v.budgets[1]) << 26
            | HAS_VALUE;
    }
    word
}

fn unpack_node(word: u64) -> Option<StoredValue> {
    (word & HAS_VALUE != 0).then(|| StoredValue {
        value: Value::from(word as u16 as i16),
        bound: bound_of(word >> 16),
        budgets: [((word >> 18) & 0xff) as i32 - 128, ((word >> 26) & 0xff) as i32 - 128],
    })
}

fn generation_of(word: u64) -> u8 {
    (word >> 34) as u8
}

impl Entry {
    fn load(&self) -> [u64; WORDS] {
        let mut words = [0u64; WORDS];
        for (w, a) in words.iter_mut().zip(&self.0) {
            *w = a.load(Relaxed);
        }
        words
    }
}

/// Whether `words` hold position `key` whole.
fn holds(words: &[u64; WORDS], key: u64) -> bool {
    words[1] & PRESENT != 0 && words[0] == words[1..].iter().fold(key, |c, w| c ^ w)
}

impl PositionTable {
    /// A table of about `mb` MiB (at least one pair of entries), or an error when
    /// the memory cannot be had.
    pub fn try_new(mb: usize) -> Result<PositionTable, AllocError> {
        let bytes = mb.max(1).checked_mul(1024 * 1024).ok_or(AllocError { mb })?;
        let count = (bytes / std::mem::size_of::<Entry>() / 2).max(1) * 2;
        let entries =
            ZeroedSlice::try_new(count, std::mem::align_of::<Entry>()).ok_or(AllocError { mb })?;
        Ok(PositionTable { entries, generation: AtomicU8::new(0) })
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
        self.generation.store(0, Relaxed);
    }

    /// Called once per search: entries of earlier searches are replaced first.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Relaxed);
    }

    /// The pair of entries `key` may be in.
    fn pair(&self, key: u64) -> &[Entry] {
        let pairs = self.entries.len() / 2;
        let i = ((u128::from(key) * pairs as u128) >> 64) as usize;
        &self.entries.as_slice()[2 * i..2 * i + 2]
    }

    /// The entry of the pair holding `key`, with its words.
    fn find(&self, key: u64) -> Option<(&Entry, [u64; WORDS])> {
        self.pair(key).iter().map(|e| (e, e.load())).find(|(_, words)| holds(words, key))
    }

    /// What is stored for `key`: `None` when nothing is; else the node's value if
    /// one was stored, with the moves and keys appended to `out` (none where the
    /// node ended before keying its moves).
    pub fn probe(&self, key: u64, out: &mut Vec<Stored>) -> Option<Option<StoredValue>> {
        let (_, words) = self.find(key)?;
        for &w in &words[2..] {
            if w & PRESENT == 0 {
                break;
            }
            out.push(unpack(w));
        }
        Some(unpack_node(words[1]))
    }

    /// The node's value stored for `key`, if one is.
    pub fn probe_value(&self, key: u64) -> Option<StoredValue> {
        self.find(key).and_then(|(_, words)| unpack_node(words[1]))
    }

    /// Where `key` goes: the entry holding it, else the one worth less.
    fn slot(&self, key: u64) -> &Entry {
        if let Some((entry, _)) = self.find(key) {
            return entry;
        }
        let current = self.generation.load(Relaxed);
        let worth = |e: &Entry| {
            let node = e.0[1].load(Relaxed);
            let fresh = node & PRESENT != 0 && generation_of(node) == current;
            let budgets = unpack_node(node).map_or(-256, |v| v.budgets[0] + v.budgets[1]);
            (fresh, budgets)
        };
        let pair = self.pair(key);
        if worth(&pair[1]) < worth(&pair[0]) {
            &pair[1]
        } else {
            &pair[0]
        }
    }

    /// Stores the first `MAX_MOVES` of `moves` (best first) and the node's
    /// value for `key`, replacing what the entry held.
    pub fn store(&self, key: u64, value: Option<StoredValue>, moves: &[Stored]) {
        let entry = self.slot(key);
        let node = pack_node(value, self.generation.load(Relaxed));
        let mut check = key ^ node;
        entry.0[1].store(node, Relaxed);
        for i in 0..MAX_MOVES {
            let word = moves.get(i).map_or(0, |&m| pack(m));
            check ^= word;
            entry.0[i + 2].store(word, Relaxed);
        }
        entry.0[0].store(check, Relaxed);
    }

    /// Stores the node's value for `key`, keeping the moves and keys stored
    /// for it (none where nothing was).
    pub fn store_value(&self, key: u64, value: StoredValue) {
        let Some((entry, words)) = self.find(key) else {
            self.store(key, Some(value), &[]);
            return;
        };
        // Only the node's word changes; the check word follows it.
        let node = pack_node(Some(value), self.generation.load(Relaxed));
        entry.0[1].store(node, Relaxed);
        entry.0[0].store(words[0] ^ words[1] ^ node, Relaxed);
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

    const MOVE_7: Stored = Stored { code: 7, key: 300, bound: Bound::Lower };

    #[test]
    fn entries_are_three_cache_lines() {
        assert_eq!(std::mem::size_of::<Entry>(), 192);
    }

    #[test]
    fn stores_and_finds_moves_keys_and_values() {
        let t = PositionTable::try_new(1).unwrap();
        let mut out = Vec::new();
        assert_eq!(t.probe(42, &mut out), None);
        let stored = [
            MOVE_7,
            Stored { code: 9, key: -32000, bound: Bound::Exact },
            Stored { code: 1, key: 0, bound: Bound::Upper },
            Stored { code: 4, key: -50, bound: Bound::Lower },
        ];
        t.store(42, None, &stored);
        assert_eq!(t.probe(42, &mut out), Some(None));
        assert_eq!(out, stored);
        let value = StoredValue { value: -31990, bound: Bound::Upper, budgets: [-3, 200] };
        t.store_value(42, value);
        out.clear();
        let clamped = StoredValue { budgets: [-3, 127], ..value };
        assert_eq!(t.probe(42, &mut out), Some(Some(clamped)));
        assert_eq!(out, stored, "the moves stay with a value stored alone");
        // Another key: a miss.
        out.clear();
        assert_eq!(t.probe(43, &mut out), None);
        // More than MAX_MOVES: the best are kept.
        let many: Vec<Stored> = (0..30)
            .map(|i| Stored { code: i + 1, key: 100 - i as Value, bound: Bound::Exact })
            .collect();
        t.store(5, None, &many);
        out.clear();
        assert!(t.probe(5, &mut out).is_some());
        assert_eq!(out.len(), MAX_MOVES);
        assert_eq!(out[0], Stored { code: 1, key: 100, bound: Bound::Exact });
    }

    #[test]
    fn a_pair_keeps_two_positions_and_replaces_the_one_worth_less() {
        let t = PositionTable::try_new(1).unwrap();
        // Small keys all select the first pair.
        assert!(std::ptr::eq(t.pair(1), t.pair(2)));
        let deep = StoredValue { value: 10, bound: Bound::Exact, budgets: [5, 5] };
        let shallow = StoredValue { budgets: [1, 2], ..deep };
        t.store(1, Some(deep), &[MOVE_7]);
        t.store(2, Some(shallow), &[MOVE_7]);
        assert!(t.probe(1, &mut Vec::new()).is_some());
        assert!(t.probe(2, &mut Vec::new()).is_some());
        // A third position replaces the shallower.
        t.store(3, None, &[MOVE_7]);
        assert_eq!(t.probe(1, &mut Vec::new()), Some(Some(deep)));
        assert_eq!(t.probe(2, &mut Vec::new()), None);
        // After a new search, an entry of the old one goes first, however deep.
        t.new_search();
        t.store(3, Some(shallow), &[MOVE_7]);
        t.store(4, None, &[MOVE_7]);
        assert_eq!(t.probe(1, &mut Vec::new()), None);
        assert_eq!(t.probe(3, &mut Vec::new()), Some(Some(shallow)));
        assert!(t.probe(4, &mut Vec::new()).is_some());
    }

    /// A stored value serves a node whose budgets are no larger on both sides
    /// and whose window its bound settles; worked by hand.
    #[test]
    fn a_value_cuts_exactly_where_both_budgets_allow_it() {
        let lower = StoredValue { value: 150, bound: Bound::Lower, budgets: [4, 2] };
        // Same budgets, window below the bound: a cut.
        assert!(lower.cuts([4, 2], 0, 100));
        assert!(lower.cuts([4, 2], 0, 150));
        // Smaller budgets: the stored search went further; a cut.
        assert!(lower.cuts([3, -1], 0, 100));
        // Either budget larger: no cut.
        assert!(!lower.cuts([5, 2], 0, 100));
        assert!(!lower.cuts([4, 3], 0, 100));
        // A window the lower bound does not settle: no cut.
        assert!(!lower.cuts([4, 2], 0, 200));
        let upper = StoredValue { value: -20, bound: Bound::Upper, ..lower };
        assert!(upper.cuts([1, 1], -20, 50));
        assert!(!upper.cuts([1, 1], -30, 50));
        let exact = StoredValue { value: 75, bound: Bound::Exact, ..lower };
        assert!(exact.cuts([4, 2], 100, 200));
        assert!(!exact.cuts([4, 3], 100, 200));
        // Budgets beyond what an entry holds compare as clamped.
        let far = StoredValue { budgets: [127, 127], ..exact };
        assert!(far.cuts([400, 127], 0, 1));
    }

    #[test]
    fn a_torn_entry_reads_as_a_miss() {
        let t = PositionTable::try_new(1).unwrap();
        t.store(
            77,
            None,
            &[
                Stored { code: 3, key: 10, bound: Bound::Exact },
                Stored { code: 4, key: 20, bound: Bound::Exact },
            ],
        );
        // A second writer got as far as one move word.
        let (entry, _) = t.find(77).unwrap();
        entry.0[3].store(pack(Stored { code: 5, key: 50, bound: Bound::Exact }), Relaxed);
        assert_eq!(t.probe(77, &mut Vec::new()), None);
    }

    #[test]
    fn an_empty_entry_is_a_miss() {
        let t = PositionTable::try_new(1).unwrap();
        assert_eq!(t.probe(0, &mut Vec::new()), None);
    }
}
