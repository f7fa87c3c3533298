//! The root of a PVS iteration: aspiration windows around the previous value,
//! and the root node, which keeps every root move's value and line.

use super::worker::{Frame, Worker, NO_MOVE};
use crate::game::{units, Game};
use crate::searcher::{BoundReport, RootMoves};
use crate::tt::Bound;
use crate::value::*;

impl<G: Game> Worker<'_, G> {
    /// Searches line `roots.pv_idx` at `depth` with aspiration windows around the
    /// previous value, widening the side that fails until the value is inside.
    pub(super) fn aspiration(
        &mut self,
        roots: &mut RootMoves<G::Move>,
        depth: i32,
        mut on_bound: Option<BoundReport<'_, G::Move>>,
    ) {
        let pv_idx = roots.pv_idx;
        let prev = roots.moves[pv_idx].previous_score;
        let mut delta =
            units::<G>(self.params.aspiration_delta) + prev.abs() / self.params.aspiration_div;
        let (mut alpha, mut beta) = if depth >= 4 && prev.abs() < MATE_IN_MAX_PLY {
            ((prev - delta).max(-INFINITE), (prev + delta).min(INFINITE))
        } else {
            (-INFINITE, INFINITE)
        };
        loop {
            let v = self.search_root(roots, alpha, beta, depth);
            roots.moves[pv_idx..].sort_by_key(|r| std::cmp::Reverse(r.score));
            if self.stopped() {
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
            if let Some(report) = on_bound.as_mut() {
                report(roots, bound);
            }
            delta += delta / 2;
            if delta > units::<G>(1500) {
                alpha = -INFINITE;
                beta = INFINITE;
            }
        }
    }

    /// Searches the root moves from `roots.pv_idx` on with window (alpha, beta):
    /// the first with the full window, the others with a null window first (late
    /// quiet ones a ply shallower), re-searched when they beat alpha.
    fn search_root(
        &mut self,
        roots: &mut RootMoves<G::Move>,
        mut alpha: Value,
        beta: Value,
        depth: i32,
    ) -> Value {
        self.seldepth = 0;
        self.root_depth = depth;
        self.plies.clear_line(0);
        let mut best = -INFINITE;
        let in_check = self.game.in_check();
        self.stack[0] = Frame {
            static_eval: if in_check { NONE } else { self.game.evaluate() },
            after_null: false,
            moved: NO_MOVE,
        };
        let pv_idx = roots.pv_idx;
        for i in pv_idx..roots.moves.len() {
            let m = roots.moves[i].mv;
            let first = i == pv_idx;
            let extension = i32::from(self.game.gives_check(m) && depth <= 4);
            let new_depth = depth - 1 + extension;
            self.stack[1].moved = self.game.continuation_index(m);
            self.game.make_move(m);
            self.tt.prefetch(self.game.key());
            self.stack[1].after_null = false;
            self.plies.clear_line(1);
            let mut v;
            if first {
                v = -self.search::<true>(-beta, -alpha, new_depth, 1, false);
            } else {
                // Late quiet root moves are tried a little shallower first.
                let r = if depth >= 3 && i - pv_idx >= 4 && !self.game.in_check() { 1 } else { 0 };
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
                let tail = self.plies.line(1);
                let rm = &mut roots.moves[i];
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
                    roots.best_move_changes += 1.0;
                }
            } else {
                roots.moves[i].score = -INFINITE;
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
        if !self.stopped() && pv_idx == 0 {
            let bm = roots.moves.iter().max_by_key(|r| r.score).map(|r| r.mv);
            if let Some(bm) = bm {
                let bound = if best >= beta { Bound::Lower } else { Bound::Exact };
                self.tt.store(self.game.key(), G::encode_move(bm), to_tt(best, 0), depth, bound);
            }
        }
        best
    }
}
