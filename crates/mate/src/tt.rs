//! The transposition table: a fixed number of clusters, allocated once at the size
//! the caller asks for and never grown.
//!
//! Entries are keyed by the board key (board and side to move) and remember the
//! attacker's hand separately, so that one probe sees every hand stored for the
//! same board and can apply hand superiority:
//! - a proof with attacker hand `H` holds for any hand that has at least `H`
//!   (more pieces for the attacker means fewer for the defender);
//! - a disproof with hand `H` holds for any hand that has at most `H`.
//!
//! All hands of one board land in the same cluster (the index comes from the board
//! key alone). Replacement when a cluster is full: the entry with the least work
//! (nodes searched below it) goes; entries from an earlier search (older
//! generation) count as empty. A new proof or disproof also frees the entries of
//! the same board that it makes redundant.
//!
//! Layout: 32-byte entries, four to a 128-byte cluster (two cache lines), in one
//! zeroed allocation aligned to 2 MiB and advised for huge pages on Linux (random
//! probes into a large table otherwise miss the TLB as well as the cache). The
//! search prefetches the clusters of all children of a node before probing them.
//! Proof and disproof numbers are stored in 32 bits, saturating.
//!
//! Results that depend on the search depth are stored with it: a proof with its
//! length (valid when at least that many plies remain) and a disproof with the
//! depth below which it holds (`disproved_below`; `u16::MAX`: at any depth).

use crate::pn::Pn;
use shogi::Hand;

/// `proof_len` of an entry that holds no proof.
pub const NO_PROOF: u16 = u16::MAX;
/// `disproved_below` of an unconditional disproof.
pub const ALWAYS: u16 = u16::MAX;
/// Entries per cluster.
const CLUSTER: usize = 4;

/// 32 bytes: proof and disproof numbers are kept in 32 bits (saturating; the
/// largest value reads back as infinity), which is plenty for estimates; proofs and
/// disproofs themselves live in `proof_len` and `disproved_below`.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C)]
struct Entry {
    board_key: u64,
    /// The attacker's hand.
    hand: Hand,
    pn: u32,
    dn: u32,
    /// Nodes searched below this entry (saturating); 0 marks an empty slot.
    work: u32,
    /// Length of the shortest proof known; `NO_PROOF` if none.
    proof_len: u16,
    /// Disproved for any remaining depth below this; 0 if not disproved.
    disproved_below: u16,
    generation: u16,
    _pad: u16,
}

/// What a search learnt about a node, to be stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Record {
    Unknown { pn: Pn, dn: Pn },
    Proven { len: u16 },
    Disproven { below: u16 },
}

/// What the table knows about a node at a given remaining depth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Probe {
    /// Mate within `len` plies (`len` fits the remaining depth); `hand` is the
    /// proof hand stored (at most the hand probed).
    Proven { len: u16, hand: Hand },
    /// No mate within the remaining depth; `below` as in `Record::Disproven`;
    /// `hand` is the disproof hand stored (at least the hand probed).
    Disproven { below: u16, hand: Hand },
    /// Estimates for this exact hand, or bounds borrowed from other hands;
    /// `longer`: the shortest proof stored that is too long for the remaining
    /// depth (`NO_PROOF` if none).
    Unknown { pn: Pn, dn: Pn, longer: u16 },
    /// Nothing stored for this board and hand, nor for a hand a proof or
    /// disproof of which would bound it.
    Missing,
}

/// A pn or dn as stored: 32 bits, saturating.
#[inline(always)]
fn pack(x: Pn) -> u32 {
    x.min(u32::MAX as Pn) as u32
}

/// A stored pn or dn read back; the saturated value is infinity.
#[inline(always)]
fn unpack(x: u32) -> Pn {
    if x == u32::MAX {
        crate::pn::INF
    } else {
        x as Pn
    }
}

/// One cluster: 128 bytes, aligned to two cache lines.
#[derive(Clone, Copy, Default)]
#[repr(C, align(128))]
struct Cluster([Entry; CLUSTER]);

// SAFETY: a cluster is plain integers; all zero is the empty cluster.
unsafe impl table::Zeroable for Cluster {}

/// The clusters, in zeroed memory made in no time and fallibly (see the `table`
/// crate), aligned to 2 MiB when large, so that Linux can back large tables with
/// huge pages (fewer TLB misses on random probes).
struct Storage {
    clusters: table::ZeroedSlice<Cluster>,
    len: usize,
}

const HUGE_PAGE: usize = 2 << 20;

impl Storage {
    /// `len` (at least 1) empty clusters, or `None` when the memory cannot be had.
    /// `touch`: the memory is written now (the time it takes is spent here, not
    /// in the search) and then advised for huge pages; otherwise its pages come
    /// as the search reaches them, without the advice (on Linux, huge pages
    /// faulted in mid-search were seen to stall it for tenths of a second).
    fn try_new(len: usize, touch: bool) -> Option<Storage> {
        let len = len.max(1);
        let bytes = len.checked_mul(std::mem::size_of::<Cluster>())?;
        let align = if bytes >= HUGE_PAGE { HUGE_PAGE } else { std::mem::align_of::<Cluster>() };
        let clusters = if touch {
            let clusters = table::ZeroedSlice::try_new_written(len, align)?;
            advise_huge_pages(clusters.as_ptr() as *mut u8, bytes);
            clusters
        } else {
            table::ZeroedSlice::try_new(len, align)?
        };
        Some(Storage { clusters, len })
    }

    #[inline(always)]
    fn as_slice(&self) -> &[Cluster] {
        self.clusters.as_slice()
    }

    #[inline(always)]
    fn as_mut_slice(&mut self) -> &mut [Cluster] {
        self.clusters.as_mut_slice()
    }
}

#[cfg(target_os = "linux")]
fn advise_huge_pages(ptr: *mut u8, bytes: usize) {
    extern "C" {
        fn madvise(addr: *mut std::ffi::c_void, len: usize, advice: i32) -> i32;
    }
    const MADV_HUGEPAGE: i32 = 14;
    if bytes >= HUGE_PAGE {
        // SAFETY: the range is one allocation of ours; the advice is only a hint
        // and its failure is harmless.
        unsafe {
            madvise(ptr as *mut std::ffi::c_void, bytes, MADV_HUGEPAGE);
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_: *mut u8, _: usize) {}

pub struct Table {
    clusters: Storage,
    generation: u16,
}

impl Table {
    /// A table of `mb` mebibytes (at least one cluster).
    ///
    /// # Panics
    /// When the memory cannot be had; see [`Table::try_new`].
    pub fn new(mb: usize) -> Table {
        Table::try_new(mb).unwrap_or_else(|| panic!("cannot allocate a table of {mb} MiB"))
    }

    /// A table of `mb` mebibytes (at least one cluster), or `None` when the memory
    /// cannot be had (a user-sized table must not abort the process).
    pub fn try_new(mb: usize) -> Option<Table> {
        Table::try_new_touched(mb, true)
    }

    /// As [`Table::try_new`], but made in no time: the memory is touched only as
    /// the search reaches it (for a table made on a game's clock).
    pub fn try_new_lazy(mb: usize) -> Option<Table> {
        Table::try_new_touched(mb, false)
    }

    fn try_new_touched(mb: usize, touch: bool) -> Option<Table> {
        let bytes = mb.checked_mul(1 << 20)?;
        let clusters = (bytes / std::mem::size_of::<Cluster>()).max(1);
        Some(Table { clusters: Storage::try_new(clusters, touch)?, generation: 1 })
    }

    /// Forgets everything in O(1): entries of older generations count as empty.
    pub fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            // After 65,535 searches the counter wraps: clear once for real.
            self.clusters.as_mut_slice().fill(Cluster::default());
            self.generation = 1;
        }
    }

    /// Bytes held by the table.
    pub fn size_bytes(&self) -> usize {
        self.clusters.len * std::mem::size_of::<Cluster>()
    }

    #[inline(always)]
    fn index(&self, board_key: u64) -> usize {
        ((board_key as u128 * self.clusters.len as u128) >> 64) as usize
    }

    #[inline(always)]
    fn cluster(&self, board_key: u64) -> &[Entry; CLUSTER] {
        &self.clusters.as_slice()[self.index(board_key)].0
    }

    #[inline(always)]
    fn cluster_mut(&mut self, board_key: u64) -> &mut [Entry; CLUSTER] {
        let i = self.index(board_key);
        &mut self.clusters.as_mut_slice()[i].0
    }

    /// Starts loading the cluster of `board_key` into the cache.
    #[inline(always)]
    pub fn prefetch(&self, board_key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let p = self.cluster(board_key).as_ptr() as *const i8;
            // SAFETY: a prefetch is only a hint; the address is inside the table.
            unsafe {
                use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
                _mm_prefetch(p, _MM_HINT_T0);
                _mm_prefetch(p.wrapping_add(64), _MM_HINT_T0);
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = board_key;
    }

    #[inline(always)]
    fn is_live(&self, e: &Entry) -> bool {
        e.work != 0 && e.generation == self.generation
    }

    /// Looks up a node: its board key, the attacker's hand and the plies left.
    pub fn probe(&self, board_key: u64, hand: Hand, remaining: u16) -> Probe {
        let mut best_len = NO_PROOF;
        let mut proof_hand = hand;
        let mut disproved_below = 0u16;
        let mut disproof_hand = hand;
        let mut exact: Option<(Pn, Pn)> = None;
        // Bounds from other hands: a weaker attacker needs at least as much proof,
        // a stronger one at least as much disproof.
        let mut pn_floor: Pn = 0;
        let mut dn_floor: Pn = 0;
        let mut longer = NO_PROOF;
        for e in self.cluster(board_key) {
            if e.board_key != board_key || !self.is_live(e) {
                continue;
            }
            let we_have_more = hand.is_superior_or_equal(e.hand);
            let we_have_less = e.hand.is_superior_or_equal(hand);
            if we_have_more && e.proof_len < best_len {
                if e.proof_len <= remaining {
                    best_len = e.proof_len;
                    proof_hand = e.hand;
                } else {
                    longer = longer.min(e.proof_len);
                }
            }
            if we_have_less && e.disproved_below > remaining && e.disproved_below > disproved_below
            {
                disproved_below = e.disproved_below;
                disproof_hand = e.hand;
            }
            if e.hand == hand {
                exact = Some((unpack(e.pn), unpack(e.dn)));
            } else if we_have_less {
                pn_floor = pn_floor.max(unpack(e.pn));
            } else if we_have_more {
                dn_floor = dn_floor.max(unpack(e.dn));
            }
        }
        if best_len != NO_PROOF {
            Probe::Proven { len: best_len, hand: proof_hand }
        } else if disproved_below != 0 {
            Probe::Disproven { below: disproved_below, hand: disproof_hand }
        } else if let Some((pn, dn)) = exact {
            Probe::Unknown { pn: pn.max(pn_floor).max(1), dn: dn.max(dn_floor).max(1), longer }
        } else if pn_floor > 0 || dn_floor > 0 {
            Probe::Unknown { pn: pn_floor.max(1), dn: dn_floor.max(1), longer }
        } else {
            // A stored proof (even a too long one) sets `exact` or `dn_floor`.
            debug_assert_eq!(longer, NO_PROOF);
            Probe::Missing
        }
    }

    /// Stores what a search learnt; `work` is the number of nodes it took.
    pub fn store(&mut self, board_key: u64, hand: Hand, record: Record, work: u64) {
        let generation = self.generation;
        let work = work.clamp(1, u32::MAX as u64) as u32;
        // Forget entries of this board that the new result makes redundant.
        match record {
            Record::Proven { len } => {
                for e in self.cluster_mut(board_key).iter_mut() {
                    if e.board_key == board_key
                        && e.generation == generation
                        && e.hand != hand
                        && e.hand.is_superior_or_equal(hand)
                        && e.proof_len >= len
                        && e.disproved_below == 0
                    {
                        e.work = 0;
                    }
                }
            }
            Record::Disproven { below } => {
                for e in self.cluster_mut(board_key).iter_mut() {
                    if e.board_key == board_key
                        && e.generation == generation
                        && e.hand != hand
                        && hand.is_superior_or_equal(e.hand)
                        && e.disproved_below <= below
                        && e.proof_len == NO_PROOF
                    {
                        e.work = 0;
                    }
                }
            }
            Record::Unknown { .. } => {}
        }
        let mut victim = 0;
        let mut victim_work = u32::MAX;
        for (i, e) in self.cluster(board_key).iter().enumerate() {
            let live = self.is_live(e);
            if live && e.board_key == board_key && e.hand == hand {
                victim = i;
                break;
            }
            let w = if live { e.work } else { 0 };
            if w < victim_work {
                victim = i;
                victim_work = w;
            }
        }
        let e = &mut self.cluster_mut(board_key)[victim];
        if !(e.work != 0
            && e.generation == generation
            && e.board_key == board_key
            && e.hand == hand)
        {
            *e = Entry {
                board_key,
                pn: 1,
                dn: 1,
                hand,
                work: 0,
                proof_len: NO_PROOF,
                disproved_below: 0,
                generation,
                _pad: 0,
            };
        }
        e.work = e.work.saturating_add(work);
        match record {
            Record::Unknown { pn, dn } => {
                e.pn = pack(pn);
                e.dn = pack(dn);
            }
            // A proof or disproof leaves the estimates alone: they are what a search
            // with less depth than the proof needs (or more than the disproof
            // covers) starts from.
            Record::Proven { len } => e.proof_len = e.proof_len.min(len),
            Record::Disproven { below } => e.disproved_below = e.disproved_below.max(below),
        }
    }

    /// Permille of the first thousand slots in use (the USI `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let clusters = &self.clusters.as_slice()[..self.clusters.len.min(250)];
        let n = clusters.len() * CLUSTER;
        let used = clusters.iter().flat_map(|c| c.0.iter()).filter(|e| self.is_live(e)).count();
        (used * 1000 / n.max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_table_too_large_for_memory_is_none() {
        assert!(Table::try_new(usize::MAX).is_none());
        assert!(Table::try_new(1 << 40).is_none());
        assert!(Table::try_new(1).is_some());
    }

    use super::*;
    use shogi::PieceKind;

    fn hand(kinds: &[PieceKind]) -> Hand {
        let mut h = Hand::EMPTY;
        for &k in kinds {
            h.add(k);
        }
        h
    }

    #[test]
    fn entries_are_32_bytes_and_clusters_two_cache_lines() {
        assert_eq!(std::mem::size_of::<Entry>(), 32);
        assert_eq!(std::mem::size_of::<Cluster>(), 128);
        assert_eq!(pack(crate::pn::INF), u32::MAX);
        assert_eq!(unpack(pack(crate::pn::INF)), crate::pn::INF);
        assert_eq!(unpack(pack(12345)), 12345);
    }

    #[test]
    fn proofs_hold_for_superior_hands_only() {
        let mut t = Table::new(1);
        let g = hand(&[PieceKind::Gold]);
        t.store(42, g, Record::Proven { len: 5 }, 10);
        let gs = hand(&[PieceKind::Gold, PieceKind::Silver]);
        assert_eq!(t.probe(42, gs, 100), Probe::Proven { len: 5, hand: g });
        assert_eq!(t.probe(42, g, 5), Probe::Proven { len: 5, hand: g });
        assert!(!matches!(t.probe(42, g, 3), Probe::Proven { .. }), "too long for 3 plies");
        assert!(!matches!(t.probe(42, Hand::EMPTY, 100), Probe::Proven { .. }));
        assert_eq!(t.probe(43, gs, 100), Probe::Missing);
    }

    #[test]
    fn a_proof_too_long_for_the_bound_is_reported_as_longer() {
        let mut t = Table::new(1);
        let g = hand(&[PieceKind::Gold]);
        t.store(42, g, Record::Proven { len: 9 }, 10);
        t.store(42, g, Record::Proven { len: 7 }, 10);
        t.store(42, g, Record::Unknown { pn: 3, dn: 4 }, 10);
        assert_eq!(t.probe(42, g, 5), Probe::Unknown { pn: 3, dn: 4, longer: 7 });
        let gs = hand(&[PieceKind::Gold, PieceKind::Silver]);
        assert!(matches!(t.probe(42, gs, 6), Probe::Unknown { longer: 7, .. }));
        assert_eq!(t.probe(42, gs, 7), Probe::Proven { len: 7, hand: g });
        // Only hands the proof holds for see it.
        assert!(matches!(t.probe(42, Hand::EMPTY, 5), Probe::Unknown { longer: NO_PROOF, .. }));
        assert_eq!(t.probe(43, gs, 5), Probe::Missing);
    }

    #[test]
    fn disproofs_hold_for_inferior_hands_and_shallower_depths() {
        let mut t = Table::new(1);
        let gs = hand(&[PieceKind::Gold, PieceKind::Silver]);
        t.store(7, gs, Record::Disproven { below: 9 }, 10);
        let g = hand(&[PieceKind::Gold]);
        assert_eq!(t.probe(7, g, 8), Probe::Disproven { below: 9, hand: gs });
        assert!(!matches!(t.probe(7, g, 9), Probe::Disproven { .. }));
        let gg = hand(&[PieceKind::Gold, PieceKind::Gold]);
        assert!(!matches!(t.probe(7, gg, 1), Probe::Disproven { .. }));
        t.store(7, gs, Record::Disproven { below: ALWAYS }, 10);
        assert_eq!(t.probe(7, Hand::EMPTY, 60_000), Probe::Disproven { below: ALWAYS, hand: gs });
    }

    #[test]
    fn a_full_cluster_replaces_the_least_work_and_never_grows() {
        let mut t = Table::new(0);
        let size = t.size_bytes();
        for i in 0..100u64 {
            let mut h = Hand::EMPTY;
            for _ in 0..(i % 18) {
                h.add(PieceKind::Pawn);
            }
            t.store(i << 1, h, Record::Unknown { pn: 3, dn: 4 }, 1000 - i);
        }
        assert_eq!(t.size_bytes(), size);
        // The heaviest early entry survived; the last one is present as well.
        assert!(matches!(
            t.probe(0, Hand::EMPTY, 10),
            Probe::Unknown { pn: 3, dn: 4, longer: NO_PROOF }
        ));
        t.new_search();
        assert_eq!(t.probe(0, Hand::EMPTY, 10), Probe::Missing);
    }
}
