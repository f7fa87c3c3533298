//! The exact solution: every position reachable from a root (the start
//! position, for the game) with its game-theoretic value, by retrograde
//! analysis, and a database of them.
//!
//! # What is counted
//!
//! Positions are counted as Tanaka counts them: a position with Gote to move
//! is the same as the one with the colours swapped and the board turned round
//! (Sente to move), and a position is the same as its left-right mirror
//! image. [`Stats::reachable`] counts these classes (normal forms, see
//! [`normal_form`]) reachable from the root by legal moves, the positions
//! where the game is over included (they are reached, but not left): from the
//! start, 246,803,167, Tanaka's figure. [`Stats::mirrors_apart`] counts the
//! same positions with mirror images apart (a symmetric class is one
//! position, any other two).
//!
//! # Values
//!
//! A [`Value`] is from the side to move's point of view: [`Value::Win`] in
//! `n` plies (odd), [`Value::Loss`] in `n` plies (even), or
//! [`Value::Draw`] (neither side can force a win: play goes on for ever, and
//! the repetition rule ends it). Plies count as Tanaka counts them (as the
//! crate's search does): a side that can capture the opposing lion has won in
//! 1 (the capture is the ply), a side whose opponent's lion stands
//! uncapturable on its back rank has lost in 0; a try that cannot be answered
//! wins in 1. The start position is lost in 78 plies.
//!
//! # The database
//!
//! [`Database`] holds the reachable positions where the game goes on as a bit
//! set over a perfect index of all positions with the root's pieces
//! ([`Universe`]: a combinatorial ranking of the lions' squares, the kinds,
//! owners and promotions of the other board pieces and the hands), with
//! ranks, and one byte each: 0 a draw, `d + 1` a win (odd `d`) or a loss
//! (even `d`) in `d` plies. [`Database::value`] and [`Database::best`] find a
//! position by its index in the universe, its bit, and the bit's rank. The
//! reachable positions where the game is over (146 M of the 247 M) are
//! counted but not stored: their values follow from the rules, and one is
//! reachable when a stored position has a move to it.
//!
//! The file ([`Database::save`], [`Database::load`]), all integers little
//! endian:
//!
//! | offset | size | content |
//! |---|---|---|
//! | 0 | 8 | magic `KYOBODOB` |
//! | 8 | 4 | format version (1) |
//! | 12 | 4 | bits per block of the set (448) |
//! | 16 | 3+5 | piece totals (giraffes, elephants, chicks), zero padding |
//! | 24 | 8 | the root position, packed ([`Position::raw`]) |
//! | 32 | 8 | the universe's size |
//! | 40 | 8 | stored positions `n` |
//! | 48 | 8 | reachable positions over, lost for the side to move |
//! | 56 | 8 | reachable positions over, won for the side to move |
//! | 64 | 8 | bit words `w` (7 a block) |
//! | 72 | 8 `w` | the bit words |
//! | … | `n` | the value bytes, in index order |
//! | … | 4 | CRC-32 (IEEE) of everything before |
//!
//! From the start, 195 MiB (855 M bits and 100 M bytes). A missing, short or
//! corrupt file is a [`DbError`].
//!
//! # Speed
//!
//! [`solve`] runs on as many threads as asked (the search for reachable
//! positions and each round of the retrograde analysis split the work in
//! chunks). From the start it needs about 430 MiB (four bit sets over the
//! universe while searching; then the ranked set and a byte a stored
//! position) and, on two threads, about a minute or two.

mod bits;
mod file;
pub mod index;
mod retro;

pub use file::DbError;
pub use index::{normal_form, Universe};
pub use retro::SolveError;

use crate::mv::Move;
use crate::position::{End, Position};
use bits::RankBits;
use std::fmt;
use std::time::{Duration, Instant};

/// The game-theoretic value of a position for the side to move, in plies
/// (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// The side to move wins in this many plies (odd), against any defence.
    Win(u32),
    /// The side to move loses in this many plies (even), against its best
    /// defence.
    Loss(u32),
    /// Neither side can force a win.
    Draw,
}

impl Value {
    /// The value of a database byte (0 draw, else distance + 1, odd distances
    /// wins).
    pub const fn from_byte(b: u8) -> Value {
        match b {
            0 => Value::Draw,
            b if (b - 1) % 2 == 1 => Value::Win((b - 1) as u32),
            b => Value::Loss((b - 1) as u32),
        }
    }

    /// The value, for the side that moves into it, of a move leading to a
    /// position of value `self`: the opponent's win is the mover's loss one
    /// ply longer, and so on.
    pub const fn before(self) -> Value {
        match self {
            Value::Win(n) => Value::Loss(n + 1),
            Value::Loss(n) => Value::Win(n + 1),
            Value::Draw => Value::Draw,
        }
    }

    /// Plies to the end of the game; `None` for a draw.
    pub const fn plies(self) -> Option<u32> {
        match self {
            Value::Win(n) | Value::Loss(n) => Some(n),
            Value::Draw => None,
        }
    }

    /// A number that orders values for the side to move: greater is better
    /// (a faster win, a draw, a slower loss).
    pub const fn goodness(self) -> i64 {
        match self {
            Value::Win(n) => 1_000_000 - n as i64,
            Value::Draw => 0,
            Value::Loss(n) => -1_000_000 + n as i64,
        }
    }

    /// The search's score for this value: a mate in `n` plies, or 0.
    pub const fn to_search(self) -> search::Value {
        match self {
            Value::Win(n) => search::value::mate_in(n as i32),
            Value::Loss(n) => search::value::mated_in(n as i32),
            Value::Draw => search::value::DRAW,
        }
    }

    /// The value a search score stands for, when it is a mate score.
    pub fn from_search(v: search::Value) -> Option<Value> {
        if v >= search::value::MATE_IN_MAX_PLY {
            Some(Value::Win((search::value::MATE - v) as u32))
        } else if v <= -search::value::MATE_IN_MAX_PLY {
            Some(Value::Loss((search::value::MATE + v) as u32))
        } else {
            None
        }
    }
}

impl fmt::Display for Value {
    /// `win in 5`, `loss in 78`, `draw`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Win(n) => write!(f, "win in {n}"),
            Value::Loss(n) => write!(f, "loss in {n}"),
            Value::Draw => f.write_str("draw"),
        }
    }
}

/// What a solve is doing, for a progress display. Workers send it after each
/// piece of work, from their threads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Progress {
    /// Searching for the reachable positions: `found` so far, `expanded` of
    /// them (the moves of each generated), in pass `pass` over the set.
    Enumerate { pass: u32, found: u64, expanded: u64 },
    /// Giving each of `total` reachable positions its initial state: `done`.
    Initialise { done: u64, total: u64 },
    /// Retrograde round `distance`: `found` of the `of` positions at that
    /// distance taken back; `resolved` of all `total` positions have a value.
    Retrograde { distance: u32, found: u64, of: u64, resolved: u64, total: u64 },
}

/// The figures of a solve (all counts are of classes, see the module
/// documentation, unless said otherwise).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stats {
    /// Reachable positions, the game-over ones included.
    pub reachable: u64,
    /// The same with mirror images counted apart.
    pub mirrors_apart: u64,
    /// Reachable positions where the game is over: lost (the opponent's try
    /// succeeded) and won (the opposing lion can be captured).
    pub over_lost: u64,
    pub over_won: u64,
    /// Positions won, drawn and lost for the side to move (game-over ones
    /// included).
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    /// Positions at each distance (index: plies), game-over ones included.
    pub by_distance: Vec<u64>,
    /// The root's value.
    pub root: Value,
    /// Passes of the search for reachable positions.
    pub passes: u32,
    /// Time spent finding the reachable set, and in the retrograde analysis.
    pub enumerate_time: Duration,
    pub retrograde_time: Duration,
}

impl Stats {
    /// The longest win (odd distance) among the positions.
    pub fn longest_win(&self) -> u32 {
        self.longest(1)
    }

    /// The longest loss (even distance) among the positions.
    pub fn longest_loss(&self) -> u32 {
        self.longest(0)
    }

    fn longest(&self, parity: usize) -> u32 {
        (0..self.by_distance.len())
            .rev()
            .find(|&d| d % 2 == parity && self.by_distance[d] > 0)
            .unwrap_or(0) as u32
    }
}

/// The solved positions reachable from a root, with their values (see the
/// module documentation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Database {
    universe: Universe,
    root: Position,
    bits: RankBits,
    /// The value bytes, eight to a word (byte `r` in lane `r % 8`).
    values: Vec<u64>,
    /// Reachable positions where the game is over (not stored): lost, won.
    over: [u64; 2],
}

/// Why [`Database::best`] gives no moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BestError {
    /// The position is not reachable from the database's root (or has other
    /// pieces).
    NotReachable,
    /// The game is already over.
    GameOver(End),
}

impl fmt::Display for BestError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BestError::NotReachable => f.write_str("the position is not in the database"),
            BestError::GameOver(end) => write!(f, "the game is over ({end:?})"),
        }
    }
}

impl std::error::Error for BestError {}

impl Database {
    /// The position everything in the database was reached from.
    pub fn root(&self) -> Position {
        self.root
    }

    /// The index the database's positions belong to.
    pub fn universe(&self) -> &Universe {
        &self.universe
    }

    /// How many positions (classes) are reachable from the root, those where
    /// the game is over included.
    pub fn len(&self) -> u64 {
        self.bits.len() + self.over[0] + self.over[1]
    }

    /// How many reachable positions where the game goes on it stores (a
    /// value byte each).
    pub fn stored(&self) -> u64 {
        self.bits.len()
    }

    /// Reachable positions where the game is over: lost and won for the side
    /// to move (their values follow from the rules: not stored).
    pub fn over(&self) -> (u64, u64) {
        (self.over[0], self.over[1])
    }

    /// Whether it holds none (never, for a solved root).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The value byte of rank `r`.
    #[inline]
    fn byte(&self, r: u32) -> u8 {
        (self.values[(r / 8) as usize] >> (8 * (r % 8))) as u8
    }

    /// The value of `pos` (either side to move) for its side to move, if it is
    /// reachable from the root. A position where the game is over is won in
    /// 1 (the opposing lion can be captured) or lost in 0 (the opponent's
    /// try), and reachable when some reachable position leads to it.
    pub fn value(&self, pos: Position) -> Option<Value> {
        let index = self.universe.index_of(pos)?;
        if let Some(end) = pos.end() {
            let reached = self.universe.index_of(self.root) == Some(index)
                || self.has_reachable_predecessor(normal_form(pos).raw());
            let v = if end.mover_wins() { Value::Win(1) } else { Value::Loss(0) };
            return reached.then_some(v);
        }
        let r = self.bits.rank(index)?;
        Some(Value::from_byte(self.byte(r)))
    }

    /// Whether a stored position has a move to `raw` (a normal form).
    fn has_reachable_predecessor(&self, raw: u64) -> bool {
        let mut found = false;
        let m = index::mirror(raw);
        for x in [index::flip(raw), index::flip(m)] {
            retro::for_each_predecessor(x, false, |q| {
                let q = index::canonical(q);
                if !found && Position::from_raw_unchecked(q).end().is_none() {
                    found = self.bits.rank(self.universe.rank(q)).is_some();
                }
            });
        }
        found
    }

    /// Every legal move of `pos` with its exact value for the side to move
    /// (see [`Value::before`]), best first (the fastest win, then draws, then
    /// the slowest loss; generation order among equals).
    pub fn best(&self, pos: Position) -> Result<Vec<(Move, Value)>, BestError> {
        if let Some(end) = pos.end() {
            return Err(BestError::GameOver(end));
        }
        self.value(pos).ok_or(BestError::NotReachable)?;
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        let mut out: Vec<(Move, Value)> = moves
            .into_iter()
            .map(|m| {
                let child = pos.after(m);
                let v = match self.value(child) {
                    Some(v) => v,
                    // Every child of a reachable position is reachable; the
                    // ends of the game are scored as the solve scores them.
                    None => match child.end() {
                        Some(e) if e.mover_wins() => Value::Win(1),
                        Some(_) => Value::Loss(0),
                        None => Value::Draw,
                    },
                };
                (m, v.before())
            })
            .collect();
        out.sort_by_key(|&(_, v)| std::cmp::Reverse(v.goodness()));
        Ok(out)
    }

    /// Positions won, drawn and lost for the side to move, and how many at
    /// each distance (those where the game is over included).
    pub fn counts(&self) -> (u64, u64, u64, Vec<u64>) {
        let mut by_byte = [0u64; 256];
        for (i, &w) in self.values.iter().enumerate() {
            let lanes = (self.bits.len() - 8 * i as u64).min(8) as usize;
            for &b in &w.to_le_bytes()[..lanes] {
                by_byte[usize::from(b)] += 1;
            }
        }
        let last = by_byte.iter().rposition(|&c| c > 0).unwrap_or(0).max(2);
        let mut by_distance: Vec<u64> = by_byte[1..=last].to_vec();
        by_distance[0] += self.over[0];
        by_distance[1] += self.over[1];
        while by_distance.len() > 2 && by_distance.last() == Some(&0) {
            by_distance.pop();
        }
        let wins = by_distance.iter().skip(1).step_by(2).sum();
        let losses = by_distance.iter().step_by(2).sum();
        (wins, by_byte[0], losses, by_distance)
    }
}

/// A solve's database and figures.
pub struct Solution {
    pub database: Database,
    pub stats: Stats,
}

/// Solves every position reachable from `root` on `threads` threads,
/// reporting to `progress` (see [`Progress`]; `&|_| {}` for none).
pub fn solve(
    root: Position,
    threads: usize,
    progress: &(dyn Fn(Progress) + Sync),
) -> Result<Solution, SolveError> {
    root.check().map_err(|e| SolveError::InvalidRoot(e.to_string()))?;
    let universe = Universe::new(Universe::totals_of(root))
        .map_err(|e| SolveError::InvalidRoot(format!("piece totals {:?}", e.0)))?;
    let normal = normal_form(root);
    let started = Instant::now();
    let reachable = retro::enumerate(&universe, normal.raw(), threads, progress);
    let enumerate_time = started.elapsed();
    let started = Instant::now();
    let bits = reachable.bits;
    let retro = retro::retrograde(&universe, &bits, threads, progress)?;
    let retrograde_time = started.elapsed();

    // State bytes to value bytes, and the figures.
    let mut values = retro.states;
    for w in values.iter_mut() {
        let mut bytes = w.to_le_bytes();
        for b in bytes.iter_mut() {
            *b = if *b >= retro::RESOLVED { *b - retro::RESOLVED + 1 } else { 0 };
        }
        *w = u64::from_le_bytes(bytes);
    }
    let over = [reachable.over_lost, reachable.over_won];
    let database = Database { universe, root, bits, values, over };
    let (wins, draws, losses, by_distance) = database.counts();
    let root_value = database.value(root).expect("the root is reachable");
    let stats = Stats {
        reachable: database.len(),
        mirrors_apart: 2 * database.len() - reachable.symmetric,
        over_lost: over[0],
        over_won: over[1],
        wins,
        draws,
        losses,
        by_distance,
        root: root_value,
        passes: reachable.passes,
        enumerate_time,
        retrograde_time,
    };
    Ok(Solution { database, stats })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    /// Every exact position (either side to move) reachable from `root`, and
    /// its value by the plainest method: terminal positions as the rules
    /// score them, then for n = 1, 2, ... a win in n where some move leads to
    /// a loss in n - 1, a loss in n where every move leads to a win in less.
    fn brute_force(root: Position) -> HashMap<Position, Value> {
        let mut order = vec![root];
        let mut seen: HashMap<Position, usize> = HashMap::from([(root, 0)]);
        let mut edges: Vec<Vec<usize>> = Vec::new();
        let mut i = 0;
        let mut moves = Vec::new();
        while i < order.len() {
            let pos = order[i];
            let mut kids = Vec::new();
            if pos.end().is_none() {
                moves.clear();
                pos.legal_moves(&mut moves);
                for &m in &moves {
                    let child = pos.after(m);
                    let next = order.len();
                    let id = *seen.entry(child).or_insert(next);
                    if id == next {
                        order.push(child);
                    }
                    kids.push(id);
                }
            }
            edges.push(kids);
            i += 1;
        }
        let mut value: Vec<Option<Value>> = order
            .iter()
            .map(|p| match p.end() {
                Some(e) if e.mover_wins() => Some(Value::Win(1)),
                Some(_) => Some(Value::Loss(0)),
                None => None,
            })
            .collect();
        for (id, kids) in edges.iter().enumerate() {
            if value[id].is_none() && kids.is_empty() {
                value[id] = Some(Value::Loss(0));
            }
        }
        // A round that resolves nothing ends the analysis: the next round's
        // wins need losses of this round, its losses wins of the round before
        // (all already tried).
        for n in 1..400u32 {
            let before = value.clone();
            let mut changed = false;
            for id in 0..order.len() {
                if before[id].is_some() {
                    continue;
                }
                let kids = &edges[id];
                if n % 2 == 1 {
                    if kids.iter().any(|&k| before[k] == Some(Value::Loss(n - 1))) {
                        value[id] = Some(Value::Win(n));
                        changed = true;
                    }
                } else if kids.iter().all(|&k| matches!(before[k], Some(Value::Win(w)) if w < n)) {
                    value[id] = Some(Value::Loss(n));
                    changed = true;
                }
            }
            if !changed && n > 2 {
                break;
            }
        }
        order.into_iter().zip(value).map(|(p, v)| (p, v.unwrap_or(Value::Draw))).collect()
    }

    fn solve_quietly(sfen: &str, threads: usize) -> Solution {
        solve(Position::from_sfen(sfen).unwrap(), threads, &|_| {}).unwrap()
    }

    /// Small roots (few pieces, so at most 26,153 positions each: quick in a
    /// debug build too) with every kind of piece, pieces in hand, two of a
    /// kind, Gote to move, and draws in each.
    const ROOTS: [&str; 5] = [
        "1l1/3/3/1L1 b C 1",
        "1l1/1c1/1C1/1L1 b - 1",
        "g1l/3/3/L1E b - 1",
        "1l1/3/1G1/L2 w E 1",
        "1l1/1c1/3/GL1 b - 1",
    ];

    #[test]
    fn the_solver_agrees_with_brute_force_on_small_roots() {
        for sfen in ROOTS {
            let solution = solve_quietly(sfen, 2);
            let db = &solution.database;
            let truth = brute_force(Position::from_sfen(sfen).unwrap());
            let mut classes = std::collections::HashSet::new();
            for (&pos, &v) in &truth {
                assert_eq!(db.value(pos), Some(v), "{sfen}: {}", pos.to_sfen());
                classes.insert(normal_form(pos));
            }
            assert_eq!(db.len(), classes.len() as u64, "{sfen}");
            let s = &solution.stats;
            assert_eq!(s.reachable, db.len());
            assert_eq!(s.wins + s.draws + s.losses, s.reachable, "{sfen}");
            let (wins, draws, losses, by_distance) = db.counts();
            assert_eq!((wins, draws, losses), (s.wins, s.draws, s.losses), "{sfen}");
            assert_eq!(by_distance, s.by_distance, "{sfen}");
            // The same on one thread.
            let one = solve_quietly(sfen, 1);
            assert_eq!(&one.database, db, "{sfen}");
        }
    }

    #[test]
    fn best_lists_every_move_with_its_value() {
        let solution = solve_quietly(ROOTS[2], 2);
        let db = &solution.database;
        let truth = brute_force(Position::from_sfen(ROOTS[2]).unwrap());
        for (&pos, &v) in truth.iter().take(3000) {
            match db.best(pos) {
                Ok(list) => {
                    let mut moves = Vec::new();
                    pos.legal_moves(&mut moves);
                    assert_eq!(list.len(), moves.len());
                    for &(m, mv) in &list {
                        assert_eq!(mv, truth[&pos.after(m)].before());
                    }
                    // The best move's value is the position's.
                    assert_eq!(list.first().map(|&(_, v)| v).unwrap_or(Value::Loss(0)), v);
                    for pair in list.windows(2) {
                        assert!(pair[0].1.goodness() >= pair[1].1.goodness());
                    }
                }
                Err(BestError::GameOver(end)) => assert_eq!(pos.end(), Some(end)),
                Err(e) => panic!("{e} for {}", pos.to_sfen()),
            }
        }
        let elsewhere = Position::from_sfen("1l1/3/3/1L1 b - 1").unwrap();
        assert_eq!(db.best(elsewhere), Err(BestError::NotReachable));
    }

    #[test]
    fn values_and_bytes() {
        assert_eq!(Value::from_byte(0), Value::Draw);
        assert_eq!(Value::from_byte(1), Value::Loss(0));
        assert_eq!(Value::from_byte(2), Value::Win(1));
        assert_eq!(Value::from_byte(79), Value::Loss(78));
        assert_eq!(Value::Loss(76).before(), Value::Win(77));
        assert_eq!(Value::Win(77).before(), Value::Loss(78));
        assert_eq!(Value::from_search(Value::Win(7).to_search()), Some(Value::Win(7)));
        assert_eq!(Value::from_search(Value::Loss(8).to_search()), Some(Value::Loss(8)));
        assert!(Value::Win(3).goodness() > Value::Win(5).goodness());
        assert!(Value::Win(99).goodness() > Value::Draw.goodness());
        assert!(Value::Draw.goodness() > Value::Loss(100).goodness());
        assert!(Value::Loss(100).goodness() > Value::Loss(2).goodness());
        assert_eq!(Value::Loss(78).to_string(), "loss in 78");
    }

    #[test]
    fn the_file_round_trips_and_corruption_is_detected() {
        let db = solve_quietly(ROOTS[1], 2).database;
        let mut bytes = Vec::new();
        db.write_to(&mut bytes).unwrap();
        assert_eq!(Database::read_from(&bytes[..]).unwrap(), db);
        // Every single flipped byte is caught (by the checks or the CRC).
        for at in (0..bytes.len()).step_by(bytes.len() / 97 + 1) {
            let mut bad = bytes.clone();
            bad[at] ^= 0x20;
            assert!(Database::read_from(&bad[..]).is_err(), "byte {at}");
        }
        let mut bad = bytes.clone();
        bad[bytes.len() / 2] ^= 1;
        assert!(matches!(Database::read_from(&bad[..]), Err(DbError::Checksum { .. })));
        assert!(matches!(Database::read_from(&bytes[..40]), Err(DbError::Truncated)));
        assert!(matches!(Database::read_from(&bytes[..bytes.len() - 1]), Err(DbError::Truncated)));
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(matches!(Database::read_from(&longer[..]), Err(DbError::Malformed(_))));
        assert!(matches!(Database::read_from(&b"not a db at all"[..]), Err(DbError::Truncated)));
        let mut magic = bytes.clone();
        magic[0] = b'X';
        assert!(matches!(Database::read_from(&magic[..]), Err(DbError::NotADatabase)));
        let mut version = bytes.clone();
        version[8] = 9;
        assert!(matches!(Database::read_from(&version[..]), Err(DbError::Version(9))));
        // Through a file, and a missing file.
        let dir = testdata::ScratchDir::new("dobutsu-db");
        let path = dir.join("small.db");
        db.save(&path).unwrap();
        assert_eq!(Database::load(&path).unwrap(), db);
        std::fs::remove_file(&path).unwrap();
        assert!(matches!(Database::load(&path), Err(DbError::Missing(_))));
    }
}
