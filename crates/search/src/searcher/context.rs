//! What every search thread gets from the engine layer, whatever the algorithm:
//! its node count, the stop flag all threads share, and on the main thread the
//! clock and the node limit, which it reads every so many nodes.

use super::control::Control;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// A node counter alone on its cache line, so threads do not slow each other.
#[repr(align(64))]
#[derive(Default)]
pub(crate) struct PaddedCounter(AtomicU64);

/// What all threads of one search share: the stop flag and every thread's nodes.
pub(crate) struct SharedState {
    pub stop: AtomicBool,
    nodes: Vec<PaddedCounter>,
}

impl SharedState {
    pub fn new(threads: usize) -> SharedState {
        SharedState {
            stop: AtomicBool::new(false),
            nodes: (0..threads.max(1)).map(|_| PaddedCounter::default()).collect(),
        }
    }

    pub fn total_nodes(&self) -> u64 {
        self.nodes.iter().map(|n| n.0.load(Ordering::Relaxed)).sum()
    }
}

/// How often (in nodes, a power of two) the main thread reads the clock and the
/// node limit.
const POLL_INTERVAL: u64 = 1024;

/// One thread's link to the engine layer. An algorithm calls
/// [`ThreadContext::count_node`] once per node and gives up its work as soon as
/// [`ThreadContext::stopped`] says so.
pub struct ThreadContext<'s> {
    /// 0 for the main thread, which alone keeps time and reports.
    pub id: usize,
    shared: &'s SharedState,
    nodes: u64,
    pub(crate) control: Option<Control<'s>>,
    node_limit: Option<u64>,
}

impl<'s> ThreadContext<'s> {
    pub(crate) fn new(
        id: usize,
        shared: &'s SharedState,
        control: Option<Control<'s>>,
        node_limit: Option<u64>,
    ) -> ThreadContext<'s> {
        ThreadContext { id, shared, nodes: 0, control, node_limit }
    }

    /// Counts a node; on the main thread, every `POLL_INTERVAL` nodes, stops all
    /// threads once the node limit or the time is reached.
    #[inline]
    pub fn count_node(&mut self) {
        self.nodes += 1;
        self.shared.nodes[self.id].0.store(self.nodes, Ordering::Relaxed);
        if self.nodes & (POLL_INTERVAL - 1) == 0 {
            let over_nodes = self.node_limit.is_some_and(|n| self.shared.total_nodes() >= n);
            let over_time = self.control.as_mut().is_some_and(|c| c.must_stop());
            if over_nodes || over_time {
                self.shared.stop.store(true, Ordering::Relaxed);
            }
        }
    }

    /// Whether the search must end now (time, nodes, `stop`, or the main thread is
    /// done): what is being searched is then thrown away.
    #[inline]
    pub fn stopped(&self) -> bool {
        self.shared.stop.load(Ordering::Relaxed)
    }

    /// This thread's nodes so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// All threads' nodes so far.
    pub fn total_nodes(&self) -> u64 {
        self.shared.total_nodes()
    }
}
