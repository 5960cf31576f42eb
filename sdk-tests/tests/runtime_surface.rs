//! Generated code uses only the runtime surface `docs/runtime-surface.md` documents: every
//! `::oncegen_runtime::` item the checked-in crate names, and every `Request` method it calls (on the `request` its `request!` call makes).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace root")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Identifiers following `prefix` in `text` (e.g. `Request` after `::oncegen_runtime::`).
fn after(text: &str, prefix: &str) -> BTreeSet<String> {
    text.match_indices(prefix)
        .map(|(i, _)| {
            text[i + prefix.len()..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect::<String>()
        })
        .filter(|name| !name.is_empty())
        .collect()
}

#[test]
fn generated_code_uses_only_the_documented_runtime_surface() {
    let doc_path = repo().join("docs/runtime-surface.md");
    let doc = std::fs::read_to_string(&doc_path).expect("docs/runtime-surface.md");
    let mut files = Vec::new();
    rust_files(&repo().join("customer-cloud-sdk/src/generated"), &mut files);
    assert!(files.len() > 10, "generated sources not found");
    let mut used = BTreeSet::new();
    for file in &files {
        let text = std::fs::read_to_string(file).expect("source");
        used.extend(after(&text, "::oncegen_runtime::"));
        used.extend(after(&text, "request."));
    }
    assert!(
        used.contains("request") && used.contains("path_param"),
        "{used:?}"
    );
    let missing: Vec<&String> = used
        .iter()
        .filter(|name| !doc.contains(name.as_str()))
        .collect();
    assert!(
        missing.is_empty(),
        "generated code uses runtime items docs/runtime-surface.md does not list: {missing:?}"
    );
}
