//! The rules against a second implementation written differently (a 4 × 3
//! array of pieces, moves as strings, no bit tricks), on positions of random
//! games and random set-ups; make/unmake, keys, legality of arbitrary moves,
//! the staged generators, and every way the game ends.

use crate::common;

use common::{moves_of, random_game, random_setup, Lcg};
use dobutsu::{Color, End, Kind, Move, Position, Square, Which};
use std::collections::HashMap;

/// The brute-force model: `board[row][file]`.
struct Model {
    board: [[Option<(Color, Kind)>; 3]; 4],
    hands: [[u8; 3]; 2],
    side: Color,
}

impl Model {
    fn of(pos: &Position) -> Model {
        let mut board = [[None; 3]; 4];
        for (row, line) in board.iter_mut().enumerate() {
            for (file, cell) in line.iter_mut().enumerate() {
                *cell = pos.piece_on(Square::new(file as u8, row as u8));
            }
        }
        let mut hands = [[0; 3]; 2];
        for c in [Color::Sente, Color::Gote] {
            for (i, k) in [Kind::Giraffe, Kind::Elephant, Kind::Chick].into_iter().enumerate() {
                hands[c as usize][i] = pos.hand_count(c, k);
            }
        }
        Model { board, hands, side: pos.side_to_move() }
    }

    /// The (file, row) steps of a piece; "forward" is row - 1 for Sente.
    fn steps(c: Color, k: Kind) -> Vec<(i32, i32)> {
        let f = if c == Color::Sente { -1 } else { 1 };
        match k {
            Kind::Lion => {
                vec![(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)]
            }
            Kind::Giraffe => vec![(0, 1), (0, -1), (1, 0), (-1, 0)],
            Kind::Elephant => vec![(1, 1), (1, -1), (-1, 1), (-1, -1)],
            Kind::Chick => vec![(0, f)],
            Kind::Hen => vec![(-1, f), (0, f), (1, f), (-1, 0), (1, 0), (0, -f)],
        }
    }

    fn targets(&self, file: i32, row: i32) -> Vec<(i32, i32)> {
        let (c, k) = self.board[row as usize][file as usize].expect("a piece");
        Self::steps(c, k)
            .into_iter()
            .map(|(df, dr)| (file + df, row + dr))
            .filter(|&(f, r)| (0..3).contains(&f) && (0..4).contains(&r))
            .collect()
    }

    fn name(file: i32, row: i32) -> String {
        format!("{}{}", (b'a' + file as u8) as char, row + 1)
    }

    fn moves(&self) -> Vec<String> {
        let mut out = Vec::new();
        let far = if self.side == Color::Sente { 0 } else { 3 };
        for row in 0..4 {
            for file in 0..3 {
                match self.board[row as usize][file as usize] {
                    Some((c, k)) if c == self.side => {
                        for (f, r) in self.targets(file, row) {
                            if matches!(self.board[r as usize][f as usize], Some((o, _)) if o == c)
                            {
                                continue;
                            }
                            let plus = if k == Kind::Chick && r == far { "+" } else { "" };
                            out.push(format!(
                                "{}{}{plus}",
                                Self::name(file, row),
                                Self::name(f, r)
                            ));
                        }
                    }
                    Some(_) => {}
                    None => {
                        for (i, letter) in ['G', 'E', 'C'].into_iter().enumerate() {
                            if self.hands[self.side as usize][i] > 0 {
                                out.push(format!("{letter}*{}", Self::name(file, row)));
                            }
                        }
                    }
                }
            }
        }
        out.sort();
        out
    }

    fn lion(&self, c: Color) -> Option<(i32, i32)> {
        (0..4)
            .flat_map(|r| (0..3).map(move |f| (f, r)))
            .find(|&(f, r)| self.board[r as usize][f as usize] == Some((c, Kind::Lion)))
    }

    fn attacked_by(&self, sq: (i32, i32), c: Color) -> bool {
        (0..4).flat_map(|r| (0..3).map(move |f| (f, r))).any(|(f, r)| {
            matches!(self.board[r as usize][f as usize], Some((o, _)) if o == c)
                && self.targets(f, r).contains(&sq)
        })
    }

    /// Tanaka's end test, then the survived try of set-up positions.
    fn end(&self) -> Option<End> {
        let (me, them) = (self.side, self.side.flip());
        let mine = self.lion(me)?;
        let theirs = self.lion(them).expect("both lions in these positions");
        let (my_back, my_far) = if me == Color::Sente { (3, 0) } else { (0, 3) };
        if self.attacked_by(theirs, me) {
            Some(End::CanCaptureLion)
        } else if theirs.1 == my_back {
            Some(End::TryAgainst)
        } else if mine.1 == my_far {
            Some(End::TrySurvived)
        } else {
            None
        }
    }

    fn in_check(&self) -> bool {
        let me = self.side;
        self.lion(me).is_some_and(|sq| self.attacked_by(sq, me.flip()))
    }
}

/// Positions of random games and random set-ups (about 15,000).
fn sample_positions() -> Vec<Position> {
    let mut rng = Lcg(2024);
    let mut out = Vec::new();
    for _ in 0..2000 {
        out.extend(random_game(&mut rng, 60));
    }
    let mut setups = 0;
    while setups < 4000 {
        if let Some(pos) = random_setup(&mut rng, 6) {
            out.push(pos);
            setups += 1;
        }
    }
    out
}

#[test]
fn move_generation_and_the_end_agree_with_a_brute_force_model() {
    let positions = sample_positions();
    assert!(positions.len() > 10_000);
    let (mut drops, mut promotions, mut lion_captures, mut ends) = (0, 0, 0, 0);
    for pos in positions {
        let model = Model::of(&pos);
        let moves = moves_of(&pos);
        let mut ours: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
        ours.sort();
        assert_eq!(ours, model.moves(), "{}", pos.to_sfen());
        assert_eq!(pos.end(), model.end(), "{}", pos.to_sfen());
        assert_eq!(pos.in_check(), model.in_check(), "{}", pos.to_sfen());
        ends += usize::from(pos.end().is_some());
        for m in moves {
            drops += usize::from(m.is_drop());
            promotions += usize::from(m.is_promotion());
            lion_captures += usize::from(m.captured() == Some(Kind::Lion));
        }
    }
    // The sample covers what it should.
    assert!(drops > 10_000 && promotions > 100 && lion_captures > 1000 && ends > 1000);
}

#[test]
fn make_and_unmake_keep_everything_consistent() {
    for pos in sample_positions() {
        let mut p = pos;
        let moves = moves_of(&p);
        let mut keys = HashMap::new();
        keys.insert(p.key(), p);
        for &m in &moves {
            assert!(p.is_legal(m), "{m:?} in {}", pos.to_sfen());
            assert_eq!(p.parse_move(&m.to_string()), Ok(m));
            p.make_move(m);
            assert_ne!(p.side_to_move(), pos.side_to_move());
            // Keys of different positions differ (they are injective).
            if let Some(q) = keys.insert(p.key(), p) {
                assert_eq!(q, p);
            }
            // The pieces are conserved: captured ones go to hand (lions aside).
            if m.captured() != Some(Kind::Lion) && pos.check().is_ok() {
                assert_eq!(p.check(), Ok(()), "{m:?} in {}", pos.to_sfen());
            }
            p.unmake_move(m);
            assert_eq!(p, pos, "{m:?}");
        }
    }
}

#[test]
fn the_staged_generators_split_the_legal_moves() {
    for pos in sample_positions() {
        let all = moves_of(&pos);
        let (mut tactical, mut quiet) = (Vec::new(), Vec::new());
        pos.generate(&mut tactical, Which::Tactical);
        pos.generate(&mut quiet, Which::Quiet);
        assert_eq!(tactical.len() + quiet.len(), all.len());
        for m in &all {
            let t = pos.is_tactical(*m);
            assert_eq!(tactical.contains(m), t);
            assert_eq!(quiet.contains(m), !t);
            let try_move = m.kind() == Kind::Lion
                && !m.is_drop()
                && m.to().row() == pos.side_to_move().far_row();
            assert_eq!(t, m.is_capture() || m.is_promotion() || try_move);
        }
    }
}

#[test]
fn arbitrary_bits_are_legal_exactly_when_generated() {
    let mut rng = Lcg(99);
    for pos in sample_positions().into_iter().step_by(7) {
        let legal = moves_of(&pos);
        for _ in 0..200 {
            let m = Move::from_raw(rng.next(1 << 16) as u16);
            assert_eq!(pos.is_legal(m), legal.contains(&m), "{m:?} in {}", pos.to_sfen());
        }
        // Moves of other positions.
        for m in moves_of(&Position::startpos()) {
            assert_eq!(pos.is_legal(m), legal.contains(&m));
        }
    }
    assert!(!Position::startpos().is_legal(Move::NONE));
}

#[test]
fn raw_encodings_round_trip() {
    for pos in sample_positions() {
        assert_eq!(Position::from_raw(pos.raw()), Some(pos));
        assert!(pos.raw() < 1 << 61);
    }
    assert_eq!(Position::from_raw(1 << 62), None);
    // A nibble with kind code 6 is no piece.
    assert_eq!(Position::from_raw(Position::startpos().raw() | 6 << 20), None);
}

fn end_of(sfen: &str) -> Option<End> {
    Position::from_sfen(sfen).unwrap().end()
}

#[test]
fn every_end_of_the_game() {
    // The side to move can capture the lion: it has won, wherever that lion is.
    assert_eq!(end_of("1l1/1G1/3/1L1 b - 1"), Some(End::CanCaptureLion));
    assert_eq!(end_of("3/3/1L1/1l1 b - 1"), Some(End::CanCaptureLion));
    // The opponent's lion on the mover's back rank: its try succeeded...
    assert_eq!(end_of("3/1L1/1G1/l2 b - 1"), Some(End::TryAgainst));
    // ...unless the mover can capture it.
    assert_eq!(end_of("3/1L1/G2/l2 b - 1"), Some(End::CanCaptureLion));
    // The try onto Gote's back rank, seen from Gote.
    assert_eq!(end_of("L2/3/3/2l w - 1"), Some(End::TryAgainst));
    // A lion that stands on the far rank at its own turn (set-up only).
    assert_eq!(end_of("L2/3/2l/3 b - 1"), Some(End::TrySurvived));
    assert_eq!(end_of("3/1L1/3/l1G w - 1"), Some(End::TrySurvived));
    // In check is not the end: the lion can still be saved.
    assert_eq!(end_of("3/1l1/1G1/1L1 w - 1"), None);
    // The lion captured.
    let mut pos = Position::from_sfen("1l1/1G1/3/1L1 b - 1").unwrap();
    let capture = pos.parse_move("b2b1").unwrap();
    assert_eq!(capture.captured(), Some(Kind::Lion));
    pos.make_move(capture);
    assert_eq!(pos.end(), Some(End::LionCaptured));
    assert!(!End::LionCaptured.mover_wins() && !End::TryAgainst.mover_wins());
    assert!(End::CanCaptureLion.mover_wins() && End::TrySurvived.mover_wins());
    // The captured lion goes to no hand.
    assert!(pos.hands_empty());
}

#[test]
fn moves_that_expose_the_lion_are_legal_and_lose() {
    // Sente's lion may step next to Gote's: legal, and Gote then has won.
    let pos = Position::from_sfen("1l1/3/1L1/3 b - 1").unwrap();
    let m = pos.parse_move("b3b2").unwrap();
    assert!(pos.is_legal(m));
    assert_eq!(pos.after(m).end(), Some(End::CanCaptureLion));
}

#[test]
fn dropped_chicks_never_promote_and_may_be_stuck() {
    let pos = Position::from_sfen("1l1/3/3/1L1 b C 1").unwrap();
    let drop = pos.parse_move("C*a1").unwrap();
    let after = pos.after(drop);
    assert_eq!(after.piece_on(Square::parse("a1").unwrap()), Some((Color::Sente, Kind::Chick)));
    // Back to Sente: the chick on a1 has no move.
    let mut p = after;
    p.pass();
    assert!(moves_of(&p).iter().all(|m| m.from() != Square::parse("a1")));
    // A chick moving onto the far rank promotes, always.
    let pos = Position::from_sfen("1l1/C2/3/1L1 b - 1").unwrap();
    let m = pos.parse_move("a2a1").unwrap();
    assert!(m.is_promotion());
    assert_eq!(pos.parse_move("a2a1+"), Ok(m));
    assert_eq!(
        pos.after(m).piece_on(Square::parse("a1").unwrap()),
        Some((Color::Sente, Kind::Hen))
    );
    // A captured hen goes to hand as a chick.
    let pos = Position::from_sfen("+cl1/G2/3/1L1 b - 1").unwrap();
    let after = pos.after(pos.parse_move("a2a1").unwrap());
    assert_eq!(after.hand_count(Color::Sente, Kind::Chick), 1);
    assert_eq!(after.to_sfen(), "Gl1/3/3/1L1 w C 1");
}
