//! The handcrafted evaluation's hand-set king-danger scales, declared once
//! (name, default, range, the tuner's step) so that a tuner can move them over
//! USI. The engine lists them (`Tune_…`) only in a tuning build (`kyobo`'s
//! `--features tune`), as it does PVS's parameters; their defaults are the
//! weights `eval` compiles in ([`eval::king_safety::DANGER`]).
//!
//! The danger term is quadratic (`danger² / scale`, capped), so the linear tuner
//! (`kyobo-lab tune`) leaves these out; a game-playing tuner such as SPSA can move
//! them.

use eval::king_safety::{DangerWeights, DANGER};

search::spin_options! {
    /// The king-danger scales of the handcrafted evaluation.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub struct EvalScales {
        /// Every attacking kind's weight, in per cent of the compiled-in one.
        attack_percent: i32 = ("Tune_DangerAttack", 100, 0, 400, step 10,
            "king danger: the weights of attacks on a king's zone, per cent of the compiled-in ones");
        /// Every hand kind's weight, in per cent of the compiled-in one.
        hand_percent: i32 = ("Tune_DangerHand", 100, 0, 400, step 10,
            "king danger: the weights of the attacker's pieces in hand, per cent of the compiled-in ones");
        defender_near: i32 = ("Tune_DefenderNear", DANGER.defender_near as i64, 0, 100, step 1,
            "king danger: removed for each gold, silver or promoted minor next to the king");
        defender_far: i32 = ("Tune_DefenderFar", DANGER.defender_far as i64, 0, 100, step 1,
            "king danger: removed for each such guard two squares from the king");
        scale: i32 = ("Tune_DangerScale", DANGER.scale as i64, 1, 200, step 1,
            "king danger: the penalty is danger² divided by this");
        cap: i32 = ("Tune_DangerCap", DANGER.cap as i64, 0, 10000, step 100,
            "king danger: the most the penalty takes (centipawns)");
        guard: i32 = ("Tune_GuardBonus", DANGER.guard as i64, 0, 200, step 2,
            "king safety: the bonus for each gold or silver touching the king, up to three (centipawns)");
    }
}

impl EvalScales {
    /// The danger weights these scales make: [`DANGER`] at the defaults.
    pub fn danger(&self) -> DangerWeights {
        let scaled = |w: i32, percent: i32| w * percent / 100;
        DangerWeights {
            attack: DANGER.attack.map(|w| scaled(w, self.attack_percent)),
            hand: DANGER.hand.map(|w| scaled(w, self.hand_percent)),
            defender_near: self.defender_near,
            defender_far: self.defender_far,
            scale: self.scale,
            cap: self.cap,
            guard: self.guard,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_defaults_are_the_compiled_in_weights() {
        assert_eq!(EvalScales::default().danger(), DANGER);
    }

    #[test]
    fn percentages_scale_every_weight_of_their_table() {
        let mut s = EvalScales::default();
        s.set("Tune_DangerAttack", 50).unwrap();
        s.set("tune_dangerhand", 200).unwrap();
        let d = s.danger();
        // ATTACK_WEIGHT and HAND_DANGER by hand: halved and doubled.
        assert_eq!(d.attack[..8], [0, 3, 2, 3, 5, 5, 6, 6]);
        assert_eq!(d.hand, [4, 8, 12, 20, 24, 20, 28]);
        assert_eq!((d.scale, d.cap), (12, 1500));
        assert!(s.set("Tune_DangerScale", 0).is_err(), "a zero divisor is refused");
        assert_eq!(s.danger().scale, 12);
    }
}
