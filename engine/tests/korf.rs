//! Known optimal lengths on real 15-puzzle instances, with the heuristic that needs no tables.

use harness as common;

use engine::HeuristicChoice;
use engine::Limits;
use puzzle::Board;

/// The twelve Korf instances that linear conflict solves fastest (well under 0.1 s each in release).
const EASY: [&str; 12] = ["94", "9", "55", "79", "12", "48", "47", "86", "42", "71", "19", "74"];

#[test]
fn a_dozen_korf_instances_with_linear_conflict() {
    let lc = common::table_free(Board::FOUR, HeuristicChoice::LinearConflict);
    let instances = common::korf(&EASY);
    for inst in &instances {
        let id = inst.id.as_deref().unwrap();
        let r = lc.solve_with(&inst.state, 1, &Limits::default()).unwrap();
        let moves = r.moves().expect("no limits").to_vec();
        assert_eq!(Some(moves.len() as u32), inst.optimal, "Korf #{id}");
        assert!(inst.state.replay(&moves).unwrap().is_goal());
        // Two threads agree on the length.
        let r2 = lc.solve_with(&inst.state, 2, &Limits::default()).unwrap();
        assert_eq!(r2.moves().map(|m| m.len()), Some(moves.len()), "Korf #{id} in parallel");
    }
    assert_eq!(instances.len(), EASY.len());
}
