//! Every function of the sandbox's source, on the request path and off it, is at most 60 lines:
//! a step that grows past that is split into functions with one job each (issue #29).
//!
//! The check reads rustfmt's layout, which CI enforces (`cargo fmt --all -- --check`): a function
//! starts at a line whose first word after its visibility and qualifiers is `fn`, and ends at the
//! first later line that is `}` at the same indentation. A declaration without a body (`fn f();`)
//! is not a function here.

use std::path::{Path, PathBuf};

const MAX_LINES: usize = 60;

/// The `.rs` files under `dir`, sorted.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for entry in entries {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            files.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
    files.sort();
    files
}

/// The name of the function a line starts, if it starts one.
fn function_name(line: &str) -> Option<&str> {
    let mut words = line.split_whitespace();
    let mut word = words.next()?;
    while matches!(word, "const" | "async" | "unsafe" | "extern" | "\"C\"")
        || word.starts_with("pub")
    {
        word = words.next()?;
    }
    if word != "fn" {
        return None;
    }
    let name = words.next()?;
    Some(name.split(['(', '<']).next().unwrap_or(name))
}

/// `(name, first line, length)` of every function with a body in `source`.
fn functions(source: &str) -> Vec<(String, usize, usize)> {
    let lines: Vec<&str> = source.lines().collect();
    let mut found = Vec::new();
    for (start, line) in lines.iter().enumerate() {
        let Some(name) = function_name(line) else {
            continue;
        };
        let indent = &line[..line.len() - line.trim_start().len()];
        let closing = format!("{indent}}}");
        let mut end = None;
        for (i, l) in lines.iter().enumerate().skip(start) {
            let code = l.split("//").next().unwrap_or(l).trim_end();
            if i == start && code.ends_with('}') {
                end = Some(i); // a one-line function
                break;
            }
            if *l == closing {
                end = Some(i);
                break;
            }
            if code.ends_with(';') && !lines[start..=i].iter().any(|l| l.contains('{')) {
                break; // a declaration: no body
            }
        }
        if let Some(end) = end {
            found.push((name.to_owned(), start + 1, end - start + 1));
        }
    }
    found
}

#[test]
fn every_function_of_the_sandbox_is_at_most_60_lines() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let files = rust_files(&src);
    assert!(
        files.len() > 20,
        "the sandbox's sources under {}",
        src.display()
    );
    let mut counted = 0;
    let mut too_long = Vec::new();
    for file in files {
        let source = std::fs::read_to_string(&file).expect("a source file");
        for (name, line, length) in functions(&source) {
            counted += 1;
            if length > MAX_LINES {
                let file = file.strip_prefix(&src).unwrap_or(&file).display();
                too_long.push(format!("src/{file}:{line} `{name}`: {length} lines"));
            }
        }
    }
    assert!(
        counted > 300,
        "found only {counted} functions: the scan is broken"
    );
    assert!(
        too_long.is_empty(),
        "functions over {MAX_LINES} lines (split them):\n{}",
        too_long.join("\n")
    );
}

#[test]
fn the_scan_measures_bodies_and_skips_declarations() {
    let source = "\
fn one() {}
pub(crate) async fn three(
    a: u8,
) {
}
trait T {
    fn declared(&self);
    fn body(&self) -> u8 {
        1
    }
}
";
    assert_eq!(
        functions(source),
        [
            ("one".to_owned(), 1, 1),
            ("three".to_owned(), 2, 4),
            ("body".to_owned(), 8, 3),
        ]
    );
}
