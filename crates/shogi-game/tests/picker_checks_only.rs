//! The move picker's checks-only mode (`MovePicker::quiet_checks_only`) hands out
//! exactly the moves a search that prunes every later quiet non-check would still
//! search, in the same order, and says how many it passed over before each, so that
//! the search's move count (and with it the tree) is what it was without the mode.

use search::history::{ContinuationHistory, History, QuietStats};
use search::picker::{MoveBuffers, MovePicker};
use search::Game;
use shogi::movegen::legal_moves;
use shogi::{Move, Position};
use shogi_game::ShogiGame;

/// A deterministic sequence (a linear congruential step), so failures reproduce.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (self.0 >> 33) as usize % n
    }
}

/// Positions along random games, not in check.
fn positions(rng: &mut Rng, games: usize) -> Vec<Position> {
    let mut out = Vec::new();
    for _ in 0..games {
        let mut pos = Position::startpos();
        for ply in 0..120 {
            let moves: Vec<Move> = legal_moves(&pos).iter().copied().collect();
            if moves.is_empty() {
                break;
            }
            pos.do_move(moves[rng.below(moves.len())]);
            if ply % 10 == 9 && !pos.in_check() {
                out.push(pos.clone());
            }
        }
    }
    out
}

#[test]
fn checks_only_keeps_the_order_and_the_count() {
    shogi::attacks::init();
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut history = History::new(ShogiGame::HISTORY_SIZE);
    let continuation = ContinuationHistory::new(ShogiGame::CONTINUATION_SIZE);
    let mut requests = 0;
    for pos in positions(&mut rng, 12) {
        // Coarse history scores, so that ties (ordered by position) are common.
        for _ in 0..300 {
            let i = rng.below(ShogiGame::HISTORY_SIZE);
            history.update(i, (rng.below(7) as i32 - 3) * 400);
        }
        let stats = QuietStats { history: &history, continuation: &continuation, rows: [None; 2] };
        let game = ShogiGame::new(pos.clone());
        let legal: Vec<Move> = legal_moves(&pos).iter().copied().collect();
        let pick = |rng: &mut Rng| legal[rng.below(legal.len())];
        let tt = pick(&mut rng);
        let killers = [pick(&mut rng), pick(&mut rng)];

        let mut reference = Vec::new();
        let mut picker = MovePicker::main(tt, killers, false, MoveBuffers::warm());
        while let Some(m) = picker.next(&game, &stats) {
            reference.push(m);
        }
        let special = |m: Move| m == tt || m == killers[0] || m == killers[1];
        let pruned = |m: Move| !game.is_tactical(m) && !game.gives_check(m) && !special(m);

        // Ask for the mode after each quiet non-check move a search could prune.
        for j in 1..reference.len() {
            if game.is_tactical(reference[j]) || game.gives_check(reference[j]) {
                continue;
            }
            requests += 1;
            let mut picker = MovePicker::main(tt, killers, false, MoveBuffers::warm());
            for &m in &reference[..=j] {
                assert_eq!(picker.next(&game, &stats), Some(m));
                assert_eq!(picker.take_skipped(), 0);
            }
            picker.quiet_checks_only(&game);
            let mut expected = Vec::new();
            let mut skipped = 0;
            for &m in &reference[j + 1..] {
                if pruned(m) {
                    skipped += 1;
                } else {
                    expected.push((m, skipped));
                    skipped = 0;
                }
            }
            let mut got = Vec::new();
            while let Some(m) = picker.next(&game, &stats) {
                got.push((m, picker.take_skipped()));
            }
            assert_eq!(got, expected, "{} after move {j}", pos.to_sfen());
            // The moves passed over after the last one handed out are counted too.
            assert_eq!(picker.take_skipped(), skipped);
        }
    }
    assert!(requests > 500, "only {requests} requests");
}
