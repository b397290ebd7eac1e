//! Which heuristic a solver gets: the user's choice, the tables a folder holds, and the one rule for what
//! happens when tables are missing or corrupt.

use crate::error::Error;
use puzzle::partition::{file_name, Partition, CATALOGUE, COMBINED};
use puzzle::pdb_file::{Expect, Kind, PdbFile};
use puzzle::{Board, Pattern};
use std::path::{Path, PathBuf};
use std::str::FromStr;

/// Which heuristic to use, as the user says it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HeuristicChoice {
    /// Pattern databases if a complete set is in the folder (the named partitions, or else the board's
    /// combined sets and then its catalogue entries, strongest first), else linear conflict with a warning.
    /// A corrupt table is an error.
    Auto,
    /// Additive pattern databases; fails if a table is missing.
    Pdb,
    /// Manhattan distance plus linear conflict.
    LinearConflict,
    /// Manhattan distance alone.
    Manhattan,
}

impl search::Named for HeuristicChoice {
    const KIND: &'static str = "heuristic";
    const ALL: &'static [HeuristicChoice] =
        &[HeuristicChoice::Auto, HeuristicChoice::Pdb, HeuristicChoice::LinearConflict, HeuristicChoice::Manhattan];
    const NAMES: &'static [&'static str] = &["auto", "pdb", "linear-conflict", "manhattan"];

    fn about(self) -> &'static str {
        match self {
            HeuristicChoice::Auto => {
                "pattern databases if a complete set is in the tables folder, else linear conflict (with a \
                 warning where tables matter)"
            }
            HeuristicChoice::Pdb => "additive pattern databases; fails if a table is missing",
            HeuristicChoice::LinearConflict => "Manhattan distance plus linear conflicts (no tables)",
            HeuristicChoice::Manhattan => "Manhattan distance alone (no tables)",
        }
    }
}

impl HeuristicChoice {
    /// The name `FromStr` reads back, for messages and records.
    pub fn as_str(self) -> &'static str {
        search::Named::name(self)
    }
}

impl FromStr for HeuristicChoice {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        <HeuristicChoice as search::Named>::from_name(s).map_err(|e| e.to_string())
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
    /// The names `FromStr` takes, for help texts.
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
    /// The folder the table files are in, under their catalogue names.
    pub dir: PathBuf,
    /// Catalogue names (`7-8`, `6-6-3`, ...) or custom `1,2,3/4,5,...` partitions. None: with `Pdb` the
    /// board's first catalogue entry, with `Auto` the first complete one in the folder, a combined set
    /// ([`COMBINED`]) before the entries alone. Several: the estimate is
    /// the largest of the sets' ([`MAX_SETS`] at most).
    pub partitions: Vec<String>,
    /// Which positions each node looks up: the position alone, or with its reflection.
    pub lookups: Lookups,
}

/// How many partitions one heuristic can take the maximum over.
pub const MAX_SETS: usize = 4;

/// The default partition for a board: the first (strongest) catalogue entry for it.
pub fn default_partition(board: Board) -> Option<&'static str> {
    catalogue(board).next()
}

/// The catalogue's partitions for `board`, strongest first.
fn catalogue(board: Board) -> impl Iterator<Item = &'static str> {
    let b = board.to_string();
    CATALOGUE.iter().filter(move |(cb, _, _)| *cb == b).map(|(_, n, _)| *n)
}

/// What `auto` looks for when no partition is named, strongest first: the board's combined sets
/// ([`COMBINED`]), then each catalogue entry alone. Each candidate is a list of (partition, the builder
/// options its tables are best built with) whose estimates are maxed.
fn auto_candidates(board: Board) -> Vec<Vec<(&'static str, &'static str)>> {
    let b = board.to_string();
    let combined = COMBINED.iter().filter(|(cb, _)| *cb == b).map(|(_, members)| members.to_vec());
    combined.chain(catalogue(board).map(|name| vec![(name, "")])).collect()
}

/// What the folder holds of one partition: the tables that are there (each opened and its header checked),
/// and the paths of those that are not.
struct Found {
    partition: Partition,
    files: Vec<PdbFile>,
    missing: Vec<PathBuf>,
}

/// For each pattern of `partition`, the table `dir` holds for it: the blank-aware one if it is there (never
/// weaker), else the plain one; `Err` with the plain file's path when neither is. Files are not opened.
fn files_in<'a>(
    partition: &'a Partition,
    dir: &'a Path,
) -> impl Iterator<Item = (&'a Pattern, Result<(Kind, PathBuf), PathBuf>)> + 'a {
    let board = partition.board;
    partition.patterns.iter().map(move |pattern| {
        let found = [Kind::BlankAware, Kind::Plain]
            .into_iter()
            .map(|kind| (kind, dir.join(kind.file_name(board, pattern))))
            .find(|(_, path)| path.exists());
        (pattern, found.ok_or_else(|| dir.join(file_name(board, pattern))))
    })
}

/// The first candidate of `auto_candidates` whose every table file is in `dir` (of either kind; the files
/// are not opened): the partitions `--heuristic auto` takes there, or None when it falls back.
pub fn auto_choice(board: Board, dir: &Path) -> Option<Vec<&'static str>> {
    let complete =
        |name: &str| Partition::parse(board, name).is_ok_and(|p| files_in(&p, dir).all(|(_, file)| file.is_ok()));
    auto_candidates(board)
        .into_iter()
        .find(|sets| sets.iter().all(|(name, _)| complete(name)))
        .map(|sets| sets.into_iter().map(|(name, _)| name).collect())
}

/// Opens the tables of `name` that exist in `spec.dir` (as [`files_in`] finds them). A table that is there
/// but unreadable, corrupt or for something else is an error, whatever else is missing: it is never
/// silently skipped.
fn look(board: Board, name: &str, spec: &TableSpec) -> Result<Found, Error> {
    let partition = Partition::parse(board, name)?;
    let (mut files, mut missing) = (Vec::new(), Vec::new());
    for (pattern, file) in files_in(&partition, &spec.dir) {
        match file {
            Ok((kind, path)) => {
                let expect = Expect { board: Some(board), tiles: Some(pattern.tiles()), kind: Some(kind) };
                let file = PdbFile::open(&path, &expect)?;
                // The search indexes entries with 32 bits.
                if file.header.entries > 1 << 32 {
                    return Err(Error::Setting(format!(
                        "{}: {} entries, more than the search can index (2^32)",
                        path.display(),
                        file.header.entries
                    )));
                }
                files.push(file);
            }
            Err(path) => missing.push(path),
        }
    }
    Ok(Found { partition, files, missing })
}

/// Opens every table of each partition `spec` names (or of the board's default); a missing file is an
/// error that names the command that builds it.
pub fn open_tables(board: Board, spec: &TableSpec) -> Result<Vec<(Partition, Vec<PdbFile>)>, Error> {
    let names: Vec<&str> = match spec.partitions.as_slice() {
        [] => vec![default_partition(board).ok_or_else(|| {
            Error::Setting(format!("there is no catalogue partition for a {board} board; name one (e.g. 1,2,3/4,5)"))
        })?],
        named => named.iter().map(String::as_str).collect(),
    };
    check_count(&names)?;
    names
        .into_iter()
        .map(|name| {
            let found = look(board, name, spec)?;
            match found.missing.into_iter().next() {
                Some(path) => {
                    Err(Error::MissingTable { path, board, partition: name.to_string(), dir: spec.dir.clone() })
                }
                None => Ok((found.partition, found.files)),
            }
        })
        .collect()
}

fn check_count(names: &[&str]) -> Result<(), Error> {
    if names.len() > MAX_SETS {
        return Err(Error::Setting(format!(
            "{} partitions named ({}); the estimate can be the largest of at most {MAX_SETS}",
            names.len(),
            names.join(", ")
        )));
    }
    Ok(())
}

/// The heuristic [`load`] settled on.
pub(crate) enum Chosen {
    Manhattan,
    LinearConflict,
    /// One set of tables, or up to [`MAX_SETS`] whose estimates are maxed.
    Pdb {
        name: String,
        sets: Vec<Vec<PdbFile>>,
        reflect: bool,
    },
}

/// Boards of at most this many cells (3x3, 2x4, 3x4, 2x6, ...) are searched in milliseconds with linear
/// conflict: `auto` falls back to it without a word when their tables are missing (and none was named).
const QUICK_WITHOUT_TABLES: usize = 12;

/// Applies the user's choice to what the folder holds. With `Auto`, only a folder without a complete set
/// falls back to linear conflict, with a warning naming what it found; a board with no catalogue entry and
/// no partition named has nothing to look for and gets linear conflict silently.
pub(crate) fn load(
    board: Board,
    choice: HeuristicChoice,
    spec: &TableSpec,
    warn: &mut dyn FnMut(&str),
) -> Result<Chosen, Error> {
    match choice {
        HeuristicChoice::Manhattan => Ok(Chosen::Manhattan),
        HeuristicChoice::LinearConflict => Ok(Chosen::LinearConflict),
        HeuristicChoice::Pdb => open_tables(board, spec).map(|found| pdb(board, spec, found)),
        HeuristicChoice::Auto if spec.partitions.is_empty() => auto(board, spec, &auto_candidates(board), warn),
        HeuristicChoice::Auto => {
            let named: Vec<(&str, &str)> = spec.partitions.iter().map(|name| (name.as_str(), "")).collect();
            auto(board, spec, &[named], warn)
        }
    }
}

/// The heuristic of the tables `found`, named for what it is: the partitions (maxed when more than one),
/// how many tables are blank-aware, and the reflection.
fn pdb(board: Board, spec: &TableSpec, found: Vec<(Partition, Vec<PdbFile>)>) -> Chosen {
    let reflect = board.is_square() && spec.lookups == Lookups::Reflected;
    let names: Vec<&str> = found.iter().map(|(p, _)| p.name.as_str()).collect();
    let names = match names.as_slice() {
        [one] => one.to_string(),
        many => format!("max({})", many.join(", ")),
    };
    let kinds: Vec<Kind> = found.iter().flat_map(|(_, files)| files.iter().map(|f| f.header.kind())).collect();
    let blank = kinds.iter().filter(|&&k| k == Kind::BlankAware).count();
    let blank = match blank {
        0 => String::new(),
        b if b == kinds.len() => " blank-aware".to_string(),
        b => format!(" ({b} of {} tables blank-aware)", kinds.len()),
    };
    let name = format!("pdb {names}{blank}{}", if reflect { " + reflection" } else { "" });
    Chosen::Pdb { name, sets: found.into_iter().map(|(_, files)| files).collect(), reflect }
}

/// `Auto`'s rule over `candidates`, each a list of sets (partition, builder options) to max, strongest
/// first: the first whose every table is in the folder, with a note when it is not the first; else linear
/// conflict, with a warning that says what the folder has and how to build the first candidate.
fn auto(
    board: Board,
    spec: &TableSpec,
    candidates: &[Vec<(&str, &str)>],
    warn: &mut dyn FnMut(&str),
) -> Result<Chosen, Error> {
    let said = |c: &[(&str, &str)]| c.iter().map(|(name, _)| *name).collect::<Vec<_>>().join(" and ");
    match candidates.first() {
        Some(first) => check_count(&first.iter().map(|(name, _)| *name).collect::<Vec<_>>())?,
        None => return Ok(Chosen::LinearConflict),
    }
    // What the folder has of each partition, looked at once however many candidates it is in, and the
    // builds the first (strongest) candidate still lacks.
    let mut looked: Vec<(&str, Found)> = Vec::new();
    let mut builds = Vec::new();
    for (k, sets) in candidates.iter().enumerate() {
        for (name, _) in sets {
            if !looked.iter().any(|(n, _)| n == name) {
                looked.push((name, look(board, name, spec)?));
            }
        }
        let complete = |name: &str| looked.iter().any(|(n, f)| *n == name && f.missing.is_empty());
        if sets.iter().all(|(name, _)| complete(name)) {
            if k > 0 {
                warn(&format!(
                    "note: using the {} tables in {} (no complete {} set there)",
                    said(sets),
                    spec.dir.display(),
                    candidates[..k].iter().map(|c| said(c)).collect::<Vec<_>>().join(", ")
                ));
            }
            // A set named twice (`--partition A --partition A`) is opened again for its second place.
            let mut chosen = Vec::new();
            for (name, _) in sets {
                let f = match looked.iter().position(|(n, _)| n == name) {
                    Some(at) => looked.swap_remove(at).1,
                    None => look(board, name, spec)?,
                };
                chosen.push((f.partition, f.files));
            }
            return Ok(pdb(board, spec, chosen));
        }
        if k == 0 {
            for (name, options) in sets {
                if !complete(name) {
                    let options = if options.is_empty() { String::new() } else { format!("{options} ") };
                    let build = format!(
                        "pdb-builder build --board {board} --partition {name} {options}--out {}",
                        spec.dir.display()
                    );
                    if !builds.contains(&build) {
                        builds.push(build);
                    }
                }
            }
        }
    }
    // Linear conflict solves any position of a board this small in milliseconds: nothing to warn of,
    // unless tables were asked for by name.
    if board.cells() <= QUICK_WITHOUT_TABLES && spec.partitions.is_empty() {
        return Ok(Chosen::LinearConflict);
    }
    let missing = if spec.dir.is_dir() {
        let seen: Vec<String> = looked
            .iter()
            .map(|(name, f)| format!("{name}: {} of {} tables", f.files.len(), f.files.len() + f.missing.len()))
            .collect();
        format!("no complete set of tables for {board} in {} ({})", spec.dir.display(), seen.join("; "))
    } else {
        format!("the tables folder {} does not exist (--pdbs or $STP_PDBS)", spec.dir.display())
    };
    warn(&format!(
        "warning: {missing}; falling back to linear conflict, which is far slower (build them with: {})",
        builds.join("; ")
    ));
    Ok(Chosen::LinearConflict)
}

#[cfg(test)]
mod tests {
    use super::*;
    use harness::TempDir;

    /// The rule for combined sets, on a list of candidates of our own (the catalogue's combined sets are
    /// too large to build in a test): both sets there, they are maxed without a word; one table missing,
    /// the next candidate is taken with a note; nothing there, the warning names the builds of the first
    /// candidate, with each member's options.
    #[test]
    fn auto_takes_the_first_complete_candidate_of_several_sets() {
        let board: Board = "3x3".parse().unwrap();
        let dir = TempDir::new("auto-combined");
        let (rows, cols) = ("4-4", "1,4,7/2,5,8/3,6");
        for name in [rows, cols] {
            for pattern in Partition::parse(board, name).unwrap().patterns {
                let path = dir.join(file_name(board, &pattern));
                pdb_builder::build_table_with(board, &pattern, 1, &path, &mut |_| {}).unwrap();
            }
        }
        let spec = TableSpec { dir: dir.to_path_buf(), partitions: Vec::new(), lookups: Lookups::Reflected };
        let candidates = [vec![(rows, ""), (cols, "--blank-aware --labels 2")], vec![(rows, "")]];
        let choose = |spec: &TableSpec, board: Board| {
            let mut said = Vec::new();
            let chosen = auto(board, spec, &candidates, &mut |w| said.push(w.to_string())).unwrap();
            let name = match chosen {
                Chosen::Pdb { name, sets, .. } => format!("{name}, {} sets", sets.len()),
                Chosen::LinearConflict => "linear-conflict".to_string(),
                Chosen::Manhattan => "manhattan".to_string(),
            };
            (name, said)
        };
        assert_eq!(choose(&spec, board), (format!("pdb max({rows}, {cols}) + reflection, 2 sets"), vec![]));
        // A set named twice is looked at once and opened for each place.
        let mut said = Vec::new();
        let twice = auto(board, &spec, &[vec![(rows, ""), (rows, "")]], &mut |w| said.push(w.to_string())).unwrap();
        assert!(
            matches!(twice, Chosen::Pdb { ref name, ref sets, .. } if *name == format!("pdb max({rows}, {rows}) + reflection") && sets.len() == 2 && sets.iter().all(|s| s.len() == 2))
        );
        // What the page says auto takes: the 3x3 catalogue's one entry, from the files alone.
        assert_eq!(auto_choice(board, &dir), Some(vec![rows]));
        let first_row = Partition::parse(board, rows).unwrap().patterns[0].clone();
        let moved = dir.join("aside.pdb");
        std::fs::rename(dir.join(file_name(board, &first_row)), &moved).unwrap();
        assert_eq!(auto_choice(board, &dir), None);
        std::fs::rename(&moved, dir.join(file_name(board, &first_row))).unwrap();

        let first_col = Partition::parse(board, cols).unwrap().patterns[0].clone();
        std::fs::remove_file(dir.join(file_name(board, &first_col))).unwrap();
        let (name, said) = choose(&spec, board);
        assert_eq!(name, format!("pdb {rows} + reflection, 1 sets"));
        assert_eq!(auto_choice(board, &dir), Some(vec![rows]));
        assert_eq!(
            said,
            [format!("note: using the {rows} tables in {} (no complete {rows} and {cols} set there)", dir.display())]
        );

        // A larger board with none of these tables: a warning that says how to build the first candidate.
        let empty = TempDir::new("auto-combined-empty");
        let four = TableSpec { dir: empty.to_path_buf(), ..spec };
        let four_cands = [vec![("1,2,3,4,5,6,7/8,9,10,11,12,13,14,15", ""), ("7-8", "--blank-aware --labels 2")]];
        let mut said = Vec::new();
        assert!(matches!(
            auto(Board::FOUR, &four, &four_cands, &mut |w| said.push(w.to_string())),
            Ok(Chosen::LinearConflict)
        ));
        assert_eq!(auto_choice(Board::FOUR, &empty), None);
        let d = empty.display();
        assert!(said[0].contains(&format!("--partition 1,2,3,4,5,6,7/8,9,10,11,12,13,14,15 --out {d}; ")), "{said:?}");
        assert!(said[0].contains(&format!("--partition 7-8 --blank-aware --labels 2 --out {d})")), "{said:?}");
    }
}
