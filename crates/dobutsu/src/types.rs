//! Sides, piece kinds, squares and the attack tables.

use std::fmt;

/// The two players. Sente (先手, uppercase letters, `b` in SFEN) moves first and
/// starts on rank 4; Gote (後手, lowercase, `w`) starts on rank 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    Sente = 0,
    Gote = 1,
}

impl Color {
    pub const ALL: [Color; 2] = [Color::Sente, Color::Gote];

    #[inline]
    pub const fn flip(self) -> Color {
        match self {
            Color::Sente => Color::Gote,
            Color::Gote => Color::Sente,
        }
    }

    /// 0 for Sente, 1 for Gote.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The rank (0-based row, 0 = rank 1) this side's chicks promote on and its
    /// lion makes its try on: rank 1 for Sente, rank 4 for Gote.
    #[inline]
    pub const fn far_row(self) -> u8 {
        match self {
            Color::Sente => 0,
            Color::Gote => 3,
        }
    }

    /// The side's own back rank (0-based row): rank 4 for Sente, rank 1 for Gote.
    #[inline]
    pub const fn back_row(self) -> u8 {
        self.flip().far_row()
    }

    /// `"Sente"` or `"Gote"`.
    pub const fn name(self) -> &'static str {
        match self {
            Color::Sente => "Sente",
            Color::Gote => "Gote",
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A kind of piece. The discriminants (1 to 5) are the low three bits of a
/// square's nibble in [`crate::Position`]; 0 there means an empty square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// ライオン: one step in any of the eight directions (a king).
    Lion = 1,
    /// キリン: one step orthogonally.
    Giraffe = 2,
    /// ゾウ: one step diagonally.
    Elephant = 3,
    /// ひよこ: one step straight forward; promotes to a hen on the far rank.
    Chick = 4,
    /// ニワトリ: a promoted chick, moving as a shogi gold (any step but the two
    /// backward diagonals).
    Hen = 5,
}

impl Kind {
    pub const ALL: [Kind; 5] = [Kind::Lion, Kind::Giraffe, Kind::Elephant, Kind::Chick, Kind::Hen];

    /// The kinds that can be held in hand, in SFEN's order (largest first).
    pub const HAND: [Kind; 3] = [Kind::Giraffe, Kind::Elephant, Kind::Chick];

    /// 1 to 5, as in a square's nibble.
    #[inline]
    pub const fn code(self) -> u8 {
        self as u8
    }

    /// The kind with nibble code `code` (1 to 5).
    #[inline]
    pub const fn from_code(code: u8) -> Option<Kind> {
        match code {
            1 => Some(Kind::Lion),
            2 => Some(Kind::Giraffe),
            3 => Some(Kind::Elephant),
            4 => Some(Kind::Chick),
            5 => Some(Kind::Hen),
            _ => None,
        }
    }

    /// What the piece becomes in the captor's hand: a hen reverts to a chick.
    /// (A captured lion ends the game and goes to no hand.)
    #[inline]
    pub const fn unpromoted(self) -> Kind {
        match self {
            Kind::Hen => Kind::Chick,
            k => k,
        }
    }

    /// Index among [`Kind::HAND`] kinds (giraffe 0, elephant 1, chick or hen 2);
    /// `None` for the lion.
    #[inline]
    pub const fn hand_index(self) -> Option<usize> {
        match self {
            Kind::Giraffe => Some(0),
            Kind::Elephant => Some(1),
            Kind::Chick | Kind::Hen => Some(2),
            Kind::Lion => None,
        }
    }

    /// The SFEN letter in Sente's (uppercase) form; the hen is `+C` in SFEN, and
    /// this gives its base letter `C`.
    pub const fn letter(self) -> char {
        match self {
            Kind::Lion => 'L',
            Kind::Giraffe => 'G',
            Kind::Elephant => 'E',
            Kind::Chick | Kind::Hen => 'C',
        }
    }

    /// The kind of an unpromoted SFEN letter (either case), `H`/`h` being
    /// accepted for the hen.
    pub fn from_letter(c: char) -> Option<Kind> {
        match c.to_ascii_uppercase() {
            'L' => Some(Kind::Lion),
            'G' => Some(Kind::Giraffe),
            'E' => Some(Kind::Elephant),
            'C' => Some(Kind::Chick),
            'H' => Some(Kind::Hen),
            _ => None,
        }
    }

    /// English name, as the board drawing writes it.
    pub const fn name(self) -> &'static str {
        match self {
            Kind::Lion => "lion",
            Kind::Giraffe => "giraffe",
            Kind::Elephant => "elephant",
            Kind::Chick => "chick",
            Kind::Hen => "hen",
        }
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A square, 0 to 11: `row * 3 + file` with file a = 0 … c = 2 and row 0 =
/// rank 1 (Gote's back rank, the top of the drawing) … row 3 = rank 4.
/// Written `a1` … `c4`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    pub const COUNT: usize = 12;

    /// The square at `file` (0 to 2, a to c) and `row` (0 to 3, rank 1 to 4).
    #[inline]
    pub const fn new(file: u8, row: u8) -> Square {
        debug_assert!(file < 3 && row < 4);
        Square(row * 3 + file)
    }

    /// The square with index `index`, if below 12.
    #[inline]
    pub const fn from_index(index: u8) -> Option<Square> {
        if index < 12 {
            Some(Square(index))
        } else {
            None
        }
    }

    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// 0 to 2 for files a to c.
    #[inline]
    pub const fn file(self) -> u8 {
        self.0 % 3
    }

    /// 0 to 3 for ranks 1 to 4.
    #[inline]
    pub const fn row(self) -> u8 {
        self.0 / 3
    }

    /// The square's bit in a 12-bit square set.
    #[inline]
    pub const fn bit(self) -> u16 {
        1 << self.0
    }

    /// Parses `a1` … `c4` (lowercase file, digit rank).
    pub fn parse(text: &str) -> Option<Square> {
        match text.as_bytes() {
            [f @ b'a'..=b'c', r @ b'1'..=b'4'] => Some(Square::new(f - b'a', r - b'1')),
            _ => None,
        }
    }

    /// Every square, a1 first.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..12).map(Square)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.row() + 1)
    }
}

/// The squares of a 12-bit set, lowest index first.
#[inline]
pub fn squares(mut set: u16) -> impl Iterator<Item = Square> {
    std::iter::from_fn(move || {
        if set == 0 {
            return None;
        }
        let i = set.trailing_zeros() as u8;
        set &= set - 1;
        Some(Square(i))
    })
}

/// Steps `(file, row)` of each kind for Sente (forward = row - 1); Gote's are
/// the same with the row step negated.
const fn steps(kind: u8) -> &'static [(i8, i8)] {
    match kind {
        1 => &[(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)],
        2 => &[(0, -1), (-1, 0), (1, 0), (0, 1)],
        3 => &[(-1, -1), (1, -1), (-1, 1), (1, 1)],
        4 => &[(0, -1)],
        5 => &[(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (0, 1)],
        _ => &[],
    }
}

const fn build_attacks() -> [[[u16; 12]; 8]; 2] {
    let mut table = [[[0u16; 12]; 8]; 2];
    let mut color = 0;
    while color < 2 {
        let mut kind = 1;
        while kind <= 5 {
            let s = steps(kind as u8);
            let mut sq = 0;
            while sq < 12 {
                let (file, row) = ((sq % 3) as i8, (sq / 3) as i8);
                let mut set = 0u16;
                let mut i = 0;
                while i < s.len() {
                    let df = s[i].0;
                    let dr = if color == 0 { s[i].1 } else { -s[i].1 };
                    let (f, r) = (file + df, row + dr);
                    if f >= 0 && f < 3 && r >= 0 && r < 4 {
                        set |= 1 << (r * 3 + f);
                    }
                    i += 1;
                }
                table[color][kind][sq] = set;
                sq += 1;
            }
            kind += 1;
        }
        color += 1;
    }
    table
}

/// `ATTACKS[color][kind code][square]`: the squares a piece of that side and kind
/// on that square moves to (or captures on). Codes 0, 6 and 7 are empty.
pub static ATTACKS: [[[u16; 12]; 8]; 2] = build_attacks();

/// The squares a `kind` of `color` on `sq` attacks.
#[inline]
pub fn attacks(color: Color, kind: Kind, sq: Square) -> u16 {
    ATTACKS[color.index()][kind.code() as usize][sq.index()]
}

/// The eight (or fewer) squares around `sq`.
#[inline]
pub fn neighbours(sq: Square) -> u16 {
    ATTACKS[0][Kind::Lion.code() as usize][sq.index()]
}

/// The squares of rank `row` (0-based).
#[inline]
pub const fn row_mask(row: u8) -> u16 {
    0b111 << (row * 3)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_print_and_parse() {
        for sq in Square::all() {
            assert_eq!(Square::parse(&sq.to_string()), Some(sq));
        }
        assert_eq!(Square::new(0, 0).to_string(), "a1");
        assert_eq!(Square::new(2, 3).to_string(), "c4");
        for bad in ["", "a", "d1", "a0", "a5", "A1", "a1 ", "1a"] {
            assert_eq!(Square::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn attack_counts() {
        let b2 = Square::parse("b2").unwrap();
        let a1 = Square::parse("a1").unwrap();
        let count = |c, k, s| attacks(c, k, s).count_ones();
        assert_eq!(count(Color::Sente, Kind::Lion, b2), 8);
        assert_eq!(count(Color::Sente, Kind::Lion, a1), 3);
        assert_eq!(count(Color::Sente, Kind::Giraffe, b2), 4);
        assert_eq!(count(Color::Sente, Kind::Elephant, b2), 4);
        assert_eq!(count(Color::Sente, Kind::Elephant, a1), 1);
        assert_eq!(count(Color::Sente, Kind::Hen, b2), 6);
        // A chick steps forward: towards rank 1 for Sente, rank 4 for Gote.
        assert_eq!(attacks(Color::Sente, Kind::Chick, b2), Square::parse("b1").unwrap().bit());
        assert_eq!(attacks(Color::Gote, Kind::Chick, b2), Square::parse("b3").unwrap().bit());
        assert_eq!(attacks(Color::Sente, Kind::Chick, a1), 0);
        // A hen has no backward diagonals.
        let hen = attacks(Color::Gote, Kind::Hen, b2);
        assert_eq!(hen & Square::parse("a1").unwrap().bit(), 0);
        assert_ne!(hen & Square::parse("a3").unwrap().bit(), 0);
        assert_ne!(hen & Square::parse("b1").unwrap().bit(), 0);
    }

    #[test]
    fn attacks_are_symmetric_between_the_sides() {
        // A piece of one side on `from` attacks `to` exactly when the same kind
        // of the other side on `to` attacks `from`.
        for k in Kind::ALL {
            for from in Square::all() {
                for to in Square::all() {
                    let a = attacks(Color::Sente, k, from) & to.bit() != 0;
                    let b = attacks(Color::Gote, k, to) & from.bit() != 0;
                    assert_eq!(a, b, "{k} {from} {to}");
                }
            }
        }
    }
}
