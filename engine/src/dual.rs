//! Dual lookups: a second estimate of a position from the same tables, read at the position's dual.
//!
//! **What the dual is.** A position is a map `s` from cells to tiles (the blank is tile 0), the goal the
//! identity, and a move swaps the contents of two neighbouring cells, one of which holds the blank: the
//! operators are named by locations. Let `o_1 .. o_L` solve `s`, so `s ∘ o_1 ∘ … ∘ o_L = id`. The same swaps,
//! applied to the goal, lead from the goal to `s⁻¹`, the *dual*, which the reversed swaps bring back. In a
//! puzzle whose every swap were always allowed, `s` and `s⁻¹` would be equally far from the goal. In the tile
//! puzzle a swap needs the blank on one of its cells, and along the replayed path the cell the real path's
//! blank is on holds, in the dual, the tile numbered by the blank's starting cell `b` (induction on the
//! steps: that cell's content is `p(p⁻¹(b)) = b`, where `p = o_1 ∘ … ∘ o_i`). So the replayed path is a legal
//! solution of `s⁻¹` in the puzzle **whose blank is tile `b`** (tile 0 an ordinary tile, at home on cell 0):
//! `d(s) = d_b(s⁻¹)`. Only when the blank is home (`b = 0`) is that the ordinary puzzle; elsewhere reading the
//! inverse as an ordinary position overestimates (2x3, `4 5 3 0 1 2`: 17 against a true 11), which is why the
//! plain inverse is no estimate at all.
//!
//! **Where it stands.** Dual tile `t` stands on the cell numbered by the tile on cell `t` of `s`, so the
//! acting blank `b` stands on cell 0 (the real blank is on cell `b`), and dual tile 0 on the number of the tile
//! on cell 0.
//!
//! **What may be read.** A lower bound on `d_b(s⁻¹)` is a sum over any partition of the tiles other than `b`
//! of lower bounds on the moves of each part's tiles (every move moves one tile). Take the tables' patterns:
//! - the pattern holding `b` (if any) with tile 0 added can only get its Manhattan distance;
//! - a pattern `P` without `b` sees the same abstract space in the dual's puzzle as in the real one (its tiles,
//!   one blank, indistinguishable others), but not always the same goal: its table's goal is `P` home with the
//!   blank in the region of cell 0, the dual's is `P` home with the blank in the region of cell `b`. When `P`'s
//!   home leaves cell 0 and cell `b` connected these are one node; otherwise the table's value at the dual's
//!   node `x` may exceed the dual's distance by as much as the distance `δ` between the two goal nodes (7-8 on
//!   4x4: the home of tiles 1-7 walls cell 0 in, and `δ = 6` for an acting blank of 8 to 15). By the triangle inequality
//!   `dist(x, goal_b) ≥ dist(x, goal_0) − δ`, so the entry less `δ` (never below the part's Manhattan distance)
//!   is a bound. `δ` is even (both goal nodes place `P` home), so the estimate keeps the parity of the
//!   Manhattan distance, which the dual's sum equals (dual tile `t` stands as far from home as the tile on
//!   cell `t` does). The blank of a blank-aware entry is the acting blank, on cell 0; a plain entry is the
//!   least over the regions, so less again.
//!
//! **A second reading.** Walking the blank home first (up then left, or left then up: `k` moves, its
//! Manhattan distance) gives a position `t` with `d(s) >= d(t) - k` and the blank home, where the dual is an
//! ordinary position and every table applies; its estimate less `k` keeps the parity too (`d(t)` and `d(s)`
//! differ by `k` modulo 2). It is above the acting blank's reading on most positions of 3x3 and 2x4 (and below
//! on many), so the estimate is the larger of the two.
//!
//! The exhaustive test (engine/tests/dual.rs) checks on every position of 2x3, 3x3 and 2x4, with plain and
//! blank-aware tables, that this estimate never overestimates and that the two simpler readings do: the plain
//! inverse, and the acting blank without `δ`.

use puzzle::pdb_file::PdbFile;
use puzzle::regions::Regions;
use puzzle::{Board, Dir, Pattern, State, MAX_CELLS};
use std::collections::HashSet;

/// A position's dual, as a position of the puzzle whose blank is tile `acting_blank`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dual {
    /// The tile that plays the blank: the number of the cell the real blank is on. It stands on cell 0.
    pub acting_blank: u8,
    /// `cells[t]`: the cell dual tile `t` stands on, which is the number of the tile on cell `t`.
    pub cells: [u8; MAX_CELLS],
}

impl Dual {
    /// The dual of `s`.
    pub fn of(s: &State) -> Dual {
        let mut cells = [0u8; MAX_CELLS];
        cells[..s.tiles().len()].copy_from_slice(s.tiles());
        Dual { acting_blank: s.blank() as u8, cells }
    }
}

/// Steps the search for `δ` takes before giving up on a pattern's dual lookup (which then falls back to the
/// Manhattan distance); the goal nodes of the tables built here are 6 apart at most.
const SHIFT_CAP: u32 = 8;

/// The dual estimate of one partition's tables (see the module doc).
pub struct DualEstimate<'a> {
    board: Board,
    tables: &'a [PdbFile],
    patterns: Vec<Pattern>,
    regions: Regions,
    /// `shift[p][b]`: `δ` for pattern `p` when the acting blank is tile `b` (a tile not in `p`), `None` when
    /// it is over [`SHIFT_CAP`].
    shift: Vec<[Option<u8>; MAX_CELLS]>,
}

impl<'a> DualEstimate<'a> {
    /// The estimate over `tables`, the tables of one partition of `board`'s tiles.
    pub fn new(board: Board, tables: &'a [PdbFile]) -> DualEstimate<'a> {
        let regions = Regions::untabled(board);
        let patterns: Vec<Pattern> = tables.iter().map(|t| t.header.pattern()).collect();
        let shift = patterns
            .iter()
            .map(|p| std::array::from_fn(|b| (b < board.cells()).then(|| goal_shift(board, &regions, p, b)).flatten()))
            .collect();
        DualEstimate { board, tables, patterns, regions, shift }
    }

    /// `δ` for pattern `p` when the acting blank is tile `b` (see the module doc), if found.
    pub fn shift(&self, p: usize, b: usize) -> Option<u8> {
        self.shift[p][b]
    }

    /// The value table `p` holds for its tiles on `cells` (in pattern order) with the blank on cell `blank`.
    pub fn value(&self, p: usize, cells: &[u8], blank: usize) -> u32 {
        let (table, pattern) = (&self.tables[p], &self.patterns[p]);
        let labels = table.header.labels;
        let mut index = pattern.rank(cells) * labels as u64;
        if labels > 1 {
            let occ = cells.iter().fold(0u32, |m, &c| m | 1 << c);
            index += self.regions.label_capped(self.regions.all & !occ, blank, labels - 1) as u64;
        }
        self.manhattan(pattern.tiles(), cells) + 2 * table.excess(index) as u32
    }

    /// The Manhattan distance of `tiles` standing on `cells`.
    pub fn manhattan(&self, tiles: &[u8], cells: &[u8]) -> u32 {
        tiles.iter().zip(cells).map(|(&t, &c)| self.board.manhattan(t as usize, c as usize)).sum()
    }

    /// The dual estimate of `s`: a lower bound on its distance (see the module doc), the larger of the
    /// acting blank's reading and the reading after the blank is walked home.
    pub fn estimate(&self, s: &State) -> u32 {
        self.acting_blank(s).max(self.via_home(s).unwrap_or(0))
    }

    /// The reading after walking the blank home, up then left or left then up: `k` moves (the blank's Manhattan
    /// distance) lead to a position `t` whose blank is home, so `d(s) >= d(t) - k`, and `t`'s dual is an ordinary
    /// position at `t`'s distance, whose tables all apply. `None` where that is below `k`.
    pub fn via_home(&self, s: &State) -> Option<u32> {
        let k = self.board.manhattan(0, s.blank());
        [[Dir::Up, Dir::Left], [Dir::Left, Dir::Up]]
            .iter()
            .filter_map(|order| {
                let mut t = *s;
                for &dir in order {
                    while t.move_blank(dir) {}
                }
                self.acting_blank(&t).checked_sub(k)
            })
            .max()
    }

    /// The acting blank's reading of `s` (see the module doc).
    pub fn acting_blank(&self, s: &State) -> u32 {
        let dual = Dual::of(s);
        let b = dual.acting_blank;
        // Tile 0 is an ordinary tile of the dual's puzzle, at home on cell 0.
        let mut h = self.board.manhattan(0, dual.cells[0] as usize);
        for (p, pattern) in self.patterns.iter().enumerate() {
            let tiles = pattern.tiles();
            let cells: Vec<u8> = tiles.iter().map(|&t| dual.cells[t as usize]).collect();
            if tiles.contains(&b) {
                h += tiles
                    .iter()
                    .zip(&cells)
                    .filter(|(&t, _)| t != b)
                    .map(|(&t, &c)| self.board.manhattan(t as usize, c as usize))
                    .sum::<u32>();
                continue;
            }
            let md = self.manhattan(tiles, &cells);
            h += match self.shift[p][b as usize] {
                Some(delta) => (self.value(p, &cells, 0).saturating_sub(delta as u32)).max(md),
                None => md,
            };
        }
        h
    }
}

/// `δ`: the fewest moves of `pattern`'s tiles between its goal with the blank in the region of cell `b` and
/// its goal with the blank in the region of cell 0, by breadth-first search over (placement, blank region)
/// up to [`SHIFT_CAP`] moves; 0 when one region holds both, `None` for a tile of the pattern or past the cap.
fn goal_shift(board: Board, regions: &Regions, pattern: &Pattern, b: usize) -> Option<u8> {
    let home: Vec<u8> = pattern.tiles().to_vec();
    if home.contains(&(b as u8)) {
        return None;
    }
    let occ_home = home.iter().fold(0u32, |m, &c| m | 1 << c);
    let free_home = regions.all & !occ_home;
    let target = (home.clone(), regions.region(free_home, 0));
    let mut layer = vec![(home, regions.region(free_home, b))];
    let mut seen: HashSet<(Vec<u8>, u32)> = layer.iter().cloned().collect();
    for depth in 0..=SHIFT_CAP {
        if layer.contains(&target) {
            return Some(depth as u8);
        }
        let mut next = Vec::new();
        for (cells, region) in &layer {
            let occ = cells.iter().fold(0u32, |m, &c| m | 1 << c);
            for (i, &from) in cells.iter().enumerate() {
                for to in board.neighbors(from as usize).filter(|&to| region >> to & 1 == 1) {
                    let mut moved = cells.clone();
                    moved[i] = to as u8;
                    let free = regions.all & !(occ ^ 1 << from ^ 1 << to);
                    let state = (moved, regions.region(free, from as usize));
                    if seen.insert(state.clone()) {
                        next.push(state);
                    }
                }
            }
        }
        layer = next;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shifts_of_the_15_puzzle_7_8_tables() {
        let board = Board::FOUR;
        let regions = Regions::untabled(board);
        let seven = Pattern::new(16, &[1, 2, 3, 4, 5, 6, 7]);
        let eight = Pattern::new(16, &[8, 9, 10, 11, 12, 13, 14, 15]);
        let s7: Vec<_> = (0..16).map(|b| goal_shift(board, &regions, &seven, b)).collect();
        let s8: Vec<_> = (0..16).map(|b| goal_shift(board, &regions, &eight, b)).collect();
        // Tiles 1-7 at home wall cell 0 in: from the region of cells 8-15 six moves of theirs lead to it.
        let mut want7 = vec![None; 16];
        want7[0] = Some(0);
        want7[8..].fill(Some(6));
        assert_eq!(s7, want7);
        // Tiles 8-15 at home leave cells 0-7 one region.
        let mut want8 = vec![Some(0); 8];
        want8.resize(16, None);
        assert_eq!(s8, want8);
    }
}
