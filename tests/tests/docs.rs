//! The project's documents point only at what the repository holds: every relative link of the Markdown files
//! at the top and under `docs/` names a file or folder that exists, so a moved or renamed file cannot leave a
//! dead link behind.

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The Markdown files at the top of the repository and anywhere under `docs/`.
fn documents() -> Vec<PathBuf> {
    fn walk(dir: &Path, deep: bool, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() && deep {
                walk(&path, deep, out);
            } else if path.extension().is_some_and(|e| e == "md") {
                out.push(path);
            }
        }
    }
    let mut found = Vec::new();
    walk(&root(), false, &mut found);
    walk(&root().join("docs"), true, &mut found);
    found
}

/// The targets of the document's inline links `[text](target)`, without their `#anchor`.
fn links(text: &str) -> Vec<&str> {
    text.split("](")
        .skip(1)
        .filter_map(|rest| rest.split([')', ' ']).next())
        .map(|target| target.split('#').next().unwrap())
        .filter(|target| !target.is_empty() && !target.contains("://") && !target.starts_with("mailto:"))
        .collect()
}

#[test]
fn every_relative_link_names_a_file_of_the_repository() {
    let documents = documents();
    assert!(documents.iter().any(|d| d.ends_with("README.md")), "{documents:?}");
    let mut dead = Vec::new();
    for document in &documents {
        let text = std::fs::read_to_string(document).unwrap();
        for target in links(&text) {
            if !document.parent().unwrap().join(target).exists() {
                dead.push(format!("{}: {target}", document.strip_prefix(root()).unwrap().display()));
            }
        }
    }
    assert!(dead.is_empty(), "links to nothing in the repository:\n{}", dead.join("\n"));
}

#[test]
fn links_are_read_as_written() {
    assert_eq!(links("see [a](x.md#top), [b](https://e.org) and [c](docs/y.md \"t\")."), ["x.md", "docs/y.md"]);
}
