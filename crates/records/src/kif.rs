//! KIF (`.kif` Shift_JIS, `.kifu` UTF-8) and KI2 (`.ki2`, `.ki2u`): Kakinoki's
//! formats, as Kifu for Windows and most Japanese software write them.
//!
//! Both share the header lines (`開始日時：`, `先手：`, `手合割：香落ち`, …), the
//! board diagram (BOD) for other starts, comments (`*`), bookmarks (`&`),
//! variations (`変化：N手`) and the summary line (`まで76手で先手の勝ち`).
//! A KIF move line gives the number, the move with its origin and the time:
//! `   1 ７六歩(77)   ( 0:01/00:00:01)`; KI2 gives only the moves, in Japanese
//! notation, several to a line (`▲７六歩    △３四歩`), and its ending is the
//! summary line.
//!
//! Variations are written after the main line, the latest branch point first and
//! each variation followed by its own, which is what lets a reader attach a
//! `変化：N手` block to the nearest line read so far that has a move N. An
//! alternative to a variation's first move is an alternative to the move that
//! variation replaces: readers make it a sibling.

use crate::error::{empty, is_blank, partial, ErrorKind, ReadResult};
use crate::japanese::{
    kanji_number, kind_char, kind_name, mark_color, parse_japanese, parse_kanji_number, parse_kind,
    parse_square, side_mark, square_name, RANK_CHARS,
};
use crate::record::{EndReason, Ending, HeaderKey, Record, RecordMove, Start, Variation};
use crate::tree::LineStack;
use shogi::{Color, Move, Piece, PieceKind, Position, Square};
use std::fmt::Write as _;
use std::time::Duration;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Dialect {
    Kif,
    Ki2,
}

/// Reads a KIF record (already decoded; see [`crate::decode`]).
///
/// Every move is checked: its origin holds the named piece of the side to move
/// and the move is legal. Move numbers must follow one another (the first may be
/// 1 or the number after a diagram's `手数＝N`).
///
/// # Errors
/// The first bad line, with the record read up to it; `Empty` for a blank text
/// (headers alone, or a 手合割, read as a record with no moves).
pub fn read_kif(text: &str) -> ReadResult {
    read(text, Dialect::Kif)
}

/// Reads a KI2 record (already decoded). Moves are in Japanese notation and must
/// name exactly one legal move each.
///
/// # Errors
/// The first bad line, with the record read up to it; `Empty` for a blank text.
pub fn read_ki2(text: &str) -> ReadResult {
    read(text, Dialect::Ki2)
}

/// The board diagram being read.
#[derive(Default)]
struct Bod {
    seen: bool,
    rows: Vec<[Piece; 9]>,
    hands: [Vec<(PieceKind, u32)>; 2],
    side: Option<Color>,
    /// `手数＝N`: the number of the move that led to the diagram.
    ply: Option<u32>,
    line: usize,
}

struct Reader {
    dialect: Dialect,
    record: Record,
    /// The open lines, once the header section is over.
    stack: Option<LineStack>,
    bod: Bod,
    handicap_line: usize,
    /// Comments read before the move they belong to (after a `変化` line).
    pending: Vec<String>,
}

/// Whether `key`, written as a KIF or KI2 header line, reads back as a header
/// with the same name. The CSA and JKF readers refuse a key that would not (one
/// with a colon, a move's or a board's shape, `手合割`, …): every record they read
/// must write out as KIF and read back.
pub(crate) fn keeps_header_key(key: &HeaderKey) -> bool {
    let name = key.kif_name();
    let line = format!("{name}：v");
    [Dialect::Kif, Dialect::Ki2].into_iter().all(|dialect| {
        let mut r = Reader::new(dialect);
        r.line(1, &line).is_ok()
            && r.stack.is_none()
            && !r.bod.seen
            && r.handicap_line == 0
            && matches!(&r.record.headers[..], [(k, v)] if k.kif_name() == name && v == "v")
    })
}

impl Reader {
    fn new(dialect: Dialect) -> Reader {
        Reader {
            dialect,
            record: Record::default(),
            stack: None,
            bod: Bod::default(),
            handicap_line: 0,
            pending: Vec::new(),
        }
    }
}

fn read(text: &str, dialect: Dialect) -> ReadResult {
    if is_blank(text) {
        return Err(empty());
    }
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut r = Reader::new(dialect);
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim_end_matches(['\r', ' ', '\t', '　']);
        if let Err(kind) = r.line(i + 1, line) {
            return Err(partial(r.record, i + 1, kind));
        }
    }
    if r.stack.is_none() {
        if let Err(kind) = r.start_moves() {
            let line = r.bod.line.max(r.handicap_line).max(1);
            return Err(partial(r.record, line, kind));
        }
    }
    Ok(r.record)
}

impl Reader {
    fn line(&mut self, line_no: usize, line: &str) -> Result<(), ErrorKind> {
        let trimmed = line.trim_start();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            return Ok(());
        }
        if let Some(c) = trimmed.strip_prefix('*') {
            self.comment(c.to_string());
            return Ok(());
        }
        if let Some(b) = trimmed.strip_prefix('&') {
            if let Some(stack) = &self.stack {
                if let Some(m) = stack.current(&mut self.record).0.last_mut() {
                    m.bookmark = Some(b.to_string());
                }
            }
            return Ok(());
        }
        if self.stack.is_none() {
            if self.is_move_line(trimmed) {
                self.start_moves()?;
            } else {
                return self.header_line(line_no, trimmed);
            }
        }
        self.move_section_line(trimmed)
    }

    fn is_move_line(&self, line: &str) -> bool {
        let moves = match self.dialect {
            Dialect::Kif => is_kif_move_line(line),
            Dialect::Ki2 => is_ki2_move_line(line),
        };
        moves || line.starts_with("変化：") || line.starts_with("まで")
    }

    fn comment(&mut self, text: String) {
        let Some(stack) = &self.stack else {
            self.record.comments.push(text);
            return;
        };
        let main = stack.lines.len() == 1;
        let (moves, ending) = stack.current(&mut self.record);
        if let Some(e) = ending {
            e.comments.push(text);
            return;
        }
        if let Some(m) = moves.last_mut() {
            m.comments.push(text);
            return;
        }
        if main {
            self.record.comments.push(text);
        } else {
            self.pending.push(text);
        }
    }

    // ---- Header section ------------------------------------------------------

    fn header_line(&mut self, line_no: usize, line: &str) -> Result<(), ErrorKind> {
        if line.starts_with("手数----") || line.starts_with("手数－－") {
            return self.start_moves();
        }
        if self.bod_line(line_no, line)? {
            return Ok(());
        }
        // The key ends at the first colon, full-width or not: a key holds neither.
        let split = line.find(['：', ':']).map(|i| {
            let colon = line[i..].chars().next().map_or(1, char::len_utf8);
            (&line[..i], &line[i + colon..])
        });
        let Some((key, value)) = split else {
            return Err(ErrorKind::Syntax(line.to_string()));
        };
        let (key, value) = (key.trim(), value.trim());
        // A key that the other dialect would take for a move, or with a control
        // character (which writers turn into a space) or a BOM, could not be
        // written back as the same header: neither dialect reads it as one.
        if key.is_empty()
            || key.chars().any(|c| c.is_control() || c == '\u{feff}')
            || is_kif_move_line(key)
            || is_ki2_move_line(key)
        {
            return Err(ErrorKind::Syntax(line.to_string()));
        }
        if key == "手合割" {
            self.handicap_line = line_no;
            if value == "その他" || value.is_empty() {
                return Ok(());
            }
            let h = crate::Handicap::from_kif_name(value)
                .ok_or_else(|| ErrorKind::UnknownHandicap(value.to_string()))?;
            self.record.start = Start::Handicap(h);
            return Ok(());
        }
        self.record.headers.push((HeaderKey::from_kif(key), value.to_string()));
        Ok(())
    }

    /// A line of a board diagram; `Ok(false)` when the line is not one.
    fn bod_line(&mut self, line_no: usize, line: &str) -> Result<bool, ErrorKind> {
        let board_error = |msg: &str| ErrorKind::Board(format!("{msg}: '{line}'"));
        for (prefix, color) in [
            ("後手の持駒", Color::White),
            ("上手の持駒", Color::White),
            ("先手の持駒", Color::Black),
            ("下手の持駒", Color::Black),
        ] {
            if let Some(rest) = line.strip_prefix(prefix) {
                let rest = rest.trim_start_matches(['：', ':']);
                self.bod.hands[color.index()] =
                    parse_hand(rest).ok_or_else(|| board_error("bad hand"))?;
                self.mark_bod(line_no);
                return Ok(true);
            }
        }
        match line {
            "先手番" | "下手番" => {
                self.bod.side = Some(Color::Black);
                self.mark_bod(line_no);
                return Ok(true);
            }
            "後手番" | "上手番" => {
                self.bod.side = Some(Color::White);
                self.mark_bod(line_no);
                return Ok(true);
            }
            _ => {}
        }
        if let Some(rest) = line.strip_prefix("手数＝").or_else(|| line.strip_prefix("手数="))
        {
            let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
            self.bod.ply = Some(digits.parse().map_err(|_| board_error("bad move number"))?);
            self.mark_bod(line_no);
            return Ok(true);
        }
        if line.starts_with("+---") || line.trim_start().starts_with('９') {
            self.mark_bod(line_no);
            return Ok(true);
        }
        if let Some(rest) = line.strip_prefix('|') {
            let cells: Vec<char> = rest.chars().take_while(|&c| c != '|').collect();
            if cells.len() != 18 {
                return Err(board_error("a board row has 9 squares of 2 characters"));
            }
            let mut row = [Piece::EMPTY; 9];
            for (i, pair) in cells.chunks(2).enumerate() {
                row[i] = match pair {
                    [_, '・'] => Piece::EMPTY,
                    [c, p] => {
                        let color =
                            if *c == 'v' || *c == 'V' { Color::White } else { Color::Black };
                        let (kind, _) = parse_kind(&p.to_string())
                            .ok_or_else(|| board_error("unknown piece"))?;
                        Piece::new(color, kind)
                    }
                    _ => Piece::EMPTY,
                };
            }
            if self.bod.rows.len() == 9 {
                return Err(board_error("more than 9 board rows"));
            }
            self.bod.rows.push(row);
            self.mark_bod(line_no);
            return Ok(true);
        }
        Ok(false)
    }

    fn mark_bod(&mut self, line_no: usize) {
        self.bod.seen = true;
        self.bod.line = line_no;
    }

    /// The header section is over: settle the start position.
    fn start_moves(&mut self) -> Result<(), ErrorKind> {
        if self.stack.is_some() {
            return Ok(());
        }
        let mut first_ply = 1;
        if self.bod.seen {
            let sfen = self.bod_sfen()?;
            let pos = Position::from_sfen(&sfen).map_err(ErrorKind::Position)?;
            first_ply = pos.game_ply();
            self.record.start = Start::from_position(&pos);
        }
        self.stack = Some(LineStack::new(&self.record, first_ply));
        Ok(())
    }

    fn bod_sfen(&self) -> Result<String, ErrorKind> {
        let bod = &self.bod;
        if bod.rows.len() != 9 {
            return Err(ErrorKind::Board(format!(
                "the diagram has {} rows, not 9",
                bod.rows.len()
            )));
        }
        let mut s = String::new();
        for (r, row) in bod.rows.iter().enumerate() {
            let mut empty = 0;
            for p in row {
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
            if r < 8 {
                s.push('/');
            }
        }
        s.push_str(if bod.side == Some(Color::White) { " w " } else { " b " });
        let mut hands = String::new();
        for color in Color::ALL {
            for &(kind, n) in &bod.hands[color.index()] {
                if n > 1 {
                    hands.push_str(&n.to_string());
                }
                let c = kind.sfen_letter();
                hands.push(if color == Color::Black { c } else { c.to_ascii_lowercase() });
            }
        }
        s.push_str(if hands.is_empty() { "-" } else { &hands });
        let _ = write!(s, " {}", bod.ply.map_or(1, |n| n + 1));
        Ok(s)
    }

    // ---- Move section --------------------------------------------------------

    fn move_section_line(&mut self, line: &str) -> Result<(), ErrorKind> {
        if let Some(rest) = line.strip_prefix("変化：").or_else(|| line.strip_prefix("変化:"))
        {
            let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
            let ply: u32 = digits.parse().map_err(|_| ErrorKind::Syntax(line.to_string()))?;
            let stack = self.stack.as_mut().expect("in the move section");
            stack.branch(&mut self.record, ply).ok_or(ErrorKind::Variation(ply))?;
            return Ok(());
        }
        if let Some(rest) = line.strip_prefix("まで") {
            return self.summary(line, rest);
        }
        match self.dialect {
            Dialect::Kif => self.kif_move_line(line),
            Dialect::Ki2 => self.ki2_move_line(line),
        }
    }

    fn summary(&mut self, line: &str, rest: &str) -> Result<(), ErrorKind> {
        let stack = self.stack.as_ref().expect("in the move section");
        let stm = stack.pos.side_to_move();
        if stack.current(&mut self.record).1.is_some() {
            return Ok(()); // the ending line said it already
        }
        let digits = rest.chars().take_while(char::is_ascii_digit).count();
        let after = rest[digits..].trim_start();
        // `まで9手` (or `まで9手で`) ends the moves without saying how the game ended.
        if digits > 0 && matches!(after, "手" | "手で") {
            return Ok(());
        }
        let phrase = after.strip_prefix("手で").unwrap_or("");
        let phrase = phrase.trim_start_matches(['、', ',']);
        let reason =
            summary_reason(phrase, stm).ok_or_else(|| ErrorKind::Syntax(line.to_string()))?;
        *stack.current(&mut self.record).1 = Some(Ending::new(reason));
        Ok(())
    }

    fn check_open(&mut self, text: &str) -> Result<(), ErrorKind> {
        let stack = self.stack.as_ref().expect("in the move section");
        if stack.current(&mut self.record).1.is_some() {
            return Err(ErrorKind::AfterEnd(text.to_string()));
        }
        Ok(())
    }

    fn push(&mut self, m: Move, time: Option<Duration>) {
        let comments = std::mem::take(&mut self.pending);
        let stack = self.stack.as_mut().expect("in the move section");
        stack.push(&mut self.record, RecordMove { mv: m, time, comments, ..RecordMove::default() });
    }

    fn kif_move_line(&mut self, line: &str) -> Result<(), ErrorKind> {
        let syntax = || ErrorKind::Syntax(line.to_string());
        let digits = line.chars().take_while(char::is_ascii_digit).count();
        if digits == 0 {
            return Err(syntax());
        }
        let found: u32 = line[..digits].parse().map_err(|_| syntax())?;
        let mut body = line[digits..].trim_start_matches([' ', '　', '\t']).trim_end();
        body = body.strip_suffix('+').unwrap_or(body).trim_end();
        let mut time = None;
        if body.ends_with(')') {
            if let Some(open) = body.rfind("( ").or_else(|| body.rfind('(')) {
                if let Some(t) = parse_kif_time(&body[open..]) {
                    time = Some(t);
                    body = body[..open].trim_end();
                }
            }
        }
        self.check_open(body)?;
        let stack = self.stack.as_mut().expect("in the move section");
        let expected = stack.next_ply(&mut self.record);
        if found != expected {
            let first_of_main = stack.lines.len() == 1
                && stack.current(&mut self.record).0.is_empty()
                && found == 1;
            if first_of_main {
                stack.lines[0].first_ply = 1;
            } else {
                return Err(ErrorKind::MoveNumber { expected, found });
            }
        }
        if let Some(reason) = kif_special(body, self.stack.as_ref().map(|s| s.pos.side_to_move())) {
            let stack = self.stack.as_ref().expect("in the move section");
            let mut ending = Ending::new(reason);
            ending.time = time;
            ending.comments = std::mem::take(&mut self.pending);
            *stack.current(&mut self.record).1 = Some(ending);
            return Ok(());
        }
        let stack = self.stack.as_ref().expect("in the move section");
        let m = parse_kif_move(&stack.pos, body, stack.last)?;
        self.push(m, time);
        Ok(())
    }

    fn ki2_move_line(&mut self, line: &str) -> Result<(), ErrorKind> {
        let mut starts: Vec<usize> =
            line.char_indices().filter(|&(_, c)| mark_color(c).is_some()).map(|(i, _)| i).collect();
        if starts.first() != Some(&0) {
            return Err(ErrorKind::Syntax(line.to_string()));
        }
        starts.push(line.len());
        for w in starts.windows(2) {
            let token = line[w[0]..w[1]].trim_end_matches([' ', '　', '\t']);
            self.check_open(token)?;
            let stack = self.stack.as_ref().expect("in the move section");
            let m = parse_japanese(&stack.pos, token, stack.last)?;
            self.push(m, None);
        }
        Ok(())
    }
}

/// A KIF hand (`飛　角二　歩十八`, `なし`).
/// A KIF move line: a move number, then a space.
fn is_kif_move_line(line: &str) -> bool {
    let digits = line.chars().take_while(char::is_ascii_digit).count();
    digits > 0 && line[digits..].starts_with([' ', '　', '\t'])
}

/// A KI2 move line: it starts with ▲ or △ (or another side mark).
fn is_ki2_move_line(line: &str) -> bool {
    line.chars().next().and_then(mark_color).is_some()
}

fn parse_hand(text: &str) -> Option<Vec<(PieceKind, u32)>> {
    let text = text.trim();
    let mut out = Vec::new();
    if text.is_empty() || text == "なし" {
        return Some(out);
    }
    for item in text.split(['　', ' ']).filter(|s| !s.is_empty()) {
        let (kind, len) = parse_kind(item)?;
        if kind.is_promoted() || kind == PieceKind::King {
            return None;
        }
        let n = if item.len() == len { 1 } else { parse_kanji_number(&item[len..])? };
        out.push((kind, n));
    }
    Some(out)
}

/// `( 0:16/00:00:16)` or `(0:16)`: the time of the move (the total is recomputed).
fn parse_kif_time(text: &str) -> Option<Duration> {
    let inner = text.strip_prefix('(')?.strip_suffix(')')?.trim();
    let now = inner.split('/').next()?.trim();
    let (m, s) = now.split_once(':')?;
    let m: u64 = m.trim().parse().ok()?;
    let s: u64 = s.trim().parse().ok()?;
    Some(Duration::from_secs(m * 60 + s))
}

/// The ending a KIF special move word stands for, given the side to move.
fn kif_special(word: &str, side_to_move: Option<Color>) -> Option<EndReason> {
    let stm = side_to_move.unwrap_or(Color::Black);
    Some(match word {
        "投了" => EndReason::Resign,
        "中断" => EndReason::Abort,
        "千日手" => EndReason::Sennichite,
        "切れ負け" | "時間切れ" => EndReason::TimeUp,
        "反則負け" => EndReason::IllegalMove,
        "反則勝ち" => EndReason::IllegalAction(stm.flip()),
        "持将棋" => EndReason::Jishogi,
        "入玉勝ち" | "入玉宣言" | "宣言勝ち" => EndReason::DeclareWin,
        "引き分け" => EndReason::DeclareDraw,
        "最大手数" => EndReason::MaxMoves,
        "詰み" | "詰" => EndReason::Mate,
        "不詰" => EndReason::NoMate,
        "待った" => EndReason::Matta,
        "エラー" => EndReason::Error,
        _ => return None,
    })
}

/// The KIF word for an ending.
fn kif_special_word(reason: EndReason, stm: Color) -> &'static str {
    match reason {
        EndReason::Resign => "投了",
        EndReason::Abort => "中断",
        EndReason::Sennichite => "千日手",
        EndReason::TimeUp => "切れ負け",
        EndReason::IllegalMove => "反則負け",
        EndReason::IllegalAction(c) if c == stm => "反則負け",
        EndReason::IllegalAction(_) => "反則勝ち",
        EndReason::Jishogi => "持将棋",
        EndReason::DeclareWin => "入玉勝ち",
        EndReason::DeclareDraw => "引き分け",
        EndReason::MaxMoves => "最大手数",
        EndReason::Mate => "詰み",
        EndReason::NoMate => "不詰",
        EndReason::Matta => "待った",
        EndReason::Error => "エラー",
    }
}

fn side_name(color: Color, handicap: bool) -> &'static str {
    match (color, handicap) {
        (Color::Black, false) => "先手",
        (Color::White, false) => "後手",
        (Color::Black, true) => "下手",
        (Color::White, true) => "上手",
    }
}

fn parse_side_name(s: &str) -> Option<(Color, usize)> {
    for (name, color) in [
        ("先手", Color::Black),
        ("下手", Color::Black),
        ("後手", Color::White),
        ("上手", Color::White),
    ] {
        if s.starts_with(name) {
            return Some((color, name.len()));
        }
    }
    None
}

/// The ending a summary phrase (after `まで76手で`) stands for.
fn summary_reason(phrase: &str, stm: Color) -> Option<EndReason> {
    if let Some(r) = kif_special(phrase, Some(stm)) {
        return Some(r);
    }
    if let Some(rest) = phrase.strip_prefix("時間切れにより") {
        parse_side_name(rest)?;
        return Some(EndReason::TimeUp);
    }
    let (color, len) = parse_side_name(phrase)?;
    Some(match &phrase[len..] {
        "の勝ち" if color != stm => EndReason::Resign,
        "の勝ち" => EndReason::IllegalAction(stm.flip()),
        "の反則勝ち" => EndReason::IllegalAction(color.flip()),
        "の反則負け" if color == stm => EndReason::IllegalMove,
        "の反則負け" => EndReason::IllegalAction(color),
        "の入玉勝ち" => EndReason::DeclareWin,
        "の切れ負け" => EndReason::TimeUp,
        _ => return None,
    })
}

/// The summary phrase of an ending (after `まで76手で`).
fn summary_phrase(reason: EndReason, stm: Color, handicap: bool) -> String {
    let name = |c: Color| side_name(c, handicap);
    match reason {
        EndReason::Resign | EndReason::Mate => format!("{}の勝ち", name(stm.flip())),
        EndReason::TimeUp => format!("時間切れにより{}の勝ち", name(stm.flip())),
        EndReason::IllegalMove => format!("{}の反則負け", name(stm)),
        EndReason::IllegalAction(c) if c == stm => format!("{}の反則負け", name(stm)),
        EndReason::IllegalAction(c) => format!("{}の反則勝ち", name(c.flip())),
        EndReason::DeclareWin => format!("{}の入玉勝ち", name(stm)),
        r => kif_special_word(r, stm).to_string(),
    }
}

/// A KIF move (`７六歩(77)`, `同　歩成(23)`, `５五角打`, `２二角不成(88)`).
fn parse_kif_move(pos: &Position, body: &str, prev: Option<Move>) -> Result<Move, ErrorKind> {
    let syntax = || ErrorKind::Syntax(body.to_string());
    let mut rest = body;
    let to = if let Some(r) = rest.strip_prefix('同') {
        rest = r.trim_start_matches(['　', ' ']);
        prev.map(|p| p.to()).ok_or_else(|| ErrorKind::NoPreviousMove(body.to_string()))?
    } else {
        let (sq, len) = parse_square(rest).ok_or_else(syntax)?;
        rest = &rest[len..];
        sq
    };
    let (kind, len) = parse_kind(rest).ok_or_else(syntax)?;
    rest = &rest[len..];
    let mut promote = false;
    if let Some(r) = rest.strip_prefix("不成").or_else(|| rest.strip_prefix('生')) {
        rest = r;
    } else if let Some(r) = rest.strip_prefix('成') {
        promote = true;
        rest = r;
    }
    let rest = rest.trim();
    let usi = if rest == "打" {
        if kind.is_promoted() || kind == PieceKind::King {
            return Err(syntax());
        }
        format!("{}*{}", kind.sfen_letter(), to)
    } else {
        let digits = rest.strip_prefix('(').and_then(|r| r.strip_suffix(')')).ok_or_else(syntax)?;
        let d: Vec<u8> = digits.bytes().collect();
        if d.len() != 2 || !(b'1'..=b'9').contains(&d[0]) || !(b'1'..=b'9').contains(&d[1]) {
            return Err(syntax());
        }
        let from = Square::new(d[0] - b'1', d[1] - b'1');
        let piece = pos.piece_on(from);
        if !piece.is_empty() && piece.color() == pos.side_to_move() && piece.kind() != Some(kind) {
            return Err(ErrorKind::WrongPiece(body.to_string()));
        }
        format!("{}{}{}", from, to, if promote { "+" } else { "" })
    };
    pos.parse_usi_move(&usi)
        .map_err(|reason| ErrorKind::IllegalMove { text: body.to_string(), reason })
}

/// The KIF text of a move: `７六歩(77)`, `同　歩成(23)`, `５五角打`.
pub fn kif_move_text(pos: &Position, m: Move, prev: Option<Move>) -> String {
    let mut s = String::with_capacity(24);
    if prev.is_some_and(|p| p.to() == m.to()) {
        s.push_str("同　");
    } else {
        s.push_str(&square_name(m.to()));
    }
    s.push_str(kind_name(m.moved_kind()));
    if m.is_drop() {
        s.push('打');
        return s;
    }
    if m.is_promotion() {
        s.push('成');
    } else if crate::japanese::can_promote(pos, m) {
        s.push_str("不成");
    }
    let _ = write!(s, "({}{})", m.from().file() + 1, m.from().rank() + 1);
    s
}

/// Display width: full-width characters count 2.
fn width(s: &str) -> usize {
    s.chars().map(|c| if c.is_ascii() { 1 } else { 2 }).sum()
}

fn pad_to(s: &mut String, w: usize) {
    let have = width(s);
    for _ in have..w {
        s.push(' ');
    }
}

/// The whole seconds of a time, as KIF shows it (totals add what is shown).
pub(crate) fn whole(t: Duration) -> Duration {
    Duration::from_secs(t.as_secs())
}

fn kif_time(now: Duration, total: Duration) -> String {
    let n = now.as_secs();
    let t = total.as_secs();
    format!("({:>2}:{:02}/{:02}:{:02}:{:02})", n / 60, n % 60, t / 3600, t / 60 % 60, t % 60)
}

/// Writes a KIF record (UTF-8 text; encode it for `.kif` with
/// [`crate::encode`]). Kept: headers, the start (手合割 or a board diagram with
/// its move number), comments, bookmarks, times in whole seconds, the ending and
/// variations.
pub fn write_kif(record: &Record) -> String {
    let mut out = String::with_capacity(64 * record.moves.len() + 256);
    write_head(&mut out, record);
    out.push_str("手数----指手---------消費時間--\n");
    write_moves(&mut out, record, Dialect::Kif);
    out
}

/// Writes a KI2 record (UTF-8 text). Kept: as KIF but for the times; an ending is
/// written as the summary line (`まで76手で先手の勝ち`).
pub fn write_ki2(record: &Record) -> String {
    let mut out = String::with_capacity(16 * record.moves.len() + 256);
    write_head(&mut out, record);
    write_moves(&mut out, record, Dialect::Ki2);
    out
}

/// The main line and then the variations, in `dialect`.
fn write_moves(out: &mut String, record: &Record, dialect: Dialect) {
    let start = record.start_position();
    let first_ply = start.game_ply();
    let mut w = LineWriter { out, handicap: is_handicap(record), dialect };
    let ending = record.ending.as_ref();
    w.line(&start, None, &record.moves, ending, first_ply, [Duration::ZERO; 2], true);
    w.variations(&start, None, &record.moves, ending, first_ply, [Duration::ZERO; 2]);
}

fn is_handicap(record: &Record) -> bool {
    record.start.handicap().is_some_and(|h| h != crate::Handicap::Even)
}

fn one_line(s: &str) -> String {
    s.replace(['\r', '\n'], " ")
}

/// Headers, the start position and the start comments.
fn write_head(out: &mut String, record: &Record) {
    let handicap = is_handicap(record);
    let mut start_written = false;
    let write_start = |out: &mut String| match &record.start {
        Start::Handicap(h) => {
            let _ = writeln!(out, "手合割：{}", h.kif_name());
        }
        Start::Sfen(_) => write_bod(out, &record.start_position()),
    };
    for (key, value) in &record.headers {
        let name = match key {
            HeaderKey::BlackName => side_name(Color::Black, handicap),
            HeaderKey::WhiteName => side_name(Color::White, handicap),
            k => k.kif_name(),
        };
        if matches!(key, HeaderKey::BlackName | HeaderKey::WhiteName) && !start_written {
            write_start(out);
            start_written = true;
        }
        let _ = writeln!(out, "{}：{}", one_line(name), one_line(value));
    }
    if !start_written {
        write_start(out);
    }
    for c in &record.comments {
        let _ = writeln!(out, "*{}", one_line(c));
    }
}

fn hand_text(pos: &Position, color: Color) -> String {
    let hand = pos.hand(color);
    let mut s = String::new();
    for &kind in PieceKind::HAND.iter().rev() {
        let n = hand.count(kind);
        if n > 0 {
            s.push(kind_char(kind));
            if n > 1 {
                s.push_str(&kanji_number(n));
            }
            s.push('　');
        }
    }
    if s.is_empty() {
        "なし".to_string()
    } else {
        s
    }
}

/// A board diagram (BOD) of `pos`, with `手数＝N` when its move number is not 1.
pub fn write_bod(out: &mut String, pos: &Position) {
    let _ = writeln!(out, "後手の持駒：{}", hand_text(pos, Color::White));
    out.push_str("  ９ ８ ７ ６ ５ ４ ３ ２ １\n+---------------------------+\n");
    for rank in 0..9u8 {
        out.push('|');
        for file in (0..9u8).rev() {
            let p = pos.piece_on(Square::new(file, rank));
            match p.kind() {
                None => out.push_str(" ・"),
                Some(k) => {
                    out.push(if p.color() == Color::White { 'v' } else { ' ' });
                    out.push(kind_char(k));
                }
            }
        }
        out.push('|');
        out.push(RANK_CHARS[rank as usize]);
        out.push('\n');
    }
    out.push_str("+---------------------------+\n");
    let _ = writeln!(out, "先手の持駒：{}", hand_text(pos, Color::Black));
    if pos.side_to_move() == Color::White {
        out.push_str("後手番\n");
    }
    if pos.game_ply() > 1 {
        let _ = writeln!(out, "手数＝{}", pos.game_ply() - 1);
    }
}

struct LineWriter<'a> {
    out: &'a mut String,
    handicap: bool,
    dialect: Dialect,
}

impl LineWriter<'_> {
    /// Writes the moves and the ending of one line starting at `ply` from `pos`.
    /// `totals` are each side's time used before the line.
    #[allow(clippy::too_many_arguments)]
    fn line(
        &mut self,
        pos: &Position,
        prev: Option<Move>,
        moves: &[RecordMove],
        ending: Option<&Ending>,
        ply: u32,
        totals: [Duration; 2],
        main: bool,
    ) {
        let mut pos = pos.clone();
        let mut prev = prev;
        let mut totals = totals;
        let mut ki2_on_line = 0;
        for (i, rm) in moves.iter().enumerate() {
            let us = pos.side_to_move();
            match self.dialect {
                Dialect::Kif => {
                    let mut s =
                        format!("{:>4} {}", ply + i as u32, kif_move_text(&pos, rm.mv, prev));
                    if let Some(t) = rm.time {
                        totals[us.index()] += whole(t);
                        pad_to(&mut s, 5 + 13);
                        if !s.ends_with(' ') {
                            s.push(' ');
                        }
                        s.push_str(&kif_time(t, totals[us.index()]));
                    }
                    if !rm.variations.is_empty() {
                        s.push('+');
                    }
                    self.out.push_str(s.trim_end());
                    self.out.push('\n');
                }
                Dialect::Ki2 => {
                    let mut s = String::new();
                    s.push(side_mark(us));
                    s.push_str(&crate::japanese::move_body(&pos, rm.mv, prev));
                    if ki2_on_line > 0 {
                        self.out.push(' ');
                    }
                    pad_to(&mut s, 12);
                    self.out.push_str(&s);
                    ki2_on_line += 1;
                    let annotated = !rm.comments.is_empty() || rm.bookmark.is_some();
                    if ki2_on_line == 6 || annotated || i + 1 == moves.len() {
                        let trimmed = self.out.trim_end_matches(' ').len();
                        self.out.truncate(trimmed);
                        self.out.push('\n');
                        ki2_on_line = 0;
                    }
                }
            }
            for c in &rm.comments {
                let _ = writeln!(self.out, "*{}", one_line(c));
            }
            if let Some(b) = &rm.bookmark {
                let _ = writeln!(self.out, "&{}", one_line(b));
            }
            pos.do_move(rm.mv);
            prev = Some(rm.mv);
        }
        if let Some(e) = ending {
            let stm = pos.side_to_move();
            let n = ply + moves.len() as u32;
            if self.dialect == Dialect::Kif {
                let mut s = format!("{:>4} {}", n, kif_special_word(e.reason, stm));
                if let Some(t) = e.time {
                    totals[stm.index()] += whole(t);
                    pad_to(&mut s, 5 + 13);
                    s.push_str(&kif_time(t, totals[stm.index()]));
                }
                if !e.variations.is_empty() {
                    s.push('+');
                }
                self.out.push_str(&s);
                self.out.push('\n');
                for c in &e.comments {
                    let _ = writeln!(self.out, "*{}", one_line(c));
                }
            }
            if main || self.dialect == Dialect::Ki2 {
                let _ = writeln!(
                    self.out,
                    "まで{}手で{}",
                    n - 1,
                    summary_phrase(e.reason, stm, self.handicap)
                );
            }
            if self.dialect == Dialect::Ki2 {
                for c in &e.comments {
                    let _ = writeln!(self.out, "*{}", one_line(c));
                }
            }
        }
    }

    /// Writes the variations of a line, the latest branch point first, each
    /// followed by its own variations.
    fn variations(
        &mut self,
        start: &Position,
        prev: Option<Move>,
        moves: &[RecordMove],
        ending: Option<&Ending>,
        ply: u32,
        totals: [Duration; 2],
    ) {
        // Positions, previous moves and time totals before each index.
        let mut states = Vec::with_capacity(moves.len() + 1);
        let mut pos = start.clone();
        let mut prev = prev;
        let mut totals = totals;
        states.push((pos.clone(), prev, totals));
        for rm in moves {
            if let Some(t) = rm.time {
                totals[pos.side_to_move().index()] += whole(t);
            }
            pos.do_move(rm.mv);
            prev = Some(rm.mv);
            states.push((pos.clone(), prev, totals));
        }
        for at in (0..=moves.len()).rev() {
            let vars: &[Variation] = if at < moves.len() {
                &moves[at].variations
            } else {
                ending.map_or(&[], |e| &e.variations)
            };
            let (pos, prev, totals) = &states[at];
            for v in vars {
                let n = ply + at as u32;
                let _ = write!(self.out, "\n変化：{n}手\n");
                self.line(pos, *prev, &v.moves, v.ending.as_ref(), n, *totals, false);
                self.variations(pos, *prev, &v.moves, v.ending.as_ref(), n, *totals);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_header_key_is_kept_only_if_kif_reads_it_back_as_itself() {
        let other = |name: &str| HeaderKey::Other(name.to_string());
        for kept in [HeaderKey::Event, HeaderKey::BlackName, other("EVENT"), other("作者")] {
            assert!(keeps_header_key(&kept), "{kept:?}");
        }
        // Empty, a colon of either width, a KIF or KI2 move's start, a board's
        // hand line, the handicap line, spaces KIF trims, a comment's mark.
        for refused in
            ["", "：", "a:b", "12 x", "▲", "後手の持駒", "手合割", " 棋戦", "棋戦 ", "*x"]
        {
            assert!(!keeps_header_key(&other(refused)), "{refused:?}");
        }
    }

    #[test]
    fn a_summary_without_a_result_ends_the_moves() {
        for end in ["まで2手", "まで2手で", "まで2手  "] {
            let r = read_ki2(&format!("手合割：平手\n▲７六歩 △３四歩\n{end}\n")).expect(end);
            assert_eq!(r.moves.len(), 2, "{end}");
            assert_eq!(r.ending, None, "{end}: no result is said");
        }
        let kif = "手数----指手---------消費時間--\n   1 ７六歩(77)\nまで1手\n";
        assert_eq!(read_kif(kif).unwrap().moves.len(), 1);
        let r = read_ki2("▲７六歩\nまで1手で中断\n").unwrap();
        assert_eq!(r.ending.map(|e| e.reason), Some(EndReason::Abort));
        let e = read_ki2("▲７六歩\nまで1手で何か\n").unwrap_err();
        assert_eq!(e.error.kind, ErrorKind::Syntax("まで1手で何か".into()));
    }

    #[test]
    fn a_blank_text_is_empty_but_a_start_alone_is_a_record() {
        for text in ["", " \n\n", "\u{feff}\r\n", "　\n"] {
            assert_eq!(read_kif(text).unwrap_err().error.kind, ErrorKind::Empty, "{text:?}");
            assert_eq!(read_ki2(text).unwrap_err().error.kind, ErrorKind::Empty, "{text:?}");
        }
        assert_eq!(read_kif("").unwrap_err().to_string(), ErrorKind::Empty.to_string());
        let r = read_kif("手合割：角落ち\n").unwrap();
        assert_eq!((r.start.handicap(), r.moves.len()), (Some(crate::Handicap::Bishop), 0));
        let r = read_ki2("先手：A\n").unwrap();
        assert_eq!(r.header(&HeaderKey::BlackName), Some("A"));
        assert!(read_kif("手数----指手---------消費時間--\n").is_ok());
    }
}
