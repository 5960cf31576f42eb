//! What a generation is told besides the document: the crate's name, its layout, its version
//! and the manifest lines that are not the generator's to decide.

use std::path::{Path, PathBuf};

/// How the crate is laid out.
#[derive(Debug, Clone)]
pub enum Layout {
    /// A member of the generator's own workspace (`customer-cloud-sdk/` here): dependencies come from
    /// the workspace, `src/lib.rs` is hand-written.
    Workspace,
    /// A standalone crate (own `[workspace]`, generated `src/lib.rs`) that depends on the
    /// runtime crate at a path, for use inside a checkout of this workspace.
    Standalone {
        /// Path of the runtime crate, relative to the generated crate's directory (written into
        /// Cargo.toml as it is; [`Options::standalone`] makes it relative).
        runtime_path: PathBuf,
    },
    /// A standalone crate (own `[workspace]`, generated `src/lib.rs`) that depends on the
    /// published `oncegen-runtime` by version ([`RUNTIME_VERSION`]): it builds anywhere.
    Published,
}

/// The version of `oncegen-runtime` a [`Layout::Published`] crate depends on: the runtime's own
/// version, which is the workspace version the generator shares.
pub const RUNTIME_VERSION: &str = env!("CARGO_PKG_VERSION");

/// Emission options.
#[derive(Debug, Clone)]
pub struct Options {
    /// Cargo package name.
    pub crate_name: String,
    /// The spec path named in the `@generated` header.
    pub spec_label: String,
    /// Layout of the crate.
    pub layout: Layout,
    /// The package version written into Cargo.toml (`cargo xtask gen` derives it from the change
    /// report); `None` keeps the layout's default (`version.workspace = true`, or `0.1.0`).
    pub crate_version: Option<String>,
    /// Manifest lines that are not the generator's to decide: `[package]` metadata for
    /// publishing and the dev-dependencies of the crate's examples.
    pub manifest: ManifestExtras,
}

/// Hand-chosen manifest lines written into the generated Cargo.toml as they are.
#[derive(Debug, Clone, Default)]
pub struct ManifestExtras {
    /// Lines appended to `[package]` (`readme = "README.md"`, `keywords = [...]`).
    pub package: Vec<String>,
    /// Lines of `[dev-dependencies]`.
    pub dev_dependencies: Vec<String>,
}

impl Layout {
    /// A crate of its own (not a member of this workspace): it gets a generated `src/lib.rs`.
    pub fn is_standalone(&self) -> bool {
        !matches!(self, Layout::Workspace)
    }
}

/// A crate name from the spec's file stem (`train-travel.yaml` → `train-travel-sdk`).
pub fn crate_name_from(spec: &Path) -> String {
    let stem = spec.file_stem().and_then(|s| s.to_str()).unwrap_or("api");
    let cleaned: String = stem
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect();
    let cleaned = cleaned.trim_matches('-');
    if cleaned.starts_with(|c: char| c.is_ascii_alphabetic()) {
        format!("{cleaned}-sdk")
    } else {
        format!("api-{cleaned}-sdk")
    }
}

impl Options {
    /// The options of a crate that is a member of the generator's own workspace
    /// ([`Layout::Workspace`]): `crate_name` generated from the document `spec_label` names,
    /// with the manifest lines its project chose (`cargo xtask gen` passes this workspace's).
    pub fn workspace_member(crate_name: &str, spec_label: &str, manifest: ManifestExtras) -> Self {
        Options {
            crate_name: crate_name.to_owned(),
            spec_label: spec_label.to_owned(),
            layout: Layout::Workspace,
            crate_version: None,
            manifest,
        }
    }

    /// The options of a standalone crate generated from `spec` into `out_dir`: the package
    /// name from the spec's file name, the spec labelled as given when that path is relative
    /// (else by its file name), and the runtime by version, or at `runtime_dir` (any path; it is
    /// written relative to `out_dir`). Nothing of the machine's absolute paths reaches the files.
    pub fn standalone(
        spec: &Path,
        out_dir: &Path,
        runtime_dir: Option<&Path>,
    ) -> std::io::Result<Self> {
        let layout = match runtime_dir {
            Some(dir) => Layout::Standalone {
                runtime_path: super::paths::relative(out_dir, dir)?,
            },
            None => Layout::Published,
        };
        Ok(Options {
            crate_name: crate_name_from(spec),
            spec_label: super::paths::label(spec),
            layout,
            crate_version: None,
            manifest: ManifestExtras::default(),
        })
    }

    /// The crate version its surface records: the one given, else the first release.
    pub(crate) fn version(&self) -> &str {
        self.crate_version.as_deref().unwrap_or("0.1.0")
    }

    pub(super) fn header(&self, comment: &str) -> String {
        crate::write::header(comment, &self.spec_label)
    }
}
