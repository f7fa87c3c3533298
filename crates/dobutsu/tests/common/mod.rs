//! Helpers shared by the integration tests: a deterministic generator and
//! random positions.
#![allow(dead_code)]

use dobutsu::{Color, Kind, Move, Position, Square};

/// A tiny deterministic generator.
pub struct Lcg(pub u64);

impl Lcg {
    /// A number below `n`.
    pub fn next(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
}

/// The positions of a random game from the start of up to `plies` plies, the
/// start included, stopping where the game ends (the last position returned
/// may be over).
pub fn random_game(rng: &mut Lcg, plies: usize) -> Vec<Position> {
    let mut pos = Position::startpos();
    let mut out = vec![pos];
    let mut moves = Vec::new();
    for _ in 0..plies {
        if pos.end().is_some() {
            break;
        }
        moves.clear();
        pos.legal_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        pos.make_move(moves[rng.next(moves.len() as u64) as usize]);
        out.push(pos);
    }
    out
}

/// A random legal set-up: both lions and up to `extra` other pieces on random
/// squares, up to two random hand pieces, either side to move. `None` when the
/// draw breaks the piece counts.
pub fn random_setup(rng: &mut Lcg, extra: u64) -> Option<Position> {
    let mut pos = Position::empty();
    let mut free: Vec<Square> = Square::all().collect();
    let mut take = |rng: &mut Lcg| free.remove(rng.next(free.len() as u64) as usize);
    pos.put(take(rng), Some((Color::Sente, Kind::Lion)));
    pos.put(take(rng), Some((Color::Gote, Kind::Lion)));
    let side = |rng: &mut Lcg| if rng.next(2) == 0 { Color::Sente } else { Color::Gote };
    for _ in 0..rng.next(extra + 1) {
        let k = [Kind::Giraffe, Kind::Elephant, Kind::Chick, Kind::Hen][rng.next(4) as usize];
        let c = side(rng);
        pos.put(take(rng), Some((c, k)));
    }
    for _ in 0..rng.next(3) {
        let (c, k) = (side(rng), Kind::HAND[rng.next(3) as usize]);
        let n = pos.hand_count(c, k);
        pos.set_hand_count(c, k, n + 1);
    }
    let c = side(rng);
    pos.set_side_to_move(c);
    pos.check().is_ok().then_some(pos)
}

/// The legal moves of `pos`.
pub fn moves_of(pos: &Position) -> Vec<Move> {
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    moves
}

/// Like [`random_game`], but each side avoids, where it can, the moves that
/// lose at once (leaving its lion capturable, letting a try stand): longer,
/// more realistic games.
pub fn careful_game(rng: &mut Lcg, plies: usize) -> Vec<Position> {
    let mut pos = Position::startpos();
    let mut out = vec![pos];
    let mut moves = Vec::new();
    for _ in 0..plies {
        if pos.end().is_some() {
            break;
        }
        moves.clear();
        pos.legal_moves(&mut moves);
        let safe: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|&m| pos.after(m).end().is_none_or(|e| !e.mover_wins()))
            .collect();
        let pool = if safe.is_empty() { &moves } else { &safe };
        if pool.is_empty() {
            break;
        }
        pos.make_move(pool[rng.next(pool.len() as u64) as usize]);
        out.push(pos);
    }
    out
}

/// Whether the side to move of `pos` can force a win within `n` plies (the
/// capture of the lion, or a try that cannot be answered, counting as a
/// ply; Tanaka's model).
pub fn win_within(pos: Position, n: u32) -> bool {
    match pos.end() {
        Some(e) => e.mover_wins(),
        None if n == 0 => false,
        None => moves_of(&pos).into_iter().any(|m| loss_within(pos.after(m), n - 1)),
    }
}

/// Whether the side to move of `pos` loses within `n` plies whatever it
/// plays.
pub fn loss_within(pos: Position, n: u32) -> bool {
    match pos.end() {
        Some(e) => !e.mover_wins(),
        None => {
            let moves = moves_of(&pos);
            moves.is_empty()
                || (n >= 2 && moves.into_iter().all(|m| win_within(pos.after(m), n - 1)))
        }
    }
}

/// The exact value of `pos` by a full-width search, when the game ends
/// within `horizon` plies with best play (the shortest win, the longest
/// loss); `None` when it does not (a longer win or loss, or a draw).
pub fn exact_within(pos: Position, horizon: u32) -> Option<dobutsu::solve::Value> {
    use dobutsu::solve::Value;
    (0..=horizon).find_map(|n| {
        if n % 2 == 1 {
            win_within(pos, n).then_some(Value::Win(n))
        } else {
            loss_within(pos, n).then_some(Value::Loss(n))
        }
    })
}
