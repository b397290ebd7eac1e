//! Where a batch's records go: a file, locked while the batch runs, each record written whole and synced; or
//! stdout. Resuming reads what a file already holds.

use crate::record::{read_records, Record, RecordFile, RecordFormat};
use anyhow::{anyhow, Context};
use cli_common::log;
use cli_common::units::human_bytes;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Where records go: a file (synced per record when it is a regular file) or stdout (flushed per record).
pub struct Sink {
    file: Option<OutFile>,
    format: RecordFormat,
    /// A CSV file without its header yet.
    header_pending: bool,
    /// A CSV file of an older version, resumed in its own columns: records are cut to this many.
    columns: Option<usize>,
}

struct OutFile {
    file: File,
    path: PathBuf,
    /// A regular file is synced after every record; a device (`/dev/null`, a pipe) cannot be.
    sync: bool,
    /// Created by this run: removed again if the run fails before writing a record.
    created: bool,
    written: bool,
}

impl Sink {
    /// Opens the output; with `resume`, also returns the records already in it (a torn tail cut off). The
    /// file stays locked while the batch runs, so two runs cannot interleave their records in it.
    pub fn open(
        name: &str,
        path: Option<&Path>,
        format: RecordFormat,
        resume: bool,
    ) -> anyhow::Result<(Sink, Vec<Record>)> {
        let Some(path) = path else {
            return Ok((
                Sink { file: None, format, header_pending: format == RecordFormat::Csv, columns: None },
                Vec::new(),
            ));
        };
        let show = path.display();
        let existed = path.exists();
        let verb = if existed { "open" } else { "create" };
        let file =
            OpenOptions::new().create(true).append(true).open(path).with_context(|| format!("cannot {verb} {show}"))?;
        if !existed {
            sync_parent(path);
        }
        let meta = file.metadata().with_context(|| format!("cannot open {show}"))?;
        let regular = meta.file_type().is_file();
        let out = OutFile { file, path: path.to_owned(), sync: regular, created: !existed, written: false };
        // From here on, a failure removes the file this run created.
        let fail = |out: OutFile, e: anyhow::Error| {
            out.discard();
            Err(e)
        };
        if regular {
            match out.file.try_lock() {
                Ok(()) => {}
                Err(std::fs::TryLockError::WouldBlock) => {
                    return fail(out, anyhow!("{show} is being written by another batch run"))
                }
                Err(std::fs::TryLockError::Error(e)) => {
                    return fail(out, anyhow!(e).context(format!("cannot lock {show}")))
                }
            }
        }
        // Only a regular file with something in it is read (a device such as /dev/null reads as empty or endless).
        let len = if regular { meta.len() } else { 0 };
        if len > 0 && !resume {
            anyhow::bail!("{show} already holds records; add --resume to continue it, or choose another file");
        }
        let old = if len > 0 {
            read_records(path)?
        } else {
            RecordFile { records: Vec::new(), format: None, csv_header: None, complete_len: 0, torn_tail: 0 }
        };
        if let Some(f) = old.format.filter(|&f| f != format) {
            anyhow::bail!("{show} is {f:?}, not {format:?} as asked: resume it in its own format (--format)");
        }
        // A CSV file of an older version goes on in its columns; any other is refused.
        let columns = old.csv_header.as_deref().and_then(RecordFormat::older_csv_columns);
        if let Some(h) = old.csv_header.as_deref().filter(|&h| h != RecordFormat::csv_header() && columns.is_none()) {
            anyhow::bail!(
                "{show} has the CSV columns '{h}', not this version's; finish it with the version that started it, \
                 or start a new file"
            );
        }
        if old.torn_tail > 0 {
            log(&format!("{name}: note: {show} ends in an incomplete record ({}, from an interrupted run); removing it, that instance is solved again", human_bytes(old.torn_tail)));
            out.file
                .set_len(old.complete_len)
                .and_then(|_| out.file.sync_all())
                .with_context(|| format!("cannot truncate {show}"))?;
        }
        let header_pending = format == RecordFormat::Csv && old.complete_len == 0;
        Ok((Sink { file: Some(out), format, header_pending, columns }, old.records))
    }

    pub fn write(&mut self, rec: &Record) -> anyhow::Result<()> {
        let mut bytes = self.format.encode(rec, self.header_pending)?;
        if let Some(columns) = self.columns {
            bytes = RecordFormat::csv_first_columns(&bytes, columns)?;
        }
        match &mut self.file {
            Some(out) => {
                out.written = true;
                out.file
                    .write_all(&bytes)
                    .and_then(|_| if out.sync { out.file.sync_data() } else { Ok(()) })
                    .with_context(|| format!("cannot write {}", out.path.display()))?
            }
            None => {
                let mut stdout = std::io::stdout().lock();
                stdout.write_all(&bytes).and_then(|_| stdout.flush()).context("cannot write stdout")?;
            }
        }
        self.header_pending = false;
        Ok(())
    }

    /// Ends the output: a file this run created and never wrote to is removed, so a failed start leaves
    /// nothing behind.
    pub fn close(self) {
        if let Some(out) = self.file {
            out.discard();
        }
    }
}

impl OutFile {
    /// Closes the file, removing it if this run created it and wrote nothing to it.
    fn discard(self) {
        if self.created && !self.written {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

/// Makes a new file's directory entry durable too (best effort: not every file system allows it).
fn sync_parent(path: &Path) {
    let parent = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    if let Ok(dir) = File::open(parent) {
        let _ = dir.sync_all();
    }
}
