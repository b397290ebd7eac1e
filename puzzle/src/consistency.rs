//! What a pattern table of distances must hold beyond its checksum and histogram.
//!
//! A checksum vouches for the bytes, and the value histogram for how many entries hold each value. Neither
//! notices a table whose goal placement (every pattern tile home) is not 0, which no table of distances
//! holds. Entries swapped between placements of the same Manhattan distance keep both as well, and no local
//! test finds them in a plain table: the values of two placements one tile move apart can differ by more
//! than one (on 2x3, the 1-2 table gives 6 and 3 to tile 2 on cell 3 and on cell 4), since a plain entry is
//! the least over every place of the blank, and the blank may have to go round the pattern's tiles.

use crate::pdb_file::{decode, Encoding};
use crate::rank::Pattern;

/// `Err` saying what is wrong: the goal placement's least entry (in a blank-aware table, the blank's home
/// region's) is not 0.
pub fn check(pattern: &Pattern, encoding: Encoding, payload: &[u8], labels: u32) -> Result<(), String> {
    let goal = pattern.rank(pattern.tiles()) * labels as u64;
    match (goal..goal + labels as u64).map(|i| decode(encoding, payload, i)).min() {
        Some(excess) if excess > 0 => {
            Err(format!("the goal placement (every pattern tile home) has the value {}, not 0", 2 * excess))
        }
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pdb_file::encode;

    #[test]
    fn a_goal_placement_that_is_not_0_is_found() {
        let pattern = Pattern::new(6, &[1, 2]);
        let mut excess = vec![0u8; pattern.size() as usize];
        check(&pattern, Encoding::Byte, &encode(Encoding::Byte, &excess).unwrap(), 1).unwrap();
        excess[pattern.rank(&[1, 2]) as usize] = 1;
        let err = check(&pattern, Encoding::Byte, &encode(Encoding::Byte, &excess).unwrap(), 1).unwrap_err();
        assert!(err.contains("goal placement") && err.contains("value 2"), "{err}");
    }
}
