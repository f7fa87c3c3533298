//! King safety: how hard the enemy presses on the squares around a king, against
//! how many guards stand next to it.

use crate::weights::*;
use shogi::attacks::{king_attacks, piece_attacks};
use shogi::{Bitboard, Color, PieceKind, Position, Square};

/// Own guards: gold, silver and the promoted small pieces.
fn guards(pos: &Position, color: Color) -> Bitboard {
    (pos.gold_movers() | pos.pieces_of_kind(PieceKind::Silver)) & pos.pieces(color)
}

/// The squares within two steps of `sq` (a 5x5 box).
fn two_step_box(sq: Square) -> Bitboard {
    let mut b = Bitboard::EMPTY;
    for s in king_attacks(sq) {
        b |= king_attacks(s);
    }
    b
}

/// Penalty (≥ 0) for the danger `color`'s king is in, minus its shelter bonus.
pub fn king_danger(pos: &Position, color: Color) -> i32 {
    let Some(ksq) = pos.king_square(color) else {
        return 0;
    };
    let them = color.flip();
    let zone = king_attacks(ksq) | Bitboard::from_square(ksq);
    let occ = pos.occupied();

    let mut danger = 0;
    let mut attackers = 0;
    // Only enemy pieces near enough can reach the zone (sliders from anywhere).
    let sliders =
        pos.diagonal_sliders() | pos.orthogonal_sliders() | pos.pieces_of_kind(PieceKind::Lance);
    let near = two_step_box(ksq) | {
        let mut b = Bitboard::EMPTY;
        for s in two_step_box(ksq) {
            b |= king_attacks(s);
        }
        b
    };
    let candidates = pos.pieces(them) & (sliders | near) & !pos.pieces_of_kind(PieceKind::King);
    for sq in candidates {
        let kind = pos.piece_on(sq).kind().unwrap_or(PieceKind::Pawn);
        let hits = piece_attacks(them, kind, sq, occ) & zone;
        if hits.is_nonempty() {
            attackers += 1;
            danger += ATTACK_WEIGHT[kind.index()] * hits.count() as i32;
        }
    }
    let hand = pos.hand(them);
    let mut hand_danger = 0;
    for &kind in &PieceKind::HAND {
        hand_danger += HAND_DANGER[hand_index(kind)] * hand.count(kind).min(3) as i32;
    }
    // Drops matter most once something already bears on the king.
    danger += hand_danger * (1 + attackers.min(3)) / 2;

    let own_guards = guards(pos, color);
    let close = (own_guards & king_attacks(ksq)).count() as i32;
    let far = (own_guards & two_step_box(ksq)).count() as i32 - close;
    danger -= DEFENDER_NEAR * close + DEFENDER_FAR * far;

    let penalty = if danger > 0 { (danger * danger / DANGER_SCALE).min(DANGER_CAP) } else { 0 };
    penalty - GUARD_BONUS * close.min(3)
}
