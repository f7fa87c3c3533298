//! Stopping: the signals the protocol thread sends (stop, ponderhit) and the main
//! search thread's view of the clock.

use crate::limits::Limits;
use crate::time::{Clock, TimeOptions, TimePlan};
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
        if let Ok(mut p) = self.ponderhit.lock() {
            *p = Some((Instant::now(), clock));
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

    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Past the hard limit: stop now, mid-iteration.
    pub fn must_stop(&mut self) -> bool {
        if self.signals.stopped() {
            return true;
        }
        if self.poll() {
            return false;
        }
        match self.plan {
            Some(p) => self.clock_start.elapsed() >= p.maximum,
            None => false,
        }
    }

    /// After an iteration: is it time to move? `factor` stretches the optimum for
    /// unstable searches; `next_share` is how much of the budget the next iteration
    /// may still start within.
    pub fn iteration_done(&mut self, factor: f64, next_share: f64) -> bool {
        if self.poll() || self.fixed {
            return false;
        }
        match self.plan {
            // A plan without slack (pure byoyomi) is spent to its end.
            Some(p) if p.optimum >= p.maximum => false,
            Some(p) => {
                let used = self.clock_start.elapsed().as_secs_f64();
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
