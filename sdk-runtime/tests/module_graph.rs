//! The runtime's modules import each other without a cycle: every `crate::<module>` reference
//! in a module's code (comments aside, tests included) is an edge, and the graph must be acyclic.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The `.rs` files under `dir`, recursively.
fn sources(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("sdk-runtime/src") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            sources(&path, out);
        } else {
            assert!(
                path.extension().is_some_and(|e| e == "rs"),
                "sdk-runtime/src holds only Rust modules: {}",
                path.display()
            );
            out.push(path);
        }
    }
}

/// Module name → the modules its code names through `crate::`. A module is named by its file
/// (`engine/decision/decide.rs` is `decide`, `write/mod.rs` is `write`); a path `crate::engine::decision::decide::X`
/// is an edge to the innermost module it names.
fn graph() -> BTreeMap<String, BTreeSet<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    let mut sources = BTreeMap::new();
    for path in files {
        let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
        let name = if stem == "mod" {
            let parent = path.parent().unwrap().file_name().unwrap();
            parent.to_string_lossy().into_owned()
        } else {
            stem
        };
        if name != "lib" {
            let text = std::fs::read_to_string(&path).expect("source");
            assert!(
                sources.insert(name.clone(), text).is_none(),
                "two modules named {name}"
            );
        }
    }
    let modules: BTreeSet<String> = sources.keys().cloned().collect();
    sources
        .iter()
        .map(|(name, text)| {
            let code = text
                .lines()
                .filter(|l| !l.trim_start().starts_with("//"))
                .collect::<Vec<_>>()
                .join("\n");
            let edges = code
                .match_indices("crate::")
                .filter_map(|(at, _)| {
                    let rest = &code[at + "crate::".len()..];
                    let end = rest
                        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':'))
                        .unwrap_or(rest.len());
                    let target = rest[..end]
                        .split("::")
                        .take_while(|segment| modules.contains(*segment))
                        .last()?;
                    (target != name).then(|| target.to_owned())
                })
                .collect();
            (name.clone(), edges)
        })
        .collect()
}

/// A cycle through `node`, if any (depth-first search).
fn cycle(
    graph: &BTreeMap<String, BTreeSet<String>>,
    node: &str,
    path: &mut Vec<String>,
    done: &mut BTreeSet<String>,
) -> Option<Vec<String>> {
    if let Some(start) = path.iter().position(|n| n == node) {
        let mut found = path[start..].to_vec();
        found.push(node.to_owned());
        return Some(found);
    }
    if done.contains(node) {
        return None;
    }
    path.push(node.to_owned());
    for next in &graph[node] {
        if let Some(found) = cycle(graph, next, path, done) {
            return Some(found);
        }
    }
    path.pop();
    done.insert(node.to_owned());
    None
}

#[test]
fn runtime_modules_import_each_other_without_a_cycle() {
    let graph = graph();
    assert!(graph.len() > 20, "modules found: {:?}", graph.keys());
    assert!(
        graph["client"].contains("decide"),
        "edges are found: {graph:?}"
    );
    let mut done = BTreeSet::new();
    for node in graph.keys() {
        if let Some(found) = cycle(&graph, node, &mut Vec::new(), &mut done) {
            panic!("import cycle: {}", found.join(" -> "));
        }
    }
}

#[test]
fn the_cycle_finder_finds_cycles() {
    let mut g = BTreeMap::new();
    g.insert("a".to_owned(), BTreeSet::from(["b".to_owned()]));
    g.insert("b".to_owned(), BTreeSet::from(["c".to_owned()]));
    g.insert("c".to_owned(), BTreeSet::from(["a".to_owned()]));
    let found = cycle(&g, "a", &mut Vec::new(), &mut BTreeSet::new());
    assert_eq!(found.unwrap(), ["a", "b", "c", "a"]);
}
