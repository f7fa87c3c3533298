//! Stopping: the signals the protocol thread sends (stop, ponderhit) and the main
//! search thread's view of the clock.

use crate::limits::Limits;
use crate::time::{Clock, TimeOptions, TimePlan, TimeShares};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Shared between the protocol thread and the search.
#[derive(Default)]
pub struct Signals {
    stop: AtomicBool,
    pondering: AtomicBool,
    /// Set by `ponderhit`: when it came, and the clock it carried (early ponder).
    ponderhit: Mutex<Option<(Instant, Option<Clock>)>>,
}

impl Signals {
    pub fn new() -> Signals {
        Signals::default()
    }

    /// Prepares for a new `go` (`ponder`: it is a `go ponder`).
    pub fn reset(&self, ponder: bool) {
        self.stop.store(false, Ordering::SeqCst);
        self.pondering.store(ponder, Ordering::SeqCst);
        if let Ok(mut p) = self.ponderhit.lock() {
            *p = None;
        }
    }

    pub fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
    }

    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    pub fn is_pondering(&self) -> bool {
        self.pondering.load(Ordering::Relaxed)
    }

    /// The opponent played the expected move: the search goes on, now on our clock
    /// (`clock`, when the GUI sent times with the `ponderhit`).
    pub fn ponderhit(&self, clock: Option<Clock>) {
        self.ponderhit_at(Instant::now(), clock);
    }

    /// [`Signals::ponderhit`] received at `at` (the tests' clock).
    pub(crate) fn ponderhit_at(&self, at: Instant, clock: Option<Clock>) {
        if let Ok(mut p) = self.ponderhit.lock() {
            *p = Some((at, clock));
        }
        self.pondering.store(false, Ordering::SeqCst);
    }

    fn take_ponderhit(&self) -> Option<(Instant, Option<Clock>)> {
        self.ponderhit.lock().ok().and_then(|mut p| p.take())
    }
}

/// The main thread's time keeping.
pub(crate) struct Control<'a> {
    pub signals: &'a Signals,
    pub start: Instant,
    /// When our clock started running: `go`, or `ponderhit` after a ponder.
    clock_start: Instant,
    plan: Option<TimePlan>,
    pondering: bool,
    /// `go movetime`: use all of it, no early stop between iterations.
    fixed: bool,
    opts: TimeOptions,
    game_ply: u32,
}

impl<'a> Control<'a> {
    pub fn new(signals: &'a Signals, limits: &Limits, opts: TimeOptions) -> Control<'a> {
        let start = Instant::now();
        Control {
            signals,
            start,
            clock_start: start,
            plan: plan_for(limits.clock, limits.movetime, &opts, limits.game_ply),
            pondering: limits.ponder,
            fixed: limits.movetime.is_some(),
            opts,
            game_ply: limits.game_ply,
        }
    }

    /// Notices a `ponderhit`. Returns true while still pondering.
    pub fn poll(&mut self) -> bool {
        if self.pondering && !self.signals.is_pondering() {
            self.pondering = false;
            if let Some((at, clock)) = self.signals.take_ponderhit() {
                self.clock_start = at;
                if clock.is_some() {
                    self.plan = plan_for(clock, None, &self.opts, self.game_ply);
                }
            }
        }
        self.pondering
    }

    /// How the budget is shared out.
    pub fn shares(&self) -> TimeShares {
        self.opts.shares
    }

    /// Past the hard limit: stop now, mid-iteration.
    pub fn must_stop(&mut self) -> bool {
        self.must_stop_at(Instant::now())
    }

    /// [`Control::must_stop`] at the time `now` (the tests' clock).
    fn must_stop_at(&mut self, now: Instant) -> bool {
        if self.signals.stopped() {
            return true;
        }
        if self.poll() {
            return false;
        }
        match self.plan {
            Some(p) => now.saturating_duration_since(self.clock_start) >= p.maximum,
            None => false,
        }
    }

    /// After an iteration: is it time to move? `factor` stretches the optimum for
    /// unstable searches; `next_share` is how much of the budget the next iteration
    /// may still start within.
    pub fn iteration_done(&mut self, factor: f64, next_share: f64) -> bool {
        self.iteration_done_at(Instant::now(), factor, next_share)
    }

    /// [`Control::iteration_done`] at the time `now` (the tests' clock).
    fn iteration_done_at(&mut self, now: Instant, factor: f64, next_share: f64) -> bool {
        if self.poll() || self.fixed {
            return false;
        }
        match self.plan {
            // A plan without slack (pure byoyomi) is spent to its end.
            Some(p) if p.optimum >= p.maximum => false,
            Some(p) => {
                let used = now.saturating_duration_since(self.clock_start).as_secs_f64();
                let target = (p.optimum.as_secs_f64() * factor).min(p.maximum.as_secs_f64());
                used >= target * next_share
            }
            None => false,
        }
    }
}

fn plan_for(
    clock: Option<Clock>,
    movetime: Option<Duration>,
    opts: &TimeOptions,
    game_ply: u32,
) -> Option<TimePlan> {
    if let Some(t) = movetime {
        return Some(TimePlan::fixed(t.as_millis() as u64, opts));
    }
    clock.map(|c| TimePlan::new(c, opts, game_ply))
}

#[cfg(test)]
mod tests {
    use super::*;

    const OPTS: TimeOptions = TimeOptions {
        network_delay_ms: 0,
        network_delay2_ms: 0,
        minimum_thinking_ms: 0,
        shares: crate::time::TimeShares::DEFAULT,
    };

    fn clock(remaining_ms: u64, byoyomi_ms: u64, increment_ms: u64) -> Clock {
        Clock { remaining_ms, byoyomi_ms, increment_ms }
    }

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    fn limits(clock: Option<Clock>, ponder: bool) -> Limits {
        Limits { clock, ponder, multipv: 1, game_ply: 30, ..Limits::default() }
    }

    #[test]
    fn the_plan_comes_from_the_clock_or_movetime() {
        let signals = Signals::new();
        let c = Control::new(&signals, &limits(Some(clock(60_000, 0, 0)), false), OPTS);
        assert_eq!(c.plan, Some(TimePlan::new(clock(60_000, 0, 0), &OPTS, 30)));
        assert!(!c.fixed);
        let movetime = Limits { movetime: Some(Duration::from_millis(500)), ..limits(None, false) };
        let c = Control::new(&signals, &movetime, OPTS);
        assert_eq!(c.plan, Some(TimePlan::fixed(500, &OPTS)));
        assert!(c.fixed);
        assert_eq!(Control::new(&signals, &limits(None, false), OPTS).plan, None);
    }

    #[test]
    fn must_stop_on_the_signal_and_past_the_maximum_only() {
        let signals = Signals::new();
        let mut c = Control::new(&signals, &limits(Some(clock(0, 50, 0)), false), OPTS);
        let go = c.clock_start;
        assert!(!c.must_stop_at(go));
        assert!(!c.must_stop_at(go + ms(49)));
        assert!(c.must_stop_at(go + ms(50)));
        // Without a clock only the signal stops it.
        let mut c = Control::new(&signals, &limits(None, false), OPTS);
        assert!(!c.must_stop_at(c.clock_start + ms(10_000)));
        signals.stop();
        assert!(c.must_stop_at(c.clock_start));
    }

    #[test]
    fn iteration_done_at_the_stretched_optimum_times_the_share() {
        let signals = Signals::new();
        // 60 s sudden death at ply 30: 2.9 s kept back, optimum 57 100 / 55 =
        // 1038 ms, maximum 5.71 s.
        let mut c = Control::new(&signals, &limits(Some(clock(60_000, 0, 0)), false), OPTS);
        assert_eq!(c.plan.map(|p| p.optimum), Some(Duration::from_millis(1038)));
        // The next iteration may start until 0.5 x 1038 ms = 519 ms have gone.
        let go = c.clock_start;
        assert!(!c.iteration_done_at(go + ms(518), 1.0, 0.5));
        assert!(c.iteration_done_at(go + ms(519), 1.0, 0.5));
        // Twice as unstable: twice as long.
        assert!(!c.iteration_done_at(go + ms(1037), 2.0, 0.5));
        assert!(c.iteration_done_at(go + ms(1038), 2.0, 0.5));
        // The stretch never goes past the maximum: 5.71 s x 0.5.
        assert!(!c.iteration_done_at(go + ms(2854), 100.0, 0.5));
        assert!(c.iteration_done_at(go + ms(2856), 100.0, 0.5));
        // Pure byoyomi and movetime are spent to the end.
        let mut c = Control::new(&signals, &limits(Some(clock(0, 1000, 0)), false), OPTS);
        assert!(!c.iteration_done_at(c.clock_start + ms(990), 1.0, 0.0));
        let movetime = Limits { movetime: Some(Duration::from_millis(100)), ..limits(None, false) };
        let mut c = Control::new(&signals, &movetime, OPTS);
        assert!(!c.iteration_done_at(c.clock_start + ms(10_000), 1.0, 0.0));
    }

    #[test]
    fn pondering_never_stops_on_time_until_ponderhit() {
        let signals = Signals::new();
        signals.reset(true);
        let mut c = Control::new(&signals, &limits(Some(clock(0, 100, 0)), true), OPTS);
        let late = c.clock_start + ms(10_000);
        assert!(!c.must_stop_at(late));
        assert!(!c.iteration_done_at(late, 1.0, 0.0));
        assert!(c.poll());
        // `stop` ends a ponder search too.
        signals.stop();
        assert!(c.must_stop_at(late));
    }

    #[test]
    fn ponderhit_starts_the_clock_and_replans_with_its_times() {
        let signals = Signals::new();
        signals.reset(true);
        let mut c = Control::new(&signals, &limits(Some(clock(10_000, 0, 0)), true), OPTS);
        let hit = c.start + ms(20);
        signals.ponderhit_at(hit, Some(clock(5_000, 0, 1_000)));
        assert!(!c.poll());
        assert_eq!(c.plan, Some(TimePlan::new(clock(5_000, 0, 1_000), &OPTS, 30)));
        // Our clock runs from the ponderhit, not from `go ponder`.
        assert_eq!(c.clock_start, hit);
        // Without times the plan of `go ponder` stands, from the ponderhit.
        signals.reset(true);
        let mut c = Control::new(&signals, &limits(Some(clock(10_000, 0, 0)), true), OPTS);
        signals.ponderhit(None);
        assert!(!c.poll());
        assert_eq!(c.plan, Some(TimePlan::new(clock(10_000, 0, 0), &OPTS, 30)));
    }
}
