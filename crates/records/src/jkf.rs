//! JKF, the JSON Kifu Format of web viewers (Kifu for JS): `header`, `initial`
//! (`preset`, and `data` for other positions), `moves` (entry 0 for the start's
//! comments; then `move` with `color`, `from`, `to`, `piece`, `same`, `promote`,
//! `capture`, `relative`; `time`; `comments`; `special`; `forks`).
//!
//! The reader accepts the normalized form this writer produces and the
//! un-normalized one parsers of KI2 produce (no `from`: the move is found from
//! `piece`, `to` or `same`, `relative` and `promote`). Kept: everything but
//! bookmarks and a start position's move number; times are whole seconds.

use crate::csa::{csa_piece_name, parse_csa_piece};
use crate::error::{empty, is_blank, partial, ErrorKind, ReadResult};
use crate::japanese::{relative, select, Relative};
use crate::json::{parse, quote, Node};
use crate::record::{EndReason, Ending, HeaderKey, Record, RecordMove, Start, Variation};
use shogi::{Color, Move, Piece, PieceKind, Position, Square};
use std::fmt::Write as _;
use std::time::Duration;

type Fail = (usize, ErrorKind);

fn json_err(node: &Node, what: &str) -> Fail {
    (node.line, ErrorKind::Json(what.to_string()))
}

/// The JKF name of a special move (`TORYO`, `+ILLEGAL_ACTION`, `MAX_MOVES`).
fn special_name(reason: EndReason) -> &'static str {
    &crate::csa::special_name(reason, crate::csa::CsaVersion::V30)[1..]
}

fn parse_special(name: &str) -> Option<EndReason> {
    EndReason::ALL.iter().copied().find(|&r| special_name(r) == name)
}

/// Reads a JKF record.
///
/// # Errors
/// The first error with the line of the JSON value it is in, and the record read
/// up to it (the main line and the variations before the bad entry); `Empty` for
/// a blank text.
pub fn read_jkf(text: &str) -> ReadResult {
    if is_blank(text) {
        return Err(empty());
    }
    let root = match parse(text) {
        Ok(root) => root,
        Err(e) => return Err(partial(Record::default(), e.line, ErrorKind::Json(e.message))),
    };
    let mut record = Record::default();
    match read_into(&root, &mut record) {
        Ok(()) => Ok(record),
        Err((line, kind)) => Err(partial(record, line, kind)),
    }
}

fn read_into(root: &Node, record: &mut Record) -> Result<(), Fail> {
    if root.as_object().is_none() {
        return Err(json_err(root, "the record is not a JSON object"));
    }
    if let Some(header) = root.get("header") {
        let members =
            header.as_object().ok_or_else(|| json_err(header, "'header' is not an object"))?;
        for (key, value) in members {
            let v = value
                .as_str()
                .ok_or_else(|| json_err(value, &format!("header '{key}' is not a string")))?;
            let header = HeaderKey::from_kif(key);
            if !crate::kif::keeps_header_key(&header) {
                return Err(json_err(value, &format!("header '{key}' cannot be a KIF header")));
            }
            record.headers.push((header, v.to_string()));
        }
    }
    if let Some(initial) = root.get("initial") {
        record.start = read_initial(initial)?;
    }
    let Some(moves) = root.get("moves") else {
        return Ok(());
    };
    let entries = moves.as_array().ok_or_else(|| json_err(moves, "'moves' is not an array"))?;
    let Some((first, rest)) = entries.split_first() else {
        return Ok(());
    };
    if first.get("move").is_some() || first.get("special").is_some() {
        return Err(json_err(first, "moves[0] holds the start position's comments, not a move"));
    }
    record.comments = read_comments(first)?;
    let pos = record.start_position();
    let mut line = Line { moves: &mut record.moves, ending: &mut record.ending };
    read_line(rest, pos, None, &mut line)
}

fn read_initial(initial: &Node) -> Result<Start, Fail> {
    let preset = initial
        .get("preset")
        .and_then(Node::as_str)
        .ok_or_else(|| json_err(initial, "initial has no 'preset' string"))?;
    if preset != "OTHER" {
        let h = crate::Handicap::from_jkf_preset(preset)
            .ok_or_else(|| (initial.line, ErrorKind::UnknownHandicap(preset.to_string())))?;
        return Ok(Start::Handicap(h));
    }
    let data =
        initial.get("data").ok_or_else(|| json_err(initial, "preset OTHER without 'data'"))?;
    let bad = |what: &str| json_err(data, what);
    let color = data
        .get("color")
        .and_then(Node::as_u64)
        .ok_or_else(|| bad("data.color is neither 0 nor 1"))?;
    let board = data
        .get("board")
        .and_then(Node::as_array)
        .ok_or_else(|| bad("data.board is not an array"))?;
    if board.len() != 9 {
        return Err(bad(&format!("data.board has {} files, not 9", board.len())));
    }
    let mut squares = [Piece::EMPTY; 81];
    for (x, file) in board.iter().enumerate() {
        let file = file
            .as_array()
            .filter(|f| f.len() == 9)
            .ok_or_else(|| bad("a file of data.board has not 9 squares"))?;
        for (y, cell) in file.iter().enumerate() {
            let Some(kind) = cell.get("kind") else { continue };
            let name = kind.as_str().unwrap_or("");
            let kind = parse_csa_piece(name).ok_or_else(|| {
                json_err(cell, &format!("kind '{name}' is not a CSA piece (FU, KY, …, RY)"))
            })?;
            let color = read_color(cell.get("color").unwrap_or(cell))?;
            squares[Square::new(x as u8, y as u8).index()] = Piece::new(color, kind);
        }
    }
    let hands = data
        .get("hands")
        .and_then(Node::as_array)
        .ok_or_else(|| bad("data.hands is not an array"))?;
    if hands.len() != 2 {
        return Err(bad(&format!("data.hands has {} hands, not 2", hands.len())));
    }
    let mut sfen = String::new();
    for rank in 0..9u8 {
        let mut empty = 0;
        for file in (0..9u8).rev() {
            let p = squares[Square::new(file, rank).index()];
            if p.is_empty() {
                empty += 1;
                continue;
            }
            if empty > 0 {
                let _ = write!(sfen, "{empty}");
                empty = 0;
            }
            sfen.push_str(&p.to_sfen());
        }
        if empty > 0 {
            let _ = write!(sfen, "{empty}");
        }
        if rank < 8 {
            sfen.push('/');
        }
    }
    sfen.push_str(if color == 1 { " w " } else { " b " });
    let mut held = String::new();
    for (c, hand) in hands.iter().enumerate() {
        let members = hand.as_object().ok_or_else(|| json_err(hand, "a hand is not an object"))?;
        for (name, count) in members {
            let kind = parse_csa_piece(name)
                .filter(|k| PieceKind::HAND.contains(k))
                .ok_or_else(|| json_err(hand, &format!("'{name}' cannot be held")))?;
            let n = count
                .as_u64()
                .ok_or_else(|| json_err(count, &format!("the count of {name} is not a number")))?;
            if n > 1 {
                let _ = write!(held, "{n}");
            }
            if n > 0 {
                let l = kind.sfen_letter();
                held.push(if c == 0 { l } else { l.to_ascii_lowercase() });
            }
        }
    }
    sfen.push_str(if held.is_empty() { "-" } else { &held });
    sfen.push_str(" 1");
    Start::from_sfen(&sfen).map_err(|e| (data.line, ErrorKind::Position(e)))
}

fn read_color(node: &Node) -> Result<Color, Fail> {
    match node.as_u64() {
        Some(0) => Ok(Color::Black),
        Some(1) => Ok(Color::White),
        _ => Err(json_err(node, "a color is neither 0 nor 1")),
    }
}

fn read_comments(entry: &Node) -> Result<Vec<String>, Fail> {
    let Some(c) = entry.get("comments") else {
        return Ok(Vec::new());
    };
    let items = c.as_array().ok_or_else(|| json_err(c, "'comments' is not an array"))?;
    items
        .iter()
        .map(|s| {
            s.as_str().map(str::to_string).ok_or_else(|| json_err(s, "a comment is not a string"))
        })
        .collect()
}

fn read_time(entry: &Node) -> Result<Option<Duration>, Fail> {
    let Some(t) = entry.get("time") else {
        return Ok(None);
    };
    let now = t.get("now").ok_or_else(|| json_err(t, "'time' has no 'now'"))?;
    let part = |k: &str| now.get(k).map_or(Some(0), Node::as_u64);
    match (part("h"), part("m"), part("s")) {
        (Some(h), Some(m), Some(s)) => Ok(Some(Duration::from_secs(h * 3600 + m * 60 + s))),
        _ => Err(json_err(now, "time.now's h, m and s are not all numbers")),
    }
}

fn read_place(node: &Node) -> Result<Square, Fail> {
    let x = node.get("x").and_then(Node::as_u64);
    let y = node.get("y").and_then(Node::as_u64);
    match (x, y) {
        (Some(x @ 1..=9), Some(y @ 1..=9)) => Ok(Square::new(x as u8 - 1, y as u8 - 1)),
        _ => Err(json_err(node, "a place's x and y are not both from 1 to 9")),
    }
}

struct Line<'a> {
    moves: &'a mut Vec<RecordMove>,
    ending: &'a mut Option<Ending>,
}

/// Reads entries of one line played from `pos`, appending to `line`.
fn read_line(
    entries: &[Node],
    pos: Position,
    prev: Option<Move>,
    line: &mut Line,
) -> Result<(), Fail> {
    let mut pos = pos;
    let mut prev = prev;
    for entry in entries {
        if entry.as_object().is_none() {
            return Err(json_err(entry, "a move entry is not an object"));
        }
        if line.ending.is_some() {
            return Err((entry.line, ErrorKind::AfterEnd("an entry after a special".into())));
        }
        let comments = read_comments(entry)?;
        let time = read_time(entry)?;
        let mut variations = Vec::new();
        let result = read_forks(entry, &pos, prev, &mut variations);
        if let Some(special) = entry.get("special") {
            let name =
                special.as_str().ok_or_else(|| json_err(special, "'special' is not a string"))?;
            let reason = parse_special(name)
                .ok_or_else(|| (special.line, ErrorKind::Syntax(name.to_string())))?;
            *line.ending = Some(Ending { reason, time, comments, variations });
            result?;
            continue;
        }
        let mv = entry.get("move").ok_or_else(|| {
            let n = pos.game_ply();
            json_err(entry, &format!("move {n}: the entry has neither 'move' nor 'special'"))
        })?;
        let m = read_move(mv, &pos, prev)?;
        pos.do_move(m);
        prev = Some(m);
        line.moves.push(RecordMove { mv: m, time, comments, bookmark: None, variations });
        result?;
    }
    Ok(())
}

/// Reads an entry's forks into `out`, making alternatives to a fork's first move
/// siblings.
fn read_forks(
    entry: &Node,
    pos: &Position,
    prev: Option<Move>,
    out: &mut Vec<Variation>,
) -> Result<(), Fail> {
    let Some(forks) = entry.get("forks") else {
        return Ok(());
    };
    let forks = forks.as_array().ok_or_else(|| json_err(forks, "'forks' is not an array"))?;
    for fork in forks {
        let entries = fork.as_array().ok_or_else(|| json_err(fork, "a fork is not an array"))?;
        let mut v = Variation::default();
        let result = read_line(
            entries,
            pos.clone(),
            prev,
            &mut Line { moves: &mut v.moves, ending: &mut v.ending },
        );
        let siblings = match v.moves.first_mut() {
            Some(m) => std::mem::take(&mut m.variations),
            None => {
                v.ending.as_mut().map(|e| std::mem::take(&mut e.variations)).unwrap_or_default()
            }
        };
        out.push(v);
        out.extend(siblings);
        result?;
    }
    Ok(())
}

fn read_move(mv: &Node, pos: &Position, prev: Option<Move>) -> Result<Move, Fail> {
    let us = pos.side_to_move();
    let text = describe(mv);
    if let Some(c) = mv.get("color") {
        if read_color(c)? != us {
            return Err((mv.line, ErrorKind::WrongSide(text)));
        }
    }
    let n = pos.game_ply();
    let piece =
        mv.get("piece").ok_or_else(|| json_err(mv, &format!("move {n} has no 'piece' field")))?;
    let name = piece.as_str().unwrap_or("");
    let kind = parse_csa_piece(name).ok_or_else(|| {
        json_err(piece, &format!("move {n}: piece '{name}' is not a CSA piece (FU, KY, …, RY)"))
    })?;
    let to = match mv.get("to") {
        Some(to) => read_place(to)?,
        None if mv.get("same").and_then(Node::as_bool) == Some(true) => prev
            .map(|p| p.to())
            .ok_or_else(|| (mv.line, ErrorKind::NoPreviousMove(text.clone())))?,
        None => return Err(json_err(mv, &format!("move {n} has neither 'to' nor 'same'"))),
    };
    let promote = mv.get("promote").and_then(Node::as_bool);
    let m = match mv.get("from") {
        Some(from) => {
            let from = read_place(from)?;
            let on = pos.piece_on(from);
            if !on.is_empty() && on.color() == us && on.kind() != Some(kind) {
                return Err((mv.line, ErrorKind::WrongPiece(text)));
            }
            let usi = format!("{}{}{}", from, to, if promote == Some(true) { "+" } else { "" });
            pos.parse_usi_move(&usi).map_err(|reason| {
                (mv.line, ErrorKind::IllegalMove { text: text.clone(), reason })
            })?
        }
        None => {
            let rel = match mv.get("relative") {
                Some(r) => r
                    .as_str()
                    .and_then(Relative::from_jkf)
                    .ok_or_else(|| json_err(r, &format!("move {n}: unknown 'relative'")))?,
                None => Relative::default(),
            };
            select(pos, kind, to, rel, promote).map_err(|many| {
                let kind = if many {
                    ErrorKind::Ambiguous(text.clone())
                } else {
                    ErrorKind::NoSuchMove(text.clone())
                };
                (mv.line, kind)
            })?
        }
    };
    // The piece on the origin is checked above; a wrong capture is its own fault.
    if let Some(cap) = mv.get("capture") {
        let named = cap
            .as_str()
            .ok_or_else(|| json_err(cap, &format!("move {n}: 'capture' is not a string")))?;
        if parse_csa_piece(named) != m.captured() {
            let kind = ErrorKind::WrongCapture {
                text,
                named: named.to_string(),
                found: m.captured().map(|k| csa_piece_name(k).to_string()),
            };
            return Err((mv.line, kind));
        }
    }
    Ok(m)
}

/// A short description of a move object for messages.
fn describe(mv: &Node) -> String {
    let place = |k: &str| {
        mv.get(k).map_or("--".to_string(), |p| {
            format!(
                "{}{}",
                p.get("x").and_then(Node::as_u64).unwrap_or(0),
                p.get("y").and_then(Node::as_u64).unwrap_or(0)
            )
        })
    };
    let piece = mv.get("piece").and_then(Node::as_str).unwrap_or("??");
    format!("{}{}{}", place("from"), place("to"), piece)
}

// ---- Writing -------------------------------------------------------------------

fn place(sq: Square) -> String {
    format!("{{\"x\":{},\"y\":{}}}", sq.file() + 1, sq.rank() + 1)
}

fn time_json(now: Duration, total: Duration) -> String {
    let n = now.as_secs();
    let t = total.as_secs();
    format!(
        "{{\"now\":{{\"m\":{},\"s\":{}}},\"total\":{{\"h\":{},\"m\":{},\"s\":{}}}}}",
        n / 60,
        n % 60,
        t / 3600,
        t / 60 % 60,
        t % 60
    )
}

fn comments_json(comments: &[String]) -> String {
    let items: Vec<String> = comments.iter().map(|c| quote(c)).collect();
    format!("\"comments\":[{}]", items.join(","))
}

/// The `move` object of `m` played in `pos`.
fn move_json(pos: &Position, m: Move, prev: Option<Move>) -> String {
    let mut s = format!("{{\"color\":{}", pos.side_to_move().index());
    if !m.is_drop() {
        let _ = write!(s, ",\"from\":{}", place(m.from()));
    }
    let _ = write!(s, ",\"to\":{},\"piece\":\"{}\"", place(m.to()), csa_piece_name(m.moved_kind()));
    if prev.is_some_and(|p| p.to() == m.to()) {
        s.push_str(",\"same\":true");
    }
    if crate::japanese::can_promote(pos, m) {
        let _ = write!(s, ",\"promote\":{}", m.is_promotion());
    }
    if let Some(c) = m.captured() {
        let _ = write!(s, ",\"capture\":\"{}\"", csa_piece_name(c));
    }
    let rel = relative(pos, m);
    if !rel.is_empty() {
        let _ = write!(s, ",\"relative\":\"{}\"", rel.jkf());
    }
    s.push('}');
    s
}

/// The entries of one line, each as one JSON object.
fn line_json(
    pos: &Position,
    prev: Option<Move>,
    moves: &[RecordMove],
    ending: Option<&Ending>,
    totals: [Duration; 2],
) -> Vec<String> {
    let mut pos = pos.clone();
    let mut prev = prev;
    let mut totals = totals;
    let mut out = Vec::with_capacity(moves.len() + 1);
    for rm in moves {
        let us = pos.side_to_move();
        let mut fields = vec![format!("\"move\":{}", move_json(&pos, rm.mv, prev))];
        let before = totals;
        if let Some(t) = rm.time {
            totals[us.index()] += crate::kif::whole(t);
            fields.push(format!("\"time\":{}", time_json(t, totals[us.index()])));
        }
        if !rm.comments.is_empty() {
            fields.push(comments_json(&rm.comments));
        }
        if !rm.variations.is_empty() {
            fields.push(forks_json(&pos, prev, &rm.variations, before));
        }
        out.push(format!("{{{}}}", fields.join(",")));
        pos.do_move(rm.mv);
        prev = Some(rm.mv);
    }
    if let Some(e) = ending {
        let us = pos.side_to_move();
        let mut fields = vec![format!("\"special\":{}", quote(special_name(e.reason)))];
        let before = totals;
        if let Some(t) = e.time {
            totals[us.index()] += crate::kif::whole(t);
            fields.push(format!("\"time\":{}", time_json(t, totals[us.index()])));
        }
        if !e.comments.is_empty() {
            fields.push(comments_json(&e.comments));
        }
        if !e.variations.is_empty() {
            fields.push(forks_json(&pos, prev, &e.variations, before));
        }
        out.push(format!("{{{}}}", fields.join(",")));
    }
    out
}

fn forks_json(
    pos: &Position,
    prev: Option<Move>,
    vars: &[Variation],
    totals: [Duration; 2],
) -> String {
    let forks: Vec<String> = vars
        .iter()
        .map(|v| {
            format!("[{}]", line_json(pos, prev, &v.moves, v.ending.as_ref(), totals).join(","))
        })
        .collect();
    format!("\"forks\":[{}]", forks.join(","))
}

fn initial_json(record: &Record) -> Option<String> {
    match &record.start {
        Start::Handicap(crate::Handicap::Even) => None,
        Start::Handicap(h) => Some(format!("{{\"preset\":{}}}", quote(h.jkf_preset()))),
        Start::Sfen(_) => {
            let pos = record.start_position();
            let files: Vec<String> = (0..9u8)
                .map(|x| {
                    let cells: Vec<String> = (0..9u8)
                        .map(|y| {
                            let p = pos.piece_on(Square::new(x, y));
                            match p.kind() {
                                None => "{}".to_string(),
                                Some(k) => format!(
                                    "{{\"color\":{},\"kind\":\"{}\"}}",
                                    p.color().index(),
                                    csa_piece_name(k)
                                ),
                            }
                        })
                        .collect();
                    format!("[{}]", cells.join(","))
                })
                .collect();
            let hands: Vec<String> = Color::ALL
                .iter()
                .map(|&c| {
                    let h = pos.hand(c);
                    let items: Vec<String> = [
                        PieceKind::Pawn,
                        PieceKind::Lance,
                        PieceKind::Knight,
                        PieceKind::Silver,
                        PieceKind::Gold,
                        PieceKind::Bishop,
                        PieceKind::Rook,
                    ]
                    .iter()
                    .map(|&k| format!("\"{}\":{}", csa_piece_name(k), h.count(k)))
                    .collect();
                    format!("{{{}}}", items.join(","))
                })
                .collect();
            Some(format!(
                "{{\"preset\":\"OTHER\",\"data\":{{\"color\":{},\"board\":[{}],\"hands\":[{}]}}}}",
                pos.side_to_move().index(),
                files.join(","),
                hands.join(",")
            ))
        }
    }
}

/// Writes a JKF record (normalized: every move has its `from`, `capture`,
/// `promote` when it could promote, `relative` when notation needs it).
pub fn write_jkf(record: &Record) -> String {
    let mut out = String::with_capacity(160 * record.moves.len() + 256);
    out.push_str("{\n  \"header\": {");
    for (i, (key, value)) in record.headers.iter().enumerate() {
        out.push_str(if i == 0 { "\n    " } else { ",\n    " });
        let _ = write!(out, "{}: {}", quote(key.kif_name()), quote(value));
    }
    out.push_str(if record.headers.is_empty() { "},\n" } else { "\n  },\n" });
    if let Some(initial) = initial_json(record) {
        let _ = writeln!(out, "  \"initial\": {initial},");
    }
    out.push_str("  \"moves\": [\n    ");
    if record.comments.is_empty() {
        out.push_str("{}");
    } else {
        let _ = write!(out, "{{{}}}", comments_json(&record.comments));
    }
    let start = record.start_position();
    for entry in line_json(&start, None, &record.moves, record.ending.as_ref(), [Duration::ZERO; 2])
    {
        out.push_str(",\n    ");
        out.push_str(&entry);
    }
    out.push_str("\n  ]\n}\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn jkf(moves: &[&str]) -> String {
        format!("{{\"header\":{{}},\"moves\":[{{}},\n{}]}}", moves.join(",\n"))
    }

    const P76: &str = r#"{"move":{"from":{"x":7,"y":7},"to":{"x":7,"y":6},"piece":"FU"}}"#;
    const P34: &str = r#"{"move":{"from":{"x":3,"y":3},"to":{"x":3,"y":4},"piece":"FU"}}"#;

    #[test]
    fn a_wrong_capture_says_what_the_destination_holds() {
        let bx22 =
            r#"{"move":{"from":{"x":8,"y":8},"to":{"x":2,"y":2},"piece":"KA","capture":"KI"}}"#;
        let e = read_jkf(&jkf(&[P76, P34, bx22])).unwrap_err();
        let kind = ErrorKind::WrongCapture {
            text: "8822KA".into(),
            named: "KI".into(),
            found: Some("KA".into()),
        };
        assert_eq!((e.error.line, e.error.kind.clone()), (4, kind));
        assert_eq!(
            e.error.to_string(),
            "line 4: '8822KA': capture says KI but the destination holds KA"
        );
        assert_eq!(e.record.moves.len(), 2);
        let quiet =
            r#"{"move":{"from":{"x":2,"y":7},"to":{"x":2,"y":6},"piece":"FU","capture":"FU"}}"#;
        let e = read_jkf(&jkf(&[quiet])).unwrap_err();
        assert!(e.error.to_string().ends_with("capture says FU but the destination is empty"));
    }

    #[test]
    fn a_move_without_its_piece_says_so() {
        let no_piece = r#"{"move":{"from":{"x":3,"y":3},"to":{"x":3,"y":4}}}"#;
        let e = read_jkf(&jkf(&[P76, no_piece])).unwrap_err();
        assert_eq!(e.error.line, 3);
        assert_eq!(e.error.kind, ErrorKind::Json("move 2 has no 'piece' field".into()));
        let bad_piece = r#"{"move":{"from":{"x":3,"y":3},"to":{"x":3,"y":4},"piece":"XX"}}"#;
        let e = read_jkf(&jkf(&[P76, bad_piece])).unwrap_err();
        assert!(e.error.to_string().contains("move 2: piece 'XX' is not a CSA piece"), "{e}");
    }

    #[test]
    fn a_blank_text_is_empty() {
        assert_eq!(read_jkf(" \n").unwrap_err().error.kind, ErrorKind::Empty);
        assert!(read_jkf(&jkf(&[])).is_err(), "a trailing comma is bad JSON");
        assert!(read_jkf("{\"header\":{},\"moves\":[{}]}").is_ok());
    }
}
