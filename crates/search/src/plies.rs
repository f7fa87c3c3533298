//! What a search keeps for each ply of the current line: the best line found from
//! that ply on, and move storage the ply's node lends to its move picker (so that
//! a warm search allocates nothing).

use crate::picker::MoveBuffers;

pub struct PlyStack<M> {
    lines: Vec<Vec<M>>,
    buffers: Vec<MoveBuffers<M>>,
}

impl<M: Copy> PlyStack<M> {
    /// Room for `plies` plies.
    pub fn new(plies: usize) -> PlyStack<M> {
        PlyStack {
            lines: (0..plies).map(|_| Vec::new()).collect(),
            buffers: (0..plies).map(|_| MoveBuffers::warm()).collect(),
        }
    }

    /// The best line found from `ply`.
    pub fn line(&self, ply: usize) -> &[M] {
        &self.lines[ply]
    }

    pub fn clear_line(&mut self, ply: usize) {
        self.lines[ply].clear();
    }

    /// The line from `ply` becomes `m` followed by the line from `ply + 1`.
    pub fn extend_line(&mut self, ply: usize, m: M) {
        let (head, tail) = self.lines.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(m);
        line.extend_from_slice(&tail[0]);
    }

    /// The line from `ply` becomes `m` alone (a move that ends the game).
    pub fn end_line(&mut self, ply: usize, m: M) {
        self.lines[ply].clear();
        self.lines[ply].push(m);
    }

    /// The storage of `ply`, lent to a node until [`PlyStack::give_back`].
    #[inline]
    pub fn take_buffers(&mut self, ply: usize) -> MoveBuffers<M> {
        std::mem::take(&mut self.buffers[ply])
    }

    #[inline]
    pub fn give_back(&mut self, ply: usize, buffers: MoveBuffers<M>) {
        self.buffers[ply] = buffers;
    }
}

#[cfg(test)]
mod tests {
    use super::PlyStack;

    #[test]
    fn lines_are_built_from_the_line_below() {
        let mut s = PlyStack::new(4);
        s.end_line(2, 30);
        s.extend_line(1, 20);
        s.extend_line(0, 10);
        assert_eq!(s.line(0), [10, 20, 30]);
        s.clear_line(2);
        s.extend_line(1, 21);
        assert_eq!(s.line(1), [21]);
        assert_eq!(s.line(0), [10, 20, 30]);
    }
}
