//! Each puzzle's adapter to the batch runner: what the commands and the web app call.

pub mod water;
