//! `ARCHITECTURE.md` stays short and true: at most 250 lines, every repository path it names
//! exists, and every test an invariant names is a function of the test file named before it.

use std::path::{Path, PathBuf};

/// The most lines the map may have (rust-analyzer's is about this size).
const MAX_LINES: usize = 250;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The backticked spans of `text`, in order.
fn code_spans(text: &str) -> Vec<&str> {
    text.split('`').skip(1).step_by(2).collect()
}

/// Whether a span names a file of the repository by its path from the root (its first folder
/// is one of the repository's; `read/mod.rs` is a path within a crate).
fn is_repo_path(repo: &Path, span: &str) -> bool {
    let extensions = [".rs", ".md", ".yaml", ".toml", ".json"];
    let first = span.split('/').next().unwrap_or_default();
    span.contains('/')
        && !span.contains(' ')
        && extensions.iter().any(|e| span.ends_with(e))
        && repo.join(first).is_dir()
        && first != "src"
}

/// Whether a span is a test's name (snake case with at least two underscores).
fn is_test_name(span: &str) -> bool {
    span.matches('_').count() >= 2
        && span
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

/// The text of a test file and of the module folder beside it (`crash.rs` and `crash/`).
fn test_sources(file: &Path) -> String {
    let mut text = std::fs::read_to_string(file).unwrap_or_default();
    let folder = file.with_extension("");
    if let Ok(entries) = std::fs::read_dir(&folder) {
        for entry in entries.flatten() {
            text.push_str(&std::fs::read_to_string(entry.path()).unwrap_or_default());
        }
    }
    text
}

/// The problems of one paragraph: missing paths, and named tests its files do not define.
fn paragraph_problems(repo: &Path, paragraph: &str) -> Vec<String> {
    let mut problems = Vec::new();
    let mut file: Option<PathBuf> = None;
    for span in code_spans(paragraph) {
        if is_repo_path(repo, span) {
            let path = repo.join(span);
            if !path.exists() {
                problems.push(format!("`{span}` does not exist"));
            }
            file = Some(path).filter(|_| span.ends_with(".rs"));
        } else if let (true, Some(file)) = (is_test_name(span), &file) {
            let defines = test_sources(file).contains(&format!("fn {span}("));
            if !defines && paragraph.contains("**Invariant:**") {
                problems.push(format!("`{span}` is no function of {}", file.display()));
            }
        }
    }
    problems
}

#[test]
fn the_architecture_map_is_short_and_names_what_exists() {
    let repo = repo();
    let text = std::fs::read_to_string(repo.join("ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    let lines = text.lines().count();
    assert!(
        lines <= MAX_LINES,
        "ARCHITECTURE.md has {lines} lines (at most {MAX_LINES})"
    );
    let paragraphs = text.split("\n\n");
    let problems: Vec<String> = paragraphs
        .flat_map(|p| paragraph_problems(&repo, p))
        .collect();
    let invariants = text.matches("**Invariant:**").count();
    assert!(invariants >= 20, "only {invariants} invariants found");
    assert!(
        problems.is_empty(),
        "ARCHITECTURE.md:\n{}",
        problems.join("\n")
    );
}

#[test]
fn a_stale_name_is_found() {
    let repo = repo();
    let paragraph = "**Invariant:** x (`sdk-tests/tests/module_graph.rs`, \
                     `no_such_test_of_the_graph`; `sdk-tests/tests/gone.rs`).";
    let problems = paragraph_problems(&repo, paragraph);
    assert_eq!(problems.len(), 2, "{problems:?}");
    let held = "**Invariant:** x (`sdk-tests/tests/module_graph.rs`, \
                `no_crate_of_the_workspace_has_a_module_cycle`).";
    assert!(paragraph_problems(&repo, held).is_empty());
}
