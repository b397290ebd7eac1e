//! `--claim DIR`: workers that share one input take its instances one at a time, each instance searched by
//! the first worker to claim it, so a faster worker (or one with easier instances) simply takes more, and
//! all of them finish within one instance of each other. Coordination is the file system alone, as on a
//! cluster's shared one: a claim is a hard link `DIR/LINE` to a file that names the worker's record file
//! (a new such file every 50,000 claims: ext4 allows 65,000 links to one). Linking is atomic and fails when
//! the name exists (on NFS too, unlike a test and a create), and the link's content is whole from the start,
//! so a reader never sees a half-written claim.
//!
//! A worker killed in the middle leaves claims it has no record for; run again with `--resume` and the same
//! record file, it takes those back first (they name it), so nothing is lost and nothing done twice.
//!
//! Claims go by line number, so a folder holds the claims on one input only: its first worker writes
//! `DIR/.input`, the input's length and checksum, and a worker on other content is refused rather than
//! finding every line taken.

use anyhow::{anyhow, bail, Context};
use std::fs;
use std::io::{ErrorKind, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

/// Claims a worker makes on one mark file before it starts another: ext4 allows 65,000 links to a file.
const LINKS_A_MARK: u32 = 50_000;

/// One worker's claims in a claim folder.
pub struct Claims {
    dir: PathBuf,
    /// Who claims: the record file's canonical path, as every claim of this worker says.
    owner: String,
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
        fs::create_dir_all(dir).with_context(|| format!("cannot create the claim folder {}", dir.display()))?;
        let owner = fs::canonicalize(output)
            .with_context(|| format!("cannot resolve the path of {}", output.display()))?
            .display()
            .to_string();
        let mark = Mutex::new((new_mark(dir, &owner)?, 0));
        let claims = Claims { dir: dir.to_owned(), owner, mark, links_a_mark: LINKS_A_MARK };
        claims.check_input(input)?;
        Ok(claims)
    }

    /// That the folder's claims are on `input`: its identity is written by the first worker (linked into
    /// place like a claim, so it is whole or absent), and must match for every later one.
    fn check_input(&self, input: &str) -> anyhow::Result<()> {
        let identity = input_identity(input)?;
        let tmp = new_mark(&self.dir, &identity)?;
        let theirs = link_or_read(&tmp, &self.dir.join(".input"));
        let _ = fs::remove_file(&tmp);
        match theirs? {
            Some(theirs) if theirs != identity => bail!(
                "the claim folder {} holds claims on another input ({theirs}; {input} is {identity}): give each \
                 input a folder of its own",
                self.dir.display()
            ),
            _ => Ok(()),
        }
    }

    /// Whether this worker searches the instance on input line `line`: it claims it now, or had claimed it
    /// before (a run that was cut off). A claim of another worker's is left to it.
    pub fn take(&self, line: u64) -> anyhow::Result<bool> {
        let mut mark = self.mark.lock().unwrap_or_else(|e| e.into_inner());
        if mark.1 == self.links_a_mark {
            let next = new_mark(&self.dir, &self.owner)?;
            let _ = fs::remove_file(std::mem::replace(&mut mark.0, next));
            mark.1 = 0;
        }
        match link_or_read(&mark.0, &self.dir.join(line.to_string()))? {
            None => {
                mark.1 += 1;
                Ok(true)
            }
            Some(owner) => Ok(owner == self.owner),
        }
    }
}

/// A new file in `dir` holding `text`, written whole and synced, under a name no other worker uses.
fn new_mark(dir: &Path, text: &str) -> anyhow::Result<PathBuf> {
    static MARKS: AtomicU64 = AtomicU64::new(0);
    let stamp = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
    let n = MARKS.fetch_add(1, Ordering::Relaxed);
    let mark = dir.join(format!(".worker-{}-{}-{n}", std::process::id(), stamp.as_nanos()));
    let write = || -> std::io::Result<()> {
        let mut f = fs::OpenOptions::new().write(true).create_new(true).open(&mark)?;
        f.write_all(text.as_bytes())?;
        f.sync_all()
    };
    write().with_context(|| format!("cannot write in the claim folder {}", dir.display()))?;
    Ok(mark)
}

/// Links `mark` to `name` unless `name` exists: `None` when linked, else what `name` holds.
fn link_or_read(mark: &Path, name: &Path) -> anyhow::Result<Option<String>> {
    match fs::hard_link(mark, name) {
        Ok(()) => Ok(None),
        Err(e) if e.kind() == ErrorKind::AlreadyExists => {
            Ok(Some(fs::read_to_string(name).with_context(|| format!("cannot read {}", name.display()))?))
        }
        Err(e) => Err(anyhow!(e).context(format!(
            "cannot link {} (claims are hard links: the claim folder's file system must allow them)",
            name.display()
        ))),
    }
}

/// An input file's identity: its length and FNV-1a checksum.
fn input_identity(input: &str) -> anyhow::Result<String> {
    let bytes = fs::read(input).with_context(|| format!("cannot read {input}"))?;
    let hash = bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3));
    Ok(format!("{} bytes, FNV-1a {hash:016x}", bytes.len()))
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
        fs::OpenOptions::new().create(true).append(true).open(dir.join(worker)).unwrap();
        Claims::open(&dir.join("claims"), dir.join("in.txt").to_str().unwrap(), &dir.join(worker))
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
