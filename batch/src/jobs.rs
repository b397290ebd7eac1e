//! The instances of a batch's input: one a line, each with a unique id, filtered to a shard, read one at a
//! time so that an endless stdin is worked on as it arrives. What a line means is the puzzle's (`Task::parse`),
//! given to the reader as a function: the task module knows these types, and this one knows no task.

use crate::lines::{self, Fit, MAX_LINE};
use crate::record::{Record, Status};
use crate::rows::{Row, Rows};
use std::collections::hash_map::Entry;
use std::collections::{HashMap, VecDeque};
use std::io::BufRead;
use std::str::FromStr;

/// `--shard I/N`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// Which shard this is, from 0.
    pub index: usize,
    /// How many shards the input is dealt into.
    pub count: usize,
}

impl FromStr for Shard {
    type Err = String;
    fn from_str(s: &str) -> Result<Shard, String> {
        let bad = || format!("shard '{s}' is not I/N with 0 <= I < N (e.g. 0/4)");
        let (i, n) = s.split_once('/').ok_or_else(bad)?;
        let (index, count) = (i.trim().parse().map_err(|_| bad())?, n.trim().parse().map_err(|_| bad())?);
        if index >= count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

/// What a puzzle reads from one instance line.
pub struct Line<I> {
    /// The id the line gives, if any (else the line number is used).
    pub id: Option<String>,
    /// The instance as the user wrote it, recorded and compared on resume (an invalid line: its text).
    pub text: String,
    /// The instance and the line's known optimal length, or what is wrong with the line.
    pub parsed: Result<(I, Option<u32>), String>,
}

/// One instance line of the input.
#[derive(Debug)]
pub struct Job<I> {
    /// The line's number in the input (1-based).
    pub line: u64,
    /// The line's id, else its line number (`ID@LINE` for an id an earlier line already has).
    pub id: String,
    /// The instance as written (an invalid line: its text).
    pub text: String,
    /// The instance and the line's optimal length, or what is wrong with the line.
    pub parsed: Result<(I, Option<u32>), String>,
}

/// What a record is made of besides the search: which line, its id and text, the known length.
pub struct Source<'a> {
    /// The record's id.
    pub id: &'a str,
    /// The line's number in the input (1-based).
    pub line: u64,
    /// The instance as written (an invalid line: its text).
    pub text: &'a str,
    /// The optimal length the input gave, if any.
    pub expected: Option<u32>,
}

impl Source<'_> {
    /// A record of this line with `status`, whose other fields the puzzle fills in (the rest empty).
    pub fn record(&self, status: Status) -> Record {
        Record {
            id: self.id.to_string(),
            line: self.line,
            instance: self.text.to_string(),
            status,
            expected: self.expected,
            ..Record::default()
        }
    }
}

impl<I> Job<I> {
    /// What this job's record is made of, with `expected`, the optimal length its line gave.
    pub fn source(&self, expected: Option<u32>) -> Source<'_> {
        Source { id: &self.id, line: self.line, text: &self.text, expected }
    }
}

/// What a line means: the instance it holds, or `None` for a blank or comment line.
pub type Parse<'t, I> = &'t (dyn Fn(&str) -> Option<Line<I>> + Sync);

/// Reads the jobs of an input that belong to a shard, line by line (or a grid of rows, one a line, as one
/// job: see [`JobReader::with_rows`]). Ids must be unique over the whole input (resume and merging go by id),
/// so a repeated id makes the later line invalid, under the id `ID@LINE`. A line that is not UTF-8 is an
/// invalid job of its own, and so is a line longer than [`MAX_LINE`], of which no more than that is ever
/// held; the others are unaffected.
pub struct JobReader<'t, R, I> {
    input: R,
    parse: Parse<'t, I>,
    shard: Option<Shard>,
    first_use: HashMap<String, u64>,
    /// Lines read so far.
    pub lines: u64,
    /// Instance lines read so far (valid or not, in any shard).
    index: usize,
    /// Jobs of this shard read so far.
    pub jobs: u64,
    /// How many of them are valid.
    pub valid: u64,
    /// The line being read, at most [`MAX_LINE`] bytes of it.
    buf: Vec<u8>,
    /// Whether the rest of an over-long line is still to be read past.
    skip: bool,
    /// Rows of a grid being gathered, when the puzzle's positions may be written as one.
    rows: Option<Rows>,
    /// Jobs read, not yet given out (a line that ends a grid makes two).
    ready: VecDeque<Job<I>>,
}

impl<'t, R: BufRead, I> JobReader<'t, R, I> {
    /// Reads `input` line by line, making jobs of its lines with `parse` and keeping those of `shard` (every
    /// one without it).
    pub fn new(input: R, parse: Parse<'t, I>, shard: Option<Shard>) -> Self {
        JobReader {
            input,
            parse,
            shard,
            first_use: HashMap::new(),
            lines: 0,
            index: 0,
            jobs: 0,
            valid: 0,
            buf: Vec::new(),
            skip: false,
            rows: None,
            ready: VecDeque::new(),
        }
    }

    /// Reads a position written as a grid, rows of `shape` one a line, as one job, whose line is the first
    /// row's (see [`crate::rows`]).
    pub fn with_rows(mut self, shape: Option<Row>) -> Self {
        self.rows = shape.map(Rows::new);
        self
    }

    /// Reads the next line into `ready`: a job of it, or of the grid it ends or completes (none for a blank
    /// or comment line, or a row of a grid still open). `false` at the end of the input.
    fn read(&mut self) -> std::io::Result<bool> {
        // The rest of an over-long line, whose job is already out: read past it, not into memory.
        if std::mem::take(&mut self.skip) {
            lines::skip_line(&mut self.input)?;
        }
        let Some(fit) = lines::read_line(&mut self.input, &mut self.buf, MAX_LINE)? else {
            self.flush_rows();
            return Ok(false);
        };
        self.skip = fit == Fit::TooLong;
        self.lines += 1;
        let line_no = self.lines;
        let buf = std::mem::take(&mut self.buf);
        let raw = buf.strip_suffix(b"\n").unwrap_or(&buf);
        let raw = raw.strip_suffix(b"\r").unwrap_or(raw);
        match (fit, std::str::from_utf8(raw), &mut self.rows) {
            (Fit::Whole, Ok(line), Some(rows)) => {
                let mut texts = Vec::new();
                rows.push(line_no, line, &mut |n, text| texts.push((n, text)));
                for (n, text) in texts {
                    self.text_job(n, &text);
                }
            }
            (Fit::Whole, Ok(line), None) => self.text_job(line_no, line),
            (Fit::TooLong, ..) => {
                self.flush_rows();
                self.push(line_no, None, lines::beginning(raw), Err(lines::instance_too_long(raw)));
            }
            (Fit::Whole, Err(e), _) => {
                self.flush_rows();
                let problem = format!("not UTF-8 text (byte {} of the line)", e.valid_up_to() + 1);
                self.push(line_no, None, String::from_utf8_lossy(raw).trim().to_string(), Err(problem));
            }
        }
        self.buf = buf;
        Ok(true)
    }

    /// The grid being gathered, if any, as a job: a line that cannot be part of it ends it.
    fn flush_rows(&mut self) {
        let mut texts = Vec::new();
        if let Some(rows) = &mut self.rows {
            rows.flush(&mut |n, text| texts.push((n, text)));
        }
        for (n, text) in texts {
            self.text_job(n, &text);
        }
    }

    /// The job of a line's (or a grid's) text, if it is not blank or a comment.
    fn text_job(&mut self, line_no: u64, text: &str) {
        if let Some(Line { id, text, parsed }) = (self.parse)(text) {
            self.push(line_no, id, text, parsed);
        }
    }

    /// Makes the job of line `line_no` with a unique id, ready to be given out.
    fn push(&mut self, line_no: u64, id: Option<String>, text: String, parsed: Result<(I, Option<u32>), String>) {
        let id = id.unwrap_or_else(|| line_no.to_string());
        let (id, parsed) = match self.first_use.entry(id) {
            Entry::Vacant(v) => {
                let id = v.key().clone();
                v.insert(line_no);
                (id, parsed)
            }
            // An invalid line keeps its own problem; only its id is made unique.
            Entry::Occupied(o) => {
                let problem = match parsed {
                    Ok(_) => format!("id '{}' is already used on line {}; ids must be unique", o.key(), o.get()),
                    Err(e) => e,
                };
                (format!("{}@{line_no}", o.key()), Err(problem))
            }
        };
        self.ready.push_back(Job { line: line_no, id, text, parsed });
    }
}

impl<R: BufRead, I> Iterator for JobReader<'_, R, I> {
    type Item = std::io::Result<Job<I>>;

    fn next(&mut self) -> Option<std::io::Result<Job<I>>> {
        loop {
            let Some(job) = self.ready.pop_front() else {
                match self.read() {
                    Ok(true) => continue,
                    Ok(false) if self.ready.is_empty() => return None,
                    Ok(false) => continue,
                    Err(e) => return Some(Err(e)),
                }
            };
            let mine = self.shard.is_none_or(|s| self.index % s.count == s.index);
            self.index += 1;
            if mine {
                self.jobs += 1;
                self.valid += job.parsed.is_ok() as u64;
                return Some(Ok(job));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Lines of numbers: `id length n` or a bare `n`; a word that is not a number is invalid.
    fn numbers(line: &str) -> Option<Line<u32>> {
        let words: Vec<&str> = line.split('#').next()?.split_whitespace().collect();
        let parse = |w: &str| w.parse::<u32>().map_err(|_| format!("'{w}' is not a number"));
        match words[..] {
            [] => None,
            [n] => Some(Line { id: None, text: n.into(), parsed: parse(n).map(|n| (n, None)) }),
            [id, len, n] => Some(Line {
                id: Some(id.into()),
                text: n.into(),
                parsed: parse(len).and_then(|l| Ok((parse(n)?, Some(l)))),
            }),
            _ => Some(Line { id: None, text: line.trim().into(), parsed: Err("one or three words".into()) }),
        }
    }

    fn read_jobs(text: &[u8], shard: Option<Shard>) -> Vec<Job<u32>> {
        JobReader::new(text, &numbers, shard).map(Result::unwrap).collect()
    }

    #[test]
    fn shards_parse_and_partition_the_instance_lines() {
        assert_eq!("1/3".parse(), Ok(Shard { index: 1, count: 3 }));
        for bad in ["3/3", "1", "a/2", "1/0", "-1/2"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
        let text = b"# c\n1\n\n2\nx y\n3 # x\n";
        let lines = |shard| read_jobs(text, shard).iter().map(|j| j.line).collect::<Vec<_>>();
        assert_eq!(lines(None), [2, 4, 5, 6]);
        assert_eq!(lines(Some(Shard { index: 0, count: 2 })), [2, 5]);
        assert_eq!(lines(Some(Shard { index: 1, count: 2 })), [4, 6]);
    }

    #[test]
    fn ids_come_from_the_line_or_its_number_and_repeats_are_invalid() {
        let text = b"a 0 5\n7\nb x 1\na 0 5\n2 1 x\n\xff 1\n";
        let jobs = read_jobs(text, None);
        let ids: Vec<&str> = jobs.iter().map(|j| j.id.as_str()).collect();
        assert_eq!(ids, ["a", "2", "b", "a@4", "2@5", "6"]);
        assert_eq!(jobs[0].parsed, Ok((5, Some(0))));
        assert_eq!(jobs[1].text, "7");
        assert_eq!(jobs[2].parsed, Err("'x' is not a number".to_string()));
        assert_eq!(jobs[3].parsed, Err("id 'a' is already used on line 1; ids must be unique".to_string()));
        assert_eq!(jobs[4].parsed, Err("'x' is not a number".to_string()));
        assert_eq!(jobs[5].parsed, Err("not UTF-8 text (byte 1 of the line)".to_string()));
    }

    /// With rows of a shape, a grid of rows, one a line, is one job on its first line; the lines around it,
    /// a bad line within it and the shard count are as for lines.
    #[test]
    fn a_grid_of_rows_is_one_job_on_its_first_line() {
        fn sum(line: &str) -> Option<Line<u32>> {
            let words: Vec<&str> = line.split('#').next()?.split_whitespace().collect();
            let parsed: Result<u32, String> =
                words.iter().map(|w| w.parse::<u32>().map_err(|_| format!("'{w}' is not a number"))).sum();
            (!words.is_empty()).then(|| Line { id: None, text: words.join(" "), parsed: parsed.map(|n| (n, None)) })
        }
        let count = |line: &str| line.split('#').next().unwrap_or_default().split_whitespace().count();
        let shape = Row { cols: 2, cells: 4, words: count };
        let text = b"# two rows\n1 2\n3 4\n\n5 6 7 8\n1 1\n\xff\n2 2\r\n2 2\n1 1\n";
        let jobs: Vec<Job<u32>> =
            JobReader::new(&text[..], &sum, None).with_rows(Some(shape)).map(Result::unwrap).collect();
        let got: Vec<(u64, &str, &str)> = jobs.iter().map(|j| (j.line, j.id.as_str(), j.text.as_str())).collect();
        let want = [
            (2, "2", "1 2 3 4"),
            (5, "5", "5 6 7 8"),
            (6, "6", "1 1"),
            (7, "7", "\u{fffd}"),
            (8, "8", "2 2 2 2"),
            (10, "10", "1 1"),
        ];
        assert_eq!(got, want);
        assert_eq!(jobs[0].parsed, Ok((10, None)));
        let mut reader = JobReader::new(&text[..], &sum, Some(Shard { index: 1, count: 2 })).with_rows(Some(shape));
        let lines: Vec<u64> = reader.by_ref().map(|j| j.unwrap().line).collect();
        assert_eq!((lines, reader.jobs), (vec![5, 7, 10], 3));
    }

    #[test]
    fn a_last_line_needs_no_newline_and_crlf_is_one_line_end() {
        let jobs = read_jobs(b"1\r\n2", None);
        assert_eq!(jobs.iter().map(|j| j.text.as_str()).collect::<Vec<_>>(), ["1", "2"]);
    }

    /// A line past the cap is one invalid job that quotes its beginning, read in bounded memory; the lines
    /// around it are read as ever.
    #[test]
    fn a_line_past_the_cap_is_one_invalid_job_quoting_its_beginning() {
        let mut text = b"1\n".to_vec();
        text.extend(std::iter::repeat_n(b'7', 10 << 20));
        text.extend(b"\n2\n");
        let jobs = read_jobs(&text, None);
        let got: Vec<(u64, &str)> = jobs.iter().map(|j| (j.line, j.text.as_str())).collect();
        let quoted = format!("{}…", "7".repeat(48));
        assert_eq!(got, [(1, "1"), (2, quoted.as_str()), (3, "2")]);
        let problem = format!("longer than 64 KiB, the most an instance line may be (it begins '{quoted}')");
        assert_eq!(jobs[1].parsed, Err(problem));
        assert_eq!((jobs[1].id.as_str(), jobs[2].parsed.clone()), ("2", Ok((2, None))));
    }

    /// A stream without a newline (`/dev/zero`) gives its job as soon as the cap is passed, and ends with it.
    #[test]
    fn a_stream_without_a_newline_is_one_invalid_job() {
        use std::io::Read;
        let zeros = std::io::BufReader::new(std::io::repeat(0).take(50 << 20));
        let mut reader = JobReader::new(zeros, &numbers, None);
        let job = reader.next().unwrap().unwrap();
        assert!(job.parsed.unwrap_err().starts_with("longer than 64 KiB"));
        assert!(reader.buf.capacity() <= 2 * MAX_LINE, "{}", reader.buf.capacity());
        assert!(reader.next().is_none());
    }

    /// The line numbers that lines without an id of their own use are unique like any other id.
    #[test]
    fn an_unreadable_line_does_not_take_an_id_already_given() {
        let jobs = read_jobs(b"2 0 5\n\xff\n", None);
        assert_eq!(jobs.iter().map(|j| j.id.as_str()).collect::<Vec<_>>(), ["2", "2@2"]);
    }
}
