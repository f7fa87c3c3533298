//! Legal move generation, whole and in the stages search uses.
//!
//! Every generator here yields only legal moves: pins, checks, nifu, uchifuzume,
//! dead pieces (pawn/lance on the last rank, knight on the last two) and forced
//! promotion are all handled while generating, so no move needs a later legality
//! test. The stages partition the legal moves:
//! - not in check: `captures` ∪ `quiets` ∪ `drops` = legal, pairwise disjoint;
//! - in check: `evasions` = legal;
//! - `checks` = the legal moves that give check.
//!
//! `captures` holds every capture (with and without promotion) and the pawn
//! promotions that capture nothing; `quiets` every other board move.

mod checks;

pub use checks::CheckInfo;

use crate::attacks::{
    between, bishop_attacks, dragon_attacks, gold_attacks, horse_attacks, king_attacks,
    knight_attacks, lance_attacks, pawn_attacks, rook_attacks, silver_attacks,
};
use crate::bitboard::Bitboard;
use crate::mv::Move;
use crate::position::Position;
use crate::types::{Color, PieceKind, Square};
use std::mem::MaybeUninit;

/// Room for every legal move of any position: the most known is 593; the margin
/// covers the odd positions SFEN allows (a side without a king, say).
pub const MAX_MOVES: usize = 1024;

/// A fixed-capacity list of moves that lives on the stack.
pub struct MoveList {
    len: usize,
    moves: MaybeUninit<[Move; MAX_MOVES]>,
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl MoveList {
    #[inline(always)]
    pub fn new() -> MoveList {
        MoveList { len: 0, moves: MaybeUninit::uninit() }
    }

    /// Appends a move. Panics if the list is full (no shogi position has that many).
    #[inline(always)]
    pub fn push(&mut self, m: Move) {
        assert!(self.len < MAX_MOVES, "move list overflow");
        // SAFETY: `len < MAX_MOVES` was just checked, so the write stays inside the
        // array; writing through a raw pointer never reads the uninitialised memory.
        unsafe { (self.moves.as_mut_ptr() as *mut Move).add(self.len).write(m) };
        self.len += 1;
    }

    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }

    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn clear(&mut self) {
        self.len = 0;
    }

    #[inline(always)]
    pub fn as_slice(&self) -> &[Move] {
        // SAFETY: the first `len` elements were written by `push` or `retain` (the only
        // ways `len` grows or is set), and `len <= MAX_MOVES`.
        unsafe { std::slice::from_raw_parts(self.moves.as_ptr() as *const Move, self.len) }
    }

    #[inline(always)]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        // SAFETY: as in `as_slice`; the borrow is unique because `self` is.
        unsafe { std::slice::from_raw_parts_mut(self.moves.as_mut_ptr() as *mut Move, self.len) }
    }

    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.as_slice().iter()
    }

    pub fn contains(&self, m: Move) -> bool {
        self.as_slice().contains(&m)
    }

    /// Keeps the moves for which `keep` is true.
    pub fn retain(&mut self, mut keep: impl FnMut(Move) -> bool) {
        let mut kept = 0;
        for i in 0..self.len {
            let m = self.as_slice()[i];
            if keep(m) {
                self.as_mut_slice()[kept] = m;
                kept += 1;
            }
        }
        self.len = kept;
    }
}

impl std::ops::Deref for MoveList {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

/// Which board moves a non-evasion pass emits.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Stage {
    /// Captures and non-capturing pawn promotions.
    Captures,
    /// Non-captures other than pawn promotions.
    Quiets,
    /// Both.
    All,
}

/// Everything the generators need about the side to move, computed once.
pub(crate) struct Context {
    pub(crate) us: Color,
    /// Own king (a tsume attacker may have none).
    pub(crate) ksq: Option<Square>,
    pub(crate) occ: Bitboard,
    pub(crate) own: Bitboard,
    pub(crate) enemy: Bitboard,
    pub(crate) pinned: Bitboard,
}

impl Context {
    #[inline(always)]
    pub(crate) fn new(pos: &Position) -> Context {
        let us = pos.side_to_move();
        Context {
            us,
            ksq: pos.king_square(us),
            occ: pos.occupied(),
            own: pos.pieces(us),
            enemy: pos.pieces(us.flip()),
            pinned: pos.pinned(us),
        }
    }
}

/// All legal moves.
pub fn generate_legal(pos: &Position, list: &mut MoveList) {
    if pos.in_check() {
        generate_evasions(pos, list);
    } else {
        let ctx = Context::new(pos);
        board_moves(pos, &ctx, !ctx.own, Stage::All, list);
        drop_moves(pos, &ctx, !ctx.occ, list);
    }
}

/// Convenience: the legal moves in a fresh list.
pub fn legal_moves(pos: &Position) -> MoveList {
    let mut list = MoveList::new();
    generate_legal(pos, &mut list);
    list
}

/// Captures (with and without promotion) and non-capturing pawn promotions.
/// Only for positions not in check.
pub fn generate_captures(pos: &Position, list: &mut MoveList) {
    debug_assert!(!pos.in_check());
    let ctx = Context::new(pos);
    board_moves(pos, &ctx, !ctx.own, Stage::Captures, list);
}

/// Board moves that neither capture nor promote a pawn. Only when not in check.
pub fn generate_quiets(pos: &Position, list: &mut MoveList) {
    debug_assert!(!pos.in_check());
    let ctx = Context::new(pos);
    board_moves(pos, &ctx, !ctx.occ, Stage::Quiets, list);
}

/// Drops. Only for positions not in check (evasions include interposing drops).
pub fn generate_drops(pos: &Position, list: &mut MoveList) {
    debug_assert!(!pos.in_check());
    let ctx = Context::new(pos);
    drop_moves(pos, &ctx, !ctx.occ, list);
}

/// All legal moves of a side in check: king moves, captures of a single checker,
/// interpositions by moves and drops.
pub fn generate_evasions(pos: &Position, list: &mut MoveList) {
    debug_assert!(pos.in_check());
    let ctx = Context::new(pos);
    let Some(ksq) = ctx.ksq else {
        return;
    };
    let them = ctx.us.flip();
    let checkers = pos.checkers();
    // The king steps anywhere not attacked once it has left its square.
    let occ_without_king = ctx.occ ^ Bitboard::from_square(ksq);
    for to in king_attacks(ksq) & !ctx.own {
        if !pos.is_attacked(them, to, occ_without_king) {
            list.push(Move::board(ksq, to, false, PieceKind::King, pos.piece_on(to).kind()));
        }
    }
    if checkers.more_than_one() {
        return;
    }
    let checker = checkers.lsb();
    let block = between(ksq, checker);
    board_moves_except_king(pos, &ctx, block | checkers, Stage::All, list);
    if block.is_nonempty() {
        drop_moves(pos, &ctx, block, list);
    }
}

/// The legal moves that give check (see `checks.rs`).
pub fn generate_checks(pos: &Position, list: &mut MoveList) {
    if pos.in_check() {
        generate_evasions(pos, list);
        list.retain(|m| pos.gives_check(m));
    } else {
        checks::generate_checks_not_in_check(pos, list);
    }
}

/// Board moves of every piece to `targets`, the king's only to safe squares.
fn board_moves(
    pos: &Position,
    ctx: &Context,
    targets: Bitboard,
    stage: Stage,
    list: &mut MoveList,
) {
    board_moves_except_king(pos, ctx, targets, stage, list);
    if let Some(ksq) = ctx.ksq {
        let mut king_targets = king_attacks(ksq) & targets;
        king_targets &= match stage {
            Stage::Captures => ctx.enemy,
            Stage::Quiets => !ctx.occ,
            Stage::All => Bitboard::ALL,
        };
        let them = ctx.us.flip();
        for to in king_targets {
            // Not in check here (evasions have their own king moves), so no enemy
            // slider looks through the king and the occupancy can stay as it is.
            if !pos.is_attacked(them, to, ctx.occ) {
                list.push(Move::board(ksq, to, false, PieceKind::King, pos.piece_on(to).kind()));
            }
        }
    }
}

/// Board moves of every piece but the king to `targets` (a subset of non-own squares).
fn board_moves_except_king(
    pos: &Position,
    ctx: &Context,
    targets: Bitboard,
    stage: Stage,
    list: &mut MoveList,
) {
    let us = ctx.us;
    let zone = Bitboard::promotion_zone(us);
    let last1 = Bitboard::last_ranks(us, 1);
    let last2 = Bitboard::last_ranks(us, 2);
    // In the capture stage only enemy squares count, plus pawn promotions; in the
    // quiet stage only empty squares (targets already excludes enemy squares there).
    let (piece_targets, pawn_targets) = match stage {
        Stage::Captures => (targets & ctx.enemy, targets & (ctx.enemy | zone)),
        Stage::Quiets => (targets & !ctx.enemy, targets & !ctx.enemy),
        Stage::All => (targets, targets),
    };

    let pawn_rule = PawnRule { stage, zone, last1 };
    // Unpinned pieces move freely; the few pinned ones are handled at the end.
    let free = ctx.own & !ctx.pinned;

    // Pawns, all at once: every unpinned pawn steps one rank forward.
    let pawns = pos.pieces_of(us, PieceKind::Pawn) & free;
    let back: i32 = if us == Color::Black { 1 } else { -1 };
    for to in pawns.forward(us) & pawn_targets {
        let from = Square::from_index((to.index() as i32 + back) as u8);
        pawn_rule.emit(pos, from, to, list);
    }

    let occ = ctx.occ;
    for from in pos.pieces_of(us, PieceKind::Lance) & free {
        let t = lance_attacks(us, from, occ) & piece_targets;
        emit_forward_only(pos, from, t, PieceKind::Lance, zone, last1, list);
    }
    for from in pos.pieces_of(us, PieceKind::Knight) & free {
        let t = knight_attacks(us, from) & piece_targets;
        emit_forward_only(pos, from, t, PieceKind::Knight, zone, last2, list);
    }
    for from in pos.pieces_of(us, PieceKind::Silver) & free {
        let t = silver_attacks(us, from) & piece_targets;
        emit_optional(pos, from, t, PieceKind::Silver, zone, list);
    }
    for from in pos.pieces_of(us, PieceKind::Bishop) & free {
        let t = bishop_attacks(from, occ) & piece_targets;
        emit_optional(pos, from, t, PieceKind::Bishop, zone, list);
    }
    for from in pos.pieces_of(us, PieceKind::Rook) & free {
        let t = rook_attacks(from, occ) & piece_targets;
        emit_optional(pos, from, t, PieceKind::Rook, zone, list);
    }
    for from in pos.gold_movers() & free {
        let kind = pos.piece_on(from).kind().unwrap_or(PieceKind::Gold);
        let t = gold_attacks(us, from) & piece_targets;
        emit_plain(pos, from, t, kind, list);
    }
    for from in pos.pieces_of(us, PieceKind::Horse) & free {
        let t = horse_attacks(from, occ) & piece_targets;
        emit_plain(pos, from, t, PieceKind::Horse, list);
    }
    for from in pos.pieces_of(us, PieceKind::Dragon) & free {
        let t = dragon_attacks(from, occ) & piece_targets;
        emit_plain(pos, from, t, PieceKind::Dragon, list);
    }

    // Pinned pieces (never the king) may only move along their pin line.
    let Some(ksq) = ctx.ksq else {
        return;
    };
    for from in ctx.pinned & !pos.pieces_of_kind(PieceKind::King) {
        let kind = pos.piece_on(from).kind().unwrap_or(PieceKind::Gold);
        let along = crate::attacks::line(ksq, from);
        let reach = crate::attacks::piece_attacks(us, kind, from, occ) & along;
        match kind {
            PieceKind::Pawn => {
                for to in reach & pawn_targets {
                    pawn_rule.emit(pos, from, to, list);
                }
            }
            PieceKind::Lance => {
                emit_forward_only(pos, from, reach & piece_targets, kind, zone, last1, list)
            }
            PieceKind::Knight => {
                emit_forward_only(pos, from, reach & piece_targets, kind, zone, last2, list)
            }
            PieceKind::Silver | PieceKind::Bishop | PieceKind::Rook => {
                emit_optional(pos, from, reach & piece_targets, kind, zone, list)
            }
            _ => emit_plain(pos, from, reach & piece_targets, kind, list),
        }
    }
}

/// How a pawn step is emitted in a given stage: it must promote on the last rank,
/// may promote elsewhere in the zone; the capture stage takes every promotion and
/// every capture, the quiet stage the rest.
#[derive(Clone, Copy)]
struct PawnRule {
    stage: Stage,
    zone: Bitboard,
    last1: Bitboard,
}

impl PawnRule {
    #[inline(always)]
    fn emit(&self, pos: &Position, from: Square, to: Square, list: &mut MoveList) {
        let captured = pos.piece_on(to).kind_raw();
        if self.zone.contains(to) {
            if self.stage != Stage::Quiets {
                list.push(Move::board_raw(from, to, true, PieceKind::Pawn, captured));
            }
            let may_stay = !self.last1.contains(to);
            let wanted = self.stage != Stage::Captures || captured != 0;
            if may_stay && wanted {
                list.push(Move::board_raw(from, to, false, PieceKind::Pawn, captured));
            }
        } else {
            list.push(Move::board_raw(from, to, false, PieceKind::Pawn, captured));
        }
    }
}

/// Lance and knight: they promote only on entering the zone, and must promote on
/// the ranks where they could never move again (`dead`).
#[inline(always)]
fn emit_forward_only(
    pos: &Position,
    from: Square,
    targets: Bitboard,
    kind: PieceKind,
    zone: Bitboard,
    dead: Bitboard,
    list: &mut MoveList,
) {
    for to in targets {
        let captured = pos.piece_on(to).kind_raw();
        if zone.contains(to) {
            list.push(Move::board_raw(from, to, true, kind, captured));
        }
        if !dead.contains(to) {
            list.push(Move::board_raw(from, to, false, kind, captured));
        }
    }
}

/// Silver, bishop and rook: may promote when the move starts or ends in the zone.
#[inline(always)]
fn emit_optional(
    pos: &Position,
    from: Square,
    targets: Bitboard,
    kind: PieceKind,
    zone: Bitboard,
    list: &mut MoveList,
) {
    let from_zone = zone.contains(from);
    for to in targets {
        let captured = pos.piece_on(to).kind_raw();
        if from_zone || zone.contains(to) {
            list.push(Move::board_raw(from, to, true, kind, captured));
        }
        list.push(Move::board_raw(from, to, false, kind, captured));
    }
}

/// Pieces that never promote.
#[inline(always)]
fn emit_plain(
    pos: &Position,
    from: Square,
    targets: Bitboard,
    kind: PieceKind,
    list: &mut MoveList,
) {
    for to in targets {
        list.push(Move::board_raw(from, to, false, kind, pos.piece_on(to).kind_raw()));
    }
}

/// Drops onto `targets` (empty squares), obeying nifu, dead squares and uchifuzume.
fn drop_moves(pos: &Position, ctx: &Context, targets: Bitboard, list: &mut MoveList) {
    let us = ctx.us;
    let hand = pos.hand(us);
    if hand.is_empty() {
        return;
    }
    let last1 = Bitboard::last_ranks(us, 1);
    let last2 = Bitboard::last_ranks(us, 2);

    if hand.has(PieceKind::Pawn) {
        let pawn_files = pos.pieces_of(us, PieceKind::Pawn).occupied_files();
        let mut t = targets & !last1 & !Bitboard::from_files(pawn_files);
        // The one square where a pawn would check the enemy king: it must not mate.
        if let Some(eksq) = pos.king_square(us.flip()) {
            let check_sq = pawn_attacks(us.flip(), eksq);
            if (t & check_sq).is_nonempty() && is_pawn_drop_mate(pos, ctx, check_sq.lsb(), eksq) {
                t &= !check_sq;
            }
        }
        for to in t {
            list.push(Move::drop(PieceKind::Pawn, to));
        }
    }
    if hand.has(PieceKind::Lance) {
        for to in targets & !last1 {
            list.push(Move::drop(PieceKind::Lance, to));
        }
    }
    if hand.has(PieceKind::Knight) {
        for to in targets & !last2 {
            list.push(Move::drop(PieceKind::Knight, to));
        }
    }
    // Silver, gold, bishop, rook drop anywhere empty.
    let mut others = [PieceKind::Pawn; 4];
    let mut n = 0;
    for kind in [PieceKind::Silver, PieceKind::Gold, PieceKind::Bishop, PieceKind::Rook] {
        if hand.has(kind) {
            others[n] = kind;
            n += 1;
        }
    }
    if n > 0 {
        for to in targets {
            for &kind in &others[..n] {
                list.push(Move::drop(kind, to));
            }
        }
    }
}

/// Whether a pawn dropped by the side to move on `to` (right in front of the enemy
/// king on `eksq`) would be checkmate, which makes the drop illegal.
pub(crate) fn is_pawn_drop_mate(pos: &Position, ctx: &Context, to: Square, eksq: Square) -> bool {
    let us = ctx.us;
    let them = us.flip();
    let occ = ctx.occ | Bitboard::from_square(to);
    // Can a defender other than the king take the pawn? Pins are judged with the
    // pawn on the board, since it may itself close a line.
    let defenders = pos.attackers_to(them, to, occ) & !Bitboard::from_square(eksq);
    if defenders.is_nonempty() {
        let pinned = pos.king_blockers(them, occ) & ctx.enemy;
        for d in defenders {
            if !pinned.contains(d) || crate::attacks::line(eksq, d).contains(to) {
                return false;
            }
        }
    }
    // Can the king step out (or take the pawn) to a square we do not attack?
    let occ_without_king = occ ^ Bitboard::from_square(eksq);
    for esc in king_attacks(eksq) & !ctx.enemy {
        if !pos.is_attacked(us, esc, occ_without_king) {
            return false;
        }
    }
    true
}

/// Whether a dropped pawn on `to` by the side to move would be checkmate (public for
/// tests and move-parse error messages).
pub fn pawn_drop_would_mate(pos: &Position, to: Square) -> bool {
    let ctx = Context::new(pos);
    match pos.king_square(ctx.us.flip()) {
        Some(eksq) if pawn_attacks(ctx.us, to).contains(eksq) => {
            is_pawn_drop_mate(pos, &ctx, to, eksq)
        }
        _ => false,
    }
}

/// Number of legal moves, without keeping them.
#[inline]
pub fn count_legal(pos: &Position) -> usize {
    let mut list = MoveList::new();
    generate_legal(pos, &mut list);
    list.len()
}
