//! The two generators compared by `bench-report compare`, as release binaries that read a
//! document and write a standalone crate: ours (`cargo xtask gen --out`, standalone layout,
//! the current `oncegen`) and progenitor 0.15.1 in builder style
//! (`tools/progenitor-compare`, a crate outside the workspace).

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::repo_root;

/// Where the tool crate lives, relative to the repository root.
const TOOL_CRATE: &str = "tools/progenitor-compare";

/// One of the compared generators.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Generator {
    /// `oncegen` through `cargo xtask gen --out DIR --crate-name NAME`.
    Ours,
    /// progenitor `=0.15.1`, builder style, through `tools/progenitor-compare`.
    Progenitor,
}

impl Generator {
    /// A name for tables and directories.
    pub fn label(self) -> &'static str {
        match self {
            Generator::Ours => "ours",
            Generator::Progenitor => "progenitor",
        }
    }

    /// Builds the release binary and returns its path. The tool crate builds in
    /// `tool_target_dir` with its committed `Cargo.lock` (`--locked`).
    pub fn build(self, tool_target_dir: &Path) -> PathBuf {
        let root = repo_root();
        let mut cargo = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
        cargo
            .current_dir(&root)
            .args(["build", "--release", "--quiet"]);
        let binary = match self {
            Generator::Ours => {
                cargo.args(["-p", "xtask"]);
                workspace_target_dir().join("release/xtask")
            }
            Generator::Progenitor => {
                cargo
                    .args(["--locked", "--manifest-path"])
                    .arg(root.join(TOOL_CRATE).join("Cargo.toml"))
                    .env("CARGO_TARGET_DIR", tool_target_dir);
                tool_target_dir.join("release/progenitor-compare")
            }
        };
        let status = cargo.status().expect("spawn cargo");
        assert!(
            status.success(),
            "building the {} generator failed",
            self.label()
        );
        binary
    }

    /// Arguments of `binary` that write the crate `name` for `spec` to `out`.
    pub fn args(self, spec: &Path, out: &Path, name: &str) -> Vec<OsString> {
        match self {
            Generator::Ours => vec![
                "gen".into(),
                "--spec".into(),
                spec.into(),
                "--out".into(),
                out.into(),
                "--crate-name".into(),
                name.into(),
                // The runtime of this checkout (the generator runs at the repository root).
                "--runtime-path".into(),
                "oncegen-runtime".into(),
                // One crate at every size: the split layout is measured on its own.
                "--single-crate".into(),
            ],
            Generator::Progenitor => vec![spec.into(), out.into(), name.into()],
        }
    }
}

/// The workspace's target directory: the one this binary was built into.
fn workspace_target_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("current exe");
    exe.parent()
        .and_then(Path::parent)
        .expect("binary inside <target>/<profile>/")
        .to_path_buf()
}
