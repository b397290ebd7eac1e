//! Large zero-initialised arrays backed by anonymous memory with transparent huge pages requested.
//!
//! The BFS touches its arrays at random; with 4 KiB pages nearly every access also misses the TLB. An
//! anonymous mapping advised `MADV_HUGEPAGE` gets 2 MiB pages where the kernel can provide them (THP is in
//! `madvise` mode on the build machine), and it is zero-filled lazily, so allocating costs nothing up front.

use std::marker::PhantomData;
use std::ops::{Deref, DerefMut};
use std::ptr::NonNull;
use std::sync::atomic::AtomicU64;

/// Types whose all-zero bit pattern is a valid value.
///
/// # Safety
/// Implementors must be valid when every byte is zero.
pub unsafe trait Zeroable {}
// SAFETY: zero is a valid u8 and a valid (zero) AtomicU64.
unsafe impl Zeroable for u8 {}
// SAFETY: AtomicU64 has the same in-memory representation as u64.
unsafe impl Zeroable for AtomicU64 {}

/// A fixed-length, zero-initialised slice in its own anonymous mapping, unmapped on drop.
pub struct Zeroed<T: Zeroable> {
    ptr: NonNull<T>,
    len: usize,
    _owns: PhantomData<T>,
}

// SAFETY: `Zeroed<T>` owns its elements exclusively, like a `Box<[T]>`.
unsafe impl<T: Zeroable + Send> Send for Zeroed<T> {}
// SAFETY: shared access only hands out `&[T]`, so it is as thread-safe as `T` is.
unsafe impl<T: Zeroable + Sync> Sync for Zeroed<T> {}

impl<T: Zeroable> Zeroed<T> {
    /// `len` zeroed elements. Fails only if the kernel refuses the mapping.
    pub fn new(len: usize) -> std::io::Result<Zeroed<T>> {
        let bytes = Self::bytes(len);
        if bytes == 0 {
            return Ok(Zeroed { ptr: NonNull::dangling(), len, _owns: PhantomData });
        }
        // SAFETY: a fresh private anonymous mapping; no existing memory is affected.
        let ptr = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                bytes,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if ptr == libc::MAP_FAILED {
            return Err(std::io::Error::last_os_error());
        }
        // SAFETY: `ptr..ptr+bytes` is the mapping just created. The advice is only a hint, so its result is
        // ignored (a kernel without THP simply keeps small pages).
        unsafe { libc::madvise(ptr, bytes, libc::MADV_HUGEPAGE) };
        // The mapping is page-aligned, hence aligned for any T, and non-null because it did not fail.
        Ok(Zeroed { ptr: NonNull::new(ptr.cast()).expect("mmap returned null"), len, _owns: PhantomData })
    }

    fn bytes(len: usize) -> usize {
        len * std::mem::size_of::<T>()
    }
}

impl<T: Zeroable> Deref for Zeroed<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        // SAFETY: the mapping holds `len` elements, all initialised (zero is valid for `T: Zeroable`), and
        // lives as long as `self`.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl<T: Zeroable> DerefMut for Zeroed<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        // SAFETY: as in `deref`, and `&mut self` makes the access exclusive.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len) }
    }
}

impl<T: Zeroable> Drop for Zeroed<T> {
    fn drop(&mut self) {
        let bytes = Self::bytes(self.len);
        if bytes != 0 {
            // SAFETY: unmaps exactly the mapping created in `new`; no reference to it outlives `self`.
            unsafe { libc::munmap(self.ptr.as_ptr().cast(), bytes) };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
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
    }
}
