//! The server's `Game_Summary`: who plays which side, the clock, the starting
//! position and the moves already played.

use super::clock::TimeRule;
use records::csa::{color_of_sign, csa_move_to_move, PositionReader};
use records::ErrorKind;
use shogi::{Color, Move, Position};
use std::fmt;

/// A move of the game as the server reported it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedMove {
    pub mv: Move,
    /// The move as the server spelt it (`+7776FU`).
    pub csa: String,
    /// The time the server charged for it, in the game's time units.
    pub time: Option<u64>,
}

/// A game summary as read from `BEGIN Game_Summary` … `END Game_Summary`.
#[derive(Clone, Debug)]
pub struct GameSummary {
    pub game_id: String,
    /// Black's and White's names, indexed by `Color::index`.
    pub names: [String; 2],
    pub my_color: Color,
    /// The clock of each side (`BEGIN Time`, or `Time+`/`Time-` when they differ).
    pub time: [TimeRule; 2],
    pub max_moves: Option<u32>,
    /// The position before the moves already played.
    pub initial: Position,
    /// Moves already played (a game resumed or started from a line), checked legal.
    pub moves: Vec<PlayedMove>,
}

/// Why a summary cannot be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SummaryError {
    Missing(&'static str),
    BadValue {
        key: String,
        value: String,
    },
    Position(ErrorKind),
    /// A move of the summary's move list that is not legal where it stands.
    Move {
        index: usize,
        error: ErrorKind,
    },
    /// A line after `END Game_Summary` was expected.
    Unterminated,
}

impl fmt::Display for SummaryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SummaryError::Missing(key) => write!(f, "the game summary has no {key}"),
            SummaryError::BadValue { key, value } => {
                write!(f, "game summary: {key}:{value} cannot be read")
            }
            SummaryError::Position(e) => write!(f, "game summary: {e}"),
            SummaryError::Move { index, error } => {
                write!(f, "game summary: move {}: {error}", index + 1)
            }
            SummaryError::Unterminated => write!(f, "the game summary did not end"),
        }
    }
}

impl std::error::Error for SummaryError {}

/// Which block of the summary the reader is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Block {
    Top,
    /// `BEGIN Time` (both sides) or `BEGIN Time+` / `Time-`.
    Time(Option<Color>),
    Position,
}

/// Reads a summary line by line: [`SummaryReader::line`] until it returns
/// `true`, then [`SummaryReader::finish`].
#[derive(Debug)]
pub struct SummaryReader {
    block: Block,
    done: bool,
    fields: Vec<(String, String)>,
    time_fields: [Vec<(String, String)>; 2],
    position: Vec<String>,
    move_lines: Vec<String>,
}

impl Default for SummaryReader {
    fn default() -> Self {
        SummaryReader {
            block: Block::Top,
            done: false,
            fields: Vec::new(),
            time_fields: [Vec::new(), Vec::new()],
            position: Vec::new(),
            move_lines: Vec::new(),
        }
    }
}

impl SummaryReader {
    /// Takes one line after `BEGIN Game_Summary`; `true` once `END Game_Summary`
    /// has been read. Unknown keys and comments are kept out of the way.
    pub fn line(&mut self, line: &str) -> bool {
        // Position lines keep their trailing blanks (`P2 * -HI … -KA * `).
        let raw = line.trim_end_matches(['\r', '\n']);
        let line = raw.trim();
        match (self.block, line) {
            (_, "END Game_Summary") => {
                self.done = true;
                return true;
            }
            (Block::Top, "BEGIN Time") => self.block = Block::Time(None),
            (Block::Top, "BEGIN Time+") => self.block = Block::Time(Some(Color::Black)),
            (Block::Top, "BEGIN Time-") => self.block = Block::Time(Some(Color::White)),
            (Block::Top, "BEGIN Position") => self.block = Block::Position,
            (Block::Time(_), "END Time" | "END Time+" | "END Time-") => self.block = Block::Top,
            (Block::Position, "END Position") => self.block = Block::Top,
            (Block::Position, l) if l.starts_with('\'') || l.is_empty() => {}
            (Block::Position, l) if PositionReader::accepts(l) => {
                self.position.push(raw.to_string())
            }
            (Block::Position, l) => self.move_lines.push(l.to_string()),
            (Block::Time(side), l) => {
                if let Some((k, v)) = l.split_once(':') {
                    let pair = (k.trim().to_string(), v.trim().to_string());
                    match side {
                        None => {
                            self.time_fields[0].push(pair.clone());
                            self.time_fields[1].push(pair);
                        }
                        Some(c) => self.time_fields[c.index()].push(pair),
                    }
                }
            }
            (Block::Top, l) => {
                if let Some((k, v)) = l.split_once(':') {
                    self.fields.push((k.trim().to_string(), v.trim().to_string()));
                }
            }
        }
        false
    }

    fn field<'a>(fields: &'a [(String, String)], key: &str) -> Option<&'a str> {
        fields.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }

    /// The summary, checked: a side for us, a clock, a legal position and legal
    /// moves already played.
    pub fn finish(self) -> Result<GameSummary, SummaryError> {
        if !self.done {
            return Err(SummaryError::Unterminated);
        }
        let f = |key| Self::field(&self.fields, key);
        let bad = |key: &str, value: &str| SummaryError::BadValue {
            key: key.to_string(),
            value: value.to_string(),
        };
        let game_id = f("Game_ID").unwrap_or("").to_string();
        let names = [f("Name+").unwrap_or("").to_string(), f("Name-").unwrap_or("").to_string()];
        let turn = f("Your_Turn").ok_or(SummaryError::Missing("Your_Turn"))?;
        let my_color =
            turn.chars().next().and_then(color_of_sign).ok_or_else(|| bad("Your_Turn", turn))?;
        let to_move = match f("To_Move") {
            None => Color::Black,
            Some(v) => v.chars().next().and_then(color_of_sign).ok_or_else(|| bad("To_Move", v))?,
        };
        let max_moves = match f("Max_Moves") {
            None => None,
            Some(v) => Some(v.parse::<u32>().map_err(|_| bad("Max_Moves", v))?).filter(|&n| n > 0),
        };
        let mut time = [TimeRule::default(), TimeRule::default()];
        for color in Color::ALL {
            time[color.index()] = TimeRule::from_fields(&self.time_fields[color.index()])
                .map_err(|(k, v)| bad(&k, &v))?;
        }
        let mut reader = PositionReader::default();
        for l in &self.position {
            reader.read_line(l).map_err(SummaryError::Position)?;
        }
        if self.position.is_empty() {
            reader.read_line("PI").map_err(SummaryError::Position)?;
        }
        let initial = reader.finish(to_move).map_err(SummaryError::Position)?;
        let mut pos = initial.clone();
        let mut moves = Vec::new();
        for (index, line) in self.move_lines.iter().enumerate() {
            let (text, time) = split_move_line(line);
            let mv = csa_move_to_move(&pos, text)
                .map_err(|error| SummaryError::Move { index, error })?;
            pos.do_move(mv);
            moves.push(PlayedMove { mv, csa: text.to_string(), time });
        }
        Ok(GameSummary { game_id, names, my_color, time, max_moves, initial, moves })
    }
}

/// `+7776FU,T12` → (`+7776FU`, `Some(12)`); the time is `None` when absent or
/// unreadable.
pub fn split_move_line(line: &str) -> (&str, Option<u64>) {
    let mut parts = line.split(',');
    let mv = parts.next().unwrap_or("").trim();
    let time = parts.find_map(|p| p.trim().strip_prefix('T').and_then(|t| t.parse::<u64>().ok()));
    (mv, time)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Result<GameSummary, SummaryError> {
        shogi::attacks::init();
        let mut r = SummaryReader::default();
        for l in text.lines() {
            if r.line(l) {
                break;
            }
        }
        r.finish()
    }

    const FLOODGATE: &str = "Protocol_Version:1.2
Protocol_Mode:Server
Format:Shogi 1.0
Declaration:Jishogi 1.1
Game_ID:wdoor+floodgate-300-10F+a+b+20261202170000
Name+:a
Name-:b
Your_Turn:-
Rematch_On_Draw:NO
To_Move:+
Max_Moves:256
BEGIN Time
Time_Unit:1sec
Total_Time:300
Byoyomi:0
Increment:10
Least_Time_Per_Move:0
END Time
BEGIN Position
P1-KY-KE-GI-KI-OU-KI-GI-KE-KY
P2 * -HI *  *  *  *  * -KA * 
P3-FU-FU-FU-FU-FU-FU-FU-FU-FU
P4 *  *  *  *  *  *  *  *  * 
P5 *  *  *  *  *  *  *  *  * 
P6 *  *  *  *  *  *  *  *  * 
P7+FU+FU+FU+FU+FU+FU+FU+FU+FU
P8 * +KA *  *  *  *  * +HI * 
P9+KY+KE+GI+KI+OU+KI+GI+KE+KY
P+
P-
+
+2726FU,T12
-3334FU,T6
END Position
END Game_Summary
";

    #[test]
    fn a_floodgate_summary() {
        let s = read(FLOODGATE).unwrap();
        assert_eq!(s.my_color, Color::White);
        assert_eq!(s.names, ["a".to_string(), "b".to_string()]);
        assert_eq!(s.time[0].total, 300);
        assert_eq!(s.time[1].increment, 10);
        assert_eq!(s.max_moves, Some(256));
        assert_eq!(s.moves.len(), 2);
        assert_eq!(s.moves[0].time, Some(12));
        let mut pos = s.initial.clone();
        s.moves.iter().for_each(|m| pos.do_move(m.mv));
        assert_eq!(pos.side_to_move(), Color::Black);
        assert_eq!(s.initial.to_sfen(), shogi::STARTPOS);
    }

    #[test]
    fn sides_may_have_their_own_clocks() {
        let text = FLOODGATE.replace(
            "BEGIN Time\nTime_Unit:1sec\nTotal_Time:300\nByoyomi:0\nIncrement:10\nLeast_Time_Per_Move:0\nEND Time\n",
            "BEGIN Time+\nTotal_Time:600\nByoyomi:10\nEND Time+\nBEGIN Time-\nTime_Unit:1msec\nTotal_Time:300000\nEND Time-\n",
        );
        let s = read(&text).unwrap();
        assert_eq!(s.time[0].total_ms(), 600_000);
        assert_eq!(s.time[0].byoyomi_ms(), 10_000);
        assert_eq!(s.time[1].total_ms(), 300_000);
    }

    #[test]
    fn broken_summaries_are_refused_with_a_reason() {
        assert_eq!(
            read(&FLOODGATE.replace("Your_Turn:-\n", "")).unwrap_err(),
            SummaryError::Missing("Your_Turn")
        );
        assert!(matches!(
            read(&FLOODGATE.replace("Your_Turn:-", "Your_Turn:x")),
            Err(SummaryError::BadValue { .. })
        ));
        assert!(matches!(
            read(&FLOODGATE.replace("-3334FU,T6", "-3334FU,T6\n+2726FU")),
            Err(SummaryError::Move { index: 2, .. })
        ));
        assert!(matches!(
            read(&FLOODGATE.replace("Total_Time:300", "Total_Time:lots")),
            Err(SummaryError::BadValue { .. })
        ));
        assert!(matches!(
            read(&FLOODGATE.replace("P5 *  *", "P5 * +XX")),
            Err(SummaryError::Position(_))
        ));
        assert_eq!(
            read(&FLOODGATE.replace("END Game_Summary\n", "")).unwrap_err(),
            SummaryError::Unterminated
        );
    }
}
