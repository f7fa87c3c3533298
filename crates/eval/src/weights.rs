//! Every evaluation weight, in centipawn-like units (a pawn on the board ≈ 90).
//!
//! Hand-set from shogi experience: material follows the usual engine scale,
//! piece-square tables are built from a few per-rank and per-file numbers, and king
//! safety from per-kind attack weights.

use shogi::PieceKind;

/// Board value by `PieceKind` index (0 unused, king 0: it is never captured).
///
/// Shogi scale: the major pieces are worth far less against the golds and silvers
/// than in chess (every capture also arms the captor), and a promoted small piece
/// is worth more than a gold because taking it back yields only the small piece.
pub const PIECE_VALUE: [i32; 15] = [
    0,   // none
    90,  // pawn
    245, // lance
    275, // knight
    385, // silver
    590, // bishop
    665, // rook
    450, // gold
    0,   // king
    520, // promoted pawn (tokin)
    485, // promoted lance
    500, // promoted knight
    490, // promoted silver
    840, // horse
    960, // dragon
];

/// The extra a piece is worth in hand over on the board, for the first, second, …
/// piece of a kind: a piece in hand can go anywhere, the first one most usefully.
/// Indexed by hand kind (pawn, lance, knight, silver, gold, bishop, rook).
pub const HAND_BONUS: [[i32; 4]; 7] = [
    [25, 15, 10, 5],  // pawn (more pawns: +5 each)
    [20, 10, 5, 5],   // lance
    [25, 15, 10, 5],  // knight
    [35, 20, 10, 5],  // silver
    [40, 25, 15, 10], // gold
    [60, 30, 0, 0],   // bishop
    [70, 35, 0, 0],   // rook
];

/// Piece-square terms by rank as the owner sees it (0: the far rank, 8: home),
/// for the kinds where the rank matters most.
pub const RANK_BONUS: [[i32; 9]; 8] = [
    [0; 9],                                  // none
    [10, 25, 30, 20, 8, 0, 0, -5, 0],        // pawn: advanced pawns press
    [0, 10, 10, 5, 0, 0, 0, 0, 5],           // lance
    [-60, -40, 15, 20, 10, 0, -5, -10, -20], // knight: stuck on the far ranks
    [0, 10, 15, 10, 5, 5, 10, 5, -10],       // silver
    [0, 0, 5, 5, 0, 0, 0, 5, 0],             // bishop
    [15, 20, 10, 0, 0, 0, 0, 5, 0],          // rook: active in the enemy camp
    [-15, 0, 10, 10, 5, 5, 10, 10, 0],       // gold
];

/// King by rank as its owner sees it: safest at home, in danger in the middle.
pub const KING_RANK: [i32; 9] = [30, 10, -40, -70, -80, -60, -20, 5, 10];
/// King by file distance from the centre (0: central file, 4: edge).
pub const KING_FILE: [i32; 5] = [-25, -10, 5, 10, 0];
/// Small pieces by file distance from the centre.
pub const MINOR_FILE: [i32; 5] = [5, 5, 0, -5, -15];

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

/// Having the move is worth this much.
pub const TEMPO: i32 = 20;

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

/// Bonus for a piece by its distance (king steps, 1..=4+) from its own king:
/// guards close to their king make the castle. Indexed by kind, then distance.
pub const NEAR_OWN_KING: [[i32; 5]; 15] = [
    [0; 5],            // none
    [0, 5, 0, 0, 0],   // pawn
    [0, 0, 0, 0, 0],   // lance
    [0, 0, 0, 0, 0],   // knight
    [0, 25, 15, 5, 0], // silver
    [0, 0, 0, 0, 0],   // bishop
    [0, 0, 0, 0, 0],   // rook
    [0, 35, 20, 5, 0], // gold
    [0; 5],            // king
    [0, 25, 15, 5, 0], // tokin
    [0, 25, 15, 5, 0], // promoted lance
    [0, 25, 15, 5, 0], // promoted knight
    [0, 25, 15, 5, 0], // promoted silver
    [0, 20, 10, 0, 0], // horse
    [0, 5, 0, 0, 0],   // dragon
];

/// Bonus for a piece by its distance from the enemy king: attackers close to it.
pub const NEAR_ENEMY_KING: [[i32; 5]; 15] = [
    [0; 5],             // none
    [0, 15, 10, 0, 0],  // pawn
    [0, 10, 5, 0, 0],   // lance
    [0, 10, 20, 10, 0], // knight
    [0, 35, 20, 8, 0],  // silver
    [0, 15, 10, 5, 0],  // bishop
    [0, 20, 15, 5, 0],  // rook
    [0, 40, 25, 8, 0],  // gold
    [0; 5],             // king
    [0, 40, 25, 8, 0],  // tokin
    [0, 40, 25, 8, 0],  // promoted lance
    [0, 40, 25, 8, 0],  // promoted knight
    [0, 40, 25, 8, 0],  // promoted silver
    [0, 45, 30, 15, 5], // horse
    [0, 55, 35, 15, 5], // dragon
];
