//! The built-in levels' fewest moves in each metric, by breadth-first search (the figures
//! `docs/benchmarks/blocks.md` lists), and the size of their reachable spaces.

use blocks::{explore, levels, parse_input, solve, Algorithm, Metric, Options, Outcome};

/// name, fewest moves in the piece, line and unit metrics, reachable positions.
const FIGURES: &[(&str, [usize; 3], u64)] = &[
    ("heng-dao-li-ma", [81, 90, 116], 25_955),
    ("zhi-hui-ruo-ding", [70, 79, 100], 25_955),
    ("qi-tou-bing-jin", [60, 66, 85], 25_955),
    ("bing-fen-san-lu", [72, 77, 92], 25_955),
    ("rush-hour-jam", [7, 7, 15], 5_806),
    ("rush-hour-wall", [60, 60, 103], 2_332),
];

#[test]
fn every_builtin_has_its_figures() {
    assert_eq!(FIGURES.iter().map(|f| f.0).collect::<Vec<_>>(), levels::names());
    for &(name, lengths, reachable) in FIGURES {
        let level = parse_input(name).unwrap();
        for (metric, want) in [Metric::Piece, Metric::Line, Metric::Unit].into_iter().zip(lengths) {
            let options = Options { algorithm: Algorithm::Bfs, metric, ..Options::default() };
            let Outcome::Solved(steps) = solve(&level, &options).unwrap().outcome else { panic!("{name} {metric:?}") };
            assert_eq!(steps.len(), want, "{name} {metric:?}");
            let space = explore(&level, metric, 1_000_000).unwrap();
            assert_eq!((space.reachable(), space.nearest_solved), (reachable, Some(want as u32)), "{name} {metric:?}");
        }
    }
}

#[test]
fn chinese_names_find_the_same_level() {
    for b in levels::ALL {
        assert_eq!(parse_input(b.chinese).unwrap(), parse_input(b.name).unwrap());
    }
}
