//! The game trait: everything search needs to know about a game, and nothing more.
//!
//! Only the first block of methods is required; the textbook algorithms use nothing
//! else. The rest have defaults that make any game searchable by the classical engine
//! and are overridden by games that can do better (staged generation, static exchange
//! evaluation, null moves, repetition rules).

use crate::value::{mated_in, Value};
use std::fmt::{Debug, Display};

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

pub trait Game: Clone + Send + 'static {
    /// A move. `Default` is "no move".
    type Move: Copy + Eq + Default + Debug + Display + Send + Sync + 'static;

    /// Size of the table [`Game::history_index`] indexes.
    const HISTORY_SIZE: usize = 1;
    /// How many values [`Game::continuation_index`] takes.
    const CONTINUATION_SIZE: usize = 1;

    // ---- Required -----------------------------------------------------------

    /// Appends every legal move of the side to move.
    fn legal_moves(&self, out: &mut Vec<Self::Move>);
    fn make_move(&mut self, m: Self::Move);
    /// Takes back `m`, the last move made.
    fn unmake_move(&mut self, m: Self::Move);
    /// The static value from the side to move's point of view.
    fn evaluate(&self) -> Value;

    // ---- Terminal positions and hashing --------------------------------------

    /// The value of a position without legal moves, `ply` plies from the root.
    /// Default: the side to move has lost (shogi, Dobutsu shogi).
    fn no_moves_value(&self, ply: i32) -> Value {
        mated_in(ply)
    }

    /// Whether the side to move can claim a win without moving (shogi's entering-king
    /// declaration). Searched as a mate at this node.
    fn can_claim_win(&self) -> bool {
        false
    }

    /// Zobrist-style key of the position (side to move included). Games that return
    /// 0 everywhere simply get no transposition table hits worth speaking of.
    fn key(&self) -> u64 {
        0
    }

    /// Whether an earlier position of the line (at most `max_plies` back) repeats.
    fn repetition(&self, _max_plies: usize) -> Option<RepetitionStatus> {
        None
    }

    fn in_check(&self) -> bool {
        false
    }

    // ---- Staged move generation ------------------------------------------------

    /// Tactical moves (captures, and promotions the game thinks worth it) for the
    /// side to move when not in check. Together with `quiet_moves` the legal moves.
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

    /// Static exchange evaluation: does `m` win at least `threshold`?
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

    /// A move that mates at once, if the game can find one cheaply (not in check).
    fn mate_in_one(&mut self) -> Option<Self::Move> {
        None
    }

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

    // ---- Null move -----------------------------------------------------------

    /// Whether passing is a sound approximation here (not in check, enough material).
    fn null_move_allowed(&self) -> bool {
        false
    }
    fn make_null_move(&mut self) {}
    fn unmake_null_move(&mut self) {}

    // ---- Transposition table encoding -----------------------------------------

    /// The move as 32 bits for the hash table (0 reserved for "none").
    fn encode_move(_m: Self::Move) -> u32 {
        0
    }
    /// The move back from 32 bits; legality is checked separately.
    fn decode_move(_code: u32) -> Self::Move {
        Self::Move::default()
    }
}
