//! One search thread: the PVS node search and the quiescence search.

use super::control::Control;
use super::Shared;
use crate::game::{Game, RepetitionStatus};
use crate::history::{ContinuationHistory, ContinuationRow, History, Killers, QuietStats};
use crate::picker::{MoveBuffers, MovePicker};
use crate::tt::Bound;
use crate::value::*;
use std::sync::atomic::Ordering;

/// How far back repetitions are looked for inside the search.
pub(crate) const REPETITION_PLIES: usize = 16;

/// A root move with what the latest iterations said about it.
#[derive(Clone, Debug)]
pub struct RootMove<M> {
    pub mv: M,
    /// This iteration's value (`-INFINITE`: not searched yet, or failed low).
    pub score: Value,
    pub previous_score: Value,
    pub bound: Option<Bound>,
    pub pv: Vec<M>,
    pub seldepth: i32,
}

impl<M: Copy> RootMove<M> {
    pub fn new(mv: M) -> RootMove<M> {
        RootMove {
            mv,
            score: -INFINITE,
            previous_score: -INFINITE,
            bound: None,
            pv: vec![mv],
            seldepth: 0,
        }
    }

    /// The best known value: this iteration's when it has one.
    pub fn display_score(&self) -> Value {
        if self.score == -INFINITE {
            self.previous_score
        } else {
            self.score
        }
    }
}

#[derive(Clone, Copy)]
struct Frame {
    static_eval: Value,
    /// The move into this ply was a null move.
    after_null: bool,
    /// The `continuation_index` of the move into this ply (`NO_MOVE`: root or null).
    moved: usize,
}

const NO_MOVE: usize = usize::MAX;

impl Default for Frame {
    fn default() -> Frame {
        Frame { static_eval: NONE, after_null: false, moved: NO_MOVE }
    }
}

pub(crate) struct Worker<'a, G: Game> {
    pub game: G,
    shared: &'a Shared,
    pub id: usize,
    pub nodes: u64,
    pub seldepth: i32,
    killers: Killers<G::Move>,
    history: History,
    continuation: ContinuationHistory,
    pv: Vec<Vec<G::Move>>,
    /// Per ply, the move a singular-extension search leaves out (default: none).
    excluded: Vec<G::Move>,
    buffers: Vec<MoveBuffers<G::Move>>,
    stack: Vec<Frame>,
    pub root_moves: Vec<RootMove<G::Move>>,
    pub pv_idx: usize,
    /// Times the best root move changed (main thread's instability measure).
    pub best_move_changes: f64,
    pub control: Option<Control<'a>>,
    pub node_limit: Option<u64>,
    /// The iteration's depth: extensions stop at twice this ply.
    root_depth: i32,
    reductions: Vec<[u8; 64]>,
}

/// How deep the quiescence search may go below the horizon.
const QS_MAX_PLIES: i32 = 8;

/// Margin for futility pruning of quiet moves, per ply of depth.
const FUTILITY_MARGIN: Value = 120;

impl<'a, G: Game> Worker<'a, G> {
    pub fn new(game: G, shared: &'a Shared, id: usize, root_moves: Vec<RootMove<G::Move>>) -> Self {
        let plies = MAX_PLY as usize + 8;
        let reductions = (0..64)
            .map(|d| {
                let mut row = [0u8; 64];
                for (n, r) in row.iter_mut().enumerate() {
                    if d > 0 && n > 0 {
                        *r = (0.5 + (d as f64).ln() * (n as f64).ln() / 2.2) as u8;
                    }
                }
                row
            })
            .collect();
        Worker {
            game,
            shared,
            id,
            nodes: 0,
            seldepth: 0,
            killers: Killers::new(),
            history: History::new(G::HISTORY_SIZE),
            continuation: ContinuationHistory::new(G::CONTINUATION_SIZE),
            pv: vec![Vec::new(); plies],
            excluded: vec![G::Move::default(); plies],
            buffers: (0..plies).map(|_| MoveBuffers::warm()).collect(),
            stack: vec![Frame::default(); plies],
            root_moves,
            pv_idx: 0,
            best_move_changes: 0.0,
            control: None,
            node_limit: None,
            root_depth: 1,
            reductions,
        }
    }

    pub fn stopped(&self) -> bool {
        self.shared.stop.load(Ordering::Relaxed)
    }

    pub fn shared(&self) -> &'a Shared {
        self.shared
    }

    fn count_node(&mut self) {
        self.nodes += 1;
        self.shared.nodes[self.id].0.store(self.nodes, Ordering::Relaxed);
        if self.nodes & 1023 == 0 {
            let over_nodes = self.node_limit.is_some_and(|n| self.shared.total_nodes() >= n);
            let over_time = self.control.as_mut().is_some_and(|c| c.must_stop());
            if over_nodes || over_time {
                self.shared.stop.store(true, Ordering::Relaxed);
            }
        }
    }

    fn reduction(&self, depth: i32, move_count: usize) -> i32 {
        i32::from(self.reductions[(depth as usize).min(63)][move_count.min(63)])
    }

    /// The continuation rows for moves at `ply`: after the opponent's last move and
    /// after our own move before it.
    fn continuation_rows(&self, ply: usize) -> [ContinuationRow; 2] {
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
    fn quiet_stats(&self, rows: [ContinuationRow; 2]) -> QuietStats<'_> {
        QuietStats { history: &self.history, continuation: &self.continuation, rows }
    }

    fn update_pv(&mut self, ply: usize, m: G::Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(m);
        line.extend_from_slice(&tail[0]);
    }

    /// The value of a repetition for the side to move, `ply` from the root.
    fn repetition_value(status: RepetitionStatus, ply: i32) -> Value {
        match status {
            RepetitionStatus::Draw => DRAW,
            RepetitionStatus::Win => mate_in(ply),
            RepetitionStatus::Loss => mated_in(ply),
            RepetitionStatus::Superior => SUPERIOR,
            RepetitionStatus::Inferior => -SUPERIOR,
        }
    }

    /// Searches the root moves from `pv_idx` on with window (alpha, beta).
    pub fn search_root(&mut self, mut alpha: Value, beta: Value, depth: i32) -> Value {
        self.seldepth = 0;
        self.root_depth = depth;
        self.pv[0].clear();
        let mut best = -INFINITE;
        let in_check = self.game.in_check();
        self.stack[0] = Frame {
            static_eval: if in_check { NONE } else { self.game.evaluate() },
            after_null: false,
            moved: NO_MOVE,
        };
        for i in self.pv_idx..self.root_moves.len() {
            let m = self.root_moves[i].mv;
            let first = i == self.pv_idx;
            let extension = i32::from(self.game.gives_check(m) && depth <= 4);
            let new_depth = depth - 1 + extension;
            self.stack[1].moved = self.game.continuation_index(m);
            self.game.make_move(m);
            self.shared.tt.prefetch(self.game.key());
            self.stack[1].after_null = false;
            self.pv[1].clear();
            let mut v;
            if first {
                v = -self.search::<true>(-beta, -alpha, new_depth, 1, false);
            } else {
                // Late quiet root moves are tried a little shallower first.
                let r =
                    if depth >= 3 && i - self.pv_idx >= 4 && !self.game.in_check() { 1 } else { 0 };
                v = -self.search::<false>(-alpha - 1, -alpha, new_depth - r, 1, true);
                if v > alpha && r > 0 {
                    v = -self.search::<false>(-alpha - 1, -alpha, new_depth, 1, false);
                }
                if v > alpha && v < beta {
                    v = -self.search::<true>(-beta, -alpha, new_depth, 1, false);
                }
            }
            self.game.unmake_move(m);
            if self.stopped() {
                break;
            }
            if first || v > alpha {
                let tail = &self.pv[1];
                let rm = &mut self.root_moves[i];
                rm.score = v;
                rm.seldepth = self.seldepth;
                rm.bound = if v >= beta {
                    Some(Bound::Lower)
                } else if v <= alpha {
                    Some(Bound::Upper)
                } else {
                    None
                };
                rm.pv.clear();
                rm.pv.push(m);
                rm.pv.extend_from_slice(tail);
                if !first {
                    self.best_move_changes += 1.0;
                }
            } else {
                self.root_moves[i].score = -INFINITE;
            }
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        if !self.stopped() && self.pv_idx == 0 {
            let bm = self.root_moves.iter().max_by_key(|r| r.score).map(|r| r.mv);
            if let Some(bm) = bm {
                let bound = if best >= beta { Bound::Lower } else { Bound::Exact };
                self.shared.tt.store(
                    self.game.key(),
                    G::encode_move(bm),
                    to_tt(best, 0),
                    depth,
                    bound,
                );
            }
        }
        best
    }

    /// The PVS node search. `PV`: a node on the principal variation (open window).
    pub fn search<const PV: bool>(
        &mut self,
        mut alpha: Value,
        mut beta: Value,
        depth: i32,
        ply: usize,
        cut_node: bool,
    ) -> Value {
        if depth <= 0 {
            return self.qsearch::<PV>(alpha, beta, ply, 0);
        }
        self.count_node();
        if self.stopped() {
            return DRAW;
        }
        let ply_v = ply as i32;
        self.seldepth = self.seldepth.max(ply_v);
        self.pv[ply].clear();

        if let Some(status) = self.game.repetition(REPETITION_PLIES) {
            return Self::repetition_value(status, ply_v);
        }
        if ply_v >= MAX_PLY - 1 {
            return self.game.evaluate();
        }
        // Mate distance pruning: no line here can beat a mate already found nearer.
        alpha = alpha.max(mated_in(ply_v));
        beta = beta.min(mate_in(ply_v + 1));
        if alpha >= beta {
            return alpha;
        }
        if self.game.can_claim_win() {
            return mate_in(ply_v + 1);
        }

        let excluded = self.excluded[ply];
        let excluding = excluded != G::Move::default();
        let key = self.game.key();
        let entry = self.shared.tt.probe(key);
        let tt_move = entry.map_or(G::Move::default(), |e| G::decode_move(e.mv));
        if let Some(e) = entry {
            let v = from_tt(e.value, ply_v);
            let usable = match e.bound {
                Bound::Exact => true,
                Bound::Lower => v >= beta,
                Bound::Upper => v <= alpha,
            };
            if !PV && !excluding && e.depth >= depth && usable {
                return v;
            }
        }

        let in_check = self.game.in_check();
        if !in_check && !excluding {
            // A mate in one ends the search here whatever the pruning below would do
            // (mating moves are often sacrifices that exchange rules prune).
            if let Some(m) = self.game.mate_in_one() {
                let v = mate_in(ply_v + 1);
                if PV {
                    self.pv[ply].clear();
                    self.pv[ply].push(m);
                }
                self.shared.tt.store(
                    key,
                    G::encode_move(m),
                    to_tt(v, ply_v),
                    MAX_PLY,
                    Bound::Exact,
                );
                return v;
            }
        }
        let static_eval = if in_check { NONE } else { self.game.evaluate() };
        self.stack[ply].static_eval = static_eval;
        let improving = !in_check
            && ply >= 2
            && self.stack[ply - 2].static_eval != NONE
            && static_eval > self.stack[ply - 2].static_eval;

        if !PV && !in_check && !excluding {
            // Reverse futility: far above beta with little depth left.
            if depth < 7
                && static_eval.abs() < MATE_IN_MAX_PLY
                && static_eval - FUTILITY_MARGIN * (depth - i32::from(improving)) >= beta
            {
                return static_eval;
            }
            // Null move: if passing still fails high, a real move will too.
            if depth >= 2
                && static_eval >= beta
                && !self.stack[ply].after_null
                && beta > -MATE_IN_MAX_PLY
                && self.game.null_move_allowed()
            {
                let r = 3 + depth / 4 + ((static_eval - beta) / 200).min(3);
                self.game.make_null_move();
                self.stack[ply + 1].after_null = true;
                self.stack[ply + 1].moved = NO_MOVE;
                let v = -self.search::<false>(-beta, -beta + 1, depth - r, ply + 1, !cut_node);
                self.stack[ply + 1].after_null = false;
                self.game.unmake_null_move();
                if self.stopped() {
                    return DRAW;
                }
                if v >= beta {
                    return if v >= MATE_IN_MAX_PLY { beta } else { v };
                }
            }
        }

        // Without a hash move, this node was never searched: go a little shallower.
        let depth = if PV && depth >= 4 && entry.is_none() { depth - 1 } else { depth };

        self.killers.clear_ply(ply + 1);
        let killers = self.killers.get(ply);
        let buffers = std::mem::take(&mut self.buffers[ply]);
        let mut picker = MovePicker::main(tt_move, killers, in_check, buffers);
        let mut best = -INFINITE;
        let mut best_move = G::Move::default();
        let mut move_count = 0usize;
        let mut quiets_tried: [G::Move; 32] = [G::Move::default(); 32];
        let mut quiet_count = 0usize;
        let original_alpha = alpha;
        let rows = self.continuation_rows(ply);

        while let Some(m) = picker.next(&self.game, &self.quiet_stats(rows)) {
            if m == excluded {
                continue;
            }
            move_count += 1 + picker.take_skipped();
            let tactical = self.game.is_tactical(m);
            let gives_check = self.game.gives_check(m);

            // Shallow-depth pruning, never before one move has a real value.
            if best > -MATE_IN_MAX_PLY && !in_check && ply > 0 {
                if !tactical && !gives_check {
                    let lmp_limit = (3 + depth * depth) as usize / (2 - usize::from(improving));
                    // Late quiet moves (checks are kept: they may mate).
                    // Both hold for every later quiet move too (the move count and
                    // alpha only grow): the picker stops handing those out.
                    if depth <= 6 && move_count > lmp_limit {
                        picker.quiet_checks_only(&self.game);
                        continue;
                    }
                    if depth <= 6 && static_eval + 150 + FUTILITY_MARGIN * depth <= alpha && !PV {
                        picker.quiet_checks_only(&self.game);
                        continue;
                    }
                    if depth <= 4 && !self.game.see_ge(m, -25 * depth * depth) {
                        continue;
                    }
                } else if depth <= 6
                    && !self
                        .game
                        .see_ge(m, -90 * depth - 30 * i32::from(gives_check) * depth * depth)
                {
                    continue;
                }
            }

            // Check extension for checks that do not simply lose the checking piece,
            // bounded so that long checking sequences cannot run away.
            let mut extension = i32::from(
                gives_check && depth <= 6 && ply_v < 2 * self.root_depth && self.game.see_ge(m, 0),
            );
            // Singular extension: when every other move falls well short of the hash
            // move's value, the hash move is searched a ply deeper; when even without
            // it the node fails high, it is cut (multi-cut).
            if let Some(e) = entry {
                if m == tt_move
                    && !excluding
                    && ply > 0
                    && depth >= 8
                    && e.depth >= depth - 3
                    && e.bound != Bound::Upper
                    && from_tt(e.value, ply_v).abs() < MATE_IN_MAX_PLY
                    && ply_v < 2 * self.root_depth
                {
                    let singular_beta = from_tt(e.value, ply_v) - 2 * depth;
                    self.excluded[ply] = m;
                    let v = self.search::<false>(
                        singular_beta - 1,
                        singular_beta,
                        (depth - 1) / 2,
                        ply,
                        cut_node,
                    );
                    self.excluded[ply] = G::Move::default();
                    if self.stopped() {
                        self.buffers[ply] = picker.into_buffers();
                        return DRAW;
                    }
                    if v < singular_beta {
                        extension = 1;
                    } else if singular_beta >= beta {
                        self.buffers[ply] = picker.into_buffers();
                        return singular_beta;
                    }
                }
            }
            let new_depth = depth - 1 + extension;
            let history_index = self.game.history_index(m);
            let continuation_index = self.game.continuation_index(m);

            self.stack[ply + 1].moved = continuation_index;
            self.game.make_move(m);
            self.shared.tt.prefetch(self.game.key());
            self.stack[ply + 1].after_null = false;
            if PV {
                self.pv[ply + 1].clear();
            }
            let mut v;
            if depth >= 3 && move_count > 1 + usize::from(PV) && (!tactical || cut_node) {
                // Late move reduction.
                let mut r = self.reduction(depth, move_count);
                if PV {
                    r -= 1;
                }
                if cut_node {
                    r += 1;
                }
                if !improving {
                    r += 1;
                }
                if gives_check || in_check {
                    r -= 1;
                }
                if !tactical {
                    r -= self.quiet_stats(rows).score(history_index, continuation_index) / 8000;
                }
                let d = (new_depth - r.max(0)).clamp(1, new_depth.max(1));
                v = -self.search::<false>(-alpha - 1, -alpha, d, ply + 1, true);
                if v > alpha && d < new_depth {
                    v = -self.search::<false>(-alpha - 1, -alpha, new_depth, ply + 1, !cut_node);
                }
            } else if !PV || move_count > 1 {
                v = -self.search::<false>(-alpha - 1, -alpha, new_depth, ply + 1, !cut_node);
            } else {
                v = alpha + 1; // forces the full-window search below
            }
            if PV && (move_count == 1 || (v > alpha && v < beta)) {
                v = -self.search::<true>(-beta, -alpha, new_depth, ply + 1, false);
            }
            self.game.unmake_move(m);

            if self.stopped() {
                self.buffers[ply] = picker.into_buffers();
                return DRAW;
            }

            if v > best {
                best = v;
                if v > alpha {
                    best_move = m;
                    if PV {
                        self.update_pv(ply, m);
                    }
                    if v >= beta {
                        if !tactical {
                            let tried = &quiets_tried[..quiet_count];
                            self.reward_quiet(ply, m, depth, rows, tried);
                        }
                        break;
                    }
                    alpha = v;
                }
            }
            if !tactical && quiet_count < quiets_tried.len() {
                quiets_tried[quiet_count] = m;
                quiet_count += 1;
            }
        }
        self.buffers[ply] = picker.into_buffers();

        if move_count == 0 {
            return if in_check { mated_in(ply_v) } else { self.game.no_moves_value(ply_v) };
        }
        if best == -INFINITE {
            // Every move was pruned: the node is worth at most alpha.
            best = alpha;
        }

        let bound = if best >= beta {
            Bound::Lower
        } else if PV && best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        if !excluding {
            let code = if best_move == G::Move::default() { 0 } else { G::encode_move(best_move) };
            self.shared.tt.store(key, code, to_tt(best, ply_v), depth, bound);
        }
        best
    }

    fn reward_quiet(
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

    /// Quiescence search: tactical moves only (all evasions in check) until quiet.
    pub fn qsearch<const PV: bool>(
        &mut self,
        mut alpha: Value,
        beta: Value,
        ply: usize,
        qdepth: i32,
    ) -> Value {
        self.count_node();
        if self.stopped() {
            return DRAW;
        }
        let ply_v = ply as i32;
        self.seldepth = self.seldepth.max(ply_v);
        if PV {
            self.pv[ply].clear();
        }
        // Capture-check-interpose chains can run for dozens of plies in shogi (the
        // defender drops, the attacker takes and checks again): cut them off.
        if ply_v >= MAX_PLY - 1 || qdepth <= -QS_MAX_PLIES {
            return self.game.evaluate();
        }
        let in_check = self.game.in_check();
        if in_check {
            if let Some(status) = self.game.repetition(REPETITION_PLIES) {
                return Self::repetition_value(status, ply_v);
            }
        }

        let key = self.game.key();
        let entry = self.shared.tt.probe(key);
        let tt_move = entry.map_or(G::Move::default(), |e| G::decode_move(e.mv));
        if let Some(e) = entry {
            let v = from_tt(e.value, ply_v);
            let usable = match e.bound {
                Bound::Exact => true,
                Bound::Lower => v >= beta,
                Bound::Upper => v <= alpha,
            };
            if !PV && usable {
                return v;
            }
        }

        let mut best;
        let stand_pat;
        if in_check {
            best = -INFINITE;
            stand_pat = NONE;
        } else {
            stand_pat = self.game.evaluate();
            if stand_pat >= beta {
                return stand_pat;
            }
            alpha = alpha.max(stand_pat);
            best = stand_pat;
        }
        let original_alpha = alpha;

        let buffers = std::mem::take(&mut self.buffers[ply]);
        let mut picker = MovePicker::quiescence(tt_move, in_check, buffers);
        let mut best_move = G::Move::default();
        let mut move_count = 0;
        while let Some(m) = picker.next(&self.game, &self.quiet_stats([None; 2])) {
            move_count += 1;
            if !in_check {
                // Only exchanges that can lift the value to alpha are worth a look.
                let needed = (alpha - stand_pat - 200).max(0);
                if !self.game.see_ge(m, needed) {
                    continue;
                }
            } else if best > -MATE_IN_MAX_PLY && move_count > 3 && !self.game.is_tactical(m) {
                // Enough evasions tried to know we are not mated.
                continue;
            }
            self.game.make_move(m);
            self.shared.tt.prefetch(self.game.key());
            if PV {
                self.pv[ply + 1].clear();
            }
            let v = -self.qsearch::<PV>(-beta, -alpha, ply + 1, qdepth - 1);
            self.game.unmake_move(m);
            if self.stopped() {
                self.buffers[ply] = picker.into_buffers();
                return DRAW;
            }
            if v > best {
                best = v;
                if v > alpha {
                    best_move = m;
                    if PV {
                        self.update_pv(ply, m);
                    }
                    if v >= beta {
                        break;
                    }
                    alpha = v;
                }
            }
        }
        self.buffers[ply] = picker.into_buffers();
        if in_check && move_count == 0 {
            return mated_in(ply_v);
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if PV && best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let code = if best_move == G::Move::default() { 0 } else { G::encode_move(best_move) };
        self.shared.tt.store(key, code, to_tt(best, ply_v), -1, bound);
        best
    }
}
