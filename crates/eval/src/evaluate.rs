//! The static evaluation from the side to move's point of view.

use crate::incremental::Sums;
use crate::king_safety::{king_proximity, DangerWeights, DANGER};
use crate::king_zone::{king_safety_with, scan_terms};
use crate::mobility::slider_mobility;
use crate::phase::{blend, TEMPO};
use crate::threats::threats;
use shogi::{Color, Position};

/// `incremental` is the material/piece-square/hand sum (Black's side) and the
/// progress kept by the caller; see [`crate::incremental`]. Every term is summed as
/// a pair of its base and phase weights, blended once at the phase of the progress
/// (see [`crate::phase`]).
pub fn evaluate(pos: &Position, incremental: Sums) -> i32 {
    evaluate_with(pos, incremental, &DANGER)
}

/// [`evaluate`] with the king-danger weights `danger` in place of [`DANGER`] (a
/// tuner's, see `shogi_game::EvalScales`). Inlined into [`evaluate`], where the
/// compiled-in weights are constants.
#[inline(always)]
pub fn evaluate_with(pos: &Position, incremental: Sums, danger: &DangerWeights) -> i32 {
    let terms = scan_terms(pos, danger);
    let black = incremental.score + terms.safety + incremental.proximity + terms.mobility;
    let v = match pos.side_to_move() {
        Color::Black => black,
        Color::White => -black,
    };
    blend(v + terms.threats + TEMPO, incremental.progress)
}

/// The evaluation of a position term by term, from the side to move's point of
/// view, for people reading it (`eval` over USI). Each term is blended at the
/// position's phase on its own, so their sum can differ from [`evaluate`]'s total
/// by a unit or two of rounding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Breakdown {
    /// `(name, value)` of each main term.
    pub terms: Vec<(&'static str, i32)>,
    /// [`evaluate`] of the position.
    pub total: i32,
    /// The game's phase, 0 (opening) to 64 (end).
    pub phase: i32,
}

/// The main terms of [`evaluate`] for `pos` (its sums made from scratch).
pub fn breakdown(pos: &Position) -> Breakdown {
    breakdown_with(pos, &DANGER)
}

/// [`breakdown`] with the king-danger weights `danger`, the terms of
/// [`evaluate_with`]. The king-safety term is summed zone by zone here, apart
/// from the one pass the evaluation makes.
pub fn breakdown_with(pos: &Position, danger: &DangerWeights) -> Breakdown {
    let sums = crate::incremental::full(pos);
    let sign = match pos.side_to_move() {
        Color::Black => 1,
        Color::White => -1,
    };
    let term = |pair: crate::phase::Pair| blend(pair, sums.progress);
    let king_safety =
        king_safety_with(pos, Color::Black, danger) - king_safety_with(pos, Color::White, danger);
    let terms = vec![
        ("material, piece-square and hand", sign * term(sums.score)),
        ("king safety (zones and 5x5 boxes)", sign * term(king_safety)),
        ("pieces placed by the kings", sign * term(king_proximity(pos))),
        ("slider mobility", sign * term(slider_mobility(pos))),
        ("threatened pieces", term(threats(pos))),
        ("tempo", term(TEMPO)),
    ];
    let total = evaluate_with(pos, sums, danger);
    Breakdown { terms, total, phase: crate::phase::phase_of(sums.progress) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::incremental::full;

    #[test]
    fn the_breakdown_adds_up_to_the_evaluation() {
        for sfen in [
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "4k4/9/5+R3/9/9/9/9/9/4K4 w 2G 1",
            "ln1g3nl/1r1sk1g2/p1pppp1pp/6p2/1p7/2P6/PP1PPPP1P/1BG3SR1/LN2KG1NL b BSp 25",
        ] {
            let pos = Position::from_sfen(sfen).unwrap();
            let b = breakdown(&pos);
            assert_eq!(b.total, evaluate(&pos, full(&pos)));
            let sum: i32 = b.terms.iter().map(|t| t.1).sum();
            assert!((sum - b.total).abs() <= b.terms.len() as i32, "{sfen}: {sum} vs {}", b.total);
            assert!((0..=64).contains(&b.phase));
        }
    }

    #[test]
    fn the_breakdown_follows_the_danger_weights_given() {
        // White's king has a dragon beside it and Black two golds in hand; Black's
        // king stands alone, far from anything.
        let pos = Position::from_sfen("4k4/9/5+R3/9/9/9/9/9/4K4 w 2G 1").unwrap();
        let no_penalty = DangerWeights { cap: 0, ..DANGER };
        let plain = breakdown(&pos);
        let without = breakdown_with(&pos, &no_penalty);
        assert_eq!(without.total, evaluate_with(&pos, full(&pos), &no_penalty));
        assert_eq!(without.terms[0], plain.terms[0]);
        // White is to move: with no danger penalty its king safety rises.
        assert!(
            without.terms[1].1 > plain.terms[1].1,
            "{:?} {:?}",
            without.terms[1],
            plain.terms[1]
        );
        assert!(without.total > plain.total);
    }

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
