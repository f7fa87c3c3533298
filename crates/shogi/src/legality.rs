//! Legality of one move without generating the others: for moves that come from
//! elsewhere (a hash table, a killer slot, a record), which may belong to another
//! position altogether.

use crate::attacks::{line, piece_attacks};
use crate::bitboard::Bitboard;
use crate::movegen::{generate_evasions, pawn_drop_would_mate, MoveList};
use crate::mv::Move;
use crate::position::Position;
use crate::types::PieceKind;

impl Position {
    /// Whether `m` is one of this position's legal moves: exactly
    /// `legal_moves(self).contains(m)`, for any `m` (`Move::NONE` included),
    /// without generating the moves when not in check. The moved and captured
    /// kinds must match the board: a move read back from another position is
    /// refused when they differ.
    pub fn is_legal(&self, m: Move) -> bool {
        if m.is_none() {
            return false;
        }
        if self.in_check() {
            let mut evasions = MoveList::new();
            generate_evasions(self, &mut evasions);
            return evasions.contains(m);
        }
        if m.is_drop() {
            self.is_legal_drop(m)
        } else {
            self.is_legal_board_move(m)
        }
    }

    /// A drop, not in check: the piece in hand, an empty square it can move on
    /// from, no second pawn on the file, no pawn-drop mate.
    fn is_legal_drop(&self, m: Move) -> bool {
        let us = self.side_to_move();
        let (kind, to) = (m.moved_kind(), m.to());
        if kind == PieceKind::King
            || !self.hand(us).has(kind)
            || !self.piece_on(to).is_empty()
            || kind.is_dead_on(to.relative_rank(us))
        {
            return false;
        }
        kind != PieceKind::Pawn
            || ((self.pieces_of(us, PieceKind::Pawn) & Bitboard::file(to.file())).is_empty()
                && !pawn_drop_would_mate(self, to))
    }

    /// A board move, not in check: our piece of the stated kind reaches a square
    /// holding the stated capture, promotes only where it may and must where it
    /// would be dead, and leaves our king safe.
    fn is_legal_board_move(&self, m: Move) -> bool {
        let us = self.side_to_move();
        let (from, to, moved) = (m.from(), m.to(), m.moved_kind());
        let piece = self.piece_on(from);
        let target = self.piece_on(to);
        if piece.is_empty() || piece.color() != us || piece.kind() != Some(moved) {
            return false;
        }
        if target.kind() != m.captured() || (!target.is_empty() && target.color() == us) {
            return false;
        }
        let occupied = self.occupied();
        if !piece_attacks(us, moved, from, occupied).contains(to) {
            return false;
        }
        if m.is_promotion() {
            let zone = Bitboard::promotion_zone(us);
            if !moved.can_promote() || !(zone.contains(from) || zone.contains(to)) {
                return false;
            }
        } else if moved.is_dead_on(to.relative_rank(us)) {
            return false;
        }
        if moved == PieceKind::King {
            return !self.is_attacked(us.flip(), to, occupied ^ Bitboard::from_square(from));
        }
        match self.king_square(us) {
            Some(king) if self.pinned(us).contains(from) => line(king, from).contains(to),
            _ => true,
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::movegen::legal_moves;
    use crate::{Move, Position};

    /// Moves legal in other positions of random games are judged exactly as the
    /// generator judges them, in check or not.
    #[test]
    fn foreign_moves_are_judged_as_the_generator_judges_them() {
        let mut seed = 99u64;
        let mut pool: Vec<Move> = Vec::new();
        for _ in 0..30 {
            let mut pos = Position::startpos();
            for _ in 0..120 {
                let moves = legal_moves(&pos);
                if moves.is_empty() {
                    break;
                }
                for &m in pool.iter().rev().take(200) {
                    assert_eq!(pos.is_legal(m), moves.contains(m), "{m} in {}", pos.to_sfen());
                }
                for &m in moves.as_slice() {
                    assert!(pos.is_legal(m), "{m} in {}", pos.to_sfen());
                }
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                let m = moves.as_slice()[(seed >> 33) as usize % moves.len()];
                pool.push(m);
                pos.do_move(m);
            }
        }
        assert!(!Position::startpos().is_legal(Move::NONE));
    }
}
