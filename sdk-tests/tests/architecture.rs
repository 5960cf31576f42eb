//! Invariants of `ARCHITECTURE.md` that no other test holds: what each crate may depend on, the
//! generator's one writer, and what its emitter reads.

use oncegen::emit::GeneratedFile;
use oncegen::write::{self, Mode};
use sdk_tests::workspace;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, SystemTime};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Every workspace crate with its dependencies (normal, dev and build), from `cargo metadata`.
fn workspace_dependencies() -> Dependencies {
    let packages = workspace::packages();
    packages
        .iter()
        .map(|p| {
            let deps = p["dependencies"]
                .as_array()
                .expect("dependencies")
                .iter()
                .map(|d| {
                    let kind = d["kind"].as_str().unwrap_or("normal");
                    (
                        d["name"].as_str().expect("name").to_owned(),
                        kind.to_owned(),
                    )
                })
                .collect();
            (p["name"].as_str().expect("name").to_owned(), deps)
        })
        .collect()
}

/// The crate holding the facts the generator, the runtime and the sandbox share.
const SHARED_FACTS: &str = "openapi-conventions";

/// The encoding of generated types, which the runtime re-exports (its one other workspace
/// dependency).
const CODEC: &str = "oncegen-codec";

/// The runtime knows no API and the sandbox no SDK, so neither depends on another workspace
/// crate, nor does the generator (it knows the runtime only as the paths it emits,
/// `docs/runtime-surface.md`); the runtime's one exception is the codec it re-exports, which
/// depends on no workspace crate at all. The generated crate depends on the runtime and the
/// crates its code names (`docs/runtime-surface.md`), and on the sandbox only for its examples.
#[test]
fn crates_depend_only_on_what_their_boundaries_allow() {
    let crates = workspace_dependencies();
    let workspace: BTreeSet<&str> = crates.keys().map(String::as_str).collect();
    for name in [
        "oncegen",
        CODEC,
        "oncegen-runtime",
        "customer-cloud-sdk",
        "cloud-sandbox",
    ] {
        assert!(workspace.contains(name), "no workspace crate `{name}`");
    }
    isolated_crates_depend_on_no_other(&crates, &workspace);
    the_sdk_depends_on_the_runtime_and_what_its_code_names(&crates);
    the_tool_depends_on_the_sdk_and_its_mechanisms(&crates, &workspace);
}

/// Every workspace crate with its dependencies, by name.
type Dependencies = BTreeMap<String, BTreeSet<(String, String)>>;

/// The runtime, the sandbox and the generator depend on no other workspace crate but the
/// shared facts (the runtime also on the codec), and the codec on none.
fn isolated_crates_depend_on_no_other(crates: &Dependencies, workspace: &BTreeSet<&str>) {
    for isolated in ["oncegen-runtime", "cloud-sandbox", "oncegen"] {
        let inside: Vec<_> = crates[isolated]
            .iter()
            // A dev-dependency on itself (to test its own features) is no other crate, and the
            // shared-facts crate is the one home of facts all three need.
            .filter(|(dep, _)| {
                dep != isolated && dep != SHARED_FACTS && workspace.contains(dep.as_str())
            })
            .filter(|(dep, _)| !(isolated == "oncegen-runtime" && dep == CODEC))
            .collect();
        assert!(
            inside.is_empty(),
            "{isolated} depends on workspace crates: {inside:?}"
        );
    }
    let codec_inside: Vec<_> = crates[CODEC]
        .iter()
        .filter(|(dep, _)| workspace.contains(dep.as_str()))
        .collect();
    assert!(
        codec_inside.is_empty(),
        "{CODEC} depends on workspace crates: {codec_inside:?}"
    );
}

/// The generated SDK depends on the runtime and the crates its code names, and on the
/// generator for nothing.
fn the_sdk_depends_on_the_runtime_and_what_its_code_names(crates: &Dependencies) {
    let sdk = &crates["customer-cloud-sdk"];
    let allowed = [
        "oncegen-runtime",
        "serde",
        "serde_json",
        "uuid",
        "chrono",
        "rust_decimal",
        "futures",
        "bytes",
    ];
    for (dep, kind) in sdk {
        let ok = match kind.as_str() {
            "normal" => allowed.contains(&dep.as_str()),
            "dev" => dep != "oncegen",
            _ => false,
        };
        assert!(ok, "customer-cloud-sdk may not depend on `{dep}` ({kind})");
    }
    assert!(sdk.contains(&("oncegen-runtime".to_owned(), "normal".to_owned())));
}

/// The command-line tool: the hand-written mechanisms know the runtime and no API; the
/// generated tool knows the SDK and those mechanisms, of the workspace's crates.
fn the_tool_depends_on_the_sdk_and_its_mechanisms(
    crates: &Dependencies,
    workspace: &BTreeSet<&str>,
) {
    let inside = |name: &str, kind: &str| -> BTreeSet<String> {
        crates[name]
            .iter()
            .filter(|(dep, k)| k == kind && workspace.contains(dep.as_str()))
            .map(|(dep, _)| dep.clone())
            .collect()
    };
    let names = |list: &[&str]| {
        list.iter()
            .map(|n| (*n).to_owned())
            .collect::<BTreeSet<_>>()
    };
    assert_eq!(inside("oncegen-cli", "normal"), names(&["oncegen-runtime"]));
    assert_eq!(
        inside("customer-cloud-cli", "normal"),
        names(&["customer-cloud-sdk", "oncegen-cli"])
    );
    // Its tests: the sandbox, the mechanisms again with the journal's kill points
    // (`crash-points`), and `sdk-tests`'s throwaway PostgreSQL cluster.
    assert_eq!(
        inside("customer-cloud-cli", "dev"),
        names(&["cloud-sandbox", "oncegen-cli", "sdk-tests"])
    );
}

/// The crates `package` compiles for an application (normal dependencies, default features),
/// by name, from `cargo tree`.
fn normal_tree(package: &str) -> BTreeSet<String> {
    let output = Command::new(env!("CARGO"))
        .args([
            "tree",
            "--offline",
            "-e",
            "normal",
            "--prefix",
            "none",
            "-p",
            package,
        ])
        .arg("--manifest-path")
        .arg(repo().join("Cargo.toml"))
        .output()
        .expect("cargo tree runs");
    assert!(
        output.status.success(),
        "cargo tree: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout)
        .expect("UTF-8")
        .lines()
        .filter_map(|line| line.split_whitespace().next().map(str::to_owned))
        .collect()
}

/// An application compiles one HTTP stack (hyper; reqwest only with the `reqwest` feature), and
/// generated types compile without any (the codec needs no HTTP crate).
#[test]
fn a_default_build_compiles_one_http_stack_and_the_codec_none() {
    let sdk = normal_tree("customer-cloud-sdk");
    assert!(sdk.contains("hyper"), "{sdk:?}");
    assert!(
        !sdk.contains("reqwest"),
        "reqwest in customer-cloud-sdk's default tree"
    );
    let codec = normal_tree(CODEC);
    assert!(codec.contains("serde_json"), "{codec:?}");
    for http in ["hyper", "http", "reqwest", "tokio"] {
        assert!(!codec.contains(http), "{CODEC} compiles {http}");
    }
}

/// Every Rust source file under `dir`, recursively, sorted.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.expect("dir entry").path();
        if path.is_dir() {
            out.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
    out.sort();
    out
}

/// `oncegen/src/write.rs` is the one place of the generator that changes the disk.
#[test]
fn only_the_writer_changes_the_disk() {
    const WRITES: &[&str] = &[
        "fs::write",
        "fs::remove_file",
        "fs::remove_dir",
        "fs::create_dir",
        "fs::rename",
        "fs::copy",
        "File::create",
        "OpenOptions",
    ];
    let src = repo().join("oncegen/src");
    let mut writers = BTreeSet::new();
    for file in rust_files(&src) {
        let text = std::fs::read_to_string(&file).expect("source");
        if WRITES.iter().any(|w| text.contains(w)) {
            let relative = file.strip_prefix(&src).expect("under src");
            writers.insert(relative.to_string_lossy().replace('\\', "/"));
        }
    }
    assert_eq!(writers, BTreeSet::from(["write.rs".to_owned()]));
}

/// The writer rewrites only files whose contents changed, deletes only the files it owns
/// (marked `@generated`, in the owned directory) that are no longer produced, and in check mode
/// reports the same without touching the disk.
#[test]
fn the_writer_keeps_unchanged_and_hand_written_files_and_check_mode_touches_nothing() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("architecture_writer");
    let owned = Path::new("src/generated");
    let header = format!("// {} from spec.yaml. Do not edit.\n", write::MARKER);
    let old = writer_fixture(&dir, &header);
    let files = [
        GeneratedFile {
            path: "src/generated/same.rs".into(),
            contents: format!("{header}pub struct Same;\n"),
        },
        GeneratedFile {
            path: "src/generated/new.rs".into(),
            contents: format!("{header}pub struct New;\n"),
        },
    ];

    let check = write::ensure_files(&dir, &files, owned, Mode::Check).expect("checks");
    assert_eq!(check.changed, [dir.join("src/generated/new.rs")]);
    assert_eq!(
        check.stale,
        [
            dir.join("src/generated/earlier.rs"),
            dir.join("src/generated/stale.rs")
        ]
    );
    assert_eq!(check.unchanged, 1);
    assert!(
        !dir.join("src/generated/new.rs").exists(),
        "check mode wrote"
    );
    assert!(
        dir.join("src/generated/stale.rs").exists(),
        "check mode deleted"
    );

    let run = write::ensure_files(&dir, &files, owned, Mode::Write).expect("writes");
    assert_eq!((run.changed, run.stale), (check.changed, check.stale));
    the_write_kept_what_it_should(&dir, old);

    let again = write::ensure_files(&dir, &files, owned, Mode::Write).expect("writes");
    assert!(again.is_clean(), "{again:?}");
}

/// A fresh `dir` with generated files (one unchanged, dated `old`, which it returns; one
/// stale; one of an earlier generator) and a hand-written one.
fn writer_fixture(dir: &Path, header: &str) -> SystemTime {
    let _ = std::fs::remove_dir_all(dir);
    let put = |path: &str, contents: &str| {
        let path = dir.join(path);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("dir");
        std::fs::write(&path, contents).expect("written");
    };
    put(
        "src/generated/same.rs",
        &format!("{header}pub struct Same;\n"),
    );
    put(
        "src/generated/stale.rs",
        &format!("{header}pub struct Gone;\n"),
    );
    // Written by a generator of before the `oncegen` marker: still the writer's to remove.
    put(
        "src/generated/earlier.rs",
        "// @generated by cargo xtask gen from spec.yaml. Do not edit.\npub struct Old;\n",
    );
    put("src/generated/notes.rs", "// hand-written\n");
    let old = SystemTime::UNIX_EPOCH + Duration::from_secs(1_000_000_000);
    let same = std::fs::File::options()
        .write(true)
        .open(dir.join("src/generated/same.rs"))
        .expect("open");
    same.set_modified(old).expect("mtime set");
    old
}

/// After a write into [`writer_fixture`]'s directory: the new file is there, the stale and
/// earlier ones are gone, the hand-written one stays and the unchanged one is still dated `old`.
fn the_write_kept_what_it_should(dir: &Path, old: SystemTime) {
    assert!(dir.join("src/generated/new.rs").exists());
    assert!(!dir.join("src/generated/stale.rs").exists());
    assert!(!dir.join("src/generated/earlier.rs").exists());
    assert!(
        dir.join("src/generated/notes.rs").exists(),
        "hand-written file deleted"
    );
    let modified = std::fs::metadata(dir.join("src/generated/same.rs"))
        .and_then(|m| m.modified())
        .expect("mtime");
    assert_eq!(modified, old, "an unchanged file was rewritten");
}

/// The code of a generator source file, comment lines left out.
fn code_of(file: &Path) -> String {
    std::fs::read_to_string(file)
        .expect("source")
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The generator's files under `src/<folder>` whose code contains `needle`, relative to `src`.
fn naming(folder: &str, needle: &str) -> BTreeSet<String> {
    let src = repo().join("oncegen/src");
    let dir = src.join(folder);
    let files = if dir.is_dir() {
        rust_files(&dir)
    } else {
        vec![src.join(format!("{folder}.rs"))]
    };
    files
        .into_iter()
        .filter(|f| code_of(f).contains(needle))
        .map(|f| {
            let relative = f.strip_prefix(&src).expect("under src");
            relative.to_string_lossy().replace('\\', "/")
        })
        .collect()
}

/// The surface decides what a caller sees (argument order, builder methods, the Rust spelling
/// of a type and of a field's optionality, deprecation notes, server constants); the emitter
/// renders it and the change report diffs it, and neither reads the other.
#[test]
fn the_surface_owns_what_a_caller_sees_and_emit_and_report_only_read_it() {
    // The report reads the command-line tool's names from the surface (`command_line`), never
    // from its emitter.
    for (folder, other) in [
        ("report", "emit"),
        ("report", "cli"),
        ("emit", "report"),
        ("surface", "emit"),
    ] {
        let found = naming(folder, &format!("crate::{other}"));
        assert!(found.is_empty(), "{folder}/ names {other}/: {found:?}");
    }
    assert!(naming("surface", "crate::report").is_empty());
    // Call orders are read from the `Surface`, never recomputed.
    let ordering: BTreeSet<String> = ["emit", "report", "pipeline", "lower", "doc_examples"]
        .iter()
        .flat_map(|folder| naming(folder, "call_order"))
        .collect();
    assert!(
        ordering.is_empty(),
        "call orders computed outside surface/: {ordering:?}"
    );
    // One spelling of a model type as Rust.
    let spelled: BTreeSet<String> = ["emit", "report", "pipeline", "doc_examples", "surface"]
        .iter()
        .flat_map(|folder| naming(folder, "DateTime<"))
        .collect();
    assert_eq!(spelled, BTreeSet::from(["surface/rust_type.rs".to_owned()]));
    let src = repo().join("oncegen/src");
    for decision in [
        "call_order.rs",
        "builder_methods.rs",
        "rust_type.rs",
        "deprecation.rs",
    ] {
        let homes: Vec<String> = rust_files(&src)
            .into_iter()
            .filter(|f| f.file_name().is_some_and(|n| n == decision))
            .map(|f| {
                f.strip_prefix(&src)
                    .expect("under src")
                    .display()
                    .to_string()
            })
            .collect();
        assert_eq!(homes, [format!("surface/{decision}")], "{decision}");
    }
}

/// A parameter never takes a flag the command-line tool has of its own: the names the surface
/// reserves are the flags `oncegen-cli` gives every command.
#[test]
fn the_surface_reserves_the_flags_the_command_line_tool_has() {
    let reserved: BTreeSet<&str> = oncegen::surface::RESERVED_FLAGS.into_iter().collect();
    let own: BTreeSet<&str> = oncegen_cli::OWN_FLAGS.into_iter().collect();
    let reserved_commands: BTreeSet<&str> =
        oncegen::surface::RESERVED_COMMANDS.into_iter().collect();
    let own_commands: BTreeSet<&str> = oncegen_cli::OWN_COMMANDS.into_iter().collect();
    assert_eq!(
        reserved_commands, own_commands,
        "the commands the tool has of its own"
    );
    assert_eq!(reserved, own);
}

/// A scheme's credential never takes a variable a generated tool reads of its own: the names
/// the surface reserves are the variables `oncegen-cli` and `oncegen-mcp` read.
#[test]
fn the_surface_reserves_the_variables_the_tools_read() {
    let reserved: BTreeSet<&str> = oncegen::surface::RESERVED_VARIABLES.into_iter().collect();
    let own: BTreeSet<&str> = oncegen_cli::OWN_VARIABLES.into_iter().collect();
    assert_eq!(reserved, own);
}

/// What emit still reads of the model rather than the surface, by file under
/// `oncegen/src/emit/` → the names it takes from `crate::ir`: wire-level detail a caller does
/// not see (serde tags and renames, parameter styles, body encodings, pagination paths, polls);
/// the document's order where the surface keeps a sorted set (error responses, areas, servers
/// and their variables' values, the schemes of a security requirement, which name its
/// `static`); and the model's `TypeRef`, which emit spells from each module (the surface keeps
/// bare spellings only). It only shrinks: a new name fails, and so does a listed one emit no
/// longer takes (remove it here).
const EMIT_READS_THE_MODEL: &[(&str, &[&str])] = &[
    (
        "conventions.rs",
        &[
            "Api",
            "ErrorCode",
            "Operation",
            "Param",
            "ParamLocation",
            "Poll",
            "RetryCode",
            "Success",
            "TypeRef",
        ],
    ),
    (
        "examples.rs",
        &["Operation", "Success", "TypeKind", "TypeRef"],
    ),
    ("files.rs", &["Api"]),
    ("manifest.rs", &["Api", "BodyEncoding"]),
    (
        "mod.rs",
        &[
            "Api",
            "Field",
            "Operation",
            "Pagination",
            "Param",
            "Success",
            "TypeDef",
            "TypeKind",
            "TypeRef",
        ],
    ),
    (
        "operations.rs",
        &[
            "Alternative",
            "Body",
            "BodyEncoding",
            "IntType",
            "ListStyle",
            "Operation",
            "PageModel",
            "Pagination",
            "Param",
            "ParamLocation",
            "ParamStyle",
            "Structured",
            "Success",
            "TypeRef",
        ],
    ),
    (
        "pagination.rs",
        &[
            "FieldAccess",
            "IntType",
            "PageModel",
            "Pagination",
            "TypeRef",
        ],
    ),
    (
        "reexports.rs",
        &["Api", "BodyEncoding", "Success", "TypeKind", "TypeRef"],
    ),
    ("response_headers.rs", &["Api"]),
    ("security.rs", &["Api", "Operation", "ServerDef"]),
    ("split/area.rs", &["Api"]),
    ("split/core_crate.rs", &["Api"]),
    ("split/facade.rs", &["Api"]),
    ("split/manifest.rs", &["Api"]),
    ("split/mod.rs", &["Api"]),
    (
        "types.rs",
        &[
            "AdditionalProperties",
            "EnumVariant",
            "ExclusiveGroup",
            "Field",
            "FixedTag",
            "TypeDef",
            "TypeKind",
            "TypeRef",
            "UnionVariant",
        ],
    ),
    ("webhooks.rs", &["Api", "Webhook"]),
];

/// The names a file takes from the generator's modules, `(module, name)` for every
/// `crate::module::name` in a `use` item or a path (`self` for the module itself).
#[derive(Default)]
struct CrateNames(BTreeSet<(String, String)>);

impl CrateNames {
    /// The names `tree` imports, `prefix` the segments before it.
    fn use_tree(&mut self, tree: &syn::UseTree, prefix: &mut Vec<String>) {
        match tree {
            syn::UseTree::Path(p) => {
                prefix.push(p.ident.to_string());
                self.use_tree(&p.tree, prefix);
                prefix.pop();
            }
            syn::UseTree::Name(n) => self.leaf(prefix, n.ident.to_string()),
            syn::UseTree::Rename(r) => self.leaf(prefix, r.ident.to_string()),
            syn::UseTree::Glob(_) => self.leaf(prefix, "*".to_owned()),
            syn::UseTree::Group(g) => g.items.iter().for_each(|t| self.use_tree(t, prefix)),
        }
    }

    /// Records the import of `name` after `prefix`: `crate::module::name` (or the first
    /// segment after `module`), or the module itself (`use crate::module;`).
    fn leaf(&mut self, prefix: &[String], name: String) {
        match prefix {
            [krate] if krate == "crate" => {
                self.0.insert((name, "self".to_owned()));
            }
            [krate, module] if krate == "crate" => {
                self.0.insert((module.clone(), name));
            }
            [krate, module, first, ..] if krate == "crate" => {
                self.0.insert((module.clone(), first.clone()));
            }
            _ => {}
        }
    }
}

impl<'ast> syn::visit::Visit<'ast> for CrateNames {
    fn visit_item_use(&mut self, item: &'ast syn::ItemUse) {
        self.use_tree(&item.tree, &mut Vec::new());
    }

    fn visit_path(&mut self, path: &'ast syn::Path) {
        let segments: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
        if let [krate, module, name, ..] = &segments[..]
            && krate == "crate"
        {
            self.0.insert((module.clone(), name.clone()));
        }
        syn::visit::visit_path(self, path);
    }
}

/// Each file under `oncegen/src/emit/` (relative to it) with the names it takes from `module`
/// of the generator.
fn emit_names_from(module: &str) -> BTreeMap<String, BTreeSet<String>> {
    let dir = repo().join("oncegen/src/emit");
    let mut out = BTreeMap::new();
    for file in rust_files(&dir) {
        let text = std::fs::read_to_string(&file).expect("source");
        let parsed = syn::parse_file(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let mut names = CrateNames::default();
        syn::visit::Visit::visit_file(&mut names, &parsed);
        let taken: BTreeSet<String> = names
            .0
            .into_iter()
            .filter(|(m, _)| m == module)
            .map(|(_, name)| name)
            .collect();
        if !taken.is_empty() {
            let relative = file.strip_prefix(&dir).expect("under emit/");
            out.insert(relative.to_string_lossy().replace('\\', "/"), taken);
        }
    }
    out
}

/// Emit reads what a caller sees from the surface, as the command-line tool's and the MCP
/// server's emitters do: it names nothing of lowering, and what it still reads of the model is
/// the shrinking [`EMIT_READS_THE_MODEL`].
#[test]
fn emit_reads_the_surface_and_of_the_model_only_what_is_listed() {
    let lowering = emit_names_from("lower");
    assert!(lowering.is_empty(), "emit/ names lower/: {lowering:?}");
    let listed: BTreeMap<String, BTreeSet<String>> = EMIT_READS_THE_MODEL
        .iter()
        .map(|(file, names)| {
            let names = names.iter().map(|n| (*n).to_owned()).collect();
            ((*file).to_owned(), names)
        })
        .collect();
    let found = emit_names_from("ir");
    for (file, names) in &found {
        let allowed = listed.get(file).cloned().unwrap_or_default();
        let new: Vec<_> = names.difference(&allowed).collect();
        assert!(
            new.is_empty(),
            "emit/{file} reads the model's {new:?}: read the surface"
        );
    }
    for (file, names) in &listed {
        let taken = found.get(file).cloned().unwrap_or_default();
        let gone: Vec<_> = names.difference(&taken).collect();
        assert!(
            gone.is_empty(),
            "emit/{file} no longer reads {gone:?}: strike them from EMIT_READS_THE_MODEL"
        );
    }
}
