//! What `oncegen cli` and `oncegen mcp` share: a crate generated beside an SDK crate `oncegen
//! sdk` wrote, read from the surface it left there (`api.json`), depending on the SDK by path
//! and on its support crate from the SDK's vendor/ (else from crates.io by version), and a
//! crate of its own wherever it is written.

use oncegen::emit::{GeneratedFile, RUNTIME_VERSION, relative_path, spec_label};
use oncegen::runtime::{self, bundled_crate_dir};
use oncegen::surface::FILE_NAME;
use oncegen::write::{self, Mode};
use std::path::{Path, PathBuf};

/// Where a crate is generated: beside which SDK, into which directory.
#[derive(clap::Args)]
pub(crate) struct Place {
    /// The SDK crate's directory (with the `api.json` `oncegen sdk` wrote).
    #[arg(long, value_name = "SDK_DIR")]
    pub(crate) sdk: PathBuf,
    /// The generated crate's directory (created when missing).
    #[arg(long, value_name = "DIR")]
    pub(crate) out: PathBuf,
}

/// The SDK crate a tool or server is generated for.
pub(crate) struct Sdk {
    /// Its directory.
    pub(crate) dir: PathBuf,
    /// The surface it was generated from.
    pub(crate) surface: oncegen::Surface,
    /// What the `@generated` header names as the source (its `api.json`).
    pub(crate) spec_label: String,
}

impl Sdk {
    /// The SDK crate at `dir`.
    pub(crate) fn read(dir: &Path) -> Result<Self, String> {
        let path = dir.join(FILE_NAME);
        let text = std::fs::read_to_string(&path).map_err(|e| {
            format!(
                "{}: {e} (is {} a crate `oncegen sdk` generated?)",
                path.display(),
                dir.display()
            )
        })?;
        let surface =
            serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(Sdk {
            dir: dir.to_owned(),
            surface,
            spec_label: spec_label(&path),
        })
    }

    /// The package name.
    pub(crate) fn name(&self) -> &str {
        &self.surface.crate_name
    }

    /// The package name without `-sdk`: what the tools are named after.
    pub(crate) fn stem(&self) -> &str {
        self.name().strip_suffix("-sdk").unwrap_or(self.name())
    }

    /// The `[dependencies]` lines of a crate at `out`: the SDK by path with its write journal,
    /// and `support` (`oncegen-cli`, `oncegen-mcp`) from the SDK's vendor/ when it is there.
    pub(crate) fn dependencies(&self, out: &Path, support: &str) -> Result<Vec<String>, String> {
        let relative = |target: &Path| {
            relative_path(out, target)
                .map(|p| p.display().to_string().replace('\\', "/"))
                .map_err(|e| format!("{}: {e}", target.display()))
        };
        // An SDK with a vendored runtime gets the support crates beside it (`oncegen sdk`
        // vendors only what the SDK compiles against).
        let runtime_vendored = bundled_crate_dir(&self.dir, "oncegen-runtime").join("Cargo.toml");
        if runtime::is_bundled() && runtime_vendored.is_file() {
            runtime::write_bundle(&self.dir, runtime::support_crates(support), Mode::Write)
                .map_err(|e| e.to_string())?;
        }
        let vendored = bundled_crate_dir(&self.dir, support);
        let support = if vendored.join("Cargo.toml").is_file() {
            format!(
                "{support} = {{ path = \"{}\", version = \"{RUNTIME_VERSION}\" }}",
                relative(&vendored)?
            )
        } else {
            format!("{support} = \"{RUNTIME_VERSION}\"")
        };
        Ok(vec![
            format!(
                "{} = {{ path = \"{}\", features = [\"journal\"] }}",
                self.name(),
                relative(&self.dir)?
            ),
            support,
        ])
    }

    /// The `[package]` lines of a crate generated beside it: its version, unpublished.
    pub(crate) fn package(&self) -> Vec<String> {
        vec![
            format!("version = \"{}\"", self.surface.crate_version),
            "edition = \"2024\"".to_owned(),
            "publish = false".to_owned(),
        ]
    }
}

/// Writes `files` to `out` as a crate of its own (its own `[workspace]`), owning `src/`;
/// returns how many files changed.
pub(crate) fn write_crate(out: &Path, mut files: Vec<GeneratedFile>) -> Result<usize, String> {
    if let Some(manifest) = files.iter_mut().find(|f| f.path == Path::new("Cargo.toml")) {
        manifest.contents.push_str("\n[workspace]\n");
    }
    let written = write::ensure_files_owning(out, &files, &["src".into()], Mode::Write)
        .map_err(|e| e.to_string())?;
    Ok(written.changed.len())
}
