//! Every integration test of this crate, one module a file, in one test binary: one compile of the
//! dependencies' generic code and one link instead of one a file (ARCHITECTURE.md, where the test run
//! spends its time). A new file here must be named below; `harness`'s manifest test checks that.

mod big_boards;
mod dual;
mod dual_search;
mod exhaustive;
mod korf;
mod mtm;
mod pdb;
mod split;
