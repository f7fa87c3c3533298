//! Kyobo's checkmate (tsume) solver.
//!
//! A df-pn search ([`search`]) proves or disproves that the side to move can force
//! mate with checks alone, in a bounded transposition table ([`tt`]) that applies
//! hand superiority. Once a mate is proven, bounded searches shorten it until no
//! mate two plies shorter exists, and the line is read out of the table ([`pv`])
//! and replayed by the rules core ([`verify`]). Futile interpositions are not
//! counted in the length ([`futile`] says exactly which).
//!
//! ```
//! use mate::{Limits, MateResult, Solver};
//! let pos = shogi::Position::from_sfen("4k4/9/4P4/9/9/9/9/9/9 b G 1").unwrap();
//! let report = Solver::new(16).solve(&pos, &Limits::default());
//! assert!(matches!(report.result, MateResult::Mate(ref pv) if pv.len() == 1));
//! ```

pub mod certify;
pub mod futile;
pub mod hands;
pub mod pn;
pub mod problem;
mod pv;
pub mod search;
mod shorten;
pub mod tt;
mod usi;
pub mod verify;

pub use usi::{go_mate_answer, split_time};
pub use verify::{verify_mate, MateEnd};

use crate::pn::INF;
use crate::search::{Abort, Outcome, Search, UNBOUNDED};
use crate::tt::Table;
use shogi::{Move, Position};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Deep mates recurse deeply: the search runs on a thread with this much stack.
const SEARCH_STACK_BYTES: usize = 512 << 20;

/// The answer to "can the side to move force mate?".
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MateResult {
    /// A mate, attacker's move first, ending in checkmate (or in a position whose
    /// only replies are futile interpositions).
    Mate(Vec<Move>),
    /// Proven: there is no mate by continuous checks.
    NoMate,
    /// A limit (time, nodes or the stop flag) ended the search before a proof.
    Timeout,
    /// Not a mating problem: the side not to move is in check (an illegal
    /// position), or it has no king.
    Invalid(String),
}

/// Limits of one solve.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Wall-clock time; `None`: no limit.
    pub time: Option<Duration>,
    /// Search nodes; `None`: no limit.
    pub nodes: Option<u64>,
    /// Set to `true` from another thread to stop (USI `stop`).
    pub stop: Option<Arc<AtomicBool>>,
    /// Look for the shortest mate after the first proof (default `true`).
    pub shortest: bool,
    /// Do not count futile interpositions (default `true`; see [`futile`]).
    pub futile_rule: bool,
    /// How long the line may take to read out once `time` is up; `None`: a
    /// twentieth of `time`, 0.1 to 3 s. A caller with a hard deadline keeps both
    /// inside it.
    pub read_out: Option<Duration>,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            time: None,
            nodes: None,
            stop: None,
            shortest: true,
            futile_rule: true,
            read_out: None,
        }
    }
}

/// Everything a solve found out.
#[derive(Clone, Debug)]
pub struct Report {
    pub result: MateResult,
    /// True when the mate is proven shortest (no mate two plies shorter exists).
    pub shortest_proven: bool,
    /// Every mate length proven, with the time it was proven, first mate first.
    pub lengths: Vec<(usize, Duration)>,
    pub nodes: u64,
    pub elapsed: Duration,
    /// Permille of the table in use at the end.
    pub hashfull: u32,
    /// The side that gives checks. It is the side to move, except when the side to
    /// move is in check: then the defender moves first and the mate starts with
    /// its reply.
    pub attacker: Option<shogi::Color>,
}

impl Report {
    /// Length and time of the first mate proven, before shortening.
    pub fn first_mate(&self) -> Option<(usize, Duration)> {
        self.lengths.first().copied()
    }

    /// The length of the last mate proven, when a line of `line_len` plies read
    /// out of a search stopped early is shorter: then some defence in the line is
    /// not the longest (the read-out takes the longest proof stored, an upper
    /// bound), and the length proven is the one to trust.
    pub fn proven_longer_than(&self, line_len: usize) -> Option<usize> {
        match self.lengths.last() {
            Some(&(proven, _)) if !self.shortest_proven && proven > line_len => Some(proven),
            _ => None,
        }
    }
}

/// A solver owns its table, so that repeated solves reuse the allocation.
pub struct Solver {
    table: Table,
}

impl Solver {
    /// A solver with a transposition table of `hash_mb` mebibytes.
    ///
    /// # Panics
    /// When the memory cannot be had; see [`Solver::try_new`].
    pub fn new(hash_mb: usize) -> Solver {
        Solver { table: Table::new(hash_mb) }
    }

    /// A solver with a table of `hash_mb` mebibytes, or `None` when the memory
    /// cannot be had.
    pub fn try_new(hash_mb: usize) -> Option<Solver> {
        Some(Solver { table: Table::try_new(hash_mb)? })
    }

    /// As [`Solver::try_new`], made in no time however large (its memory is
    /// touched as the search reaches it): for a table made on a game's clock.
    pub fn try_new_lazy(hash_mb: usize) -> Option<Solver> {
        Some(Solver { table: Table::try_new_lazy(hash_mb)? })
    }

    /// After a `NoMate` answer for `pos`, builds the independent certificate of
    /// [`certify`] (the last search's table orders its tries) expanding at most
    /// `budget` positions: `Some(size of the closed set)` when it closes.
    pub fn certify_nomate(&self, pos: &Position, budget: u64) -> Option<usize> {
        let attacker = attacker_of(pos).ok()?;
        let table = &self.table;
        std::thread::scope(|scope| {
            let worker = std::thread::Builder::new()
                .stack_size(SEARCH_STACK_BYTES)
                .spawn_scoped(scope, move || certify::certify_nomate(table, pos, attacker, budget));
            match worker {
                Ok(handle) => handle.join().unwrap_or_else(|e| std::panic::resume_unwind(e)),
                Err(e) => panic!("cannot start the certificate thread: {e}"),
            }
        })
    }

    /// Bytes held by the table.
    pub fn table_bytes(&self) -> usize {
        self.table.size_bytes()
    }

    /// Solves `pos` for the side to move.
    pub fn solve(&mut self, pos: &Position, limits: &Limits) -> Report {
        let table = &mut self.table;
        let pos = pos.clone();
        std::thread::scope(|scope| {
            let worker = std::thread::Builder::new()
                .stack_size(SEARCH_STACK_BYTES)
                .spawn_scoped(scope, move || solve_on(table, pos, limits));
            match worker {
                Ok(handle) => handle.join().unwrap_or_else(|e| std::panic::resume_unwind(e)),
                Err(e) => panic!("cannot start the solver thread: {e}"),
            }
        })
    }
}

/// Solves with a fresh 64 MiB table.
pub fn solve(pos: &Position, limits: &Limits) -> MateResult {
    Solver::new(64).solve(pos, limits).result
}

/// Above this many nodes a search keeps the line of every mate it proves.
const LONG_SEARCH_NODES: u64 = 1_000_000;

/// Asks the root for a mate within `bound` plies. The search favours the old
/// line first (see `Search::favour_old_line`), which finds where a long line can
/// be shortened without re-trying every other check along it; but when there is
/// no shorter mate, every check must be refuted anyway and the favoured order only
/// slows that down. So a favoured search that runs past as many nodes as the
/// whole solve has spent so far gives way to plain df-pn, which goes on from the
/// same table.
fn bounded_root_search(search: &mut Search, pos: &mut Position, bound: u16) -> Outcome {
    let limit = search.node_limit;
    search.favour_old_line = true;
    search.node_limit = limit.min(search.nodes.saturating_mul(2).max(LONG_SEARCH_NODES));
    let outcome = search.mid(pos, INF, INF, bound, 0);
    search.node_limit = limit;
    search.favour_old_line = false;
    if search.abort == Some(Abort::Nodes) && search.nodes < limit {
        search.abort = None;
        return search.mid(pos, INF, INF, bound, 0);
    }
    outcome
}

/// The verified line of a mate in `len` (see `pv::extract`).
fn line_of(
    search: &mut Search,
    pos: &mut Position,
    len: u16,
    exact: bool,
    futile_rule: bool,
) -> Option<Vec<Move>> {
    pv::extract(search, pos, len, exact).filter(|line| verify_mate(pos, line, futile_rule).is_ok())
}

/// Extra time to read the line out once the time limit is reached.
pub(crate) fn read_out_grace(limit: Duration) -> Duration {
    (limit / 20).clamp(Duration::from_millis(100), Duration::from_secs(3))
}

/// Who attacks in `pos`: the side to move, unless it is in check (then the
/// defender is to move). `Err` when the position is not a mating problem.
pub fn attacker_of(pos: &Position) -> Result<shogi::Color, String> {
    let stm = pos.side_to_move();
    let (attacker, defender) = if pos.in_check() { (stm.flip(), stm) } else { (stm, stm.flip()) };
    let Some(king) = pos.king_square(defender) else {
        return Err(format!("{defender:?} has no king to mate"));
    };
    if defender != stm && pos.attackers_to(attacker, king, pos.occupied()).is_nonempty() {
        return Err("the side not to move is in check".into());
    }
    Ok(attacker)
}

fn solve_on(table: &mut Table, mut pos: Position, limits: &Limits) -> Report {
    let start = Instant::now();
    table.new_search();
    let mut report = Report {
        result: MateResult::NoMate,
        shortest_proven: false,
        lengths: Vec::new(),
        nodes: 0,
        elapsed: Duration::ZERO,
        hashfull: 0,
        attacker: None,
    };
    let attacker = match attacker_of(&pos) {
        Ok(a) => a,
        Err(e) => {
            report.result = MateResult::Invalid(e);
            report.elapsed = start.elapsed();
            return report;
        }
    };
    report.attacker = Some(attacker);
    // The shortest mate from an attacker node is 1 ply, from a defender node 2 (or
    // 0 when it is mated already, which the search finds without a loop).
    let min_len: u16 = if pos.side_to_move() == attacker { 1 } else { 2 };
    let mut search = Search::new(table, attacker);
    search.node_limit = limits.nodes.unwrap_or(u64::MAX);
    search.deadline = limits.time.and_then(|t| start.checked_add(t));
    search.stop = limits.stop.as_deref();
    search.futile_rule = limits.futile_rule;
    search.path.insert(pos.key(), 0);

    let first = search.mid(&mut pos, INF, INF, UNBOUNDED, 0);
    if !first.is_proven() {
        report.nodes = search.nodes;
        report.hashfull = search.tt.hashfull();
        report.result = if first.is_disproven() { MateResult::NoMate } else { MateResult::Timeout };
        report.elapsed = start.elapsed();
        return report;
    }
    let mut len = first.proof_len;
    report.lengths.push((len as usize, start.elapsed()));
    // On a long search, the line of each mate proven is read out at once and kept:
    // the table may lose it later (when full), and a stopped search still answers
    // with the shortest line it has.
    let big = |s: &Search| s.nodes > LONG_SEARCH_NODES;
    let mut kept: Option<Vec<Move>> = None;
    if big(&search) {
        kept = line_of(&mut search, &mut pos, len, false, limits.futile_rule);
    }
    let mut exact = !limits.shortest;
    if limits.shortest {
        // Long mates: shorten cheaply along the line first (see `shorten`), again
        // along each new line while that helps.
        while let Some(line) = kept.clone() {
            match shorten::shorten_along(&mut search, &mut pos, &line) {
                Some(shorter) if shorter < len && search.abort.is_none() => {
                    len = shorter;
                    report.lengths.push((len as usize, start.elapsed()));
                    match line_of(&mut search, &mut pos, len, false, limits.futile_rule) {
                        Some(line) => kept = Some(line),
                        None => break,
                    }
                }
                _ => break,
            }
        }
        exact = true;
        while len >= min_len + 2 {
            let shorter = bounded_root_search(&mut search, &mut pos, len - 2);
            if shorter.is_proven() {
                len = shorter.proof_len;
                report.lengths.push((len as usize, start.elapsed()));
                if big(&search) {
                    if let Some(line) =
                        line_of(&mut search, &mut pos, len, false, limits.futile_rule)
                    {
                        kept = Some(line);
                    }
                }
            } else {
                exact = shorter.is_disproven() && search.abort.is_none();
                break;
            }
        }
    }
    // Reading the line out may need a few bounded searches: give them room even
    // when the time is up (a twentieth of the time limit, 0.1 to 3 s, and at most
    // 10 M nodes), but still obey the stop flag.
    if search.abort.is_some_and(|a| a != Abort::Stopped) {
        search.abort = None;
        let grace = limits.time.map(|t| limits.read_out.unwrap_or_else(|| read_out_grace(t)));
        search.deadline = grace.and_then(|g| Instant::now().checked_add(g));
        search.node_limit = search.nodes + 10_000_000;
    }
    let line = line_of(&mut search, &mut pos, len, exact, limits.futile_rule);
    report.result = match (line, kept) {
        (Some(line), _) => MateResult::Mate(line),
        (None, Some(line)) => {
            exact = exact && line.len() == len as usize;
            MateResult::Mate(line)
        }
        (None, None) => MateResult::Timeout,
    };
    report.shortest_proven = exact && limits.shortest;
    report.nodes = search.nodes;
    report.hashfull = search.tt.hashfull();
    report.elapsed = start.elapsed();
    report
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tt::Probe;

    /// 木星の旅390 from long.txt: a first proof of 27 plies, 21 at the shortest.
    const JUPITER_390: &str =
        "3pl3p/5P3/1k7/3+p+p1+B2/1K6P/5pl2/4+BS1+ll/4PN3/3S1+sSPN b N2P2r4gn7p 1";

    #[test]
    fn shortening_along_the_line_gives_a_shorter_verified_mate() {
        let mut table = Table::new(16);
        table.new_search();
        let mut pos = Position::from_sfen(JUPITER_390).unwrap();
        let mut search = Search::new(&mut table, pos.side_to_move());
        search.path.insert(pos.key(), 0);
        let first = search.mid(&mut pos, INF, INF, UNBOUNDED, 0);
        assert!(first.is_proven());
        // Read out without exactness, the defender takes the longest stored proof,
        // which may be shorter than the node's own (older) proof length.
        let line = line_of(&mut search, &mut pos, first.proof_len, false, true).unwrap();
        assert!(line.len() <= first.proof_len as usize);
        let shorter = shorten::shorten_along(&mut search, &mut pos, &line).unwrap();
        assert!(shorter < first.proof_len, "{shorter} vs {}", first.proof_len);
        assert!(shorter >= 21, "{shorter}: shorter than the proven shortest mate");
        let again = line_of(&mut search, &mut pos, shorter, false, true).unwrap();
        assert!(again.len() <= shorter as usize);
        assert_eq!(pos.to_sfen(), Position::from_sfen(JUPITER_390).unwrap().to_sfen());
    }

    /// A mate in 3 whose only first move is 9a7c (from tsume_3ply.txt).
    const MATE_IN_3: &str = "+B8/9/2r6/9/k8/2+B6/9/9/9 b r4g4s4n4l18p 1";

    #[test]
    fn a_refutation_made_up_by_the_root_filter_is_not_stored() {
        let mut table = Table::new(16);
        table.new_search();
        let mut pos = Position::from_sfen(MATE_IN_3).unwrap();
        let key_move = pos.parse_usi_move("9a7c").unwrap();
        let mut search = Search::new(&mut table, pos.side_to_move());
        search.path.insert(pos.key(), 0);
        search.root_filter = Some((0, search::MoveFilter::Without(key_move)));
        let without = search.mid(&mut pos, INF, INF, 3, 0);
        assert!(without.is_disproven(), "no other mate in 3");
        let attacker_hand = pos.hand(search.attacker);
        let stored = search.tt.probe(pos.board_key(), attacker_hand, 3);
        assert!(!matches!(stored, Probe::Disproven { .. }), "{stored:?}");
        search.root_filter = Some((0, search::MoveFilter::Only(key_move)));
        assert_eq!(search.mid(&mut pos, INF, INF, 3, 0).proof_len, 3);
        search.root_filter = None;
        let plain = search.mid(&mut pos, INF, INF, 3, 0);
        assert!(plain.is_proven() && plain.proof_len == 3);
    }

    /// The read-out grace after a time limit is a twentieth of the limit, never
    /// less than 0.1 s nor more than 3 s.
    #[test]
    fn the_read_out_grace_is_a_twentieth_of_the_time_between_a_tenth_and_three_seconds() {
        let ms = Duration::from_millis;
        for (limit, grace) in [
            (Duration::ZERO, ms(100)),
            (ms(1), ms(100)),
            (ms(2_000), ms(100)),
            (ms(4_000), ms(200)),
            (ms(10_000), ms(500)),
            (ms(60_000), ms(3_000)),
            (ms(61_000), ms(3_000)),
            (Duration::from_secs(365 * 24 * 3600), ms(3_000)),
        ] {
            assert_eq!(read_out_grace(limit), grace, "limit {limit:?}");
        }
    }

    /// Rook, gold and silver in hand have no mate within 17 plies against a bare
    /// king, and refuting every check takes df-pn well over a million nodes
    /// (about 1.4 M with a 64 MiB table).
    const NO_MATE_IN_17: &str = "4k4/9/9/9/9/9/9/9/9 b RGS 1";

    /// A search set up as `solve_on` sets it up before the bounded searches.
    fn root_search<'t>(table: &'t mut Table, pos: &Position, node_limit: u64) -> Search<'t> {
        table.new_search();
        let mut search = Search::new(table, pos.side_to_move());
        search.node_limit = node_limit;
        search.path.insert(pos.key(), 0);
        search
    }

    /// The first multiple of 1,024 at or above `n`: where a node limit of `n`
    /// stops a search (the limit is looked at every 1,024 nodes).
    fn checked_at(n: u64) -> u64 {
        n.div_ceil(1024) * 1024
    }

    /// `bounded_root_search` gives the favoured search at most
    /// max(2 × the nodes spent so far, `LONG_SEARCH_NODES`) nodes; when that runs
    /// out before the solve's own limit, plain df-pn goes on from the same table
    /// and settles the question (here: no mate within 17), with the node limit and
    /// the search mode put back as they were.
    #[test]
    #[cfg_attr(debug_assertions, ignore = "1.4 M nodes: run with --release")]
    fn a_favoured_root_search_past_its_budget_gives_way_to_plain_df_pn() {
        let mut table = Table::new(64);
        let mut pos = Position::from_sfen(NO_MATE_IN_17).unwrap();
        let mut search = root_search(&mut table, &pos, u64::MAX);
        let outcome = bounded_root_search(&mut search, &mut pos, 17);
        assert!(outcome.is_disproven(), "{outcome:?} after {} nodes", search.nodes);
        assert_eq!(search.abort, None);
        // The favoured search alone stops at its budget: only the plain search
        // after it can have spent more.
        assert!(search.nodes > checked_at(LONG_SEARCH_NODES), "{} nodes", search.nodes);
        assert_eq!(search.node_limit, u64::MAX);
        assert!(!search.favour_old_line);
        assert_eq!(pos.to_sfen(), Position::from_sfen(NO_MATE_IN_17).unwrap().to_sfen());
    }

    /// When the solve's own node limit is below the favoured search's budget, it is
    /// that limit that stops the search: no plain search follows, the abort stays
    /// for the caller to see, and the outcome is left open.
    #[test]
    fn the_solves_own_node_limit_stops_a_bounded_root_search_without_fallback() {
        let mut table = Table::new(16);
        let mut pos = Position::from_sfen(NO_MATE_IN_17).unwrap();
        let limit = 100_000;
        let mut search = root_search(&mut table, &pos, limit);
        let outcome = bounded_root_search(&mut search, &mut pos, 17);
        assert!(!outcome.is_proven() && !outcome.is_disproven(), "{outcome:?}");
        assert_eq!(search.abort, Some(Abort::Nodes));
        assert_eq!(search.nodes, checked_at(limit));
        assert_eq!(search.node_limit, limit);
        assert!(!search.favour_old_line);
    }

    /// A limit between the favoured search's budget and what the question needs:
    /// the plain search takes over past the budget and then stops at the limit.
    #[test]
    #[cfg_attr(debug_assertions, ignore = "1.2 M nodes: run with --release")]
    fn the_plain_search_after_the_favoured_one_obeys_the_solves_node_limit() {
        let mut table = Table::new(64);
        let mut pos = Position::from_sfen(NO_MATE_IN_17).unwrap();
        let limit = 1_200_000;
        let mut search = root_search(&mut table, &pos, limit);
        let outcome = bounded_root_search(&mut search, &mut pos, 17);
        assert!(!outcome.is_proven() && !outcome.is_disproven(), "{outcome:?}");
        assert_eq!(search.abort, Some(Abort::Nodes));
        assert_eq!(search.nodes, checked_at(limit));
        assert_eq!(search.node_limit, limit);
    }
}
