//! `go mate`: answered by the df-pn checkmate solver (crates/mate).

use mate::Solver;
use shogi::Position;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The `go mate` solver of a session and the table size it was made with. It is
/// made at the first `go mate` and kept: making (and freeing) a table of several
/// GiB takes seconds, which the answer should not wait for each time.
pub type MateSlot = Mutex<Option<(usize, Solver)>>;

/// Solves `pos` within `time_ms` (`None`: until `stop` sets the flag) with a table of
/// `hash_mb` MiB, and returns the USI lines to send, the answer last: `checkmate
/// <moves>`, `checkmate nomate` (proved, or the side to move is in check: USI asks
/// for its mate) or `checkmate timeout`. The time counts from the call, so making
/// the table is part of it (it takes no time: see the `table` crate).
pub fn answer(
    slot: &MateSlot,
    pos: &Position,
    time_ms: Option<u64>,
    hash_mb: usize,
    stop: Arc<AtomicBool>,
) -> Vec<String> {
    let start = Instant::now();
    if pos.in_check() {
        // USI asks for a mate by the side to move; in check (or mated) it has none.
        return vec!["checkmate nomate".to_string()];
    }
    let hash_mb = hash_mb.max(1);
    let Ok(mut slot) = slot.lock() else {
        return vec!["checkmate timeout".to_string()];
    };
    if slot.as_ref().is_none_or(|(mb, _)| *mb != hash_mb) {
        // Free the old table before making the new one.
        *slot = None;
        match Solver::try_new_lazy(hash_mb) {
            Some(solver) => *slot = Some((hash_mb, solver)),
            None => {
                return vec![
                    format!("info string error: cannot allocate a mate table of {hash_mb} MiB"),
                    "checkmate timeout".to_string(),
                ]
            }
        }
    }
    let Some((_, solver)) = slot.as_mut() else {
        return vec!["checkmate timeout".to_string()];
    };
    let time = time_ms.map(|ms| Duration::from_millis(ms).saturating_sub(start.elapsed()));
    mate::go_mate_answer(solver, pos, time, stop)
}
