//! The bad-shape checks, in the order they are tried. Every one is written for
//! Black in Black's coordinates ([`Rel`]: file 1 on the right, rank 9 the own back
//! rank); White's moves reach them turned round. Each function's doc says exactly
//! when it fires; captures reach only the checks marked `captures: true`, and no
//! check sees a move made in check.

use super::{Check, Rel, Shape};
use shogi::attacks::{between, king_attacks, knight_attacks, piece_attacks, rook_attacks};
use shogi::{Bitboard, Color, PieceKind};

use PieceKind::{Bishop, Dragon, Gold, King, Knight, Lance, Pawn, Rook, Silver};

/// All checks, in the order they are tried.
pub static CHECKS: [Check; 24] = [
    Check {
        name: "rook_on_pawn_head",
        reason: "a rook brought onto the head of its own pawn, which then cannot advance (▲36飛 over ▲37歩)",
        captures: false,
        test: rook_on_pawn_head,
    },
    Check {
        name: "gold_into_wall",
        reason: "the gold steps up to 77 and leaves the silver a wall on 88 (▲77同金 where ▲77同銀 is normal)",
        captures: true,
        test: gold_into_wall,
    },
    Check {
        name: "rook_to_own_edge",
        reason: "a rook to the edge file of its own camp, where it neither attacks nor defends (△92飛, ▲18飛)",
        captures: false,
        test: rook_to_own_edge,
    },
    Check {
        name: "rook_shut_in",
        reason: "a piece steps next to its own rook and leaves it no square to go to (▲28銀 after ▲18飛)",
        captures: false,
        test: rook_shut_in,
    },
    Check {
        name: "rook_to_own_third_rank",
        reason: "a rook to its own third rank, where it works neither up the file nor along the rank (▲27飛)",
        captures: false,
        test: rook_to_own_third_rank,
    },
    Check {
        name: "king_leaves_castle",
        reason: "the king walks out of a finished castle without being checked (▲39玉, ▲48玉 from a Mino)",
        captures: false,
        test: king_leaves_castle,
    },
    Check {
        name: "castle_gold_leaves",
        reason: "the castle's key gold leaves its post (Mino's 49 gold other than to 58, Yagura's 78 gold)",
        captures: false,
        test: castle_gold_leaves,
    },
    Check {
        name: "wall_piece",
        reason: "a silver or gold steps onto 88 beside a king on 78/79 and walls in its escape (壁銀)",
        captures: false,
        test: wall_piece,
    },
    Check {
        name: "gold_leaves_king",
        reason: "a gold walks away from its castled king (from two squares or nearer to three or more)",
        captures: false,
        test: gold_leaves_king,
    },
    Check {
        name: "silver_on_pawn_head",
        reason: "a silver steps onto the head of its own advanced pawn, which then cannot advance",
        captures: false,
        test: silver_on_pawn_head,
    },
    Check {
        name: "gold_on_pawn_head",
        reason: "a gold steps onto the head of its own advanced pawn, which then cannot advance",
        captures: false,
        test: gold_on_pawn_head,
    },
    Check {
        name: "gold_to_front",
        reason: "a gold marches up to the fifth rank or beyond, far from the king it should guard",
        captures: false,
        test: gold_to_front,
    },
    Check {
        name: "guard_to_own_edge",
        reason: "a gold or silver to the edge file of its own camp, far from its king",
        captures: false,
        test: guard_to_own_edge,
    },
    Check {
        name: "silver_to_back_rank",
        reason: "a silver retreats to its own back rank, where it guards nothing ahead",
        captures: false,
        test: silver_to_back_rank,
    },
    Check {
        name: "bishop_buried",
        reason: "a bishop comes back (or is dropped) into its own wall, with two squares or fewer to go to",
        captures: false,
        test: bishop_buried,
    },
    Check {
        name: "bishop_to_own_edge",
        reason: "a bishop to the edge file of its own camp, where its one diagonal is blocked",
        captures: false,
        test: bishop_to_own_edge,
    },
    Check {
        name: "knight_to_pawn_head",
        reason: "a knight jumps in front of an enemy pawn, hitting no piece and not checking (桂の高跳び歩の餌食)",
        captures: false,
        test: knight_to_pawn_head,
    },
    Check {
        name: "knight_to_own_edge",
        reason: "a knight jumps to the edge file, away from the enemy king",
        captures: false,
        test: knight_to_own_edge,
    },
    Check {
        name: "anaguma_edge_pawn",
        reason: "the edge pawn in front of one's own Anaguma is pushed, opening the edge (穴熊の端歩は突くな)",
        captures: false,
        test: anaguma_edge_pawn,
    },
    Check {
        name: "rook_beside_king",
        reason: "a rook brought next to its own castled king, which then shares its fights (玉飛接近すべからず)",
        captures: false,
        test: rook_beside_king,
    },
    Check {
        name: "king_onto_rook_file",
        reason: "the king steps onto the enemy rook's file with no pawn of its own between them",
        captures: false,
        test: king_onto_rook_file,
    },
    Check {
        name: "king_walks_into_pin",
        reason: "the king steps behind one of its own pieces on an enemy slider's line and pins it",
        captures: false,
        test: king_walks_into_pin,
    },
    Check {
        name: "king_climbs_early",
        reason: "the king climbs to its own third rank or beyond while little has been exchanged",
        captures: false,
        test: king_climbs_early,
    },
    Check {
        name: "pointless_back_rank_drop",
        reason: "a piece dropped on its own back rank that guards nothing by its king, hits nothing, blocks nothing",
        captures: false,
        test: pointless_back_rank_drop,
    },
];

/// Figure 1: a rook moved sideways on ranks 4..=6 onto the square in front of its
/// own pawn (▲36飛 over ▲37歩), unless from there it attacks an undefended enemy
/// piece (相掛かり's ▲36飛 aiming at a loose pawn on 34). Retreats down the file
/// (横歩取り's ▲36飛 from 34) are left alone: the rook was chased.
fn rook_on_pawn_head(s: &Shape) -> bool {
    s.moves(Rook)
        && s.origin().rank == s.to.rank
        && (4..=6).contains(&s.to.rank)
        && s.own(s.to.offset(0, 1), Pawn)
        && !s.threatens_undefended()
}

/// Figure 2: a gold (capturing or not) to 77 while a silver stands on 88 and the
/// king is on that half of the board (files 5..=9); mirrored: 37 and 28.
fn gold_into_wall(s: &Shape) -> bool {
    s.moves(Gold)
        && [false, true].into_iter().any(|mirror| {
            s.to == Rel::new(7, 7).mirrored(mirror)
                && s.own(Rel::new(8, 8).mirrored(mirror), Silver)
                && s.own_king.is_some_and(|k| if mirror { k.file <= 5 } else { k.file >= 5 })
        })
}

/// Whether the opponent's king stands within two files of the edge at `file`: a
/// piece on that edge may then be aiming at it (an edge attack, 端攻め).
fn their_king_near_edge(s: &Shape, file: u8) -> bool {
    s.their_king.is_some_and(|k| k.file.abs_diff(file) <= 2)
}

/// Item 28 and Figure 3: a rook moved or dropped onto file 1 or 9 in its own camp
/// (ranks 7..=9), unless the enemy king is near that edge or the rook was attacked.
fn rook_to_own_edge(s: &Shape) -> bool {
    s.lands(Rook)
        && (s.to.file == 1 || s.to.file == 9)
        && s.to.rank >= 7
        && !their_king_near_edge(s, s.to.file)
        && !s.flees()
}

/// Figure 3: any move but the rook's after which an unpromoted rook of the mover's
/// in its own camp, which had a square to go to, has none.
fn rook_shut_in(s: &Shape) -> bool {
    s.kind != Rook
        && s.pos.pieces_of(s.us, Rook).into_iter().any(|sq| {
            Rel::of(sq, s.us).rank >= 7
                && (rook_attacks(sq, s.pos.occupied()) & !s.pos.pieces(s.us)).is_nonempty()
                && s.slider_room_after(Rook, sq).is_empty()
        })
}

/// Item 19: a rook moved or dropped onto rank 7 (▲27飛), unless it was attacked.
fn rook_to_own_third_rank(s: &Shape) -> bool {
    s.lands(Rook) && s.to.rank == 7 && !s.flees()
}

/// A finished castle: the king's square in it, the guards that make it (seen from
/// Black, tried mirrored too), and the one way out that improves it, if any.
struct Castle {
    king: Rel,
    guards: &'static [(u8, u8, PieceKind)],
    exit: Option<Rel>,
}

const CASTLES: [Castle; 3] = [
    // Mino (美濃): king 28, silver 38, gold 49; on to Mino-Anaguma by ▲19玉.
    Castle {
        king: Rel::new(2, 8),
        guards: &[(3, 8, Silver), (4, 9, Gold)],
        exit: Some(Rel::new(1, 9)),
    },
    // Yagura (矢倉): king 88, silver 77, gold 78; on to Yagura-Anaguma by ▲99玉.
    Castle {
        king: Rel::new(8, 8),
        guards: &[(7, 7, Silver), (7, 8, Gold)],
        exit: Some(Rel::new(9, 9)),
    },
    // Anaguma (穴熊): king 99, lance 98, silver 88.
    Castle { king: Rel::new(9, 9), guards: &[(9, 8, Lance), (8, 8, Silver)], exit: None },
];

/// Figure 4: the king, on or next to a castle's king square with the castle's
/// guards in place, steps farther from that square — other than into the corner
/// the castle grows into (Mino ▲28玉-▲39玉 and then ▲39玉-▲48玉; not ▲19玉).
fn king_leaves_castle(s: &Shape) -> bool {
    s.moves(King)
        && CASTLES.iter().any(|castle| {
            [false, true].into_iter().any(|mirror| {
                let home = castle.king.mirrored(mirror);
                let (from, to) = (s.origin().distance(home), s.to.distance(home));
                from <= 1
                    && to > from
                    && s.has_all(castle.guards, mirror)
                    && castle.exit.is_none_or(|exit| s.to != exit.mirrored(mirror))
            })
        })
}

/// A Mino's gold on 49 (king 28, silver 38) moved anywhere but 58 (高美濃), or a
/// Yagura's gold on 78 (king 88, silver 77) moved at all; mirrored too.
fn castle_gold_leaves(s: &Shape) -> bool {
    s.moves(Gold)
        && [false, true].into_iter().any(|mirror| {
            let at = |f, r| Rel::new(f, r).mirrored(mirror);
            let built = |c: &Castle| {
                s.own(c.king.mirrored(mirror), King) && s.has_all(&c.guards[..1], mirror)
            };
            let mino = s.origin() == at(4, 9) && built(&CASTLES[0]) && s.to != at(5, 8);
            let yagura = s.origin() == at(7, 8) && built(&CASTLES[1]);
            mino || yagura
        })
}

/// A silver or gold to 88 while the king stands on 78 or 79 (mirrored: 28 beside
/// 38/39), unless a bishop is in hand (then 88 may need guarding against its drop).
fn wall_piece(s: &Shape) -> bool {
    (s.moves(Silver) || s.moves(Gold))
        && [false, true].into_iter().any(|mirror| {
            let at = |f, r| Rel::new(f, r).mirrored(mirror);
            s.to == at(8, 8) && s.own_king.is_some_and(|k| [at(7, 8), at(7, 9)].contains(&k))
        })
        && !s.pos.hand(Color::Black).has(Bishop)
        && !s.pos.hand(Color::White).has(Bishop)
}

/// A gold of a king castled on a wing ([`Shape::king_castled`]) from two squares
/// of it or nearer to three or more, unless it lands next to another gold or silver
/// within two squares of the king (高美濃's ▲58金 beside the gold on 47).
fn gold_leaves_king(s: &Shape) -> bool {
    let Some(king) = s.own_king else {
        return false;
    };
    let joined = || {
        (king_attacks(s.to_square())
            & (s.pos.pieces_of(s.us, Gold) | s.pos.pieces_of(s.us, Silver)))
        .into_iter()
        .any(|sq| sq != s.m.from() && Rel::of(sq, s.us).distance(king) <= 2)
    };
    s.moves(Gold)
        && s.king_castled()
        && s.origin().distance(king) <= 2
        && s.to.distance(king) >= 3
        && !joined()
}

/// A silver to rank 5 with its own pawn right behind it on rank 6 (腰掛け銀, the
/// silver on rank 6 over a pawn on 7, is normal and not judged).
fn silver_on_pawn_head(s: &Shape) -> bool {
    s.moves(Silver) && s.to.rank == 5 && s.own(s.to.offset(0, 1), Pawn)
}

/// A gold to rank 5 with its own pawn right behind it on rank 6.
fn gold_on_pawn_head(s: &Shape) -> bool {
    s.moves(Gold) && s.to.rank == 5 && s.own(s.to.offset(0, 1), Pawn)
}

/// A gold moving forward onto rank 5 or beyond.
fn gold_to_front(s: &Shape) -> bool {
    s.moves(Gold) && s.to.rank <= 5 && s.origin().rank > s.to.rank
}

/// A gold or silver to file 1 or 9 in its own camp while its king is three files
/// or more from that edge.
fn guard_to_own_edge(s: &Shape) -> bool {
    (s.moves(Gold) || s.moves(Silver))
        && (s.to.file == 1 || s.to.file == 9)
        && s.to.rank >= 7
        && s.own_king.is_some_and(|k| k.file.abs_diff(s.to.file) > 2)
}

/// A silver moving back onto rank 9.
fn silver_to_back_rank(s: &Shape) -> bool {
    s.moves(Silver) && s.to.rank == 9
}

/// A bishop dropped on ranks 8..=9, or moved there from rank 7 or beyond (not a
/// shuffle inside the back two ranks, such as 矢倉's ▲79角), that then has two
/// squares or fewer to go to.
fn bishop_buried(s: &Shape) -> bool {
    s.lands(Bishop)
        && s.to.rank >= 8
        && s.from.is_none_or(|f| f.rank <= 7)
        && s.slider_room_after(Bishop, s.to_square()).count() <= 2
}

/// A bishop moved or dropped onto file 1 or 9 in its own camp with two squares or
/// fewer to go to (▲97角 with its diagonal open, aiming at 53, is not judged),
/// unless the enemy king is near that edge or the bishop was attacked.
fn bishop_to_own_edge(s: &Shape) -> bool {
    s.lands(Bishop)
        && (s.to.file == 1 || s.to.file == 9)
        && s.to.rank >= 7
        && s.slider_room_after(Bishop, s.to_square()).count() <= 2
        && !their_king_near_edge(s, s.to.file)
        && !s.flees()
}

/// A knight (not promoting) jumps to the square in front of an enemy pawn, where
/// it attacks no enemy piece but pawns and gives no check.
fn knight_to_pawn_head(s: &Shape) -> bool {
    if !s.moves(Knight) || s.to.rank < 2 || !s.theirs(s.to.offset(0, -1), Pawn) {
        return false;
    }
    let them = s.pos.pieces(s.them) & !s.pos.pieces_of(s.them, Pawn);
    (knight_attacks(s.us, s.to_square()) & them).is_empty() && !s.pos.gives_check(s.m)
}

/// A knight (not promoting) to file 1 or 9 on ranks 6..=9 (▲97桂, ▲17桂) unless
/// the enemy king is near that edge.
fn knight_to_own_edge(s: &Shape) -> bool {
    s.moves(Knight)
        && (s.to.file == 1 || s.to.file == 9)
        && s.to.rank >= 6
        && !their_king_near_edge(s, s.to.file)
}

/// An edge pawn on rank 7 or 6 pushed while the king stands in that corner (99 or
/// 19).
fn anaguma_edge_pawn(s: &Shape) -> bool {
    s.moves(Pawn)
        && (s.origin().file == 1 || s.origin().file == 9)
        && s.origin().rank >= 6
        && s.own_king == Some(Rel::new(s.origin().file, 9))
}

/// A rook moved next to its king castled on a wing from two squares away or more
/// (中飛車's ▲58飛 beside a king still on 59 is not judged).
fn rook_beside_king(s: &Shape) -> bool {
    s.moves(Rook)
        && s.king_castled()
        && s.own_king.is_some_and(|k| s.to.distance(k) <= 1 && s.origin().distance(k) >= 2)
}

/// The king moves onto another file where an enemy rook or dragon stands with no
/// pawn of the mover's between them.
fn king_onto_rook_file(s: &Shape) -> bool {
    if !s.moves(King) || s.origin().file == s.to.file {
        return false;
    }
    let to = s.to_square();
    let rooks = (s.pos.pieces_of(s.them, Rook) | s.pos.pieces_of(s.them, Dragon))
        & Bitboard::file(to.file());
    let own_pawns = s.pos.pieces_of(s.us, Pawn);
    rooks.into_iter().any(|r| (between(to, r) & own_pawns).is_empty())
}

/// A king move after which a piece of the mover's other than a pawn is pinned to
/// the king that was not pinned before.
fn king_walks_into_pin(s: &Shape) -> bool {
    if !s.moves(King) {
        return false;
    }
    let to = s.to_square();
    let own = s.own_after & !Bitboard::from_square(to);
    let pinned = s.pinned_with_king_on(to, s.occ_after, own);
    (pinned & !s.pos.pinned(s.us) & !s.pos.pieces_of(s.us, Pawn)).is_nonempty()
}

/// The king moving from rank 8 or 9 up to rank 7 or beyond while both hands hold
/// two pieces or fewer together, unless it climbs onto its own bishop's head
/// (天守閣美濃: ▲87玉 over the bishop on 88; mirrored too).
fn king_climbs_early(s: &Shape) -> bool {
    let tenshukaku = [false, true].into_iter().any(|mirror| {
        s.to == Rel::new(8, 7).mirrored(mirror) && s.own(Rel::new(8, 8).mirrored(mirror), Bishop)
    });
    s.moves(King)
        && s.to.rank <= 7
        && s.origin().rank >= 8
        && !tenshukaku
        && s.pos.hand(Color::Black).total() + s.pos.hand(Color::White).total() <= 2
}

/// A drop on rank 9 of a piece that attacks neither its king's square nor any
/// square next to it nor any enemy piece, on a square no enemy piece attacks (so it
/// blocks no attack either: 底歩 against a dragon is not judged).
fn pointless_back_rank_drop(s: &Shape) -> bool {
    if !s.m.is_drop() || s.to.rank != 9 {
        return false;
    }
    let Some(ksq) = s.pos.king_square(s.us) else {
        return false;
    };
    let to = s.to_square();
    let attacks = piece_attacks(s.us, s.kind, to, s.occ_after);
    let near_king = king_attacks(ksq) | Bitboard::from_square(ksq);
    (attacks & (near_king | s.pos.pieces(s.them))).is_empty()
        && !s.pos.is_attacked(s.them, to, s.pos.occupied())
}
