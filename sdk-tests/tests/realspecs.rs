//! The generator on public OpenAPI documents written by others, vendored under
//! `sdk-tests/realspecs/`. Its `SOURCES.md` gives origin, commit and licence of each document and
//! is the manifest: a listed document that is missing, or a document that is not listed, fails.
//!
//! - `corpus_is_complete_and_covers_what_it_was_chosen_for`: the manifest and the coverage the
//!   documents were chosen for (multipart bodies, structured query parameters, webhooks, size,
//!   both formats, both versions).
//! - `realspecs_generate`: one insta snapshot per document: what the document holds, and what
//!   the generator made of it (operations generated, each skipped operation with its pointer
//!   and reason, types, the examples it attaches and how many have a generated type to decode
//!   into). A panic fails; an error fails unless listed in [`KNOWN_FAILURES`].
//! - `realspecs_cargo_check` (slow, `#[ignore]`d; CI runs it with
//!   `cargo test -p sdk-tests --test realspecs -- --include-ignored`): writes every crate under
//!   `target/realspecs/crates/`. A crate whose document has examples to decode is built with its
//!   example harness (`oncegen::doc_examples::harness`, under `target/realspecs/examples/`,
//!   one `cargo build` of them all), and the harness is run: each example is decoded into its
//!   generated type, re-encoded and compared. The other crates are checked with one
//!   `cargo check --keep-going` of a harness crate that depends on each. Dependencies build once
//!   and crates compile in parallel. Pass or fail and the warning count of each crate are pinned
//!   in a snapshot, and each document's examples (tried, passed, failed with pointer and reason,
//!   not applicable by reason) in another. A failed example fails the test unless it is a known
//!   flaw of the document listed in `SOURCES.md`, and a listed flaw that does not fail fails
//!   too; the fixture `sdk-tests/fixtures/examples.yaml` proves that wrong examples are caught.

use oncegen::doc_examples::Node;
use oncegen::doc_examples::{DocExample, NotApplicable, Target};
use oncegen::emit::{GeneratedFile, Layout, Options};
use oncegen::ir::Api;
use oncegen::write::{Mode, ensure_files};
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
    /// `oncegen::generate` returns an error.
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

/// The heading in `SOURCES.md` above the table of known flaws of the documents.
const FLAWS_HEADING: &str = "## Known flaws";

/// `SOURCES.md`: the manifest table, then [`FLAWS_HEADING`] and its table.
fn manifest_text() -> String {
    let manifest = corpus_dir().join("SOURCES.md");
    std::fs::read_to_string(&manifest)
        .unwrap_or_else(|e| panic!("the corpus manifest {} is missing: {e}", manifest.display()))
}

/// The cells of each table row in `text`.
fn table_rows(text: &str) -> impl Iterator<Item = Vec<&str>> {
    text.lines().filter_map(|line| {
        let inner = line.trim().strip_prefix('|')?.strip_suffix('|')?;
        Some(inner.split('|').map(str::trim).collect())
    })
}

/// The documents listed in `SOURCES.md` (first column of its table), sorted.
fn listed_documents() -> Vec<String> {
    let text = manifest_text();
    let listing = text.split(FLAWS_HEADING).next().unwrap_or_default();
    let mut files: Vec<String> = table_rows(listing)
        .filter_map(|row| row.first().copied())
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
    /// Operations marked `deprecated`.
    deprecated_operations: usize,
}

fn facts(name: &str, text: &str) -> Facts {
    let doc = oncegen::doc_examples::parse(text, name)
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
            facts.deprecated_operations += usize::from(op.flag("deprecated"));
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

/// The crates are written to `target/realspecs/crates/<name>` (see `realspecs_cargo_check`), so
/// the runtime is four levels up: a relative path, like any path a generated crate holds.
fn options(document: &str) -> Options {
    Options {
        crate_name: crate_name(document),
        spec_label: document.to_owned(),
        layout: Layout::Standalone {
            runtime_path: PathBuf::from("../../../../oncegen-runtime"),
        },
        crate_version: None,
        manifest: Default::default(),
    }
}

/// The error of a generation that panicked.
const PANICKED: &str = "the generator panicked";

/// What the generator made of one document: the model, the crate's files and the document's
/// examples with the types they decode into.
struct Generated {
    api: Api,
    files: Vec<GeneratedFile>,
    examples: Vec<DocExample>,
}

/// Generates one document; a panic is an `Err` too ([`PANICKED`]).
fn generate(document: &str, text: &str) -> Result<Generated, String> {
    let opts = options(document);
    std::panic::catch_unwind(|| -> oncegen::Result<Generated> {
        let (api, files, examples) = oncegen::doc_examples::generate(text, document, &opts)?;
        Ok(Generated {
            api,
            files,
            examples,
        })
    })
    .map_err(|_| PANICKED.to_owned())?
    .map_err(|e| e.to_string())
}

/// How many examples have no type to decode into, by reason, most frequent first.
fn not_applicable(examples: &[DocExample]) -> (usize, String) {
    let mut by_reason: BTreeMap<NotApplicable, usize> = BTreeMap::new();
    for e in examples {
        if let Target::NotApplicable(reason) = e.target {
            *by_reason.entry(reason).or_default() += 1;
        }
    }
    let mut counts: Vec<(NotApplicable, usize)> = by_reason.into_iter().collect();
    counts.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let text = counts
        .iter()
        .map(|(reason, n)| format!("{n} {reason}"))
        .collect::<Vec<_>>()
        .join("; ");
    (counts.iter().map(|(_, n)| n).sum(), text)
}

/// The snapshot text of one document: what it holds, and what was generated from it.
fn report(document: &str, facts: &Facts, generated: &Result<Generated, String>) -> String {
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
        Ok(Generated {
            api,
            files,
            examples,
        }) => {
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
            let (none, why) = not_applicable(examples);
            let _ = writeln!(
                out,
                "examples: {}, {} to decode, {none} not applicable{}",
                examples.len(),
                examples.len() - none,
                if why.is_empty() {
                    String::new()
                } else {
                    format!(" ({why})")
                }
            );
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
            (Ok(Generated { api, .. }), None)
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

/// The most bytes one tool's schemas (arguments and result) may take in `tools/list`.
const MAX_TOOL_SCHEMA_BYTES: usize = 256 * 1024;

/// The MCP server's tools stay bounded on every document: each tool's schemas, spelled out
/// without `$ref`, fit in [`MAX_TOOL_SCHEMA_BYTES`] (inlining alone grew past 4 GB of memory on
/// Stripe's document, whose types share many others).
#[test]
fn mcp_tool_schemas_stay_bounded_on_every_corpus_document() {
    let mut failures = Vec::new();
    for document in listed_documents() {
        let api = oncegen::model_str(&read_document(&document), &document)
            .unwrap_or_else(|e| panic!("{document}: {e}"));
        let surface = oncegen::surface::Surface::of(&api, &crate_name(&document), "0.1.0");
        let tools = oncegen::mcp::tools(&surface).unwrap_or_else(|e| panic!("{document}: {e}"));
        let mut total = 0;
        for tool in &tools {
            let bytes = tool.input_schema.to_string().len()
                + tool
                    .output_schema
                    .as_ref()
                    .map_or(0, |s| s.to_string().len());
            total += bytes;
            if bytes > MAX_TOOL_SCHEMA_BYTES {
                failures.push(format!(
                    "{document}: tool {} has {bytes} bytes of schemas",
                    tool.name
                ));
            }
        }
        println!(
            "{document}: {} tools, {total} bytes of schemas",
            tools.len()
        );
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

// ---------------------------------------------------------------------------------------------
// cargo check and build, and the examples

/// The outcome of compiling one crate.
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

/// Writes the workspace at `root` whose members are the example harnesses in its directories
/// `members`: built without debug information or incremental state, which nothing here reads.
fn write_examples_workspace(root: &Path, members: &[String]) {
    let members: Vec<String> = members.iter().map(|m| format!("{m:?}")).collect();
    let manifest = format!(
        "[workspace]\nresolver = \"3\"\nmembers = [{}]\n\n[profile.dev]\ndebug = false\nincremental = false\n",
        members.join(", ")
    );
    std::fs::create_dir_all(root).expect("examples directory");
    std::fs::write(root.join("Cargo.toml"), manifest).expect("examples manifest");
    std::fs::copy(workspace().join("Cargo.lock"), root.join("Cargo.lock")).expect("lock copied");
}

/// Runs `cargo <args> --keep-going --message-format=json` in `dir` and sorts its diagnostics by
/// the directory of the crate they are in.
fn compile(dir: &Path, target: &Path, args: &[&str]) -> BTreeMap<String, Checked> {
    let output = Command::new(env!("CARGO"))
        .args(args)
        .args(["--keep-going", "--message-format=json"])
        .current_dir(dir)
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
            "cargo {} failed without a compiler error:\n{}",
            args.join(" "),
            String::from_utf8_lossy(&output.stderr)
        );
    }
    checked
}

/// The directory (and package) of the example harness of the crate `name`.
fn examples_crate(name: &str) -> String {
    format!("{name}-examples")
}

/// A fixture whose examples are mostly right and deliberately wrong where
/// [`FIXTURE_FAILURES`] says: the harness must report exactly those as failed.
const EXAMPLES_FIXTURE: &str = "examples.yaml";

/// The examples of [`EXAMPLES_FIXTURE`] that must fail, with a word of the expected reason.
const FIXTURE_FAILURES: &[(&str, &str)] = &[
    (
        "#/components/schemas/Pet/properties/age/example",
        "does not decode",
    ),
    ("#/components/schemas/Pet/examples/1", "/nickname: dropped"),
    (
        "#/paths/~1pets/post/requestBody/content/application~1json/examples/stray-null",
        "/weight: null became absent",
    ),
    (
        "#/paths/~1pets~1{id}/get/parameters/0/example",
        "does not decode",
    ),
];

/// The known flaws of the corpus documents (`SOURCES.md`, below [`FLAWS_HEADING`]): document and
/// pointer of each example that is the document's fault, and why.
fn known_flaws() -> BTreeMap<(String, String), String> {
    let text = manifest_text();
    let Some((_, flaws)) = text.split_once(FLAWS_HEADING) else {
        return BTreeMap::new();
    };
    table_rows(flaws)
        .filter_map(|row| match row.as_slice() {
            [document, pointer, why] if is_document(document) => Some((
                (document.to_string(), code_span(pointer).to_owned()),
                why.to_string(),
            )),
            _ => None,
        })
        .collect()
}

/// The text of a Markdown code span: `` `text` ``, or ``` `` text `` ``` when it holds a backtick.
fn code_span(cell: &str) -> &str {
    cell.strip_prefix("`` ")
        .and_then(|c| c.strip_suffix(" ``"))
        .or_else(|| cell.strip_prefix('`')?.strip_suffix('`'))
        .unwrap_or(cell)
}

/// One example the harness tried: its pointer, and why it failed.
type Tried = Vec<(String, Option<String>)>;

/// Runs the example harness binary of the crate `name` and reads its lines.
fn run_examples(target: &Path, name: &str) -> Tried {
    let binary = target.join("debug").join(format!(
        "{}{}",
        examples_crate(name),
        std::env::consts::EXE_SUFFIX
    ));
    let output = Command::new(&binary)
        .output()
        .unwrap_or_else(|e| panic!("{} runs: {e}", binary.display()));
    assert!(
        output.status.success(),
        "{} failed: {}",
        binary.display(),
        String::from_utf8_lossy(&output.stderr)
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    let mut tried = Tried::new();
    let mut total = None;
    for line in stdout.lines() {
        let mut cells = line.splitn(3, '\t');
        match (cells.next(), cells.next(), cells.next()) {
            (Some("pass"), Some(pointer), None) => tried.push((pointer.to_owned(), None)),
            (Some("fail"), Some(pointer), Some(reason)) => {
                tried.push((pointer.to_owned(), Some(reason.to_owned())))
            }
            (Some("total"), Some(n), Some(_)) => total = n.parse::<usize>().ok(),
            _ => panic!("{}: unexpected line {line:?}", binary.display()),
        }
    }
    assert_eq!(total, Some(tried.len()), "{}: totals", binary.display());
    tried
}

/// Why an example is expected to fail.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Expected {
    /// The document is wrong (`SOURCES.md`, known flaws), or the fixture is on purpose.
    Flaw,
    /// A limit of the generator ([`KNOWN_GAPS`]).
    Gap,
}

/// Examples of corpus documents that are right but fail through a limit of the generator:
/// document, pointer, the limit. Shown as failures in the snapshot; each must keep failing (once
/// fixed, its entry goes).
const KNOWN_GAPS: &[(&str, &str, &str)] = &[];

/// The snapshot text of one document's examples, and what is wrong: failures nobody documented,
/// and expected failures that do not fail (any more).
fn examples_report(
    document: &str,
    examples: &[DocExample],
    tried: &Tried,
    expected: &BTreeMap<String, (Expected, String)>,
) -> (String, Vec<String>) {
    let mut problems = Vec::new();
    let failed: Vec<(&String, &String)> = tried
        .iter()
        .filter_map(|(p, reason)| Some((p, reason.as_ref()?)))
        .collect();
    let (none, why) = not_applicable(examples);
    let to_decode = examples.len() - none;
    if tried.len() != to_decode {
        problems.push(format!(
            "{document}: {to_decode} examples to decode, the harness tried {}",
            tried.len()
        ));
    }
    let mut out = summary_line(examples, tried, &failed, expected, none, &why);
    for (pointer, reason) in &failed {
        let known = expected.get(*pointer);
        let label = match known {
            Some((Expected::Flaw, _)) => " [documented flaw]",
            Some((Expected::Gap, _)) => " [known generator gap]",
            None => " [UNDOCUMENTED]",
        };
        let _ = writeln!(out, "  failed {pointer}: {reason}{label}");
        match known {
            None => problems.push(format!(
                "{document}: the example at {pointer} fails ({reason}): fix the generator, or \
                 list it as a known flaw in sdk-tests/realspecs/SOURCES.md if the document is wrong"
            )),
            Some((_, words))
                if document == EXAMPLES_FIXTURE && !reason.contains(words.as_str()) =>
            {
                problems.push(format!(
                    "{document}: the example at {pointer} fails ({reason}), expected: {words}"
                ))
            }
            Some(_) => {}
        }
    }
    for pointer in expected.keys() {
        if !failed.iter().any(|(p, _)| *p == pointer) {
            problems.push(format!(
                "{document}: the example at {pointer} is expected to fail but does not: remove it \
                 from the known flaws (or gaps)"
            ));
        }
    }
    (out, problems)
}

/// The report's first line: how many examples were tried, passed and failed (by whether the
/// failure is a documented flaw or a known gap), and how many do not apply and why.
fn summary_line(
    examples: &[DocExample],
    tried: &Tried,
    failed: &[(&String, &String)],
    expected: &BTreeMap<String, (Expected, String)>,
    none: usize,
    why: &str,
) -> String {
    let count = |kind: Expected| {
        failed
            .iter()
            .filter(|(p, _)| expected.get(*p).is_some_and(|(k, _)| *k == kind))
            .count()
    };
    format!(
        "examples: {}; tried {}, passed {}, failed {} ({} documented flaws of the document, {} \
         known generator gaps); not applicable {none}{}\n",
        examples.len(),
        tried.len(),
        tried.len() - failed.len(),
        failed.len(),
        count(Expected::Flaw),
        count(Expected::Gap),
        if why.is_empty() {
            String::new()
        } else {
            format!(" ({why})")
        }
    )
}

#[test]
#[ignore = "slow: cargo check or build of every generated crate; CI runs it with --include-ignored"]
fn realspecs_cargo_check() {
    let root = workspace().join("target/realspecs");
    let target = root.join("target");
    let mut table = Vec::new();
    let written = write_crates(&corpus_documents(), &root, &mut table);
    let checked = check_and_build(&root, &target, &written);
    let crates = &written.crates;
    let mut failures = dependency_failures(&checked, crates);
    let flaws = known_flaws();
    let mut reports = Vec::new();
    for (name, (document, examples)) in crates {
        let harness_name = examples_crate(name);
        let diagnostics = [name, &harness_name].map(|dir| checked.get(dir));
        let errors: Vec<&String> = diagnostics
            .iter()
            .flatten()
            .flat_map(|c| &c.errors)
            .collect();
        let warnings: usize = diagnostics.iter().flatten().map(|c| c.warnings).sum();
        table.push(check_row(document, &errors, warnings, &mut failures));
        let tried = if written.built.contains(&harness_name) && errors.is_empty() {
            run_examples(&target, name)
        } else {
            Tried::new()
        };
        let expected = expected_failures(document, &flaws);
        let (report, problems) = examples_report(document, examples, &tried, &expected);
        failures.extend(problems);
        reports.push((document.clone(), report));
    }
    failures.extend(stale_entries(crates, &flaws));
    // The snapshots first: an undocumented failure shows in its document's snapshot, and then
    // fails the test.
    table.sort();
    insta::assert_snapshot!("cargo_check", table.join("\n"));
    for (document, report) in reports {
        insta::assert_snapshot!(format!("examples__{}", document.replace('/', "__")), report);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// The corpus's documents and the generator's fixtures, checked the same way: `(name, text)`.
fn corpus_documents() -> Vec<(String, String)> {
    let mut documents: Vec<(String, String)> = listed_documents()
        .into_iter()
        .map(|d| {
            let text = read_document(&d);
            (d, text)
        })
        .collect();
    for fixture in [
        "shapes.yaml",
        "legacy30.json",
        EXAMPLES_FIXTURE,
        "nulls.yaml",
        "pipeline/media_types.yaml",
        "pipeline/error_bodies.yaml",
        "pipeline/security_schemes.yaml",
        "pipeline/servers.yaml",
        "pipeline/operation_servers.yaml",
        "pipeline/nulls_legacy30.yaml",
        "pipeline/member_tags.yaml",
    ] {
        let path = workspace().join("sdk-tests/fixtures").join(fixture);
        let text = std::fs::read_to_string(&path).expect("fixture");
        documents.push((fixture.to_owned(), text));
    }
    documents
}

/// The generated crates: crate name → document and its examples; those only checked, and the
/// example harnesses built.
struct Written {
    crates: BTreeMap<String, (String, Vec<DocExample>)>,
    checked_only: Vec<String>,
    built: Vec<String>,
}

/// Writes each document's crate under `root/crates` (and its example harness under
/// `root/examples` when it has examples to decode); a document not generated is a `table` row.
fn write_crates(documents: &[(String, String)], root: &Path, table: &mut Vec<String>) -> Written {
    let crates_dir = root.join("crates");
    let examples_dir = root.join("examples");
    let mut crates = BTreeMap::new();
    let mut checked_only = Vec::new();
    let mut built = Vec::new();
    for (document, text) in documents {
        let Ok(generated) = generate(document, text) else {
            table.push(format!(
                "{document}: not generated (see realspecs_generate)"
            ));
            continue;
        };
        let name = crate_name(document);
        let dir = crates_dir.join(&name);
        ensure_files(
            &dir,
            &generated.files,
            Path::new("src/generated"),
            Mode::Write,
        )
        .expect("crate written");
        // A crate with examples to decode is built with its harness; the others only checked.
        let decodable = generated
            .examples
            .iter()
            .any(|e| matches!(e.target, Target::Type(_)));
        if decodable {
            let files = oncegen::doc_examples::harness::harness(
                &generated.api,
                &generated.examples,
                &name,
                &dir,
                document,
            )
            .expect("harness generated");
            ensure_files(
                &examples_dir.join(examples_crate(&name)),
                &files,
                Path::new("src"),
                Mode::Write,
            )
            .expect("harness written");
            built.push(examples_crate(&name));
        } else {
            checked_only.push(name.clone());
        }
        crates.insert(name, (document.clone(), generated.examples));
    }
    Written {
        crates,
        checked_only,
        built,
    }
}

/// Checks the crates without examples through one harness and builds the example harnesses:
/// each crate's diagnostics.
fn check_and_build(root: &Path, target: &Path, written: &Written) -> BTreeMap<String, Checked> {
    let (crates_dir, examples_dir) = (root.join("crates"), root.join("examples"));
    let (checked_only, built) = (&written.checked_only, &written.built);
    let harness = root.join("harness");
    write_harness(&harness, &crates_dir, checked_only);
    write_examples_workspace(&examples_dir, built);
    let started = Instant::now();
    let mut checked = compile(&harness, target, &["check"]);
    eprintln!(
        "realspecs: cargo check of {} crates took {:.1?}",
        checked_only.len(),
        started.elapsed()
    );
    let started = Instant::now();
    checked.extend(compile(&examples_dir, target, &["build", "--workspace"]));
    eprintln!(
        "realspecs: cargo build of {} crates with their example harnesses took {:.1?}",
        built.len(),
        started.elapsed()
    );
    checked
}

/// Errors outside the generated crates and harnesses (the runtime): they leave them unchecked.
fn dependency_failures(
    checked: &BTreeMap<String, Checked>,
    crates: &BTreeMap<String, (String, Vec<DocExample>)>,
) -> Vec<String> {
    let ours = |dir: &str| {
        crates.contains_key(dir)
            || dir
                .strip_suffix("-examples")
                .is_some_and(|c| crates.contains_key(c))
    };
    checked
        .iter()
        .filter(|(dir, c)| !ours(dir) && !c.errors.is_empty())
        .map(|(dir, c)| {
            format!(
                "{dir} (a dependency of every crate):\n{}",
                c.errors.join("\n")
            )
        })
        .collect()
}

/// A document's row of the check table; an unexpected outcome (an unknown failure, or a known
/// one that passes now) is added to `failures`.
fn check_row(
    document: &str,
    errors: &[&String],
    warnings: usize,
    failures: &mut Vec<String>,
) -> String {
    let known = known_failure(document, Stage::Check);
    match (errors.len(), known) {
        (0, None) => format!("{document}: passes, {warnings} warnings"),
        (0, Some(_)) => {
            failures.push(format!(
                "{document} checks now: remove it from KNOWN_FAILURES"
            ));
            format!("{document}: passes, but listed as a known failure")
        }
        (n, Some(k)) => format!(
            "{document}: fails (known: {}): {n} errors, {warnings} warnings",
            k.reason
        ),
        (n, None) => {
            let shown = errors.iter().take(20).map(|e| e.as_str());
            failures.push(format!(
                "{document}:\n{}",
                shown.collect::<Vec<_>>().join("\n")
            ));
            format!("{document}: FAILS: {n} errors, {warnings} warnings")
        }
    }
}

/// The examples of `document` expected to fail: the fixture's own, else the document's known
/// flaws and the generator's known gaps.
fn expected_failures(
    document: &String,
    flaws: &BTreeMap<(String, String), String>,
) -> BTreeMap<String, (Expected, String)> {
    if document == EXAMPLES_FIXTURE {
        FIXTURE_FAILURES
            .iter()
            .map(|(p, words)| ((*p).to_owned(), (Expected::Flaw, (*words).to_owned())))
            .collect()
    } else {
        let gaps = KNOWN_GAPS
            .iter()
            .filter(|(d, _, _)| d == document)
            .map(|(_, p, why)| ((*p).to_owned(), (Expected::Gap, (*why).to_owned())));
        flaws
            .iter()
            .filter(|((d, _), _)| d == document)
            .map(|((_, p), why)| (p.clone(), (Expected::Flaw, why.clone())))
            .chain(gaps)
            .collect()
    }
}

/// Known flaws and gaps that name a document not in the corpus.
fn stale_entries(
    crates: &BTreeMap<String, (String, Vec<DocExample>)>,
    flaws: &BTreeMap<(String, String), String>,
) -> Vec<String> {
    let mut failures = Vec::new();
    for (document, pointer) in flaws.keys() {
        if !crates.values().any(|(d, _)| d == document) {
            failures.push(format!(
                "a known flaw names {document} ({pointer}), which is not in the corpus"
            ));
        }
    }
    for (document, pointer, _) in KNOWN_GAPS {
        if !crates.values().any(|(d, _)| d == document) {
            failures.push(format!(
                "a known gap names {document} ({pointer}), which is not in the corpus"
            ));
        }
    }
    failures
}

// ---------------------------------------------------------------------------------------------
// The generated tools of documents with deprecated operations, under `-D warnings`

/// The corpus documents with deprecated operations (held so by
/// `every_document_with_deprecated_operations_has_its_tools_checked`): their tools call
/// deprecated client methods, and between them name an area after a tag named like a command
/// of the tool's own (openai's `Completions` is `completions-api`), answer bytes of a media
/// type neither JSON nor text (openai, stripe), take a raw body (nexus, okta-management) and
/// take parameters and optional bodies of union types (okta-management, stripe).
const DEPRECATING_DOCUMENTS: &[&str] = &[
    "nexus.json",
    "okta-management.yaml",
    "openai.yaml",
    "stripe.yaml",
    "vault.json",
    "vultr.json",
];

/// [`DEPRECATING_DOCUMENTS`] are the corpus documents with deprecated operations.
#[test]
fn every_document_with_deprecated_operations_has_its_tools_checked() {
    let deprecating: Vec<String> = listed_documents()
        .into_iter()
        .filter(|name| facts(name, &read_document(name)).deprecated_operations > 0)
        .collect();
    assert_eq!(deprecating, DEPRECATING_DOCUMENTS);
}

/// The CLI and MCP crates of `document`, beside its SDK crate in `crates_dir`, written under
/// `tools_dir`; returns their directory names.
fn write_tools(document: &str, crates_dir: &Path, tools_dir: &Path) -> [String; 2] {
    let text = read_document(document);
    let generated = generate(document, &text).unwrap_or_else(|e| panic!("{document}: {e}"));
    let sdk = crate_name(document);
    ensure_files(
        &crates_dir.join(&sdk),
        &generated.files,
        Path::new("src/generated"),
        Mode::Write,
    )
    .expect("SDK written");
    let surface = oncegen::Surface::of(&generated.api, &sdk, "0.1.0");
    let sdk_dependency =
        format!("{sdk} = {{ path = \"../../crates/{sdk}\", features = [\"journal\"] }}");
    let version = oncegen::emit::RUNTIME_VERSION;
    let package = vec![
        "version = \"0.1.0\"".to_owned(),
        "edition = \"2024\"".to_owned(),
        "publish = false".to_owned(),
    ];
    let (cli, mcp) = (format!("{sdk}-cli"), format!("{sdk}-mcp"));
    let cli_files = oncegen::cli::emit(
        &surface,
        &oncegen::cli::Options {
            crate_name: cli.clone(),
            bin: sdk.clone(),
            sdk_crate: sdk.clone(),
            spec_label: document.to_owned(),
            dependencies: vec![
                sdk_dependency.clone(),
                format!("oncegen-cli = \"{version}\""),
            ],
            package: package.clone(),
            dev_dependencies: Vec::new(),
        },
    )
    .unwrap_or_else(|e| panic!("{document}: CLI emitter: {e}"));
    let mcp_files = oncegen::mcp::emit(
        &surface,
        &oncegen::mcp::Options {
            crate_name: mcp.clone(),
            bin: mcp.clone(),
            profiles: sdk.clone(),
            sdk_crate: sdk.clone(),
            spec_label: document.to_owned(),
            dependencies: vec![sdk_dependency, format!("oncegen-mcp = \"{version}\"")],
            package,
            features: Vec::new(),
            dev_dependencies: Vec::new(),
        },
    )
    .unwrap_or_else(|e| panic!("{document}: MCP emitter: {e}"));
    for (name, files) in [(&cli, &cli_files), (&mcp, &mcp_files)] {
        let dir = tools_dir.join(name);
        ensure_files(&dir, files, &dir.join("src"), Mode::Write).expect("tool crate written");
    }
    [cli, mcp]
}

/// The workspace of the tool crates `members` at `tools_dir`, on this checkout's support
/// crates and runtime (the generated manifests name them by version).
fn write_tools_workspace(tools_dir: &Path, members: &[String]) {
    let path = |krate: &str| workspace().join(krate).display().to_string();
    let members: Vec<String> = members.iter().map(|m| format!("{m:?}")).collect();
    let manifest = format!(
        "[workspace]\nresolver = \"3\"\nmembers = [{}]\n\n[patch.crates-io]\n\
         oncegen-runtime = {{ path = {:?} }}\noncegen-cli = {{ path = {:?} }}\n\
         oncegen-mcp = {{ path = {:?} }}\n\n[profile.dev]\ndebug = false\nincremental = false\n",
        members.join(", "),
        path("oncegen-runtime"),
        path("oncegen-cli"),
        path("oncegen-mcp"),
    );
    std::fs::write(tools_dir.join("Cargo.toml"), manifest).expect("tools manifest");
    std::fs::copy(workspace().join("Cargo.lock"), tools_dir.join("Cargo.lock"))
        .expect("lock copied");
}

/// Issue 41: the command-line tool and the MCP server of documents with deprecated operations
/// compile clean with `RUSTFLAGS=-D warnings` (a deprecated client method is called under
/// `#[allow(deprecated)]`). One `cargo check` of all of them, in a target directory of its own
/// (other flags than the other corpus builds), so reruns reuse it.
#[test]
#[ignore = "slow: cargo check of generated tools; CI runs it in its own step"]
fn realspecs_tools_compile_without_warnings() {
    let root = workspace().join("target/realspecs");
    let tools_dir = root.join("tools");
    std::fs::create_dir_all(&tools_dir).expect("tools directory");
    let members: Vec<String> = DEPRECATING_DOCUMENTS
        .iter()
        .flat_map(|d| write_tools(d, &root.join("crates"), &tools_dir))
        .collect();
    write_tools_workspace(&tools_dir, &members);
    let started = Instant::now();
    let output = Command::new(env!("CARGO"))
        .args([
            "check",
            "--workspace",
            "--bins",
            "--keep-going",
            "--message-format=short",
        ])
        .current_dir(&tools_dir)
        .env("CARGO_TARGET_DIR", root.join("tools-target"))
        .env("RUSTFLAGS", "-D warnings")
        .output()
        .expect("cargo runs");
    eprintln!(
        "realspecs: cargo check of {} tool crates with -D warnings took {:.1?}",
        members.len(),
        started.elapsed()
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    let problems: Vec<&str> = stderr
        .lines()
        .filter(|l| l.contains("error") || l.contains("warning"))
        .take(40)
        .collect();
    assert!(output.status.success(), "{}", problems.join("\n"));
}

/// A parameter whose type is an alias of `String` (nexus' `Name = String`, taken as
/// `impl Into<String>`) is read `::<String>` by the generated tools: without the type, the
/// call infers `!` and the tool does not compile.
#[test]
fn tools_read_string_alias_parameters_as_strings() {
    let document = "nexus.json";
    let text = read_document(document);
    let generated = generate(document, &text).unwrap_or_else(|e| panic!("{document}: {e}"));
    let sdk = crate_name(document);
    let surface = oncegen::Surface::of(&generated.api, &sdk, "0.1.0");
    let files = oncegen::mcp::emit(
        &surface,
        &oncegen::mcp::Options {
            crate_name: format!("{sdk}-mcp"),
            bin: format!("{sdk}-mcp"),
            profiles: sdk.clone(),
            sdk_crate: sdk.clone(),
            spec_label: document.to_owned(),
            dependencies: Vec::new(),
            package: Vec::new(),
            features: Vec::new(),
            dev_dependencies: Vec::new(),
        },
    )
    .expect("MCP emitted");
    let login = files
        .iter()
        .find(|f| f.path.ends_with("login.rs"))
        .expect("the login area");
    assert!(
        login
            .contents
            .contains("input.arg::<String>(\"silo_name\")?"),
        "{}",
        login.contents
    );
}
