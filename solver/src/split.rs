//! `solver split`, `solver work` and `solver merge`: one IDA* iteration of one position spread over many
//! machines (a Slurm job array, GNU parallel, or a loop), coordinated by files alone.
//!
//! `split` cuts the iteration at a bound into work items (`adapters::tiles::items`); each worker runs
//! `work` on its shard of them, a batch like any other (one record an item as it finishes, `--resume`
//! after a kill); `merge` reads every worker's records: a solution if any item had one (replayed, and as
//! long as the bound), or else the next bound and the iteration's nodes, for the next `split`.

use crate::args::SearchArgs;
use adapters::tiles::items::{check_cut, items_file, read_header, read_items, Header, Item, Items};
use adapters::tiles::record::internal_moves;
use adapters::tiles::{MoveStyle, Recorder};
use anyhow::{anyhow, bail, Context};
use batch::record::read_records;
use batch::{Record, Status, Task};
use cli_common::heading::{INPUT, OUTPUT};
use cli_common::text::printable;
use cli_common::{usage, Format};
use puzzle::Goal;
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(clap::Args)]
#[command(after_long_help = "Examples:
  solver split --board 5x5 --pdbs pdbs --bound 100 --items 2000 \\
      -o iter-100.items \"...25 tiles...\"
  # each worker (any number, anywhere the folder is shared) takes items in turn
  solver work iter-100.items --pdbs pdbs --claim iter-100/claims \\
      -o iter-100/$WORKER.jsonl --resume
  # the solution, or the next bound
  solver merge iter-100.items iter-100/*.jsonl

The bound defaults to the position's estimate (the first iteration); after a
merge without a solution, split again at the next bound it gives (with --plan
and the records just merged, to order the items largest first).
scripts/slurm/solve-one.sh runs the whole loop on Slurm.")]
pub struct SplitArgs {
    /// The position, as `solve` takes it (tiles, or `id length tiles...`).
    #[arg(value_name = "POSITION", help_heading = INPUT)]
    pub instance: String,
    /// The iteration's bound (default: the position's estimate, IDA*'s first bound).
    #[arg(long, value_name = "B", help_heading = INPUT)]
    pub bound: Option<u32>,
    /// Cut at the first depth with at least this many items (50 to 500 a worker even out uneven subtrees).
    #[arg(long, value_name = "N", default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..=10_000_000), help_heading = INPUT)]
    pub items: u64,
    /// Deal the items to this many shards by the sizes their subtrees had in the previous iteration (the
    /// records of `work` given by --plan), largest first to the least loaded shard; `work --shard I/N` then
    /// takes the items planned for shard I.
    #[arg(long, value_name = "N", requires = "plan", value_parser = clap::value_parser!(u64).range(1..=100_000), help_heading = INPUT)]
    pub shards: Option<u64>,
    /// The previous iteration's records (of an items file cut the same way): with --shards, their sizes deal
    /// the items to the shards; without, they put the items in order, largest first, for workers that take
    /// them with `work --claim` (each item to the first worker free, the longest first).
    #[arg(long, value_name = "RECORDS", num_args = 1.., help_heading = INPUT)]
    pub plan: Vec<PathBuf>,
    /// The items file to write (replaced whole: written beside it, then renamed).
    #[arg(long, short, value_name = "FILE", help_heading = OUTPUT)]
    pub output: PathBuf,
    #[command(flatten)]
    pub search: SearchArgs,
}

#[derive(clap::Args)]
pub struct WorkArgs {
    #[command(flatten)]
    pub batch: batch::BatchArgs,
    #[command(flatten)]
    pub search: SearchArgs,
}

#[derive(clap::Args)]
pub struct MergeArgs {
    /// The items file of the iteration.
    #[arg(value_name = "ITEMS", help_heading = INPUT)]
    pub items: PathBuf,
    /// The workers' record files.
    #[arg(value_name = "RECORDS", help_heading = INPUT)]
    pub records: Vec<PathBuf>,
    /// text, or one JSON object: `status` (`solved` or `next`), `bound`, `nodes`, `expanded`, and `length`,
    /// `moves` and `optimal_if` (every bound below was searched without a solution) when solved.
    #[arg(long, value_enum, value_name = "FORMAT", default_value = "text", help_heading = OUTPUT)]
    pub format: Format,
}

/// What `split` prints and `merge` concludes: the iteration's outcome and nodes.
#[derive(Debug, Serialize)]
struct Iteration {
    /// `items` (split: work to do), `solved`, or `next` (merge: no solution at this bound).
    status: &'static str,
    bound: u32,
    /// The next iteration's bound (`next`; for `items`, the least the cut itself saw).
    next: Option<u32>,
    items: usize,
    /// Generated and expanded nodes: the cut's (split), or the whole iteration's (merge).
    nodes: u64,
    expanded: u64,
    length: Option<u32>,
    moves: Option<String>,
    /// When solved (merge): what the length's optimality rests on, which one iteration cannot tell.
    #[serde(skip_serializing_if = "Option::is_none")]
    optimal_if: Option<String>,
}

impl Iteration {
    fn print(&self, format: Format) {
        let text = match format {
            Format::Json => serde_json::to_string(self).expect("an iteration encodes"),
            Format::Text => match (self.status, &self.moves) {
                ("solved", Some(moves)) => format!(
                    "solved at bound {}: length {}  moves {moves}  nodes {} generated, {} expanded in this \
                     iteration; the length is the optimum if every bound below it was searched without a solution",
                    self.bound,
                    self.length.unwrap_or_default(),
                    self.nodes,
                    self.expanded
                ),
                ("items", _) => format!(
                    "bound {}: {}  nodes {} generated, {} expanded in the cut",
                    self.bound,
                    cli_common::text::count(self.items as u64, "item"),
                    self.nodes,
                    self.expanded
                ),
                _ => format!(
                    "no solution at bound {}: next bound {}  nodes {} generated, {} expanded in this iteration",
                    self.bound,
                    self.next.map_or("none".into(), |n| n.to_string()),
                    self.nodes,
                    self.expanded
                ),
            },
        };
        println!("{text}");
    }
}

/// `solver split`: writes the items file and prints what the cut found (JSON with `--format json` is not
/// offered: the file's header is the machine-readable form).
pub fn split(args: &SplitArgs) -> anyhow::Result<ExitCode> {
    let s = &args.search.for_position(&args.instance)?;
    let board = s.board();
    let inst = puzzle::parse_line(board, s.goal(), &args.instance)
        .map_err(|e| {
            usage(anyhow!("bad position: {}", adapters::tiles::position_error(board, s.goal(), &args.instance, &e)))
        })?
        .ok_or_else(|| usage(anyhow!("bad position: no tiles given")))?;
    let solver = s.solver()?;
    let bound = args.bound.unwrap_or_else(|| solver.estimate(&inst.state));
    let cut = solver.split(&inst.state, bound, args.items as usize).map_err(cli_common::classified)?;
    let recorder = Recorder::new(&solver, s.goal(), MoveStyle::Tiles);
    let settings = batch::settings::encode(&Items { board, recorder, mine: None }.settings());
    let sizes = previous_sizes(&args.plan)?;
    let size = |prefix: &str| sizes.get(prefix).copied();
    let planned =
        (!args.plan.is_empty()).then_some((args.shards.map(|n| n as usize), &size as &dyn Fn(&str) -> Option<u64>));
    let text = items_file(&inst.state, s.goal(), bound, &cut, settings, planned);
    write_whole(&args.output, &text)?;
    let header = read_header(&text).map_err(|e| anyhow!("internal error: {e}"))?;
    let status = if header.solved.is_some() { "solved" } else { "items" };
    if header.solved.is_none() && (header.items as u64) < args.items {
        cli_common::log(&format!(
            "solver: note: {} asked for, but the iteration at bound {bound} is no wider than {}",
            cli_common::text::count(args.items, "item"),
            cli_common::text::count(header.items as u64, "item")
        ));
    }
    Iteration {
        status,
        bound,
        next: header.next,
        items: header.items,
        nodes: header.nodes,
        expanded: header.expanded,
        length: header.solved.as_ref().map(|m| puzzle::instance::words(m).len() as u32),
        moves: header.solved,
        optimal_if: None,
    }
    .print(Format::Text);
    Ok(ExitCode::SUCCESS)
}

/// Each item's generated nodes in earlier `work` records, by prefix (the record's instance is `bound B prefix
/// P`).
fn previous_sizes(files: &[PathBuf]) -> anyhow::Result<std::collections::HashMap<String, u64>> {
    let mut sizes = std::collections::HashMap::new();
    for file in files {
        for r in read_records(file).map_err(usage)?.records {
            if let Some((_, prefix)) = r.instance.split_once(" prefix ") {
                sizes.insert(prefix.to_string(), r.nodes);
            }
        }
    }
    Ok(sizes)
}

/// Writes `text` to `path` whole: to a temporary name beside it, synced, then renamed over it.
fn write_whole(path: &Path, text: &str) -> anyhow::Result<()> {
    let tmp = path.with_extension("items.tmp");
    let write = || -> std::io::Result<()> {
        let mut f = std::fs::File::create(&tmp)?;
        std::io::Write::write_all(&mut f, text.as_bytes())?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    };
    write().with_context(|| format!("cannot write {}", path.display())).map_err(usage)
}

/// The header and the items of the items file at `path`.
fn items_of(path: &Path) -> anyhow::Result<(Header, Vec<Item>)> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display())).map_err(usage)?;
    let not = |e: String| usage(anyhow!("{} is not an items file: {e}", path.display()));
    let header = read_header(&text).map_err(not)?;
    let items = read_items(&text, &header).map_err(not)?;
    Ok((header, items))
}

/// `solver work`: a batch over the items file's items, on the board and goal its header gives.
pub fn work(args: &WorkArgs) -> anyhow::Result<ExitCode> {
    let input = Path::new(&args.batch.input);
    let (header, items) = items_of(input)?;
    let mut search = args.search.clone();
    search.board = Some(header.board.parse().map_err(|e| usage(anyhow!("the items' board: {e}")))?);
    search.goal = Some(header.goal.parse::<Goal>().map_err(|e| usage(anyhow!("the items' goal: {e}")))?);
    let solver = search.solver()?;
    // Items planned for shards are taken by their shard, not dealt by their place in the file; claimed, by
    // whichever worker comes first.
    let mut batch_args = args.batch.clone();
    let mine = match (header.shards, args.batch.shard) {
        (None, _) => None,
        (Some(_), None) if args.batch.claim.is_some() => None,
        (Some(n), Some(shard)) if shard.count == n => {
            batch_args.shard = None;
            Some(shard.index)
        }
        (Some(n), _) => {
            let shards = cli_common::text::count(n as u64, "shard");
            bail!(usage(anyhow!("the items are planned for {shards}: give --shard I/{n} (or --claim DIR)")))
        }
    };
    let task = Items { board: search.board(), recorder: Recorder::new(&solver, search.goal(), MoveStyle::Tiles), mine };
    let mine = batch::settings::encode(&task.settings());
    if mine != header.settings {
        bail!(usage(anyhow!(
            "the items were cut with {}; this worker would search with {mine}: give it the same --heuristic, \
             --partition and tables",
            header.settings
        )));
    }
    // The same cut again: each item must be one of the iteration's (a few thousand nodes, before any search).
    let state = puzzle::parse_tiles(search.board(), search.goal(), &header.instance)
        .map_err(|e| usage(anyhow!("{}: its position: {e}", input.display())))?;
    let cut = solver.split(&state, header.bound, header.items.max(1)).map_err(cli_common::classified)?;
    check_cut(&state, search.goal(), &cut, &header, &items)
        .map_err(|e| usage(anyhow!("{} is not the cut of its iteration: {e}", input.display())))?;
    batch::run(&batch_args, &task)
}

/// `solver merge`: the iteration's outcome from the items' records. Exit 0 with a solution (any item's) or,
/// when every item was searched to the end without one, the next bound; 1 when an item has no record yet,
/// or more than one, or stopped at a limit (run its worker again).
pub fn merge(args: &MergeArgs) -> anyhow::Result<ExitCode> {
    let (header, items) = items_of(&args.items)?;
    let mut it = Iteration {
        status: "next",
        bound: header.bound,
        next: header.next,
        items: header.items,
        nodes: header.nodes,
        expanded: header.expanded,
        length: None,
        moves: None,
        optimal_if: None,
    };
    if let Some(moves) = &header.solved {
        it.status = "solved";
        it.length = Some(check_solution(&header, moves)?);
        it.moves = Some(moves.clone());
        it.optimal_if = Some(format!("every bound below {} was searched without a solution", it.bound));
        it.print(args.format);
        return Ok(ExitCode::SUCCESS);
    }
    let by_item = records_by_item(&header, &items, &args.records)?;
    // Any item's solution is optimal (the bound is the length), whatever the other items hold.
    if let Some(r) = by_item.values().find(|r| r.status == Status::Solved) {
        it.status = "solved";
        it.length = Some(check_solution(&header, &r.moves)?);
        it.moves = Some(r.moves.clone());
        it.next = None;
    } else {
        complete(&header, &by_item)?;
    }
    for r in by_item.values() {
        it.nodes += r.nodes;
        it.expanded += r.expanded;
        if it.status == "next" {
            it.next = match (it.next, r.next_bound) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            };
        }
    }
    if it.status == "solved" {
        it.optimal_if = Some(format!("every bound below {} was searched without a solution", it.bound));
    }
    it.print(args.format);
    Ok(ExitCode::SUCCESS)
}

/// The items' records, by item number: in each file an item's last record (a limit stop searched again by
/// `work --resume --retry-limits` is followed by its new record); an error naming a record that is not of its
/// item (another iteration's or another position's: its instance is the item's position, bound and prefix),
/// made with other settings than the cut's, or with a next bound not above the bound; or an item with records
/// in more than one file.
fn records_by_item(header: &Header, items: &[Item], files: &[PathBuf]) -> anyhow::Result<BTreeMap<usize, Record>> {
    let mut by_item: BTreeMap<usize, Record> = BTreeMap::new();
    let mut doubled = Vec::new();
    for file in files {
        // A worker whose shard held no item writes no file; items without a record are found below.
        if !file.exists() {
            cli_common::log(&format!("solver: note: {} does not exist; counted as no records", file.display()));
            continue;
        }
        let records = read_records(file)?.records;
        let mut mine = BTreeMap::new();
        for r in &records {
            let n = check_record(header, items, r).map_err(|e| anyhow!("{}: {e}", file.display()))?;
            mine.insert(n, r.clone());
        }
        for (n, r) in mine {
            if by_item.insert(n, r).is_some() {
                doubled.push(n);
            }
        }
    }
    if !doubled.is_empty() {
        doubled.sort_unstable();
        bail!("items with records in more than one file: {}", list(&doubled));
    }
    Ok(by_item)
}

/// The item number of a record of this iteration; `Err` saying why it is not one.
fn check_record(header: &Header, items: &[Item], r: &Record) -> Result<usize, String> {
    let n: usize = r.id.parse().map_err(|_| format!("'{}' is not a work item's id", printable(&r.id)))?;
    let item = items
        .get(n.wrapping_sub(1))
        .filter(|i| i.item == n)
        .ok_or_else(|| format!("item {n} is not one of the {} items of this iteration", header.items))?;
    if r.instance != item.text() {
        return Err(format!(
            "the record of item {n} is of '{}', not of this iteration's item {n}, '{}' (a record of another split?)",
            printable(&r.instance),
            item.text()
        ));
    }
    if r.settings != header.settings {
        return Err(format!(
            "item {n} was searched with {}, not {} as the items were cut",
            printable(&r.settings),
            header.settings
        ));
    }
    if let Some(next) = r.next_bound.filter(|&b| b <= header.bound) {
        return Err(format!("item {n} gives the next bound {next}, not above the bound {}", header.bound));
    }
    Ok(n)
}

/// Without a solution, the next bound needs every item searched to the end: an error naming the items
/// without a record, and those a limit stopped.
fn complete(header: &Header, by_item: &BTreeMap<usize, Record>) -> anyhow::Result<()> {
    let missing: Vec<usize> = (1..=header.items).filter(|n| !by_item.contains_key(n)).collect();
    if !missing.is_empty() {
        bail!(
            "{} of {} have no record yet: {}",
            missing.len(),
            cli_common::text::count(header.items as u64, "item"),
            list(&missing)
        );
    }
    let unfinished: Vec<usize> =
        by_item.iter().filter(|(_, r)| r.status != Status::Exhausted).map(|(&n, _)| n).collect();
    if !unfinished.is_empty() {
        let unfinished_items = cli_common::text::count(unfinished.len() as u64, "item");
        bail!("{unfinished_items} did not finish (a limit or an invalid line): {}", list(&unfinished));
    }
    Ok(())
}

/// Item numbers as words, the first twenty.
fn list(items: &[usize]) -> String {
    let shown: Vec<String> = items.iter().take(20).map(usize::to_string).collect();
    let more = if items.len() > 20 { format!(" and {} more", items.len() - 20) } else { String::new() };
    format!("{}{more}", shown.join(", "))
}

/// A solution replayed from the header's position to the goal and as long as the bound: its length. A shorter
/// one means the bound is above the optimum (an iteration was skipped), where nothing this iteration found
/// tells the optimum.
fn check_solution(header: &Header, moves: &str) -> anyhow::Result<u32> {
    let board = header.board.parse().map_err(|e| anyhow!("the items' board: {e}"))?;
    let goal: Goal = header.goal.parse().map_err(|e| anyhow!("the items' goal: {e}"))?;
    let state = puzzle::parse_tiles(board, goal, &header.instance).map_err(|e| anyhow!("the items' position: {e}"))?;
    let cells = state.board().cells();
    let tiles = internal_moves(cells, goal, moves).map_err(|w| anyhow!("'{w}' is not a tile"))?;
    state.replay(&tiles).map_err(|e| anyhow!("the solution does not replay: {e}"))?;
    if tiles.len() != header.bound as usize {
        bail!(
            "a solution of {} moves at bound {}: the bound is above the optimum, so this solution need not be \
             optimal; split at the bounds below it, from the position's estimate, for the optimum",
            tiles.len(),
            header.bound
        );
    }
    Ok(tiles.len() as u32)
}
