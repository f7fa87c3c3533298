//! Generation of the legal checking moves without generating the rest: the hot path
//! of the checkmate solver, where the attacker plays checks only.
//!
//! A move checks when the piece lands on a square from which its kind (after any
//! promotion) attacks the enemy king, or when it uncovers one of our sliders by
//! leaving that slider's line to the king. Those squares are computed once per
//! position ("check squares", looked at from the king outwards), so each piece only
//! intersects its reachable squares with them; nothing is made and unmade.
//!
//! Before the move we give no check (the position is legal), so a slider's path
//! from its new square to the king cannot run through the square it leaves; the
//! check squares can use the occupancy as it is.

use super::{is_pawn_drop_mate, Context, MoveList};
use crate::attacks::{
    bishop_attacks, dragon_attacks, gold_attacks, horse_attacks, king_attacks, knight_attacks,
    lance_attacks, line, pawn_attacks, piece_attacks, rook_attacks, silver_attacks, BOXES,
};
use crate::bitboard::Bitboard;
use crate::mv::Move;
use crate::position::Position;
use crate::types::{PieceKind, Square};

/// Per kind, the squares from which a piece of that kind (ours) attacks the enemy
/// king with the current occupancy.
struct CheckSquares([Bitboard; PieceKind::NUM]);

impl CheckSquares {
    fn new(ctx: &Context, eksq: Square) -> CheckSquares {
        CheckSquares::of_side(ctx.us, ctx.occ, eksq)
    }

    fn of_side(us: crate::types::Color, occ: Bitboard, eksq: Square) -> CheckSquares {
        // Attacks are symmetric: our piece on X attacks K exactly when the same kind
        // of the opponent's colour on K attacks X.
        let them = us.flip();
        let mut sq = [Bitboard::EMPTY; PieceKind::NUM];
        let gold = gold_attacks(them, eksq);
        sq[PieceKind::Pawn.index()] = pawn_attacks(them, eksq);
        sq[PieceKind::Lance.index()] = lance_attacks(them, eksq, occ);
        sq[PieceKind::Knight.index()] = knight_attacks(them, eksq);
        sq[PieceKind::Silver.index()] = silver_attacks(them, eksq);
        sq[PieceKind::Bishop.index()] = bishop_attacks(eksq, occ);
        sq[PieceKind::Rook.index()] = rook_attacks(eksq, occ);
        sq[PieceKind::Gold.index()] = gold;
        sq[PieceKind::ProPawn.index()] = gold;
        sq[PieceKind::ProLance.index()] = gold;
        sq[PieceKind::ProKnight.index()] = gold;
        sq[PieceKind::ProSilver.index()] = gold;
        sq[PieceKind::Horse.index()] = horse_attacks(eksq, occ);
        sq[PieceKind::Dragon.index()] = dragon_attacks(eksq, occ);
        CheckSquares(sq)
    }

    #[inline(always)]
    fn of(&self, kind: PieceKind) -> Bitboard {
        self.0[kind.index()]
    }
}

/// What decides, for many moves of one position, whether each gives check: per
/// square, the kinds that check the enemy king from it and whether a piece of
/// ours there uncovers a slider by leaving. Built once
/// ([`Position::check_info`]); each answer is then a table read or two.
pub struct CheckInfo {
    /// Bit `k`: a piece of kind index `k` checks from the square;
    /// [`CheckInfo::UNCOVERS`]: our piece on it shields the king from one of
    /// our sliders.
    by_square: [u16; Square::NUM],
    eksq: Square,
}

impl Position {
    /// Answers "does this move give check?" for many moves of this position at the
    /// cost of a table read or two each (`None`: the opponent has no king).
    pub fn check_info(&self) -> Option<CheckInfo> {
        CheckInfo::new(self)
    }
}

impl CheckInfo {
    const UNCOVERS: u16 = 1 << 15;

    /// `None` when the side not to move has no king (nothing can check it).
    pub(crate) fn new(pos: &Position) -> Option<CheckInfo> {
        let us = pos.side_to_move();
        let eksq = pos.king_square(us.flip())?;
        let occ = pos.occupied();
        let squares = CheckSquares::of_side(us, occ, eksq);
        let mut by_square = [0u16; Square::NUM];
        // The gold's squares serve every kind that moves like it, set at once.
        // The king's are empty: it gives check only by uncovering.
        let gold_like = PieceKind::ALL
            .iter()
            .filter(|k| k.moves_like_gold())
            .fold(0u16, |bits, k| bits | 1 << k.index());
        for kind in PieceKind::ALL {
            let bits = match kind {
                PieceKind::Gold => gold_like,
                _ if kind.moves_like_gold() => continue,
                _ => 1 << kind.index(),
            };
            for sq in squares.of(kind) {
                by_square[sq.index()] |= bits;
            }
        }
        for sq in pos.king_blockers(us.flip(), occ) & pos.pieces(us) {
            by_square[sq.index()] |= Self::UNCOVERS;
        }
        Some(CheckInfo { by_square, eksq })
    }

    /// Whether `m`, legal in the position this was built for, gives check: the same
    /// answer as [`Position::gives_check`].
    #[inline]
    pub fn gives_check(&self, m: Move) -> bool {
        let to = m.to();
        if self.by_square[to.index()] >> m.kind_after_index() & 1 != 0 {
            return true;
        }
        if m.is_drop() {
            return false;
        }
        // Leaving a slider's line uncovers it, unless the piece stays on the line.
        let from = m.from();
        self.by_square[from.index()] & Self::UNCOVERS != 0 && !line(self.eksq, from).contains(to)
    }
}

/// The legal checking moves of a side that is not in check.
pub(crate) fn generate_checks_not_in_check(pos: &Position, list: &mut MoveList) {
    debug_assert!(!pos.in_check());
    let ctx = Context::new(pos);
    let us = ctx.us;
    let Some(eksq) = pos.king_square(us.flip()) else {
        return;
    };
    let checks = CheckSquares::new(&ctx, eksq);
    // Our pieces whose leaving uncovers a check by one of our sliders.
    let discoverers = pos.king_blockers(us.flip(), ctx.occ) & ctx.own;
    let zone = Bitboard::promotion_zone(us);
    let last1 = Bitboard::last_ranks(us, 1);
    let last2 = Bitboard::last_ranks(us, 2);

    // Pieces that may check at all: sliders and lances from anywhere, pieces that
    // uncover a slider, and stepping pieces near the king (the rest would find no
    // target among the check squares; leaving them out keeps the order).
    let sliders =
        pos.diagonal_sliders() | pos.orthogonal_sliders() | pos.pieces_of_kind(PieceKind::Lance);
    // A gold, silver or pawn (promoted or not) lands next to the king, so it
    // starts within two steps of it; a knight lands two ranks and a file away
    // (or, promoting, next to the king), so it starts within four.
    let knights = pos.pieces_of_kind(PieceKind::Knight) & BOXES[4][eksq.index()];
    let may_check = sliders | discoverers | knights | BOXES[2][eksq.index()];
    for from in ctx.own & !pos.pieces_of_kind(PieceKind::King) & may_check {
        let kind = pos.piece_on(from).kind().unwrap_or(PieceKind::Gold);
        let mut targets = piece_attacks(us, kind, from, ctx.occ) & !ctx.own;
        if let Some(ksq) = ctx.ksq {
            if ctx.pinned.contains(from) {
                targets &= line(ksq, from);
            }
        }
        if targets.is_empty() {
            continue;
        }
        // Squares where any move of this piece checks by uncovering a slider.
        let uncovering =
            if discoverers.contains(from) { !line(eksq, from) } else { Bitboard::EMPTY };
        // Where the piece may stay unpromoted, and where it may promote.
        let (stay, promote) = match kind {
            PieceKind::Pawn | PieceKind::Lance => (!last1, zone),
            PieceKind::Knight => (!last2, zone),
            PieceKind::Silver | PieceKind::Bishop | PieceKind::Rook => {
                (Bitboard::ALL, if zone.contains(from) { Bitboard::ALL } else { zone })
            }
            _ => (Bitboard::ALL, Bitboard::EMPTY),
        };
        let plain = targets & stay & (checks.of(kind) | uncovering);
        for to in plain {
            list.push(Move::board_raw(from, to, false, kind, pos.piece_on(to).kind_raw()));
        }
        if promote.is_nonempty() {
            let promoted = targets & promote & (checks.of(kind.promote()) | uncovering);
            for to in promoted {
                list.push(Move::board_raw(from, to, true, kind, pos.piece_on(to).kind_raw()));
            }
        }
    }

    // The king checks only by uncovering, and only to squares it may go to.
    if let Some(ksq) = ctx.ksq {
        if discoverers.contains(ksq) {
            let them = us.flip();
            for to in king_attacks(ksq) & !ctx.own & !line(eksq, ksq) {
                if !pos.is_attacked(them, to, ctx.occ) {
                    list.push(Move::board_raw(
                        ksq,
                        to,
                        false,
                        PieceKind::King,
                        pos.piece_on(to).kind_raw(),
                    ));
                }
            }
        }
    }

    drop_checks(pos, &ctx, &checks, eksq, last1, last2, list);
}

/// Drops that give check, under the drop rules (nifu, dead squares, uchifuzume).
fn drop_checks(
    pos: &Position,
    ctx: &Context,
    checks: &CheckSquares,
    eksq: Square,
    last1: Bitboard,
    last2: Bitboard,
    list: &mut MoveList,
) {
    let hand = pos.hand(ctx.us);
    if hand.is_empty() {
        return;
    }
    let empty = !ctx.occ;
    if hand.has(PieceKind::Pawn) {
        let pawn_files = pos.pieces_of(ctx.us, PieceKind::Pawn).occupied_files();
        let t = checks.of(PieceKind::Pawn) & empty & !last1 & !Bitboard::from_files(pawn_files);
        if t.is_nonempty() {
            let to = t.lsb();
            if !is_pawn_drop_mate(pos, ctx, to, eksq) {
                list.push(Move::drop(PieceKind::Pawn, to));
            }
        }
    }
    let rules = [
        (PieceKind::Lance, !last1),
        (PieceKind::Knight, !last2),
        (PieceKind::Silver, Bitboard::ALL),
        (PieceKind::Gold, Bitboard::ALL),
        (PieceKind::Bishop, Bitboard::ALL),
        (PieceKind::Rook, Bitboard::ALL),
    ];
    for (kind, allowed) in rules {
        if hand.has(kind) {
            for to in checks.of(kind) & empty & allowed {
                list.push(Move::drop(kind, to));
            }
        }
    }
}
