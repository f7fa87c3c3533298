//! Pieces in hand, packed into one `u32` so that copying, comparing and the
//! superiority test (`a` holds at least what `b` holds of every kind) are single
//! integer operations.

use crate::types::PieceKind;
use std::fmt;

/// Bit offset of each hand kind's counter, indexed by `PieceKind` value.
/// Every counter has a zero guard bit above it, so a subtraction that goes
/// negative in any counter sets that counter's guard bit.
const SHIFT: [u32; 8] = [0, 0, 8, 12, 16, 24, 28, 20];
/// Counter widths: pawn 5 bits (up to 18), lance/knight/silver/gold 3, bishop/rook 2.
const MASK: [u32; 8] = [0, 0x1f, 0x7, 0x7, 0x7, 0x3, 0x3, 0x7];
/// The guard bits of all counters.
const GUARDS: u32 =
    (1 << 5) | (1 << 11) | (1 << 15) | (1 << 19) | (1 << 23) | (1 << 26) | (1 << 30);

/// The pieces one side holds in hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Hand(u32);

impl Hand {
    pub const EMPTY: Hand = Hand(0);

    /// The raw packed value (stable within one build; for hashing and tables).
    #[inline(always)]
    pub const fn raw(self) -> u32 {
        self.0
    }

    /// How many pieces of `kind` (an unpromoted hand kind) are held.
    #[inline(always)]
    pub const fn count(self, kind: PieceKind) -> u32 {
        let k = kind as usize;
        (self.0 >> SHIFT[k]) & MASK[k]
    }

    #[inline(always)]
    pub const fn has(self, kind: PieceKind) -> bool {
        self.count(kind) != 0
    }

    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Adds one piece of `kind`. The caller keeps counts within the set's limits.
    #[inline(always)]
    pub fn add(&mut self, kind: PieceKind) {
        debug_assert!(self.count(kind) < MASK[kind as usize]);
        self.0 += 1 << SHIFT[kind as usize];
    }

    /// Removes one piece of `kind`, which must be held.
    #[inline(always)]
    pub fn remove(&mut self, kind: PieceKind) {
        debug_assert!(self.has(kind));
        self.0 -= 1 << SHIFT[kind as usize];
    }

    /// Sets the count of `kind`; `None` when it does not fit the counter.
    pub fn with_count(self, kind: PieceKind, count: u32) -> Option<Hand> {
        let k = kind as usize;
        if k == 0 || k > 7 || count > MASK[k] {
            return None;
        }
        Some(Hand((self.0 & !(MASK[k] << SHIFT[k])) | count << SHIFT[k]))
    }

    /// True when `self` holds at least as many pieces of every kind as `other`.
    #[inline(always)]
    pub const fn is_superior_or_equal(self, other: Hand) -> bool {
        self.0.wrapping_sub(other.0) & GUARDS == 0
    }

    /// Per kind, the smaller of the two counts.
    pub fn min_each(self, other: Hand) -> Hand {
        self.combine(other, u32::min)
    }

    /// Per kind, the larger of the two counts.
    pub fn max_each(self, other: Hand) -> Hand {
        self.combine(other, u32::max)
    }

    fn combine(self, other: Hand, f: fn(u32, u32) -> u32) -> Hand {
        let mut out = 0;
        for kind in PieceKind::HAND {
            let k = kind as usize;
            out |= f(self.count(kind), other.count(kind)) << SHIFT[k];
        }
        Hand(out)
    }

    /// Whether any piece other than a pawn is held.
    #[inline(always)]
    pub const fn has_non_pawn(self) -> bool {
        self.0 & !MASK[1] != 0
    }

    /// Total number of pieces held.
    pub fn total(self) -> u32 {
        PieceKind::HAND.iter().map(|&k| self.count(k)).sum()
    }
}

impl fmt::Display for Hand {
    /// Black's SFEN hand letters in the conventional order (R B G S N L P).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for &k in PieceKind::HAND.iter().rev() {
            let n = self.count(k);
            if n > 1 {
                write!(f, "{n}")?;
            }
            if n > 0 {
                write!(f, "{}", k.sfen_letter())?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_independent() {
        let mut h = Hand::EMPTY;
        for _ in 0..18 {
            h.add(PieceKind::Pawn);
        }
        for &k in &PieceKind::HAND[1..] {
            for _ in 0..k.max_count() {
                h.add(k);
            }
        }
        for &k in &PieceKind::HAND {
            assert_eq!(h.count(k), k.max_count() as u32, "{k:?}");
        }
        h.remove(PieceKind::Rook);
        assert_eq!(h.count(PieceKind::Rook), 1);
        assert_eq!(h.count(PieceKind::Gold), 4);
    }

    #[test]
    fn superiority() {
        let mut a = Hand::EMPTY;
        a.add(PieceKind::Pawn);
        a.add(PieceKind::Gold);
        let mut b = Hand::EMPTY;
        b.add(PieceKind::Pawn);
        assert!(a.is_superior_or_equal(b));
        assert!(!b.is_superior_or_equal(a));
        let mut c = Hand::EMPTY;
        c.add(PieceKind::Rook);
        assert!(!a.is_superior_or_equal(c));
        assert!(!c.is_superior_or_equal(a));
        assert!(a.is_superior_or_equal(a));
        assert!(a.is_superior_or_equal(Hand::EMPTY));
    }

    #[test]
    fn min_and_max_each_kind() {
        let a = Hand::EMPTY
            .with_count(PieceKind::Pawn, 5)
            .and_then(|h| h.with_count(PieceKind::Gold, 1));
        let b = Hand::EMPTY
            .with_count(PieceKind::Pawn, 2)
            .and_then(|h| h.with_count(PieceKind::Rook, 2));
        let (a, b) = (a.unwrap(), b.unwrap());
        let lo = a.min_each(b);
        let hi = a.max_each(b);
        assert_eq!(
            (lo.count(PieceKind::Pawn), lo.count(PieceKind::Gold), lo.count(PieceKind::Rook)),
            (2, 0, 0)
        );
        assert_eq!(
            (hi.count(PieceKind::Pawn), hi.count(PieceKind::Gold), hi.count(PieceKind::Rook)),
            (5, 1, 2)
        );
        assert!(a.is_superior_or_equal(lo) && b.is_superior_or_equal(lo));
        assert!(hi.is_superior_or_equal(a) && hi.is_superior_or_equal(b));
    }
}
