//! Traces of textbook searches: which node was entered with which window, what it
//! returned, and which cut pruned which children.

use crate::value::Value;
use std::fmt::{Display, Write};

/// Alpha-cuts happen at MIN nodes, beta-cuts at MAX nodes (in negamax terms: the cut
/// is called after the root player's view of the node that cuts).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CutKind {
    Alpha,
    Beta,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TraceEvent<M> {
    /// A node is entered. The window is as the algorithm holds it at that node
    /// (max/min form: MAX's (α, β); negamax: the node's own (a, b)); none for minimax.
    Enter { path: Vec<M>, window: Option<(Value, Value)> },
    /// A node returns `value` (in the algorithm's own convention at that node).
    Leave { path: Vec<M>, value: Value, leaf: bool },
    /// The node at `path` stopped early; `pruned` are the children never visited.
    Cut { path: Vec<M>, kind: CutKind, pruned: Vec<M> },
}

/// Receives trace events. `enabled` lets the search skip building them.
pub trait Tracer<M> {
    fn enabled(&self) -> bool;
    fn event(&mut self, e: TraceEvent<M>);
}

/// No tracing: compiles to nothing.
pub struct NoTrace;

impl<M> Tracer<M> for NoTrace {
    #[inline(always)]
    fn enabled(&self) -> bool {
        false
    }
    #[inline(always)]
    fn event(&mut self, _e: TraceEvent<M>) {}
}

impl<M> Tracer<M> for Vec<TraceEvent<M>> {
    fn enabled(&self) -> bool {
        true
    }
    fn event(&mut self, e: TraceEvent<M>) {
        self.push(e);
    }
}

fn node_name<M: Display>(path: &[M], root: &str) -> String {
    path.last().map_or_else(|| root.to_string(), |m| m.to_string())
}

fn show(v: Value) -> String {
    if v >= crate::value::INFINITE {
        "+inf".into()
    } else if v <= -crate::value::INFINITE {
        "-inf".into()
    } else {
        v.to_string()
    }
}

/// One line per event, indented by depth, nodes named by the move that reached them
/// (`root` names the root): the printout of the tracing program of Sakuta's αβ notes.
pub fn format_trace<M: Display>(events: &[TraceEvent<M>], root: &str) -> String {
    let mut out = String::new();
    for e in events {
        let (path, text) = match e {
            TraceEvent::Enter { path, window } => (
                path,
                match window {
                    Some((a, b)) => {
                        format!("enter {} ({}, {})", node_name(path, root), show(*a), show(*b))
                    }
                    None => format!("enter {}", node_name(path, root)),
                },
            ),
            TraceEvent::Leave { path, value, leaf } => (
                path,
                format!(
                    "{} {} = {}",
                    if *leaf { "leaf" } else { "return" },
                    node_name(path, root),
                    show(*value)
                ),
            ),
            TraceEvent::Cut { path, kind, pruned } => (
                path,
                format!(
                    "{} at {} {}",
                    match kind {
                        CutKind::Alpha => "alpha-cut",
                        CutKind::Beta => "beta-cut",
                    },
                    node_name(path, root),
                    if pruned.is_empty() {
                        "(its last child: nothing left to prune)".to_string()
                    } else {
                        let names: Vec<String> = pruned.iter().map(|m| m.to_string()).collect();
                        format!("prunes {}", names.join(" "))
                    }
                ),
            ),
        };
        let _ = writeln!(out, "{}{}", "  ".repeat(path.len()), text);
    }
    out
}
