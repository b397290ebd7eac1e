//! Partitions of the tiles into disjoint patterns: the named catalogue and custom ones.

use crate::board::Board;
use crate::rank::{Pattern, MAX_PATTERN_TILES};

/// Named partitions, as data: (board, name, patterns), each board's strongest first.
pub const CATALOGUE: &[(&str, &str, &[&[u8]])] = &[
    // Korf and Felner's blocks with the blank's corner grown to seven tiles (2,422,728,000 entries, 1.13 GiB):
    // that corner holds most of the interaction between tiles, so it gains more than the 5-tile block
    // loses. Chosen by measurement (BENCHMARKS.md, "5x5: 7-6-6-5"): a mean estimate 0.3
    // above 6-6-6-6.
    (
        "5x5",
        "7-6-6-5",
        &[&[1, 2, 3, 5, 6, 7, 10], &[11, 12, 15, 16, 20, 21], &[17, 18, 19, 22, 23, 24], &[4, 8, 9, 13, 14]],
    ),
    // Korf and Felner's 24-puzzle partition (2002): four 6-tile blocks, 127,512,000 entries each.
    (
        "5x5",
        "6-6-6-6",
        &[&[1, 2, 5, 6, 7, 12], &[3, 4, 8, 9, 13, 14], &[10, 11, 15, 16, 20, 21], &[17, 18, 19, 22, 23, 24]],
    ),
    ("4x4", "7-8", &[&[1, 2, 3, 4, 5, 6, 7], &[8, 9, 10, 11, 12, 13, 14, 15]]),
    ("4x4", "6-6-3", &[&[1, 2, 3, 5, 6, 7], &[10, 11, 12, 13, 14, 15], &[4, 8, 9]]),
    ("4x4", "5-5-5", &[&[1, 2, 5, 6, 10], &[3, 7, 11, 14, 15], &[4, 8, 9, 12, 13]]),
    ("3x3", "4-4", &[&[1, 2, 3, 4], &[5, 6, 7, 8]]),
    ("2x3", "2-3", &[&[1, 2], &[3, 4, 5]]),
];

/// The sets `--heuristic auto` takes together when every table of them is in the folder, as data: (board,
/// members strongest first, each a catalogue name and the builder options its tables are best built with).
/// Their estimate is the larger of the members' at every node. Chosen by measurement (BENCHMARKS.md, "The
/// 24-puzzle (5x5)", the default set): on Korf and Felner's ten easiest, 7-6-6-5 maxed with
/// blank-aware 6-6-6-6 generates 3.2x fewer nodes than 7-6-6-5 alone, for about 1.4x the work a node.
pub const COMBINED: &[(&str, &[(&str, &str)])] =
    &[("5x5", &[("7-6-6-5", ""), ("6-6-6-6", "--blank-aware --labels 2")])];

/// Why a partition cannot be used: the tables' sum is admissible only for disjoint patterns that cover
/// every tile.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PartitionError {
    /// A name that is neither in the catalogue for the board nor a tile list.
    #[error("unknown partition '{name}' for a {board} board (known: {known}; or give tiles like 1,2,3/4,5,6)")]
    Unknown {
        /// The name given.
        name: String,
        /// The board it was asked for.
        board: Board,
        /// The catalogue's names for that board, for the message.
        known: String,
    },
    /// A tile list with something other than a number in it.
    #[error("'{0}' is not a tile number")]
    NotANumber(String),
    /// A tile number the board does not have (0, the blank, included).
    #[error("tile {tile} does not exist on a {board} board (tiles are 1 to {max})", max = .board.cells() - 1)]
    NoSuchTile {
        /// The number given.
        tile: u64,
        /// The board it was asked for.
        board: Board,
    },
    /// A tile in two patterns: its moves would be counted twice.
    #[error("tile {0} is in more than one pattern; patterns must be disjoint")]
    Overlap(u8),
    /// Tiles in no pattern, listed.
    #[error("tile(s) {0} are in no pattern; the patterns must cover every tile")]
    Incomplete(String),
    /// An empty tile list, e.g. from `1,2//3`.
    #[error("a pattern is empty")]
    EmptyPattern,
    /// A pattern of as many tiles (the first number) as the board has cells (the second).
    #[error("a pattern of {0} tiles on {1} cells leaves no room for the blank")]
    TooLarge(usize, usize),
    /// More tiles than a table can be built for.
    #[error("a pattern of {0} tiles is too large to tabulate (at most {max})", max = MAX_PATTERN_TILES)]
    TooManyTiles(usize),
}

/// Disjoint patterns covering all tiles of a board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Partition {
    /// The board whose tiles it divides.
    pub board: Board,
    /// The catalogue name, or the tile lists joined by `/` for a custom partition.
    pub name: String,
    /// The patterns, each a table, in the order given.
    pub patterns: Vec<Pattern>,
}

impl Partition {
    /// A catalogue name for `board`, or a custom partition: patterns separated by `/`, tiles by `,`.
    pub fn parse(board: Board, text: &str) -> Result<Partition, PartitionError> {
        let board_name = board.to_string();
        if let Some((_, name, pats)) = CATALOGUE.iter().find(|(b, n, _)| *b == board_name && *n == text) {
            let lists: Vec<Vec<u8>> = pats.iter().map(|p| p.to_vec()).collect();
            return Partition::from_lists(board, name, &lists);
        }
        let custom = !text.is_empty() && text.chars().all(|c| c.is_ascii_digit() || c == ',' || c == '/' || c == ' ');
        if !custom {
            let known: Vec<&str> = CATALOGUE.iter().filter(|(b, _, _)| *b == board_name).map(|(_, n, _)| *n).collect();
            return Err(PartitionError::Unknown { name: text.to_string(), board, known: known.join(", ") });
        }
        let mut lists = Vec::new();
        for part in text.split('/') {
            let mut tiles = Vec::new();
            for tok in part.split(',').map(str::trim).filter(|t| !t.is_empty()) {
                let t: u64 = tok.parse().map_err(|_| PartitionError::NotANumber(tok.to_string()))?;
                if t == 0 || t >= board.cells() as u64 {
                    return Err(PartitionError::NoSuchTile { tile: t, board });
                }
                tiles.push(t as u8);
            }
            lists.push(tiles);
        }
        Partition::from_lists(board, text, &lists)
    }

    /// Checks that `lists` are non-empty, disjoint and cover tiles `1..cells`.
    pub fn from_lists(board: Board, name: &str, lists: &[Vec<u8>]) -> Result<Partition, PartitionError> {
        let n = board.cells();
        let mut seen = 0u32;
        for list in lists {
            if list.is_empty() {
                return Err(PartitionError::EmptyPattern);
            }
            if list.len() >= n {
                return Err(PartitionError::TooLarge(list.len(), n));
            }
            if list.len() > MAX_PATTERN_TILES {
                return Err(PartitionError::TooManyTiles(list.len()));
            }
            for &t in list {
                if t == 0 || t as usize >= n {
                    return Err(PartitionError::NoSuchTile { tile: t as u64, board });
                }
                if seen & 1 << t != 0 {
                    return Err(PartitionError::Overlap(t));
                }
                seen |= 1 << t;
            }
        }
        let missing: Vec<String> = (1..n).filter(|&t| seen & 1 << t == 0).map(|t| t.to_string()).collect();
        if !missing.is_empty() {
            return Err(PartitionError::Incomplete(missing.join(", ")));
        }
        let patterns = lists.iter().map(|l| Pattern::new(n, l)).collect();
        Ok(Partition { board, name: name.to_string(), patterns })
    }
}

/// The file name a pattern's table is stored under, e.g. `4x4-1-2-3-4-5-6-7.pdb`. Only a convention for
/// finding files: the header is what is trusted.
pub fn file_name(board: Board, pattern: &Pattern) -> String {
    crate::pdb_file::Kind::Plain.file_name(board, pattern)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn catalogue_entries_are_valid_partitions() {
        for (b, name, _) in CATALOGUE {
            let board: Board = b.parse().unwrap();
            let p = Partition::parse(board, name).unwrap();
            assert_eq!(p.patterns.iter().map(|p| p.len()).sum::<usize>(), board.cells() - 1);
        }
        let p = Partition::parse(Board::FOUR, "7-8").unwrap();
        assert_eq!(file_name(Board::FOUR, &p.patterns[0]), "4x4-1-2-3-4-5-6-7.pdb");
    }

    #[test]
    fn combined_sets_are_catalogue_entries_of_their_board() {
        for (b, members) in COMBINED {
            assert!(members.len() >= 2, "{b}: a combined set of one");
            for (name, _) in *members {
                assert!(CATALOGUE.iter().any(|(cb, n, _)| cb == b && n == name), "{b} {name}");
            }
        }
    }

    #[test]
    fn custom_partitions_are_checked() {
        let b = Board::FOUR;
        let ok = Partition::parse(b, "1,2,3,4,5,6,7/8,9,10,11,12,13,14,15").unwrap();
        assert_eq!(ok.patterns, Partition::parse(b, "7-8").unwrap().patterns);
        let err = |s: &str| Partition::parse(b, s).unwrap_err().to_string();
        assert_eq!(
            err("1,2,3/3,4,5,6,7,8,9,10,11,12,13,14,15"),
            "tile 3 is in more than one pattern; patterns must be disjoint"
        );
        assert_eq!(
            err("1,2,3/4,5,6,7,8,9,10,11,12,13,14"),
            "tile(s) 15 are in no pattern; the patterns must cover every tile"
        );
        assert_eq!(
            err("1,2,3/4,5,6,7,8,9,10,11,12,13,14,16"),
            "tile 16 does not exist on a 4x4 board (tiles are 1 to 15)"
        );
        assert!(err("9-9").starts_with("unknown partition '9-9' for a 4x4 board (known: 7-8, 6-6-3, 5-5-5"));
        assert_eq!(
            err("1,2,x/3"),
            "unknown partition '1,2,x/3' for a 4x4 board (known: 7-8, 6-6-3, 5-5-5; or give tiles like 1,2,3/4,5,6)"
        );
        assert_eq!(err("1,99999999999999999999/2"), "'99999999999999999999' is not a tile number");
        assert_eq!(Partition::parse("2x2".parse().unwrap(), "1/2/3").unwrap().patterns.len(), 3);
        let wide: Board = "2x12".parse().unwrap();
        let all: Vec<String> = (1..24).map(|t| t.to_string()).collect();
        assert_eq!(
            Partition::parse(wide, &all.join(",")).unwrap_err().to_string(),
            "a pattern of 23 tiles is too large to tabulate (at most 16)"
        );
        assert_eq!(
            Partition::parse(wide, &format!("{}/{}", all[..12].join(","), all[12..].join(","))).unwrap().patterns.len(),
            2
        );
    }
}
