//! No document, however malformed, makes the generator panic (issue #19, item 7): seeded random
//! mutations of the corpus documents (`sdk-tests/realspecs/`) fed to
//! `oncegen::generate_str` (read, lower, emit) under `catch_unwind`.
//!
//! Each input starts from a corpus document cut down to a few operations and the components
//! they reach (so thousands of inputs fit in the time), then gets 1 to 4 mutations: a node
//! deleted, replaced by an odd value (wrong type, huge number, odd or empty string, empty
//! container), duplicated under another key, a dangling or odd `$ref`, a reference cycle, deep
//! nesting, odd member names; then it is written as JSON or YAML, and sometimes the text is cut
//! short or has bytes inserted. Every input is either generated or refused with an error.
//!
//! The inputs run in a child process (this test binary again, with `MUTATION_CHILD` set) that
//! announces each input before it runs it: a panic fails the test with the input's seed and
//! mutations, and so does an input that aborts the process (a stack overflow cannot be
//! caught), after which a new child goes on with the next input. Rerun one input with
//! `MUTATION_SEED=<seed>`; `MUTATION_DUMP=<file>` writes each input there as it runs. The test
//! prints how many inputs it tried and how many generated or errored. It runs exactly `INPUTS`
//! inputs, however long they take: a time budget made the count depend on the machine's load
//! (a loaded machine fitted 446 inputs where the test required 500), so no outcome depends on
//! timing.
//!
//! What it found first: schemas nested about 55 levels deep under `items` abort the generator
//! with a stack overflow (seeds 1592590392 and 1592591153): `emit::files::module_files` formats
//! module files on threads spawned with the default 2 MiB stack, and `syn::parse2` in
//! `emit::format_file` recurses once per generic level of the nested type.

use std::path::{Path, PathBuf};
use std::time::Instant;

use oncegen::emit::{Layout, Options};
use serde_json::{Map, Value, json};

const INPUTS: u64 = 600;
const BASE_SEED: u64 = 0x5eed_0019;

/// A small deterministic generator (splitmix64): the input of a seed is the same on every
/// machine and every version of any crate.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

fn corpus() -> Vec<(String, Value)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("realspecs");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            matches!(
                p.extension().and_then(|e| e.to_str()),
                Some("json" | "yaml")
            )
        })
        .collect();
    paths.sort();
    assert!(
        paths.len() >= 10,
        "the corpus in {} is missing",
        dir.display()
    );
    // Read in parallel: the large YAML documents take seconds each in a debug build.
    std::thread::scope(|scope| {
        let readers: Vec<_> = paths
            .into_iter()
            .map(|p| scope.spawn(move || read_corpus_document(&p)))
            .collect();
        readers
            .into_iter()
            .map(|r| r.join().expect("corpus document read"))
            .collect()
    })
}

/// One corpus document: its file name and its tree. JSON as written; YAML as the generator
/// reads it (its reader keeps integers beyond 64 bits, which a plain YAML-to-JSON conversion
/// refuses), in 3.1 form.
fn read_corpus_document(path: &Path) -> (String, Value) {
    let text = std::fs::read_to_string(path).expect("corpus document");
    let value: Value = if path.extension().is_some_and(|e| e == "json") {
        serde_json::from_str(&text).expect("corpus JSON")
    } else {
        oncegen::read::parse(&text, &path.display().to_string())
            .expect("corpus YAML")
            .root
    };
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
    (name.unwrap_or_default(), value)
}

// ---------------------------------------------------------------------------------------------
// Cutting a document down to a few operations and what they reference

/// Every `$ref` string inside `value`.
fn refs(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                match (k.as_str(), v) {
                    ("$ref", Value::String(r)) => out.push(r.clone()),
                    _ => refs(v, out),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|v| refs(v, out)),
        _ => {}
    }
}

/// `doc` with `keep` of its path items (chosen by `rng`) and the components they reach.
fn cut_down(doc: &Value, keep: usize, rng: &mut Rng) -> Value {
    let mut out = Map::new();
    for key in [
        "openapi",
        "info",
        "servers",
        "security",
        "tags",
        "jsonSchemaDialect",
    ] {
        if let Some(v) = doc.get(key) {
            out.insert(key.to_owned(), v.clone());
        }
    }
    let paths = doc.get("paths").and_then(Value::as_object);
    let mut kept = Map::new();
    if let Some(paths) = paths {
        let keys: Vec<&String> = paths.keys().collect();
        for _ in 0..keep.min(keys.len()) {
            let k = rng.pick(&keys);
            kept.insert((*k).clone(), paths[*k].clone());
        }
    }
    if let Some(webhooks) = doc.get("webhooks").and_then(Value::as_object)
        && rng.chance(30)
        && let Some((k, v)) = webhooks.iter().nth(rng.below(webhooks.len()))
    {
        out.insert("webhooks".to_owned(), json!({ k.clone(): v.clone() }));
    }
    out.insert("paths".to_owned(), Value::Object(kept));
    let components = reached_components(doc, &Value::Object(out.clone()));
    out.insert("components".to_owned(), Value::Object(components));
    // Extensions of the root (e.g. this project's conventions) stay.
    if let Some(root) = doc.as_object() {
        for (k, v) in root {
            if k.starts_with("x-") {
                out.insert(k.clone(), v.clone());
            }
        }
    }
    Value::Object(out)
}

/// The components of `doc` the `kept` parts reach, transitively (and the security schemes).
fn reached_components(doc: &Value, kept: &Value) -> Map<String, Value> {
    let mut components: Map<String, Value> = Map::new();
    if let Some(schemes) = doc.pointer("/components/securitySchemes") {
        components.insert("securitySchemes".to_owned(), json!({}));
        components["securitySchemes"] = schemes.clone();
    }
    let mut pending = Vec::new();
    refs(kept, &mut pending);
    let mut seen = std::collections::BTreeSet::new();
    while let Some(r) = pending.pop() {
        let Some(pointer) = r.strip_prefix('#') else {
            continue;
        };
        let parts: Vec<&str> = pointer.split('/').collect();
        if parts.len() < 4 || parts[1] != "components" || !seen.insert(r.clone()) {
            continue;
        }
        let (kind, name) = (parts[2], parts[3]);
        let Some(target) = doc.pointer(&format!("/components/{kind}/{name}")) else {
            continue;
        };
        refs(target, &mut pending);
        let section = components
            .entry(kind.to_owned())
            .or_insert_with(|| json!({}));
        if let Value::Object(section) = section {
            section.insert(name.to_owned(), target.clone());
        }
    }
    components
}

// ---------------------------------------------------------------------------------------------
// Mutations

/// A JSON pointer to every node of `value` (the root excluded).
fn pointers(value: &Value, at: &str, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                let p = format!("{at}/{}", k.replace('~', "~0").replace('/', "~1"));
                out.push(p.clone());
                pointers(v, &p, out);
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                let p = format!("{at}/{i}");
                out.push(p.clone());
                pointers(v, &p, out);
            }
        }
        _ => {}
    }
}

/// The parent pointer and the last token of `pointer`.
fn split(pointer: &str) -> (&str, String) {
    let (parent, last) = pointer.rsplit_once('/').unwrap_or(("", pointer));
    (parent, last.replace("~1", "/").replace("~0", "~"))
}

fn odd_value(rng: &mut Rng) -> Value {
    let long = "x".repeat(rng.below(5000) + 1);
    let choices = [
        Value::Null,
        json!(true),
        json!(0),
        json!(-1),
        json!(u64::MAX),
        json!(i64::MIN),
        json!(1e308),
        json!(0.5),
        json!(""),
        json!("#"),
        json!("#/components/schemas/"),
        json!("{not json"),
        json!("\u{0}\u{7f}\u{feff}\u{202e}é日本"),
        json!("a/b~c{d}"),
        json!(long),
        json!([]),
        json!({}),
        json!([null, {}, []]),
        json!({"type": "object"}),
        json!({"type": ["string", "null", "array"]}),
        json!({"$ref": "#/components/schemas/DoesNotExist"}),
        json!({"allOf": []}),
        json!({"oneOf": [{}]}),
        json!({"enum": []}),
        json!({"type": "array"}),
        json!({"type": "integer", "format": "int128", "minimum": "zero"}),
    ];
    rng.pick(&choices).clone()
}

fn odd_ref(rng: &mut Rng, existing: &[String]) -> String {
    let choices = [
        "#/components/schemas/DoesNotExist".to_owned(),
        "#".to_owned(),
        "#/".to_owned(),
        "".to_owned(),
        "#/paths".to_owned(),
        "#/components/schemas".to_owned(),
        "#/components/schemas/A/properties/b/items/0".to_owned(),
        "other.yaml#/components/schemas/A".to_owned(),
        "https://example.invalid/schema.json".to_owned(),
        "#/components/schemas/%7Bx%7D".to_owned(),
        "#/info/title".to_owned(),
        "#/components/responses/Nope".to_owned(),
    ];
    if !existing.is_empty() && rng.chance(40) {
        // A real pointer of the document, so a reference points somewhere it should not.
        format!("#{}", rng.pick(existing))
    } else {
        rng.pick(&choices).clone()
    }
}

/// Applies one random mutation; returns what it did.
fn mutate(doc: &mut Value, rng: &mut Rng) -> String {
    let mut all = Vec::new();
    pointers(doc, "", &mut all);
    if all.is_empty() {
        *doc = odd_value(rng);
        return "root replaced".to_owned();
    }
    let target = rng.pick(&all).clone();
    match rng.below(9) {
        0 => delete(doc, &target),
        1 | 2 => replace(doc, &target, rng),
        3 => copy(doc, &target, &all, rng),
        4 => {
            let r = odd_ref(rng, &all);
            if let Some(node) = doc.pointer_mut(&target) {
                *node = json!({ "$ref": r.clone() });
            }
            format!("{target} became $ref {r:?}")
        }
        5 => cycle(doc, &target, rng),
        6 => nest(doc, &target, rng),
        7 => rename(doc, &target, rng),
        _ => change_container(doc, &target),
    }
}

/// Deletes the node at `target`.
fn delete(doc: &mut Value, target: &str) -> String {
    let (parent, last) = split(target);
    match doc.pointer_mut(parent) {
        Some(Value::Object(map)) => {
            map.remove(&last);
        }
        Some(Value::Array(items)) => {
            if let Ok(i) = last.parse::<usize>()
                && i < items.len()
            {
                items.remove(i);
            }
        }
        _ => {}
    }
    format!("deleted {target}")
}

/// Replaces the node at `target` by an odd value.
fn replace(doc: &mut Value, target: &str, rng: &mut Rng) -> String {
    let v = odd_value(rng);
    let shown = short(&v);
    if let Some(node) = doc.pointer_mut(target) {
        *node = v;
    }
    format!("replaced {target} by {shown}")
}

/// Copies the node at `target` into another object of the document (one of `all`).
fn copy(doc: &mut Value, target: &str, all: &[String], rng: &mut Rng) -> String {
    let copy = doc.pointer(target).cloned().unwrap_or(Value::Null);
    let into = rng.pick(all).clone();
    if let Some(Value::Object(map)) = doc.pointer_mut(&into) {
        let key = if rng.chance(50) {
            split(target).1
        } else {
            "copy".to_owned()
        };
        map.insert(key, copy);
    }
    format!("copied {target} into {into}")
}

/// A cycle: the node at `target` refers to itself or to its parent.
fn cycle(doc: &mut Value, target: &str, rng: &mut Rng) -> String {
    let (parent, _) = split(target);
    let to = if rng.chance(50) {
        target.to_owned()
    } else {
        parent.to_owned()
    };
    if let Some(node) = doc.pointer_mut(target) {
        *node = if rng.chance(50) {
            json!({ "$ref": format!("#{to}") })
        } else {
            json!({ "allOf": [{ "$ref": format!("#{to}") }], "properties": { "self": { "$ref": format!("#{to}") } } })
        };
    }
    format!("{target} refers to #{to}")
}

/// Deep nesting of the node at `target` (within what the JSON and YAML readers accept).
fn nest(doc: &mut Value, target: &str, rng: &mut Rng) -> String {
    let depth = 20 + rng.below(100);
    let key = *rng.pick(&["items", "not", "additionalProperties", "allOf"]);
    if let Some(node) = doc.pointer_mut(target) {
        let mut v = node.take();
        for _ in 0..depth / 2 {
            v = if key == "allOf" {
                json!({ key: [v] })
            } else {
                json!({ key: v })
            };
        }
        *node = v;
    }
    format!("{target} nested {depth} deep under {key}")
}

/// An odd member name for the node at `target`.
fn rename(doc: &mut Value, target: &str, rng: &mut Rng) -> String {
    let (parent, last) = split(target);
    let name = rng
        .pick(&[
            "", " ", "/", "~", "{x}", "$ref", "x-", "é日本", "a.b", "0", "type", "enum", "Self",
            "crate",
        ])
        .to_string();
    if let Some(Value::Object(map)) = doc.pointer_mut(parent)
        && let Some(v) = map.remove(&last)
    {
        map.insert(name.clone(), v);
    }
    format!("renamed {target} to {name:?}")
}

/// The wrong container at `target`: an object in an array, or an array's items spread into
/// an object.
fn change_container(doc: &mut Value, target: &str) -> String {
    if let Some(node) = doc.pointer_mut(target) {
        let v = node.take();
        *node = match v {
            Value::Array(items) => Value::Object(
                items
                    .into_iter()
                    .enumerate()
                    .map(|(i, v)| (i.to_string(), v))
                    .collect(),
            ),
            other => json!([other]),
        };
    }
    format!("{target} changed container")
}

fn short(v: &Value) -> String {
    let s = v.to_string();
    if s.len() > 40 {
        format!(
            "{}…",
            &s[..s.char_indices().nth(40).map_or(s.len(), |(i, _)| i)]
        )
    } else {
        s
    }
}

/// The document written as text (JSON or YAML), maybe damaged.
fn write(doc: &Value, rng: &mut Rng, steps: &mut Vec<String>) -> String {
    let mut text = if rng.chance(50) {
        steps.push("written as JSON".to_owned());
        serde_json::to_string(doc).expect("JSON")
    } else {
        steps.push("written as YAML".to_owned());
        yaml_serde::to_string(doc).unwrap_or_else(|_| serde_json::to_string(doc).expect("JSON"))
    };
    if rng.chance(10) && !text.is_empty() {
        let mut cut = rng.below(text.len());
        while !text.is_char_boundary(cut) {
            cut -= 1;
        }
        text.truncate(cut);
        steps.push(format!("cut after {cut} bytes"));
    }
    if rng.chance(8) && !text.is_empty() {
        let mut at = rng.below(text.len());
        while !text.is_char_boundary(at) {
            at -= 1;
        }
        let junk = *rng.pick(&[
            "\u{0}",
            "\t",
            "{",
            "]",
            ":",
            "\"",
            "- ",
            "&a *a",
            "!!binary",
            "\u{feff}",
            "\n  bad: [\n",
        ]);
        text.insert_str(at, junk);
        steps.push(format!("inserted {junk:?} at byte {at}"));
    }
    text
}

/// The input of `seed`: its text and how it was made.
fn input(corpus: &[(String, Value)], seed: u64) -> (String, Vec<String>) {
    let mut rng = Rng(seed);
    let (name, doc) = &corpus[rng.below(corpus.len())];
    let keep = 1 + rng.below(2);
    let mut doc = cut_down(doc, keep, &mut rng);
    let mut steps = vec![format!("{name}, {keep} path items")];
    for _ in 0..1 + rng.below(4) {
        steps.push(mutate(&mut doc, &mut rng));
    }
    let text = write(&doc, &mut rng, &mut steps);
    (text, steps)
}

/// The options every input is generated with.
fn options() -> Options {
    Options {
        crate_name: "mutant".to_owned(),
        spec_label: "mutant".to_owned(),
        layout: Layout::Standalone {
            runtime_path: PathBuf::from("../oncegen-runtime"),
        },
        crate_version: None,
        manifest: Default::default(),
    }
}

/// The environment variable that makes the test binary a child running inputs from this index.
const CHILD: &str = "MUTATION_CHILD";
const TEST_NAME: &str = "no_mutated_corpus_document_makes_the_generator_panic";

/// Child: runs the inputs `from..INPUTS` (or the one `MUTATION_SEED`), printing
/// `INPUT <seed>` to stderr before each and its outcome to stdout (`GENERATED`, `ERRORED`,
/// `PANICKED <seed> <message>`), so that the parent can name an input that aborts the process.
fn child(from: u64) {
    let corpus = corpus();
    let options = options();
    let seeds: Vec<u64> = match std::env::var("MUTATION_SEED") {
        Ok(seed) => vec![seed.parse().expect("MUTATION_SEED is a number")],
        Err(_) => (from..INPUTS).map(|i| BASE_SEED + i).collect(),
    };
    for seed in seeds {
        let (text, steps) = input(&corpus, seed);
        eprintln!("INPUT {seed} {}", steps.join("; "));
        if let Some(dump) = std::env::var_os("MUTATION_DUMP") {
            std::fs::write(dump, &text).expect("MUTATION_DUMP written");
        }
        let outcome =
            std::panic::catch_unwind(|| oncegen::generate_str(&text, "mutant.yaml", &options));
        match outcome {
            Ok(Ok(_)) => println!("GENERATED {seed}"),
            Ok(Err(_)) => println!("ERRORED {seed}"),
            Err(payload) => {
                let message = payload
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| payload.downcast_ref::<&str>().map(|s| (*s).to_owned()))
                    .unwrap_or_default();
                println!(
                    "PANICKED {seed} {}; made by: {}",
                    message.replace('\n', " "),
                    steps.join("; ")
                );
            }
        }
    }
}

#[derive(Default)]
struct Counts {
    tried: u64,
    generated: u64,
    errored: u64,
    /// Inputs that panicked or aborted the process, with what made them.
    failures: Vec<String>,
}

impl Counts {
    /// Counts the outcomes a child printed on `stdout`.
    fn read_outcomes(&mut self, stdout: &str) {
        for line in stdout.lines() {
            // libtest prints `test <name> ... ` without a newline before the first outcome.
            let line = line
                .rsplit_once(" ... ")
                .map_or(line, |(_, outcome)| outcome);
            let (tag, rest) = line.split_once(' ').unwrap_or((line, ""));
            match tag {
                "GENERATED" => self.generated += 1,
                "ERRORED" => self.errored += 1,
                "PANICKED" => self.failures.push(format!("panic at seed {rest}")),
                _ => continue,
            }
            self.tried += 1;
        }
    }

    /// Records the input that made a child die (its last announced one, in its `output`'s
    /// stderr), and returns that input's seed.
    fn child_died(&mut self, output: &std::process::Output) -> u64 {
        let stderr = String::from_utf8_lossy(&output.stderr);
        let Some((seed, steps)) = stderr
            .lines()
            .filter_map(|l| {
                let (seed, steps) = l.strip_prefix("INPUT ")?.split_once(' ')?;
                Some((seed.parse::<u64>().ok()?, steps.to_owned()))
            })
            .next_back()
        else {
            panic!(
                "the child died before any input ({}):\n{stderr}",
                output.status
            );
        };
        let reason = stderr
            .lines()
            .find(|l| l.contains("overflowed its stack"))
            .map_or_else(
                || output.status.to_string(),
                |_| "stack overflow".to_owned(),
            );
        self.tried += 1;
        self.failures.push(format!(
            "{reason} at seed {seed} (aborts the process); made by: {steps}"
        ));
        seed
    }

    /// Prints the counts and fails on any panic or crash, or (all inputs run: not `single`)
    /// when not every input ran or the inputs were all alike.
    fn verdict(&self, single: bool, started: Instant) {
        // Written to the process's stderr, not through `println!`, so that the count shows in
        // `cargo test` output (CI) even though libtest captures a passing test's prints.
        eprintln_uncaptured(format_args!(
            "mutation test: {} inputs tried from the corpus documents: {} generated, {} refused with an error, {} panicked or crashed; {:.1}s",
            self.tried,
            self.generated,
            self.errored,
            self.failures.len(),
            started.elapsed().as_secs_f64()
        ));
        assert!(
            self.failures.is_empty(),
            "the generator panicked or crashed on {} of {} inputs (rerun one with MUTATION_SEED=<seed>):\n{}",
            self.failures.len(),
            self.tried,
            self.failures
                .iter()
                .take(20)
                .cloned()
                .collect::<Vec<_>>()
                .join("\n")
        );
        if !single {
            assert_eq!(
                self.tried, INPUTS,
                "every input runs once (a child that died goes on after its input)"
            );
            assert!(
                self.generated > 0 && self.errored > 0,
                "the inputs are all alike"
            );
        }
    }
}

#[test]
fn no_mutated_corpus_document_makes_the_generator_panic() {
    if let Ok(from) = std::env::var(CHILD) {
        // The generator runs on the main thread of `cargo xtask gen` (8 MiB of stack); so here.
        std::thread::Builder::new()
            .stack_size(8 << 20)
            .spawn(move || child(from.parse().expect("child index")))
            .expect("worker thread")
            .join()
            .expect("the child run itself did not panic");
        return;
    }
    // Parent: runs the inputs in a child process, restarted after the input that aborts it (a
    // stack overflow cannot be caught).
    let started = Instant::now();
    let mut counts = Counts::default();
    let mut next = 0u64;
    let single = std::env::var("MUTATION_SEED").is_ok();
    while next < INPUTS {
        let output = std::process::Command::new(std::env::current_exe().expect("test binary"))
            .args(["--exact", TEST_NAME, "--nocapture", "--test-threads=1"])
            .env(CHILD, next.to_string())
            .output()
            .expect("child runs");
        counts.read_outcomes(&String::from_utf8_lossy(&output.stdout));
        if output.status.success() {
            break;
        }
        // The child died: its last announced input did it.
        let seed = counts.child_died(&output);
        if single {
            break;
        }
        next = seed.wrapping_sub(BASE_SEED) + 1;
    }
    counts.verdict(single, started);
}

/// Writes a line straight to the process's stderr, past libtest's capture of `print!` macros.
fn eprintln_uncaptured(line: std::fmt::Arguments<'_>) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "{line}");
}
