//! SFEN-style position strings, with a typed error for every way a string can
//! be wrong, and the board drawing of `Display`.
//!
//! `board side hands [move-number]`, as in shogi:
//! - the board: ranks 1 to 4 from the top (Gote's back rank first), separated
//!   by `/`; in each rank files a to c from the left; `L G E C` Sente's lion,
//!   giraffe, elephant, chick (uppercase), `l g e c` Gote's; a hen is `+C` / `+c`
//!   (`H` / `h` are accepted on input); digits 1 to 3 count empty squares;
//! - the side to move: `b` (Sente) or `w` (Gote);
//! - the hands: `-`, or for each held kind an optional count (1 or 2) and its
//!   letter, Sente's (uppercase) and Gote's (lowercase) in any order; written
//!   Sente first, each side giraffe, elephant, chick (`G2Ce`);
//! - the move number: optional on input (1), a positive integer.
//!
//! A position must have one lion of each side on the board and at most two
//! giraffes, two elephants and two chicks-or-hens in all (board and hands).
//! Everything else that a game could not reach is allowed (a chick dropped on
//! its far rank, fewer pieces than a full set, a game already over), as the
//! rules say what happens there.

use crate::position::Position;
use crate::types::{Color, Kind, Square};
use std::fmt;
use std::str::FromStr;

/// The start position.
pub const STARTPOS: &str = "gle/1c1/1C1/ELG b - 1";

/// Everything that can be wrong with an SFEN string.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SfenError {
    /// A field is missing: `board`, `side to move` or `hands` (the move number
    /// is optional).
    MissingField(&'static str),
    /// More than four fields.
    TrailingInput(String),
    /// The board does not have four ranks separated by `/`.
    RankCount(usize),
    /// A rank (1 to 4) does not describe exactly three squares.
    RankWidth { rank: u8, width: usize },
    /// A character that is no piece letter, digit 1–3, `+` or `/` (a `0` or a
    /// digit above 3 included).
    UnknownPiece(char),
    /// `+` before something other than a chick (`C`/`c`).
    BadPromotion(String),
    /// A side has no lion or more than one on the board.
    LionCount { color: Color, count: u32 },
    /// More than two pieces of a kind in all (board and both hands; chicks and
    /// hens counted together), kind as its uppercase letter.
    TooManyPieces { kind: char, count: u32, max: u32 },
    /// The side to move is not `b` or `w`.
    BadSide(String),
    /// A letter in the hands that cannot be held: a lion, a hen, or no piece.
    BadHandPiece(String),
    /// A count in the hands that is not 1 or 2, or a count with no letter after.
    BadHandCount(String),
    /// A kind given twice for the same side in the hands.
    DuplicateHandPiece(char),
    /// The move number is not a positive integer.
    BadMoveNumber(String),
}

impl fmt::Display for SfenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SfenError::MissingField(field) => write!(f, "missing SFEN field: {field}"),
            SfenError::TrailingInput(s) => write!(f, "unexpected text after the SFEN: '{s}'"),
            SfenError::RankCount(n) => write!(f, "the board has {n} ranks, expected 4"),
            SfenError::RankWidth { rank, width } => {
                write!(f, "rank {rank} describes {width} squares, expected 3")
            }
            SfenError::UnknownPiece(c) => write!(f, "unknown piece letter '{c}'"),
            SfenError::BadPromotion(s) => write!(f, "'+' must precede a chick: '{s}'"),
            SfenError::LionCount { color, count } => {
                write!(f, "{color} has {count} lions on the board, expected 1")
            }
            SfenError::TooManyPieces { kind, count, max } => {
                write!(f, "{count} pieces of kind {kind}, at most {max} exist")
            }
            SfenError::BadSide(s) => write!(f, "side to move must be 'b' or 'w', not '{s}'"),
            SfenError::BadHandPiece(s) => write!(f, "'{s}' cannot be held in hand"),
            SfenError::BadHandCount(s) => {
                write!(f, "bad count in the hands: '{s}' (1 or 2 before a letter)")
            }
            SfenError::DuplicateHandPiece(c) => write!(f, "'{c}' appears twice in the hands"),
            SfenError::BadMoveNumber(s) => write!(f, "bad move number '{s}'"),
        }
    }
}

impl std::error::Error for SfenError {}

impl Position {
    /// Parses `board side hands [move-number]` (see the module documentation),
    /// dropping the move number.
    pub fn from_sfen(sfen: &str) -> Result<Position, SfenError> {
        Position::from_sfen_numbered(sfen).map(|(pos, _)| pos)
    }

    /// [`Position::from_sfen`] with the move number (1 when absent).
    pub fn from_sfen_numbered(sfen: &str) -> Result<(Position, u32), SfenError> {
        let mut fields = sfen.split_ascii_whitespace();
        let board = fields.next().ok_or(SfenError::MissingField("board"))?;
        let side = fields.next().ok_or(SfenError::MissingField("side to move"))?;
        let hands = fields.next().ok_or(SfenError::MissingField("hands"))?;
        let number = fields.next();
        if let Some(extra) = fields.next() {
            return Err(SfenError::TrailingInput(extra.to_string()));
        }
        let mut pos = Position::empty();
        parse_board(board, &mut pos)?;
        pos.set_side_to_move(match side {
            "b" => Color::Sente,
            "w" => Color::Gote,
            other => return Err(SfenError::BadSide(other.to_string())),
        });
        parse_hands(hands, &mut pos)?;
        pos.check()?;
        let number = match number {
            None => 1,
            Some(s) => match s.parse::<u32>() {
                Ok(n) if n >= 1 => n,
                _ => return Err(SfenError::BadMoveNumber(s.to_string())),
            },
        };
        Ok((pos, number))
    }

    /// Whether the pieces are possible: one lion of each side on the board, at
    /// most two of each other kind in all (the checks of [`Position::from_sfen`]
    /// beyond the syntax).
    pub fn check(&self) -> Result<(), SfenError> {
        for c in Color::ALL {
            let count = self.pieces_of(c, Kind::Lion).count_ones();
            if count != 1 {
                return Err(SfenError::LionCount { color: c, count });
            }
        }
        for kind in Kind::HAND {
            let mut count = 0;
            for c in Color::ALL {
                count += self.pieces_of(c, kind).count_ones();
                if kind == Kind::Chick {
                    count += self.pieces_of(c, Kind::Hen).count_ones();
                }
                count += u32::from(self.hand_count(c, kind));
            }
            if count > 2 {
                return Err(SfenError::TooManyPieces { kind: kind.letter(), count, max: 2 });
            }
        }
        Ok(())
    }

    /// The SFEN with move number 1 (a position does not know its move number;
    /// [`crate::Dobutsu::to_sfen`] does).
    pub fn to_sfen(&self) -> String {
        self.to_sfen_numbered(1)
    }

    /// The SFEN with move number `number`.
    pub fn to_sfen_numbered(&self, number: u32) -> String {
        let mut s = String::with_capacity(32);
        for row in 0..4 {
            if row > 0 {
                s.push('/');
            }
            let mut empty = 0;
            for file in 0..3 {
                match self.piece_on(Square::new(file, row)) {
                    None => empty += 1,
                    Some((c, k)) => {
                        if empty > 0 {
                            s.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        s.push_str(&piece_text(c, k));
                    }
                }
            }
            if empty > 0 {
                s.push(char::from(b'0' + empty));
            }
        }
        s.push_str(if self.side_to_move() == Color::Sente { " b " } else { " w " });
        s.push_str(&hands_text(self));
        s.push_str(&format!(" {number}"));
        s
    }
}

/// `L`, `+c`, …: a piece as SFEN writes it.
fn piece_text(c: Color, k: Kind) -> String {
    let letter = match c {
        Color::Sente => k.letter(),
        Color::Gote => k.letter().to_ascii_lowercase(),
    };
    if k == Kind::Hen {
        format!("+{letter}")
    } else {
        letter.to_string()
    }
}

fn hands_text(pos: &Position) -> String {
    let mut s = String::new();
    for c in Color::ALL {
        for k in Kind::HAND {
            let n = pos.hand_count(c, k);
            if n > 1 {
                s.push(char::from(b'0' + n));
            }
            if n > 0 {
                s.push_str(&piece_text(c, k));
            }
        }
    }
    if s.is_empty() {
        s.push('-');
    }
    s
}

fn parse_board(board: &str, pos: &mut Position) -> Result<(), SfenError> {
    let ranks: Vec<&str> = board.split('/').collect();
    if ranks.len() != 4 {
        return Err(SfenError::RankCount(ranks.len()));
    }
    for (row, text) in ranks.iter().enumerate() {
        let row = row as u8;
        let mut file = 0usize;
        let mut chars = text.chars();
        let mut put = |file: &mut usize, piece: Option<(Color, Kind)>| {
            if *file < 3 {
                pos.put(Square::new(*file as u8, row), piece);
            }
            *file += 1;
        };
        while let Some(ch) = chars.next() {
            match ch {
                '1'..='3' => {
                    for _ in 0..ch as u8 - b'0' {
                        put(&mut file, None);
                    }
                }
                '+' => {
                    let next = chars.next();
                    let piece = next.and_then(|n| Some((n, Kind::from_letter(n)?)));
                    match piece {
                        Some((n, Kind::Chick)) => put(&mut file, Some((color_of(n), Kind::Hen))),
                        _ => {
                            let s = next.map_or("+".to_string(), |n| format!("+{n}"));
                            return Err(SfenError::BadPromotion(s));
                        }
                    }
                }
                _ => match Kind::from_letter(ch) {
                    Some(k) if ch.is_ascii_alphabetic() => put(&mut file, Some((color_of(ch), k))),
                    _ => return Err(SfenError::UnknownPiece(ch)),
                },
            }
        }
        if file != 3 {
            return Err(SfenError::RankWidth { rank: row + 1, width: file });
        }
    }
    Ok(())
}

fn color_of(letter: char) -> Color {
    if letter.is_ascii_uppercase() {
        Color::Sente
    } else {
        Color::Gote
    }
}

fn parse_hands(hands: &str, pos: &mut Position) -> Result<(), SfenError> {
    if hands == "-" {
        return Ok(());
    }
    let mut seen = [[false; 3]; 2];
    let mut chars = hands.chars().peekable();
    while let Some(ch) = chars.next() {
        let (count, letter) = if ch.is_ascii_digit() {
            match chars.next() {
                Some(l) if ch == '1' || ch == '2' => (ch as u8 - b'0', l),
                Some(l) => return Err(SfenError::BadHandCount(format!("{ch}{l}"))),
                None => return Err(SfenError::BadHandCount(ch.to_string())),
            }
        } else {
            (1, ch)
        };
        if letter == '+' {
            let next = chars.next().map_or(String::new(), String::from);
            return Err(SfenError::BadHandPiece(format!("+{next}")));
        }
        if letter.is_ascii_digit() {
            return Err(SfenError::BadHandCount(format!("{ch}{letter}")));
        }
        let kind = Kind::from_letter(letter)
            .filter(|k| letter.is_ascii_alphabetic() && k.hand_index().is_some() && *k != Kind::Hen)
            .ok_or_else(|| SfenError::BadHandPiece(letter.to_string()))?;
        let c = color_of(letter);
        let i = kind.hand_index().expect("a hand kind");
        if seen[c.index()][i] {
            return Err(SfenError::DuplicateHandPiece(letter));
        }
        seen[c.index()][i] = true;
        pos.set_hand_count(c, kind, count);
    }
    Ok(())
}

impl FromStr for Position {
    type Err = SfenError;

    /// [`Position::from_sfen`].
    fn from_str(s: &str) -> Result<Position, SfenError> {
        Position::from_sfen(s)
    }
}

/// What a square shows in the drawing: `^` Sente's (pointing up the board, its
/// direction of play), `v` Gote's, then the piece's name; `.` for empty.
fn cell(pos: &Position, sq: Square) -> String {
    match pos.piece_on(sq) {
        None => ".".to_string(),
        Some((c, k)) => {
            format!("{}{}", if c == Color::Sente { '^' } else { 'v' }, k.name())
        }
    }
}

fn hand_line(pos: &Position, c: Color) -> String {
    let held: Vec<String> = Kind::HAND
        .iter()
        .filter(|&&k| pos.hand_count(c, k) > 0)
        .map(|&k| match pos.hand_count(c, k) {
            1 => k.name().to_string(),
            n => format!("{} x{n}", k.name()),
        })
        .collect();
    if held.is_empty() {
        "-".to_string()
    } else {
        held.join(", ")
    }
}

impl fmt::Display for Position {
    /// A drawing of the board from Sente's side (rank 1, Gote's back rank, at
    /// the top), the hands and the side to move, then the SFEN:
    ///
    /// ```text
    /// Gote in hand: -
    ///         a          b          c
    ///   1  vgiraffe   vlion      velephant
    ///   2  .          vchick     .
    ///   3  .          ^chick     .
    ///   4  ^elephant  ^lion      ^giraffe
    /// Sente in hand: -
    /// Sente to move
    /// sfen gle/1c1/1C1/ELG b - 1
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Gote in hand: {}", hand_line(self, Color::Gote))?;
        writeln!(f, "        a          b          c")?;
        for row in 0..4 {
            let cells: Vec<String> =
                (0..3).map(|file| format!("{:<11}", cell(self, Square::new(file, row)))).collect();
            writeln!(f, "  {}  {}", row + 1, cells.concat().trim_end())?;
        }
        writeln!(f, "Sente in hand: {}", hand_line(self, Color::Sente))?;
        writeln!(f, "{} to move", self.side_to_move())?;
        write!(f, "sfen {}", self.to_sfen())
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", self.to_sfen())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_position_round_trips() {
        let pos = Position::from_sfen(STARTPOS).unwrap();
        assert_eq!(pos, Position::startpos());
        assert_eq!(pos.to_sfen(), STARTPOS);
    }

    #[test]
    fn the_drawing_matches_its_documentation() {
        let expected = "Gote in hand: -
        a          b          c
  1  vgiraffe   vlion      velephant
  2  .          vchick     .
  3  .          ^chick     .
  4  ^elephant  ^lion      ^giraffe
Sente in hand: -
Sente to move
sfen gle/1c1/1C1/ELG b - 1";
        assert_eq!(Position::startpos().to_string(), expected);
    }
}
