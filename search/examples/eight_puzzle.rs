//! The 8-puzzle solved by every algorithm of the library, from the start position of Russell and Norvig's
//! figure 3.4 (26 moves from the goal with the blank in the top left corner), and a position with two
//! tiles swapped, which no algorithm needs to search to know is unsolvable.
//!
//! `cargo run -p search --example eight_puzzle`; `cargo test -p search --example eight_puzzle` checks it.

use search::{run, Algorithm, Limits, Outcome, Puzzle};

/// 3x3 tiles, 0 the blank; the goal is `0 1 2 / 3 4 5 / 6 7 8`, tile `t` at cell `t`.
struct EightPuzzle;

/// Cells, row by row, packed four bits a cell (cell 0 lowest): small and cheap to hash, as the library
/// asks of a state.
type Board = u64;

/// The direction the blank moves.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Slide {
    Up,
    Down,
    Left,
    Right,
}

const SLIDES: [Slide; 4] = [Slide::Up, Slide::Down, Slide::Left, Slide::Right];

fn pack(tiles: [u8; 9]) -> Board {
    tiles.iter().rev().fold(0, |board, &t| board << 4 | t as u64)
}

fn tile(board: Board, cell: usize) -> u8 {
    (board >> (4 * cell) & 0xf) as u8
}

fn blank(board: Board) -> usize {
    (0..9).find(|&cell| tile(board, cell) == 0).expect("a board has a blank")
}

/// The board after `slide`, `None` when it would take the blank off the board.
fn play(board: Board, slide: Slide) -> Option<Board> {
    let from = blank(board);
    let (row, col) = (from / 3, from % 3);
    let to = match slide {
        Slide::Up if row > 0 => from - 3,
        Slide::Down if row < 2 => from + 3,
        Slide::Left if col > 0 => from - 1,
        Slide::Right if col < 2 => from + 1,
        _ => return None,
    };
    // The blank is 0, so moving the tile from `to` into `from` is all it takes.
    let t = tile(board, to) as u64;
    Some(board & !(0xf << (4 * to)) | t << (4 * from))
}

/// Tile `t` in cell `t`, four bits a cell.
const GOAL: Board = 0x8_7654_3210;

impl Puzzle for EightPuzzle {
    type State = Board;
    type Move = Slide;

    fn successors(&self, &board: &Board, mut visit: impl FnMut(Slide, Board)) {
        for slide in SLIDES {
            if let Some(next) = play(board, slide) {
                visit(slide, next);
            }
        }
    }

    fn is_goal(&self, &board: &Board) -> bool {
        board == GOAL
    }

    /// Manhattan distance: each tile needs at least as many moves as it is rows and columns from home.
    fn heuristic(&self, &board: &Board) -> u32 {
        (0..9)
            .map(|cell| match tile(board, cell) as usize {
                0 => 0,
                t => ((cell / 3).abs_diff(t / 3) + (cell % 3).abs_diff(t % 3)) as u32,
            })
            .sum()
    }

    /// One goal, and every slide is undone by the opposite one: bidirectional search can run.
    fn goal(&self) -> Option<Board> {
        Some(GOAL)
    }

    /// A slide changes the number of inverted tile pairs by 0 or 2, and the goal has none: an odd count
    /// can never be solved.
    fn unsolvable(&self, &board: &Board) -> bool {
        let tiles: Vec<u8> = (0..9).map(|cell| tile(board, cell)).filter(|&t| t != 0).collect();
        let inversions = (0..8).flat_map(|i| (i + 1..8).map(move |j| (i, j))).filter(|&(i, j)| tiles[i] > tiles[j]);
        inversions.count() % 2 == 1
    }
}

const ALGORITHMS: [Algorithm; 6] =
    [Algorithm::Bfs, Algorithm::Bibfs, Algorithm::Astar, Algorithm::Ida, Algorithm::Greedy, Algorithm::Dfs];

/// The textbook start and its fewest moves.
const START: [u8; 9] = [7, 2, 4, 5, 0, 6, 8, 3, 1];
const FEWEST: usize = 26;

/// Solves the textbook start with `algorithm`, checks the answer (it replays to the goal; the fewest moves
/// when the algorithm promises them) and returns its moves and the nodes expanded.
fn solve(algorithm: Algorithm) -> (Vec<Slide>, u64) {
    let start = pack(START);
    let report = run(algorithm, &EightPuzzle, &start, &Limits::default(), &mut |_| {}).unwrap();
    let Outcome::Solved(moves) = report.outcome else { panic!("{algorithm:?}: {:?}", report.outcome) };
    let end = moves.iter().try_fold(start, |board, &slide| play(board, slide));
    assert_eq!(end, Some(GOAL), "{algorithm:?}'s moves do not reach the goal");
    if algorithm.optimal() {
        assert_eq!(moves.len(), FEWEST, "{algorithm:?}");
    } else {
        assert!(moves.len() >= FEWEST, "{algorithm:?}");
    }
    (moves, report.stats.expanded)
}

/// Checks that every algorithm proves the swapped position unsolvable without expanding a node.
fn refuse_swapped() {
    let mut swapped = START;
    swapped.swap(0, 1);
    for algorithm in ALGORITHMS {
        let report = run(algorithm, &EightPuzzle, &pack(swapped), &Limits::default(), &mut |_| {}).unwrap();
        assert_eq!((report.outcome, report.stats.expanded), (Outcome::Unsolvable, 0), "{algorithm:?}");
    }
}

fn main() {
    println!("7 2 4 / 5 _ 6 / 8 3 1 to _ 1 2 / 3 4 5 / 6 7 8 (the blank's moves):");
    for algorithm in ALGORITHMS {
        let (moves, expanded) = solve(algorithm);
        // The shortest paths spelled out, one letter a move; the others are too long to read.
        let path: String = match algorithm.optimal() {
            true => moves.iter().map(|slide| format!("{slide:?}").remove(0)).collect(),
            false => "(not the fewest)".into(),
        };
        println!("{:>6}: {:>3} moves, {expanded:>6} nodes expanded  {path}", format!("{algorithm:?}"), moves.len());
    }
    refuse_swapped();
    println!("2 7 4 / 5 _ 6 / 8 3 1 (two tiles swapped): unsolvable by parity, for every algorithm");
}

#[test]
fn every_algorithm_solves_the_textbook_start() {
    for algorithm in ALGORITHMS {
        solve(algorithm);
    }
}

#[test]
fn two_tiles_swapped_are_unsolvable() {
    refuse_swapped();
}
