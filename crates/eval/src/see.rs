//! Static exchange evaluation: the material result of the capture sequence on one
//! square when both sides always recapture with their least valuable piece.

use crate::weights::exchange_value;
use shogi::attacks::{bishop_attacks, lance_attacks, rook_attacks};
use shogi::{Bitboard, Color, Move, PieceKind, Position, Square};

/// Kinds from least to most valuable, the order recaptures are made in.
const RECAPTURE_ORDER: [PieceKind; 14] = [
    PieceKind::Pawn,
    PieceKind::Lance,
    PieceKind::Knight,
    PieceKind::ProPawn,
    PieceKind::ProLance,
    PieceKind::ProKnight,
    PieceKind::Silver,
    PieceKind::ProSilver,
    PieceKind::Gold,
    PieceKind::Bishop,
    PieceKind::Rook,
    PieceKind::Horse,
    PieceKind::Dragon,
    PieceKind::King,
];

fn attackers(pos: &Position, sq: Square, occ: Bitboard) -> Bitboard {
    (pos.attackers_to(Color::Black, sq, occ) | pos.attackers_to(Color::White, sq, occ)) & occ
}

/// The sliders of either side (lances included) that reach `sq` over `occ`.
fn slider_attackers(pos: &Position, sq: Square, occ: Bitboard) -> Bitboard {
    (bishop_attacks(sq, occ) & pos.diagonal_sliders())
        | (rook_attacks(sq, occ) & pos.orthogonal_sliders())
        | (lance_attacks(Color::White, sq, occ) & pos.pieces_of(Color::Black, PieceKind::Lance))
        | (lance_attacks(Color::Black, sq, occ) & pos.pieces_of(Color::White, PieceKind::Lance))
}

/// Whether `m` (legal in `pos`) gains at least `threshold` in the exchange it starts.
pub fn see_ge(pos: &Position, m: Move, threshold: i32) -> bool {
    let to = m.to();
    let mut swap = m.captured().map_or(0, exchange_value) - threshold;
    if swap < 0 {
        return false;
    }
    // What stands on `to` now and may be taken back.
    swap = exchange_value(m.kind_after()) - swap;
    if swap <= 0 {
        return true;
    }
    let mut occ = pos.occupied() | Bitboard::from_square(to);
    if !m.is_drop() {
        occ ^= Bitboard::from_square(m.from());
    }
    let mut side = pos.side_to_move();
    let mut all = attackers(pos, to, occ);
    let mut result = true;
    loop {
        side = side.flip();
        let mine = all & pos.pieces(side);
        if mine.is_empty() {
            break;
        }
        result = !result;
        let Some((kind, from)) = RECAPTURE_ORDER.iter().find_map(|&k| {
            let b = mine & pos.pieces_of_kind(k);
            b.is_nonempty().then(|| (k, b.lsb()))
        }) else {
            break;
        };
        if kind == PieceKind::King {
            // The king may only recapture if nothing defends the square any more.
            return if (all & pos.pieces(side.flip())).is_nonempty() { !result } else { result };
        }
        swap = exchange_value(kind) - swap;
        if swap < i32::from(result) {
            break;
        }
        // Taking a piece away only opens lines: the attackers left, and the
        // sliders that now see the square (what `attackers` would give).
        occ ^= Bitboard::from_square(from);
        all = (all | slider_attackers(pos, to, occ)) & occ;
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(pos: &Position, usi: &str) -> Move {
        pos.parse_usi_move(usi).unwrap()
    }

    #[test]
    fn free_captures_and_defended_pieces() {
        // Black rook takes an undefended white gold.
        let pos = Position::from_sfen("4k4/9/9/9/4g4/9/9/4R4/4K4 b - 1").unwrap();
        let m = mv(&pos, "5h5e");
        assert!(see_ge(&pos, m, 0));
        let gold = crate::weights::exchange_value(PieceKind::Gold);
        assert!(see_ge(&pos, m, gold));
        assert!(!see_ge(&pos, m, gold + 1));
        // The same gold defended by a silver: rook for gold loses.
        let pos = Position::from_sfen("4k4/9/9/4s4/4g4/9/9/4R4/4K4 b - 1").unwrap();
        let m = mv(&pos, "5h5e");
        assert!(!see_ge(&pos, m, 0));
        // A pawn takes a pawn defended by a gold: even.
        let pos = Position::from_sfen("4k4/9/4g4/4p4/4P4/9/9/9/4K4 b - 1").unwrap();
        let m = mv(&pos, "5e5d");
        assert!(see_ge(&pos, m, 0));
        assert!(!see_ge(&pos, m, 1));
    }

    /// Removing pieces one by one, the attackers kept up to date by adding the
    /// sliders that now see the square are the attackers computed afresh.
    #[test]
    fn updated_attackers_are_the_attackers() {
        crate::random_walk(5, 200, 200, |pos| {
            for sq in Square::all() {
                let mut occ = pos.occupied();
                let mut all = attackers(pos, sq, occ);
                while all.is_nonempty() {
                    occ ^= Bitboard::from_square(all.lsb());
                    all = (all | slider_attackers(pos, sq, occ)) & occ;
                    assert_eq!(all, attackers(pos, sq, occ), "{} {sq:?}", pos.to_sfen());
                }
            }
        });
    }

    #[test]
    fn drops_onto_attacked_squares_lose_the_piece() {
        let pos = Position::from_sfen("4k4/9/4p4/9/9/9/9/9/4K4 b G 1").unwrap();
        let m = mv(&pos, "G*5d");
        assert!(!see_ge(&pos, m, 0));
        let safe = mv(&pos, "G*1e");
        assert!(see_ge(&pos, safe, 0));
    }
}
