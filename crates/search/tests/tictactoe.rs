//! A second game, tic-tac-toe, searched by every algorithm of the crate through the
//! same interfaces as shogi: the proof that nothing shogi-specific is left in
//! `crates/search`. Its values are known: the empty board is a draw; a player
//! who can complete a line wins at once; a fork wins in three plies.

use search::engine::Signals;
use search::textbook::{alphabeta, minimax, negamax, NoTrace};
use search::value::{mate_in, mated_in, INFINITE};
use search::{Engine, Game, Limits, Outcome, RepetitionStatus, Side, Value};
use std::fmt;

const LINES: [[usize; 3]; 8] =
    [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]];

/// A square, 0 to 8 from the top left; the move is a mark there.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
struct Mark(u8);

impl fmt::Display for Mark {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

#[derive(Clone, Debug)]
struct TicTacToe {
    /// 0 empty, 1 the first player's X, 2 the second player's O.
    board: [u8; 9],
    to_move: Side,
}

impl TicTacToe {
    /// From rows such as `"X.O/.X./..."`; the side to move follows from the counts.
    fn parse(rows: &str) -> TicTacToe {
        let board: Vec<u8> = rows
            .chars()
            .filter(|&c| c != '/')
            .map(|c| match c {
                'X' => 1,
                'O' => 2,
                _ => 0,
            })
            .collect();
        let board: [u8; 9] = board.try_into().expect("nine squares");
        let xs = board.iter().filter(|&&c| c == 1).count();
        let os = board.iter().filter(|&&c| c == 2).count();
        TicTacToe { board, to_move: if xs == os { Side::First } else { Side::Second } }
    }

    fn mark(side: Side) -> u8 {
        side.index() as u8 + 1
    }

    fn has_line(&self, mark: u8) -> bool {
        LINES.iter().any(|l| l.iter().all(|&i| self.board[i] == mark))
    }
}

impl Game for TicTacToe {
    type Move = Mark;
    const UNIT: Value = 100;

    fn side_to_move(&self) -> Side {
        self.to_move
    }

    fn legal_moves(&self, out: &mut Vec<Mark>) {
        out.extend((0..9u8).filter(|&i| self.board[i as usize] == 0).map(Mark));
    }

    fn make_move(&mut self, m: Mark) {
        self.board[m.0 as usize] = Self::mark(self.to_move);
        self.to_move = self.to_move.flip();
    }

    fn unmake_move(&mut self, m: Mark) {
        self.board[m.0 as usize] = 0;
        self.to_move = self.to_move.flip();
    }

    /// The player who just moved completed a line; or the board is full.
    fn outcome(&self) -> Option<Outcome> {
        if self.has_line(Self::mark(self.to_move.flip())) {
            Some(Outcome::Loss)
        } else if self.board.iter().all(|&c| c != 0) {
            Some(Outcome::Draw)
        } else {
            None
        }
    }

    /// Never asked: a full board is a draw by `outcome`.
    fn no_moves(&self) -> Outcome {
        Outcome::Draw
    }

    fn repetition(&self, _max_plies: usize) -> Option<RepetitionStatus> {
        None
    }

    fn key(&self) -> u64 {
        let code = self.board.iter().fold(self.to_move.index() as u64, |k, &c| k * 3 + c as u64);
        code.wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }

    /// Lines still open to the side to move less those open to the opponent.
    fn evaluate(&self) -> Value {
        let (us, them) = (Self::mark(self.to_move), Self::mark(self.to_move.flip()));
        let open = |blocker: u8| {
            LINES.iter().filter(|l| l.iter().all(|&i| self.board[i] != blocker)).count() as Value
        };
        10 * (open(them) - open(us))
    }

    fn encode_move(m: Mark) -> u32 {
        u32::from(m.0) + 1
    }

    fn decode_move(code: u32) -> Mark {
        Mark(code.saturating_sub(1) as u8)
    }
}

/// (position, its value for the side to move with perfect play, the moves that
/// keep that value; none listed: every move does). Worked out by hand and by an
/// exhaustive search in Python.
fn known_positions() -> Vec<(&'static str, Value, Vec<u8>)> {
    vec![
        // The empty board and the usual openings are draws.
        ("........./", 0, vec![]),
        ("....X..../", 0, vec![0, 2, 6, 8]), // O must take a corner
        ("X......../", 0, vec![4]),          // O must take the centre
        ("XO..O...X/", 0, vec![7]),          // X must block the middle file
        // X completes the top row at once.
        ("XX.OO..../", mate_in(1), vec![2]),
        // O answered the corner on the edge: X wins in five plies.
        ("XO......./", mate_in(5), vec![3, 4, 6]),
        // O cannot stop both threats: lost in four plies, the longest defence 8.
        ("XO..X..../", mated_in(4), vec![8]),
    ]
}

/// The engine's value and move: PVS to the end of the game (nine plies), ABC
/// with thresholds too large to stop a line before the game ends.
fn search_value(game: &TicTacToe, algorithm: &str) -> (Value, Option<Mark>) {
    let mut engine = Engine::new(1, 1);
    engine.set_algorithm(algorithm).expect("a known algorithm");
    let iterations = if algorithm == "ABC" { 60 } else { 9 };
    let r = engine.search(game, &Limits::depth(iterations), &Signals::new(), &mut |_| {});
    (r.score, r.best_move)
}

#[test]
fn the_empty_board_tree_has_its_known_size() {
    // 549,946 nodes: every position of every game, the root included.
    let game = TicTacToe::parse("........./");
    let mm = minimax(&game, 9, &mut NoTrace);
    assert_eq!(mm.value, 0);
    assert_eq!(mm.nodes, 549_946);
    let ab = alphabeta(&game, 9, -INFINITE, INFINITE, &mut NoTrace);
    let nm = negamax(&game, 9, -INFINITE, INFINITE, &mut NoTrace);
    assert_eq!((ab.value, nm.value), (0, 0));
    assert_eq!(ab.nodes, nm.nodes);
    assert!(ab.nodes < mm.nodes / 10, "{} nodes", ab.nodes);
}

#[test]
fn every_algorithm_finds_the_known_values() {
    for (rows, value, best) in known_positions() {
        let game = TicTacToe::parse(rows);
        // Textbook values are the root player's (MAX is the side to move).
        let textbook = [
            ("minimax", minimax(&game, 9, &mut NoTrace)),
            ("alphabeta", alphabeta(&game, 9, -INFINITE, INFINITE, &mut NoTrace)),
            ("negamax", negamax(&game, 9, -INFINITE, INFINITE, &mut NoTrace)),
        ];
        for (name, result) in textbook {
            assert_eq!(result.value, value, "{name} on {rows}");
            if !best.is_empty() {
                assert!(best.contains(&result.pv[0].0), "{name} on {rows}: {:?}", result.pv);
            }
        }
        for algorithm in search::engine::ALGORITHMS.map(|a| a.name) {
            let (v, m) = search_value(&game, algorithm);
            assert_eq!(v, value, "{algorithm} on {rows}");
            if !best.is_empty() {
                let m = m.expect("a move");
                assert!(best.contains(&m.0), "{algorithm} on {rows}: {m}");
            }
        }
    }
}

/// `search_among` searches only the moves it is given: O, who must take the
/// centre after X's corner, loses with either edge.
#[test]
fn search_among_keeps_to_the_moves_given() {
    let game = TicTacToe::parse("X......../");
    for algorithm in search::engine::ALGORITHMS.map(|a| a.name) {
        let mut engine = Engine::new(1, 1);
        engine.set_algorithm(algorithm).expect("a known algorithm");
        let iterations = if algorithm == "ABC" { 60 } else { 9 };
        let limits = Limits::depth(iterations);
        let among = [Mark(1), Mark(3)];
        let r = engine.search_among(&game, &among, &limits, &Signals::new(), &mut |_| {});
        assert!(among.contains(&r.best_move.expect("a move")), "{algorithm}");
        assert_eq!(r.root_moves.len(), 2, "{algorithm}");
        assert_eq!(r.score, mated_in(6), "{algorithm}");
    }
}
