//! How a puzzle joins the library: implement [`search::Puzzle`] (its successors and its goal test, the rest
//! optional) and hand it to any algorithm. Here the two-jug riddle: with a 3-litre and a 5-litre jug and a
//! tap, measure exactly 4 litres. Six steps do it, and none fewer; with jugs of 2 and 4 litres no odd
//! amount can ever be measured, which the search proves by running out of positions.
//!
//! `cargo run -p search --example water_jugs`; `cargo test -p search --example water_jugs` checks it.

use search::{bfs, run, Algorithm, Limits, Outcome, Puzzle, SearchError};

/// Two jugs of these sizes, to be brought to `target` litres in either.
struct Jugs {
    size: [u8; 2],
    target: u8,
}

/// What each jug holds: a state is any small value that can be cloned, compared and hashed.
type Litres = [u8; 2];

/// A move, as solutions report it.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Step {
    Fill(usize),
    Empty(usize),
    /// From one jug into the other, until the first is empty or the second full.
    Pour(usize),
}

impl Jugs {
    fn play(&self, mut jugs: Litres, step: Step) -> Litres {
        match step {
            Step::Fill(j) => jugs[j] = self.size[j],
            Step::Empty(j) => jugs[j] = 0,
            Step::Pour(from) => {
                let to = 1 - from;
                let poured = jugs[from].min(self.size[to] - jugs[to]);
                jugs[from] -= poured;
                jugs[to] += poured;
            }
        }
        jugs
    }
}

impl Puzzle for Jugs {
    type State = Litres;
    type Move = Step;

    /// Every step, in a fixed order; one that changes nothing leads back to the same state, which the
    /// search already holds, so it need not be left out.
    fn successors(&self, &jugs: &Litres, mut visit: impl FnMut(Step, Litres)) {
        for step in [Step::Fill(0), Step::Fill(1), Step::Empty(0), Step::Empty(1), Step::Pour(0), Step::Pour(1)] {
            visit(step, self.play(jugs, step));
        }
    }

    fn is_goal(&self, jugs: &Litres) -> bool {
        jugs.contains(&self.target)
    }
    // No `heuristic` (0: A* and IDA* search like breadth-first), no `canonical` (no symmetry), no single
    // `goal` (either jug may hold the target), no cheap `unsolvable` test: the defaults say so.
}

/// The fewest steps measuring 4 litres with jugs of 3 and 5, checked by replaying them.
fn measure_four() -> Vec<Step> {
    let jugs = Jugs { size: [3, 5], target: 4 };
    let report = bfs(&jugs, &[0, 0], &Limits::default(), &mut |_| {}).unwrap();
    let Outcome::Solved(steps) = report.outcome else { panic!("{:?}", report.outcome) };
    let end = steps.iter().fold([0, 0], |litres, &step| jugs.play(litres, step));
    assert!(jugs.is_goal(&end) && steps.len() == 6, "{steps:?}");
    steps
}

/// Jugs of 2 and 4 litres hold only even amounts: every algorithm that keeps a table of the positions
/// seen proves 1 litre out of reach; IDA*, which keeps none, could only go round in circles. Bidirectional
/// search refuses at once: this puzzle has no single goal.
fn odd_from_even() {
    let jugs = Jugs { size: [2, 4], target: 1 };
    for algorithm in [Algorithm::Bfs, Algorithm::Astar, Algorithm::Greedy, Algorithm::Dfs] {
        let report = run(algorithm, &jugs, &[0, 0], &Limits::default(), &mut |_| {}).unwrap();
        assert_eq!(report.outcome, Outcome::Unsolvable, "{algorithm:?}");
    }
    let refused = run(Algorithm::Bibfs, &jugs, &[0, 0], &Limits::default(), &mut |_| {});
    assert_eq!(refused.unwrap_err(), SearchError::NeedsGoal);
}

fn main() {
    println!("4 litres with jugs of 3 and 5, in 6 steps: {:?}", measure_four());
    odd_from_even();
    println!("1 litre with jugs of 2 and 4: unsolvable, every reachable position tried");
}

#[test]
fn four_litres_take_six_steps() {
    measure_four();
}

#[test]
fn no_odd_amount_from_even_jugs() {
    odd_from_even();
}
