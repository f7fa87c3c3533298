//! Mate in one without generating every evasion: after each check, the defender's
//! escapes are tried cheapest first (king steps, capture of the checker, then
//! interpositions) and the first one found ends the test.

use shogi::attacks::{between, king_attacks, line, piece_attacks};
use shogi::movegen::{generate_checks, MoveList};
use shogi::{Bitboard, Move, PieceKind, Position, Square};

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
    if list.is_empty() {
        return None;
    }
    let flight = flight_squares(pos);
    for &m in list.iter() {
        if let Some((ksq, free)) = flight {
            if keeps_a_flight_square(pos, m, ksq, free) {
                continue;
            }
        }
        pos.do_move(m);
        let mated = !has_evasion(pos);
        pos.undo_move(m);
        if mated {
            return Some(m);
        }
    }
    None
}

/// The defending king's square and the squares next to it that it could step to
/// now: not its own pieces', attacked by none of ours (seen through the king, as
/// the king cannot hide behind itself). `None` without a king, or with no such
/// square.
fn flight_squares(pos: &Position) -> Option<(Square, Bitboard)> {
    let us = pos.side_to_move();
    let them = us.flip();
    let ksq = pos.king_square(them)?;
    let occ = pos.occupied() ^ Bitboard::from_square(ksq);
    let mut free = Bitboard::EMPTY;
    for sq in king_attacks(ksq) & !pos.pieces(them) {
        if !pos.is_attacked(us, sq, occ) {
            free |= Bitboard::from_square(sq);
        }
    }
    free.is_nonempty().then_some((ksq, free))
}

/// Whether after the check `m` the king can still step to one of the squares in
/// `free` (see [`flight_squares`]), decided without making the move, so that most
/// checks that do not mate cost no `do_move`. Exact when it says yes: the moved
/// piece's new attacks are computed, and every other piece of ours attacks from
/// where it stands, with the lines the move opens (a piece left at `from` only
/// sees less than before, so the square stays free of it). `false` means "make
/// the move and see".
///
/// A piece put on `to` only blocks lines, so a free square the moved piece does
/// not attack stays free unless the move opens a line to it through `from`: only
/// squares in line with `from` are tested again (none after a drop).
fn keeps_a_flight_square(pos: &Position, m: Move, ksq: Square, free: Bitboard) -> bool {
    let us = pos.side_to_move();
    let to = Bitboard::from_square(m.to());
    let mut occ = pos.occupied() | to;
    let (kind, from) = if m.is_drop() {
        (m.moved_kind(), None)
    } else {
        occ ^= Bitboard::from_square(m.from());
        (m.kind_after(), Some(m.from()))
    };
    let occ = occ ^ Bitboard::from_square(ksq);
    let candidates = free & !to & !piece_attacks(us, kind, m.to(), occ);
    let Some(from) = from else {
        return candidates.is_nonempty();
    };
    candidates.into_iter().any(|sq| line(sq, from).is_empty() || !pos.is_attacked(us, sq, occ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use shogi::legal_moves;
    use shogi::movegen::generate_evasions;

    /// Plays `games` games of up to `plies` plies from the start position, showing
    /// `visit` every position before its move (a mated one too) and playing the move
    /// `choose(position, legal moves, random number, game number)` picks.
    fn random_games(
        mut seed: u64,
        games: usize,
        plies: usize,
        mut visit: impl FnMut(&mut Position),
        mut choose: impl FnMut(&Position, &[Move], usize, usize) -> Move,
    ) {
        for game in 0..games {
            let mut pos = Position::startpos();
            for _ in 0..plies {
                visit(&mut pos);
                let moves = legal_moves(&pos);
                if moves.is_empty() {
                    break;
                }
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                let m = choose(&pos, moves.as_slice(), (seed >> 33) as usize, game);
                pos.do_move(m);
            }
        }
    }

    /// Random games that prefer checks: every position in check is judged both ways.
    #[test]
    fn agrees_with_full_evasion_generation() {
        let (mut checked, mut mates) = (0, 0);
        let visit = |pos: &mut Position| {
            if pos.in_check() {
                checked += 1;
                let mut ev = MoveList::new();
                generate_evasions(pos, &mut ev);
                mates += usize::from(ev.is_empty());
                assert_eq!(has_evasion(pos), !ev.is_empty(), "{}", pos.to_sfen());
            }
        };
        let choose = |pos: &Position, moves: &[Move], r: usize, game: usize| {
            let mut list = MoveList::new();
            if !pos.in_check() {
                generate_checks(pos, &mut list);
            }
            if !list.is_empty() && (r.is_multiple_of(3) || game.is_multiple_of(2)) {
                list.as_slice()[r % list.len()]
            } else {
                moves[r % moves.len()]
            }
        };
        random_games(7, 400, 200, visit, choose);
        assert!(checked > 1000 && mates > 10, "{checked} checks, {mates} mates");
    }

    /// Every check made and tested: what `mate_in_one` must agree with.
    fn mate_in_one_by_making_every_check(pos: &mut Position) -> Option<Move> {
        let mut list = MoveList::new();
        generate_checks(pos, &mut list);
        list.iter().copied().find(|&m| {
            pos.do_move(m);
            let mated = !has_evasion(pos);
            pos.undo_move(m);
            mated
        })
    }

    /// The flight-square shortcut changes no answer: random games with many checks
    /// and pieces in hand, every position not in check.
    #[test]
    fn the_flight_square_shortcut_agrees_with_making_every_check() {
        let (mut tested, mut mates, mut skipped) = (0, 0, 0);
        let visit = |pos: &mut Position| {
            if pos.in_check() {
                return;
            }
            tested += 1;
            let fast = mate_in_one(pos);
            assert_eq!(fast, mate_in_one_by_making_every_check(pos), "{}", pos.to_sfen());
            mates += usize::from(fast.is_some());
            if let Some((ksq, free)) = flight_squares(pos) {
                let mut list = MoveList::new();
                generate_checks(pos, &mut list);
                skipped +=
                    list.iter().filter(|&&m| keeps_a_flight_square(pos, m, ksq, free)).count();
            }
        };
        // Prefer captures, so hands fill and checks abound.
        let choose = |_: &Position, moves: &[Move], r: usize, _: usize| {
            let captures: Vec<Move> = moves.iter().copied().filter(|m| m.is_capture()).collect();
            if !captures.is_empty() && r.is_multiple_of(2) {
                captures[r % captures.len()]
            } else {
                moves[r % moves.len()]
            }
        };
        random_games(11, 300, 160, visit, choose);
        assert!(tested > 20_000 && mates > 100 && skipped > 10_000, "{tested} {mates} {skipped}");
    }

    #[test]
    fn finds_a_simple_mate() {
        let mut pos = Position::from_sfen("4k4/9/4P4/9/9/9/9/9/4K4 b G 1").unwrap();
        let m = mate_in_one(&mut pos).unwrap();
        assert_eq!(m.to_usi(), "G*5b");
    }
}
