//! The classical engine finds short mates from the reference tsume sets in
//! ../shared/data and reports them as `mate N`.

use eval::ShogiGame;
use search::engine::Signals;
use search::value::Score;
use search::{Engine, Limits};
use shogi::{legal_moves, Move, Position};

/// The first `count` problems of a set, or `None` (after a notice) without the data.
fn problems(test: &str, file: &str, count: usize) -> Option<Vec<(Position, Vec<String>)>> {
    let text = testdata::shared_text(test, &format!("tsume/{file}"))?;
    let list = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .take(count)
        .map(|l| {
            let (sfen, moves) = l.split_once(" moves ").expect("SFEN moves line");
            let pos = Position::from_sfen(sfen).expect("valid SFEN");
            (pos, moves.split_whitespace().map(str::to_string).collect())
        })
        .collect();
    Some(list)
}

fn search(pos: &Position, depth: i32) -> (Option<Move>, Score) {
    let mut engine = Engine::new(16, 1);
    let signals = Signals::new();
    let r =
        engine.search(&ShogiGame::new(pos.clone()), &Limits::depth(depth), &signals, &mut |_| {});
    (r.best_move, Score::from_value(r.score))
}

fn is_mate(pos: &Position) -> bool {
    pos.in_check() && legal_moves(pos).is_empty()
}

#[test]
fn mates_in_one() {
    let Some(set) = problems("mates_in_one", "tsume_3ply.txt", 40) else { return };
    for (mut pos, line) in set {
        // Two plies into a 3-ply problem, one move mates.
        for m in &line[..2] {
            let mv = pos.parse_usi_move(m).unwrap();
            pos.do_move(mv);
        }
        let (best, score) = search(&pos, 3);
        let best = best.expect("a move");
        assert!(legal_moves(&pos).contains(best));
        assert_eq!(score, Score::Mate(1), "{}", pos.to_sfen());
        pos.do_move(best);
        assert!(is_mate(&pos), "{best} does not mate");
    }
}

#[test]
fn mates_in_three() {
    let Some(set) = problems("mates_in_three", "tsume_3ply.txt", 25) else { return };
    for (pos, _) in set {
        let (best, score) = search(&pos, 5);
        assert!(legal_moves(&pos).contains(best.expect("a move")));
        assert_eq!(score, Score::Mate(3), "{}", pos.to_sfen());
    }
}

#[test]
fn mates_in_five() {
    let Some(set) = problems("mates_in_five", "tsume_5ply.txt", 10) else { return };
    for (pos, _) in set {
        let (best, score) = search(&pos, 7);
        assert!(legal_moves(&pos).contains(best.expect("a move")));
        assert_eq!(score, Score::Mate(5), "{}", pos.to_sfen());
    }
}

/// The defending side sees its coming mate as `mate -N`.
#[test]
fn the_mated_side_sees_negative_mate() {
    let Some(set) = problems("the_mated_side_sees_negative_mate", "tsume_3ply.txt", 10) else {
        return;
    };
    for (mut pos, line) in set {
        let mv = pos.parse_usi_move(&line[0]).unwrap();
        pos.do_move(mv);
        let (_, score) = search(&pos, 4);
        assert_eq!(score, Score::Mate(-2), "{}", pos.to_sfen());
    }
}
