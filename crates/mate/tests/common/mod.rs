//! Helpers shared by the solver's integration tests.

// Each test file uses only some of them.
#![allow(dead_code)]

use shogi::movegen::{generate_checks, generate_evasions, MoveList};
use shogi::Position;

/// Plain exhaustive search, independent of df-pn and its table: can the attacker
/// mate within `plies`?
pub fn mate_within(pos: &mut Position, plies: u32) -> bool {
    if plies == 0 {
        return false;
    }
    let mut checks = MoveList::new();
    generate_checks(pos, &mut checks);
    checks.iter().any(|&m| {
        pos.do_move(m);
        let mated = all_replies_mated(pos, plies - 1);
        pos.undo_move(m);
        mated
    })
}

fn all_replies_mated(pos: &mut Position, plies: u32) -> bool {
    let mut replies = MoveList::new();
    generate_evasions(pos, &mut replies);
    if replies.is_empty() {
        return true;
    }
    plies > 0
        && replies.iter().all(|&m| {
            pos.do_move(m);
            let mated = mate_within(pos, plies - 1);
            pos.undo_move(m);
            mated
        })
}

/// The SFEN with one piece moved between the hands: one `from` letter (an SFEN
/// hand letter, upper case Black, lower case White) taken away and one `to`
/// letter added. `None` when the hand holds no `from`.
pub fn move_hand_piece(sfen: &str, from: char, to: char) -> Option<String> {
    let fields: Vec<&str> = sfen.split_whitespace().collect();
    if fields.len() < 3 {
        return None;
    }
    let mut counts = std::collections::BTreeMap::new();
    let mut n = 0u32;
    for c in fields[2].chars() {
        if let Some(d) = c.to_digit(10) {
            n = n * 10 + d;
        } else if c != '-' {
            *counts.entry(c).or_insert(0) += n.max(1);
            n = 0;
        }
    }
    let have = counts.get_mut(&from).filter(|k| **k > 0)?;
    *have -= 1;
    *counts.entry(to).or_insert(0) += 1;
    let mut hand = String::new();
    for c in "RBGSNLPrbgsnlp".chars() {
        match counts.get(&c).copied().unwrap_or(0) {
            0 => {}
            1 => hand.push(c),
            k => hand += &format!("{k}{c}"),
        }
    }
    if hand.is_empty() {
        hand.push('-');
    }
    Some(format!("{} {} {} 1", fields[0], fields[1], hand))
}

/// The project's own mate fixture, `tools/fixtures/mates.tsv` (made by
/// `tools/gen_mate_fixtures.py`).
const FIXTURE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tools/fixtures/mates.tsv");

/// (line number, SFEN, shortest mate in plies, the fixture's mating line).
pub fn fixture() -> Vec<(usize, String, usize, Vec<String>)> {
    let text = std::fs::read_to_string(FIXTURE).expect("tools/fixtures/mates.tsv");
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.starts_with('#') && !l.trim().is_empty())
        .map(|(i, l)| {
            let fields: Vec<&str> = l.split('\t').collect();
            assert_eq!(fields.len(), 3, "line {}: {l}", i + 1);
            let line = fields[2].split_whitespace().map(str::to_string).collect();
            (i + 1, fields[0].to_string(), fields[1].parse().expect("a length"), line)
        })
        .collect()
}
