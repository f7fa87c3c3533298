//! The reference data (Tanaka 2009 and its reproductions): the start position,
//! its four first moves, and a 78-ply principal variation of perfect play
//! replayed move by move, ending as Tanaka's model says it ends.

use dobutsu::{Dobutsu, End, Kind, Move, Position, STARTPOS};
use search::{Game, Outcome};

/// brianhliou/dobutsu-shogi data/perfect-game.txt as quoted in the reference:
/// odd plies Sente, even plies Gote.
const PERFECT_GAME: &str = "
1.Lb4-a3 2.Ga1-a2 3.La3-b4 4.Cb2xb3 5.Ea4xb3 6.Ec1-b2 7.Eb3xa2 8.Lb1xa2 9.G*b3 10.E*c2
11.Gb3xb2 12.La2xb2 13.E*a3 14.Lb2-a2 15.Gc4-c3 16.C*b2 17.Ea3xb2 18.La2xb2 19.C*b3 20.Lb2-b1
21.Lb4-a3 22.G*a2 23.La3-b4 24.E*a3 25.Lb4-a4 26.Lb1-c1 27.Gc3-c4 28.Ea3-b2 29.Cb3xb2 30.Lc1xb2
31.E*c3 32.Lb2-a1 33.Ec3-b4 34.C*b3 35.Eb4-c3 36.La1-b1 37.C*a3 38.Ga2-a1 39.Ec3-b4 40.Cb3xb4+
41.La4xb4 42.Lb1-b2 43.Gc4-c3 44.E*b3 45.Gc3xc2 46.Lb2xc2 47.C*c3 48.Lc2-b2 49.E*c1 50.Lb2xc1
51.Lb4xb3 52.Lc1-b1 53.E*c2 54.Lb1-c1 55.Ca3-a2 56.G*b2 57.Lb3-b4 58.Ga1xa2 59.Ec2-b3 60.Lc1-b1
61.Eb3-c2 62.Gb2xc2 63.Cc3xc2 64.Lb1xc2 65.G*c3 66.Lc2-b1 67.Lb4-b3 68.E*a3 69.Lb3-a4 70.E*b2
71.La4-b3 72.Eb2xc3 73.Lb3xc3 74.C*c2 75.Lc3-b3 76.G*b4 77.Lb3xa2 78.Lb1xa2
";

fn perfect_game() -> Vec<&'static str> {
    PERFECT_GAME.split_whitespace().map(|t| t.split_once('.').expect("numbered").1).collect()
}

/// The legal move of `pos` written `text` in long notation.
fn find(pos: &Position, text: &str) -> Move {
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let found: Vec<Move> = moves.into_iter().filter(|m| m.long_notation() == text).collect();
    assert_eq!(found.len(), 1, "{text} in {}", pos.to_sfen());
    found[0]
}

#[test]
fn the_start_position_has_the_four_known_first_moves() {
    let pos = Position::from_sfen(STARTPOS).unwrap();
    let mut moves: Vec<String> = {
        let mut m = Vec::new();
        pos.legal_moves(&mut m);
        m.iter().map(|m| m.long_notation()).collect()
    };
    moves.sort();
    assert_eq!(moves, ["Cb3xb2", "Gc4-c3", "Lb4-a3", "Lb4-c3"]);
}

#[test]
fn the_perfect_game_replays_and_ends_as_tanaka_scores_it() {
    let plies = perfect_game();
    assert_eq!(plies.len(), 78);
    let mut game = Dobutsu::default();
    for (i, text) in plies.iter().enumerate() {
        let pos = game.position();
        // The game goes on until the last ply, the capture of Sente's lion.
        if i < 77 {
            assert_eq!(pos.end(), None, "ply {} {text}: {}", i + 1, pos.to_sfen());
            assert_eq!(game.outcome(), None);
        } else {
            assert_eq!(pos.end(), Some(End::CanCaptureLion), "{}", pos.to_sfen());
            assert_eq!(game.outcome(), Some(Outcome::Win));
        }
        let m = find(&pos, text);
        // USI notation round-trips on the way.
        assert_eq!(pos.parse_move(&m.to_string()), Ok(m));
        if i == 39 {
            assert!(m.is_promotion(), "40.Cb3xb4+ promotes");
        }
        game.play(m);
    }
    // Sente's lion is gone; Gote has won in 78 plies.
    let last = game.position();
    assert_eq!(last.end(), Some(End::LionCaptured));
    assert_eq!(last.pieces_of(dobutsu::Color::Sente, Kind::Lion), 0);
    assert_eq!(game.outcome(), Some(Outcome::Loss));
    assert_eq!(game.history().len(), 78);
    // Taking every move back returns to the start.
    let mut pos = last;
    let history = game.history().to_vec();
    for (i, text) in plies.iter().enumerate().rev() {
        let m = find(&history[i], text);
        pos.unmake_move(m);
        assert_eq!(pos, history[i]);
    }
    assert_eq!(pos, Position::startpos());
}
