//! Sizes of documents and generated crates: operations and lines of Rust.

use std::path::Path;

const METHODS: [&str; 8] = [
    "get", "put", "post", "delete", "options", "head", "patch", "trace",
];

/// Operations (path × method) of the OpenAPI document at `spec` (JSON).
pub fn operations(spec: &Path) -> usize {
    let text = std::fs::read(spec).expect("read spec");
    let doc: serde_json::Value = serde_json::from_slice(&text).expect("JSON spec");
    doc["paths"]
        .as_object()
        .map(|paths| {
            paths
                .values()
                .filter_map(|item| item.as_object())
                .flat_map(|item| item.keys())
                .filter(|key| METHODS.contains(&key.as_str()))
                .count()
        })
        .unwrap_or(0)
}

/// Lines and files of the `.rs` files under `dir`, recursively.
pub fn rust_lines(dir: &Path) -> (usize, usize) {
    let (mut lines, mut files) = (0, 0);
    let mut stack = vec![dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                files += 1;
                lines += std::fs::read_to_string(&path)
                    .map(|s| s.lines().count())
                    .unwrap_or(0);
            }
        }
    }
    (lines, files)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_the_operations_of_the_compared_document() {
        let nexus = crate::repo_root().join("sdk-tests/realspecs/nexus.json");
        assert_eq!(operations(&nexus), 193);
    }
}
