//! End-to-end tests of the `pdb-builder` binary on small boards: build, info, verify, and every bad input
//! and damaged file the issue lists, each giving one clear error and never a panic.

use harness::TempDir;
use puzzle::pdb_file::{write_atomic, Expect, Header, PdbFile, HEADER_LEN};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

fn run(args: &[&str]) -> Run {
    finish(Command::new(env!("CARGO_BIN_EXE_pdb-builder")).args(args).output().unwrap())
}

fn finish(out: std::process::Output) -> Run {
    let run = Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into(),
        stderr: String::from_utf8_lossy(&out.stderr).into(),
    };
    assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
    run
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Builds the 2x3 "2-3" partition into `dir`; returns the two file paths.
fn build_small(dir: &Path) -> (PathBuf, PathBuf) {
    let r = run(&["build", "--board", "2x3", "--partition", "2-3", "--out", s(dir)]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    (dir.join("2x3-1-2.pdb"), dir.join("2x3-3-4-5.pdb"))
}

#[test]
fn build_info_verify_and_skip() {
    let dir = TempDir::new("build");
    let r = run(&["build", "--board", "2x3", "--partition", "2-3", "--out", s(&dir), "--threads", "2"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stderr.contains("memory needed"), "{}", r.stderr);
    assert!(r.stderr.contains("depth  0:"), "{}", r.stderr);
    assert!(r.stderr.contains("4-bit excess over Manhattan distance encoding"), "{}", r.stderr);
    let (a, b) = (dir.join("2x3-1-2.pdb"), dir.join("2x3-3-4-5.pdb"));
    let first = std::fs::read(&b).unwrap();

    let again = run(&["build", "--board", "2x3", "--partition", "2-3", "--out", s(&dir)]);
    assert_eq!(again.code, 0);
    assert_eq!(again.stderr.matches("skipped").count(), 2, "{}", again.stderr);

    let forced = run(&["build", "--board", "2x3", "--partition", "2-3", "--out", s(&dir), "--force", "--quiet"]);
    assert_eq!(forced.code, 0);
    assert_eq!(forced.stderr, "", "--quiet prints nothing");
    assert_eq!(std::fs::read(&b).unwrap(), first, "a rebuild gives byte-identical files");

    let info = run(&["info", s(&a), s(&b), "--format", "json"]);
    assert_eq!(info.code, 0, "{}", info.stderr);
    let objects: Vec<serde_json::Value> = info.stdout.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(objects.len(), 2);
    let o = &objects[1];
    assert_eq!(o["tiles"], serde_json::json!([3, 4, 5]));
    assert_eq!(o["board"], "2x3");
    assert_eq!(o["entries"], 120);
    assert_eq!(o["encoding"], "nibble");
    let hist: Vec<u64> = serde_json::from_value(o["histogram"].clone()).unwrap();
    assert_eq!(hist.len() as u64, o["max_value"].as_u64().unwrap() + 1);
    assert_eq!(hist.iter().sum::<u64>(), 120);
    let header = PdbFile::open(&b, &Expect::default()).unwrap().header;
    assert_eq!(o["payload_hash"], format!("{:016x}", header.payload_hash));

    let text = run(&["info", s(&b)]);
    assert!(text.stdout.contains("pattern: 3 tiles: 3 4 5") && text.stdout.contains("120 entries"), "{}", text.stdout);

    let verify = run(&["verify", s(&dir)]);
    assert_eq!(verify.code, 0, "{}", verify.stderr);
    assert_eq!(verify.stdout.matches("ok ").count(), 2, "{}", verify.stdout);
}

/// Blank-aware tables: their own file names beside the plain ones, `info` naming the kind and the labels,
/// `verify` recomputing their histograms, a renamed one refused by name, and a header that claims the wrong
/// number of labels refused on open.
#[test]
fn blank_aware_tables_build_describe_and_verify() {
    let dir = TempDir::new("blank");
    let r = run(&["build", "--board", "3x3", "--partition", "4-4", "--blank-aware", "--out", s(&dir)]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stderr.contains("2 blank-aware table(s) to build"), "{}", r.stderr);
    let plain = run(&["build", "--board", "3x3", "--partition", "4-4", "--out", s(&dir)]);
    assert_eq!(plain.code, 0, "{}", plain.stderr);
    assert!(!plain.stderr.contains("skipped"), "a blank-aware table is not the plain one: {}", plain.stderr);
    let table = dir.join("3x3-1-2-3-4.blank.pdb");
    let info = run(&["info", s(&table), "--format", "json"]);
    let o: serde_json::Value = serde_json::from_str(info.stdout.trim()).unwrap();
    // Four tiles on 3x3 leave at most five regions (tiles on 1, 3, 5, 7): 9 * 8 * 7 * 6 placements, five
    // entries each.
    assert_eq!(
        (o["kind"].as_str(), o["region_labels"].as_u64(), o["entries"].as_u64()),
        (Some("blank-aware"), Some(5), Some(15120))
    );
    let text = run(&["info", s(&table)]);
    assert!(text.stdout.contains("plus the label of the blank's region (blank-aware)"), "{}", text.stdout);
    let verify = run(&["verify", s(&dir)]);
    assert_eq!((verify.code, verify.stdout.matches("ok ").count()), (0, 4), "{}", verify.stdout);

    std::fs::rename(&table, dir.join("3x3-1-2-3-4.pdb")).unwrap();
    let verify = run(&["verify", s(&dir.join("3x3-1-2-3-4.pdb"))]);
    assert_eq!(verify.code, 1);
    assert!(verify.stdout.contains("header says board 3x3, tiles [1, 2, 3, 4], blank-aware"), "{}", verify.stdout);

    let bytes = std::fs::read(dir.join("3x3-5-6-7-8.blank.pdb")).unwrap();
    let mut header = Header::from_bytes(bytes[..HEADER_LEN].try_into().unwrap()).unwrap();
    header.labels = 6;
    header.entries = 3024 * 6;
    header.payload_len = 3024 * 3;
    write_atomic(&dir.join("bad.pdb"), &header, &vec![0; 3024 * 3]).unwrap();
    let info = run(&["info", s(&dir.join("bad.pdb"))]);
    assert_eq!(info.code, 1);
    assert!(
        info.stderr.contains("6 region labels for a 4-tile pattern on 3x3, which leaves at most 5"),
        "{}",
        info.stderr
    );

    // Fewer entries than regions: the last serves the rest.
    let few = TempDir::new("blank-few");
    let r = run(&["build", "--board", "3x3", "--partition", "4-4", "--blank-aware", "--labels", "2", "--out", s(&few)]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stderr.contains("3,024 placements, 2 entries each"), "{}", r.stderr);
    let again = run(&["build", "--board", "3x3", "--partition", "4-4", "--blank-aware", "--out", s(&few)]);
    assert!(
        again.stderr.contains("expected 5 entries a placement") && again.stderr.contains("rebuilding"),
        "{}",
        again.stderr
    );
    let bad = run(&["build", "--board", "3x3", "--partition", "4-4", "--labels", "2", "--out", s(&few)]);
    assert_eq!(bad.code, 2, "--labels needs --blank-aware");
}

#[test]
fn bad_partitions_are_usage_errors() {
    for (partition, message) in [
        ("1,2/2,3,4,5", "tile 2 is in more than one pattern"),
        ("1,2/3,4", "tile(s) 5 are in no pattern"),
        ("1,2/3,4,5,9", "tile 9 does not exist on a 2x3 board"),
        ("9-9", "unknown partition '9-9' for a 2x3 board"),
    ] {
        let r = run(&["build", "--board", "2x3", "--partition", partition, "--out", "/nonexistent-never-written"]);
        assert_eq!(r.code, 2, "{partition}: {}", r.stderr);
        assert!(r.stderr.contains(message), "{partition}: {}", r.stderr);
        assert_eq!(r.stderr.lines().count(), 1, "one line: {}", r.stderr);
    }
    let r = run(&["build", "--board", "5x6", "--partition", "7-8"]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("supported boards"), "{}", r.stderr);
    let r = run(&["build", "--board", "5x5", "--partition", "7-8"]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("unknown partition '7-8' for a 5x5 board (known: 7-6-6-5, 6-6-6-6;"), "{}", r.stderr);
}

#[test]
fn memory_limit_is_enforced_before_building() {
    let dir = TempDir::new("memory");
    let r = run(&["build", "--partition", "7-8", "--out", s(&dir), "--memory-limit", "1G"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("the 8-tile table 4x4-8-9-10-11-12-13-14-15.pdb needs 1.45 GiB"), "{}", r.stderr);
    assert!(r.stderr.contains("more than the limit of 1 GiB (--memory-limit)"), "{}", r.stderr);
    assert!(std::fs::read_dir(&dir).unwrap().next().is_none(), "nothing was written");
    // The named 5x5 partition with a 7-tile table: 16-bit slots (at most six regions) and a byte an entry,
    // 2,422,728,000 entries.
    let r = run(&["build", "--board", "5x5", "--partition", "7-6-6-5", "--out", s(&dir), "--memory-limit", "4G"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("7-tile table 5x5-1-2-3-5-6-7-10.pdb needs 6.77 GiB"), "{}", r.stderr);
    assert!(std::fs::read_dir(&dir).unwrap().next().is_none(), "nothing was written");
    let bad = run(&["build", "--partition", "7-8", "--memory-limit", "lots"]);
    assert_eq!(bad.code, 2);
    assert!(bad.stderr.contains("'lots' is not a memory size"), "{}", bad.stderr);
}

#[test]
fn unwritable_output_folder_is_reported() {
    let dir = TempDir::new("unwritable");
    let file = dir.join("a-file");
    std::fs::write(&file, b"x").unwrap();
    let out = file.join("pdbs");
    let r = run(&["build", "--board", "2x3", "--partition", "2-3", "--out", s(&out)]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stderr.contains(&format!("cannot write to output folder {}", out.display())), "{}", r.stderr);
    // The system's reason once, not repeated by each error that carries it.
    assert_eq!(r.stderr.matches("os error").count(), 1, "{}", r.stderr);
}

/// Runs `pdb-builder ARGS` after the shell commands `setup` (see [`harness::run_in_namespace`]).
fn in_namespace(setup: &str, args: &[&str]) -> Option<Run> {
    harness::run_in_namespace(setup, env!("CARGO_BIN_EXE_pdb-builder"), args).map(finish)
}

/// Runs `pdb-builder ARGS` with `dir` a 64 KiB tmpfs.
fn on_tiny_tmpfs(dir: &Path, args: &[&str]) -> Option<Run> {
    in_namespace(&format!("mount -t tmpfs -o size=64k none '{}'", s(dir)), args)
}

/// In a container whose cgroup allows 500 MiB, the build plans with that rather than the host's free memory,
/// and refuses a table that needs more (exit 2) instead of being killed by the kernel.
#[test]
fn a_cgroup_memory_limit_is_honoured() {
    let Some(container) = harness::fake_cgroup_limit(500 << 20) else { return };
    let dir = TempDir::new("cgroup");
    let Some(r) = in_namespace(&container, &["build", "--partition", "7-8", "--out", s(&dir)]) else { return };
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr.contains("more than the limit of 500 MiB (available memory under the limit of cgroup /"),
        "{}",
        r.stderr
    );
    assert!(std::fs::read_dir(&dir).unwrap().next().is_none(), "nothing was written");
}

/// A build whose tables cannot fit on the disk is refused before the search, naming the folder and the space
/// needed and free; one that fits is built.
#[test]
fn a_build_that_cannot_fit_on_the_disk_is_refused_before_the_search() {
    let dir = TempDir::new("tiny-disk");
    // Three 5-tile tables of 524,160 entries: at least 3 x (4 KiB + 262,080) bytes.
    let Some(r) = on_tiny_tmpfs(&dir, &["build", "--partition", "5-5-5", "--out", s(&dir), "--quiet"]) else { return };
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert_eq!(
        r.stderr,
        format!(
            "pdb-builder: error: the tables to build in {} need at least 780 KiB of disk space, 64 KiB free; free some space or choose another folder with --out\n",
            dir.display()
        )
    );
    let r = on_tiny_tmpfs(&dir, &["build", "--board", "2x3", "--partition", "2-3", "--out", s(&dir)]).unwrap();
    assert_eq!(r.code, 0, "{}", r.stderr);
}

/// A table whose new file cannot be written (here: past the file size limit, as on a full disk) leaves the
/// valid file it was to replace as it was, and no temporary file.
#[test]
fn a_failed_write_never_replaces_a_valid_table() {
    let dir = TempDir::new("failed-write");
    let (a, b) = build_small(&dir);
    let before = (std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
    // Writes past 2 KiB fail with EFBIG (`ulimit -f` counts 512- or 1024-byte blocks, as the shell has it;
    // SIGXFSZ ignored, so the write fails rather than the process being killed).
    let limited = r#"trap '' XFSZ && ulimit -f 2 && exec "$@""#;
    let out = Command::new("sh")
        .args(["-c", limited, "sh", env!("CARGO_BIN_EXE_pdb-builder")])
        .args(["build", "--board", "2x3", "--partition", "2-3", "--out", s(&dir), "--force"])
        .output()
        .unwrap();
    let r = finish(out);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stderr.contains("File too large"), "{}", r.stderr);
    assert_eq!((std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap()), before);
    let names: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(names.len(), 2, "no temporary left: {names:?}");
}

/// Verifies `path` and returns the failure line.
fn verify_fails(args: &[&str]) -> String {
    let r = run(args);
    assert_eq!(r.code, 1, "{} {}", r.stdout, r.stderr);
    r.stdout
        .lines()
        .find(|l| l.starts_with("FAILED"))
        .unwrap_or_else(|| panic!("no failure in {}", r.stdout))
        .to_string()
}

#[test]
fn damaged_files_fail_verification() {
    let dir = TempDir::new("damaged");
    let (_, good) = build_small(&dir);
    let bytes = std::fs::read(&good).unwrap();
    let bad = dir.join("bad.pdb");

    std::fs::write(&bad, &bytes[..bytes.len() - 1]).unwrap();
    let line = verify_fails(&["verify", s(&bad)]);
    assert!(line.contains("bad.pdb") && line.contains("truncated"), "{line}");
    let r = run(&["verify", s(&bad)]);
    assert!(r.stderr.contains("1 of 1 table file failed verification"), "{}", r.stderr);
    // A folder with one bad file fails as a whole, naming it.
    let r = run(&["verify", s(&dir)]);
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("1 of 3 table files failed verification"), "{}", r.stderr);

    let mut flipped = bytes.clone();
    flipped[HEADER_LEN + 10] ^= 0x10;
    std::fs::write(&bad, &flipped).unwrap();
    assert!(verify_fails(&["verify", s(&bad)]).contains("payload checksum mismatch"));

    let header = PdbFile::open(&good, &Expect::default()).unwrap().header;
    let payload = &bytes[HEADER_LEN..];
    let rewrite = |h: &Header| write_atomic(&bad, h, payload).unwrap();

    rewrite(&Header { version: 9, ..header.clone() });
    assert!(verify_fails(&["verify", s(&bad)]).contains("format version 9 is newer than this program's (1)"));

    rewrite(&Header { goal: 1, ..header.clone() });
    assert!(verify_fails(&["verify", s(&bad)]).contains("another goal"));

    // The goal placement's entry raised, the histogram and both checksums made to agree: its value 2 does not.
    let f = PdbFile::open(&good, &Expect::default()).unwrap();
    let pattern = header.pattern();
    let mut excess: Vec<u8> = (0..header.entries).map(|i| f.excess(i)).collect();
    excess[pattern.rank(pattern.tiles()) as usize] = 1;
    let payload = puzzle::pdb_file::encode(header.encoding, &excess).unwrap();
    let histogram = puzzle::pdb_file::histogram_of(header.board, &pattern, header.encoding, &payload, 1);
    write_atomic(&bad, &Header { histogram, ..header.clone() }, &payload).unwrap();
    let line = verify_fails(&["verify", s(&bad)]);
    assert!(line.contains("the goal placement") && line.contains("value 2, not 0"), "{line}");

    // A file that is not there is the user's mistake (exit 2), reported before any work.
    for cmd in ["info", "verify"] {
        let r = run(&[cmd, s(&good), s(&dir.join("missing.pdb"))]);
        assert_eq!(r.code, 2, "{cmd}: {}", r.stderr);
        assert!(r.stderr.contains("missing.pdb: no such file or folder"), "{cmd}: {}", r.stderr);
        assert_eq!(r.stdout, "", "{cmd}");
    }
}

/// Two entries of one Manhattan distance swapped in a blank-aware table, histogram and checksums made to
/// agree: `verify` refuses it in one line naming a placement.
#[test]
fn entries_swapped_between_placements_fail_verification() {
    let dir = TempDir::new("swapped");
    let r = run(&["build", "--board", "3x3", "--partition", "4-4", "--blank-aware", "--out", s(&dir)]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let good = dir.join("3x3-1-2-3-4.blank.pdb");
    let f = PdbFile::open(&good, &Expect::default()).unwrap();
    let header = f.header.clone();
    let (pattern, labels) = (header.pattern(), header.labels as u64);
    let mut excess: Vec<u8> = (0..header.entries).map(|i| f.excess(i)).collect();
    // Two placements at Manhattan distance 2, the blank in each one's first region: tiles 1 and 2 on each
    // other's cells (far from the goal), and tile 1 one cell left of home and tile 2 one below (two moves).
    let (a, b) = (pattern.rank(&[2, 1, 3, 4]) * labels, pattern.rank(&[0, 5, 3, 4]) * labels);
    assert_ne!(excess[a as usize], excess[b as usize]);
    excess.swap(a as usize, b as usize);
    let payload = puzzle::pdb_file::encode(header.encoding, &excess).unwrap();
    let histogram = puzzle::pdb_file::histogram_of(header.board, &pattern, header.encoding, &payload, header.labels);
    assert_eq!(histogram, header.histogram.to_vec(), "the histogram stays");
    let bad = dir.join("bad.blank.pdb");
    write_atomic(&bad, &Header { histogram, ..header.clone() }, &payload).unwrap();
    let line = verify_fails(&["verify", s(&bad)]);
    assert!(line.contains("bad.blank.pdb") && line.contains("not a table of distances: placement "), "{line}");
}

#[test]
fn a_table_for_another_board_is_refused_and_rebuilt() {
    let dir = TempDir::new("board");
    let (small, _) = build_small(&dir);
    // A 2x3 table under the name a 3x3 table would have.
    let wrong = dir.join("3x3-1-2-3-4.pdb");
    std::fs::copy(&small, &wrong).unwrap();
    let line = verify_fails(&["verify", "--board", "3x3", s(&wrong)]);
    assert!(line.contains("3x3-1-2-3-4.pdb: table is for board 2x3, tiles [1, 2], expected board 3x3"), "{line}");

    let r = run(&["build", "--board", "3x3", "--partition", "4-4", "--out", s(&dir)]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stderr.contains("table is for board 2x3") && r.stderr.contains("rebuilding it"), "{}", r.stderr);
    assert_eq!(run(&["verify", "--board", "3x3", s(&wrong)]).code, 0);
}

/// A corrupt table is a failure of the file (exit 1), whichever part is damaged, for `info` and `verify` alike.
#[test]
fn corrupt_tables_exit_1_whatever_part_is_damaged() {
    let dir = TempDir::new("corrupt");
    let (good, _) = build_small(&dir);
    let bytes = std::fs::read(&good).unwrap();
    for (offset, message) in [(100, "header checksum mismatch"), (HEADER_LEN + 3, "payload checksum mismatch")] {
        let mut damaged = bytes.clone();
        damaged[offset] ^= 0x01;
        // Its right name, so that only the damage is wrong with it.
        let sub = dir.join(format!("at-{offset}"));
        std::fs::create_dir_all(&sub).unwrap();
        let path = sub.join("2x3-1-2.pdb");
        std::fs::write(&path, &damaged).unwrap();
        for cmd in ["info", "verify"] {
            let r = run(&[cmd, s(&path)]);
            assert_eq!(r.code, 1, "{cmd} byte {offset}: {} {}", r.stdout, r.stderr);
            assert!(format!("{}{}", r.stdout, r.stderr).contains(message), "{cmd}: {} {}", r.stdout, r.stderr);
        }
    }
}

/// The solver finds tables by name, so `verify` refuses a table whose name claims another pattern or board.
#[test]
fn misnamed_tables_fail_verification() {
    let dir = TempDir::new("misnamed");
    let (small, _) = build_small(&dir);
    let renamed = TempDir::new("misnamed-renamed");
    for (name, name_says) in [
        ("2x3-3-4-5.pdb", "board 2x3, tiles [3, 4, 5]"),
        ("4x4-1-2.pdb", "board 4x4, tiles [1, 2]"),
        ("tables.pdb", "nothing (not a BOARD-TILES.pdb name; this table's is 2x3-1-2.pdb)"),
    ] {
        let path = renamed.join(name);
        std::fs::copy(&small, &path).unwrap();
        let line = verify_fails(&["verify", s(&path)]);
        let expected =
            format!("{}: its file name says {name_says}, but its header says board 2x3, tiles [1, 2]", path.display());
        assert!(line.contains(&expected), "{line}");
        std::fs::remove_file(&path).unwrap();
    }
    assert_eq!(run(&["verify", s(&dir)]).code, 0, "correctly named tables pass");
    std::fs::remove_dir_all(&renamed).unwrap();
}

/// A killed build's temporary file is removed by the next build; one a live process is writing is kept.
#[test]
fn stale_temporaries_are_removed_and_live_ones_kept() {
    let dir = TempDir::new("stale");
    let mut child = Command::new("true").spawn().unwrap();
    let dead = child.id();
    child.wait().unwrap();
    let me = std::process::id();
    let stale = dir.join(format!(".2x3-1-2.pdb.{dead}.tmp"));
    std::fs::write(&stale, vec![0u8; 5000]).unwrap();
    // A live writer: this process, holding its file open as a building process does.
    let live = dir.join(format!(".2x3-3-4-5.pdb.{me}.tmp"));
    let _writing = std::fs::File::create(&live).unwrap();
    // This process's PID again, but no file open: the PID was reused by something that is not a builder.
    let reused = dir.join(format!(".4x4-1-2.pdb.{me}.tmp"));
    std::fs::write(&reused, b"").unwrap();
    let unrelated = dir.join(".notes.tmp");
    std::fs::write(&unrelated, b"").unwrap();

    let r = run(&["build", "--board", "2x3", "--partition", "2-3", "--out", s(&dir)]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(!stale.exists() && !reused.exists());
    assert!(live.exists() && unrelated.exists());
    for (path, pid) in [(&stale, dead), (&reused, me)] {
        let said = format!("removed {}, left by process {pid} (a killed build)", path.display());
        assert!(r.stderr.contains(&said), "{}", r.stderr);
    }
    assert_eq!(r.stderr.matches("removed").count(), 2, "{}", r.stderr);
}

/// Every numeric option is checked before any work, with a usage error (exit 2) saying what is accepted.
#[test]
fn numeric_options_are_validated() {
    let dir = TempDir::new("options");
    let build = |extra: &[&str]| {
        let mut args = vec!["build", "--board", "2x3", "--partition", "2-3", "-o", s(&dir)];
        args.extend_from_slice(extra);
        run(&args)
    };
    for threads in ["0", "257", "-1", "two", "1.5", ""] {
        let r = build(&[&format!("--threads={threads}")]);
        assert_eq!(r.code, 2, "-j {threads}: {}", r.stderr);
        assert!(r.stderr.contains("from 1 to 256"), "-j {threads}: {}", r.stderr);
    }
    for (size, message) in [
        ("0", "'0' is not a memory size"),
        ("lots", "'lots' is not a memory size"),
        ("-2G", "'-2G' is not a memory size"),
        ("200T", "memory size '200T' is more than 128 TiB"),
        ("99999999999999999999999", "more than 128 TiB"),
    ] {
        let r = build(&[&format!("--memory-limit={size}")]);
        assert_eq!(r.code, 2, "--memory-limit {size}: {}", r.stderr);
        assert!(r.stderr.contains(message), "--memory-limit {size}: {}", r.stderr);
    }
    assert!(std::fs::read_dir(&dir).unwrap().next().is_none(), "nothing was written");
    assert_eq!(build(&["-j", "256", "-q"]).code, 0);
}

/// What a new user sees first: grouped options, value names, defaults, and examples for every subcommand.
#[test]
fn help_is_grouped_described_and_has_examples() {
    let build = run(&["build", "--help"]);
    assert_eq!(build.code, 0);
    for part in [
        "Tables:",
        "Tuning:",
        "Output:",
        "--partition <PARTITION>",
        "--board <RxC>",
        "-j, --threads <N>",
        "--memory-limit <SIZE>",
        "-o, --out <DIR>",
        "-q, --quiet",
        "[default: 4x4]",
        "[default: pdbs]",
        "[default: all cores]",
    ] {
        assert!(build.stdout.contains(part), "{part} in {}", build.stdout);
    }
    for cmd in ["build", "info", "verify"] {
        let help = run(&[cmd, "--help"]).stdout;
        let examples = help.split_once("\nExamples:\n").map(|(_, e)| e).unwrap_or_default();
        assert!(examples.contains(&format!("  pdb-builder {cmd} ")), "{cmd}: {help}");
        assert!(help.contains("Input:") || cmd == "build", "{cmd}: {help}");
    }
    let info = run(&["info", "--help"]).stdout;
    assert!(info.contains("<PATH>...\n          Table files"), "the argument is described: {info}");
}

fn spawn(args: &[&str], stdout: Stdio, stderr: Stdio) -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_pdb-builder")).args(args).stdout(stdout).stderr(stderr).spawn().unwrap()
}

/// A log line that cannot be written (stderr on a full device or a closed pipe) never stops a build.
#[test]
fn a_failing_stderr_does_not_stop_a_build() {
    let dir = TempDir::new("stderr");
    let args = ["build", "--board", "2x3", "--partition", "2-3", "-o", s(&dir), "--force"];
    let full = spawn(&args, Stdio::null(), std::fs::File::create("/dev/full").unwrap().into());
    assert_eq!(full.wait_with_output().unwrap().status.code(), Some(0));
    let mut closed = spawn(&args, Stdio::null(), Stdio::piped());
    drop(closed.stderr.take());
    assert_eq!(closed.wait().unwrap().code(), Some(0));
    assert_eq!(run(&["verify", s(&dir)]).code, 0, "both tables were written");
}

/// `info ... | head -1`: the reader leaving early ends the command quietly; a full device is an error.
#[test]
fn stdout_closed_early_exits_quietly() {
    let dir = TempDir::new("stdout");
    let (table, _) = build_small(&dir);
    // Far more output than a pipe buffers, so the writer must notice the reader is gone.
    let args: Vec<&str> = std::iter::once("info").chain(std::iter::repeat_n(s(&table), 2000)).collect();
    let mut child = spawn(&args, Stdio::piped(), Stdio::piped());
    drop(child.stdout.take());
    let r = finish(child.wait_with_output().unwrap());
    assert_eq!((r.code, r.stderr.as_str()), (0, ""));

    let full = spawn(&args, std::fs::File::create("/dev/full").unwrap().into(), Stdio::piped());
    let r = finish(full.wait_with_output().unwrap());
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("cannot write to standard output"), "{}", r.stderr);
}

/// SIGTERM stops a build at once, whether it arrives during start-up or in the middle of the search: no
/// handler postpones it.
#[test]
fn sigterm_stops_a_build_at_any_stage() {
    use std::os::unix::process::ExitStatusExt;
    let dir = TempDir::new("sigterm");
    for delay_ms in [0, 300] {
        // One thread on the 4x4 5-5-5 tables: a couple of seconds of work, so the signal lands mid-build.
        let args = ["build", "--partition", "5-5-5", "-j", "1", "-q", "-o", s(&dir), "--force"];
        let child = spawn(&args, Stdio::null(), Stdio::null());
        std::thread::sleep(std::time::Duration::from_millis(delay_ms));
        let killed = Command::new("kill").args(["-TERM", &child.id().to_string()]).status().unwrap();
        assert!(killed.success());
        let status = child.wait_with_output().unwrap().status;
        assert_eq!(status.signal(), Some(15), "after {delay_ms} ms: {status:?}");
    }
}

/// Left out, the output folder is $STP_PDBS, the folder `solver` reads, so one variable serves both tools.
#[test]
fn the_output_folder_defaults_to_stp_pdbs() {
    let dir = TempDir::new("builder-env");
    let out = Command::new(env!("CARGO_BIN_EXE_pdb-builder"))
        .args(["build", "--board", "2x3", "--partition", "2-3"])
        .env("STP_PDBS", dir.as_os_str())
        .output()
        .unwrap();
    let r = finish(out);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(dir.join("2x3-1-2.pdb").is_file() && dir.join("2x3-3-4-5.pdb").is_file());
}
