//! The staged move picker: moves are produced in the order they are most likely to
//! cut, and generated only when the earlier stages did not cut already.
//!
//! Main search: hash move, good tactical moves (SEE ≥ 0, best victim first), the two
//! killers, quiet moves by history, bad tactical moves. In check: hash move, then all
//! evasions (tactical first). Quiescence: hash move if tactical, tactical moves by
//! victim (or all evasions in check).

use crate::game::Game;
use crate::history::History;

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
}

impl<M> Default for MoveBuffers<M> {
    fn default() -> Self {
        MoveBuffers {
            moves: Vec::with_capacity(256),
            scores: Vec::with_capacity(256),
            bad: Vec::with_capacity(32),
        }
    }
}

pub struct MovePicker<M> {
    stage: Stage,
    tt_move: M,
    killers: [M; 2],
    buf: MoveBuffers<M>,
    cur: usize,
}

impl<M: Copy + Eq + Default> MovePicker<M> {
    pub fn main(tt_move: M, killers: [M; 2], in_check: bool, buf: MoveBuffers<M>) -> Self {
        MovePicker {
            stage: if in_check { Stage::EvasionTt } else { Stage::TtMove },
            tt_move,
            killers,
            buf,
            cur: 0,
        }
    }

    pub fn quiescence(tt_move: M, in_check: bool, buf: MoveBuffers<M>) -> Self {
        MovePicker {
            stage: if in_check { Stage::EvasionTt } else { Stage::QsTt },
            tt_move,
            killers: [M::default(); 2],
            buf,
            cur: 0,
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

    fn take_next(&mut self) -> Option<M> {
        let m = *self.buf.moves.get(self.cur)?;
        self.cur += 1;
        Some(m)
    }

    fn is_special(&self, m: M) -> bool {
        m == self.tt_move || m == self.killers[0] || m == self.killers[1]
    }

    pub fn next<G: Game<Move = M>>(&mut self, game: &G, history: &History) -> Option<M> {
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
                    self.buf
                        .scores
                        .extend(moves.iter().map(|&m| history.get(game.history_index(m))));
                    sort_by_score(&mut self.buf.moves, &mut self.buf.scores);
                }
                Stage::Quiets => match self.take_next() {
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
                            history.get(game.history_index(m))
                        };
                        self.buf.scores.push(s);
                    }
                    sort_by_score(&mut self.buf.moves, &mut self.buf.scores);
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

/// Sorts both slices by descending score (insertion sort: lists are short and often
/// nearly sorted; deterministic, so node counts are reproducible).
fn sort_by_score<M: Copy>(moves: &mut [M], scores: &mut [i32]) {
    for i in 1..moves.len() {
        let (m, s) = (moves[i], scores[i]);
        let mut j = i;
        while j > 0 && scores[j - 1] < s {
            moves[j] = moves[j - 1];
            scores[j] = scores[j - 1];
            j -= 1;
        }
        moves[j] = m;
        scores[j] = s;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorting_is_descending_and_stable() {
        let mut m = [1, 2, 3, 4, 5];
        let mut s = [0, 5, 0, 9, 5];
        sort_by_score(&mut m, &mut s);
        assert_eq!(m, [4, 2, 5, 1, 3]);
    }
}
