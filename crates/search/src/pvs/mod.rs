//! The classical engine's algorithm: principal variation search with aspiration
//! windows at the root, a transposition table shared by all threads, staged move
//! ordering, quiescence search, pruning, reductions and extensions.
//!
//! - [`Pvs`]: the [`Searcher`] the engine layer runs (the table lives here);
//! - `worker`: one thread's state (histories, killers, lines, move storage);
//! - `root`: the aspiration loop and the root node;
//! - `node`: the node search, step by step.

mod node;
mod root;
mod worker;

use crate::engine::{AllocError, Searcher, ThreadContext};
use crate::game::Game;
use crate::tt::TranspositionTable;
use worker::Worker;

/// PVS and its transposition table.
pub struct Pvs {
    tt: Option<TranspositionTable>,
    hash_mb: usize,
}

impl Pvs {
    /// PVS whose table (`hash_mb` MiB) is made by the first `set_hash_mb` or search.
    pub fn without_tables(hash_mb: usize) -> Pvs {
        Pvs { tt: None, hash_mb }
    }

    /// PVS with its table made now, or an error when the memory cannot be had.
    pub fn try_new(hash_mb: usize) -> Result<Pvs, AllocError> {
        Ok(Pvs { tt: Some(TranspositionTable::try_new(hash_mb)?), hash_mb })
    }
}

impl<G: Game> Searcher<G> for Pvs {
    type Thread<'s> = Worker<'s, G>;

    fn name(&self) -> &'static str {
        "PVS"
    }

    fn hash_mb(&self) -> usize {
        self.hash_mb
    }

    /// The old table is freed first where the new one cannot be had beside it.
    fn set_hash_mb(&mut self, mb: usize) -> Result<(), AllocError> {
        if mb == self.hash_mb && self.tt.is_some() {
            return Ok(());
        }
        let table = match TranspositionTable::try_new(mb) {
            Ok(t) => t,
            Err(e) => {
                // Perhaps only together with the old one it does not fit.
                self.tt = None;
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
    }

    /// Without a table (released, or the memory was short), a search still runs:
    /// on the smallest table rather than none.
    fn prepare(&mut self) {
        if self.tt.is_none() {
            let tt = TranspositionTable::try_new(self.hash_mb)
                .or_else(|_| TranspositionTable::try_new(1))
                .unwrap_or_else(|e| panic!("{e}"));
            self.tt = Some(tt);
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
        Worker::new(root, tt, ctx)
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
