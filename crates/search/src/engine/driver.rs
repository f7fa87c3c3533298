//! Running a [`Searcher`]: the threads, the main thread's iterations (MultiPV
//! lines, reports, deciding when to stop) and the helpers' iterations.

use super::{Info, RootMoves, SearchResult, SearchThread, Searcher};
use crate::game::Game;
use crate::limits::Limits;
use crate::searcher::context::{SharedState, ThreadContext};
use crate::searcher::control::{Control, Signals};
use crate::time::{instability_factor, TimeOptions};
use crate::tt::Bound;
use crate::value::*;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

#[allow(clippy::too_many_arguments)]
pub(crate) fn run<G: Game, S: Searcher<G>>(
    searcher: &mut S,
    root: &G,
    among: Option<&[G::Move]>,
    limits: &Limits,
    signals: &Signals,
    threads: usize,
    opts: TimeOptions,
    report: &mut dyn FnMut(&Info<G::Move>),
) -> SearchResult<G::Move> {
    let mut moves = Vec::new();
    root.legal_moves(&mut moves);
    if let Some(among) = among {
        moves.retain(|m| among.contains(m));
    }
    let roots = RootMoves::new(moves);
    let opts = TimeOptions { shares: searcher.time_shares(), ..opts };
    let mut control = Control::new(signals, limits, opts);
    if roots.moves.is_empty() {
        wait_for_release(&mut control, limits);
        return SearchResult {
            best_move: None,
            ponder_move: None,
            score: root.no_moves().value(0),
            depth: 0,
            nodes: 0,
            root_moves: Vec::new(),
            counters: Vec::new(),
        };
    }
    searcher.prepare();
    let searcher = &*searcher;
    let shared = SharedState::new(threads);
    let reporter = Reporter { start: control.start, shared: &shared, searcher };
    std::thread::scope(|scope| {
        for id in 1..threads {
            let (game, roots, shared) = (root.clone(), roots.clone(), &shared);
            scope.spawn(move || {
                let mut helper = searcher.thread(game, ThreadContext::new(id, shared, None, None));
                helper_loop(&mut helper, roots);
            });
        }
        let context = ThreadContext::new(0, &shared, Some(control), limits.nodes);
        let mut main = searcher.thread(root.clone(), context);
        let result = main_loop(&mut main, roots, root, limits, &reporter, report);
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

/// Makes `info` reports from the root moves and what the threads share.
struct Reporter<'s, S> {
    start: Instant,
    shared: &'s SharedState,
    searcher: &'s S,
}

impl<S> Reporter<'_, S> {
    fn info<G: Game>(
        &self,
        roots: &RootMoves<G::Move>,
        depth: i32,
        line: usize,
        bound: Option<Bound>,
    ) -> Info<G::Move>
    where
        S: Searcher<G>,
    {
        let rm = &roots.moves[line];
        let nodes = self.shared.total_nodes();
        let time_ms = self.start.elapsed().as_millis() as u64;
        Info {
            depth,
            seldepth: rm.seldepth.max(depth),
            multipv: line + 1,
            score: rm.display_score(),
            bound,
            nodes,
            time_ms,
            nps: nodes * 1000 / time_ms.max(1),
            hashfull: self.searcher.hashfull(),
            pv: rm.pv.clone(),
        }
    }
}

fn main_loop<'s, G: Game, S: Searcher<G>>(
    thread: &mut S::Thread<'s>,
    mut roots: RootMoves<G::Move>,
    root: &G,
    limits: &Limits,
    reporter: &Reporter<'_, S>,
    report: &mut dyn FnMut(&Info<G::Move>),
) -> SearchResult<G::Move> {
    let multipv = limits.multipv.clamp(1, roots.moves.len());
    let max_depth = limits.depth.unwrap_or(MAX_PLY - 1).clamp(1, MAX_PLY - 1);
    let mut completed = 0;
    let mut stable_iterations = 0u32;
    let mut last_best = None;
    // The move and value of the last line 1 reported.
    let mut last_reported = None;
    let timed = limits.uses_clock() && !limits.infinite;

    for depth in 1..=max_depth {
        roots.best_move_changes *= 0.5;
        roots.start_iteration();
        for pv_idx in 0..multipv {
            roots.pv_idx = pv_idx;
            // A failed aspiration window is reported only in slow searches.
            let mut bound_report = |roots: &RootMoves<G::Move>, bound: Bound| {
                if reporter.start.elapsed() > Duration::from_secs(1) {
                    report(&reporter.info(roots, depth, pv_idx, Some(bound)));
                }
            };
            thread.search_line(&mut roots, depth, Some(&mut bound_report));
            roots.moves[..=pv_idx].sort_by_key(|r| std::cmp::Reverse(r.score));
            if thread.context().stopped() {
                break;
            }
        }
        if thread.context().stopped() {
            break;
        }
        completed = depth;
        for line in 0..multipv {
            report(&reporter.info(&roots, depth, line, None));
        }
        last_reported = Some((roots.moves[0].mv, roots.moves[0].display_score()));

        let best = roots.moves[0].mv;
        if last_best == Some(best) {
            stable_iterations += 1;
        } else {
            stable_iterations = 0;
        }
        last_best = Some(best);

        let Some(control) = thread.context().control.as_mut() else {
            break;
        };
        if control.signals.stopped() {
            break;
        }
        if timed && !control.poll() {
            let score = roots.moves[0].score;
            // A mate in one is proven by any search that found it.
            let proven_plies = if reporter.searcher.proves_mates_by_depth() { depth } else { 1 };
            let mate_proven = score.abs() >= MATE_IN_MAX_PLY && MATE - score.abs() <= proven_plies;
            let forced = roots.moves.len() == 1;
            let shares = control.shares();
            let factor = instability_factor(roots.best_move_changes, stable_iterations, &shares);
            // The next iteration costs a few times this one: do not start what
            // cannot finish.
            if mate_proven || forced || control.iteration_done(factor, shares.next_iteration) {
                break;
            }
        }
    }
    reporter.shared.stop.store(true, Ordering::SeqCst);
    if let Some(control) = thread.context().control.as_mut() {
        wait_for_release(control, limits);
    }
    let best = &roots.moves[0];
    if completed == 0 || last_reported != Some((best.mv, best.display_score())) {
        // The move played is not the line last reported: none was, or the
        // iteration cut short found a better move. The last line reported is
        // always the move played, with its value (a bound where it is one).
        let (depth, bound) = if best.score == -INFINITE {
            (completed.max(1), None)
        } else {
            ((completed + 1).min(max_depth), best.bound)
        };
        report(&reporter.info(&roots, depth, 0, bound));
    }

    let counters = thread.counters();
    let best = roots.moves[0].clone();
    let ponder_move =
        best.pv.get(1).copied().or_else(|| reporter.searcher.ponder_hint(root, best.mv));
    SearchResult {
        best_move: Some(best.mv),
        ponder_move,
        score: best.display_score(),
        depth: completed,
        nodes: reporter.shared.total_nodes(),
        root_moves: roots.moves,
        counters,
    }
}

/// Helper threads (Lazy SMP): the same iterations, odd helpers one further, until
/// the main thread stops them.
fn helper_loop<'s, G: Game, T: SearchThread<'s, G>>(thread: &mut T, mut roots: RootMoves<G::Move>) {
    let skew = (thread.context().id % 2) as i32;
    for depth in 1..MAX_PLY - 1 {
        roots.start_iteration();
        roots.pv_idx = 0;
        thread.search_line(&mut roots, (depth + skew).min(MAX_PLY - 2), None);
        if thread.context().stopped() {
            return;
        }
    }
}
