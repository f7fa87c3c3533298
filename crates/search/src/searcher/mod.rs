//! What an algorithm implements to be run by the engine layer
//! ([`crate::engine`]): the [`Searcher`] that owns what its threads share, the
//! [`SearchThread`] of each thread, the root moves they search, each thread's
//! context (node counts, the stop flag, the clock), and how the algorithm
//! declares itself ([`Algorithm`]). The algorithms (`crate::pvs`, `crate::abc`)
//! depend on this module, the engine layer on them.

pub(crate) mod context;
pub(crate) mod control;

use crate::game::Game;
use crate::options::Spin;
use crate::time::TimeShares;
pub use crate::tt::AllocError;
use crate::tt::Bound;
use crate::value::*;
pub use context::ThreadContext;

/// A root move with what the latest iterations said about it.
#[derive(Clone, Debug)]
pub struct RootMove<M> {
    pub mv: M,
    /// This iteration's value (`-INFINITE`: not searched yet, or failed low).
    pub score: Value,
    pub previous_score: Value,
    pub bound: Option<Bound>,
    pub pv: Vec<M>,
    pub seldepth: i32,
}

impl<M: Copy> RootMove<M> {
    pub fn new(mv: M) -> RootMove<M> {
        RootMove {
            mv,
            score: -INFINITE,
            previous_score: -INFINITE,
            bound: None,
            pv: vec![mv],
            seldepth: 0,
        }
    }

    /// The best known value: this iteration's when it has one.
    pub fn display_score(&self) -> Value {
        if self.score == -INFINITE {
            self.previous_score
        } else {
            self.score
        }
    }
}

/// The root moves of one thread, and where the current iteration stands.
#[derive(Clone, Debug)]
pub struct RootMoves<M> {
    /// Best first once an iteration has sorted them.
    pub moves: Vec<RootMove<M>>,
    /// The MultiPV line being searched: the moves before it are this iteration's
    /// better lines, settled; the search looks at `moves[pv_idx..]`.
    pub pv_idx: usize,
    /// How often the best move changed (decays by half each iteration): the main
    /// thread's measure of instability, which stretches the time.
    pub best_move_changes: f64,
}

impl<M: Copy> RootMoves<M> {
    pub fn new(moves: Vec<M>) -> RootMoves<M> {
        RootMoves {
            moves: moves.into_iter().map(RootMove::new).collect(),
            pv_idx: 0,
            best_move_changes: 0.0,
        }
    }

    /// Before an iteration: this iteration's values become the previous ones.
    pub fn start_iteration(&mut self) {
        for rm in &mut self.moves {
            if rm.score != -INFINITE {
                rm.previous_score = rm.score;
            }
            rm.score = -INFINITE;
        }
    }
}

/// A reaction to a line that turned out to be only a bound (an aspiration
/// window failed): the engine layer may report it at once.
pub type BoundReport<'r, M> = &'r mut dyn FnMut(&RootMoves<M>, Bound);

/// An algorithm the engine layer can run. It owns what its threads share (its
/// tables, kept from search to search and sized by `USI_Hash`) and makes each
/// thread's search.
pub trait Searcher<G: Game>: Send + Sync + 'static {
    /// One thread's search, borrowing what the threads share.
    type Thread<'s>: SearchThread<'s, G>
    where
        Self: 's;

    /// The name the `SearchAlgorithm` option gives it.
    fn name(&self) -> &'static str;

    /// The tables' size in MiB, as asked for.
    fn hash_mb(&self) -> usize;

    /// Makes the tables `mb` MiB in all (cleared) unless they are that size
    /// already. On error the tables are as before (or released where the old ones
    /// had to go to make room and could not be made again).
    fn set_hash_mb(&mut self, mb: usize) -> Result<(), AllocError>;

    /// Whether the tables are allocated.
    fn has_tables(&self) -> bool;

    /// Frees the tables, for another search to use the memory; the next
    /// [`Searcher::set_hash_mb`] or search makes them anew.
    fn release_tables(&mut self);

    /// Has the tables' memory handed out now rather than during the next search.
    fn touch_tables(&self);

    /// Forgets everything learnt (a new game).
    fn clear(&mut self);

    /// Forgets what earlier searches learnt about move order (histories kept
    /// from one search of a game to the next), keeping the tables.
    fn forget_move_order(&mut self) {}

    /// Called before each search: makes tables that were released (on the
    /// smallest size where the memory is short) and ages what is stored.
    fn prepare(&mut self);

    /// Permille of the tables in use.
    fn hashfull(&self) -> u32;

    /// The search of one thread (`ctx.id` 0: the main thread) from `root`.
    fn thread<'s>(&'s self, root: G, ctx: ThreadContext<'s>) -> Self::Thread<'s>;

    /// How the time manager shares out this algorithm's budget.
    fn time_shares(&self) -> TimeShares {
        TimeShares::DEFAULT
    }

    /// Whether a mate in `n` plies found by iteration `n` or later is proven
    /// (every defence searched to that depth), so that a timed search may end
    /// there. Not so for a search whose iteration is no depth (ABC): there
    /// only a mate in one is taken as proven.
    fn proves_mates_by_depth(&self) -> bool {
        true
    }

    /// A reply to expect after `best` when the best line stops at it (for
    /// pondering), if the algorithm knows one.
    fn ponder_hint(&self, _root: &G, _best: G::Move) -> Option<G::Move> {
        None
    }

    /// Sets one of the algorithm's own parameters (USI options named after it).
    fn set_option(&mut self, name: &str, _value: i64) -> Result<(), String> {
        Err(format!("{} has no option {name}", self.name()))
    }
}

/// For [`Searcher::set_hash_mb`]: makes `tables` anew for `mb` MiB with `make`
/// unless they are that size already. Where the new tables cannot be had beside
/// the old ones, the old go first; where they cannot be had at all, the old size
/// is made again (or none, if even that fails) and the error returned.
pub fn remake_tables<T>(
    tables: &mut Option<T>,
    current_mb: &mut usize,
    mb: usize,
    make: impl Fn(usize) -> Result<T, AllocError>,
) -> Result<(), AllocError> {
    if mb == *current_mb && tables.is_some() {
        return Ok(());
    }
    let fresh = match make(mb) {
        Ok(t) => t,
        Err(e) => {
            *tables = None;
            match make(mb) {
                Ok(t) => t,
                Err(_) => {
                    *tables = make(*current_mb).ok();
                    return Err(e);
                }
            }
        }
    };
    *tables = Some(fresh);
    *current_mb = mb;
    Ok(())
}

/// For [`Searcher::prepare`]: tables of `mb` MiB, or of `smallest` MiB where the
/// memory is short (a search runs on small tables rather than none).
///
/// # Panics
/// When not even `smallest` MiB can be had.
pub fn tables_or_smallest<T>(
    mb: usize,
    smallest: usize,
    make: impl Fn(usize) -> Result<T, AllocError>,
) -> T {
    make(mb).or_else(|_| make(smallest)).unwrap_or_else(|e| panic!("{e}"))
}

/// One thread's search: the algorithm's per-thread state and its context.
pub trait SearchThread<'s, G: Game> {
    fn context(&mut self) -> &mut ThreadContext<'s>;

    /// Searches line `roots.pv_idx` for `iteration`: gives each of
    /// `roots.moves[pv_idx..]` that it searched its value, bound, line and
    /// seldepth (`-INFINITE` for those it did not or that failed low), and leaves
    /// them sorted best first. When stopped midway the values it gave are kept
    /// only where better than what the layer knew. `on_bound`, when given, hears
    /// of every intermediate result that is only a bound.
    fn search_line(
        &mut self,
        roots: &mut RootMoves<G::Move>,
        iteration: i32,
        on_bound: Option<BoundReport<'_, G::Move>>,
    );

    /// What the algorithm counted on this thread (beside the nodes), by name.
    fn counters(&self) -> Vec<(&'static str, u64)> {
        Vec::new()
    }
}

/// An algorithm the engine can run: its name and the options it declares (each
/// a USI spin named after it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Algorithm {
    pub name: &'static str,
    pub options: &'static [Spin],
}
