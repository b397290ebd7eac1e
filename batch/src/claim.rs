//! `--claim DIR`: workers that share one input take its instances one at a time, each instance searched by
//! the first worker to claim it, so a faster worker (or one with easier instances) simply takes more, and
//! all of them finish within one instance of each other. Coordination is the file system alone, as on a
//! cluster's shared one: a claim is a hard link `DIR/LINE` to a file that names the worker's record file.
//! Linking is atomic and fails when the name exists (on NFS too, unlike a test and a create), and the link's
//! content is whole from the start, so a reader never sees a half-written claim.
//!
//! A worker killed in the middle leaves claims it has no record for; run again with `--resume` and the same
//! record file, it takes those back first (they name it), so nothing is lost and nothing done twice.
//!
//! Claims go by line number, so a folder holds the claims on one input only: its first worker writes
//! `DIR/.input`, the input's length and checksum, and a worker on other content is refused rather than
//! finding every line taken.

use anyhow::{anyhow, Context};
use std::fs;
use std::io::{ErrorKind, Write};
use std::path::{Path, PathBuf};

/// One worker's claims in a claim folder.
pub struct Claims {
    dir: PathBuf,
    /// Who claims: the record file's absolute path, as every claim of this worker says.
    owner: String,
    /// The file every claim of this worker links to (removed when the worker ends).
    mark: PathBuf,
}

impl Claims {
    /// Claims in `dir` (created if missing) on the lines of `input` (a file, or `-` for stdin) for the worker
    /// writing `output`.
    pub fn open(dir: &Path, input: &str, output: &Path) -> anyhow::Result<Claims> {
        fs::create_dir_all(dir).with_context(|| format!("cannot create the claim folder {}", dir.display()))?;
        let owner = std::path::absolute(output)
            .with_context(|| format!("cannot name {} absolutely", output.display()))?
            .display()
            .to_string();
        let stamp = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
        let mark = dir.join(format!(".worker-{}-{}", std::process::id(), stamp.as_nanos()));
        let write = || -> std::io::Result<()> {
            let mut f = fs::OpenOptions::new().write(true).create_new(true).open(&mark)?;
            f.write_all(owner.as_bytes())?;
            f.sync_all()
        };
        write().with_context(|| format!("cannot write in the claim folder {}", dir.display()))?;
        let claims = Claims { dir: dir.to_owned(), owner, mark };
        claims.check_input(input)?;
        Ok(claims)
    }

    /// That the folder's claims are on `input`: its identity is written by the first worker (linked into
    /// place like a claim, so it is whole or absent), and must match for every later one.
    fn check_input(&self, input: &str) -> anyhow::Result<()> {
        let identity = input_identity(input)?;
        let stamp = self.dir.join(".input");
        let tmp = self.mark.with_extension("input");
        fs::write(&tmp, &identity).with_context(|| format!("cannot write {}", tmp.display()))?;
        let linked = fs::hard_link(&tmp, &stamp);
        let _ = fs::remove_file(&tmp);
        match linked {
            Ok(()) => return Ok(()),
            Err(e) if e.kind() == ErrorKind::AlreadyExists => {}
            Err(e) => return Err(anyhow!(e).context(format!("cannot write {}", stamp.display()))),
        }
        let theirs = fs::read_to_string(&stamp).with_context(|| format!("cannot read {}", stamp.display()))?;
        if theirs != identity {
            anyhow::bail!(
                "the claim folder {} holds claims on another input ({theirs}; {input} is {identity}): give each \
                 input a folder of its own",
                self.dir.display()
            );
        }
        Ok(())
    }

    /// Whether this worker searches the instance on input line `line`: it claims it now, or had claimed it
    /// before (a run that was cut off). A claim of another worker's is left to it.
    pub fn take(&self, line: u64) -> anyhow::Result<bool> {
        let claim = self.dir.join(line.to_string());
        match fs::hard_link(&self.mark, &claim) {
            Ok(()) => Ok(true),
            Err(e) if e.kind() == ErrorKind::AlreadyExists => {
                let owner = fs::read_to_string(&claim).with_context(|| format!("cannot read {}", claim.display()))?;
                Ok(owner == self.owner)
            }
            Err(e) => Err(anyhow!(e).context(format!("cannot claim line {line} in {}", self.dir.display()))),
        }
    }
}

/// An input's identity: its length and FNV-1a checksum (stdin: only that it is stdin).
fn input_identity(input: &str) -> anyhow::Result<String> {
    if input == "-" {
        return Ok("stdin".to_string());
    }
    let bytes = fs::read(input).with_context(|| format!("cannot read {input}"))?;
    let hash = bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3));
    Ok(format!("{} bytes, FNV-1a {hash:016x}", bytes.len()))
}

impl Drop for Claims {
    /// The claims stay (they say who took what); only the file they link to loses its own name.
    fn drop(&mut self) {
        let _ = fs::remove_file(&self.mark);
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

    fn open(dir: &Path, worker: &str) -> anyhow::Result<Claims> {
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
    fn an_unwritable_claim_folder_is_an_error_naming_it() {
        let err = Claims::open(Path::new("/proc/no-such/claims"), "-", Path::new("a.jsonl")).err().unwrap();
        assert!(format!("{err:#}").contains("/proc/no-such/claims"), "{err:#}");
    }

    /// A folder of claims on one input refuses a worker of another, even one under the same name; a copy of
    /// the same input elsewhere is the same input.
    #[test]
    fn a_folder_of_claims_on_one_input_refuses_another() {
        let dir = scratch("input");
        let a = open(&dir, "a.jsonl").unwrap();
        assert!(a.take(1).unwrap());
        fs::copy(dir.join("in.txt"), dir.join("copy.txt")).unwrap();
        let copy = Claims::open(&dir.join("claims"), dir.join("copy.txt").to_str().unwrap(), &dir.join("b.jsonl"));
        assert!(!copy.unwrap().take(1).unwrap());
        fs::write(dir.join("in.txt"), "1\n2\n4\n").unwrap();
        let err = format!("{:#}", open(&dir, "c.jsonl").err().unwrap());
        assert!(err.contains("holds claims on another input"), "{err}");
        drop(a);
        fs::remove_dir_all(&dir).unwrap();
    }
}
