//! The terms that change only where a piece moves: material, piece-square and hand,
//! and every piece's place relative to both kings (which a king's move changes for
//! every piece). They are summed once per position set-up and then updated move by
//! move.

use crate::king_safety::{king_proximity, king_proximity_with, placed_value};
use crate::params;
use crate::phase::{pair, Pair};
use shogi::{Bitboard, Color, Move, PieceKind, Position, Square};
use std::sync::OnceLock;

/// The incremental part of the evaluation: the material, piece-square and hand sum as
/// a [`Pair`] (base and phase weights, from Black's side) and the progress model's
/// sum over the same features (the same for both sides).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Sums {
    pub score: Pair,
    pub progress: i32,
    /// [`king_proximity`]: every piece by its place relative to both kings.
    pub proximity: Pair,
}

impl std::ops::Add for Sums {
    type Output = Sums;
    #[inline]
    fn add(self, o: Sums) -> Sums {
        Sums {
            score: self.score + o.score,
            progress: self.progress + o.progress,
            proximity: self.proximity + o.proximity,
        }
    }
}

impl std::ops::Sub for Sums {
    type Output = Sums;
    #[inline]
    fn sub(self, o: Sums) -> Sums {
        Sums {
            score: self.score - o.score,
            progress: self.progress - o.progress,
            proximity: self.proximity - o.proximity,
        }
    }
}

impl std::ops::AddAssign for Sums {
    #[inline]
    fn add_assign(&mut self, o: Sums) {
        *self = *self + o;
    }
}

impl std::ops::SubAssign for Sums {
    #[inline]
    fn sub_assign(&mut self, o: Sums) {
        *self = *self - o;
    }
}

/// `[color][kind][square]` and `[color][hand kind][count]` (cumulative), each the sum
/// of the weights of the features `crate::params` lists for it, so the tuner's
/// features and these tables cannot disagree.
struct Tables {
    board: Vec<Sums>,
    hand: Vec<Sums>,
}

const HAND_MAX: usize = 19;

fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| {
        let (base, phase, progress) = (params::current(), params::phase(), params::progress());
        // Black's side: the pair signed by owner, the progress the same for both.
        let sums = |indices: &[usize], sign: i32| Sums {
            score: sign as Pair
                * pair(
                    indices.iter().map(|&i| base[i]).sum(),
                    indices.iter().map(|&i| phase[i]).sum(),
                ),
            progress: indices.iter().map(|&i| progress[i]).sum(),
            proximity: 0,
        };
        let mut idx = Vec::new();
        let mut board = vec![Sums::default(); 2 * PieceKind::NUM * 81];
        for color in Color::ALL {
            let sign = if color == Color::Black { 1 } else { -1 };
            for kind in PieceKind::ALL {
                for sq in Square::all() {
                    // White's piece on `sq` is Black's piece on the flipped square.
                    let black_sq = if color == Color::Black { sq } else { sq.flip() };
                    idx.clear();
                    params::piece_square_indices(kind, black_sq, &mut idx);
                    board[(color.index() * PieceKind::NUM + kind.index()) * 81 + sq.index()] =
                        sums(&idx, sign);
                }
            }
        }
        let mut hand = vec![Sums::default(); 2 * 8 * HAND_MAX];
        for color in Color::ALL {
            let sign = if color == Color::Black { 1 } else { -1 };
            for &kind in &PieceKind::HAND {
                for n in 1..HAND_MAX {
                    idx.clear();
                    params::hand_indices(kind, n as u32, &mut idx);
                    hand[(color.index() * 8 + kind.index()) * HAND_MAX + n] = sums(&idx, sign);
                }
            }
        }
        Tables { board, hand }
    })
}

#[inline]
pub fn board_term(color: Color, kind: PieceKind, sq: Square) -> Sums {
    tables().board[(color.index() * PieceKind::NUM + kind.index()) * 81 + sq.index()]
}

#[inline]
pub fn hand_term(color: Color, kind: PieceKind, count: u32) -> Sums {
    tables().hand
        [(color.index() * 8 + kind.index()) * HAND_MAX + (count as usize).min(HAND_MAX - 1)]
}

/// The whole incremental sum of a position.
pub fn full(pos: &Position) -> Sums {
    let mut sum = Sums::default();
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
    sum.proximity = king_proximity(pos);
    sum
}

/// The sums after the side to move of `pos` plays `m`, from `sums`, those of
/// `pos` (before the move is made).
#[inline]
pub fn after(sums: Sums, pos: &Position, m: Move) -> Sums {
    let mut next = sums + delta(pos, m);
    if !m.is_drop() && m.moved_kind() == PieceKind::King {
        // Every piece's place changes: summed again, where the king will stand.
        if let (Some(bk), Some(wk)) = (pos.king_square(Color::Black), pos.king_square(Color::White))
        {
            let (bk, wk) = match pos.side_to_move() {
                Color::Black => (m.to(), wk),
                Color::White => (bk, m.to()),
            };
            next.proximity = king_proximity_with(pos, bk, wk, Bitboard::from_square(m.to()));
        }
    }
    next
}

/// How the sum changes when the side to move of `pos` plays `m` (before it is
/// made), but for the places of a king's move (see [`after`]).
#[inline]
fn delta(pos: &Position, m: Move) -> Sums {
    let us = pos.side_to_move();
    let to = m.to();
    let mut d = if m.is_drop() {
        let kind = m.moved_kind();
        let n = pos.hand(us).count(kind);
        board_term(us, kind, to) + hand_term(us, kind, n - 1) - hand_term(us, kind, n)
    } else {
        let mut d = board_term(us, m.kind_after(), to) - board_term(us, m.moved_kind(), m.from());
        if let Some(captured) = m.captured() {
            let base = captured.unpromote();
            let n = pos.hand(us).count(base);
            d += hand_term(us, base, n + 1) - hand_term(us, base, n);
            d -= board_term(us.flip(), captured, to);
        }
        d
    };
    d.proximity = proximity_delta(pos, m);
    d
}

/// How [`king_proximity`] changes with `m` (before it is made): the moved,
/// dropped and captured pieces' places (0 without both kings, whose proximity is
/// 0; a king's move is left to [`after`]).
#[inline]
fn proximity_delta(pos: &Position, m: Move) -> Pair {
    let (Some(bk), Some(wk)) = (pos.king_square(Color::Black), pos.king_square(Color::White))
    else {
        return 0;
    };
    let us = pos.side_to_move();
    let to = m.to();
    if m.is_drop() {
        return placed_value(us, m.moved_kind(), to, bk, wk);
    }
    if m.moved_kind() == PieceKind::King {
        return 0;
    }
    let mut d = placed_value(us, m.kind_after(), to, bk, wk)
        - placed_value(us, m.moved_kind(), m.from(), bk, wk);
    if let Some(captured) = m.captured() {
        d -= placed_value(us.flip(), captured, to, bk, wk);
    }
    d
}

#[cfg(test)]
mod tests {
    use super::*;
    use shogi::legal_moves;

    #[test]
    fn the_start_position_is_balanced() {
        assert_eq!(full(&Position::startpos()).score, 0);
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
                sum = after(sum, &pos, m);
                pos.do_move(m);
                assert_eq!(sum, full(&pos), "{}", pos.to_sfen());
            }
        }
    }
}
