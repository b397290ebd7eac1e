//! Starting a load early: the search asks for what it will read a few nodes later (a table entry, the
//! automaton's row of a child), the builder for the seen-bit word it will mark, so that the miss overlaps
//! other work instead of stalling the read.

/// Asks the cache for the line holding `p`. Any address will do: a prefetch is a hint, never a read, so one
/// past a table's end costs a wasted line and nothing else.
#[inline(always)]
pub fn line<T>(p: *const T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch never faults and never dereferences `p` as far as the program can tell; it only
    // tells the cache which line to fetch.
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>(p.cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}
