//! One ABC thread: the line's heads, the node search, the keys of a node's moves
//! and the root.

use super::conspiracy::{Child, Conspiracy, Head};
use super::table::{Stored, StoredValue};
use super::{AbcOptions, AbcTables};
use crate::game::{rules_end, units, Game, Side};
use crate::history::{ContinuationHistory, History, QuietStats};
use crate::plies::PlyStack;
use crate::qsearch::{qsearch, repetition_end, QsHost};
use crate::searcher::{BoundReport, RootMoves, SearchThread, ThreadContext};
use crate::tt::{Bound, TranspositionTable};
use crate::value::*;

/// A value for a trace: ±inf for the window's ends.
fn shown(v: Value) -> String {
    match v {
        v if v >= INFINITE => "+inf".into(),
        v if v <= -INFINITE => "-inf".into(),
        v => v.to_string(),
    }
}

/// A move's key `(key, bound)` after its search found `(value, bound)`: an exact
/// value replaces the key; a bound replaces it only where the key lies beyond it
/// (a move the search refuted drops to what the search proved; one that held
/// keeps its higher estimate, now known to be at least the bound).
fn refined(key: (Value, Bound), found: (Value, Bound)) -> (Value, Bound) {
    match found {
        (_, Bound::Exact) => found,
        (v, Bound::Upper) if key.0 > v => found,
        (v, Bound::Lower) if key.0 < v => found,
        _ => key,
    }
}

/// How a node's expansion ended.
enum Expanded {
    /// Its moves are keyed and kept, best first, in its head.
    Full,
    /// The early β-cut, with the node's value.
    Cut(Value),
}

/// The keys of a node computed so far: the best `width` of them, best first, and
/// how many.
struct KeysSoFar {
    best: Vec<Value>,
    computed: usize,
}

/// What one thread counted, for the engine's reports and the benchmarks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AbcCounters {
    /// Quiet moves given a static value (the bound of their key).
    pub static_values: u64,
    /// Nodes of the ABC tree (quiescence nodes not included).
    pub nodes: u64,
    /// Nodes where the game had ended (a tree's leaves, a mate).
    pub game_ends: u64,
    /// Nodes that ended by conspiracy depth, and the sum of their plies.
    pub leaves: u64,
    pub leaf_plies: u64,
    /// Quiescence searches run for keys.
    pub key_searches: u64,
    /// Nodes whose moves and keys were asked of the position table, and found.
    pub table_probes: u64,
    pub table_hits: u64,
    /// Nodes whose stored value ended them (the table of bounds).
    pub table_cuts: u64,
    /// Hits with a key stored as a bound the node's window needed exact, computed
    /// again.
    pub keys_recomputed: u64,
    /// Nodes the early β-cut ended, and the key searches it saved.
    pub early_cuts: u64,
    pub keys_saved: u64,
    /// Key searches left out because a quiet move's static value, which bounds
    /// its key, was below the keys of the moves kept.
    pub keys_bounded: u64,
    /// Leaves by how open their line is — the alternatives per node close to the
    /// leaf's value (within Δ, for the side to move there) on average along the
    /// line: under 1, 1 to 2, 2 to 3, 3 or more — with their plies. ABC is meant
    /// to search the forced lines (the first) deepest.
    pub leaves_by_openness: [u64; 4],
    pub leaf_plies_by_openness: [u64; 4],
    /// Nodes that tried a pass (its quiescence value computed; the pass is
    /// searched only where that holds β), and those the pass failed high
    /// (`ABC_NullMove`).
    pub null_tries: u64,
    pub null_cuts: u64,
}

pub struct AbcThread<'s, G: Game> {
    game: G,
    tables: &'s AbcTables,
    ctx: ThreadContext<'s>,
    options: AbcOptions,
    /// This iteration's termination test.
    conspiracy: Conspiracy,
    /// The heads of the current line: `heads[p]` holds the moves of the node at
    /// ply `p`, the one being searched marked.
    heads: Vec<Head<G::Move>>,
    /// Lines and quiescence move storage per ply.
    plies: PlyStack<G::Move>,
    seldepth: i32,
    /// Histories (never updated: all zero) for the quiescence search's evasion
    /// order.
    history: History,
    continuation: ContinuationHistory,
    moves: Vec<G::Move>,
    /// The generation index of each child of the node being expanded.
    generated: Vec<usize>,
    stored: Vec<Stored>,
    /// The values the node at each ply gave the moves it searched, in the
    /// order it searched them, with their bounds.
    searched: Vec<Vec<(Value, Bound)>>,
    pub counters: AbcCounters,
    /// Whether the node at each ply is searching its pass (`ABC_NullMove`):
    /// the node after a pass does not pass again.
    passing: Vec<bool>,
    /// Lines of a trace of the search (see [`super::traced`]), when one is kept.
    pub(super) trace: Option<Vec<String>>,
}

impl<'s, G: Game> AbcThread<'s, G> {
    pub(super) fn new(
        game: G,
        tables: &'s AbcTables,
        ctx: ThreadContext<'s>,
        options: AbcOptions,
    ) -> Self {
        let plies = MAX_PLY as usize + 8;
        let side = game.side_to_move();
        AbcThread {
            game,
            tables,
            ctx,
            options,
            conspiracy: Conspiracy {
                delta: 0,
                cap: options.sfunc_cap,
                thresholds: [0, 0],
                plies_per_depth: 0,
            },
            heads: (0..plies).map(|_| Head::new(side)).collect(),
            plies: PlyStack::new(plies),
            seldepth: 0,
            history: History::new(G::HISTORY_SIZE),
            continuation: ContinuationHistory::new(1),
            moves: Vec::with_capacity(256),
            generated: Vec::with_capacity(256),
            stored: Vec::with_capacity(16),
            searched: (0..plies).map(|_| Vec::new()).collect(),
            counters: AbcCounters::default(),
            passing: vec![false; plies],
            trace: None,
        }
    }

    /// The moves the node at the thread's position keeps, with their keys (see
    /// [`super::kept_moves`]).
    pub(super) fn kept_moves(&mut self) -> Vec<(G::Move, Value)> {
        // Any ply but the root's, which keeps every move.
        const PLY: usize = 3;
        let _ = self.expand(-INFINITE, INFINITE, PLY);
        self.heads[PLY].children.iter().map(|c| (c.mv, c.key)).collect()
    }

    /// The value of a game end or a repetition here, `ply` from the root.
    fn end_value(&self, ply: usize) -> Option<Value> {
        let ply_v = ply as i32;
        rules_end(&self.game, ply_v).or_else(|| repetition_end(&self.game, ply_v))
    }

    /// The key of `m` from this node (`ply`) with window `(alpha, beta)`: the
    /// quiescence value after it, from the mover's side (the end of the game or a
    /// repetition where the move makes one), and what it is: a bound where it
    /// lies outside the window (the quiescence search fails soft).
    fn key_of(&mut self, m: G::Move, alpha: Value, beta: Value, ply: usize) -> (Value, Bound) {
        self.game.make_move(m);
        let keyed = match self.end_value(ply + 1) {
            Some(v) => (-v, Bound::Exact),
            None => {
                self.counters.key_searches += 1;
                let key = -qsearch::<G, Self, false>(self, -beta, -alpha, ply + 1, 0);
                // Fail-soft: outside the window the key is a bound.
                (key, Bound::of(key, alpha, beta, true))
            }
        };
        self.game.unmake_move(m);
        keyed
    }

    /// The moves of the node at `ply` with their keys, best first, as many as it
    /// keeps, into `heads[ply]`: from the position table, or by a quiescence
    /// search each. [`Expanded::Cut`] when the early β-cut ends the node.
    fn expand(&mut self, alpha: Value, beta: Value, ply: usize) -> Expanded {
        let side = self.game.side_to_move();
        // The storage of the last node at this ply, for this one.
        let mut head = std::mem::replace(&mut self.heads[ply], Head::new(side));
        head.side = side;
        head.children.clear();
        head.penalty = 0;
        let key = self.game.key();
        if self.options.position_table && self.read_table(key, &mut head, (alpha, beta), ply) {
            self.heads[ply] = head;
            return Expanded::Full;
        }
        let mut moves = std::mem::take(&mut self.moves);
        moves.clear();
        self.game.legal_moves(&mut moves);
        let in_check = self.game.in_check();
        let (first, quiet) = self.split_for_keys(&moves, in_check, ply);
        let total = moves.len();
        let width = self.options.width;
        let mut keys = KeysSoFar { best: Vec::with_capacity(width + 1), computed: 0 };
        let node = ((alpha, beta), ply, in_check);
        let mut cut = self.take_keys(&moves, &first, node, &mut head, &mut keys);
        if cut.is_none() && !self.ctx.stopped() && !quiet.is_empty() {
            // Quiet moves by their static value, which bounds their key from above
            // (the quiescence search can only add to it): once that is below the
            // `width`-th key found, neither the move nor any after it can be kept,
            // and their keys are not needed.
            let ordered = self.bounded(&moves, &quiet, ply);
            for (n, &(i, bound)) in ordered.iter().enumerate() {
                if keys.best.len() == width && bound < keys.best[width - 1] {
                    self.counters.keys_bounded += (ordered.len() - n) as u64;
                    break;
                }
                cut = self.take_key(
                    moves[i],
                    i,
                    (alpha, beta),
                    ply,
                    in_check,
                    &mut head,
                    &mut keys,
                    total,
                );
                if cut.is_some() || self.ctx.stopped() {
                    break;
                }
            }
        }
        self.moves = moves;
        if cut.is_none() && !self.ctx.stopped() {
            // Best key first; equal keys in generation order.
            let generated = std::mem::take(&mut self.generated);
            let mut ranked: Vec<(Child<G::Move>, usize)> =
                head.children.drain(..).zip(generated.iter().copied()).collect();
            ranked.sort_by_key(|(c, i)| (std::cmp::Reverse(c.key), *i));
            head.children.extend(ranked.into_iter().map(|(c, _)| c));
            self.generated = generated;
            if !in_check {
                self.prune(&mut head, width);
            }
            if self.options.position_table {
                self.write_table(key, &head, None, ply);
            }
        }
        self.heads[ply] = head;
        cut.map_or(Expanded::Full, Expanded::Cut)
    }

    /// Keys the moves `moves[i]` for `i` in `indices` in order into `head`, at
    /// the node `(window, ply, in_check)`, until one makes the early β-cut (its
    /// value returned) or the search is told to stop.
    fn take_keys(
        &mut self,
        moves: &[G::Move],
        indices: &[usize],
        (window, ply, in_check): ((Value, Value), usize, bool),
        head: &mut Head<G::Move>,
        keys: &mut KeysSoFar,
    ) -> Option<Value> {
        for &i in indices {
            let cut = self.take_key(moves[i], i, window, ply, in_check, head, keys, moves.len());
            if cut.is_some() || self.ctx.stopped() {
                return cut;
            }
        }
        None
    }

    /// The moves whose keys are computed first, in generation order (tactical
    /// moves, checks; every move in check or where none is pruned), and the quiet
    /// rest, whose keys can be bounded by their static value.
    fn split_for_keys(
        &mut self,
        moves: &[G::Move],
        in_check: bool,
        ply: usize,
    ) -> (Vec<usize>, Vec<usize>) {
        self.generated.clear();
        let all = in_check || ply == 0 || moves.len() <= self.options.width;
        (0..moves.len()).partition(|&i| {
            let m = moves[i];
            all || self.game.is_tactical(m) || self.game.gives_check(m)
        })
    }

    /// The quiet moves `quiet` of `moves` with the upper bound of their keys, best
    /// first (ties in generation order): the static value after the move, or
    /// infinity where it bounds nothing (a check, the end of the game).
    fn bounded(&mut self, moves: &[G::Move], quiet: &[usize], ply: usize) -> Vec<(usize, Value)> {
        self.counters.static_values += quiet.len() as u64;
        let mut ordered: Vec<(usize, Value)> = quiet
            .iter()
            .map(|&i| {
                self.game.make_move(moves[i]);
                let bounded = !self.game.in_check() && self.end_value(ply + 1).is_none();
                let bound = if bounded { -self.game.evaluate() } else { INFINITE };
                self.game.unmake_move(moves[i]);
                (i, bound)
            })
            .collect();
        ordered.sort_by_key(|&(i, bound)| (std::cmp::Reverse(bound), i));
        ordered
    }

    /// The conspiracy depth of `side`, to move at the node at `ply`, at frontier
    /// value `beta` over the heads above the node, with the ply its child's
    /// line is longer: what the node's own head adds to it decides whether a
    /// child with a key at or above β ends at once.
    fn depth_above(&self, side: Side, beta: Value, ply: usize) -> usize {
        let longer = self.conspiracy.length_depth(ply + 1) - self.conspiracy.length_depth(ply);
        self.conspiracy.depth(&self.heads[..ply], side, beta) + longer
    }

    /// Computes the key of `m` (generation index `i`) and adds it to `head`, or
    /// returns the value of the early β-cut it makes.
    #[allow(clippy::too_many_arguments)]
    fn take_key(
        &mut self,
        m: G::Move,
        i: usize,
        (alpha, beta): (Value, Value),
        ply: usize,
        in_check: bool,
        head: &mut Head<G::Move>,
        keys: &mut KeysSoFar,
        total: usize,
    ) -> Option<Value> {
        keys.computed += 1;
        let (key, bound) = self.key_of(m, alpha, beta, ply);
        if self.options.early_cut && key >= beta && !in_check && ply >= 2 {
            // The node would search its best key first, at or above beta, and
            // that child would end at once: the mover's conspiracy depth at beta
            // already reaches its threshold with the keys so far (of which the
            // node keeps at most `width`, one of them searched). The node fails
            // high with a value that is a lower bound of what the full search
            // would give (the child's key, its value there), which the table
            // keeps as one.
            // Root children (ply 1) are left out, as the root keeps their values
            // as the next keys.
            let side = head.side;
            let others = head.count_above(beta.saturating_sub(self.conspiracy.delta));
            let here = self.conspiracy.sfunc(others.min(self.options.width - 1));
            if self.depth_above(side, beta, ply) + here >= self.conspiracy.thresholds[side.index()]
            {
                self.counters.early_cuts += 1;
                self.counters.keys_saved += (total - keys.computed) as u64;
                return Some(key);
            }
        }
        head.children.push(Child { mv: m, key, bound, searching: false });
        self.generated.push(i);
        Self::note_key(&mut keys.best, self.options.width, key);
        None
    }

    /// Keeps `best` the `width` best keys found so far, best first; the last is
    /// the `width`-th best once there are that many.
    fn note_key(best: &mut Vec<Value>, width: usize, key: Value) {
        let at = best.partition_point(|&k| k >= key);
        if at < width {
            best.insert(at, key);
            best.truncate(width);
        }
    }

    /// Forward pruning: the best `width` moves by key, and up to `captures` of the
    /// tactical moves after them.
    fn prune(&mut self, head: &mut Head<G::Move>, width: usize) {
        if head.children.len() <= width {
            return;
        }
        let mut extra = 0;
        let mut kept = 0;
        head.children.retain(|c| {
            kept += 1;
            if kept <= width {
                return true;
            }
            let tactical = extra < self.options.captures && self.game.is_tactical(c.mv);
            extra += usize::from(tactical);
            tactical
        });
    }

    /// The node's moves and keys from the position table: each stored move must
    /// be one of the position's legal moves (an entry of another position that
    /// shares the slot is refused), and is taken from the generator, so that the
    /// game's own move values are kept whatever the table's encoding drops. A key
    /// stored as a bound that the window `(alpha, beta)` needs exact is computed
    /// again (and the entry rewritten).
    fn read_table(
        &mut self,
        key: u64,
        head: &mut Head<G::Move>,
        (alpha, beta): (Value, Value),
        ply: usize,
    ) -> bool {
        self.counters.table_probes += 1;
        self.stored.clear();
        if self.tables.positions.probe(key, &mut self.stored).is_none() || self.stored.is_empty() {
            return false;
        }
        let mut moves = std::mem::take(&mut self.moves);
        moves.clear();
        self.game.legal_moves(&mut moves);
        let mut found = true;
        for s in &self.stored {
            let Some(&m) = moves.iter().find(|&&m| G::encode_move(m) == s.code) else {
                found = false;
                break;
            };
            let key = from_tt(s.key, ply as i32);
            head.children.push(Child { mv: m, key, bound: s.bound, searching: false });
        }
        self.moves = moves;
        if !found {
            head.children.clear();
            return false;
        }
        self.counters.table_hits += 1;
        let mut recomputed = false;
        for c in head.children.iter_mut() {
            if !c.bound.settles(c.key, alpha, beta) {
                // The value itself, as this window needs it: a bound kept in its
                // place would reach a leaf as if it were exact.
                (c.key, c.bound) = self.key_of(c.mv, alpha, beta, ply);
                recomputed = true;
            }
        }
        if recomputed {
            self.counters.keys_recomputed += 1;
        }
        if recomputed {
            // Stable: equal keys keep the order they were stored in.
            head.children.sort_by_key(|c| std::cmp::Reverse(c.key));
            self.write_table(key, head, None, ply);
        }
        true
    }

    /// Stores the moves and keys of `head`, the node at `ply`, and its value if
    /// it has one, for position `key`.
    fn write_table(
        &mut self,
        key: u64,
        head: &Head<G::Move>,
        value: Option<StoredValue>,
        ply: usize,
    ) {
        self.stored.clear();
        for c in &head.children {
            let code = G::encode_move(c.mv);
            if code == 0 {
                return; // the game keeps no moves in tables
            }
            self.stored.push(Stored { code, key: to_tt(c.key, ply as i32), bound: c.bound });
        }
        self.tables.positions.store(key, value, &self.stored);
    }

    /// Each side's budget at the node at `ply` with window `(alpha, beta)`: the
    /// side to move's threshold less its conspiracy depth at β, the opponent's
    /// less its depth at −α (see [`super::table`]).
    fn budgets(&self, alpha: Value, beta: Value, ply: usize) -> [i32; 2] {
        let side = self.game.side_to_move();
        let heads = &self.heads[..ply];
        let left = |s: Side, v: Value| {
            self.conspiracy.thresholds[s.index()] as i32 - self.conspiracy.depth(heads, s, v) as i32
        };
        [left(side, beta), left(side.flip(), alpha.saturating_neg())]
    }

    /// The value of the node at `ply` as the table stores it: `value`, found with
    /// window `(alpha, beta)` and `budgets`.
    fn stored_value(
        value: Value,
        (alpha, beta): (Value, Value),
        budgets: [i32; 2],
        ply: usize,
    ) -> StoredValue {
        StoredValue {
            value: to_tt(value, ply as i32),
            bound: Bound::of(value, alpha, beta, true),
            budgets,
        }
    }

    /// The ABC node at `ply`, reached by the move being searched in
    /// `heads[ply - 1]`, with window `(alpha, beta)`; fail-soft (KFEnd's article
    /// writes it fail-hard): the value of a leaf is its key, wherever it lies,
    /// and an interior node's is the best of its moves', so that the table
    /// keeps each refuted move with the bound its search proved.
    fn node(&mut self, alpha: Value, beta: Value, ply: usize) -> Value {
        // Step 1. Count the node; give up when told to stop.
        self.ctx.count_node();
        self.counters.nodes += 1;
        if self.ctx.stopped() {
            return DRAW;
        }
        let ply_v = ply as i32;
        self.seldepth = self.seldepth.max(ply_v);
        self.plies.clear_line(ply);

        let parent = &self.heads[ply - 1];
        let (mover, searched) = (parent.side, parent.children.iter().find(|c| c.searching));
        let (key, m) = searched.map_or((-INFINITE, G::Move::default()), |c| (c.key, c.mv));
        if self.trace.is_some() {
            let how = self.conspiracy.explain(&self.heads[..ply], mover, -beta, -alpha, key);
            let name = if self.passing[ply - 1] { "pass".to_string() } else { m.to_string() };
            let line = format!(
                "{name} by {mover:?}, key {key}, window ({}, {}): {how}",
                shown(alpha),
                shown(beta)
            );
            self.note(ply, || line);
        }

        // Step 2. The end of the game, a repetition, the ply limit.
        if let Some(v) = self.end_value(ply) {
            self.counters.game_ends += 1;
            self.note(ply + 1, || format!("end of the game: {v}"));
            return v;
        }
        if ply_v >= MAX_PLY - 1 {
            return self.game.evaluate();
        }

        // Step 3. The conspiracy-depth horizon: the parent's side searched this
        // move with window (-beta, -alpha) and key `key`.
        if self.conspiracy.terminates(&self.heads[..ply], mover, -beta, -alpha, key) {
            self.count_leaf(ply, mover, key);
            let v = -key;
            self.note(ply + 1, || format!("leaf: {v}"));
            return v;
        }

        // Step 4. The table of bounds: a value a search with no smaller budgets
        // found here, where its bound settles the window. Not at the root's
        // children, whose lines the root reports.
        let position = self.game.key();
        // Only the table reads them.
        let budgets =
            if self.options.position_table { self.budgets(alpha, beta, ply) } else { [0; 2] };
        if self.options.position_table && ply >= 2 {
            if let Some(stored) = self.tables.positions.probe_value(position) {
                let v = from_tt(stored.value, ply_v);
                let found = StoredValue { value: v, ..stored };
                if found.cuts(budgets, alpha, beta) {
                    self.counters.table_cuts += 1;
                    self.note(ply + 1, || format!("table cut: {v} {:?}", stored.bound));
                    return v;
                }
            }
        }

        // Step 5. The pass (`ABC_NullMove`), where it holds β on its own.
        if let Some(v) = self.null_move_cut(beta, ply) {
            self.keep_value(position, v, (alpha, beta), budgets, ply);
            return v;
        }

        // Step 6. The moves and their keys (or the early β-cut).
        let expanded = self.expand(alpha, beta, ply);
        if let Expanded::Cut(v) = expanded {
            self.note(ply + 1, || format!("early beta-cut: a key of {v} >= beta {}", shown(beta)));
            self.keep_value(position, v, (alpha, beta), budgets, ply);
            return v;
        }
        if self.ctx.stopped() {
            return DRAW;
        }
        if self.heads[ply].children.is_empty() {
            return self.game.no_moves().value(ply_v);
        }
        if self.trace.is_some() {
            let keys = Self::keys_text(&self.heads[ply]);
            self.note(ply + 1, || format!("keys {keys}"));
        }

        // Step 7. The moves in key order, alpha-beta, fail-soft: a node that
        // fails low returns the best of its moves' bounds, so each refuted move
        // keeps a key of its own.
        let mut best = -INFINITE;
        let mut floor = alpha;
        let mut searched = std::mem::take(&mut self.searched[ply]);
        searched.clear();
        for i in 0..self.heads[ply].children.len() {
            let m = self.heads[ply].children[i].mv;
            self.heads[ply].children[i].searching = true;
            self.game.make_move(m);
            let v = -self.node(-beta, -floor, ply + 1);
            self.game.unmake_move(m);
            self.heads[ply].children[i].searching = false;
            if self.ctx.stopped() {
                self.searched[ply] = searched;
                return DRAW;
            }
            searched.push((v, Bound::of(v, floor, beta, true)));
            best = best.max(v);
            if v > floor {
                floor = v;
                self.plies.extend_line(ply, m);
            }
            if best >= beta {
                let cut = self.heads[ply].children.len() - i - 1;
                if cut > 0 {
                    self.note(ply + 1, || {
                        format!("beta cut: {best} >= {}, {cut} not searched", shown(beta))
                    });
                }
                break;
            }
        }
        if self.options.position_table {
            let value = Self::stored_value(best, (alpha, beta), budgets, ply);
            self.keep_searched_keys(&searched, ply, position, value);
        }
        self.searched[ply] = searched;
        self.note(ply + 1, || format!("value {best}"));
        best
    }

    /// Stores the value `value` of the node at `ply` (position `key`, window
    /// `window`, budgets `budgets`) that ended before searching its moves,
    /// keeping the moves and keys stored for it.
    fn keep_value(
        &mut self,
        key: u64,
        value: Value,
        window: (Value, Value),
        budgets: [i32; 2],
        ply: usize,
    ) {
        if self.options.position_table && !self.ctx.stopped() {
            let stored = Self::stored_value(value, window, budgets, ply);
            self.tables.positions.store_value(key, stored);
        }
    }

    /// Rewrites the position table's entry of the node at `ply` (position
    /// `key`) with its value and, under `ABC_SearchedKeys`, the values its
    /// search gave the moves it searched (`searched[i]` for the `i`-th child,
    /// with what each is in the window it had), so that the next iteration
    /// orders and counts them by what the search found: an exact value replaces
    /// the key, a bound replaces it only where the key lies beyond it (a move
    /// the search refuted drops to what it proved, and one that held keeps its
    /// higher estimate).
    fn keep_searched_keys(
        &mut self,
        searched: &[(Value, Bound)],
        ply: usize,
        key: u64,
        value: StoredValue,
    ) {
        let mut head = std::mem::replace(&mut self.heads[ply], Head::new(Side::First));
        if self.options.searched_keys {
            for (c, &found) in head.children.iter_mut().zip(searched) {
                (c.key, c.bound) = refined((c.key, c.bound), found);
            }
            // Stable: equal keys keep their order.
            head.children.sort_by_key(|c| std::cmp::Reverse(c.key));
        }
        self.write_table(key, &head, Some(value), ply);
        self.heads[ply] = head;
    }

    /// The null move in conspiracy terms (`ABC_NullMove` R above 0): the node
    /// at `ply`, not in check, not after a pass, not where the opponent could
    /// end the game by a rule alone (a declaration), whose static value is at or
    /// above a β that is not a mate value, passes. The pass is a child like any
    /// other: its key is the quiescence value after it (from this node's side,
    /// so the opponent's captures count), and its head adds R to both sides'
    /// conspiracy depths, so that its lines end sooner. Where its search with
    /// the null window at β holds β, the node fails high with that value (β
    /// for a mate) without keying its moves; `None` otherwise. It trusts that
    /// a pass is no better than the best move, as in shogi, where drops leave
    /// nearly always a move that helps (games that allow no pass say so by
    /// [`Game::null_move_allowed`]).
    fn null_move_cut(&mut self, beta: Value, ply: usize) -> Option<Value> {
        let reduction = self.options.null_move;
        if reduction == 0
            || self.passing[ply - 1]
            || beta.abs() >= MATE_IN_MAX_PLY
            || self.game.in_check()
            || !self.game.null_move_allowed()
            || self.game.opponent_threatens_to_end()
            || self.game.evaluate() < beta
        {
            return None;
        }
        self.counters.null_tries += 1;
        let side = self.game.side_to_move();
        self.game.make_null_move();
        let key = -qsearch::<G, Self, false>(self, -beta, -beta + 1, ply + 1, 0);
        if key < beta || self.ctx.stopped() {
            self.game.unmake_null_move();
            return None;
        }
        let mut head = std::mem::replace(&mut self.heads[ply], Head::new(side));
        head.side = side;
        head.children.clear();
        head.children.push(Child {
            mv: G::Move::default(),
            key,
            bound: Bound::Lower,
            searching: true,
        });
        head.penalty = reduction;
        self.heads[ply] = head;
        self.passing[ply] = true;
        self.note(ply + 1, || format!("passes first (null move), its key {key}"));
        let v = -self.node(-beta, -beta + 1, ply + 1);
        self.passing[ply] = false;
        self.heads[ply].penalty = 0;
        self.game.unmake_null_move();
        self.plies.clear_line(ply);
        if self.ctx.stopped() {
            return Some(DRAW);
        }
        if v < beta {
            return None;
        }
        self.counters.null_cuts += 1;
        self.note(ply + 1, || format!("null-move cut: {v} >= beta {}", shown(beta)));
        Some(if v >= MATE_IN_MAX_PLY { beta } else { v })
    }

    /// Adds a line to the trace, indented by `ply` (made only when a trace is kept).
    #[inline]
    fn note(&mut self, ply: usize, line: impl FnOnce() -> String) {
        if let Some(trace) = self.trace.as_mut() {
            trace.push(format!("{}{}", "  ".repeat(ply), line()));
        }
    }

    fn keys_text(head: &Head<G::Move>) -> String {
        let keys: Vec<String> =
            head.children.iter().map(|c| format!("{} {}", c.mv, c.key)).collect();
        keys.join(", ")
    }

    /// Counts a leaf at `ply` whose key is `key` for `mover`, as forced or open.
    fn count_leaf(&mut self, ply: usize, mover: Side, key: Value) {
        let delta = self.conspiracy.delta;
        let alternatives: usize = self.heads[..ply]
            .iter()
            .map(|h| {
                let value = if h.side == mover { key } else { key.saturating_neg() };
                h.count_above(value.saturating_sub(delta))
            })
            .sum();
        let c = &mut self.counters;
        c.leaves += 1;
        c.leaf_plies += ply as u64;
        let openness = (alternatives / ply.max(1)).min(3);
        c.leaves_by_openness[openness] += 1;
        c.leaf_plies_by_openness[openness] += ply as u64;
    }

    /// This iteration's termination test: both sides' thresholds are the
    /// iteration, Δ on the game's scale.
    fn conspiracy_for(&self, iteration: i32) -> Conspiracy {
        let threshold = iteration.max(0) as usize;
        Conspiracy {
            delta: units::<G>(self.options.delta),
            cap: self.options.sfunc_cap,
            thresholds: [threshold; 2],
            plies_per_depth: self.options.plies_per_depth,
        }
    }
}

impl<'s, G: Game> SearchThread<'s, G> for AbcThread<'s, G> {
    fn context(&mut self) -> &mut ThreadContext<'s> {
        &mut self.ctx
    }

    /// The root: every move of line `pv_idx` on, keyed by the previous
    /// iteration's value (the quiescence value at first), searched in key order
    /// with the window reaching `root_margin` below the best so far.
    fn search_line(
        &mut self,
        roots: &mut RootMoves<G::Move>,
        iteration: i32,
        _on_bound: Option<BoundReport<'_, G::Move>>,
    ) {
        let root_side = self.game.side_to_move();
        self.conspiracy = self.conspiracy_for(iteration);
        self.seldepth = 0;
        let pv_idx = roots.pv_idx;
        let mut head = Head::new(root_side);
        for i in pv_idx..roots.moves.len() {
            let rm = &roots.moves[i];
            let (m, previous) = (rm.mv, rm.previous_score);
            let key = if previous != -INFINITE {
                previous
            } else {
                self.key_of(m, -INFINITE, INFINITE, 0).0
            };
            head.children.push(Child { mv: m, key, bound: Bound::Exact, searching: false });
        }
        head.children.sort_by_key(|c| std::cmp::Reverse(c.key));
        if self.trace.is_some() {
            let c = &self.conspiracy;
            let line = format!(
                "iteration {iteration}: thresholds First {}, Second {}; delta {}, SFunc cap {}; root keys {}",
                c.thresholds[0],
                c.thresholds[1],
                c.delta,
                c.cap,
                Self::keys_text(&head)
            );
            self.note(0, || line);
        }
        self.heads[0] = head;

        let margin = units::<G>(self.options.root_margin);
        let mut best = -INFINITE;
        // The window's upper end: open, or the last iteration's best value and
        // the aspiration above it until a move fails high.
        let last_best = roots.moves[pv_idx].previous_score;
        let mut upper = if self.options.root_aspiration > 0 && last_best.abs() < MATE_IN_MAX_PLY {
            last_best + units::<G>(self.options.root_aspiration)
        } else {
            INFINITE
        };
        for i in 0..self.heads[0].children.len() {
            let m = self.heads[0].children[i].mv;
            self.heads[0].children[i].searching = true;
            self.game.make_move(m);
            self.plies.clear_line(1);
            let alpha = (best - margin).max(-INFINITE);
            let mut v = -self.node(-upper, -alpha, 1);
            let mut proven_above = None;
            if v >= upper && !self.ctx.stopped() {
                proven_above = Some(v);
                upper = INFINITE;
                self.plies.clear_line(1);
                v = -self.node(-INFINITE, -alpha, 1);
            }
            self.game.unmake_move(m);
            self.heads[0].children[i].searching = false;
            if self.ctx.stopped() {
                // A move that failed high is at least what it proved, though its
                // search again was cut short: it stays, as a lower bound.
                if let Some(at_least) = proven_above {
                    if let Some(rm) = roots.moves[pv_idx..].iter_mut().find(|r| r.mv == m) {
                        rm.score = at_least;
                        rm.bound = Some(Bound::Lower);
                        rm.pv.truncate(1);
                        if at_least > best && best != -INFINITE {
                            roots.best_move_changes += 1.0;
                        }
                    }
                }
                break;
            }
            let Some(rm) = roots.moves[pv_idx..].iter_mut().find(|r| r.mv == m) else {
                continue;
            };
            // Every value is kept, exact or not: the next iteration's keys.
            rm.score = v;
            rm.bound = (v <= alpha).then_some(Bound::Upper);
            rm.seldepth = self.seldepth;
            rm.pv.clear();
            rm.pv.push(m);
            rm.pv.extend_from_slice(self.plies.line(1));
            if v > best {
                if best != -INFINITE {
                    roots.best_move_changes += 1.0;
                }
                best = v;
            }
        }
        roots.moves[pv_idx..].sort_by_key(|r| std::cmp::Reverse(r.score));
    }

    fn counters(&self) -> Vec<(&'static str, u64)> {
        let c = &self.counters;
        vec![
            ("abc_nodes", c.nodes),
            ("game_ends", c.game_ends),
            ("leaves", c.leaves),
            ("leaf_plies", c.leaf_plies),
            ("key_searches", c.key_searches),
            ("table_probes", c.table_probes),
            ("table_hits", c.table_hits),
            ("table_cuts", c.table_cuts),
            ("keys_recomputed", c.keys_recomputed),
            ("early_cuts", c.early_cuts),
            ("keys_saved", c.keys_saved),
            ("keys_bounded", c.keys_bounded),
            ("leaves_open0", c.leaves_by_openness[0]),
            ("leaf_plies_open0", c.leaf_plies_by_openness[0]),
            ("leaves_open1", c.leaves_by_openness[1]),
            ("leaf_plies_open1", c.leaf_plies_by_openness[1]),
            ("leaves_open2", c.leaves_by_openness[2]),
            ("leaf_plies_open2", c.leaf_plies_by_openness[2]),
            ("leaves_open3", c.leaves_by_openness[3]),
            ("leaf_plies_open3", c.leaf_plies_by_openness[3]),
            ("static_values", c.static_values),
            ("null_tries", c.null_tries),
            ("null_cuts", c.null_cuts),
        ]
    }
}

impl<G: Game> QsHost<G> for AbcThread<'_, G> {
    #[inline(always)]
    fn game(&self) -> &G {
        &self.game
    }

    #[inline(always)]
    fn game_mut(&mut self) -> &mut G {
        &mut self.game
    }

    #[inline(always)]
    fn enter_node(&mut self, ply: usize) {
        self.ctx.count_node();
        self.seldepth = self.seldepth.max(ply as i32);
    }

    #[inline(always)]
    fn stopped(&self) -> bool {
        self.ctx.stopped()
    }

    #[inline(always)]
    fn table(&self) -> &TranspositionTable {
        &self.tables.quiescence
    }

    #[inline(always)]
    fn quiet_stats(&self) -> QuietStats<'_> {
        QuietStats { history: &self.history, continuation: &self.continuation, rows: [None; 2] }
    }

    #[inline(always)]
    fn plies(&mut self) -> &mut PlyStack<G::Move> {
        &mut self.plies
    }

    #[inline(always)]
    fn capture_margin(&self) -> Value {
        units::<G>(self.options.qs_margin)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_outside_the_window_are_bounds() {
        assert_eq!(Bound::of(50, -100, 100, true), Bound::Exact);
        assert_eq!(Bound::of(100, -100, 100, true), Bound::Lower);
        assert_eq!(Bound::of(3227, -100, 100, true), Bound::Lower);
        assert_eq!(Bound::of(-100, -100, 100, true), Bound::Upper);
    }

    /// A searched value refines a key: exact, it replaces it; a bound the key
    /// contradicts replaces it; a bound the key agrees with leaves it.
    #[test]
    fn searched_values_refine_keys() {
        let q = (120, Bound::Exact);
        assert_eq!(refined(q, (-40, Bound::Exact)), (-40, Bound::Exact));
        assert_eq!(refined(q, (300, Bound::Exact)), (300, Bound::Exact));
        // Refuted: at most 50 where the quiescence value said 120.
        assert_eq!(refined(q, (50, Bound::Upper)), (50, Bound::Upper));
        assert_eq!(refined(q, (200, Bound::Upper)), q);
        // Held: at least 80, and 120 is the better estimate; at least 400 lifts it.
        assert_eq!(refined(q, (80, Bound::Lower)), q);
        assert_eq!(refined(q, (400, Bound::Lower)), (400, Bound::Lower));
        // A key that was a bound already.
        assert_eq!(refined((500, Bound::Lower), (100, Bound::Upper)), (100, Bound::Upper));
    }

    /// A key kept from a node with another window is used only where its bound
    /// decides the same as the exact value would.
    #[test]
    fn a_kept_bound_serves_only_windows_it_settles() {
        // Computed with window (-100, 100): the key 3227 means "at least 100".
        assert!(Bound::Lower.settles(3227, -100, 100));
        assert!(Bound::Lower.settles(3227, -500, 50));
        // A window reaching above 100 needs the value itself.
        assert!(!Bound::Lower.settles(3227, 0, 4000));
        assert!(!Bound::Lower.settles(150, 100, 200));
        // An upper bound of -300 serves windows whose alpha is at least -300.
        assert!(Bound::Upper.settles(-300, -300, 0));
        assert!(!Bound::Upper.settles(-300, -400, 0));
        assert!(Bound::Exact.settles(7, 100, 200));
    }
}
