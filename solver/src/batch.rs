//! `solver batch`: the shared batch runner (`batch` crate) with sliding tiles as its puzzle.

use crate::algorithm::{self, Algorithm, Follow};
use crate::args::SearchArgs;
use crate::output::{user_tiles, MoveStyle, Recorder};
use batch::{Attempt, Line, Record, Resume, Source, Task};
use puzzle::State;
use std::process::ExitCode;
use std::sync::Arc;

#[derive(clap::Args)]
#[command(after_long_help = "Examples:
  solver batch tests/data/korf100.txt -o results/korf100.jsonl
  solver batch FILE -o out.jsonl --resume              # after a kill, crash or Ctrl-C: only what is missing
  solver batch FILE -o out.csv --time-limit 60 --node-limit 100000000
  solver batch FILE -o shard-$I.jsonl --shard $I/4     # on 4 machines; merge with: solver report shard-*.jsonl")]
pub struct TilesBatchArgs {
    #[command(flatten)]
    pub batch: batch::BatchArgs,
    #[command(flatten)]
    pub search: SearchArgs,
}

/// Sliding tiles as a batch's puzzle.
struct Tiles<'a> {
    args: &'a SearchArgs,
    recorder: Recorder<'a>,
}

impl Task for Tiles<'_> {
    type Instance = State;

    fn name(&self) -> &str {
        "solver"
    }

    fn parse(&self, line: &str) -> Option<Line<State>> {
        let (board, goal) = (self.args.board, self.args.goal);
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
                    parsed: Err(e.to_string()),
                })
            }
        }
    }

    fn invalid(&self, src: &Source, problem: String) -> Record {
        self.recorder.invalid(src, problem)
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
        let searched = algorithm::solve(self.recorder.solver, self.args.algorithm, state, threads, limits, follow)?;
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
        (self.args.algorithm == Algorithm::Ida)
            .then(|| format!("ida; {}{tables}; automaton {}", solver.name(), solver.automaton()))
    }

    fn threads(&self) -> usize {
        self.recorder.solver.threads()
    }

    fn parallel_search(&self) -> bool {
        self.args.algorithm == Algorithm::Ida
    }

    fn no_valid_hint(&self) -> String {
        format!("is --board {} right?", self.args.board)
    }
}

/// `solver batch`: see `batch::run` for the exit codes.
pub fn run(args: &TilesBatchArgs) -> anyhow::Result<ExitCode> {
    let solver = args.search.solver()?;
    let tiles = Tiles { args: &args.search, recorder: Recorder::new(&solver, args.search.goal, MoveStyle::Tiles) };
    batch::run(&args.batch, &tiles)
}
