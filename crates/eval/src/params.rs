//! The tunable weights as one flat vector, and each position as the counts of the
//! features those weights multiply (for the Texel tuner in `kyobo-lab tune`).
//!
//! The material, piece-square, hand, king-proximity, king-zone, mobility, threat and tempo
//! terms are linear in their weights: `evaluate` from Black's side equals
//! `Σ weight × count` plus the king-danger terms, which are kept fixed while tuning
//! ([`Features::fixed`]). A test checks the identity against [`crate::evaluate`] along
//! random games, so the tuner and the engine cannot drift apart.

use crate::king_safety::{for_each_placed_piece, king_danger, PLACES};
use crate::king_zone::{
    for_each_zone_feature, ZoneFeature, BOX_PLACES, BOX_STATES, HAND_STATES, ZONE_PLACES,
};
use crate::mobility::{for_each_slider, MAX_MOBILITY, SLIDERS};
use crate::threats::threatened_pieces;
use crate::weights::*;

/// Squares of one side of the board, centre file included (`PIECE_SQUARE` columns).
pub const SQUARES_MIRRORED: usize = 45;

/// `sq` as Black sees it with the board mirrored left to right: distance from the
/// nearer edge file (0-4) × 9 + rank (0: Black's far rank).
#[inline]
pub fn mirrored_square(sq: Square) -> usize {
    let file = sq.file() as usize;
    file.min(8 - file) * 9 + sq.relative_rank(Color::Black) as usize
}
use shogi::{Color, PieceKind, Position, Square};
use std::fmt::Write;

/// One table of weights: its Rust name and doc line, its shape (rows × columns; a
/// plain constant is 0 × 1) and where it starts in the flat vector.
pub struct Table {
    pub name: &'static str,
    pub doc: &'static str,
    pub rows: usize,
    pub cols: usize,
    pub offset: usize,
}

impl Table {
    pub fn len(&self) -> usize {
        self.rows.max(1) * self.cols
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

const fn table(
    name: &'static str,
    doc: &'static str,
    rows: usize,
    cols: usize,
    offset: usize,
) -> Table {
    Table { name, doc, rows, cols, offset }
}

pub const PV: usize = 0;
pub const HB: usize = PV + 15;
pub const RB: usize = HB + 7 * 4;
pub const KR: usize = RB + 8 * 9;
pub const KF: usize = KR + 9;
pub const MF: usize = KF + 5;
pub const PR: usize = MF + 5;
pub const OKP: usize = PR + 9;
pub const EKP: usize = OKP + 15 * PLACES;
pub const MOB: usize = EKP + 15 * PLACES;
pub const PS: usize = MOB + SLIDERS.len() * (MAX_MOBILITY + 1);
pub const ZW: usize = PS + 15 * SQUARES_MIRRORED;
pub const ZC: usize = ZW + ZONE_PLACES;
pub const WC: usize = ZC + ZONE_PLACES;
pub const ES: usize = WC + HAND_STATES * 9;
pub const KB: usize = ES + 9;
pub const TF: usize = KB + BOX_PLACES * BOX_STATES;
pub const TS: usize = TF + 15;
pub const TEMPO_AT: usize = TS + 15;
/// Number of tunable weights.
pub const N: usize = TEMPO_AT + 1;

pub const TABLES: [Table; 19] = [
    table(
        "PIECE_VALUE",
        "Board value by `PieceKind` index (0 unused, king 0: it is never captured); \
         pieces in hand count the unpromoted value plus `HAND_BONUS`.",
        0,
        15,
        PV,
    ),
    table(
        "HAND_BONUS",
        "Extra for the 1st, 2nd, 3rd, 4th-and-later piece in hand of a kind, by hand kind \
         (pawn, lance, knight, silver, gold, bishop, rook).",
        7,
        4,
        HB,
    ),
    table(
        "RANK_BONUS",
        "Unpromoted pieces by rank as the owner sees it (0: far rank, 8: home), by kind index.",
        8,
        9,
        RB,
    ),
    table("KING_RANK", "King by rank as its owner sees it.", 0, 9, KR),
    table("KING_FILE", "King by file distance from the centre (0: centre, 4: edge).", 0, 5, KF),
    table(
        "MINOR_FILE",
        "Knight, silver, gold and promoted minors by file distance from the centre.",
        0,
        5,
        MF,
    ),
    table("PROMOTED_RANK", "Promoted pieces by rank as the owner sees it.", 0, 9, PR),
    table(
        "OWN_KING_PLACE",
        "Pieces by kind and place relative to their own king, as their owner sees it: file \
         distance (0-8) × 17 + rank offset + 8 (-8: towards the enemy).",
        15,
        PLACES,
        OKP,
    ),
    table(
        "ENEMY_KING_PLACE",
        "Pieces by kind and place relative to the enemy king, indexed as in `OWN_KING_PLACE`.",
        15,
        PLACES,
        EKP,
    ),
    table(
        "SLIDER_MOBILITY",
        "Lance, bishop, rook, horse, dragon by the number of squares it can move to (16 = 16+).",
        SLIDERS.len(),
        MAX_MOBILITY + 1,
        MOB,
    ),
    table(
        "PIECE_SQUARE",
        "Every piece by kind and square as its owner sees it, the board mirrored left to right: \
         distance from the nearer edge file (0-4) × 9 + rank (0: far rank), on top of the \
         per-rank and per-file tables above.",
        15,
        SQUARES_MIRRORED,
        PS,
    ),
    table(
        "ZONE_WEAK",
        "Squares next to a king that the enemy attacks more often than they are defended, by \
         class as the king's owner sees them (front, front diagonal, beside, behind, back \
         diagonal), from the king's owner's side.",
        0,
        ZONE_PLACES,
        ZW,
    ),
    table(
        "ZONE_CONTESTED",
        "Squares next to a king that the enemy attacks without outnumbering the defence, by \
         class as in `ZONE_WEAK`.",
        0,
        ZONE_PLACES,
        ZC,
    ),
    table(
        "WEAK_COUNT",
        "Number of weak squares next to a king (0-8), by whether the enemy holds a piece \
         other than pawns in hand.",
        HAND_STATES,
        9,
        WC,
    ),
    table(
        "ESCAPE_SQUARES",
        "Number of squares the king can step to (not its own side's, not attacked), 0-8.",
        0,
        9,
        ES,
    ),
    table(
        "KING_BOX",
        "Each square of the 5x5 box around a king by place ((rank offset + 2) × 3 + file \
         distance, as the king's owner sees it) and state (the attacker holds more than pawns \
         in hand × 27 + the attacker's hits (0-2+) × 9 + the defender's × 3 + what stands on \
         it: empty, own, enemy), from the king's owner's side.",
        BOX_PLACES,
        BOX_STATES,
        KB,
    ),
    table(
        "THREAT_FIRST",
        "The side to move's most valuable piece that a cheaper enemy piece attacks, or that is \
         attacked and undefended, by kind, from the side to move's side.",
        0,
        15,
        TF,
    ),
    table(
        "THREAT_SECOND",
        "The second most valuable such piece (a fork: only one can be saved), by kind.",
        0,
        15,
        TS,
    ),
    table("TEMPO", "Having the move.", 0, 1, TEMPO_AT),
];

/// A module's weight tables (`crate::weights` or one of its submodules, written as
/// a path prefix ending in `::`) as a flat vector in [`TABLES`] order.
macro_rules! flat {
    ($($m:tt)*) => {{
        let mut w = Vec::with_capacity(N);
        w.extend_from_slice(&$($m)*PIECE_VALUE);
        $($m)*HAND_BONUS.iter().for_each(|r| w.extend_from_slice(r));
        $($m)*RANK_BONUS.iter().for_each(|r| w.extend_from_slice(r));
        w.extend_from_slice(&$($m)*KING_RANK);
        w.extend_from_slice(&$($m)*KING_FILE);
        w.extend_from_slice(&$($m)*MINOR_FILE);
        w.extend_from_slice(&$($m)*PROMOTED_RANK);
        $($m)*OWN_KING_PLACE.iter().for_each(|r| w.extend_from_slice(r));
        $($m)*ENEMY_KING_PLACE.iter().for_each(|r| w.extend_from_slice(r));
        $($m)*SLIDER_MOBILITY.iter().for_each(|r| w.extend_from_slice(r));
        $($m)*PIECE_SQUARE.iter().for_each(|r| w.extend_from_slice(r));
        w.extend_from_slice(&$($m)*ZONE_WEAK);
        w.extend_from_slice(&$($m)*ZONE_CONTESTED);
        $($m)*WEAK_COUNT.iter().for_each(|r| w.extend_from_slice(r));
        w.extend_from_slice(&$($m)*ESCAPE_SQUARES);
        $($m)*KING_BOX.iter().for_each(|r| w.extend_from_slice(r));
        w.extend_from_slice(&$($m)*THREAT_FIRST);
        w.extend_from_slice(&$($m)*THREAT_SECOND);
        w.push($($m)*TEMPO);
        assert_eq!(w.len(), N);
        w
    }};
}

/// The compiled-in weights as a flat vector.
pub fn current() -> Vec<i32> {
    flat!(crate::weights::)
}

/// The compiled-in phase weights (`crate::weights::phase`) as a flat vector.
pub fn phase() -> Vec<i32> {
    flat!(crate::weights::phase::)
}

/// The compiled-in progress model (`crate::weights::progress`) as a flat vector.
pub fn progress() -> Vec<i32> {
    flat!(crate::weights::progress::)
}

/// Whether weight `i` belongs to the material, piece-square and hand tables: the
/// terms kept incrementally, over which the progress model is fitted.
pub fn is_incremental(i: usize) -> bool {
    i < OKP || (PS..ZW).contains(&i)
}

/// Name of weight `i`, e.g. `RANK_BONUS[3][0]`.
pub fn name(i: usize) -> String {
    let t = TABLES.iter().find(|t| i >= t.offset && i < t.offset + t.len()).expect("index");
    let j = i - t.offset;
    match (t.rows, t.cols) {
        (0, 1) => t.name.to_string(),
        (0, _) => format!("{}[{j}]", t.name),
        _ => format!("{}[{}][{}]", t.name, j / t.cols, j % t.cols),
    }
}

/// The weights as the Rust source of `tuned_weights.rs`.
pub fn to_rust(w: &[i32], header: &str) -> String {
    let mut s = String::new();
    for line in header.lines() {
        let _ = writeln!(s, "// {line}");
    }
    for t in &TABLES {
        s.push('\n');
        let mut line = String::new();
        for word in t.doc.split_whitespace() {
            if !line.is_empty() && line.len() + word.len() > 88 {
                let _ = writeln!(s, "/// {line}");
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(word);
        }
        let _ = writeln!(s, "/// {line}");
        let v = &w[t.offset..t.offset + t.len()];
        let row = |r: &[i32]| r.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(", ");
        match (t.rows, t.cols) {
            (0, 1) => {
                let _ = writeln!(s, "pub const {}: i32 = {};", t.name, v[0]);
            }
            (0, n) => {
                let _ = writeln!(s, "pub const {}: [i32; {n}] = [{}];", t.name, row(v));
            }
            (m, n) => {
                let _ = writeln!(s, "pub const {}: [[i32; {n}]; {m}] = [", t.name);
                for r in v.chunks(n) {
                    let _ = writeln!(s, "    [{}],", row(r));
                }
                let _ = writeln!(s, "];");
            }
        }
    }
    s
}

/// A position as sparse feature counts from Black's point of view, plus the part
/// of the evaluation that is not tuned.
#[derive(Clone, Debug, Default)]
pub struct Features {
    pub counts: Vec<(u16, i16)>,
    /// King danger (Black's side), not linear in any tuned weight.
    pub fixed: i32,
}

impl Features {
    /// The evaluation from Black's side with weights `w`.
    pub fn eval(&self, w: &[f64]) -> f64 {
        self.fixed as f64 + self.counts.iter().map(|&(i, c)| w[i as usize] * c as f64).sum::<f64>()
    }
}

/// Indices of the weights a piece of `kind` of Black's on `sq` adds (material and
/// piece-square, as `incremental::black_piece_square` sums them).
pub fn piece_square_indices(kind: PieceKind, sq: Square, out: &mut Vec<usize>) {
    let rank = sq.relative_rank(Color::Black) as usize;
    let ffc = (sq.file() as i32 - 4).unsigned_abs() as usize;
    out.push(PV + kind.index());
    out.push(PS + kind.index() * SQUARES_MIRRORED + mirrored_square(sq));
    match kind {
        PieceKind::King => {
            out.push(KR + rank);
            out.push(KF + ffc);
        }
        k if k.is_promoted() => {
            out.push(PR + rank);
            if k != PieceKind::Horse && k != PieceKind::Dragon {
                out.push(MF + ffc);
            }
        }
        k => {
            out.push(RB + k.index() * 9 + rank);
            if matches!(k, PieceKind::Silver | PieceKind::Gold | PieceKind::Knight) {
                out.push(MF + ffc);
            }
        }
    }
}

/// Indices (with multiplicity) of the weights `count` pieces of `kind` in hand add.
pub fn hand_indices(kind: PieceKind, count: u32, out: &mut Vec<usize>) {
    for n in 0..count as usize {
        out.push(PV + kind.index());
        out.push(HB + hand_index(kind) * 4 + n.min(3));
    }
}

/// The features of `pos` from Black's point of view (White's pieces count -1).
pub fn features(pos: &Position) -> Features {
    features_with(pos, true)
}

/// The material, piece-square and hand features of `pos` with both sides' pieces
/// counted +1, and no king danger: the progress model, which is the same from either
/// side, is linear in these (see `crate::weights::progress` and `kyobo-lab tune`,
/// `--progress-features`). They are the incremental ones, so the engine keeps the
/// progress move by move.
pub fn progress_features(pos: &Position) -> Features {
    let mut f = features_with(pos, false);
    f.counts.retain(|&(i, _)| is_incremental(i as usize));
    f
}

/// The progress model's sum for `pos` with the flat weights `model` (the engine's:
/// [`progress`]); the phase is [`crate::phase::phase_of`] it.
pub fn progress_sum(pos: &Position, model: &[i32]) -> i32 {
    progress_features(pos).counts.iter().map(|&(i, c)| model[i as usize] * c as i32).sum()
}

/// `f` with every feature repeated as a phase feature (index + N), its count scaled
/// by the phase in 64ths: the weights of the phase features are the phase weights
/// divided by 64 ([`crate::phase::PHASE_STEPS`]).
pub fn with_phase(mut f: Features, steps: i32) -> Features {
    let phase: Vec<(u16, i16)> =
        f.counts.iter().map(|&(i, c)| (i + N as u16, c * steps as i16)).collect();
    f.counts.extend(phase);
    f
}

/// The features of `pos` with their phase features at the engine's phase: the
/// evaluation is their sum with [`current`] and [`phase`] / 64 as weights.
pub fn phased_features(pos: &Position) -> Features {
    let steps = crate::phase::phase_of(progress_sum(pos, &progress()));
    with_phase(features(pos), steps)
}

fn features_with(pos: &Position, signed: bool) -> Features {
    let sign_of = |s: i16| if signed { s } else { 1 };
    let mut dense = [0i16; N];
    let mut idx = Vec::with_capacity(8);
    for sq in Square::all() {
        let p = pos.piece_on(sq);
        if let Some(kind) = p.kind() {
            idx.clear();
            let (s, sign) = match p.color() {
                Color::Black => (sq, 1),
                Color::White => (sq.flip(), -1),
            };
            piece_square_indices(kind, s, &mut idx);
            idx.iter().for_each(|&i| dense[i] += sign_of(sign));
        }
    }
    for color in Color::ALL {
        let sign = if color == Color::Black { 1 } else { -1 };
        for &kind in &PieceKind::HAND {
            idx.clear();
            hand_indices(kind, pos.hand(color).count(kind), &mut idx);
            idx.iter().for_each(|&i| dense[i] += sign_of(sign));
        }
    }
    for_each_placed_piece(pos, |kind, own_place, enemy_place, sign| {
        dense[OKP + kind * PLACES + own_place] += sign_of(sign as i16);
        dense[EKP + kind * PLACES + enemy_place] += sign_of(sign as i16);
    });
    for_each_slider(pos, |row, squares, sign| {
        dense[MOB + row * (MAX_MOBILITY + 1) + squares] += sign_of(sign as i16)
    });
    for_each_zone_feature(pos, |f, sign| {
        let i = match f {
            ZoneFeature::Weak(p) => ZW + p,
            ZoneFeature::Contested(p) => ZC + p,
            ZoneFeature::WeakCount(h, n) => WC + h * 9 + n,
            ZoneFeature::Escapes(n) => ES + n,
            ZoneFeature::Box(p, s) => KB + p * BOX_STATES + s,
        };
        dense[i] += sign_of(sign as i16);
    });
    let stm_sign = sign_of(if pos.side_to_move() == Color::Black { 1 } else { -1 });
    let (first, second) = threatened_pieces(pos);
    if let Some(k) = first {
        dense[TF + k.index()] += stm_sign;
    }
    if let Some(k) = second {
        dense[TS + k.index()] += stm_sign;
    }
    dense[TEMPO_AT] = stm_sign;
    let counts =
        dense.iter().enumerate().filter(|(_, &c)| c != 0).map(|(i, &c)| (i as u16, c)).collect();
    let fixed =
        if signed { king_danger(pos, Color::White) - king_danger(pos, Color::Black) } else { 0 };
    Features { counts, fixed }
}

/// The flat weights in Rust source as [`to_rust`] writes it (`tuned_weights.rs`, or
/// a model fitted on other data), or `None` if a table is missing or short.
pub fn parse_weights(src: &str) -> Option<Vec<i32>> {
    let mut w = Vec::with_capacity(N);
    for t in &TABLES {
        let start = src.find(&format!("pub const {}:", t.name))?;
        let rest = &src[start..];
        // The values: after the `=`, up to the `;` that ends the item.
        let values = &rest[rest.find('=')? + 1..];
        let values = &values[..values.find(';')?];
        let numbers: Vec<i32> = values
            .split(|c: char| !(c == '-' || c.is_ascii_digit()))
            .filter(|x| !x.is_empty())
            .map(|x| x.parse().ok())
            .collect::<Option<_>>()?;
        if numbers.len() != t.len() {
            return None;
        }
        w.extend(numbers);
    }
    Some(w)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::incremental::full;
    use shogi::legal_moves;

    #[test]
    fn the_flat_weights_round_trip_through_the_rust_source() {
        let w = current();
        let src = to_rust(&w, "test");
        assert!(src.contains("pub const PIECE_VALUE: [i32; 15]"));
        assert!(src.contains(&format!("pub const TEMPO: i32 = {TEMPO};")));
        assert_eq!(name(RB + 3 * 9), "RANK_BONUS[3][0]");
        assert_eq!(name(TEMPO_AT), "TEMPO");
        assert_eq!(parse_weights(&src), Some(w));
        assert_eq!(parse_weights("pub const TEMPO: i32 = 1;"), None);
    }

    #[test]
    fn progress_features_are_the_same_from_either_side() {
        // In the start position both sides' counts cancel when signed and add up when
        // not, and it does not matter who is to move.
        let pos = Position::startpos();
        let signed = features(&pos);
        let unsigned = progress_features(&pos);
        let count =
            |f: &Features, i: usize| f.counts.iter().find(|c| c.0 as usize == i).map(|c| c.1);
        assert_eq!(count(&signed, PV + PieceKind::Pawn.index()), None);
        assert_eq!(count(&unsigned, PV + PieceKind::Pawn.index()), Some(18));
        assert_eq!(unsigned.fixed, 0);
        let flipped =
            Position::from_sfen("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1")
                .unwrap();
        let mut a = progress_features(&flipped).counts;
        let mut b = unsigned.counts.clone();
        a.sort();
        b.sort();
        // Only the side to move's terms (threats, tempo) could differ; none here.
        assert_eq!(a, b);
    }

    #[test]
    fn the_progress_is_kept_incrementally() {
        let model = progress();
        assert!(model.iter().enumerate().all(|(i, &w)| w == 0 || is_incremental(i)));
        let pos = Position::from_sfen(
            "ln1g3nl/1r1s1kg2/p1ppppsp1/1p4p1p/7P1/2P3P2/PPSPPP2P/2G1K2R1/LN3GSNL b Bb 19",
        )
        .unwrap();
        assert_eq!(full(&pos).progress, progress_sum(&pos, &model));
        // Further into a game, further in the progress.
        assert!(progress_sum(&pos, &model) > progress_sum(&Position::startpos(), &model));
    }

    #[test]
    fn features_reproduce_the_evaluation_along_random_games() {
        let phase_weights =
            phase().into_iter().map(|x| x as f64 / crate::phase::PHASE_STEPS as f64);
        let w: Vec<f64> = current().iter().map(|&x| x as f64).chain(phase_weights).collect();
        let mut seed = 777u64;
        for _ in 0..20 {
            let mut pos = Position::startpos();
            for _ in 0..160 {
                let stm = if pos.side_to_move() == Color::Black { 1 } else { -1 };
                let expected = stm * crate::evaluate(&pos, full(&pos));
                // The engine rounds the phase's share towards zero from the side to
                // move's side.
                let exact = features(&pos).eval(&w[..N]);
                let phased = phased_features(&pos).eval(&w);
                let share = stm as f64 * (phased - exact);
                let blended = exact + stm as f64 * share.trunc();
                assert_eq!(blended as i32, expected, "{}", pos.to_sfen());
                let moves = legal_moves(&pos);
                if moves.is_empty() {
                    break;
                }
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                let m = moves[(seed >> 33) as usize % moves.len()];
                pos.do_move(m);
            }
        }
    }
}
