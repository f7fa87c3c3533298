//! A small random generator (SplitMix64) for the book's and the opening's
//! choices: not for cryptography, only for variety from game to game.

/// SplitMix64: 64 bits of state, every seed good.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// A generator seeded from the clock and the process id, different for each
    /// engine started.
    pub fn from_entropy() -> Rng {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        Rng(nanos ^ (u64::from(std::process::id()) << 32))
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Whether an event of `percent` % happens.
    pub fn percent(&mut self, percent: u32) -> bool {
        self.next_u64() % 100 < u64::from(percent)
    }

    /// An index drawn with probability proportional to its weight (`None` when
    /// there is no positive weight).
    pub fn weighted(&mut self, weights: &[f64]) -> Option<usize> {
        let total: f64 = weights.iter().filter(|w| **w > 0.0).sum();
        if total <= 0.0 {
            return None;
        }
        let mut x = self.unit() * total;
        let mut last = None;
        for (i, &w) in weights.iter().enumerate() {
            if w <= 0.0 {
                continue;
            }
            last = Some(i);
            if x < w {
                return Some(i);
            }
            x -= w;
        }
        last
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_are_followed() {
        let mut rng = Rng::new(7);
        let mut seen = [0u32; 3];
        for _ in 0..30_000 {
            seen[rng.weighted(&[1.0, 0.0, 3.0]).unwrap()] += 1;
        }
        assert_eq!(seen[1], 0);
        let share = f64::from(seen[2]) / 30_000.0;
        assert!((share - 0.75).abs() < 0.02, "{share}");
        assert_eq!(rng.weighted(&[0.0]), None);
        assert_eq!(rng.weighted(&[]), None);
        let hits = (0..10_000).filter(|_| rng.percent(30)).count();
        assert!((2_700..3_300).contains(&hits), "{hits}");
        assert!(!(0..1000).any(|_| rng.percent(0)));
    }
}
