//! Each puzzle's adapter: to the batch runner (`batch::Task`: how a line is read, an instance solved into
//! the one `batch::Record`, and its algorithms named), which the commands run, and to the web app
//! ([`served::WebPuzzle`]: a request's fields read, solved into the same record, and the page's module),
//! which `web` serves through the [`registry`]. The commands and the web app are thin callers of these,
//! so each puzzle's glue is written once.

#![warn(missing_docs)]

pub mod blocks;
pub mod registry;
pub mod searched;
pub mod served;
pub mod tiles;
#[cfg(feature = "water")]
pub mod water;
