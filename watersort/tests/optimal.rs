//! Optimal lengths from every optimal algorithm, heuristic, pruning switch and symmetry setting equal an
//! independent plain BFS on hundreds of small random levels under every pour rule; every solution
//! replays on the reference model; unsolvable levels are reported unsolvable.

use harness::water::{random_level, reference_length, replays, RULES};
use watersort::generate::SplitMix64;
use watersort::{solve, Algorithm, Heuristic, Model, Options, Outcome, Pruning};

fn length(level: &watersort::Level, options: &Options) -> Option<usize> {
    let solution = solve(level, options).expect("no internal error");
    match solution.outcome {
        Outcome::Solved(pours) => {
            assert!(replays(level, options.model.rule, &pours), "{options:?} {pours:?} on {}", level.to_line());
            Some(pours.len())
        }
        Outcome::Unsolvable => None,
        Outcome::Stopped(s) => panic!("stopped without limits: {s:?}"),
    }
}

fn configurations(rule: watersort::Rule) -> Vec<Options> {
    let mut all = Vec::new();
    for heuristic in [Heuristic::Zero, Heuristic::Boundaries, Heuristic::Runs, Heuristic::Bottoms] {
        all.push(Options { model: Model { rule, heuristic, ..Model::default() }, ..Options::default() });
    }
    for (finished, pure_to_empty, forced, no_symmetry) in [
        (false, false, false, false),
        (true, false, false, false),
        (false, true, false, false),
        (false, false, true, false),
        (false, false, false, true),
        (true, true, true, true),
    ] {
        let pruning = Pruning { finished, pure_to_empty, forced };
        let model = Model { rule, pruning, no_symmetry, ..Model::default() };
        all.push(Options { model, ..Options::default() });
        all.push(Options { algorithm: Algorithm::Bfs, model, ..Options::default() });
    }
    all.push(Options { algorithm: Algorithm::Ida, model: Model { rule, ..Model::default() }, ..Options::default() });
    all
}

#[test]
fn every_optimal_configuration_matches_reference_bfs() {
    let mut rng = SplitMix64::new(2024);
    let (mut solved, mut unsolvable) = (0, 0);
    for i in 0..300 {
        let rule = RULES[i % 3];
        // Sizes whose unpruned, unsorted state spaces the reference BFS explores in milliseconds.
        let colours = 3 + rng.below(4) as usize;
        let capacity = if colours >= 5 { 3 } else { 3 + rng.below(2) as usize };
        let empty = rng.below(if colours == 6 { 2 } else { 3 }) as usize;
        let level = random_level(&mut rng, colours, capacity, empty, i % 7 == 0);
        let expected = reference_length(&level, rule);
        match expected {
            Some(_) => solved += 1,
            None => unsolvable += 1,
        }
        for options in configurations(rule) {
            // IDA* has no duplicate detection: keep it to levels it finishes quickly.
            if options.algorithm == Algorithm::Ida && (expected.is_none() || colours > 4) {
                continue;
            }
            assert_eq!(length(&level, &options), expected, "{options:?} on {}", level.to_line());
        }
    }
    assert!(solved > 100 && unsolvable > 20, "a mix of levels: {solved} solved, {unsolvable} unsolvable");
}

#[test]
fn greedy_solves_whatever_is_solvable() {
    let mut rng = SplitMix64::new(7);
    for i in 0..200 {
        let rule = RULES[i % 3];
        let (colours, empty) = (3 + rng.below(3) as usize, 1 + rng.below(2) as usize);
        let level = random_level(&mut rng, colours, 4, empty, false);
        let expected = reference_length(&level, rule);
        // The command's greedy mode (depth-first, guide heuristic) and the library's best-first.
        for (algorithm, heuristic) in [(Algorithm::Dfs, Heuristic::Guide), (Algorithm::Greedy, Heuristic::Bottoms)] {
            let greedy =
                Options { algorithm, model: Model { rule, heuristic, ..Model::default() }, ..Options::default() };
            let got = length(&level, &greedy);
            assert_eq!(got.is_some(), expected.is_some(), "{algorithm:?} {}", level.to_line());
            assert!(got >= expected);
        }
    }
}

/// Forced moves on their own and with everything else on, on thousands of small levels: optimal lengths
/// equal the reference BFS, and the rule does fire (it cuts generated states on many levels).
#[test]
fn forced_moves_keep_every_optimal_length() {
    let mut rng = SplitMix64::new(4242);
    let (mut levels, mut cut) = (0, 0);
    for i in 0..3000 {
        let rule = RULES[i % 3];
        // Sizes whose unpruned, unsorted spaces the reference BFS exhausts in a millisecond or so.
        let colours = 2 + rng.below(3) as usize;
        let capacity = if colours == 4 { 2 + rng.below(2) as usize } else { 2 + rng.below(3) as usize };
        let empty = 1 + rng.below(2) as usize;
        let level = random_level(&mut rng, colours, capacity, empty, i % 5 == 0);
        let expected = reference_length(&level, rule);
        let only = |forced| Pruning { finished: false, pure_to_empty: false, forced };
        let bfs = |forced| Options {
            algorithm: Algorithm::Bfs,
            model: Model { rule, pruning: only(forced), ..Model::default() },
            ..Options::default()
        };
        let with = solve(&level, &bfs(true)).expect("no internal error");
        assert_eq!(length(&level, &bfs(true)), expected, "forced BFS on {} ({rule:?})", level.to_line());
        let astar = Options { model: Model { rule, ..Model::default() }, ..Options::default() };
        assert_eq!(length(&level, &astar), expected, "A*, all pruning, on {} ({rule:?})", level.to_line());
        let without = solve(&level, &bfs(false)).expect("no internal error");
        levels += 1;
        cut += (with.stats.generated < without.stats.generated) as usize;
    }
    assert!(cut * 4 > levels, "the rule fired on only {cut} of {levels} levels");
}
