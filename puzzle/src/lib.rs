//! The shared core of the sliding-tile tools: boards, states, instance parsing, pattern ranking, heuristics
//! and the PDB file format. The builder and the solver both depend on this crate so that they cannot disagree
//! on cells, goal, moves, ranking or file layout.

#![warn(missing_docs)]

pub mod backing;
pub mod big;
pub mod board;
pub mod consistency;
pub mod exhaustive;
pub mod explore;
pub mod heuristic;
pub mod instance;
pub mod partition;
pub mod pdb_file;
pub mod prefetch;
pub mod random;
pub mod rank;
pub mod reduce;
pub mod regions;
pub mod state;
pub mod tiles_search;

pub use board::{Board, Dir, MAX_CELLS};
pub use instance::{parse_line, parse_tiles, Goal, Instance, InstanceError};
pub use partition::{Partition, PartitionError};
pub use rank::Pattern;
pub use state::{State, PACK_CELLS};
