//! Lines read with a cap on their length, so that what a line holds never decides how much memory is used:
//! a stream without a newline (`/dev/zero`) or a file with one huge line would otherwise be read whole
//! before anything looks at it (a 99 MB line cost 1.9 GB, and `/dev/zero` grew until the allocator gave up).

use cli_common::text::printable;
use cli_common::units::human_bytes;
use std::io::{self, BufRead, Read};

/// The longest instance line read (64 KiB, line end not counted). The longest real line is a few hundred
/// bytes (a 5x5 position with its id and length is under 100, a water sort level of many tubes a few
/// hundred); the cap leaves room for lines padded with comments or spaces a hundred times over, while an
/// input that is not instance lines at all costs at most this much a line.
pub const MAX_LINE: usize = 64 * 1024;

/// The longest record line read back from a record file (64 MiB). A record is short but for its moves,
/// which a search that does not promise the shortest (`dfs`, `greedy`) may make long: this is over twenty
/// million tile moves, more than such a search stores within its memory limit, and what a record file that
/// is no such file (`report /dev/zero`) can make a report hold.
pub const MAX_RECORD_LINE: usize = 64 * 1024 * 1024;

/// How much of an over-long line is quoted when saying what it is.
const QUOTED: usize = 48;

/// How a line read by [`read_line`] fitted its cap.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fit {
    /// A whole line, with its newline (the last line of the input may have none).
    Whole,
    /// A line longer than the cap: its first bytes are read, the rest is not (see [`skip_line`]).
    TooLong,
}

/// Reads the next line of `input` into `buf` (cleared first) with its newline, as `read_until` does, but
/// storing at most `max` bytes of it: `None` at the end of the input, else whether the line fitted. A longer
/// line leaves its first `max` bytes in `buf` and the rest unread, so that the caller can answer it (an
/// endless line is then answered at once) before skipping the rest with [`skip_line`].
pub fn read_line(input: &mut impl BufRead, buf: &mut Vec<u8>, max: usize) -> io::Result<Option<Fit>> {
    buf.clear();
    // One byte past the cap: a line of exactly `max` bytes still has its newline read.
    if input.by_ref().take(max as u64 + 1).read_until(b'\n', buf)? == 0 {
        return Ok(None);
    }
    if buf.last() != Some(&b'\n') && buf.len() > max {
        buf.truncate(max);
        return Ok(Some(Fit::TooLong));
    }
    Ok(Some(Fit::Whole))
}

/// Reads past the rest of the current line (through its newline, or to the end of the input) without
/// keeping it, in constant memory.
pub fn skip_line(input: &mut impl BufRead) -> io::Result<()> {
    loop {
        let (used, done) = {
            let chunk = input.fill_buf()?;
            match chunk.iter().position(|&b| b == b'\n') {
                Some(i) => (i + 1, true),
                None => (chunk.len(), chunk.is_empty()),
            }
        };
        input.consume(used);
        if done {
            return Ok(());
        }
    }
}

/// The beginning of an over-long line, as its record's text and its problem quote it: enough to recognise
/// it, with `…` for the rest.
pub fn beginning(line: &[u8]) -> String {
    let head = &line[..line.len().min(QUOTED)];
    // A character cut in two at the end is left out rather than shown as a replacement character.
    let text = match std::str::from_utf8(head) {
        Ok(text) => text.to_string(),
        Err(e) if e.error_len().is_none() => String::from_utf8_lossy(&head[..e.valid_up_to()]).into_owned(),
        Err(_) => String::from_utf8_lossy(head).into_owned(),
    };
    format!("{text}…")
}

/// What is wrong with an instance line longer than [`MAX_LINE`] whose first bytes are `start`: the cap, and
/// the line's beginning, printable, to find it by.
pub fn instance_too_long(start: &[u8]) -> String {
    format!("{} (it begins '{}')", too_long(MAX_LINE, "an instance line"), printable(&beginning(start)))
}

/// What is wrong with a line longer than `max` bytes, the most `what` may be.
pub fn too_long(max: usize, what: &str) -> String {
    format!("longer than {}, the most {what} may be", human_bytes(max as u64))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every line of `input` as `read_line` and `skip_line` see it with a cap of `max`.
    fn lines(mut input: &[u8], max: usize) -> Vec<(String, Fit)> {
        let (mut buf, mut all) = (Vec::new(), Vec::new());
        while let Some(read) = read_line(&mut input, &mut buf, max).unwrap() {
            if read == Fit::TooLong {
                skip_line(&mut input).unwrap();
            }
            all.push((String::from_utf8(buf.clone()).unwrap(), read));
        }
        all
    }

    #[test]
    fn lines_past_the_cap_are_cut_and_the_next_line_is_read_whole() {
        use Fit::*;
        let got = lines(b"abcd\nabcde\nabcdefghij\n\nxy", 5);
        let want = [("abcd\n", Whole), ("abcde\n", Whole), ("abcde", TooLong), ("\n", Whole), ("xy", Whole)];
        assert_eq!(got, want.map(|(s, r)| (s.to_string(), r)));
        // A last line past the cap without a newline, and one exactly at it.
        assert_eq!(lines(b"abcdefgh", 5), [("abcde".to_string(), TooLong)]);
        assert_eq!(lines(b"abcde", 5), [("abcde".to_string(), Whole)]);
    }

    /// A stream without a newline is answered after the cap, and skipping it reads, not stores.
    #[test]
    fn an_endless_line_is_answered_at_the_cap() {
        let mut zeros = io::BufReader::new(io::repeat(0).take(50 << 20));
        let mut buf = Vec::new();
        assert_eq!(read_line(&mut zeros, &mut buf, MAX_LINE).unwrap(), Some(Fit::TooLong));
        assert_eq!(buf.len(), MAX_LINE);
        assert!(buf.capacity() < 2 * MAX_LINE + 64, "{}", buf.capacity());
        skip_line(&mut zeros).unwrap();
        assert_eq!(read_line(&mut zeros, &mut buf, MAX_LINE).unwrap(), None);
    }

    #[test]
    fn a_long_line_is_quoted_by_its_beginning() {
        assert_eq!(beginning("é".repeat(30).as_bytes()), format!("{}…", "é".repeat(24)));
        assert_eq!(
            beginning(&[b'a'; 47].iter().chain("é".as_bytes()).copied().collect::<Vec<_>>()),
            format!("{}…", "a".repeat(47))
        );
        assert_eq!(too_long(MAX_LINE, "a line"), "longer than 64 KiB, the most a line may be");
        assert_eq!(too_long(MAX_RECORD_LINE, "a record"), "longer than 64 MiB, the most a record may be");
        assert_eq!(too_long(100, "it"), "longer than 100 B, the most it may be");
        assert_eq!(
            instance_too_long(b"\0\x1b[2J"),
            r"longer than 64 KiB, the most an instance line may be (it begins '\u{0}\u{1b}[2J…')"
        );
    }
}
