//! Each puzzle's adapter to the batch runner (`batch::Task`): how a line is read, an instance solved into
//! the one `batch::Record`, and its algorithms named. The `solver` and `watersort` commands and the web app
//! are thin callers of these, so each puzzle's glue is written once.

#![warn(missing_docs)]

pub mod tiles;
#[cfg(feature = "water")]
pub mod water;
