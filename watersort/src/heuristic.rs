//! Admissible estimates of the pours left. Each is a count that one pour lowers by at most one and that
//! is 0 when solved, so it never exceeds the pours left.
//!
//! Facts every proof uses. A pour moves part or all of the source's top run `r` (colour c) onto a
//! destination that is empty or has c on top. Call R the number of maximal runs in all tubes and G the
//! number of full tubes at the goal: `G = Σ_c u_c / C` for u_c units of colour c, capacity C.
//!
//! * Part of `r` moves: `r` stays, so R is unchanged (destination non-empty: its top run grows) or
//!   grows by one (destination empty: a new run).
//! * All of `r` onto a non-empty tube: `r` merges into the top run there, R falls by exactly one.
//! * All of `r` into an empty tube: R is unchanged.
//!
//! So R falls by at most one a pour, and only when the destination was non-empty.

use crate::tube::TubeCode;
use search::Named;

/// Which estimate A*, IDA* and greedy use.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Heuristic {
    /// 0: plain uniform-cost search.
    Zero,
    /// Boundaries between different colours inside tubes.
    ///
    /// Proof: a pour creates no boundary (the destination is empty or has the same colour on top) and
    /// removes at most one: the one under `r`, only when all of `r` leaves. 0 when solved.
    Boundaries,
    /// Runs beyond the goal's: `R - G`.
    ///
    /// Proof: R ≥ G because a run holds at most C units, so colour c has at least `u_c / C` runs; R = G
    /// when solved (one run a full tube); R falls by at most one a pour (module comment). It is never
    /// below `Boundaries`: R = boundaries + non-empty tubes, and the `G·C` units need at least G tubes.
    Runs,
    /// `R - G` plus the bottoms missing: `D = Σ_c max(0, u_c/C - b_c)`, where `b_c` counts tubes whose
    /// bottom unit is colour c.
    ///
    /// Proof: when solved R = G and each colour c is the bottom of exactly `u_c/C` tubes, so the sum is
    /// 0. A pour onto a non-empty tube lowers R by at most one and creates no bottom, so D does not fall
    /// (it can rise when the source empties). A pour into an empty tube does not lower R, and creates one
    /// bottom, so D falls by at most one. Either way `R - G + D` falls by at most one a pour.
    #[default]
    Bottoms,
    /// Not admissible, for greedy search only: twice the units out of place (all but those in the `u_c/C`
    /// longest bottom runs of each colour c) plus `Runs`. Counting units rather than runs rewards each
    /// pour by how much it settles, which leads greedy search off the long plateaus of the run counts;
    /// the weights were the best of seven tried with best-first greedy on ten 30-colour levels. The
    /// depth-first greedy mode orders by it too; there `bottoms` does about as well (BENCHMARKS.md).
    Guide,
}

/// What the estimates need to know about the goal.
#[derive(Clone, Debug)]
pub struct GoalShape {
    /// Full tubes of each colour code at the goal (index 0, no colour, is 0).
    pub tubes_of: Vec<u32>,
    /// Their sum, G.
    pub tubes: u32,
}

impl Heuristic {
    /// Whether the estimate never exceeds the pours left, as A* and IDA* need for fewest pours.
    pub fn admissible(self) -> bool {
        self != Heuristic::Guide
    }

    /// The estimate for a position given by its tube codes.
    pub fn estimate(self, code: TubeCode, tubes: &[u64], goal: &GoalShape) -> u32 {
        match self {
            Heuristic::Zero => 0,
            Heuristic::Boundaries => tubes.iter().map(|&t| code.runs(t).saturating_sub(1)).sum(),
            Heuristic::Runs => runs_over_goal(code, tubes, goal),
            Heuristic::Guide => 2 * out_of_place(code, tubes, goal) + runs_over_goal(code, tubes, goal),
            Heuristic::Bottoms => {
                // Bottoms of each colour so far (a byte: at most 64 tubes); `placed` counts those within
                // the `u_c/C` wanted, so D = G - placed.
                let mut bottoms = [0u8; 256];
                let mut placed = 0;
                for &t in tubes.iter().filter(|&&t| t != 0) {
                    let c = code.unit(t, 0) as usize;
                    placed += ((bottoms[c] as u32) < goal.tubes_of[c]) as u32;
                    bottoms[c] += 1;
                }
                runs_over_goal(code, tubes, goal) + goal.tubes - placed
            }
        }
    }
}

impl Named for Heuristic {
    const KIND: &'static str = "heuristic";
    const ALL: &'static [Heuristic] =
        &[Heuristic::Zero, Heuristic::Boundaries, Heuristic::Runs, Heuristic::Bottoms, Heuristic::Guide];
    const NAMES: &'static [&'static str] = &["zero", "boundaries", "runs", "bottoms", "guide"];

    /// The first paragraph of each variant's description, without the proofs.
    fn about(self) -> &'static str {
        match self {
            Heuristic::Zero => "0: plain uniform-cost search",
            Heuristic::Boundaries => "Boundaries between different colours inside tubes",
            Heuristic::Runs => "Runs beyond the goal's: `R - G`",
            Heuristic::Bottoms => {
                "`R - G` plus the bottoms missing: `D = Σ_c max(0, u_c/C - b_c)`, where `b_c` counts tubes whose \
                 bottom unit is colour c"
            }
            Heuristic::Guide => {
                "Not admissible, for greedy search only: twice the units out of place (all but those in the \
                 `u_c/C` longest bottom runs of each colour c) plus `Runs`. Counting units rather than runs \
                 rewards each pour by how much it settles, which leads greedy search off the long plateaus of \
                 the run counts; the weights were the best of seven tried with best-first greedy on ten \
                 30-colour levels. The depth-first greedy mode orders by it too; there `bottoms` does about as \
                 well (BENCHMARKS.md)"
            }
        }
    }
}

fn runs_over_goal(code: TubeCode, tubes: &[u64], goal: &GoalShape) -> u32 {
    tubes.iter().map(|&t| code.runs(t)).sum::<u32>().saturating_sub(goal.tubes)
}

/// Units not in the longest `u_c/C` bottom runs of their colour c: each of them must still move.
///
/// Greedy search calls this for every child, so the usual case is kept cheap: a colour that fills one tube
/// (`u_c/C = 1`) needs only its longest bottom run, kept per colour; only colours that fill several tubes
/// have their runs sorted.
fn out_of_place(code: TubeCode, tubes: &[u64], goal: &GoalShape) -> u32 {
    let mut longest = [0u8; 256];
    // (colour, bottom run) of the tubes whose bottom colour fills several tubes.
    let mut several = [(0u32, 0u32); crate::level::MAX_TUBES];
    let (mut n, mut units) = (0, 0);
    for &t in tubes.iter().filter(|&&t| t != 0) {
        let (colour, run) = code.bottom_run(t);
        units += code.height(t);
        match goal.tubes_of[colour as usize] {
            0 => {}
            1 => longest[colour as usize] = longest[colour as usize].max(run as u8),
            _ => {
                several[n] = (colour, run);
                n += 1;
            }
        }
    }
    let mut placed: u32 = longest[..goal.tubes_of.len()].iter().map(|&r| r as u32).sum();
    several[..n].sort_unstable_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)));
    let mut taken = 0;
    for (i, &(colour, run)) in several[..n].iter().enumerate() {
        taken = if i > 0 && several[i - 1].0 == colour { taken + 1 } else { 1 };
        if taken <= goal.tubes_of[colour as usize] {
            placed += run;
        }
    }
    units - placed
}

#[cfg(test)]
mod tests {
    use super::*;
    use search::rng::SplitMix64;

    /// The plain definition: each colour's bottom runs sorted, its `u_c/C` longest placed.
    fn out_of_place_by_definition(code: TubeCode, tubes: &[u64], goal: &GoalShape) -> u32 {
        let mut runs = vec![Vec::new(); goal.tubes_of.len()];
        let mut units = 0;
        for &t in tubes.iter().filter(|&&t| t != 0) {
            let (height, colour) = (code.height(t), code.unit(t, 0));
            units += height;
            runs[colour as usize].push((0..height).take_while(|&k| code.unit(t, k) == colour).count() as u32);
        }
        let placed: u32 = runs
            .iter_mut()
            .zip(&goal.tubes_of)
            .map(|(r, &wanted)| {
                r.sort_unstable_by(|a, b| b.cmp(a));
                r.iter().take(wanted as usize).sum::<u32>()
            })
            .sum();
        units - placed
    }

    #[test]
    fn out_of_place_keeps_its_definition() {
        let mut rng = SplitMix64::new(11);
        for _ in 0..20_000 {
            let (colours, capacity) = (1 + rng.below(6), 2 + rng.below(4));
            let code = TubeCode::new(3, capacity as u32);
            // 0, 1 or 2 tubes a colour: the one-tube shortcut and the sorted path, mixed.
            let tubes_of: Vec<u32> = (0..=colours).map(|c| if c == 0 { 0 } else { rng.below(3) as u32 }).collect();
            let goal = GoalShape { tubes: tubes_of.iter().sum(), tubes_of };
            let tubes: Vec<u64> = (0..1 + rng.below(8))
                .map(|_| {
                    let units: Vec<u8> = (0..rng.below(capacity + 1)).map(|_| rng.below(colours) as u8).collect();
                    code.encode(&units)
                })
                .collect();
            assert_eq!(out_of_place(code, &tubes, &goal), out_of_place_by_definition(code, &tubes, &goal), "{tubes:?}");
        }
    }
}
