//! USI commands as typed values, parsed from one line of GUI input. Parsing knows
//! nothing of the position: `position` keeps its moves as text, checked later.

use std::fmt;

/// Where `position` starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Start {
    StartPos,
    /// The four SFEN fields, joined by spaces.
    Sfen(String),
}

/// The clock fields of `go` and `ponderhit`, milliseconds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ClockFields {
    pub btime: Option<u64>,
    pub wtime: Option<u64>,
    pub byoyomi: Option<u64>,
    pub binc: Option<u64>,
    pub winc: Option<u64>,
}

impl ClockFields {
    pub fn is_empty(&self) -> bool {
        *self == ClockFields::default()
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoParams {
    pub clock: ClockFields,
    pub movetime: Option<u64>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub infinite: bool,
    pub ponder: bool,
    /// `go mate <ms|infinite>`: `Some(None)` for infinite.
    pub mate: Option<Option<u64>>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Usi,
    IsReady,
    SetOption {
        name: String,
        value: Option<String>,
    },
    UsiNewGame,
    Position {
        start: Start,
        moves: Vec<String>,
    },
    Go(GoParams),
    Stop,
    PonderHit(ClockFields),
    GameOver(String),
    Quit,
    /// A blank line: nothing to do.
    Empty,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseError {
    UnknownCommand(String),
    Missing(&'static str),
    BadNumber { field: String, text: String },
    Unexpected(String),
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::UnknownCommand(c) => write!(f, "unknown command '{c}'"),
            ParseError::Missing(what) => write!(f, "missing {what}"),
            ParseError::BadNumber { field, text } => {
                write!(f, "'{text}' is not a valid number for {field}")
            }
            ParseError::Unexpected(t) => write!(f, "unexpected '{t}'"),
        }
    }
}

fn number(field: &str, token: Option<&str>) -> Result<u64, ParseError> {
    let text = token
        .ok_or_else(|| ParseError::BadNumber { field: field.to_string(), text: String::new() })?;
    // Some GUIs send negative remaining times when a clock runs out: treat as 0.
    if let Some(neg) = text.strip_prefix('-') {
        if neg.parse::<u64>().is_ok() {
            return Ok(0);
        }
    }
    text.parse()
        .map_err(|_| ParseError::BadNumber { field: field.to_string(), text: text.to_string() })
}

/// Reads one clock field if `key` is one; returns whether it was.
fn clock_field<'a>(
    key: &str,
    tokens: &mut impl Iterator<Item = &'a str>,
    clock: &mut ClockFields,
) -> Result<bool, ParseError> {
    let slot = match key {
        "btime" => &mut clock.btime,
        "wtime" => &mut clock.wtime,
        "byoyomi" => &mut clock.byoyomi,
        "binc" => &mut clock.binc,
        "winc" => &mut clock.winc,
        _ => return Ok(false),
    };
    *slot = Some(number(key, tokens.next())?);
    Ok(true)
}

fn parse_go<'a>(mut tokens: impl Iterator<Item = &'a str>) -> Result<GoParams, ParseError> {
    let mut go = GoParams::default();
    while let Some(key) = tokens.next() {
        if clock_field(key, &mut tokens, &mut go.clock)? {
            continue;
        }
        match key {
            "movetime" => go.movetime = Some(number(key, tokens.next())?),
            "depth" => {
                let d = number(key, tokens.next())?;
                go.depth = Some(d.min(u64::from(u32::MAX)) as u32);
            }
            "nodes" => go.nodes = Some(number(key, tokens.next())?),
            "infinite" => go.infinite = true,
            "ponder" => go.ponder = true,
            "mate" => {
                go.mate = Some(match tokens.next() {
                    Some("infinite") | None => None,
                    Some(t) => Some(number("mate", Some(t))?),
                })
            }
            other => return Err(ParseError::Unexpected(other.to_string())),
        }
    }
    Ok(go)
}

fn parse_position<'a>(mut tokens: impl Iterator<Item = &'a str>) -> Result<Command, ParseError> {
    let start = match tokens.next() {
        Some("startpos") => Start::StartPos,
        Some("sfen") => {
            let mut fields = Vec::new();
            for t in tokens.by_ref() {
                if t == "moves" {
                    return Ok(Command::Position {
                        start: Start::Sfen(fields.join(" ")),
                        moves: tokens.map(str::to_string).collect(),
                    });
                }
                fields.push(t);
            }
            return Ok(Command::Position {
                start: Start::Sfen(fields.join(" ")),
                moves: Vec::new(),
            });
        }
        Some(other) => return Err(ParseError::Unexpected(other.to_string())),
        None => return Err(ParseError::Missing("'startpos' or 'sfen'")),
    };
    let moves = match tokens.next() {
        None => Vec::new(),
        Some("moves") => tokens.map(str::to_string).collect(),
        Some(other) => return Err(ParseError::Unexpected(other.to_string())),
    };
    Ok(Command::Position { start, moves })
}

fn parse_setoption<'a>(mut tokens: impl Iterator<Item = &'a str>) -> Result<Command, ParseError> {
    if tokens.next() != Some("name") {
        return Err(ParseError::Missing("'name'"));
    }
    let mut name = Vec::new();
    let mut value = None;
    while let Some(t) = tokens.next() {
        if t == "value" {
            value = Some(tokens.collect::<Vec<_>>().join(" "));
            break;
        }
        name.push(t);
    }
    if name.is_empty() {
        return Err(ParseError::Missing("option name"));
    }
    Ok(Command::SetOption { name: name.join(" "), value })
}

impl Command {
    pub fn parse(line: &str) -> Result<Command, ParseError> {
        let mut tokens = line.split_whitespace();
        let Some(head) = tokens.next() else {
            return Ok(Command::Empty);
        };
        let no_more = |mut rest: std::str::SplitWhitespace<'_>, cmd: Command| match rest.next() {
            None => Ok(cmd),
            Some(t) => Err(ParseError::Unexpected(t.to_string())),
        };
        match head {
            "usi" => no_more(tokens, Command::Usi),
            "isready" => no_more(tokens, Command::IsReady),
            "usinewgame" => no_more(tokens, Command::UsiNewGame),
            "stop" => no_more(tokens, Command::Stop),
            "quit" => no_more(tokens, Command::Quit),
            "setoption" => parse_setoption(tokens),
            "position" => parse_position(tokens),
            "go" => parse_go(tokens).map(Command::Go),
            "ponderhit" => {
                let mut clock = ClockFields::default();
                while let Some(key) = tokens.next() {
                    if !clock_field(key, &mut tokens, &mut clock)? {
                        return Err(ParseError::Unexpected(key.to_string()));
                    }
                }
                Ok(Command::PonderHit(clock))
            }
            "gameover" => Ok(Command::GameOver(tokens.next().unwrap_or("").to_string())),
            other => Err(ParseError::UnknownCommand(other.to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_what_guis_send() {
        assert_eq!(Command::parse("usi"), Ok(Command::Usi));
        assert_eq!(Command::parse("   "), Ok(Command::Empty));
        assert_eq!(
            Command::parse("setoption name USI_Hash value 128"),
            Ok(Command::SetOption { name: "USI_Hash".into(), value: Some("128".into()) })
        );
        assert_eq!(
            Command::parse("position startpos moves 7g7f 3c3d"),
            Ok(Command::Position {
                start: Start::StartPos,
                moves: vec!["7g7f".into(), "3c3d".into()]
            })
        );
        assert_eq!(
            Command::parse("position sfen 4k4/9/9/9/9/9/9/9/4K4 b G 1 moves G*5b"),
            Ok(Command::Position {
                start: Start::Sfen("4k4/9/9/9/9/9/9/9/4K4 b G 1".into()),
                moves: vec!["G*5b".into()]
            })
        );
        let Ok(Command::Go(go)) = Command::parse("go btime 1000 wtime 2000 byoyomi 3000 ponder")
        else {
            panic!("go not parsed");
        };
        assert_eq!(go.clock.btime, Some(1000));
        assert_eq!(go.clock.byoyomi, Some(3000));
        assert!(go.ponder);
        let Ok(Command::Go(go)) = Command::parse("go mate infinite") else {
            panic!("go mate not parsed");
        };
        assert_eq!(go.mate, Some(None));
        assert_eq!(
            Command::parse("ponderhit btime 5 wtime 6"),
            Ok(Command::PonderHit(ClockFields {
                btime: Some(5),
                wtime: Some(6),
                ..ClockFields::default()
            }))
        );
        assert_eq!(Command::parse("gameover win"), Ok(Command::GameOver("win".into())));
    }

    #[test]
    fn refuses_malformed_lines() {
        assert!(matches!(Command::parse("hello"), Err(ParseError::UnknownCommand(_))));
        assert!(matches!(Command::parse("go btime x"), Err(ParseError::BadNumber { .. })));
        assert!(matches!(Command::parse("go depth"), Err(ParseError::BadNumber { .. })));
        assert!(matches!(Command::parse("go fast"), Err(ParseError::Unexpected(_))));
        assert!(matches!(Command::parse("position"), Err(ParseError::Missing(_))));
        assert!(matches!(Command::parse("position startpos 7g7f"), Err(ParseError::Unexpected(_))));
        assert!(matches!(Command::parse("setoption USI_Hash"), Err(ParseError::Missing(_))));
        assert!(matches!(Command::parse("isready now"), Err(ParseError::Unexpected(_))));
        assert!(matches!(Command::parse("ponderhit soon"), Err(ParseError::Unexpected(_))));
    }
}
