//! An independent check of a `nomate` answer: the defender can stay forever in a
//! set of positions that the checker builds and closes.
//!
//! The set `S` is closed when every attacker-to-move position in it has all its
//! checks leading into `S`, and every defender-to-move position in it has at least
//! one evasion leading into `S`. From a position of a closed set the defender
//! answers every check without leaving the set, so no sequence of checks ever
//! mates (a mate needs a defender position with no evasion, and none of those is in
//! `S`); endless checking is a repetition, which the attacker loses. This holds
//! whatever the df-pn search did with repetitions, depths or hand superiority: the
//! table only suggests which evasion to try first.
//!
//! The checker adds positions depth first. At a defender node it tries an evasion
//! into a position already in `S` (already checked, or on the current path: the
//! cycle closes), then evasions the table calls disproven, then the others by
//! their disproof number. A failed attempt is rolled back (every position it added
//! is removed again), so what stays in `S` is always checked against what stays.

use crate::search::KeyHasher;
use crate::search::UNBOUNDED;
use crate::tt::{Probe, Table};
use shogi::movegen::{generate_checks, generate_evasions};
use shogi::{Color, MoveList, Position};
use std::collections::HashSet;
use std::hash::BuildHasherDefault;

struct Certifier<'a> {
    tt: &'a Table,
    attacker: Color,
    set: HashSet<u64, BuildHasherDefault<KeyHasher>>,
    log: Vec<u64>,
    /// Positions whose expansion failed once: not tried again. (This only makes
    /// the checker give up sooner; what it certifies is still checked in full.)
    failed: HashSet<u64, BuildHasherDefault<KeyHasher>>,
    nodes: u64,
    budget: u64,
}

/// Tries to build a closed set around `pos` (either side to move; `attacker` gives
/// checks) expanding at most `budget` positions. `tt`, the table of the search that
/// answered `nomate`, only orders the defender's tries. `Some(size of the set)`
/// certifies that no mate exists; `None` says nothing (the budget ran out, or the
/// tries the checker makes found no closed set).
pub fn certify_nomate(tt: &Table, pos: &Position, attacker: Color, budget: u64) -> Option<usize> {
    let mut pos = pos.clone();
    let mut c = Certifier {
        tt,
        attacker,
        set: HashSet::default(),
        log: Vec::new(),
        failed: HashSet::default(),
        nodes: 0,
        budget,
    };
    c.set.insert(pos.key());
    let closed = if pos.side_to_move() == attacker {
        c.attacker_node(&mut pos)
    } else {
        c.defender_node(&mut pos)
    };
    closed.then_some(c.set.len())
}

impl Certifier<'_> {
    fn attacker_node(&mut self, pos: &mut Position) -> bool {
        self.nodes += 1;
        if self.nodes > self.budget {
            return false;
        }
        let mut checks = MoveList::new();
        generate_checks(pos, &mut checks);
        for &m in checks.iter() {
            pos.do_move(m);
            let key = pos.key();
            let ok = if self.set.contains(&key) {
                true
            } else {
                self.set.insert(key);
                self.log.push(key);
                self.defender_node(pos)
            };
            pos.undo_move(m);
            if !ok {
                return false;
            }
        }
        true
    }

    fn defender_node(&mut self, pos: &mut Position) -> bool {
        self.nodes += 1;
        if self.nodes > self.budget {
            return false;
        }
        let mut evasions = MoveList::new();
        generate_evasions(pos, &mut evasions);
        if evasions.is_empty() {
            return false;
        }
        // Scores: 0 closes at once, then disproven, then by disproof number.
        let mut order: Vec<(u64, usize)> = Vec::with_capacity(evasions.len());
        for (i, &m) in evasions.iter().enumerate() {
            pos.do_move(m);
            let score = if self.set.contains(&pos.key()) {
                Some(0)
            } else if self.failed.contains(&pos.key()) {
                None
            } else {
                match self.tt.probe(pos.board_key(), pos.hand(self.attacker), UNBOUNDED) {
                    Probe::Disproven { .. } => Some(1),
                    Probe::Proven { .. } => None,
                    // The search does not store positions without a check.
                    _ if no_checks(pos) => Some(1),
                    Probe::Unknown { dn, .. } => Some(2 + dn),
                    Probe::Missing => Some(u64::MAX),
                }
            };
            pos.undo_move(m);
            if score == Some(0) {
                return true;
            }
            if let Some(s) = score {
                order.push((s, i));
            }
        }
        order.sort_unstable();
        for &(_, i) in &order {
            let m = evasions.as_slice()[i];
            let mark = self.log.len();
            pos.do_move(m);
            let key = pos.key();
            self.set.insert(key);
            self.log.push(key);
            let ok = self.attacker_node(pos);
            pos.undo_move(m);
            if ok {
                return true;
            }
            self.failed.insert(key);
            for k in self.log.drain(mark..) {
                self.set.remove(&k);
            }
            if self.nodes > self.budget {
                return false;
            }
        }
        false
    }
}

fn no_checks(pos: &Position) -> bool {
    let mut checks = MoveList::new();
    generate_checks(pos, &mut checks);
    checks.is_empty()
}
