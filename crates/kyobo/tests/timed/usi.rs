//! USI commands whose answer is timed: `stop`, `ponderhit`, `movetime`, the mate
//! search's limits, the mate probe's share of the byoyomi, and threads searching
//! together. Each test runs alone (see [`crate::alone`]) and its allowance over
//! the promised time is scaled by `KYOBO_TIME_SCALE` (see [`crate::allowed`]).

use crate::common::{
    assert_legal, assert_mate_line, bestmove_of, exactly_one_bestmove, position_after, Gui,
};
use crate::{allowed, alone};
use shogi::Position;
use std::time::{Duration, Instant};

const SECS: Duration = Duration::from_secs(1);

/// `stop` is answered at once. The promise of 50 ms is measured by
/// `tools/stop_latency.py` (medians over many tries); this test allows 200 ms.
#[test]
fn stop_during_infinite_answers_a_legal_move_at_once() {
    let _alone = alone();
    let mut gui = Gui::start();
    gui.handshake();
    let (cmd, pos) = position_after(&["7g7f".into(), "3c3d".into()]);
    gui.send(&cmd);
    gui.send("go infinite");
    gui.expect("info depth", SECS * 5);
    std::thread::sleep(Duration::from_millis(400));
    // Nothing may come before stop.
    assert!(gui.drain(Duration::from_millis(50)).iter().all(|l| !l.starts_with("bestmove")));
    let sent = Instant::now();
    gui.send("stop");
    let line = gui.expect("bestmove", SECS);
    let took = sent.elapsed();
    assert!(took < allowed(200), "stop answered after {took:?}");
    assert_legal(&pos, &line);
    gui.quit();
}

#[test]
fn ponder_then_ponderhit() {
    let _alone = alone();
    let mut gui = Gui::start();
    gui.handshake();
    gui.send("setoption name USI_Ponder value true");
    gui.send("setoption name NetworkDelay2 value 0");
    gui.send("setoption name MinimumThinkingTime value 0");
    let (cmd, pos) = position_after(&["2g2f".into(), "8c8d".into()]);
    gui.send(&cmd);
    gui.send("go ponder btime 0 wtime 0 byoyomi 300");
    // While pondering no bestmove, however long it takes.
    let early = gui.drain(Duration::from_millis(700));
    assert!(early.iter().all(|l| !l.starts_with("bestmove")), "{early:?}");
    gui.send("ponderhit");
    let line = gui.expect("bestmove", SECS * 2);
    assert_legal(&pos, &line);

    // Early ponder: no times with `go ponder`, the clock arrives with `ponderhit`.
    gui.send(&cmd);
    gui.send("go ponder");
    let early = gui.drain(Duration::from_millis(500));
    assert!(early.iter().all(|l| !l.starts_with("bestmove")), "{early:?}");
    let sent = Instant::now();
    gui.send("ponderhit btime 0 wtime 0 byoyomi 300");
    let line = gui.expect("bestmove", SECS * 2);
    assert!(sent.elapsed() < allowed(300 + 200), "{:?}", sent.elapsed());
    assert_legal(&pos, &line);
    gui.quit();
}

#[test]
fn go_nodes_and_movetime_are_honoured() {
    let _alone = alone();
    let mut gui = Gui::start();
    gui.handshake();
    gui.send("position startpos");
    gui.send("go nodes 5000");
    let line = gui.expect("bestmove", SECS * 5);
    assert_legal(&Position::startpos(), &line);
    gui.send("setoption name NetworkDelay value 0");
    let sent = Instant::now();
    gui.send("go movetime 300");
    let line = gui.expect("bestmove", SECS * 3);
    let took = sent.elapsed();
    assert!(took >= Duration::from_millis(250) && took < allowed(300 + 200), "{took:?}");
    assert_legal(&Position::startpos(), &line);
    gui.quit();
}

/// The nodes per second the engine reports at the end of `go movetime 800` from
/// the position after 7g7f 3c3d, with `threads` search threads.
fn reported_nps(threads: usize) -> u64 {
    let mut gui = Gui::start();
    gui.handshake();
    gui.send(&format!("setoption name Threads value {threads}"));
    gui.send("isready");
    gui.expect("readyok", SECS * 10);
    let (cmd, pos) = position_after(&["7g7f".into(), "3c3d".into()]);
    gui.send(&cmd);
    gui.send("go movetime 800");
    let lines = gui.lines_until("bestmove", SECS * 5);
    assert_legal(&pos, lines.last().expect("bestmove"));
    let nps = lines
        .iter()
        .rev()
        .find_map(|l| {
            let mut words = l.split_whitespace().skip_while(|w| *w != "nps");
            words.nth(1).and_then(|n| n.parse().ok())
        })
        .expect("an info line with nps");
    gui.quit();
    nps
}

/// With `Threads 2` on two free cores, both threads search: the nodes per
/// second reported (all threads' nodes) are well above one thread's.
#[test]
fn lazy_smp_threads_search_together() {
    let _alone = alone();
    if std::thread::available_parallelism().map_or(1, |n| n.get()) < 2 {
        eprintln!("skipped lazy_smp_threads_search_together: needs two cores");
        return;
    }
    let one = reported_nps(1);
    let two = reported_nps(2);
    assert!(two as f64 > 1.4 * one as f64, "1 thread {one} nps, 2 threads {two} nps");
}

#[test]
fn go_mate_answers_mate_nomate_and_timeout() {
    let _alone = alone();
    let mut gui = Gui::start();
    gui.handshake();
    // A 7-ply problem: the answer is replayed.
    let problem = "+N1R6/1k7/9/2B6/9/9/9/9/9 b rb4g4s3n4l18p 1";
    gui.send(&format!("position sfen {problem}"));
    gui.send("go mate 10000");
    let line = gui.expect("checkmate", SECS * 10);
    assert_mate_line(problem, &line);
    assert_eq!(line.split(' ').count(), 1 + 7, "not the shortest mate: {line}");
    // A lone gold cannot mate: proved.
    gui.send("position sfen 4k4/9/9/9/9/9/9/9/9 b G2r2b3g4s4n4l18p 1");
    gui.send("go mate 10000");
    assert_eq!(gui.expect("checkmate", SECS * 10), "checkmate nomate");
    // `stop` ends an infinite mate search that cannot finish soon: a lone king in
    // the centre against one piece of each kind in hand (no answer in seconds).
    let sfen = "9/9/9/4k4/9/9/9/9/9 b RBGSNLPrb3g3s3n3l17p 1";
    gui.send(&format!("position sfen {sfen}"));
    gui.send("go mate infinite");
    std::thread::sleep(Duration::from_millis(300));
    assert!(gui.drain(Duration::from_millis(10)).iter().all(|l| !l.starts_with("checkmate")));
    gui.send("stop");
    assert_eq!(gui.expect("checkmate", SECS * 5), "checkmate timeout");
    gui.quit();
}

/// With `BadShapeCheck` on, moves stay legal and timely; the `shape` command lists
/// the bad-shape moves of the position.
#[test]
fn bad_shape_check_plays_legal_moves() {
    let _alone = alone();
    let mut gui = Gui::start();
    gui.handshake();
    gui.send("setoption name BadShapeCheck value true");
    gui.send("setoption name BadShapeMargin value 300");
    gui.send("position startpos");
    gui.send("shape");
    let lines = gui.lines_until("info string 2h1h", SECS * 2);
    assert!(lines.iter().any(|l| l.contains("1 of 30 legal moves are bad shape")), "{lines:?}");
    sixteen_legal_timely_moves(&mut gui);
    gui.quit();
}

/// Sixteen moves of a game from the start at 300 ms byoyomi, each legal and
/// answered within the byoyomi and 200 ms of process and pipe time.
fn sixteen_legal_timely_moves(gui: &mut Gui) {
    let mut moves: Vec<String> = Vec::new();
    for _ in 0..16 {
        let (cmd, pos) = position_after(&moves);
        gui.send(&cmd);
        let sent = Instant::now();
        gui.send("go btime 0 wtime 0 byoyomi 300");
        let line = gui.expect("bestmove", SECS * 5);
        assert!(sent.elapsed() < allowed(300 + 200), "{:?}", sent.elapsed());
        let m = assert_legal(&pos, &line);
        moves.push(m.to_usi());
    }
}

/// With `MateGuard` on, moves stay legal and within the byoyomi: the guard's
/// solves fit in the fortieth of the time the main search leaves them.
#[test]
fn mate_guard_plays_legal_timely_moves() {
    let _alone = alone();
    let mut gui = Gui::start();
    gui.handshake();
    gui.send("setoption name MateGuard value true");
    sixteen_legal_timely_moves(&mut gui);
    gui.quit();
}

#[test]
fn go_mate_with_a_large_hash_answers_in_time() {
    let _alone = alone();
    let mut gui = Gui::start();
    gui.handshake();
    // 1 GiB: making it the old way (written at once) took seconds here.
    gui.send("setoption name USI_Hash value 1024");
    gui.send("isready");
    gui.expect("readyok", SECS * 30);
    // A lone king in the centre against one piece of each kind: no answer soon.
    gui.send("position sfen 9/9/9/4k4/9/9/9/9/9 b RBGSNLPrb3g3s3n3l17p 1");
    for _ in 0..2 {
        let start = Instant::now();
        gui.send("go mate 500");
        assert_eq!(gui.expect("checkmate", SECS * 5), "checkmate timeout");
        let took = start.elapsed();
        // The limit plus process and pipe time; making the 1 GiB table on the
        // clock took seconds.
        assert!(took < allowed(500 + 200), "{took:?}");
        gui.send("position startpos");
        exactly_one_bestmove(&mut gui, "go depth 4");
        gui.send("position sfen 9/9/9/4k4/9/9/9/9/9 b RBGSNLPrb3g3s3n3l17p 1");
    }
    gui.quit();
}

#[test]
fn the_mate_probe_runs_while_pondering_and_answers_at_ponderhit() {
    let _alone = alone();
    let mut gui = Gui::start();
    gui.handshake();
    gui.send("setoption name USI_Ponder value true");
    // The mate in 7 below, pondered: the probe finds it on the opponent's time
    // and the move waits for `ponderhit`.
    let problem = "+N1R6/1k7/9/2B6/9/9/9/9/9 b rb4g4s3n4l18p 1";
    gui.send(&format!("position sfen {problem}"));
    gui.send("go ponder btime 0 wtime 0 byoyomi 2000");
    let mate = gui.expect("info depth", SECS * 3);
    assert!(mate.contains(" score mate 7 pv "), "{mate}");
    let early = gui.drain(Duration::from_millis(300));
    assert!(early.iter().all(|l| !l.starts_with("bestmove")), "{early:?}");
    let pv: Vec<&str> = mate.split(" pv ").nth(1).unwrap().split(' ').collect();
    let sent = Instant::now();
    gui.send("ponderhit");
    let line = gui.expect("bestmove", SECS * 3);
    assert!(sent.elapsed() < allowed(200), "{:?}", sent.elapsed());
    assert_eq!(line, format!("bestmove {} ponder {}", pv[0], pv[1]));

    // `stop` ends a probe that finds nothing (a lone king) at once.
    gui.send("position sfen 9/9/9/4k4/9/9/9/9/9 b RBGSNLPrb3g3s3n3l17p 1");
    gui.send("go ponder btime 0 wtime 0 byoyomi 30000");
    std::thread::sleep(Duration::from_millis(20));
    let sent = Instant::now();
    gui.send("stop");
    gui.expect("bestmove", SECS * 3);
    assert!(sent.elapsed() < allowed(150), "{:?}", sent.elapsed());
    gui.quit();
}

#[test]
fn the_mate_probe_plays_a_mate_the_search_has_not_seen() {
    let _alone = alone();
    let mut gui = Gui::start();
    gui.handshake();
    // Mate in 7 (tsume, the attacker has no king): found by the probe in its
    // tenth of the byoyomi, announced with its line, its first move played.
    let problem = "+N1R6/1k7/9/2B6/9/9/9/9/9 b rb4g4s3n4l18p 1";
    gui.send(&format!("position sfen {problem}"));
    gui.send("go btime 0 wtime 0 byoyomi 2000");
    let mate = gui.expect("info depth", SECS * 3);
    assert!(mate.contains(" score mate 7 pv "), "{mate}");
    let first = mate.split(" pv ").nth(1).and_then(|pv| pv.split(' ').next()).unwrap().to_string();
    let line = gui.expect("bestmove", SECS * 3);
    assert_eq!(bestmove_of(&line), first);
    assert_legal(&Position::from_sfen(problem).unwrap(), &line);
    gui.quit();
}
