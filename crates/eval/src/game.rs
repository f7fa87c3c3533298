//! Shogi as seen by the search: the position plus the incremental evaluation sum,
//! the declaration rule and the move limit.

use crate::incremental;
use crate::see;
use search::{Game, RepetitionStatus, Value};
use shogi::attacks::{line, piece_attacks};
use shogi::movegen::{
    generate_captures, generate_drops, generate_evasions, generate_legal, generate_quiets,
    pawn_drop_would_mate, MoveList,
};
use shogi::{
    Bitboard, Declaration, EnteringKingRule, Move, PieceKind, Position, Repetition, Square,
};

#[derive(Clone, Debug)]
pub struct ShogiGame {
    pos: Position,
    /// Incremental evaluation sums, one per ply made (last: the current position).
    sums: Vec<incremental::Sums>,
    pub entering_king_rule: EnteringKingRule,
    /// 0: no limit. Otherwise positions after this SFEN move number are draws.
    pub max_moves_to_draw: u32,
}

impl ShogiGame {
    pub fn new(pos: Position) -> ShogiGame {
        let sum = incremental::full(&pos);
        let mut sums = Vec::with_capacity(256);
        sums.push(sum);
        ShogiGame { pos, sums, entering_king_rule: EnteringKingRule::Point27, max_moves_to_draw: 0 }
    }

    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// Whether the side to move may declare a win now.
    pub fn declaration_wins(&self) -> bool {
        self.pos.declaration(self.entering_king_rule) == Some(Declaration::Win)
    }

    fn push_list(list: &MoveList, out: &mut Vec<Move>) {
        out.extend_from_slice(list.as_slice());
    }
}

/// The move's fields back from the 32 bits `Move::raw` gives (see `shogi::mv`).
fn decode(code: u32) -> Move {
    let to = (code & 0x7f) as u8;
    let from = ((code >> 7) & 0x7f) as u8;
    let promote = code & (1 << 14) != 0;
    let drop = code & (1 << 15) != 0;
    let moved = PieceKind::from_u8(((code >> 16) & 0xf) as u8);
    let captured = ((code >> 20) & 0xf) as u8;
    let (Some(to), Some(moved)) = (Square::try_from_index(to), moved) else {
        return Move::NONE;
    };
    if drop {
        return Move::drop(moved, to);
    }
    let Some(from) = Square::try_from_index(from) else {
        return Move::NONE;
    };
    let captured = if captured == 0 {
        None
    } else {
        match PieceKind::from_u8(captured) {
            Some(k) => Some(k),
            None => return Move::NONE,
        }
    };
    Move::board(from, to, promote, moved, captured)
}

/// Legality of a move that may come from another position (hash or killer move),
/// without generating the moves: the piece is there, it reaches the square, the
/// promotion is allowed, and no own king is left attacked. Not in check only.
fn is_legal_quiet_position(pos: &Position, m: Move) -> bool {
    let us = pos.side_to_move();
    let to = m.to();
    let target = pos.piece_on(to);
    let rel = to.relative_rank(us);
    if m.is_drop() {
        let kind = m.moved_kind();
        if !target.is_empty() || !pos.hand(us).has(kind) || kind == PieceKind::King {
            return false;
        }
        return match kind {
            PieceKind::Pawn => {
                rel != 0
                    && (pos.pieces_of(us, PieceKind::Pawn) & Bitboard::file(to.file())).is_empty()
                    && !pawn_drop_would_mate(pos, to)
            }
            PieceKind::Lance => rel != 0,
            PieceKind::Knight => rel > 1,
            _ => true,
        };
    }
    let from = m.from();
    let piece = pos.piece_on(from);
    let moved = m.moved_kind();
    if piece.is_empty() || piece.color() != us || piece.kind() != Some(moved) {
        return false;
    }
    if target.kind() != m.captured() || (!target.is_empty() && target.color() == us) {
        return false;
    }
    let occ = pos.occupied();
    if !piece_attacks(us, moved, from, occ).contains(to) {
        return false;
    }
    let zone = Bitboard::promotion_zone(us);
    if m.is_promotion() {
        if !moved.can_promote() || !(zone.contains(from) || zone.contains(to)) {
            return false;
        }
    } else {
        let dead = match moved {
            PieceKind::Pawn | PieceKind::Lance => rel == 0,
            PieceKind::Knight => rel <= 1,
            _ => false,
        };
        if dead {
            return false;
        }
    }
    if moved == PieceKind::King {
        let occ_after = occ ^ Bitboard::from_square(from);
        return !pos.is_attacked(us.flip(), to, occ_after);
    }
    match pos.king_square(us) {
        Some(ksq) if pos.pinned(us).contains(from) => line(ksq, from).contains(to),
        _ => true,
    }
}

impl Game for ShogiGame {
    type Move = Move;

    /// Colour × dropped-or-not × kind after the move × destination.
    const HISTORY_SIZE: usize = 2 * 2 * 16 * 81;
    const CONTINUATION_SIZE: usize = 16 * 81;

    fn legal_moves(&self, out: &mut Vec<Move>) {
        let mut list = MoveList::new();
        generate_legal(&self.pos, &mut list);
        Self::push_list(&list, out);
    }

    #[inline]
    fn make_move(&mut self, m: Move) {
        let sum = self.sums.last().copied().unwrap_or_default() + incremental::delta(&self.pos, m);
        self.sums.push(sum);
        self.pos.do_move(m);
    }

    #[inline]
    fn unmake_move(&mut self, m: Move) {
        self.pos.undo_move(m);
        self.sums.pop();
    }

    #[inline]
    fn evaluate(&self) -> Value {
        crate::evaluate(&self.pos, self.sums.last().copied().unwrap_or_default())
    }

    fn can_claim_win(&self) -> bool {
        self.entering_king_rule != EnteringKingRule::None && self.declaration_wins()
    }

    #[inline]
    fn key(&self) -> u64 {
        self.pos.key()
    }

    fn repetition(&self, max_plies: usize) -> Option<RepetitionStatus> {
        if self.max_moves_to_draw > 0 && self.pos.game_ply() > self.max_moves_to_draw {
            return Some(RepetitionStatus::Draw);
        }
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
        if m.is_none() {
            return false;
        }
        if self.pos.in_check() {
            let mut list = MoveList::new();
            generate_evasions(&self.pos, &mut list);
            return list.contains(m);
        }
        is_legal_quiet_position(&self.pos, m)
    }

    /// Captures and pawn promotions: exactly what `generate_captures` yields.
    #[inline]
    fn is_tactical(&self, m: Move) -> bool {
        m.is_capture() || (m.is_promotion() && m.moved_kind() == PieceKind::Pawn)
    }

    #[inline]
    fn tactical_order(&self, m: Move) -> i32 {
        let victim = m.captured().map_or(0, crate::weights::piece_value);
        let promotion = if m.is_promotion() {
            crate::weights::piece_value(m.kind_after())
                - crate::weights::piece_value(m.moved_kind())
        } else {
            0
        };
        (victim + promotion) * 16 - crate::weights::piece_value(m.moved_kind()) / 16
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

    fn null_move_allowed(&self) -> bool {
        !self.pos.in_check()
    }

    fn make_null_move(&mut self) {
        let sum = self.sums.last().copied().unwrap_or_default();
        self.sums.push(sum);
        self.pos.do_null_move();
    }

    fn unmake_null_move(&mut self) {
        self.pos.undo_null_move();
        self.sums.pop();
    }

    fn encode_move(m: Move) -> u32 {
        m.raw()
    }

    fn decode_move(code: u32) -> Move {
        decode(code)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_survive_encoding() {
        let pos = Position::from_sfen(
            "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1",
        )
        .unwrap();
        let game = ShogiGame::new(pos);
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        for &m in &moves {
            assert_eq!(ShogiGame::decode_move(ShogiGame::encode_move(m)), m);
            assert!(game.is_legal(m), "{m}");
        }
    }

    #[test]
    fn foreign_moves_are_refused() {
        // Moves legal in other positions of random games must be judged exactly.
        let mut seed = 99u64;
        let mut pool: Vec<Move> = Vec::new();
        for _ in 0..30 {
            let mut game = ShogiGame::new(Position::startpos());
            for _ in 0..120 {
                let mut moves = Vec::new();
                game.legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                for &m in pool.iter().rev().take(200) {
                    assert_eq!(
                        game.is_legal(m),
                        moves.contains(&m),
                        "{m} in {}",
                        game.position().to_sfen()
                    );
                }
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                let m = moves[(seed >> 33) as usize % moves.len()];
                pool.push(m);
                game.make_move(m);
            }
        }
    }

    #[test]
    fn generation_stages_partition_the_legal_moves() {
        let mut game = ShogiGame::new(Position::startpos());
        let mut seed = 5u64;
        for _ in 0..200 {
            let mut all = Vec::new();
            game.legal_moves(&mut all);
            if all.is_empty() {
                break;
            }
            if !game.in_check() {
                let mut staged = Vec::new();
                game.tactical_moves(&mut staged);
                assert!(staged.iter().all(|&m| game.is_tactical(m)));
                let n = staged.len();
                game.quiet_moves(&mut staged);
                assert!(staged[n..].iter().all(|&m| !game.is_tactical(m)));
                assert_eq!(staged.len(), all.len());
            }
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            game.make_move(all[(seed >> 33) as usize % all.len()]);
        }
    }
}
