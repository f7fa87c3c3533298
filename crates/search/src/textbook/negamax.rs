//! Negamax (Sakuta's αβ notes, list 2): one function, the window and the value negated at
//! every ply, so each node sees values from its own side to move.

use super::{set_pv, CutKind, TextbookResult, Tracer, Walk};
use crate::game::Game;
use crate::value::Value;

/// Negamax from the root with window `(a, b)`, fail-hard; the value is the root
/// player's. Cuts at even plies are beta-cuts, at odd plies alpha-cuts.
pub fn negamax<G: Game, T: Tracer<G::Move>>(
    game: &G,
    depth: u32,
    a: Value,
    b: Value,
    tracer: &mut T,
) -> TextbookResult<G::Move> {
    let mut walk = Walk { game: game.clone(), path: Vec::new(), nodes: 0, leaves: 0, tracer };
    let mut pv = Vec::new();
    let value = node(&mut walk, depth, a, b, &mut pv);
    TextbookResult { value, pv, nodes: walk.nodes, leaves: walk.leaves }
}

fn node<G: Game, T: Tracer<G::Move>>(
    walk: &mut Walk<'_, G, T>,
    depth: u32,
    a: Value,
    b: Value,
    pv: &mut Vec<G::Move>,
) -> Value {
    walk.enter(Some((a, b)));
    // A leaf's line is empty: nothing of a sibling's line may stay in it.
    pv.clear();
    let mut moves = Vec::new();
    if let Some(v) = walk.leaf(depth, &mut moves) {
        walk.leave(v, true);
        return v;
    }
    let mut m_value = a;
    let mut child_pv = Vec::new();
    for (i, &m) in moves.iter().enumerate() {
        walk.play(m);
        let v = -node(walk, depth - 1, -b, -m_value, &mut child_pv);
        walk.take_back(m);
        if v > m_value || i == 0 {
            set_pv(pv, m, &child_pv);
        }
        if v > m_value {
            m_value = v;
            if m_value >= b {
                let kind = if walk.ply() % 2 == 0 { CutKind::Beta } else { CutKind::Alpha };
                walk.cut(kind, &moves[i + 1..]);
                walk.leave(m_value, false);
                return m_value;
            }
        }
    }
    walk.leave(m_value, false);
    m_value
}
