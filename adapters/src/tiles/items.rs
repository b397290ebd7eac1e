//! One IDA* iteration of one position spread over machines: the items file `solver split` writes (a header
//! line, then one work item a line), the batch task `solver work` runs over it (each item's subtree
//! searched at the bound, one record an item, resumable and shardable like any batch), and what `solver
//! merge` makes of the records.
//!
//! The file is plain text a person can read and a job script can split: the header is a `#` comment line
//! carrying JSON, so that a batch reads past it; each item line is one JSON object with everything a worker
//! needs (the position, the bound and the moves to its subtree).

use super::record::{internal_moves, user_moves, MoveStyle, Recorder};
use super::settings;
use batch::{stop_text, Attempt, Line, Record, Resume, Source, Status, Task};
use engine::split::{Divided, Split};
use puzzle::{Board, Goal, State};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// How the header line of an items file starts.
pub const HEADER: &str = "# split ";

/// What an items file says of its iteration: the position, the bound, how it was cut, and the settings its
/// workers must search with.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Header {
    /// The position, in the labels of `goal`.
    pub instance: String,
    /// Its board.
    pub board: String,
    /// The goal its labels are written for.
    pub goal: String,
    /// The iteration's bound.
    pub bound: u32,
    /// The items in the file.
    pub items: usize,
    /// Nodes the cut itself generated and expanded (the items' records hold the rest of the iteration's).
    pub nodes: u64,
    /// Expanded nodes of the cut.
    pub expanded: u64,
    /// The smallest f-value above the bound among the nodes the cut pruned.
    pub next: Option<u32>,
    /// A solution the cut found above the items' depth (the iteration then has no items), in the user's
    /// labels.
    pub solved: Option<String>,
    /// The settings every record of the iteration must have (see [`batch::Task::settings`]).
    pub settings: String,
    /// The shards the items were planned for (each item names its own), if planned; else `--shard I/N`
    /// deals item k to shard k mod N.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shards: Option<usize>,
    /// xxh3-64 (hex) of the item lines that follow the header, each with its line break: an item edited,
    /// dropped or added by hand no longer matches, and `work` and `merge` refuse the file.
    #[serde(default)]
    pub checksum: Option<String>,
}

/// The checksum of an items file's item lines (see [`Header::checksum`]).
fn checksum_of(body: &str) -> String {
    format!("{:016x}", xxhash_rust::xxh3::xxh3_64(body.as_bytes()))
}

/// One work item, as a line of the file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Item {
    /// Its number, from 1, in the iteration's order: the record's id.
    pub item: usize,
    /// The position, in the labels of `goal`.
    pub instance: String,
    /// The bound its subtree is searched to.
    pub bound: u32,
    /// The tiles moved from the position to the item's node, in the position's labels.
    pub prefix: String,
    /// The shard planned for it (see [`plan`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<usize>,
}

impl Item {
    /// What its record's `instance` says: the position, the bound and the prefix, so that a record can be
    /// told to be of this item and not of another iteration's or another position's item of the same number.
    pub fn text(&self) -> String {
        format!("{} bound {} prefix {}", self.instance, self.bound, self.prefix)
    }
}

/// Shards for items of predicted sizes: largest first, each to the shard with the least predicted load (a
/// subtree's size at the next bound is close to a constant times its size at this one, so the previous
/// iteration's sizes deal the next one's items far more evenly than k mod N; measured in BENCHMARKS).
pub fn plan(predicted: &[u64], shards: usize) -> Vec<usize> {
    let mut load = vec![0u64; shards];
    let mut shard = vec![0; predicted.len()];
    let mut order: Vec<usize> = (0..predicted.len()).collect();
    order.sort_by_key(|&k| std::cmp::Reverse(predicted[k]));
    for k in order {
        let least = (0..shards).min_by_key(|&w| (load[w], w)).expect("at least one shard");
        load[least] += predicted[k];
        shard[k] = least;
    }
    shard
}

/// Shards to plan for, and each item's size in the previous iteration by its prefix (`None`: not known).
/// Without shards, the sizes put the items in order, largest first: workers that claim items in file order
/// (`work --claim`) then schedule the longest first, each item to the first worker free.
pub type Planned<'a> = (Option<usize>, &'a dyn Fn(&str) -> Option<u64>);

/// The items file of a cut of the iteration at `bound` from `state`: its header line and item lines, each item
/// with its shard when `planned` for shards (see [`plan`]), or in order of predicted size when planned without.
pub fn items_file(
    state: &State,
    goal: Goal,
    bound: u32,
    cut: &Split,
    settings: String,
    planned: Option<Planned>,
) -> String {
    let instance = super::user_tiles(state, goal);
    let (cut_items, solved) = match &cut.outcome {
        Divided::Items(items) => (items.as_slice(), None),
        Divided::Solved(moves) => (&[][..], Some(user_moves(state, moves, goal, MoveStyle::Tiles))),
    };
    let mut prefixes: Vec<String> = cut_items.iter().map(|p| user_moves(state, p, goal, MoveStyle::Tiles)).collect();
    let mut shards = None;
    if let Some((n, size)) = planned {
        // An item the earlier records do not know is predicted at their mean.
        let known: Vec<u64> = prefixes.iter().filter_map(|p| size(p)).collect();
        let mean = known.iter().sum::<u64>() / known.len().max(1) as u64;
        let predicted: Vec<u64> = prefixes.iter().map(|p| size(p).unwrap_or(mean)).collect();
        match n {
            Some(n) => shards = Some(plan(&predicted, n)),
            None => {
                // A stable sort: items of equal size keep the cut's order.
                let mut order: Vec<usize> = (0..prefixes.len()).collect();
                order.sort_by_key(|&k| std::cmp::Reverse(predicted[k]));
                prefixes = order.into_iter().map(|k| std::mem::take(&mut prefixes[k])).collect();
            }
        }
    }
    let mut body = String::new();
    for (k, prefix) in prefixes.into_iter().enumerate() {
        let shard = shards.as_ref().map(|s| s[k]);
        let item = Item { item: k + 1, instance: instance.clone(), bound, prefix, shard };
        body.push_str(&serde_json::to_string(&item).expect("an item encodes"));
        body.push('\n');
    }
    let header = Header {
        instance,
        board: state.board().to_string(),
        goal: goal.name().to_string(),
        bound,
        items: cut_items.len(),
        nodes: cut.counts.generated,
        expanded: cut.counts.expanded,
        next: (cut.next != u32::MAX).then_some(cut.next),
        solved,
        settings,
        shards: planned.and_then(|(n, _)| n),
        checksum: Some(checksum_of(&body)),
    };
    format!("{HEADER}{}\n{body}", serde_json::to_string(&header).expect("a header encodes"))
}

/// The header of an items file's text; `Err` saying what is wrong with its first line.
pub fn read_header(text: &str) -> Result<Header, String> {
    let first = text.lines().next().unwrap_or_default();
    let json =
        first.strip_prefix(HEADER).ok_or("its first line is not a '# split' header (is it from `solver split`?)")?;
    serde_json::from_str(json).map_err(|e| format!("its header does not read: {e}"))
}

/// Every item of an items file's text, in order, checked against its header: the checksum over the item
/// lines, their number, and each item's number, position and bound; `Err` saying what does not match.
pub fn read_items(text: &str, header: &Header) -> Result<Vec<Item>, String> {
    let body = text.split_once('\n').map_or("", |(_, body)| body);
    match &header.checksum {
        None => return Err("its header has no checksum of the items (written by an older `split`?)".into()),
        Some(sum) if *sum != checksum_of(body) => {
            return Err("its items do not match the checksum in its header (edited after `split`?)".into())
        }
        Some(_) => {}
    }
    let lines = body.lines().enumerate().map(|(k, l)| (k + 2, l.trim()));
    let items: Vec<Item> = lines
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
        .map(|(n, l)| serde_json::from_str(l).map_err(|e| format!("line {n} is not a work item: {e}")))
        .collect::<Result<_, _>>()?;
    if items.len() != header.items {
        let counted = cli_common::text::count(header.items as u64, "item");
        return Err(format!("its header counts {counted}, the file holds {}", items.len()));
    }
    for (k, item) in items.iter().enumerate() {
        if item.item != k + 1 || item.instance != header.instance || item.bound != header.bound {
            return Err(format!(
                "item line {} (item {}) is not item {} of the position and bound {} of its header",
                k + 1,
                item.item,
                k + 1,
                header.bound
            ));
        }
    }
    Ok(items)
}

/// Whether the items are those of `cut` (the same iteration cut again, into as many items): the same prefixes,
/// each once, and the same nodes and next bound as the header says. An item whose prefix was changed, or
/// replaced by a copy of another, is not part of the iteration however its checksum was made.
pub fn check_cut(state: &State, goal: Goal, cut: &Split, header: &Header, items: &[Item]) -> Result<(), String> {
    let Divided::Items(prefixes) = &cut.outcome else {
        return match header.solved {
            Some(_) => Ok(()),
            None => Err("the cut again finds a solution, which its header does not hold".into()),
        };
    };
    let mut want: Vec<String> = prefixes.iter().map(|p| user_moves(state, p, goal, MoveStyle::Tiles)).collect();
    let mut have: Vec<&str> = items.iter().map(|i| i.prefix.as_str()).collect();
    want.sort_unstable();
    have.sort_unstable();
    if want != have {
        let stray = items.iter().find(|i| want.binary_search(&i.prefix).is_err()).map(|i| i.item);
        return Err(match stray {
            Some(n) => format!("item {n} is not one of the cut's items"),
            None => "an item appears more than once, and another of the cut's items is missing".into(),
        });
    }
    let next = (cut.next != u32::MAX).then_some(cut.next);
    if (cut.counts.generated, cut.counts.expanded, next) != (header.nodes, header.expanded, header.next) {
        return Err("its header's nodes or next bound are not those of the cut".into());
    }
    Ok(())
}

/// A work item read for searching.
pub struct Parsed {
    state: State,
    bound: u32,
    /// The prefix in internal labels.
    prefix: Vec<u8>,
}

/// The work items of one items file as a batch's puzzle: each searched at its bound by the engine.
pub struct Items<'a> {
    /// The board and goal of the file's header.
    pub board: Board,
    /// Records the searches (the solver, the goal's labels).
    pub recorder: Recorder<'a>,
    /// Of items planned for shards, this worker's shard: the others are not read.
    pub mine: Option<usize>,
}

impl Items<'_> {
    fn item(&self, line: &str) -> Result<(Item, Parsed), String> {
        let item: Item = serde_json::from_str(line).map_err(|e| format!("not a work item: {e}"))?;
        let goal = self.recorder.goal;
        let state = puzzle::parse_tiles(self.board, goal, &item.instance).map_err(|e| e.to_string())?;
        let cells = self.board.cells();
        let prefix = internal_moves(cells, goal, &item.prefix)
            .map_err(|w| format!("'{w}' in the prefix is not a tile of a {} board", self.board))?;
        let parsed = Parsed { state, bound: item.bound, prefix };
        Ok((item, parsed))
    }
}

impl Task for Items<'_> {
    type Instance = Parsed;
    /// Items are IDA* subtrees: the engine's IDA* only.
    const ALGORITHMS: &'static [search::Algorithm] = &[search::Algorithm::Ida];
    type Heuristic = engine::HeuristicChoice;
    const HEURISTICS: &'static [engine::HeuristicChoice] = <engine::HeuristicChoice as search::Named>::ALL;

    fn name(&self) -> &str {
        "solver"
    }

    const STEPS: &'static str = "moves";

    fn settings(&self) -> Vec<(&'static str, String)> {
        settings(self.board, search::Algorithm::Ida, &self.recorder)
    }

    /// An item line; the header and other `#` lines are skipped.
    fn parse(&self, line: &str) -> Option<Line<Parsed>> {
        let text = line.trim();
        if text.is_empty() || text.starts_with('#') {
            return None;
        }
        Some(match self.item(text) {
            Ok((item, _)) if self.mine.is_some_and(|m| item.shard != Some(m)) => return None,
            Ok((item, parsed)) => {
                Line { id: Some(item.item.to_string()), text: item.text(), parsed: Ok((parsed, None)) }
            }
            Err(problem) => Line { id: None, text: text.to_string(), parsed: Err(problem) },
        })
    }

    fn invalid(&self, src: &Source, problem: String) -> Record {
        self.recorder.invalid(src, problem)
    }

    fn solve(
        &self,
        it: &Parsed,
        src: &Source,
        threads: usize,
        limits: &search::Limits,
        live: &Arc<search::Live>,
        _: &Resume,
    ) -> anyhow::Result<Attempt> {
        let solver = self.recorder.solver;
        let engine_limits =
            engine::Limits { search: limits.clone(), progress: Some(Arc::clone(live)), resume: Resume::default() };
        let started = std::time::Instant::now();
        let w =
            solver.work(&it.state, it.bound, &it.prefix, threads, &engine_limits).map_err(cli_common::classified)?;
        let seconds = started.elapsed().as_secs_f64();
        let status = match (&w.found, w.stopped) {
            (Some(_), _) => Status::Solved,
            (None, Some(_)) => Status::Limit,
            (None, None) => Status::Exhausted,
        };
        let record = Record {
            length: w.found.as_ref().map(|m| m.len() as u32),
            moves: w
                .found
                .as_ref()
                .map(|m| user_moves(&it.state, m, self.recorder.goal, MoveStyle::Tiles))
                .unwrap_or_default(),
            nodes: w.counts.generated,
            expanded: w.counts.expanded,
            seconds,
            threads,
            lanes: solver.lanes(),
            algorithm: "ida".into(),
            heuristic: solver.name().into(),
            tables: self.recorder.tables().into(),
            error: w.stopped.map(|s| stop_text(s, seconds, w.counts.expanded, None, None)),
            next_bound: (status == Status::Exhausted && w.next != u32::MAX).then_some(w.next),
            ..src.record(status)
        };
        Ok(Attempt { record, stop: w.stopped })
    }

    fn threads(&self) -> usize {
        self.recorder.solver.threads()
    }

    fn parallel_search(&self) -> bool {
        true
    }

    fn no_valid_hint(&self) -> String {
        "is it an items file written by `solver split`?".into()
    }
}
