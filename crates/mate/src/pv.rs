//! Reading the mate out of the table after the proof.
//!
//! When the root's length `L` is exact (proven within `L`, disproven within `L-2`),
//! every node on the line is exact too, and the line is walked like this:
//! - attacker node with exact length `r`: any child proven within `r-1` has exact
//!   length `r-1` (a shorter one would make the node shorter than `r`); take it.
//! - defender node with exact length `r`: some non-futile child has exact length
//!   `r-1`; a child proven within `r-1` is it unless it is also proven within
//!   `r-3`, which a bounded search settles. Among such children the defender takes
//!   the one after which the attacker ends with the fewest pieces in hand (looked
//!   at only while the rest of the line is short, see `TIE_BREAK_PLIES`).
//!
//! Entries the table has dropped are proven again by a bounded search from the
//! node. Without an exact root length (the search was stopped while shortening)
//! the defender simply takes the longest stored proof.

use crate::futile::is_futile_interposition;
use crate::pn::INF;
use crate::search::Search;
use crate::tt::Probe;
use shogi::movegen::{generate_checks, generate_evasions};
use shogi::{Move, MoveList, Position};

/// Ties between equally long defences are broken by looking at the whole rest of
/// the line only when at most this many plies remain.
const TIE_BREAK_PLIES: u16 = 12;

/// The mate line of `len` plies from `pos` (attacker to move, its key on the path
/// at ply 0). `None` if the table and bounded searches cannot produce it.
pub fn extract(
    search: &mut Search,
    pos: &mut Position,
    len: u16,
    exact: bool,
) -> Option<Vec<Move>> {
    let mut pv = Vec::with_capacity(len as usize);
    let ok = walk(search, pos, len, exact, 0, &mut pv);
    for &m in pv.iter().rev() {
        search.path.remove(&pos.key());
        pos.undo_move(m);
    }
    if ok {
        Some(pv)
    } else {
        None
    }
}

/// Appends the line to `pv`, playing it on `pos` (the caller takes it back);
/// `pos` is at `base_ply` on the search path.
fn walk(
    search: &mut Search,
    pos: &mut Position,
    len: u16,
    exact: bool,
    base_ply: u32,
    pv: &mut Vec<Move>,
) -> bool {
    let mut r = len;
    loop {
        let ply = base_ply + pv.len() as u32;
        let next = if pos.side_to_move() == search.attacker {
            if r == 0 {
                return false;
            }
            attacker_move(search, pos, r, ply)
        } else {
            match defender_move(search, pos, r, ply, exact) {
                DefenderChoice::Move(m) => Some(m),
                DefenderChoice::Mated => return true,
                DefenderChoice::Broken => return false,
            }
        };
        let Some(m) = next else {
            return false;
        };
        pos.do_move(m);
        search.path.insert(pos.key(), ply + 1);
        pv.push(m);
        r = r.saturating_sub(1);
    }
}

fn proven_len(search: &Search, pos: &Position, remaining: u16) -> Option<u16> {
    match search.tt.probe(pos.board_key(), pos.hand(search.attacker), remaining) {
        Probe::Proven { len, .. } => Some(len),
        _ => None,
    }
}

/// Searches the child reached by `m` within `remaining`; its proof length, if any.
fn prove_child(
    search: &mut Search,
    pos: &mut Position,
    m: Move,
    remaining: u16,
    ply: u32,
) -> Option<u16> {
    pos.do_move(m);
    let key = pos.key();
    let result = if search.path.contains_key(&key) {
        None
    } else if let Some(len) = proven_len(search, pos, remaining) {
        Some(len)
    } else {
        search.path.insert(key, ply + 1);
        let o = search.mid(pos, INF, INF, remaining, ply + 1);
        search.path.remove(&key);
        if o.is_proven() {
            Some(o.proof_len)
        } else {
            None
        }
    };
    pos.undo_move(m);
    result
}

/// The attacker's move at a node with `r` plies left: the shortest stored proof.
fn attacker_move(search: &mut Search, pos: &mut Position, r: u16, ply: u32) -> Option<Move> {
    let mut checks = MoveList::new();
    generate_checks(pos, &mut checks);
    for attempt in 0..2 {
        let mut proven: Vec<(u16, Move)> = Vec::new();
        for &m in checks.iter() {
            pos.do_move(m);
            let len = if search.path.contains_key(&pos.key()) {
                None
            } else {
                proven_len(search, pos, r - 1)
            };
            pos.undo_move(m);
            if let Some(len) = len {
                proven.push((len, m));
            }
        }
        if let Some(shortest) = proven.iter().map(|p| p.0).min() {
            proven.retain(|p| p.0 == shortest);
            if proven.len() == 1 {
                return Some(proven[0].1);
            }
            // Equally short: the attacker ends with the fewest pieces in hand.
            let best = proven
                .iter()
                .min_by_key(|&&(len, m)| final_hand(search, pos, m, len, ply))
                .map(|p| p.1);
            return best;
        }
        if attempt == 0 {
            // The table lost the line: prove this node again within `r`.
            let o = search.mid(pos, INF, INF, r, ply);
            if !o.is_proven() {
                return None;
            }
        }
    }
    None
}

/// How many pieces the attacker holds at the end of the line that starts with `m`
/// and then lasts `len` plies (only for short lines; otherwise 0, which keeps the
/// generation order).
fn final_hand(search: &mut Search, pos: &mut Position, m: Move, len: u16, ply: u32) -> u32 {
    if len + 1 > TIE_BREAK_PLIES {
        return 0;
    }
    let attacker = search.attacker;
    let mut line = Vec::new();
    pos.do_move(m);
    search.path.insert(pos.key(), ply + 1);
    let ok = walk(search, pos, len, true, ply + 1, &mut line);
    let held = pos.hand(attacker).total();
    for &mv in line.iter().rev() {
        search.path.remove(&pos.key());
        pos.undo_move(mv);
    }
    search.path.remove(&pos.key());
    pos.undo_move(m);
    if ok {
        held
    } else {
        u32::MAX
    }
}

enum DefenderChoice {
    Move(Move),
    /// No legal reply, or only futile interpositions: the line ends here.
    Mated,
    /// The table and searches could not justify the line.
    Broken,
}

/// The defender's reply at a node with exact length `r` (or `r` an upper bound
/// when `exact` is false): the longest defence.
fn defender_move(
    search: &mut Search,
    pos: &mut Position,
    r: u16,
    ply: u32,
    exact: bool,
) -> DefenderChoice {
    let mut evasions = MoveList::new();
    generate_evasions(pos, &mut evasions);
    let counted: Vec<Move> = evasions
        .iter()
        .copied()
        .filter(|&m| !(search.futile_rule && is_futile_interposition(pos, m)))
        .collect();
    if counted.is_empty() {
        return DefenderChoice::Mated;
    }
    if r == 0 {
        return DefenderChoice::Broken;
    }
    let mut lens = Vec::with_capacity(counted.len());
    for &m in &counted {
        match prove_child(search, pos, m, r - 1, ply) {
            Some(len) => lens.push(len),
            None => return DefenderChoice::Broken,
        }
    }
    let longest = lens.iter().copied().max().unwrap_or(0);
    if !exact {
        let i = lens.iter().position(|&l| l == longest).unwrap_or(0);
        return DefenderChoice::Move(counted[i]);
    }
    // Children proven within r-1 whose length is exactly r-1.
    let mut candidates = Vec::new();
    for (i, &m) in counted.iter().enumerate() {
        if lens[i] + 1 < r {
            continue;
        }
        let shorter = r >= 4 && prove_child(search, pos, m, r - 3, ply).is_some();
        if !shorter {
            candidates.push(m);
        }
    }
    match candidates.len() {
        0 => {
            let i = lens.iter().position(|&l| l == longest).unwrap_or(0);
            DefenderChoice::Move(counted[i])
        }
        1 => DefenderChoice::Move(candidates[0]),
        _ => {
            // The defender prefers the line that leaves the attacker nothing over.
            let mut best = candidates[0];
            let mut best_hand = u32::MAX;
            for &m in &candidates {
                let held = final_hand(search, pos, m, r - 1, ply);
                if held < best_hand {
                    best_hand = held;
                    best = m;
                }
            }
            DefenderChoice::Move(best)
        }
    }
}
