//! A position drawn as a grid for the terminal: what `solve --show` prints and `--animate` redraws.

use puzzle::Board;
use std::fmt::Write as _;

/// Reverse video: the tile that just moved stands out without assuming any colour scheme.
const HIGHLIGHT: &str = "\x1b[7m";
const RESET: &str = "\x1b[0m";

/// Lines a drawn board takes (what `--animate` moves the cursor back over).
pub fn height(board: Board) -> usize {
    2 * board.rows() + 1
}

/// `cells` (tiles by cell, 0 the blank, in the user's labels) as a boxed grid ending in a newline. With
/// `highlight`, the tile `moved` is drawn in reverse video (only for a terminal: a pipe gets plain text).
pub fn draw(board: Board, cells: &[u8], moved: Option<u8>, highlight: bool) -> String {
    let width = (board.cells() - 1).to_string().len() + 2;
    let rule = format!("+{}\n", vec!["-".repeat(width); board.cols()].join("+") + "+");
    let mut s = rule.clone();
    for row in cells.chunks(board.cols()) {
        s.push('|');
        for &t in row {
            let text = if t == 0 { String::new() } else { t.to_string() };
            let text = format!("{text:^width$}");
            if highlight && t != 0 && Some(t) == moved {
                let _ = write!(s, "{HIGHLIGHT}{text}{RESET}|");
            } else {
                let _ = write!(s, "{text}|");
            }
        }
        s.push('\n');
        s.push_str(&rule);
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_board_is_a_boxed_grid_with_the_blank_empty() {
        let b = Board::new(2, 3).unwrap();
        let text = draw(b, &[1, 2, 0, 3, 4, 5], Some(2), false);
        assert_eq!(text, "+---+---+---+\n| 1 | 2 |   |\n+---+---+---+\n| 3 | 4 | 5 |\n+---+---+---+\n");
        assert_eq!(text.lines().count(), height(b));
        let lit = draw(b, &[1, 2, 0, 3, 4, 5], Some(2), true);
        assert!(lit.contains("\x1b[7m 2 \x1b[0m|"), "{lit}");
        assert!(draw(Board::FOUR, &(0..16).collect::<Vec<_>>(), None, false).contains("| 12 | 13 | 14 | 15 |"));
    }
}
