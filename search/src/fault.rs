//! Whose fault an error is, said once by each library's error type and read alike by every caller: a command
//! turns it into an exit code, the web app into an HTTP status.

/// An error that knows whether the user caused it.
pub trait Fault: std::error::Error + Send + Sync + 'static {
    /// Whether the user's input or options caused it (a malformed position, a bad option, a missing
    /// table): exit code 2 for a command, a 400 for the web app. Otherwise it is the environment's or a bug
    /// (a corrupt table, an I/O error): exit code 1, a 500.
    fn is_usage(&self) -> bool;
}
