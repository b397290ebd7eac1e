//! Known optimal lengths on real 15-puzzle instances, with the heuristic that needs no tables.

use puzzle::{Board, Goal};
use solver::ida::Limits;
use solver::{HeuristicChoice, Lookups, Solver, TableSpec};

/// The twelve Korf instances that linear conflict solves fastest (well under 0.1 s each in release).
const EASY: [&str; 12] = ["94", "9", "55", "79", "12", "48", "47", "86", "42", "71", "19", "74"];

#[test]
fn a_dozen_korf_instances_with_linear_conflict() {
    let spec = TableSpec { dir: "/nonexistent".into(), partition: String::new(), lookups: Lookups::default() };
    let lc = Solver::new(Board::FOUR, HeuristicChoice::LinearConflict, &spec, &mut |_| {}).unwrap();
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/data/korf100.txt")).unwrap();
    let mut done = 0;
    for line in text.lines() {
        let Some(inst) = puzzle::parse_line(Board::FOUR, Goal::BlankFirst, line).unwrap() else { continue };
        let id = inst.id.clone().unwrap();
        if !EASY.contains(&id.as_str()) {
            continue;
        }
        let r = lc.solve(&inst.state, 1, &Limits::default()).unwrap();
        let moves = r.moves.expect("no limits");
        assert_eq!(Some(moves.len() as u32), inst.optimal, "Korf #{id}");
        assert!(inst.state.replay(&moves).unwrap().is_goal());
        // Two threads agree on the length.
        let r2 = lc.solve(&inst.state, 2, &Limits::default()).unwrap();
        assert_eq!(r2.moves.map(|m| m.len()), Some(moves.len()), "Korf #{id} in parallel");
        done += 1;
    }
    assert_eq!(done, EASY.len());
}
