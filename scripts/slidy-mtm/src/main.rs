//! Reads Korf-style lines (`id length tiles...`, blank-first) from stdin and solves each with slidy's
//! optimal 4x4 solver in the multi-tile metric, printing `id mtm-length seconds` a line; the table build
//! time first. Slidy's goal has the blank last: each position is turned a half turn and relabelled
//! (tile t to 16 - t), which keeps every distance.
use slidy::puzzle::puzzle::Puzzle;
use slidy::solver::size4x4::mtm::solver::Solver;
use std::io::BufRead;
use std::str::FromStr;
use std::time::Instant;

fn main() {
    let t = Instant::now();
    let solver = Solver::new();
    println!("slidy: tables built in {:.1} s", t.elapsed().as_secs_f64());
    let mut total = 0.0;
    for line in std::io::stdin().lock().lines() {
        let line = line.expect("stdin");
        let words: Vec<u32> = line.split_whitespace().filter_map(|w| w.parse().ok()).collect();
        if words.len() != 18 {
            continue;
        }
        let tiles = &words[2..];
        let mut turned = [0u32; 16];
        for (c, &t) in tiles.iter().enumerate() {
            turned[15 - c] = if t == 0 { 0 } else { 16 - t };
        }
        let rows: Vec<String> = turned
            .chunks(4)
            .map(|r| r.iter().map(u32::to_string).collect::<Vec<_>>().join(" "))
            .collect();
        let puzzle = Puzzle::from_str(&rows.join("/")).expect("a 4x4 position");
        let t = Instant::now();
        let solution = solver.solve(&puzzle).expect("solved");
        let secs = t.elapsed().as_secs_f64();
        total += secs;
        println!("{} {} {:.3}", words[0], solution.len_mtm::<u32>(), secs);
    }
    println!("slidy: total search {total:.1} s");
}
