//! Moves: 16 bits each, carrying what making and unmaking them needs.

use crate::types::{Kind, Square};
use std::fmt;

/// A move: a board move (with what it captures and whether it promotes) or a
/// drop. Printed in USI style: `b3b2`, `b2b1+` (a chick reaching the far rank:
/// promotion is mandatory and the `+` is always written), `C*b2`.
///
/// Bits: 0–3 destination, 4–7 origin (0 for drops), 8–10 the moving (or dropped)
/// kind before the move, 11–13 the captured kind (0: none), 14 promotion,
/// 15 drop. [`Move::NONE`] (all zero) is never a real move, and every real move
/// is non-zero.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Move(u16);

impl Move {
    /// "No move".
    pub const NONE: Move = Move(0);

    const DROP: u16 = 1 << 15;
    const PROMOTION: u16 = 1 << 14;

    /// A board move of `kind` from `from` to `to`, capturing `captured`,
    /// promoting when `promotes`. Whether it is legal is not checked.
    #[inline]
    pub const fn board(
        from: Square,
        to: Square,
        kind: Kind,
        captured: Option<Kind>,
        promotes: bool,
    ) -> Move {
        let cap = match captured {
            Some(k) => k.code() as u16,
            None => 0,
        };
        Move(
            to.index() as u16
                | (from.index() as u16) << 4
                | (kind.code() as u16) << 8
                | cap << 11
                | if promotes { Self::PROMOTION } else { 0 },
        )
    }

    /// A drop of `kind` on `to`.
    #[inline]
    pub const fn drop(kind: Kind, to: Square) -> Move {
        Move(to.index() as u16 | (kind.code() as u16) << 8 | Self::DROP)
    }

    /// The 16 bits, as [`search::Game::encode_move`] stores them.
    #[inline]
    pub const fn raw(self) -> u16 {
        self.0
    }

    /// A move from its 16 bits, unchecked: any value gives a `Move`, which
    /// [`crate::Position::is_legal`] may then refuse.
    #[inline]
    pub const fn from_raw(raw: u16) -> Move {
        Move(raw)
    }

    #[inline]
    pub const fn is_none(self) -> bool {
        self.0 == 0
    }

    #[inline]
    pub const fn is_drop(self) -> bool {
        self.0 & Self::DROP != 0
    }

    #[inline]
    pub const fn is_promotion(self) -> bool {
        self.0 & Self::PROMOTION != 0
    }

    /// The destination (an index above 11, possible only in bits that no
    /// generator made, reads as a1; [`crate::Position::is_legal`] refuses such
    /// moves).
    #[inline]
    pub const fn to(self) -> Square {
        match Square::from_index((self.0 & 15) as u8) {
            Some(s) => s,
            None => Square::new(0, 0),
        }
    }

    /// The origin of a board move; `None` for drops.
    #[inline]
    pub const fn from(self) -> Option<Square> {
        if self.is_drop() {
            None
        } else {
            Square::from_index(((self.0 >> 4) & 15) as u8)
        }
    }

    /// The moving kind before the move (a promoting chick is a chick), or the
    /// dropped kind. The lion stands in for an invalid code.
    #[inline]
    pub const fn kind(self) -> Kind {
        match Kind::from_code(((self.0 >> 8) & 7) as u8) {
            Some(k) => k,
            None => Kind::Lion,
        }
    }

    /// The kind standing on the destination after the move.
    #[inline]
    pub const fn kind_after(self) -> Kind {
        if self.is_promotion() {
            Kind::Hen
        } else {
            self.kind()
        }
    }

    /// The captured kind, if any (a captured hen is a hen here; it goes to hand
    /// as a chick).
    #[inline]
    pub const fn captured(self) -> Option<Kind> {
        Kind::from_code(((self.0 >> 11) & 7) as u8)
    }

    #[inline]
    pub const fn is_capture(self) -> bool {
        self.0 & (7 << 11) != 0
    }

    /// The move in the long notation of game records such as the reference
    /// principal variation: `Lb4-a3`, `Cb3xb2`, `Cb3xb4+`, `G*b3` (the moving
    /// kind's letter, the hen's being `H`).
    pub fn long_notation(self) -> String {
        let letter = |k: Kind| if k == Kind::Hen { 'H' } else { k.letter() };
        match self.from() {
            None => format!("{}*{}", letter(self.kind()), self.to()),
            Some(from) => format!(
                "{}{}{}{}{}",
                letter(self.kind()),
                from,
                if self.is_capture() { 'x' } else { '-' },
                self.to(),
                if self.is_promotion() { "+" } else { "" }
            ),
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_none() {
            return f.write_str("none");
        }
        match self.from() {
            None => write!(f, "{}*{}", self.kind().letter(), self.to()),
            Some(from) => {
                write!(f, "{from}{}{}", self.to(), if self.is_promotion() { "+" } else { "" })
            }
        }
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_none() {
            f.write_str("Move::NONE")
        } else {
            write!(f, "Move({})", self.long_notation())
        }
    }
}
