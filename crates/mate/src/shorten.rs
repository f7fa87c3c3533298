//! Shortening a long mate along its own line, before the bounded searches from
//! the root.
//!
//! A first proof of a long problem is usually longer than the shortest mate
//! somewhere along its line. A bounded search from the root finds that spot only
//! by re-searching the whole critical line; most of it is cheap, but the work
//! piles up over a thousand plies. Here the line is walked back from its end: at
//! each attacker node, a small bounded search asks for a mate two plies shorter
//! than the table's proof, first through the line's own move only (a gain found
//! below reaches the node in a few nodes: the defender's replies are re-proven
//! from the table), then through every other move with the line's move ruled out.
//! Ruling it out matters: otherwise the search spends its budget going down the
//! old line again (it looks cheap, its proof is only too long), and misses short
//! cuts such as a drop that reaches, two moves sooner, a position further down the
//! line. Improvements found near the end are in the table when the nodes above
//! them are asked, so a gain deep in the line reaches the root one cheap search at
//! a time. Each search has a node budget; one that runs out leaves the node as it
//! was. The bounded searches from the root afterwards still decide the final
//! length and whether it is proven shortest.

use crate::pn::INF;
use crate::search::{Abort, MoveFilter, Search, UNBOUNDED};
use crate::tt::Probe;
use shogi::{Move, Position};

/// Nodes one bounded search along the line may spend looking for another move.
const NODE_BUDGET: u64 = 10_000;
/// Nodes one bounded search may spend bringing a node up to date through the
/// line's own move: enough to re-prove the defender's replies from the table.
const REFRESH_BUDGET: u64 = 1_000;

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
        improve_node(search, pos, i as u32, line[i]);
    }
    stored_len(search, pos)
}

/// Asks for mates two plies shorter at `pos` until one is not found within the
/// budget: first through the line's own move (whose subtree the pass has just
/// shortened, so this only brings the node up to date), then through any other
/// move (with the line's move ruled out, the search does not spend its budget
/// going down the old line again).
fn improve_node(search: &mut Search, pos: &mut Position, ply: u32, line_move: Move) {
    let phases = [
        (MoveFilter::Only(line_move), REFRESH_BUDGET),
        (MoveFilter::Without(line_move), NODE_BUDGET),
    ];
    for (filter, budget) in phases {
        while let Some(r) = stored_len(search, pos) {
            if r < 3 || !bounded_search(search, pos, ply, r - 2, filter, budget) {
                break;
            }
        }
        if search.abort.is_some() {
            break;
        }
    }
}

/// One search from `pos` for a mate within `bound`, with the moves `filter`
/// keeps and `budget` nodes. True when it proves one.
fn bounded_search(
    search: &mut Search,
    pos: &mut Position,
    ply: u32,
    bound: u16,
    filter: MoveFilter,
    budget: u64,
) -> bool {
    let limit = search.node_limit;
    search.node_limit = limit.min(search.nodes + budget);
    search.root_filter = Some((ply, filter));
    let o = search.mid(pos, INF, INF, bound, ply);
    search.root_filter = None;
    search.node_limit = limit;
    if search.abort == Some(Abort::Nodes) && search.nodes < limit {
        search.abort = None;
        return false;
    }
    o.is_proven() && search.abort.is_none()
}

/// The shortest proof the table holds for `pos`.
fn stored_len(search: &Search, pos: &Position) -> Option<u16> {
    match search.tt.probe(pos.board_key(), pos.hand(search.attacker), UNBOUNDED) {
        Probe::Proven { len, .. } => Some(len),
        _ => None,
    }
}
