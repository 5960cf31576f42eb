//! No crate of the workspace has a module cycle.
//!
//! Every crate target (library and binaries) of every workspace package, from `cargo metadata`,
//! is read from its root file at test time, following `mod` declarations (files, folders,
//! `#[path]`, inline modules) with `syn`, so any layout is covered. A module depends on another
//! when its code names it or an item in it: `crate::`, `super::` and `self::` paths, paths that
//! start with a child module's name, in `use` declarations and inline (expressions, types,
//! patterns, and the arguments of macros that parse as expressions; `quote!` and its kin hold
//! generated code and are not read). A path names the module that defines what it reaches:
//! a name a module imports or re-exports (`use`, `pub use`, globs) is followed to the module
//! that defines it, so `use crate::App` depends on `app` when the root re-exports `app::App`.
//! Test modules (`#[cfg(test)]`) are clients of their crate and may use any of it to build
//! fixtures; they are not read. A module and its own ancestors or descendants are one folder's
//! facade and parts, not an edge; every other reference is, and also counts between the two sibling folders that hold
//! its ends (`emit::options` naming `write` makes `emit` depend on `write`). The graph must be
//! acyclic. A failure names the modules of each cycle.

use sdk_tests::workspace;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use syn::visit::Visit;

/// A module, by its path from the crate root (`["emit", "operations"]`; the root is `[]`).
type ModulePath = Vec<String>;

/// One module of a crate: its children, what it defines and imports, and the paths its code
/// names.
#[derive(Default)]
struct Module {
    children: BTreeSet<String>,
    /// Each named path with the module it is named from (an inline module's own path).
    named: Vec<(ModulePath, Vec<String>)>,
    /// Names of the items it defines (types, functions, traits, constants, macros).
    defined: BTreeSet<String>,
    /// Names it imports or re-exports, each with the path its `use` names.
    imported: BTreeMap<String, Vec<String>>,
    /// Paths of its glob imports (`use x::*`).
    globs: Vec<Vec<String>>,
}

/// A crate target's module tree.
struct Tree {
    name: String,
    modules: BTreeMap<ModulePath, Module>,
}

/// Every library and binary target of every workspace package, as `(name, root file)`.
fn crate_roots() -> Vec<(String, PathBuf)> {
    let mut roots = Vec::new();
    for package in &workspace::packages() {
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
            syn::Item::Mod(module) if is_test_only(&module.attrs) => {}
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
            other => {
                record_bindings(tree.modules.get_mut(&path).expect("module recorded"), other);
                names.visit_item(other);
            }
        }
    }
    tree.modules
        .get_mut(&path)
        .expect("module recorded")
        .named
        .append(&mut names.found);
}

/// Whether the attributes hold `#[cfg(test)]`: a test module, a client of its crate rather
/// than a part of its layers.
fn is_test_only(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("cfg") && a.parse_args::<syn::Ident>().is_ok_and(|i| i == "test")
    })
}

/// Records the names `item` defines or imports in `module`.
fn record_bindings(module: &mut Module, item: &syn::Item) {
    let defined = match item {
        syn::Item::Struct(i) => Some(&i.ident),
        syn::Item::Enum(i) => Some(&i.ident),
        syn::Item::Union(i) => Some(&i.ident),
        syn::Item::Fn(i) => Some(&i.sig.ident),
        syn::Item::Trait(i) => Some(&i.ident),
        syn::Item::Type(i) => Some(&i.ident),
        syn::Item::Const(i) => Some(&i.ident),
        syn::Item::Static(i) => Some(&i.ident),
        syn::Item::Macro(i) => i.ident.as_ref(),
        syn::Item::Use(i) if i.leading_colon.is_none() => {
            use_bindings(&i.tree, &mut Vec::new(), module);
            None
        }
        _ => None,
    };
    if let Some(ident) = defined {
        module.defined.insert(ident.to_string());
    }
}

/// The names a `use` tree binds, each with its path, and its globs.
fn use_bindings(tree: &syn::UseTree, prefix: &mut Vec<String>, module: &mut Module) {
    let mut bind = |ident: &syn::Ident, alias: &syn::Ident| {
        let mut path = prefix.clone();
        if ident != "self" {
            path.push(ident.to_string());
        }
        let name = if alias == "self" {
            prefix.last().cloned()
        } else {
            Some(alias.to_string())
        };
        if let Some(name) = name.filter(|n| n != "_") {
            module.imported.insert(name, path);
        }
    };
    match tree {
        syn::UseTree::Path(p) => {
            prefix.push(p.ident.to_string());
            use_bindings(&p.tree, prefix, module);
            prefix.pop();
        }
        syn::UseTree::Name(n) => bind(&n.ident, &n.ident),
        syn::UseTree::Rename(r) => bind(&r.ident, &r.rename),
        syn::UseTree::Glob(_) => module.globs.push(prefix.clone()),
        syn::UseTree::Group(g) => {
            for item in &g.items {
                use_bindings(item, prefix, module);
            }
        }
    }
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
        // A macro's path names the module holding the macro (the crate root for an exported
        // one), not a module of the macro's name.
        let mut holder: Vec<String> = mac
            .path
            .segments
            .iter()
            .map(|s| s.ident.to_string())
            .collect();
        holder.pop();
        if mac.path.leading_colon.is_none() && !holder.is_empty() {
            self.record(holder);
        }
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

/// How many imports a path is followed through (a bound for glob cycles).
const MAX_HOPS: usize = 16;

/// The module a path named from `from` reaches: the innermost module its segments walk
/// through, or the module defining the item it then names. `None` for paths into other crates.
fn resolve(tree: &Tree, from: &ModulePath, segments: &[String]) -> Option<ModulePath> {
    resolve_within(tree, from, segments, MAX_HOPS)
}

/// [`resolve`], following at most `depth` imports.
fn resolve_within(
    tree: &Tree,
    from: &ModulePath,
    segments: &[String],
    depth: usize,
) -> Option<ModulePath> {
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
        Some(first) if tree.modules[from].imported.contains_key(first) => {
            let hops = depth.checked_sub(1)?;
            return defining(tree, from, first, &segments[1..], hops);
        }
        _ => return None,
    }
    for (i, segment) in rest.iter().enumerate() {
        let module = tree.modules.get(&at)?;
        if module.children.contains(segment) {
            at.push(segment.clone());
            continue;
        }
        // An item of `at`, or a name `at` imports: followed to where it is defined.
        let hops = depth.checked_sub(1)?;
        return Some(defining(tree, &at, segment, &rest[i + 1..], hops).unwrap_or(at));
    }
    Some(at)
}

/// The module defining `name` as seen from `at` (then walked through `rest`), following
/// imports and globs at most `hops` times; `None` when `at` neither defines nor imports it.
fn defining(
    tree: &Tree,
    at: &ModulePath,
    name: &str,
    rest: &[String],
    hops: usize,
) -> Option<ModulePath> {
    let module = tree.modules.get(at)?;
    if module.defined.contains(name) {
        return Some(at.clone());
    }
    if let Some(path) = module.imported.get(name) {
        let full: Vec<String> = path.iter().chain(rest).cloned().collect();
        return resolve_within(tree, at, &full, hops);
    }
    module.globs.iter().find_map(|glob| {
        let target = resolve_within(tree, at, glob, hops)?;
        let found = defining(tree, &target, name, rest, hops.checked_sub(1)?)?;
        Some(found)
    })
}

/// Whether one module contains the other (or they are the same).
fn nested(a: &ModulePath, b: &ModulePath) -> bool {
    a.starts_with(b) || b.starts_with(a)
}

/// The two sibling modules (children of their closest common ancestor) that hold `a` and `b`,
/// neither containing the other.
fn siblings(a: &ModulePath, b: &ModulePath) -> (ModulePath, ModulePath) {
    let common = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    (a[..=common].to_vec(), b[..=common].to_vec())
}

/// Module → the modules it depends on, each with the first reference that makes the edge.
type Graph = BTreeMap<ModulePath, BTreeMap<ModulePath, String>>;

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
                let witness = format!("{} names {}", module_name(from), segments.join("::"));
                let (a, b) = siblings(path, &target);
                graph
                    .entry(a)
                    .or_default()
                    .entry(b)
                    .or_insert_with(|| witness.clone());
                graph
                    .entry(path.clone())
                    .or_default()
                    .entry(target)
                    .or_insert(witness);
            }
        }
    }
    graph
}

/// A cycle through `node`, if any (depth-first search).
fn cycle<N: Ord + Clone>(
    graph: &BTreeMap<N, BTreeMap<N, String>>,
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
    for next in graph.get(node).into_iter().flat_map(BTreeMap::keys) {
        if let Some(found) = cycle(graph, next, path, done) {
            return Some(found);
        }
    }
    path.pop();
    done.insert(node.clone());
    None
}

/// The graph's strongly connected sets of more than one module (Tarjan's algorithm), each
/// sorted.
fn tangles(graph: &Graph) -> Vec<Vec<ModulePath>> {
    struct Walk<'g> {
        graph: &'g Graph,
        index: BTreeMap<&'g ModulePath, (usize, usize)>,
        stack: Vec<&'g ModulePath>,
        found: Vec<Vec<ModulePath>>,
    }
    impl<'g> Walk<'g> {
        fn visit(&mut self, node: &'g ModulePath) -> usize {
            let order = self.index.len();
            self.index.insert(node, (order, order));
            self.stack.push(node);
            let mut low = order;
            for next in self.graph.get(node).into_iter().flat_map(BTreeMap::keys) {
                let next = self.graph.get_key_value(next).map_or(next, |(k, _)| k);
                low = match self.index.get(next) {
                    None => low.min(self.visit(next)),
                    Some(&(seen, _)) if self.stack.contains(&next) => low.min(seen),
                    Some(_) => low,
                };
            }
            self.index.insert(node, (order, low));
            if low == order {
                let at = self
                    .stack
                    .iter()
                    .rposition(|n| *n == node)
                    .expect("on the stack");
                let mut component: Vec<ModulePath> = self.stack.drain(at..).cloned().collect();
                if component.len() > 1 {
                    component.sort();
                    self.found.push(component);
                }
            }
            low
        }
    }
    let mut walk = Walk {
        graph,
        index: BTreeMap::new(),
        stack: Vec::new(),
        found: Vec::new(),
    };
    for node in graph.keys() {
        if !walk.index.contains_key(node) {
            walk.visit(node);
        }
    }
    walk.found.sort();
    walk.found
}

fn module_name(path: &ModulePath) -> String {
    if path.is_empty() {
        "crate".to_owned()
    } else {
        format!("crate::{}", path.join("::"))
    }
}

/// Crates still holding one tangle while the layering works it down: `(crate, at most this
/// many modules)`. The list may only shrink.
const TANGLED: &[(&str, usize)] = &[];

/// A tangle's modules and one cycle through them, each step with the reference that makes it.
fn describe(name: &str, graph: &Graph, component: &[ModulePath]) -> String {
    let start = component.first().expect("a tangle has modules");
    let found =
        cycle(graph, start, &mut Vec::new(), &mut BTreeSet::new()).expect("a tangle holds a cycle");
    let members: Vec<String> = component.iter().map(module_name).collect();
    let steps: Vec<String> = found
        .windows(2)
        .map(|w| format!("\n    {} ({})", module_name(&w[1]), graph[&w[0]][&w[1]]))
        .collect();
    format!(
        "{name}: {} modules depend on each other ({}), e.g. {}{}",
        members.len(),
        members.join(", "),
        module_name(start),
        steps.concat()
    )
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
        edge_count += graph.values().map(BTreeMap::len).sum::<usize>();
        let found = tangles(&graph);
        let allowed = TANGLED.iter().find(|(crate_name, _)| crate_name == name);
        match (found.as_slice(), allowed) {
            ([], Some((_, size))) => cycles.push(format!(
                "{name}: no longer tangled (listed at {size} modules): remove it from TANGLED"
            )),
            ([only], Some((_, size))) if only.len() <= *size => {}
            _ => cycles.extend(found.iter().map(|c| describe(name, &graph, c))),
        }
    }
    assert!(edge_count > 100, "edges are found: {edge_count}");
    assert!(cycles.is_empty(), "module cycles:\n{}", cycles.join("\n"));
}

#[test]
fn the_reader_finds_edges_and_cycles() {
    let graph = scratch_graph(&[
        (
            "lib.rs",
            "mod a; mod b; mod d; pub use d::*;\nmod c { pub fn f() { crate::b::g(); } }",
        ),
        ("a/mod.rs", "mod x; pub use x::X; fn e() { x::h(); }"),
        (
            "a/x.rs",
            "pub struct X; pub fn h() { let _ = vec![super::super::c::f()]; }",
        ),
        (
            "b.rs",
            "use crate::a::X; pub fn g() { quote!(crate::c::f()); }",
        ),
        ("d.rs", "mod e { pub struct E; } pub use e::E as Renamed;"),
        ("f.rs", "use crate::Renamed;"),
    ]);
    let path = |p: &[&str]| -> ModulePath { p.iter().map(|s| (*s).to_owned()).collect() };
    let targets = |p: &[&str]| -> Vec<ModulePath> { graph[&path(p)].keys().cloned().collect() };
    assert_eq!(
        targets(&["a", "x"]),
        [path(&["c"])],
        "in a macro's arguments"
    );
    assert_eq!(
        targets(&["a"]),
        [path(&["c"])],
        "a module's own parts are no edge; a part's edge is its folder's"
    );
    assert_eq!(
        targets(&["b"]),
        [path(&["a"]), path(&["a", "x"])],
        "`quote!` is not read; a re-export is followed to its definition"
    );
    assert_eq!(targets(&["c"]), [path(&["b"])], "from an inline module");
    assert_eq!(
        targets(&["f"]),
        [path(&["d"]), path(&["d", "e"])],
        "through a glob and a renaming re-export"
    );
    let found = cycle(&graph, &path(&["b"]), &mut Vec::new(), &mut BTreeSet::new());
    assert_eq!(
        found
            .expect("a cycle")
            .iter()
            .map(module_name)
            .collect::<Vec<_>>(),
        ["crate::b", "crate::a", "crate::c", "crate::b"]
    );
}

/// The module graph of a scratch crate made of `files` (the last one is `mod f` of the root).
fn scratch_graph(files: &[(&str, &str)]) -> Graph {
    let dir = std::env::temp_dir().join(format!("module-graph-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("a")).expect("scratch folder");
    for (file, text) in files {
        let text = if *file == "lib.rs" {
            format!("mod f; {text}")
        } else {
            (*text).to_owned()
        };
        std::fs::write(dir.join(file), text).expect("scratch file");
    }
    let tree = read_tree("scratch", &dir.join("lib.rs"));
    std::fs::remove_dir_all(&dir).expect("scratch removed");
    edges(&tree)
}
