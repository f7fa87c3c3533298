//! Proof and disproof hands: the attacker's hand a result really depends on.
//!
//! A node proven with the attacker holding `H` is usually proven with less: the
//! pieces the mate never drops do not matter. The search stores each proof under
//! the smallest hand it needs (the *proof hand*) and each disproof under the
//! largest hand it holds for (the *disproof hand*), so that hand superiority in
//! the table answers for many more positions.
//!
//! The rules (attacker's hand at each node; the defender holds the rest of the
//! pieces off the board, so a larger attacker hand is a smaller defender hand):
//! - a proven attacker node: the proving child's proof hand, plus the piece the
//!   move dropped, minus the piece it captured;
//! - a proven defender node: the largest count of each kind over all its
//!   children, and, when the check can be blocked, the attacker's whole count of
//!   every kind the defender lacks (with fewer of it, the defender could drop it
//!   between and escape some other way);
//! - a disproven attacker node: the smallest count of each kind over all its
//!   children (each read back before the move), and no more than the attacker
//!   holds of any kind it lacks (one would give new drop checks); with no child,
//!   every piece off the board of each kind it holds;
//! - a disproven defender node: the refuting child's disproof hand.

use shogi::attacks::between;
use shogi::{Color, Hand, Move, PieceKind, Position};

/// The attacker's hand before `mv`, given a hand that works after it: the dropped
/// piece back in, the captured piece out (if the hand has it).
#[inline]
pub fn before_attacker_move(after: Hand, mv: Move) -> Hand {
    let mut h = after;
    if mv.is_drop() {
        h.add(mv.moved_kind());
    } else if let Some(captured) = mv.captured() {
        let kind = captured.unpromote();
        if h.has(kind) {
            h.remove(kind);
        }
    }
    h
}

/// The least a proof at a defender node needs whatever its children need: when
/// the check can be blocked by a drop, all the attacker holds of each kind the
/// defender does not (so the defender still cannot drop it). `pos` is the
/// defender to move, in check.
pub fn defender_node_floor(pos: &Position, attacker: Color) -> Hand {
    let defender = attacker.flip();
    let checkers = pos.checkers();
    if checkers.is_empty() || checkers.more_than_one() {
        return Hand::EMPTY;
    }
    let Some(king) = pos.king_square(defender) else { return Hand::EMPTY };
    if between(king, checkers.lsb()).is_empty() {
        return Hand::EMPTY;
    }
    let ours = pos.hand(attacker);
    let theirs = pos.hand(defender);
    let mut floor = Hand::EMPTY;
    for kind in PieceKind::HAND {
        if !theirs.has(kind) {
            floor = floor.max_each(only(kind, ours.count(kind)));
        }
    }
    floor
}

/// The disproof hand of an attacker node with no checks at all, or the start of
/// the minimum over its children: every piece off the board of each kind the
/// attacker holds, none of the kinds it lacks.
pub fn attacker_node_ceiling(pos: &Position, attacker: Color) -> Hand {
    let ours = pos.hand(attacker);
    let theirs = pos.hand(attacker.flip());
    let mut ceiling = Hand::EMPTY;
    for kind in PieceKind::HAND {
        if ours.has(kind) {
            ceiling = ceiling.max_each(only(kind, ours.count(kind) + theirs.count(kind)));
        }
    }
    ceiling
}

/// A hand of `count` pieces of `kind`.
fn only(kind: PieceKind, count: u32) -> Hand {
    Hand::EMPTY.with_count(kind, count).unwrap_or(Hand::EMPTY)
}

#[cfg(test)]
mod tests {
    use super::*;
    use shogi::movegen::generate_checks;
    use shogi::MoveList;

    #[test]
    fn a_drop_needs_its_piece_and_a_capture_brings_one() {
        let pos = Position::from_sfen("4k4/9/4P4/9/9/9/9/9/9 b GS 1").unwrap();
        let mut checks = MoveList::new();
        generate_checks(&pos, &mut checks);
        let drop = checks.iter().copied().find(|m| m.is_drop()).unwrap();
        let before = before_attacker_move(Hand::EMPTY, drop);
        assert_eq!(before.count(drop.moved_kind()), 1);
        assert_eq!(before.total(), 1);
    }

    #[test]
    fn a_blockable_check_fixes_the_kinds_the_defender_lacks() {
        // White's king in check from a rook two squares away; White holds a pawn.
        let pos = Position::from_sfen("4k4/9/4R4/9/9/9/9/9/9 w GSp 1").unwrap();
        let floor = defender_node_floor(&pos, Color::Black);
        assert_eq!(floor.count(PieceKind::Gold), 1);
        assert_eq!(floor.count(PieceKind::Silver), 1);
        assert_eq!(floor.count(PieceKind::Pawn), 0);
        // Adjacent checker: nothing can be dropped between.
        let pos = Position::from_sfen("4k4/4R4/9/9/9/9/9/9/9 w GSp 1").unwrap();
        assert_eq!(defender_node_floor(&pos, Color::Black), Hand::EMPTY);
    }

    #[test]
    fn the_ceiling_is_everything_off_the_board_of_the_kinds_held() {
        let pos = Position::from_sfen("4k4/9/9/9/9/9/9/9/9 b G2p 1").unwrap();
        let c = attacker_node_ceiling(&pos, Color::Black);
        assert_eq!(c.count(PieceKind::Gold), 1);
        assert_eq!(c.count(PieceKind::Pawn), 0);
        let pos = Position::from_sfen("4k4/9/9/9/9/9/9/9/9 b GP2p 1").unwrap();
        assert_eq!(attacker_node_ceiling(&pos, Color::Black).count(PieceKind::Pawn), 3);
    }
}
