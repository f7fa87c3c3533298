//! Futile interpositions (無駄合), the rule Kyobo applies when it counts mate length.
//!
//! A defender's move is a futile interposition when all of these hold:
//! 1. the defender is in check from exactly one piece, a slider (lance, bishop,
//!    rook, horse or dragon) with at least one empty square between it and the king;
//! 2. the move drops a piece from hand onto one of those squares;
//! 3. no defending piece other than the king attacks that square;
//! 4. the king cannot take back there either: the square is not next to the king,
//!    or another attacking piece (counted with the checker gone from its square,
//!    so a piece behind it on the line counts) also attacks it.
//!
//! 5. after the checker takes the dropped piece (promoting or not), the defender is
//!    left with no reply but futile interpositions (by this same rule, further in),
//!    or with none at all.
//!
//! So the drop only delays the same mate by two plies and the piece it gives away
//! is not needed. Such a drop must still be refuted (the solver proves that each
//! one is mated too), but it adds nothing to the length: the mate length of a
//! defender node is the longest among its other replies, and a position whose only
//! replies are futile interpositions counts as mate. Interpositions by a piece
//! moved on the board, or onto a square the defence guards, always count.

use shogi::attacks::{between, king_attacks};
use shogi::movegen::{generate_checks, generate_evasions};
use shogi::{Bitboard, MoveList};
use shogi::{Move, Position};

/// Whether `m`, a legal reply of the side in check, is a futile interposition.
/// (`pos` is changed and restored.)
pub fn is_futile_interposition(pos: &mut Position, m: Move) -> bool {
    is_futile_within(pos, m, MAX_NESTED_DROPS)
}

/// Condition 5 nests: a drop further out is futile if the ones closer in are. The
/// nesting is cut off here (deeper chains count as not futile), because every level
/// multiplies the work by the number of drops.
const MAX_NESTED_DROPS: u32 = 3;

fn is_futile_within(pos: &mut Position, m: Move, depth: u32) -> bool {
    if depth == 0 || !passes_static_test(pos, m) {
        return false;
    }
    let checker = pos.checkers().lsb();
    let to = m.to();
    pos.do_move(m);
    let mut checks = MoveList::new();
    generate_checks(pos, &mut checks);
    let mut futile = false;
    for &take in checks.iter().filter(|c| !c.is_drop() && c.from() == checker && c.to() == to) {
        pos.do_move(take);
        futile = is_terminal(pos, depth - 1);
        pos.undo_move(take);
        if futile {
            break;
        }
    }
    pos.undo_move(m);
    futile
}

/// Conditions 1 to 4: cheap, and enough to rule most drops out.
fn passes_static_test(pos: &Position, m: Move) -> bool {
    if !m.is_drop() {
        return false;
    }
    let checkers = pos.checkers();
    if checkers.is_empty() || checkers.more_than_one() {
        return false;
    }
    let us = pos.side_to_move();
    let Some(ksq) = pos.king_square(us) else {
        return false;
    };
    let checker = checkers.lsb();
    let to = m.to();
    if !between(ksq, checker).contains(to) {
        return false;
    }
    let occ = pos.occupied();
    let guards = pos.attackers_to(us, to, occ) & !Bitboard::from_square(ksq);
    if guards.is_nonempty() {
        return false;
    }
    if !king_attacks(ksq).contains(to) {
        return true;
    }
    // Next to the king: the king could take back unless the checker is protected there.
    let without_checker = occ ^ Bitboard::from_square(checker);
    let support =
        pos.attackers_to(us.flip(), to, without_checker) & !Bitboard::from_square(checker);
    support.is_nonempty()
}

/// The side to move (in check) has no reply, or only futile interpositions.
fn is_terminal(pos: &mut Position, depth: u32) -> bool {
    let mut replies = MoveList::new();
    generate_evasions(pos, &mut replies);
    replies.iter().all(|&r| is_futile_within(pos, r, depth))
}

/// Whether every legal reply of the side to move (in check) is a futile
/// interposition and there is at least one: the position counts as mate.
pub fn only_futile_replies(pos: &mut Position) -> bool {
    if !pos.in_check() {
        return false;
    }
    let mut list = MoveList::new();
    generate_evasions(pos, &mut list);
    !list.is_empty() && list.iter().all(|&m| is_futile_interposition(pos, m))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drops_the_rook_takes_for_mate_are_futile() {
        // White king 1a; black rook 9a checks along rank a; the gold on 1c takes 1b
        // and 2b, the knight on 3c protects 2a. Every drop on 2a..8a is taken by the
        // rook, which leaves the same picture: the position counts as mate.
        let mut pos = Position::from_sfen("R7k/9/6N1G/9/9/9/9/9/9 w g 1").unwrap();
        for text in ["G*2a", "G*5a", "G*8a"] {
            let m = pos.parse_usi_move(text).unwrap();
            assert!(is_futile_interposition(&mut pos, m), "{text}");
        }
        assert!(only_futile_replies(&mut pos));
    }

    #[test]
    fn a_drop_the_king_can_take_back_or_that_is_guarded_counts() {
        // No knight: the king takes back on 2a, and with a second gold in hand a drop
        // further out is answered by one on 2a after the capture.
        let mut pos = Position::from_sfen("R7k/9/8G/9/9/9/9/9/9 w 2g 1").unwrap();
        for text in ["G*2a", "G*5a"] {
            let m = pos.parse_usi_move(text).unwrap();
            assert!(!is_futile_interposition(&mut pos, m), "{text}");
        }
        // The white silver on 4b guards 5a.
        let mut pos = Position::from_sfen("R7k/5s3/6N1G/9/9/9/9/9/9 w g 1").unwrap();
        let m = pos.parse_usi_move("G*5a").unwrap();
        assert!(!is_futile_interposition(&mut pos, m));
        let king = pos.parse_usi_move("1a2b");
        assert!(king.is_err(), "2b is covered by the gold");
    }
}
