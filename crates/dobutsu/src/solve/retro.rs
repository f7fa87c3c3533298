//! The solver: the reachable set by a parallel search, then retrograde
//! analysis with move counters.
//!
//! # Reachable positions
//!
//! Bit sets over the [`Universe`] hold the normal forms found where the game
//! goes on, those of them expanded, and those found where the game is over
//! (won and lost for the side to move: they are counted, not expanded nor
//! stored, as their values follow from the rules). Passes over the sets
//! expand every position found and not expanded yet, until a pass finds
//! nothing new; a pass expands, in index order, what earlier passes and the
//! pass itself found, so few passes are needed (14 from the start).
//!
//! # Retrograde analysis
//!
//! One byte a reachable position where the game goes on (eight to a word,
//! updated by compare and swap): below 64 an unresolved position's counter,
//! from 64 a resolved position's distance (64 + plies). The initial pass,
//! forward, gives each position:
//! - a try that cannot be answered: won in 1;
//! - no move at all: lost in 0; every move leaves the lion capturable or
//!   tries where it is captured: lost in 2;
//! - otherwise the counter: the moves after which the game goes on.
//!
//! Round `d` then takes every position resolved at distance `d` (from a list
//! when the round before made few, else by scanning the bytes; in index
//! order, where the predecessors of neighbours are neighbours, for the
//! caches) and generates its predecessors by un-moves: a loss makes every
//! unresolved predecessor a win in `d + 1`; a win decrements each unresolved
//! predecessor's counter, and one that reaches zero is a loss in `d + 1`.
//! Rounds alternate between wins and losses, so the two never race. A
//! predecessor is counted once per move that leads to the position: the
//! un-moves are generated from both mirror images of the position and only
//! those whose result is itself canonical are kept (see
//! [`for_each_predecessor`]). Positions never resolved are draws.

use super::bits::{prefetch, RankBits};
use super::index::{
    canonical_with_lions, flip, flipped_square, lions, mirror, Universe, BOARD_MASK, SIDE_BIT,
};
use super::Progress;
use crate::position::Position;
use crate::types::ATTACKS;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering::Relaxed};
use std::sync::Mutex;

/// State bytes from this on are resolved: `RESOLVED + distance`.
pub(crate) const RESOLVED: u8 = 64;
/// The longest distance a state byte holds.
pub(crate) const MAX_DISTANCE: u32 = (u8::MAX - RESOLVED) as u32;

/// Blocks of the bit set a worker takes at a time.
const CHUNK_BLOCKS: usize = 512;
/// The longest list of the next round's positions kept (else the round scans).
const LIST_CAP: usize = 1 << 21;

/// Why a solve failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolveError {
    /// The root is not a valid position with a lion each (or has a piece
    /// kind more than twice).
    InvalidRoot(String),
    /// A position has more moves than a counter holds (63).
    TooManyMoves(String),
    /// A distance beyond what a state byte holds.
    TooLong(u32),
}

impl std::fmt::Display for SolveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SolveError::InvalidRoot(s) => write!(f, "the root position is not valid: {s}"),
            SolveError::TooManyMoves(s) => write!(f, "more than 63 moves in {s}"),
            SolveError::TooLong(d) => write!(f, "a distance of {d} plies is beyond {MAX_DISTANCE}"),
        }
    }
}

impl std::error::Error for SolveError {}

/// Calls `f` with each position (packed, Sente to move) from which a move of
/// Sente leads to `x` (Gote to move), once per such move: every Sente piece
/// on the board is taken back to each empty square it could have come from
/// (a hen on the far rank also as a chick that promoted), leaving the square
/// empty or giving back one of the kinds in Sente's hand to Gote (a chick in
/// hand as a chick or a hen); and every unpromoted Sente piece but the lion
/// is taken back into the hand (a drop). Whether the game was already over in
/// the predecessor is not asked. With `lion_only`, only the lion's moves
/// are taken back.
#[inline(always)]
pub(crate) fn for_each_predecessor(x: u64, lion_only: bool, mut f: impl FnMut(u64)) {
    const LOW: u64 = 0x1111_1111_1111;
    let board = x & BOARD_MASK;
    let any = (board | board >> 1 | board >> 2) & LOW;
    let gote = (board >> 3) & LOW;
    let occupied = gather(any);
    let mut sente = gather(any & !gote);
    if lion_only {
        sente &= 1 << super::index::find_nibble(board, 1);
    }
    let empty = !occupied & 0xFFF;
    let base = x ^ SIDE_BIT;
    let hand = (x >> 48) & 0x3F;
    while sente != 0 {
        let to = sente.trailing_zeros() as usize;
        sente &= sente - 1;
        let shift = 4 * to;
        let code = ((board >> shift) & 7) as usize;
        let cleared = base & !(0xF << shift);
        if (2..=4).contains(&code) {
            f(cleared + (1 << (48 + 2 * (code - 2))));
        }
        let gote_attacks = &ATTACKS[1];
        let origins: [(u64, u16); 2] = match code {
            5 => [
                (5, gote_attacks[5][to] & empty),
                (4, if to < 3 { gote_attacks[4][to] & empty } else { 0 }),
            ],
            4 => [(4, if to >= 3 { gote_attacks[4][to] & empty } else { 0 }), (0, 0)],
            k => [(k as u64, gote_attacks[k][to] & empty), (0, 0)],
        };
        for (kind, mut froms) in origins {
            while froms != 0 {
                let from = froms.trailing_zeros();
                froms &= froms - 1;
                let q = cleared | kind << (4 * from);
                f(q);
                for j in 0..3u64 {
                    if (hand >> (2 * j)) & 3 != 0 {
                        let qj = q - (1 << (48 + 2 * j));
                        f(qj | ((j + 2) | 8) << shift);
                        if j == 2 {
                            f(qj | 13 << shift);
                        }
                    }
                }
            }
        }
    }
}

/// The index of `q` (Sente to move) when it is canonical and the game is
/// not over in it (else it has no value to change).
#[inline(always)]
fn candidate(universe: &Universe, q: u64) -> Option<u32> {
    let (ours, theirs) = lions(q);
    // The Gote lion's try succeeded, or the Sente lion's.
    if theirs >= 9 || ours < 3 {
        return None;
    }
    match (ours % 3, theirs % 3) {
        (0, _) | (1, 0) => {}
        (2, _) | (1, 2) => return None,
        _ if mirror(q) < q => return None,
        _ => {}
    }
    // Sente can capture the Gote lion.
    let board = q & BOARD_MASK;
    let mut around = ATTACKS[0][1][theirs as usize];
    while around != 0 {
        let n = around.trailing_zeros();
        around &= around - 1;
        let nib = ((board >> (4 * n)) & 15) as usize;
        if nib != 0 && nib & 8 == 0 && ATTACKS[0][nib][n as usize] & (1 << theirs) != 0 {
            return None;
        }
    }
    Some(universe.rank_with_lions(q, ours, theirs))
}

/// Bit 0 of each of 12 nibbles, gathered into 12 bits.
#[inline(always)]
const fn gather(x: u64) -> u16 {
    let mut x = x & 0x1111_1111_1111;
    x = (x | x >> 3) & 0x0303_0303_0303;
    x = (x | x >> 6) & 0x000F_000F_000F;
    x = (x | x >> 12) & 0x0000_00FF_0000_00FF;
    x = (x | x >> 24) & 0xFFF;
    x as u16
}

/// What a Sente-to-move position's move generation needs, computed once.
struct Board {
    board: u64,
    /// Sente's pieces, Gote's, the empty squares.
    own: u16,
    empty: u16,
    /// The lions' squares, Sente's and Gote's.
    lion: usize,
    their_lion: u32,
    /// The squares Gote's pieces attack.
    attacked: u16,
    /// Gote's pieces that attack Sente's lion.
    checkers: u16,
}

impl Board {
    #[inline(always)]
    fn new(raw: u64) -> Board {
        const LOW: u64 = 0x1111_1111_1111;
        let board = raw & BOARD_MASK;
        let any = (board | board >> 1 | board >> 2) & LOW;
        let gote_nibbles = (board >> 3) & LOW;
        let own = gather(any & !gote_nibbles);
        let mut theirs = gather(gote_nibbles);
        let empty = !gather(any) & 0xFFF;
        let lion = super::index::find_nibble(board, 1) as usize;
        let their_lion = super::index::find_nibble(board, 9);
        let lion_bit = 1u16 << lion;
        let (mut attacked, mut checkers) = (0, 0);
        while theirs != 0 {
            let sq = theirs.trailing_zeros() as usize;
            theirs &= theirs - 1;
            let a = ATTACKS[1][((board >> (4 * sq)) & 7) as usize][sq];
            attacked |= a;
            if a & lion_bit != 0 {
                checkers |= 1 << sq;
            }
        }
        Board { board, own, empty, lion, their_lion, attacked, checkers }
    }

    #[inline(always)]
    fn code(&self, sq: usize) -> usize {
        ((self.board >> (4 * sq)) & 7) as usize
    }
}

/// For a Sente-to-move position not over: whether a try wins at once, how
/// many legal moves, and how many of them do not end the game (leave the
/// lion capturable, or make a try).
#[inline]
fn move_summary(raw: u64) -> (bool, u32, u32) {
    let v = Board::new(raw);
    let lion_targets = ATTACKS[0][1][v.lion] & !v.own;
    let safe = lion_targets & !v.attacked;
    let winning_try = safe & 0b111 != 0;
    let (mut others, mut capture_checker) = (0, 0);
    let mut own = v.own & !(1 << v.lion);
    while own != 0 {
        let sq = own.trailing_zeros() as usize;
        own &= own - 1;
        let targets = ATTACKS[0][v.code(sq)][sq] & !v.own;
        others += targets.count_ones();
        capture_checker += u32::from(targets & v.checkers != 0);
    }
    let hand = (raw >> 48) & 0x3F;
    let kinds = (0..3).filter(|k| (hand >> (2 * k)) & 3 != 0).count() as u32;
    others += kinds * v.empty.count_ones();
    let total = others + lion_targets.count_ones();
    // A lion move onto the far rank ends the game (a try, won or lost).
    let alive = (safe & !0b111).count_ones()
        + match v.checkers.count_ones() {
            0 => others,
            1 => capture_checker,
            _ => 0,
        };
    (winning_try, total, alive)
}

/// Calls `f(child, lions, kind)` for each legal move of `raw` (Sente to move,
/// the game not over): the canonical normal form of the position after the
/// move, its lions' squares (Sente's, Gote's), and whether the game goes on
/// there ([`GOES_ON`]) or is over: won for the side to move there
/// ([`OVER_WON`]: the lion was left capturable) or lost ([`OVER_LOST`]: a
/// try that cannot be answered).
#[inline(always)]
pub(crate) fn for_each_child(raw: u64, mut f: impl FnMut(u64, (u32, u32), u8)) {
    let v = Board::new(raw);
    // After the move and the flip, Gote's lion is Sente's.
    let ours = flipped_square(v.their_lion);
    let mut emit = |child: u64, lion: usize, kind: u8| {
        let (c, o, t) = canonical_with_lions(flip(child), ours, flipped_square(lion as u32));
        f(c, (o, t), kind);
    };
    let base = raw ^ SIDE_BIT;
    let mut own = v.own;
    while own != 0 {
        let from = own.trailing_zeros() as usize;
        own &= own - 1;
        let code = v.code(from);
        let mut targets = ATTACKS[0][code][from] & !v.own;
        let lifted = base & !(0xF << (4 * from));
        while targets != 0 {
            let to = targets.trailing_zeros() as usize;
            targets &= targets - 1;
            let captured = v.code(to);
            let placed = if code == 4 && to < 3 { 5 } else { code as u64 };
            let mut child = (lifted & !(0xF << (4 * to))) | placed << (4 * to);
            if captured != 0 {
                child += 1 << (48 + 2 * (captured.min(4) - 2));
            }
            let kind = if code == 1 {
                if v.attacked & (1 << to) != 0 {
                    OVER_WON
                } else if to < 3 {
                    OVER_LOST
                } else {
                    GOES_ON
                }
            } else if v.checkers & !(1 << to) != 0 {
                OVER_WON
            } else {
                GOES_ON
            };
            emit(child, if code == 1 { to } else { v.lion }, kind);
        }
    }
    let hand = (raw >> 48) & 0x3F;
    for k in 0..3 {
        if (hand >> (2 * k)) & 3 == 0 {
            continue;
        }
        let taken = base - (1 << (48 + 2 * k));
        let mut empty = v.empty;
        while empty != 0 {
            let to = empty.trailing_zeros();
            empty &= empty - 1;
            let kind = if v.checkers != 0 { OVER_WON } else { GOES_ON };
            emit(taken | (k + 2) << (4 * to), v.lion, kind);
        }
    }
}

/// What the game is at the start of a child's turn, as [`for_each_child`]
/// says.
pub(crate) const GOES_ON: u8 = 0;
/// The game is over, the side to move has won (it can capture the lion).
pub(crate) const OVER_WON: u8 = 1;
/// The game is over, the side to move has lost (the opponent's try).
pub(crate) const OVER_LOST: u8 = 2;

/// A bit set threads fill together.
struct Bits(Vec<AtomicU64>);

impl Bits {
    fn new(size: u32) -> Bits {
        Bits(
            std::iter::repeat_with(|| AtomicU64::new(0)).take(size.div_ceil(64) as usize).collect(),
        )
    }

    /// Adds `index`; whether it was not there (two threads adding it at once
    /// may both say so).
    #[inline(always)]
    fn insert(&self, index: u32) -> bool {
        let word = &self.0[(index / 64) as usize];
        let bit = 1 << (index % 64);
        if word.load(Relaxed) & bit != 0 {
            return false;
        }
        word.fetch_or(bit, Relaxed);
        true
    }

    #[inline(always)]
    fn prefetch(&self, index: u32) {
        prefetch(self.0[(index / 64) as usize].as_ptr());
    }

    #[inline(always)]
    fn word(&self, w: usize) -> u64 {
        self.0[w].load(Relaxed)
    }

    fn count(&self) -> u64 {
        self.0.iter().map(|w| u64::from(w.load(Relaxed).count_ones())).sum()
    }
}

/// What [`enumerate`] finds.
pub(crate) struct Reachable {
    /// The reachable positions where the game goes on.
    pub(crate) bits: RankBits,
    /// Reachable positions where the game is over, lost and won for the side
    /// to move.
    pub(crate) over_lost: u64,
    pub(crate) over_won: u64,
    /// Reachable positions (over or not) that are their own mirror image.
    pub(crate) symmetric: u64,
    /// Passes over the set.
    pub(crate) passes: u32,
}

/// The reachable set from `root` (packed, canonical, Sente to move): four
/// bit sets over the universe, the positions found where the game goes on,
/// those of them expanded, and those found where it is over (won, lost).
pub(crate) fn enumerate(
    universe: &Universe,
    root: u64,
    threads: usize,
    progress: &(dyn Fn(Progress) + Sync),
) -> Reachable {
    let size = universe.size();
    let [seen, done, won, lost] = [(); 4].map(|_| Bits::new(size));
    let sets = [&seen, &won, &lost];
    let root_pos = Position::from_raw_unchecked(root);
    let kind = match root_pos.end() {
        None => GOES_ON,
        Some(e) if e.mover_wins() => OVER_WON,
        Some(_) => OVER_LOST,
    };
    sets[usize::from(kind)].insert(universe.rank(root));
    let found = AtomicU64::new(1);
    let expanded = AtomicU64::new(0);
    const CHUNK_WORDS: usize = 1 << 13;
    let words = seen.0.len();
    let chunks = words.div_ceil(CHUNK_WORDS);
    let mut pass = 0;
    loop {
        pass += 1;
        let next = AtomicUsize::new(0);
        let before = expanded.load(Relaxed);
        std::thread::scope(|s| {
            for _ in 0..threads.max(1) {
                s.spawn(|| {
                    let mut kids: Vec<(u32, u8)> = Vec::with_capacity(192);
                    let flush = |kids: &mut Vec<(u32, u8)>| {
                        let grown: u64 = kids
                            .iter()
                            .map(|&(i, kind)| u64::from(sets[usize::from(kind)].insert(i)))
                            .sum();
                        kids.clear();
                        grown
                    };
                    loop {
                        let chunk = next.fetch_add(1, Relaxed);
                        if chunk >= chunks {
                            break;
                        }
                        let (mut new, mut grown) = (0, 0);
                        for w in chunk * CHUNK_WORDS..((chunk + 1) * CHUNK_WORDS).min(words) {
                            loop {
                                let todo = seen.word(w) & !done.word(w);
                                if todo == 0 {
                                    break;
                                }
                                done.0[w].fetch_or(todo, Relaxed);
                                let mut bits = todo;
                                while bits != 0 {
                                    let index = (w * 64) as u32 + bits.trailing_zeros();
                                    bits &= bits - 1;
                                    new += 1;
                                    let raw = universe.unrank(index);
                                    for_each_child(raw, |child, (ours, theirs), kind| {
                                        let i = universe.rank_with_lions(child, ours, theirs);
                                        sets[usize::from(kind)].prefetch(i);
                                        kids.push((i, kind));
                                    });
                                    // In batches, for the memory accesses to
                                    // overlap.
                                    if kids.len() >= 128 {
                                        grown += flush(&mut kids);
                                    }
                                }
                                grown += flush(&mut kids);
                            }
                        }
                        let e = expanded.fetch_add(new, Relaxed) + new;
                        let f = found.fetch_add(grown, Relaxed) + grown;
                        progress(Progress::Enumerate { pass, found: f, expanded: e });
                    }
                });
            }
        });
        if expanded.load(Relaxed) == before {
            break;
        }
    }
    drop(done);
    // Only positions with both lions on file b can be their own mirror image.
    let mut symmetric = 0;
    for pair in 0..super::index::LION_PAIRS as u32 {
        let (ours, theirs) = universe.lion_squares(pair);
        if ours % 3 != 1 || theirs % 3 != 1 {
            continue;
        }
        let range = pair * universe.block()..(pair + 1) * universe.block();
        for set in sets {
            for w in range.start / 64..range.end.div_ceil(64) {
                let mut bits = set.word(w as usize);
                while bits != 0 {
                    let index = w * 64 + bits.trailing_zeros();
                    bits &= bits - 1;
                    if range.contains(&index) {
                        let raw = universe.unrank(index);
                        symmetric += u64::from(mirror(raw) == raw);
                    }
                }
            }
        }
    }
    let (over_won, over_lost) = (won.count(), lost.count());
    drop((won, lost));
    let bits = RankBits::from_word_iter(size, seen.0.into_iter().map(AtomicU64::into_inner));
    Reachable { bits, over_lost, over_won, symmetric, passes: pass }
}

/// The state bytes, eight to a word.
pub(crate) struct States {
    words: Vec<AtomicU64>,
}

impl States {
    fn new(len: u64) -> States {
        States {
            words: std::iter::repeat_with(|| AtomicU64::new(0))
                .take(len.div_ceil(8) as usize)
                .collect(),
        }
    }

    #[inline(always)]
    fn get(&self, r: u32) -> u8 {
        (self.words[(r / 8) as usize].load(Relaxed) >> (8 * (r % 8))) as u8
    }

    #[inline(always)]
    fn prefetch(&self, r: u32) {
        prefetch(self.words[(r / 8) as usize].as_ptr());
    }

    /// Applies `f` to byte `r` atomically while it returns a new value;
    /// whether it did.
    #[inline(always)]
    fn update(&self, r: u32, f: impl Fn(u8) -> Option<u8>) -> Option<u8> {
        let word = &self.words[(r / 8) as usize];
        let shift = 8 * (r % 8);
        let mut w = word.load(Relaxed);
        loop {
            let new = f((w >> shift) as u8)?;
            let nw = (w & !(0xFF << shift)) | u64::from(new) << shift;
            match word.compare_exchange_weak(w, nw, Relaxed, Relaxed) {
                Ok(_) => return Some(new),
                Err(actual) => w = actual,
            }
        }
    }

    /// The plain words (lane `r % 8` of word `r / 8` is byte `r`).
    pub(crate) fn into_words(self) -> Vec<u64> {
        self.words.into_iter().map(AtomicU64::into_inner).collect()
    }
}

/// Whether some byte of `w` equals `b`.
#[inline(always)]
const fn has_byte(w: u64, b: u8) -> bool {
    let v = w ^ (b as u64 * 0x0101_0101_0101_0101);
    (v.wrapping_sub(0x0101_0101_0101_0101) & !v & 0x8080_8080_8080_8080) != 0
}

/// The initial state of a reachable position where the game goes on (see
/// the module documentation).
fn initial_state(pos: Position) -> Result<u8, SolveError> {
    debug_assert!(pos.end().is_none());
    let (winning_try, total, alive) = move_summary(pos.raw());
    if winning_try {
        return Ok(RESOLVED + 1);
    }
    match (total, alive) {
        (0, _) => Ok(RESOLVED),
        (_, 0) => Ok(RESOLVED + 2),
        (_, n) if n < u32::from(RESOLVED) => Ok(n as u8),
        _ => Err(SolveError::TooManyMoves(pos.to_sfen())),
    }
}

/// Per-distance lists of universe indices, while short enough.
struct Lists {
    lists: Vec<Option<Vec<u32>>>,
}

impl Lists {
    fn add(&mut self, distance: usize, items: Vec<u32>) {
        if self.lists.len() <= distance {
            self.lists.resize_with(distance + 1, || Some(Vec::new()));
        }
        let slot = &mut self.lists[distance];
        if let Some(list) = slot {
            if list.len() + items.len() > LIST_CAP {
                *slot = None;
            } else {
                list.extend_from_slice(&items);
            }
        }
    }

    fn kill(&mut self, distance: usize) {
        if self.lists.len() <= distance {
            self.lists.resize_with(distance + 1, || Some(Vec::new()));
        }
        self.lists[distance] = None;
    }

    fn take(&mut self, distance: usize) -> Option<Vec<u32>> {
        match self.lists.get_mut(distance) {
            Some(slot) => slot.take(),
            None => Some(Vec::new()),
        }
    }
}

/// What the retrograde analysis gives: the state words.
pub(crate) struct Retro {
    pub(crate) states: Vec<u64>,
}

/// Retrograde analysis of the reachable set `bits`.
pub(crate) fn retrograde(
    universe: &Universe,
    bits: &RankBits,
    threads: usize,
    progress: &(dyn Fn(Progress) + Sync),
) -> Result<Retro, SolveError> {
    let total = bits.len();
    let states = States::new(total);
    let blocks = bits.blocks.len();
    let chunks = blocks.div_ceil(CHUNK_BLOCKS);
    let threads = threads.max(1);
    let by_distance: Vec<AtomicU64> =
        std::iter::repeat_with(|| AtomicU64::new(0)).take(MAX_DISTANCE as usize + 2).collect();
    let lists = Mutex::new(Lists { lists: Vec::new() });
    let resolved = AtomicU64::new(0);
    let error = Mutex::new(None);

    // The initial pass.
    let next = AtomicUsize::new(0);
    let initialised = AtomicU64::new(0);
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| {
                let mut local: [Vec<u32>; 3] = Default::default();
                let mut counts = [0u64; 3];
                loop {
                    let chunk = next.fetch_add(1, Relaxed);
                    if chunk >= chunks {
                        break;
                    }
                    let range = chunk * CHUNK_BLOCKS..((chunk + 1) * CHUNK_BLOCKS).min(blocks);
                    let (first, last) = (bits.before(range.start), bits.before(range.end));
                    // Whole words are written with one atomic operation; the
                    // words at the chunk's ends are shared with neighbours.
                    let mut word = 0u64;
                    let mut word_at = (first / 8) as usize;
                    let mut result = Ok(());
                    bits.for_each_in(range, |r, index| {
                        if result.is_err() {
                            return;
                        }
                        if (r / 8) as usize != word_at {
                            states.words[word_at].fetch_or(word, Relaxed);
                            word = 0;
                            word_at = (r / 8) as usize;
                        }
                        let pos = Position::from_raw_unchecked(universe.unrank(index));
                        match initial_state(pos) {
                            Ok(state) => {
                                word |= u64::from(state) << (8 * (r % 8));
                                if state >= RESOLVED {
                                    let d = usize::from(state - RESOLVED);
                                    counts[d] += 1;
                                    if local[d].len() < LIST_CAP {
                                        local[d].push(index);
                                    }
                                }
                            }
                            Err(e) => result = Err(e),
                        }
                    });
                    if word != 0 {
                        states.words[word_at].fetch_or(word, Relaxed);
                    }
                    if let Err(e) = result {
                        *error.lock().unwrap() = Some(e);
                        return;
                    }
                    let done = initialised.fetch_add(last - first, Relaxed) + last - first;
                    progress(Progress::Initialise { done, total });
                }
                let mut lists = lists.lock().unwrap();
                for d in 0..3 {
                    by_distance[d].fetch_add(counts[d], Relaxed);
                    if local[d].len() as u64 == counts[d] {
                        lists.add(d, std::mem::take(&mut local[d]));
                    } else {
                        lists.kill(d);
                    }
                }
                resolved.fetch_add(counts.iter().sum::<u64>(), Relaxed);
            });
        }
    });
    if let Some(e) = error.into_inner().unwrap() {
        return Err(e);
    }

    // The rounds.
    let mut d = 0usize;
    loop {
        let count = by_distance[d].load(Relaxed);
        if count == 0 && d > 2 {
            break;
        }
        if d as u32 >= MAX_DISTANCE {
            return Err(SolveError::TooLong(d as u32 + 1));
        }
        // In index order: predecessors of neighbouring positions are mostly
        // near each other (the same lion squares), so the caches serve them.
        let list = lists.lock().unwrap().take(d).map(|mut l| {
            l.sort_unstable();
            l
        });
        let target = RESOLVED + d as u8;
        let next = AtomicUsize::new(0);
        let found = AtomicU64::new(0);
        let lost = d.is_multiple_of(2);
        // The predecessors of position `index` that may change, their bit-set
        // blocks fetched while more are generated.
        let gather = |index: u32, q: &mut Vec<u32>| {
            let raw = universe.unrank(index);
            let m = mirror(raw);
            let mut add = |p: u64| {
                if let Some(i) = candidate(universe, p) {
                    bits.prefetch(i);
                    q.push(i);
                }
            };
            for x in [flip(raw), flip(m)] {
                // Moves of other pieces than the lion leave the lions where
                // they are: the predecessors are not canonical, or the game
                // was over in them, for all such moves at once.
                let (ours, theirs) = lions(x);
                if theirs >= 9 {
                    continue;
                }
                let lion_only = ours < 3 || matches!((ours % 3, theirs % 3), (2, _) | (1, 2));
                for_each_predecessor(x, lion_only, &mut add);
                if m == raw {
                    break;
                }
            }
        };
        // Updates the gathered predecessors; how many got a value.
        let flush = |q: &mut Vec<u32>, r: &mut Vec<(u32, u32)>, out: &mut Vec<u32>| {
            r.clear();
            for &i in q.iter() {
                if let Some(rank) = bits.rank(i) {
                    states.prefetch(rank);
                    r.push((rank, i));
                }
            }
            q.clear();
            let won = target + 1;
            let mut newly = 0;
            for &(rank, i) in r.iter() {
                let changed = if lost {
                    states.update(rank, |s| (s < RESOLVED).then_some(won))
                } else {
                    states.update(rank, |s| match s {
                        1 => Some(won),
                        s if s < RESOLVED => Some(s - 1),
                        _ => None,
                    })
                };
                if changed == Some(won) {
                    newly += 1;
                    if out.len() < LIST_CAP {
                        out.push(i);
                    }
                }
            }
            newly
        };
        let newly = AtomicU64::new(0);
        std::thread::scope(|s| {
            for _ in 0..threads {
                s.spawn(|| {
                    let (mut q, mut r, mut out) = (Vec::new(), Vec::new(), Vec::new());
                    let mut mine = 0u64;
                    let report = |found_now: u64, mine: u64| {
                        progress(Progress::Retrograde {
                            distance: d as u32,
                            found: found_now,
                            of: count,
                            resolved: resolved.load(Relaxed) + mine,
                            total,
                        });
                    };
                    // Predecessors are updated in batches, for the memory
                    // accesses to overlap.
                    const BATCH: usize = 192;
                    let mut run = |index: Option<u32>, out: &mut Vec<u32>| {
                        if let Some(index) = index {
                            gather(index, &mut q);
                        }
                        if q.len() >= BATCH || index.is_none() {
                            mine += flush(&mut q, &mut r, out);
                        }
                    };
                    match &list {
                        Some(list) => {
                            const STEP: usize = 4096;
                            loop {
                                let at = next.fetch_add(STEP, Relaxed);
                                if at >= list.len() {
                                    break;
                                }
                                let slice = &list[at..(at + STEP).min(list.len())];
                                for &index in slice {
                                    run(Some(index), &mut out);
                                }
                                run(None, &mut out);
                                let f = found.fetch_add(slice.len() as u64, Relaxed);
                                report(f + slice.len() as u64, newly.load(Relaxed));
                            }
                        }
                        None => loop {
                            let chunk = next.fetch_add(1, Relaxed);
                            if chunk >= chunks || found.load(Relaxed) >= count {
                                break;
                            }
                            let range =
                                chunk * CHUNK_BLOCKS..((chunk + 1) * CHUNK_BLOCKS).min(blocks);
                            let has = |lo: u64, hi: u64| {
                                (lo / 8..hi.div_ceil(8)).any(|w| {
                                    has_byte(states.words[w as usize].load(Relaxed), target)
                                })
                            };
                            if !has(bits.before(range.start), bits.before(range.end)) {
                                continue;
                            }
                            let mut hits = Vec::new();
                            for b in range {
                                let (lo, hi) = (bits.before(b), bits.before(b + 1));
                                if lo == hi || !has(lo, hi) {
                                    continue;
                                }
                                bits.for_each_in(b..b + 1, |rank, index| {
                                    if states.get(rank) == target {
                                        hits.push(index);
                                    }
                                });
                            }
                            for &index in &hits {
                                run(Some(index), &mut out);
                            }
                            run(None, &mut out);
                            let f = found.fetch_add(hits.len() as u64, Relaxed);
                            report(f + hits.len() as u64, newly.load(Relaxed));
                        },
                    }
                    newly.fetch_add(mine, Relaxed);
                    let mut lists = lists.lock().unwrap();
                    if (out.len() as u64) < mine {
                        lists.kill(d + 1);
                    } else {
                        lists.add(d + 1, out);
                    }
                });
            }
        });
        let newly = newly.into_inner();
        by_distance[d + 1].fetch_add(newly, Relaxed);
        resolved.fetch_add(newly, Relaxed);
        d += 1;
    }
    Ok(Retro { states: states.into_words() })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::index::normal_form;
    use crate::Move;

    /// Random positions with Sente to move and the game not over, from the
    /// full universe.
    fn positions(n: usize, seed: u64) -> Vec<Position> {
        let u = Universe::full();
        let mut s = seed;
        let mut out = Vec::new();
        while out.len() < n {
            s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let pos = Position::from_raw_unchecked(u.unrank((s >> 20) as u32 % u.size()));
            if pos.end().is_none() {
                out.push(pos);
            }
        }
        out
    }

    #[test]
    fn children_and_move_counts_agree_with_the_move_generator() {
        let mut moves: Vec<Move> = Vec::new();
        for pos in positions(20_000, 5) {
            moves.clear();
            pos.legal_moves(&mut moves);
            let mut expected: Vec<(u64, u8)> = moves
                .iter()
                .map(|&m| {
                    let child = pos.after(m);
                    let kind = match child.end() {
                        None => GOES_ON,
                        Some(e) if e.mover_wins() => OVER_WON,
                        Some(_) => OVER_LOST,
                    };
                    (normal_form(child).raw(), kind)
                })
                .collect();
            let mut got = Vec::new();
            for_each_child(pos.raw(), |c, lions, kind| {
                assert_eq!(lions, super::super::index::lions(c));
                got.push((c, kind));
            });
            expected.sort_unstable();
            got.sort_unstable();
            assert_eq!(got, expected, "{}", pos.to_sfen());
            let alive = expected.iter().filter(|&&(_, kind)| kind == GOES_ON).count() as u32;
            let (winning_try, total, alive_count) = move_summary(pos.raw());
            assert_eq!(winning_try, pos.winning_try().is_some(), "{}", pos.to_sfen());
            assert_eq!(total, moves.len() as u32, "{}", pos.to_sfen());
            assert_eq!(alive_count, alive, "{}", pos.to_sfen());
        }
    }

    #[test]
    fn predecessors_are_the_positions_a_move_leads_from_once_per_move() {
        let mut moves: Vec<Move> = Vec::new();
        for pos in positions(5_000, 9) {
            moves.clear();
            pos.legal_moves(&mut moves);
            for &m in &moves {
                let x = pos.after(m);
                let mut preds = Vec::new();
                for_each_predecessor(x.raw(), false, |q| preds.push(q));
                // Each predecessor really moves to x, by as many moves as it
                // appears.
                for &q in &preds {
                    let qp = Position::from_raw_unchecked(q);
                    let mut qm = Vec::new();
                    qp.legal_moves(&mut qm);
                    let n = qm.iter().filter(|&&mm| qp.after(mm) == x).count();
                    assert_eq!(preds.iter().filter(|&&p| p == q).count(), n);
                }
                let n = moves.iter().filter(|&&mm| pos.after(mm) == x).count();
                assert_eq!(preds.iter().filter(|&&q| q == pos.raw()).count(), n, "{m}");
            }
        }
    }
}
