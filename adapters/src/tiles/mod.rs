//! Sliding tiles as the batch runner's puzzle, and what every front end needs to solve and report one
//! position: the algorithm that searches it ([`algorithm`]) and the record that says what it did
//! ([`record`]).

pub mod algorithm;
pub mod items;
pub mod record;
pub mod textbook;
pub mod web;

pub use algorithm::{solve, Follow, Searched};
pub use record::{
    closer_goal, draw, goal_tiles, position_error, solvable_toward_other, user_cells, user_moves, user_tiles, Answer,
    MoveStyle, Recorder,
};

use batch::{Attempt, Line, Record, Resume, Source, Task};
use puzzle::{Board, State};
use search::Algorithm;
use std::sync::Arc;

/// What decides a sliding-tile record besides the position: the board and goal the lines are read for, how
/// moves are written, and what searched (a record of another goal or move style would read differently, one
/// of another heuristic or tables may count other nodes or, inadmissible, find other lengths).
fn settings(board: Board, algorithm: Algorithm, r: &Recorder) -> Vec<(&'static str, String)> {
    let informed = algorithm.informed();
    // Only when on: the records of every other run keep the settings they were written with.
    let textbook = r.solver.textbook().then(|| ("textbook", "yes".to_string()));
    let mut settings = vec![
        ("board", board.to_string()),
        ("goal", r.goal.name().to_string()),
        ("moves", clap::ValueEnum::to_possible_value(&r.style).expect("no style is skipped").get_name().to_string()),
        ("algorithm", search::Named::name(algorithm).to_string()),
        (
            "heuristic",
            r.mtm().map_or_else(|| if informed { r.solver.name() } else { "none" }.to_string(), |m| m.name()),
        ),
        ("tables", if informed { r.tables() } else { "" }.to_string()),
    ];
    settings.extend(textbook);
    // Only in the multi-tile metric: a record without it counts single-tile moves.
    settings.extend(r.mtm().map(|_| ("metric", engine::Metric::Mtm.as_str().to_string())));
    settings
}

/// Sliding tiles as a batch's puzzle.
pub struct Tiles<'a> {
    /// The board every line is read for.
    pub board: Board,
    /// What searches each instance.
    pub algorithm: Algorithm,
    /// What writes each record (the solver, the goal the lines are written for, the move style).
    pub recorder: Recorder<'a>,
    /// Whether the goal was given (`--goal`, `$STP_GOAL`), rather than taken from the first position's form
    /// or the default: a given goal reads every line, while a line whose form brings another goal than the
    /// one taken is refused (a batch is read for one goal; its records' moves are in its labels).
    pub goal_given: bool,
}

/// The words of a line as a tile position counts them (what makes a line a row of a grid).
fn word_count(line: &str) -> usize {
    puzzle::instance::words(line).len()
}

impl Task for Tiles<'_> {
    type Instance = State;
    /// `ida` is the engine's IDA* (lanes, threads, the duplicate-path automaton: the fast one); the others are
    /// the generic library's over the same heuristic, on one thread, for teaching and comparing.
    const ALGORITHMS: &'static [Algorithm] = {
        use Algorithm::*;
        &[Ida, Astar, Bfs, Bibfs, Greedy, Dfs]
    };
    type Heuristic = engine::HeuristicChoice;
    const HEURISTICS: &'static [engine::HeuristicChoice] = <engine::HeuristicChoice as search::Named>::ALL;

    fn name(&self) -> &str {
        "solver"
    }

    const STEPS: &'static str = "moves";

    fn settings(&self) -> Vec<(&'static str, String)> {
        settings(self.board, self.algorithm, &self.recorder)
    }

    fn parse(&self, line: &str) -> Option<Line<State>> {
        let (board, goal) = (self.board, self.recorder.goal);
        match puzzle::instance::form_goal(line) {
            Some(form) if form != goal && !self.goal_given => {
                let problem = format!(
                    "rows apart by '/' are the speedsolvers' form, written for the goal {}, but this batch reads \
                     its positions for {} (its first position's form, or the default): give --goal to read every \
                     line for one",
                    form.name(),
                    goal.name()
                );
                return Some(Line {
                    id: None,
                    text: line.split('#').next().unwrap_or("").trim().to_string(),
                    parsed: Err(problem),
                });
            }
            _ => {}
        }
        match puzzle::parse_line(board, goal, line) {
            Ok(None) => None,
            Ok(Some(inst)) => {
                Some(Line { id: inst.id, text: user_tiles(&inst.state, goal), parsed: Ok((inst.state, inst.optimal)) })
            }
            Err(e) => {
                // A line of `id length tiles...` keeps its id even when its tiles are wrong.
                let words = puzzle::instance::words(line);
                let id = (words.len() == board.cells() + 2).then(|| words[0].to_string());
                Some(Line {
                    id,
                    text: line.split('#').next().unwrap_or("").trim().to_string(),
                    parsed: Err(position_error(board, goal, line, &e)),
                })
            }
        }
    }

    /// A position may be a grid, one row a line.
    fn rows(&self) -> Option<batch::rows::Row> {
        Some(batch::rows::Row { cols: self.board.cols(), cells: self.board.cells(), words: word_count })
    }

    /// A line whose tiles are a position of the board but of the wrong permutation parity is an answer, not a
    /// typo: no sequence of moves reaches the goal. Its record says `unsolvable`, as summaries count it;
    /// every other bad line is `invalid`.
    fn invalid(&self, src: &Source, problem: String) -> Record {
        let (board, goal) = (self.board, self.recorder.goal);
        let unsolvable = matches!(puzzle::parse_line(board, goal, src.text), Err(puzzle::InstanceError::Unsolvable));
        let rec = self.recorder.invalid(src, problem);
        if unsolvable {
            Record { status: batch::Status::Unsolvable, ..rec }
        } else {
            rec
        }
    }

    fn solve(
        &self,
        state: &State,
        src: &Source,
        threads: usize,
        limits: &search::Limits,
        live: &Arc<search::Live>,
        resume: &Resume,
    ) -> anyhow::Result<Attempt> {
        let follow = Follow { live: Some(Arc::clone(live)), say_depths: false, resume: resume.clone() };
        let searched = match self.recorder.mtm() {
            Some(mtm) => algorithm::solve_mtm(mtm, state, threads.min(self.recorder.solver.threads()), limits, follow)?,
            None => algorithm::solve(self.recorder.solver, self.algorithm, state, threads, limits, follow)?,
        };
        Ok(Attempt { record: self.recorder.searched(src, state, &searched), stop: searched.stopped() })
    }

    /// IDA*'s iterations below the bound count the same nodes with any threads and lanes, so the key is
    /// what decides them: the heuristic, its tables' contents, and the duplicate-path automaton.
    fn checkpoint_key(&self) -> Option<String> {
        let solver = self.recorder.solver;
        let tables = match self.recorder.tables() {
            "" => String::new(),
            t => format!("; tables {t}"),
        };
        // The multi-tile search keeps no checkpoints.
        (self.algorithm == Algorithm::Ida && self.recorder.mtm().is_none())
            .then(|| format!("ida; {}{tables}; automaton {}", solver.name(), solver.automaton()))
    }

    fn threads(&self) -> usize {
        self.recorder.solver.threads()
    }

    /// The engine's IDA* searches one instance on every thread; the multi-tile search, on one thread, runs
    /// instances side by side as the library's algorithms do.
    fn parallel_search(&self) -> bool {
        self.algorithm == Algorithm::Ida && self.recorder.mtm().is_none()
    }

    fn no_valid_hint(&self) -> String {
        format!("is --board {} right?", self.board)
    }
}
