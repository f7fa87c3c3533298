//! The same search twice from a fresh engine visits the same nodes and agrees, so
//! node counts can serve as signatures.

use search::engine::Signals;
use search::{Engine, Limits};
use shogi::Position;
use shogi_game::ShogiGame;

#[test]
fn fresh_searches_repeat_exactly() {
    let pos = Position::from_sfen(
        "ln1g1gsnl/1r1s1k1b1/p1pppp1pp/6p2/1p7/2P6/PPSPPPPPP/1B2K2R1/LN1G1GSNL b - 11",
    )
    .unwrap();
    let run = || {
        let mut engine = Engine::new(8, 1);
        let signals = Signals::new();
        let r =
            engine.search(&ShogiGame::new(pos.clone()), &Limits::depth(7), &signals, &mut |_| {});
        (r.nodes, r.best_move, r.score)
    };
    assert_eq!(run(), run());
}
