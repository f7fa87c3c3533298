//! Every evaluation weight, in centipawn-like units (a pawn on the board ≈ 90).
//!
//! Started hand-set from shogi experience (material on the usual engine scale,
//! piece-square tables from a few per-rank and per-file numbers), then tuned from
//! self-play results (see `crate::params` and `kyobo-lab tune`).

use shogi::PieceKind;

// The tunable tables (`PIECE_VALUE`, `HAND_BONUS`, `RANK_BONUS`, `KING_RANK`,
// `KING_FILE`, `MINOR_FILE`, `PROMOTED_RANK`, `OWN_KING_PLACE`, `ENEMY_KING_PLACE`,
// `SLIDER_MOBILITY`, `PIECE_SQUARE`, the king-zone tables, `THREAT_FIRST`,
// `THREAT_SECOND`, `TEMPO`) are written by the tuner
// (`cargo run --release -p lab -- tune`,
// see `crate::params`) into `tuned_weights.rs`; the king-safety weights below are
// not tuned (the danger term is not linear in them).
include!("tuned_weights.rs");

/// How far each tuned weight moves by the endgame: a term counts `w + t × v` at the
/// phase `t` (0-1, see `crate::phase`). The same tables as above, by name; written by
/// the tuner with the weights above (`tune --phase`).
pub mod phase {
    include!("tuned_phase_weights.rs");
}

/// The progress model: the game's progress (GPS Shogi's, 0-510) as
/// `510 × sigmoid(Σ weight × count / 820)` over the material, piece-square and hand
/// features counted for both sides alike (`crate::params::progress_features`); only
/// those tables are non-zero. Written by `tune --progress-features`.
pub mod progress {
    include!("tuned_progress.rs");
}

// King-safety weights (hand-set).

/// Weight of one attacked king-zone square by the attacking kind.
pub const ATTACK_WEIGHT: [i32; 15] = [0, 6, 4, 6, 10, 10, 12, 12, 0, 12, 12, 12, 12, 16, 20];
/// Danger added per piece of a kind in the attacker's hand (drop threats).
pub const HAND_DANGER: [i32; 7] = [2, 4, 6, 10, 12, 10, 14];
/// Danger removed per defender (gold, silver, promoted minor) next to the king.
pub const DEFENDER_NEAR: i32 = 8;
/// Danger removed per defender two squares from the king.
pub const DEFENDER_FAR: i32 = 4;
/// Penalty = danger² / DANGER_SCALE, capped.
pub const DANGER_SCALE: i32 = 12;
pub const DANGER_CAP: i32 = 1500;
/// Bonus per own gold/silver touching the king (castle shape).
pub const GUARD_BONUS: i32 = 15;

pub fn piece_value(kind: PieceKind) -> i32 {
    PIECE_VALUE[kind.index()]
}

/// What capturing a piece of `kind` swings the material by: the owner loses it from
/// the board and the captor gains its unpromoted kind in hand. Static exchange
/// evaluation counts in these units, the same units as the evaluation.
pub fn exchange_value(kind: PieceKind) -> i32 {
    PIECE_VALUE[kind.index()] + PIECE_VALUE[kind.unpromote().index()]
}

/// Index of a hand kind in `HAND_BONUS` and `HAND_DANGER`.
pub fn hand_index(kind: PieceKind) -> usize {
    match kind {
        PieceKind::Pawn => 0,
        PieceKind::Lance => 1,
        PieceKind::Knight => 2,
        PieceKind::Silver => 3,
        PieceKind::Gold => 4,
        PieceKind::Bishop => 5,
        _ => 6,
    }
}
