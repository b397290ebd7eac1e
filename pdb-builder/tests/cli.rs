//! End-to-end tests of the `pdb-builder` binary on small boards: build, info, verify, and every bad input
//! and damaged file the issue lists, each giving one clear error and never a panic.

use puzzle::pdb_file::{write_atomic, Expect, Header, PdbFile, HEADER_LEN};
use std::path::{Path, PathBuf};
use std::process::Command;

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

fn run(args: &[&str]) -> Run {
    let out = Command::new(env!("CARGO_BIN_EXE_pdb-builder")).args(args).output().unwrap();
    let run = Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into(),
        stderr: String::from_utf8_lossy(&out.stderr).into(),
    };
    assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
    run
}

fn tempdir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("pdb-builder-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
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
    let dir = tempdir("build");
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
    std::fs::remove_dir_all(&dir).unwrap();
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
    let r = run(&["build", "--board", "5x5", "--partition", "7-8"]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("supported boards"), "{}", r.stderr);
}

#[test]
fn memory_limit_is_enforced_before_building() {
    let dir = tempdir("memory");
    let r = run(&["build", "--partition", "7-8", "--out", s(&dir), "--memory-limit", "1G"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("the 8-tile table 4x4-8-9-10-11-12-13-14-15.pdb needs 1.45 GiB"), "{}", r.stderr);
    assert!(r.stderr.contains("more than the limit of 1.00 GiB (--memory-limit)"), "{}", r.stderr);
    assert!(std::fs::read_dir(&dir).unwrap().next().is_none(), "nothing was written");
    let bad = run(&["build", "--partition", "7-8", "--memory-limit", "lots"]);
    assert_eq!(bad.code, 2);
    assert!(bad.stderr.contains("'lots' is not a memory size"), "{}", bad.stderr);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn unwritable_output_folder_is_reported() {
    let dir = tempdir("unwritable");
    let file = dir.join("a-file");
    std::fs::write(&file, b"x").unwrap();
    let out = file.join("pdbs");
    let r = run(&["build", "--board", "2x3", "--partition", "2-3", "--out", s(&out)]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stderr.contains(&format!("cannot write to output folder {}", out.display())), "{}", r.stderr);
    std::fs::remove_dir_all(&dir).unwrap();
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
    let dir = tempdir("damaged");
    let (_, good) = build_small(&dir);
    let bytes = std::fs::read(&good).unwrap();
    let bad = dir.join("bad.pdb");

    std::fs::write(&bad, &bytes[..bytes.len() - 1]).unwrap();
    let line = verify_fails(&["verify", s(&bad)]);
    assert!(line.contains("bad.pdb") && line.contains("truncated"), "{line}");
    // A folder with one bad file fails as a whole, naming it.
    let r = run(&["verify", s(&dir)]);
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("1 of 3 file(s) failed verification"), "{}", r.stderr);

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

    let info = run(&["info", s(&dir.join("missing.pdb"))]);
    assert_eq!(info.code, 1);
    assert!(info.stderr.contains("missing.pdb") && info.stderr.contains("No such file"), "{}", info.stderr);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_table_for_another_board_is_refused_and_rebuilt() {
    let dir = tempdir("board");
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
    std::fs::remove_dir_all(&dir).unwrap();
}
