//! Helpers shared by the solver's integration tests.

use shogi::movegen::{generate_checks, generate_evasions, MoveList};
use shogi::Position;

/// Plain exhaustive search, independent of df-pn and its table: can the attacker
/// mate within `plies`?
pub fn mate_within(pos: &mut Position, plies: u32) -> bool {
    if plies == 0 {
        return false;
    }
    let mut checks = MoveList::new();
    generate_checks(pos, &mut checks);
    checks.iter().any(|&m| {
        pos.do_move(m);
        let mated = all_replies_mated(pos, plies - 1);
        pos.undo_move(m);
        mated
    })
}

fn all_replies_mated(pos: &mut Position, plies: u32) -> bool {
    let mut replies = MoveList::new();
    generate_evasions(pos, &mut replies);
    if replies.is_empty() {
        return true;
    }
    plies > 0
        && replies.iter().all(|&m| {
            pos.do_move(m);
            let mated = mate_within(pos, plies - 1);
            pos.undo_move(m);
            mated
        })
}
