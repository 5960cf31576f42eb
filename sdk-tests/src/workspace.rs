//! The repository as the structure tests read it: its root, its packages (`cargo metadata`)
//! and its files.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The repository's root.
pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .canonicalize()
        .expect("the repository")
}

/// Every workspace package as `cargo metadata --no-deps` describes it.
pub fn packages() -> Vec<Value> {
    let output = Command::new(env!("CARGO"))
        .args([
            "metadata",
            "--no-deps",
            "--offline",
            "--format-version",
            "1",
        ])
        .arg("--manifest-path")
        .arg(repo().join("Cargo.toml"))
        .output()
        .expect("cargo metadata runs");
    assert!(
        output.status.success(),
        "cargo metadata: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let mut metadata: Value = serde_json::from_slice(&output.stdout).expect("metadata is JSON");
    match metadata["packages"].take() {
        Value::Array(packages) => packages,
        other => panic!("cargo metadata lists no packages: {other}"),
    }
}

/// Every file under `dir` whose name `keep` accepts, sorted; `target/` and hidden folders
/// left out.
pub fn files(dir: &Path, keep: &dyn Fn(&str) -> bool) -> Vec<PathBuf> {
    let mut found = Vec::new();
    walk(dir, keep, &mut found);
    found.sort();
    found
}

fn walk(dir: &Path, keep: &dyn Fn(&str) -> bool, found: &mut Vec<PathBuf>) {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for entry in entries {
        let path = entry.expect("a folder entry").path();
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        if name.starts_with('.') || name == "target" {
            continue;
        }
        if path.is_dir() {
            walk(&path, keep, found);
        } else if keep(name) {
            found.push(path);
        }
    }
}
