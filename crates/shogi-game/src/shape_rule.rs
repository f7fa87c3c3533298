//! The bad-shape check at the root (KFEnd's bad-shape article): when the search's best move M1 is
//! bad shape ([`crate::bad_shape`]), play the best move M2 that is not, if it
//! scores within a margin of M1. When M1 captures, only moves that capture the
//! same piece qualify (▲77同金 gives way to ▲77同銀, not to a quiet move).
//!
//! The scores come from a real search: M1 and the candidates are searched again
//! together (`Engine::search_among`), several lines at once as MultiPV does, so
//! that M1 and each candidate have exact values at the same depth.
//!
//! Better than KFEnd: KFEnd's article reports its own flaw (Figure 5): M2 = △38歩 was
//! played only for M1 = △92飛 to follow two plies later, a wasted move. A
//! candidate whose principal variation plays M1 again, or any bad-shape move of
//! ours, within the next few of our moves, is passed over for the next one.

use crate::bad_shape::is_bad_shape;
use crate::ShogiGame;
use search::engine::{RootMove, Signals};
use search::value::INFINITE;
use search::{Engine, Limits, Value};
use shogi::{Move, Position};

/// How the rule is applied.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShapeRule {
    /// How much worse than M1 a replacement may score (centipawns). KFEnd: 15
    /// with a pawn worth 10, less than the 20 a pawn lost for nothing costs.
    pub margin: Value,
    /// Candidates searched besides M1 (the MultiPV lines are these plus one).
    pub candidates: usize,
    /// Our own later moves of a candidate's line that are looked at for M1 or bad
    /// shape (KFEnd's wasted move came at our next move).
    pub own_moves_ahead: usize,
}

impl Default for ShapeRule {
    fn default() -> Self {
        ShapeRule { margin: 150, candidates: 3, own_moves_ahead: 2 }
    }
}

/// A best move the rule replaced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replaced {
    /// M1, the check that called it bad shape, and its score in the second search.
    pub bad: Move,
    pub check: &'static str,
    pub bad_score: Value,
    /// M2 and its score.
    pub by: Move,
    pub score: Value,
    /// Candidates within the margin passed over because their line comes back to
    /// M1 or to bad shape anyway, each with why.
    pub passed_over: Vec<(Move, String)>,
}

/// The moves that may replace `bad` in `pos`: not bad shape, and capturing the
/// same piece when `bad` captures.
pub fn candidates(pos: &Position, bad: Move) -> Vec<Move> {
    shogi::legal_moves(pos)
        .iter()
        .copied()
        .filter(|&m| m != bad)
        .filter(|&m| !bad.is_capture() || (m.is_capture() && m.to() == bad.to()))
        .filter(|&m| is_bad_shape(pos, m).is_none())
        .collect()
}

/// Why the line `pv` (the candidate first) wastes the candidate: one of our next
/// `own_moves_ahead` moves in it is `bad` again (the same piece from the same
/// square to the same square) or bad shape. `None` when it does not.
pub fn wasted_by(pos: &Position, pv: &[Move], bad: Move, own_moves_ahead: usize) -> Option<String> {
    let mut p = pos.clone();
    for (i, &m) in pv.iter().enumerate() {
        let ours = i % 2 == 0;
        if i > 0 && ours {
            if i / 2 > own_moves_ahead {
                break;
            }
            if m == bad {
                return Some(format!("its line plays {} at our move {}", m.to_usi(), i / 2 + 1));
            }
            if let Some(check) = is_bad_shape(&p, m) {
                let at = i / 2 + 1;
                return Some(format!(
                    "its line plays {} ({}) at our move {at}",
                    m.to_usi(),
                    check.name
                ));
            }
        }
        if !p.is_legal(m) {
            break;
        }
        p.do_move(m);
    }
    None
}

impl ShapeRule {
    /// Applies the rule to `best`, the search's best move in `game`: `None` when
    /// `best` is not bad shape or no candidate qualifies (keep `best`). `limits`
    /// bound the second search (give it a depth or a time; its MultiPV is set
    /// here).
    pub fn apply(
        &self,
        engine: &mut Engine<ShogiGame>,
        game: &ShogiGame,
        best: Move,
        limits: &Limits,
        signals: &Signals,
    ) -> Option<Replaced> {
        let pos = game.position();
        let check = is_bad_shape(pos, best)?;
        let mut among = candidates(pos, best);
        if among.is_empty() {
            return None;
        }
        among.push(best);
        let lines = (self.candidates + 1).min(among.len());
        let limits = Limits { multipv: lines, ..limits.clone() };
        let result = engine.search_among(game, &among, &limits, signals, &mut |_| {});
        self.decide(pos, best, check.name, &result.root_moves[..lines.min(result.root_moves.len())])
    }

    /// The rule on the second search's lines (best first): M2 is the first line
    /// within the margin of M1 whose own line does not waste it. A stopped search
    /// leaves lines it had not reached this iteration with the previous
    /// iteration's value, and lines with no value at all; those are never chosen
    /// (and without a value for M1 or any line nothing is replaced).
    pub fn decide(
        &self,
        pos: &Position,
        best: Move,
        check: &'static str,
        lines: &[RootMove<Move>],
    ) -> Option<Replaced> {
        let mut known: Vec<(&RootMove<Move>, Value)> =
            lines.iter().map(|r| (r, r.display_score())).filter(|&(_, v)| v != -INFINITE).collect();
        known.sort_by_key(|&(_, v)| std::cmp::Reverse(v));
        // M1's value; below every line searched when it is not one of them (then
        // every candidate there beats it).
        let bad_score = match known.iter().find(|(r, _)| r.mv == best) {
            Some(&(_, v)) => v,
            None if known.len() == lines.len() => known.iter().map(|&(_, v)| v).min()?,
            None => return None,
        };
        let mut passed_over = Vec::new();
        for (line, score) in known.into_iter().filter(|(r, _)| r.mv != best) {
            if score < bad_score.saturating_sub(self.margin) {
                break;
            }
            match wasted_by(pos, &line.pv, best, self.own_moves_ahead) {
                Some(why) => passed_over.push((line.mv, why)),
                None => {
                    return Some(Replaced {
                        bad: best,
                        check,
                        bad_score,
                        by: line.mv,
                        score,
                        passed_over,
                    })
                }
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(sfen: &str, moves: &str) -> Position {
        shogi::attacks::init();
        let mut p = if sfen == "startpos" {
            Position::startpos()
        } else {
            Position::from_sfen(sfen).unwrap()
        };
        for m in moves.split_whitespace() {
            let mv = p.parse_usi_move(m).unwrap();
            p.do_move(mv);
        }
        p
    }

    /// Figure 2 of KFEnd's bad-shape article: after △77角成, ▲77同金 is bad shape and gives way
    /// only to another capture of the horse on 77: ▲77同銀 or ▲77同桂.
    #[test]
    fn a_capture_gives_way_only_to_a_capture_of_the_same_piece() {
        let p = pos("startpos", "7g7f 3c3d 6i7h 8c8d 8h7g 8d8e 7i8h 4a3b 5i6i 2b7g+");
        let bad = p.parse_usi_move("7h7g").unwrap();
        assert!(is_bad_shape(&p, bad).is_some());
        let mut c: Vec<String> = candidates(&p, bad).iter().map(|m| m.to_usi()).collect();
        c.sort();
        assert_eq!(c, ["8h7g", "8i7g"]);
        // A quiet bad-shape move may give way to any move that is not bad shape.
        let p = pos("startpos", "");
        let bad = p.parse_usi_move("2h1h").unwrap();
        let c = candidates(&p, bad);
        assert_eq!(c.len(), 29, "30 moves less 2h1h, the only bad-shape one");
        assert!(c.iter().all(|&m| m != bad && is_bad_shape(&p, m).is_none()));
    }

    /// The rule end to end: the best move replaced by a close move that is not
    /// bad shape, with both scores; kept when nothing qualifies.
    #[test]
    fn the_rule_replaces_a_bad_best_move_by_a_close_good_one() {
        let p = pos("startpos", "7g7f 3c3d 6i7h 8c8d 8h7g 8d8e 7i8h 4a3b 5i6i 2b7g+");
        let game = ShogiGame::new(p.clone());
        let mut engine = Engine::new(16, 1);
        let bad = p.parse_usi_move("7h7g").unwrap();
        let rule = ShapeRule { margin: 300, ..ShapeRule::default() };
        let r = rule.apply(&mut engine, &game, bad, &Limits::depth(5), &Signals::new());
        let r = r.expect("the silver or the knight takes instead");
        assert_eq!((r.bad, r.check), (bad, "gold_into_wall"));
        assert!(["8h7g", "8i7g"].contains(&r.by.to_usi().as_str()), "{}", r.by.to_usi());
        assert!(r.score >= r.bad_score - 300);
        // A move that is not bad shape is kept without a search.
        let good = p.parse_usi_move("8h7g").unwrap();
        assert_eq!(rule.apply(&mut engine, &game, good, &Limits::depth(5), &Signals::new()), None);
        // With no margin at all only a candidate at least as good replaces it.
        let strict = ShapeRule { margin: 0, ..ShapeRule::default() };
        if let Some(r) = strict.apply(&mut engine, &game, bad, &Limits::depth(5), &Signals::new()) {
            assert!(r.score >= r.bad_score);
        }
    }

    #[test]
    fn a_line_that_comes_back_to_the_bad_move_is_a_waste() {
        let p = pos("startpos", "");
        let bad = p.parse_usi_move("2h1h").unwrap();
        let line: Vec<Move> = {
            let mut q = p.clone();
            ["7g7f", "3c3d", "2h1h"]
                .iter()
                .map(|t| {
                    let m = q.parse_usi_move(t).unwrap();
                    q.do_move(m);
                    m
                })
                .collect()
        };
        let why = wasted_by(&p, &line, bad, 2).expect("2h1h comes back");
        assert!(why.contains("2h1h"), "{why}");
        // Looking at none of our later moves, nothing is wasted.
        assert_eq!(wasted_by(&p, &line, bad, 0), None);
        // A line that never plays it is not wasted.
        assert_eq!(wasted_by(&p, &line[..2], bad, 2), None);
    }

    /// A stopped second search: lines without a value are never chosen, and
    /// without a value for M1 nothing is replaced (the rule once took a move
    /// no search had looked at when M1 had none).
    #[test]
    fn lines_a_stopped_search_left_without_a_value_are_never_chosen() {
        let p = pos("startpos", "");
        let bad = p.parse_usi_move("2h1h").unwrap();
        let line = |usi: &str, score: Value, previous: Value| {
            let mut r = RootMove::new(p.parse_usi_move(usi).unwrap());
            r.score = score;
            r.previous_score = previous;
            r
        };
        let rule = ShapeRule::default();
        // M1 searched, one candidate not reached at all, one with last
        // iteration's value: the latter is M2.
        let lines =
            [line("2h1h", 40, 30), line("7g7f", -INFINITE, -INFINITE), line("2g2f", -INFINITE, 20)];
        let r = rule.decide(&p, bad, "rook_to_edge", &lines).expect("2g2f is close");
        assert_eq!((r.by.to_usi().as_str(), r.score, r.bad_score), ("2g2f", 20, 40));
        // M1 without any value: kept, whatever the other lines say.
        let lines = [line("7g7f", 10, 0), line("2h1h", -INFINITE, -INFINITE)];
        assert_eq!(rule.decide(&p, bad, "rook_to_edge", &lines), None);
        // M1 not among the lines, and one of them without a value: kept.
        let lines = [line("7g7f", 10, 0), line("2g2f", -INFINITE, -INFINITE)];
        assert_eq!(rule.decide(&p, bad, "rook_to_edge", &lines), None);
        // M1 not among the lines, all of them valued: each beats it.
        let lines = [line("7g7f", 10, 0), line("2g2f", 5, 0)];
        let r = rule.decide(&p, bad, "rook_to_edge", &lines).expect("7g7f beats it");
        assert_eq!((r.by.to_usi().as_str(), r.bad_score), ("7g7f", 5));
        // Lines are taken by value, not by their order in the list.
        let lines = [line("2h1h", 0, 0), line("7g7f", -100, 0), line("2g2f", -20, 0)];
        let r = rule.decide(&p, bad, "rook_to_edge", &lines).expect("2g2f first");
        assert_eq!(r.by.to_usi(), "2g2f");
    }
}
