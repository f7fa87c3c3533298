//! Shogi as seen by the search: the position plus the incremental evaluation sum,
//! the declaration rule and the move limit.

use eval::incremental;
use eval::king_safety::{DangerWeights, DANGER};
use eval::nnue::{Network, NnueStack};
use eval::see;
use search::{Game, Outcome, RepetitionStatus, Side, Value};
use shogi::movegen::{
    generate_captures, generate_drops, generate_evasions, generate_legal, generate_quiets, MoveList,
};
use shogi::{Color, Declaration, EnteringKingRule, Move, PieceKind, Position, Repetition};
use std::cell::RefCell;
use std::sync::Arc;

/// Handcrafted values of recent positions by key, so that a position evaluated
/// twice (a quiet move's static bound, then the stand-pat of its quiescence
/// search) costs one evaluation. Per thread: a clone starts empty, and the
/// table is made at the first evaluation.
#[derive(Default)]
struct EvalCache(RefCell<Vec<(u64, Value)>>);

impl std::fmt::Debug for EvalCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("EvalCache")
    }
}

/// Slots of the evaluation cache (16 bytes each: 128 KiB, which stays in the
/// second-level cache; 1 MiB searched about 1 % fewer nodes a second).
const EVAL_CACHE_SLOTS: usize = 1 << 13;

impl Clone for EvalCache {
    fn clone(&self) -> Self {
        EvalCache::default()
    }
}

impl EvalCache {
    /// The value of the position with key `key`, from the cache or by `evaluate`
    /// (whose value the cache then keeps).
    #[inline]
    fn get_or(&self, key: u64, evaluate: impl FnOnce() -> Value) -> Value {
        let mut slots = self.0.borrow_mut();
        if slots.is_empty() {
            slots.resize(EVAL_CACHE_SLOTS, (0, 0));
        }
        let slot = &mut slots[(key as usize) & (EVAL_CACHE_SLOTS - 1)];
        if slot.0 == key && key != 0 {
            return slot.1;
        }
        let v = evaluate();
        *slot = (key, v);
        v
    }
}

#[derive(Clone, Debug)]
pub struct ShogiGame {
    pos: Position,
    /// Incremental evaluation sums, one per ply made (last: the current position).
    sums: Vec<incremental::Sums>,
    pub entering_king_rule: EnteringKingRule,
    /// 0: no limit. Otherwise positions after this SFEN move number are draws.
    pub max_moves_to_draw: u32,
    /// The network that evaluates instead of the handcrafted evaluation, with its
    /// accumulators (updated when a position is evaluated, hence the cell).
    nnue: Option<RefCell<NnueStack>>,
    /// A tuner's king-danger weights for the handcrafted evaluation; `None`:
    /// the compiled-in ones, whose constants the evaluation folds in.
    danger: Option<DangerWeights>,
    /// The handcrafted evaluation's recent values.
    eval_cache: EvalCache,
}

impl ShogiGame {
    pub fn new(pos: Position) -> ShogiGame {
        let sum = incremental::full(&pos);
        let mut sums = Vec::with_capacity(256);
        sums.push(sum);
        ShogiGame {
            pos,
            sums,
            entering_king_rule: EnteringKingRule::Point27,
            max_moves_to_draw: 0,
            nnue: None,
            danger: None,
            eval_cache: EvalCache::default(),
        }
    }

    /// Evaluates with the king-danger weights of `scales` from now on (the
    /// handcrafted evaluation; see [`crate::EvalScales`]).
    pub fn set_eval_scales(&mut self, scales: &crate::EvalScales) {
        let danger = Some(scales.danger()).filter(|d| *d != DANGER);
        if danger != self.danger {
            self.danger = danger;
            // Values kept under the old weights are stale.
            self.eval_cache = EvalCache::default();
        }
    }

    /// Evaluates with `network` from now on (`None`: the handcrafted evaluation).
    /// Returns whether the network evaluates this position: it cannot where the
    /// position is not made of the standard set of pieces (a king missing, extra
    /// pieces), and the handcrafted evaluation stays.
    pub fn set_network(&mut self, network: Option<Arc<Network>>) -> bool {
        self.nnue = network.and_then(|n| NnueStack::new(n, &self.pos)).map(RefCell::new);
        self.nnue.is_some()
    }

    /// Divides the network's output by `scale` (`FV_SCALE`; the format's is 16);
    /// nothing without a network.
    pub fn set_network_scale(&mut self, scale: i32) {
        if let Some(nnue) = &mut self.nnue {
            nnue.get_mut().set_output_scale(scale);
        }
    }

    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// Whether the side to move may declare a win now.
    pub fn declaration_wins(&self) -> bool {
        self.pos.declaration(self.entering_king_rule) == Some(Declaration::Win)
    }

    /// Whether the side to move is checkmated.
    fn is_mated(&self) -> bool {
        if !self.pos.in_check() {
            return false;
        }
        let mut evasions = MoveList::new();
        generate_evasions(&self.pos, &mut evasions);
        evasions.is_empty()
    }

    fn push_list(list: &MoveList, out: &mut Vec<Move>) {
        out.extend_from_slice(list.as_slice());
    }
}

impl Game for ShogiGame {
    type Move = Move;

    /// The evaluation is in centipawns.
    const UNIT: Value = 100;

    /// Colour × dropped-or-not × kind after the move × destination.
    const HISTORY_SIZE: usize = 2 * 2 * 16 * 81;
    const CONTINUATION_SIZE: usize = 16 * 81;

    fn side_to_move(&self) -> Side {
        match self.pos.side_to_move() {
            Color::Black => Side::First,
            Color::White => Side::Second,
        }
    }

    fn legal_moves(&self, out: &mut Vec<Move>) {
        let mut list = MoveList::new();
        generate_legal(&self.pos, &mut list);
        Self::push_list(&list, out);
    }

    #[inline]
    fn make_move(&mut self, m: Move) {
        let sum = incremental::after(self.sums.last().copied().unwrap_or_default(), &self.pos, m);
        self.sums.push(sum);
        if let Some(nnue) = &mut self.nnue {
            nnue.get_mut().make_move(&self.pos, m);
        }
        self.pos.do_move(m);
    }

    #[inline]
    fn unmake_move(&mut self, m: Move) {
        self.pos.undo_move(m);
        self.sums.pop();
        if let Some(nnue) = &mut self.nnue {
            nnue.get_mut().unmake();
        }
    }

    #[inline]
    fn evaluate(&self) -> Value {
        if let Some(nnue) = &self.nnue {
            return nnue.borrow_mut().evaluate(&self.pos);
        }
        let sums = self.sums.last().copied().unwrap_or_default();
        self.eval_cache.get_or(self.pos.key(), || match &self.danger {
            None => eval::evaluate(&self.pos, sums),
            Some(danger) => eval::evaluate_with(&self.pos, sums, danger),
        })
    }

    /// The move limit (a draw past `max_moves_to_draw`, unless the last move
    /// mated: a mate on the last move still wins), then a declaration that wins.
    #[inline]
    fn outcome(&self) -> Option<Outcome> {
        if self.max_moves_to_draw > 0 && self.pos.game_ply() > self.max_moves_to_draw {
            return Some(if self.is_mated() { Outcome::Loss } else { Outcome::Draw });
        }
        (self.entering_king_rule != EnteringKingRule::None && self.declaration_wins())
            .then_some(Outcome::Win)
    }

    /// Mated (shogi has no stalemate: a side without moves has lost).
    fn no_moves(&self) -> Outcome {
        Outcome::Loss
    }

    #[inline]
    fn key(&self) -> u64 {
        self.pos.key()
    }

    fn repetition(&self, max_plies: usize) -> Option<RepetitionStatus> {
        self.pos.repetition(max_plies).map(|r| match r {
            Repetition::Draw => RepetitionStatus::Draw,
            Repetition::WinByPerpetualCheck => RepetitionStatus::Win,
            Repetition::LossByPerpetualCheck => RepetitionStatus::Loss,
            Repetition::Superior => RepetitionStatus::Superior,
            Repetition::Inferior => RepetitionStatus::Inferior,
        })
    }

    #[inline]
    fn in_check(&self) -> bool {
        self.pos.in_check()
    }

    fn tactical_moves(&self, out: &mut Vec<Move>) {
        let mut list = MoveList::new();
        generate_captures(&self.pos, &mut list);
        Self::push_list(&list, out);
    }

    fn quiet_moves(&self, out: &mut Vec<Move>) {
        let mut list = MoveList::new();
        generate_quiets(&self.pos, &mut list);
        generate_drops(&self.pos, &mut list);
        Self::push_list(&list, out);
    }

    fn evasions(&self, out: &mut Vec<Move>) {
        let mut list = MoveList::new();
        generate_evasions(&self.pos, &mut list);
        Self::push_list(&list, out);
    }

    fn is_legal(&self, m: Move) -> bool {
        self.pos.is_legal(m)
    }

    /// Captures and pawn promotions: exactly what `generate_captures` yields.
    #[inline]
    fn is_tactical(&self, m: Move) -> bool {
        m.is_capture() || (m.is_promotion() && m.moved_kind() == PieceKind::Pawn)
    }

    #[inline]
    fn tactical_order(&self, m: Move) -> i32 {
        let victim = m.captured().map_or(0, eval::weights::piece_value);
        let promotion = if m.is_promotion() {
            eval::weights::piece_value(m.kind_after()) - eval::weights::piece_value(m.moved_kind())
        } else {
            0
        };
        (victim + promotion) * 16 - eval::weights::piece_value(m.moved_kind()) / 16
    }

    fn see_ge(&self, m: Move, threshold: Value) -> bool {
        see::see_ge(&self.pos, m, threshold)
    }

    fn gives_check(&self, m: Move) -> bool {
        self.pos.gives_check(m)
    }

    fn gives_check_each(&self, moves: &[Move], out: &mut Vec<bool>) {
        out.clear();
        match self.pos.check_info() {
            Some(info) => out.extend(moves.iter().map(|&m| info.gives_check(m))),
            None => out.resize(moves.len(), false),
        }
    }

    /// Tries every check: one that leaves no evasion mates.
    fn mate_in_one(&mut self) -> Option<Move> {
        if self.pos.in_check() {
            return None;
        }
        crate::mate1::mate_in_one(&mut self.pos)
    }

    #[inline]
    fn history_index(&self, m: Move) -> usize {
        let color = self.pos.side_to_move().index();
        ((color * 2 + usize::from(m.is_drop())) * 16 + m.kind_after().index()) * 81 + m.to().index()
    }

    #[inline]
    fn continuation_index(&self, m: Move) -> usize {
        m.kind_after().index() * 81 + m.to().index()
    }

    /// The opponent could declare a win on its next turn.
    #[inline]
    fn opponent_threatens_to_end(&self) -> bool {
        let them = self.pos.side_to_move().flip();
        self.entering_king_rule != EnteringKingRule::None
            && self.pos.declaration_for(them, self.entering_king_rule) == Some(Declaration::Win)
    }

    /// The hands (what can be dropped weighs on every exchange and attack), the
    /// pawns of both sides (the files they close and leave open), and the two
    /// kings' squares (whose safety the evaluation guesses at); each mixed with
    /// the side to move.
    fn correction_keys(&self) -> Option<[u64; search::correction::FEATURES]> {
        let side = match self.pos.side_to_move() {
            Color::Black => 0,
            Color::White => 0x9e37_79b9_7f4a_7c15,
        };
        let pawns = |c| self.pos.pieces_of(c, PieceKind::Pawn).0;
        let (black, white) = (pawns(Color::Black), pawns(Color::White));
        let pawn_key = mix(black as u64
            ^ mix((black >> 64) as u64 ^ mix(white as u64 ^ mix((white >> 64) as u64))));
        let king = |c| self.pos.king_square(c).map_or(81, |sq| sq.index() as u64);
        let king_key = mix(king(Color::Black) * 82 + king(Color::White) + 1);
        Some([mix(self.pos.hand_key()) ^ side, pawn_key ^ side, king_key ^ side])
    }

    fn null_move_allowed(&self) -> bool {
        !self.pos.in_check()
    }

    fn make_null_move(&mut self) {
        let sum = self.sums.last().copied().unwrap_or_default();
        self.sums.push(sum);
        if let Some(nnue) = &mut self.nnue {
            nnue.get_mut().make_null_move();
        }
        self.pos.do_null_move();
    }

    fn unmake_null_move(&mut self) {
        self.pos.undo_null_move();
        self.sums.pop();
        if let Some(nnue) = &mut self.nnue {
            nnue.get_mut().unmake();
        }
    }

    fn encode_move(m: Move) -> u32 {
        m.raw()
    }

    fn decode_move(code: u32) -> Move {
        Move::from_raw(code).unwrap_or(Move::NONE)
    }
}

/// SplitMix64's finaliser: every bit of `x` stirred into every bit of the
/// result, so that a table indexed by the low bits sees all of it.
fn mix(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The cached evaluation is the evaluation: along a random game and back,
    /// every position (evaluated twice, the second time from the cache) gets the
    /// value a fresh evaluation of a copy of it gives.
    #[test]
    fn the_evaluation_cache_returns_the_evaluation() {
        let mut game = ShogiGame::new(Position::startpos());
        let mut seed = 11u64;
        let mut played = Vec::new();
        let fresh = |g: &ShogiGame| eval::evaluate(&g.pos, incremental::full(&g.pos));
        for _ in 0..120 {
            let mut moves = Vec::new();
            game.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            assert_eq!(game.evaluate(), fresh(&game));
            assert_eq!(game.evaluate(), fresh(&game));
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let m = moves[(seed >> 33) as usize % moves.len()];
            game.make_move(m);
            played.push(m);
        }
        // A clone starts with an empty cache and evaluates alike.
        assert_eq!(game.clone().evaluate(), fresh(&game));
        while let Some(m) = played.pop() {
            game.unmake_move(m);
            assert_eq!(game.evaluate(), fresh(&game));
        }
    }

    /// Each correction key reads its feature alone: a silver moved changes
    /// none, a pawn moved the pawns' alone, a king moved the kings' alone, a
    /// piece in hand the hands' alone, and the side to move all three.
    #[test]
    fn correction_keys_read_their_features_alone() {
        let keys = |sfen: &str| {
            ShogiGame::new(Position::from_sfen(sfen).unwrap()).correction_keys().unwrap()
        };
        let base = keys("4k4/9/9/4p4/9/2S1P4/9/9/4K4 b G 1");
        let silver = keys("4k4/9/9/4p4/3S5/4P4/9/9/4K4 b G 1");
        let pawn = keys("4k4/9/9/4p4/4P4/2S6/9/9/4K4 b G 1");
        let king = keys("4k4/9/9/4p4/9/2S1P4/9/9/3K5 b G 1");
        let hand = keys("4k4/9/9/4p4/9/2S1P4/9/9/4K4 b S 1");
        let side = keys("4k4/9/9/4p4/9/2S1P4/9/9/4K4 w G 1");
        assert_eq!(silver, base);
        assert_eq!((pawn[0], pawn[2]), (base[0], base[2]));
        assert_ne!(pawn[1], base[1]);
        assert_eq!((king[0], king[1]), (base[0], base[1]));
        assert_ne!(king[2], base[2]);
        assert_eq!((hand[1], hand[2]), (base[1], base[2]));
        assert_ne!(hand[0], base[0]);
        for f in 0..3 {
            assert_ne!(side[f], base[f]);
        }
    }

    /// Tuned danger scales evaluate with their weights, not with values the
    /// cache kept under the old ones.
    #[test]
    fn eval_scales_change_the_evaluation_at_once() {
        shogi::attacks::init();
        // Black's dragon next to White's king, two golds in Black's hand.
        let pos = Position::from_sfen("4k4/9/5+R3/9/9/9/9/9/4K4 b 2G 1").unwrap();
        let mut game = ShogiGame::new(pos.clone());
        let compiled_in = game.evaluate();
        assert_eq!(compiled_in, eval::evaluate(&pos, incremental::full(&pos)));
        let mut scales = crate::EvalScales::default();
        scales.set("Tune_DangerAttack", 300).unwrap();
        game.set_eval_scales(&scales);
        let tuned = eval::evaluate_with(&pos, incremental::full(&pos), &scales.danger());
        assert_eq!(game.evaluate(), tuned);
        // More weight on the attack: White's king in more danger, Black better.
        assert!(tuned > compiled_in, "{tuned} vs {compiled_in}");
        game.set_eval_scales(&crate::EvalScales::default());
        assert_eq!(game.evaluate(), compiled_in);
    }
}
