//! Control of the squares next to each king: which of them the enemy holds, which
//! it only contests, and where the king could still step.
//!
//! The king-danger term counts the enemy's hits on the king's neighbourhood; it
//! does not ask whether the defender covers the same squares. Here every square
//! next to the king is weighed by who controls it, as a shogi player reads a
//! castle: a square the enemy attacks more often than it is defended is where a
//! drop or a capture lands with check. The terms are linear in tuned tables.

use crate::king_safety::{danger_from_scan, scan_both_zones, scan_zone, ZoneScan, DANGER};
use crate::weights::{ESCAPE_SQUARES, WEAK_COUNT, ZONE_CONTESTED, ZONE_WEAK};
use shogi::attacks::king_attacks;
use shogi::{Color, PieceKind, Position, Square};

/// Classes of the squares next to a king, as its owner sees them, left and right
/// mirrored: in front, diagonally in front, beside, behind, diagonally behind.
pub const ZONE_PLACES: usize = 5;

/// Rows of `WEAK_COUNT`: whether the attacker holds a piece other than pawns in hand.
pub const HAND_STATES: usize = 2;

/// The class of `sq`, a square next to `king`, as `owner` sees the board.
#[inline]
fn zone_place(sq: Square, king: Square, owner: Color) -> usize {
    let (s, k) = match owner {
        Color::Black => (sq, king),
        Color::White => (sq.flip(), king.flip()),
    };
    let sideways = s.file() != k.file();
    match (s.rank() as i32 - k.rank() as i32, sideways) {
        (-1, false) => 0,
        (-1, true) => 1,
        (0, _) => 2,
        (_, false) => 3,
        (_, true) => 4,
    }
}

/// The king-zone features of both kings: `visit(feature, sign)` with +1 for what
/// describes Black's king and -1 for White's.
#[inline]
pub fn for_each_zone_feature(pos: &Position, mut visit: impl FnMut(ZoneFeature, i32)) {
    for (color, sign) in [(Color::Black, 1), (Color::White, -1)] {
        if let Some(ksq) = pos.king_square(color) {
            let attack = scan_zone(pos, color.flip(), ksq, None);
            zone_features(pos, color, ksq, &attack, |f| visit(f, sign));
        }
    }
}

/// The features of `color`'s king on `ksq`, given the scan of the enemy's pieces.
#[inline]
pub(crate) fn zone_features(
    pos: &Position,
    color: Color,
    ksq: Square,
    attack: &ZoneScan,
    visit: impl FnMut(ZoneFeature),
) {
    let defence = scan_zone(pos, color, ksq, None);
    features_from_scans(pos, color, ksq, attack, &defence, visit);
}

/// [`zone_features`] with the defender's scan made already.
#[inline]
fn features_from_scans(
    pos: &Position,
    color: Color,
    ksq: Square,
    attack: &ZoneScan,
    defence: &ZoneScan,
    mut visit: impl FnMut(ZoneFeature),
) {
    // More attackers than defenders (counted up to two).
    let weak = (attack.once & !defence.once) | (attack.twice & !defence.twice);
    let contested = attack.once & !weak;
    for sq in weak {
        visit(ZoneFeature::Weak(zone_place(sq, ksq, color)));
    }
    for sq in contested {
        visit(ZoneFeature::Contested(zone_place(sq, ksq, color)));
    }
    let hand = pos.hand(color.flip());
    let droppable = PieceKind::HAND.iter().any(|&k| k != PieceKind::Pawn && hand.count(k) > 0);
    visit(ZoneFeature::WeakCount(usize::from(droppable), weak.count() as usize));
    let escapes = king_attacks(ksq) & !pos.pieces(color) & !attack.once;
    visit(ZoneFeature::Escapes(escapes.count() as usize));
}

/// The value of one feature, from the king's owner's side.
#[inline]
fn value(f: ZoneFeature) -> i32 {
    match f {
        ZoneFeature::Weak(p) => ZONE_WEAK[p],
        ZoneFeature::Contested(p) => ZONE_CONTESTED[p],
        ZoneFeature::WeakCount(h, n) => WEAK_COUNT[h][n],
        ZoneFeature::Escapes(n) => ESCAPE_SQUARES[n],
    }
}

/// Both king-safety terms of `color`'s king, from its owner's side: the king-zone
/// value minus the danger penalty. One scan of the enemy's pieces serves both.
#[inline]
pub fn king_safety(pos: &Position, color: Color) -> i32 {
    let Some(ksq) = pos.king_square(color) else {
        return 0;
    };
    let attack = scan_zone(pos, color.flip(), ksq, Some(&DANGER.attack));
    let defence = scan_zone(pos, color, ksq, None);
    safety_from_scans(pos, color, ksq, &attack, &defence)
}

/// `king_safety(Black) - king_safety(White)`, with one pass over each side's pieces
/// for both kings' zones (what the evaluation calls).
#[inline]
pub fn king_safety_both(pos: &Position) -> i32 {
    let (Some(bk), Some(wk)) = (pos.king_square(Color::Black), pos.king_square(Color::White))
    else {
        return king_safety(pos, Color::Black) - king_safety(pos, Color::White);
    };
    let (black_defence, black_attack) = scan_both_zones(pos, Color::Black, bk, wk, &DANGER.attack);
    let (white_defence, white_attack) = scan_both_zones(pos, Color::White, wk, bk, &DANGER.attack);
    safety_from_scans(pos, Color::Black, bk, &white_attack, &black_defence)
        - safety_from_scans(pos, Color::White, wk, &black_attack, &white_defence)
}

#[inline]
fn safety_from_scans(
    pos: &Position,
    color: Color,
    ksq: Square,
    attack: &ZoneScan,
    defence: &ZoneScan,
) -> i32 {
    let mut zone = 0;
    features_from_scans(pos, color, ksq, attack, defence, |f| zone += value(f));
    zone - danger_from_scan(pos, color, ksq, attack, &DANGER)
}

/// One king-zone feature (see the tables in `crate::weights`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ZoneFeature {
    /// A square the enemy attacks more often than it is defended, by class.
    Weak(usize),
    /// A square the enemy attacks but does not outnumber the defence on.
    Contested(usize),
    /// How many weak squares, by whether the enemy holds more than pawns in hand.
    WeakCount(usize, usize),
    /// Squares the king could step to: not its own piece's, not attacked.
    Escapes(usize),
}

/// The king-zone term from Black's side (the engine sums it inside [`king_safety`]).
pub fn king_zone(pos: &Position) -> i32 {
    let mut sum = 0;
    for_each_zone_feature(pos, |f, sign| sum += sign * value(f));
    sum
}

#[cfg(test)]
mod tests {
    use super::*;

    fn features(sfen: &str) -> Vec<(ZoneFeature, i32)> {
        shogi::attacks::init();
        let pos = Position::from_sfen(sfen).unwrap();
        let mut v = Vec::new();
        for_each_zone_feature(&pos, |f, s| v.push((f, s)));
        v
    }

    #[test]
    fn the_shared_scans_add_up_to_both_terms() {
        use crate::king_safety::king_danger;
        shogi::attacks::init();
        let mut pos = Position::startpos();
        let mut seed = 99u64;
        for ply in 0..3000 {
            let both = king_safety(&pos, Color::Black) - king_safety(&pos, Color::White);
            let apart =
                king_zone(&pos) - king_danger(&pos, Color::Black) + king_danger(&pos, Color::White);
            assert_eq!(both, apart, "{}", pos.to_sfen());
            // One pass per side over both kings' zones gives the same.
            assert_eq!(king_safety_both(&pos), both, "{}", pos.to_sfen());
            let moves = shogi::legal_moves(&pos);
            if moves.is_empty() || ply % 250 == 249 {
                pos = Position::startpos();
                continue;
            }
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            pos.do_move(moves[(seed >> 33) as usize % moves.len()]);
        }
    }

    #[test]
    fn zone_places_are_seen_from_the_owner() {
        let sq = |s: &str| Square::from_usi(s.as_bytes()).unwrap();
        assert_eq!(zone_place(sq("5g"), sq("5h"), Color::Black), 0);
        assert_eq!(zone_place(sq("4g"), sq("5h"), Color::Black), 1);
        assert_eq!(zone_place(sq("6h"), sq("5h"), Color::Black), 2);
        assert_eq!(zone_place(sq("5i"), sq("5h"), Color::Black), 3);
        assert_eq!(zone_place(sq("6i"), sq("5h"), Color::Black), 4);
        // White's king on 5b: 5c is in front of it.
        assert_eq!(zone_place(sq("5c"), sq("5b"), Color::White), 0);
        assert_eq!(zone_place(sq("4a"), sq("5b"), Color::White), 4);
    }

    #[test]
    fn an_undefended_attacked_square_is_weak() {
        // White's king on 5a; Black's gold on 5c attacks 4b, 5b, 6b; nothing defends.
        let v = features("4k4/9/4G4/9/9/9/9/9/4K4 b - 1");
        let weak: Vec<_> =
            v.iter().filter(|(f, s)| *s == -1 && matches!(f, ZoneFeature::Weak(_))).collect();
        assert_eq!(weak.len(), 3, "{v:?}");
        assert!(v.contains(&(ZoneFeature::WeakCount(0, 3), -1)));
        // 4a and 6a are left to step to.
        assert!(v.contains(&(ZoneFeature::Escapes(2), -1)));
        // Black's king is untouched: every neighbour free.
        assert!(v.contains(&(ZoneFeature::Escapes(5), 1)));
        assert!(v.contains(&(ZoneFeature::WeakCount(0, 0), 1)));
    }

    #[test]
    fn a_defended_square_is_only_contested() {
        // As above, with a White gold on 6a covering 5b and 6b (not 4b).
        let v = features("3gk4/9/4G4/9/9/9/9/9/4K4 b S 1");
        let weak = v.iter().filter(|(f, s)| *s == -1 && matches!(f, ZoneFeature::Weak(_))).count();
        let contested =
            v.iter().filter(|(f, s)| *s == -1 && matches!(f, ZoneFeature::Contested(_))).count();
        assert_eq!((weak, contested), (1, 2), "{v:?}");
        // Black holds a silver: the weak count is in the "pieces in hand" row.
        assert!(v.contains(&(ZoneFeature::WeakCount(1, 1), -1)));
    }
}
