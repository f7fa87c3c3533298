//! The USI `go mate` answer, for the USI loop to call.

use crate::{Limits, MateResult, Solver};
use shogi::Position;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

/// Solves `pos` within `time` (`None`: infinite, until `stop` is set) and returns
/// the USI line: `checkmate <moves>`, `checkmate nomate` (only when proven) or
/// `checkmate timeout`; `checkmate notimplemented` for a position that is not a
/// mating problem (the side not to move in check, or without a king). When the side
/// to move is in check, the mate starts with its reply.
pub fn go_mate_answer(
    solver: &mut Solver,
    pos: &Position,
    time: Option<Duration>,
    stop: Arc<AtomicBool>,
) -> String {
    let limits = Limits { time, stop: Some(stop), ..Limits::default() };
    match solver.solve(pos, &limits).result {
        MateResult::Mate(pv) => {
            let moves: Vec<String> = pv.iter().map(|m| m.to_usi()).collect();
            format!("checkmate {}", moves.join(" "))
        }
        MateResult::NoMate => "checkmate nomate".to_string(),
        MateResult::Timeout => "checkmate timeout".to_string(),
        MateResult::Invalid(_) => "checkmate notimplemented".to_string(),
    }
}
