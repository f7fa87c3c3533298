//! Walking the tree of variations: where a line is, the position inside it, and
//! the stack of open lines that KIF and KI2 readers keep for `変化：N手`.

use crate::record::{Ending, Record, RecordMove, Variation};
use shogi::{Move, Position};

/// One step from a line down into one of its variations: the variation `var` of
/// the move at index `at` (of the ending when `at` is the line's length).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Step {
    pub at: usize,
    pub var: usize,
}

/// The moves and ending of the line at `path`.
pub(crate) fn line_mut<'a>(
    record: &'a mut Record,
    path: &[Step],
) -> (&'a mut Vec<RecordMove>, &'a mut Option<Ending>) {
    let mut moves = &mut record.moves;
    let mut ending = &mut record.ending;
    for step in path {
        let v: &mut Variation = if step.at < moves.len() {
            &mut moves[step.at].variations[step.var]
        } else {
            &mut ending.as_mut().expect("a path through an ending").variations[step.var]
        };
        moves = &mut v.moves;
        ending = &mut v.ending;
    }
    (moves, ending)
}

/// The position before the move at `index` of the line at `path`, and the move
/// played just before it (for 同).
pub(crate) fn position_at(
    record: &Record,
    path: &[Step],
    index: usize,
) -> (Position, Option<Move>) {
    let mut pos = record.start_position();
    let mut last = None;
    let mut moves = &record.moves;
    let mut ending = &record.ending;
    for step in path {
        for m in &moves[..step.at] {
            pos.do_move(m.mv);
            last = Some(m.mv);
        }
        let v = if step.at < moves.len() {
            &moves[step.at].variations[step.var]
        } else {
            &ending.as_ref().expect("a path through an ending").variations[step.var]
        };
        moves = &v.moves;
        ending = &v.ending;
    }
    for m in &moves[..index] {
        pos.do_move(m.mv);
        last = Some(m.mv);
    }
    (pos, last)
}

/// An open line of a KIF/KI2 reader: where it is and the ply of its first move.
#[derive(Clone, Debug)]
pub(crate) struct OpenLine {
    pub path: Vec<Step>,
    pub first_ply: u32,
}

/// The lines opened so far, the current one on top, and the position after the
/// current line's last move.
pub(crate) struct LineStack {
    pub lines: Vec<OpenLine>,
    pub pos: Position,
    pub last: Option<Move>,
}

impl LineStack {
    pub fn new(record: &Record, first_ply: u32) -> LineStack {
        LineStack {
            lines: vec![OpenLine { path: Vec::new(), first_ply }],
            pos: record.start_position(),
            last: None,
        }
    }

    pub fn top(&self) -> &OpenLine {
        self.lines.last().expect("the main line is never closed")
    }

    /// The ply the next move of the current line will have.
    pub fn next_ply(&self, record: &mut Record) -> u32 {
        let top = self.top().clone();
        let (moves, _) = line_mut(record, &top.path);
        top.first_ply + moves.len() as u32
    }

    /// Opens a variation at `ply`: the nearest open line (the current one, then its
    /// ancestors) that has a move or an ending at `ply` gets a new variation there,
    /// which becomes current. An alternative to a variation's first move is an
    /// alternative to the move that variation replaces: it becomes a sibling.
    /// `None` when no open line has that ply.
    pub fn branch(&mut self, record: &mut Record, ply: u32) -> Option<()> {
        loop {
            let top = self.lines.last()?.clone();
            let (moves, ending) = line_mut(record, &top.path);
            let at = ply.checked_sub(top.first_ply).map(|a| a as usize);
            let has = at.is_some_and(|a| a < moves.len() || (a == moves.len() && ending.is_some()));
            if let (true, Some(at)) = (has, at) {
                let (parent, at) = if at == 0 && !top.path.is_empty() {
                    self.lines.pop();
                    let step = *top.path.last().expect("a variation's path");
                    (top.path[..top.path.len() - 1].to_vec(), step.at)
                } else {
                    (top.path.clone(), at)
                };
                let (moves, ending) = line_mut(record, &parent);
                let vars = if at < moves.len() {
                    &mut moves[at].variations
                } else {
                    &mut ending.as_mut().expect("a line with an ending").variations
                };
                vars.push(Variation::default());
                let mut path = parent;
                path.push(Step { at, var: vars.len() - 1 });
                let (pos, last) = position_at(record, &path, 0);
                self.pos = pos;
                self.last = last;
                self.lines.push(OpenLine { path, first_ply: ply });
                return Some(());
            }
            if self.lines.len() == 1 {
                return None;
            }
            self.lines.pop();
        }
    }

    /// The current line.
    pub fn current<'a>(
        &self,
        record: &'a mut Record,
    ) -> (&'a mut Vec<RecordMove>, &'a mut Option<Ending>) {
        line_mut(record, &self.top().path)
    }

    /// Appends a legal move to the current line and plays it.
    pub fn push(&mut self, record: &mut Record, m: RecordMove) {
        self.pos.do_move(m.mv);
        self.last = Some(m.mv);
        self.current(record).0.push(m);
    }
}
