//! What the machine lets this process use: the memory it can still take, container limits included, and the
//! free space of a folder. Commands plan with these before long work, to refuse it in one line rather than be
//! killed by the kernel's out-of-memory killer or fail with a full disk at the end.
//!
//! The host's `MemAvailable` is not the answer inside a container: a process in a cgroup with a 500 MB limit
//! still sees the host's free gigabytes in `/proc/meminfo`, and is killed once its group passes the limit.
//! So the memory available is the least of the host's figure and, for each cgroup from this process's up to
//! the root of its hierarchy, that group's limit less its usage (cgroup v2: `memory.max`, `memory.current`;
//! v1: `memory.limit_in_bytes`, `memory.usage_in_bytes` under the memory controller's mount).
//!
//! Reading the files is kept apart from understanding them ([`available_memory_from`] takes the reader), so
//! the tests can give fake `/proc` and `/sys` contents for every layout.

use std::path::{Path, PathBuf};

/// Memory this process can still take, and what bounds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AvailableMemory {
    /// Bytes.
    pub bytes: u64,
    /// The cgroup folder whose limit leaves the least, when that is less than the host has available; `None`
    /// when the host's `MemAvailable` is the bound.
    pub cgroup: Option<PathBuf>,
}

/// The memory this process can still take, read from this machine's `/proc` and `/sys`; `None` when neither
/// the host's `MemAvailable` nor any cgroup limit can be read.
pub fn available_memory() -> Option<AvailableMemory> {
    available_memory_from(&|path| std::fs::read_to_string(path).ok())
}

/// [`available_memory`] with the files read by `read`, which gets absolute paths (`/proc/meminfo`,
/// `/sys/fs/cgroup/...`) and gives a file's text or `None` when it cannot be read.
pub fn available_memory_from(read: &dyn Fn(&Path) -> Option<String>) -> Option<AvailableMemory> {
    let host = read(Path::new("/proc/meminfo")).as_deref().and_then(mem_available);
    let mut best = host.map(|bytes| AvailableMemory { bytes, cgroup: None });
    let memberships = read(Path::new("/proc/self/cgroup")).unwrap_or_default();
    let mounts = read(Path::new("/proc/self/mountinfo")).unwrap_or_default();
    for dir in cgroup_chain(&memberships, &mounts) {
        let Some(left) = room_in(&dir, read) else { continue };
        if best.as_ref().is_none_or(|b| left < b.bytes) {
            best = Some(AvailableMemory { bytes: left, cgroup: Some(dir.path) });
        }
    }
    best
}

/// `MemAvailable` from the text of `/proc/meminfo`, in bytes.
fn mem_available(meminfo: &str) -> Option<u64> {
    let line = meminfo.lines().find_map(|l| l.strip_prefix("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().next()?.parse().ok()?;
    kib.checked_mul(1024)
}

/// The two cgroup interfaces, which name their memory files differently.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Version {
    /// The memory controller's own hierarchy.
    V1,
    /// The unified hierarchy.
    V2,
}

impl Version {
    /// The limit, the usage, and the statistics file with the name of its page cache count that the kernel
    /// can drop, in a cgroup folder.
    fn files(self) -> [&'static str; 4] {
        match self {
            Version::V1 => ["memory.limit_in_bytes", "memory.usage_in_bytes", "memory.stat", "total_inactive_file"],
            Version::V2 => ["memory.max", "memory.current", "memory.stat", "inactive_file"],
        }
    }
}

/// A cgroup folder whose limit bounds this process.
#[derive(Debug, PartialEq, Eq)]
struct CgroupDir {
    version: Version,
    path: PathBuf,
}

/// The cgroup folders whose memory limits bound this process, its own first and then each parent up to the
/// mount point, for both interfaces: from `/proc/self/cgroup` (`ID:CONTROLLERS:PATH` lines; v2's is
/// `0::PATH`) and `/proc/self/mountinfo` (where each hierarchy is mounted, and which of its folders the mount
/// shows: a container usually sees its own group as the mount's root).
fn cgroup_chain(memberships: &str, mountinfo: &str) -> Vec<CgroupDir> {
    let mounts = cgroup_mounts(mountinfo);
    let mut dirs = Vec::new();
    for line in memberships.lines() {
        let mut fields = line.splitn(3, ':');
        let (Some(id), Some(controllers), Some(path)) = (fields.next(), fields.next(), fields.next()) else {
            continue;
        };
        let version = match (id, controllers) {
            ("0", "") => Version::V2,
            (_, c) if c.split(',').any(|c| c == "memory") => Version::V1,
            _ => continue,
        };
        for (_, root, point) in mounts.iter().filter(|(v, _, _)| *v == version) {
            // The group as seen from the mount. A group outside the mount's root (shown as `/..` from inside
            // a cgroup namespace) leaves only the mount's own folder, which bounds every group below it.
            let inside = Path::new(path).strip_prefix(root).unwrap_or(Path::new(""));
            let mut dir = point.join(inside);
            loop {
                dirs.push(CgroupDir { version, path: dir.clone() });
                if dir == *point || !dir.pop() {
                    break;
                }
            }
        }
    }
    dirs
}

/// The cgroup hierarchies mounted that hold memory limits: every v2 mount and each v1 mount of the memory
/// controller, as (version, the hierarchy's folder at the mount, the mount point). `mountinfo` lines read
/// `ID PARENT DEV ROOT POINT OPTIONS [OPTIONAL...] - TYPE SOURCE SUPER-OPTIONS`.
fn cgroup_mounts(mountinfo: &str) -> Vec<(Version, PathBuf, PathBuf)> {
    mountinfo
        .lines()
        .filter_map(|line| {
            let (left, right) = line.split_once(" - ")?;
            let mut left = left.split(' ').skip(3);
            let (root, point) = (left.next()?, left.next()?);
            let mut right = right.split(' ');
            let (fs_type, super_options) = (right.next()?, right.nth(1).unwrap_or(""));
            let version = match fs_type {
                "cgroup2" => Version::V2,
                "cgroup" if super_options.split(',').any(|o| o == "memory") => Version::V1,
                _ => return None,
            };
            Some((version, PathBuf::from(unescape(root)), PathBuf::from(unescape(point))))
        })
        .collect()
}

/// A `mountinfo` path with its octal escapes (`\040` for a space) undone.
fn unescape(field: &str) -> String {
    let mut bytes = Vec::with_capacity(field.len());
    let mut rest = field.as_bytes();
    while let Some((&b, tail)) = rest.split_first() {
        let code = tail.get(..3).and_then(|d| std::str::from_utf8(d).ok()).and_then(|d| u8::from_str_radix(d, 8).ok());
        match code {
            Some(c) if b == b'\\' => {
                bytes.push(c);
                rest = &tail[3..];
            }
            _ => {
                bytes.push(b);
                rest = tail;
            }
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

/// A v1 limit this large is the kernel's "no limit" (the largest page count times the page size, just under
/// 2^63); no machine has 4 EiB.
const V1_UNLIMITED: u64 = 1 << 62;

/// What `dir`'s limit leaves: the limit less the usage, where the usage leaves out the page cache the kernel
/// would drop before killing anything (`inactive_file`, as container runtimes count a group's working set),
/// so that tables written a minute ago do not count against the next build. `None` when the group has no
/// limit or its files cannot be read.
fn room_in(dir: &CgroupDir, read: &dyn Fn(&Path) -> Option<String>) -> Option<u64> {
    let [limit_file, usage_file, stat_file, inactive_key] = dir.version.files();
    let number = |name: &str| read(&dir.path.join(name))?.trim().parse::<u64>().ok();
    let limit = number(limit_file).filter(|&l| l < V1_UNLIMITED)?;
    let usage = number(usage_file).unwrap_or(0);
    let inactive = read(&dir.path.join(stat_file)).as_deref().and_then(|stat| stat_value(stat, inactive_key));
    Some(limit.saturating_sub(usage.saturating_sub(inactive.unwrap_or(0))))
}

/// The value of `key` in a `memory.stat` text (`KEY VALUE` lines).
fn stat_value(stat: &str, key: &str) -> Option<u64> {
    stat.lines().find_map(|l| l.strip_prefix(key)?.strip_prefix(' ')?.trim().parse().ok())
}

/// Bytes free for this user on the file system holding `dir` (blocks reserved for root left out, as `df`'s
/// "Avail" does).
pub fn free_space(dir: &Path) -> std::io::Result<u64> {
    use std::os::unix::ffi::OsStrExt;
    let c_path = std::ffi::CString::new(dir.as_os_str().as_bytes())
        .map_err(|_| std::io::Error::new(std::io::ErrorKind::InvalidInput, "path holds a NUL byte"))?;
    // SAFETY: `c_path` is a NUL-terminated string that outlives the call, and `stat` is a plain C struct that
    // statvfs fills in (all zeros is a valid value of it); its result is read only when the call succeeded.
    let stat = unsafe {
        let mut stat: libc::statvfs = std::mem::zeroed();
        if libc::statvfs(c_path.as_ptr(), &mut stat) != 0 {
            return Err(std::io::Error::last_os_error());
        }
        stat
    };
    // Both are 64 bits on 64-bit Linux, 32 bits on some other platforms.
    #[allow(clippy::useless_conversion)]
    let (blocks, block_size) = (u64::from(stat.f_bavail), u64::from(stat.f_frsize));
    Ok(blocks.saturating_mul(block_size))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    const MEMINFO: &str = "MemTotal:       32000000 kB\nMemFree:         1000000 kB\nMemAvailable:   20000000 kB\n";
    /// The host's `MemAvailable` above, in bytes.
    const HOST: u64 = 20_000_000 * 1024;
    const MIB: u64 = 1 << 20;

    /// Memory available on a machine whose files are `files` (path, text); the others cannot be read.
    fn available(files: &[(&str, &str)]) -> Option<AvailableMemory> {
        let files: HashMap<PathBuf, String> = files.iter().map(|(p, t)| (PathBuf::from(p), t.to_string())).collect();
        available_memory_from(&|p| files.get(p).cloned())
    }

    fn bounded_by(bytes: u64, cgroup: &str) -> Option<AvailableMemory> {
        Some(AvailableMemory { bytes, cgroup: Some(PathBuf::from(cgroup)) })
    }

    fn host_only() -> Option<AvailableMemory> {
        Some(AvailableMemory { bytes: HOST, cgroup: None })
    }

    const V2_MOUNT: &str =
        "30 23 0:26 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:4 - cgroup2 cgroup2 rw\n";

    #[test]
    fn without_cgroups_the_host_figure_counts() {
        assert_eq!(available(&[("/proc/meminfo", MEMINFO)]), host_only());
        assert_eq!(available(&[("/proc/meminfo", "MemTotal: 5 kB\n")]), None, "no MemAvailable line");
        assert_eq!(available(&[("/proc/meminfo", "MemAvailable: lots kB\n")]), None);
        assert_eq!(available(&[]), None, "nothing readable");
    }

    #[test]
    fn a_v2_limit_counts_less_its_usage() {
        let files = [
            ("/proc/meminfo", MEMINFO),
            ("/proc/self/cgroup", "0::/box\n"),
            ("/proc/self/mountinfo", V2_MOUNT),
            ("/sys/fs/cgroup/box/memory.max", "524288000\n"),
            ("/sys/fs/cgroup/box/memory.current", "104857600\n"),
        ];
        assert_eq!(available(&files), bounded_by(400 * MIB, "/sys/fs/cgroup/box"));
    }

    #[test]
    fn max_means_no_limit_and_missing_files_are_skipped() {
        let files = [
            ("/proc/meminfo", MEMINFO),
            ("/proc/self/cgroup", "0::/user.slice/session-1.scope\n"),
            ("/proc/self/mountinfo", V2_MOUNT),
            ("/sys/fs/cgroup/user.slice/session-1.scope/memory.max", "max\n"),
            ("/sys/fs/cgroup/user.slice/session-1.scope/memory.current", "5000\n"),
        ];
        assert_eq!(available(&files), host_only());
        assert_eq!(available(&files[1..]), None, "no host figure and no limit: nothing known");
    }

    /// The tightest group of the chain wins, wherever it is; a limit with no usage file counts whole, and a
    /// group already over its limit leaves nothing.
    #[test]
    fn the_tightest_group_of_a_nested_chain_counts() {
        let mut files = vec![
            ("/proc/meminfo", MEMINFO),
            ("/proc/self/cgroup", "0::/a/b/c\n"),
            ("/proc/self/mountinfo", V2_MOUNT),
            ("/sys/fs/cgroup/a/b/c/memory.max", "max\n"),
            ("/sys/fs/cgroup/a/b/memory.max", "2147483648\n"),
            ("/sys/fs/cgroup/a/b/memory.current", "1073741824\n"),
            ("/sys/fs/cgroup/a/memory.max", "1610612736\n"),
        ];
        assert_eq!(available(&files), bounded_by(1024 * MIB, "/sys/fs/cgroup/a/b"));
        files.push(("/sys/fs/cgroup/a/memory.current", "1342177280\n"));
        assert_eq!(available(&files), bounded_by(256 * MIB, "/sys/fs/cgroup/a"));
        files.push(("/sys/fs/cgroup/memory.max", "1000\n"));
        files.push(("/sys/fs/cgroup/memory.current", "2000\n"));
        assert_eq!(available(&files), bounded_by(0, "/sys/fs/cgroup"));
    }

    /// cgroup v1 on a hybrid system (the memory controller on v1, an empty v2 hierarchy beside it), with the
    /// kernel's "no limit" value on the parents, as this project's build machine has it.
    #[test]
    fn a_v1_limit_counts_and_huge_values_mean_none() {
        let mountinfo = "\
31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755
32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu
35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory
41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw
";
        let mut files = vec![
            ("/proc/meminfo", MEMINFO),
            ("/proc/self/cgroup", "9:name=systemd:/\n4:memory:/jobs/42\n1:cpu:/\n0::/\n"),
            ("/proc/self/mountinfo", mountinfo),
            ("/sys/fs/cgroup/memory/memory.limit_in_bytes", "9223372036854771712\n"),
            ("/sys/fs/cgroup/memory/memory.usage_in_bytes", "6882353152\n"),
            ("/sys/fs/cgroup/memory/jobs/memory.limit_in_bytes", "9223372036854771712\n"),
            ("/sys/fs/cgroup/memory/jobs/42/memory.limit_in_bytes", "9223372036854771712\n"),
            ("/sys/fs/cgroup/memory/jobs/42/memory.usage_in_bytes", "3366912\n"),
        ];
        assert_eq!(available(&files), host_only());
        files[6].1 = "524288000\n";
        assert_eq!(available(&files), bounded_by(500 * MIB - 3366912, "/sys/fs/cgroup/memory/jobs/42"));
    }

    /// Docker without a cgroup namespace: `/proc/self/cgroup` names the group from the host's root, and the
    /// mount shows that group as its root.
    #[test]
    fn a_mount_of_the_group_itself_is_found() {
        let files = [
            ("/proc/meminfo", MEMINFO),
            ("/proc/self/cgroup", "4:memory:/docker/abc\n"),
            ("/proc/self/mountinfo", "35 31 0:32 /docker/abc /sys/fs/cgroup/memory ro - cgroup cgroup rw,memory\n"),
            ("/sys/fs/cgroup/memory/memory.limit_in_bytes", "524288000\n"),
            ("/sys/fs/cgroup/memory/memory.usage_in_bytes", "0\n"),
        ];
        assert_eq!(available(&files), bounded_by(500 * MIB, "/sys/fs/cgroup/memory"));
    }

    /// Page cache the kernel can drop is not counted as used.
    #[test]
    fn droppable_page_cache_is_not_usage() {
        let files = [
            ("/proc/meminfo", MEMINFO),
            ("/proc/self/cgroup", "0::/\n"),
            ("/proc/self/mountinfo", V2_MOUNT),
            ("/sys/fs/cgroup/memory.max", "524288000\n"),
            ("/sys/fs/cgroup/memory.current", "314572800\n"),
            ("/sys/fs/cgroup/memory.stat", "anon 52428800\nfile 262144000\nactive_file 0\ninactive_file 209715200\n"),
        ];
        assert_eq!(available(&files), bounded_by(400 * MIB, "/sys/fs/cgroup"));
    }

    #[test]
    fn mountinfo_paths_are_unescaped() {
        assert_eq!(unescape(r"/mnt/my\040cgroups"), "/mnt/my cgroups");
        assert_eq!(unescape(r"/plain\0x"), r"/plain\0x");
        let chain = cgroup_chain("0::/g\n", "1 2 0:3 / /mnt/my\\040cg rw - cgroup2 none rw\n");
        let paths: Vec<&Path> = chain.iter().map(|d| d.path.as_path()).collect();
        assert_eq!(paths, [Path::new("/mnt/my cg/g"), Path::new("/mnt/my cg")]);
    }

    #[test]
    fn free_space_is_read() {
        assert!(free_space(Path::new("/")).is_ok());
        assert!(free_space(Path::new("/no/such/folder")).is_err());
    }
}
