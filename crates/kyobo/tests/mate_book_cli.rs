//! `kyobo mate`, `kyobo book` and `kyobo shape` as a user meets them: a position is
//! `--sfen SFEN` or `startpos` in each, times are milliseconds, `--hash 0` is the
//! smallest table, a bad input line is named with its file and line and the rest
//! is still done, and nothing empty is written where a book was asked for.

use std::path::Path;
use std::process::{Command, Output};
use testdata::ScratchDir;

const START: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
/// Mate in 1: G*5b, guarded by the pawn on 5c.
const MATE_IN_1: &str = "4k4/9/4P4/9/9/9/9/9/9 b G 1";
/// Mate in 3 (see cli_promises.rs): B*3c, the king steps aside, 3c2b+.
const MATE_IN_3: &str = "8k/9/7P1/9/9/9/9/9/9 b B 1";
/// No mate: every gold drop next to the king is taken.
const NO_MATE: &str = "4k4/9/9/9/9/9/9/9/9 b G 1";
/// Neither a mate nor a disproof within hundreds of thousands of nodes.
const HARD: &str = "4k4/9/9/9/9/9/9/9/9 b RBN 1";

fn kyobo(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kyobo")).args(args).output().expect("kyobo runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The standard output of a run that must succeed.
fn ok(args: &[&str]) -> String {
    let out = kyobo(args);
    assert!(out.status.success(), "kyobo {args:?} failed:\n{}", text(&out.stderr));
    text(&out.stdout)
}

/// The standard error of a run that must fail with an error, not a panic.
fn refused(args: &[&str]) -> String {
    let out = kyobo(args);
    let stderr = text(&out.stderr);
    assert!(!out.status.success(), "kyobo {args:?} was not refused:\n{}", text(&out.stdout));
    assert!(!stderr.contains("panicked"), "kyobo {args:?}: {stderr}");
    assert!(stderr.contains("error"), "kyobo {args:?}: {stderr}");
    stderr
}

fn arg(path: &Path) -> &str {
    path.to_str().expect("a UTF-8 path")
}

/// What follows `name ` on the line that starts with it.
fn field<'a>(out: &'a str, name: &str) -> &'a str {
    let prefix = format!("{name} ");
    out.lines()
        .find_map(|l| l.strip_prefix(prefix.as_str()))
        .unwrap_or_else(|| panic!("no '{name}' line in:\n{out}"))
        .trim()
}

// ---- kyobo book build ---------------------------------------------------------------

/// A file from which no game can be read is an error naming it, and no book is
/// written: a book already there is left as it was. A book that would be empty
/// (no move played often enough) is refused the same way.
#[test]
fn book_build_with_no_game_read_fails_and_writes_no_book() {
    let dir = ScratchDir::new("mate-book-cli-build-junk");
    let junk = dir.join("junk.kif");
    std::fs::write(&junk, "this is not a game record\nnor is this\n").expect("written");
    let book = dir.join("b.db");
    let stderr = refused(&["book", "build", arg(&junk), "--out", arg(&book)]);
    assert!(stderr.contains("junk.kif"), "{stderr}");
    assert!(!book.exists(), "an empty book was written");

    std::fs::write(&book, "kept\n").expect("written");
    refused(&["book", "build", arg(&junk), "--out", arg(&book)]);
    assert_eq!(std::fs::read_to_string(&book).expect("read"), "kept\n");

    let games = dir.join("games.sfen");
    std::fs::write(&games, "startpos moves 7g7f 3c3d\nstartpos moves 2g2f 8c8d\n").expect("w");
    let stderr = refused(&["book", "build", arg(&games), "--out", arg(&book), "--min-count", "5"]);
    assert!(stderr.contains("games.sfen") && stderr.contains("--min-count"), "{stderr}");
    assert_eq!(std::fs::read_to_string(&book).expect("read"), "kept\n");

    let out = ok(&["book", "build", arg(&games), "--out", arg(&book)]);
    assert!(out.contains("2 games from 1 files"), "{out}");
    assert!(std::fs::read_to_string(&book).expect("read").contains("7g7f"));
}

// ---- kyobo mate --file ---------------------------------------------------------------

/// A line that is not a problem is reported with its file, line and text, the
/// others are solved and summed up (the bad line counted), and the run then
/// fails; `--json` counts and lists it the same way.
#[test]
fn mate_file_reports_a_bad_line_and_solves_the_rest() {
    let dir = ScratchDir::new("mate-book-cli-mate-bad-line");
    let file = dir.join("problems.txt");
    let problems = format!("{MATE_IN_1}\nnot a position\n{NO_MATE}\none\tthree\t{MATE_IN_3}\n");
    std::fs::write(&file, problems).expect("written");

    let out = kyobo(&["mate", "--file", arg(&file)]);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert!(!out.status.success(), "{stdout}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(stderr.contains("problems.txt:2: ") && stderr.contains("'not a position'"), "{stderr}");
    assert!(stderr.contains("problems.txt:4: ") && stderr.contains("'three'"), "{stderr}");
    assert_eq!(field(&stdout, "problems"), "4", "{stdout}");
    assert_eq!(field(&stdout, "solved"), "1", "{stdout}");
    assert_eq!(field(&stdout, "nomate"), "1", "{stdout}");
    assert_eq!(field(&stdout, "bad"), "2", "{stdout}");

    let out = kyobo(&["mate", "--file", arg(&file), "--json"]);
    assert!(!out.status.success());
    let json = text(&out.stdout);
    assert!(json.contains("\"bad\":2"), "{json}");
    assert!(json.contains("{\"line\":2,\"text\":\"not a position\","), "{json}");
    assert_eq!(json.matches("\"verdict\":").count(), 2, "{json}");

    // Without a bad line the run succeeds and counts none.
    std::fs::write(&file, format!("{MATE_IN_1}\n")).expect("written");
    let out = ok(&["mate", "--file", arg(&file)]);
    assert_eq!(field(&out, "bad"), "0", "{out}");
}

// ---- positions ----------------------------------------------------------------------

/// `startpos` and a leading `sfen ` are read wherever a position is: `mate --sfen`,
/// a `mate --file` line, and `book probe --sfen`.
#[test]
fn startpos_and_sfen_prefix_are_positions_in_mate_and_book_probe() {
    // Black has no check to give at the start.
    assert_eq!(ok(&["mate", "--sfen", "startpos"]).lines().next(), Some("nomate"));
    let prefixed = format!("sfen {MATE_IN_1}");
    assert_eq!(ok(&["mate", "--sfen", &prefixed]).lines().next(), Some("mate 1"));

    let dir = ScratchDir::new("mate-book-cli-startpos");
    let file = dir.join("problems.txt");
    std::fs::write(&file, "startpos\n").expect("written");
    let out = ok(&["mate", "--file", arg(&file)]);
    assert_eq!(field(&out, "nomate"), "1", "{out}");

    let games = dir.join("games.sfen");
    std::fs::write(&games, "startpos moves 7g7f 3c3d\n").expect("written");
    let book = dir.join("book.db");
    ok(&["book", "build", arg(&games), "--out", arg(&book)]);
    let with_sfen = format!("sfen {START}");
    for sfen in ["startpos", START, with_sfen.as_str()] {
        let out = ok(&["book", "probe", arg(&book), "--sfen", sfen]);
        assert!(out.lines().any(|l| l.starts_with("7g7f ")), "--sfen {sfen}:\n{out}");
    }
    let stderr = refused(&["book", "probe", arg(&book), "--sfen", "start"]);
    assert!(stderr.contains("--sfen 'start'"), "{stderr}");
}

// ---- kyobo mate limits --------------------------------------------------------------

/// `--movetime` is milliseconds, as everywhere else: 300 stops a search that
/// would run on within a second. The old `--time-limit` (seconds) is refused with
/// the `--movetime` that replaces it, and 0 is no time.
#[test]
fn mate_movetime_is_in_milliseconds() {
    let out = ok(&["mate", "--sfen", HARD, "--movetime", "300"]);
    assert_eq!(out.lines().next(), Some("timeout"), "{out}");
    // The solver's own clock: 300 ms, not 300 s (no wall-clock bound here; the
    // timed tests hold those).
    let seconds: f64 = field(&out, "time").trim_end_matches(" s").parse().expect("seconds");
    assert!((0.25..30.0).contains(&seconds), "{out}");

    let stderr = refused(&["mate", "--sfen", MATE_IN_1, "--time-limit", "10"]);
    assert!(stderr.contains("--movetime 10000"), "{stderr}");
    let stderr = refused(&["mate", "--sfen", MATE_IN_1, "--movetime", "0"]);
    assert!(stderr.contains("--movetime"), "{stderr}");
}

/// `--hash 0` is the smallest table, as `analyse --hash 0` and `bench --hash 0`
/// read it (the search's tables are at least 1 MiB), not an error.
#[test]
fn mate_hash_zero_is_the_smallest_table() {
    let out = ok(&["mate", "--sfen", MATE_IN_3, "--hash", "0"]);
    assert_eq!(out.lines().next(), Some("mate 3"), "{out}");
    let dir = ScratchDir::new("mate-book-cli-hash-zero");
    let file = dir.join("problems.txt");
    std::fs::write(&file, format!("{MATE_IN_3}\n")).expect("written");
    let out = ok(&["mate", "--file", arg(&file), "--hash", "0"]);
    assert_eq!(field(&out, "table"), "1 MiB", "{out}");
    assert_eq!(field(&out, "shortest"), "1", "{out}");
}

// ---- errors that say what to do -----------------------------------------------------

/// An unsorted book cannot be searched on disk: `book probe` says to add
/// `--in-memory` (this command's flag, not the USI option), which then works.
#[test]
fn book_probe_of_an_unsorted_book_suggests_in_memory() {
    let dir = ScratchDir::new("mate-book-cli-unsorted");
    let book = dir.join("unsorted.db");
    let kings = "4k4/9/9/9/9/9/9/9/4K4 b - 1";
    let text = format!(
        "#YANEURAOU-DB2016 1.00\nsfen {START}\n7g7f 3c3d 0 0 1\nsfen {kings}\n5i5h none 0 0 1\n"
    );
    std::fs::write(&book, text).expect("written");
    let stderr = refused(&["book", "probe", arg(&book)]);
    assert!(stderr.contains("unsorted.db") && stderr.contains("--in-memory"), "{stderr}");
    assert!(!stderr.contains("BookOnTheFly"), "{stderr}");
    let out = ok(&["book", "probe", arg(&book), "--in-memory"]);
    assert!(out.lines().any(|l| l.starts_with("7g7f 3c3d")), "{out}");
}

/// `shape --rates` reads games one a line; a KIF record is refused as such, with
/// the conversion that makes it readable, and that conversion then works.
#[test]
fn shape_rates_of_a_kif_record_says_what_it_wants() {
    let dir = ScratchDir::new("mate-book-cli-shape-kif");
    let kif = dir.join("game.kif");
    let record = "手合割：平手\n先手：A\n後手：B\n手数----指手---------消費時間--\n\
                  \u{20}  1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２六歩(27)\n";
    std::fs::write(&kif, record).expect("written");
    let stderr = refused(&["shape", "--rates", arg(&kif)]);
    assert!(stderr.contains("game.kif") && stderr.contains("KIF"), "{stderr}");
    assert!(stderr.contains("startpos moves"), "{stderr}");
    let usi = dir.join("game.usi");
    assert!(stderr.contains(&format!("kyobo convert {} {}", arg(&kif), arg(&usi))), "{stderr}");

    ok(&["convert", arg(&kif), arg(&usi)]);
    let out = ok(&["shape", "--rates", arg(&usi)]);
    assert!(out.starts_with("games 1, moves judged 3"), "{out}");
}
