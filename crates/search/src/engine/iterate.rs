//! Iterative deepening: the main thread's loop (aspiration windows, MultiPV,
//! reports, deciding when to stop) and the helper threads' loop.

use super::control::{Control, Signals};
use super::worker::{RootMove, Worker};
use super::{Info, SearchResult, Shared};
use crate::game::Game;
use crate::limits::Limits;
use crate::time::{instability_factor, TimeOptions};
use crate::tt::Bound;
use crate::value::*;
use std::sync::atomic::Ordering;
use std::time::Duration;

pub(crate) fn run<G: Game>(
    root: &G,
    limits: &Limits,
    signals: &Signals,
    shared: &Shared,
    threads: usize,
    opts: TimeOptions,
    report: &mut dyn FnMut(&Info<G::Move>),
) -> SearchResult<G::Move> {
    let mut moves = Vec::new();
    root.legal_moves(&mut moves);
    let root_moves: Vec<RootMove<G::Move>> = moves.into_iter().map(RootMove::new).collect();
    let mut control = Control::new(signals, limits, opts);
    if root_moves.is_empty() {
        wait_for_release(&mut control, limits);
        return SearchResult {
            best_move: None,
            ponder_move: None,
            score: root.no_moves_value(0),
            depth: 0,
            nodes: 0,
            root_moves: Vec::new(),
        };
    }
    std::thread::scope(|scope| {
        for id in 1..threads {
            let game = root.clone();
            let moves = root_moves.clone();
            scope.spawn(move || {
                let mut helper = Worker::new(game, shared, id, moves);
                helper_loop(&mut helper);
            });
        }
        let mut main = Worker::new(root.clone(), shared, 0, root_moves);
        main.control = Some(control);
        main.node_limit = limits.nodes;
        let result = main_loop(&mut main, limits, report);
        shared.stop.store(true, Ordering::SeqCst);
        result
    })
}

/// While pondering or in `go infinite`, the answer waits for `stop` or `ponderhit`.
fn wait_for_release(control: &mut Control<'_>, limits: &Limits) {
    while !control.signals.stopped() && (limits.infinite || control.poll()) {
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// Called when an aspiration window fails, with the bound the value is.
type BoundReport<'r, 'w, G> = &'r mut dyn FnMut(&Worker<'w, G>, Option<Bound>);

/// Searches one iteration at line `pv_idx` with aspiration windows around the
/// previous value. Reports bounds through `report` when given.
fn aspiration<'w, G: Game>(
    w: &mut Worker<'w, G>,
    depth: i32,
    mut report: Option<BoundReport<'_, 'w, G>>,
) {
    let pv_idx = w.pv_idx;
    let prev = w.root_moves[pv_idx].previous_score;
    let mut delta = 30 + prev.abs() / 16;
    let (mut alpha, mut beta) = if depth >= 4 && prev.abs() < MATE_IN_MAX_PLY {
        ((prev - delta).max(-INFINITE), (prev + delta).min(INFINITE))
    } else {
        (-INFINITE, INFINITE)
    };
    loop {
        let v = w.search_root(alpha, beta, depth);
        w.root_moves[pv_idx..].sort_by_key(|r| std::cmp::Reverse(r.score));
        if w.stopped() {
            return;
        }
        if v <= alpha && alpha <= -INFINITE || v >= beta && beta >= INFINITE {
            return; // the window is already the widest there is
        }
        let bound = if v <= alpha {
            beta = (alpha + beta) / 2;
            alpha = (v - delta).max(-INFINITE);
            Bound::Upper
        } else if v >= beta {
            beta = (v + delta).min(INFINITE);
            Bound::Lower
        } else {
            return;
        };
        if let Some(r) = report.as_mut() {
            r(w, Some(bound));
        }
        delta += delta / 2;
        if delta > 1500 {
            alpha = -INFINITE;
            beta = INFINITE;
        }
    }
}

fn info<G: Game>(
    w: &Worker<'_, G>,
    depth: i32,
    line: usize,
    bound: Option<Bound>,
) -> Info<G::Move> {
    let rm = &w.root_moves[line];
    let nodes = w.shared().total_nodes();
    let time_ms = w.control.as_ref().map_or(0, |c| c.elapsed().as_millis() as u64);
    Info {
        depth,
        seldepth: rm.seldepth.max(depth),
        multipv: line + 1,
        score: rm.display_score(),
        bound,
        nodes,
        time_ms,
        nps: nodes * 1000 / time_ms.max(1),
        hashfull: w.shared().tt.hashfull(),
        pv: rm.pv.clone(),
    }
}

fn main_loop<G: Game>(
    w: &mut Worker<'_, G>,
    limits: &Limits,
    report: &mut dyn FnMut(&Info<G::Move>),
) -> SearchResult<G::Move> {
    let multipv = limits.multipv.clamp(1, w.root_moves.len());
    let max_depth = limits.depth.unwrap_or(MAX_PLY - 1).clamp(1, MAX_PLY - 1);
    let mut completed = 0;
    let mut stable_iterations = 0u32;
    let mut last_best = None;
    let timed = limits.uses_clock() && !limits.infinite;

    for depth in 1..=max_depth {
        w.best_move_changes *= 0.5;
        for rm in &mut w.root_moves {
            if rm.score != -INFINITE {
                rm.previous_score = rm.score;
            }
            rm.score = -INFINITE;
        }
        for pv_idx in 0..multipv {
            w.pv_idx = pv_idx;
            let mut bound_report = |w: &Worker<'_, G>, bound: Option<Bound>| {
                let slow = w.control.as_ref().is_some_and(|c| c.elapsed() > Duration::from_secs(1));
                if slow {
                    report(&info(w, depth, pv_idx, bound));
                }
            };
            aspiration(w, depth, Some(&mut bound_report));
            w.root_moves[..=pv_idx].sort_by_key(|r| std::cmp::Reverse(r.score));
            if w.stopped() {
                break;
            }
        }
        if w.stopped() {
            break;
        }
        completed = depth;
        for line in 0..multipv {
            report(&info(w, depth, line, None));
        }

        let best = w.root_moves[0].mv;
        if last_best == Some(best) {
            stable_iterations += 1;
        } else {
            stable_iterations = 0;
        }
        last_best = Some(best);

        let Some(control) = w.control.as_mut() else {
            break;
        };
        if control.signals.stopped() {
            break;
        }
        if timed && !control.poll() {
            let score = w.root_moves[0].score;
            let mate_proven = score.abs() >= MATE_IN_MAX_PLY && MATE - score.abs() <= depth;
            let forced = w.root_moves.len() == 1;
            let factor = instability_factor(w.best_move_changes, stable_iterations);
            // The next iteration costs a few times this one: do not start what
            // cannot finish.
            if mate_proven || forced || control.iteration_done(factor, 0.55) {
                break;
            }
        }
    }
    w.shared().stop.store(true, Ordering::SeqCst);
    if let Some(control) = w.control.as_mut() {
        wait_for_release(control, limits);
    }
    if completed == 0 || w.root_moves[0].score == -INFINITE {
        // The last iteration was cut short: report what it is based on.
        report(&info(w, completed.max(1), 0, None));
    }

    let best = w.root_moves[0].clone();
    let ponder_move = best.pv.get(1).copied().or_else(|| {
        let mut game = w.game.clone();
        game.make_move(best.mv);
        let e = w.shared().tt.probe(game.key())?;
        let m = G::decode_move(e.mv);
        (e.mv != 0 && game.is_legal(m)).then_some(m)
    });
    SearchResult {
        best_move: Some(best.mv),
        ponder_move,
        score: best.display_score(),
        depth: completed,
        nodes: w.shared().total_nodes(),
        root_moves: w.root_moves.clone(),
    }
}

/// Helper threads (Lazy SMP): the same iterations, odd helpers one ply deeper, until
/// the main thread stops them. Their only product is what they leave in the table.
fn helper_loop<G: Game>(w: &mut Worker<'_, G>) {
    let skew = (w.id % 2) as i32;
    for depth in 1..MAX_PLY - 1 {
        for rm in &mut w.root_moves {
            if rm.score != -INFINITE {
                rm.previous_score = rm.score;
            }
            rm.score = -INFINITE;
        }
        w.pv_idx = 0;
        aspiration(w, (depth + skew).min(MAX_PLY - 2), None);
        if w.stopped() {
            return;
        }
    }
}
