//! Reading errors: what went wrong, on which line, and the record read up to there.

use crate::record::Record;
use shogi::{MoveParseError, SfenError};
use std::fmt;

/// Everything that can be wrong with a record's text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// The bytes are neither UTF-8 nor Shift_JIS (or not the encoding declared).
    Encoding(String),
    /// A line that is none of the format's forms (the text, trimmed).
    Syntax(String),
    /// The start position's description is malformed (what is wrong).
    Board(String),
    /// The start position is not a valid position.
    Position(SfenError),
    /// A 手合割 or JKF preset that is not a known handicap.
    UnknownHandicap(String),
    /// A move that is not legal where it is played, and why (its USI spelling inside).
    IllegalMove {
        /// The move as the record spells it.
        text: String,
        /// Why the rules refuse it (with the move's USI spelling).
        reason: MoveParseError,
    },
    /// A move whose piece is not the one standing on its origin square (or, for a
    /// CSA move, not that piece promoted).
    WrongPiece(String),
    /// A move whose stated capture (JKF's `capture`) is not what its destination
    /// holds.
    WrongCapture {
        /// The move as the record spells it.
        text: String,
        /// The piece the record says is captured, as written.
        named: String,
        /// What the destination holds, named as the record names pieces
        /// (`None`: nothing).
        found: Option<String>,
    },
    /// A move marked for the side that is not to move.
    WrongSide(String),
    /// Japanese notation that no legal move fits.
    NoSuchMove(String),
    /// Japanese notation that more than one legal move fits.
    Ambiguous(String),
    /// 同 (same square) for the first move of a line.
    NoPreviousMove(String),
    /// A KIF move number that is not the next one.
    MoveNumber {
        /// The number the next move of the line has.
        expected: u32,
        /// The number the line gives.
        found: u32,
    },
    /// A move, or a second ending, after the line's ending.
    AfterEnd(String),
    /// A variation (変化) at a ply that no open line has.
    Variation(u32),
    /// JSON that is malformed, or not shaped as JKF (what was expected).
    Json(String),
    /// No record at all: the text is blank (for USI, blank but for `#` comments).
    /// A record with only headers or a start position is not empty.
    Empty,
}

/// An error and the line (from 1) it was found on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadError {
    /// The line (from 1) of the text; for JKF, the line where the bad JSON value starts.
    pub line: usize,
    pub kind: ErrorKind,
}

impl ReadError {
    /// An error on `line` (from 1).
    pub fn new(line: usize, kind: ErrorKind) -> ReadError {
        ReadError { line, kind }
    }
}

/// The record as far as it could be read, and the error that stopped the reader:
/// every header, move and variation before the bad line is kept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PartialRecord {
    /// Headers, start, moves and variations read before the error; every move legal.
    pub record: Record,
    pub error: ReadError,
}

/// What the readers return. The error is boxed: a record is large.
pub type ReadResult = Result<Record, Box<PartialRecord>>;

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ErrorKind::Encoding(msg) => write!(f, "cannot decode the text: {msg}"),
            ErrorKind::Syntax(s) => write!(f, "cannot read '{s}'"),
            ErrorKind::Board(msg) => write!(f, "bad start position: {msg}"),
            ErrorKind::Position(e) => write!(f, "invalid start position: {e}"),
            ErrorKind::UnknownHandicap(s) => write!(f, "unknown handicap '{s}'"),
            ErrorKind::IllegalMove { text, reason } => {
                write!(f, "illegal move '{text}': {reason}")
            }
            ErrorKind::WrongPiece(s) => write!(f, "'{s}': that piece is not on the origin square"),
            ErrorKind::WrongCapture { text, named, found } => {
                write!(f, "'{text}': capture says {named} but the destination ")?;
                match found {
                    Some(k) => write!(f, "holds {k}"),
                    None => write!(f, "is empty"),
                }
            }
            ErrorKind::WrongSide(s) => write!(f, "'{s}': it is the other side's turn"),
            ErrorKind::NoSuchMove(s) => write!(f, "no legal move is '{s}'"),
            ErrorKind::Ambiguous(s) => write!(f, "'{s}' fits more than one legal move"),
            ErrorKind::NoPreviousMove(s) => write!(f, "'{s}': 同 with no previous move"),
            ErrorKind::MoveNumber { expected, found } => {
                write!(f, "move number {found}, expected {expected}")
            }
            ErrorKind::AfterEnd(s) => write!(f, "'{s}' after the end of the line"),
            ErrorKind::Variation(ply) => write!(f, "a variation at move {ply}, which no line has"),
            ErrorKind::Json(msg) => write!(f, "JKF: {msg}"),
            ErrorKind::Empty => write!(f, "empty: no moves, no headers, no start position"),
        }
    }
}

/// An empty text has no line to name, nor moves read before its error.
impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            ErrorKind::Empty => write!(f, "{}", self.kind),
            _ => write!(f, "line {}: {}", self.line, self.kind),
        }
    }
}

impl fmt::Display for PartialRecord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.error.kind {
            ErrorKind::Empty => write!(f, "{}", self.error),
            _ => write!(f, "{} ({} moves read before it)", self.error, self.record.moves.len()),
        }
    }
}

impl std::error::Error for ReadError {}
impl std::error::Error for PartialRecord {}

/// Builds the boxed error of a reader.
pub(crate) fn partial(record: Record, line: usize, kind: ErrorKind) -> Box<PartialRecord> {
    Box::new(PartialRecord { record, error: ReadError::new(line, kind) })
}

/// Whether a text holds nothing but white space (and a BOM): an empty file, which
/// no reader takes for a record of the standard position with no moves.
pub(crate) fn is_blank(text: &str) -> bool {
    text.chars().all(|c| c.is_whitespace() || c == '\u{feff}')
}

/// The error of a blank text.
pub(crate) fn empty() -> Box<PartialRecord> {
    partial(Record::default(), 1, ErrorKind::Empty)
}
