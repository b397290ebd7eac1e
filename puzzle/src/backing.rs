//! Table memory in 2 MiB pages, whatever the page cache's history.
//!
//! A search reads its tables at random, so the page size behind a mapping decides how often a lookup
//! misses the TLB: the same 7-8 bytes in two files ran 15-20% apart on Korf's 100 (one thread), one file
//! mapped with 272 MB of 2 MiB pages, the other with 14 MB. The kernel maps a file with 2 MiB pages only
//! where its page cache holds 2 MiB folios, and that depends on how the cache was filled: a file just
//! written by the builder, or read in small pieces, sits in small folios until it is evicted. Nor can the
//! cache be collapsed on request here (`MADV_COLLAPSE` on a file needs `CONFIG_READ_ONLY_THP_FOR_FS`). So:
//!
//! * [`advise`], when a table is mapped: `MADV_HUGEPAGE`, so that what a fault reads from disk comes in
//!   2 MiB folios, and a start from a cold cache is mapped with 2 MiB pages;
//! * [`rehome`], once the bytes have been read (the payload checksum reads them all): when less than 75% of
//!   the mapping is in 2 MiB pages (`FilePmdMapped` of its entry in `/proc/self/smaps`), the bytes are copied
//!   into anonymous memory advised `MADV_HUGEPAGE`, which is moved over the mapping with `mremap`, at the same
//!   address. Other threads may be reading the table all the while: the bytes at every address stay the
//!   same, only the memory behind them changes (as when the kernel migrates a page), so pointers into the
//!   table stay valid and nothing needs to stop.
//!
//! The copy is private memory (the page cache's copy can be reclaimed), so processes that map the same table
//! no longer share it once it is moved: on a well-filled cache nothing is moved.
//!
//! A table up to [`COPIED_UP_TO`] is never mapped from its file: it is read into a [`Private`] copy when it is
//! opened. A mapping of the file reads whatever the file holds at each access: a table rewritten in place (an
//! ordinary `cp` of the same valid file over it) gives other bytes or zeros meanwhile, which the checksum
//! taken earlier does not see, and a truncated one kills the process with `SIGBUS` at the next lookup past its
//! new end. The copy cannot change under the search, and the payload checksum, taken over it, vouches for the
//! bytes every lookup reads. Larger tables stay mapped until [`rehome`] moves them (a copy of the 7-8 set at
//! start-up made Korf's 100 1.3x slower as a whole process): a file rewritten under a process within its
//! first second, or before a table that is already in huge pages is moved, still reaches it.

use memmap2::Mmap;
use rayon::prelude::*;
use std::fs::File;
use std::io;

/// The huge page size this module works in (x86-64 and arm64 with 4 KiB pages).
const HUGE: usize = 2 << 20;

/// Tables up to this size are read into a [`Private`] copy, never mapped: every 3x3 and 4x4 table but the
/// 8-tile one, and each 6-tile table of 5x5.
pub const COPIED_UP_TO: u64 = 64 << 20;

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

/// Below this share of 2 MiB pages a mapping is moved. A file read from a cold cache without the advice came
/// out 83% in 2 MiB pages (the 7-8 set's larger table), with it 97%; one just written or copied, 0 to 40%.
const ENOUGH_PERCENT: u64 = 75;

/// How one mapping is backed, from its entry in `/proc/self/smaps`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Backing {
    /// Bytes the entry spans.
    pub bytes: u64,
    /// Bytes mapped from the page cache with 2 MiB pages (`FilePmdMapped`, or `ShmemPmdMapped` on tmpfs).
    pub file_huge: u64,
    /// Bytes of anonymous memory in 2 MiB pages (`AnonHugePages`).
    pub anon_huge: u64,
}

impl Backing {
    /// Bytes in 2 MiB pages, of either kind.
    pub fn huge(&self) -> u64 {
        self.file_huge + self.anon_huge
    }
}

/// What [`rehome`] found and did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rehomed {
    /// Enough of the mapping was already in 2 MiB pages; left alone.
    Kept(Backing),
    /// Copied into anonymous huge pages.
    Moved {
        /// The backing found.
        before: Backing,
        /// The backing after the move.
        after: Backing,
    },
    /// Not tried, and why (no transparent huge pages, a small or unaligned mapping, no smaps).
    Skipped(&'static str),
}

/// Advises the kernel to read the mapping's pages from disk in 2 MiB folios. Advice only: an error (an old
/// kernel, another system) changes nothing but speed, so it is ignored.
pub fn advise(map: &Mmap) {
    #[cfg(target_os = "linux")]
    let _ = map.advise(memmap2::Advice::HugePage);
    #[cfg(not(target_os = "linux"))]
    let _ = map;
}

/// The backing of the smaps entry that starts at `addr`, if there is one.
pub fn backing_at(addr: usize) -> Option<Backing> {
    let smaps = std::fs::read_to_string("/proc/self/smaps").ok()?;
    parse_smaps(&smaps, addr)
}

/// Reads the entry starting at `addr` out of smaps text: a header line `start-end perms ...` in hex, then
/// `Key: value kB` lines up to the next header.
fn parse_smaps(smaps: &str, addr: usize) -> Option<Backing> {
    let mut lines = smaps.lines();
    let bytes = lines.by_ref().find_map(|line| {
        let range = line.split(' ').next()?;
        let (start, end) = range.split_once('-')?;
        let start = usize::from_str_radix(start, 16).ok()?;
        let end = usize::from_str_radix(end, 16).ok()?;
        (start == addr).then_some((end - start) as u64)
    })?;
    let mut backing = Backing { bytes, ..Backing::default() };
    for line in lines {
        let Some((key, rest)) = line.split_once(':') else { break };
        if key.contains(' ') || key.contains('-') {
            break; // the next entry's header
        }
        let kb = || rest.trim().trim_end_matches("kB").trim().parse::<u64>().ok().map(|k| k << 10);
        match key {
            // A file on tmpfs is in shared memory: its huge pages count as the page cache's.
            "FilePmdMapped" | "ShmemPmdMapped" => backing.file_huge += kb()?,
            "AnonHugePages" => backing.anon_huge = kb()?,
            _ => {}
        }
    }
    Some(backing)
}

/// Whether transparent huge pages can be had for anonymous memory advised `MADV_HUGEPAGE`.
fn thp_available() -> bool {
    std::fs::read_to_string("/sys/kernel/mm/transparent_hugepage/enabled").is_ok_and(|s| !s.contains("[never]"))
}

/// Moves the mapping into anonymous 2 MiB pages when too little of it is in 2 MiB pages (module comment).
/// Call it after the bytes have been read once, so that what the page cache holds is what counts.
pub fn rehome(map: &Mmap, file: &File) -> io::Result<Rehomed> {
    let addr = map.as_ptr() as usize;
    let len = map.len().next_multiple_of(page_size());
    if !cfg!(target_os = "linux") || !thp_available() {
        return Ok(Rehomed::Skipped("no transparent huge pages"));
    }
    if len < HUGE || !addr.is_multiple_of(HUGE) {
        // Pages moved to an address off a 2 MiB boundary would be split into small ones again.
        return Ok(Rehomed::Skipped("mapping smaller than a huge page or not aligned to one"));
    }
    let Some(before) = backing_at(addr) else { return Ok(Rehomed::Skipped("no /proc/self/smaps entry")) };
    if before.bytes != len as u64 {
        return Ok(Rehomed::Skipped("the smaps entry is not this mapping alone"));
    }
    // Only whole 2 MiB pages can be huge: the tail past the last boundary does not count.
    let whole = (len - len % HUGE) as u64;
    if before.huge() * 100 >= whole * ENOUGH_PERCENT {
        return Ok(Rehomed::Kept(before));
    }
    match move_to_anonymous(map, len, file, true)? {
        Some(after) => Ok(Rehomed::Moved { before, after }),
        None => Ok(Rehomed::Skipped("the copy did not get 2 MiB pages (memory too fragmented?)")),
    }
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

/// Copies the mapping (`len` bytes, whole pages) into anonymous memory and moves that over it; the copy's
/// backing, which the move keeps. With `require_huge`, a copy that did not come out at least
/// [`ENOUGH_PERCENT`] in 2 MiB pages is dropped instead (`None`). `file` is the mapped file, to map it back
/// should the move fail halfway.
#[cfg(target_os = "linux")]
fn move_to_anonymous(map: &Mmap, len: usize, file: &File, require_huge: bool) -> io::Result<Option<Backing>> {
    use libc::{c_void, MAP_ANONYMOUS, MAP_FAILED, MAP_FIXED, MAP_PRIVATE, MAP_SHARED, PROT_READ, PROT_WRITE};
    use std::os::fd::AsRawFd;
    let target = map.as_ptr() as *mut c_void;
    // SAFETY: a fresh private anonymous mapping, one huge page longer than needed so that an aligned range
    // of `len` bytes lies inside it; nothing else refers to it.
    let raw = unsafe {
        libc::mmap(std::ptr::null_mut(), len + HUGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
    };
    if raw == MAP_FAILED {
        return Err(io::Error::last_os_error());
    }
    let lead = (raw as usize).next_multiple_of(HUGE) - raw as usize;
    let copy = (raw as usize + lead) as *mut c_void;
    // SAFETY: `copy..copy+len` lies inside the fresh mapping (lead < HUGE). The ranges unmapped here, before
    // and after it, are the rest of that same mapping, which nothing refers to. The source is the table's
    // mapping, `map.len()` readable bytes, which cannot overlap a new mapping.
    unsafe {
        if lead > 0 {
            libc::munmap(raw, lead);
        }
        libc::munmap((copy as usize + len) as *mut c_void, HUGE - lead);
        libc::madvise(copy, len, libc::MADV_HUGEPAGE);
        std::ptr::copy_nonoverlapping(map.as_ptr(), copy as *mut u8, map.len());
        libc::mprotect(copy, len, PROT_READ);
    }
    let whole = (len - len % HUGE) as u64;
    let backing = backing_at(copy as usize).unwrap_or_default();
    if require_huge && backing.anon_huge * 100 < whole * ENOUGH_PERCENT {
        // SAFETY: the copy is ours and unused.
        unsafe { libc::munmap(copy, len) };
        return Ok(None);
    }
    // SAFETY: moves the copy (exactly `len` bytes, 2 MiB aligned) over the table's mapping (exactly `len`
    // bytes at `target`, 2 MiB aligned, checked by the caller against smaps) in one call: the kernel unmaps the
    // old range and moves the new pages in while holding the address space's lock, so a thread that touches
    // the range meanwhile waits for it and then reads the copy, whose bytes are those it would have read.
    // Afterwards `map` still owns `len` bytes at `target` and unmaps them when dropped, as before.
    let moved = unsafe { libc::mremap(copy, len, len, libc::MREMAP_MAYMOVE | libc::MREMAP_FIXED, target) };
    if moved == MAP_FAILED {
        let e = io::Error::last_os_error();
        // SAFETY: the copy is still ours and unused. The kernel may have unmapped the target range before
        // failing, so the file is mapped there again, as memmap2 mapped it (shared, read-only, offset 0): the
        // same bytes at the same address, for the readers and for `map`'s drop. If even that fails, readers
        // would fault on the next access: stopping the process at once is the lesser harm.
        unsafe {
            libc::munmap(copy, len);
            let back = libc::mmap(target, len, PROT_READ, MAP_SHARED | MAP_FIXED, file.as_raw_fd(), 0);
            if back != target {
                std::process::abort();
            }
        }
        return Err(e);
    }
    Ok(Some(backing))
}

#[cfg(not(target_os = "linux"))]
fn move_to_anonymous(_: &Mmap, _: usize, _: &File, _: bool) -> io::Result<Option<Backing>> {
    Ok(None)
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

    const SMAPS: &str = "\
7f0000000000-7f0000400000 r--s 00000000 fe:01 123 /tmp/t.pdb
Size:               4096 kB
Rss:                4096 kB
AnonHugePages:         0 kB
FilePmdMapped:      2048 kB
VmFlags: rd sh mr mw me hg
7f0000400000-7f0000600000 rw-p 00000000 00:00 0
Size:               2048 kB
AnonHugePages:      2048 kB
";

    #[test]
    fn smaps_entries_are_read_by_their_start() {
        let first = parse_smaps(SMAPS, 0x7f00_0000_0000).unwrap();
        assert_eq!(first, Backing { bytes: 4 << 20, file_huge: 2 << 20, anon_huge: 0 });
        let second = parse_smaps(SMAPS, 0x7f00_0040_0000).unwrap();
        assert_eq!(second, Backing { bytes: 2 << 20, file_huge: 0, anon_huge: 2 << 20 });
        assert_eq!(parse_smaps(SMAPS, 0x7f00_0000_1000), None);
    }

    /// The move keeps every byte while another thread reads the table, and leaves a mapping that drops
    /// cleanly. Whether the pages come out huge is the kernel's affair and is not asserted; the bytes are.
    #[test]
    fn rehoming_keeps_the_bytes_under_concurrent_readers() {
        let dir = std::env::temp_dir().join(format!("stp-backing-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("t.bin");
        let bytes: Vec<u8> = (0..(9 << 20) + 123u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8).collect();
        std::fs::File::create(&path).unwrap().write_all(&bytes).unwrap();
        let file = std::fs::File::open(&path).unwrap();
        // SAFETY: a file this test wrote and nothing changes.
        let map = unsafe { Mmap::map(&file) }.unwrap();
        advise(&map);
        let stop = std::sync::atomic::AtomicBool::new(false);
        std::thread::scope(|s| {
            let reader = s.spawn(|| {
                let mut rounds = 0u64;
                while !stop.load(std::sync::atomic::Ordering::Relaxed) || rounds == 0 {
                    for i in (0..bytes.len()).step_by(4093) {
                        assert_eq!(map[i], bytes[i], "byte {i} changed while the table moved");
                    }
                    rounds += 1;
                }
                rounds
            });
            // Forced, whatever the backing: the move itself is what is tested.
            assert!(move_to_anonymous(&map, map.len().next_multiple_of(page_size()), &file, false).unwrap().is_some());
            // The decision on the moved mapping: kept when the pages came out huge, never an error.
            rehome(&map, &file).unwrap();
            stop.store(true, std::sync::atomic::Ordering::Relaxed);
            assert!(reader.join().unwrap() > 0);
        });
        assert_eq!(&map[..], &bytes[..]);
        drop(map);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
