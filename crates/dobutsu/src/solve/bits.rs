//! Bit sets over a [`super::Universe`]: the reachable set, with a rank (how
//! many members come before an index) in the same cache line as the bit.
//!
//! The set is stored in 64-byte blocks of eight words: word 0 holds the number
//! of members in all earlier blocks, words 1 to 7 hold 448 bits. Membership and
//! rank of an index read one block.

/// Bits in a block.
pub(crate) const BLOCK_BITS: u32 = 448;

/// The block, word and bit of `index`.
#[inline(always)]
pub(crate) const fn locate(index: u32) -> (usize, usize, u64) {
    let block = index / BLOCK_BITS;
    let r = index % BLOCK_BITS;
    (block as usize, 1 + (r / 64) as usize, 1 << (r % 64))
}

#[repr(C, align(64))]
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Block(pub(crate) [u64; 8]);

/// How many blocks `size` bits need.
pub(crate) const fn blocks_for(size: u32) -> usize {
    size.div_ceil(BLOCK_BITS) as usize
}

/// Hints the processor to fetch the cache line at `p` (no-op elsewhere than
/// x86-64).
#[inline(always)]
pub(crate) fn prefetch<T>(p: *const T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch is only a hint; it never faults, whatever the address.
    unsafe {
        std::arch::x86_64::_mm_prefetch(p as *const i8, std::arch::x86_64::_MM_HINT_T0);
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}

/// A bit set with ranks: the reachable set of a database.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct RankBits {
    pub(crate) blocks: Vec<Block>,
    size: u32,
    len: u64,
}

impl RankBits {
    /// The set whose bits are `words` (7 a block, block after block; missing
    /// words are zero), of indices below `size`.
    pub(crate) fn from_words(size: u32, words: &[u64]) -> RankBits {
        RankBits::from_word_iter(size, words.iter().copied())
    }

    /// [`RankBits::from_words`] from an iterator (words past the blocks are
    /// ignored).
    pub(crate) fn from_word_iter(size: u32, words: impl IntoIterator<Item = u64>) -> RankBits {
        let mut words = words.into_iter();
        let mut total = 0u64;
        let blocks = (0..blocks_for(size))
            .map(|_| {
                let mut block = [0u64; 8];
                block[0] = total;
                for word in &mut block[1..] {
                    *word = words.next().unwrap_or(0);
                    total += u64::from(word.count_ones());
                }
                Block(block)
            })
            .collect();
        RankBits { blocks, size, len: total }
    }

    /// The bit words, 7 a block (what a database file stores).
    pub(crate) fn words(&self) -> impl Iterator<Item = u64> + '_ {
        self.blocks.iter().flat_map(|b| b.0[1..].iter().copied())
    }

    /// How many members.
    pub(crate) fn len(&self) -> u64 {
        self.len
    }

    /// Members before `block`.
    #[inline(always)]
    pub(crate) fn before(&self, block: usize) -> u64 {
        self.blocks.get(block).map_or(self.len, |b| b.0[0])
    }

    /// The number of members below `index` when `index` is a member.
    #[inline(always)]
    pub(crate) fn rank(&self, index: u32) -> Option<u32> {
        if index >= self.size {
            return None;
        }
        let (b, w, bit) = locate(index);
        let block = &self.blocks[b].0;
        if block[w] & bit == 0 {
            return None;
        }
        let mut r = block[0] + u64::from((block[w] & (bit - 1)).count_ones());
        for word in &block[1..w] {
            r += u64::from(word.count_ones());
        }
        Some(r as u32)
    }

    /// Hints the processor to fetch the block of `index`.
    #[inline(always)]
    pub(crate) fn prefetch(&self, index: u32) {
        if let Some(b) = self.blocks.get((index / BLOCK_BITS) as usize) {
            prefetch(b.0.as_ptr());
        }
    }

    /// Calls `f(rank, index)` for each member in blocks `range`, in order.
    #[inline]
    pub(crate) fn for_each_in(&self, range: std::ops::Range<usize>, mut f: impl FnMut(u32, u32)) {
        for b in range {
            let block = &self.blocks[b].0;
            let mut r = block[0] as u32;
            for (w, &word) in block[1..].iter().enumerate() {
                let mut bits = word;
                let base = b as u32 * BLOCK_BITS + w as u32 * 64;
                while bits != 0 {
                    f(r, base + bits.trailing_zeros());
                    r += 1;
                    bits &= bits - 1;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_count_the_members_before() {
        let size = 5000;
        let members: Vec<u32> = (0..size).filter(|i| i % 7 == 3 || i % 11 == 0).collect();
        let mut words = vec![0u64; blocks_for(size) * 7];
        for &i in &members {
            words[(i / 64) as usize] |= 1 << (i % 64);
        }
        let bits = RankBits::from_words(size, &words);
        assert_eq!(bits.len(), members.len() as u64);
        for i in 0..size {
            assert_eq!(bits.rank(i), members.binary_search(&i).ok().map(|r| r as u32), "{i}");
        }
        assert_eq!(bits.rank(size), None);
        let mut seen = Vec::new();
        bits.for_each_in(0..blocks_for(size), |r, i| seen.push((r, i)));
        let expected: Vec<(u32, u32)> =
            members.iter().enumerate().map(|(r, &i)| (r as u32, i)).collect();
        assert_eq!(seen, expected);
        assert_eq!(bits.words().collect::<Vec<u64>>(), words);
    }
}
