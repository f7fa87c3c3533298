//! ABC search (alpha-beta-conspiracy search), as KFEnd plays it (KFEnd's ABC article).
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
//! - iterative deepening on the threshold (the engine layer's iteration `n` gives
//!   each side `n` plus its offset), the root's keys being the previous
//!   iteration's values, searched with the root's alpha lowered by `root_margin`
//!   so that the values of moves close to the best are exact;
//! - the early β-cut: while the keys are computed, one key at or above β with the
//!   mover's conspiracy depth already at its threshold means the child would end
//!   at once with that value, so the node fails high without the other keys;
//! - a position table ([`table`]) keeping each node's moves and keys between
//!   iterations, and a quiescence table of its own (the crate's transposition
//!   table, used by `qsearch` only). A key is kept with what it is, exact or a
//!   bound (outside the window it was computed with), and computed again where a
//!   later node's window needs the value the bound does not give.
//!
//! Scale: KFEnd's Δ is 50 with a pawn worth 10, five pawns: here `delta` is in
//! hundredths of the game's unit, 750 by default, seven and a half pawns, with
//! `plies_per_depth` 4 (below); with KFEnd's count alone two and a half
//! pawns scored 47-33 against five in two matches of 40 games at 200 ms a move
//! (docs/BENCHMARKS.md, "ABC search"). KFEnd's thresholds are 20 for
//! both sides, reached here by iteration 20 with both offsets 0. The margin of the
//! root is KFEnd's "a little", chosen as half a pawn. SFunc's cap is 3, not
//! KFEnd's 5: in matches at 100 ms a move the cap of 3 scored 23-12-5 against the
//! cap of 5 (docs/BENCHMARKS.md, "ABC search").
//!
//! Beyond KFEnd: `searched_keys` (on by default) keeps, for every node the
//! search went through, the values its moves' searches gave as their keys in the
//! position table, so that the next iteration orders the moves and counts their
//! alternatives by what the search found (KFEnd did this at the root only); it
//! scored 72-48 against keys from quiescence alone at 200 ms a move, 40-40 at
//! 1 s (docs/BENCHMARKS.md).
//! `scout` searches every move after a node's first with a null window first
//! (principal variation search inside ABC); with a null window every line ends
//! by one side's depth, so the trees are smaller but shallower, and it played
//! worse. `leaf_depth` above 0 values each leaf by a PVS search of that
//! many plies with the node's window (the PVS of [`crate::pvs`], on this thread,
//! sharing the quiescence table) instead of its key: ABC choosing the lines, an
//! alpha-beta search looking past their ends.
//! `root_aspiration` (300, three pawns, by default) closes the root's window
//! that far above the last iteration's best value (searching a move again, open
//! above, where it fails high), which makes the trees about three times
//! smaller; the default width of 12 (KFEnd: about 10) spends what it saves.
//! Together they scored 132-107-1 against KFEnd's open window and width 10 over
//! 240 games, 45-35 of them at 1 s a move (docs/BENCHMARKS.md); neither alone
//! played better.
//! `null_move` (6 by default) is PVS's null move in conspiracy terms: a node
//! whose static value is at or above β passes first (not in check, not after
//! a pass, not where the opponent could end the game by a declaration); the
//! pass is a child keyed by the quiescence value after it, whose head adds R to
//! both sides' conspiracy depths, so its lines end sooner; where its search
//! with the null window at β holds β, the node fails high without keying its
//! moves. On the bench positions at threshold 7 it halves the key searches,
//! and at 1 s a move the thresholds rise by one or two; it scored 104-56
//! against the search without it at 1 s a move (+108 Elo, 95 % +53 … +167;
//! docs/BENCHMARKS.md, "The null move").
//! Ten more, each off by default as none played better in matches or on
//! the positions of ABC's games (`tools/move_suite.py`):
//! `killers` keeps, beyond a node's width, the quiet moves that cut its siblings
//! off; `pruned_values` lets the best move forward pruning left out count with
//! its key, so that a node is worth at least that; `mate_keys` makes a move's
//! key the loss where the move allows a mate in one (the quiescence search looks
//! at captures only); `mate_threats` keeps, beyond the width, quiet moves that
//! threaten mate in one; `quiet_estimates` ranks a node's quiet moves by the
//! game's cheap estimate and gives only the best of them a static value (ABC's
//! nodes come faster, but a threshold costs four to seven times the last, so the
//! thresholds reached stay where they were); `checks` keeps checking moves
//! beyond the width; `revive` keys a node from the table again when the search
//! has pushed its kept moves' values below the best pruned move's key, so that
//! a move forward pruning left out comes back once the kept ones are refuted;
//! `late_moves` is PVS's late-move reduction in conspiracy terms: a node's
//! late quiet moves add a penalty to both sides' depths below them, so their
//! lines end sooner, and are searched again in full where they beat the best;
//! `threat_extensions` searches a leaf on as a node where its side to move,
//! were it to pass, would lose material to the opponent's captures (the
//! quiescence value behind a key stands pat on such a threat);
//! `late_width` keeps moves beyond the width, up to that many, whose lines
//! start with `late_penalty` added to both sides' depths (searched again
//! without it where they beat the best), so that a move forward pruning would
//! leave out is searched shallowly rather than never (against Fairy-Stockfish
//! 28-72 where the defaults scored 24-76 on the same openings).
//!
//! `plies_per_depth` makes every N plies of a line count 1 towards both sides'
//! conspiracy depths. Where neither side has a move within Δ of its best, a
//! melee of captures and drops, KFEnd's count stays 0 and the line goes on:
//! such lines, 10 to 88 plies long, made nearly all of one threshold's tree on a
//! quiet middle-game position, so that each threshold cost four to seven times
//! (there, more than twenty times) the last. By default N is 4, with Δ 750: a
//! large Δ counts nearly every sibling as an alternative, so quiet lines end
//! after a few nodes of each side, and the ply count ends the lines that never
//! had one. Against KFEnd's count with Δ 250 it scored 74-45-1 at 1 s a move
//! (+86 Elo, 95 % +24 … +153; docs/BENCHMARKS.md, "Lines that never end").
//!
//! Two ways to find a node's β-cut before every quiet move has a static value
//! (the bound of its key, which costs a full evaluation a move and, on the
//! bench positions, half of ABC's time): `quiet_probes` keys the best few
//! quiet moves by the game's cheap estimate first, wherever a key at or above
//! β could make the early β-cut; `tactical_first` searches a node's best
//! tactical move first where its key is at or above β and at least SFunc's cap
//! of the other tactical keys lie within Δ of β, so that the node's share of
//! its side's conspiracy depth is SFunc's most at every frontier value its
//! lines are counted at (β or below) and the child's search is the one the
//! whole node would make; the quiet moves are keyed only where that move fails
//! low. Both are off by default: with them ABC's nodes come half again as fast
//! and the thresholds rise, with the same results at a fixed threshold, but in
//! games against the defaults they scored 73-67 (the probes) and 40-40 (both)
//! at 1 s a move (docs/BENCHMARKS.md, "Cuts before the static values").
//!
//! Threads: helper threads run the same iterations on their own lines and share
//! both tables (Lazy SMP, as PVS does).

pub mod conspiracy;
pub mod table;
mod worker;

use crate::engine::context::SharedState;
use crate::engine::{
    remake_tables, tables_or_smallest, AllocError, RootMoves, SearchThread, Searcher, ThreadContext,
};
use crate::game::Game;
use crate::tt::TranspositionTable;
use crate::value::Value;
use table::PositionTable;
pub use worker::AbcCounters;
use worker::AbcThread;

/// ABC's parameters, each a USI option (`ABC_…`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AbcOptions {
    /// Δ, in hundredths of the game's unit.
    pub delta: Value,
    /// SFunc's cap: one node adds at most this to a conspiracy depth.
    pub sfunc_cap: usize,
    /// Added to the iteration to make the threshold of the side to move at the
    /// root, and of its opponent.
    pub own_offset: i32,
    pub opponent_offset: i32,
    /// Moves a node keeps by key, and tactical moves it keeps beyond them.
    pub width: usize,
    pub captures: usize,
    /// The widths of the nodes one, two and three plies from the root (0:
    /// `width`), and of the root (0: every move).
    pub width1: usize,
    pub width2: usize,
    pub width3: usize,
    pub root_width: usize,
    /// How far below the best value the root's window reaches, in hundredths of
    /// the unit.
    pub root_margin: Value,
    /// The early β-cut while keys are computed.
    pub early_cut: bool,
    /// Whether the position table is used.
    pub position_table: bool,
    /// The quiescence search's margin for captures, in hundredths of the unit:
    /// a capture is passed over when its exchange value and this margin cannot
    /// lift the value to alpha.
    pub qs_margin: Value,
    /// The depth of the PVS search that values a leaf (0: its key, as KFEnd).
    pub leaf_depth: i32,
    /// Whether a node's searched moves keep their search values as keys in the
    /// position table, for the next iteration (as KFEnd's root does).
    pub searched_keys: bool,
    /// Whether every move after a node's first is searched with a null window
    /// first, and again with the node's window only where it beats the best so
    /// far (principal variation search inside ABC).
    pub scout: bool,
    /// Whether a node keeps, beyond its width, the quiet moves that cut its
    /// siblings off (two killer moves per ply), with their keys.
    pub killers: bool,
    /// How far above the last iteration's best value the root's window reaches
    /// (aspiration), in hundredths of the unit; a move that fails high is searched
    /// again with the window open above (0: always open above, as KFEnd).
    pub root_aspiration: Value,
    /// Whether a node's value is at least the best key of the moves forward
    /// pruning left out (a pruned move valued by its quiescence value, rather
    /// than not at all).
    pub pruned_values: bool,
    /// Whether a move's key sees a mate in one it allows: where the opponent,
    /// to move after it and not in check, mates at once, the key is that loss
    /// rather than the quiescence value (which looks at captures only).
    pub mate_keys: bool,
    /// Whether a node keeps, beyond its width, up to two quiet moves that
    /// threaten mate in one, whatever their keys.
    pub mate_threats: bool,
    /// How many of a node's quiet moves, ranked by the game's cheap estimate
    /// ([`crate::game::Game::quiet_estimate`]), get a static value (0: all of
    /// them); the rest are pruned unvalued.
    pub quiet_estimates: usize,
    /// How many checking moves a node keeps beyond its width (and its
    /// captures), the best by key: 0 keeps none.
    pub checks: usize,
    /// Whether a node read from the position table is keyed again when the
    /// search has pushed its kept moves' keys below the best pruned move's,
    /// so that pruned moves can come back.
    pub revive: bool,
    /// Late-move reductions in conspiracy terms (0: none, as KFEnd): a node's
    /// quiet moves after its first `late_moves` by key add a penalty to both
    /// sides' conspiracy depths below them (1, then 1 more every `late_moves`
    /// moves, at most SFunc's cap), and are searched again without it where
    /// they beat the best so far.
    pub late_moves: usize,
    /// Threat extensions (0: none, as KFEnd): a leaf whose side to move, were
    /// it to pass, would lose at least `threat_margin` to the opponent's
    /// captures beyond its static value is searched as a node instead, at most
    /// this many times along a line.
    pub threat_extensions: usize,
    /// The least loss, in hundredths of the unit, that counts as a threat.
    pub threat_margin: Value,
    /// Every this many plies of a line add 1 to both sides' conspiracy depths
    /// (0: none, as KFEnd; 4 by default), so that lines without alternatives end.
    pub plies_per_depth: usize,
    /// How many quiet moves, the best by the game's cheap estimate, a node
    /// keys before it gives every quiet move a static value, where one of
    /// their keys could make the early β-cut (0: none, as before): a cut
    /// found among them spares the static values of all the others.
    pub quiet_probes: usize,
    /// Whether a node whose best tactical key is at or above β, with enough
    /// close alternatives that its share of the conspiracy depth is SFunc's
    /// most, searches that move before keying its quiet moves.
    pub tactical_first: bool,
    /// The null move in conspiracy terms (0: none, as KFEnd; 6 by default):
    /// a node whose static value is at or above β passes first; the pass is
    /// keyed by the quiescence value after it, its lines end this much sooner
    /// for both sides, and where it still holds β the node fails high without
    /// keying its moves.
    pub null_move: usize,
    /// Beyond the width, forward pruning's moves kept with a penalty (0:
    /// none, as KFEnd): a node keeps its best `late_width` moves by key, and
    /// those after its width (tactical moves aside) add `late_penalty` to both
    /// sides' conspiracy depths below them, so that their lines end sooner
    /// rather than never start; one whose search beats the best so far is
    /// searched again without it.
    pub late_width: usize,
    /// What a move kept beyond the width (`late_width`) adds to both sides'
    /// conspiracy depths below it.
    pub late_penalty: usize,
}

impl Default for AbcOptions {
    fn default() -> Self {
        AbcOptions {
            delta: 750,
            sfunc_cap: 3,
            own_offset: 0,
            opponent_offset: 0,
            width: 12,
            captures: 3,
            width1: 0,
            width2: 0,
            width3: 0,
            root_width: 0,
            root_margin: 50,
            early_cut: true,
            position_table: true,
            qs_margin: 200,
            leaf_depth: 0,
            searched_keys: true,
            scout: false,
            killers: false,
            root_aspiration: 300,
            pruned_values: false,
            mate_keys: false,
            mate_threats: false,
            quiet_estimates: 0,
            checks: 0,
            revive: false,
            late_moves: 0,
            threat_extensions: 0,
            threat_margin: 300,
            plies_per_depth: 4,
            quiet_probes: 0,
            tactical_first: false,
            null_move: 6,
            late_width: 0,
            late_penalty: 3,
        }
    }
}

/// `(name, default, min, max)` of every option, as USI spins (0/1 for switches).
pub const OPTIONS: [(&str, i64, i64, i64); 34] = [
    ("ABC_Delta", 750, 0, 10_000),
    ("ABC_SFuncCap", 3, 1, 20),
    ("ABC_OwnOffset", 0, -20, 20),
    ("ABC_OpponentOffset", 0, -20, 20),
    ("ABC_Width", 12, 1, table::MAX_MOVES as i64 - 3),
    ("ABC_Captures", 3, 0, 3),
    ("ABC_Width1", 0, 0, table::MAX_MOVES as i64 - 3),
    ("ABC_Width2", 0, 0, table::MAX_MOVES as i64 - 3),
    ("ABC_Width3", 0, 0, table::MAX_MOVES as i64 - 3),
    ("ABC_RootWidth", 0, 0, 600),
    ("ABC_RootMargin", 50, 0, 10_000),
    ("ABC_EarlyCut", 1, 0, 1),
    ("ABC_PositionTable", 1, 0, 1),
    ("ABC_QsMargin", 200, 0, 100_000),
    ("ABC_LeafDepth", 0, 0, 20),
    ("ABC_SearchedKeys", 1, 0, 1),
    ("ABC_Scout", 0, 0, 1),
    ("ABC_Killers", 0, 0, 1),
    ("ABC_RootAspiration", 300, 0, 10_000),
    ("ABC_PrunedValues", 0, 0, 1),
    ("ABC_MateKeys", 0, 0, 1),
    ("ABC_MateThreats", 0, 0, 1),
    ("ABC_QuietEstimates", 0, 0, 600),
    ("ABC_Checks", 0, 0, 20),
    ("ABC_Revive", 0, 0, 1),
    ("ABC_LateMoves", 0, 0, 20),
    ("ABC_ThreatExtensions", 0, 0, 8),
    ("ABC_ThreatMargin", 300, 0, 100_000),
    ("ABC_PliesPerDepth", 4, 0, 100),
    ("ABC_QuietProbes", 0, 0, 600),
    ("ABC_TacticalFirst", 0, 0, 1),
    ("ABC_NullMove", 6, 0, 20),
    ("ABC_LateWidth", 0, 0, table::MAX_MOVES as i64 - 3),
    ("ABC_LatePenalty", 3, 1, 20),
];

impl AbcOptions {
    /// Sets the option `name` (one of [`OPTIONS`], any letter case).
    pub fn set(&mut self, name: &str, value: i64) -> Result<(), String> {
        let Some(&(name, _, min, max)) = OPTIONS.iter().find(|o| o.0.eq_ignore_ascii_case(name))
        else {
            return Err(format!("ABC has no option {name}"));
        };
        if value < min || value > max {
            return Err(format!("{name} must be between {min} and {max}, not {value}"));
        }
        match name {
            "ABC_Delta" => self.delta = value as Value,
            "ABC_SFuncCap" => self.sfunc_cap = value as usize,
            "ABC_OwnOffset" => self.own_offset = value as i32,
            "ABC_OpponentOffset" => self.opponent_offset = value as i32,
            "ABC_Width" => self.width = value as usize,
            "ABC_Captures" => self.captures = value as usize,
            "ABC_Width1" => self.width1 = value as usize,
            "ABC_Width2" => self.width2 = value as usize,
            "ABC_Width3" => self.width3 = value as usize,
            "ABC_RootWidth" => self.root_width = value as usize,
            "ABC_RootMargin" => self.root_margin = value as Value,
            "ABC_EarlyCut" => self.early_cut = value != 0,
            "ABC_PositionTable" => self.position_table = value != 0,
            "ABC_QsMargin" => self.qs_margin = value as Value,
            "ABC_LeafDepth" => self.leaf_depth = value as i32,
            "ABC_SearchedKeys" => self.searched_keys = value != 0,
            "ABC_Scout" => self.scout = value != 0,
            "ABC_Killers" => self.killers = value != 0,
            "ABC_RootAspiration" => self.root_aspiration = value as Value,
            "ABC_PrunedValues" => self.pruned_values = value != 0,
            "ABC_MateKeys" => self.mate_keys = value != 0,
            "ABC_MateThreats" => self.mate_threats = value != 0,
            "ABC_QuietEstimates" => self.quiet_estimates = value as usize,
            "ABC_Checks" => self.checks = value as usize,
            "ABC_Revive" => self.revive = value != 0,
            "ABC_LateMoves" => self.late_moves = value as usize,
            "ABC_ThreatExtensions" => self.threat_extensions = value as usize,
            "ABC_ThreatMargin" => self.threat_margin = value as Value,
            "ABC_PliesPerDepth" => self.plies_per_depth = value as usize,
            "ABC_QuietProbes" => self.quiet_probes = value as usize,
            "ABC_TacticalFirst" => self.tactical_first = value != 0,
            "ABC_NullMove" => self.null_move = value as usize,
            "ABC_LateWidth" => self.late_width = value as usize,
            _ => self.late_penalty = value as usize,
        }
        Ok(())
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

    /// How many moves a node `ply` plies from the root (1 or more) keeps by
    /// key: its width, or `late_width` where that is more.
    pub fn kept_at(&self, ply: usize) -> usize {
        self.width_at(ply).max(self.late_width)
    }

    /// How many moves a node `ply` plies from the root (1 or more) searches
    /// by key without a penalty (`late_width`).
    pub fn width_at(&self, ply: usize) -> usize {
        match ply {
            1 if self.width1 > 0 => self.width1,
            2 if self.width2 > 0 => self.width2,
            3 if self.width3 > 0 => self.width3,
            _ => self.width,
        }
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
        "ABC"
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
}

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
    fn the_widths_near_the_root_apply_at_their_plies_only() {
        let mut options = AbcOptions::default();
        for ply in 1..6 {
            assert_eq!(options.width_at(ply), options.width);
        }
        options.set("ABC_Width1", 20).unwrap();
        options.set("abc_width2", 18).unwrap();
        options.set("ABC_Width3", 16).unwrap();
        let widths: Vec<usize> = (1..6).map(|ply| options.width_at(ply)).collect();
        assert_eq!(widths, [20, 18, 16, options.width, options.width]);
        assert!(options.set("ABC_Width3", table::MAX_MOVES as i64 - 2).is_err());
        options.set_text("ABC_Width3 = 12").unwrap();
        assert_eq!(options.width_at(3), 12);
        for bad in ["ABC_Width3", "ABC_Width3=twelve", "ABC_Nothing=1", "ABC_Width3=0x"] {
            assert!(options.set_text(bad).is_err(), "{bad}");
        }
    }
}
