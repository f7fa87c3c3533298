//! Normal forms of positions and the perfect index (a combinatorial ranking)
//! of the normal forms.
//!
//! # Normal form
//!
//! A position and the one with the colours swapped and the board turned
//! upside down are the same game, so the solver keeps every position with
//! Sente to move ([`flip`] turns a Gote-to-move position into one); the
//! left-right mirror image of a position is the same game too, and of a
//! position and its mirror image the solver keeps one, [`canonical`]: the one
//! whose Sente lion stands on file a (or on b with the Gote lion on a or b),
//! and between two with both lions on file b the one with the smaller packed
//! bits.
//!
//! # The index
//!
//! A [`Universe`] numbers every Sente-to-move position with a given number of
//! giraffes, elephants and chicks (a game has two of each), from 0 to
//! [`Universe::size`] − 1:
//!
//! `index = lions · block + offset[cfg] + ((map · 2^labels) + label) · hands + hand`
//!
//! - `lions`: the square pair of the two lions, one of the 72 pairs whose
//!   Sente lion stands on file a, or on file b with the Gote lion on file a
//!   or b (the others are mirror images);
//! - `cfg`: how many giraffes, elephants and chicks (hens included) stand on
//!   the board (27 configurations, those the totals allow);
//! - `map`: the rank, among the configuration's patterns, of which kind
//!   (giraffe, elephant, chick) stands on each of the ten squares the lions
//!   leave free (2 bits a square), from the ranks of its two halves of five
//!   squares (small tables, so that ranking stays in the first-level cache);
//! - `label`: square by square, the owner of the board piece and, for a
//!   chick, whether it is promoted (one or two bits a piece);
//! - `hand`: how many of each kind Sente holds (Gote holds the rest).
//!
//! For the full set (two of each) a block is 11,878,227 positions and the
//! universe 855,232,344 (Tanaka's 1,567,925,964 is 132 lion pairs of the same
//! block: his count of all positions with side to move normalised, mirror
//! images apart). [`Universe::rank`] and [`Universe::unrank`] are a few table
//! look-ups and bit tricks.

use crate::position::Position;
use crate::types::{Color, Kind, Square};
use std::sync::OnceLock;

pub(crate) const BOARD_MASK: u64 = (1 << 48) - 1;
pub(crate) const SIDE_BIT: u64 = 1 << 60;
/// Bit 0 of each of 12 nibbles.
const LOW12: u64 = 0x1111_1111_1111;
/// Bit 0 of each of 10 nibbles.
const LOW10: u64 = 0x11_1111_1111;
const FILE_A: u64 = 0x00F0_0F00_F00F;
const FILE_C: u64 = FILE_A << 8;

/// The nibble of Sente's lion.
const SENTE_LION: u64 = 1;
/// The nibble of Gote's lion.
const GOTE_LION: u64 = 9;

/// Bits `4 i` set where nibble `i` (of 12) of `x` is zero.
#[inline(always)]
const fn zero_nibbles(x: u64) -> u64 {
    !(x | x >> 1 | x >> 2 | x >> 3) & LOW12
}

/// The square (0 to 11) of the first nibble of `board` equal to `nib`; 16 if
/// there is none.
#[inline(always)]
pub(crate) const fn find_nibble(board: u64, nib: u64) -> u32 {
    zero_nibbles((board & BOARD_MASK) ^ (nib * LOW12)).trailing_zeros() / 4
}

/// The squares of Sente's and Gote's lions.
#[inline(always)]
pub(crate) const fn lions(raw: u64) -> (u32, u32) {
    (find_nibble(raw, SENTE_LION), find_nibble(raw, GOTE_LION))
}

/// The same game with the other side to move: colours swapped, ranks
/// reversed (rank 1 becomes rank 4), hands swapped, the side to move toggled.
/// An involution.
#[inline(always)]
pub(crate) const fn flip(raw: u64) -> u64 {
    let b = raw & BOARD_MASK;
    let mut rows =
        (b >> 36) | ((b >> 12) & 0xFFF_000) | ((b << 12) & 0xFFF_000_000) | ((b & 0xFFF) << 36);
    let occupied = (rows | rows >> 1 | rows >> 2) & LOW12;
    rows ^= occupied << 3;
    let hands = (raw >> 48) & 0xFFF;
    let hands = (hands >> 6) | ((hands & 0x3F) << 6);
    rows | hands << 48 | ((raw & SIDE_BIT) ^ SIDE_BIT)
}

/// The left-right mirror image (files a and c swapped).
#[inline(always)]
pub(crate) const fn mirror(raw: u64) -> u64 {
    (raw & !(FILE_A | FILE_C)) | ((raw & FILE_A) << 8) | ((raw & FILE_C) >> 8)
}

/// Of a position (Sente to move) and its mirror image, the one the solver
/// keeps (see the module documentation).
#[inline(always)]
pub(crate) const fn canonical(raw: u64) -> u64 {
    let (ours, theirs) = lions(raw);
    match (ours % 3, theirs % 3) {
        (0, _) | (1, 0) => raw,
        (2, _) | (1, 2) => mirror(raw),
        _ => {
            let m = mirror(raw);
            if m < raw {
                m
            } else {
                raw
            }
        }
    }
}

/// [`canonical`] when the lions' squares (Sente's, Gote's) are known: the
/// canonical form and its lions' squares.
#[inline(always)]
pub(crate) const fn canonical_with_lions(raw: u64, ours: u32, theirs: u32) -> (u64, u32, u32) {
    const fn mirrored(sq: u32) -> u32 {
        sq + 2 - 2 * (sq % 3)
    }
    let flip = match (ours % 3, theirs % 3) {
        (0, _) | (1, 0) => false,
        (2, _) | (1, 2) => true,
        _ => mirror(raw) < raw,
    };
    if flip {
        (mirror(raw), mirrored(ours), mirrored(theirs))
    } else {
        (raw, ours, theirs)
    }
}

/// The square of `sq` when the board is turned upside down by [`flip`].
#[inline(always)]
pub(crate) const fn flipped_square(sq: u32) -> u32 {
    9 - 3 * (sq / 3) + sq % 3
}

/// Whether `raw` (Sente to move) is [`canonical`].
#[cfg(test)]
#[inline(always)]
pub(crate) const fn is_canonical(raw: u64) -> bool {
    let (ours, theirs) = lions(raw);
    match (ours % 3, theirs % 3) {
        (0, _) | (1, 0) => true,
        (2, _) | (1, 2) => false,
        _ => raw <= mirror(raw),
    }
}

/// The normal form of any position: Sente to move, [`canonical`].
#[inline]
pub fn normal_form(pos: Position) -> Position {
    let raw = if pos.side_to_move() == Color::Gote { flip(pos.raw()) } else { pos.raw() };
    Position::from_raw_unchecked(canonical(raw))
}

/// Gathers the low two bits of each of 10 nibbles into 20 bits.
#[inline(always)]
const fn compress2(y: u64) -> u32 {
    let mut y = y & 0x33_3333_3333;
    y = (y | y >> 2) & 0x0F0F_0F0F_0F0F;
    y = (y | y >> 4) & 0x00FF_00FF_00FF;
    y = (y | y >> 8) & 0x0000_FFFF_0000_FFFF;
    y = (y | y >> 16) & 0xF_FFFF;
    y as u32
}

/// `x` without nibble `i`: the nibbles above move down by one.
#[inline(always)]
const fn remove_nibble(x: u64, i: u32) -> u64 {
    let low = x & ((1 << (4 * i)) - 1);
    low | ((x >> (4 * i + 4)) << (4 * i))
}

/// `x` with `nib` inserted as nibble `i`: the nibbles from `i` up move up.
#[inline(always)]
const fn insert_nibble(x: u64, i: u32, nib: u64) -> u64 {
    let low = x & ((1 << (4 * i)) - 1);
    low | ((x >> (4 * i)) << (4 * i + 4)) | nib << (4 * i)
}

/// `PEXT5[mask][v]`: the bits of `v` where `mask` (5 bits) is set, packed.
const PEXT5: [[u8; 32]; 32] = {
    let mut t = [[0u8; 32]; 32];
    let mut mask = 0;
    while mask < 32 {
        let mut v = 0;
        while v < 32 {
            let (mut out, mut i, mut bit) = (0u8, 0, 0);
            while bit < 5 {
                if mask >> bit & 1 != 0 {
                    out |= ((v >> bit & 1) as u8) << i;
                    i += 1;
                }
                bit += 1;
            }
            t[mask][v] = out;
            v += 1;
        }
        mask += 1;
    }
    t
};

/// `PDEP5[mask][v]`: the low bits of `v` deposited where `mask` (5 bits) is
/// set.
const PDEP5: [[u8; 32]; 32] = {
    let mut t = [[0u8; 32]; 32];
    let mut mask = 0;
    while mask < 32 {
        let mut v = 0;
        while v < 32 {
            let (mut out, mut i, mut bit) = (0u8, 0, 0);
            while bit < 5 {
                if mask >> bit & 1 != 0 {
                    out |= ((v >> i & 1) as u8) << bit;
                    i += 1;
                }
                bit += 1;
            }
            t[mask][v] = out;
            v += 1;
        }
        mask += 1;
    }
    t
};

/// The bits of `v` where `mask` (20 bits) is set, packed from bit 0 (a
/// parallel bit extract, by table look-ups five bits at a time).
#[inline(always)]
fn pext(v: u32, mask: u32) -> u32 {
    let (mut out, mut shift) = (0, 0);
    for q in 0..4 {
        let m = ((mask >> (5 * q)) & 31) as usize;
        out |= u32::from(PEXT5[m][((v >> (5 * q)) & 31) as usize]) << shift;
        shift += (m as u32).count_ones();
    }
    out
}

/// The low bits of `v` deposited where `mask` (20 bits) is set: the inverse
/// of [`pext`].
#[inline(always)]
fn pdep(v: u32, mask: u32) -> u32 {
    let (mut out, mut shift) = (0, 0);
    for q in 0..4 {
        let m = ((mask >> (5 * q)) & 31) as usize;
        out |= u32::from(PDEP5[m][((v >> shift) & 31) as usize]) << (5 * q);
        shift += (m as u32).count_ones();
    }
    out
}

/// The two-bit fields of `y` (10 of them) moved to bits `4 i`: the inverse
/// of [`compress2`].
#[inline(always)]
const fn spread2(y: u32) -> u64 {
    let mut y = y as u64 & 0xF_FFFF;
    y = (y | y << 16) & 0x0000_FFFF_0000_FFFF;
    y = (y | y << 8) & 0x00FF_00FF_00FF;
    y = (y | y << 4) & 0x0F0F_0F0F_0F0F;
    y = (y | y << 2) & 0x33_3333_3333;
    y
}

/// Division by a run-time constant by one multiplication (exact for every
/// 32-bit dividend: Lemire, Kaser and Kurz, "Faster remainder by direct
/// computation", 2019).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct FastDiv {
    m: u64,
    d: u32,
}

impl FastDiv {
    const fn new(d: u32) -> FastDiv {
        FastDiv { m: if d <= 1 { 0 } else { u64::MAX / d as u64 + 1 }, d }
    }

    #[inline(always)]
    const fn div(self, n: u32) -> u32 {
        if self.d <= 1 {
            n
        } else {
            ((self.m as u128 * n as u128) >> 64) as u32
        }
    }
}

/// The tables shared by every universe.
#[derive(Debug)]
struct Tables {
    /// For each pattern of kinds on five squares (2 bits a square: 0 empty,
    /// 1 giraffe, 2 elephant, 3 chick or hen): its rank among the patterns
    /// of five squares with the same counts (bits 0–7), the counts
    /// (giraffes · 9 + elephants · 3 + chicks, bits 8–12), and its label mask
    /// (bits 13–22: for each square `j` bit `2 j` if it holds a piece, bit
    /// `2 j + 1` if a chick); `u32::MAX` for more than two of a kind.
    half: [u32; 1024],
    /// Patterns of five squares with each counts.
    half_count: [u32; 27],
    /// For a configuration (counts on the ten squares) and the counts on the
    /// first five squares: the rank of the configuration's first pattern
    /// with that split. A pattern of ten squares ranks as
    /// `split[cfg][low counts] + rank(low half) · half_count[high counts] +
    /// rank(high half)`.
    split: [u32; 27 * 27],
    /// The patterns of each configuration in the order of their ranks, one
    /// configuration after the other, as templates: the ten nibbles
    /// (Sente's pieces, chicks unpromoted) in bits 0–39, the label mask (as
    /// in `half`, for the ten squares) in bits 40–59.
    templates: Vec<u64>,
    /// Where each configuration's patterns start in `templates`.
    start: [u32; 28],
    /// The index of each lion pair (Sente's square · 12 + Gote's), 255 for
    /// the pairs that are mirror images of others (or impossible).
    lion_pair: [u8; 144],
    /// The squares (Sente's, Gote's) of each lion pair index.
    lion_squares: [(u8, u8); LION_PAIRS],
}

/// How many lion pairs the index has.
pub(crate) const LION_PAIRS: usize = 72;

fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| {
        let counts_of = |p: usize, squares: usize| {
            let mut counts = [0usize; 4];
            for sq in 0..squares {
                counts[(p >> (2 * sq)) & 3] += 1;
            }
            counts
        };
        let id_of = |c: [usize; 4]| c[1] * 9 + c[2] * 3 + c[3];
        let label_mask = |p: usize, squares: usize| {
            let mut mask = 0u32;
            for sq in 0..squares {
                let class = (p >> (2 * sq)) & 3;
                mask |= u32::from(class != 0) << (2 * sq) | u32::from(class == 3) << (2 * sq + 1);
            }
            mask
        };
        let mut half = [u32::MAX; 1024];
        let mut half_count = [0u32; 27];
        for (p, entry) in half.iter_mut().enumerate() {
            let c = counts_of(p, 5);
            if c[1..].iter().all(|&n| n <= 2) {
                let id = id_of(c);
                *entry = label_mask(p, 5) << 13 | (id as u32) << 8 | half_count[id];
                half_count[id] += 1;
            }
        }
        let components = |id: usize| [id / 9, (id / 3) % 3, id % 3];
        let mut split = [u32::MAX; 27 * 27];
        let mut size = [0u32; 27];
        for cfg in 0..27 {
            let whole = components(cfg);
            for low in 0..27 {
                let part = components(low);
                if (0..3).all(|i| part[i] <= whole[i]) {
                    let high = cfg - low;
                    split[cfg * 27 + low] = size[cfg];
                    size[cfg] += half_count[low] * half_count[high];
                }
            }
        }
        let mut start = [0u32; 28];
        for cfg in 0..27 {
            start[cfg + 1] = start[cfg] + size[cfg];
        }
        let mut templates = vec![0u64; start[27] as usize];
        for p in 0..1usize << 20 {
            let c = counts_of(p, 10);
            if c[1..].iter().any(|&n| n > 2) {
                continue;
            }
            let mut nibbles = 0u64;
            for sq in 0..10 {
                let class = (p >> (2 * sq)) & 3;
                if class != 0 {
                    nibbles |= (class as u64 + 1) << (4 * sq);
                }
            }
            let cfg = id_of(c);
            let (lo, hi) = (half[p & 1023] as usize, half[p >> 10] as usize);
            let map = split[cfg * 27 + ((lo >> 8) & 31)]
                + (lo & 255) as u32 * half_count[(hi >> 8) & 31]
                + (hi & 255) as u32;
            templates[(start[cfg] + map) as usize] = nibbles | u64::from(label_mask(p, 10)) << 40;
        }
        let mut lion_pair = [u8::MAX; 144];
        let mut lion_squares = [(0u8, 0u8); LION_PAIRS];
        let mut n = 0;
        for ours in 0..12u8 {
            for theirs in 0..12u8 {
                let keep = ours != theirs && (ours % 3 == 0 || (ours % 3 == 1 && theirs % 3 != 2));
                if keep {
                    lion_pair[usize::from(ours) * 12 + usize::from(theirs)] = n as u8;
                    lion_squares[n] = (ours, theirs);
                    n += 1;
                }
            }
        }
        assert_eq!(n, LION_PAIRS);
        Tables { half, half_count, split, templates, start, lion_pair, lion_squares }
    })
}

/// One configuration of board pieces: its place in a lion pair's block and
/// the radices of its label and hands.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Cfg {
    /// First index (within a block) of the configuration; `u32::MAX` when the
    /// totals do not allow it.
    offset: u32,
    /// Label bits: one per board piece, one more per chick.
    label_bits: u32,
    /// How many hand combinations: (giraffes Sente may hold + 1) × ... .
    hands: u32,
    by_hands: FastDiv,
}

/// The coarse table of configurations within a block: one entry per
/// `1 << COARSE` indices.
const COARSE: u32 = 10;

/// The numbering of all Sente-to-move positions with given numbers of
/// giraffes, elephants and chicks (see the module documentation).
#[derive(Clone, Debug)]
pub struct Universe {
    totals: [u8; 3],
    cfgs: [Cfg; 27],
    /// The valid configurations in index order, and the end of each.
    order: Vec<u8>,
    ends: Vec<u32>,
    /// For each `1 << COARSE` indices of a block, the place in `order` of the
    /// configuration of its first index.
    coarse: Vec<u8>,
    /// The packed hands (12 bits) of each configuration and hand index.
    hand_raw: Vec<u16>,
    /// The hand index of each configuration and Sente's packed hand (6 bits).
    hand_index: Vec<u8>,
    block: u32,
    by_block: FastDiv,
    t: &'static Tables,
}

impl PartialEq for Universe {
    fn eq(&self, other: &Universe) -> bool {
        self.totals == other.totals
    }
}

impl Eq for Universe {}

/// Why [`Universe::new`] refused piece totals.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BadTotals(pub [u8; 3]);

impl Universe {
    /// The universe of positions with `totals` giraffes, elephants and chicks
    /// (hens counted as chicks), each 0 to 2: board and both hands together.
    pub fn new(totals: [u8; 3]) -> Result<Universe, BadTotals> {
        if totals.iter().any(|&t| t > 2) {
            return Err(BadTotals(totals));
        }
        let t = tables();
        let mut cfgs = [Cfg { offset: u32::MAX, ..Cfg::default() }; 27];
        let (mut order, mut ends) = (Vec::new(), Vec::new());
        let mut hand_raw = vec![0u16; 27 * 27];
        let mut hand_index = vec![u8::MAX; 27 * 64];
        let mut offset: u64 = 0;
        for (id, cfg) in cfgs.iter_mut().enumerate() {
            let board = [(id / 9) as u8, ((id / 3) % 3) as u8, (id % 3) as u8];
            if (0..3).any(|i| board[i] > totals[i]) {
                continue;
            }
            let [g, e, c] = board.map(u32::from);
            let radix = |i: usize| u32::from(totals[i] - board[i]) + 1;
            let hands = radix(0) * radix(1) * radix(2);
            let maps = t.start[id + 1] - t.start[id];
            *cfg = Cfg {
                offset: offset as u32,
                label_bits: g + e + 2 * c,
                hands,
                by_hands: FastDiv::new(hands),
            };
            for hand in 0..hands {
                let sente =
                    [hand % radix(0), (hand / radix(0)) % radix(1), hand / radix(0) / radix(1)];
                let mut raw = 0u16;
                for i in 0..3 {
                    let gote = u32::from(totals[i] - board[i]) - sente[i];
                    raw |= (sente[i] << (2 * i) | gote << (6 + 2 * i)) as u16;
                }
                hand_raw[id * 27 + hand as usize] = raw;
                hand_index[id * 64 + usize::from(raw & 63)] = hand as u8;
            }
            offset += (u64::from(maps) << cfg.label_bits) * u64::from(hands);
            order.push(id as u8);
            ends.push(offset as u32);
        }
        let block = u32::try_from(offset).expect("a block fits 32 bits");
        assert!(u64::from(block) * LION_PAIRS as u64 <= u64::from(u32::MAX));
        let mut coarse = Vec::new();
        let mut at = 0;
        for i in 0..=(block >> COARSE) {
            while at + 1 < ends.len() && ends[at] <= i << COARSE {
                at += 1;
            }
            coarse.push(at as u8);
        }
        Ok(Universe {
            totals,
            cfgs,
            order,
            ends,
            coarse,
            hand_raw,
            hand_index,
            block,
            by_block: FastDiv::new(block),
            t,
        })
    }

    /// The universe of the full set of pieces: two giraffes, two elephants,
    /// two chicks.
    pub fn full() -> Universe {
        Universe::new([2, 2, 2]).expect("valid totals")
    }

    /// The giraffes, elephants and chicks each position has.
    pub fn totals(&self) -> [u8; 3] {
        self.totals
    }

    /// How many indices there are: 72 lion pairs × the block.
    pub fn size(&self) -> u32 {
        self.block * LION_PAIRS as u32
    }

    /// Positions per lion pair.
    pub fn block(&self) -> u32 {
        self.block
    }

    /// The squares (Sente's lion's, Gote's) of lion pair `pair` (below 72):
    /// the indices `pair · block ..` are theirs.
    pub fn lion_squares(&self, pair: u32) -> (u32, u32) {
        let (ours, theirs) = self.t.lion_squares[pair as usize];
        (u32::from(ours), u32::from(theirs))
    }

    /// The piece totals of `pos` (giraffes, elephants, chicks and hens, on
    /// the board and in both hands).
    pub fn totals_of(pos: Position) -> [u8; 3] {
        let mut totals = [0u8; 3];
        for sq in Square::all() {
            if let Some((_, kind)) = pos.piece_on(sq) {
                if let Some(i) = kind.hand_index() {
                    totals[i] += 1;
                }
            }
        }
        for (i, kind) in Kind::HAND.into_iter().enumerate() {
            for c in Color::ALL {
                totals[i] += pos.hand_count(c, kind);
            }
        }
        totals
    }

    /// The index of the normal form of `pos` (any side to move), if it
    /// belongs to this universe: a valid position (one lion each, see
    /// [`Position::check`]) with this universe's piece totals.
    pub fn index_of(&self, pos: Position) -> Option<u32> {
        pos.check().ok()?;
        for sq in Square::all() {
            if (pos.raw() >> (4 * sq.index())) & 7 > 5 {
                return None;
            }
        }
        if Universe::totals_of(pos) != self.totals {
            return None;
        }
        Some(self.rank(normal_form(pos).raw()))
    }

    /// The index of `raw`: a valid position with Sente to move, canonical or
    /// with both lions on file b, with this universe's totals (unchecked).
    #[inline]
    pub(crate) fn rank(&self, raw: u64) -> u32 {
        let (ours, theirs) = lions(raw);
        self.rank_with_lions(raw, ours, theirs)
    }

    /// [`Universe::rank`] when the lions' squares are known.
    #[inline(always)]
    pub(crate) fn rank_with_lions(&self, raw: u64, ours: u32, theirs: u32) -> u32 {
        let t = self.t;
        let b = raw & BOARD_MASK;
        let pair = t.lion_pair[(ours * 12 + theirs) as usize];
        debug_assert!(pair != u8::MAX, "not canonical: {raw:#x}");
        let (lo, hi) = if ours < theirs { (ours, theirs) } else { (theirs, ours) };
        let x = remove_nibble(remove_nibble(b, hi), lo);
        let k0 = x & LOW10;
        let k1 = (x >> 1) & LOW10;
        let k2 = (x >> 2) & LOW10;
        let class = (k2 | (k1 & !k0)) | (k2 | (k1 & k0)) << 1;
        let pattern = compress2(class) as usize;
        let lo = t.half[pattern & 1023];
        let hi = t.half[pattern >> 10];
        debug_assert!(lo != u32::MAX && hi != u32::MAX);
        let id = (((lo >> 8) & 31) + ((hi >> 8) & 31)) as usize;
        let cfg = &self.cfgs[id];
        debug_assert!(cfg.offset != u32::MAX);
        let map = t.split[id * 27 + ((lo >> 8) & 31) as usize]
            + (lo & 255) * t.half_count[((hi >> 8) & 31) as usize]
            + (hi & 255);
        // The owners (bit 0 of each two) and promotions (bit 1) of the
        // pieces, square by square, those that exist packed together.
        let flags = compress2((x >> 3) & LOW10 | (k2 & k0) << 1);
        let label = pext(flags, lo >> 13 | (hi >> 13) << 10);
        let hand = u32::from(self.hand_index[id * 64 + ((raw >> 48) & 63) as usize]);
        u32::from(pair) * self.block
            + cfg.offset
            + ((map << cfg.label_bits) + label) * cfg.hands
            + hand
    }

    /// The position (packed, Sente to move) with index `index` (below
    /// [`Universe::size`]).
    #[inline]
    pub(crate) fn unrank(&self, index: u32) -> u64 {
        let t = self.t;
        let pair = self.by_block.div(index);
        let mut r = index - pair * self.block;
        let mut at = usize::from(self.coarse[(r >> COARSE) as usize]);
        while self.ends[at] <= r {
            at += 1;
        }
        let id = usize::from(self.order[at]);
        let cfg = &self.cfgs[id];
        r -= cfg.offset;
        let rest = cfg.by_hands.div(r);
        let hand = r - rest * cfg.hands;
        let label = rest & ((1 << cfg.label_bits) - 1);
        let map = rest >> cfg.label_bits;
        let template = t.templates[(t.start[id] + map) as usize];
        let flags = spread2(pdep(label, (template >> 40) as u32 & 0xF_FFFF));
        let mut x = (template & 0xFF_FFFF_FFFF) | (flags & LOW10) << 3 | (flags >> 1) & LOW10;
        let hands = u64::from(self.hand_raw[id * 27 + hand as usize]);
        let (ours, theirs) = t.lion_squares[pair as usize];
        let (ours, theirs) = (u32::from(ours), u32::from(theirs));
        if ours < theirs {
            x = insert_nibble(insert_nibble(x, ours, SENTE_LION), theirs, GOTE_LION);
        } else {
            x = insert_nibble(insert_nibble(x, theirs, GOTE_LION), ours, SENTE_LION);
        }
        x | hands << 48
    }

    /// The position with index `index`, Sente to move.
    ///
    /// # Panics
    /// When `index` is not below [`Universe::size`].
    pub fn position(&self, index: u32) -> Position {
        assert!(index < self.size(), "index {index} out of range");
        Position::from_raw_unchecked(self.unrank(index))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lcg(state: &mut u64) -> u64 {
        *state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        *state >> 33
    }

    #[test]
    fn bit_helpers_invert_each_other() {
        let mut s = 3;
        for _ in 0..20_000 {
            let v = (lcg(&mut s) & 0xF_FFFF) as u32;
            let mask = (lcg(&mut s) & 0xF_FFFF) as u32;
            assert_eq!(compress2(spread2(v)), v);
            let packed = pext(v, mask);
            assert!(u64::from(packed) < 1u64 << mask.count_ones());
            assert_eq!(pdep(packed, mask), v & mask);
        }
        for d in [1u32, 2, 3, 7, 27, 11_878_227] {
            let f = FastDiv::new(d);
            for n in [0u32, 1, 2, 26, 27, 1000, 855_232_343, u32::MAX] {
                assert_eq!(f.div(n), n / d, "{n} / {d}");
            }
        }
    }

    #[test]
    fn the_full_universe_has_tanakas_block() {
        let u = Universe::full();
        // Tanaka's 1,567,925,964 positions are 132 lion pairs of this block.
        assert_eq!(u.block(), 11_878_227);
        assert_eq!(u64::from(u.block()) * 132, 1_567_925_964);
        assert_eq!(u.size(), 855_232_344);
    }

    #[test]
    fn flip_and_mirror_are_involutions_that_keep_the_game() {
        let start = Position::startpos();
        let flipped = Position::from_raw_unchecked(flip(start.raw()));
        assert_eq!(flipped.side_to_move(), Color::Gote);
        // The start position is its own flip up to the side to move and the
        // mirror image (giraffe and elephant swap sides).
        assert_eq!(flip(flip(start.raw())), start.raw());
        assert_eq!(mirror(mirror(start.raw())), start.raw());
        assert_eq!(flipped.to_sfen(), "elg/1c1/1C1/GLE w - 1");
        let mut moves = Vec::new();
        start.legal_moves(&mut moves);
        let m = moves[0];
        let after = start.after(m);
        let f = Position::from_raw_unchecked(flip(after.raw()));
        assert_eq!(f.side_to_move(), Color::Sente);
        let mut a = Vec::new();
        let mut b = Vec::new();
        after.legal_moves(&mut a);
        f.legal_moves(&mut b);
        assert_eq!(a.len(), b.len());
        assert_eq!(after.end(), f.end());
    }

    #[test]
    fn every_index_of_a_small_universe_round_trips() {
        for totals in [[0, 0, 0], [1, 0, 0], [0, 1, 1], [1, 1, 1], [0, 0, 2]] {
            let u = Universe::new(totals).unwrap();
            for index in 0..u.size() {
                let raw = u.unrank(index);
                let pos = Position::from_raw_unchecked(raw);
                assert!(pos.check().is_ok(), "{totals:?} {index}");
                assert_eq!(Universe::totals_of(pos), totals);
                assert_eq!(u.rank(raw), index, "{totals:?} {}", pos.to_sfen());
            }
        }
    }

    #[test]
    fn random_indices_of_the_full_universe_round_trip() {
        let u = Universe::full();
        let mut s = 7;
        for _ in 0..200_000 {
            let index = (lcg(&mut s) << 20 ^ lcg(&mut s)) as u32 % u.size();
            let raw = u.unrank(index);
            let pos = Position::from_raw_unchecked(raw);
            assert!(pos.check().is_ok());
            assert_eq!(pos.side_to_move(), Color::Sente);
            assert_eq!(u.rank(raw), index);
            // The index of any form of the position is that of its normal form.
            let n = normal_form(pos);
            let via = u.index_of(Position::from_raw_unchecked(flip(mirror(raw)))).unwrap();
            assert_eq!(via, u.rank(n.raw()));
        }
    }

    #[test]
    fn normal_forms_are_canonical() {
        let u = Universe::full();
        let mut s = 11;
        for _ in 0..50_000 {
            let raw = u.unrank((lcg(&mut s) << 20 ^ lcg(&mut s)) as u32 % u.size());
            let c = canonical(raw);
            assert!(is_canonical(c));
            assert_eq!(canonical(mirror(raw)), c);
            assert_eq!(is_canonical(raw), c == raw);
        }
    }

    #[test]
    fn positions_outside_the_universe_have_no_index() {
        let u = Universe::full();
        assert!(u.index_of(Position::startpos()).is_some());
        let lions_only = Position::from_sfen("1l1/3/3/1L1 b - 1").unwrap();
        assert_eq!(u.index_of(lions_only), None);
        let small = Universe::new([0, 0, 0]).unwrap();
        assert!(small.index_of(lions_only).is_some());
    }
}
