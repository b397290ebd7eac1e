//! The PDB file format: one pattern a file, a self-describing 4096-byte header, a page-aligned payload.
//!
//! Header (little-endian, fixed offsets):
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `STPPDB\r\n` |
//! | 8 | 4 | format version (1) |
//! | 12 | 4 | header length (4096) |
//! | 16 | 1+1 | board rows, cols |
//! | 18 | 1 | goal (0: blank on cell 0, tile t on cell t) |
//! | 19 | 1 | index scheme (1: lexicographic partial permutation, see `rank`; 2: that rank times the labels, plus the blank's region label) |
//! | 20 | 1 | entry encoding (1: 4 bits, 2: 8 bits) |
//! | 21 | 1 | number of pattern tiles k |
//! | 22 | 1 | entries a placement has (scheme 2: from 2 to the most regions k tiles leave, see `regions`, the last serving every label from it up; 0 for scheme 1) |
//! | 24 | 16 | pattern tiles, ascending, zero padded |
//! | 40 | 8 | entry count |
//! | 48 | 8 | payload offset (4096) |
//! | 56 | 8 | payload length in bytes |
//! | 64 | 4 | maximum PDB value |
//! | 72 | 8 | xxh3-64 of the payload |
//! | 80 | 32 | builder name and version, UTF-8, zero padded |
//! | 112 | 8 x 128 | histogram: number of entries with PDB value 0..127 |
//! | 4088 | 8 | xxh3-64 of bytes 0..4088 |
//!
//! An entry stores the *excess* `(value - md) / 2`, where `md` is the Manhattan distance of the pattern's
//! tiles: a PDB value always has the parity of that distance, so halving loses nothing, and the excess is small
//! (at most 9 for the 4x4 catalogue), so 4 bits usually suffice. The search adds its incrementally kept
//! Manhattan distance back. The one-byte encoding is for tables whose excess exceeds 15.
//!
//! A *blank-aware* table (index scheme 2) has an entry for each region label of a placement, where a plain
//! one (scheme 1) has one entry: the value with the blank in that region, rather than the least over all.
//!
//! No timestamps: the same table always gives the same bytes.

use crate::backing::Backing;
use crate::board::Board;
use crate::rank::{Pattern, INDEX_SCHEME_LEX, MAX_PATTERN_TILES};
use crate::regions::Regions;
use rayon::prelude::*;
use std::fs::{self, File};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

/// The file's first bytes; the `\r\n` catches a file mangled by a text-mode transfer.
pub const MAGIC: [u8; 8] = *b"STPPDB\r\n";
/// The format version written; a reader refuses a newer one.
pub const VERSION: u32 = 1;
/// Bytes of the header, which is also the payload's offset: a page, so the payload is page-aligned.
pub const HEADER_LEN: usize = 4096;
/// Histogram entries in the header: values 0 to 127.
pub const HIST_BINS: usize = 128;
const HEADER_HASH_AT: usize = HEADER_LEN - 8;
/// The one goal code: blank on cell 0, tile `t` on cell `t` (other conventions are converted on input).
pub const GOAL_BLANK_FIRST: u8 = 0;
/// Index scheme of a blank-aware table: `rank * labels + label of the blank's region`.
pub const INDEX_SCHEME_REGIONS: u8 = 2;

/// How entries are stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoding {
    /// Two entries a byte, entry `i` in the low nibble of byte `i / 2` when `i` is even.
    Nibble = 1,
    /// One entry a byte.
    Byte = 2,
}

impl Encoding {
    fn from_u8(v: u8) -> Option<Encoding> {
        match v {
            1 => Some(Encoding::Nibble),
            2 => Some(Encoding::Byte),
            _ => None,
        }
    }

    /// Bytes the payload of `entries` entries takes.
    pub fn payload_len(self, entries: u64) -> u64 {
        match self {
            Encoding::Nibble => entries.div_ceil(2),
            Encoding::Byte => entries,
        }
    }

    /// The smallest encoding that holds `max_excess`.
    pub fn for_max_excess(max_excess: u8) -> Encoding {
        if max_excess <= 15 {
            Encoding::Nibble
        } else {
            Encoding::Byte
        }
    }

    /// A description for `info` and reports.
    pub fn name(self) -> &'static str {
        match self {
            Encoding::Nibble => "4-bit excess over Manhattan distance",
            Encoding::Byte => "8-bit excess over Manhattan distance",
        }
    }
}

/// What a table stores for a placement.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// One entry: the fewest moves of the pattern's tiles wherever the blank is.
    Plain,
    /// An entry for each region the pattern's tiles may leave the blank in (index scheme 2).
    BlankAware,
}

impl Kind {
    /// The file a table of this kind for `pattern` is found under: `4x4-1-2-3.pdb`, `4x4-1-2-3.blank.pdb`.
    pub fn file_name(self, board: Board, pattern: &Pattern) -> String {
        let tiles: Vec<String> = pattern.tiles().iter().map(|t| t.to_string()).collect();
        let suffix = match self {
            Kind::Plain => "",
            Kind::BlankAware => ".blank",
        };
        format!("{board}-{}{suffix}.pdb", tiles.join("-"))
    }

    /// The kind of a table with `labels` entries a placement.
    pub fn of_labels(labels: u32) -> Kind {
        if labels > 1 {
            Kind::BlankAware
        } else {
            Kind::Plain
        }
    }

    /// A description for `info`, messages and reports.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Plain => "plain",
            Kind::BlankAware => "blank-aware",
        }
    }
}

/// What a header says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// The format version the file was written in.
    pub version: u32,
    /// The board the table is for.
    pub board: Board,
    /// The goal convention ([`GOAL_BLANK_FIRST`]).
    pub goal: u8,
    /// How placements are ranked to entry indices (`rank`'s lexicographic scheme, or that times the labels
    /// plus the blank's region label).
    pub index_scheme: u8,
    /// Entries a placement has: 1 for a plain table, the most region labels for a blank-aware one.
    pub labels: u32,
    /// How entries are stored.
    pub encoding: Encoding,
    /// The pattern's tiles, ascending.
    pub tiles: Vec<u8>,
    /// Entries: the placements of the pattern's tiles.
    pub entries: u64,
    /// Where the payload starts ([`HEADER_LEN`]).
    pub payload_offset: u64,
    /// The payload's bytes.
    pub payload_len: u64,
    /// The largest value in the table.
    pub max_value: u32,
    /// xxh3-64 of the payload, checked by [`PdbFile::verify_checksum`].
    pub payload_hash: u64,
    /// The program and version that wrote the file.
    pub builder: String,
    /// Entries of each value, from 0; [`PdbFile::verify`] recomputes it.
    pub histogram: Vec<u64>,
}

/// What is wrong with a table file (the path is in [`PdbError`]).
#[derive(Debug, thiserror::Error)]
pub enum PdbErrorKind {
    /// Reading, mapping or writing failed.
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// Not even a whole header: truncated, or another kind of file.
    #[error("file is {0} bytes, shorter than the {HEADER_LEN}-byte header (truncated or not a PDB file)")]
    TooShort(u64),
    /// The file does not start with [`MAGIC`].
    #[error("not a PDB file (bad magic)")]
    BadMagic,
    /// Written by a newer program in a format this one cannot read.
    #[error("format version {0} is newer than this program's ({VERSION}); rebuild the table or upgrade")]
    FutureVersion(u32),
    /// The header's own checksum fails.
    #[error("header checksum mismatch (the header is corrupt)")]
    HeaderHash,
    /// A header whose checksum holds but whose fields contradict each other or the format.
    #[error("header is inconsistent: {0}")]
    BadHeader(String),
    /// The file's length is not the header's payload offset plus length.
    #[error("file is {found} bytes but its header says {expected} (truncated or padded)")]
    Length {
        /// Bytes by the header.
        expected: u64,
        /// Bytes on disk.
        found: u64,
    },
    /// A valid table, but for another board or pattern than the caller needs.
    #[error("table is for {found}, expected {expected}")]
    Mismatch {
        /// What the caller asked for.
        expected: String,
        /// What the header says.
        found: String,
    },
    /// The payload's checksum fails.
    #[error("payload checksum mismatch (the table's contents are corrupt)")]
    PayloadHash,
    /// The payload's values do not add up to the header's histogram: corrupt despite its checksum, or
    /// written by a broken builder.
    #[error("recomputed value histogram differs from the header's at value {value}: {found} entries, header says {expected}")]
    Histogram {
        /// The first value whose counts differ.
        value: usize,
        /// Entries of that value by the header.
        expected: u64,
        /// Entries of that value in the payload.
        found: u64,
    },
    /// Values that no table of distances holds (see [`crate::consistency`]).
    #[error("not a table of distances: {0}")]
    Inadmissible(String),
    /// An excess too large for the encoding chosen: a table cannot be written that way.
    #[error("entry excess {0} does not fit the entry encoding")]
    Overflow(u8),
}

/// A PDB file problem, always naming the file.
#[derive(Debug, thiserror::Error)]
#[error("{}: {kind}", path.display())]
pub struct PdbError {
    /// The table file.
    pub path: PathBuf,
    /// What is wrong with it.
    pub kind: PdbErrorKind,
}

fn err(path: &Path, kind: impl Into<PdbErrorKind>) -> PdbError {
    PdbError { path: path.to_path_buf(), kind: kind.into() }
}

impl Header {
    /// A header for a freshly built table; the payload hash is filled in by [`write_atomic`].
    /// `labels` entries a placement: 1 for a plain table.
    pub fn new(
        board: Board,
        pattern: &Pattern,
        labels: u32,
        encoding: Encoding,
        histogram: &[u64],
        builder: &str,
    ) -> Header {
        let max_value = histogram.iter().rposition(|&c| c > 0).unwrap_or(0) as u32;
        let entries = pattern.size() * labels as u64;
        Header {
            version: VERSION,
            board,
            goal: GOAL_BLANK_FIRST,
            index_scheme: if labels > 1 { INDEX_SCHEME_REGIONS } else { INDEX_SCHEME_LEX },
            labels,
            encoding,
            tiles: pattern.tiles().to_vec(),
            entries,
            payload_offset: HEADER_LEN as u64,
            payload_len: encoding.payload_len(entries),
            max_value,
            payload_hash: 0,
            builder: builder.to_string(),
            histogram: histogram.to_vec(),
        }
    }

    /// The pattern the table is for, ready to rank placements.
    pub fn pattern(&self) -> Pattern {
        Pattern::new(self.board.cells(), &self.tiles)
    }

    /// Whether `other` describes the same table: every entry equal (same tiles, kind, encoding and payload
    /// hash), so that either file can stand for the other, whatever built them.
    pub fn same_table(&self, other: &Header) -> bool {
        let key = |h: &Header| (h.board, h.goal, h.index_scheme, h.labels, h.encoding, h.entries, h.payload_hash);
        key(self) == key(other) && self.tiles == other.tiles
    }

    /// The header as written to the file, its checksum included.
    pub fn to_bytes(&self) -> [u8; HEADER_LEN] {
        let mut b = [0u8; HEADER_LEN];
        b[0..8].copy_from_slice(&MAGIC);
        b[8..12].copy_from_slice(&self.version.to_le_bytes());
        b[12..16].copy_from_slice(&(HEADER_LEN as u32).to_le_bytes());
        b[16] = self.board.rows() as u8;
        b[17] = self.board.cols() as u8;
        b[18] = self.goal;
        b[19] = self.index_scheme;
        b[20] = self.encoding as u8;
        b[21] = self.tiles.len() as u8;
        b[22] = if self.labels > 1 { self.labels as u8 } else { 0 };
        b[24..24 + self.tiles.len()].copy_from_slice(&self.tiles);
        b[40..48].copy_from_slice(&self.entries.to_le_bytes());
        b[48..56].copy_from_slice(&self.payload_offset.to_le_bytes());
        b[56..64].copy_from_slice(&self.payload_len.to_le_bytes());
        b[64..68].copy_from_slice(&self.max_value.to_le_bytes());
        b[72..80].copy_from_slice(&self.payload_hash.to_le_bytes());
        let name = self.builder.as_bytes();
        let n = name.len().min(32);
        b[80..80 + n].copy_from_slice(&name[..n]);
        for (i, &count) in self.histogram.iter().take(HIST_BINS).enumerate() {
            b[112 + 8 * i..120 + 8 * i].copy_from_slice(&count.to_le_bytes());
        }
        let hash = xxhash_rust::xxh3::xxh3_64(&b[..HEADER_HASH_AT]);
        b[HEADER_HASH_AT..].copy_from_slice(&hash.to_le_bytes());
        b
    }

    /// Parses and checks a header on its own: magic, version, checksum, internal consistency.
    pub fn from_bytes(b: &[u8; HEADER_LEN]) -> Result<Header, PdbErrorKind> {
        if b[0..8] != MAGIC {
            return Err(PdbErrorKind::BadMagic);
        }
        let u32_at = |o: usize| u32::from_le_bytes(b[o..o + 4].try_into().unwrap());
        let u64_at = |o: usize| u64::from_le_bytes(b[o..o + 8].try_into().unwrap());
        let version = u32_at(8);
        if version > VERSION {
            return Err(PdbErrorKind::FutureVersion(version));
        }
        if u64_at(HEADER_HASH_AT) != xxhash_rust::xxh3::xxh3_64(&b[..HEADER_HASH_AT]) {
            return Err(PdbErrorKind::HeaderHash);
        }
        let bad = |s: String| PdbErrorKind::BadHeader(s);
        if version != VERSION || u32_at(12) as usize != HEADER_LEN {
            return Err(bad(format!("version {version} / header length {}", u32_at(12))));
        }
        let board = Board::new(b[16] as usize, b[17] as usize).map_err(|e| bad(e.to_string()))?;
        let encoding = Encoding::from_u8(b[20]).ok_or_else(|| bad(format!("unknown entry encoding {}", b[20])))?;
        if b[19] != INDEX_SCHEME_LEX && b[19] != INDEX_SCHEME_REGIONS {
            return Err(bad(format!("unknown index scheme {}", b[19])));
        }
        let k = b[21] as usize;
        let tiles = b[24..24 + k.min(MAX_PATTERN_TILES)].to_vec();
        let valid = k >= 1
            && k < board.cells()
            && k <= MAX_PATTERN_TILES
            && tiles.windows(2).all(|w| w[0] < w[1])
            && tiles.iter().all(|&t| t >= 1 && (t as usize) < board.cells());
        if !valid {
            return Err(bad(format!("invalid pattern tiles {tiles:?} for a {board} board")));
        }
        let header = Header {
            version,
            board,
            goal: b[18],
            index_scheme: b[19],
            labels: if b[19] == INDEX_SCHEME_REGIONS { b[22] as u32 } else { 1 },
            encoding,
            entries: u64_at(40),
            payload_offset: u64_at(48),
            payload_len: u64_at(56),
            max_value: u32_at(64),
            payload_hash: u64_at(72),
            builder: String::from_utf8_lossy(&b[80..112]).trim_end_matches('\0').to_string(),
            histogram: (0..HIST_BINS).map(|i| u64_at(112 + 8 * i)).collect(),
            tiles,
        };
        let pattern = header.pattern();
        if header.index_scheme == INDEX_SCHEME_REGIONS {
            if encoding != Encoding::Nibble {
                return Err(bad("a blank-aware table must store its entries in 4 bits".into()));
            }
            let most = Regions::untabled(board).most(k);
            if header.labels < 2 || header.labels > most {
                return Err(bad(format!(
                    "{} region labels for a {k}-tile pattern on {board}, which leaves at most {most} regions",
                    header.labels
                )));
            }
        }
        if header.entries != pattern.size() * header.labels as u64
            || header.payload_len != encoding.payload_len(header.entries)
            || header.payload_offset != HEADER_LEN as u64
        {
            return Err(bad(format!(
                "{} entries in {} bytes at offset {} for a {k}-tile pattern",
                header.entries, header.payload_len, header.payload_offset
            )));
        }
        Ok(header)
    }

    /// Whether the table stores a value per blank region.
    pub fn kind(&self) -> Kind {
        Kind::of_labels(self.labels)
    }

    /// The file's total length, header included.
    pub fn file_len(&self) -> u64 {
        self.payload_offset + self.payload_len
    }

    /// The histogram trimmed to the values that occur.
    pub fn used_histogram(&self) -> &[u64] {
        &self.histogram[..=self.max_value as usize]
    }
}

/// A loaded table: header plus the whole file's bytes.
pub struct PdbFile {
    /// Where it was opened from, for messages.
    pub path: PathBuf,
    /// Its header, checked on open.
    pub header: Header,
    /// The whole file, read when the table was opened: a copy that cannot change under a search when the
    /// file is rewritten or truncated (see [`crate::backing`]).
    bytes: Backing,
}

/// What the caller expects a table to be; checked on open. `None` accepts whatever the header names (tools
/// that inspect files: `info`, `verify`); `Expect::default()` accepts any board and pattern.
#[derive(Clone, Debug, Default)]
pub struct Expect<'a> {
    /// The board the table must be for.
    pub board: Option<Board>,
    /// The pattern's tiles, ascending.
    pub tiles: Option<&'a [u8]>,
    /// The kind of table.
    pub kind: Option<Kind>,
}

impl PdbFile {
    /// Opens a table, read whole into a private copy, with the constant-time checks: file length before
    /// reading, magic, version, header checksum, and board, goal and tiles as expected.
    pub fn open(path: &Path, expect: &Expect) -> Result<PdbFile, PdbError> {
        let mut file = File::open(path).map_err(|e| err(path, e))?;
        let len = file.metadata().map_err(|e| err(path, e))?.len();
        if len < HEADER_LEN as u64 {
            return Err(err(path, PdbErrorKind::TooShort(len)));
        }
        let mut raw = [0u8; HEADER_LEN];
        file.read_exact(&mut raw).map_err(|e| err(path, e))?;
        let header = Header::from_bytes(&raw).map_err(|k| err(path, k))?;
        if len != header.file_len() {
            return Err(err(path, PdbErrorKind::Length { expected: header.file_len(), found: len }));
        }
        let describe = |b: Board, t: &[u8], k: Kind| {
            format!("board {b}, tiles {t:?}{}", if k == Kind::Plain { "" } else { ", blank-aware" })
        };
        let board_ok = expect.board.is_none_or(|b| b == header.board);
        let tiles_ok = expect.tiles.is_none_or(|t| t == header.tiles.as_slice());
        let kind_ok = expect.kind.is_none_or(|k| k == header.kind());
        if !board_ok || header.goal != GOAL_BLANK_FIRST || !tiles_ok || !kind_ok {
            return Err(err(
                path,
                PdbErrorKind::Mismatch {
                    expected: describe(
                        expect.board.unwrap_or(header.board),
                        expect.tiles.unwrap_or(&header.tiles),
                        expect.kind.unwrap_or(header.kind()),
                    ),
                    found: describe(header.board, &header.tiles, header.kind())
                        + if header.goal != GOAL_BLANK_FIRST { ", another goal" } else { "" },
                },
            ));
        }
        let hash = header.payload_hash;
        let check = Box::new(move |bytes: &[u8]| xxhash_rust::xxh3::xxh3_64(&bytes[HEADER_LEN..]) == hash);
        let what = format!("the table {}", path.display());
        let copy = Backing::open(file, len as usize, check, &what).map_err(|e| err(path, e))?;
        if copy[..HEADER_LEN] != raw {
            return Err(err(path, std::io::Error::other("the file changed while it was read")));
        }
        Ok(PdbFile { path: path.to_path_buf(), header, bytes: copy })
    }

    /// The payload bytes.
    pub fn payload(&self) -> &[u8] {
        &self.bytes[HEADER_LEN..]
    }

    /// The stored excess of entry `index` (checked).
    pub fn excess(&self, index: u64) -> u8 {
        decode(self.header.encoding, self.payload(), index)
    }

    /// The payload checksum alone: one sequential hash of the payload, much cheaper than [`PdbFile::verify`].
    pub fn verify_checksum(&self) -> Result<(), PdbError> {
        if xxhash_rust::xxh3::xxh3_64(self.payload()) != self.header.payload_hash {
            return Err(err(&self.path, PdbErrorKind::PayloadHash));
        }
        Ok(())
    }

    /// The full check: payload checksum, then every entry decoded to its PDB value and the histogram
    /// compared with the header's, then the goal placement's value and the entries of neighbouring states
    /// ([`crate::consistency`]). Catches a wrong table that a checksum of the wrong bytes would bless.
    pub fn verify(&self) -> Result<(), PdbError> {
        let path = &self.path;
        self.verify_checksum()?;
        let h = &self.header;
        let hist = histogram_of(h.board, &h.pattern(), h.encoding, self.payload(), h.labels);
        for (value, (&found, &expected)) in hist.iter().zip(&self.header.histogram).enumerate() {
            if found != expected {
                return Err(err(path, PdbErrorKind::Histogram { value, expected, found }));
            }
        }
        crate::consistency::check(h.board, &h.pattern(), h.encoding, self.payload(), h.labels)
            .map_err(|flaw| err(path, PdbErrorKind::Inadmissible(flaw)))
    }
}

/// Entry `index` of a payload.
#[inline]
pub fn decode(encoding: Encoding, payload: &[u8], index: u64) -> u8 {
    match encoding {
        Encoding::Nibble => payload[(index >> 1) as usize] >> ((index & 1) * 4) & 0xF,
        Encoding::Byte => payload[index as usize],
    }
}

/// Packs excess values (one a byte) into a payload of the given encoding.
pub fn encode(encoding: Encoding, excess: &[u8]) -> Result<Vec<u8>, PdbErrorKind> {
    match encoding {
        Encoding::Byte => Ok(excess.to_vec()),
        Encoding::Nibble => {
            if let Some(&bad) = excess.iter().find(|&&e| e > 15) {
                return Err(PdbErrorKind::Overflow(bad));
            }
            Ok(excess.par_chunks(2).map(|p| p[0] | p.get(1).map_or(0, |&h| h << 4)).collect())
        }
    }
}

/// Manhattan distance of a pattern's tiles on the given cells.
pub fn pattern_manhattan(board: Board, pattern: &Pattern, cells: &[u8]) -> u32 {
    pattern.tiles().iter().zip(cells).map(|(&t, &c)| board.manhattan(t as usize, c as usize)).sum()
}

/// Value histogram of a payload of `labels` entries a placement: every entry decoded to `md + 2 * excess` (in
/// parallel).
///
/// The last pattern tile's digit is the least significant, so consecutive ranks differ only in where that
/// tile stands among the free cells: a placement is unranked once per run of `cells - k + 1` entries.
pub fn histogram_of(board: Board, pattern: &Pattern, encoding: Encoding, payload: &[u8], labels: u32) -> Vec<u64> {
    let labels = labels as u64;
    const RUNS_PER_CHUNK: u64 = 1 << 12;
    let k = pattern.len();
    let run = (board.cells() - k + 1) as u64;
    let runs = pattern.size() / run;
    let last = pattern.tiles()[k - 1] as usize;
    (0..runs.div_ceil(RUNS_PER_CHUNK))
        .into_par_iter()
        .fold(
            || vec![0u64; HIST_BINS],
            |mut hist, chunk| {
                let mut cells = [0u8; MAX_PATTERN_TILES];
                for r in chunk * RUNS_PER_CHUNK..((chunk + 1) * RUNS_PER_CHUNK).min(runs) {
                    pattern.unrank(r * run, &mut cells);
                    let md = pattern_manhattan(board, pattern, &cells[..k - 1]);
                    let used: u32 = cells[..k - 1].iter().fold(0, |m, &c| m | 1 << c);
                    let free = (0..board.cells()).filter(|&c| used & 1 << c == 0);
                    for (d, cell) in free.enumerate() {
                        let md = md + board.manhattan(last, cell);
                        for l in 0..labels {
                            let value = md + 2 * decode(encoding, payload, (r * run + d as u64) * labels + l) as u32;
                            hist[(value as usize).min(HIST_BINS - 1)] += 1;
                        }
                    }
                }
                hist
            },
        )
        .reduce(|| vec![0u64; HIST_BINS], |a, b| a.iter().zip(&b).map(|(x, y)| x + y).collect())
}

/// Writes a table atomically: a temporary file in the same folder, synced, then renamed over `path`, and the
/// folder synced. A killed writer leaves at most a `.tmp` file, never a file that looks valid.
pub fn write_atomic(path: &Path, header: &Header, payload: &[u8]) -> Result<(), PdbError> {
    let mut header = header.clone();
    header.payload_hash = xxhash_rust::xxh3::xxh3_64(payload);
    assert_eq!(payload.len() as u64, header.payload_len, "payload length disagrees with the header");
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    let result = (|| -> std::io::Result<()> {
        let mut f = File::create(&tmp)?;
        f.write_all(&header.to_bytes())?;
        f.write_all(payload)?;
        f.sync_all()?;
        fs::rename(&tmp, path)?;
        File::open(dir)?.sync_all()
    })();
    if let Err(e) = result {
        let _ = fs::remove_file(&tmp);
        return Err(err(path, e));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(dir: &Path) -> (PathBuf, Header) {
        let board: Board = "2x3".parse().unwrap();
        let pattern = Pattern::new(6, &[1, 2]);
        let excess: Vec<u8> = (0..pattern.size()).map(|i| (i % 3) as u8).collect();
        let payload = encode(Encoding::Nibble, &excess).unwrap();
        let hist = histogram_of(board, &pattern, Encoding::Nibble, &payload, 1);
        let header = Header::new(board, &pattern, 1, Encoding::Nibble, &hist, "test");
        let path = dir.join("t.pdb");
        write_atomic(&path, &header, &payload).unwrap();
        (path, header)
    }

    fn tempdir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("puzzle-pdbfile-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&d);
        fs::create_dir_all(&d).unwrap();
        d
    }

    /// A table is a private copy: the file truncated or rewritten in place under an open table changes
    /// nothing it reads (a mapping of the file would fault with `SIGBUS`, or read the new bytes).
    #[test]
    fn an_open_table_outlives_its_file_rewritten_in_place() {
        let dir = tempdir("in-place");
        let (path, _) = sample(&dir);
        let f = PdbFile::open(&path, &Expect::default()).unwrap();
        let before = f.payload().to_vec();
        File::create(&path).unwrap();
        f.verify_checksum().unwrap();
        fs::write(&path, vec![0xFFu8; HEADER_LEN + before.len()]).unwrap();
        assert_eq!(f.payload(), &before[..]);
        f.verify_checksum().unwrap();
    }

    /// So is a table over 64 MiB (once mapped from its file, which then reached a search): 5x5 tiles 1-6, a
    /// byte an entry (127.5 MB), rewritten with other bytes and then truncated while open, still reads and
    /// checks as it did.
    #[test]
    fn an_open_large_table_outlives_its_file_rewritten_and_truncated() {
        let dir = tempdir("in-place-large");
        let board: Board = "5x5".parse().unwrap();
        let pattern = Pattern::new(25, &[1, 2, 3, 4, 5, 6]);
        let mut payload = vec![0u8; pattern.size() as usize];
        for (i, e) in payload.iter_mut().enumerate().step_by(4099) {
            *e = (i % 7) as u8;
        }
        assert!(payload.len() > 64 << 20);
        let hist = histogram_of(board, &pattern, Encoding::Byte, &payload, 1);
        let header = Header::new(board, &pattern, 1, Encoding::Byte, &hist, "test");
        let path = dir.join("large.pdb");
        write_atomic(&path, &header, &payload).unwrap();
        let f = PdbFile::open(&path, &Expect::default()).unwrap();
        f.verify_checksum().unwrap();
        let file = fs::OpenOptions::new().write(true).open(&path).unwrap();
        std::os::unix::fs::FileExt::write_all_at(&file, &vec![0xAA; payload.len()], HEADER_LEN as u64).unwrap();
        assert_eq!(f.excess(4099), 4, "the bytes rewritten in the file do not reach the open table");
        f.verify_checksum().unwrap();
        file.set_len(HEADER_LEN as u64).unwrap();
        assert_eq!(f.excess(pattern.size() - 1), 0);
        f.verify_checksum().unwrap();
        assert!(f.payload() == &payload[..]);
        drop(f);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn roundtrip_and_faults() {
        let dir = tempdir("faults");
        let (path, header) = sample(&dir);
        let board = header.board;
        let expect = Expect { board: Some(board), tiles: Some(&[1, 2]), kind: None };
        let f = PdbFile::open(&path, &expect).unwrap();
        f.verify_checksum().unwrap();
        assert_eq!(f.header.tiles, vec![1, 2]);
        assert_eq!(f.excess(4), 1);
        let bytes = fs::read(&path).unwrap();
        let open_err = |b: &[u8], e: &Expect| {
            fs::write(dir.join("bad.pdb"), b).unwrap();
            PdbFile::open(&dir.join("bad.pdb"), e).and_then(|f| f.verify()).unwrap_err().to_string()
        };
        let msg = open_err(&bytes[..bytes.len() - 1], &expect);
        assert!(msg.contains("bad.pdb") && msg.contains("truncated"), "{msg}");
        let mut flipped = bytes.clone();
        *flipped.last_mut().unwrap() ^= 1;
        assert!(open_err(&flipped, &expect).contains("payload checksum mismatch"));
        let mut hdr = bytes.clone();
        hdr[100] ^= 1;
        assert!(open_err(&hdr, &expect).contains("header checksum mismatch"));
        let mut future = header.clone();
        future.version = 9;
        let mut fb = future.to_bytes().to_vec();
        fb.extend_from_slice(&bytes[HEADER_LEN..]);
        assert!(open_err(&fb, &expect).contains("format version 9 is newer"));
        let other = Expect { board: Some("3x2".parse().unwrap()), ..Expect::default() };
        assert!(open_err(&bytes, &other).contains("table is for board 2x3"));
        assert!(open_err(&bytes, &Expect { board: Some(board), tiles: Some(&[1, 3]), kind: None })
            .contains("expected board 2x3, tiles [1, 3]"));
        assert!(open_err(b"short", &expect).contains("shorter than the 4096-byte header"));
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn wrong_values_fail_the_histogram_check() {
        let dir = tempdir("hist");
        let (path, mut header) = sample(&dir);
        header.histogram[0] += 1;
        let payload = fs::read(&path).unwrap()[HEADER_LEN..].to_vec();
        write_atomic(&path, &header, &payload).unwrap();
        let f = PdbFile::open(&path, &Expect { board: Some(header.board), ..Expect::default() }).unwrap();
        assert!(f.verify().unwrap_err().to_string().contains("recomputed value histogram differs"));
        fs::remove_dir_all(&dir).unwrap();
    }
}
