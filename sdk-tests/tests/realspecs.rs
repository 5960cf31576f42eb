//! The generator on public OpenAPI documents written by others, vendored under
//! `sdk-tests/realspecs/`. Its `SOURCES.md` gives origin, commit and licence of each document and
//! is the manifest: a listed document that is missing, or a document that is not listed, fails.
//!
//! - `corpus_is_complete_and_covers_what_it_was_chosen_for`: the manifest and the coverage the
//!   documents were chosen for (multipart bodies, structured query parameters, webhooks, size,
//!   both formats, both versions).
//! - `realspecs_generate`: one insta snapshot per document: what the document holds, and what
//!   the generator made of it (operations generated, each skipped operation with its pointer
//!   and reason, types). A panic fails; an error fails unless listed in [`KNOWN_FAILURES`].
//! - `realspecs_cargo_check` (slow, `#[ignore]`d; CI runs it with
//!   `cargo test -p sdk-tests --test realspecs -- --include-ignored`): writes every crate under
//!   `target/realspecs/crates/` and checks them all with one `cargo check --keep-going` of a
//!   harness crate that depends on each, so dependencies build once and crates check in
//!   parallel. Pass or fail and the warning count of each crate are pinned in a snapshot.

use sdk_generator::emit::{GeneratedFile, Layout, Options};
use sdk_generator::ir::Api;
use sdk_generator::read::Node;
use sdk_generator::write::{Mode, ensure_files};
use serde_json::Value;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

/// A document the generator cannot handle yet, in a file other sessions own. The tests require
/// it to fail at `stage`: once fixed, its entry must be removed.
struct KnownFailure {
    document: &'static str,
    stage: Stage,
    reason: &'static str,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stage {
    /// `sdk_generator::generate` returns an error.
    Generate,
    /// The generated crate does not pass `cargo check`.
    Check,
}

const KNOWN_FAILURES: &[KnownFailure] = &[];

fn known_failure(document: &str, stage: Stage) -> Option<&'static KnownFailure> {
    KNOWN_FAILURES
        .iter()
        .find(|k| k.document == document && k.stage == stage)
}

// ---------------------------------------------------------------------------------------------
// The corpus

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("realspecs")
}

fn is_document(name: &str) -> bool {
    [".json", ".yaml", ".yml"].iter().any(|e| name.ends_with(e))
}

/// The documents listed in `SOURCES.md` (first column of its table), sorted.
fn listed_documents() -> Vec<String> {
    let manifest = corpus_dir().join("SOURCES.md");
    let text = std::fs::read_to_string(&manifest)
        .unwrap_or_else(|e| panic!("the corpus manifest {} is missing: {e}", manifest.display()));
    let mut files: Vec<String> = text
        .lines()
        .filter_map(|line| line.strip_prefix('|')?.split('|').next())
        .map(str::trim)
        .filter(|cell| is_document(cell))
        .map(str::to_owned)
        .collect();
    files.sort();
    files
}

/// The text of a corpus document; a missing document fails.
fn read_document(name: &str) -> String {
    let path = corpus_dir().join(name);
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("corpus document {} is missing: {e}", path.display()))
}

// ---------------------------------------------------------------------------------------------
// What a document holds

const METHODS: [&str; 8] = [
    "get", "put", "post", "delete", "options", "head", "patch", "trace",
];

/// Counts of the constructs the corpus was chosen for.
#[derive(Debug, Default)]
struct Facts {
    /// The declared `openapi` version.
    version: String,
    format: &'static str,
    operations: usize,
    webhooks: usize,
    /// Operations whose request body can be `multipart/form-data`.
    multipart_bodies: usize,
    /// Query parameters with `style: deepObject`.
    deep_object_params: usize,
    /// Query parameters whose schema is an object.
    object_query_params: usize,
}

fn facts(name: &str, text: &str) -> Facts {
    let doc = sdk_generator::read::parse(text, name)
        .unwrap_or_else(|e| panic!("{name} does not parse: {e}"));
    let root = &doc.root;
    let resolve = resolver(root);
    let node = doc.node();
    let mut facts = Facts {
        version: doc.source_version.clone(),
        format: if text.trim_start().starts_with('{') {
            "JSON"
        } else {
            "YAML"
        },
        webhooks: node.get("webhooks").map_or(0, |w| w.entries().len()),
        ..Facts::default()
    };
    for (_, item) in node.get("paths").map(|p| p.entries()).unwrap_or_default() {
        let Some(item) = resolve(item) else { continue };
        let shared = item
            .get("parameters")
            .map(|p| p.items())
            .unwrap_or_default();
        for op in METHODS.iter().filter_map(|m| item.get(m)) {
            facts.operations += 1;
            let multipart = op
                .get("requestBody")
                .and_then(resolve)
                .and_then(|b| b.get("content"))
                .is_some_and(|c| c.get("multipart/form-data").is_some());
            facts.multipart_bodies += usize::from(multipart);
            let own = op.get("parameters").map(|p| p.items()).unwrap_or_default();
            for param in shared.iter().chain(&own).cloned().filter_map(resolve) {
                if param.str("in") != Some("query") {
                    continue;
                }
                facts.deep_object_params += usize::from(param.str("style") == Some("deepObject"));
                let object = param.get("schema").and_then(resolve).is_some_and(|s| {
                    s.str("type") == Some("object") || s.get("properties").is_some()
                });
                facts.object_query_params += usize::from(object);
            }
        }
    }
    facts
}

/// Follows `$ref`s to the node they name (`None` when dangling).
fn resolver<'a>(root: &'a Value) -> impl Fn(Node<'a>) -> Option<Node<'a>> + Copy {
    move |n| n.resolve(root).ok()
}

#[test]
fn corpus_is_complete_and_covers_what_it_was_chosen_for() {
    let listed = listed_documents();
    let mut present: Vec<String> = std::fs::read_dir(corpus_dir())
        .unwrap_or_else(|e| panic!("the corpus {} is missing: {e}", corpus_dir().display()))
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| is_document(n))
        .collect();
    present.sort();
    assert_eq!(
        present, listed,
        "documents on disk vs. listed in SOURCES.md"
    );
    let all: Vec<(String, Facts)> = listed
        .iter()
        .map(|n| (n.clone(), facts(n, &read_document(n))))
        .collect();
    let count = |f: &dyn Fn(&Facts) -> bool| all.iter().filter(|(_, x)| f(x)).count();
    let coverage = [
        ("documents", all.len(), 15),
        (
            "with multipart bodies",
            count(&|f| f.multipart_bodies > 0),
            3,
        ),
        (
            "with deepObject or object query parameters",
            count(&|f| f.deep_object_params + f.object_query_params > 0),
            2,
        ),
        (
            "OpenAPI 3.1 with webhooks",
            count(&|f| f.version.starts_with("3.1") && f.webhooks > 0),
            2,
        ),
        ("above 500 operations", count(&|f| f.operations > 500), 2),
        ("JSON", count(&|f| f.format == "JSON"), 1),
        ("YAML", count(&|f| f.format == "YAML"), 1),
        ("OpenAPI 3.0", count(&|f| f.version.starts_with("3.0")), 1),
        ("OpenAPI 3.1", count(&|f| f.version.starts_with("3.1")), 1),
    ];
    for (what, have, need) in coverage {
        assert!(have >= need, "documents {what}: {have}, need {need}");
    }
}

// ---------------------------------------------------------------------------------------------
// Generation

fn crate_name(document: &str) -> String {
    let stem = document.rsplit_once('.').map_or(document, |(s, _)| s);
    format!(
        "realspec-{}",
        stem.to_ascii_lowercase()
            .replace(|c: char| !c.is_ascii_alphanumeric(), "-")
    )
}

fn options(document: &str) -> Options {
    let runtime = workspace().join("sdk-runtime");
    Options {
        crate_name: crate_name(document),
        spec_label: document.to_owned(),
        layout: Layout::Standalone {
            runtime_path: runtime.canonicalize().unwrap_or(runtime),
        },
        crate_version: None,
        manifest: Default::default(),
    }
}

/// The error of a generation that panicked.
const PANICKED: &str = "the generator panicked";

/// Generates one document; a panic is an `Err` too ([`PANICKED`]).
fn generate(document: &str, text: &str) -> Result<(Api, Vec<GeneratedFile>), String> {
    let opts = options(document);
    std::panic::catch_unwind(|| sdk_generator::generate_str(text, document, &opts))
        .map_err(|_| PANICKED.to_owned())?
        .map_err(|e| e.to_string())
}

/// The snapshot text of one document: what it holds, and what was generated from it.
fn report(
    document: &str,
    facts: &Facts,
    generated: &Result<(Api, Vec<GeneratedFile>), String>,
) -> String {
    let mut out = format!(
        "document: OpenAPI {} ({}), {} operations, {} webhooks, {} multipart bodies, \
         {} deepObject query parameters, {} object query parameters\n",
        facts.version,
        facts.format,
        facts.operations,
        facts.webhooks,
        facts.multipart_bodies,
        facts.deep_object_params,
        facts.object_query_params
    );
    match generated {
        Err(e) => {
            let known = known_failure(document, Stage::Generate)
                .map(|k| format!(" (known failure: {})", k.reason))
                .unwrap_or_default();
            let _ = writeln!(out, "generation failed{known}: {e}");
        }
        Ok((api, files)) => {
            let _ = writeln!(
                out,
                "generated: {} operations, {} types, {} files; skipped: {} operations",
                api.operations.len(),
                api.types.len(),
                files.len(),
                api.skipped.len()
            );
            for s in &api.skipped {
                let _ = writeln!(out, "  skipped {}: {}", s.pointer, s.reason);
            }
        }
    }
    out
}

#[test]
fn realspecs_generate() {
    let mut failures = Vec::new();
    let mut reports = Vec::new();
    for document in listed_documents() {
        let text = read_document(&document);
        let facts = facts(&document, &text);
        let generated = generate(&document, &text);
        let known = known_failure(&document, Stage::Generate);
        match (&generated, known) {
            (Err(e), _) if e == PANICKED => failures.push(format!("{document}: {e}")),
            (Err(e), None) => failures.push(format!("{document}: {e}")),
            (Ok(_), Some(_)) => failures.push(format!(
                "{document} generates now: remove it from KNOWN_FAILURES"
            )),
            (Ok((api, _)), None)
                if api.operations.len() + api.skipped.len() != facts.operations =>
            {
                failures.push(format!(
                    "{document}: {} operations in the document, {} generated + {} skipped",
                    facts.operations,
                    api.operations.len(),
                    api.skipped.len()
                ));
            }
            _ => {}
        }
        reports.push((document.clone(), report(&document, &facts, &generated)));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    for (document, report) in reports {
        insta::assert_snapshot!(format!("generate__{document}"), report);
    }
}

// ---------------------------------------------------------------------------------------------
// cargo check

/// The outcome of checking one crate.
#[derive(Debug, Default)]
struct Checked {
    errors: Vec<String>,
    warnings: usize,
}

/// Writes the harness crate that depends on every crate in `crates` (directory names under
/// `crates_dir`).
fn write_harness(harness: &Path, crates_dir: &Path, crates: &[String]) {
    let mut manifest = String::from(
        "[package]\nname = \"realspecs-harness\"\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n[workspace]\n\n[dependencies]\n",
    );
    for name in crates {
        let path = crates_dir.join(name);
        let _ = writeln!(
            manifest,
            "{name} = {{ path = {:?} }}",
            path.display().to_string()
        );
    }
    std::fs::create_dir_all(harness.join("src")).expect("harness directory");
    std::fs::write(harness.join("Cargo.toml"), manifest).expect("harness manifest");
    std::fs::write(
        harness.join("src/lib.rs"),
        "//! Depends on every generated corpus crate, so that one `cargo check` checks them all.\n",
    )
    .expect("harness lib.rs");
    std::fs::copy(workspace().join("Cargo.lock"), harness.join("Cargo.lock")).expect("lock copied");
}

/// Runs `cargo check --keep-going` on the harness and sorts its diagnostics by the directory of
/// the crate they are in.
fn check_harness(harness: &Path, target: &Path) -> BTreeMap<String, Checked> {
    let output = Command::new(env!("CARGO"))
        .args(["check", "--keep-going", "--message-format=json"])
        .current_dir(harness)
        .env("CARGO_TARGET_DIR", target)
        .output()
        .expect("cargo runs");
    let mut checked: BTreeMap<String, Checked> = BTreeMap::new();
    for line in String::from_utf8_lossy(&output.stdout).lines() {
        let Ok(msg) = serde_json::from_str::<Value>(line) else {
            continue;
        };
        if msg["reason"] != "compiler-message" {
            continue;
        }
        let Some(dir) = msg["manifest_path"]
            .as_str()
            .and_then(|p| Path::new(p).parent()?.file_name()?.to_str())
        else {
            continue;
        };
        let diagnostic = &msg["message"];
        // Summaries ("2 warnings emitted", "aborting due to ...") carry no span.
        if diagnostic["spans"].as_array().is_none_or(Vec::is_empty) {
            continue;
        }
        let entry = checked.entry(dir.to_owned()).or_default();
        match diagnostic["level"].as_str() {
            Some("error") => entry
                .errors
                .push(diagnostic["rendered"].as_str().unwrap_or("?").to_owned()),
            Some("warning") => entry.warnings += 1,
            _ => {}
        }
    }
    if !output.status.success() && checked.values().all(|c| c.errors.is_empty()) {
        panic!(
            "cargo check failed without a compiler error:\n{}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
    checked
}

#[test]
#[ignore = "slow: cargo check of every generated crate; CI runs it with --include-ignored"]
fn realspecs_cargo_check() {
    let root = workspace().join("target/realspecs");
    let crates_dir = root.join("crates");
    let mut documents: Vec<(String, String)> = listed_documents()
        .into_iter()
        .map(|d| {
            let text = read_document(&d);
            (d, text)
        })
        .collect();
    // The generator's fixtures are checked the same way.
    for fixture in ["shapes.yaml", "legacy30.json"] {
        let path = workspace().join("sdk-tests/fixtures").join(fixture);
        let text = std::fs::read_to_string(&path).expect("fixture");
        documents.push((fixture.to_owned(), text));
    }
    let mut table = Vec::new();
    let mut crates = BTreeMap::new();
    for (document, text) in &documents {
        let Ok((_, files)) = generate(document, text) else {
            table.push(format!(
                "{document}: not generated (see realspecs_generate)"
            ));
            continue;
        };
        let dir = crates_dir.join(crate_name(document));
        ensure_files(&dir, &files, Path::new("src/generated"), Mode::Write).expect("crate written");
        crates.insert(crate_name(document), document.clone());
    }
    let harness = root.join("harness");
    write_harness(
        &harness,
        &crates_dir,
        &crates.keys().cloned().collect::<Vec<_>>(),
    );
    let started = Instant::now();
    let checked = check_harness(&harness, &root.join("target"));
    eprintln!(
        "realspecs: cargo check of {} crates took {:.1?}",
        crates.len(),
        started.elapsed()
    );
    // Errors outside the generated crates (the runtime) leave them unchecked.
    let mut failures: Vec<String> = checked
        .iter()
        .filter(|(dir, c)| !crates.contains_key(*dir) && !c.errors.is_empty())
        .map(|(dir, c)| {
            format!(
                "{dir} (a dependency of every crate):\n{}",
                c.errors.join("\n")
            )
        })
        .collect();
    for (name, document) in &crates {
        let outcome = checked
            .get(name)
            .map_or((0, 0), |c| (c.errors.len(), c.warnings));
        let known = known_failure(document, Stage::Check);
        table.push(match (outcome, known) {
            ((0, warnings), None) => format!("{document}: passes, {warnings} warnings"),
            ((0, _), Some(_)) => {
                failures.push(format!(
                    "{document} checks now: remove it from KNOWN_FAILURES"
                ));
                format!("{document}: passes, but listed as a known failure")
            }
            ((errors, warnings), Some(k)) => format!(
                "{document}: fails (known: {}): {errors} errors, {warnings} warnings",
                k.reason
            ),
            ((errors, warnings), None) => {
                let shown = checked[name].errors.iter().take(20).cloned();
                failures.push(format!(
                    "{document}:\n{}",
                    shown.collect::<Vec<_>>().join("\n")
                ));
                format!("{document}: FAILS: {errors} errors, {warnings} warnings")
            }
        });
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    table.sort();
    insta::assert_snapshot!("cargo_check", table.join("\n"));
}
