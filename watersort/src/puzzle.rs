//! The water sort puzzle as a [`search::Puzzle`] over packed states: successor generation with the
//! optimality-keeping pruning rules and move ordering, the goal test, the heuristic and the canonical
//! tube order.
//!
//! Tube order is a symmetry: positions that differ only by it are one state. Every state the search sees
//! is kept canonical — tube codes in ascending order — by sorting the start once and each successor as it
//! is made (two tubes changed, so the sort is nearly free). That is cheaper than letting the library call
//! `Puzzle::canonical` on every child, which would unpack, sort and pack it again. The price: a move is a
//! pour between positions in sorted order, so [`WaterSort::user_pours`] maps a solution back to the
//! level's own tube numbers.

use crate::heuristic::{GoalShape, Heuristic};
use crate::level::{unit_bits, Level, MAX_TUBES};
use crate::play::{Pour, Tubes};
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
        let code = TubeCode::new(unit_bits(level.colours().len()), level.capacity() as u32);
        let mut units = vec![0u32; level.colours().len() + 1];
        for &u in level.tubes().iter().flatten() {
            units[u as usize + 1] += 1;
        }
        let tubes_of: Vec<u32> = units.iter().map(|&u| u / code.capacity).collect();
        let goal = GoalShape { tubes: tubes_of.iter().sum(), tubes_of };
        let mut codes: Vec<u64> = level.tubes().iter().map(|t| code.encode(t)).collect();
        if !model.no_symmetry {
            codes.sort_unstable();
        }
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

    /// `pours` found by the search (tube positions in sorted order at each step) as pours in the level's
    /// own tube numbering, by replaying them on the level and re-sorting its tubes after each. Tubes with
    /// equal codes are identical, so which of them a position names does not matter. A pour that does not
    /// replay ends the mapping early; the caller's check then reports it.
    pub fn user_pours(&self, level: &Level, pours: &[Pour]) -> Vec<Pour> {
        let mut tubes = Tubes::new(level);
        let mut user = Vec::with_capacity(pours.len());
        for &p in pours {
            let mut order: Vec<usize> = (0..self.tubes).collect();
            if self.symmetry {
                order.sort_by_key(|&t| self.code.encode(&tubes.tubes[t]));
            }
            let pour = Pour { from: order[p.from], to: order[p.to] };
            if tubes.pour(pour, self.rule).is_err() {
                break;
            }
            user.push(pour);
        }
        user
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

/// Move ordering, by destination: pours onto a tube of the pour's colour alone first (they build
/// finished tubes), then onto the same colour over others, then into an empty tube. Greedy follows it
/// among equal estimates, and it breaks A*'s ties toward progress.
fn rank(to: Top) -> usize {
    if to.height == 0 {
        2
    } else if to.run == to.height {
        0
    } else {
        1
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
        let mut child = [0u64; MAX_TUBES];
        // Destinations with room, rank by rank; then the sources that can pour into each.
        let mut order = [0u8; MAX_TUBES];
        let mut len = 0;
        for r in 0..3 {
            for to in (0..n).filter(|&j| tops[j].height < self.code.capacity && rank(tops[j]) == r) {
                order[len] = to as u8;
                len += 1;
            }
        }
        for &to in &order[..len] {
            let to = to as usize;
            for from in (0..n).filter(|&i| i != to) {
                let Some(amount) = self.amount(tops[from], tops[to]) else { continue };
                let (old_from, old_to) = (codes[from], codes[to]);
                codes[from] = self.code.pop(old_from, tops[from].height, amount);
                codes[to] = self.code.push(old_to, tops[to].height, tops[from].colour, amount);
                child[..n].copy_from_slice(&codes[..n]);
                if self.symmetry {
                    child[..n].sort_unstable();
                }
                visit(Pour { from, to }, Packed::pack(self.code, &child[..n]));
                (codes[from], codes[to]) = (old_from, old_to);
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
}
