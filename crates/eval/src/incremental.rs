//! The terms that change only where a piece moves: material, piece-square and hand.
//! They are summed once per position set-up and then updated move by move.

use crate::weights::*;
use shogi::{Color, Move, PieceKind, Position, Square};
use std::sync::OnceLock;

/// Squares of one side of the board, centre file included (`PIECE_SQUARE` columns).
pub const SQUARES_MIRRORED: usize = 45;

/// `sq` as Black sees it with the board mirrored left to right: distance from the
/// nearer edge file (0-4) × 9 + rank (0: Black's far rank).
#[inline]
pub fn mirrored_square(sq: Square) -> usize {
    let file = sq.file() as usize;
    file.min(8 - file) * 9 + sq.relative_rank(Color::Black) as usize
}

/// Value of one piece of `kind` (owned by Black) on `sq`, material included.
fn black_piece_square(kind: PieceKind, sq: Square) -> i32 {
    let rank = sq.relative_rank(Color::Black) as usize;
    let file_from_centre = (sq.file() as i32 - 4).unsigned_abs() as usize;
    let base = piece_value(kind);
    let positional = match kind {
        PieceKind::King => KING_RANK[rank] + KING_FILE[file_from_centre],
        k if k.is_promoted() => {
            // Promoted pieces: closer to the enemy camp is better, the centre a bit.
            let advance = PROMOTED_RANK[rank];
            advance
                + if k == PieceKind::Horse || k == PieceKind::Dragon {
                    0
                } else {
                    MINOR_FILE[file_from_centre]
                }
        }
        k => {
            let by_rank = RANK_BONUS[k.index()][rank];
            let by_file = match k {
                PieceKind::Silver | PieceKind::Gold | PieceKind::Knight => {
                    MINOR_FILE[file_from_centre]
                }
                _ => 0,
            };
            by_rank + by_file
        }
    };
    base + positional + PIECE_SQUARE[kind.index()][mirrored_square(sq)]
}

/// `[color][kind][square]`, from Black's point of view (White's entries negative).
struct Tables {
    board: Vec<i32>,
    /// `[color][hand kind][count]`: cumulative value of `count` pieces in hand.
    hand: Vec<i32>,
}

const HAND_MAX: usize = 19;

fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| {
        let mut board = vec![0; 2 * PieceKind::NUM * 81];
        for color in Color::ALL {
            for kind in PieceKind::ALL {
                for sq in Square::all() {
                    // White's piece on `sq` is Black's piece on the flipped square.
                    let v = match color {
                        Color::Black => black_piece_square(kind, sq),
                        Color::White => -black_piece_square(kind, sq.flip()),
                    };
                    board[(color.index() * PieceKind::NUM + kind.index()) * 81 + sq.index()] = v;
                }
            }
        }
        let mut hand = vec![0; 2 * 8 * HAND_MAX];
        for color in Color::ALL {
            let sign = if color == Color::Black { 1 } else { -1 };
            for &kind in &PieceKind::HAND {
                let bonus = &HAND_BONUS[hand_index(kind)];
                let mut total = 0;
                for n in 1..HAND_MAX {
                    total += piece_value(kind) + bonus.get(n - 1).copied().unwrap_or(bonus[3]);
                    hand[(color.index() * 8 + kind.index()) * HAND_MAX + n] = sign * total;
                }
            }
        }
        Tables { board, hand }
    })
}

#[inline]
pub fn board_term(color: Color, kind: PieceKind, sq: Square) -> i32 {
    tables().board[(color.index() * PieceKind::NUM + kind.index()) * 81 + sq.index()]
}

#[inline]
pub fn hand_term(color: Color, kind: PieceKind, count: u32) -> i32 {
    tables().hand
        [(color.index() * 8 + kind.index()) * HAND_MAX + (count as usize).min(HAND_MAX - 1)]
}

/// The whole incremental sum of a position, from Black's side.
pub fn full(pos: &Position) -> i32 {
    let mut sum = 0;
    for sq in Square::all() {
        let p = pos.piece_on(sq);
        if let Some(kind) = p.kind() {
            sum += board_term(p.color(), kind, sq);
        }
    }
    for color in Color::ALL {
        for &kind in &PieceKind::HAND {
            sum += hand_term(color, kind, pos.hand(color).count(kind));
        }
    }
    sum
}

/// How the sum changes when the side to move of `pos` plays `m` (before it is made).
#[inline]
pub fn delta(pos: &Position, m: Move) -> i32 {
    let us = pos.side_to_move();
    let to = m.to();
    if m.is_drop() {
        let kind = m.moved_kind();
        let n = pos.hand(us).count(kind);
        return board_term(us, kind, to) + hand_term(us, kind, n - 1) - hand_term(us, kind, n);
    }
    let mut d = board_term(us, m.kind_after(), to) - board_term(us, m.moved_kind(), m.from());
    if let Some(captured) = m.captured() {
        let base = captured.unpromote();
        let n = pos.hand(us).count(base);
        d += hand_term(us, base, n + 1) - hand_term(us, base, n);
        d -= board_term(us.flip(), captured, to);
    }
    d
}

#[cfg(test)]
mod tests {
    use super::*;
    use shogi::legal_moves;

    #[test]
    fn the_start_position_is_balanced() {
        assert_eq!(full(&Position::startpos()), 0);
    }

    #[test]
    fn deltas_match_full_sums_along_random_games() {
        let mut seed = 12345u64;
        for _ in 0..20 {
            let mut pos = Position::startpos();
            let mut sum = full(&pos);
            for _ in 0..150 {
                let moves = legal_moves(&pos);
                if moves.is_empty() {
                    break;
                }
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                let m = moves[(seed >> 33) as usize % moves.len()];
                sum += delta(&pos, m);
                pos.do_move(m);
                assert_eq!(sum, full(&pos), "{}", pos.to_sfen());
            }
        }
    }
}
