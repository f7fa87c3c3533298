//! The algorithms as taught (Sakuta's αβ lecture notes): fixed-depth minimax, alpha-beta in max/min
//! form (two mutually recursive functions) and negamax, all fail-hard, each able to
//! report every step through a [`Tracer`].
//!
//! They exist to be read, tested and compared on explicit trees; the classical
//! engine in [`crate::engine`] is what plays.

mod alphabeta;
mod minimax;
mod negamax;
mod trace;

pub use alphabeta::alphabeta;
pub use minimax::minimax;
pub use negamax::negamax;
pub use trace::{format_trace, CutKind, NoTrace, TraceEvent, Tracer};

use crate::game::{rules_end, Game};
use crate::value::Value;

/// The result of a textbook search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextbookResult<M> {
    /// From the root player's point of view.
    pub value: Value,
    /// The best line found (first move first).
    pub pv: Vec<M>,
    /// Nodes entered, leaves included.
    pub nodes: u64,
    /// Leaves valued (the horizon, or the end of the game).
    pub leaves: u64,
}

/// Shared walking state: the path from the root (for traces) and the node count.
pub(crate) struct Walk<'t, G: Game, T: Tracer<G::Move>> {
    pub game: G,
    pub path: Vec<G::Move>,
    pub nodes: u64,
    pub leaves: u64,
    pub tracer: &'t mut T,
}

impl<G: Game, T: Tracer<G::Move>> Walk<'_, G, T> {
    /// The value of a leaf from the side to move's point of view, or `None` at an
    /// inner node: the rules' end of the game first (as in every algorithm), then
    /// the horizon (`depth` 0: the static value), then a position without moves.
    /// `moves` is filled at inner nodes.
    pub fn leaf(&mut self, depth: u32, moves: &mut Vec<G::Move>) -> Option<Value> {
        if let Some(v) = rules_end(&self.game, self.ply()) {
            return Some(v);
        }
        if depth == 0 {
            return Some(self.game.evaluate());
        }
        moves.clear();
        self.game.legal_moves(moves);
        moves.is_empty().then(|| self.game.no_moves().value(self.ply()))
    }

    pub fn enter(&mut self, window: Option<(Value, Value)>) {
        self.nodes += 1;
        if self.tracer.enabled() {
            let path = self.path.clone();
            self.tracer.event(TraceEvent::Enter { path, window });
        }
    }

    pub fn leave(&mut self, value: Value, leaf: bool) {
        self.leaves += u64::from(leaf);
        if self.tracer.enabled() {
            let path = self.path.clone();
            self.tracer.event(TraceEvent::Leave { path, value, leaf });
        }
    }

    pub fn cut(&mut self, kind: CutKind, pruned: &[G::Move]) {
        if self.tracer.enabled() {
            let path = self.path.clone();
            self.tracer.event(TraceEvent::Cut { path, kind, pruned: pruned.to_vec() });
        }
    }

    pub fn play(&mut self, m: G::Move) {
        self.game.make_move(m);
        self.path.push(m);
    }

    pub fn take_back(&mut self, m: G::Move) {
        self.game.unmake_move(m);
        self.path.pop();
    }

    /// Plies from the root.
    pub fn ply(&self) -> i32 {
        self.path.len() as i32
    }
}

/// `pv` becomes `m` followed by `child`.
pub(crate) fn set_pv<M: Copy>(pv: &mut Vec<M>, m: M, child: &[M]) {
    pv.clear();
    pv.push(m);
    pv.extend_from_slice(child);
}
