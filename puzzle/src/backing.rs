//! Table memory: every table a process uses is a private copy of its file, in anonymous memory.
//!
//! A mapping of the file would read whatever the file holds at each access: a table rewritten in place (an
//! ordinary `cp` of another file over it) gives other bytes or zeros meanwhile, which the checksum taken
//! earlier does not see, and a truncated one kills the process with `SIGBUS` at the next lookup past its new
//! end. A [`Private`] copy, read when the table is opened, cannot change under the search, and the payload
//! checksum, taken over it, vouches for the bytes every lookup reads. It is read in 8 MiB pieces on every
//! core, from the page cache at memory speed: the 7-8 set's 288 MB in a few tens of milliseconds.
//!
//! A search reads its tables at random, so the page size behind them decides how often a lookup misses the
//! TLB (the same 7-8 bytes in 2 MiB and in 4 KiB pages ran 15-20% apart on Korf's 100, one thread). The copy
//! is 2 MiB aligned and advised `MADV_HUGEPAGE`, so it is in 2 MiB pages wherever transparent huge pages are
//! enabled, whatever the page cache's history. The price is memory: processes that use the same table no
//! longer share the page cache's copy (which the kernel may then reclaim).

use rayon::prelude::*;
use std::fs::File;
use std::io;

/// The huge page size this module works in (x86-64 and arm64 with 4 KiB pages).
const HUGE: usize = 2 << 20;

/// Bytes read by one `pread` of the parallel read.
const CHUNK: usize = 8 << 20;

/// A read-only private copy of a file's bytes, in anonymous memory.
pub struct Private {
    ptr: *mut u8,
    len: usize,
    /// The bytes mapped (a whole number of pages, at least one), for `munmap`.
    mapped: usize,
}

// SAFETY: the memory is owned by the value alone and read-only once built (`mprotect`), so it may be read from
// any thread and handed to another.
unsafe impl Send for Private {}
// SAFETY: as above: shared references only ever read.
unsafe impl Sync for Private {}

impl std::ops::Deref for Private {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        // SAFETY: `ptr..ptr+len` is inside the mapping this value owns, readable and initialised by `read`, and
        // unmapped only by `drop`.
        unsafe { std::slice::from_raw_parts(self.ptr, self.len) }
    }
}

impl Drop for Private {
    fn drop(&mut self) {
        // SAFETY: the mapping `read` made, `mapped` bytes at `ptr`; no reference into it outlives `self`.
        unsafe { libc::munmap(self.ptr.cast(), self.mapped) };
    }
}

impl Private {
    /// The first `len` bytes of `file`, read into fresh anonymous memory (2 MiB aligned when it is at least that
    /// long). An error if the file holds fewer bytes by the time they are read.
    pub fn read(file: &File, len: usize) -> io::Result<Private> {
        use libc::{c_void, MAP_ANONYMOUS, MAP_FAILED, MAP_PRIVATE, PROT_READ, PROT_WRITE};
        let page = page_size();
        let mapped = len.max(1).next_multiple_of(page);
        let align = if mapped >= HUGE { HUGE } else { page };
        // SAFETY: a fresh private anonymous mapping, `align` bytes longer than needed so that an aligned range of
        // `mapped` bytes lies inside it; nothing else refers to it.
        let raw = unsafe {
            libc::mmap(std::ptr::null_mut(), mapped + align, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        };
        if raw == MAP_FAILED {
            return Err(io::Error::last_os_error());
        }
        let lead = (raw as usize).next_multiple_of(align) - raw as usize;
        let ptr = (raw as usize + lead) as *mut u8;
        // SAFETY: the ranges unmapped are the parts of the fresh mapping before and after `ptr..ptr+mapped`
        // (lead < align), which nothing refers to; the advice is about memory not yet touched.
        unsafe {
            if lead > 0 {
                libc::munmap(raw, lead);
            }
            libc::munmap((ptr as usize + mapped) as *mut c_void, align - lead);
            #[cfg(target_os = "linux")]
            libc::madvise(ptr.cast(), mapped, libc::MADV_HUGEPAGE);
        }
        let private = Private { ptr, len, mapped };
        fill(&private, file)?;
        // SAFETY: the mapping is ours; read-only from here on, which `Sync` relies on.
        if unsafe { libc::mprotect(ptr.cast(), mapped, PROT_READ) } != 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(private)
    }
}

/// Reads the file's first `private.len` bytes into `private`, in chunks on all cores.
fn fill(private: &Private, file: &File) -> io::Result<()> {
    use std::os::unix::fs::FileExt;
    let base = private.ptr as usize;
    (0..private.len.div_ceil(CHUNK)).into_par_iter().try_for_each(|k| {
        let start = k * CHUNK;
        let end = (start + CHUNK).min(private.len);
        // SAFETY: `start..end` lies inside the writable mapping; the chunks are disjoint, so no two threads
        // write the same bytes, and nothing reads them before `fill` returns.
        let chunk = unsafe { std::slice::from_raw_parts_mut((base + start) as *mut u8, end - start) };
        file.read_exact_at(chunk, start as u64).map_err(|e| {
            if e.kind() == io::ErrorKind::UnexpectedEof {
                io::Error::new(e.kind(), "the file became shorter while it was read")
            } else {
                e
            }
        })
    })
}

#[cfg(target_os = "linux")]
fn page_size() -> usize {
    // SAFETY: sysconf has no preconditions; it returns -1 only for unknown names.
    let size = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    usize::try_from(size).unwrap_or(4096)
}

#[cfg(not(target_os = "linux"))]
fn page_size() -> usize {
    4096
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    /// The copy holds the file's bytes, and keeps them when the file is rewritten or truncated afterwards
    /// (what a mapping of the file would not do: other bytes, or `SIGBUS`).
    #[test]
    fn the_copy_keeps_its_bytes_when_the_file_changes() {
        let dir = std::env::temp_dir().join(format!("stp-copied-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("copied.bin");
        let bytes: Vec<u8> = (0..(19 << 20) + 123u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8).collect();
        std::fs::File::create(&path).unwrap().write_all(&bytes).unwrap();
        let file = std::fs::File::open(&path).unwrap();
        let copy = Private::read(&file, bytes.len()).unwrap();
        assert_eq!(&copy[..], &bytes[..]);
        assert!((copy.as_ptr() as usize).is_multiple_of(HUGE));
        std::fs::File::create(&path).unwrap().write_all(&bytes[..1000]).unwrap();
        assert_eq!(&copy[..], &bytes[..]);
        let short = Private::read(&file, bytes.len()).err().unwrap();
        assert!(short.to_string().contains("became shorter"), "{short}");
        let small = Private::read(&file, 10).unwrap();
        assert_eq!(&small[..], &bytes[..10]);
        drop(copy);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
