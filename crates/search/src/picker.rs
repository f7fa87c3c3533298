//! The staged move picker: moves are produced in the order they are most likely to
//! cut, and generated only when the earlier stages did not cut already.
//!
//! Main search: hash move, good tactical moves (SEE ≥ 0, best victim first), the two
//! killers, quiet moves by history, bad tactical moves. In check: hash move, then all
//! evasions (tactical first). Quiescence: hash move if tactical, tactical moves by
//! victim (or all evasions in check).

use crate::game::Game;
use crate::history::QuietStats;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    TtMove,
    GenTactical,
    GoodTactical,
    Killer0,
    Killer1,
    GenQuiets,
    Quiets,
    BadTactical,
    EvasionTt,
    GenEvasions,
    Evasions,
    QsTt,
    QsGenTactical,
    QsTactical,
    Done,
}

/// Reusable storage, so that a node allocates nothing once the search is warm.
pub struct MoveBuffers<M> {
    moves: Vec<M>,
    scores: Vec<i32>,
    bad: Vec<M>,
    /// Sort keys and a copy of the moves for [`sort_by_score`].
    keys: Vec<u64>,
    scratch: Vec<M>,
    /// Sort keys of the quiet checks kept by [`MovePicker::quiet_checks_only`].
    kept: Vec<u64>,
    /// Whether each of the remaining quiet moves gives check.
    checks: Vec<bool>,
}

/// Empty, allocating nothing: what a node leaves behind while it holds its ply's
/// storage (`std::mem::take`), so that taking costs no allocation.
impl<M> Default for MoveBuffers<M> {
    fn default() -> Self {
        MoveBuffers {
            moves: Vec::new(),
            scores: Vec::new(),
            bad: Vec::new(),
            keys: Vec::new(),
            scratch: Vec::new(),
            kept: Vec::new(),
            checks: Vec::new(),
        }
    }
}

impl<M> MoveBuffers<M> {
    /// Storage sized for the moves of any position, made once per ply.
    pub fn warm() -> Self {
        MoveBuffers {
            moves: Vec::with_capacity(256),
            scores: Vec::with_capacity(256),
            bad: Vec::with_capacity(32),
            keys: Vec::with_capacity(256),
            scratch: Vec::with_capacity(256),
            kept: Vec::with_capacity(32),
            checks: Vec::with_capacity(256),
        }
    }
}

pub struct MovePicker<M> {
    stage: Stage,
    tt_move: M,
    killers: [M; 2],
    buf: MoveBuffers<M>,
    cur: usize,
    /// Whether the moves from `cur` on are in order (quiets are picked by selection
    /// first and sorted only when a node goes on to try many of them).
    sorted: bool,
    /// The search prunes every quiet move from here on but checks (and quiet pawn
    /// promotions): only those are still handed out, see [`Self::quiet_checks_only`].
    checks_only: bool,
    /// `checks_only` was asked for before the quiet moves were generated.
    checks_only_pending: bool,
    /// Quiet moves passed over for the caller since it last asked ([`Self::take_skipped`]).
    skipped: usize,
    /// Quiet moves passed over after the last kept check, counted on leaving the stage.
    skipped_tail: usize,
}

impl<M: Copy + Eq + Default> MovePicker<M> {
    pub fn main(tt_move: M, killers: [M; 2], in_check: bool, buf: MoveBuffers<M>) -> Self {
        MovePicker {
            stage: if in_check { Stage::EvasionTt } else { Stage::TtMove },
            tt_move,
            killers,
            buf,
            cur: 0,
            sorted: false,
            checks_only: false,
            checks_only_pending: false,
            skipped: 0,
            skipped_tail: 0,
        }
    }

    pub fn quiescence(tt_move: M, in_check: bool, buf: MoveBuffers<M>) -> Self {
        MovePicker {
            stage: if in_check { Stage::EvasionTt } else { Stage::QsTt },
            tt_move,
            killers: [M::default(); 2],
            buf,
            cur: 0,
            sorted: false,
            checks_only: false,
            checks_only_pending: false,
            skipped: 0,
            skipped_tail: 0,
        }
    }

    /// Gives the storage back for the next node at this ply.
    pub fn into_buffers(self) -> MoveBuffers<M> {
        self.buf
    }

    /// Called by a search that has just pruned a quiet move for a reason that holds
    /// for every later quiet move of the node too (late-move and futility pruning),
    /// so that only quiet moves it would still search come out: checks and quiet
    /// tactical moves. They come out in the order they would have anyway, and
    /// [`Self::take_skipped`] says how many moves were passed over before each, so
    /// the caller's move count, and with it the tree, stays what it was; the rest
    /// are neither sorted nor handed out one by one.
    pub fn quiet_checks_only<G: Game<Move = M>>(&mut self, game: &G) {
        if self.checks_only || self.checks_only_pending {
            return;
        }
        match self.stage {
            Stage::Quiets => self.keep_quiet_checks(game),
            Stage::Killer0 | Stage::Killer1 | Stage::GenQuiets => self.checks_only_pending = true,
            _ => {}
        }
    }

    /// How many moves the picker passed over, as the caller would have pruned them,
    /// since the last call.
    pub fn take_skipped(&mut self) -> usize {
        std::mem::take(&mut self.skipped)
    }

    /// Keeps the quiet moves from `cur` on that give check or are tactical, in their
    /// final order (descending score, ties by position, as `take_quiet` gives them),
    /// and stores with each how many dropped moves come before it.
    fn keep_quiet_checks<G: Game<Move = M>>(&mut self, game: &G) {
        self.checks_only = true;
        let b = &mut self.buf;
        let (cur, n) = (self.cur, b.moves.len());
        b.keys.clear();
        b.kept.clear();
        game.gives_check_each(&b.moves[cur..n], &mut b.checks);
        let quiets = b.moves[cur..n].iter().zip(&b.scores[cur..n]).zip(&b.checks);
        for (i, ((&m, &score), &check)) in (cur..).zip(quiets) {
            if m == self.tt_move || m == self.killers[0] || m == self.killers[1] {
                continue; // handed out already, never counted
            }
            let key = sort_key(score, i);
            if check || game.is_tactical(m) {
                b.kept.push(key);
            } else {
                b.keys.push(key);
            }
        }
        b.kept.sort_unstable_by(|a, c| c.cmp(a));
        b.scratch.clear();
        b.scratch.extend_from_slice(&b.moves[cur..n]);
        let mut before = 0;
        for (k, &key) in b.kept.iter().enumerate() {
            let skipped = b.keys.iter().filter(|&&s| s > key).count();
            b.moves[cur + k] = b.scratch[key_index(key) - cur];
            b.scores[cur + k] = (skipped - before) as i32;
            before = skipped;
        }
        self.skipped_tail = b.keys.len() - before;
        b.moves.truncate(cur + b.kept.len());
        b.scores.truncate(cur + b.kept.len());
        self.sorted = true;
    }

    fn reset(&mut self) {
        self.buf.moves.clear();
        self.buf.scores.clear();
        self.cur = 0;
    }

    /// Index of the best-scored remaining move, swapped to `cur` and taken.
    fn take_best(&mut self) -> Option<M> {
        let n = self.buf.moves.len();
        if self.cur >= n {
            return None;
        }
        let best = self.cur + first_best(&self.buf.scores[self.cur..n]);
        self.buf.moves.swap(self.cur, best);
        self.buf.scores.swap(self.cur, best);
        let m = self.buf.moves[self.cur];
        self.cur += 1;
        Some(m)
    }

    /// Like `take_best`, but the moves left keep their order (the first of equal
    /// scores is taken), so the result matches a stable sort.
    fn take_best_stable(&mut self) -> Option<M> {
        let n = self.buf.moves.len();
        if self.cur >= n {
            return None;
        }
        let best = self.cur + first_best(&self.buf.scores[self.cur..n]);
        let m = self.buf.moves[best];
        let s = self.buf.scores[best];
        self.buf.moves.copy_within(self.cur..best, self.cur + 1);
        self.buf.scores.copy_within(self.cur..best, self.cur + 1);
        self.buf.moves[self.cur] = m;
        self.buf.scores[self.cur] = s;
        self.cur += 1;
        Some(m)
    }

    fn take_next(&mut self) -> Option<M> {
        let m = *self.buf.moves.get(self.cur)?;
        self.cur += 1;
        Some(m)
    }

    /// The next quiet move: by selection for the first few (most nodes stop there),
    /// then from the sorted remainder.
    fn take_quiet(&mut self) -> Option<M> {
        const SELECTED: usize = 6;
        if self.sorted {
            return self.take_next();
        }
        if self.cur < SELECTED {
            return self.take_best_stable();
        }
        let b = &mut self.buf;
        let cur = self.cur;
        sort_by_score(&mut b.moves[cur..], &mut b.scores[cur..], &mut b.keys, &mut b.scratch);
        self.sorted = true;
        self.take_next()
    }

    fn sort(&mut self) {
        let b = &mut self.buf;
        sort_by_score(&mut b.moves, &mut b.scores, &mut b.keys, &mut b.scratch);
    }

    fn is_special(&self, m: M) -> bool {
        m == self.tt_move || m == self.killers[0] || m == self.killers[1]
    }

    pub fn next<G: Game<Move = M>>(&mut self, game: &G, stats: &QuietStats) -> Option<M> {
        loop {
            match self.stage {
                Stage::TtMove => {
                    self.stage = Stage::GenTactical;
                    if self.tt_move != M::default() && game.is_legal(self.tt_move) {
                        return Some(self.tt_move);
                    }
                    self.tt_move = M::default();
                }
                Stage::GenTactical => {
                    self.reset();
                    self.buf.bad.clear();
                    game.tactical_moves(&mut self.buf.moves);
                    for &m in &self.buf.moves {
                        self.buf.scores.push(game.tactical_order(m));
                    }
                    self.stage = Stage::GoodTactical;
                }
                Stage::GoodTactical => match self.take_best() {
                    Some(m) if m == self.tt_move => {}
                    Some(m) => {
                        if game.see_ge(m, 0) {
                            return Some(m);
                        }
                        self.buf.bad.push(m);
                    }
                    None => self.stage = Stage::Killer0,
                },
                Stage::Killer0 | Stage::Killer1 => {
                    let k = if self.stage == Stage::Killer0 {
                        self.stage = Stage::Killer1;
                        self.killers[0]
                    } else {
                        self.stage = Stage::GenQuiets;
                        self.killers[1]
                    };
                    if k != M::default()
                        && k != self.tt_move
                        && !game.is_tactical(k)
                        && game.is_legal(k)
                    {
                        return Some(k);
                    }
                }
                Stage::GenQuiets => {
                    self.stage = Stage::Quiets;
                    self.reset();
                    game.quiet_moves(&mut self.buf.moves);
                    let moves = &self.buf.moves;
                    self.buf.scores.extend(
                        moves.iter().map(|&m| {
                            stats.score(game.history_index(m), game.continuation_index(m))
                        }),
                    );
                    self.sorted = false;
                    if self.checks_only_pending {
                        self.keep_quiet_checks(game);
                    }
                }
                Stage::Quiets if self.checks_only => match self.take_next() {
                    Some(m) => {
                        self.skipped += self.buf.scores[self.cur - 1] as usize;
                        return Some(m);
                    }
                    None => {
                        self.skipped += std::mem::take(&mut self.skipped_tail);
                        self.stage = Stage::BadTactical;
                        self.cur = 0;
                    }
                },
                Stage::Quiets => match self.take_quiet() {
                    Some(m) if self.is_special(m) => {}
                    Some(m) => return Some(m),
                    None => {
                        self.stage = Stage::BadTactical;
                        self.cur = 0;
                    }
                },
                Stage::BadTactical => {
                    let m = self.buf.bad.get(self.cur).copied();
                    self.cur += 1;
                    match m {
                        Some(m) => return Some(m),
                        None => self.stage = Stage::Done,
                    }
                }
                Stage::EvasionTt => {
                    self.stage = Stage::GenEvasions;
                    if self.tt_move != M::default() && game.is_legal(self.tt_move) {
                        return Some(self.tt_move);
                    }
                    self.tt_move = M::default();
                }
                Stage::GenEvasions => {
                    self.reset();
                    game.evasions(&mut self.buf.moves);
                    for &m in &self.buf.moves {
                        let s = if game.is_tactical(m) {
                            1 << 24 | game.tactical_order(m)
                        } else {
                            stats.score(game.history_index(m), game.continuation_index(m))
                        };
                        self.buf.scores.push(s);
                    }
                    self.sort();
                    self.stage = Stage::Evasions;
                }
                Stage::Evasions => match self.take_next() {
                    Some(m) if m == self.tt_move => {}
                    Some(m) => return Some(m),
                    None => self.stage = Stage::Done,
                },
                Stage::QsTt => {
                    self.stage = Stage::QsGenTactical;
                    if self.tt_move != M::default()
                        && game.is_tactical(self.tt_move)
                        && game.is_legal(self.tt_move)
                    {
                        return Some(self.tt_move);
                    }
                    self.tt_move = M::default();
                }
                Stage::QsGenTactical => {
                    self.reset();
                    game.tactical_moves(&mut self.buf.moves);
                    for &m in &self.buf.moves {
                        self.buf.scores.push(game.tactical_order(m));
                    }
                    self.stage = Stage::QsTactical;
                }
                Stage::QsTactical => match self.take_best() {
                    Some(m) if m == self.tt_move => {}
                    Some(m) => return Some(m),
                    None => self.stage = Stage::Done,
                },
                Stage::Done => return None,
            }
        }
    }
}

/// Sorts moves and scores by descending score, equal scores in their original order
/// (deterministic, so node counts are reproducible). Each key holds the score above
/// the original index, so an unstable O(n log n) sort gives the stable order.
fn sort_by_score<M: Copy>(
    moves: &mut [M],
    scores: &mut [i32],
    keys: &mut Vec<u64>,
    scratch: &mut Vec<M>,
) {
    if moves.len() < 2 {
        return;
    }
    keys.clear();
    keys.extend(scores.iter().enumerate().map(|(i, &s)| sort_key(s, i)));
    keys.sort_unstable_by(|a, b| b.cmp(a));
    scratch.clear();
    scratch.extend_from_slice(moves);
    for (j, &k) in keys.iter().enumerate() {
        moves[j] = scratch[key_index(k)];
        scores[j] = ((k >> 32) as u32 ^ 0x8000_0000) as i32;
    }
}

/// The index of the first of the highest scores (0 for an empty slice).
#[inline]
fn first_best(scores: &[i32]) -> usize {
    let Some(&first) = scores.first() else {
        return 0;
    };
    let (mut best, mut top) = (0, first);
    for (i, &s) in scores.iter().enumerate().skip(1) {
        if s > top {
            best = i;
            top = s;
        }
    }
    best
}

/// A move's place in the order: score first, then the earlier position; larger
/// keys come first.
#[inline]
fn sort_key(score: i32, index: usize) -> u64 {
    let biased = u64::from((score as u32) ^ 0x8000_0000);
    biased << 32 | u64::from(u32::MAX - index as u32)
}

#[inline]
fn key_index(key: u64) -> usize {
    (u32::MAX - key as u32) as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_best_takes_the_first_of_equal_scores() {
        assert_eq!(first_best(&[3, 9, 1, 9, 2]), 1);
        assert_eq!(first_best(&[-5, -7]), 0);
        assert_eq!(first_best(&[i32::MIN, i32::MIN]), 0);
        assert_eq!(first_best(&[4]), 0);
        assert_eq!(first_best(&[]), 0);
    }

    #[test]
    fn sorting_is_descending_and_stable() {
        let mut m = [1, 2, 3, 4, 5, 6];
        let mut s = [0, 5, 0, 9, 5, -7];
        sort_by_score(&mut m, &mut s, &mut Vec::new(), &mut Vec::new());
        assert_eq!(m, [4, 2, 5, 1, 3, 6]);
        assert_eq!(s, [9, 5, 5, 0, 0, -7]);
    }
}
