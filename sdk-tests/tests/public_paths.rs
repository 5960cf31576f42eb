//! Every public item of the runtime is reachable by exactly one path (issue 40): a module is
//! either public, and none of its items is re-exported elsewhere, or private, and its public
//! items are re-exported at the root.
//!
//! The runtime's files are read with `syn` from `src/lib.rs`, following file modules. A module
//! is public when it is declared `pub mod` in a public module (the root included) or re-exported
//! by a `pub use` of the root. A `pub use` gives an item a second path when it re-exports it from
//! a public module: at the root (`pub use config::Config` beside `pub mod config`), or inside a
//! public module (`pub use crate::error::PolledOutcome` in `poll` beside the root's
//! `PolledOutcome`). The codec crate's items are followed one step: its root re-exports name the
//! module they come from (`oncegen_codec::Nullable` is `oncegen_codec::nullable::Nullable`).

use sdk_tests::workspace;
use std::collections::BTreeSet;
use std::path::PathBuf;

/// A path as segments (`["write", "journal", "Settlement"]`).
type Segments = Vec<String>;

/// The external crate whose modules the runtime re-exports.
const CODEC: &str = "oncegen_codec";

/// One crate's sources: the folder of its root file.
struct Sources(PathBuf);

impl Sources {
    /// The file of `module` (`[]`: the root), if it is a file module.
    fn file(&self, module: &[String]) -> Option<syn::File> {
        let path = match module.split_last() {
            None => self.0.join("lib.rs"),
            Some((last, parents)) => {
                let folder = parents.iter().fold(self.0.clone(), |p, s| p.join(s));
                let flat = folder.join(format!("{last}.rs"));
                if flat.exists() {
                    flat
                } else {
                    folder.join(last).join("mod.rs")
                }
            }
        };
        let text = std::fs::read_to_string(&path).ok()?;
        Some(syn::parse_file(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display())))
    }

    /// The file modules `module` declares: `(name, public)`.
    fn children(&self, module: &[String]) -> Vec<(String, bool)> {
        let Some(file) = self.file(module) else {
            return Vec::new();
        };
        let file_module = |item: &syn::Item| match item {
            syn::Item::Mod(m) if m.content.is_none() => Some((m.ident.to_string(), is_pub(&m.vis))),
            _ => None,
        };
        file.items.iter().filter_map(file_module).collect()
    }

    /// Whether `path` names a module of this crate.
    fn is_module(&self, path: &[String]) -> bool {
        path.split_last().is_some_and(|(last, parent)| {
            self.children(parent).iter().any(|(name, _)| name == last)
        })
    }

    /// The paths `module`'s `pub use` declarations re-export, as written.
    fn pub_uses(&self, module: &[String]) -> Vec<Segments> {
        let Some(file) = self.file(module) else {
            return Vec::new();
        };
        let mut paths = Vec::new();
        for item in &file.items {
            if let syn::Item::Use(u) = item
                && is_pub(&u.vis)
            {
                expand(&u.tree, Vec::new(), &mut paths);
            }
        }
        paths
    }
}

/// Whether a visibility is plain `pub` (not `pub(crate)`).
fn is_pub(vis: &syn::Visibility) -> bool {
    matches!(vis, syn::Visibility::Public(_))
}

/// Every path of a use tree (`a::{b, c::*}` is `a::b` and `a::c::*`; a rename keeps the name
/// it renames).
fn expand(tree: &syn::UseTree, mut prefix: Segments, out: &mut Vec<Segments>) {
    match tree {
        syn::UseTree::Path(p) => {
            prefix.push(p.ident.to_string());
            expand(&p.tree, prefix, out);
        }
        syn::UseTree::Name(n) => out.push([prefix, vec![n.ident.to_string()]].concat()),
        syn::UseTree::Rename(r) => out.push([prefix, vec![r.ident.to_string()]].concat()),
        syn::UseTree::Glob(_) => out.push([prefix, vec!["*".to_owned()]].concat()),
        syn::UseTree::Group(g) => g.items.iter().for_each(|t| expand(t, prefix.clone(), out)),
    }
}

/// The runtime and the codec, and which of their modules the runtime makes public.
struct Crates {
    runtime: Sources,
    codec: Sources,
    /// Public modules: the runtime's by their path in it, the codec's led by [`CODEC`].
    public: BTreeSet<Segments>,
}

impl Crates {
    fn read(runtime: PathBuf, codec: PathBuf) -> Self {
        let mut crates = Crates {
            runtime: Sources(runtime),
            codec: Sources(codec),
            public: BTreeSet::new(),
        };
        let mut reached = vec![Vec::new()];
        for path in crates.runtime.pub_uses(&[]) {
            let path = crate_relative(path);
            if crates.is_module(&path) {
                reached.push(path);
            }
        }
        while let Some(module) = reached.pop() {
            if module.first().is_some_and(|s| s == CODEC) {
                crates.public.insert(module);
                continue;
            }
            for (child, public) in crates.runtime.children(&module) {
                if public {
                    reached.push([module.clone(), vec![child]].concat());
                }
            }
            crates.public.insert(module);
        }
        crates.public.remove(&Vec::new());
        crates
    }

    /// Whether `path` names a module of the runtime, or of the codec.
    fn is_module(&self, path: &[String]) -> bool {
        match path.split_first() {
            Some((first, rest)) if first == CODEC => self.codec.is_module(rest),
            _ => self.runtime.is_module(path),
        }
    }

    /// The module that defines what `path` re-exports: its parent, or for a codec root item, the
    /// module the codec re-exports it from.
    fn origin(&self, path: &[String]) -> Segments {
        let (name, parent) = path.split_last().expect("a path");
        if parent != [CODEC] {
            return parent.to_vec();
        }
        let from = self.codec.pub_uses(&[]).into_iter().find_map(|p| {
            let (last, module) = p.split_last()?;
            (last == name).then(|| module.to_vec())
        });
        [parent.to_vec(), from.unwrap_or_default()].concat()
    }

    /// Every `pub use` that gives an item a second path.
    fn second_paths(&self) -> Vec<String> {
        let root: Vec<Segments> = self
            .runtime
            .pub_uses(&[])
            .into_iter()
            .map(crate_relative)
            .collect();
        let mut found = Vec::new();
        for path in &root {
            let origin = self.origin(path);
            if self.public.contains(&origin) {
                found.push(format!(
                    "the root re-exports `{}` from public module `{}`",
                    path.join("::"),
                    origin.join("::")
                ));
            }
        }
        for module in self
            .public
            .iter()
            .filter(|m| m.first().is_none_or(|s| s != CODEC))
        {
            for path in self.runtime.pub_uses(module) {
                if path.first().is_some_and(|s| s == "crate") {
                    let path = crate_relative(path);
                    let origin = self.origin(&path);
                    if self.public.contains(&origin) || root.contains(&path) {
                        found.push(format!(
                            "public module `{}` re-exports `{}`, reachable elsewhere too",
                            module.join("::"),
                            path.join("::")
                        ));
                    }
                }
            }
        }
        found
    }
}

/// `path` without a leading `crate`.
fn crate_relative(mut path: Segments) -> Segments {
    if path.first().is_some_and(|s| s == "crate") {
        path.remove(0);
    }
    path
}

#[test]
fn every_public_item_of_the_runtime_has_one_path() {
    let repo = workspace::repo();
    let crates = Crates::read(
        repo.join("oncegen-runtime/src"),
        repo.join("oncegen-codec/src"),
    );
    assert!(
        crates.public.contains(&vec!["pagination".to_owned()]),
        "the reader found the runtime's public modules: {:?}",
        crates.public
    );
    let found = crates.second_paths();
    assert!(found.is_empty(), "{}", found.join("\n"));
}

/// A crate in a scratch folder, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new(files: &[(&str, &str)]) -> Self {
        let dir = std::env::temp_dir().join(format!("public-paths-{}", std::process::id()));
        for (name, text) in files {
            let path = dir.join(name);
            std::fs::create_dir_all(path.parent().expect("a folder")).unwrap();
            std::fs::write(path, text).unwrap();
        }
        Self(dir)
    }

    fn path(&self, folder: &str) -> PathBuf {
        self.0.join(folder)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[test]
fn the_reader_finds_each_way_an_item_gets_a_second_path() {
    let scratch = Scratch::new(&[
        (
            "rt/lib.rs",
            "pub mod open; mod closed; mod folder;\n\
             pub use open::Twice;\n\
             pub use closed::Once;\n\
             pub use folder::{inner, inner::Inner};\n\
             pub use oncegen_codec::{Nullable, nullable, Secret};",
        ),
        (
            "rt/open.rs",
            "pub struct Twice; pub use crate::closed::Once;",
        ),
        ("rt/closed.rs", "pub struct Once;"),
        ("rt/folder/mod.rs", "pub mod inner;"),
        ("rt/folder/inner.rs", "pub struct Inner;"),
        (
            "codec/lib.rs",
            "pub mod nullable; mod secret; pub use nullable::Nullable; pub use secret::Secret;",
        ),
        ("codec/nullable.rs", "pub enum Nullable {}"),
        ("codec/secret.rs", "pub struct Secret;"),
    ]);
    let crates = Crates::read(scratch.path("rt"), scratch.path("codec"));
    assert_eq!(
        crates.second_paths(),
        [
            "the root re-exports `open::Twice` from public module `open`",
            "the root re-exports `folder::inner::Inner` from public module `folder::inner`",
            "the root re-exports `oncegen_codec::Nullable` from public module `oncegen_codec::nullable`",
            "public module `open` re-exports `closed::Once`, reachable elsewhere too",
        ]
    );
}
