//! The library against the harness's independent model (`harness::blocks`) on random small levels: the
//! fewest moves in all three metrics by every optimal algorithm, explore's counts, and the canonical form,
//! which must merge exactly the positions that differ by swapping interchangeable pieces.

use blocks::puzzle::Blocks;
use blocks::{explore, parse_level, solve, Algorithm, Level, Metric, Options, Outcome};
use harness::blocks::{same_class, space, Metric as BruteMetric, Target};
use search::rng::SplitMix64;
use search::Puzzle;
use std::collections::HashMap;

const METRICS: [(Metric, BruteMetric); 3] =
    [(Metric::Piece, BruteMetric::Piece), (Metric::Line, BruteMetric::Line), (Metric::Unit, BruteMetric::Unit)];

/// A random level on a board of 3x3 to 4x4: a wall now and then, pieces of 1x1 to 2x2 (and 1x3 / 3x1),
/// some lowercase (locked), dropped where they fit, at least two cells left empty. Returns the rows and the
/// letters placed.
fn random_rows(rng: &mut SplitMix64) -> (Vec<String>, Vec<char>) {
    let (rows, cols) = (3 + rng.below(2) as usize, 3 + rng.below(2) as usize);
    let mut grid = vec![vec!['.'; cols]; rows];
    if rng.below(3) == 0 {
        grid[rng.below(rows as u64) as usize][rng.below(cols as u64) as usize] = '#';
    }
    let shapes = [(1, 1), (1, 1), (1, 2), (2, 1), (2, 2), (1, 3), (3, 1)];
    let mut letters = Vec::new();
    for letter in 'A'..='H' {
        let free = grid.iter().flatten().filter(|&&c| c == '.').count();
        if free <= 3 || letters.len() == 6 {
            break;
        }
        let (h, w) = shapes[rng.below(shapes.len() as u64) as usize];
        let locked = h != w && rng.below(3) == 0;
        let spots: Vec<(usize, usize)> = (0..=rows.saturating_sub(h))
            .flat_map(|r| (0..=cols.saturating_sub(w)).map(move |c| (r, c)))
            .filter(|&(r, c)| r + h <= rows && c + w <= cols)
            .filter(|&(r, c)| (r..r + h).all(|rr| (c..c + w).all(|cc| grid[rr][cc] == '.')))
            .collect();
        if spots.is_empty() || free - h * w < 2 {
            continue;
        }
        let (r, c) = spots[rng.below(spots.len() as u64) as usize];
        let ch = if locked { letter.to_ascii_lowercase() } else { letter };
        for row in &mut grid[r..r + h] {
            row[c..c + w].fill(ch);
        }
        letters.push(letter);
    }
    (grid.into_iter().map(|r| r.into_iter().collect()).collect(), letters)
}

/// One random level with a piece-at-a-place goal, or (every third) an arrangement reachable in the unit
/// metric; a few with pieces marked distinct. Returns the level and the model's view of it.
fn random_level(rng: &mut SplitMix64) -> Option<(Level, Vec<String>, Target, String)> {
    let (rows, letters) = random_rows(rng);
    if letters.is_empty() {
        return None;
    }
    let refs: Vec<&str> = rows.iter().map(String::as_str).collect();
    let distinct = match rng.below(4) {
        0 => "distinct".to_string(),
        1 => format!("distinct={}", letters[rng.below(letters.len() as u64) as usize]),
        _ => String::new(),
    };
    let (goal, target, own) = if rng.below(3) == 0 {
        // An arrangement: some position the unit metric reaches (all metrics reach the same ones).
        let all = space(&refs, &Target::Place(letters[0], 99, 99), "*", BruteMetric::Unit);
        let (layout, _) = all.positions[rng.below(all.positions.len() as u64) as usize].clone();
        (format!("={}", layout.join("/")), Target::Layout(layout), String::new())
    } else {
        let letter = letters[rng.below(letters.len() as u64) as usize];
        let (h, w) = {
            let cells: Vec<(usize, usize)> = (0..rows.len())
                .flat_map(|r| (0..rows[0].len()).map(move |c| (r, c)))
                .filter(|&(r, c)| rows[r].as_bytes()[c].eq_ignore_ascii_case(&(letter as u8)))
                .collect();
            (cells.last().unwrap().0 - cells[0].0 + 1, cells.len() / (cells.last().unwrap().0 - cells[0].0 + 1))
        };
        let (r, c) =
            (rng.below((rows.len() + 1 - h) as u64) as usize, rng.below((rows[0].len() + 1 - w) as u64) as usize);
        let on_wall = (r..r + h).any(|rr| rows[rr].as_bytes()[c..c + w].contains(&b'#'));
        if on_wall {
            return None;
        }
        (format!("{letter}@{r},{c}"), Target::Place(letter, r, c), letter.to_string())
    };
    let own = match distinct.as_str() {
        "distinct" => "*".to_string(),
        d if d.starts_with("distinct=") => own + &d["distinct=".len()..],
        _ => own,
    };
    let text = format!("{} {goal} {distinct}", rows.join("/"));
    let level = parse_level(text.trim(), "random").unwrap_or_else(|e| panic!("{text}: {e}"));
    Some((level, rows, target, own))
}

fn levels(count: usize, seed: u64) -> Vec<(Level, Vec<String>, Target, String)> {
    let mut rng = SplitMix64::new(seed);
    std::iter::from_fn(|| Some(random_level(&mut rng))).flatten().take(count).collect()
}

#[test]
fn fewest_moves_and_counts_match_the_model() {
    let mut solved = 0;
    for (level, rows, target, own) in levels(60, 11) {
        let refs: Vec<&str> = rows.iter().map(String::as_str).collect();
        let text = level.to_text();
        for (metric, brute) in METRICS {
            let truth = space(&refs, &target, &own, brute);
            let found = explore(&level, metric, 1_000_000).unwrap();
            assert_eq!(found.counts, truth.counts, "{text} {metric:?}: positions by distance");
            assert_eq!((found.solved, found.nearest_solved), (truth.solved, truth.nearest), "{text} {metric:?}");
            let mut algorithms = vec![Algorithm::Bfs, Algorithm::Astar];
            if truth.nearest.is_some_and(|d| d <= 12) {
                algorithms.push(Algorithm::Ida);
            }
            if matches!(target, Target::Layout(_)) {
                algorithms.push(Algorithm::Bibfs);
            }
            for algorithm in algorithms {
                let options = Options { algorithm, metric, ..Options::default() };
                let outcome = solve(&level, &options).unwrap().outcome;
                match (&outcome, truth.nearest) {
                    (Outcome::Solved(steps), Some(d)) => {
                        assert_eq!(steps.len(), d as usize, "{text} {metric:?} {algorithm:?}")
                    }
                    (Outcome::Unsolvable, None) => {}
                    _ => panic!("{text} {metric:?} {algorithm:?}: {outcome:?}, the model says {:?}", truth.nearest),
                }
            }
            for algorithm in [Algorithm::Greedy, Algorithm::Dfs] {
                let options = Options { algorithm, metric, ..Options::default() };
                let outcome = solve(&level, &options).unwrap().outcome;
                assert_eq!(
                    matches!(outcome, Outcome::Solved(_)),
                    truth.nearest.is_some(),
                    "{text} {metric:?} {algorithm:?}"
                );
            }
            solved += truth.nearest.is_some() as usize;
        }
    }
    assert!(solved >= 60, "too few solvable levels to be a test: {solved} of 180");
}

/// Two positions share a canonical state exactly when the model says they are one class: never merged
/// when they differ in a distinct piece (or in any piece, under `distinct`), always merged when they differ
/// by a swap of interchangeable pieces.
#[test]
fn canonical_states_are_the_models_classes() {
    let mut merged = 0;
    for (level, rows, target, own) in levels(40, 5) {
        let refs: Vec<&str> = rows.iter().map(String::as_str).collect();
        let puzzle = Blocks::new(&level, Metric::Unit, blocks::Heuristic::Zero);
        // Every raw position (all pieces distinct) the unit metric reaches, and the model's class of each.
        let raw = space(&refs, &target, "*", BruteMetric::Unit);
        let classes = space(&refs, &target, &own, BruteMetric::Unit);
        let goal = level.to_text().split(' ').skip(1).collect::<Vec<_>>().join(" ");
        let mut by_state: HashMap<u128, Vec<String>> = HashMap::new();
        for (position, _) in &raw.positions {
            let other = parse_level(&format!("{} {goal}", position.join("/")), "").unwrap();
            assert_eq!(other.pieces(), level.pieces());
            let first = by_state.entry(puzzle.canonical(&Blocks::start(&other))).or_insert_with(|| position.clone());
            assert!(same_class(first, position, &own), "{}: {first:?} and {position:?} merged", level.to_text());
        }
        // No class merged with another, so as many states as classes means none split either.
        assert_eq!(
            by_state.len(),
            classes.positions.len(),
            "{}: canonical states against the model's classes",
            level.to_text()
        );
        merged += raw.positions.len() - by_state.len();
    }
    assert!(merged > 0, "no level had interchangeable pieces to merge");
}
