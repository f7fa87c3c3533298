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
    /// `go searchmoves m1 m2 …`: only these root moves (USI spelling, checked
    /// against the position later).
    pub searchmoves: Vec<String>,
    /// What was ignored, one note each (unknown tokens, numbers that are not).
    pub warnings: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Usi,
    /// shogiarena's `usi_tunables`: the parameters a tuner may move, with their
    /// ranges and steps.
    UsiTunables,
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
    /// `ponderhit` with the clock fields it carried, and what was ignored.
    PonderHit(ClockFields, Vec<String>),
    GameOver(String),
    Quit,
    /// `d`: the board, side to move, hands and SFEN (for people at a terminal).
    Display,
    /// `moves`: the legal moves.
    Moves,
    /// `eval`: the static evaluation and its main terms.
    Eval,
    /// `shape`: the position's bad-shape moves and why.
    Shape,
    /// `help`: the commands.
    Help,
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
            ParseError::UnknownCommand(c) => {
                write!(f, "unknown command '{}' (help lists them)", excerpt(c))
            }
            ParseError::Missing(what) => write!(f, "missing {what}"),
            ParseError::BadNumber { field, text } => {
                write!(f, "'{}' is not a valid number for {field}", excerpt(text))
            }
            ParseError::Unexpected(t) => write!(f, "unexpected '{}'", excerpt(t)),
        }
    }
}

/// At most this many characters of the input are quoted back.
const EXCERPT_CHARS: usize = 40;

/// A short, printable quote of input for an error message: at most
/// `EXCERPT_CHARS` characters, control characters escaped, `…` where it was cut.
pub fn excerpt(text: &str) -> String {
    shorten(text, EXCERPT_CHARS)
}

/// `text` cut to `max_chars` characters (`…` where it was cut), control
/// characters escaped (`\u{7}`, `\t`).
pub fn shorten(text: &str, max_chars: usize) -> String {
    let mut out = String::new();
    for (i, c) in text.chars().enumerate() {
        if i == max_chars {
            out.push('…');
            break;
        }
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

fn number(field: &str, token: Option<&str>) -> Result<u64, ParseError> {
    let text = token
        .ok_or_else(|| ParseError::BadNumber { field: field.to_string(), text: String::new() })?;
    let bad = || ParseError::BadNumber { field: field.to_string(), text: text.to_string() };
    // Some GUIs send negative remaining times when a clock runs out: treat as 0.
    let (negative, digits) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text.strip_prefix('+').unwrap_or(text)),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad());
    }
    if negative {
        return Ok(0);
    }
    // Digits beyond u64 mean "a very long time": the largest value.
    Ok(digits.parse().unwrap_or(u64::MAX))
}

/// Whether `token` would be read as a number by [`number`].
fn is_number(token: &str) -> bool {
    number("", Some(token)).is_ok()
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

/// `go`'s fields. Never an error: every `go` must be answered by one `bestmove`
/// (or `checkmate`), so what cannot be read is ignored with a warning. A field
/// whose number is missing or malformed leaves the next token to be read as a key.
/// The words that start a `go` parameter (and so end a `searchmoves` list).
fn is_go_keyword(token: &str) -> bool {
    matches!(
        token,
        "btime"
            | "wtime"
            | "byoyomi"
            | "binc"
            | "winc"
            | "movetime"
            | "depth"
            | "nodes"
            | "infinite"
            | "ponder"
            | "mate"
            | "searchmoves"
    )
}

fn parse_go<'a>(tokens: impl Iterator<Item = &'a str>) -> GoParams {
    let mut go = GoParams::default();
    let mut tokens = tokens.peekable();
    while let Some(key) = tokens.next() {
        let takes_number = matches!(
            key,
            "btime" | "wtime" | "byoyomi" | "binc" | "winc" | "movetime" | "depth" | "nodes"
        );
        if takes_number {
            let Some(value) = tokens.next_if(|t| is_number(t)) else {
                go.warnings.push(format!("'{key}' needs a number: ignored"));
                continue;
            };
            let mut one = std::iter::once(value);
            if let Ok(true) = clock_field(key, &mut one, &mut go.clock) {
                continue;
            }
            let n = number(key, Some(value)).unwrap_or(0);
            match key {
                "movetime" => go.movetime = Some(n),
                "depth" => go.depth = Some(n.min(u64::from(u32::MAX)) as u32),
                _ => go.nodes = Some(n),
            }
            continue;
        }
        match key {
            "infinite" => go.infinite = true,
            "ponder" => go.ponder = true,
            "searchmoves" => {
                while let Some(m) = tokens.next_if(|t| !is_go_keyword(t)) {
                    go.searchmoves.push(m.to_string());
                }
            }
            "mate" => {
                go.mate = Some(match tokens.next_if(|t| *t == "infinite" || is_number(t)) {
                    Some("infinite") | None => None,
                    Some(t) => number("mate", Some(t)).ok(),
                })
            }
            other => go.warnings.push(format!("unknown go parameter '{}' ignored", excerpt(other))),
        }
    }
    go
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
            "usi_tunables" => no_more(tokens, Command::UsiTunables),
            "isready" => no_more(tokens, Command::IsReady),
            "usinewgame" => no_more(tokens, Command::UsiNewGame),
            "stop" => no_more(tokens, Command::Stop),
            "quit" => no_more(tokens, Command::Quit),
            "setoption" => parse_setoption(tokens),
            "position" => parse_position(tokens),
            "go" => Ok(Command::Go(parse_go(tokens))),
            "d" => no_more(tokens, Command::Display),
            "moves" => no_more(tokens, Command::Moves),
            "eval" => no_more(tokens, Command::Eval),
            "shape" => no_more(tokens, Command::Shape),
            "help" => no_more(tokens, Command::Help),
            "ponderhit" => {
                // Like `go`, never refused: the ponder search must be released.
                let go = parse_go(tokens);
                let mut warnings = go.warnings;
                if go.movetime.is_some() || go.depth.is_some() || go.nodes.is_some() {
                    warnings.push("ponderhit takes only clock fields: the others ignored".into());
                }
                if go.infinite || go.ponder || go.mate.is_some() {
                    warnings.push("ponderhit takes only clock fields: the others ignored".into());
                }
                Ok(Command::PonderHit(go.clock, warnings))
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
        assert_eq!(Command::parse("usi_tunables"), Ok(Command::UsiTunables));
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
            Ok(Command::PonderHit(
                ClockFields { btime: Some(5), wtime: Some(6), ..ClockFields::default() },
                Vec::new()
            ))
        );
        assert_eq!(Command::parse("gameover win"), Ok(Command::GameOver("win".into())));
    }

    fn go(line: &str) -> GoParams {
        match Command::parse(line) {
            Ok(Command::Go(go)) => go,
            other => panic!("{line}: {other:?}"),
        }
    }

    #[test]
    fn every_go_is_a_go_with_what_could_not_be_read_noted() {
        let g = go("go btime x wtime 100");
        assert_eq!((g.clock.btime, g.clock.wtime), (None, Some(100)));
        assert_eq!(
            g.warnings,
            ["'btime' needs a number: ignored", "unknown go parameter 'x' ignored"]
        );
        let g = go("go depth");
        assert_eq!((g.depth, g.warnings.len()), (None, 1));
        let g = go("go fast byoyomi 1000");
        assert_eq!(g.clock.byoyomi, Some(1000));
        assert_eq!(g.warnings, ["unknown go parameter 'fast' ignored"]);
        // A missing number leaves the next key to be read.
        let g = go("go movetime infinite");
        assert!(g.infinite && g.movetime.is_none());
        // Too many digits: the largest value; negative times: zero.
        assert_eq!(go("go nodes 99999999999999999999999").nodes, Some(u64::MAX));
        assert_eq!(go("go btime -500").clock.btime, Some(0));
        assert_eq!(go("go mate").mate, Some(None));
        assert_eq!(go("go mate 300").mate, Some(Some(300)));
        let g = go("go mate soon");
        assert_eq!(g.mate, Some(None));
        assert_eq!(g.warnings.len(), 1);
    }

    #[test]
    fn excerpts_are_short_and_escaped() {
        assert_eq!(excerpt("abc"), "abc");
        assert_eq!(excerpt("a\x07b\tc'"), "a\\u{7}b\\tc'");
        let long = "x".repeat(1 << 20);
        assert_eq!(excerpt(&long).chars().count(), EXCERPT_CHARS + 1);
        let e = Command::parse(&long).unwrap_err().to_string();
        assert!(e.len() < 100, "{e}");
    }

    #[test]
    fn refuses_malformed_lines() {
        assert!(matches!(Command::parse("hello"), Err(ParseError::UnknownCommand(_))));
        assert!(matches!(Command::parse("position"), Err(ParseError::Missing(_))));
        assert!(matches!(Command::parse("position startpos 7g7f"), Err(ParseError::Unexpected(_))));
        assert!(matches!(Command::parse("setoption USI_Hash"), Err(ParseError::Missing(_))));
        assert!(matches!(Command::parse("isready now"), Err(ParseError::Unexpected(_))));
        assert!(
            matches!(Command::parse("ponderhit soon"), Ok(Command::PonderHit(_, w)) if w.len() == 1)
        );
    }
}
