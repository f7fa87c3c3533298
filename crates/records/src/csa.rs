//! CSA standard record files, V2.2 and V3.0 (the Computer Shogi Association's
//! format), and the move notation of the CSA protocol.
//!
//! ```text
//! 'CSA encoding=UTF-8          V3.0: the encoding line
//! V3.0                         version
//! N+Kyobo                      players
//! N-GPSShogi
//! $EVENT:test                  other headers
//! PI                           start: PI (minus removed pieces), or P1..P9 and P+/P-
//! +                            side to move
//! +7776FU                      moves, each followed by its time
//! T12
//! '*a comment for the move     comments programs read ('* lines)
//! -3334FU,T5                   several items may share a line
//! %TORYO                       the ending
//! ```
//!
//! Plain `'` comments are skipped, as the format says of them; `'*` comments are
//! kept as the comments of the move (or ending, or start position) they follow.
//! Times are seconds (`T12`), with a fraction in V3.0 (`T12.345`).

use crate::error::{empty, is_blank, partial, ErrorKind, ReadResult};
use crate::record::{EndReason, Ending, HeaderKey, Record, RecordMove, Start};
use shogi::{Color, Move, Piece, PieceKind, Position, Square, STARTPOS};
use std::fmt::Write as _;
use std::time::Duration;

/// Which version of the format to write.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum CsaVersion {
    /// V2.2: whole seconds; no `%MAX_MOVES` (written `%JISHOGI`).
    V22,
    /// V3.0 (2024): the `'CSA encoding=UTF-8` line, times to the millisecond.
    #[default]
    V30,
}

const PIECE_NAMES: [(PieceKind, &str); 14] = [
    (PieceKind::Pawn, "FU"),
    (PieceKind::Lance, "KY"),
    (PieceKind::Knight, "KE"),
    (PieceKind::Silver, "GI"),
    (PieceKind::Gold, "KI"),
    (PieceKind::Bishop, "KA"),
    (PieceKind::Rook, "HI"),
    (PieceKind::King, "OU"),
    (PieceKind::ProPawn, "TO"),
    (PieceKind::ProLance, "NY"),
    (PieceKind::ProKnight, "NK"),
    (PieceKind::ProSilver, "NG"),
    (PieceKind::Horse, "UM"),
    (PieceKind::Dragon, "RY"),
];

/// The CSA name of a kind: `FU`, `TO`, `OU`, …
pub fn csa_piece_name(kind: PieceKind) -> &'static str {
    PIECE_NAMES.iter().find(|(k, _)| *k == kind).map_or("??", |(_, n)| n)
}

/// The kind of a CSA piece name.
pub fn parse_csa_piece(name: &str) -> Option<PieceKind> {
    PIECE_NAMES.iter().find(|(_, n)| *n == name).map(|(k, _)| *k)
}

/// The CSA sign of a side: `+` for Black (sente), `-` for White.
pub fn sign(color: Color) -> char {
    match color {
        Color::Black => '+',
        Color::White => '-',
    }
}

fn square_digits(sq: Square) -> String {
    format!("{}{}", sq.file() + 1, sq.rank() + 1)
}

fn parse_square_digits(b: &[u8]) -> Option<Option<Square>> {
    match b {
        [b'0', b'0'] => Some(None),
        [f @ b'1'..=b'9', r @ b'1'..=b'9'] => Some(Some(Square::new(f - b'1', r - b'1'))),
        _ => None,
    }
}

/// A move in CSA notation, `+7776FU` (`+0055KA` for a drop, `-8822UM` for a
/// promotion: the piece after the move), checked to be legal in `pos`. The sign
/// may be left out; when given it must be the side to move's.
///
/// # Errors
/// `Syntax` for text that is no CSA move, `WrongSide` for the other side's sign,
/// `WrongPiece` when the named piece is neither the piece on the origin square nor
/// its promotion, `IllegalMove` (with the reason) for a move the rules refuse.
pub fn csa_move_to_move(pos: &Position, text: &str) -> Result<Move, ErrorKind> {
    let syntax = || ErrorKind::Syntax(text.to_string());
    let us = pos.side_to_move();
    let mut body = text.trim();
    if let Some(c) = body.chars().next() {
        if c == '+' || c == '-' {
            let color = if c == '+' { Color::Black } else { Color::White };
            if color != us {
                return Err(ErrorKind::WrongSide(text.to_string()));
            }
            body = &body[1..];
        }
    }
    let b = body.as_bytes();
    if b.len() != 6 {
        return Err(syntax());
    }
    let from = parse_square_digits(&b[0..2]).ok_or_else(syntax)?;
    let to = parse_square_digits(&b[2..4]).ok_or_else(syntax)?.ok_or_else(syntax)?;
    let kind =
        parse_csa_piece(std::str::from_utf8(&b[4..6]).map_err(|_| syntax())?).ok_or_else(syntax)?;
    let usi = match from {
        None => {
            if kind.is_promoted() || kind == PieceKind::King {
                return Err(ErrorKind::WrongPiece(text.to_string()));
            }
            format!("{}*{}", kind.sfen_letter(), to)
        }
        Some(from) => {
            let piece = pos.piece_on(from);
            let promote = match piece.kind() {
                Some(k) if piece.color() == us && k == kind => false,
                Some(k) if piece.color() == us && k.can_promote() && k.promote() == kind => true,
                Some(_) if piece.color() == us => {
                    return Err(ErrorKind::WrongPiece(text.to_string()));
                }
                // No piece, or the opponent's: the USI parser says which.
                _ => false,
            };
            format!("{}{}{}", from, to, if promote { "+" } else { "" })
        }
    };
    pos.parse_usi_move(&usi)
        .map_err(|reason| ErrorKind::IllegalMove { text: text.to_string(), reason })
}

/// The CSA notation of `m` (legal in `pos`): `+7776FU`, `-0055KA`, `+8822UM`.
pub fn move_to_csa(pos: &Position, m: Move) -> String {
    let from = if m.is_drop() { "00".to_string() } else { square_digits(m.from()) };
    format!(
        "{}{}{}{}",
        sign(pos.side_to_move()),
        from,
        square_digits(m.to()),
        csa_piece_name(m.kind_after())
    )
}

/// The CSA special move of an ending, with its `%`.
pub fn special_name(reason: EndReason, version: CsaVersion) -> &'static str {
    match reason {
        EndReason::Resign => "%TORYO",
        EndReason::Abort => "%CHUDAN",
        EndReason::Sennichite => "%SENNICHITE",
        EndReason::TimeUp => "%TIME_UP",
        EndReason::IllegalMove => "%ILLEGAL_MOVE",
        EndReason::IllegalAction(Color::Black) => "%+ILLEGAL_ACTION",
        EndReason::IllegalAction(Color::White) => "%-ILLEGAL_ACTION",
        EndReason::Jishogi => "%JISHOGI",
        EndReason::DeclareWin => "%KACHI",
        EndReason::DeclareDraw => "%HIKIWAKE",
        EndReason::MaxMoves if version == CsaVersion::V22 => "%JISHOGI",
        EndReason::MaxMoves => "%MAX_MOVES",
        EndReason::Mate => "%TSUMI",
        EndReason::NoMate => "%FUZUMI",
        EndReason::Matta => "%MATTA",
        EndReason::Error => "%ERROR",
    }
}

/// An ending is shown as its CSA special move (`%TORYO`), the name every
/// record format and server shares.
impl std::fmt::Display for EndReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(special_name(*self, CsaVersion::V30))
    }
}

/// The ending of a CSA special move (`%TORYO`).
pub fn parse_special(text: &str) -> Option<EndReason> {
    EndReason::ALL.iter().copied().find(|&r| special_name(r, CsaVersion::V30) == text)
}

/// The side of a CSA sign.
pub fn color_of_sign(c: char) -> Option<Color> {
    match c {
        '+' => Some(Color::Black),
        '-' => Some(Color::White),
        _ => None,
    }
}

/// A start position being read from CSA position lines: `PI` (less removed
/// pieces), `P1`..`P9`, `P+`/`P-` pieces (`00AL`: the rest of the set to that
/// hand), and the side to move (`+`/`-`), as a record or a CSA server's game
/// summary gives them; [`PositionReader::finish`] makes the position.
#[derive(Clone, Debug)]
pub struct PositionReader {
    board: [Piece; 81],
    hands: [[u32; 8]; 2],
    /// Whether a `P` line has been read (else the start is the even game's).
    seen: bool,
    /// The side a `+`/`-` line named.
    side: Option<Color>,
}

impl Default for PositionReader {
    fn default() -> Self {
        PositionReader::new()
    }
}

impl PositionReader {
    pub fn new() -> PositionReader {
        PositionReader { board: [Piece::EMPTY; 81], hands: [[0; 8]; 2], seen: false, side: None }
    }

    /// Whether `line` is one this reader takes (`P…`, or a lone `+`/`-`).
    pub fn accepts(line: &str) -> bool {
        line.starts_with('P') || line == "+" || line == "-"
    }

    /// Reads one position line.
    ///
    /// # Errors
    /// `Board` (what is wrong) or `Syntax` for a line that cannot be read.
    pub fn read_line(&mut self, line: &str) -> Result<(), ErrorKind> {
        if line == "+" || line == "-" {
            self.side = line.chars().next().and_then(color_of_sign);
            return Ok(());
        }
        let Some(rest) = line.strip_prefix('P') else {
            return Err(ErrorKind::Syntax(line.to_string()));
        };
        self.seen = true;
        let mut chars = rest.chars();
        let read = match chars.next() {
            Some('I') => self.pi(chars.as_str()),
            Some(d @ '1'..='9') => self.rank(d as u8 - b'1', chars.as_str()),
            Some('+') => self.pieces(Color::Black, chars.as_str()),
            Some('-') => self.pieces(Color::White, chars.as_str()),
            _ => return Err(ErrorKind::Syntax(line.to_string())),
        };
        read.map_err(ErrorKind::Board)
    }

    /// The position read, with the side a `+`/`-` line named to move, else
    /// `default_side`; the even game's where no `P` line was read. Checked by the
    /// rules core (piece counts, kings, pieces that could never move).
    ///
    /// # Errors
    /// `Position` for a position the rules do not allow.
    pub fn finish(&self, default_side: Color) -> Result<Position, ErrorKind> {
        let side = self.side.unwrap_or(default_side);
        let sfen = if self.seen { self.sfen(side) } else { Self::hirate_sfen(side) };
        Position::from_sfen(&sfen).map_err(ErrorKind::Position)
    }

    fn sfen(&self, side: Color) -> String {
        let mut s = String::new();
        for rank in 0..9u8 {
            let mut empty = 0;
            for file in (0..9u8).rev() {
                let p = self.board[Square::new(file, rank).index()];
                if p.is_empty() {
                    empty += 1;
                } else {
                    if empty > 0 {
                        s.push_str(&empty.to_string());
                        empty = 0;
                    }
                    s.push_str(&p.to_sfen());
                }
            }
            if empty > 0 {
                s.push_str(&empty.to_string());
            }
            if rank < 8 {
                s.push('/');
            }
        }
        s.push_str(if side == Color::Black { " b " } else { " w " });
        let mut hands = String::new();
        for color in Color::ALL {
            for &kind in PieceKind::HAND.iter().rev() {
                let n = self.hands[color.index()][kind.index()];
                if n > 1 {
                    hands.push_str(&n.to_string());
                }
                if n > 0 {
                    let c = kind.sfen_letter();
                    hands.push(if color == Color::Black { c } else { c.to_ascii_lowercase() });
                }
            }
        }
        s.push_str(if hands.is_empty() { "-" } else { &hands });
        s.push_str(" 1");
        s
    }

    /// `PI82HI22KA`: the standard position without the listed pieces.
    fn pi(&mut self, rest: &str) -> Result<(), String> {
        let pos = Position::from_sfen(STARTPOS).expect("the start position");
        for sq in Square::all() {
            self.board[sq.index()] = pos.piece_on(sq);
        }
        let b = rest.as_bytes();
        if !b.len().is_multiple_of(4) {
            return Err(format!("'PI{rest}' must list pieces as xyPC"));
        }
        for chunk in b.chunks(4) {
            let sq = parse_square_digits(&chunk[0..2]).flatten();
            let kind = std::str::from_utf8(&chunk[2..4]).ok().and_then(parse_csa_piece);
            match (sq, kind) {
                (Some(sq), Some(kind)) if self.board[sq.index()].kind() == Some(kind) => {
                    self.board[sq.index()] = Piece::EMPTY;
                }
                _ => return Err(format!("'PI{rest}' removes a piece that is not there")),
            }
        }
        Ok(())
    }

    /// `P1-KY-KE-GI-KI-OU-KI-GI-KE-KY`: one rank, files 9 to 1.
    fn rank(&mut self, rank: u8, rest: &str) -> Result<(), String> {
        let mut cells: Vec<char> = rest.chars().collect();
        while cells.len() < 27 {
            cells.push(' ');
        }
        if cells.len() != 27 {
            return Err(format!("rank {} must have 9 squares of 3 characters", rank + 1));
        }
        for (i, cell) in cells.chunks(3).enumerate() {
            let file = 8 - i as u8;
            let text: String = cell.iter().collect();
            let piece = match text.as_str() {
                " * " | "   " => Piece::EMPTY,
                _ => {
                    let color = match cell[0] {
                        '+' => Color::Black,
                        '-' => Color::White,
                        _ => return Err(format!("bad square '{text}'")),
                    };
                    let kind = parse_csa_piece(&text[1..]).ok_or(format!("bad square '{text}'"))?;
                    Piece::new(color, kind)
                }
            };
            self.board[Square::new(file, rank).index()] = piece;
        }
        Ok(())
    }

    /// `P+99KY89KE`, `P+00KI00FU`, `P-00AL`: single pieces, to the board or hand.
    fn pieces(&mut self, color: Color, rest: &str) -> Result<(), String> {
        let b = rest.as_bytes();
        if !b.len().is_multiple_of(4) {
            return Err(format!("pieces must be listed as xyPC: '{rest}'"));
        }
        for chunk in b.chunks(4) {
            let sq = parse_square_digits(&chunk[0..2]).ok_or(format!("bad square in '{rest}'"))?;
            let name = std::str::from_utf8(&chunk[2..4]).unwrap_or("");
            match (sq, name) {
                (None, "AL") => self.all_remaining(color),
                (None, name) => {
                    let kind = parse_csa_piece(name)
                        .filter(|k| !k.is_promoted() && *k != PieceKind::King)
                        .ok_or(format!("'{name}' cannot be held in hand"))?;
                    self.hands[color.index()][kind.index()] += 1;
                }
                (Some(sq), name) => {
                    let kind = parse_csa_piece(name).ok_or(format!("bad piece '{name}'"))?;
                    self.board[sq.index()] = Piece::new(color, kind);
                }
            }
        }
        Ok(())
    }

    fn all_remaining(&mut self, color: Color) {
        for &kind in &PieceKind::HAND {
            let on_board = self
                .board
                .iter()
                .filter(|p| p.kind().is_some_and(|k| k.unpromote() == kind))
                .count() as u32;
            let held = self.hands[0][kind.index()] + self.hands[1][kind.index()];
            let total = kind.max_count() as u32;
            self.hands[color.index()][kind.index()] += total.saturating_sub(on_board + held);
        }
    }
}

/// Where the reader is.
struct Reader {
    record: Record,
    setup: PositionReader,
    pos: Option<Position>,
}

impl Reader {
    /// The position moves are read in, settling the start when it is first needed.
    fn position(&mut self) -> Result<&mut Position, ErrorKind> {
        if self.pos.is_none() {
            if self.setup.seen {
                return Err(ErrorKind::Board(
                    "no side-to-move line (+ or -) after the position".into(),
                ));
            }
            self.pos = Some(Position::startpos());
        }
        Ok(self.pos.as_mut().expect("just set"))
    }

    /// The comments of the last thing read: the ending, the last move, or the start.
    fn comments(&mut self) -> &mut Vec<String> {
        if let Some(e) = &mut self.record.ending {
            &mut e.comments
        } else if let Some(m) = self.record.moves.last_mut() {
            &mut m.comments
        } else {
            &mut self.record.comments
        }
    }

    fn line(&mut self, line: &str) -> Result<(), ErrorKind> {
        let syntax = || ErrorKind::Syntax(line.to_string());
        if line.is_empty() {
            return Ok(());
        }
        if let Some(c) = line.strip_prefix("'*") {
            self.comments().push(c.to_string());
            return Ok(());
        }
        if line.starts_with('\'') || line.starts_with('V') {
            return Ok(());
        }
        if let Some(name) = line.strip_prefix("N+") {
            self.record.headers.push((HeaderKey::BlackName, name.to_string()));
            return Ok(());
        }
        if let Some(name) = line.strip_prefix("N-") {
            self.record.headers.push((HeaderKey::WhiteName, name.to_string()));
            return Ok(());
        }
        if let Some(rest) = line.strip_prefix('$') {
            let (key, value) = rest.split_once(':').ok_or_else(syntax)?;
            // Keys are names (`EVENT`, `START_TIME`, a KIF key): none is empty or
            // holds a control character or a BOM, and every one must survive KIF.
            let header = HeaderKey::from_csa(key);
            if key.is_empty()
                || key.chars().any(|c| c.is_control() || c == '\u{feff}')
                || !crate::kif::keeps_header_key(&header)
            {
                return Err(syntax());
            }
            self.record.headers.push((header, value.to_string()));
            return Ok(());
        }
        if line.starts_with('P') {
            if self.pos.is_some() {
                return Err(ErrorKind::Board("a position line after the side to move".into()));
            }
            return self.setup.read_line(line);
        }
        if line == "+" || line == "-" {
            if self.pos.is_some() {
                return Err(syntax());
            }
            let side = if line == "+" { Color::Black } else { Color::White };
            let pos = std::mem::take(&mut self.setup).finish(side)?;
            self.record.start = Start::from_position(&pos);
            self.pos = Some(pos);
            return Ok(());
        }
        if line.starts_with(['+', '-', 'T', '%']) {
            let mut parts = line.split(',');
            while let Some(part) = parts.next() {
                if part.starts_with('\'') {
                    let rest: Vec<&str> = std::iter::once(part).chain(parts.by_ref()).collect();
                    return self.line(&rest.join(","));
                }
                self.item(part)?;
            }
            return Ok(());
        }
        Err(syntax())
    }

    /// One move, time or special move.
    fn item(&mut self, item: &str) -> Result<(), ErrorKind> {
        if let Some(t) = item.strip_prefix('T') {
            let time = parse_time(t).ok_or_else(|| ErrorKind::Syntax(item.to_string()))?;
            if let Some(e) = &mut self.record.ending {
                e.time = Some(time);
            } else if let Some(m) = self.record.moves.last_mut() {
                m.time = Some(time);
            } else {
                return Err(ErrorKind::Syntax(item.to_string()));
            }
            return Ok(());
        }
        if self.record.ending.is_some() {
            return Err(ErrorKind::AfterEnd(item.to_string()));
        }
        if item.starts_with('%') {
            let reason = parse_special(item).ok_or_else(|| ErrorKind::Syntax(item.to_string()))?;
            self.position()?;
            self.record.ending = Some(Ending::new(reason));
            return Ok(());
        }
        let pos = self.position()?;
        let m = csa_move_to_move(pos, item)?;
        pos.do_move(m);
        self.record.moves.push(RecordMove::new(m));
        Ok(())
    }
}

impl PositionReader {
    fn hirate_sfen(side: Color) -> String {
        let mut s = STARTPOS.to_string();
        if side == Color::White {
            s = s.replace(" b ", " w ");
        }
        s
    }
}

/// `12`, `12.345`: seconds with an optional fraction.
fn parse_time(t: &str) -> Option<Duration> {
    let (secs, frac) = t.split_once('.').unwrap_or((t, ""));
    if secs.is_empty() || !secs.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    if !frac.bytes().all(|b| b.is_ascii_digit()) || frac.len() > 9 {
        return None;
    }
    let secs: u64 = secs.parse().ok()?;
    let nanos: u32 = if frac.is_empty() { 0 } else { format!("{frac:0<9}").parse().ok()? };
    Some(Duration::new(secs, nanos))
}

/// Reads the first record of a CSA text (records after a `/` line are left;
/// [`csa_record_count`] says whether there are any).
///
/// The start must be given (`PI…` or `P1`…`P9`, `P+`/`P-`, then `+` or `-`);
/// a text with no position at all starts from the standard position, Black to
/// move. Every move is checked against the position.
///
/// # Errors
/// The first bad line, with the record read up to it; `Empty` for a blank text
/// (a record of headers alone is read, from the standard position).
pub fn read_csa(text: &str) -> ReadResult {
    let lines: Vec<(usize, &str)> = text.lines().enumerate().collect();
    let first = split_records(&lines).next().ok_or_else(empty)?;
    read_from(first.iter().copied())
}

/// Reads every record of a CSA text (records are separated by `/` lines; blank
/// ones, such as after a final `/`, are no records). A blank text holds none.
pub fn read_csa_all(text: &str) -> Vec<ReadResult> {
    let lines: Vec<(usize, &str)> = text.lines().enumerate().collect();
    split_records(&lines).map(|chunk| read_from(chunk.iter().copied())).collect()
}

/// How many records a CSA text holds, as [`read_csa_all`] counts them: a reader
/// of the first can tell the user about the others.
pub fn csa_record_count(text: &str) -> usize {
    let lines: Vec<(usize, &str)> = text.lines().enumerate().collect();
    split_records(&lines).count()
}

/// The lines of each record that is not blank.
fn split_records<'l, 'a>(
    lines: &'l [(usize, &'a str)],
) -> impl Iterator<Item = &'l [(usize, &'a str)]> {
    lines
        .split(|(_, l)| l.trim_end() == "/")
        .filter(|chunk| !chunk.iter().all(|(_, l)| is_blank(l)))
}

fn read_from<'a>(lines: impl Iterator<Item = (usize, &'a str)>) -> ReadResult {
    let mut r = Reader { record: Record::default(), setup: PositionReader::new(), pos: None };
    let mut last_line = 0;
    for (i, raw) in lines {
        last_line = i + 1;
        let line = raw.trim_start_matches('\u{feff}').trim_end_matches(['\r', ' ', '\t']);
        if let Err(kind) = r.line(line) {
            return Err(partial(r.record, i + 1, kind));
        }
    }
    if r.pos.is_none() && r.setup.seen {
        let kind = ErrorKind::Board("no side-to-move line (+ or -) after the position".into());
        return Err(partial(r.record, last_line, kind));
    }
    Ok(r.record)
}

fn write_time(out: &mut String, t: Duration, version: CsaVersion) {
    let secs = t.as_secs();
    let millis = t.subsec_millis();
    if version == CsaVersion::V30 && millis != 0 {
        let frac = format!("{millis:03}");
        let _ = writeln!(out, "T{secs}.{}", frac.trim_end_matches('0'));
    } else {
        let _ = writeln!(out, "T{secs}");
    }
}

fn one_line(s: &str) -> String {
    s.replace(['\r', '\n'], " ")
}

/// Writes a CSA record. Kept: headers (players as `N+`/`N-`, the others as
/// `$KEY:value`), the start, `'*` comments, times (V3.0 to the millisecond, V2.2
/// whole seconds) and the ending. Lost: bookmarks, variations, a start position's
/// move number.
pub fn write_csa(record: &Record, version: CsaVersion) -> String {
    let mut out = String::with_capacity(16 * record.moves.len() + 512);
    match version {
        CsaVersion::V30 => out.push_str("'CSA encoding=UTF-8\nV3.0\n"),
        CsaVersion::V22 => out.push_str("V2.2\n"),
    }
    for (key, value) in &record.headers {
        match key {
            HeaderKey::BlackName => out.push_str("N+"),
            HeaderKey::WhiteName => out.push_str("N-"),
            k => {
                out.push('$');
                out.push_str(&one_line(k.csa_name()));
                out.push(':');
            }
        }
        out.push_str(&one_line(value));
        out.push('\n');
    }
    let start = record.start_position();
    match record.start {
        Start::Handicap(h) => {
            let _ = writeln!(out, "PI{}", h.csa_removals());
        }
        Start::Sfen(_) => write_board(&mut out, &start),
    }
    out.push(sign(start.side_to_move()));
    out.push('\n');
    for c in &record.comments {
        let _ = writeln!(out, "'*{}", one_line(c));
    }
    let mut pos = start;
    for rm in &record.moves {
        out.push_str(&move_to_csa(&pos, rm.mv));
        out.push('\n');
        if let Some(t) = rm.time {
            write_time(&mut out, t, version);
        }
        for c in &rm.comments {
            let _ = writeln!(out, "'*{}", one_line(c));
        }
        pos.do_move(rm.mv);
    }
    if let Some(e) = &record.ending {
        out.push_str(special_name(e.reason, version));
        out.push('\n');
        if let Some(t) = e.time {
            write_time(&mut out, t, version);
        }
        for c in &e.comments {
            let _ = writeln!(out, "'*{}", one_line(c));
        }
    }
    out
}

/// `P1`…`P9` and the hands (`P+00HI00FU`) of a position.
fn write_board(out: &mut String, pos: &Position) {
    for rank in 0..9u8 {
        let _ = write!(out, "P{}", rank + 1);
        for file in (0..9u8).rev() {
            let p = pos.piece_on(Square::new(file, rank));
            match p.kind() {
                None => out.push_str(" * "),
                Some(k) => {
                    out.push(sign(p.color()));
                    out.push_str(csa_piece_name(k));
                }
            }
        }
        out.push('\n');
    }
    for color in Color::ALL {
        let hand = pos.hand(color);
        if hand.is_empty() {
            continue;
        }
        out.push('P');
        out.push(sign(color));
        for &kind in PieceKind::HAND.iter().rev() {
            for _ in 0..hand.count(kind) {
                out.push_str("00");
                out.push_str(csa_piece_name(kind));
            }
        }
        out.push('\n');
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shogi::MoveParseError;

    #[test]
    fn protocol_moves() {
        let pos = Position::startpos();
        let m = csa_move_to_move(&pos, "+7776FU").unwrap();
        assert_eq!(m.to_usi(), "7g7f");
        assert_eq!(move_to_csa(&pos, m), "+7776FU");
        assert_eq!(csa_move_to_move(&pos, "7776FU"), Ok(m));
        assert_eq!(csa_move_to_move(&pos, "-3334FU"), Err(ErrorKind::WrongSide("-3334FU".into())));
        assert_eq!(csa_move_to_move(&pos, "+7776KI"), Err(ErrorKind::WrongPiece("+7776KI".into())));
        assert_eq!(csa_move_to_move(&pos, "+7776F"), Err(ErrorKind::Syntax("+7776F".into())));
        assert_eq!(
            csa_move_to_move(&pos, "+7775FU"),
            Err(ErrorKind::IllegalMove {
                text: "+7775FU".into(),
                reason: MoveParseError::Unreachable("7g7e".into())
            })
        );
        let pos = Position::from_sfen(
            "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3",
        )
        .unwrap();
        let m = csa_move_to_move(&pos, "+8822UM").unwrap();
        assert_eq!(m.to_usi(), "8h2b+");
        assert_eq!(move_to_csa(&pos, m), "+8822UM");
    }

    #[test]
    fn times() {
        assert_eq!(parse_time("12"), Some(Duration::from_secs(12)));
        assert_eq!(parse_time("12.345"), Some(Duration::from_millis(12_345)));
        assert_eq!(parse_time("0.5"), Some(Duration::from_millis(500)));
        assert_eq!(parse_time(""), None);
        assert_eq!(parse_time("1x"), None);
    }

    fn start() -> Position {
        shogi::attacks::init();
        Position::startpos()
    }

    fn legal_usi(pos: &Position, usi: &str) -> Move {
        let m = pos.parse_usi_move(usi).expect(usi);
        assert!(shogi::legal_moves(pos).contains(m));
        m
    }

    #[test]
    fn moves_round_trip_through_csa() {
        let mut pos = start();
        for usi in ["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e"] {
            let m = legal_usi(&pos, usi);
            let csa = move_to_csa(&pos, m);
            assert_eq!(csa_move_to_move(&pos, &csa), Ok(m), "{csa}");
            pos.do_move(m);
        }
        assert_eq!(
            pos.to_sfen().split(' ').next(),
            Some("lnsgkg1nl/1r5s1/pppppp1pp/6p2/5B3/2P6/PP1PPPPPP/7R1/LNSGKGSNL")
        );
    }

    #[test]
    fn csa_moves_spelled_as_expected() {
        let mut pos = start();
        let m = csa_move_to_move(&pos, "+7776FU").unwrap();
        assert_eq!(m.to_usi(), "7g7f");
        pos.do_move(m);
        pos.do_move(csa_move_to_move(&pos, "-3334FU").unwrap());
        let m = csa_move_to_move(&pos, "+8822UM").unwrap();
        assert!(m.is_promotion());
        assert_eq!(move_to_csa(&pos, m), "+8822UM");
    }

    /// Text from a network: every bad move is an error, never a panic.
    #[test]
    fn bad_moves_are_refused_not_panicked_on() {
        let pos = start();
        for text in [
            "",
            "+",
            "+7776",
            "+7776XX",
            "-3334FU",
            "+7775FU",
            "+0055KA",
            "+7776TO",
            "+1010FU",
            "+77é6FU",
            "*7776FU",
            "+0000FU",
            "+7776FU,T3",
        ] {
            assert!(csa_move_to_move(&pos, text).is_err(), "{text}");
        }
        assert_eq!(csa_move_to_move(&pos, "-3334FU"), Err(ErrorKind::WrongSide("-3334FU".into())));
    }

    #[test]
    fn positions_read_from_csa_lines() {
        shogi::attacks::init();
        let mut r = PositionReader::new();
        r.read_line("PI").unwrap();
        r.read_line("+").unwrap();
        assert_eq!(r.finish(Color::Black).unwrap().to_sfen(), STARTPOS);
        // No line at all: the even game, the default side to move.
        assert_eq!(PositionReader::new().finish(Color::Black).unwrap().to_sfen(), STARTPOS);

        let ranks = [
            "-KY-KE-GI-KI-OU-KI-GI-KE-KY",
            " * -HI *  *  *  *  * -KA * ",
            "-FU-FU-FU-FU-FU-FU-FU-FU-FU",
            " *  *  *  *  *  *  *  *  * ",
            " *  *  *  *  *  *  *  *  * ",
            " *  *  *  *  *  *  *  *  * ",
            "+FU+FU+FU+FU+FU+FU+FU+FU+FU",
            " * +KA *  *  *  *  * +HI * ",
            "+KY+KE+GI+KI+OU+KI+GI+KE+KY",
        ];
        let mut r = PositionReader::new();
        for (i, row) in ranks.iter().enumerate() {
            r.read_line(&format!("P{}{}", i + 1, row)).unwrap();
        }
        r.read_line("-").unwrap();
        let pos = r.finish(Color::Black).unwrap();
        assert_eq!(pos.side_to_move(), Color::White);

        // A bishop handicap: White (the stronger side) moves first.
        let mut r = PositionReader::new();
        r.read_line("PI22KA").unwrap();
        r.read_line("-").unwrap();
        assert_eq!(
            r.finish(Color::Black).unwrap().to_sfen(),
            "lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"
        );

        // A tsume-like position with hands and the rest of the set to White.
        let mut r = PositionReader::new();
        r.read_line("P-11OU").unwrap();
        r.read_line("P+13FU00KI00KI").unwrap();
        r.read_line("P+59OU").unwrap();
        r.read_line("P-00AL").unwrap();
        r.read_line("+").unwrap();
        let pos = r.finish(Color::Black).unwrap();
        assert_eq!(pos.hand(Color::Black).count(PieceKind::Gold), 2);
        assert_eq!(pos.hand(Color::White).count(PieceKind::Pawn), 17);
        assert_eq!(pos.hand(Color::White).count(PieceKind::Gold), 2);
    }

    #[test]
    fn blank_texts_and_records_are_none() {
        for text in ["", "\n  \n", "\u{feff}\n"] {
            assert_eq!(read_csa(text).unwrap_err().error.kind, ErrorKind::Empty, "{text:?}");
            assert!(read_csa_all(text).is_empty(), "{text:?}");
            assert_eq!(csa_record_count(text), 0, "{text:?}");
        }
        // A start alone, or headers alone, is a record with no moves.
        assert_eq!(read_csa("PI\n+\n").unwrap().moves.len(), 0);
        assert!(read_csa("N+A\n").is_ok());
        // A final `/`, or one before the first game, adds no record.
        let two = "PI\n+\n+7776FU\n/\n\n/\nPI\n+\n+2726FU\n/\n";
        assert_eq!(csa_record_count(two), 2);
        assert_eq!(read_csa_all(two).len(), 2);
        assert_eq!(csa_record_count("PI\n+\n/\n"), 1);
        assert_eq!(read_csa("/\nPI\n+\n+2726FU\n").unwrap().moves.len(), 1);
    }

    #[test]
    fn bad_position_lines_are_refused() {
        for line in [
            "P",
            "PX",
            "P1-KY-KE-GI-KI-OU-KI-GI-KE-XX",
            "P+00",
            "P+00ZZ",
            "P+1",
            "PI99ZZ",
            "PI55FU",
            "P+00OU",
            "Pé",
        ] {
            let mut r = PositionReader::new();
            assert!(r.read_line(line).is_err(), "{line}");
        }
        let mut r = PositionReader::new();
        r.read_line("P+59OU").unwrap();
        r.read_line("P-51OU").unwrap();
        r.read_line("P+11FU").unwrap();
        assert!(r.finish(Color::Black).is_err(), "a pawn that can never move");
    }
}
