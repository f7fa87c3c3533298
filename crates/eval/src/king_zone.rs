//! Control of the squares next to each king: which of them the enemy holds, which
//! it only contests, and where the king could still step.
//!
//! The king-danger term counts the enemy's hits on the king's neighbourhood; it
//! does not ask whether the defender covers the same squares. Here every square
//! next to the king is weighed by who controls it, as a shogi player reads a
//! castle: a square the enemy attacks more often than it is defended is where a
//! drop or a capture lands with check. Farther out, every square of the 5x5 box
//! around the king is valued by its place, how often each side hits it (0, 1, 2+),
//! what stands on it and whether the attacker holds more than pawns in hand
//! (`KING_BOX`, as GPS Shogi's evaluation reads a king's surroundings). The terms
//! are linear in tuned tables.

use crate::king_safety::{
    danger_from_scan, scan_both_zones, scan_zone, two_step_box, DangerWeights, ZoneScan, DANGER,
};
use crate::phase::{pair_rows, pairs, Pair};
use crate::weights::{self, phase};
use shogi::attacks::king_attacks;
use shogi::{Bitboard, Color, PieceKind, Position, Square};
use std::sync::OnceLock;

/// Classes of the squares next to a king, as its owner sees them, left and right
/// mirrored: in front, diagonally in front, beside, behind, diagonally behind.
pub const ZONE_PLACES: usize = 5;

/// Rows of `WEAK_COUNT`: whether the attacker holds a piece other than pawns in hand.
pub const HAND_STATES: usize = 2;

/// Places in the 5x5 box around a king, as its owner sees them, left and right
/// mirrored: (rank offset + 2) × 3 + file distance; 6 is the king's own square.
pub const BOX_PLACES: usize = 15;

/// States of a square of the box: whether the attacker holds more than pawns in hand
/// (2) × the attacker's hits on it (0, 1, 2+) × the defender's (0, 1, 2+) × what
/// stands on it (empty, the king's side's piece, the enemy's).
pub const BOX_STATES: usize = HAND_STATES * 27;

// The tables read at every node, paired at compile time (see `crate::phase`).
static ZONE_WEAK: [Pair; ZONE_PLACES] = pairs(&weights::ZONE_WEAK, &phase::ZONE_WEAK);
static ZONE_CONTESTED: [Pair; ZONE_PLACES] =
    pairs(&weights::ZONE_CONTESTED, &phase::ZONE_CONTESTED);
static WEAK_COUNT: [[Pair; 9]; HAND_STATES] = pair_rows(&weights::WEAK_COUNT, &phase::WEAK_COUNT);
static ESCAPE_SQUARES: [Pair; 9] = pairs(&weights::ESCAPE_SQUARES, &phase::ESCAPE_SQUARES);
static KING_BOX: [[Pair; BOX_STATES]; BOX_PLACES] = pair_rows(&weights::KING_BOX, &phase::KING_BOX);

/// The place of `sq`, a square of the 5x5 box around `king`, as `owner` sees it.
fn box_place(sq: Square, king: Square, owner: Color) -> usize {
    let (s, k) = match owner {
        Color::Black => (sq, king),
        Color::White => (sq.flip(), king.flip()),
    };
    let rank = (s.rank() as i32 - k.rank() as i32 + 2) as usize;
    let file = (s.file() as i32 - k.file() as i32).unsigned_abs() as usize;
    rank * 3 + file
}

/// The squares of the 5x5 box around a king (its own square left out) with their
/// places, by the owner's colour and the king's square: worked out once, since the
/// evaluation visits them at every node.
struct BoxSquares {
    len: usize,
    /// The lowest square index of the box: the box spans at most 41 bits from it
    /// (four files of nine and four ranks), so one 64-bit word holds it.
    base: u32,
    /// Each square's index less `base`.
    offsets: [u8; 24],
    places: [u8; 24],
}

fn box_squares(owner: Color, king: Square) -> &'static BoxSquares {
    static TABLE: OnceLock<Vec<BoxSquares>> = OnceLock::new();
    let table = TABLE.get_or_init(|| {
        let mut t = Vec::with_capacity(2 * 81);
        for color in Color::ALL {
            for k in Square::all() {
                let squares = two_step_box(k) & !Bitboard::from_square(k);
                let base = squares.0.trailing_zeros();
                let mut b = BoxSquares { len: 0, base, offsets: [0; 24], places: [0; 24] };
                for sq in squares {
                    b.offsets[b.len] = (sq.index() as u32 - base) as u8;
                    b.places[b.len] = box_place(sq, k, color) as u8;
                    b.len += 1;
                }
                t.push(b);
            }
        }
        t
    });
    &table[owner.index() * 81 + king.index()]
}

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
    features_from_scans(pos, color, ksq, attack, &defence, true, visit);
}

/// [`zone_features`] with the defender's scan made already; the box squares only
/// `with_box` (the engine sums those straight from the table, see
/// [`safety_from_scans`]). Returns whether the attacker holds more than pawns.
#[inline(always)]
fn features_from_scans(
    pos: &Position,
    color: Color,
    ksq: Square,
    attack: &ZoneScan,
    defence: &ZoneScan,
    with_box: bool,
    mut visit: impl FnMut(ZoneFeature),
) -> bool {
    // More attackers than defenders (counted up to two).
    let weak = (attack.once & !defence.once) | (attack.twice & !defence.twice);
    let contested = attack.once & !weak;
    for sq in weak {
        visit(ZoneFeature::Weak(zone_place(sq, ksq, color)));
    }
    for sq in contested {
        visit(ZoneFeature::Contested(zone_place(sq, ksq, color)));
    }
    let droppable = holds_more_than_pawns(pos, color.flip());
    visit(ZoneFeature::WeakCount(usize::from(droppable), weak.count() as usize));
    let escapes = king_attacks(ksq) & !pos.pieces(color) & !attack.once;
    visit(ZoneFeature::Escapes(escapes.count() as usize));
    if with_box {
        for_each_box_square(pos, color, ksq, attack, defence, droppable, |place, state| {
            visit(ZoneFeature::Box(place, state))
        });
    }
    droppable
}

/// Whether `side` holds a piece other than pawns in hand.
#[inline]
fn holds_more_than_pawns(pos: &Position, side: Color) -> bool {
    let hand = pos.hand(side);
    PieceKind::HAND.iter().any(|&k| k != PieceKind::Pawn && hand.count(k) > 0)
}

/// Every square of the 5x5 box around `color`'s king on `ksq` as `visit(place,
/// state)` (see [`BOX_STATES`]).
#[inline(always)]
fn for_each_box_square(
    pos: &Position,
    color: Color,
    ksq: Square,
    attack: &ZoneScan,
    defence: &ZoneScan,
    droppable: bool,
    mut visit: impl FnMut(usize, usize),
) {
    // Each square's state from its bits in the six bitboards, each shifted once
    // into a 64-bit word from the box's lowest square (cheaper than 128-bit shifts).
    let squares = box_squares(color, ksq);
    let word = |b: Bitboard| (b.0 >> squares.base) as u64;
    let (a1, a2) = (word(attack.once25), word(attack.twice25));
    let (d1, d2) = (word(defence.once25), word(defence.twice25));
    let (own, theirs) = (word(pos.pieces(color)), word(pos.pieces(color.flip())));
    let base = usize::from(droppable) * 27;
    for j in 0..squares.len {
        let i = squares.offsets[j];
        let bit = |b: u64| ((b >> i) & 1) as usize;
        let on = bit(own) + 2 * bit(theirs);
        let state = base + (bit(a1) + bit(a2)) * 9 + (bit(d1) + bit(d2)) * 3 + on;
        visit(usize::from(squares.places[j]), state);
    }
}

/// The value of one feature (base and phase weight), from the king's owner's side.
#[inline(always)]
fn value(f: ZoneFeature) -> Pair {
    match f {
        ZoneFeature::Weak(p) => ZONE_WEAK[p],
        ZoneFeature::Contested(p) => ZONE_CONTESTED[p],
        ZoneFeature::WeakCount(h, n) => WEAK_COUNT[h][n],
        ZoneFeature::Escapes(n) => ESCAPE_SQUARES[n],
        ZoneFeature::Box(p, s) => KING_BOX[p][s],
    }
}

/// Both king-safety terms of `color`'s king, from its owner's side: the king-zone
/// value minus the danger penalty (which has no phase weight). One scan of the
/// enemy's pieces serves both.
#[inline]
pub fn king_safety(pos: &Position, color: Color) -> Pair {
    king_safety_with(pos, color, &DANGER)
}

/// The terms of one pass over each side's pieces for both kings' zones (what the
/// evaluation calls): `king_safety(Black) - king_safety(White)` (with the danger
/// weights given) and
/// [`crate::mobility::slider_mobility`] from Black's side, [`crate::threats::threats`]
/// from the side to move's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScanTerms {
    pub safety: Pair,
    pub mobility: Pair,
    pub threats: Pair,
}

/// The [`ScanTerms`] of `pos` with the danger weights `w`. Inlined, so that the
/// compiled-in weights are constants in the evaluation.
#[inline(always)]
pub fn scan_terms(pos: &Position, w: &DangerWeights) -> ScanTerms {
    let (Some(bk), Some(wk)) = (pos.king_square(Color::Black), pos.king_square(Color::White))
    else {
        return ScanTerms {
            safety: king_safety_with(pos, Color::Black, w) - king_safety_with(pos, Color::White, w),
            mobility: crate::mobility::slider_mobility(pos),
            threats: crate::threats::threats(pos),
        };
    };
    // The side not to move's pass also gathers its attacks by class for the
    // threat term.
    let mut by_class = crate::threats::pawn_class(pos);
    let (mut black_classes, mut white_classes) = (None, None);
    if crate::threats::ACTIVE {
        match pos.side_to_move() {
            Color::Black => white_classes = Some(&mut by_class),
            Color::White => black_classes = Some(&mut by_class),
        }
    }
    let (black_defence, black_attack, black_mobility) =
        scan_both_zones(pos, Color::Black, bk, wk, &w.attack, black_classes);
    let (white_defence, white_attack, white_mobility) =
        scan_both_zones(pos, Color::White, wk, bk, &w.attack, white_classes);
    let safety = safety_from_scans(pos, Color::Black, bk, &white_attack, &black_defence, w)
        - safety_from_scans(pos, Color::White, wk, &black_attack, &white_defence, w);
    let threats =
        if crate::threats::ACTIVE { crate::threats::threats_by(pos, &by_class) } else { 0 };
    ScanTerms { safety, mobility: black_mobility - white_mobility, threats }
}

/// [`king_safety`] with the danger weights `w`.
pub fn king_safety_with(pos: &Position, color: Color, w: &DangerWeights) -> Pair {
    let Some(ksq) = pos.king_square(color) else {
        return 0;
    };
    let attack = scan_zone(pos, color.flip(), ksq, Some(&w.attack));
    let defence = scan_zone(pos, color, ksq, None);
    safety_from_scans(pos, color, ksq, &attack, &defence, w)
}

#[inline(always)]
fn safety_from_scans(
    pos: &Position,
    color: Color,
    ksq: Square,
    attack: &ZoneScan,
    defence: &ZoneScan,
    w: &DangerWeights,
) -> Pair {
    let mut zone: Pair = 0;
    let droppable =
        features_from_scans(pos, color, ksq, attack, defence, false, |f| zone += value(f));
    // The box's squares summed straight from the table, without the enum.
    for_each_box_square(pos, color, ksq, attack, defence, droppable, |place, state| {
        zone += KING_BOX[place][state]
    });
    zone - Pair::from(danger_from_scan(pos, color, ksq, attack, w))
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
    /// A square of the 5x5 box around the king: its place and state (see
    /// [`BOX_STATES`]).
    Box(usize, usize),
}

/// The king-zone term from Black's side (the engine sums it inside [`king_safety`]).
pub fn king_zone(pos: &Position) -> Pair {
    let mut sum = 0;
    for_each_zone_feature(pos, |f, sign| sum += Pair::from(sign) * value(f));
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
        crate::random_walk(99, 3000, 250, |pos| {
            let both = king_safety(pos, Color::Black) - king_safety(pos, Color::White);
            let apart = king_zone(pos) - Pair::from(king_danger(pos, Color::Black))
                + Pair::from(king_danger(pos, Color::White));
            assert_eq!(both, apart, "{}", pos.to_sfen());
            // One pass per side over both kings' zones gives the same, and the
            // sliders' mobility with it.
            let terms = ScanTerms {
                safety: both,
                mobility: crate::mobility::slider_mobility(pos),
                threats: crate::threats::threats(pos),
            };
            assert_eq!(scan_terms(pos, &DANGER), terms, "{}", pos.to_sfen());
        });
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

    #[test]
    fn box_places_are_seen_from_the_owner() {
        let sq = |s: &str| Square::from_usi(s.as_bytes()).unwrap();
        // Black's king on 5h: 5f is two squares in front, 3i behind and two files over.
        assert_eq!(box_place(sq("5f"), sq("5h"), Color::Black), 0);
        assert_eq!(box_place(sq("3i"), sq("5h"), Color::Black), 3 * 3 + 2);
        assert_eq!(box_place(sq("7i"), sq("5h"), Color::Black), 3 * 3 + 2);
        // White's king on 5b: 5d is two squares in front of it.
        assert_eq!(box_place(sq("5d"), sq("5b"), Color::White), 0);
        assert_eq!(box_place(sq("4a"), sq("5b"), Color::White), 3 * 3 + 1);
        // The table of box squares agrees, and leaves out the board's edge.
        let b = box_squares(Color::White, sq("5a"));
        assert_eq!(b.len, 14);
        for j in 0..b.len {
            let index = b.base as usize + usize::from(b.offsets[j]);
            assert!(index - (b.base as usize) < 41);
            let s = Square::all().nth(index).unwrap();
            assert_eq!(usize::from(b.places[j]), box_place(s, sq("5a"), Color::White));
        }
    }

    #[test]
    fn box_squares_carry_hits_and_occupants() {
        // White's king on 5a, Black's gold on 5c; Black holds a silver.
        let v = features("4k4/9/4G4/9/9/9/9/9/4K4 b S 1");
        let boxed: Vec<_> = v
            .iter()
            .filter_map(|(f, s)| match f {
                ZoneFeature::Box(p, st) if *s == -1 => Some((*p, *st)),
                _ => None,
            })
            .collect();
        // Files 3-7 of ranks a-c, the king's square left out.
        assert_eq!(boxed.len(), 14, "{boxed:?}");
        // 5c: two squares in front, the enemy's gold on it, nobody hitting it.
        assert!(boxed.contains(&(0, 27 + 2)), "{boxed:?}");
        // 4b: diagonally in front, hit once by the gold, undefended, empty.
        assert!(boxed.contains(&(4, 27 + 9)), "{boxed:?}");
        // Nothing of White's hits the box of Black's king (on 5i).
        assert!(v
            .iter()
            .all(|(f, s)| *s == -1 || !matches!(f, ZoneFeature::Box(_, st) if *st >= 9)));
    }
}
