//! Checkpoints of the instances in flight: how far a long IDA* search got, so that a batch stopped by a
//! kill, a crash or the end of a machine's time loses at most the iteration that was running, not the hour
//! before it.
//!
//! Beside a record file `OUT` the batch keeps `OUT.checkpoints`, JSON lines, one appended (in one `write`,
//! synced) each time an instance that has searched for at least `--checkpoint-after` seconds (default
//! [`SAVE_AFTER`]) finishes an iteration without a solution. Short searches never write one, and the file is
//! made only when a line is. `--resume` starts an instance without a record from its last line, if that was
//! written by the same search (the task's [`Task::checkpoint_key`]) of the same instance; the record then
//! counts the nodes and seconds of both runs (the iteration cut short is searched again in full, and counted
//! once). Without `--resume` the file is removed with the records it belonged to. A torn last line (a kill
//! mid-write) is ignored.
//!
//! [`Task::checkpoint_key`]: crate::Task::checkpoint_key

use anyhow::Context;
use search::Checkpoint;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Search time after which an instance's finished iterations are saved by default (`--checkpoint-after`):
/// a shorter search loses little when it is run again, and a file per record file for every quick batch
/// would be clutter.
pub const SAVE_AFTER: f64 = 10.0;

/// `--checkpoint-after`: seconds, 0 or more.
pub fn parse_after(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if x >= 0.0 && x.is_finite() => Ok(x),
        _ => Err(format!("'{s}' is not a number of seconds (0 or more)")),
    }
}

/// One line of a checkpoint file: an instance's [`Checkpoint`], with what it is a checkpoint of.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    /// The instance's id, as in its record.
    pub id: String,
    /// The instance as the input wrote it.
    pub instance: String,
    /// What searched it ([`crate::Task::checkpoint_key`]).
    pub search: String,
    /// The checkpoint's fields stand beside the others in the line.
    #[serde(flatten)]
    pub checkpoint: Checkpoint,
}

/// The checkpoint file of a record file: the checkpoints read from it at the start, and appending.
pub struct Checkpoints {
    path: PathBuf,
    earlier: HashMap<String, Entry>,
    /// Opened at the first line written.
    file: Mutex<Option<File>>,
    /// Damaged lines skipped at the start (see [`Checkpoints::open`]).
    damaged: Vec<usize>,
}

impl Checkpoints {
    /// The checkpoint file of record file `out`: `OUT.checkpoints`.
    pub fn path_for(out: &Path) -> PathBuf {
        let mut name = out.as_os_str().to_owned();
        name.push(".checkpoints");
        PathBuf::from(name)
    }

    /// The checkpoints of record file `out`: with `resume`, those already in its checkpoint file; without, a
    /// fresh start (an old checkpoint file is removed, since its records are gone).
    pub fn open(out: &Path, resume: bool) -> anyhow::Result<Checkpoints> {
        let path = Checkpoints::path_for(out);
        let mut earlier = HashMap::new();
        let mut damaged = Vec::new();
        if resume {
            match std::fs::read(&path) {
                Ok(bytes) => {
                    let complete = complete_len(&bytes);
                    let (entries, bad) = parse(&bytes[..complete])
                        .with_context(|| format!("{} is not a checkpoint file", path.display()))?;
                    damaged = bad;
                    for c in entries {
                        earlier.insert(c.id.clone(), c);
                    }
                    if complete < bytes.len() {
                        // Cut off the torn line, or the next line appended would join it.
                        let cut = OpenOptions::new().write(true).open(&path).and_then(|f| f.set_len(complete as u64));
                        cut.with_context(|| format!("cannot cut the torn last line off {}", path.display()))?;
                    }
                }
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
            }
        } else {
            match std::fs::remove_file(&path) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                    return Err(e).with_context(|| format!("cannot remove the old {}", path.display()));
                }
                _ => {}
            }
        }
        Ok(Checkpoints { path, earlier, file: Mutex::new(None), damaged })
    }

    /// The line numbers of damaged lines that opening skipped: a write cut short (a full disk) by a version
    /// that did not cut it back, which a later line then joined. Their instances resume from an earlier
    /// checkpoint or from the start, which costs time and loses nothing.
    pub fn damaged(&self) -> &[usize] {
        &self.damaged
    }

    /// The checkpoint file, `OUT.checkpoints`.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The last checkpoint of `id` that the file held at the start.
    pub fn earlier(&self, id: &str) -> Option<&Entry> {
        self.earlier.get(id)
    }

    /// Appends one line whole, and syncs it; a write that fails part way (a full disk) is cut back off, so the
    /// file keeps only whole lines and the next line does not join a torn one.
    pub fn save(&self, c: &Entry) -> anyhow::Result<()> {
        let mut line = serde_json::to_vec(c)?;
        line.push(b'\n');
        let mut file = self.file.lock().unwrap();
        let f = match &mut *file {
            Some(f) => f,
            None => file.insert(
                OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(&self.path)
                    .with_context(|| format!("cannot open {}", self.path.display()))?,
            ),
        };
        let before = f.metadata().map(|m| m.len());
        let written = f.write_all(&line).and_then(|()| f.sync_data());
        if written.is_err() {
            if let Ok(len) = before {
                // Best effort: if even this fails, the next resume skips the damaged line.
                let _ = f.set_len(len);
            }
        }
        written.with_context(|| format!("cannot write {}", self.path.display()))
    }
}

/// The length of the complete lines at the start of `bytes`.
fn complete_len(bytes: &[u8]) -> usize {
    bytes.iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1)
}

/// The entries of complete lines, in order, and the numbers of damaged lines after the first; a damaged
/// first line is an error naming it (the file is not a checkpoint file at all).
fn parse(complete: &[u8]) -> anyhow::Result<(Vec<Entry>, Vec<usize>)> {
    let lines = complete.split(|&b| b == b'\n').enumerate().filter(|(_, l)| !l.is_empty());
    let (mut entries, mut damaged) = (Vec::new(), Vec::new());
    for (n, l) in lines {
        match serde_json::from_slice::<Entry>(l) {
            Ok(e) => entries.push(e),
            Err(e) if entries.is_empty() && damaged.is_empty() => return Err(e).context(format!("line {}", n + 1)),
            Err(_) => damaged.push(n + 1),
        }
    }
    Ok((entries, damaged))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(id: &str, bound: u32) -> Entry {
        let checkpoint = Checkpoint { bound, iterations: 3, nodes: 1_000_000_000_000, expanded: 4, seconds: 12.5 };
        Entry { id: id.into(), instance: "1 0 2 3".into(), search: "ida; pdb \"x\"".into(), checkpoint }
    }

    #[test]
    fn a_torn_line_a_later_line_joined_is_skipped_and_the_rest_resume() {
        let dir = std::env::temp_dir().join(format!("checkpoints-torn-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let out = dir.join("out.jsonl");
        let line = |e: &Entry| serde_json::to_string(e).unwrap();
        // Line 2: a write cut short by a full disk, then the next line appended after it.
        let torn = &line(&at("b", 60))[..20];
        let text = format!("{}\n{}{}\n{}\n", line(&at("a", 55)), torn, line(&at("b", 61)), line(&at("c", 57)));
        std::fs::write(Checkpoints::path_for(&out), text).unwrap();
        let cs = Checkpoints::open(&out, true).unwrap();
        assert_eq!(cs.damaged(), &[2]);
        assert_eq!((cs.earlier("a"), cs.earlier("b"), cs.earlier("c")), (Some(&at("a", 55)), None, Some(&at("c", 57))));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_last_line_of_an_id_counts_and_a_torn_tail_is_ignored() {
        let dir = std::env::temp_dir().join(format!("checkpoints-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let out = dir.join("out.jsonl");
        let cs = Checkpoints::open(&out, false).unwrap();
        assert!(!cs.path().exists(), "made only when a line is written");
        for c in [at("a", 50), at("b", 60), at("a", 52)] {
            cs.save(&c).unwrap();
        }
        let mut bytes = std::fs::read(cs.path()).unwrap();
        bytes.extend(b"{\"id\":\"b\",\"bou");
        std::fs::write(cs.path(), &bytes).unwrap();
        let again = Checkpoints::open(&out, true).unwrap();
        assert_eq!(
            (again.earlier("a"), again.earlier("b"), again.earlier("c")),
            (Some(&at("a", 52)), Some(&at("b", 60)), None)
        );
        // The torn line was cut off, so the next one appended reads back.
        again.save(&at("b", 62)).unwrap();
        assert_eq!(Checkpoints::open(&out, true).unwrap().earlier("b"), Some(&at("b", 62)));
        // A damaged complete line is an error naming the file and line.
        std::fs::write(cs.path(), b"{\"id\":\"a\"}\n").unwrap();
        let e = format!("{:#}", Checkpoints::open(&out, true).err().unwrap());
        assert!(e.contains("out.jsonl.checkpoints is not a checkpoint file: line 1: missing field"), "{e}");
        // A fresh start removes them.
        Checkpoints::open(&out, false).unwrap();
        assert!(!cs.path().exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// The format is kept across versions: a file from an earlier overnight run still loads, field by field.
    #[test]
    fn the_checkpoints_of_an_earlier_run_still_load() {
        let line = r#"{"id":"42","instance":"16 6 20","search":"ida; pdb 7-6-6-5","bound":104,"iterations":8,"nodes":524306411,"expanded":251878232,"seconds":17.885509148}"#;
        let checkpoint =
            Checkpoint { bound: 104, iterations: 8, nodes: 524306411, expanded: 251878232, seconds: 17.885509148 };
        let entry =
            Entry { id: "42".into(), instance: "16 6 20".into(), search: "ida; pdb 7-6-6-5".into(), checkpoint };
        assert_eq!(serde_json::to_string(&entry).unwrap(), line);
        assert_eq!(parse(format!("{line}\n").as_bytes()).unwrap(), (vec![entry], vec![]));
        let kept = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/kf50-7665.jsonl.checkpoints")).unwrap();
        let (entries, damaged) = parse(&kept).unwrap();
        assert!(
            damaged.is_empty()
                && entries.len() > 30
                && entries.iter().all(|e| e.checkpoint.bound > 0 && e.checkpoint.nodes > 0)
        );
    }
}
