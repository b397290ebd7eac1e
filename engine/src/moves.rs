//! The moves of the blank on a board, filtered by the duplicate-path automaton, and the position a move
//! leads to: what the iterations (`ida`) and the depth-first lanes (`lanes`) both step with.

use crate::fsm::{MoveFsm, Transitions, PRUNED};
use puzzle::{Board, MAX_CELLS};

/// Longest solution the path buffer holds: far beyond any 4x4 optimum (80) and above the published upper
/// bounds on 5x5 optima (about 200). A bound past it is reported as hopeless rather than searched.
pub(crate) const MAX_PATH: usize = 256;

/// The moves from each cell: the blank's neighbours, their direction, and the duplicate-path automaton with
/// its transition table `T` (16- or 32-bit).
pub(crate) struct Moves<'a, T> {
    cells: [[u8; 4]; MAX_CELLS],
    dirs: [[u8; 4]; MAX_CELLS],
    count: [u8; MAX_CELLS],
    pub(crate) fsm: &'a MoveFsm,
    table: T,
}

impl<'a, T: Transitions> Moves<'a, T> {
    /// `table` is `fsm`'s ([`MoveFsm::table`]).
    pub(crate) fn new(board: Board, fsm: &'a MoveFsm, table: T) -> Moves<'a, T> {
        let mut m = Moves { cells: [[0; 4]; MAX_CELLS], dirs: [[0; 4]; MAX_CELLS], count: [0; MAX_CELLS], fsm, table };
        for c in 0..board.cells() {
            for (d, dir) in puzzle::Dir::ALL.into_iter().enumerate() {
                if let Some(to) = board.step(c, dir) {
                    let k = m.count[c] as usize;
                    m.cells[c][k] = to as u8;
                    m.dirs[c][k] = d as u8;
                    m.count[c] += 1;
                }
            }
        }
        m
    }

    /// The allowed moves of the blank from `blank` in automaton state `state`: (cell the tile comes from,
    /// next state).
    #[inline(always)]
    pub(crate) fn from(&self, blank: usize, state: u32) -> impl Iterator<Item = (usize, u32)> + '_ {
        let k = self.count[blank] as usize;
        self.cells[blank][..k]
            .iter()
            .zip(&self.dirs[blank][..k])
            .map(move |(&c, &d)| (c as usize, self.table.step(state, d as usize)))
            .filter(|&(_, next)| next != PRUNED)
    }

    /// Starts loading what [`Moves::from`] will read in automaton state `state`.
    #[inline(always)]
    pub(crate) fn prefetch(&self, state: u32) {
        self.table.prefetch(state);
    }
}

/// The position after the tile on `from` slides into the blank on `blank`, and that tile.
pub(crate) fn after_move(tiles: &[u8; MAX_CELLS], blank: usize, from: usize) -> ([u8; MAX_CELLS], u8) {
    let mut t = *tiles;
    let tile = t[from];
    t[blank] = tile;
    t[from] = 0;
    (t, tile)
}
