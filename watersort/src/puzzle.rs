//! The water sort puzzle as a [`search::Puzzle`] over packed states: successor generation with the
//! optimality-keeping pruning rules and move ordering, the goal test, the heuristic and the canonical
//! tube order.
//!
//! Tube order is a symmetry: positions that differ only by it are one state. Every state the search sees
//! is kept canonical — tube codes in ascending order — by sorting the start once and building each
//! successor sorted (two tubes changed: they are merged into the others as the child is packed). That is
//! cheaper than letting the library call `Puzzle::canonical` on every child, which would unpack, sort and
//! pack it again. The price: a move is a pour between positions in sorted order, so
//! [`WaterSort::user_pours`] maps a solution back to the level's own tube numbers.

use crate::heuristic::{GoalShape, Heuristic};
use crate::level::{unit_bits, Level, MAX_TUBES};
use crate::play::{Pour, Tubes};
use crate::rule::Rule;
use crate::state::{Codes, Packed, Packer};
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
    /// Forced moves: when a pour completes the tube of a colour, it is the only successor kept. Precisely,
    /// pour `i -> j` is forced when colour c has exactly C units (one tube's worth, C the capacity), `j`
    /// holds only c (h ≥ 1 units), and the top run of `i` is c of r = C − h units — so all of c is in
    /// those two places and the pour makes `j` a finished tube. Standard and whole-run rules only.
    ///
    /// Why some fewest-pour solution starts with it (so cutting the other successors keeps every optimal
    /// length, and exhausting the cut space still proves unsolvability, being part of the full one). c
    /// units only ever lie on c or on the bottom, so they are always the top run of the tubes that hold
    /// them; a pour of another colour d therefore never touches a tube holding c (its source has d on
    /// top; its destination has d on top or is empty). Take any solution S. The c units start split over
    /// two non-empty tubes and end in one, so S has a pour of c; let p be the first. The pours before p
    /// touch neither `i` nor `j`, so they commute with our pour m. What can p be?
    /// * `i -> j`: it is m (it moves min(r, C − h) = r units).
    /// * `j -> i`: room for h units on `i` means the part of `i` under its top run is empty, so `i` and
    ///   `j` both hold only c and p gives the same position as m with the two tubes' names swapped.
    /// * `j -> e` (e empty): a one-colour tube poured whole into an empty one only renames tubes; S
    ///   without it (names swapped after it) is shorter, so an optimal S has no such pour first.
    /// * `i -> e` (e empty): it moves all r units; now c is in two one-colour tubes of r and h units
    ///   with r + h = C. Until S merges them (it must: the goal has c in one tube; a merge moves
    ///   everything, the sum fitting) its other c pours are whole one-colour tubes into empty ones
    ///   (renamings), and its other pours never touch the two c tubes. Playing m first, then the
    ///   same pours of other colours on the same tubes (m leaves `i` showing what p left, and an
    ///   empty tube where S had the second c tube), reaches the position after S's merge with at
    ///   least one pour fewer: p and the merge become m alone.
    ///
    /// Under one-unit a pour moves one unit, so c can spread over many tubes and the case analysis
    /// fails: the rule is off there.
    pub forced: bool,
}

impl Default for Pruning {
    fn default() -> Self {
        Pruning { finished: true, pure_to_empty: true, forced: true }
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
    /// How many units a pour moves.
    pub rule: Rule,
    /// The estimate of the pours left that guides the search.
    pub heuristic: Heuristic,
    /// Which moves are skipped: only ones some optimal solution can do without.
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

    /// The forced pour of `tops`, if any (see [`Pruning::forced`]): onto a one-colour tube of a colour
    /// with one tube's worth of units, from a tube whose top run is the rest of that colour.
    fn forced(&self, tops: &[Top], by_top: &ByTop) -> Option<Pour> {
        if !self.pruning.forced || self.rule == Rule::OneUnit {
            return None;
        }
        let capacity = self.code.capacity;
        tops.iter().enumerate().find_map(|(to, t)| {
            if t.height == 0 || t.run != t.height || t.height == capacity || self.goal.tubes_of[t.colour as usize] != 1
            {
                return None;
            }
            let rest = capacity - t.height;
            let from = by_top.with(t.colour).find(|&i| i != to && tops[i].run == rest)?;
            Some(Pour { from, to })
        })
    }

    /// Makes pour `p` of `amount` units from the position `codes` and visits the child, packed as it is
    /// put together: with symmetry on, `codes` is sorted, and the two changed tubes are merged into the
    /// others in order, so the child comes out sorted too.
    fn visit_pour(&self, codes: &Codes, tops: &[Top], p: Pour, amount: u32, visit: &mut impl FnMut(Pour, Packed<W>)) {
        let n = self.tubes;
        let from = self.code.pop(codes[p.from], tops[p.from].height, amount);
        let to = self.code.push(codes[p.to], tops[p.to].height, tops[p.from].colour, amount);
        let mut child = Packer::<W>::new(self.code);
        if self.symmetry {
            let mut changed = [from.min(to), from.max(to)].into_iter().peekable();
            for (t, &c) in codes[..n].iter().enumerate() {
                if t == p.from || t == p.to {
                    continue;
                }
                while let Some(d) = changed.next_if(|&d| d <= c) {
                    child.push(d);
                }
                child.push(c);
            }
            changed.for_each(|d| child.push(d));
        } else {
            for (t, &c) in codes[..n].iter().enumerate() {
                child.push(if t == p.from {
                    from
                } else if t == p.to {
                    to
                } else {
                    c
                });
            }
        }
        visit(p, child.finish());
    }
}

/// The non-empty tubes grouped by top colour, each group in tube order: the sources that can pour onto a
/// colour, found without trying every pair of tubes (at 52 tubes the pairs were most of an expansion).
struct ByTop {
    /// The first tube with colour code c on top, or [`ByTop::END`].
    first: [u8; 256],
    /// The next tube with the same top colour as tube i, or [`ByTop::END`].
    next: [u8; MAX_TUBES],
}

impl ByTop {
    const END: u8 = u8::MAX;

    fn new(tops: &[Top]) -> ByTop {
        let mut by = ByTop { first: [ByTop::END; 256], next: [ByTop::END; MAX_TUBES] };
        for (i, t) in tops.iter().enumerate().rev().filter(|(_, t)| t.height != 0) {
            by.next[i] = by.first[t.colour as usize];
            by.first[t.colour as usize] = i as u8;
        }
        by
    }

    /// The tubes with colour code `colour` on top, in order.
    fn with(&self, colour: u32) -> impl Iterator<Item = usize> + '_ {
        let mut at = self.first[colour as usize];
        std::iter::from_fn(move || {
            (at != ByTop::END).then(|| {
                let i = at as usize;
                at = self.next[i];
                i
            })
        })
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
        let codes = self.unpack(state);
        let n = self.tubes;
        let mut tops = [Top::default(); MAX_TUBES];
        for (top, &c) in tops.iter_mut().zip(&codes[..n]) {
            *top = self.code.top(c);
        }
        let by_top = ByTop::new(&tops[..n]);
        if let Some(p) = self.forced(&tops[..n], &by_top) {
            let amount = tops[p.from].run;
            self.visit_pour(&codes, &tops, p, amount, &mut visit);
            return;
        }
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
            // Into an empty tube any other tube may pour; onto a colour only the tubes with it on top.
            let mut pour = |from: usize| {
                if let Some(amount) = self.amount(tops[from], tops[to]).filter(|_| from != to) {
                    self.visit_pour(&codes, &tops, Pour { from, to }, amount, &mut visit);
                }
            };
            if tops[to].height == 0 {
                (0..n).for_each(&mut pour);
            } else {
                by_top.with(tops[to].colour).for_each(&mut pour);
            }
        }
    }

    /// Tube by tube, from the last: A* asks this of every state it expands, and most fail at once.
    fn is_goal(&self, state: &Packed<W>) -> bool {
        (0..self.tubes).rev().all(|t| {
            let c = state.tube(self.code, t);
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
