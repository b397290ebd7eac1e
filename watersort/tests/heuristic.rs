//! Every heuristic is admissible: on thousands of small random levels, at every position along an
//! optimal solution (found by breadth-first search, which uses no heuristic), the estimate is at most the
//! pours left. And the heuristics are ordered as their proofs say: boundaries ≤ runs ≤ bottoms.

use harness::water::{random_level, RULES};
use search::Puzzle;
use watersort::generate::SplitMix64;
use watersort::puzzle::WaterSort;
use watersort::{solve, Algorithm, Heuristic, Level, Model, Options, Outcome, Rule, Tubes};

fn estimate(level: &Level, tubes: &Tubes, rule: Rule, heuristic: Heuristic) -> u32 {
    let here = Level::new("t", level.capacity(), level.colours().to_vec(), tubes.tubes.clone()).unwrap();
    let (puzzle, start) = WaterSort::<8>::new(&here, Model { rule, heuristic, ..Model::default() });
    puzzle.heuristic(&start)
}

#[test]
fn estimates_never_exceed_the_pours_left() {
    let mut rng = SplitMix64::new(5);
    let mut checked = 0;
    for i in 0..3000 {
        let rule = RULES[i % 3];
        let (colours, capacity, empty) =
            (2 + rng.below(4) as usize, 2 + rng.below(3) as usize, 1 + rng.below(2) as usize);
        let level = random_level(&mut rng, colours, capacity, empty, i % 4 == 0);
        let bfs = Options {
            algorithm: Algorithm::Bfs,
            model: Model { rule, heuristic: Heuristic::Zero, ..Model::default() },
            ..Options::default()
        };
        let Outcome::Solved(pours) = solve(&level, &bfs).unwrap().outcome else { continue };
        let mut tubes = Tubes::new(&level);
        for left in (0..=pours.len()).rev() {
            let [b, r, d] =
                [Heuristic::Boundaries, Heuristic::Runs, Heuristic::Bottoms].map(|h| estimate(&level, &tubes, rule, h));
            assert!(b <= r && r <= d && d as usize <= left, "{b} {r} {d} > {left} at {:?}", tubes.tubes);
            assert_eq!(d == 0, left == 0, "only a solved position estimates 0");
            if left > 0 {
                tubes.pour(pours[pours.len() - left], rule).unwrap();
            }
            checked += 1;
        }
    }
    assert!(checked > 10_000, "{checked} positions checked");
}
