//! PVS's numeric parameters, declared once (name, default, range, the tuner's
//! step, a line of documentation) so that a tuner can move them over USI. The
//! engine lists them as USI options (`Tune_…`) only in a tuning build
//! (`--features tune`), so that a user's option list stays short; the defaults
//! are the engine's.

use crate::time::TimeShares;

crate::spin_options! {
    /// The pruning, reduction, extension, aspiration and time parameters of PVS.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub struct PvsParams {
        /// Futility pruning of quiet moves: static value plus `base + margin ×
        /// depth` (centipawns) at or below alpha. The margin also serves the
        /// reverse test at β: static value minus `margin × (depth − improving)` at
        /// or above it.
        futility_base: i32 = ("Tune_FutilityBase", 150, 0, 1000, step 15,
            "futility pruning of quiet moves: the margin's constant (centipawns)");
        futility_margin: i32 = ("Tune_FutilityMargin", 120, 0, 1000, step 12,
            "futility pruning, and its reverse at β: the margin per ply of depth (centipawns)");
        /// Late-move pruning: quiet moves after `(base + depth²) / (2 − improving)`.
        lmp_base: i32 = ("Tune_LmpBase", 3, 0, 20, step 1,
            "late-move pruning: quiet moves after (base + depth²) / (2 − improving)");
        /// Quiet moves losing more than `margin × depth²` in the exchange are pruned.
        see_quiet: i32 = ("Tune_SeeQuiet", 25, 0, 500, step 3,
            "SEE pruning of quiet moves: the loss allowed per depth² (centipawns)");
        /// Captures losing more than `tactical × depth` (and checks `check ×
        /// depth²` more) are pruned.
        see_tactical: i32 = ("Tune_SeeTactical", 90, 0, 1000, step 9,
            "SEE pruning of captures: the loss allowed per depth (centipawns)");
        see_check: i32 = ("Tune_SeeCheck", 30, 0, 500, step 3,
            "SEE pruning of checks: the further loss allowed per depth² (centipawns)");
        /// Null move: `base + depth / depth_div + min((eval − β) / eval_div, eval_max)`.
        null_base: i32 = ("Tune_NullBase", 3, 1, 10, step 1,
            "null move: the reduction's constant (plies)");
        null_depth_div: i32 = ("Tune_NullDepthDiv", 4, 1, 16, step 1,
            "null move: one ply more reduction per this many plies of depth");
        null_eval_div: i32 = ("Tune_NullEvalDiv", 200, 25, 2000, step 20,
            "null move: one ply more per this many centipawns above beta");
        null_eval_max: i32 = ("Tune_NullEvalMax", 3, 0, 10, step 1,
            "null move: at most this many plies for the margin above beta");
        /// Late-move reductions: `base/100 + ln(depth) ln(move) / (div/100)`.
        lmr_base: i32 = ("Tune_LmrBase", 50, 0, 300, step 8,
            "late-move reductions: the table's constant (hundredths of a ply)");
        lmr_div: i32 = ("Tune_LmrDiv", 220, 50, 1000, step 15,
            "late-move reductions: ln(depth) ln(move) divided by this (hundredths)");
        /// A quiet move's reduction falls by its history score over this.
        history_div: i32 = ("Tune_HistoryDiv", 8000, 500, 64000, step 800,
            "late-move reductions: one ply less per this much history score");
        /// Singular extensions from this depth, with β this many centipawns
        /// per ply below the hash value.
        singular_depth: i32 = ("Tune_SingularDepth", 8, 2, 20, step 1,
            "singular extensions from this depth on");
        singular_margin: i32 = ("Tune_SingularMargin", 2, 0, 50, step 1,
            "singular extensions: β below the hash value by this much a ply (the game's own value units)");
        /// Correction history's share of the static value's learnt error (per
        /// cent; 0: not learnt, not added).
        correction_weight: i32 = ("Tune_CorrectionWeight", 100, 0, 300, step 10,
            "correction history: per cent of the learnt error added to the static value (0: off)");
        /// The root's aspiration window: `delta + |previous| / div` centipawns.
        aspiration_delta: i32 = ("Tune_AspirationDelta", 30, 5, 500, step 4,
            "aspiration window: its half-width's constant (centipawns)");
        aspiration_div: i32 = ("Tune_AspirationDiv", 16, 1, 256, step 2,
            "aspiration window: widened by the previous value over this");
        /// The time manager's shares ([`TimeShares`]), PVS's own.
        time_moves_left: i32 = ("Tune_TimeMovesLeft", 70, 30, 150, step 6,
            "time: own moves expected at the start, one fewer every two plies");
        time_moves_min: i32 = ("Tune_TimeMovesMin", 20, 5, 60, step 3,
            "time: own moves expected, at least");
        time_max_share: i32 = ("Tune_TimeMaxShare", 10, 2, 40, step 1,
            "time: one move takes at most the usable main time over this (plus byoyomi or increment)");
        time_instability: i32 = ("Tune_TimeInstability", 50, 0, 200, step 8,
            "time: the optimum stretched by this many hundredths per best-move change (up to four)");
        time_stable3: i32 = ("Tune_TimeStable3", 80, 30, 100, step 5,
            "time: per cent of the optimum once the best move has held three iterations");
        time_stable6: i32 = ("Tune_TimeStable6", 60, 20, 100, step 5,
            "time: per cent of the optimum once it has held six");
        time_next_iteration: i32 = ("Tune_TimeNextIteration", 55, 20, 100, step 5,
            "time: no iteration starts past this per cent of the stretched optimum");
    }
}

impl PvsParams {
    /// The time manager's shares these parameters set.
    pub fn time_shares(&self) -> TimeShares {
        let count = |v: i32| u64::try_from(v).unwrap_or(0);
        let share = |v: i32| f64::from(v) / 100.0;
        TimeShares {
            moves_left: count(self.time_moves_left),
            moves_left_min: count(self.time_moves_min),
            main_time_share: count(self.time_max_share),
            instability: share(self.time_instability),
            stable3: share(self.time_stable3),
            stable6: share(self.time_stable6),
            next_iteration: share(self.time_next_iteration),
        }
    }

    /// The late-move reduction table, `[depth][move count]` in plies.
    pub(crate) fn reductions(&self) -> Vec<[u8; 64]> {
        let base = f64::from(self.lmr_base) / 100.0;
        let div = f64::from(self.lmr_div) / 100.0;
        (0..64)
            .map(|d| {
                let mut row = [0u8; 64];
                for (n, r) in row.iter_mut().enumerate() {
                    if d > 0 && n > 0 {
                        *r = (base + (d as f64).ln() * (n as f64).ln() / div) as u8;
                    }
                }
                row
            })
            .collect()
    }
}
