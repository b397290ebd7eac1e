//! Levels made backwards: a random walk of legal pours played in reverse from a sorted position, so every
//! level is solvable by construction (the walk, read forwards, is a solution), at any number of colours.
//!
//! Uniform shuffles ([`crate::generate`]) are the fair draw, but past about 30 colours with two empty tubes
//! almost none is solvable, and proving a draw unsolvable is what such a generator spends its time on.
//! Games make their big levels this way instead. The price is a different distribution: a walk only
//! reaches positions from which the sorted one can be reached, and it leaves more units of one colour side
//! by side than a shuffle does (see [`adjacent_pairs`], measured in `BENCHMARKS.md`).
//!
//! The walk: start from the sorted position (`colours` full tubes, `empty` empty ones); each step picks,
//! uniformly among all of them, one un-pour: `k` units from the top of a tube `b` onto a tube `a` such that
//! the forward pour `a -> b` under the rule is legal and moves exactly those `k` units. After `steps` such
//! steps the walk finishes: up to `steps` more, each among the un-pours that leave the fewest part-full
//! tubes, until every tube is full or empty (a game's shape). A walk that does not get there is dropped and
//! the next one tried, up to `attempts` walks a level (at 8 to 50 colours about one walk in five gets
//! there, the others are redrawn). The tubes are then shuffled into a random order.
//!
//! A position that no pour leads to ends a walk for good; most shuffled game levels are such positions
//! (every top run one unit long, no tube with a single unit). The walk takes back an un-pour into one and
//! tries another, except when finishing into a game's shape, where it is the natural end.

use crate::generate::{colour_names, GenerateError, Spec, Tally, LETTERS};
use crate::level::Level;
use crate::rule::Rule;
use search::rng::SplitMix64;
use std::ops::ControlFlow;

/// One un-pour: `units` from the top of tube `from` onto tube `to` (the forward pour is `to -> from`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Unpour {
    from: usize,
    to: usize,
    units: usize,
}

/// The default walk length for a spec: ten un-pours a unit, enough that the start no longer shows (the
/// adjacent-pair count levels off well before it, measured at 12, 30 and 50 colours).
pub fn default_steps(spec: &Spec) -> usize {
    10 * spec.colours * spec.capacity
}

/// `spec.count` levels made backwards under `rule`, each a walk of `steps` un-pours (see the module's
/// doc), named `r<seed>-<index from 1>` and reproducible from the seed.
pub fn reverse(spec: &Spec, rule: Rule, steps: usize) -> Result<Vec<Level>, GenerateError> {
    let mut levels = Vec::with_capacity(spec.count);
    reverse_each(spec, rule, steps, &mut |_, level| {
        levels.extend(level);
        ControlFlow::Continue(())
    })?;
    Ok(levels)
}

/// [`reverse`], handing each level to `keep` as it is made (with the walks tried so far as
/// [`Tally::draws`]); `keep` may stop the run with [`ControlFlow::Break`]. A level whose `spec.attempts`
/// walks all ended with part-full tubes is an error.
pub fn reverse_each(
    spec: &Spec,
    rule: Rule,
    steps: usize,
    keep: &mut dyn FnMut(Tally, Option<Level>) -> ControlFlow<()>,
) -> Result<Tally, GenerateError> {
    if spec.colours > LETTERS.len() {
        return Err(GenerateError::TooManyColours);
    }
    let colours = colour_names(spec.colours);
    // The sizes (tubes, a tube's bits) are checked on the sorted position, before any walk: a walk keeps
    // them, and at sizes too big for a level its walks would take minutes before the first was refused.
    let sorted = (0..spec.colours).map(|c| vec![c as u8; spec.capacity]);
    Level::new(
        "",
        spec.capacity,
        colours.clone(),
        sorted.chain(std::iter::repeat_n(Vec::new(), spec.empty)).collect(),
    )?;
    let mut rng = SplitMix64::new(spec.seed);
    let mut tally = Tally::default();
    while tally.levels < spec.count {
        let mut tubes = None;
        for _ in 0..spec.attempts {
            tally.draws += 1;
            tubes = walk(&mut rng, spec, rule, steps);
            if tubes.is_some() {
                break;
            }
        }
        let index = tally.levels + 1;
        let tubes = tubes.ok_or(GenerateError::NoShape { attempts: spec.attempts, index })?;
        let level = Level::new(format!("r{}-{index}", spec.seed), spec.capacity, colours.clone(), tubes)?;
        tally.levels = index;
        if keep(tally, Some(level)).is_break() {
            break;
        }
    }
    Ok(tally)
}

/// One walk's tubes, or `None` when its finish did not reach a game's shape.
fn walk(rng: &mut SplitMix64, spec: &Spec, rule: Rule, steps: usize) -> Option<Vec<Vec<u8>>> {
    let capacity = spec.capacity;
    let mut tubes: Vec<Vec<u8>> = (0..spec.colours).map(|c| vec![c as u8; capacity]).collect();
    tubes.extend(std::iter::repeat_n(Vec::new(), spec.empty));
    wander(&mut tubes, capacity, rule, steps, false, rng);
    if !wander(&mut tubes, capacity, rule, steps, true, rng) {
        return None;
    }
    for i in (1..tubes.len()).rev() {
        tubes.swap(i, rng.below(i as u64 + 1) as usize);
    }
    Some(tubes)
}

/// Up to `length` random un-pours on `tubes`: any of them, or when `finishing` only those that leave the
/// fewest part-full tubes, stopping at a game's shape. Returns whether `tubes` has that shape.
///
/// A position no pour leads to (every top run one unit long, no tube holding a single unit: most shuffled
/// game levels look like this) ends a walk for good, so an un-pour into one is taken back and another
/// tried, unless the walk is finishing and the position has a game's shape: then it is the walk's end.
fn wander(
    tubes: &mut [Vec<u8>],
    capacity: usize,
    rule: Rule,
    length: usize,
    finishing: bool,
    rng: &mut SplitMix64,
) -> bool {
    let part_full = |tubes: &[Vec<u8>]| tubes.iter().filter(|t| !t.is_empty() && t.len() < capacity).count();
    let (mut moves, mut next) = (Vec::new(), Vec::new());
    unpours(tubes, capacity, rule, &mut moves);
    for _ in 0..length {
        let part = part_full(tubes);
        if finishing && part == 0 {
            break;
        }
        if finishing {
            let after = |m: &Unpour| {
                let (from, to) = (tubes[m.from].len() - m.units, tubes[m.to].len() + m.units);
                let was = |n: usize| usize::from(n > 0 && n < capacity);
                part + was(from) + was(to) - was(tubes[m.from].len()) - was(tubes[m.to].len())
            };
            let best = moves.iter().map(after).min().unwrap_or(0);
            moves.retain(|m| after(m) == best);
        }
        loop {
            if moves.is_empty() {
                return part_full(tubes) == 0;
            }
            let m = moves.swap_remove(rng.below(moves.len() as u64) as usize);
            shift(tubes, m.from, m.to, m.units);
            unpours(tubes, capacity, rule, &mut next);
            if !next.is_empty() || (finishing && part_full(tubes) == 0) {
                break;
            }
            shift(tubes, m.to, m.from, m.units);
        }
        std::mem::swap(&mut moves, &mut next);
    }
    part_full(tubes) == 0
}

/// Moves the top `units` of tube `from` onto tube `to`.
fn shift(tubes: &mut [Vec<u8>], from: usize, to: usize, units: usize) {
    let source = &mut tubes[from];
    let moved: Vec<u8> = source.drain(source.len() - units..).collect();
    tubes[to].extend(moved);
}

/// Every un-pour from `tubes` under `rule`, into `out` (cleared first), in a fixed order.
fn unpours(tubes: &[Vec<u8>], capacity: usize, rule: Rule, out: &mut Vec<Unpour>) {
    out.clear();
    for (from, source) in tubes.iter().enumerate() {
        let Some(&colour) = source.last() else { continue };
        let run = top_run(source);
        for (to, target) in tubes.iter().enumerate() {
            let room = capacity - target.len();
            if to == from || room == 0 {
                continue;
            }
            // The forward pour's destination must be empty or show `colour` once the units are back.
            let target_run = if target.last() == Some(&colour) { top_run(target) } else { 0 };
            for units in 1..=run.min(room) {
                let left_ok = units == source.len() || units < run;
                let free_after = capacity - (source.len() - units);
                if left_ok && rule.amount(target_run + units, free_after) == Some(units) {
                    out.push(Unpour { from, to, units });
                }
            }
        }
    }
}

/// Units of the top colour at the top of `tube`.
fn top_run(tube: &[u8]) -> usize {
    tube.last().map_or(0, |&top| tube.iter().rev().take_while(|&&c| c == top).count())
}

/// Neighbouring units of one colour in one tube, summed over the tubes: how much of the sorted start a
/// level still shows (a uniform shuffle of `c` colours of capacity `h` expects about `c (h - 1) (h - 1) /
/// (c h - 1)`).
pub fn adjacent_pairs(level: &Level) -> usize {
    level.tubes().iter().map(|t| t.windows(2).filter(|w| w[0] == w[1]).count()).sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::check;
    use crate::solve::{solve, Algorithm, Options, Outcome};
    use crate::{Heuristic, Model};

    fn spec(colours: usize, empty: usize, count: usize, seed: u64) -> Spec {
        Spec { colours, empty, capacity: 4, count, seed, attempts: 100 }
    }

    /// Un-pours are exactly the reverses of legal pours: each, replayed forwards with the plain model,
    /// returns to the position it came from, under every rule.
    #[test]
    fn every_unpour_reverses_a_legal_pour() {
        let mut rng = SplitMix64::new(3);
        for rule in [Rule::Standard, Rule::WholeRun, Rule::OneUnit] {
            let mut tubes: Vec<Vec<u8>> = (0..5).map(|c| vec![c as u8; 4]).collect();
            tubes.extend([vec![], vec![]]);
            let mut moves = Vec::new();
            for _ in 0..300 {
                unpours(&tubes, 4, rule, &mut moves);
                if moves.is_empty() {
                    break; // a position no legal pour leads to: the walk ends there
                }
                let m = moves[rng.below(moves.len() as u64) as usize];
                let before = crate::Tubes { capacity: 4, tubes: tubes.clone() };
                shift(&mut tubes, m.from, m.to, m.units);
                let mut forward = crate::Tubes { capacity: 4, tubes: tubes.clone() };
                let pour = crate::Pour { from: m.to, to: m.from };
                assert_eq!(forward.pour(pour, rule), Ok(m.units), "{rule:?} {m:?}");
                assert_eq!(forward, before);
            }
        }
    }

    /// Every level made is solvable (the solver finds and replays a solution), reproducible from its seed,
    /// and mostly has a game's shape.
    #[test]
    fn levels_are_solvable_and_reproducible() {
        let s = spec(8, 2, 20, 5);
        let levels = reverse(&s, Rule::Standard, default_steps(&s)).unwrap();
        assert_eq!(levels, reverse(&s, Rule::Standard, default_steps(&s)).unwrap());
        assert_ne!(levels, reverse(&spec(8, 2, 20, 6), Rule::Standard, default_steps(&s)).unwrap());
        assert_eq!(levels[19].name(), "r5-20");
        let options = Options {
            algorithm: Algorithm::Greedy,
            model: Model { heuristic: Heuristic::Guide, ..Model::default() },
            ..Options::default()
        };
        for level in &levels {
            assert_eq!(level.tubes().len(), 10);
            let Outcome::Solved(pours) = solve(level, &options).unwrap().outcome else { panic!("{}", level.to_line()) };
            check(level, Rule::Standard, &pours).unwrap();
        }
        assert!(levels.iter().all(|l| l.tubes().iter().all(|t| t.is_empty() || t.len() == 4)));
        // Not the sorted start: the walk mixed the colours.
        assert!(
            levels.iter().all(|l| adjacent_pairs(l) < 8 * 3),
            "{:?}",
            levels.iter().map(adjacent_pairs).collect::<Vec<_>>()
        );
    }

    #[test]
    fn too_many_colours_and_too_few_walks_are_refused() {
        assert!(matches!(reverse(&spec(53, 2, 1, 1), Rule::Standard, 10), Err(GenerateError::TooManyColours)));
        // One walk a level: some of twenty levels find none that ends in a game's shape.
        let one_walk = Spec { attempts: 1, ..spec(8, 2, 20, 5) };
        let err = reverse(&one_walk, Rule::Standard, 320).unwrap_err();
        assert!(matches!(err, GenerateError::NoShape { attempts: 1, .. }), "{err}");
    }

    /// Under the other two rules too, walks end in solvable levels of a game's shape.
    #[test]
    fn whole_run_and_one_unit_walks_reach_a_shape_too() {
        for rule in [Rule::WholeRun, Rule::OneUnit] {
            let s = spec(6, 2, 5, 1);
            for level in reverse(&s, rule, default_steps(&s)).unwrap() {
                let options = Options { model: Model { rule, ..Model::default() }, ..Options::default() };
                let Outcome::Solved(pours) = solve(&level, &options).unwrap().outcome else { panic!("{rule:?}") };
                check(&level, rule, &pours).unwrap();
            }
        }
    }
}
