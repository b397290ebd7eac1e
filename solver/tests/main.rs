//! Every integration test of this crate, one module a file, in one test binary: one compile of the
//! dependencies' generic code and one link instead of one a file (ARCHITECTURE.md, where the test run
//! spends its time). A new file here must be named below; `harness`'s manifest test checks that.

mod algorithms;
mod batch;
mod bigboards;
mod browser;
mod check;
mod cli;
mod metric;
mod report;
mod serve;
mod serve_limits;
mod show;
mod split;
