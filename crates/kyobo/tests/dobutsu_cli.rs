//! `kyobo dobutsu solve` and `kyobo dobutsu best` as a user runs them, on a small
//! root (two lions and two chicks) that solves in a moment. The full game's
//! figures are checked by the `dobutsu` crate's oracle tests.

use crate::common;
use dobutsu::solve::Database;
use dobutsu::Position;
use testdata::ScratchDir;

const SMALL: &str = "1l1/1c1/1C1/1L1 b - 1";

/// Runs `kyobo dobutsu ARGS`: success, standard output, standard error.
fn dobutsu(args: &[&str]) -> (bool, String, String) {
    common::kyobo(&[&["dobutsu"], args].concat())
}

/// The number after `label` on the line holding it (`1,234` read as 1234).
fn figure(text: &str, label: &str) -> u64 {
    let at = text.find(label).unwrap_or_else(|| panic!("no '{label}' in:\n{text}")) + label.len();
    let digits: String =
        text[at..].chars().take_while(|c| c.is_ascii_digit() || *c == ',').collect();
    digits.replace(',', "").parse().unwrap_or_else(|_| panic!("no number after '{label}'"))
}

#[test]
fn solve_writes_a_database_that_best_reads() {
    let dir = ScratchDir::new("dobutsu-cli");
    let db_path = dir.join("small.db");
    let db_arg = db_path.to_str().expect("a UTF-8 path");
    let (ok, out, err) = dobutsu(&["solve", "--sfen", SMALL, "--threads", "2", "--out", db_arg]);
    assert!(ok, "{out}\n{err}");

    // The figures printed are the file's.
    let db = Database::load(&db_path).expect("the database written");
    let root = Position::from_sfen(SMALL).unwrap();
    let reachable = figure(&out, "positions reachable from the root: ");
    let over = figure(&out, "the game over in ");
    let stored = figure(&out, "stored: ");
    assert_eq!(stored, db.stored());
    assert_eq!(reachable, over + stored, "{out}");
    let (wins, draws, losses, _) = db.counts();
    assert_eq!(reachable, wins + draws + losses, "{out}");
    let value = db.value(root).expect("the root is stored");
    assert!(out.contains(&format!("the root: {value}")), "{out}");
    assert!(out.contains("database written to"), "{out}");

    // `best` lists every legal move with the database's value, best first.
    let (ok, best, err) = dobutsu(&["best", "--sfen", SMALL, "--db", db_arg]);
    assert!(ok, "{err}");
    let mut legal = Vec::new();
    root.legal_moves(&mut legal);
    let listed: Vec<&str> = best.lines().skip(1).collect();
    assert_eq!(listed.len(), legal.len(), "{best}");
    for ((m, v), line) in db.best(root).unwrap().into_iter().zip(&listed) {
        assert!(line.starts_with(&m.to_string()) && line.ends_with(&v.to_string()), "{line}");
    }
    assert!(best.lines().next().unwrap().ends_with(&format!(": {value}")), "{best}");

    // A position the database does not hold: a search to depth 9 instead, with
    // a line for each legal move.
    let (ok, fallback, err) = dobutsu(&["best", "--sfen", "startpos", "--db", db_arg]);
    assert!(ok, "{err}");
    assert!(fallback.contains("not reachable") && fallback.contains("a search to depth 9"));
    assert_eq!(fallback.lines().count(), 1 + 4, "the start's four moves:\n{fallback}");
    for m in ["b3b2", "b4a3", "b4c3", "c4c3"] {
        assert!(fallback.lines().any(|l| l.starts_with(m)), "{m}:\n{fallback}");
    }

    // A missing database is an error that says how to make one.
    let (ok, _, err) =
        dobutsu(&["best", "--sfen", SMALL, "--db", dir.join("none.db").to_str().unwrap()]);
    assert!(!ok);
    assert!(err.contains("kyobo dobutsu solve --out"), "{err}");
}

/// `kyobo dobutsu play` refuses a bad start or database before the game: the
/// error on stderr, a failure exit, nothing of a game on stdout.
#[test]
fn play_refuses_a_bad_start_or_database_as_an_error() {
    let dir = ScratchDir::new("dobutsu-play-errors");
    let corrupt = dir.join("corrupt.db");
    std::fs::write(&corrupt, b"not a database at all").expect("written");
    let missing = dir.join("missing.db");
    let cases: [&[&str]; 3] = [
        &["play", "--db", missing.to_str().unwrap()],
        &["play", "--db", corrupt.to_str().unwrap()],
        &["play", "--sfen", "not a position"],
    ];
    for args in cases {
        let (ok, out, err) = dobutsu(args);
        assert!(!ok, "{args:?} succeeded:\n{out}");
        assert!(out.is_empty(), "{args:?} printed a game:\n{out}");
        assert!(err.starts_with("error: "), "{args:?}: {err}");
    }
}

/// A Dobutsu SFEN keeps its move number: `best` shows the position as given, and
/// the USI board after moves counts them.
#[test]
fn sfens_carry_the_real_move_number() {
    let dir = ScratchDir::new("dobutsu-numbers");
    let db_path = dir.join("small.db");
    let db_arg = db_path.to_str().expect("a UTF-8 path");
    let (ok, _, err) = dobutsu(&["solve", "--sfen", SMALL, "--threads", "1", "--out", db_arg]);
    assert!(ok, "{err}");
    let numbered = "1l1/1c1/1C1/1L1 b - 9";
    let (ok, out, err) = dobutsu(&["best", "--sfen", numbered, "--db", db_arg]);
    assert!(ok, "{err}");
    assert!(out.starts_with("1l1/1c1/1C1/1L1 b - 9 "), "{out}");
    // The SFEN is an option now, as in every command.
    let (ok, _, _) = dobutsu(&["best", SMALL, "--db", db_arg]);
    assert!(!ok, "a positional SFEN is refused");
    // Over USI: two moves from move 1, the board's SFEN says move 3.
    let mut gui = crate::common::Gui::start();
    gui.handshake();
    gui.send("setoption name Variant value dobutsu");
    gui.send("position sfen gle/1c1/1C1/ELG b - 1 moves b3b2 b1b2");
    gui.send("d");
    gui.send("isready");
    let lines = gui.lines_until("readyok", std::time::Duration::from_secs(10));
    let sfen = lines.iter().find(|l| l.starts_with("info string sfen ")).expect("the board's SFEN");
    assert!(sfen.ends_with(" 3"), "{sfen}");
    gui.quit();
}
