//! The tests that time a real `kyobo` process: how long a move, a `stop` or a
//! mate search takes as a GUI or a server sees it, and whether threads search
//! together. They are a binary of their own so that nothing else runs beside them
//! (`cargo test` runs one test binary at a time), and inside it they take turns
//! ([`alone`]).
//!
//! Every allowance is what the test allows on an idle two-core machine, times
//! one scale factor: `KYOBO_TIME_SCALE` (default 1; 2 on a slow or busy machine
//! doubles every allowance). The engine's own promises are measured apart, as
//! medians, by `tools/stop_latency.py` and the benchmarks.

#[path = "../common.rs"]
mod common;

mod clock;
mod csa;
mod csa_server;
mod usi;

use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

/// The scale factor of every allowance: `KYOBO_TIME_SCALE`, default 1.
///
/// # Panics
/// When the variable is set to anything but a positive number.
pub fn time_scale() -> f64 {
    match std::env::var("KYOBO_TIME_SCALE") {
        Err(_) => 1.0,
        Ok(text) => match text.trim().parse::<f64>() {
            Ok(x) if x > 0.0 && x.is_finite() => x,
            _ => panic!("KYOBO_TIME_SCALE must be a positive number, not '{text}'"),
        },
    }
}

/// What a test allows for something promised to take about `ms` milliseconds
/// with room for the process and its pipes, scaled by [`time_scale`].
pub fn allowed(ms: u64) -> Duration {
    Duration::from_secs_f64(ms as f64 / 1000.0 * time_scale())
}

/// Held for the whole of a timed test, so that no two of them run at once.
pub fn alone() -> MutexGuard<'static, ()> {
    static LOCK: Mutex<()> = Mutex::new(());
    // A test that failed while holding the lock leaves it poisoned: the next
    // test may still run.
    LOCK.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}
