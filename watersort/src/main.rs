//! `watersort`: solve and generate water sort levels from the command line. A thin shell over the
//! library: it parses arguments, reads input, prints results, and maps failures to exit codes once
//! (0 every level solved, 1 unsolvable / stopped / internal failure, 2 bad input or usage).

use anyhow::Context;
use clap::{Args, Parser, Subcommand, ValueEnum};
use std::io::{IsTerminal, Read};
use std::process::ExitCode;
use std::time::Duration;
use watersort::generate::{generate, Spec};
use watersort::{
    is_json, parse_json, parse_levels, render, solve, Algorithm, Heuristic, Level, Limits, Model, Options, Outcome,
    Pruning, Rule, Solution, Tubes,
};

const EXAMPLES: &str = "\
Examples:
  watersort solve 'demo: abab baba - -'
  watersort solve levels.txt --format json
  watersort solve level.json --show
  watersort generate --colors 12 --empty 2 --count 1000 --seed 1 > game.txt
  watersort solve game.txt --algorithm greedy
  echo 'x: aab abb - ' | watersort solve - --capacity 3 --rule one-unit

Level text: one level a line, `name: tube tube ...`, each tube its colours bottom to top as letters
(case-sensitive), `-` an empty tube, `#` a comment. JSON: an array of tubes, each an array of colour
names bottom to top; \"Empty\" entries or [] are space.
Exit codes: 0 all solved, 1 unsolvable or stopped by a limit, 2 bad input or usage.";

#[derive(Parser)]
#[command(name = "watersort", version, about = "Solves water sort levels in the fewest pours", after_help = EXAMPLES)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Solve levels: a level given inline, a file of level lines or a JSON level, or `-` for stdin.
    Solve(SolveArgs),
    /// Write random solvable levels as level lines, reproducible from the seed.
    Generate(GenerateArgs),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum AlgorithmArg {
    /// A* with the heuristic: fewest pours.
    Astar,
    /// Breadth-first: fewest pours, no heuristic.
    Bfs,
    /// Iterative-deepening A*: fewest pours in little memory, slow on levels with many transpositions.
    Ida,
    /// Greedy best-first: some solution fast, not the fewest pours.
    Greedy,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Format {
    Text,
    Json,
}

/// Options that change the puzzle or the search.
#[derive(Args)]
struct ModelArgs {
    /// Tube capacity, in units.
    #[arg(long, default_value_t = 4)]
    capacity: usize,
    /// Pour rule: standard (as much of the top run as fits), whole-run (only if the whole run fits),
    /// one-unit (ball sort).
    #[arg(long, value_enum, default_value = "standard")]
    rule: Rule,
}

#[derive(Args)]
struct SolveArgs {
    /// A level line (`name: ab ba -`), a file (level lines, or one JSON level), or `-` for stdin.
    input: String,
    #[command(flatten)]
    model: ModelArgs,
    #[arg(long, value_enum, default_value = "astar")]
    algorithm: AlgorithmArg,
    /// Estimate of the pours left. Admissible (fewest pours with astar and ida): bottoms (the strongest,
    /// default), runs, boundaries, zero. For greedy only: guide (its default).
    #[arg(long, value_enum)]
    heuristic: Option<Heuristic>,
    /// Do not skip pours out of a finished tube (for measurement).
    #[arg(long)]
    no_prune_finished: bool,
    /// Do not skip pouring a one-colour tube whole into an empty tube (for measurement).
    #[arg(long)]
    no_prune_pure_to_empty: bool,
    /// Do not treat tube order as a symmetry (for measurement).
    #[arg(long)]
    no_symmetry: bool,
    /// Give up after this many seconds (a level).
    #[arg(long)]
    time_limit: Option<f64>,
    /// Give up after expanding this many states (a level).
    #[arg(long)]
    node_limit: Option<u64>,
    /// Give up when stored states would take more than this, e.g. 4G, 500M, or bytes.
    #[arg(long, value_parser = parse_bytes)]
    memory_limit: Option<u64>,
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    /// Draw the tubes after every pour (in colour when stdout is a terminal).
    #[arg(long)]
    show: bool,
}

#[derive(Args)]
struct GenerateArgs {
    /// Colours (one full tube each), at most 52.
    #[arg(long)]
    colors: usize,
    /// Empty tubes.
    #[arg(long, default_value_t = 2)]
    empty: usize,
    #[command(flatten)]
    model: ModelArgs,
    /// Levels to write.
    #[arg(long, default_value_t = 1)]
    count: usize,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Draws tried for one level before giving up.
    #[arg(long, default_value_t = 1000)]
    attempts: usize,
}

/// A failure and the exit code it maps to.
enum Failure {
    /// The user's input or usage: exit 2.
    Input(anyhow::Error),
    /// Anything else: exit 1.
    Other(anyhow::Error),
}

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(code) => code,
        Err(Failure::Input(e)) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
        Err(Failure::Other(e)) => {
            eprintln!("error: {e:#}");
            ExitCode::from(1)
        }
    }
}

fn run(cli: Cli) -> Result<ExitCode, Failure> {
    match cli.command {
        Command::Solve(args) => solve_command(&args),
        Command::Generate(args) => generate_command(&args),
    }
}

fn parse_bytes(s: &str) -> Result<u64, String> {
    let s = s.trim();
    let (digits, scale) = match s.char_indices().last() {
        Some((i, 'K' | 'k')) => (&s[..i], 1u64 << 10),
        Some((i, 'M' | 'm')) => (&s[..i], 1 << 20),
        Some((i, 'G' | 'g')) => (&s[..i], 1 << 30),
        _ => (s, 1),
    };
    let n: f64 = digits.parse().map_err(|_| format!("{s:?} is not a size such as 4G, 500M or 1000000"))?;
    Ok((n * scale as f64) as u64)
}

fn options(args: &SolveArgs) -> Result<Options, Failure> {
    let time = match args.time_limit {
        Some(t) if !(t.is_finite() && t >= 0.0) => {
            return Err(Failure::Input(anyhow::anyhow!("--time-limit must be a number of seconds ≥ 0")))
        }
        t => t.map(Duration::from_secs_f64),
    };
    let heuristic = match (args.heuristic, args.algorithm) {
        (Some(h), AlgorithmArg::Astar | AlgorithmArg::Ida) if !h.admissible() => {
            return Err(Failure::Input(anyhow::anyhow!("--heuristic {h:?} is for --algorithm greedy only")))
        }
        (Some(h), _) => h,
        (None, AlgorithmArg::Greedy) => Heuristic::Guide,
        (None, _) => Heuristic::Bottoms,
    };
    Ok(Options {
        algorithm: match args.algorithm {
            AlgorithmArg::Astar => Algorithm::Astar,
            AlgorithmArg::Bfs => Algorithm::Bfs,
            AlgorithmArg::Ida => Algorithm::Ida,
            AlgorithmArg::Greedy => Algorithm::Greedy,
        },
        model: Model {
            rule: args.model.rule,
            heuristic,
            pruning: Pruning { finished: !args.no_prune_finished, pure_to_empty: !args.no_prune_pure_to_empty },
            no_symmetry: args.no_symmetry,
        },
        limits: Limits { nodes: args.node_limit, time, memory: args.memory_limit, cancel: None },
    })
}

/// The levels named by `input`, one result a level (a bad one does not stop the rest).
fn read_levels(input: &str, capacity: usize) -> Result<Vec<Result<Level, watersort::LevelError>>, Failure> {
    let (text, name) = if input == "-" {
        let mut text = String::new();
        std::io::stdin().read_to_string(&mut text).context("reading stdin").map_err(Failure::Input)?;
        (text, "stdin".to_string())
    } else if std::path::Path::new(input).is_file() {
        let text =
            std::fs::read_to_string(input).with_context(|| format!("reading {input}")).map_err(Failure::Input)?;
        let stem = std::path::Path::new(input).file_stem().map(|s| s.to_string_lossy().into_owned());
        (text, stem.unwrap_or_else(|| input.to_string()))
    } else {
        (input.to_string(), "level".to_string())
    };
    Ok(if is_json(&text) { vec![parse_json(&text, &name, capacity)] } else { parse_levels(&text, capacity) })
}

fn solve_command(args: &SolveArgs) -> Result<ExitCode, Failure> {
    let options = options(args)?;
    let levels = read_levels(&args.input, args.model.capacity)?;
    if levels.is_empty() {
        return Err(Failure::Input(anyhow::anyhow!("no level in the input")));
    }
    let mut worst = 0u8;
    for level in levels {
        let level = match level {
            Ok(level) => level,
            Err(e) => {
                eprintln!("error: {e}");
                worst = 2;
                continue;
            }
        };
        let solution = solve(&level, &options).map_err(|e| Failure::Other(e.into()))?;
        print_solution(&level, &solution, args);
        if !matches!(solution.outcome, Outcome::Solved(_)) {
            worst = worst.max(1);
        }
    }
    Ok(ExitCode::from(worst))
}

fn print_solution(level: &Level, solution: &Solution, args: &SolveArgs) {
    let stats = &solution.stats;
    let optimal = args.algorithm != AlgorithmArg::Greedy;
    match args.format {
        Format::Json => {
            let (outcome, pours) = match &solution.outcome {
                Outcome::Solved(p) => ("solved", Some(p.iter().map(|p| [p.from + 1, p.to + 1]).collect::<Vec<_>>())),
                Outcome::Unsolvable => ("unsolvable", None),
                Outcome::Stopped(_) => ("stopped", None),
            };
            let stop = match &solution.outcome {
                Outcome::Stopped(s) => Some(format!("{s:?}")),
                _ => None,
            };
            let record = serde_json::json!({
                "name": level.name(),
                "outcome": outcome,
                "length": pours.as_ref().map(Vec::len),
                "optimal": optimal && pours.is_some(),
                "pours": pours,
                "stop": stop,
                "expanded": stats.expanded,
                "generated": stats.generated,
                "peak_stored": stats.peak_stored,
                "seconds": stats.seconds,
            });
            println!("{record}");
        }
        Format::Text => {
            let work = format!("{} nodes, {:.4} s", stats.expanded, stats.seconds);
            match &solution.outcome {
                Outcome::Solved(pours) => {
                    let kind = if optimal { "optimal" } else { "greedy, not necessarily fewest" };
                    println!("{}: {} pours ({kind}), {work}", level.name(), pours.len());
                    let list: Vec<String> = pours.iter().map(ToString::to_string).collect();
                    println!("{}", list.join(", "));
                }
                Outcome::Unsolvable => {
                    println!("{}: unsolvable, proved by examining {} states, {work}", level.name(), stats.expanded)
                }
                Outcome::Stopped(why) => println!("{}: stopped ({why:?}) after {work}", level.name()),
            }
        }
    }
    if let (true, Outcome::Solved(pours)) = (args.show, &solution.outcome) {
        show(level, pours, args.model.rule);
    }
}

/// Draws the start and the tubes after each pour.
fn show(level: &Level, pours: &[watersort::Pour], rule: Rule) {
    let colour = std::io::stdout().is_terminal();
    let letters = level.letters();
    let mut tubes = Tubes::new(level);
    println!("start\n{}", render::draw(&tubes, &letters, colour));
    for (i, &pour) in pours.iter().enumerate() {
        // `solve` replayed these pours already; a failure here cannot happen and would only end the drawing.
        if tubes.pour(pour, rule).is_err() {
            return;
        }
        println!("pour {}: {pour}\n{}", i + 1, render::draw(&tubes, &letters, colour));
    }
}

fn generate_command(args: &GenerateArgs) -> Result<ExitCode, Failure> {
    let spec = Spec {
        colours: args.colors,
        empty: args.empty,
        capacity: args.model.capacity,
        count: args.count,
        seed: args.seed,
        attempts: args.attempts,
    };
    let options = Options { model: Model { rule: args.model.rule, ..Model::default() }, ..Options::default() };
    let levels = generate(&spec, &options).map_err(|e| Failure::Input(e.into()))?;
    for level in levels {
        println!("{}", level.to_line());
    }
    Ok(ExitCode::SUCCESS)
}
