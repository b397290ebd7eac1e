//! Times a whole-space exploration: `cargo run --release -p puzzle --example explore -- 3x4 [threads]`.
//! Prints each layer, then the distribution, the largest distance and (some of) the positions at it.

use puzzle::explore::explore;
use std::time::Instant;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let board = args.next().unwrap_or_else(|| "3x3".into()).parse()?;
    if let Some(threads) = args.next() {
        rayon::ThreadPoolBuilder::new().num_threads(threads.parse()?).build_global()?;
    }
    let start = Instant::now();
    let ex = explore(board, 1 << 30, &mut |l| {
        eprintln!(
            "distance {:>3}: {:>12} positions ({:>12} reached, {:.2} s)",
            l.distance, l.count, l.reached, l.seconds
        )
    })?;
    let seconds = start.elapsed().as_secs_f64();
    println!("board {board}: {} reachable, max distance {}, {:.3} s", ex.reachable(), ex.max_distance(), seconds);
    println!("counts: {:?}", ex.counts);
    println!("at max distance: {} positions; first listed:", ex.farthest_total());
    for s in ex.farthest.iter().take(10) {
        println!("  {s}");
    }
    Ok(())
}
