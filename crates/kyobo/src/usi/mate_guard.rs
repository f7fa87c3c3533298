//! The mate guard (`MateGuard`): after the search of a timed game move, a short
//! df-pn search for a mate of the opponent's after the chosen move. The
//! alpha-beta search of a second misses mates of a dozen plies that the
//! checkmate solver finds in milliseconds, and a move that allows one loses the
//! game. Where the solver proves such a mate, the next moves of the search's
//! order are tried the same way, and the first one after which it proves none
//! is played; where every move tried allows one, the search's move stays.
//!
//! With the guard on, a timed move's main search plans with 39/40 of the clock,
//! and the guard has the fortieth: over the positions after half the moves of 339
//! games, a solve took 0.12 ms (median), 16.4 ms on average (docs/BENCHMARKS.md,
//! mates allowed).

use mate::Solver;
use search::Limits;
use shogi::{Move, Position};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The guard's share of the move's time: one part in this many.
const SHARE: u64 = 40;
/// Moves tried after the search's own, at most.
const ALTERNATIVES: usize = 2;
/// Below this, no guard.
const MIN_GUARD: Duration = Duration::from_millis(5);
/// At most this long, however long the move may take.
const MAX_GUARD: Duration = Duration::from_millis(200);

/// The limits of the main search: the clock's fields (and `movetime`) at
/// 39/40.
pub fn main_limits(limits: &Limits) -> Limits {
    let scale = |ms: u64| ms / SHARE * (SHARE - 1);
    let mut main = limits.clone();
    if let Some(c) = main.clock.as_mut() {
        c.remaining_ms = scale(c.remaining_ms);
        c.byoyomi_ms = scale(c.byoyomi_ms);
        c.increment_ms = scale(c.increment_ms);
    }
    main.movetime = main.movetime.map(|t| t / SHARE as u32 * (SHARE as u32 - 1));
    main
}

/// The guard's time for a move searched with `limits`: a fortieth of what the
/// move may take; `None` for ponder, infinite, depth and node searches (whose
/// answers must not depend on timing) and where that is too short to solve.
pub fn budget(limits: &Limits) -> Option<Duration> {
    let time = (super::mate_probe::move_time(limits)? / SHARE as u32).min(MAX_GUARD);
    (time >= MIN_GUARD).then_some(time)
}

/// What the guard decided.
#[derive(Debug, PartialEq, Eq)]
pub struct Guarded {
    /// The move to play.
    pub chosen: Move,
    /// The moves passed over, each with the opponent's mate it allows.
    pub passed_over: Vec<(Move, Vec<Move>)>,
}

/// The first of `order` (the search's move first, then its next best) after
/// which the solver proves no mate for the opponent within its share of `time`;
/// `None` where the search's move is not proven to allow one, or every move
/// tried does (then the search's move stays). `stop` ends a solve early.
pub fn choose(
    solver: &mut Solver,
    pos: &Position,
    order: &[Move],
    time: Duration,
    stop: &Arc<AtomicBool>,
) -> Option<Guarded> {
    let start = Instant::now();
    let mut passed_over = Vec::new();
    for (i, &m) in order.iter().take(1 + ALTERNATIVES).enumerate() {
        // The search's move gets half the time, each alternative an equal share
        // of what is left.
        let left = time.saturating_sub(start.elapsed());
        let share = if i == 0 { time / 2 } else { left / (1 + ALTERNATIVES - i) as u32 };
        if share < MIN_GUARD / 2 {
            return None;
        }
        match opponent_mate(solver, pos, m, share, stop) {
            Some(line) => passed_over.push((m, line)),
            None if i == 0 => return None,
            None => return Some(Guarded { chosen: m, passed_over }),
        }
    }
    None
}

/// The opponent's mate after `m` from `pos`, if the solver proves one within
/// `time`. Not after a check (the opponent must answer it first).
fn opponent_mate(
    solver: &mut Solver,
    pos: &Position,
    m: Move,
    time: Duration,
    stop: &Arc<AtomicBool>,
) -> Option<Vec<Move>> {
    let mut after = pos.clone();
    after.do_move(m);
    super::mate_probe::mate_within(solver, &after, time, stop)
}

/// Black to move, its king on 5i and a rook on 2i; White has a silver on 5g
/// and a gold in hand. G*5h mates unless a Black piece can take on 5h: the
/// rook moved up the file (2i2c) allows it, the rook moved to 2h does not.
/// The position and those two moves.
#[cfg(test)]
pub(super) fn careless_rook() -> (Position, Move, Move) {
    shogi::attacks::init();
    let pos = Position::from_sfen("4k4/9/9/9/9/9/4s4/9/4K2R1 b g 1").expect("a legal SFEN");
    let usi = |s: &str| pos.parse_usi_move(s).expect("a legal move");
    let (careless, guarding) = (usi("2i2c"), usi("2i2h"));
    (pos, careless, guarding)
}

#[cfg(test)]
mod tests {
    use super::*;
    use search::time::Clock;

    fn timed(byoyomi_ms: u64) -> Limits {
        let clock = Clock { remaining_ms: 0, byoyomi_ms, increment_ms: 0 };
        Limits { clock: Some(clock), multipv: 1, game_ply: 40, ..Limits::default() }
    }

    fn stop() -> Arc<AtomicBool> {
        Arc::new(AtomicBool::new(false))
    }

    #[test]
    fn the_main_search_plans_with_39_40ths_and_the_guard_has_the_rest() {
        let main = main_limits(&timed(1000));
        assert_eq!(main.clock.map(|c| c.byoyomi_ms), Some(975));
        assert_eq!(budget(&timed(1000)), Some(Duration::from_millis(25)));
        // Capped for long moves, none for very short ones or untimed searches.
        assert_eq!(budget(&timed(60_000)), Some(MAX_GUARD));
        assert_eq!(budget(&timed(150)), None);
        assert_eq!(budget(&Limits { depth: Some(8), ..timed(1000) }), None);
        assert_eq!(budget(&Limits { ponder: true, ..timed(1000) }), None);
    }

    #[test]
    fn a_move_that_allows_a_mate_is_replaced_by_the_next_that_does_not() {
        let (pos, careless, guarding) = careless_rook();
        let time = Duration::from_secs(2);
        let mut solver = Solver::new(1);
        let guarded = choose(&mut solver, &pos, &[careless, guarding], time, &stop()).unwrap();
        assert_eq!(guarded.chosen, guarding);
        assert_eq!(guarded.passed_over.len(), 1);
        let (passed, line) = &guarded.passed_over[0];
        assert_eq!((*passed, line[0].to_usi()), (careless, "G*5h".to_string()));
        // The search's own move kept where it allows no mate.
        assert_eq!(choose(&mut solver, &pos, &[guarding, careless], time, &stop()), None);
    }

    /// Where every move tried allows a mate, the search's move stays.
    #[test]
    fn where_every_move_allows_a_mate_the_search_move_stays() {
        let (pos, careless, _) = careless_rook();
        let usi = |s: &str| pos.parse_usi_move(s).unwrap();
        let order = [careless, usi("2i2d"), usi("2i1i")];
        let mut solver = Solver::new(1);
        assert_eq!(choose(&mut solver, &pos, &order, Duration::from_secs(2), &stop()), None);
    }
}
