//! Helpers shared by the record tests: a deterministic RNG and records with
//! everything a format can hold (headers, comments, times, bookmarks, variations
//! and endings), played with random legal moves.

#![allow(dead_code)]

use records::{EndReason, Ending, HeaderKey, Record, RecordMove, Start, Variation};
use shogi::{legal_moves, Move, Position};
use std::time::Duration;

/// xorshift64*: reproducible without a dependency.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }

    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

/// A random legal move, preferring captures, promotions and drops half the time
/// (so that records hold every kind of move); `None` when there is none.
pub fn random_move(pos: &Position, rng: &mut Rng, avoid: Option<Move>) -> Option<Move> {
    let all: Vec<Move> = legal_moves(pos).iter().copied().filter(|&m| Some(m) != avoid).collect();
    if all.is_empty() {
        return None;
    }
    let noisy: Vec<Move> =
        all.iter().copied().filter(|m| m.is_capture() || m.is_promotion() || m.is_drop()).collect();
    if !noisy.is_empty() && rng.chance(50) {
        return Some(noisy[rng.below(noisy.len() as u64) as usize]);
    }
    Some(all[rng.below(all.len() as u64) as usize])
}

pub fn random_moves(start: &Position, plies: usize, seed: u64) -> Vec<Move> {
    let mut rng = Rng::new(seed);
    let mut pos = start.clone();
    let mut out = Vec::new();
    for _ in 0..plies {
        let Some(m) = random_move(&pos, &mut rng, None) else { break };
        pos.do_move(m);
        out.push(m);
    }
    out
}

fn random_time(rng: &mut Rng) -> Duration {
    match rng.below(4) {
        0 => Duration::from_secs(rng.below(10)),
        1 => Duration::from_millis(rng.below(200_000)),
        2 => Duration::from_secs(rng.below(4000)),
        _ => Duration::from_micros(rng.below(90_000_000)),
    }
}

fn random_ending(rng: &mut Rng) -> Ending {
    let reason = EndReason::ALL[rng.below(EndReason::ALL.len() as u64) as usize];
    let mut e = Ending::new(reason);
    if rng.chance(60) {
        e.time = Some(random_time(rng));
    }
    if rng.chance(30) {
        e.comments.push(format!("終局のコメント {}", rng.below(100)));
    }
    e
}

/// A line of up to `plies` random moves from `pos`, with times, comments,
/// bookmarks, an ending and (down to `depth` levels) variations.
pub fn random_line(
    pos: &Position,
    plies: usize,
    rng: &mut Rng,
    depth: u32,
    first_avoid: Option<Move>,
) -> (Vec<RecordMove>, Option<Ending>) {
    let mut pos = pos.clone();
    let mut moves = Vec::new();
    for i in 0..plies {
        let avoid = if i == 0 { first_avoid } else { None };
        let Some(m) = random_move(&pos, rng, avoid) else {
            return (moves, Some(Ending::new(EndReason::Mate)));
        };
        let mut rm = RecordMove::new(m);
        if rng.chance(80) {
            rm.time = Some(random_time(rng));
        }
        if rng.chance(15) {
            rm.comments.push(format!("コメント{i}: ▲７六歩 'quoted' \"double\""));
            if rng.chance(30) {
                rm.comments.push("二行目 second line".to_string());
            }
        }
        if rng.chance(5) {
            rm.bookmark = Some(format!("栞{i}"));
        }
        // Variations hang on any move but a variation's first one.
        if depth > 0 && (first_avoid.is_none() || i > 0) && rng.chance(8) {
            for _ in 0..1 + rng.below(2) {
                let (vm, ve) =
                    random_line(&pos, 1 + rng.below(8) as usize, rng, depth - 1, Some(m));
                if !vm.is_empty() || ve.is_some() {
                    rm.variations.push(Variation { moves: vm, ending: ve });
                }
            }
        }
        pos.do_move(m);
        moves.push(rm);
    }
    let mut ending = if rng.chance(70) { Some(random_ending(rng)) } else { None };
    if let Some(e) = &mut ending {
        if depth > 0 && rng.chance(20) {
            let (vm, ve) = random_line(&pos, 1 + rng.below(4) as usize, rng, depth - 1, None);
            if !vm.is_empty() {
                e.variations.push(Variation { moves: vm, ending: ve });
            }
        }
    }
    (moves, ending)
}

/// A record with everything in it.
pub fn rich_record(start: Start, plies: usize, seed: u64) -> Record {
    let mut rng = Rng::new(seed);
    let pos = start.position();
    let (moves, ending) = random_line(&pos, plies, &mut rng, 2, None);
    Record {
        headers: vec![
            (HeaderKey::StartTime, "2024/01/02 03:04:05".to_string()),
            (HeaderKey::Event, "テスト棋戦 第1局".to_string()),
            (HeaderKey::BlackName, "先手さん".to_string()),
            (HeaderKey::WhiteName, "後手 two".to_string()),
            (HeaderKey::Site, "東京".to_string()),
            (HeaderKey::TimeLimit, "00:25+30".to_string()),
            (HeaderKey::Other("表題".to_string()), "題 名".to_string()),
        ],
        start,
        comments: vec!["開始局面のコメント".to_string(), "second".to_string()],
        moves,
        ending,
    }
}

/// Record of a played game: moves only.
pub fn plain_record(start: Start, moves: &[Move]) -> Record {
    Record::from_moves(start, moves).expect("legal moves")
}
