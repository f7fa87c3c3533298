//! The PVS node search, step by step.
//!
//! Every margin is written in hundredths of the game's unit (`units`), so each
//! game is pruned on its own scale.

use super::worker::Worker;
use crate::game::{rules_end, units, Game};
use crate::history::ContinuationRow;
use crate::picker::MovePicker;
use crate::qsearch::repetition_end;
use crate::tt::{Bound, TtEntry};
use crate::value::*;

/// What the singular-extension test concluded about the hash move.
enum Singular {
    /// Every other move falls short: search the hash move a ply deeper.
    Extend,
    /// Even without the hash move the node fails high: it is cut with this value.
    Cut(Value),
    Neither,
    /// The test was cut short by a stop.
    Stopped,
}

/// Facts about the node that the move loop's decisions read.
struct Node {
    ply: usize,
    depth: i32,
    in_check: bool,
    improving: bool,
    static_eval: Value,
    cut_node: bool,
    /// The continuation-history rows for this node's moves.
    rows: [ContinuationRow; 2],
}

/// Facts about the move being tried.
#[derive(Clone, Copy)]
struct Tried<M> {
    m: M,
    /// Its number in the node's order, pruned moves counted.
    count: usize,
    tactical: bool,
    gives_check: bool,
}

impl<G: Game> Worker<'_, G> {
    /// The PVS node search at `ply`, `depth` plies above the horizon, within
    /// `(alpha, beta)`; fail-soft. `PV`: a node on the principal variation (open
    /// window, its line kept). `cut_node`: a null-window node expected to fail high.
    pub(super) fn search<const PV: bool>(
        &mut self,
        mut alpha: Value,
        mut beta: Value,
        depth: i32,
        ply: usize,
        cut_node: bool,
    ) -> Value {
        // Step 1. At the horizon the quiescence search takes over.
        if depth <= 0 {
            return self.qsearch::<PV>(alpha, beta, ply);
        }

        // Step 2. Count the node; give up when told to stop.
        self.ctx.count_node();
        self.counters.main_nodes += 1;
        if self.stopped() {
            return DRAW;
        }
        let ply_v = ply as i32;
        self.seldepth = self.seldepth.max(ply_v);
        self.plies.clear_line(ply);

        // Step 3. The end of the game: the rules, a repetition, the ply limit.
        if let Some(v) = rules_end(&self.game, ply_v) {
            return v;
        }
        if let Some(v) = repetition_end(&self.game, ply_v) {
            return v;
        }
        if ply_v >= MAX_PLY - 1 {
            return self.game.evaluate();
        }

        // Step 4. Mate distance pruning: no line here beats a mate found nearer.
        alpha = alpha.max(mated_in(ply_v));
        beta = beta.min(mate_in(ply_v + 1));
        if alpha >= beta {
            return alpha;
        }

        // Step 5. The transposition table: a deep enough bound ends the node
        // (off the principal variation).
        let excluded = self.excluded[ply];
        let excluding = excluded != G::Move::default();
        let key = self.game.key();
        let entry = self.tt.probe(key);
        self.counters.table_probes += 1;
        self.counters.table_hits += u64::from(entry.is_some());
        let tt_move = entry.map_or(G::Move::default(), |e| G::decode_move(e.mv));
        if let Some(e) = entry {
            if !PV && !excluding && e.depth >= depth && cuts(e, ply_v, alpha, beta) {
                return from_tt(e.value, ply_v);
            }
        }

        // Step 6. A mate in one ends the search here whatever the pruning below
        // would do (mating moves are often sacrifices that exchange rules prune).
        // A result this step stored before (a main-search depth, not its own
        // mate) means it found none in this position then, and the answer
        // depends on the position alone.
        let in_check = self.game.in_check();
        let tested_before = entry.is_some_and(|e| e.depth >= 1 && e.depth < MAX_PLY);
        debug_assert!(
            !tested_before || in_check || excluding || self.game.mate_in_one().is_none(),
            "a stored main-search result where this step would find a mate in one"
        );
        if !in_check && !excluding && !tested_before {
            if let Some(m) = self.game.mate_in_one() {
                let v = mate_in(ply_v + 1);
                if PV {
                    self.plies.end_line(ply, m);
                }
                self.tt.store(key, G::encode_move(m), to_tt(v, ply_v), MAX_PLY, Bound::Exact);
                return v;
            }
        }

        // Step 7. The static value, and whether it rose since our last move.
        let static_eval = if in_check { NONE } else { self.corrected_eval() };
        self.stack[ply].static_eval = static_eval;
        let improving = !in_check
            && ply >= 2
            && self.stack[ply - 2].static_eval != NONE
            && static_eval > self.stack[ply - 2].static_eval;
        let rows = self.continuation_rows(ply);
        let node = Node { ply, depth, in_check, improving, static_eval, cut_node, rows };

        // Steps 8 and 9 trust the static value: not where the opponent threatens
        // to end the game on its next move.
        if !PV && !in_check && !excluding && !self.game.opponent_threatens_to_end() {
            // Step 8. Reverse futility: far above beta with little depth left.
            if depth < 7
                && static_eval.abs() < MATE_IN_MAX_PLY
                && static_eval
                    - units::<G>(self.params.futility_margin) * (depth - i32::from(improving))
                    >= beta
            {
                return static_eval;
            }
            // Step 9. Null move: if passing still fails high, a real move will too.
            if let Some(v) = self.null_move(&node, beta) {
                return v;
            }
        }

        // Step 10. Without a hash move this node was never searched: a little
        // shallower.
        let depth = if PV && depth >= 4 && entry.is_none() { depth - 1 } else { depth };
        let node = Node { depth, ..node };

        // Step 11. The moves, best-looking first.
        self.killers.clear_ply(ply + 1);
        let killers = self.killers.get(ply);
        let buffers = self.plies.take_buffers(ply);
        let mut picker = MovePicker::main(tt_move, killers, in_check, buffers);
        let mut best = -INFINITE;
        let mut best_move = G::Move::default();
        let mut move_count = 0usize;
        let mut quiets_tried: [G::Move; 32] = [G::Move::default(); 32];
        let mut quiet_count = 0usize;
        let original_alpha = alpha;

        while let Some(m) = picker.next(&self.game, &self.stats(node.rows)) {
            if m == excluded {
                continue;
            }
            move_count += 1 + picker.take_skipped();
            let tactical = self.game.is_tactical(m);
            let gives_check = self.game.gives_check(m);
            let tried = Tried { m, count: move_count, tactical, gives_check };

            // Step 11a. Shallow-depth pruning, never before one move has a value.
            if best > -MATE_IN_MAX_PLY && !in_check && ply > 0 {
                match self.prune::<PV>(&node, &tried, alpha) {
                    Prune::Keep => {}
                    Prune::This => continue,
                    Prune::AllQuiets => {
                        picker.quiet_checks_only(&self.game);
                        continue;
                    }
                }
            }

            // Step 11b. Extensions: checks that do not simply lose the checking
            // piece, bounded so that checking sequences cannot run away; the
            // singular hash move.
            let mut extension = i32::from(
                gives_check && depth <= 6 && ply_v < 2 * self.root_depth && self.game.see_ge(m, 0),
            );
            if let Some(e) = entry.filter(|_| m == tt_move && !excluding) {
                match self.singular(&node, m, e) {
                    Singular::Extend => extension = 1,
                    Singular::Cut(v) if beta <= v => {
                        self.plies.give_back(ply, picker.into_buffers());
                        return v;
                    }
                    Singular::Stopped => {
                        self.plies.give_back(ply, picker.into_buffers());
                        return DRAW;
                    }
                    Singular::Cut(_) | Singular::Neither => {}
                }
            }

            // Step 11c. The move: late moves reduced, the rest with a null window
            // first, re-searched when they beat alpha.
            let v = self.search_move::<PV>(&node, &tried, depth - 1 + extension, alpha, beta);
            if self.stopped() {
                self.plies.give_back(ply, picker.into_buffers());
                return DRAW;
            }

            // Step 11d. A better move: the line, and at a cut the histories.
            if v > best {
                best = v;
                if v > alpha {
                    best_move = m;
                    if PV {
                        self.plies.extend_line(ply, m);
                    }
                    if v >= beta {
                        if !tactical {
                            let tried = &quiets_tried[..quiet_count];
                            self.reward_quiet(ply, m, depth, node.rows, tried);
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
        self.plies.give_back(ply, picker.into_buffers());

        // Step 12. No move at all: the game says what that means. Every move
        // pruned: the node is worth at most alpha.
        if move_count == 0 {
            return self.game.no_moves().value(ply_v);
        }
        if best == -INFINITE {
            best = alpha;
        }

        // Step 13. Store the result.
        let bound = Bound::of(best, original_alpha, beta, PV);
        if !excluding {
            let code = if best_move == G::Move::default() { 0 } else { G::encode_move(best_move) };
            self.tt.store(key, code, to_tt(best, ply_v), depth, bound);
        }

        // Step 14. What the search found here against the static value, for
        // positions like this one: where a quiet move or none was best (a
        // capture's gain is not the static value's error).
        let quiet_best = best_move == G::Move::default() || !self.game.is_tactical(best_move);
        if !in_check && !excluding && quiet_best {
            self.learn_correction(best, bound, static_eval, depth);
        }
        best
    }

    /// Step 9: the null move. `Some(value)` when passing fails high.
    fn null_move(&mut self, node: &Node, beta: Value) -> Option<Value> {
        let (ply, depth) = (node.ply, node.depth);
        if depth < 2
            || node.static_eval < beta
            || self.stack[ply].after_null
            || beta <= -MATE_IN_MAX_PLY
            || !self.game.null_move_allowed()
        {
            return None;
        }
        let p = &self.params;
        let above = (node.static_eval - beta) / units::<G>(p.null_eval_div);
        let r = p.null_base + depth / p.null_depth_div + above.min(p.null_eval_max);
        self.game.make_null_move();
        self.stack[ply + 1].after_null = true;
        self.stack[ply + 1].moved = super::worker::NO_MOVE;
        let v = -self.search::<false>(-beta, -beta + 1, depth - r, ply + 1, !node.cut_node);
        self.stack[ply + 1].after_null = false;
        self.game.unmake_null_move();
        if self.stopped() {
            return Some(DRAW);
        }
        (v >= beta).then_some(if v >= MATE_IN_MAX_PLY { beta } else { v })
    }

    /// Step 11a: whether the `move_count`th move `m` is pruned, and whether every
    /// later quiet move is too.
    fn prune<const PV: bool>(&self, node: &Node, tried: &Tried<G::Move>, alpha: Value) -> Prune {
        let depth = node.depth;
        let (m, gives_check) = (tried.m, tried.gives_check);
        if !tried.tactical && !gives_check {
            // Late quiet moves, and quiet moves far below alpha (checks are kept:
            // they may mate). Both hold for every later quiet move too: the
            // move count and alpha only grow.
            let p = &self.params;
            let lmp_limit =
                (p.lmp_base + depth * depth) as usize / (2 - usize::from(node.improving));
            if depth <= 6 && tried.count > lmp_limit {
                return Prune::AllQuiets;
            }
            let futility = units::<G>(p.futility_base) + units::<G>(p.futility_margin) * depth;
            if depth <= 6 && node.static_eval + futility <= alpha && !PV {
                return Prune::AllQuiets;
            }
            // Quiet moves that lose material in the exchange on their square.
            if depth <= 4 && !self.game.see_ge(m, units::<G>(-p.see_quiet * depth * depth)) {
                return Prune::This;
            }
        } else if depth <= 6 {
            // Captures and checks that lose too much material.
            let p = &self.params;
            let check = p.see_check * i32::from(gives_check) * depth * depth;
            let threshold = units::<G>(-p.see_tactical * depth - check);
            if !self.game.see_ge(m, threshold) {
                return Prune::This;
            }
        }
        Prune::Keep
    }

    /// Step 11b: the singular-extension test of the hash move `m`: searched
    /// without it, at half depth and a little below its stored value, does the node
    /// still reach that value?
    fn singular(&mut self, node: &Node, m: G::Move, e: TtEntry) -> Singular {
        let (ply, depth) = (node.ply, node.depth);
        let ply_v = ply as i32;
        let tt_value = from_tt(e.value, ply_v);
        if ply == 0
            || depth < self.params.singular_depth
            || e.depth < depth - 3
            || e.bound == Bound::Upper
            || tt_value.abs() >= MATE_IN_MAX_PLY
            || ply_v >= 2 * self.root_depth
        {
            return Singular::Neither;
        }
        let singular_beta = tt_value - self.params.singular_margin * depth;
        self.excluded[ply] = m;
        let v = self.search::<false>(
            singular_beta - 1,
            singular_beta,
            (depth - 1) / 2,
            ply,
            node.cut_node,
        );
        self.excluded[ply] = G::Move::default();
        if self.stopped() {
            Singular::Stopped
        } else if v < singular_beta {
            Singular::Extend
        } else {
            Singular::Cut(singular_beta)
        }
    }

    /// Step 11c: makes the move, searches it `new_depth` plies deep and takes it
    /// back; the value is from this node's side.
    fn search_move<const PV: bool>(
        &mut self,
        node: &Node,
        tried: &Tried<G::Move>,
        new_depth: i32,
        alpha: Value,
        beta: Value,
    ) -> Value {
        let (ply, depth, cut_node) = (node.ply, node.depth, node.cut_node);
        let Tried { m, count: move_count, tactical, gives_check } = *tried;
        let history_index = self.game.history_index(m);
        let continuation_index = self.game.continuation_index(m);
        self.stack[ply + 1].moved = continuation_index;
        self.game.make_move(m);
        self.tt.prefetch(self.game.key());
        self.stack[ply + 1].after_null = false;
        if PV {
            self.plies.clear_line(ply + 1);
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
            if !node.improving {
                r += 1;
            }
            if gives_check || node.in_check {
                r -= 1;
            }
            if !tactical {
                let history = self.stats(node.rows).score(history_index, continuation_index);
                r -= history / self.params.history_div;
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
        v
    }
}

/// What shallow-depth pruning decided about a move.
enum Prune {
    Keep,
    /// This move is skipped.
    This,
    /// This move and every later quiet move but checks.
    AllQuiets,
}

/// Whether a stored result decides the node: exact, or a bound on the right side
/// of the window.
fn cuts(e: TtEntry, ply: i32, alpha: Value, beta: Value) -> bool {
    e.bound.settles(from_tt(e.value, ply), alpha, beta)
}
