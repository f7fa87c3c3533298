//! Kyobo's game records: one [`Record`] type, read from and written to every
//! common shogi record format, with every move checked for legality on reading.
//!
//! # Formats
//!
//! | format | read | write | kept | lost |
//! | --- | --- | --- | --- | --- |
//! | [CSA](csa) V2.2, V3.0 (`.csa`) | [`read_csa`] | [`write_csa`] | headers (`N+`/`N-`, `$KEY:`), any start (`PI` with removals, `P1`–`P9`, `P+`/`P-` with `00` and `AL`), times (V3.0 to the ms, V2.2 whole seconds), `'*` comments, the ending | variations, bookmarks, a start's move number, plain `'` comments (skipped by design); V2.2 writes `%MAX_MOVES` as `%JISHOGI` |
//! | [KIF](kif) (`.kif` Shift_JIS, `.kifu` UTF-8) | [`read_kif`] | [`write_kif`] | headers, handicaps (手合割) and board diagrams (BOD, with `手数＝`), times (whole seconds), comments, bookmarks, variations, the ending | sub-second times; `%+ILLEGAL_ACTION` by the side to move reads back as 反則負け ([`EndReason::IllegalMove`]) |
//! | [KI2](kif) (`.ki2`, `.ki2u`) | [`read_ki2`] | [`write_ki2`] | as KIF, moves in Japanese notation (右 左 直 上 寄 引 打 chosen as a player would), the ending as the summary line (`まで76手で先手の勝ち`) | all times; a mate reads back as a resignation (both are `…の勝ち`) |
//! | [USI/SFEN](usi) (`.usi`, `.sfen`) | [`read_usi`] | [`write_usi`] | the start (its move number too) and the main line | everything else |
//! | [JKF](jkf) (`.jkf`, `.json`) | [`read_jkf`] | [`write_jkf`] | headers, presets and other starts, times (whole seconds), comments, forks, specials | bookmarks, a start's move number |
//!
//! [`Record::restricted_to`] gives, for each format, the record as reading back
//! what its writer wrote yields: exactly what the table says is kept.
//!
//! # Reading
//!
//! Readers take decoded text ([`decode`] tells UTF-8 from Shift_JIS by a BOM, a
//! CSA encoding line, or validity) and return the [`Record`], or a
//! [`PartialRecord`]: the record up to the first bad line and a [`ReadError`]
//! with that line's number and an [`ErrorKind`] (an illegal move carries
//! `shogi::MoveParseError`, the reason the rules give). [`read_file`] does
//! everything from a path; [`Format::detect`] and [`Format::from_extension`]
//! tell formats apart, and [`convert`] turns one format's text into another's.
//!
//! # Japanese notation
//!
//! [`japanese()`](fn@japanese) writes `▲７六歩` or `△同　歩成` for any legal move,
//! with the words a player would add to tell pieces apart (see the [`japanese`
//! module](mod@japanese) for the rules); [`parse_japanese`] reads it.
//! For the CSA protocol, [`csa_move_to_move`] and [`move_to_csa`] convert single
//! moves.
//!
//! # Example
//!
//! ```
//! use records::{read_kif, write, Format, EndReason};
//!
//! let kif = "手合割：平手\n先手：A\n後手：B\n手数----指手---------消費時間--\n\
//!            \x20  1 ７六歩(77)   ( 0:01/00:00:01)\n\
//!            \x20  2 ３四歩(33)   ( 0:02/00:00:02)\n\
//!            \x20  3 投了\n";
//! let record = read_kif(kif).unwrap();
//! assert_eq!(record.ending.as_ref().unwrap().reason, EndReason::Resign);
//! assert_eq!(write(&record, Format::Usi), "position startpos moves 7g7f 3c3d\n");
//! assert!(write(&record, Format::Csa).contains("N+A\nN-B\nPI\n+\n+7776FU\nT1\n-3334FU\nT2\n%TORYO\n"));
//! let ki2 = write(&record, Format::Ki2);
//! assert!(ki2.contains("▲７六歩") && ki2.ends_with("△３四歩\nまで2手で後手の勝ち\n"));
//! ```
//!
//! # Variations
//!
//! A [`RecordMove`]'s `variations` are alternatives to it; an [`Ending`]'s are
//! alternatives to ending the game there. Readers never hang variations on a
//! variation's first move: an alternative to it is an alternative to the move it
//! replaces, and becomes a sibling.

pub mod csa;
mod encoding;
mod error;
pub mod japanese;
pub mod jkf;
mod json;
pub mod kif;
mod record;
mod tree;
pub mod usi;

pub use csa::{
    csa_move_to_move, csa_record_count, move_to_csa, read_csa, read_csa_all, write_csa, CsaVersion,
};
pub use encoding::{decode, encode, TextEncoding};
pub use error::{ErrorKind, PartialRecord, ReadError, ReadResult};
pub use japanese::{japanese, japanese_line, parse_japanese, Motion, Relative, Side};
pub use jkf::{read_jkf, write_jkf};
pub use kif::{read_ki2, read_kif, write_ki2, write_kif};
pub use record::{EndReason, Ending, Handicap, HeaderKey, Record, RecordMove, Start, Variation};
pub use usi::{read_usi, write_usi};

use std::path::Path;
use std::time::Duration;

/// A record format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// CSA; written as V3.0 (see [`write_csa`] for V2.2).
    Csa,
    /// KIF (`.kif`, `.kifu`).
    Kif,
    /// KI2 (`.ki2`, `.ki2u`).
    Ki2,
    /// USI/SFEN move lists.
    Usi,
    /// JSON Kifu Format.
    Jkf,
}

impl Format {
    /// Every format.
    pub const ALL: [Format; 5] = [Format::Csa, Format::Kif, Format::Ki2, Format::Usi, Format::Jkf];

    /// The format and file encoding an extension (without the dot, any case)
    /// stands for: `kif` KIF in Shift_JIS, `kifu` KIF in UTF-8, `ki2`/`ki2u`,
    /// `csa` (UTF-8, as V3.0 writes it), `jkf`/`json`, `usi`/`sfen`.
    pub fn from_extension(ext: &str) -> Option<(Format, TextEncoding)> {
        Some(match ext.to_ascii_lowercase().as_str() {
            "kif" => (Format::Kif, TextEncoding::ShiftJis),
            "kifu" => (Format::Kif, TextEncoding::Utf8),
            "ki2" => (Format::Ki2, TextEncoding::ShiftJis),
            "ki2u" => (Format::Ki2, TextEncoding::Utf8),
            "csa" => (Format::Csa, TextEncoding::Utf8),
            "jkf" | "json" => (Format::Jkf, TextEncoding::Utf8),
            "usi" | "sfen" => (Format::Usi, TextEncoding::Utf8),
            _ => return None,
        })
    }

    /// The format of a record's text, from its first telling line: JSON is JKF;
    /// `V2.2`, `'CSA`, `PI`, `P1`, `N+`, `$KEY:`, `+7776FU` or `%TORYO` are CSA;
    /// `position`, `startpos`, `sfen` or a USI move are USI; a numbered move line
    /// or `手数----` is KIF; `▲`/`△` moves are KI2. Header lines (`先手：…`) decide
    /// nothing; a text with only those is taken for KIF. `None` for text that is
    /// none of these.
    pub fn detect(text: &str) -> Option<Format> {
        let text = text.trim_start_matches(['\u{feff}', ' ', '\t', '\r', '\n']);
        if text.starts_with('{') {
            return Some(Format::Jkf);
        }
        let mut headers = false;
        for line in text.lines() {
            let line = line.trim_end();
            let t = line.trim_start_matches([' ', '　']);
            if t.is_empty() || t.starts_with('#') || t.starts_with('*') || t.starts_with('&') {
                continue;
            }
            if let Some(f) = detect_line(t) {
                return Some(f);
            }
            let diagram =
                ["|", "+--", "９", "先手番", "後手番", "上手番", "下手番", "手数＝", "手数="];
            if t.contains('：') || diagram.iter().any(|p| t.starts_with(p)) {
                headers = true;
                continue;
            }
            if t.starts_with('\'') {
                return Some(Format::Csa);
            }
            return None;
        }
        headers.then_some(Format::Kif)
    }
}

fn detect_line(t: &str) -> Option<Format> {
    let b = t.as_bytes();
    if t.starts_with("'CSA") || t.starts_with("PI") || t.starts_with("N+") || t.starts_with("N-") {
        return Some(Format::Csa);
    }
    if (b.len() >= 2 && b[0] == b'V' && b[1].is_ascii_digit())
        || (b.len() >= 2 && b[0] == b'P' && (b'1'..=b'9').contains(&b[1]))
        || (b.first() == Some(&b'$') && t.contains(':'))
        || (b.first() == Some(&b'%')
            && b.get(1).is_some_and(|c| c.is_ascii_uppercase() || *c == b'+' || *c == b'-'))
    {
        return Some(Format::Csa);
    }
    if (t.starts_with('+') || t.starts_with('-'))
        && b.len() >= 7
        && b[1..5].iter().all(u8::is_ascii_digit)
        && b[5..7].iter().all(u8::is_ascii_uppercase)
    {
        return Some(Format::Csa);
    }
    if t.starts_with("position") || t.starts_with("startpos") || t.starts_with("sfen ") {
        return Some(Format::Usi);
    }
    let first = t.split_ascii_whitespace().next().unwrap_or("");
    if shogi::Position::startpos().parse_usi_move(first).is_ok() || first == "moves" {
        return Some(Format::Usi);
    }
    if t.starts_with("手数----") || t.starts_with("手数－－") {
        return Some(Format::Kif);
    }
    let digits = t.chars().take_while(char::is_ascii_digit).count();
    if digits > 0 && t[digits..].starts_with([' ', '　', '\t']) {
        return Some(Format::Kif);
    }
    if t.chars().next().and_then(japanese::mark_color).is_some() {
        return Some(Format::Ki2);
    }
    None
}

/// Reads a record in `format` from decoded text.
///
/// # Errors
/// The format reader's error, with the record read up to it.
pub fn read(text: &str, format: Format) -> ReadResult {
    match format {
        Format::Csa => read_csa(text),
        Format::Kif => read_kif(text),
        Format::Ki2 => read_ki2(text),
        Format::Usi => read_usi(text),
        Format::Jkf => read_jkf(text),
    }
}

/// Writes a record in `format` (CSA as V3.0).
pub fn write(record: &Record, format: Format) -> String {
    match format {
        Format::Csa => write_csa(record, CsaVersion::V30),
        Format::Kif => write_kif(record),
        Format::Ki2 => write_ki2(record),
        Format::Usi => write_usi(record),
        Format::Jkf => write_jkf(record),
    }
}

/// Reads `text` as `from` and writes it as `to`. What `to` cannot hold is lost
/// (see the table above).
///
/// # Errors
/// The reader's error, with the record read up to it.
pub fn convert(text: &str, from: Format, to: Format) -> Result<String, Box<PartialRecord>> {
    read(text, from).map(|r| write(&r, to))
}

/// What can go wrong with a record file.
#[derive(Debug)]
pub enum FileError {
    /// Reading or writing the file failed.
    Io(std::io::Error),
    /// Neither the extension nor the content tells the format.
    UnknownFormat,
    /// The text is not a valid record (or not decodable: `ErrorKind::Encoding`).
    Read(Box<PartialRecord>),
    /// A character the file's encoding (Shift_JIS) cannot hold.
    Unencodable(char),
}

impl std::fmt::Display for FileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FileError::Io(e) => write!(f, "{e}"),
            FileError::UnknownFormat => write!(f, "cannot tell the record's format"),
            FileError::Read(e) => write!(f, "{e}"),
            FileError::Unencodable(c) => write!(
                f,
                "'{c}' cannot be written in Shift_JIS (.kifu and .ki2u hold any text, in UTF-8)"
            ),
        }
    }
}

impl std::error::Error for FileError {}

/// Reads a record file: decodes it (UTF-8 or Shift_JIS, whatever the extension
/// says), takes the format from the extension or else from the content.
///
/// # Errors
/// I/O errors, an unknown format, or the reader's error.
pub fn read_file(path: &Path) -> Result<(Format, Record), FileError> {
    let bytes = std::fs::read(path).map_err(FileError::Io)?;
    let name = path.file_name().and_then(|n| n.to_str());
    read_bytes(&bytes, name)
}

/// Reads a record from a file's bytes, as [`read_file`] does: `name` (a file
/// name, when there is one) gives the format by its extension, else the content
/// does.
///
/// # Errors
/// An unknown format, or the reader's error (undecodable text included).
pub fn read_bytes(bytes: &[u8], name: Option<&str>) -> Result<(Format, Record), FileError> {
    let (text, _) = decode(bytes).map_err(|error| {
        FileError::Read(Box::new(PartialRecord { record: Record::default(), error }))
    })?;
    let by_ext = name
        .and_then(|n| Path::new(n).extension())
        .and_then(|e| e.to_str())
        .and_then(Format::from_extension);
    // A blank file has no format to tell, but every reader calls it empty.
    let format = by_ext
        .map(|(f, _)| f)
        .or_else(|| Format::detect(&text))
        .or(error::is_blank(&text).then_some(Format::Usi))
        .ok_or(FileError::UnknownFormat)?;
    read(&text, format).map(|r| (format, r)).map_err(FileError::Read)
}

/// Writes a record file in the format and encoding its extension names (`.kif`
/// Shift_JIS KIF, `.kifu` UTF-8 KIF, `.csa` CSA V3.0 in UTF-8, …).
///
/// # Errors
/// I/O errors, an unknown extension, or a character Shift_JIS cannot hold.
pub fn write_file(path: &Path, record: &Record) -> Result<(), FileError> {
    let (format, encoding) = path
        .extension()
        .and_then(|e| e.to_str())
        .and_then(Format::from_extension)
        .ok_or(FileError::UnknownFormat)?;
    let bytes = encode(&write(record, format), encoding).map_err(FileError::Unencodable)?;
    std::fs::write(path, bytes).map_err(FileError::Io)
}

// ---- What each format keeps ---------------------------------------------------

fn one_line(s: &str, trim_start: bool) -> String {
    let s = s.replace(['\r', '\n'], " ");
    let s = s.trim_end_matches([' ', '\t', '　']);
    if trim_start {
        s.trim_start_matches([' ', '\t', '　']).to_string()
    } else {
        s.to_string()
    }
}

fn floor_secs(t: Option<Duration>) -> Option<Duration> {
    t.map(|t| Duration::from_secs(t.as_secs()))
}

fn floor_millis(t: Option<Duration>) -> Option<Duration> {
    t.map(|t| Duration::from_millis(t.as_millis() as u64))
}

/// Restricts one line (and its variations) to what `format` keeps; `pos` is the
/// position before the line.
fn restrict_line(
    moves: &[RecordMove],
    ending: &Option<Ending>,
    pos: &shogi::Position,
    format: Format,
) -> (Vec<RecordMove>, Option<Ending>) {
    let time = |t: Option<Duration>| match format {
        Format::Csa => floor_millis(t),
        Format::Kif | Format::Jkf => floor_secs(t),
        Format::Ki2 | Format::Usi => None,
    };
    let comments = |cs: &[String]| -> Vec<String> {
        match format {
            Format::Usi => Vec::new(),
            Format::Jkf => cs.to_vec(),
            _ => cs.iter().map(|c| one_line(c, false)).collect(),
        }
    };
    let variations = |vs: &[Variation], pos: &shogi::Position| -> Vec<Variation> {
        if matches!(format, Format::Csa | Format::Usi) {
            return Vec::new();
        }
        vs.iter()
            .map(|v| {
                let (moves, ending) = restrict_line(&v.moves, &v.ending, pos, format);
                Variation { moves, ending }
            })
            .collect()
    };
    let mut pos = pos.clone();
    let mut out = Vec::with_capacity(moves.len());
    for m in moves {
        out.push(RecordMove {
            mv: m.mv,
            time: time(m.time),
            comments: comments(&m.comments),
            bookmark: match format {
                Format::Kif | Format::Ki2 => m.bookmark.as_ref().map(|b| one_line(b, false)),
                _ => None,
            },
            variations: variations(&m.variations, &pos),
        });
        pos.do_move(m.mv);
    }
    let ending = match (format, ending) {
        (Format::Usi, _) | (_, None) => None,
        (_, Some(e)) => {
            let stm = pos.side_to_move();
            let reason = match (format, e.reason) {
                (Format::Kif | Format::Ki2, EndReason::IllegalAction(c)) if c == stm => {
                    EndReason::IllegalMove
                }
                (Format::Ki2, EndReason::Mate) => EndReason::Resign,
                (_, r) => r,
            };
            Some(Ending {
                reason,
                time: time(e.time),
                comments: comments(&e.comments),
                variations: variations(&e.variations, &pos),
            })
        }
    };
    (out, ending)
}

pub(crate) fn restrict(record: &Record, format: Format) -> Record {
    let start = match (&record.start, format) {
        (Start::Sfen(s), Format::Csa | Format::Jkf) => {
            let mut fields: Vec<&str> = s.split(' ').collect();
            fields.truncate(3);
            Start::from_sfen(&format!("{} 1", fields.join(" ")))
                .unwrap_or_else(|_| record.start.clone())
        }
        (s, _) => s.clone(),
    };
    let pos = record.start_position();
    let (moves, ending) = restrict_line(&record.moves, &record.ending, &pos, format);
    let headers = match format {
        Format::Usi => Vec::new(),
        Format::Jkf => record.headers.clone(),
        Format::Csa => {
            record.headers.iter().map(|(k, v)| (k.clone(), one_line(v, false))).collect()
        }
        Format::Kif | Format::Ki2 => {
            record.headers.iter().map(|(k, v)| (k.clone(), one_line(v, true))).collect()
        }
    };
    let comments = match format {
        Format::Usi => Vec::new(),
        Format::Jkf => record.comments.clone(),
        _ => record.comments.iter().map(|c| one_line(c, false)).collect(),
    };
    Record { headers, start, comments, moves, ending }
}
