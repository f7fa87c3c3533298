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

/// PVS keeps the move-ordering statistics of one search for the next search of
/// the game, and forgets them with the game (`clear`): with the table made
/// anew each time, the second search differs from the first only by what it
/// kept, and a search after `clear` is the first again.
#[test]
fn move_order_is_kept_between_searches_and_forgotten_with_the_game() {
    shogi::attacks::init();
    let pos = Position::from_sfen(
        "ln1g1gsnl/1r1s1k1b1/p1pppp1pp/6p2/1p7/2P6/PPSPPPPPP/1B2K2R1/LN1G1GSNL b - 11",
    )
    .expect("a test SFEN");
    let game = ShogiGame::new(pos);
    let mut engine = Engine::new(8, 1);
    let nodes = |engine: &mut Engine<ShogiGame>| {
        engine.release_table(); // made anew, empty, by the search
        engine.search(&game, &Limits::depth(8), &Signals::new(), &mut |_| {}).nodes
    };
    let first = nodes(&mut engine);
    let second = nodes(&mut engine);
    assert_ne!(second, first, "the second search starts with the first one's histories");
    engine.clear();
    assert_eq!(nodes(&mut engine), first, "a new game starts with none");
}

/// Statistics kept from a search with one side to move are not used for a root
/// with the other side to move (their continuation rows split by the ply's
/// parity would mean the other side's moves).
#[test]
fn move_order_is_kept_only_for_the_same_side_to_move() {
    shogi::attacks::init();
    let black = "ln1g1gsnl/1r1s1k1b1/p1pppp1pp/6p2/1p7/2P6/PPSPPPPPP/1B2K2R1/LN1G1GSNL b - 11";
    let white = "ln1g1gsnl/1r1s1k1b1/p1pppp1pp/6p2/1p7/2P6/PPSPPPPPP/1B2K2R1/LN1G1GSNL w - 12";
    let game = |sfen: &str| ShogiGame::new(Position::from_sfen(sfen).expect("a test SFEN"));
    let nodes = |engine: &mut Engine<ShogiGame>, sfen: &str| {
        engine.release_table();
        engine.search(&game(sfen), &Limits::depth(8), &Signals::new(), &mut |_| {}).nodes
    };
    let fresh = nodes(&mut Engine::new(8, 1), white);
    let mut engine = Engine::new(8, 1);
    nodes(&mut engine, black);
    assert_eq!(nodes(&mut engine, white), fresh, "White's root starts as a fresh search");
    assert_ne!(nodes(&mut engine, white), fresh, "then keeps its own");
}
