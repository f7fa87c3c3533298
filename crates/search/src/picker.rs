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
        }
    }

    /// Gives the storage back for the next node at this ply.
    pub fn into_buffers(self) -> MoveBuffers<M> {
        self.buf
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
        let mut best = self.cur;
        for i in self.cur + 1..n {
            if self.buf.scores[i] > self.buf.scores[best] {
                best = i;
            }
        }
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
        let mut best = self.cur;
        for i in self.cur + 1..n {
            if self.buf.scores[i] > self.buf.scores[best] {
                best = i;
            }
        }
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
                }
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
    keys.extend(scores.iter().enumerate().map(|(i, &s)| {
        let biased = u64::from((s as u32) ^ 0x8000_0000);
        biased << 32 | u64::from(u32::MAX - i as u32)
    }));
    keys.sort_unstable_by(|a, b| b.cmp(a));
    scratch.clear();
    scratch.extend_from_slice(moves);
    for (j, &k) in keys.iter().enumerate() {
        let i = (u32::MAX - k as u32) as usize;
        moves[j] = scratch[i];
        scores[j] = ((k >> 32) as u32 ^ 0x8000_0000) as i32;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorting_is_descending_and_stable() {
        let mut m = [1, 2, 3, 4, 5, 6];
        let mut s = [0, 5, 0, 9, 5, -7];
        sort_by_score(&mut m, &mut s, &mut Vec::new(), &mut Vec::new());
        assert_eq!(m, [4, 2, 5, 1, 3, 6]);
        assert_eq!(s, [9, 5, 5, 0, 0, -7]);
    }
}
