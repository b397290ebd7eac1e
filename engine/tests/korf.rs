//! Known optimal lengths on real 15-puzzle instances, with the heuristic that needs no tables.

use engine::HeuristicChoice;
use engine::Limits;
use puzzle::Board;

/// The twelve Korf instances that linear conflict solves fastest (well under 0.1 s each in release).
const EASY: [&str; 12] = ["94", "9", "55", "79", "12", "48", "47", "86", "42", "71", "19", "74"];

#[test]
fn a_dozen_korf_instances_with_linear_conflict() {
    let lc = harness::table_free(Board::FOUR, HeuristicChoice::LinearConflict);
    let instances = harness::korf(&EASY);
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

/// A search resumed from any checkpoint of an uninterrupted one ends the same way: the same solution
/// length, iterations and (one thread) nodes. The checkpoints themselves are the same with two threads,
/// since an iteration without a solution visits the same nodes however it is shared. A resumed search's
/// time limit counts the earlier run's seconds.
#[test]
fn a_search_resumed_from_a_checkpoint_ends_as_the_uninterrupted_one() {
    use engine::{Checkpoint, Resume, Stop};
    use search::OnCheckpoint;
    use std::sync::{Arc, Mutex};
    let lc = harness::table_free(Board::FOUR, HeuristicChoice::LinearConflict);
    for inst in harness::korf(&EASY[..3]) {
        let id = inst.id.as_deref().unwrap();
        let run = |threads, from| {
            let saved = Arc::new(Mutex::new(Vec::new()));
            let sink = Arc::clone(&saved);
            let save: OnCheckpoint = Arc::new(move |c| sink.lock().unwrap().push(*c));
            let resume = Resume { from, save: Some(save) };
            let r = lc.solve_with(&inst.state, threads, &Limits { resume, ..Limits::default() });
            let saved = saved.lock().unwrap().clone();
            (r.unwrap(), saved)
        };
        let (whole, checkpoints) = run(1, None);
        let length = whole.moves().map(<[u8]>::len);
        assert_eq!(length.map(|l| l as u32), inst.optimal, "Korf #{id}");
        assert_eq!(checkpoints.len() as u32 + 1, whole.iterations, "Korf #{id}: one a finished iteration");
        let (_, shared) = run(2, None);
        let without_time =
            |cs: &[Checkpoint]| cs.iter().map(|c| (c.bound, c.iterations, c.nodes, c.expanded)).collect::<Vec<_>>();
        assert_eq!(without_time(&shared), without_time(&checkpoints), "Korf #{id}: two threads");
        for c in &checkpoints {
            let (resumed, later) = run(1, Some(*c));
            assert_eq!(resumed.moves().map(<[u8]>::len), length, "Korf #{id} from bound {}", c.bound);
            assert_eq!((resumed.counts, resumed.iterations), (whole.counts, whole.iterations), "Korf #{id}");
            assert!(resumed.seconds >= c.seconds);
            assert_eq!(without_time(&later), without_time(&checkpoints[c.iterations as usize..]), "Korf #{id}");
            assert!(inst.state.replay(resumed.moves().unwrap()).unwrap().is_goal());
            let (two, _) = run(2, Some(*c));
            assert_eq!(two.moves().map(<[u8]>::len), length, "Korf #{id} from bound {}, two threads", c.bound);
        }
        // An earlier run that already used up the time limit leaves none.
        let spent = Checkpoint { seconds: 3600.0, ..Checkpoint::default() };
        let limits = Limits {
            search: search::Limits { time: Some(std::time::Duration::from_secs(60)), ..search::Limits::default() },
            resume: Resume { from: Some(spent), save: None },
            ..Limits::default()
        };
        let r = lc.solve_with(&inst.state, 1, &limits).unwrap();
        assert_eq!(r.stopped(), Some(Stop::TimeLimit), "Korf #{id}");
    }
}
