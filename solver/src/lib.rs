//! The `solver` command: its subcommands over the search engine (`engine`). Everything here is about the
//! command line (options, input lines, records, progress, signals); the search itself is in `engine`.

pub mod args;
pub mod batch;
pub mod check;
pub mod explore;
pub mod fast;
pub mod generate;
pub mod grid;
pub mod input;
pub mod show;
pub mod solve;
pub mod split;
pub mod watch;
