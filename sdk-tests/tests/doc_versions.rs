//! Dependency lines in the docs name the current version of the workspace's crates: a line such
//! as `customer-cloud-sdk = "0.8"` in `README.md` (or any `.md` of the repository) must select
//! the crate's version in its `Cargo.toml`, as cargo's caret requirement reads it.

use sdk_tests::workspace;
use serde_json::Value;
use std::collections::BTreeMap;

/// Each workspace crate's name and version, from `cargo metadata`.
fn versions() -> BTreeMap<String, String> {
    let pair = |p: &Value| {
        Some((
            p["name"].as_str()?.to_owned(),
            p["version"].as_str()?.to_owned(),
        ))
    };
    workspace::packages().iter().filter_map(pair).collect()
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

#[test]
fn dependency_lines_in_the_docs_name_current_versions() {
    let repo = workspace::repo();
    let versions = versions();
    let markdown = |name: &str| name.ends_with(".md") && !name.starts_with("CHANGELOG");
    let files = workspace::files(&repo, &markdown);
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
