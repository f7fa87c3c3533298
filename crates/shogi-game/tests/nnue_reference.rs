//! Kyobo's NNUE evaluation against YaneuraOu's on the same file: 1,200 positions
//! of real games (Kyobo's refereed matches) with the values YaneuraOu's NNUE
//! edition gives them with the random network `Network::random(20261203)`
//! (fixture made by `tools/nnue_reference.py`). Every value must be the same to
//! the unit, both computed afresh and kept move by move.

use eval::nnue::stack::evaluate_afresh;
use eval::nnue::Network;
use search::Game;
use shogi::Position;
use shogi_game::ShogiGame;
use std::sync::Arc;

const FIXTURE: &str = include_str!("data/nnue_reference.txt");
const SEED: u64 = 20261203;

fn cases() -> Vec<(Position, i32)> {
    FIXTURE
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| {
            let (sfen, value) = l.split_once('\t').expect("SFEN<TAB>value");
            (Position::from_sfen(sfen).expect(sfen), value.parse().expect(value))
        })
        .collect()
}

#[test]
fn values_equal_yaneuraous_on_the_same_file() {
    let network = Arc::new(Network::random(SEED).unwrap());
    let cases = cases();
    assert_eq!(cases.len(), 1200);
    for (pos, expected) in &cases {
        assert_eq!(evaluate_afresh(&network, pos), Some(*expected), "{}", pos.to_sfen());
    }
}

/// The same values through the game the search uses: each position's legal moves
/// made and taken back, then the position evaluated again from the kept
/// accumulators.
#[test]
fn the_search_sees_the_same_values() {
    let network = Arc::new(Network::random(SEED).unwrap());
    for (pos, expected) in cases().iter().step_by(10) {
        let mut game = ShogiGame::new(pos.clone());
        assert!(game.set_network(Some(network.clone())));
        assert_eq!(game.evaluate(), *expected);
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        for &m in &moves {
            game.make_move(m);
            let after = game.evaluate();
            let mut fresh_pos = pos.clone();
            fresh_pos.do_move(m);
            assert_eq!(Some(after), evaluate_afresh(&network, &fresh_pos), "{m}");
            game.unmake_move(m);
        }
        assert_eq!(game.evaluate(), *expected);
    }
}
