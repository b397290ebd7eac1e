//! Builds additive pattern databases and writes them in the shared PDB file format.
//!
//! [`bfs`] computes a table; this module turns it into a file, decides what a build has to do, and checks
//! tables and their names. Nothing here prints: progress goes to a callback and failures are [`Error`]s, so
//! the command-line front end (`main.rs`) decides what the user sees and which exit status it means.

#![warn(missing_docs)]

pub mod bfs;
pub mod mem;
pub mod symmetry;

use puzzle::pdb_file::{self, Encoding, Expect, Header, Kind, PdbError, PdbFile};
use puzzle::regions::Regions;
use puzzle::{Board, Pattern};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Recorded in every header this builder writes.
pub const BUILDER: &str = concat!("pdb-builder ", env!("CARGO_PKG_VERSION"));

/// Everything that can go wrong. The first group is the user's input or options, the second the files and
/// the machine; its `is_usage` (of [`search::Fault`]) tells them apart for exit statuses.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The partition asked for is malformed or not one of the board's.
    #[error(transparent)]
    Partition(#[from] puzzle::PartitionError),
    /// `--memory-limit` cannot be read.
    #[error(transparent)]
    MemorySize(#[from] cli_common::units::SizeError),
    #[error("building {what} needs {} of memory, more than the limit of {} ({why}); free memory, build a smaller partition, or raise --memory-limit", cli_common::units::human_bytes(*.need), cli_common::units::human_bytes(*.limit))]
    /// The largest table's search arrays would not fit in the memory allowed: refused before any work.
    TooBig {
        /// The table, for the message.
        what: String,
        /// Bytes its build needs.
        need: u64,
        /// Bytes allowed.
        limit: u64,
        /// Where the limit comes from: the option or the memory available.
        why: String,
    },
    /// A table with more entries than the search can index.
    #[error("{what} would have {entries} entries, more than the {MAX_ENTRIES} the search can index; build fewer tiles a pattern, or the plain kind")]
    TooManyEntries {
        /// The table, for the message.
        what: String,
        /// Its entries.
        entries: u64,
    },
    /// The output folder's file system has less free space than the tables to build need: refused before
    /// any work.
    #[error("the tables to build in {} need at least {} of disk space, {} free; free some space or choose another folder with --out", dir.display(), cli_common::units::human_bytes(*.need), cli_common::units::human_bytes(*.free))]
    NoSpace {
        /// The output folder.
        dir: PathBuf,
        /// Bytes the build needs there.
        need: u64,
        /// Bytes free there.
        free: u64,
    },
    /// A path given on the command line does not exist.
    #[error("{}: no such file or folder", .0.display())]
    NotFound(PathBuf),
    /// A folder to inspect or verify holds no tables.
    #[error("{}: no .pdb files in this folder", .0.display())]
    NoTables(PathBuf),

    /// A table that is corrupt, truncated, for another board or pattern than expected, or unreadable.
    #[error(transparent)]
    Table(#[from] PdbError),
    /// A table whose file name and header disagree (renamed by hand?): using it would load the wrong table.
    #[error("{}: its file name says {name_says}, but its header says {header_says}", path.display())]
    Misnamed {
        /// The file.
        path: PathBuf,
        /// The board and pattern its name gives.
        name_says: String,
        /// The board and pattern its header gives.
        header_says: String,
    },
    /// A folder of tables could not be read.
    #[error("cannot list {}: {source}", path.display())]
    ListFolder {
        /// The folder.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The output folder cannot be created or written, found before a table is built rather than after.
    #[error("cannot write to output folder {}: {source}", dir.display())]
    Unwritable {
        /// The folder.
        dir: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// No `--memory-limit` and no memory figure from the system to check a build against.
    #[error(
        "cannot read the memory available (MemAvailable in /proc/meminfo, or a cgroup limit); give --memory-limit"
    )]
    NoMemInfo,
    /// The free space of the output folder cannot be read.
    #[error("cannot read the free space of output folder {}: {source}", dir.display())]
    FreeSpace {
        /// The folder.
        dir: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The system refused the memory for a table's search arrays.
    #[error("cannot allocate the search arrays for {}: {source}", path.display())]
    Allocation {
        /// The table being built.
        path: PathBuf,
        /// The system's error.
        source: std::io::Error,
    },
    /// The thread pool could not be built.
    #[error("cannot start the worker threads: {0}")]
    Threads(#[from] rayon::ThreadPoolBuildError),
}

impl search::Fault for Error {
    /// The user's input or options, rather than a table or the machine. No catch-all arm: a new variant
    /// must be placed on one side of the rule.
    fn is_usage(&self) -> bool {
        match self {
            Error::Partition(_)
            | Error::MemorySize(_)
            | Error::TooBig { .. }
            | Error::TooManyEntries { .. }
            | Error::NoSpace { .. }
            | Error::NotFound(_)
            | Error::NoTables(_) => true,
            Error::Table(_)
            | Error::Misnamed { .. }
            | Error::ListFolder { .. }
            | Error::Unwritable { .. }
            | Error::NoMemInfo
            | Error::FreeSpace { .. }
            | Error::Allocation { .. }
            | Error::Threads(_) => false,
        }
    }
}

/// Refuses a build whose tables, `(pattern, labels, path)` in the order they are written, cannot fit in the free
/// space of `dir`, the existing output folder: said before the search, not as a failed write after it.
pub fn check_disk<'a>(dir: &Path, tables: impl IntoIterator<Item = (&'a Pattern, u32, &'a Path)>) -> Result<(), Error> {
    let sizes: Vec<(u64, u64)> = tables
        .into_iter()
        .map(|(pattern, labels, path)| (smallest_file(pattern, labels), std::fs::metadata(path).map_or(0, |m| m.len())))
        .collect();
    let free =
        cli_common::resources::free_space(dir).map_err(|source| Error::FreeSpace { dir: dir.to_path_buf(), source })?;
    disk_verdict(dir, disk_needed(&sizes), free)
}

/// The smallest file `pattern`'s table can be: its header and a nibble an entry. It is larger only if it needs
/// the byte encoding, which nothing tells before the search.
fn smallest_file(pattern: &Pattern, labels: u32) -> u64 {
    pdb_file::HEADER_LEN as u64 + Encoding::Nibble.payload_len(pattern.size() * labels as u64)
}

/// The disk space a build needs at its fullest, from each table's new file size and the size of the file it
/// replaces (0 if none), in the order written. Tables are written one at a time, each to a temporary file
/// renamed over the old one, so an old file's space is free again only once its replacement is complete.
fn disk_needed(tables: &[(u64, u64)]) -> u64 {
    let mut grown: i128 = 0;
    let mut peak: i128 = 0;
    for &(new, old) in tables {
        peak = peak.max(grown + i128::from(new));
        grown += i128::from(new) - i128::from(old);
    }
    u64::try_from(peak).unwrap_or(u64::MAX)
}

/// Refuses `need` bytes in `dir` when only `free` are free.
fn disk_verdict(dir: &Path, need: u64, free: u64) -> Result<(), Error> {
    if need > free {
        return Err(Error::NoSpace { dir: dir.to_path_buf(), need, free });
    }
    Ok(())
}

/// What is at a table's path before a build.
pub enum Existing {
    /// No file: the table is to be built.
    Missing,
    /// A file that passes the open checks (for this board and pattern) and the payload checksum.
    Valid,
    /// A file that does not; the error names the file.
    Invalid(PdbError),
}

/// Checks the file a pattern's table of `labels` entries a placement would be written to: header, length,
/// board, tiles, labels and payload checksum (not the histogram recomputation, so that a no-op rebuild stays
/// instant).
pub fn existing(path: &Path, board: Board, pattern: &Pattern, labels: u32) -> Existing {
    if !path.exists() {
        return Existing::Missing;
    }
    let kind = Kind::of_labels(labels);
    let check = PdbFile::open(path, &Expect { board: Some(board), tiles: Some(pattern.tiles()), kind: Some(kind) })
        .and_then(|f| {
            if f.header.labels != labels {
                let kind = pdb_file::PdbErrorKind::Mismatch {
                    expected: format!("{labels} entries a placement"),
                    found: format!("{}", f.header.labels),
                };
                return Err(PdbError { path: path.to_path_buf(), kind });
            }
            f.verify_checksum()
        });
    match check {
        Ok(()) => Existing::Valid,
        Err(e) => Existing::Invalid(e),
    }
}

/// A table built and written.
pub struct Built {
    /// How the entries were stored: a nibble when every excess fits in four bits, else a byte.
    pub encoding: Encoding,
    /// The largest value (distance) in the table.
    pub max_value: u32,
    /// The largest excess over the Manhattan distance, which chose the encoding.
    pub max_excess: u8,
    /// Placements the goal cannot reach (see [`bfs::Table::unreachable`]).
    pub unreachable: u64,
    /// The file's size, header included.
    pub file_bytes: u64,
    /// Time to build (or derive) and write it.
    pub elapsed: Duration,
}

/// The entries a placement has in a table of `kind`: 1 for a plain table; for a blank-aware one, one a
/// region label up to `cap` (at least 2), by default [`DEFAULT_LABELS`], never more than the most regions.
pub fn labels_for(board: Board, pattern: &Pattern, kind: Kind, cap: Option<u32>) -> u32 {
    match kind {
        Kind::Plain => 1,
        Kind::BlankAware => Regions::untabled(board).most(pattern.len()).min(cap.unwrap_or(DEFAULT_LABELS).max(2)),
    }
}

/// Entries a placement has in a blank-aware table unless `--labels` says otherwise.
pub const DEFAULT_LABELS: u32 = 16;

/// Builds `pattern`'s table of `kind` (with the default labels) in the current rayon pool and writes it
/// atomically to `path`.
pub fn build_table(
    board: Board,
    pattern: &Pattern,
    kind: Kind,
    path: &Path,
    progress: &mut dyn FnMut(&bfs::DepthReport),
) -> Result<Built, Error> {
    build_table_with(board, pattern, labels_for(board, pattern, kind, None), path, progress)
}

/// [`build_table`] with `labels` entries a placement (see [`labels_for`]).
pub fn build_table_with(
    board: Board,
    pattern: &Pattern,
    labels: u32,
    path: &Path,
    progress: &mut dyn FnMut(&bfs::DepthReport),
) -> Result<Built, Error> {
    let start = Instant::now();
    check_entries(board, pattern, labels)?;
    let table = bfs::build(board, pattern, labels, progress)
        .map_err(|source| Error::Allocation { path: path.to_path_buf(), source })?;
    let fail = |kind| pdb_file::PdbError { path: path.to_path_buf(), kind };
    let encoding = Encoding::for_max_excess(table.max_excess);
    let header = Header::new(board, pattern, labels, encoding, &table.histogram, BUILDER);
    if table.encoding == encoding {
        pdb_file::write_atomic(path, &header, &table.excess)?;
    } else if table.encoding == Encoding::Byte {
        let payload = pdb_file::encode(encoding, &table.excess).map_err(fail)?;
        drop(table.excess);
        pdb_file::write_atomic(path, &header, &payload)?;
    } else {
        // Nibbles kept, but an excess did not fit in one.
        return Err(fail(pdb_file::PdbErrorKind::Overflow(table.max_excess)).into());
    }
    Ok(Built {
        encoding,
        max_value: header.max_value,
        max_excess: table.max_excess,
        unreachable: table.unreachable,
        file_bytes: header.file_len(),
        elapsed: start.elapsed(),
    })
}

/// Writes `pattern`'s table to `path` by relabelling the valid table of `source` at `source_path`, which
/// `s` takes to `pattern` (see [`symmetry`]): the same entries and histogram without a BFS.
pub fn derive_table(
    board: Board,
    pattern: &Pattern,
    path: &Path,
    source: &Pattern,
    source_path: &Path,
    s: symmetry::Symmetry,
) -> Result<Built, Error> {
    let start = Instant::now();
    let expect = Expect { board: Some(board), tiles: Some(source.tiles()), kind: Some(Kind::Plain) };
    let file = PdbFile::open(source_path, &expect)?;
    let mut excess = mem::Zeroed::<u8>::new(pattern.size() as usize)
        .map_err(|source| Error::Allocation { path: path.to_path_buf(), source })?;
    symmetry::relabel(board, pattern, source, s, &|rank| file.excess(rank), &mut excess);
    let max_excess = excess.iter().copied().max().unwrap_or(0);
    let encoding = Encoding::for_max_excess(max_excess);
    let payload =
        pdb_file::encode(encoding, &excess).map_err(|kind| pdb_file::PdbError { path: path.to_path_buf(), kind })?;
    drop(excess);
    let header = Header::new(board, pattern, 1, encoding, &file.header.histogram, BUILDER);
    pdb_file::write_atomic(path, &header, &payload)?;
    Ok(Built {
        encoding,
        max_value: header.max_value,
        max_excess,
        // Only boards where every placement is reachable have tables with images (2x2 has none).
        unreachable: 0,
        file_bytes: header.file_len(),
        elapsed: start.elapsed(),
    })
}

/// Most entries a table may have: the search indexes entries with 32 bits.
pub const MAX_ENTRIES: u64 = 1 << 32;

/// Refuses a table of `labels` entries a placement that the search could not index (a blank-aware table of
/// seven tiles on 5x5 with six labels has 14.5 billion entries): said before the search.
pub fn check_entries(board: Board, pattern: &Pattern, labels: u32) -> Result<(), Error> {
    let entries = pattern.size() * labels as u64;
    if entries > MAX_ENTRIES {
        let kind = Kind::of_labels(labels);
        return Err(Error::TooManyEntries { what: kind.file_name(board, pattern), entries });
    }
    Ok(())
}

/// Checks that `dir` exists (creating it) and takes a new file, before minutes of work are spent on a table
/// that could not be written. The probe is named like a table's temporary file, so a probe left by a killed
/// build is cleaned up like one.
pub fn check_writable(dir: &Path) -> Result<(), Error> {
    let fail = |source| Error::Unwritable { dir: dir.to_path_buf(), source };
    std::fs::create_dir_all(dir).map_err(fail)?;
    let probe = dir.join(format!(".pdb-builder-probe.{}.tmp", std::process::id()));
    std::fs::write(&probe, b"").map_err(fail)?;
    std::fs::remove_file(&probe).map_err(fail)
}

/// A temporary file (`.NAME.PID.tmp`, as [`pdb_file::write_atomic`] and [`check_writable`] name them) that
/// [`remove_stale_temporaries`] found abandoned.
pub struct StaleTemporary {
    /// The file.
    pub path: PathBuf,
    /// The build that wrote it, no longer running.
    pub pid: u32,
    /// The removal's outcome; a failure is worth a warning, not a failed build.
    pub removed: std::io::Result<()>,
}

/// Removes the temporary files a killed build left in `dir`: a full-size table that no later build would ever
/// overwrite (its name holds the dead builder's PID), up to 247 MB for the 7-8 tables.
///
/// A temporary is stale when its PID is not a running process, or when that process is neither a
/// `pdb-builder` nor holding the file open (the PID was reused by something else). A running builder's
/// temporary is never touched, nor one that another program using this library is writing. Without `/proc`
/// nothing can be told, so nothing is removed. A folder that cannot be listed has nothing to clean here; the
/// writability check reports it.
pub fn remove_stale_temporaries(dir: &Path) -> Vec<StaleTemporary> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
    if !Path::new("/proc/self").exists() {
        return Vec::new();
    }
    entries
        .filter_map(|e| e.ok())
        .filter_map(|e| Some((temporary_pid(&e.file_name().to_string_lossy())?, e.path())))
        .filter(|(pid, path)| !in_use(*pid, path))
        .map(|(pid, path)| {
            let removed = std::fs::remove_file(&path);
            StaleTemporary { path, pid, removed }
        })
        .collect()
}

/// The PID in a temporary file's name `.NAME.PID.tmp`.
fn temporary_pid(name: &str) -> Option<u32> {
    let (_, pid) = name.strip_prefix('.')?.strip_suffix(".tmp")?.rsplit_once('.')?;
    pid.parse().ok()
}

/// Whether process `pid` may still be writing `path`. Anything that cannot be read (another user's process)
/// counts as in use: removing a live build's file would break it.
fn in_use(pid: u32, path: &Path) -> bool {
    let proc = PathBuf::from(format!("/proc/{pid}"));
    if !proc.exists() {
        return false;
    }
    let Ok(comm) = std::fs::read_to_string(proc.join("comm")) else { return true };
    if comm.trim_end() == "pdb-builder" {
        return true;
    }
    let Ok(fds) = std::fs::read_dir(proc.join("fd")) else { return true };
    let target = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    fds.filter_map(|fd| std::fs::read_link(fd.ok()?.path()).ok()).any(|open| open == target)
}

/// Checks that a table's file name is the one [`Kind::file_name`] gives its header's board and tiles: the solver
/// finds tables by name, so a renamed table (another partition's, or another board's) would be loaded for the
/// wrong pattern or never found.
fn check_name(path: &Path, header: &Header) -> Result<(), Error> {
    let expected = header.kind().file_name(header.board, &header.pattern());
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    if name == expected {
        return Ok(());
    }
    let name_says = match parse_file_name(&name) {
        Some((board, tiles, kind)) => describe_table(&board, &tiles, kind),
        None => format!("nothing (not a BOARD-TILES.pdb name; this table's is {expected})"),
    };
    Err(Error::Misnamed {
        path: path.to_path_buf(),
        name_says,
        header_says: describe_table(&header.board.to_string(), &header.tiles, header.kind()),
    })
}

/// The board, tiles and kind a name of [`Kind::file_name`]'s form `4x4-1-2-3.pdb` or `4x4-1-2-3.blank.pdb`
/// claims, as written (the board is not checked for being supported: the message should repeat the name, not
/// judge it).
fn parse_file_name(name: &str) -> Option<(String, Vec<u8>, Kind)> {
    let stem = name.strip_suffix(".pdb")?;
    let (stem, kind) = match stem.strip_suffix(".blank") {
        Some(stem) => (stem, Kind::BlankAware),
        None => (stem, Kind::Plain),
    };
    let mut parts = stem.split('-');
    let board = parts.next().filter(|b| b.split_once('x').is_some())?;
    let tiles = parts.map(|t| t.parse().ok()).collect::<Option<Vec<u8>>>()?;
    (!tiles.is_empty()).then(|| (board.to_string(), tiles, kind))
}

fn describe_table(board: &str, tiles: &[u8], kind: Kind) -> String {
    let kind = if kind == Kind::Plain { String::new() } else { format!(", {}", kind.name()) };
    format!("board {board}, tiles {tiles:?}{kind}")
}

/// The table files `paths` name: files as given, folders replaced by their `*.pdb` files in name order. A path
/// that does not exist, or a folder without tables, is the user's mistake and reported before any work.
pub fn table_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, Error> {
    let mut files = Vec::new();
    for p in paths {
        if p.is_dir() {
            let list = std::fs::read_dir(p).map_err(|source| Error::ListFolder { path: p.clone(), source })?;
            let mut found: Vec<PathBuf> = list
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|f| f.extension().is_some_and(|x| x == "pdb"))
                .collect();
            if found.is_empty() {
                return Err(Error::NoTables(p.clone()));
            }
            found.sort();
            files.extend(found);
        } else if p.exists() {
            files.push(p.clone());
        } else {
            return Err(Error::NotFound(p.clone()));
        }
    }
    Ok(files)
}

/// Opens a table with every check `verify` promises: header, length, board if given, payload checksum,
/// recomputed histogram, and last the file name (damage matters more than a name, so it is reported first).
pub fn verify_table(path: &Path, board: Option<Board>) -> Result<PdbFile, Error> {
    let f = PdbFile::open(path, &Expect { board, ..Expect::default() })?;
    f.verify()?;
    check_name(path, &f.header)?;
    Ok(f)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn temporary_names_give_their_pid() {
        assert_eq!(temporary_pid(".4x4-1-2-3.pdb.1234.tmp"), Some(1234));
        assert_eq!(temporary_pid(".pdb-builder-probe.77.tmp"), Some(77));
        for other in ["4x4-1-2.pdb", ".x.tmp", ".x.abc.tmp", ".x.12.tmp.bak", "x.12.tmp"] {
            assert_eq!(temporary_pid(other), None, "{other}");
        }
    }

    #[test]
    fn disk_need_is_the_fullest_point_of_the_build() {
        assert_eq!(disk_needed(&[]), 0);
        // New tables add up.
        assert_eq!(disk_needed(&[(100, 0), (300, 0)]), 400);
        // A replaced file is still there while its replacement is written, and frees its space after.
        assert_eq!(disk_needed(&[(100, 100), (300, 300)]), 300);
        assert_eq!(disk_needed(&[(300, 300), (100, 0)]), 300);
        assert_eq!(disk_needed(&[(100, 500), (300, 0)]), 100, "a large old file freed first makes room");
        assert_eq!(disk_needed(&[(u64::MAX, 0), (u64::MAX, 0)]), u64::MAX, "no overflow");
    }

    #[test]
    fn a_build_that_cannot_fit_is_refused_in_sizes_people_read() {
        let dir = Path::new("pdbs");
        assert!(disk_verdict(dir, 1000, 1000).is_ok());
        let e = disk_verdict(dir, 1_610_612_736, 314_572_800).unwrap_err();
        assert_eq!(
            e.to_string(),
            "the tables to build in pdbs need at least 1.5 GiB of disk space, 300 MiB free; free some space or choose another folder with --out"
        );
        assert!(search::Fault::is_usage(&e), "exit 2");
    }

    #[test]
    fn a_table_file_is_at_least_its_header_and_a_nibble_an_entry() {
        let pattern = Pattern::new(16, &[1, 2, 3, 4, 5, 6, 7]);
        assert_eq!(
            smallest_file(&pattern, labels_for(Board::FOUR, &pattern, Kind::Plain, None)),
            4096 + 57_657_600 / 2
        );
        // Seven tiles on 4x4 can cut the nine free cells into seven regions (tiles on cells 2, 5, 7, 8, 10,
        // 13 and 15).
        let blank = |cap| smallest_file(&pattern, labels_for(Board::FOUR, &pattern, Kind::BlankAware, cap));
        assert_eq!(blank(None), 4096 + 7 * 57_657_600 / 2);
        assert_eq!((blank(Some(3)), blank(Some(1))), (4096 + 3 * 57_657_600 / 2, 4096 + 2 * 57_657_600 / 2));
    }

    #[test]
    fn file_names_are_read_back() {
        assert_eq!(parse_file_name("3x3-1-2-3-4.pdb"), Some(("3x3".into(), vec![1, 2, 3, 4], Kind::Plain)));
        assert_eq!(parse_file_name("3x3-1-2.blank.pdb"), Some(("3x3".into(), vec![1, 2], Kind::BlankAware)));
        for other in ["bad.pdb", "3x3.pdb", "3x3-1-x.pdb", "3x3-1-2", "tiles-1-2.pdb", "3x3-1.b.pdb"] {
            assert_eq!(parse_file_name(other), None, "{other}");
        }
    }
}
