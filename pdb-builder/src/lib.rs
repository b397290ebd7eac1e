//! Builds additive pattern databases and writes them in the shared PDB file format.
//!
//! [`bfs`] computes a table; this module turns it into a file and decides what a build has to do. The
//! command-line front end (`main.rs`) only parses arguments and prints.

pub mod bfs;
pub mod mem;

use anyhow::Context;
use puzzle::pdb_file::{self, Encoding, Expect, Header, PdbFile};
use puzzle::{Board, Pattern};
use std::path::Path;
use std::time::{Duration, Instant};

/// Recorded in every header this builder writes.
pub const BUILDER: &str = concat!("pdb-builder ", env!("CARGO_PKG_VERSION"));

/// Bad input from the user (as opposed to a failure while working); the front end exits with status 2.
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    #[error(transparent)]
    Partition(#[from] puzzle::PartitionError),
    #[error("'{0}' is not a memory size (examples: 2G, 1500M, 512MiB, 2147483648)")]
    MemorySize(String),
    #[error("building {what} needs {} of memory, more than the limit of {} ({why}); free memory, build a smaller partition, or raise --memory-limit", human_bytes(*.need), human_bytes(*.limit))]
    TooBig { what: String, need: u64, limit: u64, why: String },
}

/// Parses a byte count with an optional binary suffix: `2G`, `1500M`, `512MiB`, `64k`, `2147483648`.
pub fn parse_size(text: &str) -> Result<u64, InputError> {
    let bad = || InputError::MemorySize(text.to_string());
    let t = text.trim();
    let split = t.find(|c: char| !c.is_ascii_digit() && c != '.').unwrap_or(t.len());
    let (num, unit) = t.split_at(split);
    let shift = match unit.trim().to_ascii_lowercase().trim_end_matches("ib").trim_end_matches('b') {
        "" => 0,
        "k" => 10,
        "m" => 20,
        "g" => 30,
        "t" => 40,
        _ => return Err(bad()),
    };
    let value: f64 = num.parse().map_err(|_| bad())?;
    let bytes = value * (1u64 << shift) as f64;
    if !bytes.is_finite() || bytes < 1.0 || bytes > u64::MAX as f64 {
        return Err(bad());
    }
    Ok(bytes as u64)
}

/// `MemAvailable` from `/proc/meminfo`, in bytes.
pub fn mem_available() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// `1.45 GiB`, `260.0 MiB`, `3.3 KiB`, `12 B`.
pub fn human_bytes(n: u64) -> String {
    const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut v = n as f64;
    let mut u = 0;
    while v >= 1024.0 && u + 1 < UNITS.len() {
        v /= 1024.0;
        u += 1;
    }
    if u == 0 {
        format!("{n} B")
    } else {
        format!("{v:.2} {}", UNITS[u])
    }
}

/// `518,918,400`.
pub fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, ch) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

/// What is at a table's path before a build.
pub enum Existing {
    Missing,
    /// A file that passes the open checks (for this board and pattern) and the payload checksum.
    Valid,
    /// A file that does not; the reason names the file.
    Invalid(String),
}

/// Checks the file a pattern's table would be written to: header, length, board, tiles and payload checksum
/// (not the histogram recomputation, so that a no-op rebuild stays instant).
pub fn existing(path: &Path, board: Board, pattern: &Pattern) -> Existing {
    if !path.exists() {
        return Existing::Missing;
    }
    match PdbFile::open(path, &Expect { board: Some(board), tiles: Some(pattern.tiles()) })
        .and_then(|f| f.verify_checksum())
    {
        Ok(()) => Existing::Valid,
        Err(e) => Existing::Invalid(e.to_string()),
    }
}

/// A table built and written.
pub struct Built {
    pub encoding: Encoding,
    pub max_value: u32,
    pub max_excess: u8,
    pub unreachable: u64,
    pub file_bytes: u64,
    pub elapsed: Duration,
}

/// Builds `pattern`'s table in the current rayon pool and writes it atomically to `path`.
pub fn build_table(
    board: Board,
    pattern: &Pattern,
    path: &Path,
    progress: &mut dyn FnMut(&bfs::DepthReport),
) -> anyhow::Result<Built> {
    let start = Instant::now();
    let table = bfs::build(board, pattern, progress).context("cannot allocate the search arrays")?;
    let encoding = Encoding::for_max_excess(table.max_excess);
    let payload = pdb_file::encode(encoding, &table.excess)
        .map_err(|kind| pdb_file::PdbError { path: path.to_path_buf(), kind })?;
    drop(table.excess);
    let header = Header::new(board, pattern, encoding, &table.histogram, BUILDER);
    pdb_file::write_atomic(path, &header, &payload)?;
    Ok(Built {
        encoding,
        max_value: header.max_value,
        max_excess: table.max_excess,
        unreachable: table.unreachable,
        file_bytes: header.file_len(),
        elapsed: start.elapsed(),
    })
}

/// Checks that `dir` exists (creating it) and takes a new file, before minutes of work are spent on a table
/// that could not be written.
pub fn check_writable(dir: &Path) -> anyhow::Result<()> {
    let fail = || format!("cannot write to output folder {}", dir.display());
    std::fs::create_dir_all(dir).with_context(fail)?;
    let probe = dir.join(format!(".pdb-builder-probe.{}.tmp", std::process::id()));
    std::fs::write(&probe, b"").with_context(fail)?;
    std::fs::remove_file(&probe).with_context(fail)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse_with_binary_suffixes() {
        assert_eq!(parse_size("2G").unwrap(), 2 << 30);
        assert_eq!(parse_size("1500M").unwrap(), 1500 << 20);
        assert_eq!(parse_size("512MiB").unwrap(), 512 << 20);
        assert_eq!(parse_size("1.5g").unwrap(), 3 << 29);
        assert_eq!(parse_size("123456").unwrap(), 123_456);
        for bad in ["", "G", "2X", "-1G", "0"] {
            assert!(parse_size(bad).is_err(), "{bad}");
        }
        assert_eq!(human_bytes(1_557_000_000), "1.45 GiB");
        assert_eq!(thousands(518_918_400), "518,918,400");
    }
}
