//! The packed model's pours equal the reference model's, pour for pour, under every rule, on random
//! positions along random walks; and each pruning rule removes only the pours it names.

use harness::water::{pour, random_level, Raw, RULES};
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
    let pruning = Pruning { finished: false, pure_to_empty: false, forced: false };
    Model { rule, pruning, no_symmetry: true, ..Model::default() }
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
        let model = Model { pruning: Pruning { finished, pure_to_empty, forced: false }, ..unpruned(Rule::Standard) };
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

#[test]
fn a_forced_pour_is_the_only_successor_and_only_under_its_conditions() {
    let colours: Vec<String> = ["a", "b", "c"].map(String::from).to_vec();
    let forced =
        |rule| Model { pruning: Pruning { finished: false, pure_to_empty: false, forced: true }, ..unpruned(rule) };
    let moves = |capacity: usize, tubes: Raw, model| -> HashSet<(usize, usize)> {
        let level = Level::new("t", capacity, colours.clone(), tubes.clone()).unwrap();
        packed_successors(&level, &tubes, model).into_iter().map(|(p, _)| (p.from, p.to)).collect()
    };
    // Capacity 4: 0 = a a b b, 1 = b b, 2 = empty, 3 = c c c c, 4 = a a. The top run of 0 and tube 1
    // are all of b and fill one tube: pour 0 -> 1 alone (1 -> 0 does not fit).
    let tubes: Raw = vec![vec![0, 0, 1, 1], vec![1, 1], vec![], vec![2, 2, 2, 2], vec![0, 0]];
    assert!(moves(4, tubes.clone(), unpruned(Rule::Standard)).len() > 1);
    assert_eq!(moves(4, tubes.clone(), forced(Rule::Standard)), HashSet::from([(0, 1)]));
    assert_eq!(moves(4, tubes.clone(), forced(Rule::WholeRun)), HashSet::from([(0, 1)]));
    // Not under one-unit, where a pour moves one unit.
    assert_eq!(moves(4, tubes.clone(), forced(Rule::OneUnit)), moves(4, tubes, unpruned(Rule::OneUnit)));
    // Not when the pour would not finish the tube: the b's are split three ways.
    let split: Raw = vec![vec![0, 0, 1, 1], vec![1], vec![1], vec![2, 2, 2, 2], vec![0, 0]];
    assert_eq!(moves(4, split.clone(), forced(Rule::Standard)), moves(4, split, unpruned(Rule::Standard)));
    // Not for a colour with two tubes' worth (capacity 2, four b's): b on 1 and on top of 0 could also
    // go onto the other b's.
    let doubled: Raw = vec![vec![0, 1], vec![1], vec![2, 1], vec![1], vec![2, 0], vec![]];
    assert_eq!(moves(2, doubled.clone(), forced(Rule::Standard)), moves(2, doubled, unpruned(Rule::Standard)));
}
