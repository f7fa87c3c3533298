//! Dobutsu shogi over USI (option `Variant` = `dobutsu`), end to end: the
//! binary is started and spoken to as a GUI would. Every `bestmove` is
//! checked to be legal in the Dobutsu position.

use crate::common;

use common::{bestmove_of, Gui};
use dobutsu::solve::{self, Value};
use dobutsu::{Dobutsu, Position};
use std::path::PathBuf;
use std::time::Duration;
use testdata::ScratchDir;

const SECS: Duration = Duration::from_secs(1);

/// A started engine playing Dobutsu shogi, with the database at `db`.
fn dobutsu_gui(db: &str) -> Gui {
    let mut gui = Gui::start();
    gui.send("usi");
    gui.expect("usiok", SECS * 5);
    gui.send("setoption name Variant value dobutsu");
    gui.send(&format!("setoption name DobutsuDatabase value {db}"));
    gui
}

/// The Dobutsu move of a `bestmove` line, checked to be legal in `game`.
fn assert_legal(game: &Dobutsu, line: &str) -> dobutsu::Move {
    let text = bestmove_of(line);
    match game.position().parse_move(&text) {
        Ok(m) => m,
        Err(e) => panic!("illegal bestmove '{line}' in {}: {e}", game.to_sfen()),
    }
}

#[test]
fn the_options_are_declared() {
    let mut gui = Gui::start();
    gui.send("usi");
    let lines = gui.lines_until("usiok", SECS * 5);
    assert!(
        lines
            .contains(&"option name Variant type combo default shogi var shogi var dobutsu".into()),
        "{lines:?}"
    );
    assert!(
        lines.contains(&"option name DobutsuDatabase type string default dobutsu.db".into()),
        "{lines:?}"
    );
    gui.quit();
}

#[test]
fn without_a_database_the_engine_searches_and_plays_legal_moves() {
    let mut gui = dobutsu_gui("/nonexistent/dobutsu.db");
    gui.send("isready");
    let lines = gui.lines_until("readyok", SECS * 10);
    assert!(lines.iter().any(|l| l.starts_with("info string no Dobutsu database")), "{lines:?}");

    // A game of 12 plies from the start, each move the engine's.
    let mut game = Dobutsu::default();
    let mut moves: Vec<String> = Vec::new();
    for _ in 0..12 {
        if game.position().end().is_some() {
            break;
        }
        let cmd = if moves.is_empty() {
            "position startpos".to_string()
        } else {
            format!("position startpos moves {}", moves.join(" "))
        };
        gui.send(&cmd);
        gui.send("go btime 1000 wtime 1000 byoyomi 100");
        let line = gui.expect("bestmove", SECS * 10);
        let m = assert_legal(&game, &line);
        game.play(m);
        moves.push(m.to_string());
    }
    assert!(
        gui.transcript.iter().any(|l| l.starts_with("info depth") && l.contains(" pv ")),
        "no info lines: {:?}",
        gui.transcript
    );
    gui.quit();
}

#[test]
fn bad_input_is_answered_and_the_engine_goes_on() {
    let mut gui = dobutsu_gui("/nonexistent/dobutsu.db");
    gui.send("isready");
    gui.expect("readyok", SECS * 10);

    // An unknown variant: the option keeps its value.
    gui.send("setoption name Variant value chess");
    let e = gui.expect("info string error", SECS * 5);
    assert!(e.contains("unknown Variant 'chess'"), "{e}");

    // An illegal move: the position is the one before it.
    gui.send("position startpos moves b3b2 b1b2 z9z9");
    let e = gui.expect("info string error", SECS * 5);
    assert!(e.contains("move 3 (z9z9) is illegal"), "{e}");
    let mut game = Dobutsu::default();
    game.play_usi("b3b2").unwrap();
    game.play_usi("b1b2").unwrap();
    gui.send("d");
    let board = gui.lines_until("info string sfen", SECS * 5);
    // The game's SFEN: two moves made, move 3.
    let sfen = format!("info string sfen {}", game.to_sfen());
    assert!(sfen.ends_with(" 3"), "{sfen}");
    assert_eq!(board.last(), Some(&sfen), "{board:?}");
    assert!(board.iter().any(|l| l.contains("vlion")), "{board:?}");
    gui.send("go depth 3");
    assert_legal(&game, &gui.expect("bestmove", SECS * 10));

    // A bad SFEN: an error, and `go` resigns, as for shogi.
    gui.send("position sfen gle/1c1/1C1/ELX b - 1");
    let e = gui.expect("info string error", SECS * 5);
    assert!(e.contains("bad Dobutsu SFEN"), "{e}");
    gui.send("go depth 3");
    gui.expect("info string error: no position to search", SECS * 5);
    assert_eq!(gui.expect("bestmove", SECS * 5), "bestmove resign");

    // `go mate` and `shape` are for shogi.
    gui.send("position startpos");
    gui.send("go mate 1000");
    gui.expect("info string error: go mate is for shogi", SECS * 5);
    gui.expect("checkmate notimplemented", SECS * 5);
    gui.send("shape");
    gui.expect("info string error: shape is for shogi", SECS * 5);

    // A good position afterwards is played.
    gui.send("position startpos moves b4a3");
    gui.send("moves");
    gui.expect("info string 4 legal moves", SECS * 5);
    gui.send("go depth 4");
    let mut game = Dobutsu::default();
    game.play_usi("b4a3").unwrap();
    assert_legal(&game, &gui.expect("bestmove", SECS * 10));
    gui.quit();
}

#[test]
fn a_game_that_is_over_is_answered_at_once() {
    let mut gui = dobutsu_gui("/nonexistent/dobutsu.db");
    // Sente's giraffe can take the lion: the capture is the answer.
    gui.send("position sfen 1l1/1G1/3/1L1 b - 1");
    gui.send("go btime 1000 wtime 1000");
    gui.expect("info string the game is over", SECS * 5);
    assert_eq!(gui.expect("bestmove", SECS * 5), "bestmove b2b1");
    // Gote's lion stands on Sente's back rank, out of reach: Sente has lost.
    gui.send("position sfen 3/L2/3/2l b - 1");
    gui.send("go depth 5");
    assert_eq!(gui.expect("bestmove", SECS * 5), "bestmove resign");
    gui.quit();
}

/// A database of a small root (two lions and two chicks), written where the
/// test can give it to the engine.
/// The folder goes when the returned [`ScratchDir`] is dropped.
fn small_database(name: &str) -> (ScratchDir, PathBuf, solve::Database) {
    let root = Position::from_sfen("1l1/1c1/1C1/1L1 b - 1").unwrap();
    let db = solve::solve(root, 2, &|_| {}).unwrap().database;
    let dir = ScratchDir::new("usi-dobutsu");
    let path = dir.join(name);
    db.save(&path).unwrap();
    (dir, path, db)
}

#[test]
fn with_a_database_the_engine_plays_perfectly_and_says_so() {
    let (_dir, path, db) = small_database("usi.db");
    let mut gui = dobutsu_gui(&path.display().to_string());
    gui.send("isready");
    let lines = gui.lines_until("readyok", SECS * 10);
    assert!(
        lines.iter().any(|l| l.starts_with("info string Dobutsu database") && l.contains("read")),
        "{lines:?}"
    );

    // From the root and a few plies on, each answer is a best move.
    let mut game = Dobutsu::from_sfen("1l1/1c1/1C1/1L1 b - 1").unwrap();
    let mut moves: Vec<String> = Vec::new();
    for _ in 0..6 {
        if game.position().end().is_some() {
            break;
        }
        let best = db.best(game.position()).unwrap();
        let value = best[0].1;
        let mut cmd = "position sfen 1l1/1c1/1C1/1L1 b - 1".to_string();
        if !moves.is_empty() {
            cmd.push_str(&format!(" moves {}", moves.join(" ")));
        }
        gui.send(&cmd);
        gui.send("go btime 1000 wtime 1000");
        let said = gui.expect("info string perfect play from the database", SECS * 5);
        assert!(said.ends_with(&value.to_string()), "{said} vs {value}");
        let info = gui.expect("info depth", SECS * 5);
        let score = match value {
            Value::Win(n) => format!("score mate {n} "),
            Value::Loss(n) => format!("score mate -{n} "),
            Value::Draw => "score cp 0 ".to_string(),
        };
        assert!(info.contains(&score), "{info} vs {value}");
        let line = gui.expect("bestmove", SECS * 5);
        let m = assert_legal(&game, &line);
        let played = best.iter().find(|&&(b, _)| b == m).map(|&(_, v)| v);
        assert_eq!(played, Some(value), "{line} in {}", game.to_sfen());
        game.play(m);
        moves.push(m.to_string());
    }

    // `eval` gives the exact value.
    gui.send("eval");
    let e = gui.expect("info string exact value", SECS * 5);
    assert!(e.contains("(database)"), "{e}");

    // A position with other pieces is not in it: the engine searches.
    gui.send("position startpos");
    gui.send("go depth 4");
    gui.expect("info string the position is not in the database: searching", SECS * 5);
    assert_legal(&Dobutsu::default(), &gui.expect("bestmove", SECS * 10));
    gui.quit();
    let _ = std::fs::remove_file(&path);
}

#[test]
fn shogi_is_played_again_when_the_variant_goes_back() {
    let mut gui = dobutsu_gui("/nonexistent/dobutsu.db");
    gui.send("position startpos");
    gui.send("go depth 2");
    assert_legal(&Dobutsu::default(), &gui.expect("bestmove", SECS * 10));
    gui.send("setoption name Variant value shogi");
    // A Dobutsu SFEN under shogi: the error says which option is wanted.
    gui.send("position sfen gle/1c1/1C1/ELG b - 1");
    let e = gui.expect("info string error", SECS * 5);
    assert!(e.contains("setoption name Variant value dobutsu"), "{e}");
    gui.send("position startpos");
    gui.send("go depth 2");
    let line = gui.expect("bestmove", SECS * 10);
    common::assert_legal(&shogi::Position::startpos(), &line);
    gui.quit();
}
