//! What the USI options promise (docs/usi.md, docs/book.md, docs/abc.md): the
//! defaults the docs' tables list against the engine's `option` lines, and every
//! declared option in a table; `MaxMovesToDraw` drawing the game after its move;
//! `NetworkDelay` and `MinimumThinkingTime` checked and kept; `SearchAlgorithm ABC`
//! with its `ABC_…` options, bad values and misspelt names refused; and the book
//! options (`BookEvalBlackLimit`, `BookEvalWhiteLimit`, `BookDepthLimit`,
//! `ConsiderBookMoveCount`, `IgnoreBookPly`, `BookPvMoves`) leaving out or keeping
//! the book moves they should, on small books written for each test.

use crate::common;

use common::{assert_legal, bestmove_of, exactly_one_bestmove, position_after, Gui};
use shogi::Position;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;
use testdata::ScratchDir;

const SECS: Duration = Duration::from_secs(1);

// ---- the options the docs list ----------------------------------------------------

/// The `option name …` lines the engine answers to `usi`: name to (type, default).
fn declared_options() -> BTreeMap<String, (String, String)> {
    let mut gui = Gui::start();
    gui.send("usi");
    let lines = gui.lines_until("usiok", 5 * SECS);
    gui.quit();
    let mut options = BTreeMap::new();
    for line in lines.iter().filter(|l| l.starts_with("option name ")) {
        let words: Vec<&str> = line.split(' ').collect();
        let at = |key: &str| words.iter().position(|w| *w == key);
        let (Some(ty), Some(default)) = (at("type"), at("default")) else {
            panic!("an option line without a type or a default: {line}");
        };
        let name = words[2..ty].join(" ");
        // The default runs to `min`, `var` or the end of the line.
        let end = words[default + 1..]
            .iter()
            .position(|w| *w == "min" || *w == "var")
            .map_or(words.len(), |i| default + 1 + i);
        let value = words[default + 1..end].join(" ");
        let previous = options.insert(name.clone(), (words[ty + 1].to_string(), value));
        assert!(previous.is_none(), "{name} declared twice");
    }
    assert!(options.len() > 20, "{lines:?}");
    options
}

/// A page of docs/.
fn docs_page(name: &str) -> String {
    let path = format!("{}/../../docs/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The rows of a page's option tables (those under a `| option | default | …`
/// header): the names written in backticks in the first cell and the defaults of
/// the second cell, split alike (`` `A`, `B` | 0, 3 `` or `` `A` / `B` | 0 / −140 ``).
/// Rows that stand for a family (`` `ABC_…` ``) give names ending in `…` and no
/// defaults.
fn option_rows(page: &str) -> Vec<(Vec<String>, Vec<String>)> {
    let mut rows = Vec::new();
    let mut in_table = false;
    for line in page.lines() {
        if !line.starts_with('|') {
            in_table = false;
            continue;
        }
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        if cells.get(1) == Some(&"option") && cells.get(2) == Some(&"default") {
            in_table = true;
            continue;
        }
        if !in_table || !cells.get(1).is_some_and(|c| c.starts_with('`')) {
            continue;
        }
        let names: Vec<String> =
            cells[1].split('`').skip(1).step_by(2).map(str::to_string).collect();
        let defaults: Vec<String> = if names.len() == 1 {
            vec![cells[2].replace('−', "-")]
        } else {
            cells[2].split([',', '/']).map(|d| d.trim().replace('−', "-")).collect()
        };
        rows.push((names, defaults));
    }
    assert!(!rows.is_empty(), "no option table");
    rows
}

/// Each option a page's tables give a default for, with that default.
fn documented_defaults(page: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (names, defaults) in option_rows(page) {
        if names.iter().any(|n| n.contains('…')) {
            continue;
        }
        assert_eq!(names.len(), defaults.len(), "a default for each of {names:?}: {defaults:?}");
        out.extend(names.into_iter().zip(defaults));
    }
    out
}

/// Each default of `page`'s tables is the one the engine declares; `listed` are
/// among them (the tables were read).
fn check_defaults(page_name: &str, listed: &[&str]) {
    let declared = declared_options();
    let documented = documented_defaults(&docs_page(page_name));
    for name in listed {
        assert!(documented.iter().any(|(n, _)| n == name), "{name} in docs/{page_name}");
    }
    for (name, default) in &documented {
        let Some((ty, value)) = declared.get(name) else {
            panic!("docs/{page_name} lists `{name}`, which the engine does not declare");
        };
        assert!(["check", "spin", "string", "combo"].contains(&ty.as_str()), "{name}: {ty}");
        assert_eq!(value, default, "docs/{page_name}: the default of {name} ({ty})");
    }
}

/// docs/usi.md's option table gives each option's default as the engine declares
/// it (`USI_Hash` 64, `EnteringKingRule` CSARule27, `EvalFile` none, …).
#[test]
fn the_usi_page_lists_each_default_as_declared() {
    check_defaults("usi.md", &["USI_Hash", "MaxMovesToDraw", "SearchAlgorithm", "EvalFile"]);
}

/// docs/book.md's tables give the book's and the opening variety's defaults as the
/// engine declares them (`BookEvalWhiteLimit` −140, `BookPvMoves` 8, …).
#[test]
fn the_book_page_lists_each_default_as_declared() {
    check_defaults("book.md", &["BookEvalBlackLimit", "BookEvalWhiteLimit", "BookPvMoves"]);
}

/// docs/abc.md's table gives the `ABC_…` defaults as the engine declares them.
#[test]
fn the_abc_page_lists_each_default_as_declared() {
    check_defaults("abc.md", &["ABC_Delta", "ABC_Width"]);
}

/// Every option the engine declares is a row of docs/usi.md's table or, for the
/// families that table sends elsewhere (`ABC_…`; `Book…`, `RandomOpening…`;
/// in a tuning build, `Tune_…`), of docs/abc.md's, docs/book.md's or
/// docs/tuning.md's: the docs and the declarations cannot drift apart.
#[test]
fn every_declared_option_is_in_a_docs_table() {
    let mut documented: Vec<String> = Vec::new();
    for page in ["usi.md", "abc.md", "book.md", "tuning.md"] {
        for (names, _) in option_rows(&docs_page(page)) {
            documented.extend(names.into_iter().filter(|n| !n.contains('…')));
        }
    }
    let missing: Vec<String> =
        declared_options().into_keys().filter(|n| !documented.contains(n)).collect();
    assert!(missing.is_empty(), "declared but in no docs table: {missing:?}");
}

// ---- MaxMovesToDraw ---------------------------------------------------------------

/// The `score …` of each `info depth N` line, by depth.
fn scores(lines: &[String]) -> Vec<(u32, String)> {
    lines
        .iter()
        .filter(|l| l.starts_with("info depth "))
        .filter_map(|l| {
            let depth = l.split_whitespace().nth(2)?.parse().ok()?;
            let score = l.split(" score ").nth(1)?.split(" pv ").next()?.to_string();
            Some((depth, score))
        })
        .collect()
}

/// Searches `sfen` to `depth` plies: the scores by depth and the `bestmove` line.
fn search(gui: &mut Gui, sfen: &str, depth: u32) -> (Vec<(u32, String)>, String) {
    gui.send("usinewgame");
    gui.send(&format!("position sfen {sfen}"));
    gui.send(&format!("go depth {depth}"));
    let lines = gui.lines_until("bestmove", 10 * SECS);
    let pos = Position::from_sfen(sfen).expect("a test SFEN");
    let best = lines.last().expect("bestmove").clone();
    assert_legal(&pos, &best);
    let found = scores(&lines);
    assert!(found.iter().any(|(d, _)| *d == depth), "{lines:?}");
    (found, best)
}

/// `MaxMovesToDraw N`: the game is drawn once move N is played. Black is a rook
/// up at move 10: with the limit 10 every move of Black's ends the game drawn (a
/// lone rook has no mate in one: a drop next to the king is taken, one further off
/// leaves it a square), so every depth scores 0; with 11 Black's move is not the
/// last (depth 1 sees the rook) but White's reply is (depth 2 scores 0); with 0
/// the game goes on. A mate played on the last move still wins. A value out of
/// range is refused and the limit kept.
#[test]
fn max_moves_to_draw_draws_the_game_after_its_last_move() {
    let rook_up = "4k4/9/9/9/9/9/9/9/4K4 b R 10";
    let mut gui = Gui::start();
    gui.handshake();

    let (free, _) = search(&mut gui, rook_up, 3);
    assert!(free.iter().all(|(_, s)| s != "cp 0"), "no limit, no draw: {free:?}");

    gui.send("setoption name MaxMovesToDraw value 10");
    let (drawn, _) = search(&mut gui, rook_up, 3);
    assert!(drawn.iter().all(|(_, s)| s == "cp 0"), "move 10 is the last: {drawn:?}");

    gui.send("setoption name MaxMovesToDraw value 11");
    let (one_more, _) = search(&mut gui, rook_up, 1);
    assert!(one_more.iter().all(|(_, s)| s != "cp 0"), "move 11 is White's: {one_more:?}");
    let (two, _) = search(&mut gui, rook_up, 2);
    assert_eq!(two.last().map(|s| s.1.as_str()), Some("cp 0"), "after move 11: {two:?}");

    // Move 10 mates (G*5b, the pawn on 5c guarding the gold): the mate stands.
    gui.send("setoption name MaxMovesToDraw value 10");
    let (mate, best) = search(&mut gui, "4k4/9/4P4/9/9/9/9/9/4K4 b G 10", 3);
    assert_eq!(bestmove_of(&best), "G*5b");
    assert!(mate.iter().all(|(_, s)| s == "mate 1"), "{mate:?}");

    for bad in ["100001", "-1", "never"] {
        gui.send(&format!("setoption name MaxMovesToDraw value {bad}"));
        let error = gui.expect("info string error", SECS * 2);
        assert!(error.contains("MaxMovesToDraw"), "{error}");
    }
    let (kept, _) = search(&mut gui, rook_up, 2);
    assert!(kept.iter().all(|(_, s)| s == "cp 0"), "the limit 10 kept: {kept:?}");
    gui.quit();
}

// ---- NetworkDelay, MinimumThinkingTime ------------------------------------------

/// Sends `setoption` and returns what the engine says before the next `readyok`.
fn set(gui: &mut Gui, name: &str, value: &str) -> Vec<String> {
    gui.send(&format!("setoption name {name} value {value}"));
    gui.send("isready");
    let mut lines = gui.lines_until("readyok", 10 * SECS);
    lines.pop();
    lines
}

/// `NetworkDelay` (0 to 10000 ms) and `MinimumThinkingTime` (0 to 100000 ms) change
/// only the plan of a move on the clock, which a test cannot see without timing
/// it. What it can see: values in range are taken silently, values out of range,
/// negative or not numbers are refused with `info string error` naming the option;
/// with the largest values a move on a 1 s byoyomi is still answered once, legally;
/// and a fixed-depth search (no clock, so no plan) is not held back by
/// `MinimumThinkingTime`.
#[test]
fn network_delay_and_minimum_thinking_time_take_values_in_range_only() {
    let mut gui = Gui::start();
    gui.handshake();
    for (name, max) in [("NetworkDelay", 10_000), ("MinimumThinkingTime", 100_000)] {
        for good in ["0".to_string(), max.to_string()] {
            let said = set(&mut gui, name, &good);
            assert!(said.is_empty(), "{name} {good}: {said:?}");
        }
        for bad in [(max + 1).to_string(), "-1".to_string(), "soon".to_string()] {
            let said = set(&mut gui, name, &bad);
            assert_eq!(said.len(), 1, "{name} {bad}: {said:?}");
            assert!(said[0].starts_with("info string error: "), "{said:?}");
            assert!(said[0].contains(name), "{said:?}");
        }
    }
    // Both at their largest (and kept through the refusals above).
    let (cmd, pos) = position_after(&["7g7f".to_string(), "3c3d".to_string()]);
    gui.send(&cmd);
    let line = exactly_one_bestmove(&mut gui, "go btime 0 wtime 0 byoyomi 1000");
    assert_legal(&pos, &line);
    gui.send(&cmd);
    let line = exactly_one_bestmove(&mut gui, "go depth 2");
    assert_legal(&pos, &line);
    gui.quit();
}

// ---- SearchAlgorithm and the ABC options ------------------------------------------

/// The last `info depth` line of a fresh search (`usinewgame` first: no table
/// carried over) of the start position to `depth`, without its timings.
fn fresh_search(gui: &mut Gui, depth: u32) -> String {
    gui.send("usinewgame");
    gui.send("position startpos");
    gui.send(&format!("go depth {depth}"));
    let lines = gui.lines_until("bestmove", 20 * SECS);
    assert_legal(&Position::startpos(), lines.last().expect("bestmove"));
    let last = lines
        .iter()
        .rev()
        .find(|l| l.starts_with(&format!("info depth {depth} ")))
        .unwrap_or_else(|| panic!("no depth {depth} line: {lines:?}"));
    // Drop the fields that are times: the rest is the search's.
    let words: Vec<&str> = last.split(' ').collect();
    let mut kept = Vec::new();
    let mut i = 0;
    while i < words.len() {
        if matches!(words[i], "time" | "nps") {
            i += 2;
        } else {
            kept.push(words[i]);
            i += 1;
        }
    }
    kept.join(" ")
}

/// `SearchAlgorithm ABC` plays with ABC search (another tree than PVS's at the
/// same depth, the same tree each time on one thread); `ABC_Width` changes it; a
/// width out of range is refused and the width set before kept; the `ABC_…`
/// options leave PVS alone.
#[test]
fn search_algorithm_abc_searches_with_abc_and_its_width() {
    let mut gui = Gui::start();
    gui.handshake();
    let pvs = fresh_search(&mut gui, 3);

    assert!(set(&mut gui, "SearchAlgorithm", "ABC").is_empty());
    let abc = fresh_search(&mut gui, 3);
    assert_ne!(abc, pvs, "ABC searches another tree");
    assert_eq!(fresh_search(&mut gui, 3), abc, "one thread: the same tree again");

    assert!(set(&mut gui, "ABC_Width", "2").is_empty());
    let narrow = fresh_search(&mut gui, 3);
    assert_ne!(narrow, abc, "ABC_Width 2 keeps fewer moves a node");

    let said = set(&mut gui, "ABC_Width", "99");
    assert_eq!(said.len(), 1, "{said:?}");
    assert!(said[0].starts_with("info string error: ") && said[0].contains("ABC_Width"));
    assert_eq!(fresh_search(&mut gui, 3), narrow, "ABC_Width 2 kept");

    assert!(set(&mut gui, "SearchAlgorithm", "PVS").is_empty());
    assert_eq!(fresh_search(&mut gui, 3), pvs, "PVS takes no ABC option");
    gui.quit();
}

/// A misspelt option name is refused with `info string error` naming it, and so
/// are values an option does not take.
#[test]
fn misspelt_names_and_bad_values_are_refused() {
    let mut gui = Gui::start();
    gui.handshake();
    let said = set(&mut gui, "ABC_Widht", "3");
    assert_eq!(said, ["info string error: unknown option 'ABC_Widht'"], "{said:?}");
    for (name, value) in [
        ("SearchAlgorithm", "MCTS"),
        ("ABC_Width", "wide"),
        ("ABC_Width", "0"),
        ("ABC_Delta", "-1"),
    ] {
        let said = set(&mut gui, name, value);
        assert_eq!(said.len(), 1, "{name} {value}: {said:?}");
        assert!(said[0].starts_with("info string error: "), "{name} {value}: {said:?}");
        assert!(said[0].contains(name) && said[0].contains(value), "{said:?}");
    }
    gui.quit();
}

// ---- the book options -------------------------------------------------------------

const START: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

/// The SFEN (with its move number) after `moves` from the start.
fn sfen_after(moves: &[&str]) -> String {
    let moves: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
    position_after(&moves).1.to_sfen()
}

/// A book in YaneuraOu's text format holding `entries` (a SFEN with its move
/// number, and its move lines `move ponder value depth count`), sorted by
/// position as a book searched on disk must be.
fn write_book(dir: &ScratchDir, entries: &[(String, Vec<&str>)]) -> PathBuf {
    let key = |sfen: &str| sfen.split(' ').take(3).collect::<Vec<_>>().join(" ");
    let mut sorted: Vec<&(String, Vec<&str>)> = entries.iter().collect();
    sorted.sort_by_key(|(sfen, _)| key(sfen));
    let mut text = String::from("#YANEURAOU-DB2016 1.00\n");
    for (sfen, moves) in sorted {
        text += &format!("sfen {sfen}\n");
        for m in moves {
            text += &format!("{m}\n");
        }
    }
    let path = dir.join("book.db");
    std::fs::write(&path, text).expect("write the book");
    path
}

/// An engine with `book` and a fixed `RandomSeed` (draws that repeat), then
/// `options`.
fn engine_with_book(book: &Path, options: &[(&str, &str)]) -> Gui {
    common::engine_with_book(book, &[&[("RandomSeed", "20240607")], options].concat())
}

/// A book move: the move, its `info string book: …` line and its `pv` line.
struct BookMove {
    best: String,
    report: String,
    pv: Vec<String>,
}

impl BookMove {
    /// How many book moves the options left to draw from (`from K of N`).
    fn candidates(&self) -> (u32, u32) {
        let tail = self.report.split(" from ").last().unwrap_or("");
        let words: Vec<&str> = tail.split_whitespace().collect();
        match words.as_slice() {
            [k, "of", n, ..] => (k.parse().expect("K"), n.parse().expect("N")),
            _ => panic!("no 'from K of N' in {}", self.report),
        }
    }

    /// The chance it had of being drawn, in whole per cent.
    fn probability(&self) -> u32 {
        let tail = self.report.split("probability ").nth(1).unwrap_or("");
        tail.split('%').next().and_then(|p| p.parse().ok()).unwrap_or_else(|| {
            panic!("no probability in {}", self.report);
        })
    }
}

/// The book's answer to `go` at `position` (a `position …` line), or `None` where a
/// search answered.
fn book_move(gui: &mut Gui, position: &str) -> Option<BookMove> {
    gui.send(position);
    gui.send("go depth 1");
    let lines = gui.lines_until("bestmove", 10 * SECS);
    let best = bestmove_of(lines.last().expect("bestmove"));
    let report = lines.iter().find(|l| l.starts_with("info string book: "))?.clone();
    assert!(report.starts_with(&format!("info string book: {best} ")), "{lines:?}");
    let pv = lines
        .iter()
        .find(|l| l.starts_with("info depth ") && l.contains(" pv "))
        .unwrap_or_else(|| panic!("no pv line: {lines:?}"));
    let pv = pv.split(" pv ").nth(1).unwrap_or("").split(' ').map(str::to_string).collect();
    Some(BookMove { best, report, pv })
}

/// The book moves drawn in `n` tries at `position`, each checked by `check`.
fn draws(gui: &mut Gui, position: &str, n: usize, check: impl Fn(&BookMove)) -> Vec<String> {
    (0..n)
        .map(|_| {
            let m = book_move(gui, position).unwrap_or_else(|| panic!("no book move"));
            check(&m);
            m.best
        })
        .collect()
}

/// Black's start and White's reply to 7g7f, each with a good move and a bad one.
fn limits_book(dir: &ScratchDir) -> PathBuf {
    write_book(
        dir,
        &[
            (START.to_string(), vec!["2g2f none 50 12 5", "7g7f none -20 12 5"]),
            (sfen_after(&["7g7f"]), vec!["3c3d none -100 12 5", "8c8d none -200 12 5"]),
        ],
    )
}

const BLACK_TO_MOVE: &str = "position startpos";
const WHITE_TO_MOVE: &str = "position startpos moves 7g7f";

/// `BookEvalBlackLimit` leaves out Black's book moves valued below it (0 by
/// default: 7g7f at −20 goes); a move valued at the limit stays; above every move,
/// the book has none and a search answers. White's moves are not its business.
/// (`BookEvalDiff` 1000 keeps the gaps out of the way.)
#[test]
fn book_eval_black_limit_leaves_out_black_moves_valued_below_it() {
    let dir = ScratchDir::new("usi-promises-black-limit");
    let book = limits_book(&dir);
    let mut gui = engine_with_book(&book, &[("BookEvalDiff", "1000")]);
    let only = |m: &BookMove| assert_eq!((m.candidates(), m.probability()), ((1, 2), 100));
    let drawn = draws(&mut gui, BLACK_TO_MOVE, 10, only);
    assert!(drawn.iter().all(|m| m == "2g2f"), "{drawn:?}");

    gui.send("setoption name BookEvalBlackLimit value -20");
    let drawn = draws(&mut gui, BLACK_TO_MOVE, 20, |m| assert_eq!(m.candidates(), (2, 2)));
    assert!(drawn.iter().any(|m| m == "2g2f") && drawn.iter().any(|m| m == "7g7f"), "{drawn:?}");

    gui.send("setoption name BookEvalBlackLimit value -19");
    let drawn = draws(&mut gui, BLACK_TO_MOVE, 10, only);
    assert!(drawn.iter().all(|m| m == "2g2f"), "{drawn:?}");

    gui.send("setoption name BookEvalBlackLimit value 51");
    assert!(book_move(&mut gui, BLACK_TO_MOVE).is_none(), "every move below 51");
    // White's move at −100 is above White's limit (−140), though below Black's.
    let white = book_move(&mut gui, WHITE_TO_MOVE).expect("White's book move");
    assert_eq!((white.best.as_str(), white.candidates()), ("3c3d", (1, 2)), "{}", white.report);
    gui.quit();
}

/// `BookEvalWhiteLimit` leaves out White's book moves valued below it (−140 by
/// default: 8c8d at −200 goes); at −200 both stay; above both, a search answers.
/// Black's moves are not its business.
#[test]
fn book_eval_white_limit_leaves_out_white_moves_valued_below_it() {
    let dir = ScratchDir::new("usi-promises-white-limit");
    let book = limits_book(&dir);
    let mut gui = engine_with_book(&book, &[("BookEvalDiff", "1000")]);
    let only = |m: &BookMove| assert_eq!((m.candidates(), m.probability()), ((1, 2), 100));
    let drawn = draws(&mut gui, WHITE_TO_MOVE, 10, only);
    assert!(drawn.iter().all(|m| m == "3c3d"), "{drawn:?}");

    gui.send("setoption name BookEvalWhiteLimit value -200");
    let drawn = draws(&mut gui, WHITE_TO_MOVE, 20, |m| assert_eq!(m.candidates(), (2, 2)));
    assert!(drawn.iter().any(|m| m == "3c3d") && drawn.iter().any(|m| m == "8c8d"), "{drawn:?}");

    gui.send("setoption name BookEvalWhiteLimit value 99999");
    assert!(book_move(&mut gui, WHITE_TO_MOVE).is_none(), "every move below the limit");
    let black = book_move(&mut gui, BLACK_TO_MOVE).expect("Black's book move");
    assert_eq!((black.best.as_str(), black.candidates()), ("2g2f", (1, 2)), "{}", black.report);
    gui.quit();
}

/// `BookDepthLimit` leaves out moves whose value comes from a shallower search
/// (0: any depth). 2g2f was valued at depth 4, 7g7f at depth 12.
#[test]
fn book_depth_limit_leaves_out_moves_from_shallower_searches() {
    let dir = ScratchDir::new("usi-promises-depth-limit");
    let entries = [(START.to_string(), vec!["2g2f none 50 4 5", "7g7f none 40 12 5"])];
    let book = write_book(&dir, &entries);
    let mut gui = engine_with_book(&book, &[]);
    let both = book_move(&mut gui, BLACK_TO_MOVE).expect("a book move");
    assert_eq!(both.candidates(), (2, 2), "{}", both.report);

    for limit in ["5", "12"] {
        gui.send(&format!("setoption name BookDepthLimit value {limit}"));
        let drawn = draws(&mut gui, BLACK_TO_MOVE, 10, |m| {
            assert_eq!((m.candidates(), m.probability()), ((1, 2), 100), "{}", m.report);
            assert!(m.report.contains("(value 40, depth 12, count 5;"), "{}", m.report);
        });
        assert!(drawn.iter().all(|m| m == "7g7f"), "BookDepthLimit {limit}: {drawn:?}");
    }
    gui.send("setoption name BookDepthLimit value 13");
    assert!(book_move(&mut gui, BLACK_TO_MOVE).is_none(), "no move searched that deep");
    gui.quit();
}

/// `ConsiderBookMoveCount` weights equal values by how often each move was
/// played: 9 to 1 is 90 % and 10 %. Off, every move weighs alike: 50 % each.
#[test]
fn consider_book_move_count_weights_by_count_or_alike() {
    let dir = ScratchDir::new("usi-promises-count");
    let entries = [(START.to_string(), vec!["2g2f none 50 12 9", "7g7f none 50 12 1"])];
    let book = write_book(&dir, &entries);
    let mut gui = engine_with_book(&book, &[]);
    let drawn = draws(&mut gui, BLACK_TO_MOVE, 20, |m| {
        let want = if m.best == "2g2f" { 90 } else { 10 };
        assert_eq!((m.candidates(), m.probability()), ((2, 2), want), "{}", m.report);
    });
    assert!(drawn.iter().filter(|m| *m == "2g2f").count() > 10, "{drawn:?}");

    gui.send("setoption name ConsiderBookMoveCount value false");
    let drawn = draws(&mut gui, BLACK_TO_MOVE, 20, |m| {
        assert_eq!((m.candidates(), m.probability()), ((2, 2), 50), "{}", m.report);
    });
    assert!(drawn.iter().any(|m| m == "7g7f") && drawn.iter().any(|m| m == "2g2f"), "{drawn:?}");
    gui.quit();
}

/// The book holds the start position at move 1. After both kings step out and
/// back it stands again at move 5: `IgnoreBookPly false` (the default) does not
/// find it there, `IgnoreBookPly true` does.
#[test]
fn ignore_book_ply_finds_a_position_at_another_move_number() {
    let dir = ScratchDir::new("usi-promises-ignore-ply");
    let book = write_book(&dir, &[(START.to_string(), vec!["2g2f none 50 12 5"])]);
    let again = "position startpos moves 5i4h 5a4b 4h5i 4b5a";
    assert!(sfen_after(&["5i4h", "5a4b", "4h5i", "4b5a"]).ends_with(" b - 5"));
    let mut gui = engine_with_book(&book, &[]);
    assert_eq!(book_move(&mut gui, BLACK_TO_MOVE).map(|m| m.best).as_deref(), Some("2g2f"));
    assert!(book_move(&mut gui, again).is_none(), "move 5 is not the book's move 1");
    gui.send("setoption name IgnoreBookPly value true");
    assert_eq!(book_move(&mut gui, again).map(|m| m.best).as_deref(), Some("2g2f"));
    gui.quit();
}

/// `BookPvMoves` is the length of the book line shown as `pv` (8 by default,
/// 1 to 246). The book follows a game for 12 plies, one move a position, so the
/// line is as long as asked up to 12, and 12 beyond.
#[test]
fn book_pv_moves_is_the_length_of_the_book_line_shown() {
    let game = [
        "7g7f", "3c3d", "2g2f", "8c8d", "2f2e", "8d8e", "6i7h", "4a3b", "2e2d", "2c2d", "2h2d",
        "P*2c",
    ];
    let entries: Vec<(String, Vec<String>)> = (0..game.len())
        .map(|i| (sfen_after(&game[..i]), vec![format!("{} none 0 12 1", game[i])]))
        .collect();
    let entries: Vec<(String, Vec<&str>)> =
        entries.iter().map(|(s, m)| (s.clone(), m.iter().map(String::as_str).collect())).collect();
    let dir = ScratchDir::new("usi-promises-pv-moves");
    let book = write_book(&dir, &entries);
    let mut gui = engine_with_book(&book, &[]);
    let line = |gui: &mut Gui| book_move(gui, BLACK_TO_MOVE).expect("a book move").pv;
    assert_eq!(line(&mut gui), game[..8], "the default, 8");
    for (asked, shown) in [(1, 1), (3, 3), (12, 12), (20, 12)] {
        gui.send(&format!("setoption name BookPvMoves value {asked}"));
        assert_eq!(line(&mut gui), game[..shown], "BookPvMoves {asked}");
    }
    for bad in ["0", "247"] {
        let said = set(&mut gui, "BookPvMoves", bad);
        assert_eq!(said.len(), 1, "{said:?}");
        assert!(said[0].starts_with("info string error: ") && said[0].contains("BookPvMoves"));
    }
    assert_eq!(line(&mut gui), game[..12], "20 kept");
    gui.quit();
}
