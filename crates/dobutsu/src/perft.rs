//! Perft: counting the lines of play, to check move generation.

use crate::mv::Move;
use crate::position::Position;

/// The number of lines of exactly `depth` plies from `pos`. The game's end is
/// respected: a position where [`Position::end`] says the game is over has no
/// moves (Tanaka's model: a side that can capture the opposing lion has won
/// without playing the capture, so lion captures are never counted; a
/// successful try ends the game at the opponent's turn).
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if pos.end().is_some() {
        return 0;
    }
    let mut moves = Vec::with_capacity(48);
    pos.legal_moves(&mut moves);
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut total = 0;
    for m in moves {
        pos.make_move(m);
        total += perft(pos, depth - 1);
        pos.unmake_move(m);
    }
    total
}

/// [`perft`] for each legal move at the root, in generation order.
pub fn divide(pos: &mut Position, depth: u32) -> Vec<(Move, u64)> {
    let mut moves = Vec::new();
    if depth == 0 || pos.end().is_some() {
        return Vec::new();
    }
    pos.legal_moves(&mut moves);
    moves
        .into_iter()
        .map(|m| {
            pos.make_move(m);
            let n = perft(pos, depth - 1);
            pos.unmake_move(m);
            (m, n)
        })
        .collect()
}
