//! A panic in a command is a bug, and ends it with one line saying so and the failure exit code, not a
//! backtrace prompt and code 101. The test runs itself again as the command: the child's [`cli_common::main`]
//! panics, and the parent reads its stderr and exit code.

use std::process::{Command, ExitCode};

/// Set in the child: run the panicking command instead of checking one.
const CHILD: &str = "STP_PANIC_TEST_CHILD";

#[test]
fn a_panic_is_one_line_and_the_failure_code() {
    if std::env::var_os(CHILD).is_some() {
        let code = cli_common::main("tool", || -> anyhow::Result<ExitCode> {
            let empty: Vec<u32> = Vec::new();
            Ok(ExitCode::from(empty.iter().copied().max().expect("a non-empty list") as u8))
        });
        // The code `main` gives back, as the child's exit status: the parent checks it.
        std::process::exit(if code == ExitCode::from(cli_common::EXIT_FAILURE) { 1 } else { 99 });
    }
    let o = Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "a_panic_is_one_line_and_the_failure_code", "--nocapture", "--test-threads", "1"])
        .env(CHILD, "1")
        .env_remove("RUST_BACKTRACE")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(cli_common::EXIT_FAILURE.into()), "{stderr}");
    let lines: Vec<&str> = stderr.lines().filter(|l| l.contains("panicked")).collect();
    assert_eq!(lines.len(), 1, "{stderr}");
    assert!(lines[0].starts_with("tool: internal error (a bug; please report it): panicked at "), "{stderr}");
    assert!(lines[0].contains("cli-common/tests/panic.rs") && lines[0].ends_with("a non-empty list"), "{stderr}");
    assert!(!stderr.contains("RUST_BACKTRACE"), "no backtrace prompt: {stderr}");
}
