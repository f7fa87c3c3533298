//! The classical engine: iterative deepening over a PVS search with aspiration
//! windows, one shared transposition table, and Lazy SMP helper threads that search
//! the same root with slightly different depths and fill the table for each other.

mod control;
mod iterate;
mod worker;

pub use control::Signals;
pub use worker::RootMove;

use crate::game::Game;
use crate::limits::Limits;
use crate::time::TimeOptions;
use crate::tt::{AllocError, Bound, TranspositionTable};
use crate::value::Value;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// One search report: a line of `info` in USI terms.
#[derive(Clone, Debug)]
pub struct Info<M> {
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
}

/// A node counter alone on its cache line, so threads do not slow each other.
#[repr(align(64))]
#[derive(Default)]
pub(crate) struct PaddedCounter(pub AtomicU64);

/// What all search threads share.
pub(crate) struct Shared {
    tt: TranspositionTable,
    stop: AtomicBool,
    nodes: Vec<PaddedCounter>,
}

impl Shared {
    pub fn total_nodes(&self) -> u64 {
        self.nodes.iter().map(|n| n.0.load(Ordering::Relaxed)).sum()
    }
}

/// The engine: keeps the transposition table between searches.
pub struct Engine {
    tt: Option<TranspositionTable>,
    hash_mb: usize,
    threads: usize,
    pub time_options: TimeOptions,
}

impl Engine {
    pub fn new(hash_mb: usize, threads: usize) -> Engine {
        Engine {
            tt: Some(TranspositionTable::new(hash_mb)),
            hash_mb,
            threads: threads.max(1),
            time_options: TimeOptions::default(),
        }
    }

    /// Resizes the table (and clears it) when the size changes.
    ///
    /// # Panics
    /// When the memory cannot be had; see [`Engine::try_set_hash_mb`].
    pub fn set_hash_mb(&mut self, mb: usize) {
        if let Err(e) = self.try_set_hash_mb(mb) {
            panic!("{e}");
        }
    }

    /// Makes the table `mb` MiB (cleared) unless it is that size already. On error
    /// the table is as before. The old table is freed first where the new one
    /// could not be had beside it.
    pub fn try_set_hash_mb(&mut self, mb: usize) -> Result<(), AllocError> {
        if mb == self.hash_mb && self.tt.is_some() {
            return Ok(());
        }
        let table = match TranspositionTable::try_new(mb) {
            Ok(t) => t,
            Err(e) => {
                // Perhaps only together with the old one it does not fit.
                let old = self.tt.take();
                drop(old);
                match TranspositionTable::try_new(mb) {
                    Ok(t) => t,
                    Err(_) => {
                        self.tt = TranspositionTable::try_new(self.hash_mb).ok();
                        return Err(e);
                    }
                }
            }
        };
        self.tt = Some(table);
        self.hash_mb = mb;
        Ok(())
    }

    /// Has the table's memory handed out now rather than during the next
    /// searches (see [`TranspositionTable::touch_pages`]).
    pub fn touch_table(&self) {
        if let Some(tt) = &self.tt {
            tt.touch_pages();
        }
    }

    /// The table's size in MiB, as asked for.
    pub fn hash_mb(&self) -> usize {
        self.hash_mb
    }

    /// Whether the table is allocated (see [`Engine::release_table`]).
    pub fn has_table(&self) -> bool {
        self.tt.is_some()
    }

    /// Frees the table, for another search to use the memory; the next
    /// [`Engine::try_set_hash_mb`] (or search) makes it anew.
    pub fn release_table(&mut self) {
        self.tt = None;
    }

    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.max(1);
    }

    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Forgets everything learnt (a new game).
    pub fn clear(&mut self) {
        if let Some(tt) = self.tt.as_mut() {
            tt.clear();
        }
    }

    /// Searches `root` within `limits`, calling `report` (on this thread) with
    /// progress. Returns when the limits are reached or `signals` says stop; while
    /// pondering or `infinite`, not before `stop` (or `ponderhit`).
    pub fn search<G: Game>(
        &mut self,
        root: &G,
        limits: &Limits,
        signals: &Signals,
        report: &mut dyn FnMut(&Info<G::Move>),
    ) -> SearchResult<G::Move> {
        // Without a table (released, or the memory was short), a search still
        // runs: on the smallest table rather than none.
        let tt = match self.tt.take() {
            Some(tt) => tt,
            None => TranspositionTable::try_new(self.hash_mb)
                .or_else(|_| TranspositionTable::try_new(1))
                .unwrap_or_else(|e| panic!("{e}")),
        };
        let shared = Shared {
            tt,
            stop: AtomicBool::new(false),
            nodes: (0..self.threads).map(|_| PaddedCounter::default()).collect(),
        };
        shared.tt.new_search();
        let result =
            iterate::run(root, limits, signals, &shared, self.threads, self.time_options, report);
        self.tt = Some(shared.tt);
        result
    }
}
