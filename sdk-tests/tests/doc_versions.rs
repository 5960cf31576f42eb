//! Dependency lines in the docs name the current version of the workspace's crates: a line such
//! as `customer-cloud-sdk = "0.8"` in `README.md` (or any `.md` of the repository) must select
//! the crate's version in its `Cargo.toml`, as cargo's caret requirement reads it.

use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Each workspace crate's name and version, from `cargo metadata`.
fn versions(repo: &Path) -> BTreeMap<String, String> {
    let output = Command::new(env!("CARGO"))
        .args([
            "metadata",
            "--no-deps",
            "--offline",
            "--format-version",
            "1",
        ])
        .arg("--manifest-path")
        .arg(repo.join("Cargo.toml"))
        .output()
        .expect("cargo metadata runs");
    assert!(output.status.success(), "cargo metadata failed");
    let metadata: Value = serde_json::from_slice(&output.stdout).expect("metadata is JSON");
    let packages = metadata["packages"].as_array().expect("packages");
    let pair = |p: &Value| {
        (
            p["name"].as_str().map(str::to_owned),
            p["version"].as_str().map(str::to_owned),
        )
    };
    packages
        .iter()
        .filter_map(|p| match pair(p) {
            (Some(name), Some(version)) => Some((name, version)),
            _ => None,
        })
        .collect()
}

/// Whether the caret requirement `wanted` ("0.8", "0.8.1", "1") selects `version`.
fn selects(wanted: &str, version: &str) -> bool {
    let parts = |v: &str| -> Vec<u64> { v.split('.').map(|p| p.parse().unwrap_or(0)).collect() };
    let (w, v) = (parts(wanted), parts(version));
    let significant = w.iter().position(|p| *p != 0).unwrap_or(w.len() - 1);
    let same_leading = w[..=significant] == v[..=significant.min(v.len() - 1)];
    let not_newer = w
        .iter()
        .zip(&v)
        .find(|(a, b)| a != b)
        .is_none_or(|(a, b)| a < b);
    same_leading && not_newer
}

/// The versions `text` asks of `name`: `name = "X"` and `name = { version = "X" … }`.
fn requested<'t>(text: &'t str, name: &str) -> Vec<&'t str> {
    let mut found = Vec::new();
    for line in text.lines() {
        let mut rest = line;
        while let Some(at) = rest.find(&format!("{name} = ")) {
            let before = rest[..at].chars().last();
            rest = &rest[at + name.len() + 3..];
            if before.is_some_and(|c| c.is_alphanumeric() || c == '-' || c == '_') {
                continue;
            }
            let value = rest
                .trim_start_matches("{ ")
                .trim_start_matches("version = ");
            if let Some(quoted) = value.strip_prefix('"') {
                found.extend(quoted.split('"').next());
            }
        }
    }
    found
}

/// Every `.md` file of the repository; `target/` and hidden folders left out.
fn markdown_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("a folder") {
        let path = entry.expect("an entry").path();
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        if name.starts_with('.') || name == "target" {
            continue;
        }
        if path.is_dir() {
            markdown_files(&path, out);
        } else if name.ends_with(".md") && !name.starts_with("CHANGELOG") {
            out.push(path);
        }
    }
}

#[test]
fn dependency_lines_in_the_docs_name_current_versions() {
    let repo = repo();
    let versions = versions(&repo);
    let mut files = Vec::new();
    markdown_files(&repo, &mut files);
    let (mut checked, mut stale) = (0, Vec::new());
    for file in files {
        let text = std::fs::read_to_string(&file).expect("a markdown file");
        for (name, version) in &versions {
            for wanted in requested(&text, name) {
                checked += 1;
                if !selects(wanted, version) {
                    let shown = file.strip_prefix(&repo).unwrap_or(&file).display();
                    stale.push(format!(
                        "{shown}: `{name} = \"{wanted}\"` but {name} is {version}"
                    ));
                }
            }
        }
    }
    assert!(
        checked > 0,
        "no dependency line found: the README names none any more?"
    );
    assert!(stale.is_empty(), "{}", stale.join("\n"));
}

#[test]
fn requirements_are_read_as_cargo_reads_them() {
    assert!(selects("0.8", "0.8.0") && selects("0.8", "0.8.3") && selects("0.8.1", "0.8.2"));
    assert!(!selects("0.4", "0.8.0") && !selects("0.8.3", "0.8.2") && !selects("1", "2.0.0"));
    assert!(selects("1", "1.4.0") && selects("0.0.3", "0.0.3") && !selects("0.0.3", "0.0.4"));
    let text = r#"a `x-sdk = "0.1"`, `sdk = { version = "0.2", features = [] }`, `my-sdk = "9"`"#;
    assert_eq!(requested(text, "sdk"), ["0.2"]);
}
