//! Before the alpha-beta search of a game move, a short df-pn search for a mate
//! from the root. Shogi endgames are decided by mates of a dozen plies or more,
//! beyond what the alpha-beta search sees in a second; the checkmate solver finds
//! many of them in a few milliseconds.
//!
//! A mate found is played only if its line repeats no position of the game: the
//! solver knows nothing of the game before the root, and a line through an earlier
//! position could end in a repetition (a loss, with continuous checks) instead of
//! mate. Since every probe move leads to a position the game has not seen, probe
//! moves never repeat a position, and each one keeps a proven mate on the board.

use mate::{Limits as MateLimits, MateResult, Solver};
use search::time::Clock;
use search::Limits;
use shogi::{Move, Position};
use std::time::Duration;

/// Table size of the probe's solver (kept from move to move).
pub const PROBE_HASH_MB: usize = 16;
/// The probe's share of the time the move may take.
const SHARE: u32 = 10;
/// At most this long, however long the move may take.
const MAX_PROBE: Duration = Duration::from_millis(300);
/// Below this, no probe.
const MIN_PROBE: Duration = Duration::from_millis(5);

/// How long to probe before searching with `limits`: only for a game move with a
/// time limit (not ponder, infinite, depth or node searches, whose answers must
/// not depend on timing).
pub fn budget(limits: &Limits) -> Option<Duration> {
    if limits.ponder || limits.infinite || limits.depth.is_some() || limits.nodes.is_some() {
        return None;
    }
    let move_time = match (limits.movetime, limits.clock) {
        (Some(t), _) => t,
        (None, Some(c)) if c.byoyomi_ms > 0 => Duration::from_millis(c.byoyomi_ms),
        (None, Some(c)) => {
            Duration::from_millis((c.remaining_ms / 50).saturating_add(c.increment_ms))
        }
        (None, None) => return None,
    };
    let probe = (move_time / SHARE).min(MAX_PROBE);
    (probe >= MIN_PROBE).then_some(probe)
}

/// A mate from `pos` (side to move attacking) found within `time`, whose line
/// repeats no earlier position of the game (`pos` carries the game's history).
pub fn find(solver: &mut Solver, pos: &Position, time: Duration) -> Option<Vec<Move>> {
    if pos.in_check() {
        return None;
    }
    // The read-out after the time limit stays inside the probe's time too.
    let (solve, read_out) = mate::split_time(time);
    let limits = MateLimits {
        time: Some(solve),
        read_out: Some(read_out),
        shortest: false,
        ..MateLimits::default()
    };
    match solver.solve(pos, &limits).result {
        MateResult::Mate(line) if !line.is_empty() && repeats_nothing(pos, &line) => Some(line),
        _ => None,
    }
}

/// Whether playing `line` from `pos` never comes back to a position seen before
/// (in the game or earlier in the line).
fn repeats_nothing(pos: &Position, line: &[Move]) -> bool {
    let mut p = pos.clone();
    line.iter().all(|&m| {
        p.do_move(m);
        p.repetition(usize::MAX).is_none()
    })
}

/// `limits` with `spent` taken off the time the move may take: the clock counts
/// the probe too.
pub fn charge(limits: &mut Limits, spent: Duration) {
    if let Some(t) = limits.movetime.as_mut() {
        *t = t.saturating_sub(spent);
    }
    if let Some(c) = limits.clock.as_mut() {
        let ms = spent.as_millis() as u64;
        let from_main = ms.min(c.remaining_ms);
        *c = Clock {
            remaining_ms: c.remaining_ms - from_main,
            byoyomi_ms: c.byoyomi_ms.saturating_sub(ms - from_main),
            increment_ms: c.increment_ms,
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock(remaining_ms: u64, byoyomi_ms: u64) -> Limits {
        let clock = Clock { remaining_ms, byoyomi_ms, increment_ms: 0 };
        Limits { clock: Some(clock), multipv: 1, ..Limits::default() }
    }

    #[test]
    fn the_budget_is_a_share_of_the_move_and_only_for_timed_moves() {
        assert_eq!(budget(&clock(0, 1000)), Some(Duration::from_millis(100)));
        assert_eq!(budget(&clock(0, 10_000)), Some(MAX_PROBE));
        assert_eq!(budget(&clock(0, 40)), None);
        assert_eq!(budget(&Limits::depth(5)), None);
        let mut ponder = clock(0, 1000);
        ponder.ponder = true;
        assert_eq!(budget(&ponder), None);
    }

    #[test]
    fn huge_clock_fields_do_not_overflow() {
        let clock = Clock { remaining_ms: u64::MAX, byoyomi_ms: 0, increment_ms: u64::MAX };
        let limits = Limits { clock: Some(clock), multipv: 1, ..Limits::default() };
        assert_eq!(budget(&limits), Some(MAX_PROBE));
        let mut limits = limits;
        charge(&mut limits, Duration::from_secs(1));
    }

    #[test]
    fn the_probe_is_charged_to_the_main_time_then_to_byoyomi() {
        let mut limits = clock(30, 1000);
        charge(&mut limits, Duration::from_millis(100));
        let c = limits.clock.unwrap();
        assert_eq!((c.remaining_ms, c.byoyomi_ms), (0, 930));
    }

    #[test]
    fn a_mate_is_found_and_none_where_there_is_none() {
        let mut solver = Solver::new(PROBE_HASH_MB);
        // Mate in 1 (G*5b) with a pawn on 5c.
        let pos = Position::from_sfen("4k4/9/4P4/9/9/9/9/9/K8 b G 1").unwrap();
        let line = find(&mut solver, &pos, Duration::from_secs(1)).expect("a mate");
        assert_eq!(line.iter().map(|m| m.to_usi()).collect::<Vec<_>>(), ["G*5b"]);
        // A lone gold cannot mate.
        let pos = Position::from_sfen("4k4/9/9/9/9/9/9/9/K8 b G 1").unwrap();
        assert!(find(&mut solver, &pos, Duration::from_secs(1)).is_none());
    }

    #[test]
    fn a_line_back_to_a_position_of_the_game_repeats() {
        let mut pos = Position::startpos();
        for text in ["5i5h", "5a5b"] {
            let m = pos.parse_usi_move(text).unwrap();
            pos.do_move(m);
        }
        let moves = |texts: &[&str]| {
            let mut p = pos.clone();
            let mut line = Vec::new();
            for text in texts {
                let m = p.parse_usi_move(text).unwrap();
                p.do_move(m);
                line.push(m);
            }
            line
        };
        assert!(!repeats_nothing(&pos, &moves(&["5h5i", "5b5a"])));
        assert!(repeats_nothing(&pos, &moves(&["5h5i", "5b4b"])));
    }
}
