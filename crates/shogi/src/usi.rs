//! USI move notation (`7g7f`, `8h2b+`, `P*5e`): parsing that checks legality and
//! says precisely why a move is refused.

use crate::attacks::piece_attacks;
use crate::bitboard::Bitboard;
use crate::movegen::pawn_drop_would_mate;
use crate::mv::Move;
use crate::position::Position;
use crate::types::{PieceKind, Square};
use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveParseError {
    /// Not of the form `7g7f`, `7g7f+` or `P*7f`.
    Syntax(String),
    /// There is no piece on the origin square.
    NoPiece(String),
    /// The piece on the origin square belongs to the opponent.
    NotYourPiece(String),
    /// The piece to drop is not in hand.
    NotInHand(char),
    /// The destination holds one of the mover's own pieces (or any piece, for a drop).
    Occupied(String),
    /// The piece does not move that way (or something stands in its path).
    Unreachable(String),
    /// `+` on a move that cannot promote.
    CannotPromote(String),
    /// The piece would never move again without promoting.
    MustPromote(String),
    /// A pawn, lance or knight dropped where it could never move.
    DeadDrop(String),
    /// A second unpromoted pawn on the file.
    Nifu(String),
    /// A pawn drop that gives checkmate.
    Uchifuzume(String),
    /// The move leaves (or puts) the mover's own king in check.
    LeavesKingInCheck(String),
}

impl fmt::Display for MoveParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveParseError::Syntax(s) => write!(f, "'{s}' is not a USI move"),
            MoveParseError::NoPiece(s) => write!(f, "{s}: no piece on the origin square"),
            MoveParseError::NotYourPiece(s) => write!(f, "{s}: that piece belongs to the opponent"),
            MoveParseError::NotInHand(c) => write!(f, "no {c} in hand to drop"),
            MoveParseError::Occupied(s) => write!(f, "{s}: the destination is occupied"),
            MoveParseError::Unreachable(s) => write!(f, "{s}: the piece cannot move there"),
            MoveParseError::CannotPromote(s) => write!(f, "{s}: this move cannot promote"),
            MoveParseError::MustPromote(s) => write!(f, "{s}: the piece must promote there"),
            MoveParseError::DeadDrop(s) => write!(f, "{s}: a piece dropped there could never move"),
            MoveParseError::Nifu(s) => write!(f, "{s}: two pawns on one file (nifu)"),
            MoveParseError::Uchifuzume(s) => write!(f, "{s}: pawn-drop mate (uchifuzume)"),
            MoveParseError::LeavesKingInCheck(s) => write!(f, "{s}: leaves the king in check"),
        }
    }
}

impl std::error::Error for MoveParseError {}

/// The syntactic content of a USI move, before the position is consulted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Parsed {
    Board { from: Square, to: Square, promote: bool },
    Drop { kind: PieceKind, to: Square },
}

fn parse_syntax(text: &str) -> Option<Parsed> {
    let b = text.as_bytes();
    match b.len() {
        4 if b[1] == b'*' => {
            let kind = PieceKind::from_sfen_letter(b[0] as char)
                .filter(|k| *k != PieceKind::King && b[0].is_ascii_uppercase())?;
            Some(Parsed::Drop { kind, to: Square::from_usi(&b[2..4])? })
        }
        4 | 5 => {
            let promote = match b.get(4) {
                None => false,
                Some(b'+') => true,
                Some(_) => return None,
            };
            let from = Square::from_usi(&b[0..2])?;
            let to = Square::from_usi(&b[2..4])?;
            Some(Parsed::Board { from, to, promote })
        }
        _ => None,
    }
}

impl Position {
    /// Parses a USI move and checks that it is legal here.
    pub fn parse_usi_move(&self, text: &str) -> Result<Move, MoveParseError> {
        let parsed = parse_syntax(text).ok_or_else(|| MoveParseError::Syntax(text.to_string()))?;
        let us = self.side_to_move();
        let m = match parsed {
            Parsed::Drop { kind, to } => {
                if !self.hand(us).has(kind) {
                    return Err(MoveParseError::NotInHand(kind.sfen_letter()));
                }
                if !self.piece_on(to).is_empty() {
                    return Err(MoveParseError::Occupied(text.to_string()));
                }
                if kind.is_dead_on(to.relative_rank(us)) {
                    return Err(MoveParseError::DeadDrop(text.to_string()));
                }
                if kind == PieceKind::Pawn
                    && (self.pieces_of(us, PieceKind::Pawn) & Bitboard::file(to.file()))
                        .is_nonempty()
                {
                    return Err(MoveParseError::Nifu(text.to_string()));
                }
                Move::drop(kind, to)
            }
            Parsed::Board { from, to, promote } => {
                let piece = self.piece_on(from);
                let Some(kind) = piece.kind() else {
                    return Err(MoveParseError::NoPiece(text.to_string()));
                };
                if piece.color() != us {
                    return Err(MoveParseError::NotYourPiece(text.to_string()));
                }
                let target = self.piece_on(to);
                if !target.is_empty() && target.color() == us {
                    return Err(MoveParseError::Occupied(text.to_string()));
                }
                if !piece_attacks(us, kind, from, self.occupied()).contains(to) {
                    return Err(MoveParseError::Unreachable(text.to_string()));
                }
                let zone = Bitboard::promotion_zone(us);
                let in_zone = zone.contains(from) || zone.contains(to);
                if promote && !(kind.can_promote() && in_zone) {
                    return Err(MoveParseError::CannotPromote(text.to_string()));
                }
                if kind.is_dead_on(to.relative_rank(us)) && !promote {
                    return Err(MoveParseError::MustPromote(text.to_string()));
                }
                Move::board(from, to, promote, kind, target.kind())
            }
        };
        if self.is_legal(m) {
            return Ok(m);
        }
        if m.is_drop() && m.moved_kind() == PieceKind::Pawn && pawn_drop_would_mate(self, m.to()) {
            return Err(MoveParseError::Uchifuzume(text.to_string()));
        }
        Err(MoveParseError::LeavesKingInCheck(text.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_legal_moves() {
        let pos = Position::startpos();
        let m = pos.parse_usi_move("7g7f").unwrap();
        assert_eq!(m.to_usi(), "7g7f");
        assert_eq!(m.moved_kind(), PieceKind::Pawn);
    }

    #[test]
    fn explains_refusals() {
        let pos = Position::startpos();
        let cases = [
            ("7g7", MoveParseError::Syntax("7g7".into())),
            ("7g7f=", MoveParseError::Syntax("7g7f=".into())),
            ("k*5e", MoveParseError::Syntax("k*5e".into())),
            ("K*5e", MoveParseError::Syntax("K*5e".into())),
            ("p*5e", MoveParseError::Syntax("p*5e".into())),
            ("0a1a", MoveParseError::Syntax("0a1a".into())),
            ("5e5d", MoveParseError::NoPiece("5e5d".into())),
            ("3c3d", MoveParseError::NotYourPiece("3c3d".into())),
            ("P*5e", MoveParseError::NotInHand('P')),
            ("9i8i", MoveParseError::Occupied("9i8i".into())),
            ("7g7e", MoveParseError::Unreachable("7g7e".into())),
            ("8h2b", MoveParseError::Unreachable("8h2b".into())),
            ("7g7f+", MoveParseError::CannotPromote("7g7f+".into())),
        ];
        for (text, want) in cases {
            assert_eq!(pos.parse_usi_move(text), Err(want), "{text}");
        }
    }
}
