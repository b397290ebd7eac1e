//! `solver solve --algorithm fast`: a short, not optimal, solution of a board of any size from 3x3 to
//! 16x16 (`puzzle::reduce`), with a proven lower bound so that the gap to the optimum is bounded.
//!
//! The optimal search's options (tables, threads, ...) mean nothing here, and its boards stop at 25 cells, so
//! the command line is read by these options of its own when `--algorithm fast` is given.

use anyhow::anyhow;
use cli_common::heading::{INPUT, OUTPUT, TABLES};
use cli_common::{usage, Format};
use puzzle::big::{self, Position, Size};
use puzzle::reduce::{self, Method};
use puzzle::{Dir, Goal};
use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

/// `solver solve --algorithm fast`.
#[derive(clap::Parser)]
#[command(name = "solver solve", about = "A short solution of a large board, not necessarily the shortest")]
pub struct FastArgs {
    /// The position: the tiles row by row, 0 the blank (quote it); rows apart by `/` are the speedsolvers'
    /// form, written for their goal (blank last).
    #[arg(value_name = "POSITION", help_heading = INPUT)]
    pub instance: String,
    /// fast: reduction, row by row and column by column, each line's tiles placed two at a time by an exact
    /// search over their cells and the blank's, the last 3x3 solved optimally; fast-simple: the same reduction with each tile walked home
    /// along a fixed path (the simple method it is measured against).
    #[arg(long, value_name = "NAME", value_parser = ["fast", "fast-simple"], help_heading = TABLES)]
    pub algorithm: String,
    /// Board size, rows x columns, 3x3 to 16x16 [default: the rows written apart, else the square board of
    /// the tile count].
    #[arg(long, value_name = "RxC", help_heading = INPUT)]
    pub board: Option<Size>,
    /// The goal: blank-first (`0 1 2 ...`) or blank-last (`1 2 ... 0`) [default: blank-last for rows apart by
    /// `/`, else blank-first].
    #[arg(long, value_name = "GOAL", env = "STP_GOAL", help_heading = INPUT)]
    pub goal: Option<Goal>,
    /// text, or one JSON record.
    #[arg(long, value_enum, value_name = "FORMAT", default_value = "text", help_heading = OUTPUT)]
    pub format: Format,
    /// How moves are printed: tiles (the tiles slid), dirs (the blank's directions) or udlr (each tile's
    /// direction, repeats grouped and run together: `U2LD3R`).
    #[arg(long, value_name = "STYLE", default_value = "tiles", value_parser = ["tiles", "dirs", "udlr"], help_heading = OUTPUT)]
    pub moves: String,
}

/// Whether `argv` (the program's arguments, the program's name first) asks `solve` for the fast solver.
pub fn wanted(argv: &[String]) -> bool {
    let fast = |a: &str| a == "fast" || a == "fast-simple";
    argv.get(1).is_some_and(|a| a == "solve")
        && argv.iter().enumerate().any(|(i, a)| {
            a.strip_prefix("--algorithm=").is_some_and(fast)
                || (a == "--algorithm" && argv.get(i + 1).is_some_and(|n| fast(n)))
        })
}

/// What a fast solve printed.
#[derive(serde::Serialize)]
struct Record<'a> {
    board: String,
    goal: String,
    algorithm: &'a str,
    length: usize,
    mtm: usize,
    lower_bound: u32,
    gap_at_most: usize,
    seconds: f64,
    moves: String,
}

/// The solution's moves in `style`, replayed from `start` (blank directions in the user's orientation).
fn written(start: &Position, blank: &[Dir], style: &str) -> String {
    match style {
        "dirs" => blank.iter().map(|d| d.letter()).collect(),
        "udlr" => big::udlr_text(blank),
        _ => {
            let mut p = start.clone();
            let mut words = Vec::with_capacity(blank.len());
            for &d in blank {
                let to = p.size.step(p.blank(), d).expect("a replayed move");
                words.push(p.tiles[to].to_string());
                p.move_blank(d);
            }
            words.join(" ")
        }
    }
}

/// `solver solve --algorithm fast`.
pub fn run(args: &FastArgs) -> anyhow::Result<ExitCode> {
    let goal = args.goal.or_else(|| puzzle::instance::form_goal(&args.instance)).unwrap_or_default();
    let p = big::parse_position(&args.instance, args.board, goal).map_err(|e| usage(anyhow!("bad position: {e}")))?;
    if p.size.rows < 3 || p.size.cols < 3 {
        return Err(usage(anyhow!(
            "--algorithm {} solves boards of at least 3x3, not {}: solve it optimally without --algorithm",
            args.algorithm,
            p.size
        )));
    }
    let method = if args.algorithm == "fast-simple" { Method::Greedy } else { Method::Search };
    let started = Instant::now();
    let solution = reduce::solve(&p, goal, method).map_err(|e| anyhow!(e))?;
    let seconds = started.elapsed().as_secs_f64();
    // Replayed once more here, so that what is printed is what was checked.
    let mut end = p.clone();
    if !solution.blank.iter().all(|&d| end.move_blank(d)) || !end.is_goal(goal) {
        return Err(anyhow!("internal error: the fast solution does not replay to the goal; please report this"));
    }
    let length = solution.blank.len();
    let bound = p.lower_bound(goal);
    let rec = Record {
        board: p.size.to_string(),
        goal: Position::goal(p.size, goal).text(),
        algorithm: &args.algorithm,
        length,
        mtm: big::multi_tile_length(&solution.blank),
        lower_bound: bound,
        gap_at_most: length - bound as usize,
        seconds,
        moves: written(&p, &solution.blank, &args.moves),
    };
    let mut out = std::io::stdout().lock();
    match args.format {
        Format::Json => writeln!(out, "{}", serde_json::to_string(&rec)?)?,
        Format::Text => {
            let gap = match rec.gap_at_most {
                0 => "optimal, as it meets the bound".to_string(),
                g => format!("at most {g} over the optimum"),
            };
            writeln!(
                out,
                "length {} (not necessarily fewest; {} in the multi-tile metric)  lower bound {} (Manhattan \
                 distance + linear conflicts): {gap}  search {:.6} s  algorithm {}",
                rec.length, rec.mtm, rec.lower_bound, rec.seconds, rec.algorithm
            )?;
            writeln!(out, "goal {}", rec.goal)?;
            writeln!(out, "moves: {}", rec.moves)?;
        }
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    fn argv(words: &str) -> Vec<String> {
        words.split(' ').map(String::from).collect()
    }

    /// Its help reads right at 80 columns, as the other commands' (`main`'s test).
    #[test]
    fn help_keeps_the_layout_at_80_columns() {
        let cmd = <super::FastArgs as clap::CommandFactory>::command();
        assert_eq!(cli_common::help::faults(&cmd), Vec::<String>::new());
    }

    #[test]
    fn the_fast_solver_is_asked_for_by_solve_only() {
        assert!(super::wanted(&argv("solver solve --algorithm fast --board 10x10 x")));
        assert!(super::wanted(&argv("solver solve x --algorithm=fast-simple")));
        // The generic library's greedy best-first stays the optimal commands'.
        assert!(!super::wanted(&argv("solver solve --algorithm greedy x")));
        assert!(!super::wanted(&argv("solver solve --algorithm ida x")));
        assert!(!super::wanted(&argv("solver batch --algorithm fast x")));
    }
}
