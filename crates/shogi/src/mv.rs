//! The move type: 32 bits that carry everything search needs without looking at the
//! board again — destination, origin or dropped kind, promotion, the kind that moved
//! and the kind that was captured.
//!
//! ```text
//! bits  0..7   to square
//! bits  7..14  from square (board moves) or dropped kind (drops)
//! bit   14     promotion
//! bit   15     drop
//! bits 16..20  kind of the moving piece before the move
//! bits 20..24  kind of the captured piece (0: none)
//! ```
//! Tables store all 32 bits ([`Move::raw`]) and read them back with
//! [`Move::from_raw`]; whether such a move is legal in the position where it is
//! read back is [`Position::is_legal`](crate::Position::is_legal)'s question.

use crate::types::{PieceKind, Square};
use std::fmt;

#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Move(u32);

const PROMOTE: u32 = 1 << 14;
const DROP: u32 = 1 << 15;

impl Move {
    /// Not a move; used as "no move" in tables.
    pub const NONE: Move = Move(0);

    #[inline(always)]
    pub fn board(
        from: Square,
        to: Square,
        promote: bool,
        moved: PieceKind,
        captured: Option<PieceKind>,
    ) -> Move {
        Move::board_raw(from, to, promote, moved, captured.map_or(0, |k| k as u32))
    }

    /// As `board`, with the captured kind as its raw value (0: none), which is what
    /// the low four bits of a `Piece` hold: the generators pass them straight on.
    #[inline(always)]
    pub(crate) fn board_raw(
        from: Square,
        to: Square,
        promote: bool,
        moved: PieceKind,
        captured: u32,
    ) -> Move {
        Move(
            to.index() as u32
                | (from.index() as u32) << 7
                | (promote as u32) << 14
                | (moved as u32) << 16
                | captured << 20,
        )
    }

    #[inline(always)]
    pub fn drop(kind: PieceKind, to: Square) -> Move {
        Move(to.index() as u32 | (kind as u32) << 7 | DROP | (kind as u32) << 16)
    }

    #[inline(always)]
    pub const fn raw(self) -> u32 {
        self.0
    }

    #[inline(always)]
    pub const fn is_none(self) -> bool {
        self.0 == 0
    }

    #[inline(always)]
    pub const fn to(self) -> Square {
        Square::from_index((self.0 & 0x7f) as u8)
    }

    /// The origin square; meaningless for drops.
    #[inline(always)]
    pub const fn from(self) -> Square {
        Square::from_index(((self.0 >> 7) & 0x7f) as u8)
    }

    #[inline(always)]
    pub const fn is_drop(self) -> bool {
        self.0 & DROP != 0
    }

    #[inline(always)]
    pub const fn is_promotion(self) -> bool {
        self.0 & PROMOTE != 0
    }

    /// The kind that moves (before promotion) or is dropped.
    #[inline(always)]
    pub const fn moved_kind(self) -> PieceKind {
        match PieceKind::from_u8(((self.0 >> 16) & 0xf) as u8) {
            Some(k) => k,
            None => PieceKind::Pawn,
        }
    }

    /// The kind standing on `to` after the move.
    #[inline(always)]
    pub const fn kind_after(self) -> PieceKind {
        if self.is_promotion() {
            self.moved_kind().promote()
        } else {
            self.moved_kind()
        }
    }

    /// [`Move::kind_after`]'s index, read from the bits alone: a promotion
    /// adds 8 to the kind in `PieceKind`'s numbering.
    #[inline(always)]
    pub const fn kind_after_index(self) -> usize {
        (((self.0 >> 16) & 0xf) + ((self.0 >> 14) & 1) * 8) as usize
    }

    #[inline(always)]
    pub const fn captured(self) -> Option<PieceKind> {
        PieceKind::from_u8(((self.0 >> 20) & 0xf) as u8)
    }

    #[inline(always)]
    pub const fn is_capture(self) -> bool {
        self.0 & (0xf << 20) != 0
    }

    /// The move whose [`Move::raw`] bits these are, or `None` when they describe
    /// no move (a square or kind out of range, `Move::NONE`). Only the encoding is
    /// checked: bits that no generator would produce in any position (a pawn that
    /// captures backwards, say) still decode, and `Position::is_legal` refuses them.
    pub fn from_raw(raw: u32) -> Option<Move> {
        let to = Square::try_from_index((raw & 0x7f) as u8)?;
        let moved = PieceKind::from_u8(((raw >> 16) & 0xf) as u8)?;
        if raw & DROP != 0 {
            return Some(Move::drop(moved, to));
        }
        let from = Square::try_from_index(((raw >> 7) & 0x7f) as u8)?;
        let captured = match (raw >> 20) & 0xf {
            0 => None,
            k => Some(PieceKind::from_u8(k as u8)?),
        };
        Some(Move::board(from, to, raw & PROMOTE != 0, moved, captured))
    }

    /// The USI spelling: `7g7f`, `8h2b+`, `P*5e`.
    pub fn to_usi(self) -> String {
        self.to_string()
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_none() {
            return f.write_str("none");
        }
        if self.is_drop() {
            write!(f, "{}*{}", self.moved_kind().sfen_letter(), self.to())
        } else {
            write!(f, "{}{}", self.from(), self.to())?;
            if self.is_promotion() {
                f.write_str("+")?;
            }
            Ok(())
        }
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Move({self})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_round_trip() {
        let from = Square::new(7, 7);
        let to = Square::new(1, 1);
        let m = Move::board(from, to, true, PieceKind::Bishop, Some(PieceKind::Bishop));
        assert_eq!(m.from(), from);
        assert_eq!(m.to(), to);
        assert!(m.is_promotion());
        assert!(!m.is_drop());
        assert_eq!(m.moved_kind(), PieceKind::Bishop);
        assert_eq!(m.kind_after(), PieceKind::Horse);
        assert_eq!(m.captured(), Some(PieceKind::Bishop));
        assert_eq!(m.to_usi(), "8h2b+");
        let d = Move::drop(PieceKind::Pawn, Square::new(4, 4));
        assert!(d.is_drop());
        assert!(!d.is_capture());
        assert_eq!(d.to_usi(), "P*5e");
    }

    /// Every kind that moves, promoting where it can, and every drop: the index
    /// read from the bits names the kind after the move (checked by name here).
    #[test]
    fn kind_after_index_names_the_kind_after_the_move() {
        use PieceKind::*;
        let (from, to) = (Square::new(7, 7), Square::new(1, 1));
        let promoting = [
            (Pawn, ProPawn),
            (Lance, ProLance),
            (Knight, ProKnight),
            (Silver, ProSilver),
            (Bishop, Horse),
            (Rook, Dragon),
        ];
        for (kind, promoted) in promoting {
            let plain = Move::board(from, to, false, kind, None);
            assert_eq!(plain.kind_after_index(), kind.index());
            let m = Move::board(from, to, true, kind, Some(Gold));
            assert_eq!(m.kind_after_index(), promoted.index());
            assert_eq!(Move::drop(kind, to).kind_after_index(), kind.index());
        }
        for kind in [Gold, King, ProPawn, ProLance, ProKnight, ProSilver, Horse, Dragon] {
            let m = Move::board(from, to, false, kind, None);
            assert_eq!(m.kind_after_index(), kind.index());
        }
        assert_eq!(Move::drop(Gold, to).kind_after_index(), Gold.index());
    }

    #[test]
    fn raw_bits_decode_to_the_same_move_or_to_none() {
        let from = Square::new(7, 7);
        let to = Square::new(1, 1);
        for m in [
            Move::board(from, to, true, PieceKind::Bishop, Some(PieceKind::Bishop)),
            Move::board(from, to, false, PieceKind::Rook, None),
            Move::drop(PieceKind::Knight, to),
        ] {
            assert_eq!(Move::from_raw(m.raw()), Some(m));
        }
        assert_eq!(Move::from_raw(0), None);
        assert_eq!(Move::from_raw(81 | (PieceKind::Pawn as u32) << 16), None, "square 81");
        let bad_kind = Move::drop(PieceKind::Pawn, to).raw() | 0xf << 16;
        assert_eq!(Move::from_raw(bad_kind), None);
        let bad_capture = Move::board(from, to, false, PieceKind::Rook, None).raw() | 0xf << 20;
        assert_eq!(Move::from_raw(bad_capture), None);
    }
}
