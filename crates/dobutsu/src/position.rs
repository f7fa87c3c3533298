//! The position: one `u64`, make/unmake, move generation, attacks and the end
//! of the game.

use crate::mv::Move;
use crate::types::{attacks, neighbours, squares, Color, Kind, Square, ATTACKS};

/// Bit 0 of every square's nibble.
const LOW: u64 = 0x1111_1111_1111;
const BOARD_MASK: u64 = (1 << 48) - 1;
const HAND_SHIFT: u32 = 48;
const SIDE_BIT: u64 = 1 << 60;
const ALL_SQUARES: u16 = 0xFFF;

/// A Dobutsu position, packed into one `u64` (so `Copy`, 8 bytes, and its own
/// injective encoding):
///
/// - bits 0–47: square `s` (see [`Square`]) in the nibble at bit `4 s`: 0 empty,
///   otherwise the [`Kind`] code (1 lion … 5 hen) with bit 3 set for Gote;
/// - bits 48–59: the hands, two bits per count (0 to 2, as a game has two of each
///   kind) at bit `48 + 2 (3 color + i)`, `i` the kind's [`Kind::hand_index`];
/// - bit 60: the side to move (set: Gote); bits 61–63 are zero.
///
/// The rules as [`Position::end`] and [`Position::legal_moves`] apply them (the
/// crate documentation gives them in full): capturing the lion wins, and a side
/// that can capture the opposing lion at the start of its turn has won (Tanaka's
/// model; the capture itself need not be played); a lion on the opponent's back
/// rank that the opponent cannot capture at the start of its turn has won (the
/// try). Every move the pieces can make is legal, including one that leaves the
/// own lion capturable (it loses).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Position {
    raw: u64,
}

/// Why the game is over at the start of the side to move's turn, as
/// [`Position::end`] says.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum End {
    /// The side to move can capture the opposing lion: it has won (Tanaka's rule:
    /// the game ends here; the capture may be played, and then
    /// [`End::LionCaptured`] follows). Also when the opposing lion is missing
    /// altogether, which no game reaches.
    CanCaptureLion,
    /// The side to move has no lion: it was captured, the side to move has lost.
    LionCaptured,
    /// The opposing lion stands on the mover's back rank and the mover cannot
    /// capture it: the opponent's try has succeeded, the side to move has lost.
    TryAgainst,
    /// The mover's own lion stands on the far rank at the start of its turn: its
    /// try survived the opponent's turn, the side to move has won. Games never
    /// reach it (they end one ply earlier, with [`End::TryAgainst`] for the
    /// opponent); it is given for set-up positions.
    TrySurvived,
}

impl End {
    /// Whether the side to move has won (otherwise it has lost; the rules end no
    /// game in a draw, repetition aside).
    pub const fn mover_wins(self) -> bool {
        matches!(self, End::CanCaptureLion | End::TrySurvived)
    }
}

/// Which moves [`Position::generate`] produces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Which {
    All,
    /// Captures, promotions, and lion moves onto the far rank (tries): see
    /// [`Position::is_tactical`].
    Tactical,
    /// All other moves: quiet board moves and drops.
    Quiet,
}

/// Compresses the bits at `4 i` (i < 12) of `x` into bits `i`.
#[inline(always)]
const fn compress(x: u64) -> u16 {
    let mut x = x & LOW;
    x = (x | x >> 3) & 0x0303_0303_0303;
    x = (x | x >> 6) & 0x000F_000F_000F;
    x = (x | x >> 12) & 0x0000_00FF_0000_00FF;
    x = (x | x >> 24) & 0xFFF;
    x as u16
}

/// Bits `4 i` set where the nibble `i` of `x` is zero (12 nibbles).
#[inline(always)]
const fn zero_nibbles(x: u64) -> u64 {
    !(x | x >> 1 | x >> 2 | x >> 3) & LOW
}

/// The splitmix64 finaliser: a bijection of `u64`, so keys stay injective.
#[inline(always)]
const fn mix(mut x: u64) -> u64 {
    x ^= x >> 30;
    x = x.wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x ^= x >> 27;
    x = x.wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

#[inline(always)]
const fn nibble_of(color: Color, kind: Kind) -> u64 {
    (kind.code() | (color as u8) << 3) as u64
}

impl Position {
    /// An empty board, empty hands, Sente to move (for setting up positions).
    pub const fn empty() -> Position {
        Position { raw: 0 }
    }

    /// The start position, `gle/1c1/1C1/ELG b - 1`.
    pub fn startpos() -> Position {
        let mut pos = Position::empty();
        let place = |pos: &mut Position, sq: &str, c, k| {
            pos.put(Square::parse(sq).expect("a square"), Some((c, k)));
        };
        place(&mut pos, "a1", Color::Gote, Kind::Giraffe);
        place(&mut pos, "b1", Color::Gote, Kind::Lion);
        place(&mut pos, "c1", Color::Gote, Kind::Elephant);
        place(&mut pos, "b2", Color::Gote, Kind::Chick);
        place(&mut pos, "b3", Color::Sente, Kind::Chick);
        place(&mut pos, "a4", Color::Sente, Kind::Elephant);
        place(&mut pos, "b4", Color::Sente, Kind::Lion);
        place(&mut pos, "c4", Color::Sente, Kind::Giraffe);
        pos
    }

    /// The packed 61 bits (see the type's documentation): an injective
    /// encoding of the position, side to move and hands included.
    #[inline]
    pub const fn raw(self) -> u64 {
        self.raw
    }

    /// The position with packed bits `raw`, if they describe one: valid nibbles,
    /// bits 61–63 clear, and the piece counts [`Position::check`] asks for.
    pub fn from_raw(raw: u64) -> Option<Position> {
        if raw >> 61 != 0 {
            return None;
        }
        let pos = Position { raw };
        for sq in Square::all() {
            let nib = pos.nibble(sq);
            if nib != 0 && Kind::from_code(nib & 7).is_none() {
                return None;
            }
        }
        pos.check().ok()?;
        Some(pos)
    }

    /// The position with packed bits `raw`, unchecked: for the solver, whose
    /// indexes only produce valid encodings.
    #[inline]
    pub(crate) const fn from_raw_unchecked(raw: u64) -> Position {
        Position { raw }
    }

    /// The 64-bit key for tables: the packed bits through a bijective mixer, so
    /// different positions always have different keys (no collisions).
    #[inline]
    pub const fn key(self) -> u64 {
        mix(self.raw)
    }

    #[inline]
    pub const fn side_to_move(self) -> Color {
        if self.raw & SIDE_BIT != 0 {
            Color::Gote
        } else {
            Color::Sente
        }
    }

    /// Sets the side to move (for setting up positions).
    pub fn set_side_to_move(&mut self, c: Color) {
        self.raw = (self.raw & !SIDE_BIT) | if c == Color::Gote { SIDE_BIT } else { 0 };
    }

    #[inline(always)]
    fn nibble(self, sq: Square) -> u8 {
        ((self.raw >> (4 * sq.index())) & 15) as u8
    }

    #[inline(always)]
    fn set_nibble(&mut self, sq: Square, nib: u64) {
        let shift = 4 * sq.index();
        self.raw = (self.raw & !(15 << shift)) | nib << shift;
    }

    /// The piece on `sq`: its side and kind.
    #[inline]
    pub fn piece_on(self, sq: Square) -> Option<(Color, Kind)> {
        let nib = self.nibble(sq);
        let kind = Kind::from_code(nib & 7)?;
        Some((if nib & 8 != 0 { Color::Gote } else { Color::Sente }, kind))
    }

    /// Puts `piece` on `sq` (or empties it), for setting up positions: nothing
    /// is checked (see [`Position::check`]).
    pub fn put(&mut self, sq: Square, piece: Option<(Color, Kind)>) {
        self.set_nibble(sq, piece.map_or(0, |(c, k)| nibble_of(c, k)));
    }

    #[inline(always)]
    fn hand_shift(c: Color, hand_index: usize) -> u32 {
        HAND_SHIFT + 2 * (3 * c.index() + hand_index) as u32
    }

    /// How many pieces of `kind` (a hen counts as a chick; a lion is never in
    /// hand: 0) `c` holds.
    #[inline]
    pub fn hand_count(self, c: Color, kind: Kind) -> u8 {
        match kind.hand_index() {
            Some(i) => ((self.raw >> Self::hand_shift(c, i)) & 3) as u8,
            None => 0,
        }
    }

    /// Sets how many pieces of `kind` (giraffe, elephant or chick; a hen is taken
    /// as a chick) `c` holds, for setting up positions.
    ///
    /// # Panics
    /// If `kind` is the lion or `count` is above 3 (the field's size; a game has
    /// two of each kind).
    pub fn set_hand_count(&mut self, c: Color, kind: Kind, count: u8) {
        let i = kind.hand_index().expect("a lion cannot be held in hand");
        assert!(count <= 3, "at most 3 fit in a hand field");
        let shift = Self::hand_shift(c, i);
        self.raw = (self.raw & !(3 << shift)) | u64::from(count) << shift;
    }

    /// Whether either side holds anything.
    pub fn hands_empty(self) -> bool {
        self.raw & (0xFFF << HAND_SHIFT) == 0
    }

    /// The occupied squares.
    #[inline]
    pub fn occupied(self) -> u16 {
        let b = self.raw & BOARD_MASK;
        compress(b | b >> 1 | b >> 2)
    }

    /// The squares holding `c`'s pieces.
    #[inline]
    pub fn pieces(self, c: Color) -> u16 {
        let b = self.raw & BOARD_MASK;
        let gote = compress(b >> 3);
        match c {
            Color::Gote => gote,
            Color::Sente => compress(b | b >> 1 | b >> 2) & !gote,
        }
    }

    /// The squares holding `c`'s pieces of `kind`.
    #[inline]
    pub fn pieces_of(self, c: Color, kind: Kind) -> u16 {
        let pattern = nibble_of(c, kind) * LOW;
        compress(zero_nibbles((self.raw & BOARD_MASK) ^ pattern))
    }

    /// Where `c`'s lion stands (`None` once it has been captured).
    #[inline]
    pub fn lion_square(self, c: Color) -> Option<Square> {
        let pattern = nibble_of(c, Kind::Lion) * LOW;
        let z = zero_nibbles((self.raw & BOARD_MASK) ^ pattern);
        if z == 0 {
            None
        } else {
            Square::from_index((z.trailing_zeros() / 4) as u8)
        }
    }

    /// The squares of `by`'s pieces that attack `sq` (whatever stands on `sq`).
    #[inline]
    pub fn attackers(self, sq: Square, by: Color) -> u16 {
        let mut set = 0;
        for n in squares(neighbours(sq)) {
            let nib = self.nibble(n);
            if nib != 0
                && (nib >> 3) == by as u8
                && ATTACKS[by.index()][(nib & 7) as usize][n.index()] & sq.bit() != 0
            {
                set |= n.bit();
            }
        }
        set
    }

    /// Whether a piece of `by` attacks `sq`.
    #[inline]
    pub fn is_attacked(self, sq: Square, by: Color) -> bool {
        for n in squares(neighbours(sq)) {
            let nib = self.nibble(n);
            if nib != 0
                && (nib >> 3) == by as u8
                && ATTACKS[by.index()][(nib & 7) as usize][n.index()] & sq.bit() != 0
            {
                return true;
            }
        }
        false
    }

    /// Whether the side to move's lion is attacked (the opponent could capture
    /// it next turn unless it is dealt with). False without a lion.
    #[inline]
    pub fn in_check(self) -> bool {
        let us = self.side_to_move();
        self.lion_square(us).is_some_and(|sq| self.is_attacked(sq, us.flip()))
    }

    /// Whether the game is over at the start of the side to move's turn, and
    /// why. In this order (Tanaka's model for the first three):
    /// 1. the mover's lion is gone: [`End::LionCaptured`] (lost);
    /// 2. the mover can capture the opposing lion (or it is gone):
    ///    [`End::CanCaptureLion`] (won);
    /// 3. the opposing lion stands on the mover's back rank: [`End::TryAgainst`]
    ///    (lost: the opponent's try succeeded);
    /// 4. the mover's lion stands on the far rank: [`End::TrySurvived`] (won;
    ///    set-up positions only).
    ///
    /// Cheap: two lion look-ups and one attack test.
    #[inline]
    pub fn end(self) -> Option<End> {
        let us = self.side_to_move();
        let Some(own) = self.lion_square(us) else {
            return Some(End::LionCaptured);
        };
        let Some(theirs) = self.lion_square(us.flip()) else {
            return Some(End::CanCaptureLion);
        };
        if self.is_attacked(theirs, us) {
            Some(End::CanCaptureLion)
        } else if theirs.row() == us.back_row() {
            Some(End::TryAgainst)
        } else if own.row() == us.far_row() {
            Some(End::TrySurvived)
        } else {
            None
        }
    }

    /// Whether `m` (a move of this position) is tactical: a capture, a chick's
    /// promotion, or a lion stepping onto the far rank (a try).
    #[inline]
    pub fn is_tactical(self, m: Move) -> bool {
        m.is_capture()
            || m.is_promotion()
            || (m.kind() == Kind::Lion
                && !m.is_drop()
                && m.to().row() == self.side_to_move().far_row())
    }

    /// Appends every legal move of the side to move to `out`: each step of each
    /// piece onto a square not holding a piece of its own (a chick reaching the
    /// far rank promotes), and each drop of a held kind on each empty square.
    /// Moves that leave the own lion capturable are included (they lose), and
    /// so is the capture of the opposing lion. Whether the game has already
    /// ended is not asked: see [`Position::end`].
    ///
    /// Order: board moves by origin square then destination (a1 first), then
    /// drops (giraffe, elephant, chick) by square.
    #[inline]
    pub fn legal_moves(self, out: &mut Vec<Move>) {
        self.generate(out, Which::All);
    }

    /// The moves of [`Position::legal_moves`] that `which` selects, in the same
    /// order.
    pub fn generate(self, out: &mut Vec<Move>, which: Which) {
        let us = self.side_to_move();
        let own = self.pieces(us);
        let far = us.far_row();
        for from in squares(own) {
            let code = self.nibble(from) & 7;
            let kind = Kind::from_code(code).expect("a piece");
            let targets = ATTACKS[us.index()][code as usize][from.index()] & !own;
            for to in squares(targets) {
                let captured = Kind::from_code(self.nibble(to) & 7);
                let promotes = kind == Kind::Chick && to.row() == far;
                let tactical =
                    captured.is_some() || promotes || (kind == Kind::Lion && to.row() == far);
                let wanted = match which {
                    Which::All => true,
                    Which::Tactical => tactical,
                    Which::Quiet => !tactical,
                };
                if wanted {
                    out.push(Move::board(from, to, kind, captured, promotes));
                }
            }
        }
        if which == Which::Tactical {
            return;
        }
        let empty = !self.occupied() & ALL_SQUARES;
        for kind in Kind::HAND {
            if self.hand_count(us, kind) > 0 {
                out.extend(squares(empty).map(|to| Move::drop(kind, to)));
            }
        }
    }

    /// Whether `m`, any 16 bits, is one of [`Position::legal_moves`] here.
    pub fn is_legal(self, m: Move) -> bool {
        let raw = m.raw();
        if raw == 0 || usize::from(raw & 15) >= Square::COUNT {
            return false;
        }
        let us = self.side_to_move();
        let to = m.to();
        let target = self.nibble(to);
        let Some(kind) = Kind::from_code(((raw >> 8) & 7) as u8) else {
            return false;
        };
        if m.is_drop() {
            return raw & 0x78F0 == 0 // no origin, capture or promotion bits
                && kind.hand_index().is_some()
                && kind != Kind::Hen
                && self.hand_count(us, kind) > 0
                && target == 0;
        }
        let Some(from) = m.from() else {
            return false;
        };
        let nib = self.nibble(from);
        if nib == 0 || nib >> 3 != us as u8 || nib & 7 != kind.code() {
            return false;
        }
        if attacks(us, kind, from) & to.bit() == 0 {
            return false;
        }
        if target != 0 && target >> 3 == us as u8 {
            return false;
        }
        let captured_code = ((raw >> 11) & 7) as u8;
        let promotes = kind == Kind::Chick && to.row() == us.far_row();
        captured_code == target & 7 && m.is_promotion() == promotes
    }

    /// Plays `m`, a legal move of this position (unchecked; see
    /// [`Position::is_legal`]). A captured piece goes to the mover's hand, a hen
    /// as a chick; a captured lion goes nowhere (the game is over, and
    /// [`Position::end`] then says [`End::LionCaptured`]).
    #[inline]
    pub fn make_move(&mut self, m: Move) {
        debug_assert!(self.is_legal(m), "{m:?} is not legal in {}", self.to_sfen());
        let us = self.side_to_move();
        let to = m.to();
        match m.from() {
            None => {
                self.set_nibble(to, nibble_of(us, m.kind()));
                self.raw -= 1 << Self::hand_shift(us, m.kind().hand_index().unwrap_or(0));
            }
            Some(from) => {
                self.set_nibble(from, 0);
                self.set_nibble(to, nibble_of(us, m.kind_after()));
                if let Some(captured) = m.captured() {
                    if let Some(i) = captured.hand_index() {
                        self.raw += 1 << Self::hand_shift(us, i);
                    }
                }
            }
        }
        self.raw ^= SIDE_BIT;
    }

    /// Takes back `m`, the move that led to this position.
    #[inline]
    pub fn unmake_move(&mut self, m: Move) {
        self.raw ^= SIDE_BIT;
        let us = self.side_to_move();
        let to = m.to();
        match m.from() {
            None => {
                self.set_nibble(to, 0);
                self.raw += 1 << Self::hand_shift(us, m.kind().hand_index().unwrap_or(0));
            }
            Some(from) => {
                self.set_nibble(from, nibble_of(us, m.kind()));
                match m.captured() {
                    None => self.set_nibble(to, 0),
                    Some(captured) => {
                        self.set_nibble(to, nibble_of(us.flip(), captured));
                        if let Some(i) = captured.hand_index() {
                            self.raw -= 1 << Self::hand_shift(us, i);
                        }
                    }
                }
            }
        }
    }

    /// The position after `m` (copy-make).
    #[inline]
    pub fn after(self, m: Move) -> Position {
        let mut p = self;
        p.make_move(m);
        p
    }

    /// The side to move passes (for null-move searches and tests).
    #[inline]
    pub fn pass(&mut self) {
        self.raw ^= SIDE_BIT;
    }

    /// A lion move of the side to move onto the far rank that the opponent
    /// cannot capture on its reply (a try that wins at once), if there is one.
    /// Meant for positions where [`Position::end`] is `None`.
    pub fn winning_try(self) -> Option<Move> {
        let us = self.side_to_move();
        let from = self.lion_square(us)?;
        let far = crate::types::row_mask(us.far_row());
        let targets = attacks(us, Kind::Lion, from) & far & !self.pieces(us);
        squares(targets).find(|&to| !self.is_attacked(to, us.flip())).map(|to| {
            Move::board(from, to, Kind::Lion, Kind::from_code(self.nibble(to) & 7), false)
        })
    }
}

impl Default for Position {
    /// The start position.
    fn default() -> Position {
        Position::startpos()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compress_gathers_nibble_bits() {
        for i in 0..12 {
            assert_eq!(compress(1 << (4 * i)), 1 << i);
        }
        assert_eq!(compress(LOW), 0xFFF);
    }

    #[test]
    fn start_position_basics() {
        let pos = Position::startpos();
        assert_eq!(pos.side_to_move(), Color::Sente);
        assert_eq!(pos.occupied().count_ones(), 8);
        assert_eq!(pos.pieces(Color::Sente).count_ones(), 4);
        assert_eq!(pos.pieces(Color::Gote).count_ones(), 4);
        assert_eq!(pos.lion_square(Color::Sente), Square::parse("b4"));
        assert_eq!(pos.lion_square(Color::Gote), Square::parse("b1"));
        assert_eq!(pos.pieces_of(Color::Gote, Kind::Chick), Square::parse("b2").unwrap().bit());
        assert_eq!(pos.end(), None);
        assert!(!pos.in_check());
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        assert_eq!(moves.len(), 4);
    }

    #[test]
    fn make_and_unmake_restore_the_position() {
        let mut pos = Position::startpos();
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        for &m in &moves {
            let before = pos;
            pos.make_move(m);
            assert_ne!(pos, before);
            pos.unmake_move(m);
            assert_eq!(pos, before);
        }
    }

    #[test]
    fn the_chick_capture_goes_to_hand() {
        let mut pos = Position::startpos();
        let m = Move::board(
            Square::parse("b3").unwrap(),
            Square::parse("b2").unwrap(),
            Kind::Chick,
            Some(Kind::Chick),
            false,
        );
        assert!(pos.is_legal(m));
        pos.make_move(m);
        assert_eq!(pos.hand_count(Color::Sente, Kind::Chick), 1);
        assert_eq!(pos.side_to_move(), Color::Gote);
        // Gote's lion and elephant both attack b2 now; Gote is "in check" (the
        // chick on b2 attacks b1).
        assert!(pos.in_check());
        assert_eq!(pos.end(), None);
    }
}
