//! The engine's words to the GUI: `info` lines, `bestmove`, errors and warnings.

use super::command::shorten;
use super::send;
use search::tt::Bound;
use search::value::Score;
use search::Info;
use shogi::Move;

/// At most this many characters of an error are sent.
const ERROR_CHARS: usize = 300;

/// Sends `info string error: …`: what went wrong, play goes on.
pub fn error(msg: impl std::fmt::Display) {
    send(&format!("info string error: {}", shorten(&msg.to_string(), ERROR_CHARS)));
}

/// Sends `info string warning: …`: what was ignored or done instead.
pub fn warning(msg: impl std::fmt::Display) {
    send(&format!("info string warning: {}", shorten(&msg.to_string(), ERROR_CHARS)));
}

/// One `info` line. `multipv` is printed only when several lines are asked for.
pub fn info_line(info: &Info<Move>, show_multipv: bool) -> String {
    info_line_with(info, show_multipv, |m| m.to_usi())
}

/// One `info` line for any game's moves, `usi` writing a move of the `pv`.
pub fn info_line_with<M>(info: &Info<M>, show_multipv: bool, usi: impl Fn(&M) -> String) -> String {
    let score = match Score::from_value(info.score) {
        Score::Cp(cp) => format!("cp {cp}"),
        Score::Mate(n) => format!("mate {n}"),
    };
    let bound = match info.bound {
        Some(Bound::Lower) => " lowerbound",
        Some(Bound::Upper) => " upperbound",
        _ => "",
    };
    let multipv = if show_multipv { format!(" multipv {}", info.multipv) } else { String::new() };
    let pv: Vec<String> = info.pv.iter().map(usi).collect();
    format!(
        "info depth {} seldepth {} time {} nodes {} nps {} hashfull {} score {}{}{} pv {}",
        info.depth,
        info.seldepth,
        info.time_ms,
        info.nodes,
        info.nps,
        info.hashfull,
        score,
        bound,
        multipv,
        pv.join(" ")
    )
}

/// What to answer after a search.
pub enum Answer {
    Move { best: Move, ponder: Option<Move> },
    Resign,
    Win,
}

pub fn bestmove_line(answer: &Answer) -> String {
    match answer {
        Answer::Resign => "bestmove resign".to_string(),
        Answer::Win => "bestmove win".to_string(),
        Answer::Move { best, ponder: Some(p) } => {
            format!("bestmove {} ponder {}", best.to_usi(), p.to_usi())
        }
        Answer::Move { best, ponder: None } => format!("bestmove {}", best.to_usi()),
    }
}
