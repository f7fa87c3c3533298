//! Losing on time: every clock a GUI or server uses is driven over USI, and each
//! move's time, from `go` (or `ponderhit`) to `bestmove` as the test process sees
//! it, is held to the longest a move may take as docs/usi.md ("Time per move")
//! gives it for the first move with the default options. The figures below are
//! that page's, worked by hand where it gives the rule and not the figure.
//!
//! The allowance over the longest time covers starting the clock in this process
//! and the pipes; the engine itself keeps `NetworkDelay2` (100 ms by default)
//! back for the same.

use crate::common::{assert_legal, Gui};
use crate::{allowed, alone};
use shogi::Position;
use std::time::{Duration, Instant};

/// What a move may take beyond the longest, before the scale factor.
const ALLOWANCE_MS: u64 = 150;

/// Sends `go …` at the start and returns the time to the legal `bestmove`.
fn timed_move(gui: &mut Gui, go: &str) -> Duration {
    gui.send("position startpos");
    let start = Instant::now();
    gui.send(go);
    let line = gui.expect("bestmove", Duration::from_secs(30));
    let took = start.elapsed();
    assert_legal(&Position::startpos(), &line);
    took
}

/// Checks that `took` is at least `least_ms` and at most `longest_ms` plus the
/// allowance.
fn within(what: &str, took: Duration, least_ms: u64, longest_ms: u64) {
    let most = Duration::from_millis(longest_ms) + allowed(ALLOWANCE_MS);
    assert!(
        took >= Duration::from_millis(least_ms) && took <= most,
        "{what}: {took:?}, expected {least_ms} ms to {longest_ms} ms (+{:?})",
        allowed(ALLOWANCE_MS)
    );
}

#[test]
fn every_clock_is_kept() {
    let _alone = alone();
    let mut gui = Gui::start();
    gui.handshake();
    gui.send("setoption name USI_Hash value 16");
    gui.send("isready");
    gui.expect("readyok", Duration::from_secs(10));

    // 1 s byoyomi: the period less NetworkDelay2 (0.9 s), all of it.
    let took = timed_move(&mut gui, "go btime 0 wtime 0 byoyomi 1000");
    within("byoyomi 1 s", took, 850, 900);

    // 4 s + 0.5 s byoyomi: a tenth of the main time plus the period, 0.4 + 0.5 s.
    let took = timed_move(&mut gui, "go btime 4000 wtime 4000 byoyomi 500");
    within("4 s + 0.5 s", took, 0, 900);

    // 2 s + 1 s Fischer: the table's 1.2 s.
    let took = timed_move(&mut gui, "go btime 2000 wtime 2000 binc 1000 winc 1000");
    within("2 s + 1 s", took, 0, 1200);

    // 10 s sudden death: the table's 0.68 s (682 ms).
    let took = timed_move(&mut gui, "go btime 10000 wtime 10000");
    within("10 s sudden death", took, 0, 682);

    // Nearly out of time: 30 ms left, at most half of it is spent.
    let took = timed_move(&mut gui, "go btime 30 wtime 30");
    within("30 ms left", took, 0, 15);

    // movetime: all of it (NetworkDelay is 0 by default).
    let took = timed_move(&mut gui, "go movetime 500");
    within("movetime 500", took, 450, 500);

    // Ponder, then ponderhit with the times: the clock runs from the ponderhit;
    // 0.6 s byoyomi less NetworkDelay2.
    gui.send("setoption name USI_Ponder value true");
    gui.send("position startpos");
    gui.send("go ponder btime 0 wtime 0 byoyomi 600");
    let early = gui.drain(Duration::from_millis(1000));
    assert!(early.iter().all(|l| !l.starts_with("bestmove")), "{early:?}");
    let start = Instant::now();
    gui.send("ponderhit btime 0 wtime 0 byoyomi 600");
    let line = gui.expect("bestmove", Duration::from_secs(5));
    let took = start.elapsed();
    assert_legal(&Position::startpos(), &line);
    within("ponderhit, byoyomi 0.6 s", took, 450, 500);

    // Early ponder: no times with `go ponder`, sudden death times with
    // `ponderhit`. 3 s: a tenth of what the reserve leaves (20 ms for each of the
    // 159 moves the longest game may still have, at most nine tenths of the
    // clock), 30 ms.
    gui.send("position startpos");
    gui.send("go ponder");
    let early = gui.drain(Duration::from_millis(500));
    assert!(early.iter().all(|l| !l.starts_with("bestmove")), "{early:?}");
    let start = Instant::now();
    gui.send("ponderhit btime 3000 wtime 3000");
    let line = gui.expect("bestmove", Duration::from_secs(5));
    let took = start.elapsed();
    assert_legal(&Position::startpos(), &line);
    within("early ponder, 3 s sudden death", took, 0, 30);
    gui.quit();
}
