//! Which heuristic a solver gets: the user's choice, the tables a folder holds, and the one rule for what
//! happens when tables are missing or corrupt.

use crate::error::Error;
use puzzle::partition::{file_name, Partition, CATALOGUE};
use puzzle::pdb_file::{Expect, PdbFile};
use puzzle::Board;
use std::path::PathBuf;
use std::str::FromStr;

/// Which heuristic to use, as the user says it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HeuristicChoice {
    /// Pattern databases if a complete set is in the folder (the named partition, or else the board's
    /// catalogue entries strongest first), else linear conflict with a warning. A corrupt table is an error.
    Auto,
    /// Additive pattern databases; fails if a table is missing.
    Pdb,
    /// Manhattan distance plus linear conflict.
    LinearConflict,
    /// Manhattan distance alone.
    Manhattan,
}

impl HeuristicChoice {
    /// The names `FromStr` takes, in the order a help text lists them.
    pub const NAMES: [&'static str; 4] = ["auto", "pdb", "linear-conflict", "manhattan"];

    pub fn as_str(self) -> &'static str {
        match self {
            HeuristicChoice::Auto => "auto",
            HeuristicChoice::Pdb => "pdb",
            HeuristicChoice::LinearConflict => "linear-conflict",
            HeuristicChoice::Manhattan => "manhattan",
        }
    }
}

impl FromStr for HeuristicChoice {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        [HeuristicChoice::Auto, HeuristicChoice::Pdb, HeuristicChoice::LinearConflict, HeuristicChoice::Manhattan]
            .into_iter()
            .find(|c| c.as_str() == s)
            .ok_or_else(|| format!("unknown heuristic '{s}' (known: {})", HeuristicChoice::NAMES.join(", ")))
    }
}

/// Which positions are looked up in the tables at every node; the estimate is the largest.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Lookups {
    /// The position only.
    Regular,
    /// The position and its reflection about the main diagonal (square boards; the default).
    #[default]
    Reflected,
}

impl Lookups {
    pub const NAMES: [&'static str; 2] = ["regular", "reflected"];
}

impl FromStr for Lookups {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "regular" => Ok(Lookups::Regular),
            "reflected" => Ok(Lookups::Reflected),
            _ => Err(format!("unknown lookups '{s}' (known: regular, reflected)")),
        }
    }
}

/// Where tables come from, which ones, and how they are looked up.
#[derive(Clone, Debug)]
pub struct TableSpec {
    pub dir: PathBuf,
    /// A catalogue name (`7-8`, `6-6-3`, ...) or a custom `1,2,3/4,5,...` partition; `None`: with `Pdb`
    /// the board's first catalogue entry, with `Auto` the first complete one in the folder.
    pub partition: Option<String>,
    pub lookups: Lookups,
}

/// The default partition for a board: the first (strongest) catalogue entry for it.
pub fn default_partition(board: Board) -> Option<&'static str> {
    catalogue(board).next()
}

/// The catalogue's partitions for `board`, strongest first.
fn catalogue(board: Board) -> impl Iterator<Item = &'static str> {
    let b = board.to_string();
    CATALOGUE.iter().filter(move |(cb, _, _)| *cb == b).map(|(_, n, _)| *n)
}

/// What the folder holds of one partition: the tables that are there (each opened and its header checked),
/// and the paths of those that are not.
struct Found {
    partition: Partition,
    files: Vec<PdbFile>,
    missing: Vec<PathBuf>,
}

/// Opens the tables of `name` that exist in `spec.dir`. A table that is there but unreadable, corrupt or
/// for something else is an error, whatever else is missing: it is never silently skipped.
fn look(board: Board, name: &str, spec: &TableSpec) -> Result<Found, Error> {
    let partition = Partition::parse(board, name)?;
    let (mut files, mut missing) = (Vec::new(), Vec::new());
    for pattern in &partition.patterns {
        let path = spec.dir.join(file_name(board, pattern));
        if path.exists() {
            files.push(PdbFile::open(&path, &Expect { board: Some(board), tiles: Some(pattern.tiles()) })?);
        } else {
            missing.push(path);
        }
    }
    Ok(Found { partition, files, missing })
}

/// Opens every table of the partition `spec` names (or the board's default); a missing file is an error
/// that names the command that builds it.
pub fn open_tables(board: Board, spec: &TableSpec) -> Result<(Partition, Vec<PdbFile>), Error> {
    let name = spec.partition.as_deref().or(default_partition(board)).ok_or_else(|| {
        Error::Setting(format!("there is no catalogue partition for a {board} board; name one (e.g. 1,2,3/4,5)"))
    })?;
    let found = look(board, name, spec)?;
    match found.missing.into_iter().next() {
        Some(path) => Err(Error::MissingTable { path, board, partition: name.to_string(), dir: spec.dir.clone() }),
        None => Ok((found.partition, found.files)),
    }
}

/// The heuristic [`load`] settled on.
pub(crate) enum Chosen {
    Manhattan,
    LinearConflict,
    Pdb { name: String, files: Vec<PdbFile>, reflect: bool },
}

/// Applies the user's choice to what the folder holds. With `Auto`, only a folder without a complete set
/// falls back to linear conflict, with a warning naming what it found; a board with no catalogue entry and
/// no partition named has nothing to look for and gets linear conflict silently.
pub(crate) fn load(
    board: Board,
    choice: HeuristicChoice,
    spec: &TableSpec,
    warn: &mut dyn FnMut(&str),
) -> Result<Chosen, Error> {
    let pdb = |partition: Partition, files: Vec<PdbFile>| {
        let reflect = board.is_square() && spec.lookups == Lookups::Reflected;
        let name = format!("pdb {}{}", partition.name, if reflect { " + reflection" } else { "" });
        Chosen::Pdb { name, files, reflect }
    };
    match choice {
        HeuristicChoice::Manhattan => Ok(Chosen::Manhattan),
        HeuristicChoice::LinearConflict => Ok(Chosen::LinearConflict),
        HeuristicChoice::Pdb => open_tables(board, spec).map(|(p, files)| pdb(p, files)),
        HeuristicChoice::Auto => {
            let names: Vec<&str> = match spec.partition.as_deref() {
                Some(name) => vec![name],
                None => catalogue(board).collect(),
            };
            if names.is_empty() {
                return Ok(Chosen::LinearConflict);
            }
            let mut seen = Vec::new();
            for (k, name) in names.iter().enumerate() {
                let found = look(board, name, spec)?;
                if found.missing.is_empty() {
                    if k > 0 {
                        warn(&format!(
                            "note: using the {name} tables in {} (no complete {} set there)",
                            spec.dir.display(),
                            names[..k].join(", ")
                        ));
                    }
                    return Ok(pdb(found.partition, found.files));
                }
                let have = found.files.len();
                seen.push(format!("{name}: {have} of {} tables", have + found.missing.len()));
            }
            warn(&format!(
                "warning: no complete set of tables for {board} in {} ({}); falling back to linear conflict, \
                 which is far slower (build them with: pdb-builder build --board {board} --partition {} --out {})",
                spec.dir.display(),
                seen.join("; "),
                names[0],
                spec.dir.display()
            ));
            Ok(Chosen::LinearConflict)
        }
    }
}
