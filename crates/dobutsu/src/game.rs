//! Dobutsu shogi as the search sees it: the position with the game's earlier
//! positions (for repetitions and unmaking), the evaluation, and
//! [`search::Game`].

use crate::mv::Move;
use crate::position::{Position, Which};
use crate::sfen::SfenError;
use crate::types::{attacks, row_mask, squares, Color, Kind, Square};
use crate::usi::MoveParseError;
use search::{Game, Outcome, RepetitionStatus, Side, Value};

/// What a piece on the board is worth, by kind code (lion: 0, it never leaves
/// the board while the game goes on). A chick on the board is the unit, 100.
pub const BOARD_VALUE: [Value; 6] = [0, 0, 300, 250, 100, 350];

/// What a piece in hand is worth, by kind code: a little more than on the
/// board, as it can be dropped anywhere.
pub const HAND_VALUE: [Value; 6] = [0, 0, 320, 270, 120, 0];

/// The lion's advance, by rows from its own back rank (0 to 3): a lion nearer
/// the far rank threatens the try. (On the far rank the game is over.)
pub const LION_ADVANCE: [Value; 4] = [0, 15, 40, 100];

/// The lion's worth in exchanges: more than everything else together.
pub const SEE_LION: Value = 10_000;

/// What capturing a piece of `kind` changes the material by, for the captor:
/// the board value it takes away and the hand value it gains.
#[inline]
pub fn capture_gain(kind: Kind) -> Value {
    match kind {
        Kind::Lion => SEE_LION,
        k => BOARD_VALUE[k.code() as usize] + HAND_VALUE[k.unpromoted().code() as usize],
    }
}

/// The static value of `pos` for the side to move: material (board and hands)
/// and the lions' advance, own less the opponent's.
pub fn evaluate(pos: &Position) -> Value {
    let us = pos.side_to_move();
    let side_value = |c: Color| -> Value {
        let mut v = 0;
        for sq in squares(pos.pieces(c)) {
            let (_, kind) = pos.piece_on(sq).expect("a piece");
            v += BOARD_VALUE[kind.code() as usize];
            if kind == Kind::Lion {
                let advance = (i32::from(sq.row()) - i32::from(c.back_row())).unsigned_abs();
                v += LION_ADVANCE[advance as usize];
            }
        }
        for kind in Kind::HAND {
            v += Value::from(pos.hand_count(c, kind)) * HAND_VALUE[kind.code() as usize];
        }
        v
    };
    side_value(us) - side_value(us.flip())
}

/// Static exchange evaluation of `m` on its destination: the material the
/// mover ends up with when both sides keep capturing there with their least
/// valuable attacker while it pays (no sliders on this board, so nothing is
/// uncovered). The lion counts [`SEE_LION`]: putting it where it can be
/// captured loses that much.
pub fn see(pos: &Position, m: Move) -> Value {
    const PROMOTION: Value =
        BOARD_VALUE[Kind::Hen.code() as usize] - BOARD_VALUE[Kind::Chick.code() as usize];
    let us = pos.side_to_move();
    let to = m.to();
    let mut gain = [0 as Value; 20];
    gain[0] = m.captured().map_or(0, capture_gain);
    if m.is_promotion() {
        gain[0] += PROMOTION;
    }
    let after = pos.after(m);
    // Each side's attackers of the destination, least valuable first (at most
    // eight squares surround it).
    let mut lists = [[(0 as Value, Kind::Lion); 8]; 2];
    let mut lens = [0usize; 2];
    for c in Color::ALL {
        let i = c.index();
        for sq in squares(after.attackers(to, c)) {
            let (_, kind) = after.piece_on(sq).expect("an attacker");
            let order =
                if kind == Kind::Lion { SEE_LION } else { BOARD_VALUE[kind.code() as usize] };
            lists[i][lens[i]] = (order, kind);
            lens[i] += 1;
        }
        lists[i][..lens[i]].sort_unstable();
    }
    let mut next = [0usize; 2];
    let mut occupant = m.kind_after();
    let mut side = us.flip();
    let mut d = 0;
    while next[side.index()] < lens[side.index()] {
        let attacker = lists[side.index()][next[side.index()]].1;
        next[side.index()] += 1;
        d += 1;
        gain[d] = capture_gain(occupant) - gain[d - 1];
        if occupant == Kind::Lion {
            break; // the lion is taken: the game is over
        }
        occupant = attacker;
        if attacker == Kind::Chick && to.row() == side.far_row() {
            gain[d] += PROMOTION;
            occupant = Kind::Hen;
        }
        side = side.flip();
    }
    while d > 0 {
        gain[d - 1] = -(-gain[d - 1]).max(gain[d]);
        d -= 1;
    }
    gain[0]
}

/// A game of Dobutsu shogi: the current position and every earlier one (the
/// moves played, and in a search the line being searched), for repetitions and
/// for taking moves back. Cloning copies the history (8 bytes a ply).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dobutsu {
    pos: Position,
    /// The positions before each move made, oldest first.
    history: Vec<Position>,
    /// The SFEN move number of the first position.
    first_number: u32,
}

impl Default for Dobutsu {
    fn default() -> Dobutsu {
        Dobutsu::new(Position::startpos())
    }
}

impl Dobutsu {
    /// A game starting from `pos`.
    pub fn new(pos: Position) -> Dobutsu {
        Dobutsu { pos, history: Vec::with_capacity(128), first_number: 1 }
    }

    /// A game starting from an SFEN (its move number kept for
    /// [`Dobutsu::to_sfen`]).
    pub fn from_sfen(sfen: &str) -> Result<Dobutsu, SfenError> {
        let (pos, number) = Position::from_sfen_numbered(sfen)?;
        Ok(Dobutsu { first_number: number, ..Dobutsu::new(pos) })
    }

    /// A game as a command line gives its start: `startpos`, or an SFEN with or
    /// without a leading `sfen ` (its move number kept).
    pub fn from_position_text(text: &str) -> Result<Dobutsu, SfenError> {
        let text = text.trim();
        if text == "startpos" {
            return Ok(Dobutsu::default());
        }
        Dobutsu::from_sfen(text.strip_prefix("sfen ").unwrap_or(text))
    }

    /// The current position.
    #[inline]
    pub fn position(&self) -> Position {
        self.pos
    }

    /// The positions before each move made so far, oldest first.
    pub fn history(&self) -> &[Position] {
        &self.history
    }

    /// The current position's SFEN, its move number counting the moves made.
    pub fn to_sfen(&self) -> String {
        self.pos.to_sfen_numbered(self.first_number + self.history.len() as u32)
    }

    /// The current position drawn as [`Position`]'s `Display` draws it, its
    /// SFEN with the game's move number (the position alone knows none).
    pub fn board_text(&self) -> String {
        let drawn = self.pos.to_string();
        let board = drawn.rsplit_once('\n').map_or(drawn.as_str(), |(board, _)| board);
        format!("{board}\nsfen {}", self.to_sfen())
    }

    /// Plays `m`, a legal move (unchecked, as [`Position::make_move`]).
    #[inline]
    pub fn play(&mut self, m: Move) {
        self.history.push(self.pos);
        self.pos.make_move(m);
    }

    /// Parses `text` as a move here and plays it.
    pub fn play_usi(&mut self, text: &str) -> Result<Move, MoveParseError> {
        let m = self.pos.parse_move(text)?;
        self.play(m);
        Ok(m)
    }

    /// Takes back `m`, the last move played.
    ///
    /// # Panics
    /// When no move has been played.
    #[inline]
    pub fn undo(&mut self, m: Move) {
        self.pos.unmake_move(m);
        let previous = self.history.pop().expect("a move to take back");
        debug_assert_eq!(previous, self.pos, "{m} was not the last move");
    }

    /// Whether the current position occurred before, an even number of plies ago
    /// and at most `max_plies` ago (the repetition rule of [`Game::repetition`]).
    pub fn repeats(&self, max_plies: usize) -> bool {
        let n = self.history.len();
        (2..=max_plies.min(n)).step_by(2).any(|d| self.history[n - d] == self.pos)
    }
}

impl Game for Dobutsu {
    type Move = Move;

    /// A chick on the board is worth 100.
    const UNIT: Value = 100;

    /// Side × dropped or not × kind after the move (code 0 to 5) × destination.
    const HISTORY_SIZE: usize = 2 * 2 * 6 * 12;
    /// Kind after the move × destination.
    const CONTINUATION_SIZE: usize = 6 * 12;

    #[inline]
    fn side_to_move(&self) -> Side {
        match self.pos.side_to_move() {
            Color::Sente => Side::First,
            Color::Gote => Side::Second,
        }
    }

    /// [`Position::legal_moves`]: every move, those leaving the own lion
    /// capturable included.
    #[inline]
    fn legal_moves(&self, out: &mut Vec<Move>) {
        self.pos.legal_moves(out);
    }

    #[inline]
    fn make_move(&mut self, m: Move) {
        self.play(m);
    }

    #[inline]
    fn unmake_move(&mut self, m: Move) {
        self.undo(m);
    }

    /// [`Position::end`]: the side to move has won when it can capture the
    /// opposing lion (or its own lion's try survived), and has lost when its
    /// lion is gone or the opposing lion stands on its back rank.
    #[inline]
    fn outcome(&self) -> Option<Outcome> {
        self.pos.end().map(|e| if e.mover_wins() { Outcome::Win } else { Outcome::Loss })
    }

    /// A side without a move has lost (every piece blocked and nothing in hand:
    /// given for completeness, no game is known to reach it).
    fn no_moves(&self) -> Outcome {
        Outcome::Loss
    }

    /// Any earlier position of the game or the line, with the same side to move
    /// and at most `max_plies` back, makes a draw.
    #[inline]
    fn repetition(&self, max_plies: usize) -> Option<RepetitionStatus> {
        self.repeats(max_plies).then_some(RepetitionStatus::Draw)
    }

    /// [`Position::key`]: injective, so tables never confuse two positions.
    #[inline]
    fn key(&self) -> u64 {
        self.pos.key()
    }

    #[inline]
    fn evaluate(&self) -> Value {
        evaluate(&self.pos)
    }

    /// The side to move's lion is attacked.
    #[inline]
    fn in_check(&self) -> bool {
        self.pos.in_check()
    }

    /// Captures (the lion's included), chick promotions and lion steps onto the
    /// far rank (tries).
    fn tactical_moves(&self, out: &mut Vec<Move>) {
        self.pos.generate(out, Which::Tactical);
    }

    fn quiet_moves(&self, out: &mut Vec<Move>) {
        self.pos.generate(out, Which::Quiet);
    }

    #[inline]
    fn is_legal(&self, m: Move) -> bool {
        self.pos.is_legal(m)
    }

    #[inline]
    fn is_tactical(&self, m: Move) -> bool {
        self.pos.is_tactical(m)
    }

    /// Most valuable victim first, then least valuable attacker; a lion capture
    /// before everything, a try before quiet captures of little worth.
    fn tactical_order(&self, m: Move) -> i32 {
        let victim = m.captured().map_or(0, capture_gain);
        let promotion = if m.is_promotion() { 250 } else { 0 };
        let try_bonus = if m.kind() == Kind::Lion && !m.is_capture() { 300 } else { 0 };
        let attacker =
            if m.kind() == Kind::Lion { 500 } else { BOARD_VALUE[m.kind().code() as usize] };
        (victim + promotion + try_bonus) * 16 - attacker / 16
    }

    #[inline]
    fn see_ge(&self, m: Move, threshold: Value) -> bool {
        see(&self.pos, m) >= threshold
    }

    /// After `m` a piece of the mover attacks the opposing lion.
    fn gives_check(&self, m: Move) -> bool {
        let us = self.pos.side_to_move();
        let after = self.pos.after(m);
        after.lion_square(us.flip()).is_some_and(|sq| after.is_attacked(sq, us))
    }

    #[inline]
    fn encode_move(m: Move) -> u32 {
        u32::from(m.raw())
    }

    #[inline]
    fn decode_move(code: u32) -> Move {
        u16::try_from(code).map_or(Move::NONE, Move::from_raw)
    }

    #[inline]
    fn history_index(&self, m: Move) -> usize {
        let color = self.pos.side_to_move().index();
        ((color * 2 + usize::from(m.is_drop())) * 6 + m.kind_after().code() as usize) * 12
            + m.to().index()
    }

    #[inline]
    fn continuation_index(&self, m: Move) -> usize {
        m.kind_after().code() as usize * 12 + m.to().index()
    }

    /// A try that the opponent cannot answer by capturing the lion: the only
    /// move that ends the game at once where [`Game::outcome`] did not (a
    /// capture of the lion is already a win by `outcome`).
    fn mate_in_one(&mut self) -> Option<Move> {
        self.pos.winning_try()
    }

    /// The opponent's lion could step onto its far rank (our back rank) onto a
    /// square we do not attack: a try we must stop now.
    fn opponent_threatens_to_end(&self) -> bool {
        let them = self.pos.side_to_move().flip();
        let Some(lion) = self.pos.lion_square(them) else {
            return false;
        };
        let targets =
            attacks(them, Kind::Lion, lion) & row_mask(them.far_row()) & !self.pos.pieces(them);
        squares(targets).any(|sq: Square| !self.pos.is_attacked(sq, them.flip()))
    }
}
