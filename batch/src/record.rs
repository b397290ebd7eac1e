//! Result records: one an instance, the same for every puzzle and for a tool's `solve --format json` and
//! `batch` (JSON lines, or CSV with a header), written whole and read back.
//!
//! Each record is encoded into one buffer and written with one `write`, so a killed run leaves at worst an
//! incomplete last line; [`read_records`] reports that tail instead of parsing it, and the batch runner cuts
//! it off before appending (the instance is then solved again).

use crate::lines::{read_line, too_long, Fit, MAX_RECORD_LINE};
use anyhow::{bail, Context};
use cli_common::text::printable;
use search::Stop;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::Path;

/// How an instance ended. Every status is final: `--resume` skips instances that have a record (a `Limit`
/// one is searched again with `--retry-limits`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Solved (optimally, unless the algorithm says otherwise).
    Solved,
    /// Stopped by `--time-limit`, `--node-limit` or `--memory-limit`.
    Limit,
    /// A valid instance proved to have no solution (by exhausting its states).
    Unsolvable,
    /// The line is not a valid instance; `error` says why.
    #[default]
    Invalid,
    /// A work item of a split iteration (`solver work`) searched to its bound without a solution;
    /// `next_bound` says where the next iteration starts.
    Exhausted,
}

impl Status {
    /// The status as records spell it (`solved`, `limit`, `unsolvable`, `invalid`, `exhausted`).
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Solved => "solved",
            Status::Limit => "limit",
            Status::Unsolvable => "unsolvable",
            Status::Invalid => "invalid",
            Status::Exhausted => "exhausted",
        }
    }
}

/// One instance's result. Field order is the CSV column order.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Record {
    /// The line's id, or its line number when it has none.
    pub id: String,
    /// Line number in the input (1-based).
    pub line: u64,
    /// The instance as the user wrote it (sliding tiles: the tiles in the labels of `--goal`); for an
    /// invalid line, its text. Called `tiles` in files written before other puzzles had records.
    #[serde(alias = "tiles")]
    pub instance: String,
    /// How the instance ended.
    pub status: Status,
    /// Optimal solution length (solved only).
    pub length: Option<u32>,
    /// The moves, in the user's labels (sliding tiles: the tiles slid, space-separated, or the blank's
    /// directions `UDLR` with `--moves dirs`; water sort: pours `3->14`); empty unless solved.
    pub moves: String,
    /// Generated nodes (children whose heuristic was evaluated).
    pub nodes: u64,
    /// Expanded nodes (nodes whose children were generated).
    pub expanded: u64,
    /// Search time, without start-up and table loading.
    pub seconds: f64,
    /// Threads that searched this instance.
    pub threads: usize,
    /// Depth-first searches interleaved on each thread (`--lanes`); like the thread count, it changes the
    /// node count of the last iteration. Absent in files written before it existed: read as 1.
    #[serde(default = "one")]
    pub lanes: usize,
    /// The algorithm that searched (`ida`, `astar`, `bfs`, `bibfs`, `greedy`); empty for an invalid line. Files
    /// written before it existed were all `ida`.
    #[serde(default = "ida")]
    pub algorithm: String,
    /// The heuristic that guided the search, by name (`tables` says which tables it read).
    pub heuristic: String,
    /// The heuristic estimate of the start (absent for an invalid line and in files written before it
    /// existed).
    #[serde(default)]
    pub root_h: Option<u32>,
    /// IDA* iterations run (bounds tried).
    #[serde(default)]
    pub iterations: Option<u32>,
    /// The most states stored at once (astar, bfs, bibfs, greedy; IDA* stores none).
    #[serde(default)]
    pub peak_stored: Option<u64>,
    /// Each table as `file_name:payload_hash` (hex), space-separated; empty without tables.
    pub tables: String,
    /// The optimal length the input line gave, if any.
    pub expected: Option<u32>,
    /// Whether `length` equals `expected`; empty when either is missing, or the algorithm does not promise the
    /// shortest.
    pub matched: Option<bool>,
    /// What is wrong with an invalid line, or which limit stopped the search.
    pub error: Option<String>,
    /// When `batch` wrote the record, in seconds since the Unix epoch. A clock time rather than seconds
    /// since the run began, so that records appended by `--resume` and the shards of one run (on other
    /// machines) are all on one time line; `report` measures from the earliest start it sees. Empty in
    /// `solve` output (no batch) and in files written before it existed.
    #[serde(default)]
    pub finished: Option<f64>,
    /// What decided the result besides the instance, as `name=value` pairs separated by `; ` (see
    /// [`crate::Task::settings`]): `--resume` refuses to mix records of other settings into a file. Empty in
    /// `solve` output and in files written before it existed. Columns are only ever added at the end, so that
    /// CSV files of older versions can be resumed in their own columns (see [`RecordFormat::older_csv_columns`]).
    #[serde(default)]
    pub settings: String,
    /// A work item searched without a solution (status `exhausted`): the smallest f-value above its bound
    /// in its subtree, where the next iteration starts; empty if nothing was cut off, and for every other
    /// record.
    #[serde(default)]
    pub next_bound: Option<u32>,
    /// IDA* only: each iteration this run searched, as `bound:generated:expanded`, space-separated (a
    /// search resumed from a checkpoint gives those after it). Empty otherwise, and in files written before
    /// it existed.
    #[serde(default)]
    pub bounds: String,
}

fn one() -> usize {
    1
}

fn ida() -> String {
    "ida".to_string()
}

/// How one result ends a command that prints results (`solve` of either tool), worst last: the worst of a
/// run decides its exit code, so both tools decide it the same way.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Verdict {
    /// Solved (matching any length the input gave): exit code 0.
    Solved,
    /// Stopped by a limit before an answer: exit code 3.
    Limit,
    /// A wrong answer or none: a solved length that differs from the input's (a bug or a wrong reference),
    /// or a level proved unsolvable: exit code 1.
    Failed,
    /// An input line that is not a valid instance: the user's mistake, which outranks the rest: exit code 2.
    Invalid,
}

impl Verdict {
    /// The verdict on one record.
    pub fn of(rec: &Record) -> Verdict {
        match (rec.status, rec.matched) {
            (Status::Invalid, _) => Verdict::Invalid,
            (_, Some(false)) | (Status::Unsolvable, _) => Verdict::Failed,
            (Status::Solved | Status::Exhausted, _) => Verdict::Solved,
            (Status::Limit, _) => Verdict::Limit,
        }
    }

    /// The process's exit code when this is the worst verdict of a run.
    pub fn exit_code(self) -> u8 {
        match self {
            Verdict::Solved => cli_common::EXIT_OK,
            Verdict::Limit => cli_common::EXIT_LIMIT,
            Verdict::Failed => cli_common::EXIT_FAILURE,
            Verdict::Invalid => cli_common::EXIT_USAGE,
        }
    }
}

/// What a record says of a search a limit stopped (its `error`): the limit, how far the search got, and the
/// lower bound on the length it proved, if any. One wording for every puzzle, so that reports read alike.
pub fn stop_text(stop: Stop, seconds: f64, expanded: u64, peak_stored: Option<u64>, at_least: Option<u32>) -> String {
    let at_least = at_least.map(|b| format!("; the optimal length is at least {b}")).unwrap_or_default();
    let stored = peak_stored.map(|p| format!(", {p} stored at most")).unwrap_or_default();
    match stop {
        Stop::TimeLimit => format!("{stop}: stopped after {seconds:.3} s, {expanded} expanded nodes{stored}{at_least}"),
        Stop::NodeLimit => format!("{stop}: stopped after {expanded} expanded nodes{stored}{at_least}"),
        Stop::MemoryLimit => format!(
            "{stop}: stopped at {} stored states after {expanded} expanded nodes{at_least}",
            peak_stored.unwrap_or_default()
        ),
        Stop::Cancelled => stop.to_string(),
    }
}

/// Record file format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum RecordFormat {
    /// One JSON object a line.
    Jsonl,
    /// Comma-separated values with a header line.
    Csv,
}

impl RecordFormat {
    /// The format a file name suggests: `.csv` is CSV, anything else JSON lines.
    pub fn for_path(path: &Path) -> RecordFormat {
        if path.extension().is_some_and(|e| e.eq_ignore_ascii_case("csv")) {
            RecordFormat::Csv
        } else {
            RecordFormat::Jsonl
        }
    }

    /// This version's CSV header line (without its newline).
    pub fn csv_header() -> String {
        let bytes = RecordFormat::Csv.encode(&Record::default(), true).expect("a record encodes");
        let text = String::from_utf8(bytes).expect("CSV of UTF-8 strings is UTF-8");
        text.lines().next().unwrap_or_default().to_string()
    }

    /// How many columns a CSV file of an older version has, given its header: each version only added
    /// columns at the end (`finished`, then `settings`, then `next_bound`, then `bounds`), so such a file is resumed in its
    /// own columns (the records appended to it leave the newer ones out) rather than refused. `None` for any
    /// other header, this version's included.
    pub fn older_csv_columns(header: &str) -> Option<usize> {
        let current = RecordFormat::csv_header();
        let columns: Vec<&str> = current.split(',').collect();
        let last_of_older = ["error", "finished", "settings", "next_bound"];
        (1..columns.len())
            .filter(|&n| last_of_older.contains(&columns[n - 1]))
            .find(|&n| columns[..n].join(",") == header)
    }

    /// A CSV record line (ending in its newline) cut to its first `columns` fields: the record as an older
    /// version wrote it.
    pub fn csv_first_columns(line: &[u8], columns: usize) -> anyhow::Result<Vec<u8>> {
        let mut fields = csv::StringRecord::new();
        csv::ReaderBuilder::new().has_headers(false).from_reader(line).read_record(&mut fields)?;
        fields.truncate(columns);
        let mut w = csv::WriterBuilder::new().terminator(csv::Terminator::Any(b'\n')).from_writer(Vec::new());
        w.write_record(&fields)?;
        w.into_inner().map_err(|e| anyhow::anyhow!("encoding a CSV record: {}", e.error()))
    }

    /// One record as one complete line (with the CSV header before it when `header`).
    pub fn encode(self, rec: &Record, header: bool) -> anyhow::Result<Vec<u8>> {
        match self {
            RecordFormat::Jsonl => {
                let mut line = serde_json::to_vec(rec)?;
                line.push(b'\n');
                Ok(line)
            }
            RecordFormat::Csv => {
                let mut w = csv::WriterBuilder::new()
                    .has_headers(header)
                    .terminator(csv::Terminator::Any(b'\n'))
                    .from_writer(Vec::new());
                w.serialize(rec)?;
                w.into_inner().map_err(|e| anyhow::anyhow!("encoding a CSV record: {}", e.error()))
            }
        }
    }
}

/// The records of one file.
#[derive(Debug)]
pub struct RecordFile {
    /// The complete records, in file order.
    pub records: Vec<Record>,
    /// `None` for an empty file.
    pub format: Option<RecordFormat>,
    /// A CSV file's header line.
    pub csv_header: Option<String>,
    /// Bytes up to the end of the last complete line: where appending resumes.
    pub complete_len: u64,
    /// Bytes after it: a record cut short by a kill or power loss, not counted.
    pub torn_tail: u64,
}

/// The records that count, one an id, in file order: where an id was recorded more than once (searched
/// again by `batch --resume --retry-limits`, or a record appended by hand), its last record, in the place of
/// its first. The records of one id must be of one instance.
pub fn latest(records: &[Record]) -> Result<Vec<&Record>, String> {
    let mut at: HashMap<&str, usize> = HashMap::new();
    let mut kept: Vec<&Record> = Vec::with_capacity(records.len());
    for r in records {
        match at.get(r.id.as_str()) {
            Some(&k) if kept[k].instance != r.instance => {
                return Err(format!(
                    "id '{}' has records of two instances, '{}' and '{}'",
                    printable(&r.id),
                    printable(&kept[k].instance),
                    printable(&r.instance)
                ))
            }
            Some(&k) => kept[k] = r,
            None => {
                at.insert(&r.id, kept.len());
                kept.push(r);
            }
        }
    }
    Ok(kept)
}

/// Reads a record file written by a `batch` (either format, told apart by its first byte). A line
/// that is complete but not a record is an error naming the file and line: results are never skipped
/// silently. So is a record of something no search does (a negative time), which would make every figure
/// summed over it meaningless, and a line longer than [`MAX_RECORD_LINE`]: the file is read a line at a time,
/// so that a file that is no record file (`/dev/zero`) costs no more memory than that.
pub fn read_records(path: &Path) -> anyhow::Result<RecordFile> {
    let show = path.display();
    let file = File::open(path).with_context(|| format!("cannot read {show}"))?;
    parse_records(BufReader::new(file)).map_err(|e| {
        // A line too long to be a record is said as invalid data: the file's content, not a failure to read it.
        let unreadable = e.downcast_ref::<io::Error>().is_some_and(|e| e.kind() != io::ErrorKind::InvalidData);
        match unreadable {
            true => e.context(format!("cannot read {show}")),
            false => e.context(format!("{show} is not a batch record file")),
        }
    })
}

/// The complete lines of a record file, one at a time, each at most [`MAX_RECORD_LINE`] bytes: what follows
/// the last newline is the torn tail of an interrupted write. It is also a reader of those lines, for the
/// CSV reader.
struct CompleteLines<R> {
    input: R,
    /// The current line, with its newline.
    line: Vec<u8>,
    /// How much of it [`Read::read`] has handed out.
    served: usize,
    /// Lines read so far.
    number: u64,
    complete_len: u64,
    torn_tail: u64,
}

impl<R: BufRead> CompleteLines<R> {
    /// Reads the next complete line into `line`: false at the end of the input.
    fn advance(&mut self) -> io::Result<bool> {
        self.served = 0;
        let fit = read_line(&mut self.input, &mut self.line, MAX_RECORD_LINE)?;
        match fit {
            Some(Fit::Whole) if self.line.last() == Some(&b'\n') => {
                self.number += 1;
                self.complete_len += self.line.len() as u64;
                Ok(true)
            }
            Some(Fit::Whole) => {
                self.torn_tail = self.line.len() as u64;
                self.line.clear();
                Ok(false)
            }
            Some(Fit::TooLong) => Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!("line {}: {}", self.number + 1, too_long(MAX_RECORD_LINE, "a record")),
            )),
            None => Ok(false),
        }
    }
}

impl<R: BufRead> Read for CompleteLines<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        if self.served == self.line.len() && !self.advance()? {
            return Ok(0);
        }
        let n = out.len().min(self.line.len() - self.served);
        out[..n].copy_from_slice(&self.line[self.served..][..n]);
        self.served += n;
        Ok(n)
    }
}

/// A record read from line `line`, unless it says what no search does.
fn checked(line: u64, rec: Record) -> anyhow::Result<Record> {
    let time = |what: &str, t: f64| {
        (!(t.is_finite() && t >= 0.0)).then(|| format!("line {line}: {what} is {t}, not a time (seconds, 0 or more)"))
    };
    match time("seconds", rec.seconds).or_else(|| rec.finished.and_then(|t| time("finished", t))) {
        Some(problem) => Err(anyhow::anyhow!(problem)),
        None => Ok(rec),
    }
}

fn parse_records(input: impl BufRead) -> anyhow::Result<RecordFile> {
    let mut lines = CompleteLines { input, line: Vec::new(), served: 0, number: 0, complete_len: 0, torn_tail: 0 };
    let format = match lines.advance()? {
        false => None,
        true if lines.line.starts_with(b"{") => Some(RecordFormat::Jsonl),
        true if lines.line.starts_with(b"id,") => Some(RecordFormat::Csv),
        true => bail!("line 1 is neither a JSON record nor the CSV header"),
    };
    let mut records = Vec::new();
    let mut csv_header = None;
    match format {
        None => {}
        Some(RecordFormat::Jsonl) => loop {
            if lines.line != b"\n" {
                let n = lines.number;
                let rec = serde_json::from_slice(&lines.line).with_context(|| format!("line {n}"))?;
                records.push(checked(n, rec)?);
            }
            if !lines.advance()? {
                break;
            }
        },
        Some(RecordFormat::Csv) => {
            let header = lines.line.strip_suffix(b"\n").unwrap_or(&lines.line);
            csv_header = Some(String::from_utf8_lossy(header).into_owned());
            // The CSV reader reads the header line again, from the start, as its own.
            let mut r = csv::ReaderBuilder::new().has_headers(true).from_reader(&mut lines);
            let headers = r.headers().map_err(|e| anyhow::anyhow!("{}", csv_error(&e)))?.clone();
            let mut row = csv::StringRecord::new();
            while r.read_record(&mut row).map_err(|e| anyhow::anyhow!("{}", csv_error(&e)))? {
                let rec = row.deserialize(Some(&headers)).map_err(|e| anyhow::anyhow!("{}", csv_error(&e)))?;
                records.push(checked(row.position().map_or(0, |p| p.line()), rec)?);
            }
        }
    }
    Ok(RecordFile { records, format, csv_header, complete_len: lines.complete_len, torn_tail: lines.torn_tail })
}

/// A CSV error as `line N: problem` (1-based line, the header being line 1).
fn csv_error(e: &csv::Error) -> String {
    let what = match e.kind() {
        csv::ErrorKind::Deserialize { err, .. } => match err.field() {
            Some(f) => format!("field {}: {}", f + 1, err.kind()),
            None => err.kind().to_string(),
        },
        csv::ErrorKind::UnequalLengths { expected_len, len, .. } => {
            format!("{len} fields where the header has {expected_len}")
        }
        _ => return e.to_string(),
    };
    match e.position() {
        Some(p) => format!("line {}: {what}", p.line()),
        None => what,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An id's last record counts, in its first one's place; records of one id with two instances are refused.
    #[test]
    fn latest_keeps_each_ids_last_record_in_its_first_place() {
        let rec = |id: &str, instance: &str, status: Status| Record {
            id: id.into(),
            instance: instance.into(),
            status,
            ..Record::default()
        };
        let records = [
            rec("a", "1 0", Status::Limit),
            rec("b", "0 1", Status::Solved),
            rec("a", "1 0", Status::Limit),
            rec("a", "1 0", Status::Solved),
        ];
        let kept = latest(&records).unwrap();
        let got: Vec<(&str, Status)> = kept.iter().map(|r| (r.id.as_str(), r.status)).collect();
        assert_eq!(got, [("a", Status::Solved), ("b", Status::Solved)]);
        assert!(std::ptr::eq(kept[0], &records[3]));
        let mixed = [rec("a", "1 0", Status::Limit), rec("a", "0 1", Status::Solved)];
        assert_eq!(latest(&mixed).unwrap_err(), "id 'a' has records of two instances, '1 0' and '0 1'");
    }

    /// The worst verdict decides a run's exit code: a bad line (the user's) over a wrong answer over a limit.
    #[test]
    fn verdicts_rank_and_map_to_exit_codes() {
        let mut rec = sample("a", Status::Solved);
        assert_eq!(Verdict::of(&rec), Verdict::Solved);
        rec.matched = Some(false);
        assert_eq!(Verdict::of(&rec), Verdict::Failed);
        assert_eq!(Verdict::of(&sample("b", Status::Unsolvable)), Verdict::Failed);
        assert_eq!(Verdict::of(&sample("c", Status::Limit)), Verdict::Limit);
        assert_eq!(Verdict::of(&sample("d", Status::Invalid)), Verdict::Invalid);
        let worst = [Verdict::Limit, Verdict::Invalid, Verdict::Failed].into_iter().max().unwrap();
        assert_eq!(worst, Verdict::Invalid);
        let codes: Vec<u8> = [Verdict::Solved, Verdict::Limit, Verdict::Failed, Verdict::Invalid]
            .into_iter()
            .map(Verdict::exit_code)
            .collect();
        assert_eq!(codes, [0, 3, 1, 2]);
    }

    /// Every puzzle's stopped search is said in the same words, with what is known.
    #[test]
    fn stops_are_said_alike() {
        assert_eq!(
            stop_text(Stop::NodeLimit, 0.5, 1000, None, Some(52)),
            "node limit: stopped after 1000 expanded nodes; the optimal length is at least 52"
        );
        assert_eq!(
            stop_text(Stop::TimeLimit, 2.0, 7, Some(9), None),
            "time limit: stopped after 2.000 s, 7 expanded nodes, 9 stored at most"
        );
        assert_eq!(
            stop_text(Stop::MemoryLimit, 1.0, 5, Some(40), None),
            "memory limit: stopped at 40 stored states after 5 expanded nodes"
        );
        assert_eq!(stop_text(Stop::Cancelled, 1.0, 5, None, None), "cancelled");
    }

    fn sample(id: &str, status: Status) -> Record {
        Record {
            id: id.into(),
            line: 7,
            instance: "1 2 0 3".into(),
            status,
            length: (status == Status::Solved).then_some(3),
            moves: if status == Status::Solved { "1 2 3".into() } else { String::new() },
            nodes: 12,
            expanded: 5,
            seconds: 0.25,
            threads: 2,
            lanes: 3,
            heuristic: "pdb 2-3, + \"x\"".into(),
            algorithm: "ida".into(),
            root_h: Some(2),
            iterations: (status != Status::Invalid).then_some(1),
            peak_stored: None,
            tables: "a.pdb:00ff b.pdb:1234".into(),
            expected: Some(3),
            matched: (status == Status::Solved).then_some(true),
            error: (status != Status::Solved).then(|| "line 7: tile 3 appears twice, oh, \"no\"".into()),
            finished: (status != Status::Invalid).then_some(1_790_000_000.25),
            settings: String::new(),
            next_bound: None,
            bounds: String::new(),
        }
    }

    #[test]
    fn both_formats_round_trip_and_ignore_a_torn_tail() {
        let recs = [sample("a", Status::Solved), sample("b", Status::Invalid), sample("c", Status::Limit)];
        for format in [RecordFormat::Jsonl, RecordFormat::Csv] {
            let mut bytes = Vec::new();
            for (i, r) in recs.iter().enumerate() {
                bytes.extend(format.encode(r, i == 0).unwrap());
            }
            let full = bytes.len() as u64;
            let torn = format.encode(&sample("d", Status::Solved), false).unwrap();
            bytes.extend(&torn[..torn.len() / 2]);
            let f = parse_records(&bytes[..]).unwrap();
            assert_eq!(f.format, Some(format));
            assert_eq!(f.records, recs);
            assert_eq!((f.complete_len, f.torn_tail), (full, (torn.len() / 2) as u64));
        }
    }

    #[test]
    fn a_damaged_complete_line_is_an_error_naming_it() {
        let mut bytes = RecordFormat::Jsonl.encode(&sample("a", Status::Solved), false).unwrap();
        bytes.extend(b"{\"id\": \"3\"}\n");
        let e = format!("{:#}", parse_records(&bytes[..]).unwrap_err());
        assert!(e.starts_with("line 2: missing field"), "{e}");
        let mut csv = RecordFormat::Csv.encode(&sample("a", Status::Solved), true).unwrap();
        csv.extend(b"x,1\n");
        let e = format!("{:#}", parse_records(&csv[..]).unwrap_err());
        assert_eq!(e, "line 3: 2 fields where the header has 24");
        assert!(parse_records(&b"hello\n"[..]).is_err());
        assert_eq!(parse_records(&b""[..]).unwrap().format, None);
    }

    #[test]
    fn records_of_older_versions_still_read() {
        // Written before records had lanes, algorithm, root_h, iterations or peak_stored, and when the
        // instance was called `tiles`.
        let old = br#"{"id":"9","line":1,"tiles":"3 14 9","status":"solved","length":46,"moves":"1 2","nodes":5,"expanded":2,"seconds":0.1,"threads":1,"heuristic":"pdb 7-8","tables":"","expected":46,"matched":true,"error":null}
"#;
        let f = parse_records(&old[..]).unwrap();
        let r = &f.records[0];
        assert_eq!((r.instance.as_str(), r.lanes, r.algorithm.as_str()), ("3 14 9", 1, "ida"));
        assert_eq!((r.root_h, r.peak_stored, r.finished), (None, None, None));
    }

    #[test]
    fn csv_files_of_older_versions_read_and_resume_in_their_own_columns() {
        let header = RecordFormat::csv_header();
        assert!(
            header.ends_with(",finished,settings,next_bound,bounds"),
            "columns are only added at the end: {header}"
        );
        let mut before_bounds = sample("a", Status::Solved);
        before_bounds.settings = "board=4x4; rule=a, b".into();
        let full = Record { bounds: "2:4:2 3:9:5".into(), ..before_bounds.clone() };
        let line = RecordFormat::Csv.encode(&full, false).unwrap();
        assert_eq!(
            parse_records(&[format!("{header}\n").into_bytes(), line.clone()].concat()[..]).unwrap().records,
            [full]
        );
        let before_finished = Record { finished: None, ..sample("a", Status::Solved) };
        let cases =
            [(1, before_bounds.clone()), (2, before_bounds), (3, sample("a", Status::Solved)), (4, before_finished)];
        for (dropped, want) in cases {
            let columns = header.split(',').count() - dropped;
            let old_header = header.split(',').take(columns).collect::<Vec<_>>().join(",");
            assert_eq!(RecordFormat::older_csv_columns(&old_header), Some(columns));
            let short = RecordFormat::csv_first_columns(&line, columns).unwrap();
            let file = [format!("{old_header}\n").into_bytes(), short].concat();
            let f = parse_records(&file[..]).unwrap();
            assert_eq!(f.csv_header.as_deref(), Some(old_header.as_str()));
            assert_eq!(f.records, [want]);
        }
        assert_eq!(RecordFormat::older_csv_columns(&header), None);
        assert_eq!(RecordFormat::older_csv_columns("id,line"), None);
    }

    /// A time no search takes is the line's error, not a figure: summed, it would make every total a lie.
    #[test]
    fn records_of_impossible_times_are_errors_naming_the_line() {
        let line = |rec: &Record| RecordFormat::Jsonl.encode(rec, false).unwrap();
        let good = sample("a", Status::Solved);
        for (bad, problem) in [
            (Record { seconds: -1.0, ..good.clone() }, "line 2: seconds is -1, not a time (seconds, 0 or more)"),
            (
                Record { finished: Some(-0.5), ..good.clone() },
                "line 2: finished is -0.5, not a time (seconds, 0 or more)",
            ),
        ] {
            let e = parse_records(&[line(&good), line(&bad)].concat()[..]).unwrap_err();
            assert_eq!(format!("{e:#}"), problem);
        }
        // JSON has no infinity or NaN; CSV does.
        for (text, shown) in [("inf", "inf"), ("NaN", "NaN"), ("-1e-9", "-0.000000001")] {
            let csv = RecordFormat::Csv.encode(&good, true).unwrap();
            let csv = String::from_utf8(csv).unwrap().replace(",0.25,", &format!(",{text},"));
            let e = parse_records(csv.as_bytes()).unwrap_err();
            assert_eq!(format!("{e:#}"), format!("line 2: seconds is {shown}, not a time (seconds, 0 or more)"));
        }
        // Huge but finite is a time, however unlikely: it is summarised and drawn.
        let huge = Record { seconds: 1e305, ..good.clone() };
        assert_eq!(parse_records(&line(&huge)[..]).unwrap().records, [huge]);
    }

    /// A line past the cap is an error naming it, read no further; so is an endless one.
    #[test]
    fn a_line_too_long_to_be_a_record_is_an_error_naming_it() {
        use std::io::Read as _;
        let mut bytes = RecordFormat::Jsonl.encode(&sample("a", Status::Solved), false).unwrap();
        bytes.extend(std::iter::repeat_n(b' ', MAX_RECORD_LINE + 1));
        bytes.extend(b"\n");
        let e = parse_records(&bytes[..]).unwrap_err();
        assert_eq!(format!("{e:#}"), "line 2: longer than 64 MiB, the most a record may be");
        let mut csv = RecordFormat::Csv.encode(&sample("a", Status::Solved), true).unwrap();
        csv.extend(std::iter::repeat_n(b'x', MAX_RECORD_LINE + 1));
        let e = parse_records(&csv[..]).unwrap_err();
        assert_eq!(format!("{e:#}"), "line 3: longer than 64 MiB, the most a record may be");
        let zeros = BufReader::new(io::repeat(b'{').take(1 << 30));
        assert!(parse_records(zeros).is_err());
    }
}
