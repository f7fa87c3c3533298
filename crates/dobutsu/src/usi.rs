//! USI-style move notation: `b3b2` (origin, destination: file letter a–c, rank
//! digit 1–4), `b2b1+` (a chick's promotion), `C*b2` (a drop: `G`, `E` or `C`,
//! uppercase for either side, as in shogi USI).
//!
//! Promotion is mandatory in Dobutsu, so on input the `+` may be left out of a
//! chick's move onto its far rank (`b2b1` and `b2b1+` are the same move); output
//! always writes it. A `+` on any other move is an error.

use crate::mv::Move;
use crate::position::Position;
use crate::types::{attacks, Kind, Square};
use std::fmt;

/// Everything that can be wrong with a move string in a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveParseError {
    /// Not of the form `b3b2`, `b2b1+` or `C*b2`.
    Syntax(String),
    /// There is no piece on the origin square.
    NoPiece(String),
    /// The piece on the origin square belongs to the opponent.
    NotYourPiece(String),
    /// The piece to drop is not in hand (its letter).
    NotInHand(char),
    /// The destination holds one of the mover's own pieces (or any piece, for a
    /// drop).
    Occupied(String),
    /// The piece does not move that way.
    Unreachable(String),
    /// `+` on a move that is not a chick reaching its far rank.
    CannotPromote(String),
}

impl fmt::Display for MoveParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveParseError::Syntax(s) => write!(f, "'{s}' is not a move (b3b2, b2b1+, C*b2)"),
            MoveParseError::NoPiece(s) => write!(f, "{s}: no piece on the origin square"),
            MoveParseError::NotYourPiece(s) => write!(f, "{s}: that piece belongs to the opponent"),
            MoveParseError::NotInHand(c) => write!(f, "no {c} in hand to drop"),
            MoveParseError::Occupied(s) => write!(f, "{s}: the destination is occupied"),
            MoveParseError::Unreachable(s) => write!(f, "{s}: the piece cannot move there"),
            MoveParseError::CannotPromote(s) => write!(f, "{s}: this move cannot promote"),
        }
    }
}

impl std::error::Error for MoveParseError {}

/// The syntactic content of a move, before the position is consulted.
enum Parsed {
    Board { from: Square, to: Square, plus: bool },
    Drop { kind: Kind, to: Square },
}

fn parse_syntax(text: &str) -> Option<Parsed> {
    if !text.is_ascii() {
        return None;
    }
    match text.as_bytes() {
        [k @ (b'G' | b'E' | b'C'), b'*', ..] if text.len() == 4 => Some(Parsed::Drop {
            kind: Kind::from_letter(char::from(*k))?,
            to: Square::parse(&text[2..4])?,
        }),
        _ if text.len() == 4 || text.len() == 5 => {
            let plus = match text.as_bytes().get(4) {
                None => false,
                Some(b'+') => true,
                Some(_) => return None,
            };
            Some(Parsed::Board {
                from: Square::parse(&text[0..2])?,
                to: Square::parse(&text[2..4])?,
                plus,
            })
        }
        _ => None,
    }
}

impl Position {
    /// The move `text` (see the module documentation) of the side to move, or
    /// why it is not one. Any move the pieces can make is accepted (the rules
    /// forbid none; see [`Position::legal_moves`]); the result is always one of
    /// them.
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveParseError> {
        let parsed = parse_syntax(text).ok_or_else(|| MoveParseError::Syntax(text.to_string()))?;
        let us = self.side_to_move();
        let err = |f: fn(String) -> MoveParseError| f(text.to_string());
        match parsed {
            Parsed::Drop { kind, to } => {
                if self.hand_count(us, kind) == 0 {
                    return Err(MoveParseError::NotInHand(kind.letter()));
                }
                if self.piece_on(to).is_some() {
                    return Err(err(MoveParseError::Occupied));
                }
                Ok(Move::drop(kind, to))
            }
            Parsed::Board { from, to, plus } => {
                let (color, kind) =
                    self.piece_on(from).ok_or_else(|| err(MoveParseError::NoPiece))?;
                if color != us {
                    return Err(err(MoveParseError::NotYourPiece));
                }
                let captured = match self.piece_on(to) {
                    Some((c, _)) if c == us => return Err(err(MoveParseError::Occupied)),
                    Some((_, k)) => Some(k),
                    None => None,
                };
                if attacks(us, kind, from) & to.bit() == 0 {
                    return Err(err(MoveParseError::Unreachable));
                }
                let promotes = kind == Kind::Chick && to.row() == us.far_row();
                if plus && !promotes {
                    return Err(err(MoveParseError::CannotPromote));
                }
                Ok(Move::board(from, to, kind, captured, promotes))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_four_first_moves_parse() {
        let pos = Position::startpos();
        for text in ["b3b2", "c4c3", "b4c3", "b4a3"] {
            let m = pos.parse_move(text).unwrap();
            assert!(pos.is_legal(m), "{text}");
            assert_eq!(m.to_string(), text);
        }
    }
}
