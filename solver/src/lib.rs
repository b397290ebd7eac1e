//! The solver library: choosing and loading a heuristic, and solving positions optimally with IDA*.
//!
//! `Solver` is what the CLI (and the batch runner) hold: it owns the mapped tables and dispatches to the
//! search monomorphised for its heuristic, so the inner loop has no dynamic calls.

pub mod args;
pub mod batch;
pub mod fsm;
pub mod generate;
pub mod heuristic;
pub mod ida;
mod lanes;
pub mod output;
pub mod record;
pub mod report;

use anyhow::{bail, Context};
use heuristic::{Heuristic, LinearConflictH, Manhattan, PdbHeuristic};
use ida::{Limits, Report};
use puzzle::partition::{file_name, Partition};
use puzzle::pdb_file::{Expect, PdbFile};
use puzzle::{Board, State};
use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock};
use std::thread::JoinHandle;

/// Which heuristic to use, as the user says it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum HeuristicChoice {
    /// Pattern databases if the tables are there, else linear conflict (with a warning).
    Auto,
    /// Additive pattern databases with the reflected lookup; fails if a table is missing.
    Pdb,
    /// Manhattan distance plus linear conflict.
    LinearConflict,
    /// Manhattan distance alone.
    Manhattan,
}

/// Where tables come from, which ones, and how they are looked up.
#[derive(Clone, Debug)]
pub struct TableSpec {
    pub dir: PathBuf,
    /// A catalogue name (`7-8`, `6-6-3`, `5-5-5`, ...) or a custom `1,2,3/4,5,...` partition.
    pub partition: String,
    pub lookups: Lookups,
}

/// Which positions are looked up in the tables at every node; the estimate is the largest.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Lookups {
    /// The position only.
    Regular,
    /// The position and its reflection about the main diagonal (square boards; the default).
    #[default]
    Reflected,
}

// One value a solver, built once: the size of the table-heavy variants costs nothing.
#[allow(clippy::large_enum_variant)]
enum Loaded {
    Manhattan(Manhattan),
    LinearConflict(LinearConflictH),
    Pdb2(PdbHeuristic<2>),
    Pdb3(PdbHeuristic<3>),
    PdbMany(PdbHeuristic<{ puzzle::MAX_CELLS }>),
}

/// Runs `$body` with `$h` bound to the loaded heuristic, monomorphised per heuristic type.
macro_rules! with_heuristic {
    ($loaded:expr, $h:ident => $body:expr) => {
        match $loaded {
            Loaded::Manhattan($h) => $body,
            Loaded::LinearConflict($h) => $body,
            Loaded::Pdb2($h) => $body,
            Loaded::Pdb3($h) => $body,
            Loaded::PdbMany($h) => $body,
        }
    };
}

/// A ready solver for one board: tables mapped, heuristic chosen.
pub struct Solver {
    board: Board,
    heuristic: Loaded,
    name: String,
    check: Option<PayloadCheck>,
    /// Built on first use: a solver only asked for estimates never needs it, and a depth set after `new`
    /// must not pay for building the default one first.
    fsm: std::sync::OnceLock<fsm::MoveFsm>,
    fsm_depth: usize,
    lanes: usize,
    /// Worker pools by thread count, made on first use and kept: a solve of a few milliseconds must not pay
    /// for starting threads.
    pools: Mutex<Vec<Arc<rayon::ThreadPool>>>,
}

/// How many moves deep the duplicate-path automaton learns by default (see `fsm` and BENCHMARKS.md).
pub const FSM_DEPTH: usize = fsm::MAX_DEPTH;

/// Depth-first searches interleaved on each thread by default with tables (see `lanes` and BENCHMARKS.md).
/// Without tables there are no reads to wait for, and one lane is fastest.
pub const LANES: usize = 3;
/// The most lanes a thread may run.
pub const MAX_LANES: usize = 16;

/// The payload checksums of the mapped tables, computed on a background thread so that loading stays
/// instant; every result waits for it, so a corrupt table can delay an answer but never produce one.
struct PayloadCheck {
    thread: Mutex<Option<JoinHandle<Result<(), String>>>>,
    result: OnceLock<Result<(), String>>,
}

impl PayloadCheck {
    fn start(files: Arc<Vec<PdbFile>>) -> PayloadCheck {
        let thread = std::thread::spawn(move || {
            files.iter().try_for_each(|f| f.verify_checksum()).map_err(|e| format!("{e}; rebuild the table"))
        });
        PayloadCheck { thread: Mutex::new(Some(thread)), result: OnceLock::new() }
    }

    fn wait(&self) -> Result<(), String> {
        self.result
            .get_or_init(|| match self.thread.lock().unwrap().take() {
                Some(t) => t.join().unwrap_or_else(|_| Err("the table check thread failed".into())),
                None => Ok(()),
            })
            .clone()
    }
}

fn heuristic_of<H: Heuristic>(h: &H, s: &State) -> u32 {
    H::h(&h.root(&s.tile_array()))
}

/// The default partition for a board: the first catalogue entry for it.
pub fn default_partition(board: Board) -> Option<&'static str> {
    let b = board.to_string();
    puzzle::partition::CATALOGUE.iter().find(|(cb, _, _)| *cb == b).map(|(_, n, _)| *n)
}

/// Opens every table of a partition; a missing file is named together with the command that makes it.
pub fn open_tables(board: Board, spec: &TableSpec) -> anyhow::Result<(Partition, Vec<PdbFile>)> {
    let partition = Partition::parse(board, &spec.partition)?;
    let mut files = Vec::new();
    for pattern in &partition.patterns {
        let path = spec.dir.join(file_name(board, pattern));
        if !path.exists() {
            bail!(
                "missing table {}; build it with: pdb-builder build --board {board} --partition {} --out {}",
                path.display(),
                shell_quote(&spec.partition),
                spec.dir.display()
            );
        }
        let f = PdbFile::open(&path, &Expect { board: Some(board), tiles: Some(pattern.tiles()) })?;
        files.push(f);
    }
    Ok((partition, files))
}

/// A command-line word quoted for a POSIX shell when it needs it.
pub(crate) fn shell_quote(w: &str) -> String {
    if !w.is_empty() && w.chars().all(|c| c.is_ascii_alphanumeric() || "-_./=:,@%+".contains(c)) {
        w.to_string()
    } else {
        format!("'{}'", w.replace('\'', r"'\''"))
    }
}

impl Solver {
    /// Loads the chosen heuristic. With `Auto`, an empty partition (the board has no catalogue entry and none
    /// was named) gives linear conflict silently, and a missing table gives it with a warning through `warn`;
    /// a table that is there but corrupt or mismatched is always an error, never silently skipped.
    pub fn new(
        board: Board,
        choice: HeuristicChoice,
        tables: &TableSpec,
        warn: &mut dyn FnMut(&str),
    ) -> anyhow::Result<Solver> {
        let (heuristic, name, check) = Solver::load(board, choice, tables, warn)?;
        let lanes = if matches!(heuristic, Loaded::LinearConflict(_) | Loaded::Manhattan(_)) { 1 } else { LANES };
        Ok(Solver {
            board,
            heuristic,
            name,
            check,
            fsm: std::sync::OnceLock::new(),
            fsm_depth: FSM_DEPTH,
            lanes,
            pools: Mutex::new(Vec::new()),
        })
    }

    fn pool(&self, threads: usize) -> anyhow::Result<Arc<rayon::ThreadPool>> {
        let mut pools = self.pools.lock().unwrap();
        if let Some(p) = pools.iter().find(|p| p.current_num_threads() == threads) {
            return Ok(Arc::clone(p));
        }
        let p = Arc::new(
            rayon::ThreadPoolBuilder::new().num_threads(threads).build().context("cannot start the search threads")?,
        );
        pools.push(Arc::clone(&p));
        Ok(p)
    }

    fn load(
        board: Board,
        choice: HeuristicChoice,
        tables: &TableSpec,
        warn: &mut dyn FnMut(&str),
    ) -> anyhow::Result<(Loaded, String, Option<PayloadCheck>)> {
        let lc = || (Loaded::LinearConflict(LinearConflictH::new(board)), "linear-conflict".to_string(), None);
        match choice {
            HeuristicChoice::Manhattan => Ok((Loaded::Manhattan(Manhattan::new(board)), "manhattan".into(), None)),
            HeuristicChoice::LinearConflict => Ok(lc()),
            // No partition named, and none in the catalogue for this board: nothing to look for.
            HeuristicChoice::Auto if tables.partition.is_empty() => Ok(lc()),
            HeuristicChoice::Pdb | HeuristicChoice::Auto => {
                let missing = Partition::parse(board, &tables.partition)
                    .map(|p| p.patterns.iter().any(|pat| !tables.dir.join(file_name(board, pat)).exists()))
                    .unwrap_or(false);
                if choice == HeuristicChoice::Auto && missing {
                    let e = open_tables(board, tables).err().map(|e| e.to_string()).unwrap_or_default();
                    warn(&format!("warning: {e}; falling back to linear conflict"));
                    return Ok(lc());
                }
                let (partition, files) = open_tables(board, tables).context("cannot load the pattern databases")?;
                let files = Arc::new(files);
                let check = Some(PayloadCheck::start(Arc::clone(&files)));
                let reflect = board.is_square() && tables.lookups == Lookups::Reflected;
                let name = format!("pdb {}{}", partition.name, if reflect { " + reflection" } else { "" });
                let heuristic = match files.len() {
                    2 => Loaded::Pdb2(PdbHeuristic::new(board, files, reflect)),
                    3 => Loaded::Pdb3(PdbHeuristic::new(board, files, reflect)),
                    _ => Loaded::PdbMany(PdbHeuristic::new(board, files, reflect)),
                };
                Ok((heuristic, name, check))
            }
        }
    }

    /// Sets the duplicate-path automaton's depth in moves (2: parent pruning only; at most `fsm::MAX_DEPTH`);
    /// it is built at the next solve.
    pub fn set_fsm_depth(&mut self, depth: usize) -> anyhow::Result<()> {
        if !(2..=fsm::MAX_DEPTH).contains(&depth) {
            bail!("the duplicate-pruning depth must be from 2 to {}, not {depth}", fsm::MAX_DEPTH);
        }
        self.fsm_depth = depth;
        self.fsm = std::sync::OnceLock::new();
        Ok(())
    }

    /// Sets how many depth-first searches each thread interleaves (1 to `MAX_LANES`; 1 is a plain
    /// depth-first search in the serial order). The default is `LANES` with tables, 1 without.
    pub fn set_lanes(&mut self, lanes: usize) -> anyhow::Result<()> {
        if !(1..=MAX_LANES).contains(&lanes) {
            bail!("the number of lanes must be from 1 to {MAX_LANES}, not {lanes}");
        }
        self.lanes = lanes;
        Ok(())
    }

    pub fn lanes(&self) -> usize {
        self.lanes
    }

    fn fsm(&self) -> &fsm::MoveFsm {
        self.fsm.get_or_init(|| fsm::MoveFsm::build(self.board, self.fsm_depth))
    }

    pub fn board(&self) -> Board {
        self.board
    }

    /// A short description, e.g. `pdb 7-8 + reflection`.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The tables in use: (path, payload hash), so a result can be traced to what produced it.
    pub fn tables(&self) -> Vec<(PathBuf, u64)> {
        let files = match &self.heuristic {
            Loaded::Pdb2(h) => h.files(),
            Loaded::Pdb3(h) => h.files(),
            Loaded::PdbMany(h) => h.files(),
            _ => &[],
        };
        files.iter().map(|f| (f.path.clone(), f.header.payload_hash)).collect()
    }

    /// The heuristic estimate of a position.
    pub fn estimate(&self, state: &State) -> u32 {
        with_heuristic!(&self.heuristic, h => heuristic_of(h, state))
    }

    /// Solves optimally. A returned solution has been replayed from `state` and ends at the goal; if it does
    /// not, that is a bug and this says so rather than report it.
    pub fn solve(&self, state: &State, threads: usize, limits: &Limits) -> anyhow::Result<Report> {
        if state.board() != self.board {
            bail!("position is for a {} board but the solver is for {}", state.board(), self.board);
        }
        let pool = (threads > 1).then(|| self.pool(threads)).transpose()?;
        let report = with_heuristic!(&self.heuristic, h => ida::solve(h, self.fsm(), state, pool.as_deref(), self.lanes, limits));
        if let Some(check) = &self.check {
            check.wait().map_err(anyhow::Error::msg)?;
        }
        if let Some(moves) = &report.moves {
            state.replay(moves).map_err(|e| {
                anyhow::anyhow!("internal error: the solution found does not replay ({e}); please report this")
            })?;
        }
        Ok(report)
    }
}
