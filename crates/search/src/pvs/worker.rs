//! One PVS thread: its position, its move-ordering memory, its lines and move
//! storage per ply, and its link to the engine layer.

use super::params::PvsParams;
use crate::correction::CorrectionHistory;
use crate::game::{Game, Side};
use crate::history::{ContinuationHistory, ContinuationRow, History, Killers, QuietStats};
use crate::plies::PlyStack;
use crate::qsearch::{qsearch, QsHost};
use crate::searcher::{BoundReport, RootMoves, SearchThread, ThreadContext};
use crate::tt::{Bound, TranspositionTable};
use crate::value::*;
use std::sync::Mutex;

/// What one thread learnt about move order in a search, kept for the next
/// search of the game: the positions it meets are close to this one's, and a
/// thread that starts with them orders its first iterations as the last search
/// ended.
pub(crate) struct Memory {
    /// Continuation rows are split by the ply's parity from the root: they mean
    /// the same only for a root with the same side to move.
    root_side: Side,
    history: History,
    continuation: ContinuationHistory,
    correction: CorrectionHistory,
}

/// Memories kept at most, a few for each thread and root side.
const MEMORIES_KEPT: usize = 256;

/// What the search keeps about each ply of the current line.
#[derive(Clone, Copy)]
pub(super) struct Frame {
    pub static_eval: Value,
    /// The move into this ply was a null move.
    pub after_null: bool,
    /// The `continuation_index` of the move into this ply (`NO_MOVE`: root or null).
    pub moved: usize,
}

pub(super) const NO_MOVE: usize = usize::MAX;

impl Default for Frame {
    fn default() -> Frame {
        Frame { static_eval: NONE, after_null: false, moved: NO_MOVE }
    }
}

/// What a PVS thread counted, for `kyobo bench` (to set beside ABC's counters).
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct PvsCounters {
    /// Nodes above the horizon (quiescence nodes not included).
    pub main_nodes: u64,
    /// Quiescence searches started at the horizon.
    pub qsearches: u64,
    /// Transposition-table probes of main nodes, and those that found an entry.
    pub table_probes: u64,
    pub table_hits: u64,
}

pub struct Worker<'s, G: Game> {
    pub(super) game: G,
    pub(super) tt: &'s TranspositionTable,
    pub(super) ctx: ThreadContext<'s>,
    pub(super) seldepth: i32,
    pub(super) killers: Killers<G::Move>,
    pub(super) history: History,
    pub(super) continuation: ContinuationHistory,
    pub(super) correction: CorrectionHistory,
    /// The line found from each ply, and move storage per ply.
    pub(super) plies: PlyStack<G::Move>,
    /// Per ply, the move a singular-extension search leaves out (default: none).
    pub(super) excluded: Vec<G::Move>,
    pub(super) stack: Vec<Frame>,
    /// The iteration's depth: extensions stop at twice this ply.
    pub(super) root_depth: i32,
    reductions: Vec<[u8; 64]>,
    /// The parameters of this search (`Tune_…`).
    pub(super) params: PvsParams,
    pub(super) counters: PvsCounters,
    /// Where the thread's histories go when it ends, and came from.
    memories: &'s Mutex<Vec<Memory>>,
    root_side: Side,
}

impl<'s, G: Game> Worker<'s, G> {
    pub(crate) fn new(
        game: G,
        tt: &'s TranspositionTable,
        ctx: ThreadContext<'s>,
        params: PvsParams,
        memories: &'s Mutex<Vec<Memory>>,
    ) -> Self {
        let plies = MAX_PLY as usize + 8;
        let root_side = game.side_to_move();
        let kept = memories.lock().ok().and_then(|mut kept| {
            let fits = |m: &Memory| {
                m.root_side == root_side
                    && m.history.has_size(G::HISTORY_SIZE)
                    && m.continuation.has_size(G::CONTINUATION_SIZE)
                    && m.correction.is_whole()
            };
            let at = kept.iter().position(fits)?;
            Some(kept.swap_remove(at))
        });
        let (history, continuation, correction) = match kept {
            Some(m) => (m.history, m.continuation, m.correction),
            None => (
                History::new(G::HISTORY_SIZE),
                ContinuationHistory::new(G::CONTINUATION_SIZE),
                CorrectionHistory::default(),
            ),
        };
        Worker {
            game,
            tt,
            ctx,
            seldepth: 0,
            killers: Killers::new(),
            history,
            continuation,
            correction,
            plies: PlyStack::new(plies),
            excluded: vec![G::Move::default(); plies],
            stack: vec![Frame::default(); plies],
            root_depth: 1,
            reductions: params.reductions(),
            params,
            counters: PvsCounters::default(),
            memories,
            root_side,
        }
    }

    #[inline]
    pub(super) fn stopped(&self) -> bool {
        self.ctx.stopped()
    }

    /// The late-move reduction for the `move_count`th move at `depth`.
    pub(super) fn reduction(&self, depth: i32, move_count: usize) -> i32 {
        i32::from(self.reductions[(depth as usize).min(63)][move_count.min(63)])
    }

    /// The continuation rows for moves at `ply`: after the opponent's last move and
    /// after our own move before it.
    pub(super) fn continuation_rows(&self, ply: usize) -> [ContinuationRow; 2] {
        let row = |distance: usize| {
            let moved =
                if ply >= distance { self.stack[ply + 1 - distance].moved } else { NO_MOVE };
            if moved == NO_MOVE {
                None
            } else {
                self.continuation.row(distance, ply, moved)
            }
        };
        [row(1), row(2)]
    }

    /// What quiet moves are ordered and reduced by, in the context `rows`.
    pub(super) fn stats(&self, rows: [ContinuationRow; 2]) -> QuietStats<'_> {
        QuietStats { history: &self.history, continuation: &self.continuation, rows }
    }

    /// Rewards the quiet move `m` that cut at `ply` and punishes the quiet moves
    /// tried before it.
    pub(super) fn reward_quiet(
        &mut self,
        ply: usize,
        m: G::Move,
        depth: i32,
        rows: [ContinuationRow; 2],
        tried: &[G::Move],
    ) {
        self.killers.update(ply, m);
        let bonus = History::bonus(depth);
        self.reward(m, rows, bonus);
        for &q in tried {
            self.reward(q, rows, -bonus);
        }
    }

    fn reward(&mut self, m: G::Move, rows: [ContinuationRow; 2], bonus: i32) {
        self.history.update(self.game.history_index(m), bonus);
        let index = self.game.continuation_index(m);
        for row in rows {
            self.continuation.update(row, index, bonus);
        }
    }

    /// The static value corrected by what searches below positions like this
    /// one found (the static value itself with `Tune_CorrectionWeight` 0).
    #[inline]
    pub(super) fn corrected_eval(&self) -> Value {
        let eval = self.game.evaluate();
        match self.game.correction_keys() {
            Some(keys) if self.params.correction_weight > 0 => {
                self.correction.corrected(eval, &keys, self.params.correction_weight)
            }
            _ => eval,
        }
    }

    /// Learns how far the static value `eval` was from `best`, the value a
    /// search `depth` plies deep found here with the bound `bound`: only where
    /// the bound tells (a fail-high above the static value, a fail-low below
    /// it, or exact), and not from mate values.
    pub(super) fn learn_correction(&mut self, best: Value, bound: Bound, eval: Value, depth: i32) {
        let tells = match bound {
            Bound::Exact => true,
            Bound::Lower => best > eval,
            Bound::Upper => best < eval,
        };
        if self.params.correction_weight == 0 || !tells || best.abs() >= MATE_IN_MAX_PLY {
            return;
        }
        if let Some(keys) = self.game.correction_keys() {
            self.correction.learn(&keys, best, eval, depth);
        }
    }

    /// The quiescence search from `ply`, in this thread's table.
    #[inline]
    pub(super) fn qsearch<const PV: bool>(
        &mut self,
        alpha: Value,
        beta: Value,
        ply: usize,
    ) -> Value {
        self.counters.qsearches += 1;
        qsearch::<G, Self, PV>(self, alpha, beta, ply, 0)
    }
}

impl<G: Game> QsHost<G> for Worker<'_, G> {
    #[inline(always)]
    fn game(&self) -> &G {
        &self.game
    }

    #[inline(always)]
    fn game_mut(&mut self) -> &mut G {
        &mut self.game
    }

    #[inline(always)]
    fn enter_node(&mut self, ply: usize) {
        self.ctx.count_node();
        self.seldepth = self.seldepth.max(ply as i32);
    }

    #[inline(always)]
    fn stopped(&self) -> bool {
        self.ctx.stopped()
    }

    #[inline(always)]
    fn static_eval(&self) -> Value {
        self.corrected_eval()
    }

    #[inline(always)]
    fn table(&self) -> &TranspositionTable {
        self.tt
    }

    #[inline(always)]
    fn quiet_stats(&self) -> QuietStats<'_> {
        self.stats([None; 2])
    }

    #[inline(always)]
    fn plies(&mut self) -> &mut PlyStack<G::Move> {
        &mut self.plies
    }
}

impl<G: Game> Drop for Worker<'_, G> {
    /// The thread's histories are kept for the next search.
    fn drop(&mut self) {
        if let Ok(mut kept) = self.memories.lock() {
            if kept.len() < MEMORIES_KEPT {
                kept.push(Memory {
                    root_side: self.root_side,
                    history: std::mem::take(&mut self.history),
                    continuation: std::mem::take(&mut self.continuation),
                    correction: std::mem::take(&mut self.correction),
                });
            }
        }
    }
}

impl<'s, G: Game> SearchThread<'s, G> for Worker<'s, G> {
    fn context(&mut self) -> &mut ThreadContext<'s> {
        &mut self.ctx
    }

    fn search_line(
        &mut self,
        roots: &mut RootMoves<G::Move>,
        depth: i32,
        on_bound: Option<BoundReport<'_, G::Move>>,
    ) {
        self.aspiration(roots, depth, on_bound);
    }

    fn counters(&self) -> Vec<(&'static str, u64)> {
        let c = &self.counters;
        vec![
            ("main_nodes", c.main_nodes),
            ("qsearches", c.qsearches),
            ("table_probes", c.table_probes),
            ("table_hits", c.table_hits),
        ]
    }
}
