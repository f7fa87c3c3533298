//! Entering-king declaration (入玉宣言).
//!
//! The side to move may declare a win when its king stands in the enemy camp (the
//! three far ranks), it is not in check, at least ten of its other pieces stand in
//! that camp, and it has enough points counting those pieces and its whole hand:
//! bishop, rook (and their promotions) 5, every other piece 1.

use crate::bitboard::Bitboard;
use crate::position::Position;
use crate::types::{Color, PieceKind};

/// Which declaration rule is in force.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum EnteringKingRule {
    /// No declaration.
    None,
    /// CSA 27-point rule: Black needs 28 points, White 27.
    #[default]
    Point27,
    /// 24-point rule: 31 or more wins, 24 to 30 draws.
    Point24,
}

/// What a declaration would achieve now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Declaration {
    Win,
    Draw,
}

impl Position {
    /// Declaration points of `color`: its pieces in the enemy camp (king excluded)
    /// and its hand, majors 5 and the rest 1. Also returns the number of pieces.
    pub fn declaration_points(&self, color: Color) -> (u32, u32) {
        let zone = Bitboard::promotion_zone(color);
        let own = self.pieces(color) & zone & !self.pieces_of_kind(PieceKind::King);
        let majors = own & (self.diagonal_sliders() | self.orthogonal_sliders());
        let hand = self.hand(color);
        let hand_majors = hand.count(PieceKind::Bishop) + hand.count(PieceKind::Rook);
        let hand_total = hand.total();
        let points = own.count() + 4 * majors.count() + hand_total + 4 * hand_majors;
        (points, own.count())
    }

    /// Whether the side to move can declare, and with what result.
    pub fn declaration(&self, rule: EnteringKingRule) -> Option<Declaration> {
        if self.in_check() {
            return None;
        }
        self.declaration_for(self.side_to_move(), rule)
    }

    /// What `color` could declare on its turn as the pieces stand now (every
    /// condition but its being to move and out of check): a side that is not to
    /// move and could win this way threatens to win on its next move.
    pub fn declaration_for(&self, color: Color, rule: EnteringKingRule) -> Option<Declaration> {
        let ksq = self.king_square(color)?;
        if rule == EnteringKingRule::None || !Bitboard::promotion_zone(color).contains(ksq) {
            return None;
        }
        let (points, pieces) = self.declaration_points(color);
        if pieces < 10 {
            return None;
        }
        match rule {
            EnteringKingRule::Point27 => {
                let needed = if color == Color::Black { 28 } else { 27 };
                (points >= needed).then_some(Declaration::Win)
            }
            EnteringKingRule::Point24 => {
                if points >= 31 {
                    Some(Declaration::Win)
                } else if points >= 24 {
                    Some(Declaration::Draw)
                } else {
                    None
                }
            }
            EnteringKingRule::None => None,
        }
    }
}
