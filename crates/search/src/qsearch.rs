//! Quiescence search, for any algorithm: below the horizon only tactical moves
//! (every evasion in check) are searched, until the position is quiet, so that a
//! value is never taken in the middle of an exchange.
//!
//! The algorithm that calls it lends what it needs through [`QsHost`]: the
//! position, its node count and stop flag, a table of its choice (PVS: its main
//! table; ABC: a table of its own), and its [`PlyStack`] (move storage per ply and,
//! at nodes of the principal variation, its line). Monomorphised for each host, it costs what a
//! method of the algorithm would.
//!
//! The node, in order: the end-of-game test, the ply limit, repetitions (in
//! check only: a quiet position cannot repeat before an exchange ends), the table,
//! standing pat (not in check), then tactical moves whose exchange can lift the
//! value to alpha, best victim first (in check: evasions until one has shown that
//! the side is not mated).

use crate::game::{rules_end, units, Game, RepetitionStatus};
use crate::history::QuietStats;
use crate::picker::MovePicker;
use crate::plies::PlyStack;
use crate::tt::{Bound, TranspositionTable};
use crate::value::*;

/// How deep the quiescence search may go below the horizon: capture-check-
/// interpose chains can run for dozens of plies in shogi (the defender drops, the
/// attacker takes and checks again).
pub const QS_MAX_PLIES: i32 = 8;

/// How far back repetitions are looked for inside a search.
pub const REPETITION_PLIES: usize = 16;

/// The value of a repetition here, `ply` plies from the root, as search treats
/// one (an earlier occurrence already counts): `None` where the position does not
/// repeat, and where it repeats right after a root move with the side to move
/// (the opponent) the one that checked perpetually. That opponent is not lost:
/// it can leave the cycle now, so the position is searched (its moves that go on
/// checking repeat again and are valued as its loss). Ended there, a root move
/// into such a repetition read as a mate in one: reported as one and the search
/// stopped on it, while the opponent simply played on.
pub fn repetition_end<G: Game>(game: &G, ply: i32) -> Option<Value> {
    match game.repetition(REPETITION_PLIES)? {
        RepetitionStatus::Loss if ply == 1 => None,
        status => Some(status.value(ply, G::UNIT)),
    }
}

/// What a quiescence search borrows from the algorithm that runs it.
pub trait QsHost<G: Game> {
    fn game(&self) -> &G;
    fn game_mut(&mut self) -> &mut G;
    /// Counts a node at `ply` (and notes how deep the search went).
    fn enter_node(&mut self, ply: usize);
    /// Whether the search must end now; the value returned is then ignored.
    fn stopped(&self) -> bool;
    /// The table quiescence results are kept in.
    fn table(&self) -> &TranspositionTable;
    /// The static value quiescence stands pat on (the game's, unless the host
    /// corrects it).
    fn static_eval(&self) -> Value {
        self.game().evaluate()
    }
    /// How quiet moves are ordered where they are searched (evasions).
    fn quiet_stats(&self) -> QuietStats<'_>;
    /// The search's lines and move storage per ply (its line is kept at PV nodes).
    fn plies(&mut self) -> &mut PlyStack<G::Move>;
    /// How much more than its exchange value a capture is assumed to lift the
    /// value by, at most: captures that cannot reach alpha even so are passed
    /// over (a margin larger than any value passes over only captures that lose
    /// material).
    fn capture_margin(&self) -> Value {
        units::<G>(200)
    }
}

/// The quiescence value of the host's position, `ply` plies from the root and
/// `qdepth` (≤ 0) below the horizon, within `(alpha, beta)`; fail-soft. `PV`:
/// the window is open and the host's line is kept.
pub fn qsearch<G: Game, H: QsHost<G>, const PV: bool>(
    host: &mut H,
    mut alpha: Value,
    beta: Value,
    ply: usize,
    qdepth: i32,
) -> Value {
    host.enter_node(ply);
    if host.stopped() {
        return DRAW;
    }
    let ply_v = ply as i32;
    if PV {
        host.plies().clear_line(ply);
    }
    if let Some(v) = rules_end(host.game(), ply_v) {
        return v;
    }
    if ply_v >= MAX_PLY - 1 || qdepth <= -QS_MAX_PLIES {
        return host.game().evaluate();
    }
    let in_check = host.game().in_check();
    if in_check {
        if let Some(v) = repetition_end(host.game(), ply_v) {
            return v;
        }
    }

    let key = host.game().key();
    let entry = host.table().probe(key);
    let tt_move = entry.map_or(G::Move::default(), |e| G::decode_move(e.mv));
    if let Some(e) = entry {
        let v = from_tt(e.value, ply_v);
        let usable = match e.bound {
            Bound::Exact => true,
            Bound::Lower => v >= beta,
            Bound::Upper => v <= alpha,
        };
        if !PV && usable {
            return v;
        }
    }

    let mut best;
    let stand_pat;
    if in_check {
        best = -INFINITE;
        stand_pat = NONE;
    } else {
        stand_pat = host.static_eval();
        if stand_pat >= beta {
            return stand_pat;
        }
        alpha = alpha.max(stand_pat);
        best = stand_pat;
    }
    let original_alpha = alpha;

    let buffers = host.plies().take_buffers(ply);
    let mut picker = MovePicker::quiescence(tt_move, in_check, buffers);
    let mut best_move = G::Move::default();
    let mut move_count = 0;
    loop {
        let next = picker.next(host.game(), &host.quiet_stats());
        let Some(m) = next else { break };
        move_count += 1;
        if !in_check {
            // Only exchanges that can lift the value to alpha are worth a look.
            let needed = (alpha - stand_pat - host.capture_margin()).max(0);
            if !host.game().see_ge(m, needed) {
                continue;
            }
        } else if best > -MATE_IN_MAX_PLY && move_count > 3 && !host.game().is_tactical(m) {
            // Enough evasions tried to know we are not mated.
            continue;
        }
        host.game_mut().make_move(m);
        host.table().prefetch(host.game().key());
        if PV {
            host.plies().clear_line(ply + 1);
        }
        let v = -qsearch::<G, H, PV>(host, -beta, -alpha, ply + 1, qdepth - 1);
        host.game_mut().unmake_move(m);
        if host.stopped() {
            host.plies().give_back(ply, picker.into_buffers());
            return DRAW;
        }
        if v > best {
            best = v;
            if v > alpha {
                best_move = m;
                if PV {
                    host.plies().extend_line(ply, m);
                }
                if v >= beta {
                    break;
                }
                alpha = v;
            }
        }
    }
    host.plies().give_back(ply, picker.into_buffers());
    if in_check && move_count == 0 {
        return host.game().no_moves().value(ply_v);
    }
    let bound = Bound::of(best, original_alpha, beta, PV);
    let code = if best_move == G::Move::default() { 0 } else { G::encode_move(best_move) };
    host.table().store(key, code, to_tt(best, ply_v), -1, bound);
    best
}
