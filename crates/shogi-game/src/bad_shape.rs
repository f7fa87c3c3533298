//! Bad shape (悪形): moves a strong player would not make because of the shape
//! they leave, though the evaluation barely notices — after KFEnd's 悪形チェック.
//!
//! A bad-shape move is judged by [`is_bad_shape`], a list of independent, narrow,
//! named [`Check`]s tried in the order of [`CHECKS`]; the first that fires gives
//! the answer. The checks are pure static conditions on the position before the
//! move and on the move itself: no search, no evaluation, cheap enough to be
//! called a few times per search (at the root), not per node. Whoever plays the
//! move decides what to do with the answer (KFEnd: when the search's best move is
//! bad shape and the best move that is not scores within a margin, play that one;
//! when the best move captures, only moves capturing the same piece qualify).
//!
//! Order (the checks and their exact conditions are in `bad_shape/checks.rs`): the
//! article's own examples first (a rook onto its pawn's head, a gold into the wall, a
//! rook to its own edge, shut in or to its own third rank, a king or gold leaving a
//! finished castle, a wall beside the king), then the other golds', silvers',
//! bishops', knights' and pawns' ugly moves, the rook beside its king, the king's
//! own moves, and last a pointless drop.
//!
//! Conventions:
//! - Every check is written once, for Black, in shogi coordinates as Black sees the
//!   board: [`Rel`] `file` 1..=9 (1 on Black's right, as in ▲26歩) and `rank`
//!   1..=9 (1 the far end, 9 the mover's own back rank). For White the board is
//!   turned round first (a square's relative coordinates are its 180° rotation's),
//!   so △92飛 is judged as ▲18飛 is. "Own camp" is ranks 7..=9, "own third rank"
//!   rank 7. Checks that concern one side of the board (castles, walls) also try
//!   the mirror image (file `f` ↔ `10 - f`) where noted.
//! - A capture is natural and is judged only by the checks that say so (the gold
//!   recapture into the wall, Figure 2 of KFEnd's bad-shape article); a side in check has no
//!   bad-shape move (the evasion is forced, and the answer is never "bad").
//! - A check may exempt a move with a visible purpose: a piece fleeing an attack
//!   ([`Shape::flees`]), one that hits a loose enemy piece
//!   ([`Shape::threatens_undefended`]), an edge piece aimed at the enemy king.
//! - Each check is deliberately narrow: measured with `kyobo shape --rates` on
//!   10,831 openings (24 plies) of strong engines' games, none fires on more than
//!   0.1% of the moves they played (all together 0.17% of all moves, 0.34% from
//!   ply 13 on). Those openings hardly reach finished castles, so the castle checks
//!   are measured there only as not firing on castle building.

mod checks;

pub use checks::CHECKS;

use shogi::attacks::{between, bishop_attacks, lance_attacks, piece_attacks, rook_attacks};
use shogi::{legal_moves, Bitboard, Color, Move, Piece, PieceKind, Position, Square};

/// A square in shogi coordinates as the mover sees the board (see the module doc).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rel {
    /// 1..=9; file 1 is on the mover's right.
    pub file: u8,
    /// 1..=9; rank 9 is the mover's own back rank.
    pub rank: u8,
}

impl Rel {
    pub const fn new(file: u8, rank: u8) -> Rel {
        Rel { file, rank }
    }

    /// `sq` as `us` sees it.
    pub fn of(sq: Square, us: Color) -> Rel {
        let sq = match us {
            Color::Black => sq,
            Color::White => sq.flip(),
        };
        Rel::new(sq.file() + 1, sq.rank() + 1)
    }

    /// The board square, or `None` off the board.
    pub fn square(self, us: Color) -> Option<Square> {
        if !(1..=9).contains(&self.file) || !(1..=9).contains(&self.rank) {
            return None;
        }
        let sq = Square::new(self.file - 1, self.rank - 1);
        Some(match us {
            Color::Black => sq,
            Color::White => sq.flip(),
        })
    }

    /// The square on the other wing (file `f` ↔ `10 - f`), or itself unless `mirror`.
    pub const fn mirrored(self, mirror: bool) -> Rel {
        if mirror {
            Rel::new(10 - self.file, self.rank)
        } else {
            self
        }
    }

    /// The square `files` to the left (towards file 9) and `ranks` backwards.
    pub const fn offset(self, files: i8, ranks: i8) -> Rel {
        Rel::new((self.file as i8 + files) as u8, (self.rank as i8 + ranks) as u8)
    }

    /// King steps between the two squares (Chebyshev distance).
    pub fn distance(self, other: Rel) -> u8 {
        self.file.abs_diff(other.file).max(self.rank.abs_diff(other.rank))
    }
}

/// Both the position before a move and the move, in the mover's coordinates.
pub struct Shape<'a> {
    pub pos: &'a Position,
    pub m: Move,
    pub us: Color,
    pub them: Color,
    /// The kind that moves, before any promotion (the dropped kind for a drop).
    pub kind: PieceKind,
    /// `None` for a drop.
    pub from: Option<Rel>,
    pub to: Rel,
    pub own_king: Option<Rel>,
    pub their_king: Option<Rel>,
    /// Occupancy after the move, all pieces and the mover's.
    pub occ_after: Bitboard,
    pub own_after: Bitboard,
}

impl<'a> Shape<'a> {
    /// `m` must be legal in `pos`.
    pub fn new(pos: &'a Position, m: Move) -> Shape<'a> {
        let us = pos.side_to_move();
        let to_bb = Bitboard::from_square(m.to());
        let from_bb = if m.is_drop() { Bitboard::EMPTY } else { Bitboard::from_square(m.from()) };
        Shape {
            pos,
            m,
            us,
            them: us.flip(),
            kind: m.moved_kind(),
            from: (!m.is_drop()).then(|| Rel::of(m.from(), us)),
            to: Rel::of(m.to(), us),
            own_king: pos.king_square(us).map(|k| Rel::of(k, us)),
            their_king: pos.king_square(us.flip()).map(|k| Rel::of(k, us)),
            occ_after: (pos.occupied() & !from_bb) | to_bb,
            own_after: (pos.pieces(us) & !from_bb) | to_bb,
        }
    }

    /// The piece on `r` before the move (empty off the board).
    pub fn piece(&self, r: Rel) -> Piece {
        r.square(self.us).map_or(Piece::EMPTY, |sq| self.pos.piece_on(sq))
    }

    /// Whether one of the mover's pieces of `kind` stands on `r` before the move.
    pub fn own(&self, r: Rel, kind: PieceKind) -> bool {
        self.piece(r) == Piece::new(self.us, kind)
    }

    /// Whether one of the opponent's pieces of `kind` stands on `r`.
    pub fn theirs(&self, r: Rel, kind: PieceKind) -> bool {
        self.piece(r) == Piece::new(self.them, kind)
    }

    /// The piece that stands on the destination after the move, of `kind`.
    pub fn lands(&self, kind: PieceKind) -> bool {
        self.m.kind_after() == kind
    }

    /// A board move (not a drop) of a piece of `kind` that does not promote.
    pub fn moves(&self, kind: PieceKind) -> bool {
        !self.m.is_drop() && self.kind == kind && !self.m.is_promotion()
    }

    /// The board move's origin (a drop has none: `Rel(0, 0)`).
    pub fn origin(&self) -> Rel {
        self.from.unwrap_or(Rel::new(0, 0))
    }

    /// Whether the mover's pieces stand on all these squares (mirrored if asked).
    pub fn has_all(&self, pieces: &[(u8, u8, PieceKind)], mirror: bool) -> bool {
        pieces.iter().all(|&(f, r, k)| self.own(Rel::new(f, r).mirrored(mirror), k))
    }

    /// The destination's absolute square.
    pub fn to_square(&self) -> Square {
        self.m.to()
    }

    /// Squares a slider of `kind` on `sq` could go to after the move (empty squares
    /// and the opponent's pieces).
    fn slider_room_after(&self, kind: PieceKind, sq: Square) -> Bitboard {
        let attacks = match kind {
            PieceKind::Rook => rook_attacks(sq, self.occ_after),
            _ => bishop_attacks(sq, self.occ_after),
        };
        attacks & !self.own_after
    }

    /// Whether the piece, on its destination, attacks an enemy piece that nothing
    /// defends: the move has a purpose (it threatens to win that piece).
    pub fn threatens_undefended(&self) -> bool {
        let to = self.to_square();
        let attacks = piece_attacks(self.us, self.m.kind_after(), to, self.occ_after);
        (attacks & self.pos.pieces(self.them))
            .into_iter()
            .any(|sq| !self.pos.is_attacked(self.them, sq, self.occ_after))
    }

    /// Whether the moving piece stands attacked before the move: it may be fleeing,
    /// and a flight is not a choice of shape.
    pub fn flees(&self) -> bool {
        !self.m.is_drop() && self.pos.is_attacked(self.them, self.m.from(), self.pos.occupied())
    }

    /// Whether the mover's king stands castled on a wing: on its own two back
    /// ranks, on files 1..=3 or 7..=9.
    pub fn king_castled(&self) -> bool {
        self.own_king.is_some_and(|k| k.rank >= 8 && (k.file <= 3 || k.file >= 7))
    }

    /// The mover's pieces pinned to its king if it stood on `ksq` with `occ`.
    fn pinned_with_king_on(&self, ksq: Square, occ: Bitboard, own: Bitboard) -> Bitboard {
        let enemy = self.pos.pieces(self.them);
        let lance_line = lance_attacks(self.us, ksq, Bitboard::EMPTY);
        let snipers = ((bishop_attacks(ksq, Bitboard::EMPTY) & self.pos.diagonal_sliders())
            | (rook_attacks(ksq, Bitboard::EMPTY) & self.pos.orthogonal_sliders())
            | (lance_line & self.pos.pieces_of_kind(PieceKind::Lance)))
            & enemy;
        let mut pinned = Bitboard::EMPTY;
        for sniper in snipers {
            let path = between(ksq, sniper) & occ;
            if path.is_nonempty() && !path.more_than_one() {
                pinned |= path & own;
            }
        }
        pinned
    }
}

/// One named bad-shape check.
pub struct Check {
    /// A short identifier (`rook_on_pawn_head`).
    pub name: &'static str,
    /// What is wrong with such a move, in one line.
    pub reason: &'static str,
    /// Whether the check judges captures too (most leave captures alone).
    pub captures: bool,
    /// Whether it fires on this move (legal in the position, mover not in check).
    pub test: fn(&Shape) -> bool,
}

impl std::fmt::Debug for Check {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name)
    }
}

/// The first check that calls `m` (legal in `pos`) bad shape, or `None`.
pub fn is_bad_shape(pos: &Position, m: Move) -> Option<&'static Check> {
    firing(pos, m).next()
}

/// Every check that calls `m` (legal in `pos`) bad shape, in order.
pub fn firing(pos: &Position, m: Move) -> impl Iterator<Item = &'static Check> + '_ {
    let shape = (!pos.in_check()).then(|| Shape::new(pos, m));
    CHECKS.iter().filter(move |c| shape.as_ref().is_some_and(|s| fires(c, s)))
}

/// Whether `check` fires on the move of `shape` (a capture only if it judges them).
fn fires(check: &Check, shape: &Shape) -> bool {
    (check.captures || !shape.m.is_capture()) && (check.test)(shape)
}

/// The legal moves of `pos` that are bad shape, each with the check that says so.
pub fn bad_moves(pos: &Position) -> Vec<(Move, &'static Check)> {
    legal_moves(pos).iter().filter_map(|&m| is_bad_shape(pos, m).map(|c| (m, c))).collect()
}

/// The check named `name`.
pub fn check_named(name: &str) -> Option<&'static Check> {
    CHECKS.iter().find(|c| c.name == name)
}

/// How often each check fires on the moves of a set of games.
#[derive(Clone, Debug, Default)]
pub struct Rates {
    /// Games whose moves were judged.
    pub games: u64,
    /// Moves judged.
    pub judged: u64,
    /// Moves some check called bad shape.
    pub bad: u64,
    /// Per check (in [`CHECKS`] order): moves it fires on, whether first or not.
    pub fired: Vec<u64>,
}

impl Rates {
    pub fn new() -> Rates {
        Rates { fired: vec![0; CHECKS.len()], ..Rates::default() }
    }

    /// Judges `m` (legal in `pos`).
    pub fn add(&mut self, pos: &Position, m: Move) {
        self.fired.resize(CHECKS.len(), 0);
        self.judged += 1;
        if pos.in_check() {
            return;
        }
        let shape = Shape::new(pos, m);
        let mut any = false;
        for (count, check) in self.fired.iter_mut().zip(&CHECKS) {
            if fires(check, &shape) {
                *count += 1;
                any = true;
            }
        }
        self.bad += u64::from(any);
    }

    /// Replays one game and judges its moves from the `from_ply`-th on (1: all).
    /// The moves must be legal in turn (as [`parse_record`] leaves them).
    pub fn add_game(&mut self, start: &Position, moves: &[Move], from_ply: usize) {
        let mut pos = start.clone();
        for (i, &m) in moves.iter().enumerate() {
            if i + 1 >= from_ply {
                self.add(&pos, m);
            }
            pos.do_move(m);
        }
        self.games += 1;
    }

    /// The percentage of judged moves that `n` is.
    pub fn percent(&self, n: u64) -> f64 {
        if self.judged == 0 {
            0.0
        } else {
            100.0 * n as f64 / self.judged as f64
        }
    }
}

/// A game record line, `startpos [moves M...]` or `sfen B S H [N] [moves M...]`
/// (a leading `position ` is allowed): the start and its moves, each legal.
pub fn parse_record(line: &str) -> Result<(Position, Vec<Move>), String> {
    let line = line.trim();
    let line = line.strip_prefix("position ").unwrap_or(line).trim_start();
    let (head, moves) = match line.split_once(" moves") {
        Some((head, rest)) if rest.is_empty() || rest.starts_with(char::is_whitespace) => {
            (head.trim(), rest)
        }
        _ => (line, ""),
    };
    let start = if head == "startpos" {
        Position::startpos()
    } else if let Some(sfen) = head.strip_prefix("sfen ") {
        Position::from_sfen(sfen.trim()).map_err(|e| format!("bad SFEN: {e}"))?
    } else {
        return Err("expected 'startpos' or 'sfen ...'".into());
    };
    let mut pos = start.clone();
    let mut list = Vec::new();
    for (i, text) in moves.split_whitespace().enumerate() {
        let m = pos.parse_usi_move(text).map_err(|e| format!("move {}: {e}", i + 1))?;
        pos.do_move(m);
        list.push(m);
    }
    Ok((start, list))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape_of(sfen: &str, mv: &str, test: impl FnOnce(&Shape)) {
        shogi::attacks::init();
        let pos = Position::from_sfen(sfen).unwrap();
        let m = pos.parse_usi_move(mv).unwrap();
        test(&Shape::new(&pos, m));
    }

    #[test]
    fn the_shape_of_a_white_move_is_seen_from_white() {
        // △84歩 is ▲26歩 turned round; White's king on 51 is on its back rank.
        let sfen = "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2";
        shape_of(sfen, "8c8d", |s| {
            assert_eq!((s.us, s.kind), (Color::White, PieceKind::Pawn));
            assert_eq!((s.origin(), s.to), (Rel::new(2, 7), Rel::new(2, 6)));
            assert_eq!(s.own_king, Some(Rel::new(5, 9)));
            assert_eq!(s.their_king, Some(Rel::new(5, 1)));
            assert!(s.own(Rel::new(2, 8), PieceKind::Rook));
            assert!(s.theirs(Rel::new(8, 2), PieceKind::Rook));
            assert!(s.moves(PieceKind::Pawn) && s.lands(PieceKind::Pawn));
            assert!(!s.flees() && !s.king_castled() && !s.threatens_undefended());
        });
    }

    #[test]
    fn a_drop_has_no_origin_and_fills_its_square() {
        let sfen = "lnsgk1snl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b G 1";
        shape_of(sfen, "G*5e", |s| {
            assert_eq!(s.from, None);
            assert!(!s.moves(PieceKind::Gold) && s.lands(PieceKind::Gold));
            assert!(s.occ_after.contains(s.to_square()) && s.own_after.contains(s.to_square()));
        });
    }

    #[test]
    fn threats_flights_and_pins_are_seen() {
        // White's bishop on 64 attacks the rook on 28: ▲18飛 flees.
        let attacked = "lnsgkgsnl/1r7/ppppppppp/3b5/9/6P2/PPPPPP1PP/1B5R1/LNSGKGSNL b - 1";
        shape_of(attacked, "2h1h", |s| assert!(s.flees()));
        // ▲36飛 hits the loose pawn on 34.
        let loose = "ln1gkgsnl/1r1s3b1/p1pppp2p/6pp1/1p7/7R1/PPPPPPP1P/1B7/LNSGKGSNL b P 1";
        shape_of(loose, "2f3f", |s| assert!(s.threatens_undefended()));
        // ▲68玉 puts the silver on 57 on the line of White's bishop on 24.
        let line = "lnsgkgsnl/1r7/pppppp1pp/6pb1/9/4P4/PPPPSPPPP/1BG4R1/LNSK1G1NL b - 1";
        shape_of(line, "6i6h", |s| {
            let pinned = s.pinned_with_king_on(s.to_square(), s.occ_after, s.own_after);
            assert_eq!(pinned.count(), 1);
            assert!(pinned.contains(Square::from_usi(b"5g").unwrap()));
        });
    }
}
