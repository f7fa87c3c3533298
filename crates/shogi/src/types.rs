//! The value types every other module speaks: colours, squares, piece kinds and pieces.
//!
//! Square numbering is file-major: `index = file * 9 + rank`, where file 0 is the
//! USI file `1` and rank 0 is the USI rank `a`. A file's nine squares are therefore
//! contiguous bits of a bitboard, which makes lance and rook file attacks a shift.

use std::fmt;

/// The side to move. Black (sente, `b`) moves first and towards rank `a`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    Black = 0,
    White = 1,
}

impl Color {
    pub const ALL: [Color; 2] = [Color::Black, Color::White];

    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    #[inline(always)]
    pub const fn flip(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// The SFEN letter: `b` or `w`.
    pub const fn sfen_char(self) -> char {
        match self {
            Color::Black => 'b',
            Color::White => 'w',
        }
    }
}

impl std::ops::Not for Color {
    type Output = Color;
    #[inline(always)]
    fn not(self) -> Color {
        self.flip()
    }
}

/// One of the 81 squares, `file * 9 + rank` (both from 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    pub const NUM: usize = 81;

    /// `file` and `rank` from 0 (file 0 is USI `1`, rank 0 is USI `a`).
    #[inline(always)]
    pub const fn new(file: u8, rank: u8) -> Square {
        debug_assert!(file < 9 && rank < 9);
        Square(file * 9 + rank)
    }

    #[inline(always)]
    pub const fn from_index(index: u8) -> Square {
        debug_assert!(index < 81);
        Square(index)
    }

    /// `Some` when `index < 81`.
    pub const fn try_from_index(index: u8) -> Option<Square> {
        if index < 81 {
            Some(Square(index))
        } else {
            None
        }
    }

    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    #[inline(always)]
    pub const fn file(self) -> u8 {
        self.0 / 9
    }

    #[inline(always)]
    pub const fn rank(self) -> u8 {
        self.0 % 9
    }

    /// The rank as `color` sees it: 0 is the far (promotion) end.
    #[inline(always)]
    pub const fn relative_rank(self, color: Color) -> u8 {
        match color {
            Color::Black => self.rank(),
            Color::White => 8 - self.rank(),
        }
    }

    /// The square seen from the other side of the board (rotated 180 degrees).
    #[inline(always)]
    pub const fn flip(self) -> Square {
        Square(80 - self.0)
    }

    /// All squares in index order.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..81u8).map(Square)
    }

    /// Parses the USI form `7g`.
    pub fn from_usi(s: &[u8]) -> Option<Square> {
        if s.len() != 2 {
            return None;
        }
        let file = s[0].wrapping_sub(b'1');
        let rank = s[1].wrapping_sub(b'a');
        if file < 9 && rank < 9 {
            Some(Square::new(file, rank))
        } else {
            None
        }
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'1' + self.file()) as char, (b'a' + self.rank()) as char)
    }
}

/// A kind of piece without colour. Promoted kinds are the base kind plus 8.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum PieceKind {
    Pawn = 1,
    Lance = 2,
    Knight = 3,
    Silver = 4,
    Bishop = 5,
    Rook = 6,
    Gold = 7,
    King = 8,
    ProPawn = 9,
    ProLance = 10,
    ProKnight = 11,
    ProSilver = 12,
    Horse = 13,
    Dragon = 14,
}

impl PieceKind {
    pub const ALL: [PieceKind; 14] = [
        PieceKind::Pawn,
        PieceKind::Lance,
        PieceKind::Knight,
        PieceKind::Silver,
        PieceKind::Bishop,
        PieceKind::Rook,
        PieceKind::Gold,
        PieceKind::King,
        PieceKind::ProPawn,
        PieceKind::ProLance,
        PieceKind::ProKnight,
        PieceKind::ProSilver,
        PieceKind::Horse,
        PieceKind::Dragon,
    ];

    /// The kinds that can be held in hand, in SFEN hand order (R B G S N L P reversed).
    pub const HAND: [PieceKind; 7] = [
        PieceKind::Pawn,
        PieceKind::Lance,
        PieceKind::Knight,
        PieceKind::Silver,
        PieceKind::Gold,
        PieceKind::Bishop,
        PieceKind::Rook,
    ];

    /// Upper bound (exclusive) of the numeric values, for table sizes.
    pub const NUM: usize = 15;

    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    #[inline(always)]
    pub const fn from_u8(v: u8) -> Option<PieceKind> {
        match v {
            1 => Some(PieceKind::Pawn),
            2 => Some(PieceKind::Lance),
            3 => Some(PieceKind::Knight),
            4 => Some(PieceKind::Silver),
            5 => Some(PieceKind::Bishop),
            6 => Some(PieceKind::Rook),
            7 => Some(PieceKind::Gold),
            8 => Some(PieceKind::King),
            9 => Some(PieceKind::ProPawn),
            10 => Some(PieceKind::ProLance),
            11 => Some(PieceKind::ProKnight),
            12 => Some(PieceKind::ProSilver),
            13 => Some(PieceKind::Horse),
            14 => Some(PieceKind::Dragon),
            _ => None,
        }
    }

    /// Pawn, lance, knight, silver, bishop and rook can promote.
    #[inline(always)]
    pub const fn can_promote(self) -> bool {
        (self as u8) <= 6
    }

    #[inline(always)]
    pub const fn is_promoted(self) -> bool {
        (self as u8) > 8
    }

    /// The promoted kind; kinds that cannot promote are returned unchanged.
    #[inline(always)]
    pub const fn promote(self) -> PieceKind {
        if self.can_promote() {
            match PieceKind::from_u8(self as u8 + 8) {
                Some(k) => k,
                None => self,
            }
        } else {
            self
        }
    }

    /// The kind a captured piece becomes in hand.
    #[inline(always)]
    pub const fn unpromote(self) -> PieceKind {
        if self.is_promoted() {
            match PieceKind::from_u8(self as u8 - 8) {
                Some(k) => k,
                None => self,
            }
        } else {
            self
        }
    }

    /// Whether an unpromoted piece of this kind could never move again on a square
    /// of the given relative rank (0 = the owner's far rank): pawn and lance on the
    /// last rank, knight on the last two. Such moves must promote; drops are barred.
    #[inline(always)]
    pub const fn is_dead_on(self, relative_rank: u8) -> bool {
        match self {
            PieceKind::Pawn | PieceKind::Lance => relative_rank == 0,
            PieceKind::Knight => relative_rank <= 1,
            _ => false,
        }
    }

    /// Moves like a gold: gold and the promoted small pieces.
    #[inline(always)]
    pub const fn moves_like_gold(self) -> bool {
        matches!(
            self,
            PieceKind::Gold
                | PieceKind::ProPawn
                | PieceKind::ProLance
                | PieceKind::ProKnight
                | PieceKind::ProSilver
        )
    }

    /// The upper-case SFEN letter of the unpromoted kind.
    pub const fn sfen_letter(self) -> char {
        match self.unpromote() {
            PieceKind::Pawn => 'P',
            PieceKind::Lance => 'L',
            PieceKind::Knight => 'N',
            PieceKind::Silver => 'S',
            PieceKind::Bishop => 'B',
            PieceKind::Rook => 'R',
            PieceKind::Gold => 'G',
            _ => 'K',
        }
    }

    /// The unpromoted kind of an SFEN letter (either case).
    pub const fn from_sfen_letter(c: char) -> Option<PieceKind> {
        match c.to_ascii_uppercase() {
            'P' => Some(PieceKind::Pawn),
            'L' => Some(PieceKind::Lance),
            'N' => Some(PieceKind::Knight),
            'S' => Some(PieceKind::Silver),
            'B' => Some(PieceKind::Bishop),
            'R' => Some(PieceKind::Rook),
            'G' => Some(PieceKind::Gold),
            'K' => Some(PieceKind::King),
            _ => None,
        }
    }

    /// How many pieces of this unpromoted kind a full set has.
    pub const fn max_count(self) -> u8 {
        match self.unpromote() {
            PieceKind::Pawn => 18,
            PieceKind::Lance | PieceKind::Knight | PieceKind::Silver | PieceKind::Gold => 4,
            PieceKind::Bishop | PieceKind::Rook | PieceKind::King => 2,
            _ => 0,
        }
    }
}

/// A coloured piece: `kind | color << 4`; 0 is the empty square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Piece(u8);

impl Piece {
    pub const EMPTY: Piece = Piece(0);
    /// Upper bound (exclusive) of the numeric values, for table sizes.
    pub const NUM: usize = 32;

    #[inline(always)]
    pub const fn new(color: Color, kind: PieceKind) -> Piece {
        Piece(kind as u8 | (color as u8) << 4)
    }

    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The kind, or `None` for the empty square.
    #[inline(always)]
    pub const fn kind(self) -> Option<PieceKind> {
        PieceKind::from_u8(self.0 & 15)
    }

    /// The kind's raw value, 0 for the empty square.
    #[inline(always)]
    pub const fn kind_raw(self) -> u32 {
        (self.0 & 15) as u32
    }

    /// The colour; meaningless for the empty square.
    #[inline(always)]
    pub const fn color(self) -> Color {
        if self.0 & 16 == 0 {
            Color::Black
        } else {
            Color::White
        }
    }

    /// The SFEN spelling: `P`, `+p`, …
    pub fn to_sfen(self) -> String {
        let Some(kind) = self.kind() else {
            return String::new();
        };
        let mut s = String::new();
        if kind.is_promoted() {
            s.push('+');
        }
        let c = kind.sfen_letter();
        s.push(match self.color() {
            Color::Black => c,
            Color::White => c.to_ascii_lowercase(),
        });
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_usi_round_trip() {
        for sq in Square::all() {
            let s = sq.to_string();
            assert_eq!(Square::from_usi(s.as_bytes()), Some(sq));
        }
        assert_eq!(Square::from_usi(b"7g"), Some(Square::new(6, 6)));
        assert_eq!(Square::from_usi(b"0a"), None);
        assert_eq!(Square::from_usi(b"1j"), None);
    }

    #[test]
    fn promotion_of_kinds() {
        assert_eq!(PieceKind::Pawn.promote(), PieceKind::ProPawn);
        assert_eq!(PieceKind::Rook.promote(), PieceKind::Dragon);
        assert_eq!(PieceKind::Gold.promote(), PieceKind::Gold);
        assert_eq!(PieceKind::King.promote(), PieceKind::King);
        assert_eq!(PieceKind::Horse.unpromote(), PieceKind::Bishop);
        assert_eq!(PieceKind::King.unpromote(), PieceKind::King);
        assert!(PieceKind::ProSilver.moves_like_gold());
    }

    #[test]
    fn piece_colour_and_kind() {
        let p = Piece::new(Color::White, PieceKind::Dragon);
        assert_eq!(p.color(), Color::White);
        assert_eq!(p.kind(), Some(PieceKind::Dragon));
        assert_eq!(p.to_sfen(), "+r");
        assert_eq!(Piece::EMPTY.kind(), None);
    }
}
