//! For the water sort tests: random small levels and an independent reference model (plain vectors, its
//! own pour code) with a breadth-first search over raw, unsorted positions, to check the solver's packed,
//! canonical states against.

use std::collections::{HashMap, VecDeque};
use watersort::generate::SplitMix64;
use watersort::{Level, Pour, Rule};

/// A position as the reference model keeps it: each tube's colours, bottom first.
pub type Raw = Vec<Vec<u8>>;

/// A random level: `colours` colours of `capacity` units (colour 0 sometimes twice as many), shuffled
/// into full tubes, then `empty` empty tubes. Solvable or not.
pub fn random_level(rng: &mut SplitMix64, colours: usize, capacity: usize, empty: usize, doubled: bool) -> Level {
    let mut units: Vec<u8> = (0..colours)
        .flat_map(|c| std::iter::repeat_n(c as u8, capacity * (1 + (doubled && c == 0) as usize)))
        .collect();
    for i in (1..units.len()).rev() {
        units.swap(i, rng.below(i as u64 + 1) as usize);
    }
    let mut tubes: Raw = units.chunks(capacity).map(<[u8]>::to_vec).collect();
    tubes.extend(std::iter::repeat_n(Vec::new(), empty));
    let names = (0..colours).map(|c| ((b'a' + c as u8) as char).to_string()).collect();
    Level::new("t", capacity, names, tubes).expect("a well-formed random level")
}

/// The reference pour: `None` when illegal.
pub fn pour(tubes: &Raw, capacity: usize, rule: Rule, from: usize, to: usize) -> Option<Raw> {
    if from == to {
        return None;
    }
    let &c = tubes[from].last()?;
    if tubes[to].len() >= capacity || tubes[to].last().is_some_and(|&d| d != c) {
        return None;
    }
    let run = tubes[from].iter().rev().take_while(|&&d| d == c).count();
    let free = capacity - tubes[to].len();
    let n = match rule {
        Rule::Standard => run.min(free),
        Rule::WholeRun if run <= free => run,
        Rule::WholeRun => return None,
        Rule::OneUnit => 1,
    };
    let mut next = tubes.clone();
    for _ in 0..n {
        next[from].pop();
        next[to].push(c);
    }
    Some(next)
}

/// Whether every tube is empty or full of one colour.
pub fn solved(tubes: &Raw, capacity: usize) -> bool {
    tubes.iter().all(|t| t.is_empty() || (t.len() == capacity && t.iter().all(|&c| c == t[0])))
}

/// Fewest pours by plain BFS over unsorted positions, no pruning; `None` when unsolvable. Positions are
/// stored flat (`capacity` bytes a tube, 0 for space, colours from 1) so that hashing is cheap.
pub fn reference_length(level: &Level, rule: Rule) -> Option<usize> {
    let cap = level.capacity();
    let flat = |tubes: &Raw| -> Vec<u8> {
        tubes.iter().flat_map(|t| (0..cap).map(move |k| t.get(k).map_or(0, |&c| c + 1))).collect()
    };
    let raw = |flat: &[u8]| -> Raw {
        flat.chunks(cap).map(|t| t.iter().take_while(|&&c| c != 0).map(|&c| c - 1).collect()).collect()
    };
    let start = flat(&level.tubes().to_vec());
    let mut dist: HashMap<Vec<u8>, usize> = HashMap::from([(start.clone(), 0)]);
    let mut queue = VecDeque::from([start]);
    while let Some(s) = queue.pop_front() {
        let d = dist[&s];
        let tubes = raw(&s);
        if solved(&tubes, cap) {
            return Some(d);
        }
        let n = tubes.len();
        for from in 0..n {
            for to in 0..n {
                if let Some(next) = pour(&tubes, cap, rule, from, to) {
                    dist.entry(flat(&next)).or_insert_with_key(|k| {
                        queue.push_back(k.clone());
                        d + 1
                    });
                }
            }
        }
    }
    None
}

/// Replays `pours` with the reference model: Ok when all legal and the end solved.
pub fn replays(level: &Level, rule: Rule, pours: &[Pour]) -> bool {
    let mut s: Raw = level.tubes().to_vec();
    for p in pours {
        if p.from >= s.len() || p.to >= s.len() {
            return false;
        }
        match pour(&s, level.capacity(), rule, p.from, p.to) {
            Some(next) => s = next,
            None => return false,
        }
    }
    solved(&s, level.capacity())
}

/// Every pouring rule, for tests that check all of them.
pub const RULES: [Rule; 3] = [Rule::Standard, Rule::WholeRun, Rule::OneUnit];
