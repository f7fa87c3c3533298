//! Pieces of the side to move under threat: attacked by a cheaper enemy piece, or
//! attacked and not defended.
//!
//! Quiescence search stands pat on the static evaluation, which assumes the side to
//! move loses nothing by doing nothing. With one piece en prise it can usually save
//! it; with two (a fork) it can save only one. The term weighs the most valuable and
//! the second most valuable threatened piece by kind (tuned tables), from the side to
//! move's point of view. Threats to the other side need no term: the side to move's
//! captures are searched.

use crate::phase::{self as paired, Pair};
use crate::weights::{self, exchange_value, THREAT_FIRST, THREAT_SECOND};
use shogi::attacks::piece_attacks;
use shogi::{Bitboard, PieceKind, Position};

/// Exchange classes, cheapest first: a piece is threatened when a piece of a lower
/// class attacks it, whether or not it is defended.
pub(crate) const CLASSES: usize = 8;

/// What the side not to move attacks, by the exchange class of the attacker.
pub(crate) type AttacksByClass = [Bitboard; CLASSES];

/// The exchange class of `kind` (kings are never "cheaper" than what they attack).
#[inline]
pub(crate) fn class(kind: PieceKind) -> usize {
    match kind {
        PieceKind::Pawn => 0,
        PieceKind::Lance | PieceKind::Knight => 1,
        PieceKind::Silver => 2,
        PieceKind::Gold
        | PieceKind::ProPawn
        | PieceKind::ProLance
        | PieceKind::ProKnight
        | PieceKind::ProSilver => 3,
        PieceKind::Bishop => 4,
        PieceKind::Rook => 5,
        PieceKind::Horse | PieceKind::Dragon => 6,
        PieceKind::King => 7,
    }
}

/// The kinds of the side to move's most valuable and second most valuable threatened
/// pieces (by exchange value), if any.
#[inline]
pub fn threatened_pieces(pos: &Position) -> (Option<PieceKind>, Option<PieceKind>) {
    let them = pos.side_to_move().flip();
    let occ = pos.occupied();
    // What the enemy attacks, by the class of the attacker.
    let mut by_class = pawn_class(pos);
    for sq in pos.pieces(them) & !pos.pieces_of(them, PieceKind::Pawn) {
        let kind = pos.piece_on(sq).kind().unwrap_or(PieceKind::Pawn);
        by_class[class(kind)] |= piece_attacks(them, kind, sq, occ);
    }
    threatened_by(pos, &by_class)
}

/// [`AttacksByClass`] with only the pawns' class filled in: a pawn attacks the
/// square in front of it, the pawns shifted one rank forward.
#[inline]
pub(crate) fn pawn_class(pos: &Position) -> AttacksByClass {
    let them = pos.side_to_move().flip();
    let mut by_class = [Bitboard::EMPTY; CLASSES];
    by_class[0] = pos.pieces_of(them, PieceKind::Pawn).forward(them);
    by_class
}

/// [`threatened_pieces`] given what the enemy attacks by class (every piece of
/// it, its king included).
#[inline]
fn threatened_by(
    pos: &Position,
    by_class: &AttacksByClass,
) -> (Option<PieceKind>, Option<PieceKind>) {
    let us = pos.side_to_move();
    let occ = pos.occupied();
    let ours = pos.pieces(us) & !pos.pieces_of_kind(PieceKind::King);
    let attacked_at_all = by_class.iter().fold(Bitboard::EMPTY, |a, &b| a | b);
    let mut first: Option<(i32, PieceKind)> = None;
    let mut second: Option<(i32, PieceKind)> = None;
    for sq in ours & attacked_at_all {
        let kind = pos.piece_on(sq).kind().unwrap_or(PieceKind::Pawn);
        let cheaper = by_class[..class(kind)].iter().any(|b| b.contains(sq));
        if !cheaper && pos.is_attacked(us, sq, occ) {
            continue;
        }
        let value = exchange_value(kind);
        if first.is_none_or(|(v, _)| value > v) {
            second = first;
            first = Some((value, kind));
        } else if second.is_none_or(|(v, _)| value > v) {
            second = Some((value, kind));
        }
    }
    (first.map(|(_, k)| k), second.map(|(_, k)| k))
}

const fn any_nonzero(table: &[i32; 15]) -> bool {
    let mut i = 0;
    while i < table.len() {
        if table[i] != 0 {
            return true;
        }
        i += 1;
    }
    false
}

/// Whether the tables hold anything: with all weights zero (the term not fitted, or
/// fitted and not kept) the engine skips the attack scan.
pub const ACTIVE: bool = any_nonzero(&THREAT_FIRST)
    || any_nonzero(&THREAT_SECOND)
    || any_nonzero(&weights::phase::THREAT_FIRST)
    || any_nonzero(&weights::phase::THREAT_SECOND);

/// The threat term from the side to move's point of view.
#[inline]
pub fn threats(pos: &Position) -> Pair {
    if !ACTIVE {
        return 0;
    }
    value(threatened_pieces(pos))
}

/// [`threats`] given what the enemy attacks by class (see [`threatened_by`]).
#[inline]
pub(crate) fn threats_by(pos: &Position, by_class: &AttacksByClass) -> Pair {
    value(threatened_by(pos, by_class))
}

#[inline]
fn value((first, second): (Option<PieceKind>, Option<PieceKind>)) -> Pair {
    first.map_or(0, |k| paired::THREAT_FIRST[k.index()])
        + second.map_or(0, |k| paired::THREAT_SECOND[k.index()])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn threatened(sfen: &str) -> (Option<PieceKind>, Option<PieceKind>) {
        shogi::attacks::init();
        threatened_pieces(&Position::from_sfen(sfen).unwrap())
    }

    #[test]
    fn a_piece_attacked_by_a_pawn_is_threatened_even_when_defended() {
        // Black's silver on 5e, defended by the gold on 5f, attacked by White's pawn on 5d.
        let t = threatened("4k4/9/9/4p4/4S4/4G4/9/9/4K4 b - 1");
        assert_eq!(t, (Some(PieceKind::Silver), None));
    }

    #[test]
    fn a_defended_piece_attacked_by_an_equal_one_is_safe() {
        // Silver against silver, the black silver defended by a gold.
        let t = threatened("4k4/9/9/3s5/4S4/4G4/9/9/4K4 b - 1");
        assert_eq!(t, (None, None));
        // Without the gold it hangs.
        let t = threatened("4k4/9/9/3s5/4S4/9/9/9/4K4 b - 1");
        assert_eq!(t, (Some(PieceKind::Silver), None));
    }

    #[test]
    fn a_fork_threatens_two_pieces_ordered_by_value() {
        // Black to move, its rook on 4e and gold on 6e forked by White's knight on 5c.
        let t = threatened("4k4/9/4n4/9/3G1R3/9/9/9/4K4 b - 1");
        assert_eq!(t, (Some(PieceKind::Rook), Some(PieceKind::Gold)));
    }

    #[test]
    fn only_the_side_to_move_is_counted() {
        // The same fork with White to move: White's pieces are not threatened.
        let t = threatened("4k4/9/4n4/9/3G1R3/9/9/9/4K4 w - 1");
        assert_eq!(t, (None, None));
    }

    #[test]
    fn skipping_the_scan_never_changes_the_term() {
        // The shortcut for all-zero tables must give what the full lookup gives.
        assert!(!any_nonzero(&[0; 15]));
        let mut one = [0; 15];
        one[14] = -1;
        assert!(any_nonzero(&one));
        shogi::attacks::init();
        let pos = Position::from_sfen("4k4/9/4n4/9/3G1R3/9/9/9/4K4 b - 1").unwrap();
        let (first, second) = threatened_pieces(&pos);
        let pair_of = |table: &[i32; 15], phase: &[i32; 15], k: PieceKind| {
            crate::phase::pair(table[k.index()], phase[k.index()])
        };
        let full = first.map_or(0, |k| pair_of(&THREAT_FIRST, &weights::phase::THREAT_FIRST, k))
            + second.map_or(0, |k| pair_of(&THREAT_SECOND, &weights::phase::THREAT_SECOND, k));
        assert_eq!(threats(&pos), full);
    }
}
