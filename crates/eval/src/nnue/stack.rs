//! The accumulators along the line a search is on: one entry per ply made, each
//! with the changes its move made to the features, computed only when a position
//! is evaluated (from the nearest computed entry below it, or afresh for a side
//! whose king moved in between).

use super::features::{self, Changes, SET};
use super::network::{Accumulator, OUTPUT_SCALE};
use super::Network;
use shogi::{Color, Move, Position};
use std::sync::Arc;

#[derive(Clone, Copy, Debug)]
struct Entry {
    accumulator: Accumulator,
    computed: [bool; 2],
    /// What the move that led here changed.
    changes: Changes,
}

/// A network and the accumulators of the current line.
#[derive(Clone)]
pub struct NnueStack {
    network: Arc<Network>,
    /// What the network's output is divided by (YaneuraOu's `FV_SCALE`).
    output_scale: i32,
    /// `entries[..=top]` are the current line's, the root's first.
    entries: Vec<Entry>,
    top: usize,
    features: Vec<usize>,
    removed: Vec<usize>,
    added: Vec<usize>,
}

impl std::fmt::Debug for NnueStack {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "NnueStack(ply {})", self.top)
    }
}

impl NnueStack {
    /// The stack for a search from `pos`; `None` when the position is not made
    /// of the standard set of pieces (see [`features::pieces`]).
    pub fn new(network: Arc<Network>, pos: &Position) -> Option<NnueStack> {
        features::pieces(pos)?;
        let root = Entry {
            accumulator: Accumulator::default(),
            computed: [false; 2],
            changes: Changes::default(),
        };
        let mut entries = Vec::with_capacity(256);
        entries.push(root);
        Some(NnueStack {
            network,
            output_scale: OUTPUT_SCALE,
            entries,
            top: 0,
            features: Vec::with_capacity(SET),
            removed: Vec::with_capacity(2),
            added: Vec::with_capacity(2),
        })
    }

    fn push(&mut self, changes: Changes) {
        self.top += 1;
        if self.top == self.entries.len() {
            let accumulator = Accumulator::default();
            self.entries.push(Entry { accumulator, computed: [false; 2], changes });
        } else {
            // The accumulator is only read once computed, so it need not be cleared.
            let e = &mut self.entries[self.top];
            e.computed = [false; 2];
            e.changes = changes;
        }
    }

    /// Before `pos.do_move(m)`.
    #[inline]
    pub fn make_move(&mut self, pos: &Position, m: Move) {
        self.push(Changes::of_move(pos, m));
    }

    #[inline]
    pub fn make_null_move(&mut self) {
        self.push(Changes::default());
    }

    /// After the move or null move is taken back.
    #[inline]
    pub fn unmake(&mut self) {
        self.top = self.top.saturating_sub(1);
    }

    /// Brings `view`'s accumulator of the top entry up to date for `pos`.
    fn compute(&mut self, pos: &Position, view: Color) {
        let v = view.index();
        if self.entries[self.top].computed[v] {
            return;
        }
        let Some(king) = features::king_square(pos, view) else { return };
        // The nearest entry below whose accumulator is computed, unless this
        // side's king moved on the way (then every feature changed).
        let mut from = self.top;
        let mut reachable = false;
        while from > 0 {
            if self.entries[from].changes.king_moved == Some(view) {
                break;
            }
            from -= 1;
            if self.entries[from].computed[v] {
                reachable = true;
                break;
            }
        }
        if !reachable {
            // Nothing computed below: refresh the lowest entry the updates can
            // start from (the root, or where this side's king last moved) rather
            // than this one, so that the entries between are computed on the way
            // and the next position evaluated from the same parent (ABC values
            // every move of a node it never evaluates itself) needs one update,
            // not another refresh. That entry's features are this position's
            // with the changes of the moves above it taken back (the king stood
            // where it stands now).
            self.features.clear();
            if let Some(pieces) = features::pieces(pos) {
                self.features.extend(pieces.iter().map(|p| features::index(king, p[v])));
            }
            for ply in (from + 1..=self.top).rev() {
                let changes = self.entries[ply].changes;
                for i in 0..changes.count as usize {
                    let added = features::index(king, changes.added[i][v]);
                    let at = self.features.iter().position(|&f| f == added);
                    debug_assert!(at.is_some(), "a feature a move added is on the board above it");
                    if let Some(at) = at {
                        self.features.swap_remove(at);
                    }
                    self.features.push(features::index(king, changes.removed[i][v]));
                }
            }
            let base = &mut self.entries[from];
            self.network.refresh(&mut base.accumulator.0[v], &self.features);
            base.computed[v] = true;
        }
        for ply in from + 1..=self.top {
            let (below, above) = self.entries.split_at_mut(ply);
            let (previous, entry) = (&below[ply - 1], &mut above[0]);
            entry.accumulator.0[v] = previous.accumulator.0[v];
            let changes = entry.changes;
            self.removed.clear();
            self.added.clear();
            for i in 0..changes.count as usize {
                self.removed.push(features::index(king, changes.removed[i][v]));
                self.added.push(features::index(king, changes.added[i][v]));
            }
            self.network.update(&mut entry.accumulator.0[v], &self.added, &self.removed);
            entry.computed[v] = true;
        }
    }

    /// Divides the network's output by `scale` (at least 1) instead of the
    /// format's [`OUTPUT_SCALE`]: a smaller divisor spreads the values wider, for
    /// a network trained to another scale than the search's margins were tuned
    /// on (YaneuraOu's `FV_SCALE`).
    pub fn set_output_scale(&mut self, scale: i32) {
        self.output_scale = scale.max(1);
    }

    /// The network's value of `pos` (the top entry's position) for the side to
    /// move, on the file's scale, kept inside the range of non-mate values.
    pub fn evaluate(&mut self, pos: &Position) -> i32 {
        self.compute(pos, Color::Black);
        self.compute(pos, Color::White);
        let us = pos.side_to_move().index();
        let output = self.network.propagate(&self.entries[self.top].accumulator, us);
        (output / self.output_scale).clamp(-crate::MAX_EVAL, crate::MAX_EVAL)
    }
}

/// `pos`'s value by `network` computed from scratch (no stack), for tests and
/// tools.
pub fn evaluate_afresh(network: &Arc<Network>, pos: &Position) -> Option<i32> {
    Some(NnueStack::new(network.clone(), pos)?.evaluate(pos))
}

#[cfg(test)]
mod tests {
    use super::*;
    use shogi::movegen::{generate_legal, MoveList};

    /// A move of the non-empty `moves` chosen by `seed`: one of the first `among`
    /// captures and king moves (which change the most features) where there are
    /// enough, any move otherwise.
    fn pick_move(moves: &[Move], seed: u64, among: usize) -> Move {
        moves
            .iter()
            .copied()
            .filter(|m| m.is_capture() || m.moved_kind() == shogi::PieceKind::King)
            .nth((seed >> 40) as usize % among)
            .unwrap_or(moves[(seed >> 33) as usize % moves.len()])
    }

    /// Values kept move by move equal values computed afresh, along random lines
    /// with captures, drops, promotions and king moves.
    #[test]
    fn incremental_values_equal_fresh_ones() {
        let network = Arc::new(Network::random(3).unwrap());
        let mut pos = Position::startpos();
        let mut stack = NnueStack::new(network.clone(), &pos).unwrap();
        let mut seed = 99u64;
        let mut line = Vec::new();
        for step in 0..400 {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let mut list = MoveList::new();
            generate_legal(&pos, &mut list);
            let back = list.is_empty() || (seed >> 60) == 0 && !line.is_empty();
            if back {
                let Some(m) = line.pop() else { break };
                pos.undo_move(m);
                stack.unmake();
            } else {
                let pick = pick_move(list.as_slice(), seed, 3);
                stack.make_move(&pos, pick);
                pos.do_move(pick);
                line.push(pick);
            }
            // Evaluate only now and then, so that updates span several plies.
            if step % 3 == 0 {
                let fresh = evaluate_afresh(&network, &pos).unwrap();
                assert_eq!(stack.evaluate(&pos), fresh, "{}", pos.to_sfen());
            }
        }
    }

    /// ABC's pattern: lines whose inner positions are never evaluated, and at the
    /// end of each every child evaluated in turn. The first child's refresh is
    /// made at the lowest entry it can start from, so the line's entries get
    /// computed on the way (each equal to its position's fresh accumulator), and
    /// every value equals the fresh one.
    #[test]
    fn a_refresh_starts_low_and_computes_the_line() {
        let network = Arc::new(Network::random(7).unwrap());
        let mut seed = 5u64;
        for _ in 0..20 {
            let mut pos = Position::startpos();
            let mut stack = NnueStack::new(network.clone(), &pos).unwrap();
            let mut line = vec![pos.clone()];
            for _ in 0..12 {
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                let mut list = MoveList::new();
                generate_legal(&pos, &mut list);
                if list.as_slice().is_empty() {
                    break;
                }
                let pick = pick_move(list.as_slice(), seed, 4);
                stack.make_move(&pos, pick);
                pos.do_move(pick);
                line.push(pos.clone());
            }
            let mut list = MoveList::new();
            generate_legal(&pos, &mut list);
            for &m in list.as_slice() {
                stack.make_move(&pos, m);
                let mut child = pos.clone();
                child.do_move(m);
                assert_eq!(stack.evaluate(&child), evaluate_afresh(&network, &child).unwrap());
                stack.unmake();
            }
            // Every entry of the line computed for a view is its position's own.
            for (ply, position) in line.iter().enumerate() {
                let mut alone = NnueStack::new(network.clone(), position).unwrap();
                alone.evaluate(position);
                for v in 0..2 {
                    if stack.entries[ply].computed[v] {
                        let fresh = alone.entries[0].accumulator.0[v];
                        assert_eq!(stack.entries[ply].accumulator.0[v], fresh, "ply {ply}");
                    }
                }
            }
            // The parent of the children is computed: they cost one update each.
            let top = stack.top;
            assert!(stack.entries[top].computed.iter().all(|&c| c), "the parent is computed");
        }
    }

    /// `FV_SCALE`: the output divided by the scale set, the format's 16 by default.
    #[test]
    fn the_output_scale_divides_the_network_output() {
        let network = Arc::new(Network::random(5).unwrap());
        let pos = Position::startpos();
        let mut stack = NnueStack::new(network.clone(), &pos).unwrap();
        stack.compute(&pos, Color::Black);
        stack.compute(&pos, Color::White);
        let raw = network.propagate(&stack.entries[0].accumulator, Color::Black.index());
        assert!(raw.abs() >= 64, "a value that the scales tell apart: {raw}");
        assert_eq!(stack.evaluate(&pos), raw / OUTPUT_SCALE);
        stack.set_output_scale(8);
        assert_eq!(stack.evaluate(&pos), raw / 8);
        stack.set_output_scale(0);
        assert_eq!(stack.evaluate(&pos), raw, "a scale below 1 is 1");
    }
}
