//! The water sort puzzle as a [`search::Puzzle`] over packed states: successor generation with the
//! optimality-keeping pruning rules and move ordering, the goal test, the heuristic and the canonical
//! tube order.
//!
//! States keep the level's tube order, so a move is a pour in the user's numbering; [`Puzzle::canonical`]
//! sorts the tube codes, making positions that differ only by tube order one stored state. The library
//! translates a solution found among representatives back to real pours by replaying from the start.

use crate::heuristic::{GoalShape, Heuristic};
use crate::level::{unit_bits, Level, MAX_TUBES};
use crate::play::Pour;
use crate::rule::Rule;
use crate::state::{Codes, Packed};
use crate::tube::{Top, TubeCode};

/// Pruning rules, each switchable for measurement. Each removes only moves that some optimal solution
/// can do without, so optimal lengths are unchanged (checked against an unpruned BFS in the tests).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pruning {
    /// Never pour out of a finished tube (full, one colour) holding every unit of its colour.
    ///
    /// Why it keeps optimality: no other tube has that colour on top, so under the standard and
    /// whole-run rules the only pour is the whole tube into an empty one, which just swaps two tubes:
    /// dropping it from a solution (and swapping the two tubes' numbers in the rest) gives a shorter one.
    /// Under one-unit it also forbids splitting the tube into an empty one; the c units then only ever
    /// sit in tubes of c alone, which a solution must gather back, so the split only wastes pours (this
    /// case is argued informally and checked by the tests).
    pub finished: bool,
    /// Never pour a tube of one colour, whole, into an empty tube: the result is the same position with
    /// two tubes swapped (same argument as above).
    pub pure_to_empty: bool,
}

impl Default for Pruning {
    fn default() -> Self {
        Pruning { finished: true, pure_to_empty: true }
    }
}

/// How the search sees one level.
#[derive(Clone, Debug)]
pub struct WaterSort<const W: usize> {
    code: TubeCode,
    tubes: usize,
    rule: Rule,
    heuristic: Heuristic,
    pruning: Pruning,
    /// Sort tubes into canonical order (off only to measure what it saves).
    symmetry: bool,
    goal: GoalShape,
}

/// Settings of the model that change what the search explores.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Model {
    pub rule: Rule,
    pub heuristic: Heuristic,
    pub pruning: Pruning,
    /// Tube order is a symmetry (default on).
    pub no_symmetry: bool,
}

impl<const W: usize> WaterSort<W> {
    /// The puzzle for `level`, and its start. `W` must be at least
    /// [`crate::state::words_needed`] for the level (the dispatch guarantees it).
    pub fn new(level: &Level, model: Model) -> (Self, Packed<W>) {
        let code = TubeCode { bits: unit_bits(level.colours().len()), capacity: level.capacity() as u32 };
        let mut units = vec![0u32; level.colours().len() + 1];
        for &u in level.tubes().iter().flatten() {
            units[u as usize + 1] += 1;
        }
        let tubes_of: Vec<u32> = units.iter().map(|&u| u / code.capacity).collect();
        let goal = GoalShape { tubes: tubes_of.iter().sum(), tubes_of };
        let codes: Vec<u64> = level.tubes().iter().map(|t| code.encode(t)).collect();
        let puzzle = WaterSort {
            code,
            tubes: codes.len(),
            rule: model.rule,
            heuristic: model.heuristic,
            pruning: model.pruning,
            symmetry: !model.no_symmetry,
            goal,
        };
        (puzzle, Packed::pack(code, &codes))
    }

    fn unpack(&self, state: &Packed<W>) -> Codes {
        let mut codes = [0u64; MAX_TUBES];
        state.unpack(self.code, self.tubes, &mut codes);
        codes
    }

    /// The units pour `from -> to` moves, or `None` when it is illegal or pruned.
    fn amount(&self, from: Top, to: Top) -> Option<u32> {
        if from.height == 0 || (to.height != 0 && to.colour != from.colour) {
            return None;
        }
        let capacity = self.code.capacity;
        let amount = self.rule.amount(from.run as usize, (capacity - to.height) as usize)? as u32;
        let pure = from.run == from.height;
        if self.pruning.pure_to_empty && pure && to.height == 0 && amount == from.height {
            return None;
        }
        if self.pruning.finished && pure && from.height == capacity && self.goal.tubes_of[from.colour as usize] == 1 {
            return None;
        }
        Some(amount)
    }
}

/// Move ordering: pours that finish a tube first, then pours onto the same colour, then pours into an
/// empty tube. Greedy follows it among equal estimates, and it breaks A*'s ties toward progress.
fn rank(to: Top, amount: u32, capacity: u32) -> usize {
    if to.height + amount == capacity && to.run == to.height {
        0
    } else if to.height > 0 {
        1
    } else {
        2
    }
}

impl<const W: usize> search::Puzzle for WaterSort<W> {
    type State = Packed<W>;
    type Move = Pour;

    fn successors(&self, state: &Packed<W>, mut visit: impl FnMut(Pour, Packed<W>)) {
        let mut codes = self.unpack(state);
        let n = self.tubes;
        let mut tops = [Top::default(); MAX_TUBES];
        for (top, &c) in tops.iter_mut().zip(&codes[..n]) {
            *top = self.code.top(c);
        }
        // One pass finds the legal pours, recording each as a destination bit of its source in the
        // mask of its rank; a second emits them rank by rank.
        let mut ranked = [[0u64; MAX_TUBES]; 3];
        for from in (0..n).filter(|&i| tops[i].height > 0) {
            for to in (0..n).filter(|&j| j != from) {
                if let Some(amount) = self.amount(tops[from], tops[to]) {
                    ranked[rank(tops[to], amount, self.code.capacity)][from] |= 1 << to;
                }
            }
        }
        for masks in &ranked {
            for (from, &mask) in masks[..n].iter().enumerate() {
                let mut mask = mask;
                while mask != 0 {
                    let to = mask.trailing_zeros() as usize;
                    mask &= mask - 1;
                    let Some(amount) = self.amount(tops[from], tops[to]) else { continue };
                    let (old_from, old_to) = (codes[from], codes[to]);
                    codes[from] = self.code.pop(old_from, tops[from].height, amount);
                    codes[to] = self.code.push(old_to, tops[to].height, tops[from].colour, amount);
                    visit(Pour { from, to }, Packed::pack(self.code, &codes[..n]));
                    (codes[from], codes[to]) = (old_from, old_to);
                }
            }
        }
    }

    fn is_goal(&self, state: &Packed<W>) -> bool {
        let codes = self.unpack(state);
        codes[..self.tubes].iter().all(|&c| {
            c == 0 || {
                let top = self.code.top(c);
                top.height == self.code.capacity && top.run == top.height
            }
        })
    }

    fn heuristic(&self, state: &Packed<W>) -> u32 {
        self.heuristic.estimate(self.code, &self.unpack(state)[..self.tubes], &self.goal)
    }

    fn canonical(&self, state: &Packed<W>) -> Packed<W> {
        if !self.symmetry {
            return *state;
        }
        let mut codes = self.unpack(state);
        codes[..self.tubes].sort_unstable();
        Packed::pack(self.code, &codes[..self.tubes])
    }
}
