//! Slider mobility: how many squares each lance, bishop, rook, horse and dragon
//! can move to (empty or enemy-occupied), valued by a tuned table per kind.
//!
//! Sliders are the pieces whose worth depends most on the position around them: a
//! rook shut in behind its own pawns is worth far less than one on an open file.

use crate::phase::{pair_rows, Pair};
use crate::weights;
use shogi::attacks::piece_attacks;
use shogi::{Bitboard, Color, PieceKind, Position};

/// The kinds that have a mobility row, in `SLIDER_MOBILITY` order.
pub const SLIDERS: [PieceKind; 5] =
    [PieceKind::Lance, PieceKind::Bishop, PieceKind::Rook, PieceKind::Horse, PieceKind::Dragon];

/// Largest mobility counted; more squares count as this many.
pub const MAX_MOBILITY: usize = 16;

/// The mobility table, paired at compile time (see `crate::phase`).
static SLIDER_MOBILITY: [[Pair; MAX_MOBILITY + 1]; SLIDERS.len()] =
    pair_rows(&weights::SLIDER_MOBILITY, &weights::phase::SLIDER_MOBILITY);

/// Each kind's row in `SLIDER_MOBILITY`, by kind index (`None`: not a slider).
const ROWS: [Option<usize>; 15] = {
    let mut rows = [None; 15];
    let mut row = 0;
    while row < SLIDERS.len() {
        rows[SLIDERS[row].index()] = Some(row);
        row += 1;
    }
    rows
};

/// The mobility value of one of `kind` (any kind: 0 for a non-slider) that can
/// move to `reach` (its attacks less its own side's pieces), from its owner's side.
#[inline(always)]
pub(crate) fn mobility_value(kind: PieceKind, reach: Bitboard) -> Pair {
    match ROWS[kind.index()] {
        Some(row) => SLIDER_MOBILITY[row][(reach.count() as usize).min(MAX_MOBILITY)],
        None => 0,
    }
}

/// Calls `visit(row, squares, sign)` for every slider on the board: its row in
/// `SLIDER_MOBILITY`, its capped number of reachable squares, +1 for Black's and
/// -1 for White's.
#[inline]
pub fn for_each_slider(pos: &Position, mut visit: impl FnMut(usize, usize, i32)) {
    let occ = pos.occupied();
    for (row, &kind) in SLIDERS.iter().enumerate() {
        let of_kind = pos.pieces_of_kind(kind);
        if of_kind.is_empty() {
            continue;
        }
        for (color, sign) in [(Color::Black, 1), (Color::White, -1)] {
            let own = pos.pieces(color);
            for sq in of_kind & own {
                let reach = (piece_attacks(color, kind, sq, occ) & !own).count() as usize;
                visit(row, reach.min(MAX_MOBILITY), sign);
            }
        }
    }
}

/// The mobility term from Black's side.
#[inline]
pub fn slider_mobility(pos: &Position) -> Pair {
    let mut sum = 0;
    for_each_slider(pos, |row, squares, sign| {
        sum += Pair::from(sign) * SLIDER_MOBILITY[row][squares]
    });
    sum
}
