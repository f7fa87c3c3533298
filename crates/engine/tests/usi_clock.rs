//! Losing on time: every clock a GUI or server uses is driven over USI, and each
//! move's time, from `go` (or `ponderhit`) to `bestmove` as the test process sees
//! it, is held to the budget `search::time::TimePlan` gives for it with the
//! engine's default options. All the clocks run in one test, one after another,
//! so that no other test of this file competes for the CPU meanwhile.
//!
//! The allowance over the budget covers starting the clock in this process, the
//! pipes and a loaded two-core machine; the engine itself keeps `NetworkDelay2`
//! (100 ms by default) back for the same.

mod common;

use common::{assert_legal, position_after, Gui};
use search::time::{Clock, TimeOptions, TimePlan};
use std::time::{Duration, Instant};

/// What a move may take beyond the plan's maximum, as measured here.
const ALLOWANCE: Duration = Duration::from_millis(250);

/// The plan's maximum for `clock` at the test position (move 3).
fn maximum(clock: Clock) -> Duration {
    TimePlan::new(clock, &TimeOptions::default(), 3).maximum
}

/// Sends `go …` in the position after two moves and returns the time to the
/// legal `bestmove`.
fn timed_move(gui: &mut Gui, go: &str) -> Duration {
    let (cmd, pos) = position_after(&["7g7f".into(), "3c3d".into()]);
    gui.send(&cmd);
    let start = Instant::now();
    gui.send(go);
    let line = gui.expect("bestmove", Duration::from_secs(30));
    let took = start.elapsed();
    assert_legal(&pos, &line);
    took
}

fn within(what: &str, took: Duration, least: Duration, budget: Duration) {
    assert!(
        took >= least && took <= budget + ALLOWANCE,
        "{what}: {took:?}, expected {least:?} to {budget:?} (+{ALLOWANCE:?})"
    );
}

#[test]
fn every_clock_is_kept() {
    let mut gui = Gui::start();
    gui.handshake();
    gui.send("setoption name USI_Hash value 16");
    gui.send("isready");
    gui.expect("readyok", Duration::from_secs(10));

    // Byoyomi only: the period less NetworkDelay2 is used, all of it.
    let b = Clock { remaining_ms: 0, byoyomi_ms: 1000, increment_ms: 0 };
    assert_eq!(maximum(b), Duration::from_millis(900));
    let took = timed_move(&mut gui, "go btime 0 wtime 0 byoyomi 1000");
    within("byoyomi 1 s", took, Duration::from_millis(850), maximum(b));

    // Main time and byoyomi: at most a tenth of the main time plus the period.
    let mb = Clock { remaining_ms: 4000, byoyomi_ms: 500, increment_ms: 0 };
    let took = timed_move(&mut gui, "go btime 4000 wtime 4000 byoyomi 500");
    within("4 s + 0.5 s", took, Duration::ZERO, maximum(mb));

    // Fischer: a tenth of the main time plus the increment at most.
    let f = Clock { remaining_ms: 2000, byoyomi_ms: 0, increment_ms: 1000 };
    let took = timed_move(&mut gui, "go btime 2000 wtime 2000 binc 1000 winc 1000");
    within("2 s + 1 s", took, Duration::ZERO, maximum(f));

    // Sudden death: a tenth of what is left at most.
    let sd = Clock { remaining_ms: 5000, byoyomi_ms: 0, increment_ms: 0 };
    let took = timed_move(&mut gui, "go btime 5000 wtime 5000");
    within("5 s sudden death", took, Duration::ZERO, maximum(sd));
    // Nearly out of time.
    let took = timed_move(&mut gui, "go btime 30 wtime 30");
    within("30 ms left", took, Duration::ZERO, Duration::from_millis(15));

    // movetime: all of it (NetworkDelay is 0 by default).
    let took = timed_move(&mut gui, "go movetime 500");
    within("movetime 500", took, Duration::from_millis(450), Duration::from_millis(500));

    // Ponder, then ponderhit with the times: the clock runs from the ponderhit.
    gui.send("setoption name USI_Ponder value true");
    let (cmd, pos) = position_after(&["7g7f".into(), "3c3d".into()]);
    gui.send(&cmd);
    gui.send("go ponder btime 0 wtime 0 byoyomi 600");
    let early = gui.drain(Duration::from_millis(1000));
    assert!(early.iter().all(|l| !l.starts_with("bestmove")), "{early:?}");
    let start = Instant::now();
    gui.send("ponderhit btime 0 wtime 0 byoyomi 600");
    let line = gui.expect("bestmove", Duration::from_secs(5));
    let took = start.elapsed();
    assert_legal(&pos, &line);
    let pb = Clock { remaining_ms: 0, byoyomi_ms: 600, increment_ms: 0 };
    within("ponderhit, byoyomi 0.6 s", took, Duration::from_millis(450), maximum(pb));

    // Early ponder: no times with `go ponder`, sudden death times with `ponderhit`.
    gui.send(&cmd);
    gui.send("go ponder");
    let early = gui.drain(Duration::from_millis(500));
    assert!(early.iter().all(|l| !l.starts_with("bestmove")), "{early:?}");
    let start = Instant::now();
    gui.send("ponderhit btime 3000 wtime 3000");
    let line = gui.expect("bestmove", Duration::from_secs(5));
    let took = start.elapsed();
    assert_legal(&pos, &line);
    let psd = Clock { remaining_ms: 3000, byoyomi_ms: 0, increment_ms: 0 };
    within("early ponder, 3 s sudden death", took, Duration::ZERO, maximum(psd));
    gui.quit();
}
