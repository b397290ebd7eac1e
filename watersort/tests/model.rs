//! The packed model's pours equal the reference model's, pour for pour, under every rule, on random
//! positions along random walks; and each pruning rule removes only the pours it names.

mod common;

use common::{pour, random_level, Raw, RULES};
use search::Puzzle;
use std::collections::HashSet;
use watersort::generate::SplitMix64;
use watersort::puzzle::WaterSort;
use watersort::state::Packed;
use watersort::{Level, Model, Pour, Pruning, Rule};

fn level_of(like: &Level, tubes: Raw) -> Level {
    Level::new("t", like.capacity(), like.colours().to_vec(), tubes).unwrap()
}

fn unpruned(rule: Rule) -> Model {
    Model { rule, pruning: Pruning { finished: false, pure_to_empty: false }, no_symmetry: true, ..Model::default() }
}

/// The packed successors of `tubes`, each as (pour, packed child).
fn packed_successors(like: &Level, tubes: &Raw, model: Model) -> HashSet<(Pour, Packed<8>)> {
    let (puzzle, start) = WaterSort::<8>::new(&level_of(like, tubes.clone()), model);
    let mut out = HashSet::new();
    puzzle.successors(&start, |m, s| {
        out.insert((m, s));
    });
    out
}

fn packed(like: &Level, tubes: Raw, model: Model) -> Packed<8> {
    WaterSort::<8>::new(&level_of(like, tubes), model).1
}

#[test]
fn packed_pours_equal_reference_pours() {
    let mut rng = SplitMix64::new(99);
    for i in 0..300 {
        let rule = RULES[i % 3];
        let level = random_level(&mut rng, 3 + i % 4, 3 + i % 2, 1 + i % 3, i % 5 == 0);
        let mut tubes: Raw = level.tubes().to_vec();
        for _ in 0..20 {
            let n = tubes.len();
            let reference: HashSet<(Pour, Packed<8>)> = (0..n)
                .flat_map(|from| (0..n).map(move |to| (from, to)))
                .filter_map(|(from, to)| {
                    pour(&tubes, level.capacity(), rule, from, to)
                        .map(|next| (Pour { from, to }, packed(&level, next, unpruned(rule))))
                })
                .collect();
            assert_eq!(packed_successors(&level, &tubes, unpruned(rule)), reference, "{rule:?} {tubes:?}");
            let moves: Vec<Pour> = reference.iter().map(|(p, _)| *p).collect();
            if moves.is_empty() {
                break;
            }
            let p = moves[rng.below(moves.len() as u64) as usize];
            tubes = pour(&tubes, level.capacity(), rule, p.from, p.to).unwrap();
        }
    }
}

#[test]
fn pruning_removes_exactly_the_named_pours() {
    let colours = vec!["a".into(), "b".into(), "c".into()];
    let level = Level::new("t", 2, colours, vec![vec![0, 0], vec![1], vec![], vec![2, 2], vec![1]]).unwrap();
    let tubes: Raw = level.tubes().to_vec();
    let all = packed_successors(&level, &tubes, unpruned(Rule::Standard));
    let with = |finished, pure_to_empty| {
        let model = Model { pruning: Pruning { finished, pure_to_empty }, ..unpruned(Rule::Standard) };
        packed_successors(&level, &tubes, model).into_iter().map(|(p, _)| (p.from, p.to)).collect::<HashSet<_>>()
    };
    let all: HashSet<_> = all.into_iter().map(|(p, _)| (p.from, p.to)).collect();
    // Tubes: 0 = aa (finished), 1 = b, 2 = empty, 3 = cc (finished), 4 = b.
    assert!(all.contains(&(0, 2)) && all.contains(&(1, 2)) && all.contains(&(1, 4)));
    let finished: HashSet<_> = all.iter().copied().filter(|&(f, _)| f != 0 && f != 3).collect();
    assert_eq!(with(true, false), finished);
    let pure: HashSet<_> = all.iter().copied().filter(|&(_, t)| t != 2).collect();
    assert_eq!(with(false, true), pure);
}
