//! Every crate of the workspace declares what the workspace promises: the toolchain it needs
//! (`rust-version`, which cargo enforces), the licence the LICENSE file grants, and that it is not published
//! to a registry. A crate added without them fails here.

fn read(path: &str) -> String {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    std::fs::read_to_string(format!("{root}/{path}")).unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[test]
fn every_crate_takes_the_workspace_toolchain_and_licence_and_is_unpublished() {
    let root = read("Cargo.toml");
    let toolchain = root
        .lines()
        .find_map(|l| l.strip_prefix("rust-version = \""))
        .expect("[workspace.package] has no rust-version");
    let toolchain = toolchain.trim_end_matches('"');
    // The README's install section names the same toolchain, so the two cannot drift apart.
    assert!(
        read("README.md").contains(&format!("toolchain {toolchain} or later")),
        "README.md names another toolchain than {toolchain}"
    );
    assert!(root.contains("license = \"MIT\""), "the workspace's licence is MIT");
    assert!(read("LICENSE").starts_with("MIT License"), "LICENSE is the MIT licence");
    let members = root.split("members = [").nth(1).unwrap().split(']').next().unwrap();
    let members: Vec<&str> = members.split(',').map(|m| m.trim().trim_matches('"')).filter(|m| !m.is_empty()).collect();
    assert!(members.len() > 5, "{members:?}");
    for member in members {
        let manifest = read(&format!("{member}/Cargo.toml"));
        let package = manifest.split("\n[").next().unwrap();
        for line in ["rust-version.workspace = true", "license.workspace = true", "publish = false"] {
            assert!(package.lines().any(|l| l == line), "{member}/Cargo.toml: its [package] lacks `{line}`");
        }
    }
}

#[test]
fn every_integration_test_file_is_in_its_crates_one_test_binary() {
    // A crate with `autotests = false` builds its integration tests as one binary (tests/main.rs): a test file
    // not named there as a module would never be compiled, so its tests would pass by not running.
    let root = read("Cargo.toml");
    let members = root.split("members = [").nth(1).unwrap().split(']').next().unwrap();
    let mut merged = 0;
    for member in members.split(',').map(|m| m.trim().trim_matches('"')).filter(|m| !m.is_empty()) {
        let manifest = read(&format!("{member}/Cargo.toml"));
        if !manifest.lines().any(|l| l == "autotests = false") {
            continue;
        }
        merged += 1;
        assert!(manifest.contains("path = \"tests/main.rs\""), "{member}: autotests off but no tests/main.rs target");
        let dir = format!("{}/../{member}/tests", env!("CARGO_MANIFEST_DIR"));
        let main = read(&format!("{member}/tests/main.rs"));
        for entry in std::fs::read_dir(&dir).unwrap() {
            let name = entry.unwrap().file_name().into_string().unwrap();
            let Some(module) = name.strip_suffix(".rs").filter(|m| *m != "main") else { continue };
            assert!(
                main.lines().any(|l| l == format!("mod {module};")),
                "{member}/tests/{name} is not a module of tests/main.rs"
            );
        }
    }
    assert!(merged >= 5, "only {merged} crates build their integration tests as one binary");
}
