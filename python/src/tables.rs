//! `stp.Tables`: pattern databases built with the table builder's library, opened as the solver opens
//! them, and each table's entries handed to NumPy as a read-only view of the table's memory (no copy).

use crate::errors::{bad, to_py, TableError};
use crate::interrupt;
use crate::tiles::cells_of;
use engine::{HeuristicChoice, Lookups, Settings, Solver, TableSpec};
use numpy::ndarray::ArrayView1;
use numpy::{PyArray1, PyArrayMethods};
use pdb_builder::Existing;
use puzzle::pdb_file::{pattern_manhattan, Encoding, Expect, Kind, PdbFile};
use puzzle::{Board, Partition};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};

/// One table file: what its header says, and its entries.
#[pyclass(module = "stp", frozen)]
pub struct Table {
    file: PdbFile,
}

#[pymethods]
impl Table {
    /// The file.
    #[getter]
    fn path(&self) -> PathBuf {
        self.file.path.clone()
    }

    /// (rows, cols) of the board it is for.
    #[getter]
    fn board(&self) -> (usize, usize) {
        (self.file.header.board.rows(), self.file.header.board.cols())
    }

    /// The pattern's tiles, ascending.
    #[getter]
    fn pattern(&self) -> Vec<u32> {
        self.file.header.tiles.iter().map(|&t| t.into()).collect()
    }

    /// `"nibble"` (two entries a byte, entry i in the low half of byte i // 2 when i is even) or `"byte"`.
    #[getter]
    fn encoding(&self) -> &'static str {
        match self.file.header.encoding {
            Encoding::Nibble => "nibble",
            Encoding::Byte => "byte",
        }
    }

    /// `"plain"` (an entry a placement of the pattern's tiles) or `"blank-aware"` (one a blank region too).
    #[getter]
    fn kind(&self) -> &'static str {
        self.file.header.kind().name()
    }

    /// Entries a placement has (1 for a plain table).
    #[getter]
    fn labels(&self) -> u32 {
        self.file.header.labels
    }

    /// Number of entries (placements times labels).
    #[getter]
    fn entries(&self) -> u64 {
        self.file.header.entries
    }

    /// The largest distance in the table.
    #[getter]
    fn max_value(&self) -> u32 {
        self.file.header.max_value
    }

    /// Entries of each distance 0..max_value, as the header gives them (checked against the entries when
    /// the table was built and by `pdb-builder verify`).
    #[getter]
    fn histogram(&self) -> Vec<u64> {
        self.file.header.used_histogram().to_vec()
    }

    /// The program that wrote the table.
    #[getter]
    fn builder(&self) -> String {
        self.file.header.builder.clone()
    }

    /// The payload's checksum (xxh3-64), as records name the tables.
    #[getter]
    fn payload_hash(&self) -> u64 {
        self.file.header.payload_hash
    }

    /// How an entry becomes a distance, in words.
    #[getter]
    fn decoding(&self) -> String {
        let layout = match self.file.header.encoding {
            Encoding::Nibble => "entry i is (raw[i // 2] >> 4 * (i % 2)) & 15",
            Encoding::Byte => "entry i is raw[i]",
        };
        format!(
            "{}; {layout}; the distance is the Manhattan distance of the pattern's tiles plus twice the entry; \
             a plain table's entry index is the lexicographic rank of the pattern tiles' cells (see index())",
            self.file.header.encoding.name()
        )
    }

    /// The raw payload as a read-only NumPy uint8 array over the table's memory (no copy): see `decoding`.
    #[getter]
    fn raw<'py>(slf: Bound<'py, Self>) -> Bound<'py, PyArray1<u8>> {
        let view = ArrayView1::from(slf.get().file.payload());
        // SAFETY: the array borrows the payload and holds `slf` (which owns the table's private copy) as its
        // base, so the bytes outlive it; the copy never moves while the Table lives, and the array is made
        // read-only before it is returned, so nothing writes to the read-only memory.
        let array = unsafe { PyArray1::borrow_from_array(&view, slf.clone().into_any()) };
        array.readwrite().make_nonwriteable();
        array
    }

    /// The entry index of a position (a plain table; blank-first labels).
    fn index(&self, tiles: &Bound<'_, PyAny>) -> PyResult<u64> {
        let h = &self.file.header;
        if h.kind() != Kind::Plain {
            return Err(bad("index() is for plain tables; a blank-aware table's index also holds the blank's region"));
        }
        let (_, cells) = self.cells(tiles)?;
        Ok(h.pattern().rank(&cells))
    }

    /// The stored entry (the excess over Manhattan distance, halved) of a position.
    fn entry(&self, tiles: &Bound<'_, PyAny>) -> PyResult<u8> {
        Ok(self.file.excess(self.index(tiles)?))
    }

    /// The table's distance for a position: the fewest moves of the pattern's tiles to their goal cells.
    fn value(&self, tiles: &Bound<'_, PyAny>) -> PyResult<u32> {
        let (board, cells) = self.cells(tiles)?;
        let md = pattern_manhattan(board, &self.file.header.pattern(), &cells);
        Ok(md + 2 * self.entry(tiles)? as u32)
    }

    fn __repr__(&self) -> String {
        let h = &self.file.header;
        format!(
            "Table({}, pattern={:?}, {} entries, {}, max {})",
            self.file.path.display(),
            h.tiles,
            h.entries,
            self.encoding(),
            h.max_value
        )
    }
}

impl Table {
    /// The cells of the pattern's tiles in a position.
    fn cells(&self, tiles: &Bound<'_, PyAny>) -> PyResult<(Board, Vec<u8>)> {
        let board = self.file.header.board;
        let pos = cells_of(tiles, board)?.positions();
        Ok((board, self.file.header.tiles.iter().map(|&t| pos[t as usize]).collect()))
    }
}

/// A set of tables: one or more partitions' patterns, the heuristic the solver makes of them, and a view of
/// each table.
#[pyclass(module = "stp", frozen)]
pub struct Tables {
    solver: Solver,
    dir: PathBuf,
    partitions: Vec<String>,
    tables: Vec<Py<Table>>,
}

/// The partition and folder a list of table files makes: the files must be in one folder, under the names
/// the builder gives them.
fn from_files(files: &[PathBuf]) -> anyhow::Result<(Board, PathBuf, String)> {
    let mut dir: Option<PathBuf> = None;
    let mut board = None;
    let mut patterns = Vec::new();
    for f in files {
        let opened = PdbFile::open(f, &Expect::default())?;
        let here = f.parent().map(Path::to_path_buf).unwrap_or_default();
        if dir.get_or_insert_with(|| here.clone()) != &here {
            anyhow::bail!(cli_common::usage(anyhow::anyhow!(
                "the tables must be in one folder: {} is not in {}",
                f.display(),
                dir.unwrap().display()
            )));
        }
        if board.get_or_insert(opened.header.board) != &opened.header.board {
            return Err(cli_common::usage(anyhow::anyhow!("{}: a table for another board", f.display())));
        }
        let tiles: Vec<String> = opened.header.tiles.iter().map(u8::to_string).collect();
        patterns.push(tiles.join(","));
    }
    let board = board.ok_or_else(|| cli_common::usage(anyhow::anyhow!("no table files given")))?;
    Ok((board, dir.unwrap_or_default(), patterns.join("/")))
}

#[pymethods]
impl Tables {
    /// Builds a partition's plain tables into `out` (those already there and valid are kept), and opens
    /// them.
    ///
    /// partition: a catalogue name ("7-8", "6-6-3", "5-5-5", "4-4" on 3x3, "2-3" on 2x3) or a custom one
    ///     ("1,2,3,4/5,6,7,8" on 3x3). Small ones build in seconds; 7-8 takes minutes and 1.5 GiB.
    /// board: "4x4"-style or (rows, cols).
    /// out: the folder to write to (made if missing).
    /// progress: called as progress(dict) after each distance of each table's breadth-first build, with
    ///     table, depth, reached and entries.
    /// threads: build threads (default: all cores).
    #[staticmethod]
    #[pyo3(signature = (partition, board="4x4", *, out, progress=None, threads=None))]
    fn build(
        py: Python<'_>,
        partition: &str,
        board: &str,
        out: PathBuf,
        progress: Option<Py<PyAny>>,
        threads: Option<usize>,
    ) -> PyResult<Tables> {
        let board: Board = board.parse().map_err(|e| bad(format!("board '{board}': {e}")))?;
        let parsed = Partition::parse(board, partition).map_err(|e| bad(e.to_string()))?;
        let failed: Mutex<Option<PyErr>> = Mutex::new(None);
        let cancel = Arc::new(AtomicBool::new(false));
        interrupt::run(py, &cancel, || -> anyhow::Result<()> {
            std::fs::create_dir_all(&out).map_err(|e| anyhow::anyhow!("cannot make {}: {e}", out.display()))?;
            pdb_builder::check_writable(&out)?;
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads.unwrap_or(0)).build()?;
            for pattern in &parsed.patterns {
                let path = out.join(Kind::Plain.file_name(board, pattern));
                if matches!(pdb_builder::existing(&path, board, pattern, 1), Existing::Valid) {
                    continue;
                }
                let name = path.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default();
                let mut report = |d: &pdb_builder::bfs::DepthReport| {
                    let Some(cb) = &progress else { return };
                    Python::attach(|py| {
                        let info = PyDict::new(py);
                        let call = info
                            .set_item("table", &name)
                            .and_then(|_| info.set_item("depth", d.depth))
                            .and_then(|_| info.set_item("reached", d.reached))
                            .and_then(|_| info.set_item("entries", d.entries))
                            .and_then(|_| cb.call1(py, (info,)));
                        if let Err(e) = call {
                            failed.lock().unwrap().get_or_insert(e);
                        }
                    });
                };
                pool.install(|| pdb_builder::build_table(board, pattern, Kind::Plain, &path, &mut report))?;
            }
            Ok(())
        })?
        .map_err(to_py)?;
        if let Some(e) = failed.into_inner().unwrap() {
            return Err(e);
        }
        open_dir(py, board, out, vec![parsed.name], Lookups::Reflected)
    }

    /// Opens tables: a folder (with partition= naming which, else the strongest complete set there, as
    /// the solver's auto), or a list of table files in one folder.
    ///
    /// lookups: "reflected" (the position and its mirror image about the diagonal, the larger estimate:
    ///     what the solver uses) or "regular" (the position alone: the sum of the tables' values).
    /// Raises stp.TableError for a missing, corrupt or mismatched table.
    #[staticmethod]
    #[pyo3(signature = (folder_or_files, *, partition=None, board="4x4", lookups="reflected"))]
    fn open(
        py: Python<'_>,
        folder_or_files: &Bound<'_, PyAny>,
        partition: Option<Vec<String>>,
        board: &str,
        lookups: &str,
    ) -> PyResult<Tables> {
        let lookups: Lookups = lookups.parse().map_err(|e: String| bad(format!("lookups: {e}")))?;
        let one: Option<PathBuf> =
            if folder_or_files.is_instance_of::<PyString>() || folder_or_files.hasattr("__fspath__")? {
                Some(folder_or_files.extract()?)
            } else {
                None
            };
        match one {
            Some(dir) if dir.is_dir() => {
                let board: Board = board.parse().map_err(|e| bad(format!("board '{board}': {e}")))?;
                let partitions = match partition {
                    Some(p) => p,
                    None => engine::auto_choice(board, &dir)
                        .ok_or_else(|| {
                            TableError::new_err(format!(
                                "{}: no complete set of {board} tables (build one with stp.Tables.build)",
                                dir.display()
                            ))
                        })?
                        .into_iter()
                        .map(String::from)
                        .collect(),
                };
                open_dir(py, board, dir, partitions, lookups)
            }
            Some(file) if file.exists() => Tables::open_files(py, vec![file], lookups),
            Some(missing) => Err(TableError::new_err(format!("{}: no such file or folder", missing.display()))),
            None => Tables::open_files(py, folder_or_files.extract()?, lookups),
        }
    }

    /// The heuristic value of a position (blank-first labels) with these tables, as the solver computes it.
    fn lookup(&self, tiles: &Bound<'_, PyAny>) -> PyResult<u32> {
        Ok(self.solver.estimate(&cells_of(tiles, self.solver.board())?))
    }

    /// Each table, in partition order.
    #[getter]
    fn tables(&self, py: Python<'_>) -> Vec<Py<Table>> {
        self.tables.iter().map(|t| t.clone_ref(py)).collect()
    }

    /// The folder the tables are in (pass it as `pdbs=` to `stp.solve`).
    #[getter]
    fn folder(&self) -> PathBuf {
        self.dir.clone()
    }

    /// The partitions, as `stp.solve(partition=...)` takes them.
    #[getter]
    fn partitions(&self) -> Vec<String> {
        self.partitions.clone()
    }

    /// The heuristic's name as solutions give it (e.g. `pdb 7-8 + reflection`).
    #[getter]
    fn heuristic(&self) -> String {
        self.solver.name().to_string()
    }

    fn __len__(&self) -> usize {
        self.tables.len()
    }

    fn __getitem__(&self, py: Python<'_>, i: usize) -> PyResult<Py<Table>> {
        self.tables.get(i).map(|t| t.clone_ref(py)).ok_or_else(|| pyo3::exceptions::PyIndexError::new_err(i))
    }

    fn __repr__(&self) -> String {
        format!("Tables({}, partitions={:?}, heuristic='{}')", self.dir.display(), self.partitions, self.solver.name())
    }
}

impl Tables {
    fn open_files(py: Python<'_>, files: Vec<PathBuf>, lookups: Lookups) -> PyResult<Tables> {
        let (board, dir, partition) = from_files(&files).map_err(to_py)?;
        open_dir(py, board, dir, vec![partition], lookups)
    }
}

/// Opens `partitions`' tables in `dir` with the solver's own loading (so the same errors) and a view of each.
fn open_dir(py: Python<'_>, board: Board, dir: PathBuf, partitions: Vec<String>, lookups: Lookups) -> PyResult<Tables> {
    let spec = TableSpec { dir: dir.clone(), partitions: partitions.clone(), lookups };
    let (solver, files) = py
        .detach(|| -> anyhow::Result<_> {
            let solver = Solver::new(board, HeuristicChoice::Pdb, &spec, Settings::default(), &mut |_| {})
                .map_err(cli_common::classified)?;
            // The payload checksums, which the solver checks before its first answer: a lookup answers at
            // once, so it is checked here, before any.
            let sets = engine::open_tables(board, &spec).map_err(cli_common::classified)?;
            let files: Vec<PdbFile> = sets.into_iter().flat_map(|(_, files)| files).collect();
            for f in &files {
                f.verify_checksum().map_err(|e| engine::Error::CorruptTable(format!("{e}; rebuild the table")))?;
            }
            Ok((solver, files))
        })
        .map_err(to_py)?;
    let tables = files.into_iter().map(|file| Py::new(py, Table { file })).collect::<PyResult<_>>()?;
    Ok(Tables { solver, dir, partitions, tables })
}
