//! SFEN: parsing with a typed error for every way a string can be wrong, and
//! formatting.

use crate::hand::Hand;
use crate::position::Position;
use crate::types::{Color, Piece, PieceKind, Square};
use std::fmt;

/// Everything that can be wrong with an SFEN string.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SfenError {
    /// A field is missing: `board`, `side`, `hands` (the move number is optional).
    MissingField(&'static str),
    /// More than four fields.
    TrailingInput(String),
    /// The board does not have nine ranks separated by `/`.
    RankCount(usize),
    /// A rank does not describe exactly nine squares (rank given as USI letter).
    RankWidth { rank: char, width: usize },
    /// A character that is no piece letter, digit, `+` or `/`.
    UnknownPiece(char),
    /// `+` before a piece that cannot promote (gold, king) or before nothing.
    BadPromotion(String),
    /// More pieces of a kind (board and hands together) than the set has.
    TooManyPieces { kind: char, count: u32, max: u32 },
    /// A side has two kings.
    TwoKings(Color),
    /// A pawn or lance on the last rank, a knight on the last two, for its owner.
    DeadPiece { piece: String, square: String },
    /// Two unpromoted pawns of one side on a file (file as USI digit).
    DoublePawn { color: Color, file: u8 },
    /// The side to move is not `b` or `w`.
    BadSide(String),
    /// The hands field is malformed (the message says how).
    BadHand(String),
    /// The move number is not a positive integer.
    BadMoveNumber(String),
    /// The side that just moved has left its king in check.
    OpponentInCheck,
}

impl fmt::Display for SfenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SfenError::MissingField(field) => write!(f, "missing SFEN field: {field}"),
            SfenError::TrailingInput(s) => write!(f, "unexpected text after the SFEN: '{s}'"),
            SfenError::RankCount(n) => write!(f, "the board has {n} ranks, expected 9"),
            SfenError::RankWidth { rank, width } => {
                write!(f, "rank {rank} describes {width} squares, expected 9")
            }
            SfenError::UnknownPiece(c) => write!(f, "unknown piece letter '{c}'"),
            SfenError::BadPromotion(s) => {
                write!(f, "'+' must precede a piece that promotes: '{s}'")
            }
            SfenError::TooManyPieces { kind, count, max } => {
                write!(f, "{count} pieces of kind {kind}, at most {max} exist")
            }
            SfenError::TwoKings(c) => write!(f, "{} has two kings", color_name(*c)),
            SfenError::DeadPiece { piece, square } => {
                write!(f, "{piece} on {square} could never move again")
            }
            SfenError::DoublePawn { color, file } => {
                write!(f, "{} has two pawns on file {file} (nifu)", color_name(*color))
            }
            SfenError::BadSide(s) => write!(f, "side to move must be 'b' or 'w', not '{s}'"),
            SfenError::BadHand(msg) => write!(f, "bad hands field: {msg}"),
            SfenError::BadMoveNumber(s) => write!(f, "bad move number '{s}'"),
            SfenError::OpponentInCheck => {
                write!(f, "the side not to move is in check (its king could be captured)")
            }
        }
    }
}

impl std::error::Error for SfenError {}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::Black => "black (sente)",
        Color::White => "white (gote)",
    }
}

impl Position {
    /// A position as a command line gives it: `startpos`, or an SFEN with or
    /// without a leading `sfen ` (the same text a USI `position` command holds).
    pub fn from_position_text(text: &str) -> Result<Position, SfenError> {
        let text = text.trim();
        if text == "startpos" {
            return Ok(Position::startpos());
        }
        Position::from_sfen(text.strip_prefix("sfen ").unwrap_or(text))
    }

    /// Parses `board side hands [move-number]`. Leading `sfen ` is not accepted
    /// here; USI front ends strip it.
    pub fn from_sfen(sfen: &str) -> Result<Position, SfenError> {
        let mut fields = sfen.split_ascii_whitespace();
        let board = fields.next().ok_or(SfenError::MissingField("board"))?;
        let side = fields.next().ok_or(SfenError::MissingField("side to move"))?;
        let hands = fields.next().ok_or(SfenError::MissingField("hands"))?;
        let ply = fields.next();
        if let Some(extra) = fields.next() {
            return Err(SfenError::TrailingInput(extra.to_string()));
        }

        let mut pos = Position::empty();
        let mut counts = [0u32; 9]; // by unpromoted kind value
        parse_board(board, &mut pos, &mut counts)?;

        let side = match side {
            "b" => Color::Black,
            "w" => Color::White,
            other => return Err(SfenError::BadSide(other.to_string())),
        };
        let hand_sets = parse_hands(hands)?;
        for c in Color::ALL {
            for &k in &PieceKind::HAND {
                counts[k.index()] += hand_sets[c.index()].count(k);
            }
        }
        for &k in PieceKind::HAND.iter().chain([PieceKind::King].iter()) {
            let max = k.max_count() as u32;
            if counts[k.index()] > max {
                return Err(SfenError::TooManyPieces {
                    kind: k.sfen_letter(),
                    count: counts[k.index()],
                    max,
                });
            }
        }
        for c in Color::ALL {
            pos.setup_hand(c, hand_sets[c.index()]);
        }
        let game_ply = match ply {
            None => 1,
            Some(s) => match s.parse::<u32>() {
                Ok(n) if n >= 1 => n,
                _ => return Err(SfenError::BadMoveNumber(s.to_string())),
            },
        };
        pos.setup_finish(side, game_ply);
        if let Some(ksq) = pos.king_square(side.flip()) {
            if pos.is_attacked(side, ksq, pos.occupied()) {
                return Err(SfenError::OpponentInCheck);
            }
        }
        Ok(pos)
    }

    /// The SFEN of the position, with its move number.
    pub fn to_sfen(&self) -> String {
        let mut s = String::with_capacity(96);
        for rank in 0..9 {
            let mut empty = 0;
            for file in (0..9).rev() {
                let p = self.piece_on(Square::new(file, rank));
                if p.is_empty() {
                    empty += 1;
                } else {
                    if empty > 0 {
                        s.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    s.push_str(&p.to_sfen());
                }
            }
            if empty > 0 {
                s.push(char::from(b'0' + empty));
            }
            if rank < 8 {
                s.push('/');
            }
        }
        s.push(' ');
        s.push(self.side_to_move().sfen_char());
        s.push(' ');
        let black = self.hand(Color::Black).to_string();
        let white = self.hand(Color::White).to_string().to_ascii_lowercase();
        if black.is_empty() && white.is_empty() {
            s.push('-');
        } else {
            s.push_str(&black);
            s.push_str(&white);
        }
        s.push(' ');
        s.push_str(&self.game_ply().to_string());
        s
    }
}

fn parse_board(board: &str, pos: &mut Position, counts: &mut [u32; 9]) -> Result<(), SfenError> {
    let ranks: Vec<&str> = board.split('/').collect();
    if ranks.len() != 9 {
        return Err(SfenError::RankCount(ranks.len()));
    }
    let mut kings = [0; 2];
    let mut pawn_files = [0u16; 2];
    for (rank, text) in ranks.iter().enumerate() {
        let rank_char = char::from(b'a' + rank as u8);
        let mut width = 0usize;
        let mut promoted = false;
        for c in text.chars() {
            if let Some(d) = c.to_digit(10) {
                if promoted {
                    return Err(SfenError::BadPromotion(format!("+{c}")));
                }
                if d == 0 {
                    return Err(SfenError::UnknownPiece(c));
                }
                width += d as usize;
                continue;
            }
            if c == '+' {
                if promoted {
                    return Err(SfenError::BadPromotion("++".to_string()));
                }
                promoted = true;
                continue;
            }
            let base = PieceKind::from_sfen_letter(c).ok_or(SfenError::UnknownPiece(c))?;
            let color = if c.is_ascii_uppercase() { Color::Black } else { Color::White };
            let kind = if promoted {
                if !base.can_promote() {
                    return Err(SfenError::BadPromotion(format!("+{c}")));
                }
                base.promote()
            } else {
                base
            };
            promoted = false;
            if width >= 9 {
                width += 1;
                continue; // reported as a width error below
            }
            let sq = Square::new(8 - width as u8, rank as u8);
            width += 1;
            let piece = Piece::new(color, kind);
            check_not_dead(piece, sq)?;
            if kind == PieceKind::King {
                kings[color.index()] += 1;
                if kings[color.index()] > 1 {
                    return Err(SfenError::TwoKings(color));
                }
            }
            if kind == PieceKind::Pawn {
                let bit = 1u16 << sq.file();
                if pawn_files[color.index()] & bit != 0 {
                    return Err(SfenError::DoublePawn { color, file: sq.file() + 1 });
                }
                pawn_files[color.index()] |= bit;
            }
            counts[kind.unpromote().index()] += 1;
            pos.setup_put(piece, sq);
        }
        if promoted {
            return Err(SfenError::BadPromotion("+".to_string()));
        }
        if width != 9 {
            return Err(SfenError::RankWidth { rank: rank_char, width });
        }
    }
    Ok(())
}

fn check_not_dead(piece: Piece, sq: Square) -> Result<(), SfenError> {
    let dead = piece.kind().is_some_and(|k| k.is_dead_on(sq.relative_rank(piece.color())));
    if dead {
        Err(SfenError::DeadPiece { piece: piece.to_sfen(), square: sq.to_string() })
    } else {
        Ok(())
    }
}

fn parse_hands(text: &str) -> Result<[Hand; 2], SfenError> {
    let mut hands = [Hand::EMPTY; 2];
    if text == "-" {
        return Ok(hands);
    }
    let mut count: Option<u32> = None;
    let mut seen = [[false; 9]; 2];
    for c in text.chars() {
        if let Some(d) = c.to_digit(10) {
            let n = count.unwrap_or(0) * 10 + d;
            if n > 18 {
                return Err(SfenError::BadHand(format!("count {n} is larger than any set")));
            }
            count = Some(n);
            continue;
        }
        let kind = PieceKind::from_sfen_letter(c)
            .filter(|k| *k != PieceKind::King)
            .ok_or_else(|| SfenError::BadHand(format!("'{c}' is not a piece that can be held")))?;
        let color = if c.is_ascii_uppercase() { Color::Black } else { Color::White };
        let n = count.take().unwrap_or(1);
        if n == 0 {
            return Err(SfenError::BadHand(format!("count 0 before '{c}'")));
        }
        if seen[color.index()][kind.index()] {
            return Err(SfenError::BadHand(format!("'{c}' appears twice")));
        }
        seen[color.index()][kind.index()] = true;
        let h = &mut hands[color.index()];
        *h = h.with_count(kind, n).ok_or_else(|| SfenError::TooManyPieces {
            kind: kind.sfen_letter(),
            count: n,
            max: kind.max_count() as u32,
        })?;
        if n > kind.max_count() as u32 {
            return Err(SfenError::TooManyPieces {
                kind: kind.sfen_letter(),
                count: n,
                max: kind.max_count() as u32,
            });
        }
    }
    if count.is_some() {
        return Err(SfenError::BadHand("a count with no piece after it".to_string()));
    }
    Ok(hands)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::STARTPOS;

    #[test]
    fn a_command_line_position_is_startpos_or_an_sfen() {
        crate::attacks::init();
        let start = Position::startpos();
        let prefixed = format!("sfen {STARTPOS}");
        for text in ["startpos", " startpos ", STARTPOS, prefixed.as_str()] {
            assert_eq!(Position::from_position_text(text).unwrap(), start, "{text}");
        }
        assert!(Position::from_position_text("sfen").is_err());
        assert!(Position::from_position_text("start").is_err());
    }
}
