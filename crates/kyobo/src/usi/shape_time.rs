//! The bad-shape check's time (see `shogi_game::shape_rule`): with `BadShapeCheck` on, a
//! timed move's main search plans with nine tenths of the clock, so that a second
//! search of the best move against its candidates fits in what is left of the
//! move's time (a fifth cost the main search more than the check was worth: the
//! check replaces about one move in three games). Untimed searches check at a ply less, or with a quarter of the
//! nodes; pondering and infinite searches are answered without the check.

use search::time::{TimeOptions, TimePlan};
use search::Limits;
use std::time::Duration;

/// The limits of the main search: the clock's fields (and `movetime`) at nine
/// tenths.
pub fn main_limits(limits: &Limits) -> Limits {
    let scale = |ms: u64| ms / 10 * 9;
    let mut main = limits.clone();
    if let Some(c) = main.clock.as_mut() {
        c.remaining_ms = scale(c.remaining_ms);
        c.byoyomi_ms = scale(c.byoyomi_ms);
        c.increment_ms = scale(c.increment_ms);
    }
    main.movetime = main.movetime.map(|t| t / 10 * 9);
    main
}

/// The second search's limits, after a main search that reached `depth` in
/// `elapsed`, or `None` when there is no time for it (or it is a ponder or
/// infinite search).
pub fn check_limits(
    limits: &Limits,
    depth: i32,
    elapsed: Duration,
    opts: &TimeOptions,
) -> Option<Limits> {
    if limits.ponder || limits.infinite {
        return None;
    }
    let base = Limits { multipv: 1, game_ply: limits.game_ply, ..Limits::default() };
    let plan = match (limits.movetime, limits.clock) {
        (Some(t), _) => Some(TimePlan::fixed(t.as_millis() as u64, opts)),
        (None, Some(c)) => Some(TimePlan::new(c, opts, limits.game_ply)),
        (None, None) => None,
    };
    if let Some(plan) = plan {
        let left = plan.maximum.saturating_sub(elapsed);
        if left < Duration::from_millis(20) {
            return None;
        }
        let share = (elapsed / 3).clamp(Duration::from_millis(10), left);
        return Some(Limits { movetime: Some(share), depth: Some(depth.max(1)), ..base });
    }
    if let Some(n) = limits.nodes {
        return Some(Limits { nodes: Some((n / 4).max(1)), ..base });
    }
    Some(Limits { depth: Some((depth - 1).max(1)), ..base })
}

#[cfg(test)]
mod tests {
    use super::*;
    use search::time::Clock;

    fn timed(byoyomi_ms: u64) -> Limits {
        let clock = Clock { remaining_ms: 0, byoyomi_ms, increment_ms: 0 };
        Limits { clock: Some(clock), multipv: 1, game_ply: 40, ..Limits::default() }
    }

    #[test]
    fn the_main_search_plans_with_nine_tenths_of_the_clock() {
        let main = main_limits(&timed(1000));
        assert_eq!(main.clock.map(|c| c.byoyomi_ms), Some(900));
        let opts = TimeOptions::default();
        // 1 s byoyomi: 900 ms may be used; after 700 ms, 200 ms are left and the
        // check gets a third of the 700.
        let check = check_limits(&timed(1000), 12, Duration::from_millis(700), &opts);
        assert_eq!(check.and_then(|l| l.movetime), Some(Duration::from_millis(200)));
        let check = check_limits(&timed(1000), 12, Duration::from_millis(300), &opts);
        assert_eq!(check.and_then(|l| l.movetime), Some(Duration::from_millis(100)));
        // Nothing left: no check.
        assert!(check_limits(&timed(1000), 12, Duration::from_millis(890), &opts).is_none());
    }

    #[test]
    fn untimed_searches_check_a_ply_shallower_and_ponder_never() {
        let opts = TimeOptions::default();
        let depth = check_limits(&Limits::depth(9), 9, Duration::ZERO, &opts);
        assert_eq!(depth.and_then(|l| l.depth), Some(8));
        let nodes = Limits { nodes: Some(40_000), multipv: 1, ..Limits::default() };
        let check = check_limits(&nodes, 9, Duration::ZERO, &opts);
        assert_eq!(check.and_then(|l| l.nodes), Some(10_000));
        let ponder = Limits { ponder: true, ..timed(1000) };
        assert!(check_limits(&ponder, 9, Duration::ZERO, &opts).is_none());
    }
}
