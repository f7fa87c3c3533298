//! The game trait: everything search needs to know about a game, and nothing more.
//!
//! Three groups of methods:
//! - **The rules** (required): the sides, the moves, making and unmaking them, the
//!   end of the game, repetitions, a position key, the static value and the game's
//!   value unit. The textbook algorithms use nothing else, and with these alone
//!   every algorithm of this crate searches the game correctly.
//! - **Tactics** (defaults that hold for any game): staged generation, check, the
//!   legality of a move from another position, static exchange evaluation, the
//!   table encoding of moves. Quiescence search and move ordering use them; a game
//!   that keeps the defaults gets no quiescence and no hash moves, never a wrong
//!   value.
//! - **Heuristics of the PVS engine** (defaults that turn them off): history
//!   indices, null moves, mates in one.

use crate::value::{mate_in, mated_in, Value, DRAW};
use std::fmt::{Debug, Display};

/// The two players. `First` moves first from the game's usual start (shogi's
/// Black, sente).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    First,
    Second,
}

impl Side {
    pub const fn flip(self) -> Side {
        match self {
            Side::First => Side::Second,
            Side::Second => Side::First,
        }
    }

    /// 0 for `First`, 1 for `Second`: an index for per-side tables.
    pub const fn index(self) -> usize {
        self as usize
    }
}

/// How the rules have ended the game, seen from the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The side to move wins without moving (a claim such as shogi's entering-king
    /// declaration): valued as a mate in one ply.
    Win,
    /// The side to move has lost (its king or lion is gone, the opponent's lion
    /// made its try, it is mated or has no move where that loses).
    Loss,
    Draw,
    /// The game ends here with this value for the side to move (the leaves of a
    /// tree given as data).
    Payoff(Value),
}

impl Outcome {
    /// The search value of this end `ply` plies from the root: mates count the
    /// plies to them, so that a nearer win is worth more.
    pub const fn value(self, ply: i32) -> Value {
        match self {
            Outcome::Win => mate_in(ply + 1),
            Outcome::Loss => mated_in(ply),
            Outcome::Draw => DRAW,
            Outcome::Payoff(v) => v,
        }
    }
}

/// What repeating an earlier position of the line means for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RepetitionStatus {
    /// A plain repetition (or any other draw the rules decide here).
    Draw,
    /// The side to move wins (the opponent checked perpetually).
    Win,
    /// The side to move loses (it checked perpetually).
    Loss,
    /// Same board, and the side to move holds more than before: as good as a gain.
    Superior,
    /// Same board, and the side to move holds less than before.
    Inferior,
}

impl RepetitionStatus {
    /// The search value of this repetition `ply` plies from the root, for a game
    /// whose unit is `unit`: a superior position is worth 30 units, less than any
    /// mate.
    pub const fn value(self, ply: i32, unit: Value) -> Value {
        match self {
            RepetitionStatus::Draw => DRAW,
            RepetitionStatus::Win => mate_in(ply),
            RepetitionStatus::Loss => mated_in(ply),
            RepetitionStatus::Superior => 30 * unit,
            RepetitionStatus::Inferior => -30 * unit,
        }
    }
}

pub trait Game: Clone + Send + 'static {
    /// A move. `Default` is "no move".
    type Move: Copy + Eq + Default + Debug + Display + Send + Sync + 'static;

    /// The value of the game's ordinary unit of material (shogi: a pawn, 100).
    /// Every margin of the search (futility, aspiration windows, exchange
    /// thresholds, the worth of a superior repetition) is written in hundredths of
    /// it, so that the search prunes each game on that game's scale.
    const UNIT: Value;

    // ---- The rules (required) -------------------------------------------------

    fn side_to_move(&self) -> Side;

    /// Appends every legal move of the side to move.
    fn legal_moves(&self, out: &mut Vec<Self::Move>);
    fn make_move(&mut self, m: Self::Move);
    /// Takes back `m`, the last move made.
    fn unmake_move(&mut self, m: Self::Move);

    /// Whether the rules end the game here, before any move is generated: a king or
    /// lion captured, a try, a declaration that wins, a move limit, a board full.
    /// Every algorithm asks this first at every node, quiescence included, so it
    /// must be cheap. Having no legal move is not asked here (finding out needs
    /// the moves): see [`Game::no_moves`].
    fn outcome(&self) -> Option<Outcome>;

    /// What having no legal move means where [`Game::outcome`] found no end
    /// (shogi and Dobutsu shogi: a loss).
    fn no_moves(&self) -> Outcome;

    /// Whether the position repeats one at most `max_plies` earlier in the game
    /// (the search's line included), and what that means. Games whose positions
    /// never repeat return `None`.
    fn repetition(&self, max_plies: usize) -> Option<RepetitionStatus>;

    /// The position's key (side to move included) for the tables, equal for equal
    /// positions and different otherwise but for rare collisions: a Zobrist hash,
    /// or any injective encoding mixed into 64 bits.
    fn key(&self) -> u64;

    /// The static value from the side to move's point of view, within
    /// ±`value::MATE_IN_MAX_PLY`.
    fn evaluate(&self) -> Value;

    // ---- Tactics: quiescence and move ordering ----------------------------------

    fn in_check(&self) -> bool {
        false
    }

    /// Tactical moves (captures, and promotions the game thinks worth it) for the
    /// side to move when not in check: what quiescence search tries. Together with
    /// `quiet_moves` the legal moves. Default: none (no quiescence).
    fn tactical_moves(&self, _out: &mut Vec<Self::Move>) {}

    /// Every legal move not produced by `tactical_moves` (when not in check).
    fn quiet_moves(&self, out: &mut Vec<Self::Move>) {
        self.legal_moves(out)
    }

    /// All legal moves when in check.
    fn evasions(&self, out: &mut Vec<Self::Move>) {
        self.legal_moves(out)
    }

    /// Whether `m` (perhaps from another position: a hash or killer move) is legal here.
    fn is_legal(&self, m: Self::Move) -> bool {
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        moves.contains(&m)
    }

    /// Whether `m` belongs to `tactical_moves`.
    fn is_tactical(&self, _m: Self::Move) -> bool {
        false
    }

    /// Ordering score of a tactical move, larger first (MVV-LVA style).
    fn tactical_order(&self, _m: Self::Move) -> i32 {
        0
    }

    /// Static exchange evaluation: does `m` win at least `threshold`? Default:
    /// every move is an even exchange.
    fn see_ge(&self, _m: Self::Move, threshold: Value) -> bool {
        threshold <= 0
    }

    fn gives_check(&self, _m: Self::Move) -> bool {
        false
    }

    /// `gives_check` for each of `moves`, written to `out` (cleared first). Games
    /// that can share work between the moves of one position override it.
    fn gives_check_each(&self, moves: &[Self::Move], out: &mut Vec<bool>) {
        out.clear();
        out.extend(moves.iter().map(|&m| self.gives_check(m)));
    }

    /// The move as 32 bits for the tables (0 reserved for "none"). Default: every
    /// move is stored as none, so the tables keep values but no moves.
    fn encode_move(_m: Self::Move) -> u32 {
        0
    }

    /// The move back from 32 bits; legality is checked separately.
    fn decode_move(_code: u32) -> Self::Move {
        Self::Move::default()
    }

    // ---- Heuristics of the PVS engine --------------------------------------------

    /// Size of the table [`Game::history_index`] indexes.
    const HISTORY_SIZE: usize = 1;
    /// How many values [`Game::continuation_index`] takes.
    const CONTINUATION_SIZE: usize = 1;

    /// Index of `m` in the history table, below `HISTORY_SIZE` (typically piece × to).
    fn history_index(&self, _m: Self::Move) -> usize {
        0
    }

    /// Index of `m` for continuation history, below `CONTINUATION_SIZE`: what the
    /// move is regardless of who plays it (typically the piece it leaves on its
    /// destination × that square). Asked before `m` is made.
    fn continuation_index(&self, _m: Self::Move) -> usize {
        0
    }

    /// A move that mates at once, if the game can find one cheaply (not in check).
    fn mate_in_one(&mut self) -> Option<Self::Move> {
        None
    }

    /// Whether the opponent could end the game on its next move by a rule alone
    /// (shogi's declaration, Dobutsu's try), unless this side stops it: pruning
    /// that trusts the static value (reverse futility, null move) is then off.
    fn opponent_threatens_to_end(&self) -> bool {
        false
    }

    /// Keys of features of the position its static value errs by alike (in
    /// shogi: the hands, the pawns, the kings' squares), each with the side to
    /// move, for correction history (see [`crate::correction`]). `None` (the
    /// default): no correction.
    fn correction_keys(&self) -> Option<[u64; crate::correction::FEATURES]> {
        None
    }

    /// Whether passing is a sound approximation here (not in check, enough material).
    fn null_move_allowed(&self) -> bool {
        false
    }
    fn make_null_move(&mut self) {}
    fn unmake_null_move(&mut self) {}
}

/// `hundredths` of the game's unit: the search's margins are written in
/// hundredths of a pawn and scale with the game.
#[inline(always)]
pub const fn units<G: Game>(hundredths: Value) -> Value {
    hundredths * G::UNIT / 100
}

/// The end-of-game test every algorithm asks first at every node: the value of
/// the rules' verdict `ply` plies from the root, if they ended the game here.
#[inline(always)]
pub fn rules_end<G: Game>(game: &G, ply: i32) -> Option<Value> {
    game.outcome().map(|o| o.value(ply))
}
