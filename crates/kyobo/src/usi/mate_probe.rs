//! Before the alpha-beta search of a game move, a short df-pn search for a mate
//! from the root. Shogi endgames are decided by mates of a dozen plies or more,
//! beyond what the alpha-beta search sees in a second; the checkmate solver finds
//! many of them in a few milliseconds.
//!
//! A mate found is played only if its line repeats no position of the game: the
//! solver knows nothing of the game before the root, and a line through an earlier
//! position could end in a repetition (a loss, with continuous checks) instead of
//! mate. Since every probe move leads to a position the game has not seen, probe
//! moves never repeat a position, and each one keeps a proven mate on the board.
//!
//! Each solve starts with a table that has forgotten the last one, and a mate
//! found in a few milliseconds from one position may take the next probe longer
//! than its share from the position two plies on. So the rest of the line is
//! kept: when the opponent answers as the line expects, its next move is played
//! without a solve. The line is a proof's principal variation, so the position
//! it reaches is proven too, and its rest is checked again (legal checks, mate at
//! the end, no repeated position) before it is played.

use mate::{verify_mate, Limits as MateLimits, MateResult, Solver};
use search::time::Clock;
use search::Limits;
use shogi::{Move, Position};
use std::time::Duration;

/// Table size of the probe's solver (kept from move to move).
pub const PROBE_HASH_MB: usize = 16;
/// The probe's share of the time the move may take.
const SHARE: u32 = 10;
/// At most this long, however long the move may take.
const MAX_PROBE: Duration = Duration::from_millis(300);
/// Below this, no probe.
const MIN_PROBE: Duration = Duration::from_millis(5);

/// How long to probe before searching with `limits`: only for a game move with a
/// time limit (not ponder, infinite, depth or node searches, whose answers must
/// not depend on timing).
pub fn budget(limits: &Limits) -> Option<Duration> {
    if limits.ponder || limits.infinite || limits.depth.is_some() || limits.nodes.is_some() {
        return None;
    }
    let move_time = match (limits.movetime, limits.clock) {
        (Some(t), _) => t,
        (None, Some(c)) if c.byoyomi_ms > 0 => Duration::from_millis(c.byoyomi_ms),
        (None, Some(c)) => {
            Duration::from_millis((c.remaining_ms / 50).saturating_add(c.increment_ms))
        }
        (None, None) => return None,
    };
    let probe = (move_time / SHARE).min(MAX_PROBE);
    (probe >= MIN_PROBE).then_some(probe)
}

/// The probe's memory from move to move: its solver and the rest of the last
/// mate it found.
pub struct Prober {
    solver: Solver,
    /// The position the game reaches when the opponent answers the last mate's
    /// first move as its line expects, and the line's rest from there.
    expected: Option<(Position, Vec<Move>)>,
}

impl Prober {
    pub fn new(solver: Solver) -> Prober {
        Prober { solver, expected: None }
    }

    /// A new table for the solver; the line kept stays.
    pub fn set_solver(&mut self, solver: Solver) {
        self.solver = solver;
    }

    /// A mate from `pos` (side to move attacking): the rest of the last one when
    /// the game followed its line, else one the solver finds within `time`.
    pub fn find(&mut self, pos: &Position, time: Duration) -> Option<Vec<Move>> {
        let line = self.followed(pos).or_else(|| find(&mut self.solver, pos, time));
        self.expected = line.as_ref().filter(|line| line.len() >= 3).map(|line| {
            let mut reached = pos.clone();
            reached.do_move(line[0]);
            reached.do_move(line[1]);
            (reached, line[2..].to_vec())
        });
        line
    }

    /// The rest of the last mate when `pos` is where its line led, still a mate
    /// from `pos` with the game's history.
    fn followed(&mut self, pos: &Position) -> Option<Vec<Move>> {
        let (reached, rest) = self.expected.take()?;
        let sound = reached == *pos
            && !pos.in_check()
            && verify_mate(pos, &rest, MateLimits::default().futile_rule).is_ok()
            && repeats_nothing(pos, &rest);
        sound.then_some(rest)
    }
}

/// A mate from `pos` (side to move attacking) found within `time`, whose line
/// repeats no earlier position of the game (`pos` carries the game's history).
pub fn find(solver: &mut Solver, pos: &Position, time: Duration) -> Option<Vec<Move>> {
    if pos.in_check() {
        return None;
    }
    // The read-out after the time limit stays inside the probe's time too.
    let (solve, read_out) = mate::split_time(time);
    let limits = MateLimits {
        time: Some(solve),
        read_out: Some(read_out),
        shortest: false,
        ..MateLimits::default()
    };
    match solver.solve(pos, &limits).result {
        MateResult::Mate(line) if !line.is_empty() && repeats_nothing(pos, &line) => Some(line),
        _ => None,
    }
}

/// Whether playing `line` from `pos` never comes back to a position seen before
/// (in the game or earlier in the line).
fn repeats_nothing(pos: &Position, line: &[Move]) -> bool {
    let mut p = pos.clone();
    line.iter().all(|&m| {
        p.do_move(m);
        p.repetition(usize::MAX).is_none()
    })
}

/// `limits` with `spent` taken off the time the move may take: the clock counts
/// the probe too.
pub fn charge(limits: &mut Limits, spent: Duration) {
    if let Some(t) = limits.movetime.as_mut() {
        *t = t.saturating_sub(spent);
    }
    if let Some(c) = limits.clock.as_mut() {
        let ms = spent.as_millis() as u64;
        let from_main = ms.min(c.remaining_ms);
        *c = Clock {
            remaining_ms: c.remaining_ms - from_main,
            byoyomi_ms: c.byoyomi_ms.saturating_sub(ms - from_main),
            increment_ms: c.increment_ms,
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock(remaining_ms: u64, byoyomi_ms: u64) -> Limits {
        let clock = Clock { remaining_ms, byoyomi_ms, increment_ms: 0 };
        Limits { clock: Some(clock), multipv: 1, ..Limits::default() }
    }

    #[test]
    fn the_budget_is_a_share_of_the_move_and_only_for_timed_moves() {
        assert_eq!(budget(&clock(0, 1000)), Some(Duration::from_millis(100)));
        assert_eq!(budget(&clock(0, 10_000)), Some(MAX_PROBE));
        assert_eq!(budget(&clock(0, 40)), None);
        assert_eq!(budget(&Limits::depth(5)), None);
        let mut ponder = clock(0, 1000);
        ponder.ponder = true;
        assert_eq!(budget(&ponder), None);
    }

    #[test]
    fn huge_clock_fields_do_not_overflow() {
        let clock = Clock { remaining_ms: u64::MAX, byoyomi_ms: 0, increment_ms: u64::MAX };
        let limits = Limits { clock: Some(clock), multipv: 1, ..Limits::default() };
        assert_eq!(budget(&limits), Some(MAX_PROBE));
        let mut limits = limits;
        charge(&mut limits, Duration::from_secs(1));
    }

    #[test]
    fn the_probe_is_charged_to_the_main_time_then_to_byoyomi() {
        let mut limits = clock(30, 1000);
        charge(&mut limits, Duration::from_millis(100));
        let c = limits.clock.unwrap();
        assert_eq!((c.remaining_ms, c.byoyomi_ms), (0, 930));
    }

    #[test]
    fn a_mate_is_found_and_none_where_there_is_none() {
        let mut solver = Solver::new(PROBE_HASH_MB);
        // Mate in 1 (G*5b) with a pawn on 5c.
        let pos = Position::from_sfen("4k4/9/4P4/9/9/9/9/9/K8 b G 1").unwrap();
        let line = find(&mut solver, &pos, Duration::from_secs(1)).expect("a mate");
        assert_eq!(line.iter().map(|m| m.to_usi()).collect::<Vec<_>>(), ["G*5b"]);
        // A lone gold cannot mate.
        let pos = Position::from_sfen("4k4/9/9/9/9/9/9/9/K8 b G 1").unwrap();
        assert!(find(&mut solver, &pos, Duration::from_secs(1)).is_none());
    }

    #[test]
    fn the_rest_of_a_mate_is_kept_for_the_answer_its_line_expects() {
        // Mate in 7 (tsume, the attacker has no king).
        let problem = Position::from_sfen("+N1R6/1k7/9/2B6/9/9/9/9/9 b rb4g4s3n4l18p 1").unwrap();
        let mut prober = Prober::new(Solver::new(PROBE_HASH_MB));
        let line = prober.find(&problem, Duration::from_secs(5)).expect("a mate");
        assert_eq!(line.len(), 7);
        let mut after_ours = problem.clone();
        after_ours.do_move(line[0]);
        let mut followed = after_ours.clone();
        followed.do_move(line[1]);
        // The answer the line expects: its rest, with no solve.
        assert_eq!(prober.followed(&followed), Some(line[2..].to_vec()));
        // Taken once: a second look finds nothing kept.
        assert_eq!(prober.followed(&followed), None);
        // Played through `find` with no time to solve, and kept on for the next.
        prober.find(&problem, Duration::from_secs(5)).expect("the mate again");
        let rest = prober.find(&followed, Duration::ZERO).expect("the rest");
        assert_eq!(rest, line[2..]);
        let mut next = followed.clone();
        next.do_move(rest[0]);
        next.do_move(rest[1]);
        assert_eq!(prober.followed(&next), Some(line[4..].to_vec()));
        // Any other answer (at the first reply that is not forced): nothing kept
        // for it.
        let mut ours = problem.clone();
        let deviated = loop {
            let line = prober.find(&ours, Duration::from_secs(5)).expect("a mate");
            assert!(line.len() >= 3, "every reply of the line is forced");
            ours.do_move(line[0]);
            let other =
                shogi::legal_moves(&ours).as_slice().iter().copied().find(|&m| m != line[1]);
            if let Some(other) = other {
                let mut deviated = ours.clone();
                deviated.do_move(other);
                break deviated;
            }
            ours.do_move(line[1]);
        };
        assert_eq!(prober.followed(&deviated), None);
    }

    #[test]
    fn a_line_back_to_a_position_of_the_game_repeats() {
        let mut pos = Position::startpos();
        for text in ["5i5h", "5a5b"] {
            let m = pos.parse_usi_move(text).unwrap();
            pos.do_move(m);
        }
        let moves = |texts: &[&str]| {
            let mut p = pos.clone();
            let mut line = Vec::new();
            for text in texts {
                let m = p.parse_usi_move(text).unwrap();
                p.do_move(m);
                line.push(m);
            }
            line
        };
        assert!(!repeats_nothing(&pos, &moves(&["5h5i", "5b5a"])));
        assert!(repeats_nothing(&pos, &moves(&["5h5i", "5b4b"])));
    }
}
