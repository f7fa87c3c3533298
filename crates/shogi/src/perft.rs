//! Perft: counting the leaves of the legal move tree, the standard check of a
//! move generator. The last ply is counted without making its moves.

use crate::movegen::{generate_legal, MoveList};
use crate::mv::Move;
use crate::position::Position;

/// The number of legal move sequences of length `depth`.
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut list = MoveList::new();
    generate_legal(pos, &mut list);
    if depth == 1 {
        return list.len() as u64;
    }
    let mut nodes = 0;
    for &m in list.iter() {
        pos.do_move(m);
        nodes += perft(pos, depth - 1);
        pos.undo_move(m);
    }
    nodes
}

/// Perft split by root move, in generation order.
pub fn perft_divide(pos: &mut Position, depth: u32) -> Vec<(Move, u64)> {
    let mut list = MoveList::new();
    generate_legal(pos, &mut list);
    let mut out = Vec::with_capacity(list.len());
    for &m in list.iter() {
        pos.do_move(m);
        let n = if depth <= 1 { 1 } else { perft(pos, depth - 1) };
        pos.undo_move(m);
        out.push((m, n));
    }
    out
}
