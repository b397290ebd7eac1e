//! A pattern database over a relabelled goal, in the multi-tile metric: the tiles are sorted into a few
//! classes, tiles of one class are told apart no more, and the table holds the exact MTM distance of every
//! arrangement of classes (the blank tracked) to the goal's arrangement, by breadth-first search.
//!
//! Admissible: the relabelling maps every position to an arrangement and every MTM move of a position to an
//! MTM move of its arrangement (the same cells slide), and the goal to the goal's arrangement; so a
//! solution of `n` moves maps to a path of `n` moves between the arrangements, and the arrangement's
//! distance, the table's value, is at most `n`. Consistent for the same reason (a move changes the
//! arrangement by one move, so the value by at most 1). The idea of one coarse whole-board relabelling
//! for the 4x4's multi-tile metric is Tomas Rokicki's; the labelling and this code are the project's own.
//!
//! An arrangement is ranked as the blank's cell, then for each class but the last the set of its cells
//! among those still free, by the colexicographic rank of that set (the last class takes the cells left).
//! With BMI2 the set is first gathered into the low bits (`pext` of its cells over the free ones), whose
//! colexicographic rank is then a lookup.
//!
//! The search reads the distances modulo 4, packed four a byte (a quarter of the memory, so that far more
//! of the table stays in the processor's caches), and the exact distance from its parent's: the table is
//! consistent, so a child's distance is within 1 of its parent's, which the residue settles.

/// Binomial coefficients up to 25 choose 25.
fn binomials() -> [[u64; 26]; 26] {
    let mut c = [[0u64; 26]; 26];
    for n in 0..26 {
        c[n][0] = 1;
        for k in 1..=n {
            c[n][k] = c[n - 1][k - 1] + c[n - 1][k];
        }
    }
    c
}

/// The most classes (the blank's included).
pub(crate) const MAX_CLASSES: usize = 8;

/// The table of one relabelling.
pub(crate) struct ClassPdb {
    cells: usize,
    /// Classes, the blank's (0) included.
    classes: usize,
    /// Tiles of each class (`count[0] = 1`, the blank).
    count: [usize; MAX_CLASSES],
    /// Each tile's class.
    pub(crate) label: [u8; puzzle::MAX_CELLS],
    choose: [[u64; 26]; 26],
    /// `scale[k]`: what class `k`'s index is multiplied by in the rank (the blank's cells count, times the
    /// sets of each class before it).
    scale: [u64; MAX_CLASSES],
    /// `colex[p]`: the colexicographic rank of the set of bits of `p`, for every `p` below `2^(cells - 1)`
    /// on boards of at most 16 cells (empty on larger ones).
    colex: Vec<u16>,
    dist: Dist,
    /// The distances modulo 4, four a byte (entry `r` in bits `2 * (r % 4)` and up of byte `r / 4`): a
    /// quarter of the memory, so that much more of it stays in the processor's caches. The search reads
    /// only these: the table is consistent (a move changes the arrangement by one move, so the distance by
    /// at most 1), so a child's distance is its parent's less 1, the same or more by 1, which its residue
    /// tells ([`ClassPdb::near`]).
    packed: Dist,
}

/// The distances' memory: built in this process, or read from a table's file into a private copy in 2 MiB
/// pages (`puzzle::backing`), the payload from byte `start` on. The search reads the table at random, one
/// or two lookups a node, so on 4 KiB pages nearly every lookup would miss the TLB as well as the cache.
pub(crate) enum Dist {
    Built(Vec<u8>),
    Read { copy: puzzle::backing::Backing, start: usize },
}

impl std::ops::Deref for Dist {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        match self {
            Dist::Built(v) => v,
            Dist::Read { copy, start } => &copy[*start..],
        }
    }
}

impl std::fmt::Debug for ClassPdb {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ClassPdb({} classes, {} entries)", self.classes, self.dist.len())
    }
}

impl ClassPdb {
    /// The labelling's classes, checked: `label[t]` for each tile `t` of a board of `rows` x `cols` cells,
    /// 0 for the blank (tile 0) only, the classes 1.. each used; `Err` says what is wrong.
    pub(crate) fn check(rows: usize, cols: usize, label: &[u8]) -> Result<usize, String> {
        let cells = rows * cols;
        if label.len() != cells {
            return Err(format!("{} labels for {cells} tiles", label.len()));
        }
        if label[0] != 0 || label[1..].contains(&0) {
            return Err("the blank (tile 0), and only it, has class 0".into());
        }
        let classes = *label.iter().max().unwrap() as usize + 1;
        if classes > MAX_CLASSES {
            return Err(format!("{} classes; at most {}", classes - 1, MAX_CLASSES - 1));
        }
        if let Some(c) = (1..classes).find(|&c| !label.contains(&(c as u8))) {
            return Err(format!("class {c} has no tile"));
        }
        Ok(classes)
    }

    /// The size of the table of `label` (its arrangements).
    pub(crate) fn size(label: &[u8], classes: usize) -> u64 {
        let c = binomials();
        let mut free = label.len();
        let mut size = 1u64;
        for k in 0..classes {
            let n = label.iter().filter(|&&l| l as usize == k).count();
            size = size.saturating_mul(c[free][n]);
            free -= n;
        }
        size
    }

    /// The table of the labelling (checked by [`ClassPdb::check`]) with these distances (read from a file
    /// whose length and checksum were checked).
    pub(crate) fn with_dist(cells: usize, labels: &[u8], classes: usize, dist: Dist) -> ClassPdb {
        let mut count = [0usize; MAX_CLASSES];
        let mut label = [0u8; puzzle::MAX_CELLS];
        for (t, &l) in labels.iter().enumerate() {
            count[l as usize] += 1;
            label[t] = l;
        }
        let choose = binomials();
        let mut scale = [0u64; MAX_CLASSES];
        let (mut s, mut free) = (cells as u64, cells - 1);
        for k in 1..classes {
            scale[k] = s;
            s *= choose[free][count[k]];
            free -= count[k];
        }
        let colex = if cells <= 16 {
            (0..1u32 << (cells - 1))
                .map(|p| {
                    let mut m = p;
                    let mut index = 0u64;
                    let mut j = 1;
                    while m != 0 {
                        index += choose[m.trailing_zeros() as usize][j];
                        j += 1;
                        m &= m - 1;
                    }
                    index as u16
                })
                .collect()
        } else {
            Vec::new()
        };
        let mut pdb =
            ClassPdb { cells, classes, count, label, choose, scale, colex, dist, packed: Dist::Built(Vec::new()) };
        pdb.pack();
        pdb
    }

    /// Packs the distances modulo 4 ([`ClassPdb::packed`]), in 2 MiB pages where the system gives them.
    fn pack(&mut self) {
        let dist: &[u8] = &self.dist;
        let fill = |out: &mut [u8]| {
            for (o, four) in out.iter_mut().zip(dist.chunks(4)) {
                *o = four.iter().enumerate().fold(0, |b, (i, &d)| b | (d & 3) << (2 * i));
            }
        };
        let len = dist.len().div_ceil(4);
        self.packed = match puzzle::backing::Backing::filled(len, |out| {
            fill(out);
            Ok(())
        }) {
            Ok(copy) => Dist::Read { copy, start: 0 },
            Err(_) => {
                let mut v = vec![0; len];
                fill(&mut v);
                Dist::Built(v)
            }
        };
    }

    /// The packed residues ([`ClassPdb::packed`]), for the search to read by [`ClassPdb::near`].
    pub(crate) fn packed(&self) -> &[u8] {
        &self.packed
    }

    /// The distance at `rank`, from the packed residues, of an arrangement one move from one at distance
    /// `parent`.
    #[inline(always)]
    pub(crate) fn near(packed: &[u8], rank: u32, parent: u32) -> u32 {
        let residue = (packed[rank as usize >> 2] >> (2 * (rank & 3))) as u32;
        // The difference, -1 to 1, plus 1, modulo 4.
        let up = residue.wrapping_sub(parent).wrapping_add(1) & 3;
        parent + up - 1
    }

    /// The distances, as a file keeps them.
    pub(crate) fn bytes(&self) -> &[u8] {
        &self.dist
    }

    /// Builds the table of the labelling (checked by [`ClassPdb::check`]) on a `rows` x `cols` board.
    pub(crate) fn build(rows: usize, cols: usize, labels: &[u8], classes: usize) -> ClassPdb {
        let cells = rows * cols;
        let size = ClassPdb::size(labels, classes) as usize;
        let mut pdb = ClassPdb::with_dist(cells, labels, classes, Dist::Built(Vec::new()));
        let mut dist = vec![u8::MAX; size];
        let label = pdb.label;
        // The goal: tile t on cell t, so cell t holds class label[t].
        let goal: Vec<u8> = (0..cells).map(|c| label[c]).collect();
        let g = pdb.rank_cells(&goal);
        dist[g] = 0;
        let mut depth = 0u8;
        let mut arr = vec![0u8; cells];
        loop {
            let mut grew = false;
            for r in 0..size {
                if dist[r] != depth {
                    continue;
                }
                pdb.unrank(r, &mut arr);
                let blank = arr.iter().position(|&l| l == 0).expect("a blank");
                let (br, bc) = (blank / cols, blank % cols);
                // The blank steps 1.. cells one way: each step one more child.
                for (dr, dc) in [(-1i32, 0i32), (1, 0), (0, -1), (0, 1)] {
                    let mut a = arr.clone();
                    let (mut r0, mut c0) = (br as i32, bc as i32);
                    loop {
                        let (r1, c1) = (r0 + dr, c0 + dc);
                        if r1 < 0 || c1 < 0 || r1 >= rows as i32 || c1 >= cols as i32 {
                            break;
                        }
                        let (from, to) = ((r1 as usize) * cols + c1 as usize, (r0 as usize) * cols + c0 as usize);
                        a.swap(from, to);
                        let n = pdb.rank_cells(&a);
                        if dist[n] == u8::MAX {
                            dist[n] = depth + 1;
                            grew = true;
                        }
                        (r0, c0) = (r1, c1);
                    }
                }
            }
            if !grew {
                break;
            }
            depth += 1;
        }
        pdb.dist = Dist::Built(dist);
        pdb.pack();
        pdb
    }

    /// The rank of an arrangement given as each cell's class.
    fn rank_cells(&self, arr: &[u8]) -> usize {
        let mut masks = [0u32; MAX_CLASSES];
        let mut blank = 0;
        for (c, &l) in arr.iter().enumerate() {
            if l == 0 {
                blank = c;
            } else {
                masks[l as usize] |= 1 << c;
            }
        }
        self.rank(&masks, blank)
    }

    /// The rank of the arrangement whose class `k` (1..) is on the cells of `masks[k]`, the blank on `blank`.
    #[inline(always)]
    pub(crate) fn rank(&self, masks: &[u32; MAX_CLASSES], blank: usize) -> usize {
        let mut free = ((1u64 << self.cells) - 1) as u32 & !(1 << blank);
        let mut rank = blank as u64;
        for (k, &mask) in masks.iter().enumerate().take(self.classes - 1).skip(1) {
            let mut m = mask;
            let mut index = 0u64;
            let mut j = 1;
            while m != 0 {
                let b = m.trailing_zeros();
                let below = (free & ((1u32 << b) - 1)).count_ones() as usize;
                index += self.choose[below][j];
                j += 1;
                m &= m - 1;
            }
            rank += self.scale[k] * index;
            free &= !mask;
        }
        rank as usize
    }

    /// [`ClassPdb::rank`] by `pext`: each class's cells gathered from the free ones into the low bits, whose
    /// colexicographic rank is then read from a table (or summed bit by bit on boards over 16 cells).
    ///
    /// # Safety
    /// The processor must have BMI2. Inlined (always) into the search compiled for it.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    pub(crate) unsafe fn rank_bmi2(&self, masks: &[u32; MAX_CLASSES], blank: usize) -> usize {
        use std::arch::x86_64::_pext_u32;
        let mut free = ((1u64 << self.cells) - 1) as u32 & !(1 << blank);
        let mut rank = blank as u64;
        // Unrolled: a fixed count of rounds, each left once the classes are done.
        #[allow(clippy::needless_range_loop)]
        for k in 1..MAX_CLASSES - 1 {
            if k + 1 >= self.classes {
                break;
            }
            let mask = masks[k];
            // SAFETY: the caller's promise: the processor has BMI2.
            let p = unsafe { _pext_u32(mask, free) };
            let index = match self.colex.get(p as usize) {
                Some(&i) => i as u64,
                None => self.colex_rank(p),
            };
            rank += self.scale[k] * index;
            free &= !mask;
        }
        rank as usize
    }

    /// The colexicographic rank of the set of bits of `p`, bit by bit.
    #[cold]
    fn colex_rank(&self, p: u32) -> u64 {
        let (mut m, mut index, mut j) = (p, 0u64, 1);
        while m != 0 {
            index += self.choose[m.trailing_zeros() as usize][j];
            j += 1;
            m &= m - 1;
        }
        index
    }

    /// The arrangement of rank `r`, each cell's class into `arr`.
    fn unrank(&self, r: usize, arr: &mut [u8]) {
        let mut r = r as u64;
        let blank = (r % self.cells as u64) as usize;
        r /= self.cells as u64;
        let last = (self.classes - 1) as u8;
        arr.fill(last);
        arr[blank] = 0;
        let mut free: Vec<usize> = (0..self.cells).filter(|&c| c != blank).collect();
        for k in 1..self.classes - 1 {
            let n = self.count[k];
            let size = self.choose[free.len()][n];
            let mut index = r % size;
            r /= size;
            let mut taken = Vec::with_capacity(n);
            for j in (1..=n).rev() {
                let mut p = j - 1;
                while self.choose[p + 1][j] <= index {
                    p += 1;
                }
                index -= self.choose[p][j];
                taken.push(p);
            }
            for &p in &taken {
                arr[free[p]] = k as u8;
            }
            taken.sort_unstable();
            for &p in taken.iter().rev() {
                free.remove(p);
            }
        }
    }

    /// The table's value at a rank.
    #[inline(always)]
    pub(crate) fn at(&self, rank: usize) -> u32 {
        self.dist[rank] as u32
    }

    /// Entries.
    pub(crate) fn len(&self) -> usize {
        self.dist.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Ranking and unranking are inverse on every arrangement of a small labelling.
    #[test]
    fn rank_and_unrank_agree() {
        let labels = [0u8, 1, 1, 2, 3, 3, 2, 1, 3];
        let classes = ClassPdb::check(3, 3, &labels).unwrap();
        let pdb = ClassPdb::build(3, 3, &labels, classes);
        assert_eq!(pdb.len() as u64, 9 * 56 * 10);
        let mut arr = vec![0u8; 9];
        for r in 0..pdb.len() {
            pdb.unrank(r, &mut arr);
            assert_eq!(pdb.rank_cells(&arr), r);
            assert!(pdb.at(r) < u8::MAX as u32, "every arrangement is reached");
        }
    }

    /// Ranking by `pext` gives the same rank as bit by bit: on every arrangement of a 3x3 labelling, and on
    /// random arrangements of the 4x4 labelling the solver uses and of a 5x5 one (over 16 cells: no table).
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn pext_ranks_agree() {
        if !(std::is_x86_feature_detected!("bmi2") && std::is_x86_feature_detected!("popcnt")) {
            eprintln!("skipped: this processor lacks BMI2 or popcnt");
            return;
        }
        let masks_of = |arr: &[u8]| {
            let mut m = [0u32; MAX_CLASSES];
            for (c, &l) in arr.iter().enumerate() {
                if l != 0 {
                    m[l as usize] |= 1 << c;
                }
            }
            (m, arr.iter().position(|&l| l == 0).unwrap())
        };
        let labels = [0u8, 1, 1, 2, 3, 3, 2, 1, 3];
        let pdb = ClassPdb::with_dist(9, &labels, 4, Dist::Built(Vec::new()));
        let mut arr = vec![0u8; 9];
        for r in 0..9 * 56 * 10 {
            pdb.unrank(r, &mut arr);
            let (m, blank) = masks_of(&arr);
            // SAFETY: the processor has BMI2 (checked above).
            assert_eq!(unsafe { pdb.rank_bmi2(&m, blank) }, r);
        }
        let four = [0u8, 4, 2, 2, 4, 4, 2, 2, 4, 3, 3, 1, 3, 3, 3, 1];
        let five: Vec<u8> = (0..25).map(|t| if t == 0 { 0 } else { 1 + (t % 5) as u8 }).collect();
        let mut rng = search::rng::SplitMix64::new(11);
        for labels in [&four[..], &five[..]] {
            let classes = ClassPdb::check(labels.len().isqrt(), labels.len().isqrt(), labels).unwrap();
            let pdb = ClassPdb::with_dist(labels.len(), labels, classes, Dist::Built(Vec::new()));
            let size = ClassPdb::size(labels, classes);
            let mut arr = vec![0u8; labels.len()];
            for _ in 0..20_000 {
                let r = (rng.next_u64() % size) as usize;
                pdb.unrank(r, &mut arr);
                let (m, blank) = masks_of(&arr);
                assert_eq!(pdb.rank(&m, blank), r);
                // SAFETY: as above.
                assert_eq!(unsafe { pdb.rank_bmi2(&m, blank) }, r);
            }
        }
    }

    /// The residues give every arrangement's distance from any neighbour's (one MTM move away), on every
    /// arrangement of a 3x3 labelling and of a 2x4 one: what the search reads instead of the distances.
    #[test]
    fn residues_give_the_distances_from_a_neighbours() {
        for (rows, cols, labels) in [(3, 3, &[0u8, 1, 1, 2, 3, 3, 2, 1, 3][..]), (2, 4, &[0, 1, 1, 2, 3, 3, 2, 2])] {
            let classes = ClassPdb::check(rows, cols, labels).unwrap();
            let pdb = ClassPdb::build(rows, cols, labels, classes);
            assert_eq!(pdb.packed().len(), pdb.len().div_ceil(4));
            let (mut arr, mut checked) = (vec![0u8; rows * cols], 0);
            for r in 0..pdb.len() {
                pdb.unrank(r, &mut arr);
                let blank = arr.iter().position(|&l| l == 0).unwrap();
                for step in [1, cols] {
                    for to in 0..rows * cols {
                        let same_line = if step == 1 { to / cols == blank / cols } else { to % cols == blank % cols };
                        if to == blank || !same_line {
                            continue;
                        }
                        // The blank jumps to `to`: the tiles between slide one cell toward where it was.
                        let mut a = arr.clone();
                        let mut at = blank;
                        while at != to {
                            let next = if to > at { at + step } else { at - step };
                            a.swap(at, next);
                            at = next;
                        }
                        let n = pdb.rank_cells(&a);
                        assert_eq!(ClassPdb::near(pdb.packed(), n as u32, pdb.at(r)), pdb.at(n), "{arr:?} to {a:?}");
                        checked += 1;
                    }
                }
            }
            assert!(checked > pdb.len());
        }
    }

    #[test]
    fn bad_labellings_are_refused() {
        assert!(ClassPdb::check(2, 3, &[0, 1, 1, 2, 2]).unwrap_err().contains("5 labels"));
        assert!(ClassPdb::check(2, 3, &[1, 0, 1, 2, 2, 2]).unwrap_err().contains("blank"));
        assert!(ClassPdb::check(2, 3, &[0, 1, 1, 3, 3, 3]).unwrap_err().contains("class 2 has no tile"));
    }
}
