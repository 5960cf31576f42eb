//! The bundled runtime: when the generator is built inside a checkout of its workspace, the
//! sources of the crates a generated crate compiles against (`openapi-conventions`,
//! `oncegen-codec`, `oncegen-runtime`, `oncegen-cli` for a generated command-line tool and
//! `oncegen-mcp` for a generated MCP server) are embedded into it, each with a self-contained
//! manifest (the workspace's inherited fields and dependencies written out, dev-dependencies
//! and lints dropped, path dependencies pointing at the sibling copies). `oncegen sdk` writes
//! them beside the crate it generates, so that crate builds wherever it is generated, before
//! any of them is on a registry.
//!
//! Built from a registry package (`cargo install oncegen`), there are no sibling crates: the
//! bundle is empty and generated crates depend on the published runtime by version.
//!
//! Writes `$OUT_DIR/bundle.rs`: a `&[(&str, &str)]` of paths (`CRATE/FILE`) and contents.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The bundled crates, dependencies first.
const CRATES: &[&str] = &[
    "openapi-conventions",
    "oncegen-codec",
    "oncegen-runtime",
    "oncegen-cli",
    "oncegen-mcp",
];

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let manifest_dir = PathBuf::from(env("CARGO_MANIFEST_DIR"));
    let out_dir = PathBuf::from(env("OUT_DIR"));
    let workspace = manifest_dir.parent().map(Path::to_owned);
    let entries = match workspace.filter(|w| is_checkout(w)) {
        Some(workspace) => bundle(&workspace, &out_dir),
        None => String::new(),
    };
    let out = out_dir.join("bundle.rs");
    std::fs::write(&out, format!("&[\n{entries}]\n"))
        .unwrap_or_else(|e| panic!("writing {}: {e}", out.display()));
}

fn env(name: &str) -> String {
    std::env::var(name).unwrap_or_else(|_| panic!("cargo sets {name} for build scripts"))
}

/// Whether `dir` is this workspace's root: a `[workspace]` manifest with every bundled crate.
fn is_checkout(dir: &Path) -> bool {
    let is_workspace = std::fs::read_to_string(dir.join("Cargo.toml"))
        .is_ok_and(|text| text.lines().any(|l| l.trim() == "[workspace]"));
    is_workspace
        && CRATES
            .iter()
            .all(|name| dir.join(name).join("Cargo.toml").is_file())
}

/// The bundle's entries: for each crate its normalized manifest (written to `out_dir`), its
/// README when it has one, and every file under `src/`.
fn bundle(workspace: &Path, out_dir: &Path) -> String {
    println!("cargo:rerun-if-changed=../Cargo.toml");
    let root = read_toml(&workspace.join("Cargo.toml"));
    let ws = root
        .get("workspace")
        .and_then(toml::Value::as_table)
        .expect("the workspace manifest has [workspace]");
    let mut entries = String::new();
    for name in CRATES {
        let dir = workspace.join(name);
        println!("cargo:rerun-if-changed=../{name}/Cargo.toml");
        println!("cargo:rerun-if-changed=../{name}/src");
        let manifest = standalone_manifest(&read_toml(&dir.join("Cargo.toml")), ws);
        let manifest_path = out_dir.join(format!("{name}.Cargo.toml"));
        std::fs::write(&manifest_path, manifest)
            .unwrap_or_else(|e| panic!("writing {}: {e}", manifest_path.display()));
        entry(&mut entries, &format!("{name}/Cargo.toml"), &manifest_path);
        let readme = dir.join("README.md");
        // Watched only when it exists: cargo treats a missing watched file as changed, which
        // rebuilt the generator (and all that depends on it) on every cargo command.
        if readme.is_file() {
            println!("cargo:rerun-if-changed=../{name}/README.md");
            entry(&mut entries, &format!("{name}/README.md"), &readme);
        }
        let mut sources = Vec::new();
        files_under(&dir.join("src"), &mut sources);
        sources.sort();
        for path in sources {
            let relative = path.strip_prefix(&dir).expect("under the crate");
            let relative = relative.to_string_lossy().replace('\\', "/");
            entry(&mut entries, &format!("{name}/{relative}"), &path);
        }
    }
    entries
}

fn entry(out: &mut String, path: &str, file: &Path) {
    writeln!(
        out,
        "    ({path:?}, include_str!({:?})),",
        file.display().to_string()
    )
    .expect("writing to a String");
}

fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    let entries =
        std::fs::read_dir(dir).unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()));
    for entry in entries {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            files_under(&path, out);
        } else {
            out.push(path);
        }
    }
}

fn read_toml(path: &Path) -> toml::Table {
    let text =
        std::fs::read_to_string(path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
    text.parse()
        .unwrap_or_else(|e| panic!("parsing {}: {e}", path.display()))
}

/// A crate's manifest without anything it inherits from the workspace.
fn standalone_manifest(manifest: &toml::Table, ws: &toml::Table) -> String {
    let empty = toml::Table::new();
    let ws_package = ws
        .get("package")
        .and_then(toml::Value::as_table)
        .unwrap_or(&empty);
    let ws_deps = ws
        .get("dependencies")
        .and_then(toml::Value::as_table)
        .unwrap_or(&empty);
    let mut out = toml::Table::new();
    for (key, value) in manifest {
        match key.as_str() {
            "package" => {
                let mut package = toml::Table::new();
                for (field, value) in value.as_table().expect("[package] is a table") {
                    let value = if inherits(value) {
                        ws_package
                            .get(field)
                            .unwrap_or_else(|| panic!("[workspace.package] has no `{field}`"))
                            .clone()
                    } else {
                        value.clone()
                    };
                    package.insert(field.clone(), value);
                }
                // A copy beside a generated crate is never published from there.
                package.insert("publish".to_owned(), toml::Value::Boolean(false));
                out.insert(key.clone(), toml::Value::Table(package));
            }
            "dependencies" => {
                let mut deps = toml::Table::new();
                for (name, dep) in value.as_table().expect("[dependencies] is a table") {
                    deps.insert(name.clone(), standalone_dependency(name, dep, ws_deps));
                }
                out.insert(key.clone(), toml::Value::Table(deps));
            }
            // Tests are not bundled; lints are the workspace's own business.
            "dev-dependencies" | "lints" => {}
            _ => {
                out.insert(key.clone(), value.clone());
            }
        }
    }
    format!(
        "# Bundled by oncegen: a copy of this crate for the generated crate beside it to build against\n# until it is on a registry (oncegen's README, \"Where a generated crate gets its runtime\").\n{}",
        toml::to_string(&out).expect("a manifest serializes")
    )
}

fn inherits(value: &toml::Value) -> bool {
    value
        .as_table()
        .and_then(|t| t.get("workspace"))
        .and_then(toml::Value::as_bool)
        == Some(true)
}

/// A dependency written out: the workspace's entry merged with the crate's features and
/// `optional`; a path (a sibling crate of the bundle) points at the sibling copy.
fn standalone_dependency(name: &str, dep: &toml::Value, ws_deps: &toml::Table) -> toml::Value {
    let mut table = if inherits(dep) {
        match ws_deps.get(name) {
            Some(toml::Value::String(version)) => {
                let mut t = toml::Table::new();
                t.insert("version".to_owned(), toml::Value::String(version.clone()));
                t
            }
            Some(toml::Value::Table(t)) => t.clone(),
            _ => panic!("[workspace.dependencies] has no `{name}`"),
        }
    } else {
        match dep {
            toml::Value::Table(t) => t.clone(),
            other => return other.clone(),
        }
    };
    if let Some(local) = dep.as_table() {
        for (key, value) in local {
            match key.as_str() {
                "workspace" => {}
                "features" => {
                    let mut features = table
                        .get("features")
                        .and_then(toml::Value::as_array)
                        .cloned()
                        .unwrap_or_default();
                    for f in value.as_array().expect("features is a list") {
                        if !features.contains(f) {
                            features.push(f.clone());
                        }
                    }
                    table.insert(key.clone(), toml::Value::Array(features));
                }
                _ => {
                    table.insert(key.clone(), value.clone());
                }
            }
        }
    }
    if table.contains_key("path") {
        assert!(
            CRATES.contains(&name),
            "`{name}` is a path dependency outside the bundle"
        );
        table.insert("path".to_owned(), toml::Value::String(format!("../{name}")));
    }
    toml::Value::Table(table)
}
