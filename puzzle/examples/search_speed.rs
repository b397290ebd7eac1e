//! Times every search algorithm on a few 3x3 positions (the two hardest, 31 moves, and one at 20 moves):
//! `cargo run --release -p puzzle --example search_speed`. Prints moves, expansions, peak states and time.

use puzzle::exhaustive::distances;
use puzzle::tiles_search::{linear_conflict, manhattan};
use puzzle::Board;
use search::{run, Algorithm, Limits, Outcome};

fn main() {
    let board: Board = "3x3".parse().expect("a board");
    let dist = distances(board);
    let mut starts: Vec<(u64, u8)> = dist.iter().filter(|&(_, &d)| d == 31 || d == 20).map(|(&s, &d)| (s, d)).collect();
    starts.sort_unstable_by_key(|&(s, d)| (std::cmp::Reverse(d), s));
    starts.truncate(3);
    let algorithms = [Algorithm::Bfs, Algorithm::Bibfs, Algorithm::Astar, Algorithm::Ida, Algorithm::Greedy];
    for (start, d) in starts {
        println!("start {start:09x} ({d} moves)");
        for (name, report) in algorithms
            .iter()
            .map(|&alg| {
                (format!("{alg:?} manhattan"), run(alg, &manhattan(board), &start, &Limits::default(), &mut |_| {}))
            })
            .chain([Algorithm::Astar, Algorithm::Ida].iter().map(|&alg| {
                (
                    format!("{alg:?} linear conflict"),
                    run(alg, &linear_conflict(board), &start, &Limits::default(), &mut |_| {}),
                )
            }))
        {
            let report = report.expect("tiles are reversible and have no canonical form");
            let moves = match &report.outcome {
                Outcome::Solved(m) => m.len().to_string(),
                other => format!("{other:?}"),
            };
            let s = &report.stats;
            println!(
                "  {name:<24} {moves:>4} moves {:>9} expanded {:>9} peak stored {:>10.3} ms {:>6.1} M expanded/s",
                s.expanded,
                s.peak_stored,
                s.seconds * 1e3,
                s.expanded as f64 / s.seconds / 1e6
            );
        }
    }
}
