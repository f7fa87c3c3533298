//! King safety: how hard the enemy presses on the squares around a king, against
//! how many guards stand next to it.

use crate::phase::{self as paired, Pair};
use crate::threats::{class, AttacksByClass};
use crate::weights::*;
use crate::weights::{
    ENEMY_KING_PLACE as ENEMY_KING_PLACE_WEIGHTS, OWN_KING_PLACE as OWN_KING_PLACE_WEIGHTS,
};
use shogi::attacks::{king_attacks, piece_attacks, BOXES};
use shogi::{Bitboard, Color, PieceKind, Position, Square};
use std::sync::OnceLock;

/// Own guards: gold, silver and the promoted small pieces.
fn guards(pos: &Position, color: Color) -> Bitboard {
    (pos.gold_movers() | pos.pieces_of_kind(PieceKind::Silver)) & pos.pieces(color)
}

/// The squares within two steps of `sq` (a 5x5 box).
#[inline]
pub(crate) fn two_step_box(sq: Square) -> Bitboard {
    BOXES[2][sq.index()]
}

/// The king-danger weights as one value, so that a tuner can try other ones (see
/// `kyobo-lab tune-danger`); the engine uses [`DANGER`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DangerWeights {
    pub attack: [i32; 15],
    pub hand: [i32; 7],
    pub defender_near: i32,
    pub defender_far: i32,
    pub scale: i32,
    pub cap: i32,
    pub guard: i32,
}

/// The weights in `crate::weights`.
pub const DANGER: DangerWeights = DangerWeights {
    attack: ATTACK_WEIGHT,
    hand: HAND_DANGER,
    defender_near: DEFENDER_NEAR,
    defender_far: DEFENDER_FAR,
    scale: DANGER_SCALE,
    cap: DANGER_CAP,
    guard: GUARD_BONUS,
};

/// Penalty (≥ 0) for the danger `color`'s king is in, minus its shelter bonus.
#[inline]
pub fn king_danger(pos: &Position, color: Color) -> i32 {
    king_danger_with(pos, color, &DANGER)
}

/// [`king_danger`] with the weights `w`.
#[inline]
pub fn king_danger_with(pos: &Position, color: Color, w: &DangerWeights) -> i32 {
    let Some(ksq) = pos.king_square(color) else {
        return 0;
    };
    let scan = scan_zone(pos, color.flip(), ksq, Some(&w.attack));
    danger_from_scan(pos, color, ksq, &scan, w)
}

/// What one side's pieces (kings aside) do to the squares around a king.
#[derive(Clone, Copy, Default)]
pub(crate) struct ZoneScan {
    /// Squares next to the king hit at least once, and at least twice.
    pub once: Bitboard,
    pub twice: Bitboard,
    /// The same over the 5x5 box around the king (its own square left out).
    pub once25: Bitboard,
    pub twice25: Bitboard,
    /// Σ weight of the hitting kind × squares hit, the king's own square included.
    pub weighted_hits: i32,
    /// Pieces that hit the king or a square next to it.
    pub pieces: i32,
}

/// The pieces other than kings that may hit a square of the 5x5 box around any of
/// `kings`: sliders from anywhere, knights from four steps, the rest from three.
#[inline]
fn within_reach(pos: &Position, kings: &[Square]) -> Bitboard {
    let (mut near, mut knight_near) = (Bitboard::EMPTY, Bitboard::EMPTY);
    for k in kings {
        near |= BOXES[3][k.index()];
        knight_near |= BOXES[4][k.index()];
    }
    let sliders =
        pos.diagonal_sliders() | pos.orthogonal_sliders() | pos.pieces_of_kind(PieceKind::Lance);
    let knights = pos.pieces_of_kind(PieceKind::Knight) & knight_near;
    (sliders | knights | near) & !pos.pieces_of_kind(PieceKind::King)
}

/// Scans `side`'s pieces that bear on the king on `ksq` (the king's square and its
/// neighbours); `weights` (by kind) are those of the danger term, if it is wanted.
#[inline]
pub(crate) fn scan_zone(
    pos: &Position,
    side: Color,
    ksq: Square,
    weights: Option<&[i32; 15]>,
) -> ZoneScan {
    let next = king_attacks(ksq);
    let zone = next | Bitboard::from_square(ksq);
    let box25 = two_step_box(ksq) & !Bitboard::from_square(ksq);
    let occ = pos.occupied();
    let candidates = pos.pieces(side) & within_reach(pos, &[ksq]);
    let mut scan = ZoneScan::default();
    for sq in candidates {
        let kind = pos.piece_on(sq).kind().unwrap_or(PieceKind::Pawn);
        let attacks = piece_attacks(side, kind, sq, occ);
        let far = attacks & box25;
        scan.twice25 |= scan.once25 & far;
        scan.once25 |= far;
        let hits = attacks & zone;
        if hits.is_nonempty() {
            scan.pieces += 1;
            if let Some(w) = weights {
                scan.weighted_hits += w[kind.index()] * hits.count() as i32;
            }
            let hits = hits & next;
            scan.twice |= scan.once & hits;
            scan.once |= hits;
        }
    }
    scan
}

/// What `side`'s pieces do around both kings in one pass: the first scan is its
/// own king's zone on `own` (no weights: the defence), the second the enemy king's
/// zone on `enemy` (with the danger weights). Each piece's attacks are computed
/// once; the scans equal [`scan_zone`]'s. Every slider is among the pieces
/// scanned, so the pass also sums `side`'s slider mobility (from its own side:
/// `crate::mobility::slider_mobility`'s share of `side`). Given `classes`, it
/// scans every piece but the pawns and adds each one's attacks to its exchange
/// class there, the king's included (the threat term's scan of the side not to
/// move; the pawns' class is the caller's).
#[inline]
pub(crate) fn scan_both_zones(
    pos: &Position,
    side: Color,
    own: Square,
    enemy: Square,
    weights: &[i32; 15],
    mut classes: Option<&mut AttacksByClass>,
) -> (ZoneScan, ZoneScan, Pair) {
    let zones = [
        (king_attacks(own), king_attacks(own) | Bitboard::from_square(own)),
        (king_attacks(enemy), king_attacks(enemy) | Bitboard::from_square(enemy)),
    ];
    let boxes25 = [
        two_step_box(own) & !Bitboard::from_square(own),
        two_step_box(enemy) & !Bitboard::from_square(enemy),
    ];
    let occ = pos.occupied();
    let ours = pos.pieces(side);
    let mut candidates = ours & within_reach(pos, &[own, enemy]);
    if let Some(classes) = classes.as_deref_mut() {
        // A piece out of the zones' reach hits nothing in them: scanned for its
        // class only.
        candidates |=
            ours & !pos.pieces_of_kind(PieceKind::Pawn) & !pos.pieces_of_kind(PieceKind::King);
        classes[class(PieceKind::King)] |= king_attacks(own);
    }
    let mut scans = [ZoneScan::default(); 2];
    let mut mobility = 0;
    for sq in candidates {
        let kind = pos.piece_on(sq).kind().unwrap_or(PieceKind::Pawn);
        let attacks = piece_attacks(side, kind, sq, occ);
        mobility += crate::mobility::mobility_value(kind, attacks & !ours);
        if let Some(classes) = classes.as_deref_mut() {
            if kind != PieceKind::Pawn {
                classes[class(kind)] |= attacks;
            }
        }
        for (i, ((next, zone), scan)) in zones.iter().zip(scans.iter_mut()).enumerate() {
            let far = attacks & boxes25[i];
            scan.twice25 |= scan.once25 & far;
            scan.once25 |= far;
            let hits = attacks & *zone;
            if hits.is_nonempty() {
                scan.pieces += 1;
                if i == 1 {
                    scan.weighted_hits += weights[kind.index()] * hits.count() as i32;
                }
                let hits = hits & *next;
                scan.twice |= scan.once & hits;
                scan.once |= hits;
            }
        }
    }
    (scans[0], scans[1], mobility)
}

/// The danger penalty of `color`'s king on `ksq`, given the scan of the enemy's
/// pieces with the weights `w.attack`.
#[inline]
pub(crate) fn danger_from_scan(
    pos: &Position,
    color: Color,
    ksq: Square,
    scan: &ZoneScan,
    w: &DangerWeights,
) -> i32 {
    let them = color.flip();
    let mut danger = scan.weighted_hits;
    let attackers = scan.pieces;
    let hand = pos.hand(them);
    let mut hand_danger = 0;
    for &kind in &PieceKind::HAND {
        hand_danger += w.hand[hand_index(kind)] * hand.count(kind).min(3) as i32;
    }
    // Drops matter most once something already bears on the king.
    danger += hand_danger * (1 + attackers.min(3)) / 2;

    let own_guards = guards(pos, color);
    let close = (own_guards & king_attacks(ksq)).count() as i32;
    let far = (own_guards & two_step_box(ksq)).count() as i32 - close;
    danger -= w.defender_near * close + w.defender_far * far;

    let penalty = if danger > 0 { (danger * danger / w.scale).min(w.cap) } else { 0 };
    penalty - w.guard * close.min(3)
}

/// Places a piece can have relative to a king in the king-place tables: 9 file
/// distances (left and right mirrored) × 17 rank offsets, the whole board from any
/// king square.
pub const PLACES: usize = 9 * 17;

// The tables read at every node, paired at compile time (see `crate::phase`).
pub static OWN_KING_PLACE: [[Pair; PLACES]; 15] =
    paired::pair_rows(&OWN_KING_PLACE_WEIGHTS, &crate::weights::phase::OWN_KING_PLACE);
pub static ENEMY_KING_PLACE: [[Pair; PLACES]; 15] =
    paired::pair_rows(&ENEMY_KING_PLACE_WEIGHTS, &crate::weights::phase::ENEMY_KING_PLACE);

/// Where `piece` (owned by `owner`) stands relative to `king`, as `owner` sees the
/// board: `file distance × 17 + rank offset + 8`, the offset negative towards the
/// enemy camp.
#[inline]
pub fn place(piece: Square, king: Square, owner: Color) -> usize {
    let (p, k) = match owner {
        Color::Black => (piece, king),
        Color::White => (piece.flip(), king.flip()),
    };
    let df = (p.file() as i32 - k.file() as i32).unsigned_abs() as usize;
    let dr = p.rank() as i32 - k.rank() as i32;
    df * 17 + (dr + 8) as usize
}

/// [`place`] of every square from every king square, by owner
/// (`[owner][king][piece]`): the evaluation looks up two places for each piece at
/// every node.
fn places() -> &'static [[[u8; 81]; 81]; 2] {
    static PLACES_TABLE: OnceLock<[[[u8; 81]; 81]; 2]> = OnceLock::new();
    PLACES_TABLE.get_or_init(|| {
        let mut t = [[[0; 81]; 81]; 2];
        for owner in Color::ALL {
            for king in Square::all() {
                for piece in Square::all() {
                    t[owner.index()][king.index()][piece.index()] = place(piece, king, owner) as u8;
                }
            }
        }
        t
    })
}

/// Every piece by where it stands relative to both kings, from Black's side: guards
/// around their own king, attackers around the enemy king (see `OWN_KING_PLACE`,
/// `ENEMY_KING_PLACE`).
pub fn king_proximity(pos: &Position) -> Pair {
    let (Some(bk), Some(wk)) = (pos.king_square(Color::Black), pos.king_square(Color::White))
    else {
        return 0;
    };
    king_proximity_with(pos, bk, wk, Bitboard::EMPTY)
}

/// One piece's share of [`king_proximity`] (signed, from Black's side): `owner`'s
/// `kind` (not a king) on `sq`, with Black's king on `bk` and White's on `wk`.
#[inline]
pub fn placed_value(owner: Color, kind: PieceKind, sq: Square, bk: Square, wk: Square) -> Pair {
    let (own, enemy, sign) = match owner {
        Color::Black => (bk, wk, 1),
        Color::White => (wk, bk, -1),
    };
    let table = &places()[owner.index()];
    let (own_place, enemy_place) = (
        usize::from(table[own.index()][sq.index()]),
        usize::from(table[enemy.index()][sq.index()]),
    );
    Pair::from(sign)
        * (OWN_KING_PLACE[kind.index()][own_place] + ENEMY_KING_PLACE[kind.index()][enemy_place])
}

/// [`king_proximity`] with the kings on `bk` and `wk` and the pieces on `gone`
/// left out: the value after a king's move (to `bk` or `wk`, capturing on `gone`),
/// computed before it is made.
pub fn king_proximity_with(pos: &Position, bk: Square, wk: Square, gone: Bitboard) -> Pair {
    let kings = pos.pieces_of_kind(PieceKind::King);
    let mut sum = 0;
    for color in Color::ALL {
        for sq in pos.pieces(color) & !kings & !gone {
            let kind = pos.piece_on(sq).kind().unwrap_or(PieceKind::Pawn);
            sum += placed_value(color, kind, sq, bk, wk);
        }
    }
    sum
}

/// Calls `visit(kind index, place from its own king, place from the enemy king,
/// sign)` for every piece on the board but the kings, +1 for Black's and -1 for
/// White's: the pieces the king-place tables value. The engine ([`king_proximity`])
/// and the tuner's features share this walk.
#[inline]
pub fn for_each_placed_piece(pos: &Position, mut visit: impl FnMut(usize, usize, usize, i32)) {
    let (Some(bk), Some(wk)) = (pos.king_square(Color::Black), pos.king_square(Color::White))
    else {
        return;
    };
    let kings = pos.pieces_of_kind(PieceKind::King);
    let table = places();
    for (color, own, enemy, sign) in [(Color::Black, bk, wk, 1), (Color::White, wk, bk, -1)] {
        let (own_places, enemy_places) =
            (&table[color.index()][own.index()], &table[color.index()][enemy.index()]);
        for sq in pos.pieces(color) & !kings {
            let kind = pos.piece_on(sq).kind().unwrap_or(PieceKind::Pawn).index();
            let i = sq.index();
            visit(kind, usize::from(own_places[i]), usize::from(enemy_places[i]), sign);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn places_are_mirrored_and_seen_from_the_owner() {
        let sq = |s: &str| Square::from_usi(s.as_bytes()).unwrap();
        // Black's gold diagonally in front of Black's king on 5h, left or right.
        let front_left = place(sq("6g"), sq("5h"), Color::Black);
        assert_eq!(front_left, place(sq("4g"), sq("5h"), Color::Black));
        assert_eq!(front_left, 17 + 7);
        // The same shape for White, rotated: White's gold on 4c, king on 5b.
        assert_eq!(front_left, place(sq("4c"), sq("5b"), Color::White));
        assert_eq!(place(sq("5e"), sq("5h"), Color::Black), 5);
        assert_eq!(place(sq("1a"), sq("5i"), Color::Black), 4 * 17);
        assert_eq!(place(sq("9i"), sq("1a"), Color::Black), PLACES - 1);
    }

    #[test]
    fn the_table_of_places_agrees_with_place() {
        for owner in Color::ALL {
            for king in Square::all() {
                for piece in Square::all() {
                    let stored = places()[owner.index()][king.index()][piece.index()];
                    assert_eq!(usize::from(stored), place(piece, king, owner));
                }
            }
        }
    }

    /// The engine's sum and the tuner's walk over the same pieces agree.
    #[test]
    fn king_proximity_is_the_tuner_s_walk_summed() {
        crate::random_walk(21, 600, 200, |pos| {
            let mut walked = 0;
            for_each_placed_piece(pos, |kind, own_place, enemy_place, sign| {
                walked += Pair::from(sign)
                    * (OWN_KING_PLACE[kind][own_place] + ENEMY_KING_PLACE[kind][enemy_place]);
            });
            assert_eq!(king_proximity(pos), walked, "{}", pos.to_sfen());
        });
    }

    #[test]
    fn danger_follows_the_weights_it_is_given() {
        shogi::attacks::init();
        // White's king with Black's dragon next to it and golds in Black's hand.
        let pos = Position::from_sfen("4k4/9/5+R3/9/9/9/9/9/4K4 b 2G 1").unwrap();
        let base = king_danger_with(&pos, Color::White, &DANGER);
        assert_eq!(base, king_danger(&pos, Color::White));
        assert!(base > 0);
        let mut heavier = DANGER;
        heavier.attack[PieceKind::Dragon.index()] *= 2;
        assert!(king_danger_with(&pos, Color::White, &heavier) > base);
        let mut no_hand = DANGER;
        no_hand.hand = [0; 7];
        assert!(king_danger_with(&pos, Color::White, &no_hand) < base);
    }
}
