//! The search arrays' memory: zero-filled lazily, and advised for transparent huge pages (the BFS's random
//! accesses would otherwise miss the TLB nearly every time).

use pdb_builder::mem::Zeroed;
use std::sync::atomic::AtomicU64;

/// The `VmFlags` line of the mapping that holds `addr` in `/proc/self/smaps`. Not necessarily one that starts
/// there: the kernel merges a new mapping with a neighbour of the same flags (another test's array, say).
fn vm_flags(addr: usize) -> String {
    let smaps = std::fs::read_to_string("/proc/self/smaps").unwrap();
    let mut holds = false;
    for line in smaps.lines() {
        let range = line.split_whitespace().next().and_then(|r| r.split_once('-'));
        if let Some((Ok(start), Ok(end))) =
            range.map(|(a, b)| (usize::from_str_radix(a, 16), usize::from_str_radix(b, 16)))
        {
            holds = (start..end).contains(&addr);
        } else if holds && line.starts_with("VmFlags:") {
            return line.to_string();
        }
    }
    panic!("no mapping holds {addr:x}")
}

#[test]
fn arrays_are_advised_for_huge_pages() {
    if !std::path::Path::new("/sys/kernel/mm/transparent_hugepage").exists() {
        // A kernel without THP takes no advice; nothing to check.
        return harness::lacking("a kernel with transparent huge pages (/sys/kernel/mm/transparent_hugepage)");
    }
    let bytes = Zeroed::<u8>::new(64 << 20).unwrap();
    assert!(vm_flags(bytes.as_ptr() as usize).contains(" hg"), "{}", vm_flags(bytes.as_ptr() as usize));
    let words = Zeroed::<AtomicU64>::new(1 << 20).unwrap();
    assert!(vm_flags(words.as_ptr() as usize).contains(" hg"));
}

/// This process's resident memory, in bytes.
fn resident() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let line = status.lines().find(|l| l.starts_with("VmRSS:")).unwrap();
    line.split_whitespace().nth(1).unwrap().parse::<u64>().unwrap() * 1024
}

/// Allocating is free: a table's arrays are sized for the whole index but filled depth by depth.
#[test]
fn arrays_cost_nothing_until_touched() {
    let before = resident();
    let big = Zeroed::<u8>::new(1 << 30).unwrap();
    assert_eq!((big[0], big[(1 << 30) - 1]), (0, 0));
    let grown = resident().saturating_sub(before);
    assert!(grown < 64 << 20, "a 1 GiB array made {grown} bytes resident");
}
