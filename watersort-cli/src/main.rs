//! `watersort`: solve, batch-solve and generate water sort levels from the command line. A thin shell over
//! the library; errors and exit codes go through `cli_common` like every tool's (0 every level solved, 1
//! unsolvable or an internal failure, 2 bad input or usage, 3 stopped by a limit).

mod hint;
mod mystery;
mod render;

use adapters::water::{record, Levels};
use anyhow::Context;
use batch::{LimitArgs, Source, Task, Verdict};
use clap::{Args, Parser, Subcommand};
use cli_common::text::count;
use cli_common::{log, named, usage, Format};
use search::Algorithm;
use std::io::{IsTerminal, Read, Write};
use std::process::ExitCode;
use watersort::generate::{generate_each, Spec, Tally};
use watersort::reverse;
use watersort::{parse_input, solve, Heuristic, Level, Model, Named, Options, Outcome, Pruning, Rule, Solution, Tubes};

const EXAMPLES: &str = "\
Examples:
  watersort solve 'demo: abab baba - -'
  watersort solve levels.txt --format json
  watersort solve level.json --show
  watersort generate --colors 12 --empty 2 --count 1000 --seed 1 > game.txt
  # some solution fast, not necessarily the fewest pours
  watersort solve game.txt --algorithm dfs
  # one record a level, resumable (--resume), shardable
  watersort batch game.txt -o game.jsonl
  watersort report game.jsonl
  echo 'x: aab abb - ' | watersort solve - --capacity 3 --rule one-unit
  # big levels, solvable by construction
  watersort generate --method reverse --colors 50 --count 10 > big.txt
  # from a stuck position: pours left, the next, the dead ends
  watersort hint 'w: ab cd ca db -' --capacity 2 --history '1>5'
  # hidden units: the pours up to the first reveal; play asks for each
  watersort solve 'm: ??a ?bb ?ab -' --capacity 3
  watersort play 'm: ??a ?bb ?ab -' --capacity 3

Level text: one level a line, `name: tube tube ...`, each tube its colours
bottom to top as letters (case-sensitive), `-` an empty tube, `?` a hidden
unit (never a tube's top), `#` a comment.
JSON: an array of tubes, each an array of colour names bottom to top; \"Empty\"
entries or [] are space. Pours print as `3 -> 14` (tubes numbered from 1);
records (--format json, batch) list them in their `moves` field as `3->14`, and
their `length` is the number of pours.";

#[derive(Parser)]
#[command(name = "watersort", version, about = "Solves water sort levels in the fewest pours", after_help = format!("{EXAMPLES}\n\n{}\n\n{}", cli_common::NODES_HELP, cli_common::EXIT_STATUS_HELP))]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Solve levels: a level given inline, a file of level lines or a JSON level, or `-` for stdin.
    Solve(SolveArgs),
    /// Solve a file of level lines, writing one record (JSON lines or CSV) a level as it finishes;
    /// resumable, interruptible, shardable (the same machinery as `solver batch`).
    Batch(LevelsBatchArgs),
    /// Merge record files of `batch` (e.g. its shards) and print their summary, or compare runs (two or
    /// more, each against the first).
    Report(batch::report::ReportArgs),
    /// Write random solvable levels as level lines, reproducible from the seed (draws are checked on
    /// every core; the levels do not depend on how many). Each level is written as soon as it and every
    /// draw before it are decided, so a stopped run keeps them; progress goes to stderr, and at the end a
    /// line with the draws checked.
    Generate(GenerateArgs),
    /// Help from a position: whether it can still be sorted, the fewest pours left and the next pour,
    /// which pours lead to a dead end, and (given the pours that led there) how far back it went wrong.
    Hint(hint::HintArgs),
    /// Play a level with hidden units (`?`) as the game shows it: the pours up to each reveal, then the
    /// colour the game uncovered, asked on stdin, then the next pours, until it is sorted.
    Play(mystery::PlayArgs),
}

/// Options that change the puzzle or the search.
#[derive(Args)]
pub(crate) struct ModelArgs {
    /// Tube capacity, in units (at least 1).
    #[arg(long, default_value_t = 4, value_parser = parse_capacity)]
    pub(crate) capacity: usize,
    /// Pour rule: standard (as much of the top run as fits), whole-run (only if the whole run fits),
    /// one-unit (ball sort).
    #[arg(long, value_parser = named(Rule::ALL), default_value = "standard")]
    pub(crate) rule: Rule,
}

/// How levels are searched: shared by `solve` and `batch`.
#[derive(Args)]
struct SearchArgs {
    #[command(flatten)]
    model: ModelArgs,
    #[arg(long, value_parser = named(Levels::ALGORITHMS), default_value = "astar")]
    algorithm: Algorithm,
    /// Estimate of the pours left. Admissible (fewest pours with astar and ida): bottoms (the strongest,
    /// default), runs, boundaries, zero. For greedy and dfs only: guide (their default).
    #[arg(long, value_parser = named(Levels::HEURISTICS))]
    heuristic: Option<Heuristic>,
    /// Do not skip pours out of a finished tube (for measurement).
    #[arg(long)]
    no_prune_finished: bool,
    /// Do not skip pouring a one-colour tube whole into an empty tube (for measurement).
    #[arg(long)]
    no_prune_pure_to_empty: bool,
    /// Do not reduce a position with a forced pour (one that completes a colour's only tube) to that
    /// pour alone (for measurement).
    #[arg(long)]
    no_prune_forced: bool,
    /// Do not treat tube order as a symmetry (for measurement).
    #[arg(long)]
    no_symmetry: bool,
}

#[derive(Args)]
struct SolveArgs {
    /// A level line (`name: ab ba -`), a file (level lines, or one JSON level), or `-` for stdin.
    input: String,
    #[command(flatten)]
    search: SearchArgs,
    #[command(flatten)]
    limits: LimitArgs,
    /// text, or one JSON record a level (the fields of `batch` records).
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    /// Draw the tubes after every pour (in colour when stdout is a terminal).
    #[arg(long)]
    show: bool,
}

#[derive(Args)]
struct LevelsBatchArgs {
    #[command(flatten)]
    batch: batch::BatchArgs,
    #[command(flatten)]
    search: SearchArgs,
    /// Levels searched side by side, one a thread, 1 to 256 [default: all cores].
    #[arg(long, short = 'j', value_name = "N", value_parser = cli_common::parse_threads)]
    threads: Option<usize>,
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
    /// Draws (uniform) or walks (reverse) tried for one level before giving up.
    #[arg(long, default_value_t = 1000)]
    attempts: usize,
    /// uniform: shuffles of full tubes, each kept only when the solver proves it solvable (the fair draw;
    /// past about 30 colours with 2 empty tubes almost none is). reverse: random walks of legal pours
    /// played backwards from the sorted position, solvable by construction at any size, as many games
    /// make theirs; they keep more units of a colour side by side than shuffles do.
    #[arg(long, value_enum, default_value = "uniform")]
    method: Method,
    /// Reverse only: un-pours in a walk before it finishes into full and empty tubes [default: ten a
    /// unit].
    #[arg(long, value_name = "N")]
    steps: Option<usize>,
}

/// How `generate` makes levels.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Method {
    Uniform,
    Reverse,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    cli_common::main("watersort", || match cli.command {
        Command::Solve(args) => solve_command(&args),
        Command::Batch(args) => batch_command(&args),
        Command::Report(args) => batch::report::run(batch::report::Tool { name: "watersort", steps: "pours" }, &args),
        Command::Generate(args) => generate_command(&args),
        Command::Hint(args) => hint::run(&args),
        Command::Play(args) => mystery::play(&args),
    })
}

/// The search options, checked: an inadmissible heuristic is refused for the optimal algorithms.
fn options(args: &SearchArgs, limits: search::Limits) -> anyhow::Result<Options> {
    let heuristic = match (args.heuristic, args.algorithm) {
        (Some(h), a) if a.optimal() && !h.admissible() => {
            return Err(usage(anyhow::anyhow!("--heuristic {} is for --algorithm greedy or dfs only", h.name())))
        }
        (Some(h), a) => {
            if !a.informed() {
                log(&format!(
                    "watersort: note: {} consults no heuristic; --heuristic {} is ignored",
                    a.name(),
                    h.name()
                ));
            }
            h
        }
        (None, a) if !a.optimal() => Heuristic::Guide,
        (None, _) => Heuristic::Bottoms,
    };
    Ok(Options {
        algorithm: args.algorithm,
        model: Model {
            rule: args.model.rule,
            heuristic,
            pruning: Pruning {
                finished: !args.no_prune_finished,
                pure_to_empty: !args.no_prune_pure_to_empty,
                forced: !args.no_prune_forced,
            },
            no_symmetry: args.no_symmetry,
        },
        limits,
    })
}

/// `1 pour`, `3 pours`.
pub(crate) fn pours_word(n: usize) -> String {
    format!("{n} pour{}", if n == 1 { "" } else { "s" })
}

/// `--capacity`: checked once, as options are read, for every subcommand.
fn parse_capacity(s: &str) -> Result<usize, String> {
    match s.parse::<usize>() {
        Ok(c) if c >= 1 => Ok(c),
        _ => Err(format!("'{s}' is not a capacity (a whole number of units, at least 1)")),
    }
}

/// The levels named by `input`, one result a level (a bad one does not stop the rest).
pub(crate) fn read_levels(input: &str, capacity: usize) -> anyhow::Result<Vec<Result<Level, watersort::LevelError>>> {
    let (text, name) = read_input(input)?;
    Ok(parse_input(&text, &name, capacity))
}

/// The text `input` names (a level itself, a file, or `-` for stdin) and the name a JSON level gets.
pub(crate) fn read_input(input: &str) -> anyhow::Result<(String, String)> {
    // Levels are read whole: a cap keeps an endless input (`- < /dev/zero`) from taking all memory.
    const MAX_INPUT: u64 = 64 << 20;
    let read_capped = |from: &mut dyn Read, what: &str| -> anyhow::Result<String> {
        let mut bytes = Vec::new();
        from.take(MAX_INPUT + 1).read_to_end(&mut bytes).with_context(|| format!("reading {what}")).map_err(usage)?;
        if bytes.len() as u64 > MAX_INPUT {
            return Err(usage(anyhow::anyhow!(
                "{what} is over {}: no level input is that long (use `watersort batch` for many levels)",
                cli_common::units::human_bytes(MAX_INPUT)
            )));
        }
        String::from_utf8(bytes).map_err(|_| usage(anyhow::anyhow!("{what} is not UTF-8 text")))
    };
    let (text, name) = if input == "-" {
        (read_capped(&mut std::io::stdin().lock(), "stdin")?, "stdin".to_string())
    } else if std::path::Path::new(input).is_dir() {
        return Err(usage(anyhow::anyhow!("{input} is a folder, not a file of levels")));
    } else if std::path::Path::new(input).exists() {
        // A file of levels, or a device or pipe that gives them (`/dev/stdin`, `<(...)`).
        let mut file = std::fs::File::open(input).with_context(|| format!("reading {input}")).map_err(usage)?;
        let text = read_capped(&mut file, input)?;
        let stem = std::path::Path::new(input).file_stem().map(|s| s.to_string_lossy().into_owned());
        (text, stem.unwrap_or_else(|| input.to_string()))
    } else if !input.trim().contains(char::is_whitespace) && !input.trim_start().starts_with('[') {
        // A level has at least two tubes, separated by spaces (or is JSON): a single word names a file.
        return Err(usage(anyhow::anyhow!(
            "no file {input} (a level on the command line is its tubes separated by spaces, e.g. 'ab ba -')"
        )));
    } else {
        (input.to_string(), "level".to_string())
    };
    Ok((text, name))
}

fn solve_command(args: &SolveArgs) -> anyhow::Result<ExitCode> {
    let options = options(&args.search, args.limits.limits(None))?;
    let (text, name) = read_input(&args.input)?;
    if watersort::mystery::has_hidden(&text) {
        return mystery::solve(&text, &name, args.search.model.capacity, &options, args.format);
    }
    let capacity = args.search.model.capacity;
    let levels = parse_input(&text, &name, capacity);
    if levels.is_empty() {
        return Err(usage(anyhow::anyhow!("no level in the input")));
    }
    // The worst outcome decides the exit code: a bad level (the user's), then an unsolvable one, then a limit.
    let mut worst = Verdict::Solved;
    for (n, level) in levels.into_iter().enumerate() {
        let level = match level {
            Ok(level) => level,
            Err(e) => {
                invalid(&e, n, args.format)?;
                worst = Verdict::Invalid;
                continue;
            }
        };
        let solution = solve(&level, &options)?;
        let verdict = print_solution(&level, n as u64 + 1, &solution, &options, args)?;
        worst = worst.max(verdict);
    }
    Ok(ExitCode::from(worst.exit_code()))
}

/// Answers a bad level: an error line on stderr and, in JSON, the `invalid` record a batch would write,
/// so that no line goes unanswered. `n` counts levels from 0.
pub(crate) fn invalid(e: &watersort::LevelError, n: usize, format: Format) -> anyhow::Result<()> {
    if format == Format::Json {
        let line = e.line.unwrap_or(n + 1) as u64;
        let id = format!("line {line}");
        let src = Source { id: &id, line, text: "", expected: None };
        let rec = Levels::invalid_record(&src, e.problem.to_string());
        println!("{}", serde_json::to_string(&rec)?);
    }
    log(&format!("watersort: error: {e}"));
    Ok(())
}

fn batch_command(args: &LevelsBatchArgs) -> anyhow::Result<ExitCode> {
    let threads = args.threads.unwrap_or_else(search::cores);
    let task = Levels {
        capacity: args.search.model.capacity,
        options: options(&args.search, search::Limits::default())?,
        threads,
    };
    batch::run(&args.batch, &task)
}

fn print_solution(
    level: &Level,
    n: u64,
    solution: &Solution,
    options: &Options,
    args: &SolveArgs,
) -> anyhow::Result<Verdict> {
    let stats = &solution.stats;
    let optimal = args.search.algorithm.optimal();
    let text = level.to_line();
    let src = Source { id: level.name(), line: n, text: &text, expected: None };
    let rec = record(&src, options, solution);
    let mut out = std::io::stdout().lock();
    match args.format {
        Format::Json => writeln!(out, "{}", serde_json::to_string(&rec)?)?,
        Format::Text => {
            // Nodes as `solver` and every record count them (see `cli_common::NODES_HELP`).
            let work =
                format!("nodes {} generated, {} expanded, {:.4} s", stats.generated, stats.expanded, stats.seconds);
            match &solution.outcome {
                Outcome::Solved(pours) => {
                    let kind = if optimal { "optimal" } else { "not necessarily fewest" };
                    writeln!(out, "{}: {} ({kind}), {work}", level.name(), pours_word(pours.len()))?;
                    let list: Vec<String> = pours.iter().map(ToString::to_string).collect();
                    writeln!(out, "{}", list.join(", "))?;
                }
                Outcome::Unsolvable => {
                    writeln!(out, "{}: unsolvable, proved by examining every reachable state, {work}", level.name())?
                }
                Outcome::Stopped(why) => writeln!(out, "{}: stopped ({why}), {work}", level.name())?,
            }
        }
    }
    if let (true, Outcome::Solved(pours)) = (args.show, &solution.outcome) {
        show(&mut out, level, pours, args.search.model.rule)?;
    }
    Ok(Verdict::of(&rec))
}

/// Draws the start and the tubes after each pour.
fn show(out: &mut impl Write, level: &Level, pours: &[watersort::Pour], rule: Rule) -> std::io::Result<()> {
    let colour = std::io::stdout().is_terminal();
    let letters = level.letters();
    let mut tubes = Tubes::new(level);
    writeln!(out, "start\n{}", render::draw(&tubes, &letters, colour))?;
    for (i, &pour) in pours.iter().enumerate() {
        // `solve` replayed these pours already; a failure here cannot happen and would only end the drawing.
        if tubes.pour(pour, rule).is_err() {
            break;
        }
        writeln!(out, "pour {}: {pour}\n{}", i + 1, render::draw(&tubes, &letters, colour))?;
    }
    Ok(())
}

fn generate_command(args: &GenerateArgs) -> anyhow::Result<ExitCode> {
    let spec = Spec {
        colours: args.colors,
        empty: args.empty,
        capacity: args.model.capacity,
        count: args.count,
        seed: args.seed,
        attempts: args.attempts,
    };
    let options = Options { model: Model { rule: args.model.rule, ..Model::default() }, ..Options::default() };
    // Draws are checked on every core; the levels are the same whatever the number. Each level is written
    // (and flushed) as soon as the draws before it are decided, so a stopped run keeps what it found.
    let threads = search::cores();
    let started = std::time::Instant::now();
    let bar = indicatif::ProgressBar::new(spec.count as u64);
    bar.set_style(cli_common::bar_style());
    let mut out = std::io::stdout().lock();
    let mut written: std::io::Result<()> = Ok(());
    let mut last_line = started;
    let mut keep = |tally: Tally, level: Option<Level>| {
        if let Some(level) = level {
            // The bar is drawn on stderr: hidden while the line goes out, so a terminal shows both cleanly.
            written = bar.suspend(|| writeln!(out, "{}", level.to_line()).and_then(|()| out.flush()));
        }
        bar.set_position(tally.levels as u64);
        bar.set_message(format!("{} checked", count(tally.draws as u64, "draw")));
        // Without a terminal (a log file, a batch system) a line a minute instead of the bar.
        if bar.is_hidden() && last_line.elapsed().as_secs() >= 60 {
            last_line = std::time::Instant::now();
            let (levels, draws) = (count(tally.levels as u64, "level"), count(tally.draws as u64, "draw"));
            log(&format!("watersort generate: {levels} from {draws} so far"));
        }
        if written.is_ok() {
            std::ops::ControlFlow::Continue(())
        } else {
            std::ops::ControlFlow::Break(())
        }
    };
    if args.steps.is_some() && args.method == Method::Uniform {
        return Err(usage(anyhow::anyhow!("--steps is for --method reverse (uniform draws take no walk)")));
    }
    let tally = match args.method {
        Method::Uniform => generate_each(&spec, &options, threads, &mut keep),
        Method::Reverse => {
            let steps = args.steps.unwrap_or_else(|| reverse::default_steps(&spec));
            reverse::reverse_each(&spec, args.model.rule, steps, &mut keep)
        }
    };
    bar.finish_and_clear();
    written.context("writing levels to stdout")?;
    let tally = tally.map_err(usage)?;
    log(&format!(
        "watersort generate: {} from {} in {:.1} s",
        count(tally.levels as u64, "level"),
        count(tally.draws as u64, if args.method == Method::Reverse { "walk" } else { "draw" }),
        started.elapsed().as_secs_f64()
    ));
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    /// Every command's help reads right in an 80-column terminal: no line clap would break without an
    /// indent, and examples as commands with `#` comments above them.
    #[test]
    fn help_keeps_the_layout_at_80_columns() {
        assert_eq!(cli_common::help::faults(&<super::Cli as clap::CommandFactory>::command()), Vec::<String>::new());
    }
}
