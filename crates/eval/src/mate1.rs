//! Mate in one without generating every evasion: after each check, the defender's
//! escapes are tried cheapest first (king steps, capture of the checker, then
//! interpositions) and the first one found ends the test.

use shogi::attacks::{between, king_attacks};
use shogi::movegen::{generate_checks, MoveList};
use shogi::{Bitboard, Move, PieceKind, Position};

/// Whether the side to move, in check, has a legal reply. Exact, except that a pawn
/// drop interposing with mate (uchifuzume) counts as a reply: the answer errs only
/// towards "not mated", so a mate reported from it is always real.
pub fn has_evasion(pos: &Position) -> bool {
    let us = pos.side_to_move();
    let them = us.flip();
    let Some(ksq) = pos.king_square(us) else {
        return true;
    };
    let own = pos.pieces(us);
    let occ = pos.occupied();
    let occ_no_king = occ ^ Bitboard::from_square(ksq);
    for sq in king_attacks(ksq) & !own {
        if !pos.is_attacked(them, sq, occ_no_king) {
            return true;
        }
    }
    let checkers = pos.checkers();
    if checkers.is_empty() {
        return true;
    }
    if checkers.more_than_one() {
        return false;
    }
    let checker = checkers.lsb();
    let movers = own & !Bitboard::from_square(ksq) & !pos.pinned(us);
    if (pos.attackers_to(us, checker, occ) & movers).is_nonempty() {
        return true;
    }
    let gap = between(ksq, checker);
    if gap.is_empty() {
        return false;
    }
    let hand = pos.hand(us);
    if hand.has(PieceKind::Gold)
        || hand.has(PieceKind::Silver)
        || hand.has(PieceKind::Bishop)
        || hand.has(PieceKind::Rook)
    {
        return true;
    }
    let pawn_files = pos.pieces_of(us, PieceKind::Pawn);
    for sq in gap {
        let rel = sq.relative_rank(us);
        if hand.has(PieceKind::Lance) && rel > 0
            || hand.has(PieceKind::Knight) && rel > 1
            || hand.has(PieceKind::Pawn)
                && rel > 0
                && (pawn_files & Bitboard::file(sq.file())).is_empty()
        {
            return true;
        }
        if (pos.attackers_to(us, sq, occ) & movers).is_nonempty() {
            return true;
        }
    }
    false
}

/// A checking move that leaves the opponent without a reply, if there is one.
/// The side to move must not be in check.
pub fn mate_in_one(pos: &mut Position) -> Option<Move> {
    let mut list = MoveList::new();
    generate_checks(pos, &mut list);
    for &m in list.iter() {
        pos.do_move(m);
        let mated = !has_evasion(pos);
        pos.undo_move(m);
        if mated {
            return Some(m);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use shogi::legal_moves;
    use shogi::movegen::generate_evasions;

    /// Random games that prefer checks: every position in check is judged both ways.
    #[test]
    fn agrees_with_full_evasion_generation() {
        let mut seed = 7u64;
        let mut checked = 0;
        let mut mates = 0;
        for game in 0..400 {
            let mut pos = Position::startpos();
            for _ in 0..200 {
                let moves = legal_moves(&pos);
                if moves.is_empty() {
                    break;
                }
                let mut list = MoveList::new();
                if !pos.in_check() {
                    generate_checks(&pos, &mut list);
                }
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                let r = (seed >> 33) as usize;
                let m = if !list.is_empty() && (r.is_multiple_of(3) || game % 2 == 0) {
                    list.as_slice()[r % list.len()]
                } else {
                    moves[r % moves.len()]
                };
                pos.do_move(m);
                if pos.in_check() {
                    checked += 1;
                    let mut ev = MoveList::new();
                    generate_evasions(&pos, &mut ev);
                    if ev.is_empty() {
                        mates += 1;
                    }
                    assert_eq!(has_evasion(&pos), !ev.is_empty(), "{}", pos.to_sfen());
                }
            }
        }
        assert!(checked > 1000 && mates > 10, "{checked} checks, {mates} mates");
    }

    #[test]
    fn finds_a_simple_mate() {
        let mut pos = Position::from_sfen("4k4/9/4P4/9/9/9/9/9/4K4 b G 1").unwrap();
        let m = mate_in_one(&mut pos).unwrap();
        assert_eq!(m.to_usi(), "G*5b");
    }
}
