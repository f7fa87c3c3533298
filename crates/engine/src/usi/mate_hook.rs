//! `go mate`: answered by the df-pn checkmate solver (crates/mate).

use shogi::Position;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

/// Solves `pos` within `time_ms` (`None`: until `stop` sets the flag) with a table of
/// `hash_mb` MiB, and returns the USI lines to send, the answer last: `checkmate
/// <moves>`, `checkmate nomate` (only when proved) or `checkmate timeout`.
pub fn answer(
    pos: &Position,
    time_ms: Option<u64>,
    hash_mb: usize,
    stop: Arc<AtomicBool>,
) -> Vec<String> {
    let mut solver = mate::Solver::new(hash_mb.max(1));
    mate::go_mate_answer(&mut solver, pos, time_ms.map(Duration::from_millis), stop)
}
