//! Plain minimax: every node to the given depth, no pruning.

use super::{set_pv, TextbookResult, Tracer, Walk};
use crate::game::Game;
use crate::value::Value;

/// Minimax to `depth` plies; values are the root player's (MAX's).
pub fn minimax<G: Game, T: Tracer<G::Move>>(
    game: &G,
    depth: u32,
    tracer: &mut T,
) -> TextbookResult<G::Move> {
    let mut walk = Walk { game: game.clone(), path: Vec::new(), nodes: 0, leaves: 0, tracer };
    let mut pv = Vec::new();
    let value = node(&mut walk, depth, true, &mut pv);
    TextbookResult { value, pv, nodes: walk.nodes, leaves: walk.leaves }
}

fn node<G: Game, T: Tracer<G::Move>>(
    walk: &mut Walk<'_, G, T>,
    depth: u32,
    is_max: bool,
    pv: &mut Vec<G::Move>,
) -> Value {
    walk.enter(None);
    // A leaf's line is empty: nothing of a sibling's line may stay in it.
    pv.clear();
    // The game speaks for the side to move; MIN's view is the negation.
    let sign = if is_max { 1 } else { -1 };
    let mut moves = Vec::new();
    if let Some(v) = walk.leaf(depth, &mut moves) {
        walk.leave(sign * v, true);
        return sign * v;
    }
    let mut best = None::<Value>;
    let mut child_pv = Vec::new();
    for &m in &moves {
        walk.play(m);
        let v = node(walk, depth - 1, !is_max, &mut child_pv);
        walk.take_back(m);
        let better = match best {
            None => true,
            Some(b) => (is_max && v > b) || (!is_max && v < b),
        };
        if better {
            best = Some(v);
            set_pv(pv, m, &child_pv);
        }
    }
    let v = best.unwrap_or(0);
    walk.leave(v, false);
    v
}
