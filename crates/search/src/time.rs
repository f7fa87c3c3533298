//! Time management: how long to think about one move.
//!
//! The clock may hold main time, byoyomi (time per move once main time is gone) and a
//! Fischer increment (already added to the main time for this move, as USI sends it).
//! Two durations come out: the *optimum*, after which no new iteration starts and the
//! search stops once it is stable, and the *maximum*, a hard stop that never loses
//! on time.
//!
//! - `network_delay`: the usual lag between our `bestmove` and the server's clock;
//!   taken off the optimum.
//! - `network_delay2`: the worst lag; taken off the hard maximum, which is what a time
//!   loss depends on.
//! - `minimum_thinking_time`: never plan less than this (if the clock allows).

use std::time::Duration;

/// The clock of the side to move, in milliseconds as USI gives them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    pub remaining_ms: u64,
    pub byoyomi_ms: u64,
    pub increment_ms: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeOptions {
    pub network_delay_ms: u64,
    pub network_delay2_ms: u64,
    pub minimum_thinking_ms: u64,
}

impl Default for TimeOptions {
    fn default() -> Self {
        TimeOptions { network_delay_ms: 120, network_delay2_ms: 1120, minimum_thinking_ms: 2000 }
    }
}

/// The budget for one move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimePlan {
    pub optimum: Duration,
    pub maximum: Duration,
}

/// Below this the engine would rather move at once than risk the clock.
const FLOOR_MS: u64 = 10;

impl TimePlan {
    /// Exactly `ms` (for `go movetime`).
    pub fn fixed(ms: u64, opts: &TimeOptions) -> TimePlan {
        let t = ms.saturating_sub(opts.network_delay_ms.min(ms / 2)).max(FLOOR_MS);
        TimePlan { optimum: Duration::from_millis(t), maximum: Duration::from_millis(t) }
    }

    /// The plan for a move at SFEN move number `game_ply`.
    pub fn new(clock: Clock, opts: &TimeOptions, game_ply: u32) -> TimePlan {
        let remaining = clock.remaining_ms;
        let byoyomi = clock.byoyomi_ms;
        let inc = clock.increment_ms;
        // Moves we still expect to play; shogi games run 100-150 plies.
        let ply = u64::from(game_ply);
        let moves_left = (70u64.saturating_sub(ply / 2)).max(20);

        // The hard limit: everything we may use without losing, with the worst lag.
        let hard_total = remaining + byoyomi;
        let safety = opts.network_delay2_ms.min(hard_total / 2);
        let mut maximum = hard_total.saturating_sub(safety);

        let mut optimum = if byoyomi > 0 {
            // Byoyomi is lost if unused: spend it all, plus a share of main time.
            remaining / moves_left + byoyomi
        } else {
            remaining / moves_left + inc * 3 / 4
        };
        optimum = optimum.saturating_sub(opts.network_delay_ms);
        optimum = optimum.max(opts.minimum_thinking_ms);

        // Never plan to spend more than a fraction of main time on one move.
        let cap = if byoyomi > 0 { remaining / 4 + byoyomi } else { remaining / 4 + inc };
        maximum = maximum.min((optimum * 5).max(cap.min(maximum)));
        let pure_byoyomi = byoyomi > 0 && remaining == 0;
        if pure_byoyomi {
            // Pure byoyomi: the whole period is ours every move.
            maximum = hard_total.saturating_sub(safety);
        }
        maximum = maximum.max(FLOOR_MS);
        optimum = optimum.min(maximum).max(FLOOR_MS.min(maximum));
        if pure_byoyomi {
            // Time left unused in a period is lost: plan to use all of it (an
            // optimum equal to the maximum means "no early stop").
            optimum = maximum;
        }
        TimePlan {
            optimum: Duration::from_millis(optimum),
            maximum: Duration::from_millis(maximum),
        }
    }
}

/// How far past the optimum to go on this iteration: more while the best move keeps
/// changing, less when it has been stable for a while.
pub fn instability_factor(best_move_changes: f64, stable_iterations: u32) -> f64 {
    let unstable = 1.0 + best_move_changes.min(4.0) * 0.5;
    let stable = if stable_iterations >= 6 {
        0.6
    } else if stable_iterations >= 3 {
        0.8
    } else {
        1.0
    };
    unstable * stable
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(remaining: u64, byoyomi: u64, inc: u64) -> TimePlan {
        TimePlan::new(
            Clock { remaining_ms: remaining, byoyomi_ms: byoyomi, increment_ms: inc },
            &TimeOptions { network_delay_ms: 100, network_delay2_ms: 500, minimum_thinking_ms: 0 },
            30,
        )
    }

    #[test]
    fn pure_byoyomi_uses_the_period_minus_the_worst_lag() {
        let p = plan(0, 3000, 0);
        assert_eq!(p.maximum, Duration::from_millis(2500));
        assert_eq!(p.optimum, p.maximum);
    }

    #[test]
    fn sudden_death_never_plans_past_the_clock() {
        for remaining in [0u64, 5, 50, 500, 5_000, 60_000, 600_000] {
            let p = plan(remaining, 0, 0);
            assert!(p.maximum.as_millis() as u64 <= remaining.max(FLOOR_MS));
            assert!(p.optimum <= p.maximum);
        }
        let p = plan(600_000, 0, 0);
        assert!(p.optimum > Duration::from_secs(5));
        assert!(p.maximum < Duration::from_secs(200));
    }

    #[test]
    fn increment_is_spent() {
        let p = plan(10_000, 0, 5_000);
        let q = plan(10_000, 0, 0);
        assert!(p.optimum > q.optimum);
        assert!(p.maximum.as_millis() <= 10_000);
    }

    #[test]
    fn minimum_thinking_time_is_respected_when_possible() {
        let opts =
            TimeOptions { network_delay_ms: 0, network_delay2_ms: 0, minimum_thinking_ms: 3000 };
        let clock = Clock { remaining_ms: 600_000, byoyomi_ms: 0, increment_ms: 0 };
        assert!(TimePlan::new(clock, &opts, 100).optimum >= Duration::from_millis(3000));
        let short = Clock { remaining_ms: 1000, ..clock };
        assert!(TimePlan::new(short, &opts, 100).maximum <= Duration::from_millis(1000));
    }

    #[test]
    fn instability_stretches_the_budget() {
        assert!(instability_factor(3.0, 0) > instability_factor(0.0, 0));
        assert!(instability_factor(0.0, 8) < 1.0);
    }
}
