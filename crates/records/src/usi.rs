//! USI/SFEN move lists: `position startpos moves 7g7f 3c3d`, `sfen <SFEN> moves …`.
//!
//! One line holds the whole record: the start and the moves. Kept: the start (its
//! move number too) and the main line. Lost: everything else.

use crate::error::{empty, partial, ErrorKind, ReadResult};
use crate::record::{Record, RecordMove, Start};

/// Reads a USI move list: the first line that is not empty nor a `#` comment, of
/// the form `[position] startpos [moves M…]` or `[position] sfen B S H [N] [moves M…]`
/// (a bare `moves` list, or a bare list of moves, starts from the standard
/// position). Every move is checked.
///
/// # Errors
/// `Empty` for a text with no such line, `Syntax` for a malformed one or a second
/// non-empty line, `Position` for a bad SFEN, `IllegalMove` for a bad move.
pub fn read_usi(text: &str) -> ReadResult {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'));
    let Some((line_no, line)) = lines.next() else {
        return Err(empty());
    };
    let mut record = Record::default();
    let mut tokens = line.split_ascii_whitespace().peekable();
    if tokens.peek() == Some(&"position") {
        tokens.next();
    }
    let syntax = |r: Record| partial(r, line_no, ErrorKind::Syntax(line.to_string()));
    match tokens.peek().copied() {
        Some("startpos") => {
            tokens.next();
        }
        Some("sfen") => {
            tokens.next();
            let mut fields: Vec<&str> = Vec::new();
            for _ in 0..3 {
                match tokens.next() {
                    Some(t) => fields.push(t),
                    None => return Err(syntax(record)),
                }
            }
            if let Some(n) = tokens.peek().filter(|t| t.bytes().all(|b| b.is_ascii_digit())) {
                fields.push(n);
                tokens.next();
            }
            let start = Start::from_sfen(&fields.join(" "))
                .map_err(|e| partial(Record::default(), line_no, ErrorKind::Position(e)))?;
            record.start = start;
        }
        _ => {}
    }
    if tokens.peek() == Some(&"moves") {
        tokens.next();
    }
    let mut pos = record.start_position();
    for t in tokens {
        match pos.parse_usi_move(t) {
            Ok(m) => {
                pos.do_move(m);
                record.moves.push(RecordMove::new(m));
            }
            Err(reason) => {
                let kind = ErrorKind::IllegalMove { text: t.to_string(), reason };
                return Err(partial(record, line_no, kind));
            }
        }
    }
    // A second line is the error, named by its own number.
    if let Some((n, extra)) = lines.next() {
        return Err(partial(record, n, ErrorKind::Syntax(extra.to_string())));
    }
    Ok(record)
}

/// Writes `position startpos moves …` or `position sfen <SFEN> moves …` (a
/// newline at the end).
pub fn write_usi(record: &Record) -> String {
    let mut s = String::with_capacity(6 * record.moves.len() + 96);
    s.push_str("position ");
    if record.start == Start::default() {
        s.push_str("startpos");
    } else {
        s.push_str("sfen ");
        s.push_str(record.start.sfen());
    }
    if !record.moves.is_empty() {
        s.push_str(" moves");
        for m in &record.moves {
            s.push(' ');
            s.push_str(&m.mv.to_usi());
        }
    }
    s.push('\n');
    s
}

/// The USI moves of a record's main line from a position, for convenience:
/// `7g7f 3c3d …`.
pub fn usi_moves(record: &Record) -> Vec<String> {
    record.moves.iter().map(|m| m.mv.to_usi()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_line_is_reported_on_its_own_line() {
        let e = read_usi("# a comment\nposition startpos moves 7g7f\n3c3d\n").unwrap_err();
        assert_eq!((e.error.line, e.error.kind.clone()), (3, ErrorKind::Syntax("3c3d".into())));
        assert_eq!(e.record.moves.len(), 1, "the first line is read");
        let e = read_usi("position startpos\n\n  position sfen x  \n").unwrap_err();
        assert_eq!(e.error.line, 3);
        assert_eq!(e.to_string(), "line 3: cannot read 'position sfen x' (0 moves read before it)");
    }

    #[test]
    fn a_blank_text_is_empty() {
        for text in ["", "\n \n", "\u{feff}\n"] {
            assert_eq!(read_usi(text).unwrap_err().error.kind, ErrorKind::Empty, "{text:?}");
        }
        assert_eq!(read_usi("position startpos\n").unwrap(), Record::default());
    }
}
