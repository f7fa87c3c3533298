//! The df-pn search proper (Nagai's MID with thresholds), with:
//! - a depth bound (`remaining` plies) so the same search can ask "mate within N?",
//!   which is how the shortest mate is found;
//! - GHI: a repetition of a position on the current path is a disproof (the
//!   attacker cannot win by repeating) that depends on the path. It carries the ply
//!   of the repeated ancestor upward and is stored as final only at that ancestor,
//!   where the cycle closes; below it nothing final is stored.
//! - double counting: WPNS, the largest child plus one per other open child
//!   instead of the sum (see `summarize`), and at defender nodes drops on one
//!   square (interpositions of different pieces) count as one child;
//! - initial proof numbers from the number of evasions (a child with none is a
//!   mate in one, found when the parent is expanded), and the 1 + ε threshold.

use crate::futile::is_futile_interposition;
use crate::hands::{attacker_node_ceiling, before_attacker_move, defender_node_floor};
use crate::pn::{add, one_plus_epsilon, Pn, INF};
use crate::tt::{Probe, Record, Table, ALWAYS, NO_PROOF};
use shogi::movegen::{generate_checks, generate_evasions};
use shogi::{Color, Hand, Move, MoveList, Position};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// The remaining depth of an unbounded search.
pub const UNBOUNDED: u16 = u16::MAX - 1;
/// How strongly the old line is favoured (see `Search::selection_pn`).
const OLD_LINE_SHIFT: u32 = 20;
/// `rep_ply` of a result that depends on no repetition.
const NO_REP: u32 = u32::MAX;

/// The result of searching a node.
#[derive(Clone, Copy, Debug)]
pub struct Outcome {
    pub pn: Pn,
    pub dn: Pn,
    /// Mate length when proven.
    pub proof_len: u16,
    /// When disproven: valid for any remaining depth below this.
    pub disproved_below: u16,
    /// When disproven through a repetition: the ply of the repeated ancestor.
    rep_ply: u32,
    /// When proven, the proof hand; when disproven, the disproof hand (see
    /// [`crate::hands`]).
    pub hand: Hand,
}

impl Outcome {
    fn proven(len: u16, hand: Hand) -> Outcome {
        Outcome { pn: 0, dn: INF, proof_len: len, disproved_below: 0, rep_ply: NO_REP, hand }
    }
    fn disproven(below: u16, rep_ply: u32, hand: Hand) -> Outcome {
        Outcome { pn: INF, dn: 0, proof_len: 0, disproved_below: below, rep_ply, hand }
    }
    pub fn is_proven(&self) -> bool {
        self.pn == 0
    }
    pub fn is_disproven(&self) -> bool {
        self.dn == 0
    }
}

/// One child of the node being searched, as the node last saw it.
#[derive(Clone, Copy, Debug)]
struct Child {
    mv: Move,
    pn: Pn,
    dn: Pn,
    proof_len: u16,
    disproved_below: u16,
    rep_ply: u32,
    /// Proof or disproof hand once decided, as after the move.
    hand: Hand,
    /// A futile interposition: its length does not count, and it is searched
    /// without depth bound.
    futile: bool,
    /// The shortest proof stored that is too long for the depth bound
    /// (`NO_PROOF` if none).
    longer: u16,
}

/// Keys are already random; hashing them again would only cost time.
#[derive(Default)]
pub struct KeyHasher(u64);
impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, _: &[u8]) {
        unreachable!("only u64 keys are hashed")
    }
    fn write_u64(&mut self, k: u64) {
        self.0 = k;
    }
}
pub type PathSet = HashMap<u64, u32, BuildHasherDefault<KeyHasher>>;

/// Which moves of one node a search may play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveFilter {
    Only(Move),
    Without(Move),
}

impl MoveFilter {
    fn keeps(self, mv: Move) -> bool {
        match self {
            MoveFilter::Only(m) => mv == m,
            MoveFilter::Without(m) => mv != m,
        }
    }
}

/// Why a search stopped early.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Abort {
    Time,
    Nodes,
    Stopped,
}

pub struct Search<'a> {
    pub tt: &'a mut Table,
    pub attacker: Color,
    pub nodes: u64,
    pub node_limit: u64,
    pub deadline: Option<Instant>,
    pub stop: Option<&'a AtomicBool>,
    pub abort: Option<Abort>,
    pub futile_rule: bool,
    /// Full keys of the positions on the current path, with their plies.
    pub path: PathSet,
    /// In bounded searches, go first for children whose stored proof is only too
    /// long for the bound (see `selection_pn`).
    pub favour_old_line: bool,
    /// At the node of this ply, the moves the filter does not keep count as
    /// refuted (see `shorten`).
    pub root_filter: Option<(u32, MoveFilter)>,
    /// Children of every node on the path, each node's slice on top of its parent's.
    children: Vec<Child>,
    /// Scratch for `expand`: the keys of the children being expanded.
    child_keys: Vec<ChildKey>,
}

/// The keys of a child position, computed once when its parent is expanded.
#[derive(Clone, Copy, Debug)]
struct ChildKey {
    key: u64,
    board_key: u64,
    hand: Hand,
}

impl<'a> Search<'a> {
    pub fn new(tt: &'a mut Table, attacker: Color) -> Search<'a> {
        Search {
            tt,
            attacker,
            nodes: 0,
            node_limit: u64::MAX,
            deadline: None,
            stop: None,
            abort: None,
            futile_rule: true,
            path: PathSet::default(),
            favour_old_line: false,
            root_filter: None,
            children: Vec::with_capacity(1 << 16),
            child_keys: Vec::with_capacity(1024),
        }
    }

    /// Every 16 nodes: the stop flag and the clock (a node can take a
    /// millisecond while the pages of a large, new table are first touched, more
    /// on a loaded machine); every 1,024 nodes the node limit too.
    fn check_limits(&mut self) {
        if self.nodes & 1023 == 0 && self.nodes >= self.node_limit {
            self.abort = Some(Abort::Nodes);
        } else if self.stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
            self.abort = Some(Abort::Stopped);
        } else if self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.abort = Some(Abort::Time);
        }
    }

    /// Searches `pos` (whose key is already on the path at `ply`) until it is
    /// proven or disproven within `remaining` plies, a threshold is reached, or
    /// a limit stops the search.
    pub fn mid(
        &mut self,
        pos: &mut Position,
        th_pn: Pn,
        th_dn: Pn,
        remaining: u16,
        ply: u32,
    ) -> Outcome {
        self.nodes += 1;
        if self.nodes & 15 == 0 {
            self.check_limits();
        }
        let or_node = pos.side_to_move() == self.attacker;
        if or_node && remaining == 0 {
            // No ply left to give mate (a bounded search while reading a line out).
            return Outcome::disproven(1, NO_REP, pos.hand(self.attacker));
        }
        let start_nodes = self.nodes;
        let base = self.children.len();
        self.expand(pos, or_node, remaining);
        if let Some((p, filter)) = self.root_filter {
            if p == ply {
                for c in self.children[base..].iter_mut().filter(|c| !filter.keeps(c.mv)) {
                    // Refuted at no depth: what the node concludes from it (and
                    // may store) claims only that there is no mate in 0 plies.
                    c.pn = INF;
                    c.dn = 0;
                    c.disproved_below = 0;
                }
            }
        }
        if self.children.len() == base {
            return if or_node {
                Outcome::disproven(ALWAYS, NO_REP, attacker_node_ceiling(pos, self.attacker))
            } else {
                Outcome::proven(0, defender_node_floor(pos, self.attacker))
            };
        }
        loop {
            let s = self.summarize(base, or_node);
            if s.pn == 0 || s.dn == 0 || s.pn >= th_pn || s.dn >= th_dn || self.abort.is_some() {
                break;
            }
            let best = base + s.best;
            let child = self.children[best];
            let (child_th_pn, child_th_dn) = if or_node {
                let mut th = th_pn.min(one_plus_epsilon(s.second));
                if self.is_favoured(&child) && th < INF {
                    // Back to the child's own scale (see `selection_pn`).
                    th = if th >= INF >> OLD_LINE_SHIFT { INF } else { th << OLD_LINE_SHIFT };
                }
                (th, th_dn - s.weak_slack)
            } else {
                (th_pn - s.weak_slack, th_dn.min(one_plus_epsilon(s.second)))
            };
            let child_remaining =
                if or_node || !child.futile { remaining.saturating_sub(1) } else { UNBOUNDED };
            pos.do_move(child.mv);
            self.path.insert(pos.key(), ply + 1);
            let r = self.mid(pos, child_th_pn, child_th_dn, child_remaining, ply + 1);
            self.path.remove(&pos.key());
            pos.undo_move(child.mv);
            let c = &mut self.children[best];
            c.pn = r.pn;
            c.dn = r.dn;
            c.proof_len = r.proof_len;
            c.disproved_below = r.disproved_below;
            c.rep_ply = r.rep_ply;
            c.hand = r.hand;
        }
        let outcome = self.conclude(pos, base, or_node, ply);
        self.children.truncate(base);
        let work = self.nodes - start_nodes + 1;
        if outcome.is_proven() {
            let record = Record::Proven { len: outcome.proof_len };
            self.tt.store(pos.board_key(), outcome.hand, record, work);
        } else if outcome.is_disproven() {
            if outcome.rep_ply == NO_REP {
                let record = Record::Disproven { below: outcome.disproved_below };
                self.tt.store(pos.board_key(), outcome.hand, record, work);
            }
        } else {
            let record = Record::Unknown { pn: outcome.pn, dn: outcome.dn };
            self.tt.store(pos.board_key(), pos.hand(self.attacker), record, work);
        }
        outcome
    }

    /// Generates the node's moves and pushes one `Child` per move, each with what
    /// the table (or a quick look at it) says. Stops early once the node is
    /// decided by a child.
    ///
    /// The children's table clusters are prefetched all at once first, so that
    /// their cache misses overlap instead of following one another.
    fn expand(&mut self, pos: &mut Position, or_node: bool, remaining: u16) {
        let mut list = MoveList::new();
        if or_node {
            generate_checks(pos, &mut list);
        } else {
            generate_evasions(pos, &mut list);
            // Drops last, grouped by square, so `summarize` can take each group's max.
            list.as_mut_slice().sort_unstable_by_key(|m| (m.is_drop(), m.to().index()));
        }
        let mut keys = std::mem::take(&mut self.child_keys);
        keys.clear();
        let attacker_hand = pos.hand(self.attacker);
        for &mv in list.iter() {
            let (board_key, hand_key, mover_hand) = pos.keys_after(mv);
            let hand = if or_node { mover_hand } else { attacker_hand };
            let k = ChildKey { key: board_key ^ hand_key, board_key, hand };
            self.tt.prefetch(k.board_key);
            keys.push(k);
        }
        let check_futile = !or_node && self.futile_rule && !pos.checkers().more_than_one();
        for (&mv, k) in list.iter().zip(keys.iter()) {
            let futile = check_futile && is_futile_interposition(pos, mv);
            let child_remaining =
                if or_node || !futile { remaining.saturating_sub(1) } else { UNBOUNDED };
            let child = self.child_state(pos, mv, k, !or_node, futile, child_remaining);
            self.children.push(child);
            if (or_node && child.pn == 0) || (!or_node && child.dn == 0) {
                break;
            }
        }
        self.child_keys = keys;
    }

    /// What is known of the child reached from `pos` by `mv` (keys in `k`) before
    /// searching it. The move is played only when the table has nothing to say
    /// about a defender child.
    fn child_state(
        &mut self,
        pos: &mut Position,
        mv: Move,
        k: &ChildKey,
        child_is_or: bool,
        futile: bool,
        remaining: u16,
    ) -> Child {
        let mut c = Child {
            mv,
            pn: 1,
            dn: 1,
            proof_len: 0,
            disproved_below: 0,
            rep_ply: NO_REP,
            hand: k.hand,
            futile,
            longer: NO_PROOF,
        };
        if let Some(&rep) = self.path.get(&k.key) {
            // Only this very hand repeats: the disproof hand is the hand itself.
            c.pn = INF;
            c.dn = 0;
            c.disproved_below = ALWAYS;
            c.rep_ply = rep;
            return c;
        }
        match self.tt.probe(k.board_key, k.hand, remaining) {
            Probe::Proven { len, hand } => {
                c.pn = 0;
                c.dn = INF;
                c.proof_len = len;
                c.hand = hand;
                return c;
            }
            Probe::Disproven { below, hand } => {
                c.pn = INF;
                c.dn = 0;
                c.disproved_below = below;
                c.hand = hand;
                return c;
            }
            Probe::Unknown { pn, dn, longer } => {
                c.pn = pn;
                c.dn = dn;
                c.longer = longer;
                if remaining > 0 {
                    return c;
                }
            }
            Probe::Missing => {}
        }
        if child_is_or {
            if remaining == 0 {
                // No plies left for the attacker: no mate within this bound.
                c.pn = INF;
                c.dn = 0;
                c.disproved_below = 1;
            }
            return c;
        }
        // A defender node: its number of evasions is the initial proof number, and
        // none means the move mates.
        pos.do_move(mv);
        let mut evasions = MoveList::new();
        generate_evasions(pos, &mut evasions);
        let mated = evasions.is_empty();
        if mated {
            c.hand = defender_node_floor(pos, self.attacker);
        }
        pos.undo_move(mv);
        if mated {
            c.pn = 0;
            c.dn = INF;
            c.proof_len = 0;
            self.tt.store(k.board_key, c.hand, Record::Proven { len: 0 }, 1);
        } else if remaining == 0 {
            c.pn = INF;
            c.dn = 0;
            c.disproved_below = 1;
        } else {
            c.pn = c.pn.max(evasions.len() as Pn);
        }
        c
    }

    /// The node's proof and disproof numbers from its children, the child to search
    /// next, and the runner-up's number for the 1 + ε threshold.
    ///
    /// The summed number (disproof at attacker nodes, proof at defender nodes) is
    /// WPNS (weak proof-number search): the largest child plus one for each other
    /// child still open, not the plain sum. Sums count subtrees shared through
    /// transpositions once per parent, and around cycles they feed on themselves
    /// until they saturate; the weak sum grows only additively. At defender nodes,
    /// drops on one square (interpositions of different pieces, whose subtrees are
    /// nearly the same once the piece is taken) count as one child, by their max.
    fn summarize(&self, base: usize, or_node: bool) -> Summary {
        let children = &self.children[base..];
        let mut s = Summary { pn: 0, dn: 0, best: 0, second: INF, weak_slack: 0 };
        // The weak sum: (largest, number of open children or groups).
        let mut largest: Pn = 0;
        let mut open: Pn = 0;
        if or_node {
            s.pn = INF;
            let mut best_key = (INF, 0);
            for (i, c) in children.iter().enumerate() {
                if c.dn > 0 {
                    largest = largest.max(c.dn);
                    open += 1;
                }
                // Ties go to the shorter old proof when the old line is favoured.
                let key = (self.selection_pn(c), if self.favour_old_line { c.longer } else { 0 });
                if key < best_key {
                    s.second = s.pn;
                    s.pn = key.0;
                    best_key = key;
                    s.best = i;
                } else if key.0 < s.second {
                    s.second = key.0;
                }
            }
        } else {
            s.dn = INF;
            let mut group_square = usize::MAX;
            let mut group_max: Pn = 0;
            for (i, c) in children.iter().enumerate() {
                if c.dn < s.dn {
                    s.second = s.dn;
                    s.dn = c.dn;
                    s.best = i;
                } else if c.dn < s.second {
                    s.second = c.dn;
                }
                let square = if c.mv.is_drop() { c.mv.to().index() } else { usize::MAX - 1 - i };
                if square != group_square {
                    if group_max > 0 {
                        largest = largest.max(group_max);
                        open += 1;
                    }
                    group_square = square;
                    group_max = 0;
                }
                group_max = group_max.max(c.pn);
            }
            if group_max > 0 {
                largest = largest.max(group_max);
                open += 1;
            }
        }
        let weak = if open == 0 { 0 } else { add(largest, open - 1) };
        s.weak_slack = weak - largest;
        if or_node {
            s.dn = weak;
        } else {
            s.pn = weak;
        }
        s
    }

    /// An open child of an attacker node whose number `selection_pn` scales down.
    #[inline(always)]
    fn is_favoured(&self, c: &Child) -> bool {
        self.favour_old_line && c.longer != NO_PROOF && c.pn > 0 && c.dn > 0
    }

    /// A child's proof number as its attacker-node parent compares it. When the
    /// old line is favoured, a child whose stored proof is only too long for the
    /// bound (the line of an earlier, longer mate) has its number scaled down by
    /// 2^`OLD_LINE_SHIFT`: a bounded search then follows the old line down to where
    /// it can be shortened instead of trying every other check on the way, each
    /// time the old line's proof number grows past theirs.
    #[inline(always)]
    fn selection_pn(&self, c: &Child) -> Pn {
        if self.is_favoured(c) {
            (c.pn >> OLD_LINE_SHIFT).max(1)
        } else {
            c.pn
        }
    }

    /// The node's outcome from its children once the loop has ended.
    fn conclude(&self, pos: &Position, base: usize, or_node: bool, ply: u32) -> Outcome {
        let children = &self.children[base..];
        let s = self.summarize(base, or_node);
        let mut outcome = if s.pn == 0 {
            if or_node {
                // The shortest proven child gives the length and the proof hand.
                let c = children
                    .iter()
                    .filter(|c| c.pn == 0)
                    .min_by_key(|c| c.proof_len)
                    .expect("a proven attacker node has a proven child");
                Outcome::proven(c.proof_len + 1, before_attacker_move(c.hand, c.mv))
            } else {
                let len = children
                    .iter()
                    .filter(|c| !c.futile)
                    .map(|c| c.proof_len + 1)
                    .max()
                    .unwrap_or(0);
                let hand = children
                    .iter()
                    .fold(defender_node_floor(pos, self.attacker), |h, c| h.max_each(c.hand));
                Outcome::proven(len, hand)
            }
        } else if s.dn == 0 {
            let disproved = children.iter().filter(|c| c.dn == 0);
            let deeper = |c: &Child| {
                if c.disproved_below == ALWAYS {
                    ALWAYS
                } else {
                    c.disproved_below.saturating_add(1).min(ALWAYS - 1)
                }
            };
            if or_node {
                let below = disproved.clone().map(deeper).min().unwrap_or(ALWAYS);
                let rep = disproved.clone().map(|c| c.rep_ply).min().unwrap_or(NO_REP);
                let hand = disproved.fold(attacker_node_ceiling(pos, self.attacker), |h, c| {
                    h.min_each(before_attacker_move(c.hand, c.mv))
                });
                Outcome::disproven(below, rep, hand)
            } else {
                // Prefer the refutation that depends on neither path nor depth.
                let c = disproved
                    .min_by_key(|c| (c.rep_ply != NO_REP, std::cmp::Reverse(c.disproved_below)))
                    .copied();
                match c {
                    Some(c) => Outcome::disproven(deeper(&c), c.rep_ply, c.hand),
                    None => Outcome::disproven(ALWAYS, NO_REP, pos.hand(self.attacker)),
                }
            }
        } else {
            Outcome {
                pn: s.pn,
                dn: s.dn,
                proof_len: 0,
                disproved_below: 0,
                rep_ply: NO_REP,
                hand: pos.hand(self.attacker),
            }
        };
        // The cycle closes here: the result no longer depends on the path above.
        if outcome.rep_ply != NO_REP && outcome.rep_ply >= ply {
            outcome.rep_ply = NO_REP;
        }
        outcome
    }
}

struct Summary {
    pn: Pn,
    dn: Pn,
    best: usize,
    /// The runner-up's proof number (or node) or disproof number (and node).
    second: Pn,
    /// The weak sum minus its largest term: the searched child may grow up to the
    /// threshold less this before the node's number reaches the threshold.
    weak_slack: Pn,
}
