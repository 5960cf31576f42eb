//! No crate of the workspace has a module cycle.
//!
//! Every crate target (library and binaries) of every workspace package, from `cargo metadata`,
//! is read from its root file at test time, following `mod` declarations (files, folders,
//! `#[path]`, inline modules) with `syn`, so any layout is covered. A module depends on another
//! when its code names it or an item in it: `crate::`, `super::` and `self::` paths, paths that
//! start with a child module's name, in `use` declarations and inline (expressions, types,
//! patterns, and the arguments of macros that parse as expressions; `quote!` and its kin hold
//! generated code and are not read). A path names the innermost module it reaches. A module
//! and its own ancestors or descendants are one folder's facade and parts, not an edge; every
//! other reference is, and the graph must be acyclic. A failure names the modules of each
//! cycle.

use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;
use syn::visit::Visit;

/// A module, by its path from the crate root (`["emit", "operations"]`; the root is `[]`).
type ModulePath = Vec<String>;

/// One module of a crate: its children and the paths its code names.
#[derive(Default)]
struct Module {
    children: BTreeSet<String>,
    /// Each named path with the module it is named from (an inline module's own path).
    named: Vec<(ModulePath, Vec<String>)>,
}

/// A crate target's module tree.
struct Tree {
    name: String,
    modules: BTreeMap<ModulePath, Module>,
}

/// Every library and binary target of every workspace package, as `(name, root file)`.
fn crate_roots() -> Vec<(String, PathBuf)> {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let output = Command::new(env!("CARGO"))
        .args([
            "metadata",
            "--no-deps",
            "--offline",
            "--format-version",
            "1",
        ])
        .arg("--manifest-path")
        .arg(repo.join("Cargo.toml"))
        .output()
        .expect("cargo metadata runs");
    assert!(
        output.status.success(),
        "cargo metadata: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let metadata: Value = serde_json::from_slice(&output.stdout).expect("metadata is JSON");
    let mut roots = Vec::new();
    for package in metadata["packages"].as_array().expect("packages") {
        for target in package["targets"].as_array().expect("targets") {
            let kinds = target["kind"].as_array().expect("kind");
            let built = kinds
                .iter()
                .any(|k| matches!(k.as_str(), Some("lib" | "bin" | "proc-macro")));
            if built {
                let name = format!(
                    "{} ({})",
                    package["name"].as_str().expect("name"),
                    target["name"].as_str().expect("target name")
                );
                let root = PathBuf::from(target["src_path"].as_str().expect("src_path"));
                roots.push((name, root));
            }
        }
    }
    roots.sort();
    roots
}

/// Reads the module tree of the crate whose root file is `root`.
fn read_tree(name: &str, root: &Path) -> Tree {
    let mut tree = Tree {
        name: name.to_owned(),
        modules: BTreeMap::new(),
    };
    let dir = root.parent().expect("root has a folder").to_owned();
    read_file(&mut tree, Vec::new(), root, &dir);
    tree
}

/// Reads the module `path` from `file`; its file children are found in `dir`.
fn read_file(tree: &mut Tree, path: ModulePath, file: &Path, dir: &Path) {
    let text = std::fs::read_to_string(file)
        .unwrap_or_else(|e| panic!("{}: {}: {e}", tree.name, file.display()));
    let parsed = syn::parse_file(&text)
        .unwrap_or_else(|e| panic!("{}: {} does not parse: {e}", tree.name, file.display()));
    read_items(tree, path, &parsed.items, dir);
}

/// Reads the module `path` made of `items` (a file's or an inline module's).
fn read_items(tree: &mut Tree, path: ModulePath, items: &[syn::Item], dir: &Path) {
    tree.modules.entry(path.clone()).or_default();
    let mut names = PathNames {
        from: path.clone(),
        found: Vec::new(),
    };
    for item in items {
        match item {
            syn::Item::Mod(module) => {
                let child = module.ident.to_string();
                let mut child_path = path.clone();
                child_path.push(child.clone());
                tree.modules
                    .get_mut(&path)
                    .expect("module recorded")
                    .children
                    .insert(child.clone());
                names.visit_attributes(&module.attrs);
                let child_dir = dir.join(&child);
                match (&module.content, path_attribute(&module.attrs)) {
                    (Some((_, inner)), _) => read_items(tree, child_path, inner, &child_dir),
                    (None, Some(explicit)) => {
                        let file = dir.join(explicit);
                        let folder = file.parent().expect("file in a folder").to_owned();
                        read_file(tree, child_path, &file, &folder);
                    }
                    (None, None) => {
                        let flat = dir.join(format!("{child}.rs"));
                        let nested = child_dir.join("mod.rs");
                        let file = if flat.exists() { flat } else { nested };
                        read_file(tree, child_path, &file, &child_dir);
                    }
                }
            }
            other => names.visit_item(other),
        }
    }
    tree.modules
        .get_mut(&path)
        .expect("module recorded")
        .named
        .append(&mut names.found);
}

/// The file a `#[path = "…"]` attribute names.
fn path_attribute(attrs: &[syn::Attribute]) -> Option<String> {
    attrs.iter().find_map(|a| match &a.meta {
        syn::Meta::NameValue(nv) if nv.path.is_ident("path") => match &nv.value {
            syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(s),
                ..
            }) => Some(s.value()),
            _ => None,
        },
        _ => None,
    })
}

/// Collects the paths a module's code names.
struct PathNames {
    from: ModulePath,
    found: Vec<(ModulePath, Vec<String>)>,
}

impl PathNames {
    fn record(&mut self, segments: Vec<String>) {
        if segments.len() > 1 || matches!(segments[0].as_str(), "crate" | "super" | "self") {
            self.found.push((self.from.clone(), segments));
        }
    }

    fn visit_attributes(&mut self, attrs: &[syn::Attribute]) {
        for attr in attrs {
            self.visit_attribute(attr);
        }
    }
}

/// Macros whose arguments are generated code or text, not paths of this crate.
const OPAQUE_MACROS: &[&str] = &["quote", "quote_spanned", "parse_quote", "format_ident"];

impl<'ast> Visit<'ast> for PathNames {
    fn visit_item_mod(&mut self, _: &'ast syn::ItemMod) {
        // Inline modules inside functions are not part of the tree; nothing to follow.
    }

    fn visit_item_use(&mut self, item: &'ast syn::ItemUse) {
        let mut prefix = Vec::new();
        if item.leading_colon.is_some() {
            return;
        }
        use_paths(&item.tree, &mut prefix, &mut |segments| {
            self.record(segments)
        });
    }

    fn visit_path(&mut self, path: &'ast syn::Path) {
        if path.leading_colon.is_none() {
            self.record(path.segments.iter().map(|s| s.ident.to_string()).collect());
        }
        syn::visit::visit_path(self, path);
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        self.visit_path(&mac.path);
        let name = mac.path.segments.last().map(|s| s.ident.to_string());
        if name.is_some_and(|n| OPAQUE_MACROS.contains(&n.as_str())) {
            return;
        }
        let parser = syn::punctuated::Punctuated::<syn::Expr, syn::Token![,]>::parse_terminated;
        if let Ok(args) = mac.parse_body_with(parser) {
            for arg in &args {
                self.visit_expr(arg);
            }
        }
    }
}

/// Every path of a `use` tree, prefix included.
fn use_paths(tree: &syn::UseTree, prefix: &mut Vec<String>, out: &mut dyn FnMut(Vec<String>)) {
    match tree {
        syn::UseTree::Path(p) => {
            prefix.push(p.ident.to_string());
            use_paths(&p.tree, prefix, out);
            prefix.pop();
        }
        syn::UseTree::Name(n) => {
            let mut path = prefix.clone();
            if n.ident != "self" {
                path.push(n.ident.to_string());
            }
            out(path);
        }
        syn::UseTree::Rename(r) => {
            let mut path = prefix.clone();
            if r.ident != "self" {
                path.push(r.ident.to_string());
            }
            out(path);
        }
        syn::UseTree::Glob(_) => out(prefix.clone()),
        syn::UseTree::Group(g) => {
            for item in &g.items {
                use_paths(item, prefix, out);
            }
        }
    }
}

/// The module a path named from `from` reaches: the innermost module its segments walk
/// through. `None` for paths into other crates or to items of `from` itself.
fn resolve(tree: &Tree, from: &ModulePath, segments: &[String]) -> Option<ModulePath> {
    let mut at: ModulePath;
    let mut rest = segments;
    match segments.first().map(String::as_str) {
        Some("crate") => {
            at = Vec::new();
            rest = &segments[1..];
        }
        Some("self") => {
            at = from.clone();
            rest = &segments[1..];
        }
        Some("super") => {
            at = from.clone();
            while rest.first().is_some_and(|s| s == "super") {
                at.pop()?;
                rest = &rest[1..];
            }
        }
        Some(first) if tree.modules[from].children.contains(first) => at = from.clone(),
        _ => return None,
    }
    for segment in rest {
        let children = &tree.modules.get(&at)?.children;
        if !children.contains(segment) {
            break;
        }
        at.push(segment.clone());
    }
    Some(at)
}

/// Whether one module contains the other (or they are the same).
fn nested(a: &ModulePath, b: &ModulePath) -> bool {
    a.starts_with(b) || b.starts_with(a)
}

/// Module → the modules it depends on.
type Graph = BTreeMap<ModulePath, BTreeSet<ModulePath>>;

/// The crate's module graph.
fn edges(tree: &Tree) -> Graph {
    let mut graph = Graph::new();
    for (path, module) in &tree.modules {
        graph.entry(path.clone()).or_default();
        for (from, segments) in &module.named {
            let Some(target) = resolve(tree, from, segments) else {
                continue;
            };
            if !nested(path, &target) {
                graph.entry(path.clone()).or_default().insert(target);
            }
        }
    }
    graph
}

/// A cycle through `node`, if any (depth-first search).
fn cycle<N: Ord + Clone>(
    graph: &BTreeMap<N, BTreeSet<N>>,
    node: &N,
    path: &mut Vec<N>,
    done: &mut BTreeSet<N>,
) -> Option<Vec<N>> {
    if let Some(start) = path.iter().position(|n| n == node) {
        let mut found = path[start..].to_vec();
        found.push(node.clone());
        return Some(found);
    }
    if done.contains(node) {
        return None;
    }
    path.push(node.clone());
    for next in graph.get(node).into_iter().flatten() {
        if let Some(found) = cycle(graph, next, path, done) {
            return Some(found);
        }
    }
    path.pop();
    done.insert(node.clone());
    None
}

fn module_name(path: &ModulePath) -> String {
    if path.is_empty() {
        "crate".to_owned()
    } else {
        format!("crate::{}", path.join("::"))
    }
}

#[test]
fn no_crate_of_the_workspace_has_a_module_cycle() {
    let roots = crate_roots();
    let names: Vec<&str> = roots.iter().map(|(n, _)| n.as_str()).collect();
    for expected in ["oncegen (oncegen)", "oncegen-runtime (oncegen_runtime)"] {
        assert!(names.contains(&expected), "crates found: {names:?}");
    }
    let mut cycles = Vec::new();
    let mut edge_count = 0;
    for (name, root) in &roots {
        let tree = read_tree(name, root);
        let graph = edges(&tree);
        edge_count += graph.values().map(BTreeSet::len).sum::<usize>();
        let mut done = BTreeSet::new();
        let mut seen = BTreeSet::new();
        for node in graph.keys() {
            let Some(mut found) = cycle(&graph, node, &mut Vec::new(), &mut done) else {
                continue;
            };
            found.pop();
            let least = (0..found.len()).min_by_key(|i| &found[*i]).unwrap_or(0);
            found.rotate_left(least);
            if seen.insert(found.clone()) {
                found.push(found[0].clone());
                let modules: Vec<String> = found.iter().map(module_name).collect();
                cycles.push(format!("{name}: {}", modules.join(" -> ")));
            }
        }
    }
    assert!(edge_count > 100, "edges are found: {edge_count}");
    assert!(cycles.is_empty(), "module cycles:\n{}", cycles.join("\n"));
}

#[test]
fn the_reader_finds_edges_and_cycles() {
    let dir = std::env::temp_dir().join(format!("module-graph-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("a")).expect("scratch folder");
    let files = [
        (
            "lib.rs",
            "mod a; mod b;\nmod c { pub fn f() { crate::b::g(); } }",
        ),
        ("a/mod.rs", "mod x; pub use x::X; fn e() { x::h(); }"),
        (
            "a/x.rs",
            "pub struct X; pub fn h() { let _ = vec![super::super::c::f()]; }",
        ),
        (
            "b.rs",
            "use crate::a::x::X; pub fn g() { quote!(crate::c::f()); }",
        ),
    ];
    for (file, text) in files {
        std::fs::write(dir.join(file), text).expect("scratch file");
    }
    let tree = read_tree("scratch", &dir.join("lib.rs"));
    std::fs::remove_dir_all(&dir).expect("scratch removed");
    let graph = edges(&tree);
    let path = |p: &[&str]| -> ModulePath { p.iter().map(|s| (*s).to_owned()).collect() };
    let targets = |p: &[&str]| -> Vec<ModulePath> { graph[&path(p)].iter().cloned().collect() };
    assert_eq!(
        targets(&["a", "x"]),
        [path(&["c"])],
        "in a macro's arguments"
    );
    assert!(
        targets(&["a"]).is_empty(),
        "a module's own parts are no edge"
    );
    assert_eq!(targets(&["b"]), [path(&["a", "x"])], "`quote!` is not read");
    assert_eq!(targets(&["c"]), [path(&["b"])], "from an inline module");
    let found = cycle(&graph, &path(&["b"]), &mut Vec::new(), &mut BTreeSet::new());
    assert_eq!(
        found
            .expect("a cycle")
            .iter()
            .map(module_name)
            .collect::<Vec<_>>(),
        ["crate::b", "crate::a::x", "crate::c", "crate::b"]
    );
}
