//! Differential tests against fixtures produced by an independent generator
//! (cshogi, cross-checked; see tools/gen_movegen_fixtures.py).
//!
//! For every fixture position we check, in one pass:
//! - the legal move list equals the fixture's exactly (as sorted USI strings);
//! - the SFEN round-trips;
//! - the staged generators partition the legal moves as movegen.rs documents;
//! - `generate_checks` equals both the `gives_check` filter and the oracle
//!   "the opponent is in check after the move" (make/unmake based), and
//!   `CheckInfo::gives_check` answers as `gives_check` does;
//! - every move keeps the position consistent and undo restores it exactly.

use flate2::read::GzDecoder;
use shogi::movegen::{
    generate_captures, generate_checks, generate_drops, generate_evasions, generate_quiets,
    MoveList,
};
use shogi::{legal_moves, Move, MoveParseError, Position};
use std::collections::BTreeSet;
use std::io::Read;

const MOVEGEN_FIXTURE: &str =
    concat!(env!("CARGO_MANIFEST_DIR"), "/../../tools/fixtures/movegen.tsv.gz");
const UCHIFUZUME_FIXTURE: &str =
    concat!(env!("CARGO_MANIFEST_DIR"), "/../../tools/fixtures/uchifuzume.tsv");

/// How many failures to print in full; the rest are only counted.
const SHOW: usize = 10;

fn read_gz(path: &str) -> String {
    let file = std::fs::File::open(path).unwrap_or_else(|e| panic!("open {path}: {e}"));
    let mut text = String::new();
    GzDecoder::new(file).read_to_string(&mut text).unwrap_or_else(|e| panic!("gunzip {path}: {e}"));
    text
}

/// Non-comment, non-empty lines split on tabs.
fn records(text: &str) -> impl Iterator<Item = (usize, Vec<&str>)> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.starts_with('#') && !l.trim().is_empty())
        .map(|(i, l)| (i + 1, l.split('\t').collect()))
}

fn sorted_usi<'a>(moves: impl IntoIterator<Item = &'a Move>) -> Vec<String> {
    let mut v: Vec<String> = moves.into_iter().map(|m| m.to_usi()).collect();
    v.sort();
    v
}

/// "missing [..] extra [..]" between an expected and an actual sorted list.
fn diff(expected: &[String], actual: &[String]) -> String {
    let e: BTreeSet<&String> = expected.iter().collect();
    let a: BTreeSet<&String> = actual.iter().collect();
    let missing: Vec<&&String> = e.difference(&a).collect();
    let extra: Vec<&&String> = a.difference(&e).collect();
    let dups = actual.len() - a.len();
    format!("missing {missing:?} extra {extra:?} duplicates {dups}")
}

fn fail_with(failures: &[String], what: &str) {
    if failures.is_empty() {
        return;
    }
    let shown: Vec<&str> = failures.iter().take(SHOW).map(String::as_str).collect();
    panic!("{} {what} failures; first {}:\n{}", failures.len(), shown.len(), shown.join("\n"));
}

fn list_of(pos: &Position, gen: fn(&Position, &mut MoveList)) -> MoveList {
    let mut list = MoveList::new();
    gen(pos, &mut list);
    list
}

/// The staged generators against the whole legal list; returns a description of
/// the first problem found.
fn check_stages(pos: &mut Position, legal: &[String]) -> Option<String> {
    if pos.in_check() {
        let ev = sorted_usi(&list_of(pos, generate_evasions));
        if ev != legal {
            return Some(format!("evasions != legal: {}", diff(legal, &ev)));
        }
    } else {
        let caps = sorted_usi(&list_of(pos, generate_captures));
        let quiets = sorted_usi(&list_of(pos, generate_quiets));
        let drops = sorted_usi(&list_of(pos, generate_drops));
        // Each stage on its own must be duplicate-free and the stages disjoint;
        // the concatenation (a multiset) sorted must equal the legal list, which
        // catches both gaps and overlaps.
        let mut union: Vec<String> = caps.iter().chain(&quiets).chain(&drops).cloned().collect();
        union.sort();
        if union != legal {
            return Some(format!("captures+quiets+drops != legal: {}", diff(legal, &union)));
        }
        for (name, stage) in [("captures", &caps), ("quiets", &quiets), ("drops", &drops)] {
            if stage.windows(2).any(|w| w[0] == w[1]) {
                return Some(format!("{name} has duplicates"));
            }
        }
    }

    // Checks: the filter on gives_check and the make/unmake oracle must agree
    // with generate_checks.
    let checks = sorted_usi(&list_of(pos, generate_checks));
    let legal_moves = legal_moves(pos);
    let by_flag = sorted_usi(legal_moves.iter().filter(|&&m| pos.gives_check(m)));
    let mut by_play = Vec::new();
    for &m in legal_moves.iter() {
        pos.do_move(m);
        if pos.in_check() {
            by_play.push(m.to_usi());
        }
        pos.undo_move(m);
    }
    by_play.sort();
    if let Some(info) = pos.check_info() {
        for &m in legal_moves.iter() {
            if info.gives_check(m) != pos.gives_check(m) {
                return Some(format!("CheckInfo and gives_check differ on {}", m.to_usi()));
            }
        }
    }
    if checks != by_flag {
        return Some(format!("checks != gives_check filter: {}", diff(&by_flag, &checks)));
    }
    if checks != by_play {
        return Some(format!(
            "checks != moves after which the opponent is in check: {}",
            diff(&by_play, &checks)
        ));
    }
    None
}

/// Every move: consistent after do_move, and undo_move restores everything.
fn check_make_unmake(pos: &mut Position) -> Option<String> {
    let sfen = pos.to_sfen();
    let keys = (pos.key(), pos.board_key(), pos.hand_key());
    let checkers = pos.checkers();
    for &m in legal_moves(pos).iter() {
        pos.do_move(m);
        let consistent = pos.is_consistent();
        pos.undo_move(m);
        if !consistent {
            return Some(format!("inconsistent after {m}"));
        }
        if pos.to_sfen() != sfen
            || (pos.key(), pos.board_key(), pos.hand_key()) != keys
            || pos.checkers() != checkers
        {
            return Some(format!("{m} not undone: now {}", pos.to_sfen()));
        }
    }
    None
}

#[test]
fn movegen_matches_fixture() {
    let text = read_gz(MOVEGEN_FIXTURE);
    let mut positions = 0;
    let mut moves = 0;
    let mut failures = Vec::new();
    for (line, cols) in records(&text) {
        assert!(cols.len() >= 2, "line {line}: expected SFEN<TAB>moves");
        let sfen = cols[0];
        let mut expected: Vec<String> = cols[1].split_whitespace().map(String::from).collect();
        expected.sort();
        positions += 1;
        moves += expected.len();

        let mut pos = match Position::from_sfen(sfen) {
            Ok(p) => p,
            Err(e) => {
                failures.push(format!("line {line}: {sfen}: parse error {e}"));
                continue;
            }
        };
        if pos.to_sfen() != sfen {
            failures.push(format!("line {line}: {sfen}: to_sfen gives {}", pos.to_sfen()));
        }
        let actual = sorted_usi(&legal_moves(&pos));
        if actual != expected {
            failures.push(format!("line {line}: {sfen}: {}", diff(&expected, &actual)));
            continue; // the finer checks below assume a correct legal list
        }
        if let Some(msg) = check_stages(&mut pos, &expected) {
            failures.push(format!("line {line}: {sfen}: {msg}"));
        }
        if let Some(msg) = check_make_unmake(&mut pos) {
            failures.push(format!("line {line}: {sfen}: {msg}"));
        }
    }
    eprintln!("movegen fixture: {positions} positions, {moves} legal moves checked");
    assert!(positions > 1000, "fixture too small: {positions} positions");
    fail_with(&failures, "movegen");
}

#[test]
fn uchifuzume_matches_fixture() {
    let text = std::fs::read_to_string(UCHIFUZUME_FIXTURE).expect("read uchifuzume fixture");
    let mut counts = [0usize; 2]; // [illegal, legal]
    let mut failures = Vec::new();
    for (line, cols) in records(&text) {
        assert_eq!(cols.len(), 4, "line {line}: expected 4 columns");
        let (sfen, drop, verdict) = (cols[0], cols[2], cols[3]);
        let mut expected: Vec<String> = cols[1].split_whitespace().map(String::from).collect();
        expected.sort();
        let illegal = match verdict {
            "illegal" => true,
            "legal" => false,
            other => panic!("line {line}: unknown verdict {other:?}"),
        };
        counts[!illegal as usize] += 1;

        let pos = Position::from_sfen(sfen).unwrap_or_else(|e| panic!("line {line}: {e}"));
        let actual = sorted_usi(&legal_moves(&pos));
        if actual != expected {
            failures.push(format!("line {line}: {sfen}: {}", diff(&expected, &actual)));
        }
        let present = actual.iter().any(|m| m == drop);
        if present == illegal {
            failures.push(format!(
                "line {line}: {sfen}: {drop} should be {verdict} but is {}",
                if present { "generated" } else { "missing" }
            ));
        }
        let parsed = pos.parse_usi_move(drop);
        let parse_ok = if illegal {
            matches!(parsed, Err(MoveParseError::Uchifuzume(_)))
        } else {
            parsed.as_ref().map(|m| m.to_usi()).ok().as_deref() == Some(drop)
        };
        if !parse_ok {
            failures.push(format!("line {line}: {sfen}: parse_usi_move({drop}) = {parsed:?}"));
        }
    }
    eprintln!("uchifuzume fixture: {} illegal, {} legal pawn-drop checks", counts[0], counts[1]);
    assert!(counts[0] > 0 && counts[1] > 0, "fixture lacks one verdict: {counts:?}");
    fail_with(&failures, "uchifuzume");
}
