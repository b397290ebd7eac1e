//! What a pattern table of distances must hold beyond its checksum and histogram.
//!
//! A checksum vouches for the bytes, and the value histogram for how many entries hold each value. Neither
//! notices a table whose goal placement (every pattern tile home) is not 0, which no table of distances
//! holds, nor entries swapped between placements of the same Manhattan distance. A table is built over
//! (placement, blank region) states, a move taking one pattern tile from a cell next to the blank's region
//! onto a cell of it (the blank then stands where the tile was), so [`check`] tests, in one pass over every
//! placement, what such distances must satisfy between states one move apart (when every state is reached:
//! the pattern leaves at least three cells free):
//!
//! * an entry of one region (a blank-aware table's label below its last, or any entry of a placement whose
//!   free cells fall into no more regions than it has entries) is a distance: its neighbours' such entries
//!   differ from it by exactly one, a shared entry of a neighbour is at most one above it, and unless it is
//!   0 a move from its region reaches an entry below it (the first move of a shortest way);
//! * a shared entry (a plain table's, the least over several regions; a blank-aware table's last, the
//!   least over the regions labelled from it up) is at most one above its neighbours' region entries, and
//!   unless it is 0 some move from its regions reaches an entry below it.
//!
//! Shared entries of neighbours need not be close: on 2x3, the 1-2 table gives 6 and 3 to tile 2 on cell 3
//! and on cell 4, since the blank has to go round the pattern's tiles. A swap of two region entries is
//! found (the lower value lands among neighbours of the higher, or the higher among the lower's, one of
//! which is below it); one that only moves shared entries may pass.

use crate::board::Board;
use crate::pdb_file::{decode, Encoding};
use crate::rank::{Pattern, MAX_PATTERN_TILES};
use crate::regions::{bits, Regions};
use rayon::prelude::*;

/// `Err` naming a placement and what is wrong with it: the goal placement's least entry (in a blank-aware
/// table, the blank's home region's) is not 0, or entries of neighbouring states break the rules above. Of
/// several flaws the one of the lowest placement is named.
pub fn check(board: Board, pattern: &Pattern, encoding: Encoding, payload: &[u8], labels: u32) -> Result<(), String> {
    let goal = pattern.rank(pattern.tiles()) * labels as u64;
    if let Some(excess) = (goal..goal + labels as u64).map(|i| decode(encoding, payload, i)).min().filter(|&e| e > 0) {
        return Err(format!("the goal placement (every pattern tile home) has the value {}, not 0", 2 * excess));
    }
    if board.cells() < pattern.len() + 3 {
        // The blank and one other tile: the tiles' permutation keeps its parity, so half the states are never
        // reached, and hold what the builder leaves there (the placement's plain value, or the Manhattan
        // distance), not distances. With two other tiles or more, which look alike, every state is reached.
        return Ok(());
    }
    let table = Table { board, pattern, encoding, payload, labels, regions: Regions::new(board, true) };
    const CHUNK: u64 = 1 << 14;
    let size = pattern.size();
    let flaw = (0..size.div_ceil(CHUNK)).into_par_iter().find_map_first(|chunk| {
        (chunk * CHUNK..((chunk + 1) * CHUNK).min(size)).find_map(|rank| table.placement(rank).err())
    });
    flaw.map_or(Ok(()), Err)
}

/// A table's payload with what reading it by state needs.
struct Table<'a> {
    board: Board,
    pattern: &'a Pattern,
    encoding: Encoding,
    payload: &'a [u8],
    labels: u32,
    regions: Regions,
}

impl Table<'_> {
    /// The value of entry `label` of placement `rank`, whose Manhattan distance is `md`.
    fn value(&self, rank: u64, label: u32, md: u32) -> u32 {
        md + 2 * decode(self.encoding, self.payload, rank * self.labels as u64 + label as u64) as u32
    }

    /// The rules above for the entries of placement `rank` and its neighbours.
    fn placement(&self, rank: u64) -> Result<(), String> {
        let (board, k, last) = (self.board, self.pattern.len(), self.labels - 1);
        let mut cells = [0u8; MAX_PATTERN_TILES];
        self.pattern.unrank(rank, &mut cells);
        let cells = &cells[..k];
        let tiles = self.pattern.tiles();
        let md: u32 = tiles.iter().zip(cells).map(|(&t, &c)| board.manhattan(t as usize, c as usize)).sum();
        let occ = cells.iter().fold(0u32, |m, &c| m | 1 << c);
        let mut index = [0usize; 32];
        for (i, &c) in cells.iter().enumerate() {
            index[c as usize] = i;
        }
        let free = self.regions.all & !occ;
        // The shared entry's value, and whether a move from one of its regions reaches an entry below it.
        let shared = self.value(rank, last, md);
        let mut shared_seen = false;
        let mut shared_descends = false;
        let alone = self.one_entry_a_region(free);
        for (l, region) in self.regions.regions(free, free).enumerate() {
            let label = (l as u32).min(last);
            let own = label < last || alone;
            let v = self.value(rank, label, md);
            shared_seen |= !own;
            let mut descends = false;
            for from in bits(self.regions.spread(region) & occ) {
                let i = index[from];
                let tile = tiles[i] as usize;
                for to in board.neighbors(from).filter(|&c| region >> c & 1 == 1) {
                    let (lo, hi) = (from.min(to), from.max(to));
                    let between = occ & ((1 << hi) - 1) & !((2 << lo) - 1);
                    let next = (rank as i64 + self.pattern.delta(i, from, to, bits(between).map(|c| index[c]))) as u64;
                    let next_md = md + board.manhattan(tile, to) - board.manhattan(tile, from);
                    let next_free = free ^ (1 << to) ^ (1 << from);
                    let next_label = self.regions.label_of(next_free, from).min(last);
                    let w = self.value(next, next_label, next_md);
                    let next_own = next_label < last || self.one_entry_a_region(next_free);
                    descends |= w < v;
                    let broken = match (own, next_own) {
                        (true, true) => v.abs_diff(w) != 1,
                        (true, false) => w > v + 1,
                        (false, true) => v > w + 1,
                        (false, false) => false,
                    };
                    if broken {
                        let mut moved = [0u8; MAX_PATTERN_TILES];
                        moved[..k].copy_from_slice(cells);
                        moved[i] = to as u8;
                        return Err(format!(
                            "placement {} (tile@cell) holds {v}, and its neighbour {} (tile {tile} moved from cell \
                             {from} to {to}) holds {w}: entries one move apart differ by one",
                            self.state(cells, label),
                            self.state(&moved[..k], next_label)
                        ));
                    }
                }
            }
            if own && v == 0 && label > 0 {
                return Err(format!(
                    "placement {} (tile@cell) holds 0, which only the goal state holds",
                    self.state(cells, label)
                ));
            }
            if own && v > 0 && !descends {
                return Err(format!(
                    "placement {} (tile@cell) holds {v}, but no move from it reaches a lower entry",
                    self.state(cells, label)
                ));
            }
            shared_descends |= !own && descends;
        }
        if shared_seen && shared > 0 && !shared_descends {
            return Err(format!(
                "placement {} (tile@cell) holds {shared}, but no move from it reaches a lower entry",
                self.state(cells, last)
            ));
        }
        Ok(())
    }

    /// Whether the free cells `free` fall into no more regions than a placement has entries.
    fn one_entry_a_region(&self, free: u32) -> bool {
        self.regions.regions(free, free).nth(self.labels as usize).is_none()
    }

    /// A state in words: where each pattern tile stands, and in a blank-aware table the entry's region label.
    fn state(&self, cells: &[u8], label: u32) -> String {
        let tiles = self.pattern.tiles();
        let at: Vec<String> = tiles.iter().zip(cells).map(|(t, c)| format!("{t}@{c}")).collect();
        let mut s = at.join(" ");
        if self.labels > 1 {
            let up = if label + 1 == self.labels { " and up" } else { "" };
            s += &format!(" with the blank in region {label}{up}");
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pdb_file::encode;

    #[test]
    fn a_goal_placement_that_is_not_0_is_found() {
        let board: Board = "2x3".parse().unwrap();
        let pattern = Pattern::new(6, &[1, 2]);
        let mut excess = vec![0u8; pattern.size() as usize];
        excess[pattern.rank(&[1, 2]) as usize] = 1;
        let err = check(board, &pattern, Encoding::Byte, &encode(Encoding::Byte, &excess).unwrap(), 1).unwrap_err();
        assert!(err.contains("goal placement") && err.contains("value 2"), "{err}");
    }
}
