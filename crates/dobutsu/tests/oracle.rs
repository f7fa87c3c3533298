//! Kyobo's exact values against an independent solver's:
//! `tests/fixtures/oracle.tsv` holds positions (the reference's 78-ply
//! perfect game and positions of random games) with the values Robert
//! Clausecker's Dobutsu tablebase gives them and each of their moves, made by
//! `tools/oracle.py` (its documentation says how).
//!
//! The fixture is checked against the rules, and against a full-width search
//! wherever the game ends within its horizon. Then the whole game is solved
//! (in a release build, as CI runs it: about two minutes on two cores) or
//! read from a database file (`KYOBO_DOBUTSU_DB`, else `dobutsu.db` or
//! `target/dobutsu.db` at the workspace's root; `kyobo dobutsu solve --out
//! FILE` writes one): the published figures (246,803,167 positions, the
//! start lost in 78 plies, three first moves lost in 78 and the chick capture
//! in 76) are checked, and every value and every move's value of the fixture
//! is compared with it. A debug build without the file skips these tests and
//! says so on the terminal; a database file read instead of the solve says so
//! too, as the solver's own counts are then not checked. With
//! `KYOBO_REQUIRE_SHARED_DATA=1` (CI) neither is allowed: the game is solved.

use crate::common;

use common::{exact_within, moves_of};
use dobutsu::solve::{self, Database, Stats, Value};
use dobutsu::{Move, Position};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::sync::OnceLock;

/// One position of the fixture.
struct Entry {
    line: usize,
    pos: Position,
    value: Value,
    moves: BTreeMap<String, Value>,
}

/// `#n` (win in n plies), `#-n` (loss in n), `0` (draw).
fn parse_value(text: &str) -> Value {
    match text {
        "0" => Value::Draw,
        t if t.starts_with("#-") => Value::Loss(t[2..].parse().unwrap()),
        t if t.starts_with('#') => Value::Win(t[1..].parse().unwrap()),
        t => panic!("bad value {t}"),
    }
}

fn fixture() -> Vec<Entry> {
    let text = include_str!("fixtures/oracle.tsv");
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.starts_with('#'))
        .map(|(i, l)| {
            let fields: Vec<&str> = l.split('\t').collect();
            assert_eq!(fields.len(), 4, "line {}", i + 1);
            let moves = fields[3]
                .split(' ')
                .map(|mv| {
                    let (m, v) = mv.split_once(':').unwrap();
                    (m.to_string(), parse_value(v))
                })
                .collect();
            Entry {
                line: i + 1,
                pos: Position::from_sfen(fields[0]).unwrap(),
                value: parse_value(fields[2]),
                moves,
            }
        })
        .collect()
}

fn moves_by_name(pos: &Position) -> BTreeMap<String, Move> {
    moves_of(pos).into_iter().map(|m| (m.to_string(), m)).collect()
}

#[test]
fn the_fixture_agrees_with_the_rules() {
    let entries = fixture();
    assert!(entries.len() >= 300, "{} positions", entries.len());
    for e in &entries {
        assert_eq!(e.pos.end(), None, "line {}: the game is over", e.line);
        // The same legal moves in both programs.
        let ours: Vec<String> = moves_by_name(&e.pos).into_keys().collect();
        let theirs: Vec<String> = e.moves.keys().cloned().collect();
        assert_eq!(ours, theirs, "line {}", e.line);
        // The position's value is its best move's.
        let best = e.moves.values().max_by_key(|v| v.goodness()).unwrap();
        assert_eq!(*best, e.value, "line {}", e.line);
        assert!(e
            .value
            .plies()
            .is_none_or(|n| n % 2 == u32::from(matches!(e.value, Value::Win(_)))));
    }
    // The reference line: the start is lost in 78, and each later position
    // of the line is that many plies nearer the end.
    assert_eq!(entries[0].pos, Position::startpos());
    for (ply, e) in entries.iter().take(77).enumerate() {
        let n = 78 - ply as u32;
        let expected = if ply % 2 == 0 { Value::Loss(n) } else { Value::Win(n) };
        assert_eq!(e.value, expected, "ply {ply}");
    }
    let start = &entries[0].moves;
    assert_eq!(start["c4c3"], Value::Loss(78));
    assert_eq!(start["b4c3"], Value::Loss(78));
    assert_eq!(start["b4a3"], Value::Loss(78));
    assert_eq!(start["b3b2"], Value::Loss(76));
}

/// The search's horizon in plies.
const HORIZON: u32 = 7;

#[test]
fn short_values_agree_with_a_full_width_search() {
    let mut exact = 0;
    for e in fixture() {
        let searched = exact_within(e.pos, HORIZON);
        match e.value.plies() {
            Some(n) if n <= HORIZON => {
                assert_eq!(searched, Some(e.value), "line {}", e.line);
                exact += 1;
            }
            // Beyond the horizon (or a draw), the search must not find the
            // game's end within it.
            _ => assert_eq!(searched, None, "line {}: fixture {}", e.line, e.value),
        }
        // Each move whose value is within the horizon: the position after it.
        let moves = moves_by_name(&e.pos);
        for (name, &v) in &e.moves {
            if let Some(n) = v.plies().filter(|&n| n <= HORIZON) {
                let child = e.pos.after(moves[name]);
                let expected = match v {
                    Value::Win(_) => Value::Loss(n - 1),
                    _ => Value::Win(n - 1),
                };
                assert_eq!(exact_within(child, n - 1), Some(expected), "line {} {name}", e.line);
                exact += 1;
            }
        }
    }
    assert!(exact >= 300, "only {exact} values within the horizon");
}

/// The database file: `$KYOBO_DOBUTSU_DB`, else `dobutsu.db` or
/// `target/dobutsu.db` at the workspace's root.
fn database_path() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("KYOBO_DOBUTSU_DB").filter(|p| !p.is_empty()) {
        return Some(PathBuf::from(path));
    }
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    ["dobutsu.db", "target/dobutsu.db"].into_iter().map(|p| root.join(p)).find(|p| p.is_file())
}

/// The whole game solved: the database file when there is one, else (in an
/// optimised build: about two minutes on two cores, 270 MiB) solved here,
/// with the solve's figures; `None` in a debug build without a file, where
/// the solve would take half an hour.
fn solved() -> Option<&'static (Database, Option<Stats>)> {
    static SOLVED: OnceLock<Option<(Database, Option<Stats>)>> = OnceLock::new();
    SOLVED
        .get_or_init(|| {
            let strict = testdata::required();
            if let Some(path) = database_path() {
                assert!(
                    !strict,
                    "{} would stand in for the solve: with {}=1 the game is solved here",
                    path.display(),
                    testdata::REQUIRE_VAR
                );
                let db =
                    Database::load(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
                let _ = writeln!(
                    std::io::stderr().lock(),
                    "note: the Dobutsu tests read {} instead of solving the game: the solver's \
                     own counts are not checked",
                    path.display()
                );
                return Some((db, None));
            }
            if cfg!(debug_assertions) {
                assert!(
                    !strict,
                    "a debug build cannot solve the game in time: test an optimised one"
                );
                return None;
            }
            let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
            let solution = solve::solve(Position::startpos(), threads, &|_| {}).unwrap();
            Some((solution.database, Some(solution.stats)))
        })
        .as_ref()
}

/// Says on the terminal that `test` was skipped (the harness captures
/// `eprintln!`).
fn skipped(test: &str) {
    let _ = writeln!(
        std::io::stderr().lock(),
        "skipped {test}: needs the Dobutsu database in a debug build (KYOBO_DOBUTSU_DB, \
         dobutsu.db or target/dobutsu.db; `kyobo dobutsu solve` writes it), or a release build"
    );
}

#[test]
fn the_solution_has_the_published_figures() {
    let Some((db, stats)) = solved() else {
        skipped("the_solution_has_the_published_figures");
        return;
    };
    // Tanaka's count and value, and the four first moves.
    assert_eq!(db.len(), 246_803_167);
    let start = Position::startpos();
    assert_eq!(db.value(start), Some(Value::Loss(78)));
    let firsts: BTreeMap<String, Value> =
        db.best(start).unwrap().into_iter().map(|(m, v)| (m.to_string(), v)).collect();
    let expected = [
        ("b3b2", Value::Loss(76)),
        ("b4a3", Value::Loss(78)),
        ("b4c3", Value::Loss(78)),
        ("c4c3", Value::Loss(78)),
    ];
    assert_eq!(firsts, expected.map(|(m, v)| (m.to_string(), v)).into_iter().collect());
    // Won, drawn and lost positions, and the longest win (173 plies, as the
    // reference says).
    let (wins, draws, losses, by_distance) = db.counts();
    assert_eq!((wins, draws, losses), (196_773_087, 2_682_700, 47_347_380));
    assert_eq!(by_distance.len(), 174);
    // Stored: the positions where the game goes on.
    assert_eq!(db.stored(), 99_485_568);
    if let Some(stats) = stats {
        assert_eq!(stats.reachable, 246_803_167);
        assert_eq!((stats.over_won, stats.over_lost), (140_298_614, 7_018_985));
        assert_eq!(stats.over_won + stats.over_lost, 147_317_599);
        assert_eq!(stats.mirrors_apart, 493_573_042);
        assert_eq!((stats.wins, stats.draws, stats.losses), (wins, draws, losses));
        assert_eq!((stats.longest_win(), stats.longest_loss()), (173, 172));
        assert_eq!(stats.root, Value::Loss(78));
    }
}

#[test]
fn the_database_agrees_with_the_fixture() {
    let Some((db, _)) = solved() else {
        skipped("the_database_agrees_with_the_fixture");
        return;
    };
    for e in fixture() {
        assert_eq!(db.value(e.pos), Some(e.value), "line {}", e.line);
        let best = db.best(e.pos).unwrap();
        let ours: BTreeMap<String, Value> = best.iter().map(|&(m, v)| (m.to_string(), v)).collect();
        assert_eq!(ours, e.moves, "line {}", e.line);
        assert_eq!(best[0].1, e.value, "line {}", e.line);
    }
}

/// The textbook searches against the solution: on positions of careful random
/// games from the start, alpha-beta and negamax to 5 plies (minimax to 3) find
/// every win or loss the database has within that many plies, with the
/// database's distance, and any end they see (one ply more where the game's
/// rules end it at a leaf: a lion that can be captured) is the database's.
#[test]
fn the_textbook_searches_agree_with_the_database() {
    use dobutsu::Dobutsu;
    use search::textbook::{alphabeta, minimax, negamax, NoTrace};
    use search::value::{INFINITE, MATE, MATE_IN_MAX_PLY};

    let Some((db, _)) = solved() else {
        skipped("the_textbook_searches_agree_with_the_database");
        return;
    };
    // A search value as the database would write it, if the search saw the end.
    let as_exact = |v: search::Value| -> Option<Value> {
        let plies = (MATE - v.abs()) as u32;
        let exact = if v > 0 { Value::Win(plies) } else { Value::Loss(plies) };
        (v.abs() >= MATE_IN_MAX_PLY).then_some(exact)
    };
    let check = |searched: search::Value, truth: Value, depth: u32, sfen: &str| {
        if let Some(exact) = as_exact(searched) {
            assert_eq!(exact, truth, "{sfen}: searched to {depth}");
        }
        if truth.plies().is_some_and(|n| n <= depth) {
            assert_eq!(as_exact(searched), Some(truth), "{sfen}: searched to {depth}");
        }
    };
    let mut rng = common::Lcg(77);
    let (mut positions, mut ends_seen) = (0, 0);
    while positions < 300 {
        let line = common::careful_game(&mut rng, 80);
        let pos = line[rng.next(line.len() as u64) as usize];
        if pos.end().is_some() {
            continue;
        }
        positions += 1;
        let truth = db.value(pos).expect("a position reachable from the start");
        let game = Dobutsu::new(pos);
        let sfen = pos.to_sfen();
        let ab = alphabeta(&game, 5, -INFINITE, INFINITE, &mut NoTrace).value;
        let nm = negamax(&game, 5, -INFINITE, INFINITE, &mut NoTrace).value;
        assert_eq!(ab, nm, "{sfen}");
        check(ab, truth, 5, &sfen);
        check(minimax(&game, 3, &mut NoTrace).value, truth, 3, &sfen);
        ends_seen += usize::from(as_exact(ab).is_some());
    }
    assert!(ends_seen >= 30, "only {ends_seen} of the positions end within 5 plies");
}
