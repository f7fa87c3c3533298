//! Replays a mate with the rules core and says what is wrong with it, if anything:
//! every attacker move must be a legal check, every defender move legal, no
//! position may repeat, and the end must be checkmate (or, under the futile
//! interposition rule, a position whose only replies are futile interpositions).

use crate::futile::only_futile_replies;
use shogi::movegen::{generate_checks, generate_legal};
use shogi::{Move, MoveList, Position};
use std::collections::HashSet;

/// How a mate sequence ends when it is correct.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MateEnd {
    /// The defender has no legal move.
    Checkmate,
    /// The defender's only replies are futile interpositions (counted as mate).
    OnlyFutileInterpositions,
}

/// Checks `pv`, moves from `pos`: the attacker's first, or the defender's when the
/// side to move is in check (a problem with the defender to move).
pub fn verify_mate(pos: &Position, pv: &[Move], futile_rule: bool) -> Result<MateEnd, String> {
    let mut pos = pos.clone();
    let attacker = if pos.in_check() { pos.side_to_move().flip() } else { pos.side_to_move() };
    let mut seen = HashSet::new();
    seen.insert(pos.key());
    for (i, &m) in pv.iter().enumerate() {
        let mut list = MoveList::new();
        if pos.side_to_move() == attacker {
            generate_checks(&pos, &mut list);
            if !list.contains(m) {
                return Err(format!("ply {}: {m} is not a legal check", i + 1));
            }
        } else {
            generate_legal(&pos, &mut list);
            if !list.contains(m) {
                return Err(format!("ply {}: {m} is not a legal reply", i + 1));
            }
        }
        pos.do_move(m);
        if !seen.insert(pos.key()) {
            return Err(format!("ply {}: {m} repeats a position", i + 1));
        }
    }
    if pos.side_to_move() == attacker {
        return Err("the sequence ends with the attacker to move".into());
    }
    let mut replies = MoveList::new();
    generate_legal(&pos, &mut replies);
    if replies.is_empty() {
        Ok(MateEnd::Checkmate)
    } else if futile_rule && only_futile_replies(&mut pos) {
        Ok(MateEnd::OnlyFutileInterpositions)
    } else {
        Err(format!("the defender still has {} replies at the end", replies.len()))
    }
}

/// As `verify_mate`, for moves in USI notation.
pub fn verify_usi_mate(pos: &Position, pv: &[&str], futile_rule: bool) -> Result<MateEnd, String> {
    let mut p = pos.clone();
    let mut moves = Vec::with_capacity(pv.len());
    for (i, text) in pv.iter().enumerate() {
        let m = p.parse_usi_move(text).map_err(|e| format!("ply {}: {e}", i + 1))?;
        p.do_move(m);
        moves.push(m);
    }
    verify_mate(pos, &moves, futile_rule)
}
