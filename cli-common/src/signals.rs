//! Ctrl-C and SIGTERM as a request to stop: a long-running command (a batch, a server) polls
//! [`interrupted`], finishes or abandons its work cleanly, writes what is finished and exits with
//! [`crate::EXIT_INTERRUPTED`]. A second signal ends the process at once, for a user who will not wait.

use std::sync::atomic::{AtomicBool, Ordering};

static INTERRUPTED: AtomicBool = AtomicBool::new(false);

extern "C" fn on_signal(_: libc::c_int) {
    INTERRUPTED.store(true, Ordering::SeqCst);
}

/// From now on SIGINT and SIGTERM set the flag [`interrupted`] reads instead of ending the process. The
/// handler resets itself, so a second signal has the default effect: the process ends.
pub fn catch_interrupts() {
    // SAFETY: the handler only stores to an atomic, which is async-signal-safe; `sa` is fully initialised
    // (zeroed, then its handler, flags and empty mask set) before sigaction reads it.
    unsafe {
        let mut sa: libc::sigaction = std::mem::zeroed();
        sa.sa_sigaction = on_signal as extern "C" fn(libc::c_int) as usize;
        sa.sa_flags = libc::SA_RESETHAND | libc::SA_RESTART;
        libc::sigemptyset(&mut sa.sa_mask);
        for sig in [libc::SIGINT, libc::SIGTERM] {
            libc::sigaction(sig, &sa, std::ptr::null_mut());
        }
    }
}

/// Whether SIGINT or SIGTERM arrived since [`catch_interrupts`].
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}
