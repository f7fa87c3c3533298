//! Memory for the hash tables (the search's and the checkmate solver's).
//!
//! A table of several GiB must be made without delay and without aborting the
//! process when the memory is not there:
//! - it is asked of the allocator zeroed with the smallest alignment, which
//!   glibc answers for large blocks with fresh pages from the kernel, already zero
//!   and touched only as the search reaches them (an aligned zeroed allocation
//!   would write every byte first: seconds for a large table, on the game's clock);
//! - the alignment the table wants (a cache line, or 2 MiB for huge pages) is
//!   made by starting the slice that far into the block;
//! - a failure is `None`, never an abort.

use std::alloc::Layout;
use std::ptr::NonNull;

/// Types whose all-zero bit pattern is a valid value (and the empty entry).
///
/// # Safety
/// An implementor must be valid when every byte is zero, and need no `Drop`.
pub unsafe trait Zeroable {}

// SAFETY: zero is a valid value of each integer and atomic integer.
unsafe impl Zeroable for u64 {}
// SAFETY: as above.
unsafe impl Zeroable for std::sync::atomic::AtomicU64 {}
// SAFETY: arrays of zeroable values are zeroable.
unsafe impl<T: Zeroable, const N: usize> Zeroable for [T; N] {}

/// A fixed-length slice of `T` in zeroed memory aligned to `align`.
pub struct ZeroedSlice<T> {
    /// The block as allocated, and its layout (for `dealloc`).
    block: NonNull<u8>,
    layout: Layout,
    start: NonNull<T>,
    len: usize,
}

// SAFETY: the slice owns its memory like a `Box<[T]>`.
unsafe impl<T: Send> Send for ZeroedSlice<T> {}
// SAFETY: shared access only hands out `&[T]`.
unsafe impl<T: Sync> Sync for ZeroedSlice<T> {}

impl<T: Zeroable> ZeroedSlice<T> {
    /// As [`ZeroedSlice::try_new`], but asked of the allocator with `align`
    /// itself, which writes every byte now: slower to make, and the memory is the
    /// process's at once (the checkmate solver's command line wants its huge
    /// pages, advised after this, and its figures measured without first-touch
    /// costs).
    pub fn try_new_written(len: usize, align: usize) -> Option<ZeroedSlice<T>> {
        let len = len.max(1);
        let align = align.max(std::mem::align_of::<T>());
        if std::mem::needs_drop::<T>() {
            return None;
        }
        let bytes = len.checked_mul(std::mem::size_of::<T>())?.max(1);
        if physical_memory().is_some_and(|total| bytes as u64 > total) {
            return None;
        }
        let layout = Layout::from_size_align(bytes, align).ok()?;
        // SAFETY: the layout's size is non-zero.
        let block = NonNull::new(unsafe { std::alloc::alloc_zeroed(layout) })?;
        Some(ZeroedSlice { block, layout, start: block.cast(), len })
    }

    /// `len` (at least 1) zero values of `T` starting at a multiple of `align` (a
    /// power of two, raised to `T`'s own alignment), or `None` when the memory
    /// cannot be had.
    pub fn try_new(len: usize, align: usize) -> Option<ZeroedSlice<T>> {
        let len = len.max(1);
        let align = align.max(std::mem::align_of::<T>());
        if !align.is_power_of_two() || std::mem::needs_drop::<T>() {
            return None;
        }
        let bytes = len.checked_mul(std::mem::size_of::<T>())?.max(1);
        if physical_memory().is_some_and(|total| bytes as u64 > total) {
            // It would be granted (pages are only promised) and then swap or be
            // killed as the search fills it.
            return None;
        }
        let layout = Layout::from_size_align(bytes.checked_add(align)?, 16).ok()?;
        // SAFETY: the layout's size is non-zero.
        let block = NonNull::new(unsafe { std::alloc::alloc_zeroed(layout) })?;
        let offset = block.as_ptr().align_offset(align);
        if offset > align {
            // SAFETY: allocated just above with this layout.
            unsafe { std::alloc::dealloc(block.as_ptr(), layout) };
            return None;
        }
        // SAFETY: `offset <= align`, so `offset + bytes` stays inside the block of
        // `bytes + align` bytes; the start is aligned for `T`, non-null.
        let start = unsafe { NonNull::new_unchecked(block.as_ptr().add(offset) as *mut T) };
        Some(ZeroedSlice { block, layout, start, len })
    }
}

/// The machine's memory in bytes, where the system says (Linux: `MemTotal`).
pub fn physical_memory() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    kib.checked_mul(1024)
}

impl<T> ZeroedSlice<T> {
    #[inline(always)]
    pub fn as_slice(&self) -> &[T] {
        // SAFETY: `start` holds `len` values of `T`, all zero and so valid
        // (`T: Zeroable`, checked in `try_new`), for the life of `self`.
        unsafe { std::slice::from_raw_parts(self.start.as_ptr(), self.len) }
    }

    #[inline(always)]
    pub fn as_mut_slice(&mut self) -> &mut [T] {
        // SAFETY: as above, and `&mut self` makes the access unique.
        unsafe { std::slice::from_raw_parts_mut(self.start.as_ptr(), self.len) }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The address of the first value (for the huge-page advice).
    pub fn as_ptr(&self) -> *mut T {
        self.start.as_ptr()
    }
}

impl<T> Drop for ZeroedSlice<T> {
    fn drop(&mut self) {
        // SAFETY: allocated in `try_new` with this layout; `T` needs no drop.
        unsafe { std::alloc::dealloc(self.block.as_ptr(), self.layout) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU64, Ordering};

    #[repr(align(64))]
    struct Line([AtomicU64; 8]);
    // SAFETY: atomics, zero valid.
    unsafe impl Zeroable for Line {}

    #[test]
    fn zeroed_aligned_and_writable() {
        for (align, written) in [(1usize, false), (64, true), (128, false), (2 << 20, true)] {
            let mut s = if written {
                ZeroedSlice::<[u64; 16]>::try_new_written(1000, align).unwrap()
            } else {
                ZeroedSlice::<[u64; 16]>::try_new(1000, align).unwrap()
            };
            assert_eq!(s.as_ptr() as usize % align, 0);
            assert_eq!(s.len(), 1000);
            assert!(s.as_slice().iter().all(|c| c.iter().all(|&x| x == 0)));
            s.as_mut_slice()[999][15] = 7;
            assert_eq!(s.as_slice()[999][15], 7);
        }
        let lines = ZeroedSlice::<Line>::try_new(3, 1).unwrap();
        assert_eq!(lines.as_ptr() as usize % 64, 0);
        lines.as_slice()[2].0[7].store(5, Ordering::Relaxed);
        assert_eq!(lines.as_slice()[2].0[7].load(Ordering::Relaxed), 5);
    }

    #[test]
    fn more_than_the_machine_has_is_none() {
        if let Some(total) = physical_memory() {
            assert!(total > 1 << 20);
            let len = (total / 8 + 1) as usize;
            assert!(ZeroedSlice::<u64>::try_new(len, 64).is_none());
        }
    }

    #[test]
    fn too_large_is_none() {
        assert!(ZeroedSlice::<u64>::try_new(usize::MAX / 4, 64).is_none());
        assert!(ZeroedSlice::<u64>::try_new(1 << 50, 64).is_none());
        assert!(ZeroedSlice::<u64>::try_new(4, 24).is_none());
    }

    /// This process's resident memory in bytes, where the system says (Linux:
    /// `/proc/self/statm`, in pages of 4 KiB).
    fn resident_bytes() -> Option<u64> {
        let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
        let pages: u64 = statm.split_whitespace().nth(1)?.parse().ok()?;
        Some(pages * 4096)
    }

    const MIB: u64 = 1 << 20;

    #[test]
    fn a_large_table_is_made_without_touching_it() {
        let Some(before) = resident_bytes() else {
            eprintln!("skipped a_large_table_is_made_without_touching_it: no /proc/self/statm");
            return;
        };
        // 1 GiB made lazily: only the page read here becomes the process's.
        let lazy = ZeroedSlice::<u64>::try_new(1 << 27, 2 << 20).expect("1 GiB of address space");
        assert_eq!(lazy.as_slice()[(1 << 27) - 1], 0);
        let grown = resident_bytes().unwrap().saturating_sub(before);
        assert!(grown < 64 * MIB, "a lazy table made {} MiB resident", grown / MIB);
        drop(lazy);
        // Writing a word on every page of 128 MiB makes them resident: the
        // measure sees touched pages.
        let mut table = ZeroedSlice::<u64>::try_new(1 << 24, 2 << 20).expect("128 MiB");
        let before = resident_bytes().unwrap();
        for page in table.as_mut_slice().chunks_mut(512) {
            page[0] = 1;
        }
        let grown = resident_bytes().unwrap().saturating_sub(before);
        assert!(grown >= 120 * MIB, "writing made only {} MiB resident", grown / MIB);
        drop(table);
    }
}
