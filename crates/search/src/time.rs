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

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimeOptions {
    pub network_delay_ms: u64,
    pub network_delay2_ms: u64,
    pub minimum_thinking_ms: u64,
    /// How the budget is shared out (an algorithm's own, see
    /// `Searcher::time_shares`).
    pub shares: TimeShares,
}

impl Default for TimeOptions {
    /// For a GUI on the same machine: no usual lag, and a tenth of a second kept
    /// back for the worst (a loaded machine, the pipes, the GUI's own clock).
    fn default() -> Self {
        TimeOptions {
            network_delay_ms: 0,
            network_delay2_ms: 100,
            minimum_thinking_ms: 0,
            shares: TimeShares::DEFAULT,
        }
    }
}

/// The time manager's shares and factors. PVS declares them as tunable
/// parameters (`PvsParams`); these defaults are its values.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimeShares {
    /// Own moves expected at the game's start; one fewer every two plies.
    pub moves_left: u64,
    /// Own moves expected, at least.
    pub moves_left_min: u64,
    /// At most the usable main time over this goes into one move, on top of
    /// the byoyomi or increment that comes back with every move.
    pub main_time_share: u64,
    /// The optimum is stretched by this for each change of best move (up to four).
    pub instability: f64,
    /// The optimum's share once the best move has held three iterations.
    pub stable3: f64,
    /// The optimum's share once it has held six.
    pub stable6: f64,
    /// No iteration starts past this share of the stretched optimum: the next
    /// costs a few times the last.
    pub next_iteration: f64,
}

impl TimeShares {
    pub const DEFAULT: TimeShares = TimeShares {
        moves_left: 70,
        moves_left_min: 20,
        main_time_share: 10,
        instability: 0.5,
        stable3: 0.8,
        stable6: 0.6,
        next_iteration: 0.55,
    };
}

impl Default for TimeShares {
    fn default() -> Self {
        TimeShares::DEFAULT
    }
}

/// The budget for one move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimePlan {
    pub optimum: Duration,
    pub maximum: Duration,
}

/// The least a move is planned to take (a search of a ply or two).
const FLOOR_MS: u64 = 2;
/// What a move costs beyond its search, as a GUI's clock sees it (the pipes, the
/// threads, a loaded machine): main time is kept back for this much a move for
/// the moves a game may still have, where no byoyomi or increment covers it.
const OVERHEAD_PER_MOVE_MS: u64 = 20;
/// Games are adjudicated by this ply at the latest (GUIs, floodgate: 256-320).
const LONGEST_GAME_PLY: u64 = 320;
/// Clock fields beyond this (about 35 years) are read as this: no arithmetic on
/// them can overflow.
const CLOCK_CAP_MS: u64 = 1 << 40;

impl TimePlan {
    /// Exactly `ms` less the usual lag, never under half of it (for `go movetime`).
    pub fn fixed(ms: u64, opts: &TimeOptions) -> TimePlan {
        let ms = ms.min(CLOCK_CAP_MS);
        let t = ms.saturating_sub(opts.network_delay_ms.min(ms / 2)).max(FLOOR_MS);
        TimePlan { optimum: Duration::from_millis(t), maximum: Duration::from_millis(t) }
    }

    /// The plan for a move at SFEN move number `game_ply`.
    ///
    /// - Where no byoyomi or increment pays for it, main time is kept back for
    ///   what every move still to come costs beyond its search (20 ms a move
    ///   until ply 320, at most nine tenths of what is left); the rest is *usable*.
    /// - The *maximum* is what may go into this move without losing: at most a
    ///   tenth of the usable main time plus the byoyomi or the increment (both
    ///   come back with every move), and never past the clock less
    ///   `network_delay2` (itself at most half of what is left).
    /// - The *optimum* shares the usable main time over the moves still expected,
    ///   plus the byoyomi and three quarters of the increment, less
    ///   `network_delay`; it is raised to `minimum_thinking` as far as the maximum
    ///   allows.
    /// - With byoyomi alone, a period is lost when unused: both are the whole
    ///   period less the worst lag.
    pub fn new(clock: Clock, opts: &TimeOptions, game_ply: u32) -> TimePlan {
        let remaining = clock.remaining_ms.min(CLOCK_CAP_MS);
        let byoyomi = clock.byoyomi_ms.min(CLOCK_CAP_MS);
        let inc = clock.increment_ms.min(CLOCK_CAP_MS);
        // Moves of ours still to come; shogi games run 100-150 plies.
        let shares = &opts.shares;
        let moves_left = shares
            .moves_left
            .saturating_sub(u64::from(game_ply) / 2)
            .max(shares.moves_left_min)
            .max(1);

        // The clock's edge: USI adds the increment after the move, so only the main
        // time and the byoyomi can be spent now.
        let on_clock = remaining + byoyomi;
        // With an increment and no byoyomi the clock can stay near one increment
        // for many moves, and a move that overruns its stop (a loaded machine) has
        // only the lag's margin: a fifth of the clock is kept back as well.
        let kept_back = if byoyomi == 0 && inc > 0 {
            opts.network_delay2_ms.max(on_clock / 5)
        } else {
            opts.network_delay2_ms
        };
        let safety = kept_back.min(on_clock / 2);
        let hard = on_clock - safety;
        let moves_possible = (LONGEST_GAME_PLY.saturating_sub(u64::from(game_ply)) / 2).max(20);
        let uncovered = OVERHEAD_PER_MOVE_MS.saturating_sub(byoyomi + inc);
        let reserve = (uncovered * moves_possible).min(remaining / 10 * 9);
        let usable = remaining - reserve;
        let share = usable / shares.main_time_share.max(1) + byoyomi + inc;
        let maximum = share.max(FLOOR_MS).min(hard);

        let optimum = if remaining == 0 && byoyomi > 0 {
            maximum
        } else {
            let planned = (usable / moves_left + byoyomi + inc * 3 / 4)
                .saturating_sub(opts.network_delay_ms)
                .max(opts.minimum_thinking_ms.min(maximum));
            planned.clamp(FLOOR_MS.min(maximum), maximum)
        };
        TimePlan {
            optimum: Duration::from_millis(optimum),
            maximum: Duration::from_millis(maximum),
        }
    }
}

/// How far past the optimum to go on this iteration: more while the best move keeps
/// changing, less when it has been stable for a while.
pub fn instability_factor(
    best_move_changes: f64,
    stable_iterations: u32,
    shares: &TimeShares,
) -> f64 {
    let unstable = 1.0 + best_move_changes.min(4.0) * shares.instability;
    let stable = if stable_iterations >= 6 {
        shares.stable6
    } else if stable_iterations >= 3 {
        shares.stable3
    } else {
        1.0
    };
    unstable * stable
}

#[cfg(test)]
mod tests {
    use super::*;

    const OPTS: TimeOptions = TimeOptions {
        network_delay_ms: 100,
        network_delay2_ms: 500,
        minimum_thinking_ms: 0,
        shares: TimeShares::DEFAULT,
    };

    fn ms(p: TimePlan) -> (u64, u64) {
        (p.optimum.as_millis() as u64, p.maximum.as_millis() as u64)
    }

    fn plan_at(remaining: u64, byoyomi: u64, inc: u64, opts: &TimeOptions, ply: u32) -> (u64, u64) {
        let clock = Clock { remaining_ms: remaining, byoyomi_ms: byoyomi, increment_ms: inc };
        ms(TimePlan::new(clock, opts, ply))
    }

    fn plan(remaining: u64, byoyomi: u64, inc: u64) -> (u64, u64) {
        plan_at(remaining, byoyomi, inc, &OPTS, 30)
    }

    #[test]
    fn pure_byoyomi_uses_the_period_less_the_worst_lag() {
        assert_eq!(plan(0, 3000, 0), (2500, 2500));
        // At most half the period is kept back.
        assert_eq!(plan(0, 600, 0), (300, 300));
        // The defaults, for a GUI on the same machine: a 1 s byoyomi is used to 0.9 s.
        assert_eq!(plan_at(0, 1000, 0, &TimeOptions::default(), 30), (900, 900));
        assert_eq!(plan_at(0, 10_000, 0, &TimeOptions::default(), 30), (9900, 9900));
    }

    #[test]
    fn main_time_and_byoyomi() {
        // 60 s + 10 s at move 1: 60 000 / 70 + 10 000 - 100 = 10 757 planned; at most
        // a tenth of the main time on top of the period (worst case 16 s, not 54 s).
        assert_eq!(plan_at(60_000, 10_000, 0, &OPTS, 1), (10_757, 16_000));
        // With 5 s of main time left: 5000/55 + 10 000 - 100; 500 + 10 000 at most.
        assert_eq!(plan(5_000, 10_000, 0), (9_990, 10_500));
        // The clock's edge bounds everything: 100 ms + 1 s less 500 ms of lag.
        assert_eq!(plan(100, 1_000, 0), (600, 600));
    }

    #[test]
    fn sudden_death_spends_a_small_share() {
        // 10 s at move 30: 145 moves may come, 20 ms each kept back (2.9 s); of
        // the 7.1 s usable, 7 100 / 55 - 100 = 29 ms planned, a tenth at most (was 9 s).
        assert_eq!(plan(10_000, 0, 0), (29, 710));
        assert_eq!(plan_at(10_000, 0, 0, &TimeOptions::default(), 30), (129, 710));
        // 10 minutes: 10.8 s planned, a minute at most.
        assert_eq!(plan(600_000, 0, 0), (10_756, 59_710));
        // Nearly out of time: nine tenths kept back, the floor, never past the clock.
        assert_eq!(plan(50, 0, 0), (2, 2));
        assert_eq!(plan(3, 0, 0), (2, 2));
        assert_eq!(plan(0, 0, 0), (0, 0));
        // Late in a game less is kept back: 20 moves at least.
        assert_eq!(plan_at(10_000, 0, 0, &OPTS, 300), (380, 960));
        for remaining in [5u64, 50, 500, 5_000, 60_000, 600_000] {
            let (opt, max) = plan(remaining, 0, 0);
            assert!(max <= (remaining / 10).max(FLOOR_MS), "{remaining}: {max}");
            assert!(opt <= max);
        }
    }

    #[test]
    fn fischer_spends_the_increment() {
        // 2 s + 1 s: 2000 / 55 + 750 - 100 = 686; 200 + 1000 = 1200 at most.
        assert_eq!(plan(2_000, 0, 1_000), (686, 1_200));
        // The increment comes after the move: it cannot be spent before it comes.
        assert_eq!(plan(300, 0, 1_000), (150, 150));
        // 5 minutes + 10 s (floodgate): 300 000 / 55 + 7500 - 100; 40 s at most.
        assert_eq!(plan(300_000, 0, 10_000), (12_854, 40_000));
        // Near one increment on the clock a fifth of it is kept back: 1 239 ms
        // (a 2 s + 1 s game's closest call) allows 992 ms, not 1 139.
        let d = TimeOptions::default();
        assert_eq!(plan_at(1_239, 0, 1_000, &d, 30), (772, 992));
        for remaining in [200u64, 1_000, 1_500, 3_000] {
            let (_, max) = plan_at(remaining, 0, 1_000, &d, 30);
            assert!(max <= remaining - remaining / 5, "{remaining}: {max}");
        }
    }

    #[test]
    fn minimum_thinking_time_is_kept_within_the_maximum() {
        let opts = TimeOptions {
            network_delay_ms: 0,
            network_delay2_ms: 0,
            minimum_thinking_ms: 3000,
            ..OPTS
        };
        assert_eq!(plan_at(600_000, 0, 0, &opts, 1), (8_526, 59_682));
        let opts = TimeOptions { minimum_thinking_ms: 20_000, ..opts };
        assert_eq!(plan_at(600_000, 0, 0, &opts, 1), (20_000, 59_682));
        // Never past the maximum: 10 s sudden death still spends at most 0.78 s.
        assert_eq!(plan_at(10_000, 0, 0, &opts, 100), (780, 780));
    }

    #[test]
    fn later_moves_get_a_larger_share() {
        let (early, _) = plan_at(100_000, 0, 0, &OPTS, 1);
        let (late, _) = plan_at(100_000, 0, 0, &OPTS, 120);
        assert_eq!((early, late), (1_283, 4_800));
    }

    #[test]
    fn huge_clock_fields_do_not_overflow() {
        let (opt, max) = plan(u64::MAX, u64::MAX, u64::MAX);
        assert!(opt <= max);
        assert_eq!(max, 2 * CLOCK_CAP_MS - 500);
        assert_eq!(ms(TimePlan::fixed(u64::MAX, &OPTS)).0, CLOCK_CAP_MS - 100);
    }

    #[test]
    fn movetime_is_used_less_the_usual_lag() {
        assert_eq!(ms(TimePlan::fixed(1000, &OPTS)), (900, 900));
        assert_eq!(ms(TimePlan::fixed(100, &OPTS)), (50, 50));
        assert_eq!(ms(TimePlan::fixed(0, &OPTS)), (2, 2));
    }

    /// The table of docs/usi.md ("Time per move"): the optimum and the maximum at
    /// the first move with the default options (and floodgate's for floodgate).
    #[test]
    fn the_readme_table() {
        let d = TimeOptions::default();
        let floodgate = TimeOptions { network_delay_ms: 120, network_delay2_ms: 1120, ..OPTS };
        let rows = [
            ((0, 1_000, 0), &d, (900, 900)),
            ((0, 10_000, 0), &d, (9_900, 9_900)),
            ((600_000, 30_000, 0), &d, (38_571, 90_000)),
            ((60_000, 10_000, 0), &d, (10_857, 16_000)),
            ((10_000, 0, 0), &d, (97, 682)),
            ((300_000, 0, 0), &d, (4_240, 29_682)),
            ((2_000, 0, 1_000), &d, (778, 1_200)),
            ((300_000, 0, 10_000), &floodgate, (11_665, 40_000)),
        ];
        for ((r, b, i), opts, expected) in rows {
            assert_eq!(plan_at(r, b, i, opts, 1), expected, "{r} + {b} byoyomi + {i} increment");
        }
    }

    #[test]
    fn instability_stretches_the_budget() {
        let d = TimeShares::DEFAULT;
        assert_eq!(instability_factor(0.0, 0, &d), 1.0);
        assert_eq!(instability_factor(3.0, 0, &d), 2.5);
        assert_eq!(instability_factor(10.0, 0, &d), 3.0);
        assert_eq!(instability_factor(0.0, 3, &d), 0.8);
        assert_eq!(instability_factor(0.0, 8, &d), 0.6);
        let calm = TimeShares { instability: 0.25, stable3: 0.9, stable6: 0.5, ..d };
        assert_eq!(instability_factor(2.0, 0, &calm), 1.5);
        assert_eq!(instability_factor(0.0, 4, &calm), 0.9);
        assert_eq!(instability_factor(0.0, 6, &calm), 0.5);
    }

    #[test]
    fn the_shares_set_the_plan() {
        // 60 s of main time at ply 30: 20 ms a move is kept back for 145 moves
        // (2.9 s), leaving 57.1 s usable. The optimum is that over 70 − 15 = 55
        // moves, less the 100 ms lag (1,038 − 100); the maximum a tenth of it.
        assert_eq!(plan_at(60_000, 0, 0, &OPTS, 30), (938, 5_710));
        // 45 − 15 = 30 moves (1,903 − 100), a fifth at most.
        let shares = TimeShares { moves_left: 45, main_time_share: 5, ..TimeShares::DEFAULT };
        assert_eq!(plan_at(60_000, 0, 0, &TimeOptions { shares, ..OPTS }, 30), (1_803, 11_420));
        // At ply 100 (110 moves kept for, 57.8 s usable) the floor decides:
        // 20 moves by default (2,890 − 100), 40 with the floor raised (1,445 − 100).
        assert_eq!(plan_at(60_000, 0, 0, &OPTS, 100), (2_790, 5_780));
        let shares = TimeShares { moves_left_min: 40, ..TimeShares::DEFAULT };
        assert_eq!(plan_at(60_000, 0, 0, &TimeOptions { shares, ..OPTS }, 100), (1_345, 5_780));
    }
}
