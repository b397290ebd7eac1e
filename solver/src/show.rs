//! Showing a solution as boards: the start, then the position after each move (or every k-th), or one board
//! redrawn in place on a terminal (`--animate`).

use crate::grid;
use adapters::tiles::record::user_cells;
use puzzle::{Goal, State};
use std::io::Write;
use std::time::Duration;

/// How a solution is shown besides its moves.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Show {
    /// Boards one after another: the start, every `every`-th position and the goal.
    Boards { every: usize },
    /// One board redrawn in place, `delay` between moves.
    Animate { delay: Duration },
}

/// The positions a solution passes through, in the user's labels, each with the tile (user label) whose
/// move led there (none for the start).
pub fn frames(start: &State, moves: &[u8], goal: Goal) -> Vec<(Vec<u8>, Option<u8>)> {
    let cells = start.board().cells();
    let mut s = *start;
    let mut out = vec![(user_cells(&s, goal), None)];
    for &t in moves {
        assert!(s.move_tile(t), "a solution is replayed before it is shown");
        out.push((user_cells(&s, goal), Some(goal.user_tile(cells, t))));
    }
    out
}

/// Writes the solution of `start` as `how` says; `terminal`: stdout is one (highlighting, and the cursor
/// movements of an animation; a pipe gets the boards as plain text instead).
pub fn show(
    out: &mut impl Write,
    start: &State,
    moves: &[u8],
    goal: Goal,
    how: Show,
    terminal: bool,
) -> std::io::Result<()> {
    let board = start.board();
    let frames = frames(start, moves, goal);
    let last = frames.len() - 1;
    match how {
        Show::Animate { delay } if terminal => {
            for (i, (cells, moved)) in frames.iter().enumerate() {
                if i > 0 {
                    std::thread::sleep(delay);
                    // Back to the first line of the board drawn before, and over it.
                    write!(out, "\x1b[{}A", grid::height(board) + 1)?;
                }
                writeln!(out, "move {i}/{last}\x1b[K")?;
                out.write_all(grid::draw(board, cells, *moved, true).as_bytes())?;
                out.flush()?;
            }
        }
        Show::Animate { .. } => show(out, start, moves, goal, Show::Boards { every: 1 }, false)?,
        Show::Boards { every } => {
            for (i, (cells, moved)) in frames.iter().enumerate().filter(|(i, _)| i % every == 0 || *i == last) {
                match moved {
                    None => writeln!(out, "start")?,
                    Some(t) => writeln!(out, "move {i}/{last}: tile {t}")?,
                }
                out.write_all(grid::draw(board, cells, *moved, terminal).as_bytes())?;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use puzzle::Board;

    #[test]
    fn every_kth_board_and_always_the_goal() {
        let b = Board::new(2, 3).unwrap();
        let start = puzzle::parse_tiles(b, Goal::BlankFirst, "1 2 0 3 4 5").unwrap();
        let moves = [2, 1];
        let mut out = Vec::new();
        show(&mut out, &start, &moves, Goal::BlankFirst, Show::Boards { every: 2 }, false).unwrap();
        let text = String::from_utf8(out).unwrap();
        let heads: Vec<&str> = text.lines().filter(|l| !l.starts_with(['+', '|'])).collect();
        assert_eq!(heads, ["start", "move 2/2: tile 1"]);
        assert!(text.ends_with("|   | 1 | 2 |\n+---+---+---+\n| 3 | 4 | 5 |\n+---+---+---+\n"), "{text}");
        let f = frames(&start, &moves, Goal::BlankLast);
        assert_eq!(f[1].1, Some(4), "blank-last labels: tile 2 of 6 cells is called 4");
    }
}
