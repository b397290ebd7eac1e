//! The tables the BFS computes, checked against the reference histograms (4x4) and, entry by entry, against
//! an independent brute-force search (small boards).

use pdb_builder::bfs;
use puzzle::pdb_file::{decode, encode, pattern_manhattan, Encoding};
use puzzle::regions::{bits, Regions};
use puzzle::{Board, Partition, Pattern};
use std::collections::{BTreeMap, VecDeque};

/// `tests/data/pdb_histograms.txt`: pattern tiles -> count of placements per value.
fn reference_histograms() -> BTreeMap<Vec<u8>, Vec<u64>> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/data/pdb_histograms.txt");
    let text = std::fs::read_to_string(path).unwrap();
    let mut out = BTreeMap::new();
    let mut current: Option<Vec<u8>> = None;
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("# pattern:") {
            let tiles: Vec<u8> =
                rest.split('[').next().unwrap().split_whitespace().map(|t| t.parse().unwrap()).collect();
            out.insert(tiles.clone(), Vec::new());
            current = Some(tiles);
        } else if !line.starts_with('#') && !line.trim().is_empty() {
            let (value, count) = line.split_once(' ').unwrap();
            let hist: &mut Vec<u64> = out.get_mut(current.as_ref().unwrap()).unwrap();
            assert_eq!(value.parse::<usize>().unwrap(), hist.len(), "values are listed in order");
            hist.push(count.trim().parse().unwrap());
        }
    }
    out
}

fn build(board: Board, pattern: &Pattern) -> bfs::Table {
    bfs::build(board, pattern, 1, &mut |_| {}).unwrap()
}

fn trimmed(hist: &[u64]) -> &[u64] {
    &hist[..hist.iter().rposition(|&c| c > 0).map_or(0, |i| i + 1)]
}

fn check_partition_histograms(name: &str) {
    let reference = reference_histograms();
    let partition = Partition::parse(Board::FOUR, name).unwrap();
    for pattern in &partition.patterns {
        let table = build(Board::FOUR, pattern);
        let expected = &reference[pattern.tiles()];
        assert_eq!(trimmed(&table.histogram), expected.as_slice(), "pattern {:?}", pattern.tiles());
        assert_eq!(table.unreachable, 0);
        // The histogram the BFS counted is the one the stored entries decode to.
        let encoding = Encoding::for_max_excess(table.max_excess);
        assert_eq!(encoding, Encoding::Nibble);
        let payload = encode(encoding, &table.excess).unwrap();
        let decoded = puzzle::pdb_file::histogram_of(Board::FOUR, pattern, encoding, &payload, 1);
        assert_eq!(trimmed(&decoded), expected.as_slice());
    }
}

#[test]
fn five_five_five_matches_the_reference_histograms() {
    check_partition_histograms("5-5-5");
}

#[test]
fn six_six_three_matches_the_reference_histograms() {
    check_partition_histograms("6-6-3");
}

/// The reference file's row and column partitions too (6-tile tables take about a second each).
#[test]
fn row_and_column_patterns_match_the_reference_histograms() {
    let reference = reference_histograms();
    for tiles in [&[13u8, 14, 15][..], &[1, 4, 5, 8, 9, 12]] {
        let pattern = Pattern::new(16, tiles);
        assert_eq!(trimmed(&build(Board::FOUR, &pattern).histogram), reference[tiles].as_slice(), "pattern {tiles:?}");
    }
}

/// Independent brute force: a 0-1 BFS over full states (placement of the pattern tiles, blank cell), the
/// other tiles indistinguishable. Moving the blank onto a non-pattern tile costs 0, onto a pattern tile 1.
/// The start is the goal with the blank on cell 0. Returns, per placement rank, the least cost over blank
/// cells (`None` if no blank cell reaches it).
fn brute_force(board: Board, pattern: &Pattern) -> Vec<Option<u32>> {
    let n = board.cells();
    let dist = brute_force_by_cell(board, pattern);
    (0..pattern.size() as usize)
        .map(|r| dist[r * n..(r + 1) * n].iter().copied().min().filter(|&d| d != u32::MAX))
        .collect()
}

/// [`brute_force`]'s costs for every (placement, blank cell), at `rank * cells + cell` (`u32::MAX` where
/// unreachable or where a pattern tile stands).
fn brute_force_by_cell(board: Board, pattern: &Pattern) -> Vec<u32> {
    let n = board.cells();
    let k = pattern.len();
    let size = pattern.size() as usize;
    let mut dist = vec![u32::MAX; size * n];
    let mut queue = VecDeque::new();
    let goal = pattern.rank(pattern.tiles()) as usize;
    dist[goal * n] = 0;
    queue.push_back((goal, 0usize));
    let mut cells = [0u8; 16];
    while let Some((rank, blank)) = queue.pop_front() {
        let d = dist[rank * n + blank];
        pattern.unrank(rank as u64, &mut cells);
        for next in board.neighbors(blank) {
            let (child, cost) = match cells[..k].iter().position(|&c| c as usize == next) {
                Some(i) => {
                    let mut moved = cells;
                    moved[i] = blank as u8;
                    (pattern.rank(&moved[..k]) as usize, 1)
                }
                None => (rank, 0),
            };
            let slot = child * n + next;
            if d + cost < dist[slot] {
                dist[slot] = d + cost;
                if cost == 0 {
                    queue.push_front((child, next));
                } else {
                    queue.push_back((child, next));
                }
            }
        }
    }
    dist
}

fn check_against_brute_force(board: &str, partition: &str) {
    let board: Board = board.parse().unwrap();
    for pattern in Partition::parse(board, partition).unwrap().patterns {
        check_pattern_against_brute_force(board, &pattern);
    }
}

/// Every entry and the histogram of one pattern's table against [`brute_force`].
fn check_pattern_against_brute_force(board: Board, pattern: &Pattern) {
    let table = build(board, pattern);
    let expected = brute_force(board, pattern);
    let mut cells = [0u8; 16];
    let mut unreachable = 0;
    for (rank, want) in expected.iter().enumerate() {
        pattern.unrank(rank as u64, &mut cells);
        let md = pattern_manhattan(board, pattern, &cells[..pattern.len()]);
        let got = md + 2 * decode(Encoding::Byte, &table.excess, rank as u64) as u32;
        match want {
            Some(want) => {
                assert_eq!(got, *want, "{board} pattern {:?} placement {:?}", pattern.tiles(), &cells[..pattern.len()])
            }
            None => {
                assert_eq!(got, md, "unreachable placements are stored as their Manhattan distance");
                unreachable += 1;
            }
        }
    }
    assert_eq!(table.unreachable, unreachable);
    let mut hist = vec![0u64; table.histogram.len().max(1)];
    for (rank, want) in expected.iter().enumerate() {
        pattern.unrank(rank as u64, &mut cells);
        let value = want.unwrap_or_else(|| pattern_manhattan(board, pattern, &cells[..pattern.len()])) as usize;
        if hist.len() <= value {
            hist.resize(value + 1, 0);
        }
        hist[value] += 1;
    }
    assert_eq!(trimmed(&table.histogram), trimmed(&hist), "{board} pattern {:?}", pattern.tiles());
}

/// Boards of more than 16 cells: no region tables, regions flood-filled per lookup. 3- and 4-tile pieces of the 6-6-6-6
/// blocks on 5x5, and a 3-tile pattern on 3x7.
#[test]
fn five_by_five_and_three_by_seven_match_brute_force() {
    let five: Board = "5x5".parse().unwrap();
    for tiles in [&[1u8, 2, 5][..], &[19, 23, 24], &[3, 4, 8, 9], &[10, 15, 20, 21]] {
        check_pattern_against_brute_force(five, &Pattern::new(25, tiles));
    }
    check_pattern_against_brute_force("3x7".parse().unwrap(), &Pattern::new(21, &[6, 7, 13]));
}

/// A blank-aware table of `labels` entries a placement against [`brute_force_by_cell`]: the entry of each
/// placement's region labelled `l` is the least cost over the blank cells of that region (the last entry's
/// over the cells of every region labelled from it up), an entry without a region holds the plain value, and
/// the header's histogram is the entries'.
fn check_blank_aware_against_brute_force(board: Board, pattern: &Pattern, labels: u32) {
    let blank = bfs::build(board, pattern, labels, &mut |_| {}).unwrap();
    let plain = build(board, pattern);
    let n = board.cells();
    let k = pattern.len();
    let regions = Regions::untabled(board);
    let labels = labels as usize;
    let dist = brute_force_by_cell(board, pattern);
    let mut cells = [0u8; 16];
    let (mut above, mut hist) = (0, vec![0u64; 128]);
    for rank in 0..pattern.size() as usize {
        pattern.unrank(rank as u64, &mut cells);
        let md = pattern_manhattan(board, pattern, &cells[..k]);
        let occ = cells[..k].iter().fold(0u32, |m, &c| m | 1 << c);
        let free = regions.all & !occ;
        let min = md + 2 * plain.excess[rank] as u32;
        for l in 0..labels {
            let got = md + 2 * decode(blank.encoding, &blank.excess, (rank * labels + l) as u64) as u32;
            hist[got as usize] += 1;
            let served = regions.regions(free, free).enumerate().filter(|&(m, _)| m == l || l == labels - 1 && m > l);
            let blanks = served.fold(0, |all, (_, region)| all | region);
            let best = bits(blanks).map(|c| dist[rank * n + c]).min().unwrap_or(u32::MAX);
            let want = if best == u32::MAX { min } else { best };
            assert_eq!(got, want, "{board} pattern {:?} placement {:?} label {l}", pattern.tiles(), &cells[..k]);
            assert!(got >= min);
            above += (got > min) as usize;
        }
    }
    assert!(above > 0, "{board} {:?}: no entry above the plain value", pattern.tiles());
    assert_eq!(trimmed(&blank.histogram), trimmed(&hist));
}

/// Blank-aware tables on 3x3 (every pattern of two partitions), 2x4 and small patterns of the 5x5 blocks,
/// where regions are flood-filled: with an entry for every region, and with fewer, where the last serves the
/// rest.
#[test]
fn blank_aware_tables_match_brute_force() {
    for (board, partition) in [("3x3", "4-4"), ("3x3", "1,5,6/2,3,4,7,8"), ("2x4", "1,2,3/4,5,6,7")] {
        let board: Board = board.parse().unwrap();
        for pattern in Partition::parse(board, partition).unwrap().patterns {
            for labels in 2..=Regions::untabled(board).most(pattern.len()) {
                check_blank_aware_against_brute_force(board, &pattern, labels);
            }
        }
    }
    let five: Board = "5x5".parse().unwrap();
    for tiles in [&[1u8, 2, 5][..], &[3, 4, 8, 9], &[10, 15, 20, 21]] {
        let pattern = Pattern::new(25, tiles);
        for labels in [2, Regions::untabled(five).most(tiles.len())] {
            check_blank_aware_against_brute_force(five, &pattern, labels);
        }
    }
}

#[test]
fn two_by_three_matches_brute_force() {
    check_against_brute_force("2x3", "2-3");
    check_against_brute_force("2x3", "1/2,3,4,5");
    check_against_brute_force("3x2", "1,3,5/2,4");
}

#[test]
fn three_by_three_matches_brute_force() {
    check_against_brute_force("3x3", "4-4");
    check_against_brute_force("3x3", "1,5,6/2,3,4,7,8");
    check_against_brute_force("3x3", "1,2,3,4,5,6,7/8");
}

#[test]
fn two_by_four_and_three_by_four_match_brute_force() {
    check_against_brute_force("2x4", "1,2,3/4,5,6,7");
    check_against_brute_force("4x2", "1,2,3,4/5,6,7");
    check_against_brute_force("3x4", "1,2,3,4,5/6,7,8,9,10,11");
}

/// On 2x2 the tiles only rotate, so some placements cannot be reached at all; they must still get a value
/// that decodes consistently with the header histogram.
#[test]
fn two_by_two_has_unreachable_placements() {
    check_against_brute_force("2x2", "1,2/3");
    let board: Board = "2x2".parse().unwrap();
    assert!(build(board, &Pattern::new(4, &[1, 2])).unreachable > 0);
}

/// The point of the tables: on every solvable 8-puzzle position, the sum of the 4-4 tables' values never
/// exceeds the true distance (additivity), and it equals it on the goal.
#[test]
fn additive_tables_never_overestimate_on_the_eight_puzzle() {
    let board: Board = "3x3".parse().unwrap();
    let patterns = Partition::parse(board, "4-4").unwrap().patterns;
    let tables: Vec<bfs::Table> = patterns.iter().map(|p| build(board, p)).collect();
    let distances = puzzle::exhaustive::distances(board);
    let mut exact = 0;
    for (&packed, &distance) in &distances {
        let pos = puzzle::State::unpack(board, packed).unwrap().positions();
        let h: u32 = patterns
            .iter()
            .zip(&tables)
            .map(|(p, t)| {
                let cells: Vec<u8> = p.tiles().iter().map(|&tile| pos[tile as usize]).collect();
                pattern_manhattan(board, p, &cells) + 2 * decode(Encoding::Byte, &t.excess, p.rank(&cells)) as u32
            })
            .sum();
        assert!(h <= distance as u32, "h {h} > distance {distance} on {packed:x}");
        exact += (h == distance as u32) as usize;
    }
    assert!(exact > 0);
}

/// A table relabelled from its image under a symmetry of the board is byte for byte the table its own BFS
/// builds: 3- and 4-tile patterns on 5x5 (rotations, a reflection) and on 3x7 (the half turn).
#[test]
fn relabelled_tables_equal_their_own_bfs() {
    let dir = harness::TempDir::new("symmetry");
    for (board, from, to) in [
        ("5x5", &[12u8, 13, 17][..], &[7u8, 11, 12][..]),
        ("5x5", &[3, 4, 8, 9], &[15, 16, 20, 21]),
        ("5x5", &[3, 4, 8, 9], &[18, 19, 23, 24]),
        ("3x7", &[1, 2, 8], &[12, 18, 19]),
    ] {
        let board: Board = board.parse().unwrap();
        let (from, to) = (Pattern::new(board.cells(), from), Pattern::new(board.cells(), to));
        let (s, d, b) = (dir.path("source.pdb"), dir.path("derived.pdb"), dir.path("bfs.pdb"));
        pdb_builder::build_table(board, &from, puzzle::pdb_file::Kind::Plain, &s, &mut |_| {}).unwrap();
        let (i, sym) = pdb_builder::symmetry::find_image(board, &to, &[&from]).expect("an image");
        assert_eq!(i, 0);
        pdb_builder::derive_table(board, &to, &d, &from, &s, sym).unwrap();
        pdb_builder::build_table(board, &to, puzzle::pdb_file::Kind::Plain, &b, &mut |_| {}).unwrap();
        assert!(std::fs::read(&d).unwrap() == std::fs::read(&b).unwrap(), "{board} {:?}", to.tiles());
    }
}

/// The built tables of small boards, plain and blank-aware (with an entry for every region and with fewer),
/// pass the check of neighbouring entries that `verify` makes.
#[test]
fn built_tables_pass_the_check_of_neighbouring_entries() {
    let cases = [
        ("2x3", "2-3"),
        ("3x3", "4-4"),
        ("3x3", "1,5,6/2,3,4,7,8"),
        ("2x4", "1,2,3/4,5,6,7"),
        ("3x4", "1,2,3,4,5/6,7,8,9,10,11"),
        ("2x2", "1,2/3"),
        ("3x3", "1,2,3,4,5,6,7/8"),
    ];
    for (board, partition) in cases {
        let board: Board = board.parse().unwrap();
        for pattern in Partition::parse(board, partition).unwrap().patterns {
            for labels in 1..=Regions::untabled(board).most(pattern.len()) {
                let (encoding, payload) = built(board, &pattern, labels);
                let checked = puzzle::consistency::check(board, &pattern, encoding, &payload, labels);
                assert_eq!(checked, Ok(()), "{board} {:?}, {labels} labels", pattern.tiles());
            }
        }
    }
    // 5x5, where regions are flood-filled rather than tabled.
    let five: Board = "5x5".parse().unwrap();
    for tiles in [&[1u8, 2, 5][..], &[3, 4, 8, 9]] {
        let pattern = Pattern::new(25, tiles);
        for labels in [1, 2, Regions::untabled(five).most(tiles.len())] {
            let (encoding, payload) = built(five, &pattern, labels);
            let checked = puzzle::consistency::check(five, &pattern, encoding, &payload, labels);
            assert_eq!(checked, Ok(()), "5x5 {tiles:?}, {labels} labels");
        }
    }
}

/// A table's encoded payload, as a file holds it.
fn built(board: Board, pattern: &Pattern, labels: u32) -> (Encoding, Vec<u8>) {
    let table = bfs::build(board, pattern, labels, &mut |_| {}).unwrap();
    if labels > 1 {
        return (table.encoding, table.excess.to_vec());
    }
    let encoding = Encoding::for_max_excess(table.max_excess);
    (encoding, encode(encoding, &table.excess).unwrap())
}

/// Entries swapped between two states of placements of the same Manhattan distance (so that the histogram
/// stays) are refused by name, in a blank-aware table with an entry for every region; in a plain one, when
/// the two placements leave the blank one region each.
#[test]
fn entries_swapped_between_placements_of_the_same_manhattan_distance_are_refused() {
    let board: Board = "3x3".parse().unwrap();
    let pattern = Pattern::new(9, &[1, 2, 3, 4]);
    let regions = Regions::untabled(board);
    let k = pattern.len();
    let info = |rank: u64| {
        let mut cells = [0u8; 16];
        pattern.unrank(rank, &mut cells);
        let free = regions.all & !cells[..k].iter().fold(0u32, |m, &c| m | 1 << c);
        (pattern_manhattan(board, &pattern, &cells[..k]), regions.regions(free, free).count() as u32)
    };
    for labels in [regions.most(k), 1] {
        let (encoding, payload) = built(board, &pattern, labels);
        let excess: Vec<u8> = (0..pattern.size() * labels as u64).map(|i| decode(encoding, &payload, i)).collect();
        // Entries of one region each, by Manhattan distance of their placement.
        let mut by_md: BTreeMap<u32, Vec<u64>> = BTreeMap::new();
        for rank in 0..pattern.size() {
            let (md, count) = info(rank);
            if labels > 1 || count == 1 {
                for l in 0..count.min(labels) {
                    by_md.entry(md).or_default().push(rank * labels as u64 + l as u64);
                }
            }
        }
        let (mut swaps, mut refused, mut seed) = (0, 0, 12345u64);
        for entries in by_md.values() {
            for _ in 0..40 {
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                let a = entries[(seed >> 33) as usize % entries.len()] as usize;
                let b = entries[(seed >> 13) as usize % entries.len()] as usize;
                if excess[a] == excess[b] {
                    continue;
                }
                let mut swapped = excess.clone();
                swapped.swap(a, b);
                let payload = encode(encoding, &swapped).unwrap();
                assert_eq!(
                    puzzle::pdb_file::histogram_of(board, &pattern, encoding, &payload, labels),
                    puzzle::pdb_file::histogram_of(
                        board,
                        &pattern,
                        encoding,
                        &encode(encoding, &excess).unwrap(),
                        labels
                    )
                );
                match puzzle::consistency::check(board, &pattern, encoding, &payload, labels) {
                    Err(flaw) => {
                        assert!(flaw.starts_with("placement 1@") && !flaw.contains('\n'), "{flaw}");
                        refused += 1;
                    }
                    Ok(()) => assert_eq!(labels, 1, "entries {a} and {b} swapped, and the check passes"),
                }
                swaps += 1;
            }
        }
        assert!(swaps > 100, "{swaps} swaps tried");
        eprintln!("{labels} labels: {refused} of {swaps} swaps refused");
        assert!(refused * 2 > swaps, "{labels} labels: {refused} of {swaps} swaps refused");
    }
}
