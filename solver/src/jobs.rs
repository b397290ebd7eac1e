//! The instances of a batch's input: one a line, each with a unique id, filtered to a shard, read one at a
//! time so that an endless stdin is worked on as it arrives.

use crate::output::{user_tiles, Source};
use puzzle::{Board, Goal, State};
use std::collections::hash_map::Entry;
use std::collections::HashMap;
use std::io::BufRead;
use std::str::FromStr;

/// `--shard I/N`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: usize,
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

/// One instance line of the input.
#[derive(Debug)]
pub struct Job {
    pub line: u64,
    pub id: String,
    /// The tiles as written (an invalid line: its text).
    pub tiles: String,
    /// The position and the line's optimal length, or what is wrong with the line.
    pub parsed: Result<(State, Option<u32>), String>,
}

impl Job {
    pub fn source(&self, expected: Option<u32>) -> Source<'_> {
        Source { id: &self.id, line: self.line, tiles: &self.tiles, expected }
    }
}

/// Reads the jobs of an input that belong to a shard, line by line. Ids must be unique over the whole input
/// (resume and merging go by id), so a repeated id makes the later line invalid, under the id `ID@LINE`. A
/// line that is not UTF-8 is an invalid job of its own; the others are unaffected.
pub struct JobReader<R> {
    input: R,
    board: Board,
    goal: Goal,
    shard: Option<Shard>,
    first_use: HashMap<String, u64>,
    /// Lines read so far.
    pub lines: u64,
    /// Instance lines read so far (valid or not, in any shard).
    index: usize,
    /// Jobs of this shard read so far, and how many of them are valid.
    pub jobs: u64,
    pub valid: u64,
    buf: Vec<u8>,
}

impl<R: BufRead> JobReader<R> {
    pub fn new(input: R, board: Board, goal: Goal, shard: Option<Shard>) -> JobReader<R> {
        JobReader {
            input,
            board,
            goal,
            shard,
            first_use: HashMap::new(),
            lines: 0,
            index: 0,
            jobs: 0,
            valid: 0,
            buf: Vec::new(),
        }
    }

    /// The job a line describes, or `None` for a blank or comment line.
    fn parse(&mut self, line_no: u64) -> Option<Job> {
        let raw = self.buf.strip_suffix(b"\n").unwrap_or(&self.buf);
        let raw = raw.strip_suffix(b"\r").unwrap_or(raw);
        let line = match std::str::from_utf8(raw) {
            Ok(line) => line,
            Err(e) => {
                let (id, text) = (line_no.to_string(), String::from_utf8_lossy(raw).trim().to_string());
                let problem = format!("not UTF-8 text (byte {} of the line)", e.valid_up_to() + 1);
                return Some(Job { line: line_no, id, tiles: text, parsed: Err(problem) });
            }
        };
        let board = self.board;
        let (id, tiles, parsed) = match puzzle::parse_line(board, self.goal, line) {
            Ok(None) => return None,
            Ok(Some(inst)) => {
                let tiles = user_tiles(&inst.state, self.goal);
                (inst.id.unwrap_or_else(|| line_no.to_string()), tiles, Ok((inst.state, inst.optimal)))
            }
            Err(e) => {
                let words = puzzle::instance::words(line);
                let id = if words.len() == board.cells() + 2 { words[0].to_string() } else { line_no.to_string() };
                (id, line.split('#').next().unwrap_or("").trim().to_string(), Err(e.to_string()))
            }
        };
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
        Some(Job { line: line_no, id, tiles, parsed })
    }
}

impl<R: BufRead> Iterator for JobReader<R> {
    type Item = std::io::Result<Job>;

    fn next(&mut self) -> Option<std::io::Result<Job>> {
        loop {
            self.buf.clear();
            match self.input.read_until(b'\n', &mut self.buf) {
                Ok(0) => return None,
                Ok(_) => {}
                Err(e) => return Some(Err(e)),
            }
            self.lines += 1;
            let Some(job) = self.parse(self.lines) else { continue };
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

    fn read_jobs(text: &[u8], board: Board, goal: Goal, shard: Option<Shard>) -> Vec<Job> {
        JobReader::new(text, board, goal, shard).map(Result::unwrap).collect()
    }

    #[test]
    fn shards_parse_and_partition_the_instance_lines() {
        assert_eq!("1/3".parse(), Ok(Shard { index: 1, count: 3 }));
        for bad in ["3/3", "1", "a/2", "1/0", "-1/2"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
        let text = b"# c\n1 2 3 0\n\n0 1 2 3\n1 2 3\n2 0 1 3 # x\n";
        let b = Board::new(2, 2).unwrap();
        let lines = |shard| read_jobs(text, b, Goal::BlankFirst, shard).iter().map(|j| j.line).collect::<Vec<_>>();
        assert_eq!(lines(None), [2, 4, 5, 6]);
        assert_eq!(lines(Some(Shard { index: 0, count: 2 })), [2, 5]);
        assert_eq!(lines(Some(Shard { index: 1, count: 2 })), [4, 6]);
    }

    #[test]
    fn ids_come_from_the_line_or_its_number_and_repeats_are_invalid() {
        let b = Board::new(2, 2).unwrap();
        let text = b"a 0 0 1 2 3\n3 1 2 0\nb 5 1 2 3\na 0 0 1 2 3\n2 x 0 1 2 3\n";
        let jobs = read_jobs(text, b, Goal::BlankFirst, None);
        let ids: Vec<&str> = jobs.iter().map(|j| j.id.as_str()).collect();
        assert_eq!(ids, ["a", "2", "3", "a@4", "2@5"]);
        assert_eq!(jobs[0].parsed.as_ref().unwrap().1, Some(0));
        assert_eq!(jobs[1].tiles, "3 1 2 0");
        assert!(jobs[2].parsed.as_ref().unwrap_err().starts_with("expected 4 tiles"));
        assert_eq!(jobs[3].parsed.as_ref().unwrap_err(), "id 'a' is already used on line 1; ids must be unique");
        assert_eq!(jobs[4].parsed.as_ref().unwrap_err(), "the optimal length 'x' is not a number");
    }

    #[test]
    fn tiles_are_recorded_in_the_users_labels_and_a_last_line_needs_no_newline() {
        let b = Board::new(2, 2).unwrap();
        let jobs = read_jobs(b"2 3 1 0\r\n1 2 3 0", b, Goal::BlankLast, None);
        assert_eq!(jobs.iter().map(|j| j.tiles.as_str()).collect::<Vec<_>>(), ["2 3 1 0", "1 2 3 0"]);
    }
}
