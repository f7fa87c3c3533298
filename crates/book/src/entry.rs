//! One book entry: its `sfen …` line and its move lines.

use std::fmt;

/// The first line of a book file in YaneuraOu's text format.
pub const HEADER: &str = "#YANEURAOU-DB2016 1.00";

/// One book move: what the move line says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookMove {
    /// The move in USI notation (`7g7f`, `P*5e`), checked for legality only when
    /// played.
    pub mv: String,
    /// The expected reply (`None` for `none`).
    pub ponder: Option<String>,
    /// Centipawns for the side to move after playing `mv` from this position.
    pub value: i32,
    /// The search depth behind `value` (0: no search, as in a book made from
    /// games alone).
    pub depth: i32,
    /// How often the move was played (or chosen).
    pub count: u64,
}

/// A position and its book moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The SFEN as the book writes it (with its move number, when it has one).
    pub sfen: String,
    pub moves: Vec<BookMove>,
}

/// Why a move line cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LineError {
    /// No move at all (an empty line is skipped before this is asked).
    Empty,
    /// The move is not USI notation.
    BadMove(String),
    /// `value`, `depth` or `count` is not a number in range.
    BadNumber { field: &'static str, text: String },
    /// More than five fields.
    TooManyFields,
}

impl fmt::Display for LineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LineError::Empty => write!(f, "no move"),
            LineError::BadMove(m) => write!(f, "'{}' is not a USI move", excerpt(m)),
            LineError::BadNumber { field, text } => {
                write!(f, "{field} '{}' is not a number in range", excerpt(text))
            }
            LineError::TooManyFields => write!(f, "more than five fields"),
        }
    }
}

impl std::error::Error for LineError {}

/// At most 40 characters of something a file said, for messages.
pub fn excerpt(text: &str) -> String {
    if text.chars().count() <= 40 {
        text.to_string()
    } else {
        let mut s: String = text.chars().take(40).collect();
        s.push('…');
        s
    }
}

/// Whether `text` has the shape of a USI move: `7g7f`, `7g7f+`, `P*5e`
/// (legality is the position's business).
pub fn is_usi_move_syntax(text: &str) -> bool {
    let b = text.as_bytes();
    let square = |f: u8, r: u8| (b'1'..=b'9').contains(&f) && (b'a'..=b'i').contains(&r);
    match b {
        [p, b'*', f, r] => b"RBGSNLP".contains(p) && square(*f, *r),
        [f1, r1, f2, r2] | [f1, r1, f2, r2, b'+'] => square(*f1, *r1) && square(*f2, *r2),
        _ => false,
    }
}

/// Reads a move line: `move [ponder [value [depth [count]]]]`.
///
/// # Errors
/// [`LineError`] says which field is wrong.
pub fn parse_move_line(line: &str) -> Result<BookMove, LineError> {
    let mut fields = line.split_ascii_whitespace();
    let mv = fields.next().ok_or(LineError::Empty)?;
    if !is_usi_move_syntax(mv) {
        return Err(LineError::BadMove(mv.to_string()));
    }
    let ponder = match fields.next() {
        None | Some("none") | Some("None") => None,
        Some(p) if is_usi_move_syntax(p) => Some(p.to_string()),
        Some(p) => return Err(LineError::BadMove(p.to_string())),
    };
    let number = |field: &'static str, text: Option<&str>, default: i64, min: i64, max: i64| {
        let Some(text) = text else { return Ok(default) };
        match text.parse::<i64>() {
            Ok(v) if (min..=max).contains(&v) => Ok(v),
            _ => Err(LineError::BadNumber { field, text: text.to_string() }),
        }
    };
    // Values beyond ±32,000 (mate scores) are kept as they are within i32.
    let value = number("value", fields.next(), 0, -1_000_000, 1_000_000)? as i32;
    let depth = number("depth", fields.next(), 0, -1_000, 1_000_000)? as i32;
    let count = number("count", fields.next(), 1, 0, i64::MAX)? as u64;
    if fields.next().is_some() {
        return Err(LineError::TooManyFields);
    }
    Ok(BookMove { mv: mv.to_string(), ponder, value, depth, count })
}

impl fmt::Display for BookMove {
    /// The move line, as YaneuraOu writes it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {} {} {} {}",
            self.mv,
            self.ponder.as_deref().unwrap_or("none"),
            self.value,
            self.depth,
            self.count
        )
    }
}

impl fmt::Display for Entry {
    /// The entry's lines, each ending in a newline.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "sfen {}", self.sfen)?;
        for m in &self.moves {
            writeln!(f, "{m}")?;
        }
        Ok(())
    }
}

/// Writes a whole book: the header, then the entries sorted by their SFEN (the
/// order a book read on disk needs).
pub fn write_book(mut entries: Vec<Entry>, out: &mut impl std::io::Write) -> std::io::Result<()> {
    entries.sort_by(|a, b| a.sfen.as_bytes().cmp(b.sfen.as_bytes()));
    writeln!(out, "{HEADER}")?;
    for e in &entries {
        write!(out, "{e}")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_full_and_short_lines() {
        let m = parse_move_line("7g7f 3c3d 30 20 812").unwrap();
        assert_eq!(
            m,
            BookMove {
                mv: "7g7f".into(),
                ponder: Some("3c3d".into()),
                value: 30,
                depth: 20,
                count: 812
            }
        );
        assert_eq!(m.to_string(), "7g7f 3c3d 30 20 812");
        let m = parse_move_line("P*5e none -12").unwrap();
        assert_eq!((m.ponder, m.value, m.depth, m.count), (None, -12, 0, 1));
        let m = parse_move_line("8h2b+").unwrap();
        assert_eq!(m.to_string(), "8h2b+ none 0 0 1");
    }

    #[test]
    fn names_what_is_wrong() {
        assert_eq!(parse_move_line("  "), Err(LineError::Empty));
        assert!(matches!(parse_move_line("7g7z"), Err(LineError::BadMove(_))));
        assert!(matches!(parse_move_line("K*5e"), Err(LineError::BadMove(_))));
        assert!(matches!(
            parse_move_line("7g7f 3c3d x"),
            Err(LineError::BadNumber { field: "value", .. })
        ));
        assert!(matches!(
            parse_move_line("7g7f 3c3d 1 2 -3"),
            Err(LineError::BadNumber { field: "count", .. })
        ));
        assert_eq!(parse_move_line("7g7f 3c3d 1 2 3 4"), Err(LineError::TooManyFields));
        let long = "9".repeat(10_000);
        let e = parse_move_line(&format!("7g7f none {long}")).unwrap_err().to_string();
        assert!(e.len() < 100, "{e}");
    }

    #[test]
    fn writes_sorted_entries_after_the_header() {
        let e =
            |sfen: &str| Entry { sfen: sfen.into(), moves: vec![parse_move_line("1g1f").unwrap()] };
        let mut out = Vec::new();
        write_book(vec![e("b"), e("a")], &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert_eq!(text, format!("{HEADER}\nsfen a\n1g1f none 0 0 1\nsfen b\n1g1f none 0 0 1\n"));
    }
}
