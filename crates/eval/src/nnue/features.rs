//! HalfKP: the network's input features. A feature is a pair (the square of the
//! king of the side whose view it is, one other piece with where it stands), so a
//! position has 38 of them from each side's view, one per piece of the standard
//! set other than the kings.
//!
//! The numbering is the one `nn.bin` files are made for, so that the same file
//! gives the same values here and in YaneuraOu: a piece is a "Bona piece"
//! number below [`PIECES`], friend (the viewing side's) and enemy pieces apart;
//! pieces in hand are numbered by how many of their kind the side holds (the
//! first pawn in hand, the second, ...), pieces on the board by kind and square.
//! From White's view the board is turned round (square `80 - sq`). Promoted
//! pawns, lances, knights and silvers count as golds. A piece of the set that is
//! in neither hand nor on the board (handicap games, problems) is piece 0.

use shogi::{Color, PieceKind, Position, Square};

/// Bona piece numbers per king square.
pub const PIECES: usize = 1548;
/// Feature dimensions of one view: 81 king squares × [`PIECES`].
pub const DIMENSIONS: usize = 81 * PIECES;
/// The pieces of the standard set other than the two kings.
pub const SET: usize = 38;

/// The first number of the hand pieces of one kind, friend and enemy, by
/// `PieceKind::index` (0 where the kind cannot be held).
const HAND_BASE: [(u16, u16); PieceKind::NUM] = {
    let mut t = [(0, 0); PieceKind::NUM];
    t[PieceKind::Pawn as usize] = (1, 20);
    t[PieceKind::Lance as usize] = (39, 44);
    t[PieceKind::Knight as usize] = (49, 54);
    t[PieceKind::Silver as usize] = (59, 64);
    t[PieceKind::Gold as usize] = (69, 74);
    t[PieceKind::Bishop as usize] = (79, 82);
    t[PieceKind::Rook as usize] = (85, 88);
    t
};

/// The first number of the board pieces of one kind (the friend's; the enemy's
/// follow 81 later), by `PieceKind::index` (0 for the king, which is no feature).
const BOARD_BASE: [u16; PieceKind::NUM] = {
    let mut t = [0; PieceKind::NUM];
    t[PieceKind::Pawn as usize] = 90;
    t[PieceKind::Lance as usize] = 252;
    t[PieceKind::Knight as usize] = 414;
    t[PieceKind::Silver as usize] = 576;
    t[PieceKind::Gold as usize] = 738;
    t[PieceKind::ProPawn as usize] = 738;
    t[PieceKind::ProLance as usize] = 738;
    t[PieceKind::ProKnight as usize] = 738;
    t[PieceKind::ProSilver as usize] = 738;
    t[PieceKind::Bishop as usize] = 900;
    t[PieceKind::Horse as usize] = 1062;
    t[PieceKind::Rook as usize] = 1224;
    t[PieceKind::Dragon as usize] = 1386;
    t
};

/// A piece as both sides see it: its Bona piece number from Black's view and
/// from White's, indexed by `Color::index`.
pub type Both = [u16; 2];

/// `color`'s `kind` standing on `sq`.
#[inline]
pub fn on_board(color: Color, kind: PieceKind, sq: Square) -> Both {
    let base = BOARD_BASE[kind.index()];
    let friend_or_enemy = |view: Color| if view == color { base } else { base + 81 };
    [
        friend_or_enemy(Color::Black) + sq.index() as u16,
        friend_or_enemy(Color::White) + sq.flip().index() as u16,
    ]
}

/// The `nth` (from 0) piece of `kind` in `color`'s hand.
#[inline]
pub fn in_hand(color: Color, kind: PieceKind, nth: u32) -> Both {
    let (friend, enemy) = HAND_BASE[kind.index()];
    let base = |view: Color| if view == color { friend } else { enemy };
    [base(Color::Black) + nth as u16, base(Color::White) + nth as u16]
}

/// The king square that goes with `view`'s features: its own king's, turned
/// round for White.
#[inline]
pub fn king_square(pos: &Position, view: Color) -> Option<usize> {
    let sq = pos.king_square(view)?;
    Some(match view {
        Color::Black => sq.index(),
        Color::White => sq.flip().index(),
    })
}

/// The feature of `piece` (a Bona piece number) with the viewing king on `king`.
#[inline]
pub fn index(king: usize, piece: u16) -> usize {
    king * PIECES + piece as usize
}

/// The 38 pieces of the set as both sides see them, padded with piece 0 for
/// those that are not in the position; `None` when the position is not made of
/// the standard set (a king missing, or more pieces of a kind than the set has),
/// which the network cannot evaluate.
pub fn pieces(pos: &Position) -> Option<[Both; SET]> {
    let mut out = [[0u16; 2]; SET];
    let mut n = 0;
    let mut per_kind = [0u32; PieceKind::NUM];
    for color in [Color::Black, Color::White] {
        pos.king_square(color)?;
        for kind in PieceKind::HAND {
            let count = pos.hand(color).count(kind);
            per_kind[kind.index()] += count;
            for nth in 0..count {
                *out.get_mut(n)? = in_hand(color, kind, nth);
                n += 1;
            }
        }
    }
    for sq in Square::all() {
        let piece = pos.piece_on(sq);
        let Some(kind) = piece.kind() else { continue };
        if kind == PieceKind::King {
            continue;
        }
        per_kind[kind.unpromote().index()] += 1;
        *out.get_mut(n)? = on_board(piece.color(), kind, sq);
        n += 1;
    }
    let fits = PieceKind::HAND.iter().all(|&k| per_kind[k.index()] <= u32::from(k.max_count()));
    fits.then_some(out)
}

/// What one move changes in the features: pieces that left a place (a square
/// or a rank in hand) and pieces that came to one, and whose king moved (that
/// side's features all change: its view is computed afresh).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Changes {
    pub removed: [Both; 2],
    pub added: [Both; 2],
    pub count: u8,
    pub king_moved: Option<Color>,
}

impl Changes {
    fn push(&mut self, removed: Both, added: Both) {
        let i = self.count as usize;
        self.removed[i] = removed;
        self.added[i] = added;
        self.count += 1;
    }

    /// The changes `m` makes, from the position before it.
    pub fn of_move(pos: &Position, m: shogi::Move) -> Changes {
        let mut changes = Changes::default();
        let us = pos.side_to_move();
        let to = m.to();
        if m.is_drop() {
            let kind = m.moved_kind();
            let held = pos.hand(us).count(kind);
            changes.push(in_hand(us, kind, held.saturating_sub(1)), on_board(us, kind, to));
            return changes;
        }
        let moved = m.moved_kind();
        if moved == PieceKind::King {
            changes.king_moved = Some(us);
        } else {
            changes.push(on_board(us, moved, m.from()), on_board(us, m.kind_after(), to));
        }
        if let Some(captured) = pos.piece_on(to).kind() {
            let kind = captured.unpromote();
            let held = pos.hand(us).count(kind);
            changes.push(on_board(us.flip(), captured, to), in_hand(us, kind, held));
        }
        changes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_position_has_the_whole_set_on_the_board() {
        let pieces = pieces(&Position::startpos()).unwrap();
        assert!(pieces.iter().all(|p| p[0] >= 90 && p[1] >= 90));
        // Black's pawn on 7g (file 7, rank g) is White's enemy pawn on 3c.
        let pawn = on_board(Color::Black, PieceKind::Pawn, Square::new(6, 6));
        assert_eq!(pawn, [90 + 6 * 9 + 6, 171 + 2 * 9 + 2]);
        assert!(pieces.contains(&pawn));
    }

    #[test]
    fn views_mirror_each_other() {
        // A position and its colour-flipped twin give each side the same features.
        let a = Position::from_sfen(
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2",
        )
        .unwrap();
        let b = Position::from_sfen(
            "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 2",
        )
        .unwrap();
        let mut pa: Vec<u16> = pieces(&a).unwrap().iter().map(|p| p[0]).collect();
        let mut pb: Vec<u16> = pieces(&b).unwrap().iter().map(|p| p[1]).collect();
        pa.sort_unstable();
        pb.sort_unstable();
        assert_eq!(pa, pb);
        assert_eq!(king_square(&a, Color::Black), king_square(&b, Color::White));
    }

    #[test]
    fn hands_are_numbered_by_count_and_missing_pieces_are_zero() {
        let pos = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b 2P 1").unwrap();
        let pieces = pieces(&pos).unwrap();
        assert_eq!(pieces[0], [1, 20]);
        assert_eq!(pieces[1], [2, 21]);
        assert!(pieces[2..].iter().all(|&p| p == [0, 0]));
        assert!(
            super::pieces(&Position::from_sfen("9/9/9/9/9/9/9/9/4K4 b 2P 1").unwrap()).is_none()
        );
    }

    /// Each move's changes turn the features before it into those after it.
    #[test]
    fn changes_follow_the_moves() {
        use shogi::movegen::{generate_legal, MoveList};
        let mut pos = Position::from_sfen(
            "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1",
        )
        .unwrap();
        let sorted = |pos: &Position, view: usize| {
            let mut v: Vec<u16> = pieces(pos).unwrap().iter().map(|p| p[view]).collect();
            v.sort_unstable();
            v
        };
        for _ in 0..2 {
            let mut list = MoveList::new();
            generate_legal(&pos, &mut list);
            for &m in list.as_slice() {
                let changes = Changes::of_move(&pos, m);
                let before = [sorted(&pos, 0), sorted(&pos, 1)];
                pos.do_move(m);
                let after = [sorted(&pos, 0), sorted(&pos, 1)];
                for view in 0..2 {
                    let mut v = before[view].clone();
                    for i in 0..changes.count as usize {
                        let at = v.iter().position(|&p| p == changes.removed[i][view]).unwrap();
                        v[at] = changes.added[i][view];
                    }
                    v.sort_unstable();
                    assert_eq!(v, after[view], "{m}");
                }
                pos.undo_move(m);
            }
            let mut list = MoveList::new();
            generate_legal(&pos, &mut list);
            pos.do_move(list.as_slice()[0]);
        }
    }
}
