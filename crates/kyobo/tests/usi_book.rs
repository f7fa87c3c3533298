//! The opening book as a GUI meets it: `BookFile` and the `Book…` options over
//! USI, the flipped book, pondering on a book move, a bad book file, and the
//! opening variety without a book (`RandomOpeningPly`); and `kyobo book` build,
//! extend, sort and probe on records written here.

use crate::common;

use common::{assert_legal, bestmove_of, engine_with_book, kyobo, Gui};
use shogi::Position;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;
use testdata::ScratchDir;

const SECS: Duration = Duration::from_secs(1);
const GO: &str = "go btime 0 wtime 0 byoyomi 1000";

/// A folder of its own for each test, removed at the end.
struct Scratch(ScratchDir);

impl Scratch {
    fn new(name: &str) -> Scratch {
        Scratch(ScratchDir::new(&format!("usi-book-{name}")))
    }

    fn write(&self, name: &str, text: &str) -> PathBuf {
        let path = self.0.join(name);
        std::fs::write(&path, text).expect("write scratch file");
        path
    }
}

/// The start position's book (sorted by SFEN, as searching it on disk needs):
/// two good moves (2g2f played more often) and one
/// the search found losing.
const START_BOOK: &str = "#YANEURAOU-DB2016 1.00
sfen lnsgkgsnl/1r5b1/p1ppppppp/1p7/9/7P1/PPPPPPP1P/1B5R1/LNSGKGSNL b - 3
2f2e 8d8e 45 12 5
sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1
2g2f 8c8d 50 12 5
7g7f 3c3d 40 12 3
5i6h none -400 12 40
";

/// Book moves are played at once, drawn by count and value among those within
/// `BookEvalDiff` of the best, each with `info string book: …` and an
/// `info … pv` line following the book.
#[test]
fn book_moves_are_drawn_by_weight_and_reported() {
    let dir = Scratch::new("drawn");
    let book = dir.write("start.db", START_BOOK);
    // A fixed seed: the draws below are the same on every run.
    let mut gui = engine_with_book(&book, &[("RandomSeed", "20261206")]);
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    for _ in 0..40 {
        gui.send("position startpos");
        gui.send(GO);
        let lines = gui.lines_until("bestmove", 2 * SECS);
        let best = bestmove_of(lines.last().expect("bestmove"));
        assert!(
            lines.iter().any(|l| l.starts_with("info string book: ") && l.contains(&best)),
            "{lines:?}"
        );
        let pv = lines.iter().find(|l| l.starts_with("info depth") && l.contains(" pv "));
        let pv = pv.unwrap_or_else(|| panic!("no pv line: {lines:?}"));
        if best == "2g2f" {
            // The book's line: 2g2f, its ponder 8c8d, then the next entry's 2f2e.
            assert!(pv.ends_with("pv 2g2f 8c8d 2f2e 8d8e"), "{pv}");
            assert!(pv.contains("score cp 50"), "{pv}");
        }
        *seen.entry(best).or_default() += 1;
    }
    // The losing 5i6h (400 below the best, BookEvalDiff 30) is never played;
    // both others are.
    assert_eq!(seen.keys().cloned().collect::<Vec<_>>(), ["2g2f", "7g7f"], "{seen:?}");
    assert!(seen["2g2f"] > seen["7g7f"], "weighted by count: {seen:?}");
    // Out of the book: a search answers.
    gui.send("position startpos moves 2g2f 8c8d 2f2e 8d8e");
    gui.send(GO);
    let lines = gui.lines_until("bestmove", 5 * SECS);
    assert!(!lines.iter().any(|l| l.starts_with("info string book: ")), "{lines:?}");
    gui.quit();
}

/// The book moves an engine draws with `RandomSeed` set.
fn drawn_with_seed(book: &Path, seed: &str) -> Vec<String> {
    let mut gui = engine_with_book(book, &[("RandomSeed", seed)]);
    let drawn = (0..20)
        .map(|_| {
            gui.send("position startpos");
            gui.send(GO);
            bestmove_of(&gui.expect("bestmove", 2 * SECS))
        })
        .collect();
    gui.quit();
    drawn
}

/// `RandomSeed` makes the book's draws repeatable: the same seed draws the same
/// moves in another engine, another seed other moves.
#[test]
fn the_same_seed_draws_the_same_book_moves() {
    let dir = Scratch::new("seeded");
    let book = dir.write("start.db", START_BOOK);
    let first = drawn_with_seed(&book, "7");
    assert_eq!(drawn_with_seed(&book, "7"), first);
    assert!(first.iter().any(|m| m == "2g2f") && first.iter().any(|m| m == "7g7f"), "{first:?}");
    assert_ne!(drawn_with_seed(&book, "8"), first);
}

/// The options YaneuraOu's documentation names, with its meaning:
/// `NarrowBook`/`BookEvalDiff` leave only the best, `BookMoves` ends the book,
/// `USI_OwnBook false` and `no_book` turn it off, `BookIgnoreRate 100` skips it.
#[test]
fn the_book_options_do_what_they_say() {
    let dir = Scratch::new("options");
    let book = dir.write("start.db", START_BOOK);
    let book_move_of = |gui: &mut Gui, position: &str| -> Option<String> {
        gui.send(position);
        gui.send(GO);
        let lines = gui.lines_until("bestmove", 5 * SECS);
        lines
            .iter()
            .any(|l| l.starts_with("info string book: "))
            .then(|| bestmove_of(lines.last().expect("bestmove")))
    };
    let mut gui = engine_with_book(&book, &[("BookEvalDiff", "0")]);
    for _ in 0..10 {
        assert_eq!(book_move_of(&mut gui, "position startpos").as_deref(), Some("2g2f"));
    }
    // The book ends after BookMoves plies: ply 3 is past BookMoves 2.
    let third = "position startpos moves 2g2f 8c8d";
    assert_eq!(book_move_of(&mut gui, third).as_deref(), Some("2f2e"));
    gui.send("setoption name BookMoves value 2");
    assert_eq!(book_move_of(&mut gui, third), None);
    for (name, value) in [("BookIgnoreRate", "100"), ("USI_OwnBook", "false")] {
        let mut gui = engine_with_book(&book, &[]);
        assert!(book_move_of(&mut gui, "position startpos").is_some());
        gui.send(&format!("setoption name {name} value {value}"));
        assert_eq!(book_move_of(&mut gui, "position startpos"), None, "{name} {value}");
        gui.quit();
    }
    gui.send("setoption name BookFile value no_book");
    assert_eq!(book_move_of(&mut gui, "position startpos"), None);
    // Read into memory instead of searched on disk: the same book moves.
    gui.send(&format!("setoption name BookFile value {}", book.display()));
    gui.send("setoption name BookOnTheFly value false");
    gui.send("isready");
    let lines = gui.lines_until("readyok", 10 * SECS);
    assert!(lines.iter().any(|l| l.contains("positions in memory")), "{lines:?}");
    assert_eq!(book_move_of(&mut gui, "position startpos").as_deref(), Some("2g2f"));
    gui.quit();
}

/// A position missing from the book is looked up seen from the other side
/// (`FlippedBook`, on by default), its moves turned back.
#[test]
fn the_flipped_book_answers_for_the_other_side() {
    let dir = Scratch::new("flipped");
    // Black to move after White's 3c3d: seen from White, the position after
    // Black's 7g7f. Black's 2g2f there is White's 8c8d here.
    let book = dir.write(
        "flipped.db",
        "#YANEURAOU-DB2016 1.00\n\
         sfen lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 2\n\
         2g2f none 20 8 1\n",
    );
    let mut gui = engine_with_book(&book, &[]);
    gui.send("position startpos moves 7g7f");
    gui.send(GO);
    let lines = gui.lines_until("bestmove", 2 * SECS);
    assert_eq!(bestmove_of(lines.last().expect("bestmove")), "8c8d", "{lines:?}");
    assert!(lines.iter().any(|l| l.contains("flipped book")), "{lines:?}");
    gui.send("setoption name FlippedBook value false");
    gui.send("position startpos moves 7g7f");
    gui.send(GO);
    let lines = gui.lines_until("bestmove", 5 * SECS);
    assert!(!lines.iter().any(|l| l.starts_with("info string book: ")), "{lines:?}");
    gui.quit();
}

/// Pondering on a book position answers only at `ponderhit` (or `stop`), as a
/// search would; the book's ponder move goes with it when `USI_Ponder` is on.
#[test]
fn a_ponder_search_on_a_book_position_waits_for_ponderhit() {
    let dir = Scratch::new("ponder");
    let book = dir.write("start.db", START_BOOK);
    let mut gui = engine_with_book(&book, &[("USI_Ponder", "true"), ("BookEvalDiff", "0")]);
    gui.send("position startpos");
    gui.send("go ponder btime 0 wtime 0 byoyomi 1000");
    let early = gui.drain(Duration::from_millis(400));
    assert!(!early.iter().any(|l| l.starts_with("bestmove")), "{early:?}");
    gui.send("ponderhit");
    let line = gui.expect("bestmove", 2 * SECS);
    assert_eq!(line, "bestmove 2g2f ponder 8c8d");
    gui.quit();
}

/// A book that cannot be opened or read is an `info string error: …`; the
/// engine plays on without it, its position and options intact.
#[test]
fn a_bad_book_file_is_an_error_and_play_goes_on() {
    let dir = Scratch::new("bad");
    let missing = dir.0.join("missing.db");
    let garbage = dir.write("garbage.db", "#YANEURAOU-DB2016 1.00\nsfen not a position\n7g7f\n");
    let unsorted = dir.write(
        "unsorted.db",
        "#YANEURAOU-DB2016 1.00\n\
         sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\n\
         7g7f none 0 0 1\n\
         sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2\n\
         3c3d none 0 0 1\n\
         sfen 9/9/9/9/9/9/9/9/4K4 b - 1\n\
         5i5h none 0 0 1\n",
    );
    for (path, on_the_fly) in
        [(&missing, "true"), (&garbage, "false"), (&garbage, "true"), (&unsorted, "true")]
    {
        let mut gui = Gui::start();
        gui.handshake();
        gui.send(&format!("setoption name BookFile value {}", path.display()));
        gui.send(&format!("setoption name BookOnTheFly value {on_the_fly}"));
        gui.send("isready");
        let lines = gui.lines_until("readyok", 10 * SECS);
        assert!(
            lines.iter().any(|l| l.starts_with("info string error: BookFile")),
            "{}: {lines:?}",
            path.display()
        );
        gui.send("position startpos moves 7g7f");
        gui.send("go depth 3");
        let line = gui.expect("bestmove", 10 * SECS);
        let mut pos = Position::startpos();
        pos.do_move(pos.parse_usi_move("7g7f").expect("legal"));
        assert_legal(&pos, &line);
        gui.quit();
    }
}

/// Without a book, `RandomOpeningPly` draws among the root moves within
/// `RandomOpeningMargin` of the best; off (the default), the same search
/// always plays the same move.
#[test]
fn random_opening_plies_vary_the_first_moves() {
    let first_moves = |options: &[(&str, &str)]| -> (BTreeMap<String, usize>, usize) {
        let mut gui = Gui::start();
        gui.send("usi");
        gui.expect("usiok", 5 * SECS);
        for (name, value) in options {
            gui.send(&format!("setoption name {name} value {value}"));
        }
        gui.send("isready");
        gui.expect("readyok", 10 * SECS);
        let (mut seen, mut told) = (BTreeMap::new(), 0);
        for _ in 0..12 {
            gui.send("usinewgame");
            gui.send("position startpos");
            gui.send("go depth 4");
            let lines = gui.lines_until("bestmove", 20 * SECS);
            told += lines.iter().filter(|l| l.starts_with("info string random opening: ")).count();
            *seen.entry(bestmove_of(lines.last().expect("bestmove"))).or_default() += 1;
        }
        gui.quit();
        (seen, told)
    };
    let (fixed, told) = first_moves(&[]);
    assert_eq!((fixed.len(), told), (1, 0), "{fixed:?}");
    let (varied, told) = first_moves(&[
        ("RandomOpeningPly", "2"),
        ("RandomOpeningMargin", "300"),
        ("RandomOpeningWidth", "6"),
    ]);
    assert!(varied.len() >= 2, "{varied:?}");
    assert!(told >= 1, "{varied:?}");
}

/// `kyobo book build` counts the moves of USI lists and CSA records (the
/// winner's only when asked), `extend` gives them search values, `sort` and
/// `probe` read the result back.
#[test]
fn kyobo_book_builds_extends_sorts_and_probes() {
    let dir = Scratch::new("cli");
    let list = dir.write(
        "games.sfen",
        "startpos moves 7g7f 3c3d 2g2f 8c8d\n\
         startpos moves 7g7f 3c3d 2g2f 4c4d\n\
         startpos moves 2g2f 8c8d\n\
         # a comment, then a line that is not a game\n\
         startpos moves 7g7f 7g7f\n",
    );
    let csa = dir.write(
        "won.csa",
        "V2.2\nN+black\nN-white\nPI\n+\n+7776FU\n-3334FU\n+2726FU\n-8384FU\n+2625FU\n%TORYO\n",
    );
    let out = dir.0.join("book.db");
    let out_s = out.to_str().expect("utf-8 path");
    let (ok, stdout, stderr) =
        kyobo(&["book", "build", list.to_str().unwrap(), csa.to_str().unwrap(), "--out", out_s]);
    assert!(ok, "{stdout}{stderr}");
    assert!(stdout.contains("4 games from 2 files"), "{stdout}");
    assert!(stderr.contains("games.sfen:5"), "the bad line is named: {stderr}");
    let text = std::fs::read_to_string(&out).expect("book written");
    assert!(text.starts_with("#YANEURAOU-DB2016 1.00\n"), "{text}");
    // From the start: 7g7f three times (its usual reply 3c3d), 2g2f once.
    let start = "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\n";
    assert!(text.contains(&format!("{start}7g7f 3c3d 0 0 3\n2g2f 8c8d 0 0 1\n")), "{text}");

    // Depth 1 and the winner only: the CSA game's first move, and nothing from
    // the USI lists, which have no result.
    let winners = dir.0.join("winners.db");
    let (ok, stdout, _) = kyobo(&[
        "book",
        "build",
        list.to_str().unwrap(),
        csa.to_str().unwrap(),
        "--out",
        winners.to_str().unwrap(),
        "--depth",
        "1",
        "--winner-only",
    ]);
    assert!(ok, "{stdout}");
    let text = std::fs::read_to_string(&winners).expect("book written");
    assert_eq!(text, format!("#YANEURAOU-DB2016 1.00\n{start}7g7f 3c3d 0 0 1\n"));

    // Search values and depths for every book move, best first.
    let extended = dir.0.join("extended.db");
    let (ok, stdout, stderr) =
        kyobo(&["book", "extend", out_s, "--out", extended.to_str().unwrap(), "--depth", "3"]);
    assert!(ok, "{stdout}{stderr}");
    let book = std::fs::read_to_string(&extended).expect("extended book");
    let after_start = book.split(start).nth(1).expect("start position kept");
    let moves: Vec<Vec<&str>> = after_start
        .lines()
        .take_while(|l| !l.starts_with("sfen"))
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert_eq!(moves.len(), 2, "{book}");
    let values: Vec<i32> = moves.iter().map(|m| m[2].parse().expect("value")).collect();
    assert!(values[0] >= values[1], "best first: {moves:?}");
    assert!(moves.iter().all(|m| m[3] == "3"), "depth 3: {moves:?}");

    // A timed extension searches for the whole time, a position's only book
    // move too (a timed search alone would stop on it at depth 1).
    let timed = dir.0.join("timed.db");
    let winners_s = winners.to_str().unwrap();
    let (ok, stdout, stderr) = kyobo(&[
        "book",
        "extend",
        winners_s,
        "--out",
        timed.to_str().unwrap(),
        "--movetime",
        "300",
    ]);
    assert!(ok, "{stdout}{stderr}");
    let book = std::fs::read_to_string(&timed).expect("timed book");
    let only: Vec<&str> = book.lines().nth(2).expect("the move").split_whitespace().collect();
    assert_eq!(only[0], "7g7f", "{book}");
    assert!(only[3].parse::<i32>().expect("depth") >= 3, "searched deeper than 1: {book}");

    // Sort and probe, on disk and in memory: the same moves.
    let sorted = dir.0.join("sorted.db");
    let (ok, stdout, _) =
        kyobo(&["book", "sort", extended.to_str().unwrap(), sorted.to_str().unwrap()]);
    assert!(ok, "{stdout}");
    for memory in [false, true] {
        let mut args = vec!["book", "probe", sorted.to_str().unwrap(), "--moves", "7g7f"];
        if memory {
            args.push("--in-memory");
        }
        let (ok, stdout, stderr) = kyobo(&args);
        assert!(ok, "{stdout}{stderr}");
        assert!(stdout.lines().any(|l| l.starts_with("3c3d ")), "{stdout}");
        assert!(stdout.contains("opened in"), "{stdout}");
    }
    let (ok, stdout, _) = kyobo(&["book", "probe", sorted.to_str().unwrap(), "--moves", "1g1f"]);
    assert!(ok && stdout.contains("not in the book"), "{stdout}");
    // Errors are messages, not panics.
    let (ok, _, stderr) = kyobo(&["book", "probe", dir.0.join("none.db").to_str().unwrap()]);
    assert!(!ok && !stderr.contains("panicked") && !stderr.is_empty(), "{stderr}");
}
