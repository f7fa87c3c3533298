//! Zobrist keys, generated at compile time from a fixed seed so keys are the same in
//! every build (opening books and test fixtures can rely on them).
//!
//! The board key XORs one value per (piece, square); bit 0 of the board key is the
//! side to move (every piece value has bit 0 clear). The hand key is additive:
//! `count * value` per (colour, kind), so adding or removing a piece is one add.

use crate::types::{Color, Piece, PieceKind, Square};

const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (s, z ^ (z >> 31))
}

struct Keys {
    board: [[u64; 81]; Piece::NUM],
    hand: [[u64; 8]; 2],
}

const KEYS: Keys = {
    let mut keys = Keys { board: [[0; 81]; Piece::NUM], hand: [[0; 8]; 2] };
    let mut state = 0x4b59_4f42_4f5f_5a42u64; // "KYOBO_ZB"
    let mut p = 0;
    while p < Piece::NUM {
        let mut sq = 0;
        while sq < 81 {
            let (s, v) = splitmix(state);
            state = s;
            keys.board[p][sq] = v & !1;
            sq += 1;
        }
        p += 1;
    }
    let mut c = 0;
    while c < 2 {
        let mut k = 0;
        while k < 8 {
            let (s, v) = splitmix(state);
            state = s;
            keys.hand[c][k] = v & !1;
            k += 1;
        }
        c += 1;
    }
    keys
};

static BOARD: [[u64; 81]; Piece::NUM] = KEYS.board;
static HAND: [[u64; 8]; 2] = KEYS.hand;

/// XORed into the board key when White is to move.
pub const SIDE: u64 = 1;

#[inline(always)]
pub fn piece_square(piece: Piece, sq: Square) -> u64 {
    BOARD[piece.index()][sq.index()]
}

/// The amount one piece of `kind` in `color`'s hand adds to the hand key.
#[inline(always)]
pub fn hand_piece(color: Color, kind: PieceKind) -> u64 {
    HAND[color.index()][kind.index()]
}
