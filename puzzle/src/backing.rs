//! Table memory: bytes that cannot change under a search, at the price of as little fresh memory as can be.
//!
//! A plain mapping of the file reads whatever the file holds at each access: a table rewritten in place (an
//! ordinary `cp` of another file over it) gives other bytes or zeros meanwhile, which the checksum taken
//! earlier does not see, and a truncated one kills the process with `SIGBUS` at the next lookup past its new
//! end. A private copy cannot change, but it is fresh memory: on a virtual machine that hands freed memory back
//! to its host, the first touch of each page costs far more than the copy itself (the 7-8 set's 288 MB took
//! about 0.35 s there, against a quarter second for all of Korf's 100 with the tables in the page cache).
//!
//! So a table of at least [`HUGE`] bytes is first mapped from the page cache under a Linux read lease
//! (`F_SETLEASE`): the kernel holds back anyone who opens the file for writing or truncates it, for up to
//! `/proc/sys/fs/lease-break-time` seconds (45 by default), and tells the lease holder with a signal (an opening
//! that asked not to block, as `truncate` does, is refused with `EAGAIN` instead, and works once more a moment
//! later). One
//! background thread (`Promoter`) then *promotes* the table: it copies the mapped bytes into fresh anonymous
//! memory, moves that over the mapping's addresses in one `mremap` (a reader sees the same bytes before and
//! after: only the memory behind them changes), and only then gives up the lease, so the writer goes on against
//! a file nobody reads any more. It does the same, unasked, once a table has been open for [`PROMOTE_AFTER`]: a
//! process that is done within that time never pays for fresh memory, and a long search gets its table in
//! 2 MiB pages (2 MiB aligned and advised `MADV_HUGEPAGE`), which a search that reads its tables at random
//! misses the TLB much less in (the same 7-8 bytes in 2 MiB and in 4 KiB pages ran 15-20% apart on Korf's 100,
//! one thread).
//!
//! Where no lease can be had (the file is not ours, it is open for writing, a file system without leases, the
//! signal taken by other code), or the table is small, it is copied when it is opened, as every table once was.
//! After a lease broke, the copy is checked against the table's checksum: should the kernel's grace have run out
//! before the copy was done (a process stopped for longer than that), a table that changed under the search ends
//! the process with a message, since what it computed can no longer be trusted.

use rayon::prelude::*;
use std::fs::File;
use std::io;
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::{Arc, Mutex, OnceLock, Weak};
use std::time::{Duration, Instant};

/// The huge page size this module works in (x86-64 and arm64 with 4 KiB pages); tables smaller than this are
/// copied when opened.
pub const HUGE: usize = 2 << 20;

/// How long a leased table stays mapped from the page cache before it is copied unasked.
pub const PROMOTE_AFTER: Duration = Duration::from_secs(1);

/// Bytes read by one `pread` of the parallel copy.
const CHUNK: usize = 8 << 20;

/// Checks a table's bytes against its checksum (used only after a lease ran out during a copy).
pub type Check = Box<dyn Fn(&[u8]) -> bool + Send + Sync>;

/// A table's bytes, read-only: a private copy, or a leased mapping of the file until it is promoted.
pub struct Backing {
    inner: Arc<Inner>,
}

struct Inner {
    /// Start of the bytes; the same address before and after promotion.
    ptr: *mut u8,
    len: usize,
    /// The bytes mapped (a whole number of pages, at least one), for `munmap`.
    mapped: usize,
    /// While the bytes are a leased mapping: the file (whose open description holds the lease) and more.
    lease: Mutex<Option<Lease>>,
}

struct Lease {
    file: File,
    opened: Instant,
    check: Check,
    what: String,
}

// SAFETY: the memory is owned by the value alone and read-only (`PROT_READ`) for its whole life, whether it is the
// file's pages or the private copy moved over them, so it may be read from any thread and handed to another.
unsafe impl Send for Inner {}
// SAFETY: as above: shared references only ever read; the lease is behind a mutex.
unsafe impl Sync for Inner {}

impl std::ops::Deref for Backing {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        // SAFETY: `ptr..ptr+len` is inside the mapping this value owns, readable for as long as it lives (a
        // promotion replaces the pages behind it with a copy of the same bytes in one step), unmapped only when
        // the last owner drops.
        unsafe { std::slice::from_raw_parts(self.inner.ptr, self.inner.len) }
    }
}

impl Drop for Inner {
    fn drop(&mut self) {
        // SAFETY: the mapping made for this value, `mapped` bytes at `ptr`; no reference into it outlives the last
        // `Arc` (the promoter holds one while it works on it).
        unsafe { libc::munmap(self.ptr.cast(), self.mapped) };
    }
}

impl Backing {
    /// The first `len` bytes of `file`, which must not change from here on: leased and mapped when the file
    /// and the system allow it and `len` is at least [`HUGE`], otherwise read into a private copy now. `check`
    /// tells whether bytes are the table's (its checksum); `what` names the table in a fatal message. An error
    /// if the file holds fewer bytes.
    pub fn open(file: File, len: usize, check: Check, what: &str) -> io::Result<Backing> {
        if len >= HUGE {
            if let Some(promoter) = Promoter::get() {
                if let Some((ptr, mapped)) = lease_and_map(&file, len)? {
                    let lease = Lease { file, opened: Instant::now(), check, what: what.to_string() };
                    let inner = Arc::new(Inner { ptr, len, mapped, lease: Mutex::new(Some(lease)) });
                    promoter.adopt(&inner);
                    return Ok(Backing { inner });
                }
            }
        }
        Backing::copy(&file, len)
    }

    /// The first `len` bytes of `file` read now into fresh anonymous memory (2 MiB aligned when at least that
    /// long). An error if the file holds fewer bytes by the time they are read.
    pub fn copy(file: &File, len: usize) -> io::Result<Backing> {
        Backing::filled(len, |bytes| fill(bytes.as_mut_ptr(), bytes.len(), file))
    }

    /// `len` bytes of fresh anonymous memory (2 MiB aligned and advised into huge pages when at least that
    /// long) written by `fill`, then read-only: a table made in memory that is read at random. An error if
    /// `fill` fails (the memory is then freed).
    pub fn filled(len: usize, fill: impl FnOnce(&mut [u8]) -> io::Result<()>) -> io::Result<Backing> {
        let mapped = len.max(1).next_multiple_of(page_size());
        let ptr = fresh(mapped)?;
        let inner = Inner { ptr, len, mapped, lease: Mutex::new(None) };
        // SAFETY: `ptr..ptr+len` lies inside the fresh writable mapping, which nothing else refers to yet.
        fill(unsafe { std::slice::from_raw_parts_mut(ptr, len) })?;
        protect(ptr, mapped)?;
        Ok(Backing { inner: Arc::new(inner) })
    }

    /// Whether the bytes are a private copy already (not the file's pages under a lease).
    pub fn is_private(&self) -> bool {
        self.inner.is_private()
    }
}

/// Fresh anonymous read-write memory of `mapped` bytes, 2 MiB aligned and advised into huge pages when it is at
/// least that long.
fn fresh(mapped: usize) -> io::Result<*mut u8> {
    let ptr = reserve(mapped)?;
    // SAFETY: a fresh private anonymous mapping placed over the reservation (which it replaces), nothing else
    // refers to it; the advice is about memory not yet touched.
    unsafe {
        use libc::{MAP_ANONYMOUS, MAP_FAILED, MAP_FIXED, MAP_PRIVATE, PROT_READ, PROT_WRITE};
        let flags = MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED;
        if libc::mmap(ptr.cast(), mapped, PROT_READ | PROT_WRITE, flags, -1, 0) == MAP_FAILED {
            let e = io::Error::last_os_error();
            libc::munmap(ptr.cast(), mapped);
            return Err(e);
        }
        #[cfg(target_os = "linux")]
        if mapped >= HUGE {
            libc::madvise(ptr.cast(), mapped, libc::MADV_HUGEPAGE);
        }
    }
    Ok(ptr)
}

/// Reserves `mapped` bytes of address space (inaccessible until something is mapped over them), 2 MiB aligned
/// when it is at least that long, so that huge pages can back it.
fn reserve(mapped: usize) -> io::Result<*mut u8> {
    use libc::{c_void, MAP_ANONYMOUS, MAP_FAILED, MAP_NORESERVE, MAP_PRIVATE, PROT_NONE};
    let align = if mapped >= HUGE { HUGE } else { page_size() };
    // SAFETY: a fresh inaccessible mapping `align` bytes longer than needed, so that an aligned range of `mapped`
    // bytes lies inside it; nothing else refers to it.
    let raw = unsafe {
        libc::mmap(std::ptr::null_mut(), mapped + align, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0)
    };
    if raw == MAP_FAILED {
        return Err(io::Error::last_os_error());
    }
    let lead = (raw as usize).next_multiple_of(align) - raw as usize;
    let ptr = (raw as usize + lead) as *mut u8;
    // SAFETY: the parts of the fresh reservation before and after `ptr..ptr+mapped` (lead < align), which nothing
    // refers to.
    unsafe {
        if lead > 0 {
            libc::munmap(raw, lead);
        }
        libc::munmap((ptr as usize + mapped) as *mut c_void, align - lead);
    }
    Ok(ptr)
}

fn protect(ptr: *mut u8, mapped: usize) -> io::Result<()> {
    // SAFETY: a mapping this module made and owns; read-only from here on, which `Sync` relies on.
    if unsafe { libc::mprotect(ptr.cast(), mapped, libc::PROT_READ) } != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// Reads the file's first `len` bytes to `ptr` (writable, at least `len` bytes), in chunks on all cores.
fn fill(ptr: *mut u8, len: usize, file: &File) -> io::Result<()> {
    use std::os::unix::fs::FileExt;
    let base = ptr as usize;
    (0..len.div_ceil(CHUNK)).into_par_iter().try_for_each(|k| {
        let start = k * CHUNK;
        let end = (start + CHUNK).min(len);
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

/// `fcntl(F_SETSIG)`: the signal a lease break is told with (the same number on every Linux this builds for).
const F_SETSIG: libc::c_int = 10;

/// Takes a read lease on `file` and maps its first `len` bytes under it, 2 MiB aligned: the address and the
/// bytes mapped; `None` when the lease is refused (the caller copies instead).
fn lease_and_map(file: &File, len: usize) -> io::Result<Option<(*mut u8, usize)>> {
    use std::os::fd::AsRawFd;
    let fd = file.as_raw_fd();
    // SAFETY: fcntl on a descriptor we own; the lease is released when the descriptor closes (with `Inner`) or
    // by the promoter.
    let leased = unsafe {
        libc::fcntl(fd, F_SETSIG, SIGNAL.load(Ordering::Relaxed)) == 0
            && libc::fcntl(fd, libc::F_SETLEASE, libc::F_RDLCK) == 0
    };
    if !leased {
        return Ok(None);
    }
    // Under the lease nobody can shorten the file; it must hold the bytes asked for now.
    if file.metadata()?.len() < len as u64 {
        return Err(io::Error::new(io::ErrorKind::UnexpectedEof, "the file became shorter while it was read"));
    }
    let mapped = len.next_multiple_of(page_size());
    let ptr = reserve(mapped)?;
    // SAFETY: the file mapped read-only over our own reservation (which it replaces); the file is at least `len`
    // bytes long and the lease keeps it so while the mapping is the file's.
    let map = unsafe { libc::mmap(ptr.cast(), mapped, libc::PROT_READ, libc::MAP_SHARED | libc::MAP_FIXED, fd, 0) };
    if map == libc::MAP_FAILED {
        let e = io::Error::last_os_error();
        // SAFETY: our reservation, which nothing refers to.
        unsafe { libc::munmap(ptr.cast(), mapped) };
        return Err(e);
    }
    Ok(Some((ptr, mapped)))
}

/// The one thread that promotes leased tables to private copies: when a lease breaks (woken by the lease
/// signal's handler through a pipe), and when a table has been open for [`PROMOTE_AFTER`].
struct Promoter {
    tables: Mutex<Vec<Weak<Inner>>>,
}

/// The pipe's write end, for the signal handler (which may only make async-signal-safe calls).
static WAKE: AtomicI32 = AtomicI32::new(-1);

extern "C" fn on_lease_break(_: libc::c_int, _: *mut libc::siginfo_t, _: *mut libc::c_void) {
    // SAFETY: `write` is async-signal-safe; errno is saved and restored around it, so that the interrupted code
    // sees its own.
    unsafe {
        let errno = *libc::__errno_location();
        libc::write(WAKE.load(Ordering::Relaxed), [0u8].as_ptr().cast(), 1);
        *libc::__errno_location() = errno;
    }
}

/// The signal lease breaks are told with, chosen when the promoter starts.
static SIGNAL: AtomicI32 = AtomicI32::new(0);

impl Promoter {
    /// The process's promoter, started on first use; `None` where leases cannot be told (the signal already has
    /// a handler, no pipe or thread could be made).
    fn get() -> Option<&'static Promoter> {
        static PROMOTER: OnceLock<Option<Promoter>> = OnceLock::new();
        PROMOTER.get_or_init(Promoter::start).as_ref()
    }

    fn start() -> Option<Promoter> {
        let signal = libc::SIGRTMIN() + 3;
        let mut pipe = [-1; 2];
        // SAFETY: plain system calls on values we own; the old disposition is only read; the handler installed
        // is async-signal-safe (see `on_lease_break`) and only for a signal that had none.
        unsafe {
            let mut old: libc::sigaction = std::mem::zeroed();
            if libc::sigaction(signal, std::ptr::null(), &mut old) != 0 || old.sa_sigaction != libc::SIG_DFL {
                return None;
            }
            if libc::pipe2(pipe.as_mut_ptr(), libc::O_CLOEXEC | libc::O_NONBLOCK) != 0 {
                return None;
            }
            WAKE.store(pipe[1], Ordering::Relaxed);
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = on_lease_break as *const () as usize;
            action.sa_flags = libc::SA_SIGINFO | libc::SA_RESTART;
            libc::sigemptyset(&mut action.sa_mask);
            if libc::sigaction(signal, &action, std::ptr::null_mut()) != 0 {
                return None;
            }
        }
        SIGNAL.store(signal, Ordering::Relaxed);
        let read = pipe[0];
        std::thread::Builder::new()
            .name("table-promoter".into())
            .spawn(move || Promoter::get().expect("started").run(read))
            .ok()?;
        Some(Promoter { tables: Mutex::new(Vec::new()) })
    }

    fn adopt(&self, table: &Arc<Inner>) {
        self.tables.lock().unwrap_or_else(|p| p.into_inner()).push(Arc::downgrade(table));
        // SAFETY: a one-byte write to our own non-blocking pipe.
        unsafe { libc::write(WAKE.load(Ordering::Relaxed), [0u8].as_ptr().cast(), 1) };
    }

    fn run(&self, read: libc::c_int) -> ! {
        loop {
            let now = Instant::now();
            let next = {
                let mut tables = self.tables.lock().unwrap_or_else(|p| p.into_inner());
                tables.retain(|t| t.upgrade().is_some_and(|t| !t.is_private()));
                tables.iter().filter_map(Weak::upgrade).filter_map(|t| t.due()).min()
            };
            let timeout = next.map_or(-1, |due| due.saturating_duration_since(now).as_millis().min(60_000) as i32 + 1);
            let mut poll = libc::pollfd { fd: read, events: libc::POLLIN, revents: 0 };
            // SAFETY: one pollfd of ours.
            unsafe { libc::poll(&mut poll, 1, timeout) };
            let mut buf = [0u8; 64];
            // SAFETY: reads into our buffer from our non-blocking pipe, until it is empty.
            while unsafe { libc::read(read, buf.as_mut_ptr().cast(), buf.len()) } > 0 {}
            let tables: Vec<Arc<Inner>> =
                self.tables.lock().unwrap_or_else(|p| p.into_inner()).iter().filter_map(Weak::upgrade).collect();
            let now = Instant::now();
            for table in tables {
                let breaking = table.breaking();
                if breaking || table.due().is_some_and(|due| due <= now) {
                    table.promote(breaking);
                }
            }
        }
    }
}

impl Inner {
    /// The lease, while there is one (a panic elsewhere while it was held leaves it as it was: still usable).
    fn lease(&self) -> std::sync::MutexGuard<'_, Option<Lease>> {
        self.lease.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// When the table is to be promoted unasked; `None` once it is private.
    fn due(&self) -> Option<Instant> {
        self.lease().as_ref().map(|l| l.opened + PROMOTE_AFTER)
    }

    fn is_private(&self) -> bool {
        self.due().is_none()
    }

    /// Whether the table's lease is being broken (a writer waits): the kernel then reports the lease it is
    /// going to, none.
    fn breaking(&self) -> bool {
        use std::os::fd::AsRawFd;
        let guard = self.lease();
        // SAFETY: a query on our own descriptor.
        guard.as_ref().is_some_and(|l| unsafe { libc::fcntl(l.file.as_raw_fd(), libc::F_GETLEASE) } != libc::F_RDLCK)
    }

    /// Copies the leased mapping into fresh memory moved over it, then gives up the lease. `broke`: a writer is
    /// waiting (the copy is then checked against the checksum).
    fn promote(&self, broke: bool) {
        let mut guard = self.lease();
        let Some(lease) = guard.take() else { return };
        let copied = fresh(self.mapped).and_then(|ptr| {
            // SAFETY: `ptr` is fresh writable memory of `mapped` bytes; `self.ptr` holds `len <= mapped` readable
            // bytes; the two do not overlap.
            unsafe { std::ptr::copy_nonoverlapping(self.ptr, ptr, self.len) };
            protect(ptr, self.mapped)?;
            let flags = libc::MREMAP_MAYMOVE | libc::MREMAP_FIXED;
            // SAFETY: moves our copy over our own mapping of the same size (which it replaces in one step, under
            // the address-space lock: a concurrent reader faults and then finds the copy, never a hole).
            let moved = unsafe { libc::mremap(ptr.cast(), self.mapped, self.mapped, flags, self.ptr) };
            if moved == libc::MAP_FAILED {
                let e = io::Error::last_os_error();
                // SAFETY: our copy, which nothing refers to.
                unsafe { libc::munmap(ptr.cast(), self.mapped) };
                return Err(e);
            }
            Ok(())
        });
        match copied {
            Ok(()) => {
                // Closing the file's only descriptor gives up the lease: the writer goes on.
                drop(lease.file);
                // SAFETY: as in `Deref`: the bytes are ours and readable.
                let bytes = unsafe { std::slice::from_raw_parts(self.ptr, self.len) };
                // A writer was held back; if the kernel's grace ran out before the copy was done, it may have
                // written already. The checksum tells.
                if broke && !(lease.check)(bytes) {
                    eprintln!("error: {} was rewritten while in use (its lease ran out); stopping", lease.what);
                    std::process::abort();
                }
            }
            Err(e) if broke => {
                eprintln!("error: {} is about to be rewritten and could not be copied: {e}; stopping", lease.what);
                std::process::abort();
            }
            // Not asked for: stay on the file's pages, under the lease, and try again when one breaks.
            Err(_) => *guard = Some(Lease { opened: Instant::now() + Duration::from_secs(1 << 30), ..lease }),
        }
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;
    use std::path::{Path, PathBuf};
    use std::process::Command;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("stp-backing-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// 19 MiB and a bit of bytes that differ from place to place.
    fn sample() -> Vec<u8> {
        (0..(19 << 20) + 123u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8).collect()
    }

    fn write(path: &Path, bytes: &[u8]) {
        std::fs::File::create(path).unwrap().write_all(bytes).unwrap();
    }

    fn checker(bytes: &[u8]) -> Check {
        let want = xxhash_rust::xxh3::xxh3_64(bytes);
        Box::new(move |b: &[u8]| xxhash_rust::xxh3::xxh3_64(b) == want)
    }

    fn open(path: &Path, bytes: &[u8]) -> Backing {
        Backing::open(std::fs::File::open(path).unwrap(), bytes.len(), checker(bytes), "the sample").unwrap()
    }

    /// Waits (generously) until the table is a private copy.
    fn until_private(table: &Backing) {
        let deadline = Instant::now() + Duration::from_secs(60);
        while !table.is_private() {
            assert!(Instant::now() < deadline, "never promoted");
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// Another process's `cp` over a leased table waits for the copy and then goes on; a `truncate` of another
    /// (which opens without blocking) is refused until the copy is made; the open tables keep their bytes, at
    /// their addresses, in 2 MiB aligned memory.
    #[test]
    fn a_writer_from_another_process_waits_for_the_copy() {
        let dir = scratch("writer");
        let bytes = sample();
        let (a, b, other) = (dir.join("a.bin"), dir.join("b.bin"), dir.join("other.bin"));
        write(&a, &bytes);
        write(&b, &bytes);
        write(&other, &vec![7u8; bytes.len()]);
        let (ta, tb) = (open(&a, &bytes), open(&b, &bytes));
        assert!(!ta.is_private() && !tb.is_private(), "a file of ours on a local file system takes a read lease");
        let at = ta.as_ptr();
        assert!(Command::new("cp").arg(&other).arg(&a).status().unwrap().success());
        assert!(ta.is_private(), "cp went on only once the copy was made");
        // `truncate` opens without blocking: the lease break is started and its open refused for now.
        let truncate = || Command::new("truncate").args(["-s", "0"]).arg(&b).output().unwrap();
        let out = truncate();
        if !out.status.success() {
            assert!(String::from_utf8_lossy(&out.stderr).contains("temporarily unavailable"), "{out:?}");
            until_private(&tb);
            assert!(truncate().status.success());
        }
        assert!(tb.is_private());
        assert_eq!(std::fs::read(&a).unwrap(), vec![7u8; bytes.len()], "the writer did write");
        assert_eq!(std::fs::metadata(&b).unwrap().len(), 0);
        assert_eq!(ta.as_ptr(), at);
        assert!((at as usize).is_multiple_of(HUGE));
        assert!(ta[..] == bytes[..] && tb[..] == bytes[..]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A writer in the same process is held back the same way (the promoter is its own thread), whatever thread
    /// reads the table meanwhile.
    #[test]
    fn a_writer_in_this_process_waits_for_the_copy() {
        let dir = scratch("same");
        let bytes = sample();
        let path = dir.join("t.bin");
        write(&path, &bytes);
        let table = open(&path, &bytes);
        assert!(!table.is_private());
        std::thread::scope(|s| {
            let reader = s.spawn(|| (0..200).map(|_| table.iter().step_by(4096).map(|&b| b as u64).sum::<u64>()).max());
            let file = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
            assert!(table.is_private());
            std::os::unix::fs::FileExt::write_all_at(&file, &[0xAA; 4096], 0).unwrap();
            file.set_len(10).unwrap();
            let want = bytes.iter().step_by(4096).map(|&b| b as u64).sum::<u64>();
            assert_eq!(reader.join().unwrap(), Some(want));
        });
        assert!(table[..] == bytes[..]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Unasked, a leased table becomes a private copy after a while, with the same bytes at the same address.
    #[test]
    fn a_leased_table_is_copied_after_a_while() {
        let dir = scratch("timer");
        let bytes = sample();
        let path = dir.join("t.bin");
        write(&path, &bytes);
        let started = Instant::now();
        let table = open(&path, &bytes);
        let at = table.as_ptr();
        until_private(&table);
        assert!(started.elapsed() >= PROMOTE_AFTER);
        assert_eq!(table.as_ptr(), at);
        assert!(table[..] == bytes[..]);
        write(&path, &bytes[..10]);
        assert!(table[..] == bytes[..]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A table made in memory holds what its maker wrote, is 2 MiB aligned when at least that long, and is
    /// private; an empty one is empty.
    #[test]
    fn filled_tables_hold_what_was_written() {
        let bytes = sample();
        let table = Backing::filled(bytes.len(), |b| {
            b.copy_from_slice(&bytes);
            Ok(())
        })
        .unwrap();
        assert!(table[..] == bytes[..] && table.is_private());
        assert!((table.as_ptr() as usize).is_multiple_of(HUGE));
        let small = Backing::filled(3, |b| {
            b.copy_from_slice(&[7, 8, 9]);
            Ok(())
        })
        .unwrap();
        assert_eq!(&small[..], &[7, 8, 9]);
        assert!(Backing::filled(0, |_| Ok(())).unwrap().is_empty());
    }

    /// No lease while the file is open for writing, and none for a small table: both are copied at once, and
    /// keep their bytes when the file changes; a file shorter than asked is an error that says so.
    #[test]
    fn without_a_lease_the_table_is_copied_at_once() {
        let dir = scratch("copied");
        let bytes = sample();
        let path = dir.join("t.bin");
        write(&path, &bytes);
        let writer = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
        let table = open(&path, &bytes);
        assert!(table.is_private(), "a file open for writing takes no read lease");
        let small = open(&path, &bytes[..10]);
        assert!(small.is_private());
        writer.set_len(1000).unwrap();
        assert!(table[..] == bytes[..]);
        assert_eq!(&small[..], &bytes[..10]);
        assert!((table.as_ptr() as usize).is_multiple_of(HUGE));
        drop(writer);
        let short = Backing::open(std::fs::File::open(&path).unwrap(), bytes.len(), checker(&bytes), "x");
        assert!(short.err().unwrap().to_string().contains("became shorter"));
        let short = Backing::copy(&std::fs::File::open(&path).unwrap(), 2000);
        assert!(short.err().unwrap().to_string().contains("became shorter"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
