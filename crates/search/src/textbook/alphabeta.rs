//! Alpha-beta in max/min form (Sakuta's αβ notes, list 1): a MAX function and a MIN function
//! calling each other, values always from MAX's (the root player's) side.

use super::{set_pv, CutKind, TextbookResult, Tracer, Walk};
use crate::game::Game;
use crate::value::Value;

/// Alpha-beta from the root (a MAX node) with window `(alpha, beta)`, fail-hard.
pub fn alphabeta<G: Game, T: Tracer<G::Move>>(
    game: &G,
    depth: u32,
    alpha: Value,
    beta: Value,
    tracer: &mut T,
) -> TextbookResult<G::Move> {
    let mut walk = Walk { game: game.clone(), path: Vec::new(), nodes: 0, leaves: 0, tracer };
    let mut pv = Vec::new();
    let value = max_node(&mut walk, depth, alpha, beta, &mut pv);
    TextbookResult { value, pv, nodes: walk.nodes, leaves: walk.leaves }
}

/// The value of a leaf from MAX's side, `v` from the side to move's.
fn leaf_value<G: Game, T: Tracer<G::Move>>(
    walk: &mut Walk<'_, G, T>,
    v: Value,
    is_max: bool,
) -> Value {
    let v = if is_max { v } else { -v };
    walk.leave(v, true);
    v
}

fn max_node<G: Game, T: Tracer<G::Move>>(
    walk: &mut Walk<'_, G, T>,
    depth: u32,
    alpha: Value,
    beta: Value,
    pv: &mut Vec<G::Move>,
) -> Value {
    walk.enter(Some((alpha, beta)));
    // A leaf's line is empty: nothing of a sibling's line may stay in it.
    pv.clear();
    let mut moves = Vec::new();
    if let Some(v) = walk.leaf(depth, &mut moves) {
        return leaf_value(walk, v, true);
    }
    let mut m_value = alpha;
    let mut child_pv = Vec::new();
    for (i, &m) in moves.iter().enumerate() {
        walk.play(m);
        let v = min_node(walk, depth - 1, m_value, beta, &mut child_pv);
        walk.take_back(m);
        if v > m_value || i == 0 {
            set_pv(pv, m, &child_pv);
        }
        if v > m_value {
            m_value = v;
            if m_value >= beta {
                walk.cut(CutKind::Beta, &moves[i + 1..]);
                walk.leave(m_value, false);
                return m_value;
            }
        }
    }
    walk.leave(m_value, false);
    m_value
}

fn min_node<G: Game, T: Tracer<G::Move>>(
    walk: &mut Walk<'_, G, T>,
    depth: u32,
    alpha: Value,
    beta: Value,
    pv: &mut Vec<G::Move>,
) -> Value {
    walk.enter(Some((alpha, beta)));
    // A leaf's line is empty: nothing of a sibling's line may stay in it.
    pv.clear();
    let mut moves = Vec::new();
    if let Some(v) = walk.leaf(depth, &mut moves) {
        return leaf_value(walk, v, false);
    }
    let mut m_value = beta;
    let mut child_pv = Vec::new();
    for (i, &m) in moves.iter().enumerate() {
        walk.play(m);
        let v = max_node(walk, depth - 1, alpha, m_value, &mut child_pv);
        walk.take_back(m);
        if v < m_value || i == 0 {
            set_pv(pv, m, &child_pv);
        }
        if v < m_value {
            m_value = v;
            if m_value <= alpha {
                walk.cut(CutKind::Alpha, &moves[i + 1..]);
                walk.leave(m_value, false);
                return m_value;
            }
        }
    }
    walk.leave(m_value, false);
    m_value
}
