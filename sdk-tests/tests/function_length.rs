//! Every hand-written function of the workspace fits on a screen: at most 60 lines from its
//! `fn` line to its closing brace.
//!
//! Hand-written means every `.rs` file of every workspace package (sources, tests, benches,
//! build scripts) whose first line is not a `// @generated` header. A function is found by its `fn`
//! line and ends at the first line holding only `}` at the same indentation: the layout
//! `rustfmt` gives, which CI enforces (`cargo fmt --check`). There are no exceptions: the list
//! of named exceptions this test kept while the sweep of issue #40 worked them down is empty and
//! gone.

use sdk_tests::workspace;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::PathBuf;

/// The most lines a function may have.
const LIMIT: usize = 60;

/// The folder of every workspace package, from `cargo metadata`.
fn package_dirs() -> Vec<PathBuf> {
    let manifest = |p: &Value| p["manifest_path"].as_str().map(PathBuf::from);
    let packages = workspace::packages();
    let manifests = packages.iter().filter_map(manifest);
    manifests
        .map(|m| m.parent().expect("folder").to_owned())
        .collect()
}

/// Whether the file's first line is a `@generated` header.
fn generated(text: &str) -> bool {
    text.lines()
        .next()
        .is_some_and(|l| l.starts_with("// @generated"))
}

/// The name of the function a line starts, if it starts one.
fn function_name(line: &str) -> Option<&str> {
    let mut words = line.split_whitespace();
    while let Some(word) = words.next() {
        match word {
            "fn" => {
                let rest = words.next()?;
                let end = rest.find(['(', '<']).unwrap_or(rest.len());
                return Some(&rest[..end]);
            }
            "const" | "async" | "unsafe" | "default" | "extern" | "\"C\"" => {}
            w if w == "pub" || w.starts_with("pub(") => {}
            _ => return None,
        }
    }
    None
}

/// Each function of `text` with its line count.
fn functions(text: &str) -> Vec<(String, usize)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut found = Vec::new();
    for (start, line) in lines.iter().enumerate() {
        let Some(name) = function_name(line) else {
            continue;
        };
        let indent = &line[..line.len() - line.trim_start().len()];
        let closing = format!("{indent}}}");
        let opens = lines[start..].iter().position(|l| l.contains('{'));
        let declared = lines[start..]
            .iter()
            .position(|l| l.trim_end().ends_with(';'));
        if declared.is_some_and(|d| opens.is_none_or(|o| d < o)) {
            continue; // a declaration without a body
        }
        let body = lines[start..].iter().position(|l| l.trim_end() == closing);
        if let Some(len) = body.filter(|_| !line.trim_end().ends_with('}')) {
            found.push((name.to_owned(), len + 1));
        }
    }
    found
}

/// Every hand-written function over the limit: `(file, function) -> lines`.
fn longer_functions() -> BTreeMap<(String, String), usize> {
    let repo = workspace::repo();
    let rust = |name: &str| name.ends_with(".rs");
    let mut files: Vec<PathBuf> = package_dirs()
        .iter()
        .flat_map(|dir| workspace::files(dir, &rust))
        .collect();
    files.sort();
    files.dedup();
    assert!(files.len() > 100, "files found: {}", files.len());
    let mut longer = BTreeMap::new();
    for file in files {
        let text = std::fs::read_to_string(&file).expect("a source file");
        if generated(&text) {
            continue;
        }
        let shown = file
            .strip_prefix(&repo)
            .expect("in the repository")
            .display()
            .to_string();
        for (name, lines) in functions(&text) {
            if lines > LIMIT {
                let key = (shown.clone(), name);
                let longest = longer.entry(key).or_insert(lines);
                *longest = lines.max(*longest);
            }
        }
    }
    longer
}

#[test]
fn every_hand_written_function_fits_on_a_screen() {
    let problems: Vec<String> = longer_functions()
        .into_iter()
        .map(|((file, name), lines)| {
            format!("{file}: `{name}` has {lines} lines (at most {LIMIT})")
        })
        .collect();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_reader_measures_functions_as_rustfmt_lays_them_out() {
    let text = "\
/// Doc.
pub(crate) async fn a<T>(x: T)
where
    T: Send,
{
    let _ = x;
}
impl S {
    fn b(&self) {}
    pub const fn c() -> u8 {
        1
    }
}
trait T {
    fn d(&self);
    fn e(&self) {
        todo!()
    }
}
let f = \"fn not_a_function() {\";
";
    let found: Vec<(String, usize)> = functions(text);
    let expected = [("a", 6), ("c", 3), ("e", 3)];
    let expected: Vec<(String, usize)> = expected
        .iter()
        .map(|(n, l)| ((*n).to_owned(), *l))
        .collect();
    assert_eq!(found, expected);
    assert!(generated("// @generated by oncegen\nfn x() {}"));
}
