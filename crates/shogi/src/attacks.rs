//! Attack tables for every piece.
//!
//! Step pieces (pawn, knight, silver, gold, king) use tables built at compile time.
//! Sliders split by line:
//! - along a file (lance, rook vertical): the file's squares are contiguous bits, so
//!   the seven inner bits index a tiny table directly, on any CPU;
//! - along a rank and the diagonals (rook horizontal, bishop): the occupancy of the
//!   line is gathered with PEXT where the CPU has BMI2 (detected at run time) and
//!   indexes a table; elsewhere a portable ray walk computes the same set.

use crate::bitboard::Bitboard;
use crate::types::{Color, PieceKind, Square};
use std::sync::LazyLock;

/// (file delta, rank delta) from Black's point of view; rank -1 is forward.
type Deltas = &'static [(i8, i8)];

const PAWN_DELTAS: Deltas = &[(0, -1)];
const KNIGHT_DELTAS: Deltas = &[(-1, -2), (1, -2)];
const SILVER_DELTAS: Deltas = &[(-1, -1), (0, -1), (1, -1), (-1, 1), (1, 1)];
const GOLD_DELTAS: Deltas = &[(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (0, 1)];
const KING_DELTAS: Deltas = &[(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)];
const ROOK_DIRS: Deltas = &[(0, -1), (0, 1), (-1, 0), (1, 0)];
const BISHOP_DIRS: Deltas = &[(-1, -1), (1, -1), (-1, 1), (1, 1)];

const fn offset(sq: usize, df: i8, dr: i8) -> Option<usize> {
    let f = (sq / 9) as i8 + df;
    let r = (sq % 9) as i8 + dr;
    if f >= 0 && f < 9 && r >= 0 && r < 9 {
        Some(f as usize * 9 + r as usize)
    } else {
        None
    }
}

const fn step_table(deltas: Deltas, color: Color) -> [Bitboard; 81] {
    let mut table = [Bitboard::EMPTY; 81];
    let sign: i8 = match color {
        Color::Black => 1,
        Color::White => -1,
    };
    let mut sq = 0;
    while sq < 81 {
        let mut bits = 0u128;
        let mut i = 0;
        while i < deltas.len() {
            let (df, dr) = deltas[i];
            if let Some(to) = offset(sq, df * sign, dr * sign) {
                bits |= 1u128 << to;
            }
            i += 1;
        }
        table[sq] = Bitboard(bits);
        sq += 1;
    }
    table
}

static PAWN: [[Bitboard; 81]; 2] =
    [step_table(PAWN_DELTAS, Color::Black), step_table(PAWN_DELTAS, Color::White)];
static KNIGHT: [[Bitboard; 81]; 2] =
    [step_table(KNIGHT_DELTAS, Color::Black), step_table(KNIGHT_DELTAS, Color::White)];
static SILVER: [[Bitboard; 81]; 2] =
    [step_table(SILVER_DELTAS, Color::Black), step_table(SILVER_DELTAS, Color::White)];
static GOLD: [[Bitboard; 81]; 2] =
    [step_table(GOLD_DELTAS, Color::Black), step_table(GOLD_DELTAS, Color::White)];
static KING: [Bitboard; 81] = step_table(KING_DELTAS, Color::Black);

/// Attacks along a file from `rank` given the 7 inner occupancy bits (ranks 1..=7),
/// as a 9-bit mask of ranks. `dirs`: bit 0 towards rank 0, bit 1 towards rank 8.
const fn file_table(dirs: u8) -> [[u16; 128]; 9] {
    let mut table = [[0u16; 128]; 9];
    let mut rank = 0;
    while rank < 9 {
        let mut idx = 0;
        while idx < 128 {
            let occ = (idx as u16) << 1;
            let mut bits = 0u16;
            if dirs & 1 != 0 {
                let mut r = rank as i32 - 1;
                while r >= 0 {
                    bits |= 1 << r;
                    if occ >> r & 1 != 0 {
                        break;
                    }
                    r -= 1;
                }
            }
            if dirs & 2 != 0 {
                let mut r = rank + 1;
                while r < 9 {
                    bits |= 1 << r;
                    if occ >> r & 1 != 0 {
                        break;
                    }
                    r += 1;
                }
            }
            table[rank][idx] = bits;
            idx += 1;
        }
        rank += 1;
    }
    table
}

static FILE_BOTH: [[u16; 128]; 9] = file_table(3);
static LANCE_FILE: [[[u16; 128]; 9]; 2] = [file_table(1), file_table(2)];

#[inline(always)]
pub fn pawn_attacks(color: Color, sq: Square) -> Bitboard {
    PAWN[color.index()][sq.index()]
}

#[inline(always)]
pub fn knight_attacks(color: Color, sq: Square) -> Bitboard {
    KNIGHT[color.index()][sq.index()]
}

#[inline(always)]
pub fn silver_attacks(color: Color, sq: Square) -> Bitboard {
    SILVER[color.index()][sq.index()]
}

#[inline(always)]
pub fn gold_attacks(color: Color, sq: Square) -> Bitboard {
    GOLD[color.index()][sq.index()]
}

#[inline(always)]
pub fn king_attacks(sq: Square) -> Bitboard {
    KING[sq.index()]
}

#[inline(always)]
fn file_index(sq: Square, occ: Bitboard) -> usize {
    ((occ.0 >> (sq.file() as u32 * 9 + 1)) & 0x7f) as usize
}

#[inline(always)]
pub fn lance_attacks(color: Color, sq: Square, occ: Bitboard) -> Bitboard {
    let bits = LANCE_FILE[color.index()][sq.rank() as usize][file_index(sq, occ)];
    Bitboard((bits as u128) << (sq.file() as u32 * 9))
}

#[inline(always)]
fn file_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    let bits = FILE_BOTH[sq.rank() as usize][file_index(sq, occ)];
    Bitboard((bits as u128) << (sq.file() as u32 * 9))
}

#[inline(always)]
pub fn rook_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    file_attacks(sq, occ) | rank_attacks(sq, occ)
}

#[inline(always)]
pub fn dragon_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    rook_attacks(sq, occ) | king_attacks(sq)
}

#[inline(always)]
pub fn horse_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    bishop_attacks(sq, occ) | king_attacks(sq)
}

#[inline(always)]
pub fn rank_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    let t = &*SLIDERS;
    if t.use_pext {
        t.rank.lookup(sq, occ)
    } else {
        slide(sq, occ, &ROOK_DIRS[2..])
    }
}

#[inline(always)]
pub fn bishop_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    let t = &*SLIDERS;
    if t.use_pext {
        t.bishop.lookup(sq, occ)
    } else {
        slide(sq, occ, BISHOP_DIRS)
    }
}

/// The squares a piece of `color` and `kind` on `sq` attacks, given the occupancy.
#[inline]
pub fn piece_attacks(color: Color, kind: PieceKind, sq: Square, occ: Bitboard) -> Bitboard {
    match kind {
        PieceKind::Pawn => pawn_attacks(color, sq),
        PieceKind::Lance => lance_attacks(color, sq, occ),
        PieceKind::Knight => knight_attacks(color, sq),
        PieceKind::Silver => silver_attacks(color, sq),
        PieceKind::Bishop => bishop_attacks(sq, occ),
        PieceKind::Rook => rook_attacks(sq, occ),
        PieceKind::King => king_attacks(sq),
        PieceKind::Horse => horse_attacks(sq, occ),
        PieceKind::Dragon => dragon_attacks(sq, occ),
        PieceKind::Gold
        | PieceKind::ProPawn
        | PieceKind::ProLance
        | PieceKind::ProKnight
        | PieceKind::ProSilver => gold_attacks(color, sq),
    }
}

/// Squares strictly between `a` and `b` when they share a line, else empty.
#[inline(always)]
pub fn between(a: Square, b: Square) -> Bitboard {
    LINES.between[a.index() * 81 + b.index()]
}

/// The squares within `r` king steps of each square (boxes of side 2r + 1),
/// r = 0 to 4.
pub static BOXES: [[Bitboard; 81]; 5] = [boxes(0), boxes(1), boxes(2), boxes(3), boxes(4)];

/// The squares within `r` files and `r` ranks of each square.
const fn boxes(r: i32) -> [Bitboard; 81] {
    let mut table = [Bitboard::EMPTY; 81];
    let mut sq: i32 = 0;
    while sq < 81 {
        let (f, k) = (sq / 9, sq % 9);
        let mut bits = 0u128;
        let mut to: i32 = 0;
        while to < 81 {
            let (tf, tk) = (to / 9, to % 9);
            if (tf - f).abs() <= r && (tk - k).abs() <= r {
                bits |= 1u128 << to;
            }
            to += 1;
        }
        table[sq as usize] = Bitboard(bits);
        sq += 1;
    }
    table
}

/// The whole line through `a` and `b` (edge to edge) when they share one, else empty.
#[inline(always)]
pub fn line(a: Square, b: Square) -> Bitboard {
    LINES.line[a.index() * 81 + b.index()]
}

/// The portable slider: walks each direction until it leaves the board or hits a piece.
fn slide(sq: Square, occ: Bitboard, dirs: &[(i8, i8)]) -> Bitboard {
    let mut bits = 0u128;
    for &(df, dr) in dirs {
        let mut cur = sq.index();
        while let Some(next) = offset(cur, df, dr) {
            bits |= 1u128 << next;
            if occ.0 >> next & 1 != 0 {
                break;
            }
            cur = next;
        }
    }
    Bitboard(bits)
}

/// Bits of `occ` selected by the mask, packed (`_pext_u64` on each half).
/// Only called when `use_pext` says the CPU has BMI2.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn pext(value: u64, mask: u64) -> u64 {
    let out: u64;
    // SAFETY: `pext` is only reached through `PextTable::lookup`, which runs only when
    // `Sliders::use_pext` is set, and that is set only after
    // `is_x86_feature_detected!("bmi2")` confirmed the instruction exists. The asm
    // reads two registers and writes one, touching no memory or flags we rely on.
    unsafe {
        std::arch::asm!(
            "pext {out}, {value}, {mask}",
            out = lateout(reg) out,
            value = in(reg) value,
            mask = in(reg) mask,
            options(pure, nomem, nostack)
        );
    }
    out
}

#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn pext(value: u64, mask: u64) -> u64 {
    soft_pext(value, mask)
}

/// PEXT in software, used to build the tables (and by tests as the reference).
fn soft_pext(value: u64, mut mask: u64) -> u64 {
    let mut out = 0u64;
    let mut bit = 0;
    while mask != 0 {
        let low = mask & mask.wrapping_neg();
        if value & low != 0 {
            out |= 1 << bit;
        }
        bit += 1;
        mask &= mask - 1;
    }
    out
}

/// One PEXT-indexed attack table: per square, the relevant occupancy mask (split in
/// the two halves of the `u128`) and where its slice of the table starts.
struct PextTable {
    mask_lo: [u64; 81],
    mask_hi: [u64; 81],
    lo_bits: [u32; 81],
    start: [u32; 81],
    attacks: Vec<Bitboard>,
}

impl PextTable {
    fn build(dirs: Deltas) -> PextTable {
        let mut t = PextTable {
            mask_lo: [0; 81],
            mask_hi: [0; 81],
            lo_bits: [0; 81],
            start: [0; 81],
            attacks: Vec::new(),
        };
        for sq in Square::all() {
            let mask = relevant_mask(sq, dirs);
            let (lo, hi) = (mask.0 as u64, (mask.0 >> 64) as u64);
            let i = sq.index();
            t.mask_lo[i] = lo;
            t.mask_hi[i] = hi;
            t.lo_bits[i] = lo.count_ones();
            t.start[i] = t.attacks.len() as u32;
            let n = mask.count();
            let squares: Vec<Square> = mask.iter().collect();
            for idx in 0..(1u32 << n) {
                let mut occ = Bitboard::EMPTY;
                for (b, &s) in squares.iter().enumerate() {
                    if idx >> b & 1 != 0 {
                        occ.set(s);
                    }
                }
                debug_assert_eq!(t.index_with(sq, occ, soft_pext) as u32, idx);
                t.attacks.push(slide(sq, occ, dirs));
            }
        }
        t
    }

    #[inline(always)]
    fn index_with(&self, sq: Square, occ: Bitboard, pext_fn: fn(u64, u64) -> u64) -> usize {
        let i = sq.index();
        let lo = pext_fn(occ.0 as u64, self.mask_lo[i]);
        let hi = pext_fn((occ.0 >> 64) as u64, self.mask_hi[i]);
        (lo | hi << self.lo_bits[i]) as usize
    }

    #[inline(always)]
    fn lookup(&self, sq: Square, occ: Bitboard) -> Bitboard {
        let idx = self.start[sq.index()] as usize + self.index_with(sq, occ, pext);
        self.attacks[idx]
    }
}

/// Squares along `dirs` from `sq` whose occupancy matters: the rays without their
/// last square (a piece on the edge blocks nothing further).
fn relevant_mask(sq: Square, dirs: Deltas) -> Bitboard {
    let mut bits = Bitboard::EMPTY;
    for &(df, dr) in dirs {
        let mut cur = sq.index();
        while let Some(next) = offset(cur, df, dr) {
            if offset(next, df, dr).is_none() {
                break;
            }
            bits.set(Square::from_index(next as u8));
            cur = next;
        }
    }
    bits
}

struct Sliders {
    use_pext: bool,
    rank: PextTable,
    bishop: PextTable,
}

static SLIDERS: LazyLock<Sliders> = LazyLock::new(|| Sliders {
    use_pext: cpu_has_bmi2() && std::env::var_os("KYOBO_NO_PEXT").is_none(),
    rank: PextTable::build(&ROOK_DIRS[2..]),
    bishop: PextTable::build(BISHOP_DIRS),
});

fn cpu_has_bmi2() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("bmi2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Whether sliders use the PEXT tables on this machine (BMI2 present and
/// `KYOBO_NO_PEXT` unset).
pub fn uses_pext() -> bool {
    SLIDERS.use_pext
}

struct Lines {
    between: Vec<Bitboard>,
    line: Vec<Bitboard>,
}

static LINES: LazyLock<Lines> = LazyLock::new(|| {
    let mut between = vec![Bitboard::EMPTY; 81 * 81];
    let mut line = vec![Bitboard::EMPTY; 81 * 81];
    for a in Square::all() {
        for &(df, dr) in ROOK_DIRS.iter().chain(BISHOP_DIRS) {
            let full = slide(a, Bitboard::EMPTY, &[(df, dr)])
                | slide(a, Bitboard::EMPTY, &[(-df, -dr)])
                | Bitboard::from_square(a);
            let mut path = Bitboard::EMPTY;
            let mut cur = a.index();
            while let Some(next) = offset(cur, df, dr) {
                let b = next;
                between[a.index() * 81 + b] = path;
                line[a.index() * 81 + b] = full;
                path.set(Square::from_index(next as u8));
                cur = next;
            }
        }
    }
    Lines { between, line }
});

/// Builds every lazily initialised table now, so the first search does not pay.
pub fn init() {
    LazyLock::force(&SLIDERS);
    LazyLock::force(&LINES);
}

/// For tests and the PEXT self-check: sliders computed by the portable ray walk.
pub fn rook_attacks_portable(sq: Square, occ: Bitboard) -> Bitboard {
    slide(sq, occ, ROOK_DIRS)
}

/// For tests and the PEXT self-check: sliders computed by the portable ray walk.
pub fn bishop_attacks_portable(sq: Square, occ: Bitboard) -> Bitboard {
    slide(sq, occ, BISHOP_DIRS)
}

/// For tests: the PEXT-table lookups with PEXT done in software, so the tables are
/// checked on any CPU.
pub fn slider_tables_agree(sq: Square, occ: Bitboard) -> bool {
    let t = &*SLIDERS;
    let rank =
        t.rank.attacks[t.rank.start[sq.index()] as usize + t.rank.index_with(sq, occ, soft_pext)];
    let bishop = t.bishop.attacks
        [t.bishop.start[sq.index()] as usize + t.bishop.index_with(sq, occ, soft_pext)];
    rank | file_attacks(sq, occ) == rook_attacks_portable(sq, occ)
        && bishop == bishop_attacks_portable(sq, occ)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each box is the one before it and every king step from it, from the
    /// square alone.
    #[test]
    fn boxes_grow_by_king_steps() {
        for sq in Square::all() {
            assert_eq!(BOXES[0][sq.index()], Bitboard::from_square(sq));
            for r in 1..5 {
                let inner = BOXES[r - 1][sq.index()];
                let grown = inner.into_iter().fold(inner, |b, s| b | king_attacks(s));
                assert_eq!(BOXES[r][sq.index()], grown, "{sq:?} r {r}");
            }
        }
    }

    fn pseudo_random(seed: &mut u64) -> u64 {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        *seed
    }

    #[test]
    fn sliders_match_the_ray_walk() {
        let mut seed = 0x9e3779b97f4a7c15u64;
        for _ in 0..4000 {
            let occ = Bitboard(
                ((pseudo_random(&mut seed) as u128) << 64 | pseudo_random(&mut seed) as u128)
                    & pseudo_random(&mut seed) as u128
                    & Bitboard::ALL.0,
            );
            for sq in Square::all() {
                assert!(slider_tables_agree(sq, occ));
                assert_eq!(rook_attacks(sq, occ), rook_attacks_portable(sq, occ));
                assert_eq!(bishop_attacks(sq, occ), bishop_attacks_portable(sq, occ));
                let up = slide(sq, occ, &[(0, -1)]);
                let down = slide(sq, occ, &[(0, 1)]);
                assert_eq!(lance_attacks(Color::Black, sq, occ), up);
                assert_eq!(lance_attacks(Color::White, sq, occ), down);
            }
        }
    }

    #[test]
    fn hardware_pext_matches_software() {
        if !cpu_has_bmi2() {
            // Straight to the terminal (the harness captures `eprintln!`).
            use std::io::Write;
            let _ = writeln!(
                std::io::stderr().lock(),
                "skipped hardware_pext_matches_software: this CPU has no BMI2"
            );
            return;
        }
        let mut seed = 12345u64;
        for _ in 0..10000 {
            let v = pseudo_random(&mut seed);
            let m = pseudo_random(&mut seed);
            assert_eq!(pext(v, m), soft_pext(v, m));
        }
    }

    #[test]
    fn step_attacks_from_the_centre() {
        let sq = Square::new(4, 4);
        assert_eq!(pawn_attacks(Color::Black, sq), Bitboard::from_square(Square::new(4, 3)));
        assert_eq!(knight_attacks(Color::White, sq).count(), 2);
        assert!(knight_attacks(Color::White, sq).contains(Square::new(3, 6)));
        assert_eq!(silver_attacks(Color::Black, sq).count(), 5);
        assert_eq!(gold_attacks(Color::Black, sq).count(), 6);
        assert!(!gold_attacks(Color::Black, sq).contains(Square::new(3, 5)));
        assert_eq!(king_attacks(sq).count(), 8);
        assert_eq!(rook_attacks(sq, Bitboard::EMPTY).count(), 16);
        assert_eq!(bishop_attacks(sq, Bitboard::EMPTY).count(), 16);
    }

    #[test]
    fn lines_and_between() {
        let a = Square::new(0, 0);
        let b = Square::new(8, 8);
        assert_eq!(between(a, b).count(), 7);
        assert_eq!(line(a, b).count(), 9);
        assert!(between(a, Square::new(1, 2)).is_empty());
        assert!(line(a, Square::new(1, 2)).is_empty());
        assert!(between(a, Square::new(0, 1)).is_empty());
        assert_eq!(line(a, Square::new(0, 1)), Bitboard::file(0));
    }
}
