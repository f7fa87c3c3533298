//! What the subcommands' flags promise (docs/cli.md, docs/mate.md, docs/tree.md,
//! docs/records.md, docs/abc.md), each checked against a figure worked out by hand
//! or given by the docs: `kyobo perft --sfen`; `kyobo bench --threads`, `--algo`,
//! `--option` and `--eval-file`; `kyobo mate --certify`, `--count-futile`,
//! `--nodes`, `--hash` and `--file` with its summary; `kyobo analyse --movetime`
//! and `--multipv`; `kyobo tree --dobutsu`, `--window` and a tree read from a file.

use eval::nnue::Network;
use shogi::Position;
use std::process::{Command, Output};
use testdata::ScratchDir;

const START: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

/// The smallest value (in absolute terms) of a mate score (`search::value`:
/// `MATE - MAX_PLY`, 32000 - 128).
const MATE_IN_MAX_PLY: i64 = 32000 - 128;

fn kyobo(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kyobo")).args(args).output().expect("kyobo runs")
}

/// The standard output of a run that must succeed.
fn ok(args: &[&str]) -> String {
    let out = kyobo(args);
    assert!(
        out.status.success(),
        "kyobo {args:?} failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The standard error of a run that must be refused, without a panic.
fn refused(args: &[&str]) -> String {
    let out = kyobo(args);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!out.status.success(), "kyobo {args:?} was not refused");
    assert!(!stderr.contains("panicked"), "kyobo {args:?}: {stderr}");
    assert!(stderr.contains("error"), "kyobo {args:?}: {stderr}");
    stderr
}

/// What follows `name ` on the line that starts with it.
fn field<'a>(text: &'a str, name: &str) -> &'a str {
    let prefix = format!("{name} ");
    text.lines()
        .find_map(|l| l.strip_prefix(prefix.as_str()))
        .unwrap_or_else(|| panic!("no '{name}' line in:\n{text}"))
        .trim()
}

fn number(text: &str, name: &str) -> i64 {
    let value = field(text, name);
    value.parse().unwrap_or_else(|_| panic!("'{name} {value}' is not a number in:\n{text}"))
}

fn perft(sfen: &str, depth: u32) -> i64 {
    number(&ok(&["perft", "--sfen", sfen, &depth.to_string()]), "nodes")
}

// ---- kyobo perft ----------------------------------------------------------------

/// The start position's published perft figures: 30 moves, 900 after the reply,
/// 25,470 at three plies.
#[test]
fn perft_sfen_counts_the_start_position_as_published() {
    assert_eq!(perft(START, 1), 30);
    assert_eq!(perft(START, 2), 900);
    assert_eq!(perft(START, 3), 25_470);
    // The `sfen ` word a USI `position` line carries is read too.
    assert_eq!(perft(&format!("sfen {START}"), 1), 30);
}

/// Counted by hand: each king on its back rank's middle square has five moves, so
/// 5 and 5 x 5 = 25; a pawn in hand adds a drop on each of the 79 empty squares
/// but the 8 of the last rank (no other pawn on its file, and a drop that checks
/// is not mate: the king takes it), 5 + 71 = 76.
#[test]
fn perft_sfen_counts_a_kings_only_position_by_hand() {
    let kings = "4k4/9/9/9/9/9/9/9/4K4 b - 1";
    assert_eq!(perft(kings, 1), 5);
    assert_eq!(perft(kings, 2), 25);
    let divided = ok(&["perft", "--sfen", kings, "1", "--divide"]);
    let mut moves: Vec<&str> =
        divided.lines().filter_map(|l| l.strip_suffix(": 1")).collect::<Vec<_>>();
    moves.sort_unstable();
    assert_eq!(moves, ["5i4h", "5i4i", "5i5h", "5i6h", "5i6i"], "{divided}");
    assert_eq!(perft("4k4/9/9/9/9/9/9/9/4K4 b P 1", 1), 76);
}

// ---- kyobo bench ------------------------------------------------------------------

/// A bench line's `score cp N` or `score mate N` as a search value (a mate in
/// `n` plies is `32000 - n`, as `search::value` counts it).
fn score_value(words: &[&str], line: &str) -> i64 {
    let i = words.iter().position(|w| *w == "score").unwrap_or_else(|| panic!("{line}"));
    let n: i64 = words[i + 2].parse().unwrap_or_else(|_| panic!("{line}"));
    match words[i + 1] {
        "cp" => n,
        "mate" if n > 0 => 32000 - n,
        "mate" => -32000 - n,
        other => panic!("score {other} in {line}"),
    }
}

/// The `position N: …` lines of a bench run: (nodes, depth, bestmove, score).
fn bench_rows(text: &str) -> Vec<(i64, i64, String, i64)> {
    let rows: Vec<(i64, i64, String, i64)> = text
        .lines()
        .filter(|l| l.starts_with("position "))
        .map(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            let after = |key: &str| -> &str {
                let i = words.iter().position(|w| *w == key).unwrap_or_else(|| panic!("{l}"));
                words[i + 1]
            };
            (
                after("nodes").parse().expect("nodes"),
                after("depth").parse().expect("depth"),
                after("bestmove").to_string(),
                score_value(&words, l),
            )
        })
        .collect();
    assert_eq!(rows.len(), 8, "eight bench positions in:\n{text}");
    rows
}

/// `--threads 2` runs Lazy SMP: every position is still searched to the depth asked,
/// with a move, and the total counts every position's nodes, the helper's too, so
/// it is no longer the one-thread signature (docs/cli.md: more than one thread makes
/// the node count vary). 0 and 257 threads are refused (1 to 256).
#[test]
fn bench_threads_two_searches_every_position_to_the_depth() {
    let text = ok(&["bench", "--depth", "5", "--threads", "2"]);
    let rows = bench_rows(&text);
    for (nodes, depth, best, _) in &rows {
        assert_eq!(*depth, 5, "{text}");
        assert!(*nodes > 0 && best != "resign" && !best.is_empty(), "{text}");
    }
    assert_eq!(number(&text, "nodes"), rows.iter().map(|r| r.0).sum::<i64>(), "{text}");
    assert_eq!(field(&text, "mean depth"), "5.00", "{text}");
    let one = ok(&["bench", "--depth", "5", "--threads", "1"]);
    let signature = number(&one, "nodes");
    assert_eq!(number(&ok(&["bench", "--depth", "5"]), "nodes"), signature, "one thread");
    assert_ne!(number(&text, "nodes"), signature, "the helper's nodes count too:\n{text}");
    for bad in ["0", "257"] {
        let stderr = refused(&["bench", "--depth", "1", "--threads", bad]);
        assert!(stderr.contains("--threads"), "{stderr}");
    }
}

/// The counters docs/abc.md says `kyobo bench --algo ABC` prints besides the
/// positions: ABC's own nodes, the leaves and their plies, the key searches, the
/// position table's probes and hits, early cuts and the key searches they saved.
const ABC_COUNTERS: [&str; 8] = [
    "abc_nodes",
    "leaves",
    "leaf_plies",
    "key_searches",
    "table_probes",
    "table_hits",
    "early_cuts",
    "keys_saved",
];

/// `--algo ABC` (in any letter case) searches with ABC to a threshold of
/// `--depth` and prints what ABC counted, which a PVS bench does not; an unknown
/// algorithm is refused.
#[test]
fn bench_algo_abc_searches_to_the_threshold_and_prints_what_abc_counted() {
    let abc = ok(&["bench", "--depth", "2", "--algo", "ABC"]);
    for (_, depth, best, _) in bench_rows(&abc) {
        assert_eq!(depth, 2, "the depth is the threshold:\n{abc}");
        assert!(best != "resign", "{abc}");
    }
    for counter in ABC_COUNTERS {
        assert!(number(&abc, counter) >= 0, "{counter}");
    }
    assert!(number(&abc, "abc_nodes") > 0 && number(&abc, "leaves") > 0, "{abc}");
    // One thread: the same search whatever the spelling of its name.
    let lower = ok(&["bench", "--depth", "2", "--algo", "abc"]);
    assert_eq!(bench_rows(&lower), bench_rows(&abc));

    let pvs = ok(&["bench", "--depth", "2"]);
    for counter in ["abc_nodes", "leaves", "key_searches", "early_cuts"] {
        assert!(!pvs.lines().any(|l| l.starts_with(&format!("{counter} "))), "{counter}:\n{pvs}");
    }
    assert_ne!(number(&pvs, "nodes"), number(&abc, "nodes"), "ABC is another search");

    let stderr = refused(&["bench", "--depth", "1", "--algo", "MCTS"]);
    assert!(stderr.contains("--algo"), "{stderr}");
}

/// `--option NAME=VALUE` sets an ABC option (the width changes the tree), and a
/// misspelt name or a value out of range is refused, named.
#[test]
fn bench_option_sets_an_abc_option_and_refuses_a_bad_one() {
    let base = ok(&["bench", "--depth", "2", "--algo", "ABC"]);
    let narrow = ok(&["bench", "--depth", "2", "--algo", "ABC", "--option", "ABC_Width=2"]);
    assert_ne!(bench_rows(&narrow), bench_rows(&base), "ABC_Width=2 searches another tree");
    let stderr = refused(&["bench", "--depth", "1", "--algo", "ABC", "--option", "ABC_Widht=2"]);
    assert!(stderr.contains("ABC_Widht"), "{stderr}");
    let stderr = refused(&["bench", "--depth", "1", "--algo", "ABC", "--option", "ABC_Width=99"]);
    assert!(stderr.contains("ABC_Width"), "{stderr}");
}

/// A network whose output layer is all zeros values every position 0, so with
/// `--eval-file` every score is 0 but a mate's; the handcrafted evaluation does
/// not. A file that is not a network is refused, named.
#[test]
fn bench_eval_file_evaluates_with_the_network() {
    let dir = ScratchDir::new("cli-promises-eval-file");
    let net = Network::random(3).expect("memory for a test net");
    let mut layers = net.layers;
    layers.output_weights.iter_mut().for_each(|w| *w = 0);
    layers.output_bias = 0;
    let mut bytes = Vec::new();
    Network::from(layers).write(&mut bytes).expect("written");
    let path = dir.join("zero.bin");
    std::fs::write(&path, bytes).expect("write the network");
    let path = path.to_str().expect("a UTF-8 path");

    let with_net = ok(&["bench", "--depth", "2", "--eval-file", path]);
    let rows = bench_rows(&with_net);
    for (_, _, _, score) in &rows {
        assert!(*score == 0 || score.abs() >= MATE_IN_MAX_PLY, "{with_net}");
    }
    // Position 7 is a mate in one (G*5b, the pawn on 5c guarding the gold).
    assert_eq!(rows[6].2, "G*5b", "{with_net}");
    assert_eq!(rows[6].3, 32000 - 1, "{with_net}");
    // A mate is written as USI writes it, in plies, not as a number.
    assert!(with_net.contains("bestmove G*5b score mate 1\n"), "{with_net}");

    let handcrafted = ok(&["bench", "--depth", "2"]);
    let values = bench_rows(&handcrafted);
    assert!(
        values.iter().any(|r| r.3 != 0 && r.3.abs() < MATE_IN_MAX_PLY),
        "the handcrafted evaluation values some position:\n{handcrafted}"
    );

    let junk = dir.join("junk.bin");
    std::fs::write(&junk, b"not a network").expect("write");
    let stderr = refused(&["bench", "--depth", "1", "--eval-file", junk.to_str().expect("UTF-8")]);
    assert!(stderr.contains("--eval-file"), "{stderr}");
}

// ---- kyobo mate -------------------------------------------------------------------

/// Mate in 1: G*5b, guarded by the pawn on 5c; 4a, 6a, 4b and 6b are the gold's.
const MATE_IN_1: &str = "4k4/9/4P4/9/9/9/9/9/9 b G 1";
/// Mate in 3, by hand: the only checks are bishop drops on the long diagonal and
/// 2c2b+ (which the king takes), and after any drop the king escapes to 1b or 2a.
/// After B*3c, 1a1b 3c2b+ or 1a2a 3c2b+ mates: the horse on 2b, guarded by the
/// pawn, covers every square the king could go to.
const MATE_IN_3: &str = "8k/9/7P1/9/9/9/9/9/9 b B 1";
/// No mate: a lone gold's checks are drops next to the king, which takes it, and
/// then Black has nothing left.
const NO_MATE: &str = "4k4/9/9/9/9/9/9/9/9 b G 1";

/// The summary of `--file` counts each verdict: a mate of the expected length is
/// shortest (also where the length is `?` and the mate is proven shortest), one of
/// another length is wrong (and named), a position without mate and without an
/// expected length is nomate.
#[test]
fn mate_file_summary_counts_each_verdict() {
    let dir = ScratchDir::new("cli-promises-mate-file");
    let file = dir.join("problems.txt");
    let text = format!(
        "# one of each\n\
         {MATE_IN_1} moves G*5b\n\
         three\t3\tsfen {MATE_IN_3}\n\
         {NO_MATE}\n\
         \n\
         long\t5\t{MATE_IN_1}\n\
         any\t?\t{MATE_IN_3}\n"
    );
    std::fs::write(&file, text).expect("write the problems");
    let out = ok(&["mate", "--file", file.to_str().expect("UTF-8")]);
    assert_eq!(number(&out, "problems"), 5, "{out}");
    assert_eq!(number(&out, "solved"), 3, "{out}");
    assert_eq!(number(&out, "shortest"), 3, "{out}");
    assert_eq!(number(&out, "wrong"), 1, "{out}");
    assert_eq!(number(&out, "nomate"), 1, "{out}");
    assert_eq!(number(&out, "unsolved"), 0, "{out}");
    let wrong: Vec<&str> = out.lines().filter(|l| l.starts_with("wrong: ")).collect();
    assert_eq!(wrong.len(), 1, "{out}");
    assert!(wrong[0].starts_with("wrong: long: mate 1"), "{out}");
    assert!(wrong[0].contains("length 1 where 5 is expected"), "{out}");

    // `--verbose`: one line a problem, by name or line number.
    let out = ok(&["mate", "--file", file.to_str().expect("UTF-8"), "--verbose"]);
    let line = |start: &str| out.lines().find(|l| l.starts_with(start)).unwrap_or("");
    assert!(line("line 2: ").starts_with("line 2: mate 1 (shortest)"), "{out}");
    assert!(line("three: ").starts_with("three: mate 3 (shortest)"), "{out}");
    assert!(line("line 4: ").starts_with("line 4: nomate (nomate)"), "{out}");
    assert!(line("any: ").starts_with("any: mate 3 (shortest)"), "{out}");
}

/// `--certify` proves a `nomate` by a closed set of positions, and adds nothing
/// where there is a mate; without it there is no certificate.
#[test]
fn mate_certify_certifies_a_nomate() {
    let out = ok(&["mate", "--sfen", NO_MATE, "--certify"]);
    assert_eq!(out.lines().next(), Some("nomate"), "{out}");
    let note = field(&out, "note");
    let size: u64 = note
        .strip_prefix("certified: closed set of ")
        .and_then(|r| r.strip_suffix(" positions"))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{out}"));
    assert!(size >= 1, "{out}");
    let plain = ok(&["mate", "--sfen", NO_MATE]);
    assert!(!plain.contains("certified"), "{plain}");
    let mate = ok(&["mate", "--sfen", MATE_IN_1, "--certify"]);
    assert_eq!(mate.lines().next(), Some("mate 1"), "{mate}");
    assert!(!mate.contains("certified"), "{mate}");
}

/// White is in check from the rook on 9a with only a gold in hand: the king
/// cannot move (the knight on 3c covers 2a, the gold on 1c 1b and 2b), and every
/// gold drop on 2a..8a is taken (by the rook, or the knight on 2a) with mate.
/// Those drops are futile: the position counts as mate (0 plies). With
/// `--count-futile` they count: mate in 2, a drop and the capture.
#[test]
fn mate_count_futile_counts_the_futile_drops() {
    let sfen = "R7k/9/6N1G/9/9/9/9/9/9 w g 1";
    let out = ok(&["mate", "--sfen", sfen]);
    assert_eq!(out.lines().next(), Some("mate 0"), "{out}");
    assert!(field(&out, "note").contains("defender to move"), "{out}");

    let out = ok(&["mate", "--sfen", sfen, "--count-futile"]);
    assert_eq!(out.lines().next(), Some("mate 2"), "{out}");
    let pv: Vec<&str> = field(&out, "pv").split(' ').collect();
    assert_eq!(pv.len(), 2, "{out}");
    assert!(pv[0].starts_with("G*") && pv[0].ends_with('a'), "a gold dropped on rank a: {out}");
    let mut pos = Position::from_sfen(sfen).expect("valid");
    for m in &pv {
        let m = pos.parse_usi_move(m).unwrap_or_else(|e| panic!("{m}: {e}"));
        pos.do_move(m);
    }
    assert!(pos.in_check() && shogi::legal_moves(&pos).is_empty(), "{out}");
}

/// `--nodes N` stops the search once N nodes are passed; the count is read every
/// 1,024 nodes (docs/mate.md), so the report is N to N + 1,024 and `timeout`. The
/// same position unlimited takes more.
#[test]
fn mate_nodes_stops_the_search_near_the_limit() {
    let sfen = "8k/9/9/9/9/9/9/9/9 b RG 1";
    for limit in [3_000, 10_000] {
        let out = ok(&["mate", "--sfen", sfen, "--nodes", &limit.to_string()]);
        assert_eq!(out.lines().next(), Some("timeout"), "{out}");
        let nodes = number(&out, "nodes");
        assert!((limit..=limit + 1024).contains(&nodes), "--nodes {limit}: {out}");
    }
    let out = ok(&["mate", "--sfen", sfen]);
    assert_ne!(out.lines().next(), Some("timeout"), "{out}");
    assert!(number(&out, "nodes") > 10_000 + 1024, "{out}");
}

/// docs/mate.md: a `--hash` the machine cannot give is a one-line error, and
/// nothing is solved; 0 is the smallest table (1 MiB, as for analyse and bench).
#[test]
fn mate_hash_too_large_is_a_one_line_error() {
    let out = kyobo(&["mate", "--sfen", MATE_IN_1, "--hash", "1000000000"]);
    assert!(!out.status.success());
    assert!(out.stdout.is_empty(), "{}", String::from_utf8_lossy(&out.stdout));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    let errors: Vec<&str> = stderr.lines().filter(|l| l.starts_with("error")).collect();
    assert_eq!(errors.len(), 1, "{stderr}");
    assert!(errors[0].contains("--hash 1000000000"), "{stderr}");
    // The smallest table works.
    for smallest in ["0", "1"] {
        let out = ok(&["mate", "--sfen", MATE_IN_1, "--hash", smallest]);
        assert_eq!(out.lines().next(), Some("mate 1"), "{out}");
    }
}

// ---- kyobo analyse ----------------------------------------------------------------

/// A game whose third move (▲４四角, 8h4d) leaves the bishop where a pawn takes it.
const BLUNDER_GAME: &str = "position startpos moves 7g7f 3c3d 8h4d 4c4d 2g2f 8c8d 2f2e 8d8e\n";

/// The settings line of the HTML report.
fn report_settings(html: &std::path::Path) -> String {
    let page = std::fs::read_to_string(html).expect("the HTML report");
    let start = page.find("<p class=\"settings\">").expect("a settings line") + 20;
    page[start..].split('<').next().unwrap_or("").to_string()
}

/// `--movetime MS` searches each position for that time instead of to a depth,
/// as the report says, and still marks the blunder; it cannot go with `--depth`,
/// and 0 is refused.
#[test]
fn analyse_movetime_searches_by_time_and_marks_the_blunder() {
    let dir = ScratchDir::new("cli-promises-analyse-movetime");
    let game = dir.join("blunder.usi");
    std::fs::write(&game, BLUNDER_GAME).expect("written");
    let html = dir.join("report.html");
    let (game, html_arg) = (game.to_str().expect("UTF-8"), html.to_str().expect("UTF-8"));
    let out = ok(&["analyse", "--movetime", "50", "--html", html_arg, game]);
    let blunders: Vec<&str> = out.lines().filter(|l| l.contains(" ?? ")).collect();
    assert_eq!(blunders.len(), 1, "{out}");
    assert!(blunders[0].starts_with("move 3 8h4d ??"), "{out}");
    let settings = report_settings(&html);
    assert!(settings.contains("50 ms a position") && !settings.contains("depth"), "{settings}");

    let stderr = refused(&["analyse", "--movetime", "50", "--depth", "2", game]);
    assert!(stderr.contains("--depth") && stderr.contains("--movetime"), "{stderr}");
    let stderr = refused(&["analyse", "--movetime", "0", game]);
    assert!(stderr.contains("--movetime"), "{stderr}");
}

/// `--multipv K` searches K lines at each position: the report names it and the
/// judgement stays (the best line is the first); 1 to 32.
#[test]
fn analyse_multipv_is_reported_and_keeps_the_judgement() {
    let dir = ScratchDir::new("cli-promises-analyse-multipv");
    let game = dir.join("blunder.usi");
    std::fs::write(&game, BLUNDER_GAME).expect("written");
    let html = dir.join("report.html");
    let (game, html_arg) = (game.to_str().expect("UTF-8"), html.to_str().expect("UTF-8"));
    let out = ok(&["analyse", "--depth", "4", "--multipv", "3", "--html", html_arg, game]);
    let blunders: Vec<&str> = out.lines().filter(|l| l.contains(" ?? ")).collect();
    assert_eq!(blunders.len(), 1, "{out}");
    assert!(blunders[0].starts_with("move 3 8h4d ??"), "{out}");
    // The better move is one of the position's legal moves, not the blunder.
    let best = blunders[0].split("; best ").nth(1).expect("a best line");
    let first = best.split_whitespace().nth(1).expect("the best move");
    let mut pos = Position::startpos();
    for m in ["7g7f", "3c3d"] {
        let m = pos.parse_usi_move(m).expect("legal");
        pos.do_move(m);
    }
    assert!(pos.parse_usi_move(first).is_ok() && first != "8h4d", "{out}");
    let settings = report_settings(&html);
    assert!(settings.contains("depth 4") && settings.contains("MultiPV 3"), "{settings}");
    ok(&["analyse", "--depth", "4", "--html", html_arg, game]);
    assert!(report_settings(&html).contains("MultiPV 1"));

    for bad in ["0", "33"] {
        let stderr = refused(&["analyse", "--depth", "1", "--multipv", bad, game]);
        assert!(stderr.contains("--multipv"), "{stderr}");
    }
}

// ---- kyobo tree -------------------------------------------------------------------

/// Dobutsu shogi (docs/dobutsu.md): a side that can take the opposing lion has
/// won without a move, and a lion on the far rank that cannot be taken is a try
/// that wins; each is the last ply, a win in 1 (`MATE - 1`). From c2 the only
/// winning move is the try c2c1: b1 and b2 stand next to the lion on a1.
#[test]
fn tree_dobutsu_scores_a_won_position_and_finds_the_try() {
    let out = ok(&["tree", "--dobutsu", "1l1/1L1/3/3 b - 1"]);
    assert_eq!(number(&out, "value"), 32000 - 1, "{out}");
    assert_eq!(field(&out, "best"), "none", "{out}");

    let out = ok(&["tree", "--dobutsu", "l2/2L/3/3 b - 1", "--depth", "1"]);
    assert_eq!(number(&out, "value"), 32000 - 1, "{out}");
    assert_eq!(field(&out, "best"), "c2c1", "{out}");
    assert_eq!(field(&out, "pv"), "c2c1", "{out}");
    // The same try for Gote, the board turned round: its lion steps onto rank 4.
    let out = ok(&["tree", "--dobutsu", "3/3/l2/2L w - 1", "--depth", "1"]);
    assert_eq!(number(&out, "value"), 32000 - 1, "{out}");
    assert_eq!(field(&out, "best"), "a3a4", "{out}");

    let stderr = refused(&["tree", "--dobutsu", "not a position"]);
    assert!(stderr.contains("--dobutsu"), "{stderr}");
}

/// The tree `((3 12 8) (2 4 6))` is worth 3 (min 3 on the left, at most 2 on the
/// right). Alpha-beta is fail-hard: with a window above the value it returns
/// alpha (an upper bound, "at most 5"), below it beta (a lower bound, "at least
/// 2"), and inside it the value itself. Negamax with the same root window agrees.
#[test]
fn tree_window_above_or_below_the_value_reports_the_bound() {
    let tree = "((3 12 8) (2 4 6))";
    let value = |extra: &[&str]| {
        let mut args = vec!["tree", "--tree", tree];
        args.extend_from_slice(extra);
        number(&ok(&args), "value")
    };
    assert_eq!(value(&[]), 3);
    for algo in ["alphabeta", "negamax"] {
        assert_eq!(value(&["--algo", algo, "--window", "5", "10"]), 5, "{algo} fails low");
        assert_eq!(value(&["--algo", algo, "--window", "-5", "2"]), 2, "{algo} fails high");
        assert_eq!(value(&["--algo", algo, "--window", "2", "4"]), 3, "{algo} inside");
    }
    let stderr = refused(&["tree", "--tree", tree, "--window", "5", "5"]);
    assert!(stderr.contains("--window"), "{stderr}");
}

/// A tree read from a file, with named nodes: B = min(3, 12) = 3 and C = min(2, 4)
/// = 2, so A = 3 by B and D. Minimax visits all 7 nodes and 4 leaves; alpha-beta
/// leaves G out once F = 2 is below B's 3.
#[test]
fn tree_reads_a_tree_from_a_file() {
    let dir = ScratchDir::new("cli-promises-tree-file");
    let path = dir.join("tree.txt");
    std::fs::write(&path, "A(B(D:3 E:12) C(F:2 G:4))\n").expect("written");
    let path = path.to_str().expect("UTF-8");
    let out = ok(&["tree", path, "--algo", "minimax"]);
    assert_eq!((number(&out, "value"), field(&out, "best"), field(&out, "pv")), (3, "B", "B D"));
    assert_eq!((number(&out, "nodes"), number(&out, "leaves")), (7, 4), "{out}");
    let out = ok(&["tree", path]);
    assert_eq!((number(&out, "value"), field(&out, "pv")), (3, "B D"), "{out}");
    assert_eq!((number(&out, "nodes"), number(&out, "leaves")), (6, 3), "{out}");
    let missing = dir.join("missing.txt");
    let stderr = refused(&["tree", missing.to_str().expect("UTF-8")]);
    assert!(stderr.contains("missing.txt"), "{stderr}");
}
