//! Positions read from a stream: one a line (`tiles` or `id length tiles`), or typed as a grid, one row a
//! line, with a blank line between positions (`batch::rows`, as batch files are read).

use batch::lines::{self, Fit, MAX_LINE};
use batch::rows::{Row, Rows};
use puzzle::Board;
use std::collections::VecDeque;
use std::io::BufRead;

/// One position's text and the line it starts on, or why a line could not be read.
pub type Item = (u64, Result<String, String>);

/// The positions of a stream, in order.
pub struct Positions<R> {
    input: R,
    line: u64,
    rows: Rows,
    ready: VecDeque<Item>,
    /// Whether the rest of an over-long line is still to be read past.
    skip: bool,
}

/// The words of a line as a tile position counts them.
fn words(line: &str) -> usize {
    puzzle::instance::words(line).len()
}

impl<R: BufRead> Positions<R> {
    pub fn new(input: R, board: Board) -> Positions<R> {
        let shape = Row { cols: board.cols(), cells: board.cells(), words };
        Positions { input, line: 0, rows: Rows::new(shape), ready: VecDeque::new(), skip: false }
    }

    /// The rows gathered so far as one position (an incomplete grid then fails to parse, saying so).
    fn flush(&mut self) {
        let ready = &mut self.ready;
        self.rows.flush(&mut |line, text| ready.push_back((line, Ok(text))));
    }

    /// Reads lines until a position is ready or the input ends. A line longer than [`MAX_LINE`] is an error of
    /// its own, and no more of it than that is held.
    fn fill(&mut self) -> std::io::Result<()> {
        let mut raw = Vec::new();
        while self.ready.is_empty() {
            if std::mem::take(&mut self.skip) {
                lines::skip_line(&mut self.input)?;
            }
            let Some(fit) = lines::read_line(&mut self.input, &mut raw, MAX_LINE)? else {
                self.flush();
                return Ok(());
            };
            self.line += 1;
            if fit == Fit::TooLong {
                self.skip = true;
                self.flush();
                self.ready.push_back((self.line, Err(lines::instance_too_long(&raw))));
                continue;
            }
            match std::str::from_utf8(&raw) {
                Ok(text) => {
                    let ready = &mut self.ready;
                    self.rows.push(self.line, text.trim_end(), &mut |line, text| ready.push_back((line, Ok(text))));
                }
                Err(e) => {
                    self.flush();
                    let why = format!("not UTF-8 text (byte {} of the line)", e.valid_up_to() + 1);
                    self.ready.push_back((self.line, Err(why)));
                }
            }
        }
        Ok(())
    }
}

impl<R: BufRead> Iterator for Positions<R> {
    type Item = std::io::Result<Item>;

    fn next(&mut self) -> Option<Self::Item> {
        if let Err(e) = self.fill() {
            return Some(Err(e));
        }
        self.ready.pop_front().map(Ok)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Vec<Item> {
        Positions::new(text.as_bytes(), Board::new(2, 3).unwrap()).map(Result::unwrap).collect()
    }

    #[test]
    fn lines_and_grids_mix() {
        let got = read("# two ways\n1 2 0 3 4 5\n\n1 2 0\n3 4 5\n\na 7 1 2 0 3 4 5\n1 2\n\n");
        let want = [
            (2, Ok("1 2 0 3 4 5".to_string())),
            (4, Ok("1 2 0 3 4 5".to_string())),
            (7, Ok("a 7 1 2 0 3 4 5".to_string())),
            (8, Ok("1 2".to_string())),
        ];
        assert_eq!(got, want);
        let bad: Vec<Item> =
            Positions::new(&b"1 2 0\n\xff\n"[..], Board::new(2, 3).unwrap()).map(Result::unwrap).collect();
        assert_eq!(bad, [(1, Ok("1 2 0".to_string())), (2, Err("not UTF-8 text (byte 1 of the line)".to_string()))]);
    }

    /// A line past the cap is one error quoting its beginning, held no longer than the cap; the next line is
    /// read as ever.
    #[test]
    fn a_line_past_the_cap_is_an_error_of_its_own() {
        let mut text = vec![b'1'; 10 << 20];
        text.extend(b"\n1 2 0 3 4 5\n");
        let got: Vec<Item> = Positions::new(&text[..], Board::new(2, 3).unwrap()).map(Result::unwrap).collect();
        let problem = format!("longer than 64 KiB, the most an instance line may be (it begins '{}…')", "1".repeat(48));
        assert_eq!(got, [(1, Err(problem)), (2, Ok("1 2 0 3 4 5".to_string()))]);
    }
}
