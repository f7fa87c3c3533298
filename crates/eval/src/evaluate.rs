//! The static evaluation from the side to move's point of view.

use crate::incremental::Sums;
use crate::king_safety::king_proximity;
use crate::king_zone::king_safety_both;
use crate::mobility::slider_mobility;
use crate::phase::{blend, TEMPO};
use crate::threats::threats;
use shogi::{Color, Position};

/// `incremental` is the material/piece-square/hand sum (Black's side) and the
/// progress kept by the caller; see [`crate::incremental`]. Every term is summed as
/// a pair of its base and phase weights, blended once at the phase of the progress
/// (see [`crate::phase`]).
pub fn evaluate(pos: &Position, incremental: Sums) -> i32 {
    let black =
        incremental.score + king_safety_both(pos) + king_proximity(pos) + slider_mobility(pos);
    let v = match pos.side_to_move() {
        Color::Black => black,
        Color::White => -black,
    };
    blend(v + threats(pos) + TEMPO, incremental.progress)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::incremental::full;

    fn eval_sfen(sfen: &str) -> i32 {
        let pos = Position::from_sfen(sfen).unwrap();
        evaluate(&pos, full(&pos))
    }

    #[test]
    fn symmetric_positions_are_even_but_for_tempo() {
        let v = eval_sfen("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1");
        // The tempo at the start position's phase.
        let progress = full(&Position::startpos()).progress;
        assert_eq!(v, crate::phase::blend(TEMPO, progress));
        let w = eval_sfen("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1");
        assert_eq!(w, v);
    }

    #[test]
    fn an_extra_rook_is_winning() {
        let v = eval_sfen("lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1");
        // The weights are tuned, so only "well over four pawns" is fixed here.
        let margin = 4 * crate::weights::piece_value(shogi::PieceKind::Pawn);
        assert!(v > margin, "{v}");
        let w = eval_sfen("lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1");
        assert!(w < -margin, "{w}");
    }

    #[test]
    fn an_exposed_king_under_attack_is_worse() {
        // White's king in the open with Black's dragon and golds in hand nearby.
        let safe = eval_sfen("4k4/9/9/9/9/9/9/9/4K4 b 2G 1");
        let attacked = eval_sfen("4k4/9/5+R3/9/9/9/9/9/4K4 b 2G 1");
        let plain_dragon = eval_sfen("4k4/9/9/9/9/9/9/+R8/4K4 b 2G 1");
        assert!(attacked > plain_dragon, "{attacked} vs {plain_dragon}");
        assert!(plain_dragon > safe);
    }
}
