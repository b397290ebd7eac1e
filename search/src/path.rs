//! Turning a path of stored (canonical) states into moves from the real start.
//!
//! The algorithms store only representatives, so the moves that joined two stored states may not apply to
//! the position the player actually has. Replaying fixes that: from the actual current position, take the
//! successor whose representative is the next state on the path. This also checks every solution: the
//! replay must reach a goal.

use crate::{Puzzle, SearchError};

/// The moves from `start` along `path` (representatives, `path[0]` the start's), ending at a goal.
pub(crate) fn moves<P: Puzzle>(puzzle: &P, start: &P::State, path: &[P::State]) -> Result<Vec<P::Move>, SearchError> {
    let mut at = start.clone();
    let mut moves = Vec::with_capacity(path.len().saturating_sub(1));
    for (step, next) in path.iter().skip(1).enumerate() {
        let mut found = None;
        puzzle.successors(&at, |m, s| {
            if found.is_none() && puzzle.canonical(&s) == *next {
                found = Some((m, s));
            }
        });
        let (m, s) = found.ok_or(SearchError::NotReplayable { step })?;
        moves.push(m);
        at = s;
    }
    if !puzzle.is_goal(&at) {
        return Err(SearchError::NotReplayable { step: moves.len() });
    }
    Ok(moves)
}
