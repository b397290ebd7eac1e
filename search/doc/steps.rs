use search::Puzzle;

/// A walk along 0..=10 in steps of 1 or 3, either way, to reach 10: from 0 the fewest moves is 4
/// (3 + 3 + 3 + 1).
struct Steps;

impl Puzzle for Steps {
    type State = i32;
    /// The step taken: -3, -1, 1 or 3.
    type Move = i32;

    fn successors(&self, &x: &i32, mut visit: impl FnMut(i32, i32)) {
        for step in [-3, -1, 1, 3] {
            if (0..=10).contains(&(x + step)) {
                visit(step, x + step);
            }
        }
    }

    fn is_goal(&self, &x: &i32) -> bool {
        x == 10
    }

    /// Admissible: a move covers at most 3.
    fn heuristic(&self, &x: &i32) -> u32 {
        (10 - x).unsigned_abs().div_ceil(3)
    }

    /// One goal, and every step can be taken back: what bidirectional search needs.
    fn goal(&self) -> Option<i32> {
        Some(10)
    }
}
