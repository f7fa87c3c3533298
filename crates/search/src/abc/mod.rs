//! ABC search (alpha-beta-conspiracy search), as KFEnd plays it (KFEnd's ABC
//! article, after McAllester & Yuret).
//!
//! A negamax alpha-beta search whose horizon is not a depth but the *conspiracy
//! depth* of each side (see [`conspiracy`]): a line ends when enough of the
//! alternatives along it, for the side the line is good for (and, inside the
//! window, for both sides), are close in value to where the line stands. Lines
//! with few good alternatives, forced lines, are searched deeper.
//!
//! KFEnd's refinements, all here:
//! - every move's key is the quiescence value after it, with the node's window
//!   (a value outside the window only ends the search, where a bound serves);
//! - forward pruning: a node keeps its best `width` moves by key, plus up to
//!   `captures` more tactical ones (all evasions in check; every root move);
//! - iterative deepening on the threshold (the engine layer's iteration `n` is
//!   both sides' threshold), the root's keys being the previous iteration's
//!   values, searched with the root's alpha lowered by `root_margin` so that the
//!   values of moves close to the best are exact;
//! - the early β-cut: while the keys are computed, one key at or above β with the
//!   mover's conspiracy depth already at its threshold means the child would end
//!   at once with that value, so the node fails high without the other keys;
//! - a position table ([`table`]) keeping each node's moves and keys between
//!   iterations, and a quiescence table of its own (the crate's transposition
//!   table, used by `qsearch` only). A key is kept with what it is, exact or a
//!   bound (outside the window it was computed with), and computed again where a
//!   later node's window needs the value the bound does not give.
//!
//! Scale: KFEnd's Δ is 50 with a pawn worth 10, five pawns; here `delta` is in
//! hundredths of the game's unit, seven and a half pawns by default, as the ply
//! count below ends the lines a large Δ would let run. KFEnd's thresholds are 20
//! for both sides, reached here by iteration 20. The root's margin is KFEnd's
//! "a little", half a pawn. SFunc's cap is 3, not KFEnd's 5.
//!
//! Beyond KFEnd (each measured in games: docs/BENCHMARKS.md, "ABC search"):
//! - `searched_keys`: every node the search went through keeps the values its
//!   moves' searches gave as their keys in the position table, so that the next
//!   iteration orders the moves and counts their alternatives by what the search
//!   found (KFEnd did this at the root only);
//! - `root_aspiration`: the root's window closes that far above the last
//!   iteration's best value (a move that fails high is searched again, open
//!   above), which makes the trees about three times smaller; the width of 12
//!   (KFEnd: about 10) spends what it saves;
//! - `plies_per_depth`: every N plies of a line count 1 towards both sides'
//!   conspiracy depths, so that a melee of captures and drops, where neither
//!   side has a move within Δ of its best and KFEnd's count stays 0, still ends;
//! - `null_move`: PVS's null move in conspiracy terms. A node whose static value
//!   is at or above β passes first (not in check, not after a pass, not where
//!   the opponent could end the game by a declaration); the pass is a child
//!   keyed by the quiescence value after it, whose head adds R to both sides'
//!   conspiracy depths, so its lines end sooner; where its search with the null
//!   window at β holds β, the node fails high without keying its moves.
//!
//! Threads: helper threads run the same iterations on their own lines and share
//! both tables (Lazy SMP, as PVS does).

pub mod conspiracy;
pub mod table;
mod worker;

use crate::game::Game;
use crate::searcher::context::SharedState;
use crate::searcher::{
    remake_tables, tables_or_smallest, Algorithm, AllocError, RootMoves, SearchThread, Searcher,
    ThreadContext,
};
use crate::time::TimeShares;
use crate::tt::TranspositionTable;
use crate::value::Value;
use table::PositionTable;
pub use worker::AbcCounters;
use worker::AbcThread;

crate::spin_options! {
    /// ABC's parameters, each a USI option (`ABC_…`), declared once here: the
    /// USI `option` lines, `setoption` and docs/abc.md's table come from this.
    /// The numbers declare a tuner's step too, so that a tuning build offers
    /// them to SPSA (`testing/abc-spsa.yaml`); the switches do not.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub struct AbcOptions {
        /// Δ, in hundredths of the game's unit.
        delta: Value = ("ABC_Delta", 750, 0, 10_000, step 50,
            "Δ, in hundredths of the game's unit (centipawns): a sibling whose key is within Δ of a line's value is an alternative (KFEnd: five pawns)");
        /// SFunc's cap: one node adds at most this to a conspiracy depth.
        sfunc_cap: usize = ("ABC_SFuncCap", 3, 1, 20, step 1,
            "the most one node adds to a conspiracy depth (KFEnd: 5)");
        /// Moves a node keeps by key.
        width: usize = ("ABC_Width", 12, 1, table::MAX_MOVES as i64 - 3, step 1,
            "moves a node keeps by key (KFEnd: about 10)");
        /// Tactical moves a node keeps beyond its width.
        captures: usize = ("ABC_Captures", 3, 0, 3, step 1,
            "tactical moves a node keeps beyond its width");
        /// How far below the best value the root's window reaches, in
        /// hundredths of the unit.
        root_margin: Value = ("ABC_RootMargin", 50, 0, 10_000, step 10,
            "how far below the best value the root's window reaches, in centipawns (KFEnd: \"a little\")");
        /// The early β-cut while keys are computed.
        early_cut: bool = ("ABC_EarlyCut", 1, 0, 1,
            "the early β-cut while a node's keys are computed (0: off)");
        /// Whether the position table is used.
        position_table: bool = ("ABC_PositionTable", 1, 0, 1,
            "the position table of each node's moves and keys (0: off)");
        /// The quiescence search's margin for captures, in hundredths of the
        /// unit: a capture is passed over when its exchange value and this
        /// margin cannot lift the value to alpha.
        qs_margin: Value = ("ABC_QsMargin", 200, 0, 100_000, step 20,
            "the quiescence search passes over a capture whose exchange value plus this margin (centipawns) cannot lift the value to alpha");
        /// Whether a node's searched moves keep their search values as keys in
        /// the position table, for the next iteration (as KFEnd's root does).
        searched_keys: bool = ("ABC_SearchedKeys", 1, 0, 1,
            "a node's searched moves keep the values their searches gave as keys for the next iteration (0: their quiescence values, as KFEnd)");
        /// How far above the last iteration's best value the root's window
        /// reaches (aspiration), in hundredths of the unit; a move that fails
        /// high is searched again with the window open above (0: always open
        /// above, as KFEnd).
        root_aspiration: Value = ("ABC_RootAspiration", 300, 0, 10_000, step 30,
            "the root's window closes this many centipawns above the last iteration's best value; a move that fails high is searched again open above (0: open, as KFEnd)");
        /// Every this many plies of a line add 1 to both sides' conspiracy
        /// depths (0: none, as KFEnd), so that lines without alternatives end.
        plies_per_depth: usize = ("ABC_PliesPerDepth", 4, 0, 100, step 1,
            "every N plies of a line add 1 to both sides' conspiracy depths, so that lines without alternatives end (0: none, as KFEnd)");
        /// The null move in conspiracy terms (0: none, as KFEnd): a node whose
        /// static value is at or above β passes first; the pass is keyed by the
        /// quiescence value after it, its lines end this much sooner for both
        /// sides, and where it still holds β the node fails high without
        /// keying its moves.
        null_move: usize = ("ABC_NullMove", 6, 0, 20, step 1,
            "the null move: a node at or above β passes first, the pass's lines this much shorter for both sides; where it holds β the node fails high (0: none, as KFEnd)");
    }
}

impl AbcOptions {
    /// Sets the option written `NAME=VALUE` (as tools take it on their command
    /// lines), with [`AbcOptions::set`]'s checks.
    pub fn set_text(&mut self, text: &str) -> Result<(), String> {
        let (name, value) =
            text.split_once('=').ok_or_else(|| format!("{text}: expected NAME=VALUE"))?;
        let value = value.trim().parse().map_err(|e| format!("{text}: {e}"))?;
        self.set(name.trim(), value)
    }
}

/// The tables ABC's threads share.
pub(crate) struct AbcTables {
    pub positions: PositionTable,
    pub quiescence: TranspositionTable,
}

impl AbcTables {
    /// Half of `mb` for each table.
    fn try_new(mb: usize) -> Result<AbcTables, AllocError> {
        let half = (mb / 2).max(1);
        Ok(AbcTables {
            positions: PositionTable::try_new(half)?,
            quiescence: TranspositionTable::try_new(half)?,
        })
    }
}

/// ABC search and its tables.
pub struct Abc {
    tables: Option<AbcTables>,
    hash_mb: usize,
    pub options: AbcOptions,
}

impl Abc {
    /// ABC as the engine's registry knows it: its name and options.
    pub const ALGORITHM: Algorithm = Algorithm { name: "ABC", options: AbcOptions::OPTIONS };

    /// ABC whose tables (`hash_mb` MiB together) are made by the first
    /// `set_hash_mb` or search.
    pub fn without_tables(hash_mb: usize) -> Abc {
        Abc { tables: None, hash_mb, options: AbcOptions::default() }
    }

    /// ABC with its tables made now.
    pub fn try_new(hash_mb: usize, options: AbcOptions) -> Result<Abc, AllocError> {
        Ok(Abc { tables: Some(AbcTables::try_new(hash_mb)?), hash_mb, options })
    }
}

impl<G: Game> Searcher<G> for Abc {
    type Thread<'s> = AbcThread<'s, G>;

    fn name(&self) -> &'static str {
        Self::ALGORITHM.name
    }

    fn hash_mb(&self) -> usize {
        self.hash_mb
    }

    fn set_hash_mb(&mut self, mb: usize) -> Result<(), AllocError> {
        remake_tables(&mut self.tables, &mut self.hash_mb, mb, AbcTables::try_new)
    }

    fn has_tables(&self) -> bool {
        self.tables.is_some()
    }

    fn release_tables(&mut self) {
        self.tables = None;
    }

    fn touch_tables(&self) {
        if let Some(t) = &self.tables {
            t.positions.touch_pages();
            t.quiescence.touch_pages();
        }
    }

    fn clear(&mut self) {
        if let Some(t) = self.tables.as_mut() {
            t.positions.clear();
            t.quiescence.clear();
        }
    }

    fn prepare(&mut self) {
        if self.tables.is_none() {
            self.tables = Some(tables_or_smallest(self.hash_mb, 2, AbcTables::try_new));
        }
        if let Some(t) = &self.tables {
            t.positions.new_search();
            t.quiescence.new_search();
        }
    }

    fn hashfull(&self) -> u32 {
        self.tables.as_ref().map_or(0, |t| t.positions.hashfull())
    }

    fn thread<'s>(&'s self, root: G, ctx: ThreadContext<'s>) -> AbcThread<'s, G> {
        let tables = self.tables.as_ref().expect("prepare() makes the tables before the threads");
        AbcThread::new(root, tables, ctx, self.options)
    }

    fn set_option(&mut self, name: &str, value: i64) -> Result<(), String> {
        self.options.set(name, value)
    }

    /// An iteration is a threshold, not a depth: a mate found by iteration `n`
    /// may still be refuted by a defence pruned away.
    fn proves_mates_by_depth(&self) -> bool {
        false
    }

    fn time_shares(&self) -> TimeShares {
        ABC_TIME_SHARES
    }
}

/// ABC keeps what a cut-short iteration found (each root move searched is
/// valued, the best first), so it starts iterations until its time is nearly
/// spent, where PVS stops at 55 % of it.
const ABC_TIME_SHARES: TimeShares = TimeShares { next_iteration: 0.9, ..TimeShares::DEFAULT };

/// What [`traced`] found: the root's value and line, and the trace.
#[derive(Clone, Debug)]
pub struct Traced<M> {
    pub value: Value,
    pub pv: Vec<M>,
    /// The last iteration, node by node: each move entered with its key, window
    /// and the termination test's reasons, then how the node ended.
    pub trace: Vec<String>,
    pub counters: AbcCounters,
}

/// ABC on one thread, iterations 1 to `threshold`, keeping a trace of the last
/// (small trees and positions: a reader can follow KFEnd's definitions).
///
/// # Panics
/// When a table of 2 MiB cannot be had.
pub fn traced<G: Game>(root: &G, threshold: i32, options: AbcOptions) -> Traced<G::Move> {
    let abc = Abc::try_new(2, options).unwrap_or_else(|e| panic!("{e}"));
    let shared = SharedState::new(1);
    let tables = abc.tables.as_ref().expect("made by try_new");
    let mut thread =
        AbcThread::new(root.clone(), tables, ThreadContext::new(0, &shared, None, None), options);
    let mut moves = Vec::new();
    root.legal_moves(&mut moves);
    let mut roots = RootMoves::new(moves);
    if roots.moves.is_empty() {
        let value = rules_end_or_no_moves(root);
        return Traced { value, pv: Vec::new(), trace: Vec::new(), counters: thread.counters };
    }
    for iteration in 1..=threshold.max(1) {
        roots.start_iteration();
        if iteration == threshold.max(1) {
            thread.trace = Some(Vec::new());
        }
        thread.search_line(&mut roots, iteration, None);
    }
    let best = &roots.moves[0];
    Traced {
        value: best.score,
        pv: best.pv.clone(),
        trace: thread.trace.take().unwrap_or_default(),
        counters: thread.counters,
    }
}

/// The value of a root without moves.
fn rules_end_or_no_moves<G: Game>(root: &G) -> Value {
    crate::game::rules_end(root, 0).unwrap_or_else(|| root.no_moves().value(0))
}

/// The moves a node of ABC's tree in `position` keeps, with their keys, best
/// first: the node expanded with the window open (so every key is exact), at a
/// ply where `ABC_Width` applies, with empty tables. For measuring what forward
/// pruning keeps (`kyobo-lab kept-moves`): a move not in the list
/// is never searched there.
///
/// # Panics
/// When a table of 2 MiB cannot be had.
pub fn kept_moves<G: Game>(position: &G, options: AbcOptions) -> Vec<(G::Move, Value)> {
    let abc = Abc::try_new(2, options).unwrap_or_else(|e| panic!("{e}"));
    let shared = SharedState::new(1);
    let tables = abc.tables.as_ref().expect("made by try_new");
    let context = ThreadContext::new(0, &shared, None, None);
    AbcThread::new(position.clone(), tables, context, options).kept_moves()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_are_set_by_name_or_as_name_equals_value() {
        let mut options = AbcOptions::default();
        assert_eq!(options.width, 12);
        options.set("abc_width", 18).unwrap();
        assert_eq!(options.width, 18);
        assert!(options.set("ABC_Width", table::MAX_MOVES as i64 - 2).is_err());
        options.set_text("ABC_Width = 10").unwrap();
        assert_eq!(options.width, 10);
        options.set_text("ABC_EarlyCut=0").unwrap();
        assert!(!options.early_cut);
        for bad in ["ABC_Width", "ABC_Width=twelve", "ABC_Nothing=1", "ABC_Width=0x"] {
            assert!(options.set_text(bad).is_err(), "{bad}");
        }
        assert_eq!(options.width, 10);
    }
}
