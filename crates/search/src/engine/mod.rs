//! The engine layer: everything around an algorithm that makes it play — limits,
//! time control, threads, `stop` and `ponderhit`, `info` reports, MultiPV, the
//! answer — for any algorithm that implements [`Searcher`].
//!
//! The layer runs iterations (a depth for PVS, a threshold for ABC): in each, the
//! main thread's [`SearchThread`] searches the MultiPV lines one after another and
//! the layer reports them, then decides from the clock and the stability of the
//! best move whether another iteration is worth starting. Helper threads (Lazy SMP)
//! run the same iterations on their own copies of the root, odd helpers one
//! iteration further; they share what the algorithm shares between its threads
//! (PVS: the transposition table), and their only product is what they leave there.

mod driver;

// What an algorithm implements, re-exported where the engine's users find it.
pub use crate::searcher::context::ThreadContext;
pub use crate::searcher::control::Signals;
pub use crate::searcher::{
    remake_tables, tables_or_smallest, Algorithm, BoundReport, RootMove, RootMoves, SearchThread,
    Searcher,
};

use crate::abc::Abc;
use crate::game::Game;
use crate::limits::Limits;
use crate::options::Spin;
use crate::pvs::Pvs;
use crate::time::TimeOptions;
pub use crate::tt::AllocError;
use crate::tt::Bound;
use crate::value::Value;

/// One search report: a line of `info` in USI terms.
#[derive(Clone, Debug)]
pub struct Info<M> {
    /// The iteration: a depth in plies (PVS), a threshold (ABC).
    pub depth: i32,
    pub seldepth: i32,
    /// 1-based line number (MultiPV).
    pub multipv: usize,
    pub score: Value,
    /// `Some` when the score is only a bound (an aspiration window failed).
    pub bound: Option<Bound>,
    pub nodes: u64,
    pub time_ms: u64,
    pub nps: u64,
    pub hashfull: u32,
    pub pv: Vec<M>,
}

/// What a search concluded.
#[derive(Clone, Debug)]
pub struct SearchResult<M> {
    /// `None` only when the root has no legal move.
    pub best_move: Option<M>,
    /// The reply the search expects (for pondering).
    pub ponder_move: Option<M>,
    pub score: Value,
    /// The last completed iteration.
    pub depth: i32,
    pub nodes: u64,
    /// Every root move searched this time, best first, with its latest value.
    pub root_moves: Vec<RootMove<M>>,
    /// What the algorithm counted on the main thread, by name (see
    /// [`SearchThread::counters`]).
    pub counters: Vec<(&'static str, u64)>,
}

/// Every algorithm `SearchAlgorithm` can name, the default first, as each
/// searcher declares itself.
pub const ALGORITHMS: [Algorithm; 2] = [Pvs::ALGORITHM, Abc::ALGORITHM];

/// The declaration of the algorithms' option `name` (any letter case).
pub fn algorithm_option(name: &str) -> Option<&'static Spin> {
    ALGORITHMS.iter().find_map(|a| crate::options::find(a.options, name))
}

/// An algorithm name that is not in [`ALGORITHMS`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownAlgorithm(pub String);

impl std::fmt::Display for UnknownAlgorithm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let known: Vec<&str> = ALGORITHMS.iter().map(|a| a.name).collect();
        write!(f, "unknown search algorithm '{}' (known: {})", self.0, known.join(", "))
    }
}

impl std::error::Error for UnknownAlgorithm {}

/// A [`Searcher`] behind a pointer, so that the algorithm can be chosen at run
/// time; the search itself is monomorphised for it.
trait AnySearcher<G: Game>: Send {
    fn name(&self) -> &'static str;
    fn hash_mb(&self) -> usize;
    fn set_hash_mb(&mut self, mb: usize) -> Result<(), AllocError>;
    fn has_tables(&self) -> bool;
    fn release_tables(&mut self);
    fn touch_tables(&self);
    fn clear(&mut self);
    fn forget_move_order(&mut self);
    fn set_option(&mut self, name: &str, value: i64) -> Result<(), String>;
    #[allow(clippy::too_many_arguments)]
    fn run(
        &mut self,
        root: &G,
        among: Option<&[G::Move]>,
        limits: &Limits,
        signals: &Signals,
        threads: usize,
        time_options: TimeOptions,
        report: &mut dyn FnMut(&Info<G::Move>),
    ) -> SearchResult<G::Move>;
}

impl<G: Game, S: Searcher<G>> AnySearcher<G> for S {
    fn name(&self) -> &'static str {
        Searcher::name(self)
    }
    fn hash_mb(&self) -> usize {
        Searcher::hash_mb(self)
    }
    fn set_hash_mb(&mut self, mb: usize) -> Result<(), AllocError> {
        Searcher::set_hash_mb(self, mb)
    }
    fn has_tables(&self) -> bool {
        Searcher::has_tables(self)
    }
    fn release_tables(&mut self) {
        Searcher::release_tables(self)
    }
    fn touch_tables(&self) {
        Searcher::touch_tables(self)
    }
    fn clear(&mut self) {
        Searcher::clear(self)
    }
    fn forget_move_order(&mut self) {
        Searcher::forget_move_order(self)
    }
    fn set_option(&mut self, name: &str, value: i64) -> Result<(), String> {
        Searcher::set_option(self, name, value)
    }
    fn run(
        &mut self,
        root: &G,
        among: Option<&[G::Move]>,
        limits: &Limits,
        signals: &Signals,
        threads: usize,
        time_options: TimeOptions,
        report: &mut dyn FnMut(&Info<G::Move>),
    ) -> SearchResult<G::Move> {
        driver::run(self, root, among, limits, signals, threads, time_options, report)
    }
}

/// The algorithm `name` (one of [`ALGORITHMS`]), its tables not made yet.
fn searcher_named<G: Game>(name: &str, hash_mb: usize) -> Box<dyn AnySearcher<G>> {
    if name == Abc::ALGORITHM.name {
        Box::new(Abc::without_tables(hash_mb))
    } else {
        Box::new(Pvs::without_tables(hash_mb))
    }
}

/// The engine: one algorithm (PVS unless told otherwise) with its tables kept
/// between searches, the number of threads, and the time options.
pub struct Engine<G: Game> {
    searcher: Box<dyn AnySearcher<G>>,
    threads: usize,
    pub time_options: TimeOptions,
    /// The algorithms' own options as last set, given again to a new algorithm.
    algorithm_options: Vec<(String, i64)>,
}

impl<G: Game> Engine<G> {
    /// PVS with a table of `hash_mb` MiB.
    ///
    /// # Panics
    /// When the memory cannot be had; see [`Engine::try_set_hash_mb`].
    pub fn new(hash_mb: usize, threads: usize) -> Engine<G> {
        let mut pvs = Pvs::without_tables(hash_mb);
        if let Err(e) = Searcher::<G>::set_hash_mb(&mut pvs, hash_mb) {
            panic!("{e}");
        }
        Engine::with_searcher(pvs, threads)
    }

    /// An engine running `searcher`.
    pub fn with_searcher(searcher: impl Searcher<G>, threads: usize) -> Engine<G> {
        Engine {
            searcher: Box::new(searcher),
            threads: threads.max(1),
            time_options: TimeOptions::default(),
            algorithm_options: Vec::new(),
        }
    }

    /// The algorithm's name (one of [`ALGORITHMS`]).
    pub fn algorithm(&self) -> &'static str {
        self.searcher.name()
    }

    /// Switches to the algorithm `name` (any letter case) unless it runs already.
    /// The old algorithm's tables are freed; the new one's are made at the next
    /// [`Engine::try_set_hash_mb`] (or search), for the same size.
    pub fn set_algorithm(&mut self, name: &str) -> Result<(), UnknownAlgorithm> {
        let known = ALGORITHMS
            .iter()
            .map(|a| a.name)
            .find(|a| a.eq_ignore_ascii_case(name))
            .ok_or_else(|| UnknownAlgorithm(name.to_string()))?;
        if known == self.algorithm() {
            return Ok(());
        }
        let hash_mb = self.searcher.hash_mb();
        self.searcher.release_tables();
        self.searcher = searcher_named(known, hash_mb);
        for (name, value) in &self.algorithm_options {
            // Each algorithm takes its own options and ignores the others'.
            let _ = self.searcher.set_option(name, *value);
        }
        Ok(())
    }

    /// Sets an option of an algorithm (`ABC_Width`, …), now if the algorithm
    /// running has it, and for whenever it is chosen. An option no algorithm
    /// has, or a value out of its range, is an error and changes nothing.
    pub fn set_algorithm_option(&mut self, name: &str, value: i64) -> Result<(), String> {
        let spin = algorithm_option(name).ok_or_else(|| format!("unknown option '{name}'"))?;
        spin.check(value)?;
        let _ = self.searcher.set_option(spin.name, value);
        self.algorithm_options.retain(|(n, _)| n != spin.name);
        self.algorithm_options.push((spin.name.to_string(), value));
        Ok(())
    }

    /// Sets a parameter of the algorithm running now, whether or not this
    /// build lists it as an option (PVS's `Tune_…` are listed in a tuning build
    /// only): for a command that needs a setting of its own, as `kyobo analyse`
    /// does. Unlike [`Engine::set_algorithm_option`], it is forgotten when the
    /// algorithm changes. An unknown name or a value out of range changes nothing.
    pub fn set_parameter(&mut self, name: &str, value: i64) -> Result<(), String> {
        self.searcher.set_option(name, value)
    }

    /// Resizes the tables (and clears them) when the size changes, or makes them
    /// when they were released.
    ///
    /// # Panics
    /// When the memory cannot be had; see [`Engine::try_set_hash_mb`].
    pub fn set_hash_mb(&mut self, mb: usize) {
        if let Err(e) = self.try_set_hash_mb(mb) {
            panic!("{e}");
        }
    }

    /// Makes the tables `mb` MiB (cleared) unless they are that size already. On
    /// error the tables are as before.
    pub fn try_set_hash_mb(&mut self, mb: usize) -> Result<(), AllocError> {
        self.searcher.set_hash_mb(mb)
    }

    /// Has the tables' memory handed out now rather than during the next searches.
    pub fn touch_table(&self) {
        self.searcher.touch_tables();
    }

    /// The tables' size in MiB, as asked for.
    pub fn hash_mb(&self) -> usize {
        self.searcher.hash_mb()
    }

    /// Whether the tables are allocated (see [`Engine::release_table`]).
    pub fn has_table(&self) -> bool {
        self.searcher.has_tables()
    }

    /// Frees the tables, for another search to use the memory; the next
    /// [`Engine::try_set_hash_mb`] (or search) makes them anew.
    pub fn release_table(&mut self) {
        self.searcher.release_tables();
    }

    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.max(1);
    }

    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Forgets everything learnt (a new game).
    pub fn clear(&mut self) {
        self.searcher.clear();
    }

    /// Forgets what earlier searches learnt about move order, keeping the
    /// tables: the next search orders its moves as the game's first would.
    pub fn forget_move_order(&mut self) {
        self.searcher.forget_move_order();
    }

    /// Searches `root` within `limits`, calling `report` (on this thread) with
    /// progress. Returns when the limits are reached or `signals` says stop; while
    /// pondering or `infinite`, not before `stop` (or `ponderhit`). The root is
    /// searched as the game goes on there: the caller decides whether the game has
    /// ended before it asks for a move.
    pub fn search(
        &mut self,
        root: &G,
        limits: &Limits,
        signals: &Signals,
        report: &mut dyn FnMut(&Info<G::Move>),
    ) -> SearchResult<G::Move> {
        self.searcher.run(root, None, limits, signals, self.threads, self.time_options, report)
    }

    /// [`Engine::search`] with the root's moves restricted to `moves` (those of
    /// them that are legal): to compare chosen moves (USI's `searchmoves`, the
    /// bad-shape check).
    pub fn search_among(
        &mut self,
        root: &G,
        moves: &[G::Move],
        limits: &Limits,
        signals: &Signals,
        report: &mut dyn FnMut(&Info<G::Move>),
    ) -> SearchResult<G::Move> {
        let threads = self.threads;
        self.searcher.run(root, Some(moves), limits, signals, threads, self.time_options, report)
    }
}
