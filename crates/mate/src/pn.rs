//! Proof and disproof numbers: 64 bits with a saturating infinity, so no sum of
//! children can overflow into a small number.

/// A proof or disproof number.
pub type Pn = u64;

/// Infinity. Kept well below `u64::MAX` so that `INF + INF` still fits before it is
/// clamped back to `INF`.
pub const INF: Pn = u64::MAX / 4;

/// `a + b`, clamped to `INF`.
#[inline(always)]
pub fn add(a: Pn, b: Pn) -> Pn {
    a.saturating_add(b).min(INF)
}

/// A threshold a little above `second`, the "1 + ε" trick: the best child may
/// overtake the second best by a quarter before the search switches to it, which
/// saves most of the switching back and forth between two close siblings.
#[inline(always)]
pub fn one_plus_epsilon(second: Pn) -> Pn {
    if second >= INF {
        INF
    } else {
        add(second, second / 4 + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addition_saturates_at_infinity() {
        assert_eq!(add(INF, INF), INF);
        assert_eq!(add(INF - 1, 5), INF);
        assert_eq!(add(2, 3), 5);
        assert_eq!(one_plus_epsilon(INF), INF);
        assert_eq!(one_plus_epsilon(4), 6);
        assert_eq!(one_plus_epsilon(0), 1);
    }
}
