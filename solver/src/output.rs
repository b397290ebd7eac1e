//! Turning a search report into what the user reads: moves in the user's own labels, text and JSON.

use crate::ida::Report;
use puzzle::{Goal, State};
use serde::Serialize;

/// How moves are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum, Default)]
pub enum MoveStyle {
    /// The tiles slid, in order (e.g. `3 1 2`).
    #[default]
    Tiles,
    /// The blank's directions, U D L R.
    Dirs,
}

/// The moves of a solution as the user wrote the position: tile names and directions follow `goal`'s
/// labelling (internal positions are always blank-first).
pub fn user_moves(start: &State, moves: &[u8], goal: Goal, style: MoveStyle) -> String {
    match style {
        MoveStyle::Tiles => {
            let words: Vec<String> = user_tiles(start, moves, goal).map(|t| t.to_string()).collect();
            words.join(" ")
        }
        MoveStyle::Dirs => start.blank_dirs(moves).into_iter().map(|d| goal.user_dir(d).letter()).collect(),
    }
}

/// The tiles moved, named as in `goal`'s labelling.
fn user_tiles<'a>(start: &State, moves: &'a [u8], goal: Goal) -> impl Iterator<Item = u8> + 'a {
    let cells = start.board().cells();
    moves.iter().map(move |&t| goal.user_tile(cells, t))
}

/// One solved (or stopped) instance, as printed by `solve --format json`.
#[derive(Serialize, Debug, Clone)]
pub struct SolveRecord {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    pub length: Option<usize>,
    /// Tiles slid (array) or blank directions (string), per `--moves`.
    pub moves: serde_json::Value,
    /// Generated nodes (children whose heuristic was evaluated).
    pub nodes: u64,
    pub expanded: u64,
    /// Search time only, excluding start-up and table loading.
    pub seconds: f64,
    pub heuristic: String,
    pub threads: usize,
    /// Depth-first searches interleaved on each thread; with `threads`, what the node count depends on.
    pub lanes: usize,
    pub root_h: u32,
    pub iterations: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stopped: Option<&'static str>,
}

impl SolveRecord {
    pub fn new(
        id: Option<String>,
        start: &State,
        report: &Report,
        goal: Goal,
        style: MoveStyle,
        solver: &crate::Solver,
        threads: usize,
    ) -> SolveRecord {
        let moves = match (&report.moves, style) {
            (Some(m), MoveStyle::Tiles) => {
                serde_json::json!(user_tiles(start, m, goal).collect::<Vec<_>>())
            }
            (Some(m), MoveStyle::Dirs) => serde_json::json!(user_moves(start, m, goal, style)),
            (None, _) => serde_json::Value::Null,
        };
        SolveRecord {
            id,
            length: report.moves.as_ref().map(Vec::len),
            moves,
            nodes: report.counts.generated,
            expanded: report.counts.expanded,
            seconds: report.seconds,
            heuristic: solver.name().to_string(),
            threads,
            lanes: solver.lanes(),
            root_h: report.root_h,
            iterations: report.iterations,
            stopped: report.stopped.map(|s| s.as_str()),
        }
    }
}
