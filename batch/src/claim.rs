//! `--claim DIR`: workers that share one input take its instances one at a time, each instance searched by
//! the first worker to claim it, so a faster worker (or one with easier instances) simply takes more, and
//! all of them finish within one instance of each other. Coordination is the file system alone, as on a
//! cluster's shared one: a claim is a hard link `DIR/LINE` to a file that names the worker (a new such file
//! every 50,000 claims: ext4 allows 65,000 links to one). Linking is atomic and fails when the name exists (on
//! NFS too, unlike a test and a create), and the link's content is whole from the start, so a reader never
//! sees a half-written claim.
//!
//! A worker is its host and its record file: a claim names the host (its hostname), the record file's
//! canonical path and a random token of the run. Two hosts writing the same node-local path are two workers;
//! on one host the record file is locked while a run writes it, so a claim of the same host and path under
//! another token is an earlier run's of this worker (cut off): run again with `--resume` and the same record
//! file, it takes those back first, so nothing is lost and nothing done twice. Hosts must therefore have
//! names of their own (every cluster's nodes do).
//!
//! A claim is read without trusting it: opened without following a symbolic link and without waiting (a FIFO
//! named like a claim would block its reader for good), only a regular file is read, and only its first few
//! hundred bytes. Anything else under a line's name (a FIFO, a link, a folder, a file that names no worker)
//! is reported on stderr, naming the file, and its line is left unsearched: it may be another program's, and
//! no worker can replace it atomically without risking two of them taking the line. Removing the file lets
//! the next worker (or `--resume`) take the line.
//!
//! Claims go by line number, so a folder holds the claims on one input only: its first worker writes
//! `DIR/.input`, the input's length and checksum, and a worker on other content is refused rather than
//! finding every line taken.

use anyhow::{anyhow, bail, Context};
use std::fs;
use std::io::{ErrorKind, Read, Write};
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

/// Claims a worker makes on one mark file before it starts another: ext4 allows 65,000 links to a file.
const LINKS_A_MARK: u32 = 50_000;

/// The most of a claim that is read: a claim this worker writes is shorter (a long record path is written as
/// its checksum), so anything longer is not a claim.
const CLAIM_BYTES: usize = 512;

/// Record paths up to this long are written into a claim as they are; longer ones as their checksum.
const PATH_BYTES: usize = 300;

/// The environment variable that names this host instead of its hostname: for tests, which play two hosts
/// on one machine.
pub const HOST_VAR: &str = "BATCH_CLAIM_HOST";

/// Who claims: a host, a record file on it, and the run that writes it.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Owner {
    host: String,
    /// The record file's canonical path, or its checksum when that is long.
    out: String,
    run: String,
}

impl Owner {
    /// The claim's text, three lines.
    fn text(&self) -> String {
        format!("host={}\nout={}\nrun={}\n", self.host, self.out, self.run)
    }

    /// The owner a claim's text names, if it names one.
    fn parse(text: &str) -> Option<Owner> {
        let mut lines = text.strip_suffix('\n')?.split('\n');
        let mut field = |key: &str| lines.next()?.strip_prefix(key).filter(|v| !v.is_empty()).map(str::to_owned);
        let owner = Owner { host: field("host=")?, out: field("out=")?, run: field("run=")? };
        lines.next().is_none().then_some(owner)
    }

    /// Whether `self` and `other` are the same worker (this run or an earlier one of it).
    fn same_worker(&self, other: &Owner) -> bool {
        self.host == other.host && self.out == other.out
    }
}

/// What a name in the claim folder holds.
enum Held {
    /// Text read whole (at most [`CLAIM_BYTES`]).
    Text(String),
    /// Something that is not a claim, and why.
    Junk(String),
}

/// One worker's claims in a claim folder.
pub struct Claims {
    dir: PathBuf,
    /// Who claims, as every claim of this worker says.
    owner: Owner,
    /// The file this worker's claims link to (its name removed when the worker ends), and the claims made on
    /// it so far.
    mark: Mutex<(PathBuf, u32)>,
    /// [`LINKS_A_MARK`], but for tests.
    links_a_mark: u32,
}

impl Claims {
    /// Claims in `dir` (created if missing) on the lines of the file `input` (not stdin: the batch refuses
    /// that) for the worker writing `output` (which exists: the batch has opened it).
    pub fn open(dir: &Path, input: &str, output: &Path) -> anyhow::Result<Claims> {
        Claims::open_on(&host()?, dir, input, output)
    }

    /// [`Claims::open`] for a worker on `host`.
    fn open_on(host: &str, dir: &Path, input: &str, output: &Path) -> anyhow::Result<Claims> {
        fs::create_dir_all(dir).with_context(|| format!("cannot create the claim folder {}", dir.display()))?;
        let out = fs::canonicalize(output)
            .with_context(|| format!("cannot resolve the path of {}", output.display()))?
            .display()
            .to_string();
        let out = if out.len() <= PATH_BYTES && !out.contains('\n') {
            out
        } else {
            format!("FNV-1a {:016x}", fnv(out.as_bytes()))
        };
        let owner = Owner { host: host.to_owned(), out, run: format!("{:016x}", random()) };
        let mark = Mutex::new((new_mark(dir, &owner.text())?, 0));
        let claims = Claims { dir: dir.to_owned(), owner, mark, links_a_mark: LINKS_A_MARK };
        claims.check_input(input)?;
        Ok(claims)
    }

    /// That the folder's claims are on `input`: its identity is written by the first worker (linked into
    /// place like a claim, so it is whole or absent), and must match for every later one.
    fn check_input(&self, input: &str) -> anyhow::Result<()> {
        let identity = input_identity(input)?;
        let tmp = new_mark(&self.dir, &identity)?;
        let name = self.dir.join(".input");
        let theirs = link_or_read(&tmp, &name);
        let _ = fs::remove_file(&tmp);
        match theirs? {
            Some(Held::Junk(why)) => {
                bail!("{} {why}: it should hold the identity of the folder's input", name.display())
            }
            Some(Held::Text(theirs)) if theirs != identity => bail!(
                "the claim folder {} holds claims on another input ({theirs}; {input} is {identity}): give each \
                 input a folder of its own",
                self.dir.display()
            ),
            _ => Ok(()),
        }
    }

    /// Whether this worker searches the instance on input line `line`: it claims it now, or had claimed it
    /// before (a run that was cut off). A claim of another worker's is left to it, and so is a name that holds
    /// no claim (reported on stderr).
    pub fn take(&self, line: u64) -> anyhow::Result<bool> {
        let mut mark = self.mark.lock().unwrap_or_else(|e| e.into_inner());
        if mark.1 == self.links_a_mark {
            let next = new_mark(&self.dir, &self.owner.text())?;
            let _ = fs::remove_file(std::mem::replace(&mut mark.0, next));
            mark.1 = 0;
        }
        let name = self.dir.join(line.to_string());
        let junk = match link_or_read(&mark.0, &name)? {
            None => {
                mark.1 += 1;
                return Ok(true);
            }
            Some(Held::Text(text)) => match Owner::parse(&text) {
                Some(owner) => return Ok(owner.same_worker(&self.owner)),
                None => "names no worker".to_string(),
            },
            Some(Held::Junk(why)) => why,
        };
        eprintln!(
            "warning: the claim {} {junk}: line {line} is left unsearched (remove it to let a worker take the line)",
            name.display()
        );
        Ok(false)
    }
}

/// This host's name: [`HOST_VAR`] when set, else its hostname.
fn host() -> anyhow::Result<String> {
    if let Some(host) = std::env::var_os(HOST_VAR) {
        return Ok(host.to_string_lossy().into_owned());
    }
    let mut name = [0u8; 256];
    // SAFETY: gethostname writes at most `name.len()` bytes into the buffer it is given.
    let rc = unsafe { libc::gethostname(name.as_mut_ptr().cast(), name.len()) };
    if rc != 0 {
        return Err(anyhow!(std::io::Error::last_os_error()).context("cannot read this host's name for its claims"));
    }
    let len = name.iter().position(|&b| b == 0).unwrap_or(name.len());
    let host = String::from_utf8_lossy(&name[..len]).replace('\n', " ");
    if host.is_empty() {
        bail!("this host has no name, which its claims need: set {HOST_VAR}");
    }
    Ok(host)
}

/// 64 random bits: the standard library seeds each hasher state from the system's randomness, mixed here
/// with the time and the process id for good measure.
fn random() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default().as_nanos());
    h.write_u32(std::process::id());
    h.finish()
}

/// A new file in `dir` holding `text`, written whole and synced, under a name no other worker uses.
fn new_mark(dir: &Path, text: &str) -> anyhow::Result<PathBuf> {
    static MARKS: AtomicU64 = AtomicU64::new(0);
    let n = MARKS.fetch_add(1, Ordering::Relaxed);
    let mark = dir.join(format!(".worker-{}-{:016x}-{n}", std::process::id(), random()));
    let write = || -> std::io::Result<()> {
        let mut f = fs::OpenOptions::new().write(true).create_new(true).open(&mark)?;
        f.write_all(text.as_bytes())?;
        f.sync_all()
    };
    write().with_context(|| format!("cannot write in the claim folder {}", dir.display()))?;
    Ok(mark)
}

/// Links `mark` to `name` unless `name` exists: `None` when linked, else what `name` holds.
fn link_or_read(mark: &Path, name: &Path) -> anyhow::Result<Option<Held>> {
    match fs::hard_link(mark, name) {
        Ok(()) => Ok(None),
        Err(e) if e.kind() == ErrorKind::AlreadyExists => Ok(Some(read_claim(name)?)),
        Err(e) => Err(anyhow!(e).context(format!(
            "cannot link {} (claims are hard links: the claim folder's file system must allow them)",
            name.display()
        ))),
    }
}

/// What the existing `name` holds, read without following a link, without waiting on a FIFO or device, and
/// no more than [`CLAIM_BYTES`] of it. An error only when it cannot be read at all.
fn read_claim(name: &Path) -> anyhow::Result<Held> {
    let opened = fs::OpenOptions::new().read(true).custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK).open(name);
    let file = match opened {
        Ok(file) => file,
        Err(e) if e.raw_os_error() == Some(libc::ELOOP) => return Ok(Held::Junk("is a symbolic link".into())),
        Err(e) => return Err(anyhow!(e).context(format!("cannot read {}", name.display()))),
    };
    let kind = file.metadata().with_context(|| format!("cannot read {}", name.display()))?.file_type();
    if !kind.is_file() {
        let what = match () {
            _ if kind.is_fifo() => "a FIFO",
            _ if kind.is_dir() => "a folder",
            _ if kind.is_socket() => "a socket",
            _ if kind.is_char_device() || kind.is_block_device() => "a device",
            _ => "not a file",
        };
        return Ok(Held::Junk(format!("is {what}, not a regular file")));
    }
    let mut bytes = Vec::with_capacity(CLAIM_BYTES + 1);
    file.take(CLAIM_BYTES as u64 + 1)
        .read_to_end(&mut bytes)
        .with_context(|| format!("cannot read {}", name.display()))?;
    if bytes.len() > CLAIM_BYTES {
        return Ok(Held::Junk(format!("holds more than {CLAIM_BYTES} bytes")));
    }
    Ok(match String::from_utf8(bytes) {
        Ok(text) => Held::Text(text),
        Err(_) => Held::Junk("is not text".into()),
    })
}

/// FNV-1a of `bytes`.
fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3))
}

/// An input file's identity: its length and FNV-1a checksum.
fn input_identity(input: &str) -> anyhow::Result<String> {
    let bytes = fs::read(input).with_context(|| format!("cannot read {input}"))?;
    Ok(format!("{} bytes, FNV-1a {:016x}", bytes.len(), fnv(&bytes)))
}

impl Drop for Claims {
    /// The claims stay (they say who took what); only the file they link to loses its own name.
    fn drop(&mut self) {
        let mark = self.mark.get_mut().unwrap_or_else(|e| e.into_inner());
        let _ = fs::remove_file(&mark.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fresh folder with an input file `in.txt` of `lines` lines.
    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("batch-claim-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        fs::write(dir.join("in.txt"), "1\n2\n3\n").unwrap();
        dir
    }

    /// The claims of the worker writing `dir/worker` (created, as the batch would have) on `dir/in.txt`.
    fn open(dir: &Path, worker: &str) -> anyhow::Result<Claims> {
        open_on("here", dir, worker)
    }

    /// [`open`] for a worker on `host`.
    fn open_on(host: &str, dir: &Path, worker: &str) -> anyhow::Result<Claims> {
        fs::OpenOptions::new().create(true).append(true).open(dir.join(worker)).unwrap();
        Claims::open_on(host, &dir.join("claims"), dir.join("in.txt").to_str().unwrap(), &dir.join(worker))
    }

    /// Two hosts writing the same node-local path are two workers: each line is taken by one of them.
    #[test]
    fn two_hosts_with_the_same_record_path_are_two_workers() {
        let dir = scratch("hosts");
        let a = open_on("node-a", &dir, "out.jsonl").unwrap();
        let b = open_on("node-b", &dir, "out.jsonl").unwrap();
        assert!(a.take(1).unwrap());
        assert!(!b.take(1).unwrap(), "another host's claim on the same path is not this one's");
        assert!(b.take(2).unwrap() && !a.take(2).unwrap());
        let text = fs::read_to_string(dir.join("claims/1")).unwrap();
        assert!(text.starts_with("host=node-a\nout=/") && text.contains("\nrun="), "{text}");
        // A later run of a worker on the same host and path is that worker: it takes back its claims.
        drop(a);
        let again = open_on("node-a", &dir, "out.jsonl").unwrap();
        assert!(again.take(1).unwrap() && !again.take(2).unwrap());
        assert_ne!(again.owner.run, b.owner.run);
        drop((b, again));
        fs::remove_dir_all(&dir).unwrap();
    }

    /// A FIFO, a symbolic link (to a file that never ends), a folder and a file naming no worker, each under a
    /// line's name: none is waited on or read past a few hundred bytes, and each line is left unsearched.
    #[test]
    fn what_is_not_a_claim_is_neither_waited_on_nor_read_whole_and_its_line_is_left() {
        let dir = scratch("junk");
        let claims = dir.join("claims");
        fs::create_dir_all(&claims).unwrap();
        let fifo = std::ffi::CString::new(claims.join("1").to_str().unwrap()).unwrap();
        // SAFETY: mkfifo on a NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o600) }, 0);
        std::os::unix::fs::symlink("/dev/zero", claims.join("2")).unwrap();
        fs::create_dir(claims.join("3")).unwrap();
        fs::write(claims.join("4"), "not a claim\n").unwrap();
        fs::write(claims.join("5"), vec![b'x'; 100_000]).unwrap();
        let a = open(&dir, "a.jsonl").unwrap();
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let taken: Vec<bool> = (1..=6).map(|line| a.take(line).unwrap()).collect();
            tx.send(taken).unwrap();
        });
        let taken = rx.recv_timeout(std::time::Duration::from_secs(20)).expect("a claim blocked its reader");
        assert_eq!(taken, [false, false, false, false, false, true]);
        let kinds: Vec<_> = (1..=5).map(|l| read_claim(&claims.join(l.to_string())).unwrap()).collect();
        let why: Vec<String> = kinds
            .into_iter()
            .map(|k| match k {
                Held::Junk(why) => why,
                Held::Text(text) => format!("text {text:?}"),
            })
            .collect();
        assert_eq!(
            why,
            [
                "is a FIFO, not a regular file",
                "is a symbolic link",
                "is a folder, not a regular file",
                "text \"not a claim\\n\"",
                "holds more than 512 bytes"
            ]
        );
        assert!(Owner::parse("not a claim\n").is_none());
        fs::remove_dir_all(&dir).unwrap();
    }

    /// A `.input` that is not a file is refused with its name, not read.
    #[test]
    fn an_input_identity_that_is_not_a_file_is_refused() {
        let dir = scratch("input-link");
        fs::create_dir_all(dir.join("claims")).unwrap();
        std::os::unix::fs::symlink("/dev/zero", dir.join("claims/.input")).unwrap();
        let err = format!("{:#}", open(&dir, "a.jsonl").err().unwrap());
        assert!(err.contains("claims/.input is a symbolic link"), "{err}");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_first_worker_to_claim_a_line_has_it_and_keeps_it_when_run_again() {
        let dir = scratch("first");
        let claims = dir.join("claims");
        let a = open(&dir, "a.jsonl").unwrap();
        let b = open(&dir, "b.jsonl").unwrap();
        assert!(a.take(1).unwrap());
        assert!(!b.take(1).unwrap());
        assert!(b.take(2).unwrap());
        assert!(a.take(1).unwrap(), "a worker's own claim is still its own");
        drop(a);
        // Run again for the same record file, it takes back what it had claimed.
        let again = open(&dir, "a.jsonl").unwrap();
        assert!(again.take(1).unwrap());
        assert!(!again.take(2).unwrap());
        let names: Vec<String> =
            fs::read_dir(&claims).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
        assert_eq!(names.iter().filter(|n| !n.starts_with('.')).count(), 2, "{names:?}");
        drop((b, again));
        let left: Vec<String> =
            fs::read_dir(&claims).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
        assert_eq!(left.len(), 3, "only the claims and .input are left: {left:?}");
        fs::remove_dir_all(&dir).unwrap();
    }

    /// Many threads racing for the same lines: every line is taken exactly once.
    #[test]
    fn racing_workers_take_every_line_once() {
        let dir = scratch("race");
        let workers: Vec<Claims> = (0..4).map(|w| open(&dir, &format!("{w}.jsonl")).unwrap()).collect();
        let taken: Vec<Vec<u64>> = std::thread::scope(|s| {
            let handles: Vec<_> =
                workers.iter().map(|c| s.spawn(move || (1..=500).filter(|&l| c.take(l).unwrap()).collect())).collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        let mut all: Vec<u64> = taken.concat();
        all.sort_unstable();
        assert_eq!(all, (1..=500).collect::<Vec<_>>());
        drop(workers);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn an_unwritable_claim_folder_is_refused() {
        let dir = scratch("refused");
        fs::write(dir.join("a.jsonl"), "").unwrap();
        let input = dir.join("in.txt");
        let err = Claims::open(Path::new("/proc/no-such/claims"), input.to_str().unwrap(), &dir.join("a.jsonl"));
        let err = format!("{:#}", err.err().unwrap());
        assert!(err.contains("/proc/no-such/claims"), "{err}");
        fs::remove_dir_all(&dir).unwrap();
    }

    /// Past a mark's share of links a worker goes on with a new mark, and its claims are still its own.
    #[test]
    fn a_worker_moves_to_a_new_mark_before_the_file_system_runs_out_of_links() {
        let dir = scratch("marks");
        let mut a = open(&dir, "a.jsonl").unwrap();
        a.links_a_mark = 3;
        assert!((1..=8).all(|line| a.take(line).unwrap()));
        let marks = |dir: &Path| {
            let names = fs::read_dir(dir.join("claims")).unwrap().map(|e| e.unwrap().file_name());
            names.filter(|n| n.to_str().unwrap().starts_with(".worker-")).count()
        };
        assert_eq!(marks(&dir), 1, "the full marks lose their names");
        let b = open(&dir, "b.jsonl").unwrap();
        assert!((1..=8).all(|line| !b.take(line).unwrap()) && a.take(8).unwrap());
        drop((a, b));
        assert_eq!(marks(&dir), 0);
        fs::remove_dir_all(&dir).unwrap();
    }

    /// A folder of claims on one input refuses a worker of another, even one under the same name; a copy of
    /// the same input elsewhere is the same input.
    #[test]
    fn a_folder_of_claims_on_one_input_refuses_another() {
        let dir = scratch("input");
        let a = open(&dir, "a.jsonl").unwrap();
        assert!(a.take(1).unwrap());
        fs::copy(dir.join("in.txt"), dir.join("copy.txt")).unwrap();
        fs::write(dir.join("b.jsonl"), "").unwrap();
        let copy = Claims::open(&dir.join("claims"), dir.join("copy.txt").to_str().unwrap(), &dir.join("b.jsonl"));
        assert!(!copy.unwrap().take(1).unwrap());
        fs::write(dir.join("in.txt"), "1\n2\n4\n").unwrap();
        let err = format!("{:#}", open(&dir, "c.jsonl").err().unwrap());
        assert!(err.contains("holds claims on another input"), "{err}");
        drop(a);
        fs::remove_dir_all(&dir).unwrap();
    }
}
