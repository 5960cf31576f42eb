//! Robustness against public OpenAPI documents written by others (`/work/shared/realspecs`,
//! or `$REALSPECS_DIR`): each one generates a crate, or fails with a located error; none panics.
//!
//! `realspecs_generate` records the outcome of every document in an insta snapshot (operations,
//! types, and each operation left out with its pointer and reason). The slow part,
//! `realspecs_cargo_check`, writes every crate under `target/realspecs/crates/` and runs
//! `cargo check` on each with the shared `CARGO_TARGET_DIR=target/realspecs`, so dependencies
//! build once; it is `#[ignore]`d by default and CI runs it with
//! `cargo test -p sdk-tests --test realspecs -- --include-ignored`.

use sdk_generator::emit::{Layout, Options};
use sdk_generator::write::{Mode, ensure_files};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn specs_dir() -> PathBuf {
    std::env::var_os("REALSPECS_DIR")
        .map_or_else(|| PathBuf::from("/work/shared/realspecs"), PathBuf::from)
}

/// The documents, sorted; the repository fixtures are checked the same way.
fn documents() -> Vec<PathBuf> {
    let mut docs: Vec<PathBuf> = std::fs::read_dir(specs_dir())
        .map(|rd| rd.filter_map(|e| e.ok()).map(|e| e.path()).collect())
        .unwrap_or_default();
    docs.retain(|p| {
        matches!(
            p.extension().and_then(|e| e.to_str()),
            Some("json" | "yaml" | "yml")
        )
    });
    docs.sort();
    docs
}

fn crate_name(path: &Path) -> String {
    let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("spec");
    format!(
        "realspec-{}",
        stem.to_ascii_lowercase()
            .replace(|c: char| !c.is_ascii_alphanumeric(), "-")
    )
}

fn options(path: &Path) -> Options {
    Options {
        crate_name: crate_name(path),
        spec_label: path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("spec")
            .to_owned(),
        layout: Layout::Standalone {
            runtime_path: workspace()
                .join("runtime")
                .canonicalize()
                .unwrap_or_else(|_| workspace().join("runtime")),
        },
        crate_version: None,
        manifest: Default::default(),
    }
}

/// Generates one document, catching panics so that a panic is recorded as a failure.
fn outcome(path: &Path) -> String {
    let opts = options(path);
    let result = std::panic::catch_unwind(|| sdk_generator::generate(path, &opts));
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("?");
    match result {
        Err(_) => format!("{name}: PANIC"),
        Ok(Err(e)) => format!("{name}: error: {e}"),
        Ok(Ok((api, files))) => {
            let mut line = format!(
                "{name}: generated: {} operations, {} types, {} files, {} skipped",
                api.operations.len(),
                api.types.len(),
                files.len(),
                api.skipped.len()
            );
            for s in &api.skipped {
                line.push_str(&format!("\n    skipped {}: {}", s.pointer, s.reason));
            }
            line
        }
    }
}

#[test]
fn realspecs_generate() {
    let docs = documents();
    if docs.is_empty() {
        eprintln!("no documents in {}; skipping", specs_dir().display());
        return;
    }
    let table: Vec<String> = docs.iter().map(|p| outcome(p)).collect();
    let table = table.join("\n");
    assert!(!table.contains("PANIC"), "{table}");
    insta::assert_snapshot!("realspecs_outcomes", table);
}

#[test]
#[ignore = "slow: cargo check of every generated crate; CI runs it with --include-ignored"]
fn realspecs_cargo_check() {
    let target = workspace().join("target/realspecs");
    let mut docs = documents();
    docs.extend(
        ["shapes.yaml", "legacy30.json"].map(|f| workspace().join("tests/fixtures").join(f)),
    );
    let mut failures = Vec::new();
    let started = Instant::now();
    for path in &docs {
        let Ok((_, files)) = sdk_generator::generate(path, &options(path)) else {
            continue; // recorded by `realspecs_generate`
        };
        let dir = target.join("crates").join(crate_name(path));
        ensure_files(&dir, &files, Path::new("src/generated"), Mode::Write).expect("crate written");
        std::fs::copy(workspace().join("Cargo.lock"), dir.join("Cargo.lock")).expect("lock copied");
        let one = Instant::now();
        let output = Command::new(env!("CARGO"))
            .args(["check", "--quiet", "--all-features"])
            .current_dir(&dir)
            .env("CARGO_TARGET_DIR", &target)
            .output()
            .expect("cargo runs");
        eprintln!("{}: cargo check {:.1?}", crate_name(path), one.elapsed());
        if !output.status.success() {
            failures.push(format!(
                "{}:\n{}",
                dir.display(),
                String::from_utf8_lossy(&output.stderr)
            ));
        }
    }
    eprintln!(
        "realspecs cargo check: {} crates in {:.1?}",
        docs.len(),
        started.elapsed()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
