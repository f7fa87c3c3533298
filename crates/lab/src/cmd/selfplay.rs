//! Self-play positions with game results, for the Texel tuner (`tune.rs`).
//!
//! Plays fast games (a node budget per move, varied at random so that games from the
//! same opening diverge; or, with `--depth D`, a fixed depth and `--random-plies N`
//! random legal moves after the opening) from the first 16–36 plies of a random
//! taya36 opening, then
//! writes every quiet position of the game (side to move not in check, best move not
//! a capture or promotion, score not decided) with the result and the search's score
//! from Black's side: `<sfen>\t<1 | 0.5 | 0>\t<centipawns>`. Games end by mate,
//! sennichite, declaration, a score over 3000 for both sides' searches for 8 plies
//! running (adjudicated), or 300 plies (draw).
//!
//! ```text
//! cargo run --release -p lab -- selfplay \
//!     --games 2000 --nodes 3000 --seed 1 --out /tmp/kyobo-selfplay.txt
//! cargo run --release -p lab -- selfplay \
//!     --games 2000 --depth 6 --random-plies 2 --seed 1 --out nnue-data.txt
//! ```

use super::common::arg;
use search::engine::Signals;
use search::{Engine, Limits};
use shogi::{legal_moves, Color, EnteringKingRule, Position, Repetition};
use shogi_game::ShogiGame;
use std::io::{BufWriter, Write};
use std::time::Instant;

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

pub fn main(args: Vec<String>) {
    let games: usize = arg(&args, "--games", 100);
    let nodes: u64 = arg(&args, "--nodes", 3000);
    let depth: i32 = arg(&args, "--depth", 0);
    let random_plies: usize = arg(&args, "--random-plies", 0);
    let seed: u64 = arg(&args, "--seed", 1);
    let out: String = arg(&args, "--out", "/tmp/kyobo-selfplay.txt".to_string());
    let book: String = arg(&args, "--openings", "../shared/data/openings/taya36.sfen".to_string());
    shogi::attacks::init();

    let openings: Vec<Vec<String>> = std::fs::read_to_string(&book)
        .expect("openings file")
        .lines()
        .filter_map(|l| l.split_once(" moves ").map(|(_, m)| m))
        .map(|m| m.split_whitespace().map(str::to_string).collect())
        .collect();
    let file = std::fs::OpenOptions::new().create(true).append(true).open(&out).expect("out");
    let mut w = BufWriter::new(file);
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let mut engine = Engine::new(16, 1);
    let start = Instant::now();
    let (mut total_positions, mut results) = (0usize, [0usize; 3]);

    for g in 0..games {
        let line = &openings[rng.below(openings.len() as u64) as usize];
        let plies = 16 + rng.below(21) as usize;
        let mut pos = Position::startpos();
        for mv in line.iter().take(plies) {
            match pos.parse_usi_move(mv) {
                Ok(m) => pos.do_move(m),
                Err(_) => break,
            }
        }
        for _ in 0..random_plies {
            let moves = legal_moves(&pos);
            if moves.is_empty() {
                break;
            }
            pos.do_move(moves[rng.below(moves.len() as u64) as usize]);
        }
        engine.clear();
        let mut records: Vec<(String, i32)> = Vec::new();
        let mut decided = 0;
        // Result from Black's side: 1, 0.5, 0.
        let result: f32 = loop {
            if legal_moves(&pos).is_empty() {
                break if pos.side_to_move() == Color::Black { 0.0 } else { 1.0 };
            }
            let stm_wins = if pos.side_to_move() == Color::Black { 1.0 } else { 0.0 };
            match pos.sennichite() {
                Some(Repetition::WinByPerpetualCheck) => break stm_wins,
                Some(Repetition::LossByPerpetualCheck) => break 1.0 - stm_wins,
                Some(_) => break 0.5,
                None => {}
            }
            if pos.history_len() >= 300 {
                break 0.5;
            }
            let mut game = ShogiGame::new(pos.clone());
            game.entering_king_rule = EnteringKingRule::Point27;
            if game.declaration_wins() {
                break stm_wins;
            }
            let limits = if depth > 0 {
                Limits::depth(depth)
            } else {
                let budget = nodes + rng.below(nodes + 1);
                Limits { nodes: Some(budget), multipv: 1, ..Limits::default() }
            };
            let r = engine.search(&game, &limits, &Signals::new(), &mut |_| {});
            let Some(m) = r.best_move else {
                break 1.0 - stm_wins;
            };
            if r.score.abs() > 3000 {
                decided += 1;
                if decided >= 8 {
                    break if r.score > 0 { stm_wins } else { 1.0 - stm_wins };
                }
            } else {
                decided = 0;
                if !pos.in_check() && !m.is_capture() && !m.is_promotion() {
                    let black_score =
                        if pos.side_to_move() == Color::Black { r.score } else { -r.score };
                    records.push((pos.to_sfen(), black_score));
                }
            }
            pos.do_move(m);
        };
        results[(result * 2.0) as usize] += 1;
        for (sfen, score) in &records {
            writeln!(w, "{sfen}\t{result}\t{score}").expect("write");
        }
        total_positions += records.len();
        if (g + 1) % 20 == 0 {
            w.flush().expect("flush");
            eprintln!(
                "games {} positions {} (Black W-D-L {}-{}-{}) {:.0} s",
                g + 1,
                total_positions,
                results[2],
                results[1],
                results[0],
                start.elapsed().as_secs_f64()
            );
        }
    }
    w.flush().expect("flush");
    eprintln!("done: {games} games, {total_positions} positions -> {out}");
}
