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
//! the end, no repeated position) before it is played. When the opponent answers
//! otherwise, the position it reaches is a mate too (every answer of a proven mate
//! is proven), and the probe gets half the move's time for it.

use mate::{verify_mate, Limits as MateLimits, MateResult, Solver};
use search::time::Clock;
use search::Limits;
use shogi::{Move, Position};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
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
    let probe = (move_time(limits)? / SHARE).min(MAX_PROBE);
    (probe >= MIN_PROBE).then_some(probe)
}

/// How long to probe a position known to be a mate: one the opponent reached by
/// answering a mate the probe played other than its line expected (every answer
/// of a proven mate is proven). Half the move's time: the search would not see
/// the mate, and has the other half if the solver does not find it either.
fn proven_budget(limits: &Limits) -> Option<Duration> {
    let probe = move_time(limits)? / 2;
    (probe >= MIN_PROBE).then_some(probe)
}

/// The time a timed game move may take (see [`budget`] for which moves).
pub(super) fn move_time(limits: &Limits) -> Option<Duration> {
    if limits.ponder || limits.infinite || limits.depth.is_some() || limits.nodes.is_some() {
        return None;
    }
    match (limits.movetime, limits.clock) {
        (Some(t), _) => Some(t),
        (None, Some(c)) if c.byoyomi_ms > 0 => Some(Duration::from_millis(c.byoyomi_ms)),
        (None, Some(c)) => {
            Some(Duration::from_millis((c.remaining_ms / 50).saturating_add(c.increment_ms)))
        }
        (None, None) => None,
    }
}

/// The probe's memory from move to move: its solver and the last mate it played.
pub struct Prober {
    solver: Solver,
    last: Option<LastMate>,
}

/// A mate the probe played, as the game stood after its first move.
struct LastMate {
    after_ours: Position,
    /// The answer the line expects, and the line's rest after it.
    expected: Move,
    rest: Vec<Move>,
}

impl LastMate {
    /// `line` played from `pos`; `None` for a mate in one (nothing follows).
    fn new(pos: &Position, line: &[Move]) -> Option<LastMate> {
        let (&ours, &[expected, ref rest @ ..]) = line.split_first()? else {
            return None;
        };
        let mut after_ours = pos.clone();
        after_ours.do_move(ours);
        Some(LastMate { after_ours, expected, rest: rest.to_vec() })
    }

    /// The line's rest when `pos` is where the expected answer led, still a mate
    /// from `pos` with the game's history.
    fn rest_from(&self, pos: &Position) -> Option<Vec<Move>> {
        let mut reached = self.after_ours.clone();
        reached.do_move(self.expected);
        let sound = reached == *pos
            && !pos.in_check()
            && verify_mate(pos, &self.rest, MateLimits::default().futile_rule).is_ok()
            && repeats_nothing(pos, &self.rest);
        sound.then(|| self.rest.clone())
    }

    /// Whether `pos` is where some answer to the mate's first move led.
    fn answered(&self, pos: &Position) -> bool {
        let mut p = self.after_ours.clone();
        shogi::legal_moves(&p).as_slice().iter().any(|&m| {
            p.do_move(m);
            let reached = p == *pos;
            p.undo_move(m);
            reached
        })
    }
}

impl Prober {
    pub fn new(solver: Solver) -> Prober {
        Prober { solver, last: None }
    }

    /// A new table for the solver; the mate kept stays.
    pub fn set_solver(&mut self, solver: Solver) {
        self.solver = solver;
    }

    /// The solver, for the mate guard's searches between the probe's (its
    /// table forgets each solve, and the mate kept is the probe's own).
    pub fn solver(&mut self) -> &mut Solver {
        &mut self.solver
    }

    /// Forgets the last mate (a new game).
    pub fn forget(&mut self) {
        self.last = None;
    }

    /// A mate from `pos` (side to move attacking) before a search with
    /// `limits`: the rest of the last one when the game followed its line, else
    /// one the solver finds within [`budget`], or within [`proven_budget`] when
    /// the opponent answered the last mate otherwise; a solve ends early when
    /// `stop` is set.
    pub fn find(
        &mut self,
        pos: &Position,
        limits: &Limits,
        stop: &Arc<AtomicBool>,
    ) -> Option<Vec<Move>> {
        let last = self.last.take();
        let line = match last.as_ref().and_then(|last| last.rest_from(pos)) {
            Some(rest) => Some(rest),
            None => {
                let proven = last.as_ref().is_some_and(|last| last.answered(pos));
                let time = if proven { proven_budget(limits) } else { budget(limits) };
                time.and_then(|time| find(&mut self.solver, pos, time, stop))
            }
        };
        self.last = line.as_ref().and_then(|line| LastMate::new(pos, line));
        line
    }
}

/// A mate from `pos` (side to move attacking) found within `time` (or until
/// `stop` is set), whose line repeats no earlier position of the game (`pos`
/// carries the game's history).
fn find(
    solver: &mut Solver,
    pos: &Position,
    time: Duration,
    stop: &Arc<AtomicBool>,
) -> Option<Vec<Move>> {
    mate_within(solver, pos, time, stop).filter(|line| repeats_nothing(pos, line))
}

/// A mate from `pos` (side to move attacking, not in check) that `solver`
/// proves within `time`, its read-out included, or until `stop` is set.
pub(super) fn mate_within(
    solver: &mut Solver,
    pos: &Position,
    time: Duration,
    stop: &Arc<AtomicBool>,
) -> Option<Vec<Move>> {
    if pos.in_check() {
        return None;
    }
    // The read-out after the time limit stays inside the time too.
    let (solve, read_out) = mate::split_time(time);
    let limits = MateLimits {
        time: Some(solve),
        read_out: Some(read_out),
        stop: Some(Arc::clone(stop)),
        shortest: false,
        ..MateLimits::default()
    };
    match solver.solve(pos, &limits).result {
        MateResult::Mate(line) if !line.is_empty() => Some(line),
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
        let line = find(&mut solver, &pos, Duration::from_secs(1), &go_on()).expect("a mate");
        assert_eq!(line.iter().map(|m| m.to_usi()).collect::<Vec<_>>(), ["G*5b"]);
        // A lone gold cannot mate.
        let pos = Position::from_sfen("4k4/9/9/9/9/9/9/9/K8 b G 1").unwrap();
        assert!(find(&mut solver, &pos, Duration::from_secs(1), &go_on()).is_none());
    }

    /// A stop flag that is never set.
    fn go_on() -> Arc<AtomicBool> {
        Arc::new(AtomicBool::new(false))
    }

    #[test]
    fn a_stop_ends_the_probe() {
        let problem = Position::from_sfen("+N1R6/1k7/9/2B6/9/9/9/9/9 b rb4g4s3n4l18p 1").unwrap();
        let mut solver = Solver::new(PROBE_HASH_MB);
        let stopped = Arc::new(AtomicBool::new(true));
        assert_eq!(find(&mut solver, &problem, Duration::from_secs(5), &stopped), None);
        assert!(find(&mut solver, &problem, Duration::from_secs(5), &go_on()).is_some());
    }

    #[test]
    fn a_proven_position_gets_half_the_move() {
        assert_eq!(proven_budget(&clock(0, 1000)), Some(Duration::from_millis(500)));
        assert_eq!(proven_budget(&clock(0, 60_000)), Some(Duration::from_secs(30)));
        assert_eq!(proven_budget(&clock(0, 8)), None);
        assert_eq!(proven_budget(&Limits::depth(5)), None);
    }

    #[test]
    fn the_rest_of_a_mate_is_kept_for_the_answer_its_line_expects() {
        // Mate in 7 (tsume, the attacker has no king).
        let problem = Position::from_sfen("+N1R6/1k7/9/2B6/9/9/9/9/9 b rb4g4s3n4l18p 1").unwrap();
        let timed = clock(0, 5000);
        let mut prober = Prober::new(Solver::new(PROBE_HASH_MB));
        let line = prober.find(&problem, &timed, &go_on()).expect("a mate");
        assert_eq!(line.len(), 7);
        let mut followed = problem.clone();
        followed.do_move(line[0]);
        followed.do_move(line[1]);
        // The answer the line expects: its rest, with no time to solve, and the
        // rest kept in turn.
        let no_time = clock(0, 0);
        assert_eq!(budget(&no_time), None);
        assert_eq!(prober.find(&followed, &no_time, &go_on()), Some(line[2..].to_vec()));
        let mut next = followed.clone();
        next.do_move(line[2]);
        next.do_move(line[3]);
        assert_eq!(prober.find(&next, &no_time, &go_on()), Some(line[4..].to_vec()));
        next.do_move(line[4]);
        next.do_move(line[5]);
        assert_eq!(prober.find(&next, &no_time, &go_on()), Some(line[6..].to_vec()));
        // Nothing kept after a mate in one, nor for a position the line did not
        // lead to.
        assert!(prober.last.is_none());
        prober.find(&problem, &timed, &go_on()).expect("the mate again");
        assert_eq!(prober.find(&Position::startpos(), &no_time, &go_on()), None);
        assert!(prober.last.is_none());
        // A new game forgets the mate.
        prober.find(&problem, &timed, &go_on()).expect("the mate again");
        prober.forget();
        assert_eq!(prober.find(&followed, &no_time, &go_on()), None);
    }

    #[test]
    fn another_answer_to_a_mate_is_known_proven() {
        let problem = Position::from_sfen("+N1R6/1k7/9/2B6/9/9/9/9/9 b rb4g4s3n4l18p 1").unwrap();
        let mut prober = Prober::new(Solver::new(PROBE_HASH_MB));
        // The first answer of the line that is not forced, and another one.
        let mut ours = problem.clone();
        let (last, other) = loop {
            let line = prober.find(&ours, &clock(0, 5000), &go_on()).expect("a mate");
            assert!(line.len() >= 3, "every answer of the line is forced");
            let last = prober.last.take().expect("the mate kept");
            ours.do_move(line[0]);
            let answers = shogi::legal_moves(&ours);
            if let Some(&other) = answers.as_slice().iter().find(|&&m| m != line[1]) {
                break (last, other);
            }
            ours.do_move(line[1]);
        };
        let mut answered = ours.clone();
        answered.do_move(other);
        assert_eq!(last.rest_from(&answered), None);
        assert!(last.answered(&answered));
        assert!(!last.answered(&Position::startpos()));
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
