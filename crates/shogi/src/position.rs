//! The position: board, hands, side to move, incremental Zobrist keys, check
//! information and the history that make/unmake and repetition detection need.

use crate::attacks::{
    bishop_attacks, gold_attacks, knight_attacks, lance_attacks, pawn_attacks, piece_attacks,
    rook_attacks, silver_attacks,
};
use crate::bitboard::Bitboard;
use crate::hand::Hand;
use crate::mv::Move;
use crate::types::{Color, Piece, PieceKind, Square};
use crate::zobrist;

pub const STARTPOS: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

/// What is remembered per ply so a move can be taken back and repetitions found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StateInfo {
    /// Board pieces and side to move.
    pub board_key: u64,
    /// Pieces in both hands (additive).
    pub hand_key: u64,
    /// Pieces giving check to the side to move.
    pub checkers: Bitboard,
    pub hands: [Hand; 2],
    /// How many consecutive moves of each side, up to now, gave check.
    pub continuous_checks: [u16; 2],
    /// Plies since the last null move (or the start); repetition never looks further.
    pub plies_from_null: u16,
}

/// The outcome of comparing the current position with earlier ones on the line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Repetition {
    /// The same position (board, hands, side) occurred before: a draw.
    Draw,
    /// The opponent gave check with every move of the cycle: the side to move wins.
    WinByPerpetualCheck,
    /// The side to move gave check with every move of the cycle: it loses.
    LossByPerpetualCheck,
    /// Same board and side, and the side to move holds strictly more in hand.
    Superior,
    /// Same board and side, and the side to move holds strictly less in hand.
    Inferior,
}

#[derive(Clone)]
pub struct Position {
    board: [Piece; 81],
    by_color: [Bitboard; 2],
    by_kind: [Bitboard; PieceKind::NUM],
    king_square: [Option<Square>; 2],
    side: Color,
    /// The SFEN move number of the current position.
    game_ply: u32,
    st: StateInfo,
    history: Vec<StateInfo>,
}

impl PartialEq for Position {
    /// Two positions are equal when board, hands and side are (history is ignored).
    fn eq(&self, other: &Position) -> bool {
        self.board == other.board && self.st.hands == other.st.hands && self.side == other.side
    }
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Position({})", self.to_sfen())
    }
}

impl Position {
    /// An empty board, Black to move, nothing in hand.
    pub fn empty() -> Position {
        crate::attacks::init();
        Position {
            board: [Piece::EMPTY; 81],
            by_color: [Bitboard::EMPTY; 2],
            by_kind: [Bitboard::EMPTY; PieceKind::NUM],
            king_square: [None; 2],
            side: Color::Black,
            game_ply: 1,
            st: StateInfo {
                board_key: 0,
                hand_key: 0,
                checkers: Bitboard::EMPTY,
                hands: [Hand::EMPTY; 2],
                continuous_checks: [0; 2],
                plies_from_null: 0,
            },
            history: Vec::with_capacity(256),
        }
    }

    /// The standard starting position.
    pub fn startpos() -> Position {
        Position::from_sfen(STARTPOS).expect("the start position is valid")
    }

    // ---- Queries -------------------------------------------------------------

    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    #[inline(always)]
    pub fn piece_on(&self, sq: Square) -> Piece {
        self.board[sq.index()]
    }

    #[inline(always)]
    pub fn hand(&self, color: Color) -> Hand {
        self.st.hands[color.index()]
    }

    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    #[inline(always)]
    pub fn pieces(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    /// Pieces of `kind`, both colours.
    #[inline(always)]
    pub fn pieces_of_kind(&self, kind: PieceKind) -> Bitboard {
        self.by_kind[kind.index()]
    }

    #[inline(always)]
    pub fn pieces_of(&self, color: Color, kind: PieceKind) -> Bitboard {
        self.by_kind[kind.index()] & self.by_color[color.index()]
    }

    /// Gold and the promoted small pieces, both colours.
    #[inline(always)]
    pub fn gold_movers(&self) -> Bitboard {
        self.by_kind[PieceKind::Gold.index()]
            | self.by_kind[PieceKind::ProPawn.index()]
            | self.by_kind[PieceKind::ProLance.index()]
            | self.by_kind[PieceKind::ProKnight.index()]
            | self.by_kind[PieceKind::ProSilver.index()]
    }

    /// Bishops and horses, both colours.
    #[inline(always)]
    pub fn diagonal_sliders(&self) -> Bitboard {
        self.by_kind[PieceKind::Bishop.index()] | self.by_kind[PieceKind::Horse.index()]
    }

    /// Rooks and dragons, both colours.
    #[inline(always)]
    pub fn orthogonal_sliders(&self) -> Bitboard {
        self.by_kind[PieceKind::Rook.index()] | self.by_kind[PieceKind::Dragon.index()]
    }

    /// King, horse and dragon: the pieces with a king's step.
    #[inline(always)]
    fn king_steppers(&self) -> Bitboard {
        self.by_kind[PieceKind::King.index()]
            | self.by_kind[PieceKind::Horse.index()]
            | self.by_kind[PieceKind::Dragon.index()]
    }

    /// The king of `color`, if it has one (tsume positions may lack the attacker's).
    #[inline(always)]
    pub fn king_square(&self, color: Color) -> Option<Square> {
        self.king_square[color.index()]
    }

    #[inline(always)]
    pub fn checkers(&self) -> Bitboard {
        self.st.checkers
    }

    #[inline(always)]
    pub fn in_check(&self) -> bool {
        self.st.checkers.is_nonempty()
    }

    /// The full key: board, hands and side to move.
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.st.board_key ^ self.st.hand_key
    }

    /// The key of the board and side to move alone.
    #[inline(always)]
    pub fn board_key(&self) -> u64 {
        self.st.board_key
    }

    /// The key of both hands alone.
    #[inline(always)]
    pub fn hand_key(&self) -> u64 {
        self.st.hand_key
    }

    /// The SFEN move number.
    pub fn game_ply(&self) -> u32 {
        self.game_ply
    }

    /// Moves made since this position was set up.
    pub fn history_len(&self) -> usize {
        self.history.len()
    }

    /// Pieces of `color` that attack `sq`, given the occupancy `occ`.
    #[inline]
    pub fn attackers_to(&self, color: Color, sq: Square, occ: Bitboard) -> Bitboard {
        let opp = color.flip();
        let steppers = self.king_steppers();
        let attackers = (pawn_attacks(opp, sq) & self.by_kind[PieceKind::Pawn.index()])
            | (knight_attacks(opp, sq) & self.by_kind[PieceKind::Knight.index()])
            | (silver_attacks(opp, sq) & (self.by_kind[PieceKind::Silver.index()] | steppers))
            | (gold_attacks(opp, sq) & (self.gold_movers() | steppers))
            | (lance_attacks(opp, sq, occ) & self.by_kind[PieceKind::Lance.index()])
            | (bishop_attacks(sq, occ) & self.diagonal_sliders())
            | (rook_attacks(sq, occ) & self.orthogonal_sliders());
        attackers & self.by_color[color.index()]
    }

    /// Whether any piece of `color` attacks `sq` with occupancy `occ`. Tests the
    /// cheap step attacks first and stops at the first attacker found.
    #[inline]
    pub fn is_attacked(&self, color: Color, sq: Square, occ: Bitboard) -> bool {
        let opp = color.flip();
        let own = self.by_color[color.index()];
        let steppers = self.king_steppers();
        let steps = (pawn_attacks(opp, sq) & self.by_kind[PieceKind::Pawn.index()])
            | (knight_attacks(opp, sq) & self.by_kind[PieceKind::Knight.index()])
            | (silver_attacks(opp, sq) & (self.by_kind[PieceKind::Silver.index()] | steppers))
            | (gold_attacks(opp, sq) & (self.gold_movers() | steppers));
        if (steps & own).is_nonempty() {
            return true;
        }
        let diagonal = self.diagonal_sliders() & own;
        if diagonal.is_nonempty() && (bishop_attacks(sq, occ) & diagonal).is_nonempty() {
            return true;
        }
        let orthogonal = self.orthogonal_sliders() & own;
        if orthogonal.is_nonempty() && (rook_attacks(sq, occ) & orthogonal).is_nonempty() {
            return true;
        }
        (lance_attacks(opp, sq, occ) & self.by_kind[PieceKind::Lance.index()] & own).is_nonempty()
    }

    /// Pieces (of either colour) that alone stand between `color`'s king and an enemy
    /// slider aiming at it, given the occupancy `occ`. Those of `color` are pinned;
    /// those of the enemy give discovered check when they leave the line.
    pub fn king_blockers(&self, color: Color, occ: Bitboard) -> Bitboard {
        let Some(ksq) = self.king_square(color) else {
            return Bitboard::EMPTY;
        };
        let enemy = self.by_color[color.flip().index()];
        let snipers = ((bishop_attacks(ksq, Bitboard::EMPTY) & self.diagonal_sliders())
            | (rook_attacks(ksq, Bitboard::EMPTY) & self.orthogonal_sliders())
            | (lance_attacks(color, ksq, Bitboard::EMPTY)
                & self.by_kind[PieceKind::Lance.index()]))
            & enemy;
        let mut blockers = Bitboard::EMPTY;
        for sniper in snipers {
            let between = crate::attacks::between(ksq, sniper) & occ;
            if between.is_nonempty() && !between.more_than_one() {
                blockers |= between;
            }
        }
        blockers
    }

    /// Pieces of `color` pinned to their own king.
    #[inline]
    pub fn pinned(&self, color: Color) -> Bitboard {
        self.king_blockers(color, self.occupied()) & self.by_color[color.index()]
    }

    /// Whether the move (legal in this position) gives check.
    pub fn gives_check(&self, m: Move) -> bool {
        let us = self.side;
        let them = us.flip();
        let Some(ksq) = self.king_square(them) else {
            return false;
        };
        let to = m.to();
        let occ = self.occupied();
        if m.is_drop() {
            return piece_attacks(us, m.moved_kind(), to, occ).contains(ksq);
        }
        let from_bb = Bitboard::from_square(m.from());
        let occ_after = (occ ^ from_bb) | Bitboard::from_square(to);
        if piece_attacks(us, m.kind_after(), to, occ_after).contains(ksq) {
            return true;
        }
        // A discovered check: one of our sliders now sees the king. Only a piece
        // that leaves a line through the king can uncover one.
        let through_king = crate::attacks::line(m.from(), ksq);
        if through_king.is_empty() || through_king.contains(to) {
            return false;
        }
        let sliders = ((bishop_attacks(ksq, occ_after) & self.diagonal_sliders())
            | (rook_attacks(ksq, occ_after) & self.orthogonal_sliders())
            | (lance_attacks(them, ksq, occ_after) & self.by_kind[PieceKind::Lance.index()]))
            & self.by_color[us.index()]
            & !from_bb;
        sliders.is_nonempty()
    }

    // ---- Editing (set-up and make/unmake) --------------------------------------

    #[inline(always)]
    fn put_piece(&mut self, piece: Piece, sq: Square) {
        let kind = piece.kind().expect("a real piece");
        self.board[sq.index()] = piece;
        self.by_color[piece.color().index()].set(sq);
        self.by_kind[kind.index()].set(sq);
        if kind == PieceKind::King {
            self.king_square[piece.color().index()] = Some(sq);
        }
    }

    #[inline(always)]
    fn remove_piece(&mut self, sq: Square) -> Piece {
        let piece = self.board[sq.index()];
        let kind = piece.kind().expect("a piece to remove");
        self.board[sq.index()] = Piece::EMPTY;
        self.by_color[piece.color().index()].clear(sq);
        self.by_kind[kind.index()].clear(sq);
        piece
    }

    /// Set-up: puts a piece and updates the key (used by the SFEN parser).
    pub(crate) fn setup_put(&mut self, piece: Piece, sq: Square) {
        self.put_piece(piece, sq);
        self.st.board_key ^= zobrist::piece_square(piece, sq);
    }

    /// Set-up: sets a hand and updates the key.
    pub(crate) fn setup_hand(&mut self, color: Color, hand: Hand) {
        for &k in &PieceKind::HAND {
            let delta = zobrist::hand_piece(color, k);
            let old = self.st.hands[color.index()].count(k) as u64;
            let new = hand.count(k) as u64;
            self.st.hand_key = self
                .st
                .hand_key
                .wrapping_sub(delta.wrapping_mul(old))
                .wrapping_add(delta.wrapping_mul(new));
        }
        self.st.hands[color.index()] = hand;
    }

    /// Set-up: side to move and move number; then computes checkers.
    pub(crate) fn setup_finish(&mut self, side: Color, game_ply: u32) {
        if side != self.side {
            self.st.board_key ^= zobrist::SIDE;
        }
        self.side = side;
        self.game_ply = game_ply;
        self.st.checkers = self.compute_checkers();
        self.history.clear();
    }

    /// The checkers after `m` was played by the side not to move now. Before the
    /// move that side gave no check (a legal position), so a checker is either the
    /// moved piece or a slider the move uncovered: no full attack scan is needed.
    #[inline]
    fn checkers_after(&self, m: Move) -> Bitboard {
        let mover = self.side.flip();
        let Some(ksq) = self.king_square(self.side) else {
            return Bitboard::EMPTY;
        };
        let occ = self.occupied();
        let to = m.to();
        let mut checkers = Bitboard::EMPTY;
        if piece_attacks(mover, m.kind_after(), to, occ).contains(ksq) {
            checkers.set(to);
        }
        if !m.is_drop() && crate::attacks::line(ksq, m.from()).is_nonempty() {
            let own = self.by_color[mover.index()];
            let uncovered = (bishop_attacks(ksq, occ) & self.diagonal_sliders())
                | (rook_attacks(ksq, occ) & self.orthogonal_sliders())
                | (lance_attacks(self.side, ksq, occ) & self.by_kind[PieceKind::Lance.index()]);
            checkers |= uncovered & own & !Bitboard::from_square(to);
        }
        checkers
    }

    fn compute_checkers(&self) -> Bitboard {
        match self.king_square(self.side) {
            Some(ksq) => self.attackers_to(self.side.flip(), ksq, self.occupied()),
            None => Bitboard::EMPTY,
        }
    }

    /// The board key, hand key and mover's hand that `m` (a legal move) leads to,
    /// without playing it: for table lookups and prefetches of children.
    #[inline]
    pub fn keys_after(&self, m: Move) -> (u64, u64, Hand) {
        let us = self.side;
        let to = m.to();
        let mut board_key = self.st.board_key ^ zobrist::SIDE;
        let mut hand_key = self.st.hand_key;
        let mut hand = self.st.hands[us.index()];
        if m.is_drop() {
            let kind = m.moved_kind();
            hand.remove(kind);
            hand_key = hand_key.wrapping_sub(zobrist::hand_piece(us, kind));
            board_key ^= zobrist::piece_square(Piece::new(us, kind), to);
        } else {
            if let Some(captured) = m.captured() {
                let hand_kind = captured.unpromote();
                board_key ^= zobrist::piece_square(Piece::new(us.flip(), captured), to);
                hand.add(hand_kind);
                hand_key = hand_key.wrapping_add(zobrist::hand_piece(us, hand_kind));
            }
            board_key ^= zobrist::piece_square(Piece::new(us, m.moved_kind()), m.from());
            board_key ^= zobrist::piece_square(Piece::new(us, m.kind_after()), to);
        }
        (board_key, hand_key, hand)
    }

    /// Plays a legal move.
    pub fn do_move(&mut self, m: Move) {
        let us = self.side;
        let them = us.flip();
        self.history.push(self.st);
        let st = &mut self.st;
        let to = m.to();
        if m.is_drop() {
            let kind = m.moved_kind();
            st.hands[us.index()].remove(kind);
            st.hand_key = st.hand_key.wrapping_sub(zobrist::hand_piece(us, kind));
            let piece = Piece::new(us, kind);
            st.board_key ^= zobrist::piece_square(piece, to);
            self.put_piece(piece, to);
        } else {
            let from = m.from();
            if let Some(captured) = m.captured() {
                let cap_piece = Piece::new(them, captured);
                let hand_kind = captured.unpromote();
                st.board_key ^= zobrist::piece_square(cap_piece, to);
                st.hands[us.index()].add(hand_kind);
                st.hand_key = st.hand_key.wrapping_add(zobrist::hand_piece(us, hand_kind));
                self.remove_piece(to);
            }
            let piece = self.remove_piece(from);
            let st = &mut self.st;
            st.board_key ^= zobrist::piece_square(piece, from);
            let after = Piece::new(us, m.kind_after());
            st.board_key ^= zobrist::piece_square(after, to);
            self.put_piece(after, to);
        }
        self.side = them;
        self.game_ply += 1;
        self.st.board_key ^= zobrist::SIDE;
        self.st.checkers = self.checkers_after(m);
        let st = &mut self.st;
        st.continuous_checks[us.index()] =
            if st.checkers.is_nonempty() { st.continuous_checks[us.index()] + 1 } else { 0 };
        st.plies_from_null = st.plies_from_null.saturating_add(1);
    }

    /// Takes back `m`, which must be the last move played.
    pub fn undo_move(&mut self, m: Move) {
        let them = self.side;
        let us = them.flip();
        let to = m.to();
        self.remove_piece(to);
        if !m.is_drop() {
            self.put_piece(Piece::new(us, m.moved_kind()), m.from());
            if let Some(captured) = m.captured() {
                self.put_piece(Piece::new(them, captured), to);
            }
        }
        self.side = us;
        self.game_ply -= 1;
        self.st = self.history.pop().expect("undo_move without a move to undo");
    }

    /// Passes the turn (for null-move pruning). Not allowed in check.
    pub fn do_null_move(&mut self) {
        debug_assert!(!self.in_check());
        self.history.push(self.st);
        self.side = self.side.flip();
        self.st.board_key ^= zobrist::SIDE;
        self.st.plies_from_null = 0;
        self.st.checkers = Bitboard::EMPTY;
    }

    pub fn undo_null_move(&mut self) {
        self.side = self.side.flip();
        self.st = self.history.pop().expect("undo_null_move without a null move");
    }

    /// Forgets the history (keeps the position). Repetitions before this are not seen.
    pub fn clear_history(&mut self) {
        self.history.clear();
        self.st.plies_from_null = 0;
        self.st.continuous_checks = [0; 2];
    }

    // ---- Repetition ------------------------------------------------------------

    /// Compares with earlier positions of the line (at most `max_plies` back) and
    /// reports the nearest repetition, as search treats it: one earlier occurrence
    /// already counts.
    pub fn repetition(&self, max_plies: usize) -> Option<Repetition> {
        let end = (self.st.plies_from_null as usize).min(max_plies).min(self.history.len());
        let us = self.side.index();
        let them = self.side.flip().index();
        let n = self.history.len();
        let mut d = 4;
        while d <= end {
            let prev = &self.history[n - d];
            if prev.board_key == self.st.board_key {
                let mine = self.st.hands[us];
                let before = prev.hands[us];
                if mine == before {
                    return Some(self.repetition_kind(d, us, them));
                }
                if mine.is_superior_or_equal(before) {
                    return Some(Repetition::Superior);
                }
                if before.is_superior_or_equal(mine) {
                    return Some(Repetition::Inferior);
                }
            }
            d += 2;
        }
        None
    }

    fn repetition_kind(&self, distance: usize, us: usize, them: usize) -> Repetition {
        let moves_each = distance / 2;
        if self.st.continuous_checks[them] as usize >= moves_each {
            Repetition::WinByPerpetualCheck
        } else if self.st.continuous_checks[us] as usize >= moves_each {
            Repetition::LossByPerpetualCheck
        } else {
            Repetition::Draw
        }
    }

    /// Sennichite as the game rules define it: the current position (board, hands,
    /// side) has now occurred four times. Perpetual check is judged over the whole
    /// span since the first occurrence.
    pub fn sennichite(&self) -> Option<Repetition> {
        let key = self.key();
        let n = self.history.len();
        let end = (self.st.plies_from_null as usize).min(n);
        let mut occurrences = 1;
        let mut first = 0;
        let mut d = 4;
        while d <= end {
            let prev = &self.history[n - d];
            if prev.board_key ^ prev.hand_key == key {
                occurrences += 1;
                first = d;
            }
            d += 2;
        }
        if occurrences >= 4 {
            Some(self.repetition_kind(first, self.side.index(), self.side.flip().index()))
        } else {
            None
        }
    }

    /// Recomputes the keys from scratch (for tests of the incremental update).
    pub fn compute_keys(&self) -> (u64, u64) {
        let mut board_key = 0;
        for sq in Square::all() {
            let p = self.piece_on(sq);
            if !p.is_empty() {
                board_key ^= zobrist::piece_square(p, sq);
            }
        }
        if self.side == Color::White {
            board_key ^= zobrist::SIDE;
        }
        let mut hand_key = 0u64;
        for c in Color::ALL {
            for &k in &PieceKind::HAND {
                hand_key = hand_key.wrapping_add(
                    zobrist::hand_piece(c, k).wrapping_mul(self.hand(c).count(k) as u64),
                );
            }
        }
        (board_key, hand_key)
    }

    /// Internal consistency check (bitboards agree with the board, keys, checkers).
    pub fn is_consistent(&self) -> bool {
        let mut by_color = [Bitboard::EMPTY; 2];
        let mut by_kind = [Bitboard::EMPTY; PieceKind::NUM];
        for sq in Square::all() {
            let p = self.piece_on(sq);
            if let Some(k) = p.kind() {
                by_color[p.color().index()].set(sq);
                by_kind[k.index()].set(sq);
                if k == PieceKind::King && self.king_square(p.color()) != Some(sq) {
                    return false;
                }
            }
        }
        by_color == self.by_color
            && by_kind == self.by_kind
            && self.compute_keys() == (self.st.board_key, self.st.hand_key)
            && self.compute_checkers() == self.st.checkers
    }
}
