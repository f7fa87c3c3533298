//! An 81-square bitboard in one `u128`; bit `file * 9 + rank` is the square.

use crate::types::{Color, Square};
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub u128);

/// The 81 valid bits.
const ALL_BITS: u128 = (1u128 << 81) - 1;

impl Bitboard {
    pub const EMPTY: Bitboard = Bitboard(0);
    pub const ALL: Bitboard = Bitboard(ALL_BITS);

    #[inline(always)]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1u128 << sq.index())
    }

    /// The nine squares of a file (0 = USI file 1).
    pub const fn file(file: u8) -> Bitboard {
        Bitboard(0x1ffu128 << (file as u32 * 9))
    }

    /// The nine squares of a rank (0 = USI rank a).
    pub const fn rank(rank: u8) -> Bitboard {
        let mut bits = 0u128;
        let mut f = 0;
        while f < 9 {
            bits |= 1u128 << (f * 9 + rank as u32);
            f += 1;
        }
        Bitboard(bits)
    }

    /// Ranks `first..=last` (0-based, absolute).
    pub const fn ranks(first: u8, last: u8) -> Bitboard {
        let mut bits = 0u128;
        let mut r = first;
        while r <= last {
            bits |= Bitboard::rank(r).0;
            r += 1;
        }
        Bitboard(bits)
    }

    /// The three ranks where `color` promotes (the opponent's camp).
    #[inline(always)]
    pub const fn promotion_zone(color: Color) -> Bitboard {
        match color {
            Color::Black => Bitboard(ZONE_BLACK),
            Color::White => Bitboard(ZONE_WHITE),
        }
    }

    /// The `n` ranks nearest the far end for `color` (1 or 2 for forced promotion).
    #[inline(always)]
    pub const fn last_ranks(color: Color, n: u8) -> Bitboard {
        match color {
            Color::Black => Bitboard::ranks(0, n - 1),
            Color::White => Bitboard::ranks(9 - n, 8),
        }
    }

    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    #[inline(always)]
    pub const fn is_nonempty(self) -> bool {
        self.0 != 0
    }

    #[inline(always)]
    pub const fn contains(self, sq: Square) -> bool {
        // Two 64-bit halves: cheaper than a variable 128-bit shift.
        let i = sq.index() as u32;
        let half = if i < 64 { self.0 as u64 } else { (self.0 >> 64) as u64 };
        half >> (i & 63) & 1 != 0
    }

    #[inline(always)]
    pub fn set(&mut self, sq: Square) {
        self.0 |= 1u128 << sq.index();
    }

    #[inline(always)]
    pub fn clear(&mut self, sq: Square) {
        self.0 &= !(1u128 << sq.index());
    }

    #[inline(always)]
    pub fn toggle(&mut self, sq: Square) {
        self.0 ^= 1u128 << sq.index();
    }

    #[inline(always)]
    pub const fn count(self) -> u32 {
        (self.0 as u64).count_ones() + ((self.0 >> 64) as u64).count_ones()
    }

    /// More than one square set.
    #[inline(always)]
    pub const fn more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// The lowest square; the board must not be empty.
    #[inline(always)]
    pub fn lsb(self) -> Square {
        debug_assert!(self.is_nonempty());
        let lo = self.0 as u64;
        let idx = if lo != 0 {
            lo.trailing_zeros()
        } else {
            64 + ((self.0 >> 64) as u64).trailing_zeros()
        };
        Square::from_index(idx as u8)
    }

    /// Removes and returns the lowest square.
    #[inline(always)]
    pub fn pop(&mut self) -> Square {
        let sq = self.lsb();
        self.0 &= self.0 - 1;
        sq
    }

    /// Squares shifted one rank towards the far end of `color` (a pawn step).
    /// Squares on the far rank must not be set.
    #[inline(always)]
    pub const fn forward(self, color: Color) -> Bitboard {
        match color {
            Color::Black => Bitboard(self.0 >> 1),
            Color::White => Bitboard(self.0 << 1),
        }
    }

    /// The files (0..9) that have at least one square set, as a 9-bit mask.
    #[inline(always)]
    pub fn occupied_files(self) -> u16 {
        let mut files = 0u16;
        let mut f = 0;
        while f < 9 {
            files |= ((self.0 >> (f * 9) & 0x1ff != 0) as u16) << f;
            f += 1;
        }
        files
    }

    /// The bitboard of every square on the files in `files` (a 9-bit mask).
    #[inline(always)]
    pub fn from_files(files: u16) -> Bitboard {
        let mut bits = 0u128;
        let mut f = 0;
        while f < 9 {
            if files >> f & 1 != 0 {
                bits |= 0x1ffu128 << (f * 9);
            }
            f += 1;
        }
        Bitboard(bits)
    }

    pub fn iter(self) -> BitboardIter {
        BitboardIter(self)
    }
}

const ZONE_BLACK: u128 = Bitboard::ranks(0, 2).0;
const ZONE_WHITE: u128 = Bitboard::ranks(6, 8).0;

/// Iterates over the set squares, lowest first.
pub struct BitboardIter(Bitboard);

impl Iterator for BitboardIter {
    type Item = Square;
    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        if self.0.is_empty() {
            None
        } else {
            Some(self.0.pop())
        }
    }
}

impl IntoIterator for Bitboard {
    type Item = Square;
    type IntoIter = BitboardIter;
    fn into_iter(self) -> BitboardIter {
        BitboardIter(self)
    }
}

macro_rules! bit_op {
    ($tr:ident, $f:ident, $tra:ident, $fa:ident, $op:tt) => {
        impl $tr for Bitboard {
            type Output = Bitboard;
            #[inline(always)]
            fn $f(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $tra for Bitboard {
            #[inline(always)]
            fn $fa(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}
bit_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bit_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bit_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard {
    type Output = Bitboard;
    /// Complement within the 81 squares.
    #[inline(always)]
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & ALL_BITS)
    }
}

impl std::fmt::Debug for Bitboard {
    /// A 9x9 picture as a shogi board is drawn: file 9 on the left, rank a on top.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f)?;
        for rank in 0..9 {
            for file in (0..9).rev() {
                let c = if self.contains(Square::new(file, rank)) { '*' } else { '.' };
                write!(f, "{c}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_have_nine_squares() {
        for i in 0..9 {
            assert_eq!(Bitboard::file(i).count(), 9);
            assert_eq!(Bitboard::rank(i).count(), 9);
        }
        assert_eq!(Bitboard::ALL.count(), 81);
        assert_eq!(Bitboard::promotion_zone(Color::Black).count(), 27);
        assert!(Bitboard::promotion_zone(Color::White).contains(Square::new(0, 8)));
    }

    #[test]
    fn pop_visits_every_square_in_order() {
        let squares: Vec<Square> = Bitboard::ALL.iter().collect();
        assert_eq!(squares.len(), 81);
        assert!(squares.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn files_round_trip() {
        let bb =
            Bitboard::from_square(Square::new(3, 4)) | Bitboard::from_square(Square::new(8, 0));
        let files = bb.occupied_files();
        assert_eq!(files, (1 << 3) | (1 << 8));
        assert_eq!(Bitboard::from_files(files).count(), 18);
    }
}
