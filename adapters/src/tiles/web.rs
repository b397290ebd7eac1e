//! Sliding tiles in the web app: `POST /api/solve` (and its job), `POST /api/check`, `GET /api/random` and
//! `GET /api/boards` (the default puzzle). A position is its tiles row by row in the goal's labels, with the
//! board, goal and heuristic; the answer is the record `solver solve --format json` prints, with the moves in
//! every notation of `--moves` besides. Searches share one solver (mapped tables) per board and heuristic,
//! and run the engine's IDA* on one thread within the server's time limit.

use super::{
    closer_goal, goal_tiles, record::slides, solvable_toward_other, user_moves, user_tiles, Answer, Follow, MoveStyle,
    Recorder,
};
use crate::served::{bad, failed, refused, Context, Fields, Host, Need, Pool, Refusal, WebPuzzle, Work};
use batch::Source;
use engine::{HeuristicChoice, Lookups, Settings, Solver, TableSpec};
use puzzle::{Board, Goal, State};
use search::rng::SplitMix64;
use search::Algorithm;
use serde::Serialize;
use serde_json::{json, Value};
use std::any::Any;
use std::sync::Arc;

/// The puzzle every request is about unless it names another.
pub const SLIDING_TILE: &str = "sliding-tile";

/// The longest random walk served: longer walks are no more random than a uniform position.
const MAX_WALK: u64 = 10_000;

/// The boards the page offers, smallest first.
const BOARDS: [&str; 6] = ["2x2", "2x3", "3x3", "3x4", "4x4", "5x5"];

fn board(text: Option<String>) -> Result<Board, Refusal> {
    let text = text.as_deref().unwrap_or("4x4");
    text.parse().map_err(|e| bad(format!("board '{text}': {e}")))
}

/// The goal a request names; without one, Korf's blank-first, as on the command line (the page asks for
/// blank-last by name).
fn goal(text: Option<String>) -> Result<Goal, Refusal> {
    text.as_deref().unwrap_or("blank-first").parse().map_err(bad)
}

/// A position as a request gives it: its board, its goal, and its tiles as the command line reads them.
struct Given {
    board: Board,
    goal: Goal,
    text: String,
}

/// Reads `board`, `goal` and `tiles`.
fn given(f: &mut Fields) -> Result<Given, Refusal> {
    let board = board(f.text("board")?)?;
    let tiles = f.whole_numbers("tiles")?.ok_or_else(|| Fields::missing("tiles"))?;
    let goal = goal(f.text("goal")?)?;
    let words: Vec<String> = tiles.iter().map(u64::to_string).collect();
    Ok(Given { board, goal, text: words.join(" ") })
}

impl Given {
    /// The position, or why it is not one (naming the other goal when the tiles suit that one, as the page's
    /// Goal menu and the request's field name it: a web user has no command-line options).
    fn state(&self) -> Result<puzzle::State, String> {
        puzzle::parse_tiles(self.board, self.goal, &self.text).map_err(|e| {
            match solvable_toward_other(self.board, self.goal, &self.text, &e) {
                Some(other) => format!(
                    "bad position: {e}; it is solvable toward the goal {}: choose it in the Goal menu (\"goal\": \"{}\")",
                    goal_tiles(self.board, other),
                    other.name()
                ),
                None => format!("bad position: {e}"),
            }
        })
    }
}

/// A solve request checked: what the search needs.
struct Job {
    state: puzzle::State,
    goal: Goal,
    algorithm: Algorithm,
}

/// Bytes of stored states a search of the generic library may take (A*, BFS, bidirectional BFS keep what
/// they see): within the time limit they could otherwise fill the machine's memory, for every search at
/// once.
const MEMORY: u64 = 1 << 30;

/// The algorithm a request names (`ida` by default, the engine's), one of those `solver solve` offers.
fn algorithm(text: Option<String>) -> Result<Algorithm, Refusal> {
    let Some(text) = text else { return Ok(Algorithm::Ida) };
    let offered = <super::Tiles as batch::Task>::ALGORITHMS;
    offered.iter().copied().find(|a| search::Named::name(*a) == text).ok_or_else(|| {
        let names: Vec<&str> = offered.iter().map(|a| search::Named::name(*a)).collect();
        bad(format!("unknown algorithm '{text}' (sliding tiles are searched with {})", names.join(", ")))
    })
}

/// The moves of a solution in every notation of `solver solve --moves`, so the page can switch between
/// them without solving again.
#[derive(Serialize)]
struct Notations {
    /// The tiles slid, in the goal's labels.
    tiles: String,
    /// The blank's directions.
    dirs: String,
    /// The speedsolving convention: the direction the tiles move, repeats grouped (`L3`).
    udlr: String,
    /// The length in the multi-tile metric (a row or column slide of several tiles counting once).
    slides: usize,
}

/// The answer of a sliding-tile solve: `solve --format json`'s record, and the moves in every notation.
#[derive(Serialize)]
struct Solved {
    #[serde(flatten)]
    answer: Answer,
    /// Absent when there is no solution.
    notation: Option<Notations>,
}

/// `POST /api/solve` for sliding tiles: the position, goal and heuristic checked now; the work needs the
/// board's solver for that heuristic (made once, shared) and then runs the engine's IDA* on one thread.
fn solve(host: &Arc<Host>, mut f: Fields) -> Result<Work, Refusal> {
    let given = given(&mut f)?;
    let choice: HeuristicChoice = f.text("heuristic")?.as_deref().unwrap_or("auto").parse().map_err(bad)?;
    let algorithm = algorithm(f.text("algorithm")?)?;
    let textbook = f.boolean("textbook")?.unwrap_or(false);
    f.done()?;
    if textbook && !matches!(algorithm, Algorithm::Ida | Algorithm::Astar) {
        return Err(bad("textbook counting is for IDA* and A* (\"algorithm\": \"ida\" or \"astar\")"));
    }
    let job = Job { state: given.state().map_err(bad)?, goal: given.goal, algorithm };
    let board = job.state.board();
    let pdbs = host.pdbs().to_path_buf();
    // A textbook solver counts in the user's goal frame, so it is one a goal.
    let textbook = textbook.then_some(given.goal);
    let mode = textbook.map_or(String::new(), |g| format!(" textbook {}", g.name()));
    let need = Need {
        key: format!("{SLIDING_TILE} {board} {}{mode}", choice.as_str()),
        what: format!("the {board} {}{mode} solver", choice.as_str()),
        make: Box::new(move || make_solver(pdbs, board, choice, textbook).map(|s| s as Arc<dyn Any + Send + Sync>)),
    };
    Ok(Work {
        need: Some(need),
        pool: Pool::Search,
        run: Box::new(move |cx: Context| {
            let solver = cx.made::<Solver>()?;
            let solved = search(&solver, &job, &cx)?;
            serde_json::to_value(solved).map_err(|e| failed(e.to_string()))
        }),
    })
}

/// Makes a solver (blocking: it maps tables) and gets it ready to answer at once: its first solve builds
/// the move automaton and waits for the tables' checksums, so a position already solved (the goal) does
/// that here, where no request's search is timed.
fn make_solver(
    pdbs: std::path::PathBuf,
    board: Board,
    choice: HeuristicChoice,
    textbook: Option<Goal>,
) -> Result<Arc<Solver>, Refusal> {
    let spec = TableSpec { dir: pdbs, partitions: Vec::new(), lookups: Lookups::default() };
    let settings = Settings::default().with_threads(1).map_err(|e| failed(e.to_string()))?.with_textbook(textbook);
    let solver = Solver::new(board, choice, &spec, settings, &mut |w| cli_common::log(&format!("solver: {w}")))
        .map_err(refused)?;
    solver.solve(&State::goal(board), &engine::Limits::default()).map_err(refused)?;
    Ok(Arc::new(solver))
}

/// Solves a checked request on this (blocking) thread, within its deadline and watch.
fn search(solver: &Solver, job: &Job, cx: &Context) -> Result<Solved, Refusal> {
    let limits = search::Limits { memory: Some(MEMORY), ..cx.watch.limits(cx.deadline) };
    let follow = Follow { live: Some(Arc::clone(&cx.watch.live)), ..Follow::default() };
    let searched = super::solve(solver, job.algorithm, &job.state, 1, &limits, follow)
        .map_err(|e| failed(cli_common::one_line(&e)))?;
    let tiles = user_tiles(&job.state, job.goal);
    let src = Source { id: "1", line: 1, text: &tiles, expected: None };
    let record = Recorder::new(solver, job.goal, MoveStyle::Tiles).searched(&src, &job.state, &searched);
    let notation = searched.moves().map(|moves| {
        let written = |style| user_moves(&job.state, moves, job.goal, style);
        Notations {
            tiles: written(MoveStyle::Tiles),
            dirs: written(MoveStyle::Dirs),
            udlr: written(MoveStyle::Udlr),
            slides: slides(&job.state, moves, job.goal).len(),
        }
    });
    Ok(Solved {
        answer: Answer {
            record,
            goal: goal_tiles(job.state.board(), job.goal),
            metric: Some(engine::Metric::Stm.as_str()),
        },
        notation,
    })
}

/// `POST /api/check` for sliding tiles: whether the tiles are a position of the board toward the goal
/// (`valid`, else `error` says why), and `closer` when the position is clearly closer to the other goal
/// (the rule `solver solve` notes it by): the goal's name and tiles, and the Manhattan distances to it and
/// to the goal asked for. A verdict, not a refusal: only a malformed request is a 400.
fn check(mut f: Fields) -> Result<Value, Refusal> {
    let given = given(&mut f)?;
    f.done()?;
    if let Err(error) = given.state() {
        return Ok(json!({ "valid": false, "error": error }));
    }
    let closer = closer_goal(given.board, given.goal, &given.text).map(|(other, there, here)| {
        json!({
            "goal": other.name(),
            "tiles": goal_tiles(given.board, other),
            "distance": there,
            "distance_here": here,
        })
    });
    Ok(json!({ "valid": true, "closer": closer }))
}

/// `GET /api/random` for sliding tiles (`board`, `goal`, `walk`): a uniformly random solvable position, or
/// a random walk of `walk` moves from the goal, in the goal's labels; the body `/api/solve` takes.
fn random(host: &Host, mut f: Fields) -> Result<Value, Refusal> {
    let board = board(f.text("board")?)?;
    let goal = goal(f.text("goal")?)?;
    let walk = f.whole("walk")?;
    f.done()?;
    if let Some(w) = walk.filter(|&w| w > MAX_WALK) {
        return Err(bad(format!("walk {w} is longer than {MAX_WALK} moves")));
    }
    let walk = walk.map(|w| w as u32);
    let tiles = super::draw(board, walk, goal, &mut SplitMix64::new(host.next_seed()));
    Ok(json!({ "puzzle": SLIDING_TILE, "board": board.to_string(), "goal": goal.name(), "tiles": tiles }))
}

/// `GET /api/boards`: the boards the page offers, each with the heuristic `auto` uses on it here (tables
/// when the `--pdbs` folder has a complete set) and what a person can expect of it within the time limit.
fn boards(host: &Host) -> Value {
    let limit = host.time_limit().as_secs_f64();
    let boards: Vec<Value> = BOARDS
        .iter()
        .map(|name| {
            let board: Board = name.parse().expect("a board the page offers");
            let tables = engine::auto_choice(board, host.pdbs()).map(|names| names.join(" and "));
            let heuristic =
                tables.as_ref().map_or_else(|| "linear conflict".to_string(), |p| format!("pattern databases {p}"));
            let about = match (board.cells(), tables) {
                (..=12, _) => "any position in well under a second".to_string(),
                (16, Some(_)) => "most positions in under a second".to_string(),
                (16, None) => format!(
                    "no tables: random positions take seconds to minutes; a search stops at the {limit} s limit \
                     with a lower bound"
                ),
                (_, Some(_)) => format!(
                    "random positions take minutes to hours: a search stops at the {limit} s limit with a lower \
                     bound; shuffles of up to about 60 moves solve in seconds"
                ),
                (_, None) => format!(
                    "no tables: only short shuffles (about 30 moves) solve; random positions stop at the {limit} s \
                     limit with a lower bound"
                ),
            };
            json!({ "board": name, "heuristic": heuristic, "about": about })
        })
        .collect();
    json!({ "boards": boards, "time_limit": limit })
}

/// Sliding tiles as the web app serves them.
pub struct SlidingTiles;

impl WebPuzzle for SlidingTiles {
    fn name(&self) -> &'static str {
        SLIDING_TILE
    }

    fn title(&self) -> &'static str {
        "Sliding tiles"
    }

    fn page(&self) -> &'static str {
        include_str!("page.js")
    }

    fn about(&self, host: &Host) -> Value {
        boards(host)
    }

    fn check(&self, f: Fields) -> crate::served::Answer {
        check(f)
    }

    fn solve(&self, host: &Arc<Host>, f: Fields) -> Result<Work, Refusal> {
        solve(host, f)
    }

    fn random(&self, host: &Arc<Host>, f: Fields) -> Result<Work, Refusal> {
        let answer = random(host, f)?;
        Ok(Work::draw(move |_| Ok(answer)))
    }
}
