//! The end of the game inside the search, on shogi positions reached in play (the
//! moves before the root are in the position's history, as `position … moves …`
//! leaves them): repetitions of game positions, perpetual check deep in the
//! tree, superior repetitions, the 16-ply horizon of repetitions, the move limit
//! at exactly its last move, and the entering-king declaration found by search.

use search::engine::Signals;
use search::value::{mate_in, DRAW, MATE_IN_MAX_PLY};
use search::{Engine, Limits, SearchResult};
use shogi::{Move, Position};
use shogi_game::ShogiGame;

/// The position after `moves` (USI) from `sfen`, with the moves in its history.
fn after(sfen: &str, moves: &str) -> Position {
    shogi::attacks::init();
    let mut pos = Position::from_sfen(sfen).expect("a test SFEN");
    for text in moves.split_whitespace() {
        let m = pos.parse_usi_move(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        pos.do_move(m);
    }
    pos
}

fn search(game: &ShogiGame, depth: i32) -> SearchResult<Move> {
    let mut engine = Engine::new(16, 1);
    engine.search(game, &Limits::depth(depth), &Signals::new(), &mut |_| {})
}

fn best(result: &SearchResult<Move>) -> String {
    result.best_move.map_or("none".into(), |m| m.to_usi())
}

/// Black: a rook and two golds in hand against a bare king (White is lost).
const ROOK_AND_GOLDS: &str = "4k4/9/9/9/9/9/9/8R/4K4 b 2G 1";

/// The losing side takes a repetition of a position of the game (a draw), the
/// winning side stays clear of giving it the chance.
#[test]
fn a_repetition_of_the_game_is_a_draw_the_loser_takes_and_the_winner_avoids() {
    // White to move can play 4a5a, back to the position before 1h1g.
    let pos = after(ROOK_AND_GOLDS, "1h1g 5a4a 1g1h");
    let r = search(&ShogiGame::new(pos), 5);
    assert_eq!((best(&r), r.score), ("4a5a".to_string(), DRAW));
    // Black to move: 1g1h would let White repeat; Black plays on, well ahead.
    let pos = after(ROOK_AND_GOLDS, "1h1g 5a4a");
    let r = search(&ShogiGame::new(pos), 5);
    assert_ne!(best(&r), "1g1h");
    assert!(r.score > 500, "{}", r.score);
}

/// Perpetual check loses for the checker, also where the cycle closes inside the
/// tree: Black's rook can check White's king on 1a from 1c and 2c forever, which
/// would be a draw were perpetual check a plain repetition; White, with two
/// bishops and two golds in hand, wins anything else. Black's value is a loss.
#[test]
fn perpetual_check_inside_the_tree_is_a_loss_for_the_checker() {
    let sfen = "8k/9/7R1/9/9/9/9/9/4K4 b 2b2g 1";
    let r = search(&ShogiGame::new(after(sfen, "")), 6);
    assert!(r.score < -1000, "{}: {}", best(&r), r.score);
}

/// Reaching the same board with more in hand is as good as a gain (30 pawns, less
/// than any mate): White dropped a pawn, Black's rook took it and came home while
/// White's king stepped away and back; Black's last step makes the repetition.
#[test]
fn a_superior_repetition_is_worth_thirty_pawns() {
    let sfen = "4k4/9/9/9/9/9/9/8R/4K4 w p 1";
    let pos = after(sfen, "P*1d 1h1d 5a4a 1d1g 4a5a");
    let r = search(&ShogiGame::new(pos), 3);
    assert_eq!((best(&r), r.score), ("1g1h".to_string(), 3000));
}

/// Repetitions are looked for 16 plies back inside the search, not further: the
/// same cycle closed after 16 plies is a draw, after 18 it is not seen.
#[test]
fn repetitions_are_seen_sixteen_plies_back_and_not_eighteen() {
    // 16 plies: the rook walks a loop of eight moves, the king 5a4a four times.
    let sixteen = "1h1f 5a4a 1f1d 4a5a 1d2d 5a4a 2d2e 4a5a 2e2f 5a4a 2f3f 4a5a 3f3h 5a4a 3h1h";
    let pos = after(ROOK_AND_GOLDS, sixteen);
    let r = search(&ShogiGame::new(pos), 3);
    assert_eq!((best(&r), r.score), ("4a5a".to_string(), DRAW));
    // 18 plies: a loop of nine rook moves and three king triangles; every square
    // of the rook's loop is new, so nothing repeats within 16 plies.
    let eighteen = "1h1f 5a4a 1f1d 4a4b 1d2d 4b5a 2d2e 5a4a 2e2f 4a4b 2f2g 4b5a 2g3g 5a4a \
                    3g3h 4a4b 3h1h";
    let pos = after(ROOK_AND_GOLDS, eighteen);
    let r = search(&ShogiGame::new(pos), 3);
    assert!(r.score < -500, "{}: {}", best(&r), r.score);
}

/// With `max_moves_to_draw` N, a position after move N is drawn, but a mate
/// delivered by move N still wins.
#[test]
fn the_move_limit_draws_after_its_last_move_but_a_mate_on_it_wins() {
    // Move 10: Black mates with G*5b (the pawn on 5c guards the gold).
    let mut game = ShogiGame::new(after("4k4/9/4P4/9/9/9/9/9/4K4 b G 10", ""));
    game.max_moves_to_draw = 10;
    let r = search(&game, 3);
    assert_eq!((best(&r), r.score), ("G*5b".to_string(), mate_in(1)));
    // Without the gold there is no mate: every move of Black's ends the game drawn.
    let mut game = ShogiGame::new(after("4k4/9/4P4/9/9/9/9/9/4K4 b - 10", ""));
    game.max_moves_to_draw = 10;
    assert_eq!(search(&game, 3).score, DRAW);
    // A move later the game goes on.
    game.max_moves_to_draw = 11;
    assert_ne!(search(&game, 1).score, DRAW);
}

/// A declaration is a win the search finds like a mate: the king steps into the
/// camp, and on Black's next turn the declaration wins (a mate in three plies).
#[test]
fn the_declaration_is_found_inside_the_tree() {
    // Ten pieces in the camp, 18 points there and 10 in hand: 28 with the king in.
    let sfen = "9/1+R4+B2/PPPP1PPPP/4K4/9/9/9/9/8k b 2G2S2N2L2P 1";
    let game = ShogiGame::new(after(sfen, ""));
    assert!(!game.declaration_wins());
    let r = search(&game, 4);
    assert_eq!((best(&r), r.score), ("5d5c".to_string(), mate_in(3)));
    // Under the rule that allows no declaration, it is only a good position.
    let mut game = game;
    game.entering_king_rule = shogi::EnteringKingRule::None;
    assert!(search(&game, 4).score < MATE_IN_MAX_PLY);
}
