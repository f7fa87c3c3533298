//! CSA notation: moves (`+7776FU`, `-0055KA`) and positions (`PI`, `P1`..`P9`,
//! `P+`/`P-`, the side to move), read into and written from the rules core's
//! [`Position`] and [`Move`].
//!
//! Everything here reads text from the network: every function returns a typed
//! error instead of panicking, whatever the input.

use shogi::{legal_moves, Color, Move, Piece, PieceKind, Position, Square};
use std::fmt;

/// What is wrong with a CSA move or position line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotationError {
    /// A move that is not `[+-]` four digits and a piece name.
    BadMove(String),
    /// A move whose sign is not the side to move's.
    WrongSide(String),
    /// A well-formed move that the position does not allow.
    IllegalMove(String),
    /// A position line that cannot be read.
    BadPosition(String),
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotationError::BadMove(m) => write!(f, "'{m}' is not a CSA move"),
            NotationError::WrongSide(m) => write!(f, "'{m}' is not the side to move's move"),
            NotationError::IllegalMove(m) => write!(f, "'{m}' is not legal in the position"),
            NotationError::BadPosition(l) => write!(f, "position line '{l}' cannot be read"),
        }
    }
}

impl std::error::Error for NotationError {}

/// The CSA sign of a side: `+` for Black (sente), `-` for White.
pub fn sign(color: Color) -> char {
    match color {
        Color::Black => '+',
        Color::White => '-',
    }
}

/// The side of a CSA sign.
pub fn color_of_sign(c: char) -> Option<Color> {
    match c {
        '+' => Some(Color::Black),
        '-' => Some(Color::White),
        _ => None,
    }
}

const NAMES: [(&str, PieceKind); 14] = [
    ("FU", PieceKind::Pawn),
    ("KY", PieceKind::Lance),
    ("KE", PieceKind::Knight),
    ("GI", PieceKind::Silver),
    ("KI", PieceKind::Gold),
    ("KA", PieceKind::Bishop),
    ("HI", PieceKind::Rook),
    ("OU", PieceKind::King),
    ("TO", PieceKind::ProPawn),
    ("NY", PieceKind::ProLance),
    ("NK", PieceKind::ProKnight),
    ("NG", PieceKind::ProSilver),
    ("UM", PieceKind::Horse),
    ("RY", PieceKind::Dragon),
];

/// The kind a two-letter CSA piece name stands for.
pub fn kind_of_name(name: &str) -> Option<PieceKind> {
    NAMES.iter().find(|(n, _)| *n == name).map(|&(_, k)| k)
}

/// The two-letter CSA name of a kind.
pub fn name_of_kind(kind: PieceKind) -> &'static str {
    NAMES.iter().find(|(_, k)| *k == kind).map_or("??", |&(n, _)| n)
}

/// The square of CSA digits `file`, `rank` (each `1`..`9`).
fn square_of_digits(file: u8, rank: u8) -> Option<Square> {
    if (b'1'..=b'9').contains(&file) && (b'1'..=b'9').contains(&rank) {
        Some(Square::new(file - b'1', rank - b'1'))
    } else {
        None
    }
}

fn digits_of_square(sq: Square) -> String {
    format!("{}{}", sq.file() + 1, sq.rank() + 1)
}

/// Reads a CSA move (`+7776FU`; anything after the seventh character, such as
/// `,T12`, is not looked at) as a legal move of `pos`.
///
/// Contract: `Ok` only for a move in `legal_moves(pos)`, made by the side to move.
pub fn parse_move(pos: &Position, text: &str) -> Result<Move, NotationError> {
    let bad = || NotationError::BadMove(text.to_string());
    let b = text.as_bytes();
    if b.len() < 7 || !text.is_char_boundary(7) {
        return Err(bad());
    }
    let color = color_of_sign(b[0] as char).ok_or_else(bad)?;
    if color != pos.side_to_move() {
        return Err(NotationError::WrongSide(text.to_string()));
    }
    let kind_after = kind_of_name(&text[5..7]).ok_or_else(bad)?;
    let to = square_of_digits(b[3], b[4]).ok_or_else(bad)?;
    let candidate = if &b[1..3] == b"00" {
        if !PieceKind::HAND.contains(&kind_after) {
            return Err(bad());
        }
        Move::drop(kind_after, to)
    } else {
        let from = square_of_digits(b[1], b[2]).ok_or_else(bad)?;
        let piece = pos.piece_on(from);
        let Some(kind) = piece.kind() else {
            return Err(NotationError::IllegalMove(text.to_string()));
        };
        if piece.color() != color {
            return Err(NotationError::IllegalMove(text.to_string()));
        }
        let promote = if kind_after == kind {
            false
        } else if kind.can_promote() && kind.promote() == kind_after {
            true
        } else {
            return Err(NotationError::IllegalMove(text.to_string()));
        };
        Move::board(from, to, promote, kind, pos.piece_on(to).kind())
    };
    // Legal moves compare on all their bits (the captured kind included).
    legal_moves(pos)
        .iter()
        .copied()
        .find(|&m| m == candidate)
        .ok_or_else(|| NotationError::IllegalMove(text.to_string()))
}

/// Writes `m`, a move of the side to move in `pos`, in CSA notation (`+7776FU`).
pub fn format_move(pos: &Position, m: Move) -> String {
    let from = if m.is_drop() { "00".to_string() } else { digits_of_square(m.from()) };
    format!(
        "{}{}{}{}",
        sign(pos.side_to_move()),
        from,
        digits_of_square(m.to()),
        name_of_kind(m.kind_after())
    )
}

/// Reads a USI move (`7g7f`) as a legal move of `pos`, or `None`.
pub fn parse_usi_legal(pos: &Position, text: &str) -> Option<Move> {
    let m = pos.parse_usi_move(text).ok()?;
    legal_moves(pos).contains(m).then_some(m)
}

/// A position being read from CSA position lines (`PI`, `P1`..`P9`, `P+`, `P-`,
/// and the side to move), turned into a [`Position`] by [`PositionReader::finish`].
#[derive(Clone, Debug)]
pub struct PositionReader {
    /// `board[rank][file]`, both from 0 (CSA `P1` is rank 0; file 0 is file 1).
    board: [[Option<(Color, PieceKind)>; 9]; 9],
    hands: [[u32; PieceKind::NUM]; 2],
    side: Option<Color>,
    /// Pieces of `P+00AL` / `P-00AL`: the rest of the set goes to that hand.
    rest_to: Option<Color>,
}

impl Default for PositionReader {
    fn default() -> Self {
        PositionReader {
            board: [[None; 9]; 9],
            hands: [[0; PieceKind::NUM]; 2],
            side: None,
            rest_to: None,
        }
    }
}

/// The even game's setup, rank by rank from rank 1 (White's back rank).
const HIRATE: [&str; 9] = [
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

impl PositionReader {
    /// Whether `line` is one this reader takes (`P…` or a lone `+`/`-`).
    pub fn accepts(line: &str) -> bool {
        line.starts_with('P') || line == "+" || line == "-"
    }

    /// Reads one position line.
    pub fn read_line(&mut self, line: &str) -> Result<(), NotationError> {
        let bad = || NotationError::BadPosition(line.to_string());
        if line == "+" || line == "-" {
            self.side = color_of_sign(line.chars().next().unwrap_or('+'));
            return Ok(());
        }
        let rest = line.strip_prefix('P').ok_or_else(bad)?;
        if let Some(removed) = rest.strip_prefix('I') {
            for (rank, row) in HIRATE.iter().enumerate() {
                self.read_rank(rank, row).map_err(|_| bad())?;
            }
            // `PI82HI22KA`: squares emptied for a handicap game.
            let b = removed.as_bytes();
            if b.len() % 4 != 0 || !removed.is_ascii() {
                return Err(bad());
            }
            for chunk in removed.as_bytes().chunks(4) {
                let sq = square_of_digits(chunk[0], chunk[1]).ok_or_else(bad)?;
                let name = std::str::from_utf8(&chunk[2..4]).map_err(|_| bad())?;
                let kind = kind_of_name(name).ok_or_else(bad)?;
                let cell = &mut self.board[sq.rank() as usize][sq.file() as usize];
                if cell.map(|(_, k)| k) != Some(kind) {
                    return Err(bad());
                }
                *cell = None;
            }
            return Ok(());
        }
        if let Some(digit) = rest.bytes().next().filter(|d| (b'1'..=b'9').contains(d)) {
            return self.read_rank(usize::from(digit - b'1'), &rest[1..]).map_err(|_| bad());
        }
        let color = rest.chars().next().and_then(color_of_sign).ok_or_else(bad)?;
        let items = &rest[1..];
        if items.len() % 4 != 0 || !items.is_ascii() {
            return Err(bad());
        }
        for chunk in items.as_bytes().chunks(4) {
            let name = std::str::from_utf8(&chunk[2..4]).map_err(|_| bad())?;
            if &chunk[0..2] == b"00" {
                if name == "AL" {
                    self.rest_to = Some(color);
                    continue;
                }
                let kind =
                    kind_of_name(name).filter(|k| PieceKind::HAND.contains(k)).ok_or_else(bad)?;
                self.hands[color.index()][kind.index()] += 1;
            } else {
                let sq = square_of_digits(chunk[0], chunk[1]).ok_or_else(bad)?;
                let kind = kind_of_name(name).ok_or_else(bad)?;
                self.board[sq.rank() as usize][sq.file() as usize] = Some((color, kind));
            }
        }
        Ok(())
    }

    /// One `Pn` rank: nine cells of three characters, file 9 first.
    fn read_rank(&mut self, rank: usize, cells: &str) -> Result<(), ()> {
        // Trailing blanks of the last cell may have been lost on the way.
        let cells = format!("{cells:<27}");
        if !cells.is_ascii() || cells.len() != 27 {
            return Err(());
        }
        for i in 0..9 {
            let cell = &cells[i * 3..i * 3 + 3];
            let file = 8 - i;
            self.board[rank][file] = if cell.trim() == "*" {
                None
            } else {
                let color = color_of_sign(cell.as_bytes()[0] as char).ok_or(())?;
                Some((color, kind_of_name(&cell[1..3]).ok_or(())?))
            };
        }
        Ok(())
    }

    /// The position read, with `default_side` to move unless a `+`/`-` line said
    /// otherwise. Checked by the rules core's SFEN reader (piece counts, kings,
    /// pawns and lances that could never move).
    pub fn finish(&self, default_side: Color) -> Result<Position, NotationError> {
        let mut hands = self.hands;
        if let Some(color) = self.rest_to {
            for kind in PieceKind::HAND {
                let on_board = self
                    .board
                    .iter()
                    .flatten()
                    .filter(|c| c.is_some_and(|(_, k)| k.unpromote() == kind))
                    .count() as u32;
                let held = hands[0][kind.index()] + hands[1][kind.index()];
                let total = u32::from(kind.max_count());
                hands[color.index()][kind.index()] += total.saturating_sub(on_board + held);
            }
        }
        let mut sfen = String::new();
        for (rank, row) in self.board.iter().enumerate() {
            let mut empty = 0;
            for file in (0..9).rev() {
                match row[file] {
                    None => empty += 1,
                    Some((color, kind)) => {
                        if empty > 0 {
                            sfen.push_str(&empty.to_string());
                            empty = 0;
                        }
                        sfen.push_str(&Piece::new(color, kind).to_sfen());
                    }
                }
            }
            if empty > 0 {
                sfen.push_str(&empty.to_string());
            }
            if rank < 8 {
                sfen.push('/');
            }
        }
        let side = self.side.unwrap_or(default_side);
        sfen.push(' ');
        sfen.push(side.sfen_char());
        sfen.push(' ');
        let mut hand = String::new();
        for color in Color::ALL {
            for kind in PieceKind::HAND.iter().rev() {
                let n = hands[color.index()][kind.index()];
                if n == 0 {
                    continue;
                }
                if n > 1 {
                    hand.push_str(&n.to_string());
                }
                hand.push_str(&Piece::new(color, *kind).to_sfen());
            }
        }
        sfen.push_str(if hand.is_empty() { "-" } else { &hand });
        sfen.push_str(" 1");
        Position::from_sfen(&sfen).map_err(|e| NotationError::BadPosition(format!("{sfen}: {e}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn start() -> Position {
        shogi::attacks::init();
        Position::startpos()
    }

    #[test]
    fn moves_round_trip_through_csa() {
        let mut pos = start();
        for usi in ["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e"] {
            let m = parse_usi_legal(&pos, usi).expect(usi);
            let csa = format_move(&pos, m);
            assert_eq!(parse_move(&pos, &csa), Ok(m), "{csa}");
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
        let m = parse_move(&pos, "+7776FU").unwrap();
        assert_eq!(m.to_usi(), "7g7f");
        pos.do_move(m);
        assert_eq!(parse_move(&pos, "-3334FU,T3").map(|m| m.to_usi()), Ok("3c3d".to_string()));
        pos.do_move(parse_move(&pos, "-3334FU").unwrap());
        let m = parse_move(&pos, "+8822UM").unwrap();
        assert!(m.is_promotion());
        assert_eq!(format_move(&pos, m), "+8822UM");
    }

    #[test]
    fn bad_moves_are_refused_not_panicked_on() {
        let pos = start();
        for text in [
            "", "+", "+7776", "+7776XX", "-3334FU", "+7775FU", "+0055KA", "+7776TO", "+1010FU",
            "+77é6FU", "*7776FU", "+0000FU",
        ] {
            assert!(parse_move(&pos, text).is_err(), "{text}");
        }
        assert_eq!(parse_move(&pos, "-3334FU"), Err(NotationError::WrongSide("-3334FU".into())));
    }

    #[test]
    fn positions_read_from_csa_lines() {
        shogi::attacks::init();
        let mut r = PositionReader::default();
        r.read_line("PI").unwrap();
        r.read_line("+").unwrap();
        assert_eq!(r.finish(Color::Black).unwrap().to_sfen(), shogi::STARTPOS);

        let mut r = PositionReader::default();
        for (i, row) in HIRATE.iter().enumerate() {
            r.read_line(&format!("P{}{}", i + 1, row)).unwrap();
        }
        r.read_line("-").unwrap();
        let pos = r.finish(Color::Black).unwrap();
        assert_eq!(pos.side_to_move(), Color::White);

        // A bishop handicap: White (the stronger side) moves first.
        let mut r = PositionReader::default();
        r.read_line("PI22KA").unwrap();
        r.read_line("-").unwrap();
        assert_eq!(
            r.finish(Color::Black).unwrap().to_sfen(),
            "lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"
        );

        // A tsume-like position with hands and the rest of the set to White.
        let mut r = PositionReader::default();
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
    fn bad_position_lines_are_refused() {
        for line in [
            "P",
            "PX",
            "P1-KY",
            "P1-KY-KE-GI-KI-OU-KI-GI-KE-XX",
            "P+00",
            "P+00ZZ",
            "P+1",
            "PI99ZZ",
            "PI55FU",
            "P+00OU",
            "Pé",
        ] {
            let mut r = PositionReader::default();
            assert!(r.read_line(line).is_err(), "{line}");
        }
        let mut r = PositionReader::default();
        r.read_line("P+59OU").unwrap();
        r.read_line("P-51OU").unwrap();
        r.read_line("P+11FU").unwrap();
        assert!(r.finish(Color::Black).is_err(), "a pawn that can never move");
    }
}
