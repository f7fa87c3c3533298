//! A book from game records: every position of every game up to a move number,
//! with each move played from it, how often, and the reply most often played.

use crate::entry::{BookMove, Entry};
use shogi::{Color, Move, Position};
use std::collections::HashMap;

/// How often a move was played from a position, and each reply to it.
type MoveCounts = (u64, HashMap<String, u64>);

/// Collects games into a book.
pub struct Builder {
    /// Positions with a larger move number are left out.
    max_ply: u32,
    /// Only the moves of the side that won the game.
    winner_only: bool,
    /// SFEN with move number → move → (count, reply → count).
    positions: HashMap<String, HashMap<String, MoveCounts>>,
    summary: GameSummary,
}

/// What went into a book.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GameSummary {
    /// Games whose moves were counted.
    pub games: u64,
    /// Games left out: no winner known while only winners' moves were asked for.
    pub without_winner: u64,
    /// Moves counted.
    pub moves: u64,
}

impl Builder {
    /// A builder of positions up to move number `max_ply` (the SFEN's: 1 is the
    /// first move of a game from the start), of both sides' moves or only the
    /// winner's.
    pub fn new(max_ply: u32, winner_only: bool) -> Builder {
        Builder { max_ply, winner_only, positions: HashMap::new(), summary: GameSummary::default() }
    }

    /// Adds a game: its start, its moves (legal, as a record reader checked
    /// them) and who won (`None`: a draw, unfinished, or not known). Returns
    /// whether its moves were counted.
    pub fn add_game(&mut self, start: &Position, moves: &[Move], winner: Option<Color>) -> bool {
        if self.winner_only && winner.is_none() {
            self.summary.without_winner += 1;
            return false;
        }
        let mut pos = start.clone();
        for (i, &m) in moves.iter().enumerate() {
            if pos.game_ply() > self.max_ply {
                break;
            }
            if !self.winner_only || winner == Some(pos.side_to_move()) {
                let by_move = self.positions.entry(pos.to_sfen()).or_default();
                let (count, replies) = by_move.entry(m.to_usi()).or_default();
                *count += 1;
                if let Some(reply) = moves.get(i + 1) {
                    *replies.entry(reply.to_usi()).or_default() += 1;
                }
                self.summary.moves += 1;
            }
            pos.do_move(m);
        }
        self.summary.games += 1;
        true
    }

    pub fn summary(&self) -> GameSummary {
        self.summary
    }

    /// The book: moves played at least `min_count` times, most played first
    /// (value and depth 0: no search has looked at them yet), positions left
    /// without a move dropped. Entries in any order ([`crate::entry::write_book`]
    /// sorts them).
    pub fn finish(self, min_count: u64) -> Vec<Entry> {
        let mut entries = Vec::new();
        for (sfen, by_move) in self.positions {
            let mut moves: Vec<BookMove> = by_move
                .into_iter()
                .filter(|(_, (count, _))| *count >= min_count)
                .map(|(mv, (count, replies))| {
                    let ponder = replies
                        .into_iter()
                        .max_by(|a, b| a.1.cmp(&b.1).then_with(|| b.0.cmp(&a.0)))
                        .map(|(r, _)| r);
                    BookMove { mv, ponder, value: 0, depth: 0, count }
                })
                .collect();
            if moves.is_empty() {
                continue;
            }
            moves.sort_by(|a, b| b.count.cmp(&a.count).then_with(|| a.mv.cmp(&b.mv)));
            entries.push(Entry { sfen, moves });
        }
        entries
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(moves: &str) -> (Position, Vec<Move>) {
        let start = Position::startpos();
        let mut pos = start.clone();
        let mut out = Vec::new();
        for t in moves.split_whitespace() {
            let m = pos.parse_usi_move(t).unwrap();
            pos.do_move(m);
            out.push(m);
        }
        (start, out)
    }

    #[test]
    fn counts_moves_and_replies() {
        let mut b = Builder::new(3, false);
        for (moves, winner) in [
            ("7g7f 3c3d 2g2f 8c8d", Some(Color::Black)),
            ("7g7f 8c8d 2g2f", Some(Color::White)),
            ("2g2f 8c8d", None),
        ] {
            let (start, moves) = game(moves);
            assert!(b.add_game(&start, &moves, winner));
        }
        assert_eq!(b.summary(), GameSummary { games: 3, without_winner: 0, moves: 8 });
        let mut entries = b.finish(1);
        entries.sort_by(|a, b| a.sfen.cmp(&b.sfen));
        let start = entries.iter().find(|e| e.sfen == Position::startpos().to_sfen()).unwrap();
        assert_eq!(start.moves[0].to_string(), "7g7f 3c3d 0 0 2", "ties go to the smaller move");
        assert_eq!(start.moves[1].to_string(), "2g2f 8c8d 0 0 1");
        assert!(entries.iter().all(|e| !e.sfen.ends_with(" 4")), "move 4 is past the depth");
    }

    #[test]
    fn only_winners_and_min_count() {
        let mut b = Builder::new(10, true);
        let (start, moves) = game("7g7f 3c3d 2g2f");
        assert!(b.add_game(&start, &moves, Some(Color::White)));
        assert!(!b.add_game(&start, &moves, None));
        assert_eq!(b.summary(), GameSummary { games: 1, without_winner: 1, moves: 1 });
        let entries = b.finish(1);
        assert_eq!(entries.len(), 1);
        assert_eq!(entries[0].moves[0].mv, "3c3d");
        let mut b = Builder::new(10, false);
        b.add_game(&start, &moves, None);
        assert!(b.finish(2).is_empty());
    }
}
