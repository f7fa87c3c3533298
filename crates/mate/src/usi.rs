//! The USI `go mate` answer, for the USI loop to call.

use crate::{read_out_grace, Limits, MateResult, Solver};
use shogi::Position;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

/// Solves `pos` within `time` (`None`: infinite, until `stop` is set) and returns
/// the USI lines to send, the answer last: `checkmate <moves>`, `checkmate nomate`
/// (only when proven) or `checkmate timeout`; `checkmate notimplemented` for a
/// position that is not a mating problem (the side not to move in check, or
/// without a king). When the side to move is in check, the mate starts with its
/// reply. A mate the search had no time to prove shortest comes after an `info
/// string` that says so. The solver's read-out grace after its time limit is
/// kept inside `time`.
pub fn go_mate_answer(
    solver: &mut Solver,
    pos: &Position,
    time: Option<Duration>,
    stop: Arc<AtomicBool>,
) -> Vec<String> {
    // The solver may read its line out for a little after its time limit: keep
    // that inside the time the GUI gave.
    let (time, read_out) = match time {
        Some(t) => {
            let (solve, read_out) = split_time(t);
            (Some(solve), Some(read_out))
        }
        None => (None, None),
    };
    let limits = Limits { time, stop: Some(stop), read_out, ..Limits::default() };
    let report = solver.solve(pos, &limits);
    match &report.result {
        MateResult::Mate(pv) => {
            let moves: Vec<String> = pv.iter().map(|m| m.to_usi()).collect();
            let mut lines = Vec::new();
            if !report.shortest_proven {
                lines.push(not_shortest_note(pv.len(), report.proven_longer_than(pv.len())));
            }
            lines.push(format!("checkmate {}", moves.join(" ")));
            lines
        }
        MateResult::NoMate => vec!["checkmate nomate".to_string()],
        MateResult::Timeout => vec!["checkmate timeout".to_string()],
        MateResult::Invalid(_) => vec!["checkmate notimplemented".to_string()],
    }
}

/// `total` shared between the search and the read-out after it: the solver's
/// own grace, but never more than a quarter of the whole.
pub fn split_time(total: Duration) -> (Duration, Duration) {
    let read_out = read_out_grace(total).min(total / 4);
    (total - read_out, read_out)
}

/// What a GUI should know of a mate not proven shortest: the search stopped
/// first, and (when the line read out is shorter than the mate proven, `proven`)
/// some defence in the line is not the longest.
fn not_shortest_note(line_len: usize, proven: Option<usize>) -> String {
    let mut note = format!(
        "info string mate in {line_len} plies, not proven the shortest: the search stopped first"
    );
    if let Some(proven) = proven {
        note.push_str(&format!(
            "; a mate within {proven} plies is proven, and some defence in this line is not the longest"
        ));
    }
    note
}

#[cfg(test)]
mod tests {
    use super::split_time;
    use std::time::Duration;

    /// The search and the read-out share the time given, the read-out at most a
    /// quarter of it (a 100 ms `go mate` answers within 100 ms).
    #[test]
    fn the_read_out_is_kept_inside_the_time_given() {
        let ms = Duration::from_millis;
        for (total, read_out) in
            [(ms(0), ms(0)), (ms(100), ms(25)), (ms(400), ms(100)), (ms(10_000), ms(500))]
        {
            let (solve, grace) = split_time(total);
            assert_eq!((solve + grace, grace), (total, read_out), "{total:?}");
        }
    }

    use super::*;

    #[test]
    fn a_mate_not_proven_shortest_is_announced_and_a_short_line_flagged() {
        let note = not_shortest_note(27, None);
        assert_eq!(
            note,
            "info string mate in 27 plies, not proven the shortest: the search stopped first"
        );
        let note = not_shortest_note(401, Some(639));
        assert!(note.ends_with(
            "; a mate within 639 plies is proven, and some defence in this line is not the longest"
        ));
    }
}
