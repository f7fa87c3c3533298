//! Search values: centipawn-like integers, with mate values near the ends of the range.
//!
//! A mate in `n` plies from the root is `MATE - n`; being mated in `n` is `-(MATE - n)`.
//! Values beyond `MATE_IN_MAX_PLY` in absolute value are mates.

pub type Value = i32;

pub const MAX_PLY: i32 = 128;
pub const MATE: Value = 32000;
pub const INFINITE: Value = 32001;
pub const NONE: Value = 32002;
pub const MATE_IN_MAX_PLY: Value = MATE - MAX_PLY;
pub const DRAW: Value = 0;

#[inline]
pub const fn mate_in(ply: i32) -> Value {
    MATE - ply
}

#[inline]
pub const fn mated_in(ply: i32) -> Value {
    -MATE + ply
}

#[inline]
pub const fn is_mate(v: Value) -> bool {
    v.abs() >= MATE_IN_MAX_PLY && v.abs() <= MATE
}

/// Mate values count plies from the root; the table stores them from the node, so
/// the same entry is right wherever the node is met.
#[inline]
pub fn to_tt(v: Value, ply: i32) -> Value {
    if v >= MATE_IN_MAX_PLY {
        v + ply
    } else if v <= -MATE_IN_MAX_PLY {
        v - ply
    } else {
        v
    }
}

#[inline]
pub fn from_tt(v: Value, ply: i32) -> Value {
    if v >= MATE_IN_MAX_PLY {
        v - ply
    } else if v <= -MATE_IN_MAX_PLY {
        v + ply
    } else {
        v
    }
}

/// What a GUI is told: centipawns, or the signed number of plies to mate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    Cp(i32),
    Mate(i32),
}

impl Score {
    pub fn from_value(v: Value) -> Score {
        if v >= MATE_IN_MAX_PLY {
            Score::Mate(MATE - v)
        } else if v <= -MATE_IN_MAX_PLY {
            Score::Mate(-(MATE + v))
        } else {
            Score::Cp(v)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_values_round_trip_through_the_table() {
        for ply in 0..20 {
            for v in [mate_in(7), mated_in(9), 123, -55, 0] {
                assert_eq!(from_tt(to_tt(v, ply), ply), v);
            }
        }
        assert_eq!(Score::from_value(mate_in(3)), Score::Mate(3));
        assert_eq!(Score::from_value(mated_in(2)), Score::Mate(-2));
        assert_eq!(Score::from_value(-40), Score::Cp(-40));
    }
}
