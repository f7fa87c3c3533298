//! Shortening a long mate along its own line, before the bounded searches from
//! the root.
//!
//! A first proof of a long problem is usually longer than the shortest mate
//! somewhere along its line. A bounded search from the root finds that spot only
//! by re-searching the whole critical line; most of it is cheap, but the work
//! piles up over a thousand plies. Here the line is walked back from its end: at
//! each attacker node, a small bounded search asks for a mate two plies shorter
//! than the table's proof. Improvements found near the end are in the table when
//! the nodes above them are asked, so a gain deep in the line reaches the root
//! one cheap search at a time. Each search has a node budget; one that runs out
//! leaves the node as it was. The bounded searches from the root afterwards still
//! decide the final length and whether it is proven shortest.

use crate::pn::INF;
use crate::search::{Abort, Search, UNBOUNDED};
use crate::tt::Probe;
use shogi::{Move, Position};

/// Nodes one bounded search along the line may spend.
const NODE_BUDGET: u64 = 10_000;

/// Walks `line` (a mate from `pos`, attacker to move, its key on the path at ply 0)
/// back from its end, shortening the proofs of its attacker nodes in the table.
/// Returns the root's proof length afterwards. Stops early when a limit of the
/// search (time, stop) is reached.
pub fn shorten_along(search: &mut Search, pos: &mut Position, line: &[Move]) -> Option<u16> {
    for (i, &m) in line.iter().enumerate() {
        pos.do_move(m);
        search.path.insert(pos.key(), i as u32 + 1);
    }
    for i in (0..line.len()).rev() {
        let key = pos.key();
        search.path.remove(&key);
        pos.undo_move(line[i]);
        if search.abort.is_some() || pos.side_to_move() != search.attacker {
            continue;
        }
        improve_node(search, pos, i as u32);
    }
    stored_len(search, pos)
}

/// Asks for mates two plies shorter at `pos` until one is not found within the
/// budget.
fn improve_node(search: &mut Search, pos: &mut Position, ply: u32) {
    let limit = search.node_limit;
    while let Some(r) = stored_len(search, pos) {
        if r < 3 {
            break;
        }
        search.node_limit = limit.min(search.nodes + NODE_BUDGET);
        let o = search.mid(pos, INF, INF, r - 2, ply);
        search.node_limit = limit;
        if search.abort == Some(Abort::Nodes) && search.nodes < limit {
            search.abort = None;
            break;
        }
        if !o.is_proven() || search.abort.is_some() {
            break;
        }
    }
}

/// The shortest proof the table holds for `pos`.
fn stored_len(search: &Search, pos: &Position) -> Option<u16> {
    match search.tt.probe(pos.board_key(), pos.hand(search.attacker), UNBOUNDED) {
        Probe::Proven { len, .. } => Some(len),
        _ => None,
    }
}
