//! Long calls without the GIL that still answer Ctrl-C: the work runs on a thread of its own while the
//! calling thread, every [`POLL`], takes the GIL back just long enough to let Python run its signal
//! handlers. A `KeyboardInterrupt` (or any exception a handler raises) sets the search's cancel flag, which
//! every search checks every few thousand nodes; the call waits for the search to unwind, so no thread
//! is left running, and then raises.

use pyo3::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// How often a waiting call looks for signals: well inside the second a notebook user waits.
pub const POLL: Duration = Duration::from_millis(50);

/// Runs `work` with the GIL released. On the main thread, where Python's signal handlers run, `work` runs
/// on a scoped thread and signals are polled; elsewhere (no handler can run there) it runs in place.
pub fn run<T: Send>(py: Python<'_>, cancel: &Arc<AtomicBool>, work: impl FnOnce() -> T + Send) -> PyResult<T> {
    if !is_main_thread(py)? {
        return Ok(py.detach(work));
    }
    std::thread::scope(|scope| {
        let (send, done) = mpsc::channel();
        // A receiver is not `Sync`; the lock lets the GIL-free closures below borrow it.
        let done = Mutex::new(done);
        scope.spawn(move || {
            let _ = send.send(work());
        });
        loop {
            match py.detach(|| done.lock().unwrap().recv_timeout(POLL)) {
                Ok(value) => return Ok(value),
                Err(RecvTimeoutError::Timeout) => {
                    if let Err(e) = py.check_signals() {
                        cancel.store(true, Ordering::Relaxed);
                        // The search stops at its next check; the scope joins its thread.
                        let _ = py.detach(|| done.lock().unwrap().recv());
                        return Err(e);
                    }
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(pyo3::exceptions::PyRuntimeError::new_err("internal error: the search thread failed"))
                }
            }
        }
    })
}

/// Whether this is Python's main thread (checked through `threading`, which every Python has).
pub fn is_main_thread(py: Python<'_>) -> PyResult<bool> {
    let threading = py.import("threading")?;
    let current = threading.call_method0("current_thread")?;
    let main = threading.call_method0("main_thread")?;
    Ok(current.is(&main))
}
