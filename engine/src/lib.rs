//! The sliding-tile search engine: choosing and loading a heuristic, and solving positions optimally with
//! IDA*. It has no command-line, output or signal handling: the `solver` command and anything else that
//! embeds it (a server, a batch runner) build on [`Solver`].
//!
//! `Solver` owns the loaded tables and dispatches to the search monomorphised for its heuristic, so the
//! inner loop has no dynamic calls.
//!
//! Module dependencies run one way: `lib` → `ida` (iterations) → `lanes` (depth-first search) → `work`,
//! `moves`, `guard`, `outcome`, `fsm`, `heuristic`.

#![warn(missing_docs)]

pub mod dual;
mod error;
pub mod fsm;
mod guard;
pub mod heuristic;
mod ida;
mod lanes;
mod moves;
pub mod mtm;
mod mtm_fsm;
mod mtm_pdb;
pub mod outcome;
mod settings;
pub mod split;
mod tables;
mod textbook;
mod work;

pub use error::Error;
pub use mtm::{Metric, MtmSolver};
pub use outcome::{Checkpoint, Counts, Iteration, Limits, Live, Outcome, Report, Resume, Stop};
pub use settings::{cores, Settings, FSM_DEPTH, LANES, LANES_MAX_CELLS, MAX_LANES, MAX_THREADS};
pub use tables::{auto_choice, default_partition, open_tables, HeuristicChoice, Lookups, TableSpec, MAX_SETS};

use dual::{DualLookups, WithDual};
use fsm::TableRef;
use heuristic::{Heuristic, LinearConflictH, Manhattan, PdbHeuristic};
use moves::Moves;
use puzzle::pdb_file::{Kind, PdbFile};
use puzzle::{Board, State};
use std::path::PathBuf;
use std::sync::mpsc::Receiver;
use std::sync::{Arc, Mutex, OnceLock};

// One value a solver, built once: the size of the table-heavy variants costs nothing.
#[allow(clippy::large_enum_variant)]
enum Loaded {
    Manhattan(Manhattan),
    LinearConflict(LinearConflictH),
    Pdb2(PdbHeuristic<2, 1>),
    Pdb3(PdbHeuristic<3, 1>),
    Pdb4(PdbHeuristic<4, 1>),
    PdbMany(PdbHeuristic<{ puzzle::MAX_CELLS }, 1>),
    /// Two partitions of two tables each (4x4's 7-8 with another split): nodes half the size of `Max`'s.
    Max2(PdbHeuristic<2, 2>),
    /// Two partitions of up to `MAXED_TABLES` tables each (every catalogue entry): one more copy of the
    /// search, not one per pair of sizes.
    Max(PdbHeuristic<MAXED_TABLES, 2>),
    /// With blank-aware tables, whose nodes also keep where each pattern's tiles are: two tables (4x4's
    /// 7-8), up to four (5x5's 6-6-6-6), any number, and two sets of up to four.
    Blank2(PdbHeuristic<2, 1, 2>),
    Blank4(PdbHeuristic<4, 1, 4>),
    BlankMany(PdbHeuristic<{ puzzle::MAX_CELLS }, 1, { puzzle::MAX_CELLS }>),
    BlankMax(PdbHeuristic<MAXED_TABLES, 2, MAXED_TABLES>),
    /// Two sets of two blank-aware tables each (4x4's 7-8 with another split): nodes half the size of
    /// `BlankMax`'s, as `Max2` to `Max`.
    BlankMax2(PdbHeuristic<2, 2, 2>),
    /// Three or four sets of up to `MAXED_TABLES` tables each, of either kind: nodes that keep the patterns'
    /// cells, so that one copy of the search serves plain and blank-aware tables alike.
    Max3(PdbHeuristic<MAXED_TABLES, 3, MAXED_TABLES>),
    Max4(PdbHeuristic<MAXED_TABLES, 4, MAXED_TABLES>),
    /// With dual lookups (`--dual`): one partition of two tables (4x4's 7-8) or of three or four (5x5's),
    /// plain or blank-aware.
    Dual2(WithDual<PdbHeuristic<2, 1>>),
    Dual4(WithDual<PdbHeuristic<4, 1>>),
    DualBlank2(WithDual<PdbHeuristic<2, 1, 2>>),
    DualBlank4(WithDual<PdbHeuristic<4, 1, 4>>),
}

/// The most tables each of several maxed partitions may have.
const MAXED_TABLES: usize = 4;

/// Runs `$body` with `$h` bound to the loaded heuristic, monomorphised per heuristic type.
macro_rules! with_heuristic {
    ($loaded:expr, $h:ident => $body:expr) => {
        match $loaded {
            Loaded::Manhattan($h) => $body,
            Loaded::LinearConflict($h) => $body,
            Loaded::Pdb2($h) => $body,
            Loaded::Pdb3($h) => $body,
            Loaded::Pdb4($h) => $body,
            Loaded::PdbMany($h) => $body,
            Loaded::Max2($h) => $body,
            Loaded::Max($h) => $body,
            Loaded::Blank2($h) => $body,
            Loaded::Blank4($h) => $body,
            Loaded::BlankMany($h) => $body,
            Loaded::BlankMax($h) => $body,
            Loaded::BlankMax2($h) => $body,
            Loaded::Max3($h) => $body,
            Loaded::Max4($h) => $body,
            Loaded::Dual2($h) => $body,
            Loaded::Dual4($h) => $body,
            Loaded::DualBlank2($h) => $body,
            Loaded::DualBlank4($h) => $body,
        }
    };
}

/// A ready solver for one board: tables loaded, heuristic chosen, settings fixed.
pub struct Solver {
    board: Board,
    heuristic: Loaded,
    name: String,
    check: Option<PayloadCheck>,
    settings: Settings,
    /// Lanes in use: the setting, or the default for this heuristic.
    lanes: usize,
    /// Built on first use: a solver only asked for estimates never needs it.
    fsm: OnceLock<fsm::MoveFsm>,
    /// Worker pools by thread count, made on first use and kept: a solve of a few milliseconds must not pay
    /// for starting threads.
    pools: Mutex<Vec<Arc<rayon::ThreadPool>>>,
}

/// The payload checksums of the tables, computed on a background thread so that loading stays quick; every
/// result waits for it, so a corrupt table can delay an answer but never produce one.
struct PayloadCheck {
    verdict: Mutex<Option<Receiver<Result<(), String>>>>,
    result: OnceLock<Result<(), String>>,
}

impl PayloadCheck {
    fn start(sets: Vec<Arc<Vec<PdbFile>>>) -> PayloadCheck {
        let (send, verdict) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let files = || sets.iter().flat_map(|files| files.iter());
            let checked = files().try_for_each(|f| f.verify_checksum()).map_err(|e| format!("{e}; rebuild the table"));
            let _ = send.send(checked);
        });
        PayloadCheck { verdict: Mutex::new(Some(verdict)), result: OnceLock::new() }
    }

    fn wait(&self) -> Result<(), Error> {
        self.result
            .get_or_init(|| match self.verdict.lock().unwrap().take() {
                Some(r) => r.recv().unwrap_or_else(|_| Err("the table check thread failed".into())),
                None => Ok(()),
            })
            .clone()
            .map_err(Error::CorruptTable)
    }
}

/// The heuristic with dual lookups over `sets` (see [`Settings::with_dual`]): one partition of 2 to 4 tables.
fn dual_heuristic(board: Board, sets: Vec<Arc<Vec<PdbFile>>>, reflect: bool, blank: bool) -> Result<Loaded, Error> {
    let tables = sets.first().map_or(0, |s| s.len());
    if sets.len() != 1 || !(2..=dual::MAX_DUAL_TABLES).contains(&tables) {
        return Err(Error::Setting(format!(
            "dual lookups take one partition of 2 to 4 tables, not {} of {tables}",
            sets.len()
        )));
    }
    let Ok([files]) = <[_; 1]>::try_from(sets) else { unreachable!("one set") };
    let dual = DualLookups::new(board, files.clone(), reflect);
    Ok(match (tables, blank) {
        (2, false) => Loaded::Dual2(WithDual::new(PdbHeuristic::new(board, [files], reflect), dual)),
        (_, false) => Loaded::Dual4(WithDual::new(PdbHeuristic::new(board, [files], reflect), dual)),
        (2, true) => Loaded::DualBlank2(WithDual::new(PdbHeuristic::new(board, [files], reflect), dual)),
        (_, true) => Loaded::DualBlank4(WithDual::new(PdbHeuristic::new(board, [files], reflect), dual)),
    })
}

fn heuristic_of<H: Heuristic>(h: &H, s: &State) -> u32 {
    H::h(&h.root(&s.tile_array()))
}

impl Solver {
    /// Loads the chosen heuristic (see [`HeuristicChoice`] for what `Auto` looks for); warnings (a fallback
    /// to linear conflict, the partition chosen) go to `warn`.
    pub fn new(
        board: Board,
        choice: HeuristicChoice,
        tables: &TableSpec,
        settings: Settings,
        warn: &mut dyn FnMut(&str),
    ) -> Result<Solver, Error> {
        if settings.dual() && settings.textbook().is_some() {
            return Err(Error::Setting("textbook mode counts a plain IDA*'s nodes, without dual lookups".into()));
        }
        let (heuristic, name, check) = match tables::load(board, choice, tables, warn)? {
            tables::Chosen::Manhattan => (Loaded::Manhattan(Manhattan::new(board)), "manhattan".to_string(), None),
            tables::Chosen::LinearConflict => {
                (Loaded::LinearConflict(LinearConflictH::new(board)), "linear-conflict".to_string(), None)
            }
            tables::Chosen::Pdb { name, sets, reflect } => {
                if let Some(big) = sets.iter().find(|s| sets.len() > 1 && s.len() > MAXED_TABLES) {
                    return Err(Error::Setting(format!(
                        "the largest of several partitions' estimates takes at most {MAXED_TABLES} tables each; one has {}",
                        big.len()
                    )));
                }
                let blank = sets.iter().flatten().any(|f| f.header.kind() == Kind::BlankAware);
                let sets: Vec<Arc<Vec<PdbFile>>> = sets.into_iter().map(Arc::new).collect();
                let check = Some(PayloadCheck::start(sets.clone()));
                if settings.dual() {
                    let heuristic = dual_heuristic(board, sets, reflect, blank)?;
                    return Ok(Solver::made(board, heuristic, format!("{name} + dual"), check, settings));
                }
                let heuristic = match (<[_; 2]>::try_from(sets), blank) {
                    (Err(sets), _) if sets.len() > 2 => match <[_; 3]>::try_from(sets) {
                        Ok(three) => Loaded::Max3(PdbHeuristic::new(board, three, reflect)),
                        Err(sets) => {
                            let four = <[_; 4]>::try_from(sets).map_err(|sets| {
                                Error::Setting(format!("{} sets; at most {MAX_SETS} can be maxed", sets.len()))
                            })?;
                            Loaded::Max4(PdbHeuristic::new(board, four, reflect))
                        }
                    },
                    (Ok([a, b]), false) if a.len().max(b.len()) <= 2 => {
                        Loaded::Max2(PdbHeuristic::new(board, [a, b], reflect))
                    }
                    (Ok([a, b]), false) => Loaded::Max(PdbHeuristic::new(board, [a, b], reflect)),
                    (Ok([a, b]), true) if a.len().max(b.len()) <= 2 => {
                        Loaded::BlankMax2(PdbHeuristic::new(board, [a, b], reflect))
                    }
                    (Ok([a, b]), true) => Loaded::BlankMax(PdbHeuristic::new(board, [a, b], reflect)),
                    (Err(mut one), blank) => {
                        let files = one.remove(0);
                        match (files.len(), blank) {
                            (2, false) => Loaded::Pdb2(PdbHeuristic::new(board, [files], reflect)),
                            (3, false) => Loaded::Pdb3(PdbHeuristic::new(board, [files], reflect)),
                            (4, false) => Loaded::Pdb4(PdbHeuristic::new(board, [files], reflect)),
                            (_, false) => Loaded::PdbMany(PdbHeuristic::new(board, [files], reflect)),
                            (2, true) => Loaded::Blank2(PdbHeuristic::new(board, [files], reflect)),
                            (3 | 4, true) => Loaded::Blank4(PdbHeuristic::new(board, [files], reflect)),
                            (_, true) => Loaded::BlankMany(PdbHeuristic::new(board, [files], reflect)),
                        }
                    }
                };
                (heuristic, name, check)
            }
        };
        if settings.dual() {
            return Err(Error::Setting(format!("dual lookups read tables, and {name} has none: give --heuristic pdb")));
        }
        Ok(Solver::made(board, heuristic, name, check, settings))
    }

    fn made(board: Board, heuristic: Loaded, name: String, check: Option<PayloadCheck>, settings: Settings) -> Solver {
        let tables_used = !matches!(heuristic, Loaded::LinearConflict(_) | Loaded::Manhattan(_));
        let lanes = settings.lanes_for(tables_used, board.cells());
        Solver { board, heuristic, name, check, settings, lanes, fsm: OnceLock::new(), pools: Mutex::new(Vec::new()) }
    }

    /// Whether it searches with dual lookups (see [`Settings::with_dual`]).
    pub fn dual(&self) -> bool {
        self.settings.dual()
    }

    fn pool(&self, threads: usize) -> Result<Arc<rayon::ThreadPool>, Error> {
        let mut pools = self.pools.lock().unwrap();
        if let Some(p) = pools.iter().find(|p| p.current_num_threads() == threads) {
            return Ok(Arc::clone(p));
        }
        let p = Arc::new(rayon::ThreadPoolBuilder::new().num_threads(threads).build().map_err(Error::Threads)?);
        pools.push(Arc::clone(&p));
        Ok(p)
    }

    /// Lanes each thread interleaves: the setting, or the default for the heuristic loaded.
    pub fn lanes(&self) -> usize {
        self.lanes
    }

    /// Whether it counts nodes as a textbook IDA* does (see [`Settings::with_textbook`]).
    pub fn textbook(&self) -> bool {
        self.settings.textbook().is_some()
    }

    /// The goal the input of textbook mode is written for (its directions are the user's), if it is on.
    pub fn textbook_goal(&self) -> Option<puzzle::Goal> {
        self.settings.textbook()
    }

    /// The threads a search uses unless told otherwise.
    pub fn threads(&self) -> usize {
        self.settings.threads()
    }

    /// The duplicate-path automaton's settings as words (`depth 14`, `depth 14 wide`): with the heuristic,
    /// they decide the nodes an iteration visits.
    pub fn automaton(&self) -> String {
        if self.settings.textbook().is_some() {
            return "none (textbook)".to_string();
        }
        let wide = if self.settings.fsm_wide() { " wide" } else { "" };
        format!("depth {}{wide}", self.settings.fsm_depth())
    }

    fn fsm(&self) -> &fsm::MoveFsm {
        self.fsm.get_or_init(|| {
            // Textbook mode searches without it; the iterations still step through one, the smallest.
            let depth = if self.settings.textbook().is_some() { 2 } else { self.settings.fsm_depth() };
            if self.settings.fsm_wide() {
                fsm::MoveFsm::build_wide(self.board, depth)
            } else {
                fsm::MoveFsm::build(self.board, depth)
            }
        })
    }

    /// The board whose positions it solves.
    pub fn board(&self) -> Board {
        self.board
    }

    /// A short description, e.g. `pdb 7-8 + reflection`.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The tables in use: (path, payload hash), so a result can be traced to what produced it.
    pub fn tables(&self) -> Vec<(PathBuf, u64)> {
        let files = with_heuristic!(&self.heuristic, h => h.files());
        files.iter().map(|f| (f.path.clone(), f.header.payload_hash)).collect()
    }

    /// The heuristic estimate of a position.
    pub fn estimate(&self, state: &State) -> u32 {
        with_heuristic!(&self.heuristic, h => heuristic_of(h, state))
    }

    /// Solves optimally with the settings' threads. See [`Solver::solve_with`].
    pub fn solve(&self, state: &State, limits: &Limits) -> Result<Report, Error> {
        self.solve_with(state, self.settings.threads(), limits)
    }

    /// Solves optimally on `threads` threads (at least 1). A returned solution has been replayed from
    /// `state` and ends at the goal; if it does not, that is a bug and this says so rather than report it.
    pub fn solve_with(&self, state: &State, threads: usize, limits: &Limits) -> Result<Report, Error> {
        self.check_position(state)?;
        let pool = (threads > 1 && self.settings.textbook().is_none()).then(|| self.pool(threads)).transpose()?;
        let mode = match self.settings.textbook() {
            Some(goal) => ida::Mode::Textbook(goal),
            None => ida::Mode::Fast { pool: pool.as_deref(), lanes: self.lanes },
        };
        let report = with_heuristic!(&self.heuristic, h => ida::solve(h, self.fsm(), state, mode, limits));
        self.checked(state, report.moves())?;
        Ok(report)
    }

    /// Cuts the IDA* iteration at `bound` from `state` into at least `at_least` work items where the tree is
    /// that wide (see [`split`]), for [`Solver::work`] to search anywhere.
    pub fn split(&self, state: &State, bound: u32, at_least: usize) -> Result<split::Split, Error> {
        self.check_position(state)?;
        let fsm = self.fsm();
        let cut = with_heuristic!(&self.heuristic, h => match fsm.table() {
            TableRef::Narrow(t) => split::split(h, &Moves::new(self.board, fsm, t), state, bound, at_least),
            TableRef::Wide(t) => split::split(h, &Moves::new(self.board, fsm, t), state, bound, at_least),
        });
        if let split::Divided::Solved(moves) = &cut.outcome {
            self.checked(state, Some(moves))?;
        }
        Ok(cut)
    }

    /// Searches the work item `prefix` of the iteration at `bound` from `state` on `threads` threads, within
    /// `limits` (its time and node limits; no checkpoints). A prefix that is not one of an iteration's items
    /// (a move the board or the automaton does not allow) is refused.
    pub fn work(
        &self,
        state: &State,
        bound: u32,
        prefix: &[u8],
        threads: usize,
        limits: &Limits,
    ) -> Result<split::Worked, Error> {
        self.check_position(state)?;
        let pool = (threads > 1).then(|| self.pool(threads)).transpose()?;
        let (fsm, lanes) = (self.fsm(), self.lanes);
        let worked = with_heuristic!(&self.heuristic, h => match fsm.table() {
            TableRef::Narrow(t) => {
                let moves = Moves::new(self.board, fsm, t);
                let item = split::item_at(h, &moves, state, prefix).map_err(Error::BadItem)?;
                split::work(h, &moves, item, bound, pool.as_deref(), lanes, limits)
            }
            TableRef::Wide(t) => {
                let moves = Moves::new(self.board, fsm, t);
                let item = split::item_at(h, &moves, state, prefix).map_err(Error::BadItem)?;
                split::work(h, &moves, item, bound, pool.as_deref(), lanes, limits)
            }
        });
        self.checked(state, worked.found.as_deref())?;
        Ok(worked)
    }

    /// A position this solver can search: of its board, and solvable.
    fn check_position(&self, state: &State) -> Result<(), Error> {
        if state.board() != self.board {
            return Err(Error::WrongBoard { position: state.board(), solver: self.board });
        }
        if !state.is_solvable() {
            return Err(Error::Unsolvable);
        }
        Ok(())
    }

    /// Waits for the tables' check, and replays a solution from `state` to the goal: a result is given only
    /// from sound tables, and a solution that does not replay is a bug, said rather than printed.
    fn checked(&self, state: &State, moves: Option<&[u8]>) -> Result<(), Error> {
        if let Some(check) = &self.check {
            check.wait()?;
        }
        if let Some(moves) = moves {
            state.replay(moves).map_err(Error::BadSolution)?;
        }
        Ok(())
    }
}
