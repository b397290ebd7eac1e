//! Large zero-initialised arrays backed by anonymous memory with transparent huge pages requested.
//!
//! The BFS touches its arrays at random; with 4 KiB pages nearly every access also misses the TLB. An
//! anonymous mapping advised `MADV_HUGEPAGE` gets 2 MiB pages where the kernel can provide them (THP is in
//! `madvise` mode on the build machine), and it is zero-filled lazily, so allocating costs nothing up front.
//! A `vec![0; n]` would give neither guarantee: the allocator may hand back small pages or touch them.

use bytemuck::Zeroable;
use memmap2::{MmapMut, MmapOptions};
use std::marker::PhantomData;
use std::ops::{Deref, DerefMut};

/// A fixed-length, zero-initialised slice in its own anonymous mapping, unmapped on drop.
///
/// Only `Zeroable` element types are allowed: the kernel hands out zeroed pages, and zero must be a value.
pub struct Zeroed<T: Zeroable> {
    map: MmapMut,
    len: usize,
    _elements: PhantomData<T>,
}

impl<T: Zeroable> Zeroed<T> {
    /// `len` zeroed elements. Fails if the kernel refuses the mapping (or `len` elements overflow `usize`).
    pub fn new(len: usize) -> std::io::Result<Zeroed<T>> {
        let bytes = len.checked_mul(size_of::<T>()).ok_or(std::io::ErrorKind::OutOfMemory)?;
        let map = MmapOptions::new().len(bytes).map_anon()?;
        // Mappings start on a page boundary, which is aligned for any element type we store.
        assert!(map.as_ptr().align_offset(align_of::<T>()) == 0, "anonymous mapping is not aligned");
        // Only a hint: a kernel without THP (or a platform without the advice) keeps small pages.
        #[cfg(target_os = "linux")]
        let _ = map.advise(memmap2::Advice::HugePage);
        Ok(Zeroed { map, len, _elements: PhantomData })
    }
}

impl<T: Zeroable> Deref for Zeroed<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        // SAFETY: the mapping is aligned for `T` (checked in `new`), holds `len * size_of::<T>()` bytes and
        // lives as long as `self`. Its bytes started as zeros, a valid `T` (`T: Zeroable`), and have only ever
        // been written through this `[T]` view, so every element is a valid `T`.
        unsafe { std::slice::from_raw_parts(self.map.as_ptr().cast::<T>(), self.len) }
    }
}

impl<T: Zeroable> DerefMut for Zeroed<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        // SAFETY: as in `deref`; `&mut self` makes the access exclusive.
        unsafe { std::slice::from_raw_parts_mut(self.map.as_mut_ptr().cast::<T>(), self.len) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicU64;
    use std::sync::atomic::Ordering::Relaxed;

    #[test]
    fn arrays_start_zeroed_and_are_writable() {
        let mut bytes = Zeroed::<u8>::new(10_000).unwrap();
        assert!(bytes.iter().all(|&b| b == 0));
        bytes[9_999] = 7;
        assert_eq!(bytes[9_999], 7);
        let words = Zeroed::<AtomicU64>::new(3).unwrap();
        words[2].fetch_or(5, Relaxed);
        assert_eq!(words[2].load(Relaxed), 5);
        assert!(Zeroed::<u8>::new(0).unwrap().is_empty());
        assert!(Zeroed::<AtomicU64>::new(usize::MAX).is_err(), "an overflowing size is an error, not a panic");
    }
}
