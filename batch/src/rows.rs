//! A position typed or pasted as a grid, one row a line (`8 2 0` / `4 6 1` / `3 7 5`), read as one position:
//! a line of exactly as many words as a row has is a row, and rows are joined until they hold a whole
//! position (or a blank or other line ends them, which then fails to parse, saying so). Any other line is
//! read on its own, so that a short or mistyped line is reported as itself. Batch files and stdin read grids
//! alike; the puzzle says what a row is ([`crate::Task::rows`]).

/// What a row of the puzzle's positions is: how many words, and how many make a position.
#[derive(Clone, Copy)]
pub struct Row {
    /// Words a row has (the board's columns).
    pub cols: usize,
    /// Words a whole position has (the board's cells).
    pub cells: usize,
    /// The words of a line, as the puzzle counts them (a comment is none).
    pub words: fn(&str) -> usize,
}

/// Rows gathered into positions, line by line.
pub struct Rows {
    shape: Row,
    /// Rows of a grid not yet complete, and the line of the first.
    pending: Option<(u64, String)>,
}

impl Rows {
    /// Gathers rows of `shape`.
    pub fn new(shape: Row) -> Rows {
        Rows { shape, pending: None }
    }

    /// Takes line `line` of the input (`text`, without its newline); what is ready as a result, as
    /// `(first line, text)`, goes to `ready`: an unfinished grid this line ends, then this line if it is
    /// not a row, or the grid it completes.
    pub fn push(&mut self, line: u64, text: &str, ready: &mut impl FnMut(u64, String)) {
        let words = (self.shape.words)(text);
        if words == 0 {
            self.flush(ready);
        } else if words != self.shape.cols {
            self.flush(ready);
            ready(line, text.to_string());
        } else {
            let (_, rows) = self.pending.get_or_insert_with(|| (line, String::new()));
            if !rows.is_empty() {
                rows.push(' ');
            }
            rows.push_str(text.split('#').next().unwrap_or_default().trim());
            if (self.shape.words)(rows) >= self.shape.cells {
                self.flush(ready);
            }
        }
    }

    /// The rows gathered so far as one position (an incomplete grid then fails to parse, saying so): at a
    /// blank line, a line that is no row, a line that cannot be read, or the end of the input.
    pub fn flush(&mut self, ready: &mut impl FnMut(u64, String)) {
        if let Some((line, text)) = self.pending.take() {
            ready(line, text);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &str) -> usize {
        line.split('#').next().unwrap_or_default().split_whitespace().count()
    }

    #[test]
    fn rows_are_joined_and_other_lines_kept_apart() {
        let mut rows = Rows::new(Row { cols: 3, cells: 6, words });
        let mut got = Vec::new();
        let mut ready = |line, text| got.push((line, text));
        for (n, line) in ["1 2 0", "3 4 5  # a row", "", "a 7 1 2 0 3 4 5", "1 2 0", "7", "1 2 3"].iter().enumerate() {
            rows.push(n as u64 + 1, line, &mut ready);
        }
        rows.flush(&mut ready);
        let want = [(1, "1 2 0 3 4 5"), (4, "a 7 1 2 0 3 4 5"), (5, "1 2 0"), (6, "7"), (7, "1 2 3")];
        assert_eq!(got, want.map(|(n, t)| (n, t.to_string())));
    }
}
