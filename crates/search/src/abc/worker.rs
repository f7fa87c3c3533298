//! One ABC thread: the line's heads, the node search, the keys of a node's moves
//! and the root.

use super::conspiracy::{Child, Conspiracy, Head};
use super::table::Stored;
use super::{AbcOptions, AbcTables};
use crate::engine::{BoundReport, RootMoves, SearchThread, ThreadContext};
use crate::game::{rules_end, units, Game, Side};
use crate::history::{ContinuationHistory, History, Killers, QuietStats};
use crate::plies::PlyStack;
use crate::pvs::Worker as PvsWorker;
use crate::qsearch::{qsearch, QsHost, REPETITION_PLIES};
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

/// Whether a key `key` that is `bound` serves a node of window `(alpha, beta)`
/// as if it were exact: a lower bound at or above beta, an upper bound at or
/// below alpha, say all the node's search needs of it.
fn settles(key: Value, bound: Bound, alpha: Value, beta: Value) -> bool {
    match bound {
        Bound::Exact => true,
        Bound::Lower => key >= beta,
        Bound::Upper => key <= alpha,
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
    /// Only its tactical moves are keyed, best first: the first to be searched
    /// before the rest (`ABC_TacticalFirst`).
    Tactical,
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
    /// Nodes that searched their best tactical move before keying their quiet
    /// moves and failed high on it (`ABC_TacticalFirst`).
    pub tactical_cuts: u64,
    /// Early β-cuts made by the keys of quiet moves probed by their cheap
    /// estimate before the static values (`ABC_QuietProbes`).
    pub probe_cuts: u64,
    /// Nodes of the ABC tree (quiescence nodes not included).
    pub nodes: u64,
    /// Nodes that ended by conspiracy depth, and the sum of their plies.
    pub leaves: u64,
    pub leaf_plies: u64,
    /// Quiescence searches run for keys.
    pub key_searches: u64,
    /// Nodes whose moves and keys were asked of the position table, and found.
    pub table_probes: u64,
    pub table_hits: u64,
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
    /// Leaves valued by a PVS search (`ABC_LeafDepth` above 0).
    pub leaf_searches: u64,
    /// Killer moves a node kept beyond its width (`ABC_Killers`).
    pub killer_keys: u64,
    /// Keys that are a mate in one the move allows (`ABC_MateKeys`).
    pub mate_keys: u64,
    /// Quiet moves threatening mate in one, kept beyond the width
    /// (`ABC_MateThreats`).
    pub threats_kept: u64,
    /// Quiet moves pruned by their cheap estimate, without a static value
    /// (`ABC_QuietEstimates`).
    pub estimates_pruned: u64,
    /// Checking moves kept beyond the width (`ABC_Checks`).
    pub checks_kept: u64,
    /// Late moves searched with a penalty, and searched again in full as they
    /// beat the best so far (`ABC_LateMoves`).
    pub late_searches: u64,
    pub late_researches: u64,
    /// Nodes read from the table and keyed again, as the best pruned move's key
    /// had risen above the kept ones' (`ABC_Revive`).
    pub revivals: u64,
    /// Leaves tested for a threat against their side to move, and those that
    /// had one and were searched as nodes (`ABC_ThreatExtensions`).
    pub threat_tests: u64,
    pub threat_extensions: u64,
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
    /// Quiet moves that cut nodes off, per ply (`killers` option).
    killers: Killers<G::Move>,
    /// The quiet moves of the node being expanded that threaten mate in one
    /// (`mate_threats` option).
    threats: Vec<G::Move>,
    /// The kept moves of a node read from the table and keyed again
    /// (`revive` option), with the keys the table had for them.
    known: Vec<Child<G::Move>>,
    /// The PVS search that values leaves, when `leaf_depth` is above 0; it
    /// shares the quiescence table.
    leaf_search: Option<Box<PvsWorker<'s, G>>>,
    /// The threat extensions on the line down to each ply, that ply's included.
    extensions: Vec<usize>,
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
        let leaf_search = (options.leaf_depth > 0)
            .then(|| Box::new(PvsWorker::new(game.clone(), &tables.quiescence, ctx.detached())));
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
            killers: Killers::new(),
            threats: Vec::new(),
            known: Vec::new(),
            leaf_search,
            extensions: vec![0; plies],
            passing: vec![false; plies],
            trace: None,
        }
    }

    /// The moves the node at the thread's position keeps, with their keys (see
    /// [`super::kept_moves`]).
    pub(super) fn kept_moves(&mut self) -> Vec<(G::Move, Value)> {
        // Plies 1 and 2 may have widths of their own; 3 has `ABC_Width`.
        const PLY: usize = 3;
        let _ = self.expand(-INFINITE, INFINITE, PLY, false);
        self.heads[PLY].children.iter().map(|c| (c.mv, c.key)).collect()
    }

    /// The value of a game end or a repetition here, `ply` from the root.
    fn end_value(&self, ply: usize) -> Option<Value> {
        let ply_v = ply as i32;
        rules_end(&self.game, ply_v)
            .or_else(|| self.game.repetition(REPETITION_PLIES).map(|s| s.value(ply_v, G::UNIT)))
    }

    /// The key of `m` from this node (`ply`) with window `(alpha, beta)`: the
    /// quiescence value after it, from the mover's side (the end of the game or a
    /// repetition where the move makes one; with `mate_keys`, the mate in one it
    /// allows), and what it is: a bound where it lies outside the window (the
    /// quiescence search fails soft).
    fn key_of(&mut self, m: G::Move, alpha: Value, beta: Value, ply: usize) -> (Value, Bound) {
        self.game.make_move(m);
        let keyed = match self.end_value(ply + 1) {
            Some(v) => (-v, Bound::Exact),
            None if self.options.mate_keys
                && !self.game.in_check()
                && self.game.mate_in_one().is_some() =>
            {
                // The opponent mates on its move: the mover is mated two plies on.
                self.counters.mate_keys += 1;
                (mated_in(ply as i32 + 2), Bound::Exact)
            }
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
    /// search each. [`Expanded::Cut`] when the early β-cut ends the node; with
    /// `tactical_first` (and `ABC_TacticalFirst`), [`Expanded::Tactical`] when
    /// only the tactical moves are keyed, the best of them to be searched
    /// before the quiet moves' keys (see [`AbcThread::tactical_first`]).
    fn expand(&mut self, alpha: Value, beta: Value, ply: usize, tactical_first: bool) -> Expanded {
        let side = self.game.side_to_move();
        // The storage of the last node at this ply, for this one.
        let mut head = std::mem::replace(&mut self.heads[ply], Head::new(side));
        head.side = side;
        head.children.clear();
        head.pruned = None;
        head.penalty = 0;
        self.threats.clear();
        let key = self.game.key();
        if self.options.position_table && self.read_table(key, &mut head, (alpha, beta), ply) {
            if !self.revives(&head, ply) {
                self.heads[ply] = head;
                return Expanded::Full;
            }
            // Searching refuted kept moves below the best pruned one: the node's
            // moves are keyed again, the known ones with what the search found.
            self.counters.revivals += 1;
            self.known.clear();
            self.known.append(&mut head.children);
            head.pruned = None;
        } else {
            self.known.clear();
        }
        let mut moves = std::mem::take(&mut self.moves);
        moves.clear();
        self.game.legal_moves(&mut moves);
        let in_check = self.game.in_check();
        let (first, quiet) = self.split_for_keys(&moves, in_check, ply);
        let total = moves.len();
        let width = self.options.kept_at(ply);
        let mut keys = KeysSoFar { best: Vec::with_capacity(width + 1), computed: 0 };
        let known = self.take_known(&moves, &mut head, &mut keys, ply);
        let node = ((alpha, beta), ply, in_check);
        let mut cut = self.take_keys(&moves, &first, &known, node, &mut head, &mut keys);
        if cut.is_none()
            && !self.ctx.stopped()
            && tactical_first
            && self.options.tactical_first
            && !quiet.is_empty()
            && !in_check
            && self.tactical_first(&head, beta, ply)
        {
            head.children.sort_by_key(|c| std::cmp::Reverse(c.key));
            self.moves = moves;
            self.heads[ply] = head;
            return Expanded::Tactical;
        }
        let probed = if self.options.quiet_probes > 0
            && cut.is_none()
            && !self.ctx.stopped()
            && self.may_cut_early(beta, ply, in_check)
        {
            self.probes(&moves, &quiet, &known)
        } else {
            Vec::new()
        };
        if !probed.is_empty() {
            cut = self.take_keys(&moves, &probed, &[], node, &mut head, &mut keys);
            self.counters.probe_cuts += u64::from(cut.is_some());
        }
        if cut.is_none() && !self.ctx.stopped() && !quiet.is_empty() {
            // Quiet moves by their static value, which bounds their key from above
            // (the quiescence search can only add to it): once that is below the
            // `width`-th key found, neither the move nor any after it can be kept,
            // and their keys are not needed.
            // With `mate_threats`, a move threatening mate is keyed whatever its
            // bound, to be kept beyond the width.
            let ordered = self.bounded(&moves, &quiet, ply);
            for (n, &(i, bound, threat)) in ordered.iter().enumerate() {
                if threat {
                    self.threats.push(moves[i]);
                }
                if known.contains(&i) || probed.contains(&i) {
                    continue;
                }
                if keys.best.len() == width && bound < keys.best[width - 1] {
                    if !self.options.mate_threats {
                        self.counters.keys_bounded += (ordered.len() - n) as u64;
                        break;
                    }
                    if !threat {
                        self.counters.keys_bounded += 1;
                        continue;
                    }
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
            if self.add_killers(&mut head, (alpha, beta), ply) {
                head.children.sort_by_key(|c| std::cmp::Reverse(c.key));
            }
            if self.options.position_table {
                self.write_table(key, &head);
            }
        }
        self.heads[ply] = head;
        cut.map_or(Expanded::Full, Expanded::Cut)
    }

    /// Keys the moves `moves[i]` for `i` in `indices` (those in `known` left
    /// out) in order into `head`, at the node `(window, ply, in_check)`, until
    /// one makes the early β-cut (its value returned) or the search is told to
    /// stop.
    fn take_keys(
        &mut self,
        moves: &[G::Move],
        indices: &[usize],
        known: &[usize],
        (window, ply, in_check): ((Value, Value), usize, bool),
        head: &mut Head<G::Move>,
        keys: &mut KeysSoFar,
    ) -> Option<Value> {
        for &i in indices {
            if known.contains(&i) {
                continue;
            }
            let cut = self.take_key(moves[i], i, window, ply, in_check, head, keys, moves.len());
            if cut.is_some() || self.ctx.stopped() {
                return cut;
            }
        }
        None
    }

    /// Whether the node at `ply` (out of check), its tactical moves keyed into
    /// `head`, searches the best of them before keying its quiet moves
    /// (`ABC_TacticalFirst`): that key is at or above β, and at least SFunc's cap of the
    /// other keys are above β − Δ. The node's share of its side's conspiracy
    /// depth is then SFunc's most at every frontier value at or below β, the
    /// only ones its lines are counted at, so the child's search is the one the
    /// full node would make; where it fails high, the quiet moves' static
    /// values and keys are never needed.
    fn tactical_first(&self, head: &Head<G::Move>, beta: Value, ply: usize) -> bool {
        if ply < 2 || head.children.len() <= self.conspiracy.cap {
            return false;
        }
        let best = head.children.iter().map(|c| c.key).max().unwrap_or(-INFINITE);
        let floor = beta.saturating_sub(self.conspiracy.delta);
        best >= beta && head.count_above(floor) > self.conspiracy.cap
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
        let all = in_check || ply == 0 || moves.len() <= self.options.kept_at(ply);
        (0..moves.len()).partition(|&i| {
            let m = moves[i];
            all || self.game.is_tactical(m) || self.game.gives_check(m)
        })
    }

    /// The quiet moves `quiet` of `moves` with the upper bound of their keys, best
    /// first (ties in generation order): the static value after the move, or
    /// infinity where it bounds nothing (a check, the end of the game); and, with
    /// `mate_threats`, whether the move threatens mate in one.
    fn bounded(
        &mut self,
        moves: &[G::Move],
        quiet: &[usize],
        ply: usize,
    ) -> Vec<(usize, Value, bool)> {
        let threats = self.options.mate_threats;
        let estimated;
        let quiet = match self.options.quiet_estimates {
            n if n > 0 && quiet.len() > n => {
                estimated = self.by_estimate(moves, quiet, n);
                &estimated
            }
            _ => quiet,
        };
        self.counters.static_values += quiet.len() as u64;
        let mut ordered: Vec<(usize, Value, bool)> = quiet
            .iter()
            .map(|&i| {
                self.game.make_move(moves[i]);
                let bounded = !self.game.in_check() && self.end_value(ply + 1).is_none();
                let bound = if bounded { -self.game.evaluate() } else { INFINITE };
                let threat = threats && bounded && self.game.threatens_mate_in_one();
                self.game.unmake_move(moves[i]);
                (i, bound, threat)
            })
            .collect();
        ordered.sort_by_key(|&(i, bound, _)| (std::cmp::Reverse(bound), i));
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

    /// Whether a key at or above β could still make the early β-cut at the node
    /// at `ply` (out of check): the mover's conspiracy depth at β, with SFunc's
    /// most for the node, reaches its threshold.
    fn may_cut_early(&self, beta: Value, ply: usize, in_check: bool) -> bool {
        if !self.options.early_cut || ply < 2 || in_check {
            return false;
        }
        let side = self.game.side_to_move();
        self.depth_above(side, beta, ply) + self.conspiracy.cap
            >= self.conspiracy.thresholds[side.index()]
    }

    /// With `quiet_probes` at `n`: the best `n` quiet moves of `quiet` by the
    /// game's cheap estimate (ties in generation order), those with a key
    /// already (`known`) left out, to be keyed before the static values.
    fn probes(&mut self, moves: &[G::Move], quiet: &[usize], known: &[usize]) -> Vec<usize> {
        let n = self.options.quiet_probes;
        if n == 0 {
            return Vec::new();
        }
        let mut ranked: Vec<(Value, usize)> = quiet
            .iter()
            .filter(|i| !known.contains(i))
            .filter_map(|&i| self.game.quiet_estimate(moves[i]).map(|e| (e, i)))
            .collect();
        ranked.sort_by_key(|&(e, i)| (std::cmp::Reverse(e), i));
        ranked.into_iter().take(n).map(|(_, i)| i).collect()
    }

    /// With `quiet_estimates` at `n`: the quiet moves `quiet` of `moves` that
    /// get a static value, the best `n` by the game's cheap estimate (ties in
    /// generation order) and every move it cannot estimate; the rest are pruned
    /// unvalued (counted).
    fn by_estimate(&mut self, moves: &[G::Move], quiet: &[usize], n: usize) -> Vec<usize> {
        let mut kept = Vec::with_capacity(n + 4);
        let mut ranked: Vec<(Value, usize)> = Vec::with_capacity(quiet.len());
        for &i in quiet {
            match self.game.quiet_estimate(moves[i]) {
                Some(e) => ranked.push((e, i)),
                None => kept.push(i),
            }
        }
        ranked.sort_by_key(|&(e, i)| (std::cmp::Reverse(e), i));
        let cut = ranked.len().min(n);
        self.counters.estimates_pruned += (ranked.len() - cut) as u64;
        kept.extend(ranked[..cut].iter().map(|&(_, i)| i));
        kept
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
            // high with a smaller value than the full search would give, which no
            // ancestor takes: fail-hard nodes keep alpha over a child's fail-high.
            // Root children (ply 1) are left out, as the root keeps their values
            // as the next keys.
            let side = head.side;
            let others = head.count_above(beta.saturating_sub(self.conspiracy.delta));
            let here = self.conspiracy.sfunc(others.min(self.options.kept_at(ply) - 1));
            if self.depth_above(side, beta, ply) + here >= self.conspiracy.thresholds[side.index()]
            {
                self.counters.early_cuts += 1;
                self.counters.keys_saved += (total - keys.computed) as u64;
                return Some(key);
            }
        }
        head.children.push(Child { mv: m, key, bound, searching: false });
        self.generated.push(i);
        Self::note_key(&mut keys.best, self.options.kept_at(ply), key);
        None
    }

    /// With `revive`, whether the node read from the table is keyed again: the
    /// best move pruning left out has a key above the `width`-th kept one, which
    /// the search's values pushed down (out of check only: in check every move
    /// is kept).
    fn revives(&self, head: &Head<G::Move>, ply: usize) -> bool {
        let width = self.options.kept_at(ply);
        self.options.revive
            && head.children.len() >= width
            && head.pruned.is_some_and(|(_, pruned)| pruned > head.children[width - 1].key)
    }

    /// In a node keyed again (`revive`), takes the moves the table kept with
    /// the keys it had for them (the search's values), instead of new keys; their
    /// generation indices.
    fn take_known(
        &mut self,
        moves: &[G::Move],
        head: &mut Head<G::Move>,
        keys: &mut KeysSoFar,
        ply: usize,
    ) -> Vec<usize> {
        let mut taken = Vec::with_capacity(self.known.len());
        for known in &self.known {
            let Some(i) = moves.iter().position(|&m| m == known.mv) else {
                continue;
            };
            head.children.push(*known);
            self.generated.push(i);
            Self::note_key(&mut keys.best, self.options.kept_at(ply), known.key);
            taken.push(i);
        }
        taken
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

    /// With the `killers` option, adds to `head` the killer moves of `ply` that
    /// are legal here, quiet and not kept already, each with its key (with the
    /// node's window): the quiet move that refuted a sibling is searched here as
    /// well, whatever its rank by key. Their keys, low as a rule, count as
    /// alternatives only where they are close to the line's value. Whether any
    /// was added.
    fn add_killers(
        &mut self,
        head: &mut Head<G::Move>,
        (alpha, beta): (Value, Value),
        ply: usize,
    ) -> bool {
        if !self.options.killers || ply == 0 {
            return false;
        }
        let mut added = false;
        for k in self.killers.get(ply) {
            let fresh = k != G::Move::default() && head.children.iter().all(|c| c.mv != k);
            if !fresh || self.game.is_tactical(k) || !self.game.is_legal(k) {
                continue;
            }
            let (key, bound) = self.key_of(k, alpha, beta, ply);
            head.children.push(Child { mv: k, key, bound, searching: false });
            self.counters.killer_keys += 1;
            added = true;
        }
        added
    }

    /// Forward pruning: the best `width` moves by key, and up to `captures` of the
    /// tactical moves after them and `checks` of the checking moves (with
    /// `mate_threats`, and up to two quiet moves threatening mate in one).
    fn prune(&mut self, head: &mut Head<G::Move>, width: usize) {
        if head.children.len() <= width {
            return;
        }
        let mut extra = 0;
        let mut threats = 0;
        let mut checks = 0;
        let mut kept = 0;
        let mut pruned: Option<(G::Move, Value)> = None;
        head.children.retain(|c| {
            kept += 1;
            if kept <= width {
                return true;
            }
            let threat = threats < 2 && self.threats.contains(&c.mv);
            let tactical = extra < self.options.captures && self.game.is_tactical(c.mv);
            let check =
                !threat && !tactical && checks < self.options.checks && self.game.gives_check(c.mv);
            let keep = threat || tactical || check;
            extra += usize::from(tactical && !threat);
            threats += usize::from(threat);
            checks += usize::from(check);
            let counts = !keep
                && c.bound != Bound::Upper
                && (self.options.pruned_values || self.options.revive);
            if counts && pruned.is_none_or(|p| c.key > p.1) {
                pruned = Some((c.mv, c.key));
            }
            keep
        });
        head.pruned = pruned;
        self.counters.threats_kept += threats as u64;
        self.counters.checks_kept += checks as u64;
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
        if !self.tables.positions.probe(key, &mut self.stored) {
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
            if s.pruned {
                head.pruned = Some((m, s.key));
            } else {
                head.children.push(Child { mv: m, key: s.key, bound: s.bound, searching: false });
            }
        }
        self.moves = moves;
        if !found {
            head.children.clear();
            head.pruned = None;
            return false;
        }
        self.counters.table_hits += 1;
        let killers_added = self.add_killers(head, (alpha, beta), ply);
        let mut recomputed = false;
        for c in head.children.iter_mut() {
            if !settles(c.key, c.bound, alpha, beta) {
                // What the kept bound said still holds (a searched value's bound
                // knows more than the quiescence search).
                let computed = self.key_of(c.mv, alpha, beta, ply);
                (c.key, c.bound) = refined(computed, (c.key, c.bound));
                recomputed = true;
            }
        }
        if recomputed {
            self.counters.keys_recomputed += 1;
        }
        if recomputed || killers_added {
            // Stable: equal keys keep the order they were stored in.
            head.children.sort_by_key(|c| std::cmp::Reverse(c.key));
            self.write_table(key, head);
        }
        true
    }

    fn write_table(&mut self, key: u64, head: &Head<G::Move>) {
        self.stored.clear();
        for c in &head.children {
            let code = G::encode_move(c.mv);
            if code == 0 {
                return; // the game keeps no moves in tables
            }
            self.stored.push(Stored::kept(code, c.key, c.bound));
        }
        if let Some((m, key)) = head.pruned {
            // A full entry gives its last kept move's place (a tactical move
            // beyond the width) to the pruned one, which `revive` needs.
            self.stored.truncate(super::table::MAX_MOVES - 1);
            // Exact or a lower bound (`prune` passes over upper bounds): at least this.
            let bound = Bound::Lower;
            self.stored.push(Stored { code: G::encode_move(m), key, bound, pruned: true });
        }
        self.tables.positions.store(key, &self.stored);
    }

    /// The ABC node at `ply`, reached by the move being searched in
    /// `heads[ply - 1]`, with window `(alpha, beta)`; fail-hard as KFEnd's article
    /// writes it (the value of a leaf is its key, wherever it lies).
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
            self.note(ply + 1, || format!("end of the game: {v}"));
            return v;
        }
        if ply_v >= MAX_PLY - 1 {
            return self.game.evaluate();
        }

        // Step 3. The conspiracy-depth horizon: the parent's side searched this
        // move with window (-beta, -alpha) and key `key`.
        self.extensions[ply] = self.extensions[ply - 1];
        if self.conspiracy.terminates(&self.heads[..ply], mover, -beta, -alpha, key)
            && !self.threatened(key, alpha, ply)
        {
            self.count_leaf(ply, mover, key);
            let v = self.leaf_value(alpha, beta, ply).unwrap_or(-key);
            self.note(ply + 1, || format!("leaf: {v}"));
            return v;
        }

        // Step 4. The pass (`ABC_NullMove`), where it holds β on its own.
        if let Some(v) = self.null_move_cut(beta, ply) {
            return v;
        }

        // Step 5. The moves and their keys (or the early β-cut); with
        // `tactical_first`, perhaps the best tactical move searched before the
        // quiet moves are keyed.
        let mut done = None;
        let mut expanded = self.expand(alpha, beta, ply, true);
        if let Expanded::Tactical = expanded {
            let m = self.heads[ply].children[0].mv;
            self.heads[ply].children[0].searching = true;
            self.game.make_move(m);
            let v = -self.node(-beta, -alpha, ply + 1);
            self.game.unmake_move(m);
            self.heads[ply].children[0].searching = false;
            if self.ctx.stopped() {
                return DRAW;
            }
            if v >= beta {
                self.counters.tactical_cuts += 1;
                self.plies.extend_line(ply, m);
                self.note(ply + 1, || {
                    format!("tactical move {m} first: {v} >= beta {}", shown(beta))
                });
                return v;
            }
            done = Some((m, v));
            expanded = self.expand(alpha, beta, ply, false);
        }
        if let Expanded::Cut(v) = expanded {
            self.note(ply + 1, || format!("early beta-cut: a key of {v} >= beta {}", shown(beta)));
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

        // Step 6. The moves in key order, alpha-beta.
        self.killers.clear_ply(ply + 1);
        let mut best = alpha;
        let mut searched = std::mem::take(&mut self.searched[ply]);
        searched.clear();
        let in_check = self.game.in_check();
        for i in 0..self.heads[ply].children.len() {
            let m = self.heads[ply].children[i].mv;
            self.heads[ply].children[i].searching = true;
            let penalty = if in_check { 0 } else { self.late_penalty(i, m, ply) };
            self.game.make_move(m);
            let v = if let Some((_, v)) = done.filter(|&(d, _)| d == m) {
                // Searched before the quiet moves were keyed, with this node's
                // window or a wider one; its line is gone where another move
                // was searched since.
                if i > 0 {
                    self.plies.clear_line(ply + 1);
                }
                v
            } else if penalty > 0 {
                self.counters.late_searches += 1;
                self.heads[ply].penalty = penalty;
                let v = -self.node(-beta, -best, ply + 1);
                self.heads[ply].penalty = 0;
                if v > best && !self.ctx.stopped() {
                    // The late move beat the best so far: searched again in full.
                    self.counters.late_researches += 1;
                    -self.node(-beta, -best, ply + 1)
                } else {
                    v
                }
            } else if self.options.scout && i > 0 && best + 1 < beta {
                // A null window first: whether the move beats the best so far;
                // the full window again only where it does.
                let v = -self.node(-best - 1, -best, ply + 1);
                if v > best && v < beta && !self.ctx.stopped() {
                    -self.node(-beta, -best, ply + 1)
                } else {
                    v
                }
            } else {
                -self.node(-beta, -best, ply + 1)
            };
            self.game.unmake_move(m);
            self.heads[ply].children[i].searching = false;
            if self.ctx.stopped() {
                self.searched[ply] = searched;
                return DRAW;
            }
            searched.push((v, Bound::of(v, best, beta, true)));
            if v > best {
                best = v;
                self.plies.extend_line(ply, m);
            }
            if best >= beta {
                if self.options.killers && !self.game.is_tactical(m) {
                    self.killers.update(ply, m);
                }
                let cut = self.heads[ply].children.len() - i - 1;
                if cut > 0 {
                    self.note(ply + 1, || {
                        format!("beta cut: {best} >= {}, {cut} not searched", shown(beta))
                    });
                }
                break;
            }
        }
        if let Some((m, key)) = self.heads[ply].pruned.filter(|_| self.options.pruned_values) {
            if key > best && best < beta {
                // The best move pruning left out, valued by its key.
                best = key.min(beta);
                self.plies.clear_line(ply + 1);
                self.plies.extend_line(ply, m);
            }
        }
        if self.options.searched_keys && self.options.position_table {
            self.keep_searched_keys(&searched, ply);
        }
        self.searched[ply] = searched;
        self.note(ply + 1, || format!("value {best}"));
        best
    }

    /// Rewrites the position table's entry of the node at `ply` with the values
    /// its search gave the moves it searched (`searched[i]` for the `i`-th child,
    /// with what each is in the window it had), so that the next iteration
    /// orders and counts them by what the search found: an exact value replaces
    /// the key, a bound replaces it only where the key lies beyond it (a move
    /// the search refuted drops to what it proved, and one that held keeps its
    /// higher estimate).
    fn keep_searched_keys(&mut self, searched: &[(Value, Bound)], ply: usize) {
        let mut head = std::mem::replace(&mut self.heads[ply], Head::new(Side::First));
        for (c, &found) in head.children.iter_mut().zip(searched) {
            (c.key, c.bound) = refined((c.key, c.bound), found);
        }
        // Stable: equal keys keep their order.
        head.children.sort_by_key(|c| std::cmp::Reverse(c.key));
        self.write_table(self.game.key(), &head);
        self.heads[ply] = head;
    }

    /// Whether the leaf at `ply`, reached by a move of key `key` (from the
    /// mover's side) into window `(alpha, beta)`, is searched as a node as its
    /// side to move is threatened (`ABC_ThreatExtensions`): were it to pass, the
    /// mover's captures would win at least `threat_margin` more than the static
    /// value, which the quiescence value behind the key stands pat on. Counts the
    /// extension in `extensions[ply]`. Never where the key already fails the
    /// node low, in check, or where the line has had its extensions.
    fn threatened(&mut self, key: Value, alpha: Value, ply: usize) -> bool {
        let limit = self.options.threat_extensions;
        if limit == 0
            || self.extensions[ply] >= limit
            || key >= alpha.saturating_neg()
            || key.abs() >= MATE_IN_MAX_PLY
            || !self.game.null_move_allowed()
        {
            return false;
        }
        self.counters.threat_tests += 1;
        // Against the static value, not the key: a pass also gives up the
        // captures the key counted on (a recapture), which is no threat.
        let stand = self.game.evaluate().saturating_neg();
        let bar = stand.saturating_add(units::<G>(self.options.threat_margin));
        self.game.make_null_move();
        let gain = qsearch::<G, Self, false>(self, bar - 1, bar, ply + 1, 0);
        self.game.unmake_null_move();
        if gain < bar || self.ctx.stopped() {
            return false;
        }
        self.counters.threat_extensions += 1;
        self.extensions[ply] += 1;
        self.note(ply + 1, || format!("threatened: {gain} >= {bar} after a pass, searched on"));
        true
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
        head.pruned = None;
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

    /// The conspiracy depth the `i`-th kept move `m` of a node not in check
    /// adds to both sides beyond SFunc: with `ABC_LateWidth`, `late_penalty`
    /// for a quiet move kept after the node's width; with `ABC_LateMoves`, none
    /// for the first `late_moves` and for tactical moves, then one more for
    /// every `late_moves` further, at most SFunc's cap.
    fn late_penalty(&self, i: usize, m: G::Move, ply: usize) -> usize {
        if self.options.late_width > 0
            && i >= self.options.width_at(ply)
            && !self.game.is_tactical(m)
        {
            return self.options.late_penalty;
        }
        let late = self.options.late_moves;
        if late == 0 || i < late || self.game.is_tactical(m) {
            return 0;
        }
        (1 + (i - late) / late).min(self.options.sfunc_cap)
    }

    /// The value of the leaf at `ply` by a PVS search of `leaf_depth` plies with
    /// the node's window (fail-soft), or `None` where leaves are their keys.
    fn leaf_value(&mut self, alpha: Value, beta: Value, ply: usize) -> Option<Value> {
        let pvs = self.leaf_search.as_mut()?;
        self.counters.leaf_searches += 1;
        let depth = self.options.leaf_depth;
        Some(pvs.search_for(&mut self.game, &mut self.ctx, (alpha, beta), depth, ply))
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

    /// This iteration's termination test: thresholds from the iteration and each
    /// side's offset, Δ on the game's scale.
    fn conspiracy_for(&self, iteration: i32, root_side: Side) -> Conspiracy {
        let threshold = |offset: i32| (iteration + offset).max(0) as usize;
        let mut thresholds = [0; 2];
        thresholds[root_side.index()] = threshold(self.options.own_offset);
        thresholds[root_side.flip().index()] = threshold(self.options.opponent_offset);
        Conspiracy {
            delta: units::<G>(self.options.delta),
            cap: self.options.sfunc_cap,
            thresholds,
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
        self.conspiracy = self.conspiracy_for(iteration, root_side);
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
        if self.options.root_width > 0 && !self.game.in_check() {
            self.threats.clear();
            self.prune(&mut head, self.options.root_width);
        }
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
            if v >= upper && !self.ctx.stopped() {
                upper = INFINITE;
                self.plies.clear_line(1);
                v = -self.node(-INFINITE, -alpha, 1);
            }
            self.game.unmake_move(m);
            self.heads[0].children[i].searching = false;
            if self.ctx.stopped() {
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
            ("leaves", c.leaves),
            ("leaf_plies", c.leaf_plies),
            ("key_searches", c.key_searches),
            ("table_probes", c.table_probes),
            ("table_hits", c.table_hits),
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
            ("leaf_searches", c.leaf_searches),
            ("killer_keys", c.killer_keys),
            ("mate_keys", c.mate_keys),
            ("threats_kept", c.threats_kept),
            ("estimates_pruned", c.estimates_pruned),
            ("checks_kept", c.checks_kept),
            ("revivals", c.revivals),
            ("static_values", c.static_values),
            ("probe_cuts", c.probe_cuts),
            ("tactical_cuts", c.tactical_cuts),
            ("late_searches", c.late_searches),
            ("late_researches", c.late_researches),
            ("threat_tests", c.threat_tests),
            ("threat_extensions", c.threat_extensions),
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
        assert!(settles(3227, Bound::Lower, -100, 100));
        assert!(settles(3227, Bound::Lower, -500, 50));
        // A window reaching above 100 needs the value itself.
        assert!(!settles(3227, Bound::Lower, 0, 4000));
        assert!(!settles(150, Bound::Lower, 100, 200));
        // An upper bound of -300 serves windows whose alpha is at least -300.
        assert!(settles(-300, Bound::Upper, -300, 0));
        assert!(!settles(-300, Bound::Upper, -400, 0));
        assert!(settles(7, Bound::Exact, 100, 200));
    }
}
