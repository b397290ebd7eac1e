//! `solver generate`: reproducible random instances, uniformly random solvable positions or random walks
//! from the goal (drawn as the web app draws them, by `adapters::tiles::draw`).

use clap::Args;
use puzzle::big::{Position, Size};
use puzzle::Goal;
use search::rng::SplitMix64;
use std::io::Write;

#[derive(Args)]
#[command(after_long_help = "Examples:
  # uniformly random solvable 15-puzzles
  solver generate --count 1000 --seed 7 > random.txt
  # random walks of 40 moves from the goal
  solver generate --count 100 --seed 7 --walk 40 --board 3x3")]
pub struct GenerateArgs {
    /// How many instances.
    #[arg(long, short = 'n', value_name = "N", default_value_t = 1)]
    pub count: u64,
    /// Seed of the random generator: the same seed gives the same instances, on every machine and version.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub seed: u64,
    /// Random walks of this many moves from the goal (easy instances of bounded length) instead of
    /// uniformly random positions.
    #[arg(long, value_name = "MOVES")]
    pub walk: Option<u32>,
    /// Board size, rows x columns, 2x2 to 16x16 (boards past 25 cells are for `solve --algorithm fast` and
    /// `check`).
    #[arg(long, value_name = "RxC", default_value = "4x4")]
    pub board: Size,
    /// The goal the positions are written for (and walks start from): blank-first (`0 1 2 ...`, Korf's) or
    /// blank-last (`1 2 ... 0`); the same seed gives the same positions in either's labels.
    #[arg(long, value_name = "GOAL", env = "STP_GOAL", default_value = "blank-first")]
    pub goal: Goal,
}

/// `solver generate`: a first comment line recording the command, then one position a line (bare tiles, in
/// `--goal`'s labels). The comment comes first so that the output's last line is a position
/// (`solver generate | tail -1`); instance k is then line k + 1, its id in `solver batch`.
pub fn run(args: &GenerateArgs) -> anyhow::Result<()> {
    let mut rng = SplitMix64::new(args.seed);
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let walk = args.walk.map(|w| format!(" --walk {w}")).unwrap_or_default();
    writeln!(
        out,
        "# solver generate --count {} --seed {}{walk} --board {} --goal {}",
        args.count,
        args.seed,
        args.board,
        args.goal.name()
    )?;
    for _ in 0..args.count {
        // The boards of the optimal search are drawn as the web app draws them; larger ones alike, here.
        let words: Vec<String> = match args.board.board() {
            Some(board) => {
                adapters::tiles::draw(board, args.walk, args.goal, &mut rng).iter().map(u8::to_string).collect()
            }
            None => {
                let p = match args.walk {
                    Some(steps) => Position::random_walk(args.board, args.goal, steps, &mut rng),
                    None => Position::random(args.board, args.goal, &mut rng),
                };
                p.tiles.iter().map(u16::to_string).collect()
            }
        };
        writeln!(out, "{}", words.join(" "))?;
    }
    out.flush()?;
    Ok(())
}
