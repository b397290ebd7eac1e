//! `--claim DIR`: workers that share one input take its instances one at a time, each instance searched by
//! the first worker to claim it, so a faster worker (or one with easier instances) simply takes more, and
//! all of them finish within one instance of each other. Coordination is the file system alone, as on a
//! cluster's shared one: a claim is a hard link `DIR/LINE` to a file that names the worker's record file.
//! Linking is atomic and fails when the name exists (on NFS too, unlike a test and a create), and the link's
//! content is whole from the start, so a reader never sees a half-written claim.
//!
//! A worker killed in the middle leaves claims it has no record for; run again with `--resume` and the same
//! record file, it takes those back first (they name it), so nothing is lost and nothing done twice.

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
    /// Claims in `dir` (created if missing) for the worker writing `output`.
    pub fn open(dir: &Path, output: &Path) -> anyhow::Result<Claims> {
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
        Ok(Claims { dir: dir.to_owned(), owner, mark })
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

impl Drop for Claims {
    /// The claims stay (they say who took what); only the file they link to loses its own name.
    fn drop(&mut self) {
        let _ = fs::remove_file(&self.mark);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("batch-claim-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn the_first_worker_to_claim_a_line_has_it_and_keeps_it_when_run_again() {
        let dir = scratch("first");
        let claims = dir.join("claims");
        let a = Claims::open(&claims, &dir.join("a.jsonl")).unwrap();
        let b = Claims::open(&claims, &dir.join("b.jsonl")).unwrap();
        assert!(a.take(1).unwrap());
        assert!(!b.take(1).unwrap());
        assert!(b.take(2).unwrap());
        assert!(a.take(1).unwrap(), "a worker's own claim is still its own");
        drop(a);
        // Run again for the same record file, it takes back what it had claimed.
        let again = Claims::open(&claims, &dir.join("a.jsonl")).unwrap();
        assert!(again.take(1).unwrap());
        assert!(!again.take(2).unwrap());
        let names: Vec<String> =
            fs::read_dir(&claims).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
        assert_eq!(names.iter().filter(|n| !n.starts_with('.')).count(), 2, "{names:?}");
        drop((b, again));
        assert_eq!(fs::read_dir(&claims).unwrap().count(), 2, "the workers' own files are removed");
        fs::remove_dir_all(&dir).unwrap();
    }

    /// Many threads racing for the same lines: every line is taken exactly once.
    #[test]
    fn racing_workers_take_every_line_once() {
        let dir = scratch("race");
        let workers: Vec<Claims> =
            (0..4).map(|w| Claims::open(&dir.join("claims"), &dir.join(format!("{w}.jsonl"))).unwrap()).collect();
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
        let err = Claims::open(Path::new("/proc/no-such/claims"), Path::new("a.jsonl")).err().unwrap();
        assert!(format!("{err:#}").contains("/proc/no-such/claims"), "{err:#}");
    }
}
