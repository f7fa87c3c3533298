//! Japanese move notation: `▲７六歩`, `△同　歩成`, `▲５二金左上`, `▲５五角打`.
//!
//! # The words that tell pieces apart (JSA 棋譜の表記方法)
//!
//! When more than one piece of the moving kind (on the board, of the mover's
//! side, with the same name: 銀 and 成銀 are different) can legally reach the
//! destination, words are added, always from the mover's point of view:
//!
//! * the motion: 上 (moves forward, "up" the board), 寄 (sideways), 引 (backward);
//! * the position: 左 / 右 (the piece on the mover's left / right of the
//!   destination), 直 (straight forward from directly behind the destination:
//!   golds, silvers and the promoted small pieces);
//! * for 龍 and 馬 (at most two of each), 左 / 右 say which of the two pieces moved,
//!   relative to the other one, and 直 is never used.
//!
//! The writer adds as little as is needed, in this order of preference: the motion
//! alone; else the position alone; else both (`左上`, `右引`). A drop gets 打 only
//! when a board piece of the same kind could also move to the square. A move that
//! can promote gets 成 or 不成 (成 also when promotion is forced).
//!
//! The reader accepts what this writer writes and the usual variants: 行 and 入
//! for 上 (used for the sliders), 生 for 不成, 王 and 竜, 全/圭/杏 for the promoted
//! silver, knight and lance, `☗☖` for `▲△`, half-width digits, and `７六同歩`.

use crate::error::ErrorKind;
use shogi::{legal_moves, Bitboard, Color, Move, PieceKind, Position, Square};

pub(crate) const FILE_CHARS: [char; 9] = ['１', '２', '３', '４', '５', '６', '７', '８', '９'];
pub(crate) const RANK_CHARS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];

/// The name of a kind in moves: 歩 香 桂 銀 角 飛 金 玉 と 成香 成桂 成銀 馬 龍.
pub fn kind_name(kind: PieceKind) -> &'static str {
    match kind {
        PieceKind::Pawn => "歩",
        PieceKind::Lance => "香",
        PieceKind::Knight => "桂",
        PieceKind::Silver => "銀",
        PieceKind::Bishop => "角",
        PieceKind::Rook => "飛",
        PieceKind::Gold => "金",
        PieceKind::King => "玉",
        PieceKind::ProPawn => "と",
        PieceKind::ProLance => "成香",
        PieceKind::ProKnight => "成桂",
        PieceKind::ProSilver => "成銀",
        PieceKind::Horse => "馬",
        PieceKind::Dragon => "龍",
    }
}

/// The one-character name of board diagrams: 杏 圭 全 for the promoted lance,
/// knight and silver.
pub(crate) fn kind_char(kind: PieceKind) -> char {
    match kind {
        PieceKind::ProLance => '杏',
        PieceKind::ProKnight => '圭',
        PieceKind::ProSilver => '全',
        k => kind_name(k).chars().next().unwrap_or('?'),
    }
}

/// The kind named at the start of `s`, and how many bytes the name takes.
pub(crate) fn parse_kind(s: &str) -> Option<(PieceKind, usize)> {
    const TWO: [(&str, PieceKind); 3] = [
        ("成香", PieceKind::ProLance),
        ("成桂", PieceKind::ProKnight),
        ("成銀", PieceKind::ProSilver),
    ];
    for (name, kind) in TWO {
        if s.starts_with(name) {
            return Some((kind, name.len()));
        }
    }
    let c = s.chars().next()?;
    let kind = match c {
        '歩' => PieceKind::Pawn,
        '香' => PieceKind::Lance,
        '桂' => PieceKind::Knight,
        '銀' => PieceKind::Silver,
        '角' => PieceKind::Bishop,
        '飛' => PieceKind::Rook,
        '金' => PieceKind::Gold,
        '玉' | '王' => PieceKind::King,
        'と' => PieceKind::ProPawn,
        '杏' => PieceKind::ProLance,
        '圭' => PieceKind::ProKnight,
        '全' => PieceKind::ProSilver,
        '馬' => PieceKind::Horse,
        '龍' | '竜' => PieceKind::Dragon,
        _ => return None,
    };
    Some((kind, c.len_utf8()))
}

/// `７六` for the square 7f.
pub fn square_name(sq: Square) -> String {
    let mut s = String::with_capacity(6);
    s.push(FILE_CHARS[sq.file() as usize]);
    s.push(RANK_CHARS[sq.rank() as usize]);
    s
}

fn digit_value(c: char) -> Option<u8> {
    match c {
        '1'..='9' => Some(c as u8 - b'0'),
        '１'..='９' => Some((c as u32 - '１' as u32 + 1) as u8),
        _ => None,
    }
}

/// The square at the start of `s` (`７六`, `76`, `7六`), and its length in bytes.
pub(crate) fn parse_square(s: &str) -> Option<(Square, usize)> {
    let mut chars = s.chars();
    let f = chars.next()?;
    let r = chars.next()?;
    let file = digit_value(f)?;
    let rank = match RANK_CHARS.iter().position(|&c| c == r) {
        Some(i) => i as u8 + 1,
        None => digit_value(r)?,
    };
    Some((Square::new(file - 1, rank - 1), f.len_utf8() + r.len_utf8()))
}

/// Kanji numerals for counts in hand: 一 … 九, 十, 十一 … 十八.
pub(crate) fn kanji_number(n: u32) -> String {
    let mut s = String::new();
    if n >= 10 {
        s.push('十');
    }
    if !n.is_multiple_of(10) {
        s.push(RANK_CHARS[(n % 10 - 1) as usize]);
    }
    s
}

/// The value of a kanji numeral (一 … 十八); `None` when `s` is not one.
pub(crate) fn parse_kanji_number(s: &str) -> Option<u32> {
    let digit = |c: char| RANK_CHARS.iter().position(|&d| d == c).map(|i| i as u32 + 1);
    let chars: Vec<char> = s.chars().collect();
    match chars.as_slice() {
        [c] if *c == '十' => Some(10),
        [c] => digit(*c),
        ['十', c] => Some(10 + digit(*c)?),
        _ => None,
    }
}

/// The mark of a side: ▲ Black, △ White.
pub fn side_mark(color: Color) -> char {
    match color {
        Color::Black => '▲',
        Color::White => '△',
    }
}

/// Which side a mark stands for (`▲△☗☖▼▽`); `None` for any other character.
pub fn mark_color(c: char) -> Option<Color> {
    match c {
        '▲' | '☗' | '▼' => Some(Color::Black),
        '△' | '☖' | '▽' => Some(Color::White),
        _ => None,
    }
}

/// Where the moving piece stands (左, 右, 直).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// 左 (JKF `L`).
    Left,
    /// 右 (JKF `R`).
    Right,
    /// 直 (JKF `C`).
    Straight,
}

/// How the moving piece moves (上, 寄, 引).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Motion {
    /// 上 (JKF `U`), also written 行 or 入.
    Up,
    /// 寄 (JKF `M`).
    Sideways,
    /// 引 (JKF `D`).
    Down,
}

/// The words that identify a move among the others of the same piece to the same
/// square, as a player writes them (JKF's `relative`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Relative {
    /// 左, 右 or 直.
    pub side: Option<Side>,
    /// 上, 寄 or 引.
    pub motion: Option<Motion>,
    /// 打: a drop where a board piece could also go.
    pub drop: bool,
}

impl Relative {
    /// The Japanese words: `左上`, `直`, `打`, …
    pub fn japanese(self) -> String {
        let mut s = String::new();
        s.push_str(match self.side {
            Some(Side::Left) => "左",
            Some(Side::Right) => "右",
            Some(Side::Straight) => "直",
            None => "",
        });
        s.push_str(match self.motion {
            Some(Motion::Up) => "上",
            Some(Motion::Sideways) => "寄",
            Some(Motion::Down) => "引",
            None => "",
        });
        if self.drop {
            s.push('打');
        }
        s
    }

    /// JKF's letters: `L` `C` `R`, `U` `M` `D`, `H`.
    pub fn jkf(self) -> String {
        let mut s = String::new();
        s.push_str(match self.side {
            Some(Side::Left) => "L",
            Some(Side::Right) => "R",
            Some(Side::Straight) => "C",
            None => "",
        });
        s.push_str(match self.motion {
            Some(Motion::Up) => "U",
            Some(Motion::Sideways) => "M",
            Some(Motion::Down) => "D",
            None => "",
        });
        if self.drop {
            s.push('H');
        }
        s
    }

    /// Reads JKF's letters; `None` for any other letter.
    pub fn from_jkf(s: &str) -> Option<Relative> {
        let mut r = Relative::default();
        for c in s.chars() {
            match c {
                'L' => r.side = Some(Side::Left),
                'R' => r.side = Some(Side::Right),
                'C' => r.side = Some(Side::Straight),
                'U' => r.motion = Some(Motion::Up),
                'M' => r.motion = Some(Motion::Sideways),
                'D' => r.motion = Some(Motion::Down),
                'H' => r.drop = true,
                _ => return None,
            }
        }
        Some(r)
    }

    /// No word at all.
    pub fn is_empty(self) -> bool {
        self == Relative::default()
    }
}

/// The file coordinate growing to the mover's right.
fn x(color: Color, sq: Square) -> i32 {
    match color {
        Color::Black => 8 - sq.file() as i32,
        Color::White => sq.file() as i32,
    }
}

/// The rank coordinate growing forward (towards the opponent) for the mover.
fn y(color: Color, sq: Square) -> i32 {
    match color {
        Color::Black => 8 - sq.rank() as i32,
        Color::White => sq.rank() as i32,
    }
}

fn motion(color: Color, from: Square, to: Square) -> Motion {
    match y(color, to).cmp(&y(color, from)) {
        std::cmp::Ordering::Greater => Motion::Up,
        std::cmp::Ordering::Equal => Motion::Sideways,
        std::cmp::Ordering::Less => Motion::Down,
    }
}

/// The origin squares of the legal board moves of `kind` (before moving) to `to`.
fn origins(pos: &Position, kind: PieceKind, to: Square) -> Vec<Square> {
    let mut out: Vec<Square> = Vec::new();
    for m in legal_moves(pos).iter() {
        if !m.is_drop() && m.to() == to && m.moved_kind() == kind && !out.contains(&m.from()) {
            out.push(m.from());
        }
    }
    out
}

/// The position word of the piece on `from` among the pieces on `all` that reach `to`.
fn side_of(
    color: Color,
    kind: PieceKind,
    from: Square,
    to: Square,
    all: &[Square],
) -> Option<Side> {
    let reference = if matches!(kind, PieceKind::Dragon | PieceKind::Horse) {
        // Two at most: left or right of the other one.
        let other = all.iter().find(|&&s| s != from)?;
        x(color, *other)
    } else {
        x(color, to)
    };
    match x(color, from).cmp(&reference) {
        std::cmp::Ordering::Less => Some(Side::Left),
        std::cmp::Ordering::Greater => Some(Side::Right),
        std::cmp::Ordering::Equal => {
            let straight_ok = !matches!(kind, PieceKind::Dragon | PieceKind::Horse);
            (straight_ok && motion(color, from, to) == Motion::Up).then_some(Side::Straight)
        }
    }
}

/// The words a player adds to `m` (legal in `pos`) so that it names one move.
pub fn relative(pos: &Position, m: Move) -> Relative {
    let us = pos.side_to_move();
    let to = m.to();
    if m.is_drop() {
        let board = legal_moves(pos)
            .iter()
            .any(|b| !b.is_drop() && b.to() == to && b.moved_kind() == m.moved_kind());
        return Relative { drop: board, ..Relative::default() };
    }
    let kind = m.moved_kind();
    let from = m.from();
    let all = origins(pos, kind, to);
    if all.len() <= 1 {
        return Relative::default();
    }
    type Tag = (Option<Side>, Option<Motion>);
    let tag_sets: [fn(Option<Side>, Motion) -> Tag; 3] =
        [|_, mo| (None, Some(mo)), |s, _| (s, None), |s, mo| (s, Some(mo))];
    for (i, tag_of) in tag_sets.iter().enumerate() {
        let tag = |s: Square| tag_of(side_of(us, kind, s, to, &all), motion(us, s, to));
        let mine = tag(from);
        if i == 1 && mine.0.is_none() {
            continue;
        }
        if all.iter().filter(|&&s| s != from).all(|&s| tag(s) != mine) {
            return Relative { side: mine.0, motion: mine.1, drop: false };
        }
    }
    // Not reached for legal positions: motion and side together always decide.
    Relative {
        side: side_of(us, kind, from, to, &all),
        motion: Some(motion(us, from, to)),
        drop: false,
    }
}

/// Whether the board move `m` could have been a promotion (or is one).
pub(crate) fn can_promote(pos: &Position, m: Move) -> bool {
    if m.is_drop() || !m.moved_kind().can_promote() {
        return false;
    }
    let zone = Bitboard::promotion_zone(pos.side_to_move());
    zone.contains(m.from()) || zone.contains(m.to())
}

/// `７六歩`, `同　歩成`, `５二金左上`, `５五角打`: the move without the side mark.
/// `prev` is the move played just before (for 同).
pub fn move_body(pos: &Position, m: Move, prev: Option<Move>) -> String {
    let mut s = String::with_capacity(24);
    let name = kind_name(m.moved_kind());
    if prev.is_some_and(|p| !p.is_none() && p.to() == m.to()) {
        s.push('同');
        if name.chars().count() == 1 {
            s.push('　');
        }
    } else {
        s.push_str(&square_name(m.to()));
    }
    s.push_str(name);
    s.push_str(&relative(pos, m).japanese());
    if m.is_promotion() {
        s.push('成');
    } else if can_promote(pos, m) {
        s.push_str("不成");
    }
    s
}

/// The Japanese notation of `m`, legal in `pos`: `▲７六歩`, `△同　歩成`.
/// `prev` is the move played just before (for 同); a legal move is assumed.
pub fn japanese(pos: &Position, m: Move, prev: Option<Move>) -> String {
    let mut s = String::with_capacity(28);
    s.push(side_mark(pos.side_to_move()));
    s.push_str(&move_body(pos, m, prev));
    s
}

/// Japanese notation for a line of moves played from `pos` (a PV, say), separated
/// by spaces. Stops before the first move that is not legal where it is played.
pub fn japanese_line(pos: &Position, moves: &[Move], prev: Option<Move>) -> String {
    let mut pos = pos.clone();
    let mut prev = prev;
    let mut out: Vec<String> = Vec::with_capacity(moves.len());
    for &m in moves {
        if !pos.is_legal(m) {
            break;
        }
        out.push(japanese(&pos, m, prev));
        pos.do_move(m);
        prev = Some(m);
    }
    out.join(" ")
}

/// Reads one move in Japanese notation (with or without the side mark) in `pos`.
///
/// # Errors
/// `WrongSide` for the other side's mark, `NoPreviousMove` for 同 without a
/// previous move, `Syntax` for text that is no move, `NoSuchMove` when no legal
/// move fits, `Ambiguous` when more than one does.
pub fn parse_japanese(pos: &Position, text: &str, prev: Option<Move>) -> Result<Move, ErrorKind> {
    let us = pos.side_to_move();
    let syntax = || ErrorKind::Syntax(text.to_string());
    let mut rest = text.trim();
    if let Some(c) = rest.chars().next() {
        if let Some(color) = mark_color(c) {
            if color != us {
                return Err(ErrorKind::WrongSide(text.to_string()));
            }
            rest = &rest[c.len_utf8()..];
        }
    }
    let to = if let Some(r) = rest.strip_prefix('同') {
        rest = r.trim_start_matches(['　', ' ']);
        prev.filter(|p| !p.is_none())
            .map(|p| p.to())
            .ok_or_else(|| ErrorKind::NoPreviousMove(text.to_string()))?
    } else {
        let (sq, len) = parse_square(rest).ok_or_else(syntax)?;
        rest = &rest[len..];
        if let Some(r) = rest.strip_prefix('同') {
            rest = r.trim_start_matches(['　', ' ']);
        }
        sq
    };
    let (kind, len) = parse_kind(rest).ok_or_else(syntax)?;
    rest = &rest[len..];
    let mut rel = Relative::default();
    let mut promote: Option<bool> = None;
    while let Some(c) = rest.chars().next() {
        match c {
            '左' => rel.side = Some(Side::Left),
            '右' => rel.side = Some(Side::Right),
            '直' => rel.side = Some(Side::Straight),
            '上' | '行' | '入' => rel.motion = Some(Motion::Up),
            '寄' => rel.motion = Some(Motion::Sideways),
            '引' => rel.motion = Some(Motion::Down),
            '打' => rel.drop = true,
            '成' => promote = Some(true),
            '生' => promote = Some(false),
            '不' if rest.starts_with("不成") => {
                promote = Some(false);
                rest = &rest["不".len()..];
            }
            _ => return Err(syntax()),
        }
        rest = &rest[c.len_utf8()..];
    }
    select(pos, kind, to, rel, promote).map_err(|many| {
        if many {
            ErrorKind::Ambiguous(text.to_string())
        } else {
            ErrorKind::NoSuchMove(text.to_string())
        }
    })
}

/// The one legal move of `kind` to `to` that the words pick out; `Err(true)` when
/// several fit, `Err(false)` when none does.
pub(crate) fn select(
    pos: &Position,
    kind: PieceKind,
    to: Square,
    rel: Relative,
    promote: Option<bool>,
) -> Result<Move, bool> {
    let us = pos.side_to_move();
    let mut cands: Vec<Move> = legal_moves(pos)
        .iter()
        .copied()
        .filter(|m| m.to() == to && m.moved_kind() == kind)
        .collect();
    let board = cands.iter().any(|m| !m.is_drop());
    if rel.drop || !board {
        cands.retain(|m| m.is_drop());
    } else {
        cands.retain(|m| !m.is_drop());
    }
    match promote {
        Some(p) => cands.retain(|m| m.is_promotion() == p),
        None => {
            if cands.iter().any(|m| !m.is_promotion()) {
                cands.retain(|m| !m.is_promotion());
            }
        }
    }
    if let Some(mo) = rel.motion {
        cands.retain(|m| !m.is_drop() && motion(us, m.from(), to) == mo);
    }
    match rel.side {
        Some(Side::Straight) => cands.retain(|m| {
            !m.is_drop() && x(us, m.from()) == x(us, to) && motion(us, m.from(), to) == Motion::Up
        }),
        Some(side) => {
            let xs = cands.iter().filter(|m| !m.is_drop()).map(|m| x(us, m.from()));
            let extreme = if side == Side::Left { xs.min() } else { xs.max() };
            cands.retain(|m| !m.is_drop() && Some(x(us, m.from())) == extreme);
        }
        None => {}
    }
    match cands.len() {
        1 => Ok(cands[0]),
        0 => Err(false),
        _ => Err(true),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_numbers() {
        assert_eq!(square_name(Square::new(6, 5)), "７六");
        assert_eq!(parse_square("７六歩"), Some((Square::new(6, 5), 6)));
        assert_eq!(parse_square("76歩"), Some((Square::new(6, 5), 2)));
        for n in 1..=18 {
            assert_eq!(parse_kanji_number(&kanji_number(n)), Some(n), "{n}");
        }
        assert_eq!(kanji_number(18), "十八");
        assert_eq!(parse_kind("成銀左"), Some((PieceKind::ProSilver, 6)));
        assert_eq!(parse_kind("竜"), Some((PieceKind::Dragon, 3)));
    }

    #[test]
    fn first_moves() {
        let pos = Position::startpos();
        let m = pos.parse_usi_move("7g7f").unwrap();
        assert_eq!(japanese(&pos, m, None), "▲７六歩");
        assert_eq!(parse_japanese(&pos, "▲７六歩", None), Ok(m));
        assert_eq!(parse_japanese(&pos, "76歩", None), Ok(m));
        assert_eq!(
            parse_japanese(&pos, "△３四歩", None),
            Err(ErrorKind::WrongSide("△３四歩".into()))
        );
        // 6i5h and 4i5h: both golds go up to 5h — 左 and 右.
        let left = pos.parse_usi_move("6i5h").unwrap();
        let right = pos.parse_usi_move("4i5h").unwrap();
        assert_eq!(japanese(&pos, left, None), "▲５八金左");
        assert_eq!(japanese(&pos, right, None), "▲５八金右");
        assert_eq!(
            parse_japanese(&pos, "▲５八金", None),
            Err(ErrorKind::Ambiguous("▲５八金".into()))
        );
        assert_eq!(
            parse_japanese(&pos, "▲５五金", None),
            Err(ErrorKind::NoSuchMove("▲５五金".into()))
        );
    }
}
