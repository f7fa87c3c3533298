//! The game's phase, and every linear weight as a pair: its value in the opening and
//! how far it moves by the endgame.
//!
//! A piece-square value, a king-box state or a piece in hand is not worth the same
//! in the opening as with the kings under attack. Every tuned weight `w` has a phase
//! weight `v` (`crate::weights::phase`), and a term counts `w + t × v`, where the
//! phase `t` (0 to 1, in 64ths) comes from a model of the game's progress that is
//! linear in the material, piece-square and hand features (`crate::weights::progress`,
//! fitted to GPS Shogi's progress), so it is kept incrementally like them.
//!
//! The hot tables hold both weights in one `i64` ([`pair`]): the evaluation adds
//! pairs as plain integers, one load and one add per feature, and splits the sum once
//! ([`split`]). Sums stay exact as long as each half stays within `i32`, which any
//! evaluation does by orders of magnitude.

use crate::weights::{self, phase};

/// A weight and its phase weight in one integer: `phase × 2³² + base`.
pub type Pair = i64;

/// `base` and `phase` packed; sums and negations of pairs are pairs of the sums.
#[inline]
pub const fn pair(base: i32, phase: i32) -> Pair {
    ((phase as i64) << 32) + base as i64
}

/// The base and phase halves of a sum of pairs.
#[inline]
pub const fn split(p: Pair) -> (i32, i32) {
    let base = p as i32;
    (base, ((p - base as i64) >> 32) as i32)
}

/// Steps of the phase: `t` is counted in 64ths.
pub const PHASE_STEPS: i32 = 64;

/// The phase in 64ths from the progress model's sum: the progress is
/// `510 × sigmoid(sum / 820)` on GPS Shogi's scale (0: the start, 510: the end of a
/// long game), and the phase `min(progress / 256, 1)`: the weights finish moving by
/// the time a game is typically decided.
fn phase_steps(progress_sum: i32) -> i32 {
    let progress = 510.0 / (1.0 + (-(progress_sum as f64) / 820.0).exp());
    ((progress / 256.0).clamp(0.0, 1.0) * PHASE_STEPS as f64).round() as i32
}

/// The value of a sum of pairs at the phase of `progress_sum`.
#[inline]
pub fn blend(sum: Pair, progress_sum: i32) -> i32 {
    let (base, shift) = split(sum);
    base + shift * phase_of(progress_sum) / PHASE_STEPS
}

/// The phase (0-64) at a progress sum, by a table of [`phase_steps`]: sums below
/// -4096 (far before any game starts; phase 1) count as -4096, and the phase is
/// full from about 6 up. The tuner reads the phase here too.
#[inline]
pub fn phase_of(progress_sum: i32) -> i32 {
    const LOW: i32 = -4096;
    static TABLE: std::sync::OnceLock<Vec<u8>> = std::sync::OnceLock::new();
    let table = TABLE.get_or_init(|| (LOW..=16).map(|x| phase_steps(x) as u8).collect());
    table[(progress_sum.clamp(LOW, 16) - LOW) as usize] as i32
}

pub(crate) const fn pairs<const N: usize>(base: &[i32; N], phase: &[i32; N]) -> [Pair; N] {
    let mut out = [0; N];
    let mut i = 0;
    while i < N {
        out[i] = pair(base[i], phase[i]);
        i += 1;
    }
    out
}

pub(crate) const fn pair_rows<const R: usize, const N: usize>(
    base: &[[i32; N]; R],
    phase: &[[i32; N]; R],
) -> [[Pair; N]; R] {
    let mut out = [[0; N]; R];
    let mut r = 0;
    while r < R {
        out[r] = pairs(&base[r], &phase[r]);
        r += 1;
    }
    out
}

// The threats' and the tempo's pairs; each term's own tables are paired in its
// module (king_safety, king_zone, mobility).
pub static THREAT_FIRST: [Pair; 15] = pairs(&weights::THREAT_FIRST, &phase::THREAT_FIRST);
pub static THREAT_SECOND: [Pair; 15] = pairs(&weights::THREAT_SECOND, &phase::THREAT_SECOND);
pub const TEMPO: Pair = pair(weights::TEMPO, phase::TEMPO);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_add_and_negate_half_by_half() {
        let values = [(0, 0), (1, -1), (-1, 1), (-700, 300), (12345, -54321), (-3, -7)];
        let mut sum = 0;
        let (mut base, mut phase) = (0, 0);
        for &(b, p) in &values {
            assert_eq!(split(pair(b, p)), (b, p));
            assert_eq!(split(-pair(b, p)), (-b, -p));
            sum += pair(b, p);
            sum -= 2 * pair(p, b);
            base += b - 2 * p;
            phase += p - 2 * b;
            assert_eq!(split(sum), (base, phase));
        }
    }

    #[test]
    fn the_phase_rises_with_progress_and_saturates() {
        assert_eq!(phase_steps(-100_000), 0);
        assert_eq!(phase_steps(100_000), PHASE_STEPS);
        assert_eq!(phase_of(10), PHASE_STEPS);
        assert_eq!(phase_of(100_000), PHASE_STEPS);
        assert_eq!(phase_of(-100_000), 1);
        let mut last = 0;
        for x in (-4096..=40).step_by(7) {
            let t = phase_steps(x);
            assert!(t >= last, "{x}");
            assert_eq!(phase_of(x), t, "{x}");
            last = t;
        }
        assert_eq!(blend(pair(100, 64), -100_000), 100 + phase_of(-100_000));
        assert_eq!(blend(pair(100, -128), -1000), 100 - 2 * phase_of(-1000));
        assert_eq!(blend(pair(100, 64), 100_000), 164);
    }
}
