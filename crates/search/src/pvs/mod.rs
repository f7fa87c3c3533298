//! The classical engine's algorithm: principal variation search with aspiration
//! windows at the root, a transposition table shared by all threads, staged move
//! ordering, quiescence search, pruning, reductions and extensions.
//!
//! - [`Pvs`]: the [`Searcher`] the engine layer runs (the table lives here);
//! - `worker`: one thread's state (histories, killers, lines, move storage);
//! - `root`: the aspiration loop and the root node;
//! - `node`: the node search, step by step.

mod node;
pub mod params;
mod root;
mod worker;

use crate::game::Game;
use crate::searcher::{
    remake_tables, tables_or_smallest, Algorithm, AllocError, Searcher, ThreadContext,
};
use crate::time::TimeShares;
use crate::tt::TranspositionTable;
use params::PvsParams;
use std::sync::Mutex;
use worker::{Memory, Worker};

/// PVS, its transposition table and its parameters.
pub struct Pvs {
    tt: Option<TranspositionTable>,
    hash_mb: usize,
    pub params: PvsParams,
    /// The move-ordering statistics the threads of the last searches learnt,
    /// for the next search of the same game (forgotten by `clear`).
    memory: Mutex<Vec<Memory>>,
}

impl Pvs {
    /// PVS as the engine's registry knows it: its name, and its parameters as
    /// options only in a tuning build (`--features tune`).
    pub const ALGORITHM: Algorithm = Algorithm {
        name: "PVS",
        options: if cfg!(feature = "tune") { PvsParams::OPTIONS } else { &[] },
    };

    /// PVS whose table (`hash_mb` MiB) is made by the first `set_hash_mb` or search.
    pub fn without_tables(hash_mb: usize) -> Pvs {
        Pvs { tt: None, hash_mb, params: PvsParams::default(), memory: Mutex::default() }
    }

    /// PVS with its table made now, or an error when the memory cannot be had.
    pub fn try_new(hash_mb: usize) -> Result<Pvs, AllocError> {
        Ok(Pvs {
            tt: Some(TranspositionTable::try_new(hash_mb)?),
            hash_mb,
            params: PvsParams::default(),
            memory: Mutex::default(),
        })
    }
}

impl<G: Game> Searcher<G> for Pvs {
    type Thread<'s> = Worker<'s, G>;

    fn name(&self) -> &'static str {
        Self::ALGORITHM.name
    }

    fn hash_mb(&self) -> usize {
        self.hash_mb
    }

    fn set_hash_mb(&mut self, mb: usize) -> Result<(), AllocError> {
        remake_tables(&mut self.tt, &mut self.hash_mb, mb, TranspositionTable::try_new)
    }

    fn has_tables(&self) -> bool {
        self.tt.is_some()
    }

    fn release_tables(&mut self) {
        self.tt = None;
    }

    fn touch_tables(&self) {
        if let Some(tt) = &self.tt {
            tt.touch_pages();
        }
    }

    fn clear(&mut self) {
        if let Some(tt) = self.tt.as_mut() {
            tt.clear();
        }
        Searcher::<G>::forget_move_order(self);
    }

    fn forget_move_order(&mut self) {
        if let Ok(memory) = self.memory.get_mut() {
            memory.clear();
        }
    }

    /// Without a table (released, or the memory was short), a search still runs:
    /// on the smallest table rather than none.
    fn prepare(&mut self) {
        if self.tt.is_none() {
            self.tt = Some(tables_or_smallest(self.hash_mb, 1, TranspositionTable::try_new));
        }
        if let Some(tt) = &self.tt {
            tt.new_search();
        }
    }

    fn hashfull(&self) -> u32 {
        self.tt.as_ref().map_or(0, TranspositionTable::hashfull)
    }

    fn thread<'s>(&'s self, root: G, ctx: ThreadContext<'s>) -> Worker<'s, G> {
        let tt = self.tt.as_ref().expect("prepare() makes the table before the threads");
        Worker::new(root, tt, ctx, self.params, &self.memory)
    }

    fn set_option(&mut self, name: &str, value: i64) -> Result<(), String> {
        self.params.set(name, value)
    }

    fn time_shares(&self) -> TimeShares {
        self.params.time_shares()
    }

    /// The table's move in the position after `best`.
    fn ponder_hint(&self, root: &G, best: G::Move) -> Option<G::Move> {
        let mut game = root.clone();
        game.make_move(best);
        let e = self.tt.as_ref()?.probe(game.key())?;
        let m = G::decode_move(e.mv);
        (e.mv != 0 && game.is_legal(m)).then_some(m)
    }
}
