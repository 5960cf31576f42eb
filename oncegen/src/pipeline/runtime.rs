//! Where a standalone generated crate gets the crates it compiles against (the runtime, its
//! codec and conventions, and `oncegen-cli` for a generated command-line tool).
//!
//! Until they are on a registry, a generator built from a checkout carries their sources
//! (embedded by `build.rs`) and writes them under `vendor/` in the generated crate, which
//! depends on them by path and version: it builds wherever it is generated, offline but for
//! the registry's crates, and `cargo publish` of it depends on the runtime by version. A
//! generator built from a registry package carries nothing and depends by version.

use crate::error::Result;
use crate::write::{self, Mode};
use std::path::{Path, PathBuf};

/// The directory, relative to a generated crate, the bundled crates are written into.
pub const VENDOR_DIR: &str = "vendor";

/// The bundled crates an SDK compiles against: all `oncegen sdk` writes under `vendor/`.
pub const SDK_CRATES: &[&str] = &["openapi-conventions", "oncegen-codec", "oncegen-runtime"];

/// The bundled crates a tool on the support crate `support` adds beside the SDK's: the
/// support crate and the one it builds on (`oncegen-mcp` reads `oncegen-cli`'s profiles).
pub fn support_crates(support: &str) -> &'static [&'static str] {
    match support {
        "oncegen-cli" => &["oncegen-cli"],
        "oncegen-mcp" => &["oncegen-cli", "oncegen-mcp"],
        _ => &[],
    }
}

/// Path and contents of every bundled file (`CRATE/FILE`), empty when the generator was not
/// built inside a checkout of its workspace.
const BUNDLE: &[(&str, &str)] = include!(concat!(env!("OUT_DIR"), "/bundle.rs"));

/// Where a standalone crate's runtime comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RuntimeSource {
    /// The copy this generator carries, written under [`VENDOR_DIR`].
    Bundled,
    /// The registry, by version.
    Registry,
    /// An `oncegen-runtime` crate at this path (a checkout of the generator's workspace).
    Path(PathBuf),
}

impl RuntimeSource {
    /// The bundled copy when this generator carries one, else the registry.
    pub fn default_for_this_build() -> Self {
        if is_bundled() {
            RuntimeSource::Bundled
        } else {
            RuntimeSource::Registry
        }
    }

    /// The runtime crate's directory for a crate generated into `out_dir` (pass it to
    /// [`Options::standalone`](crate::emit::Options::standalone)); `None`: by version.
    pub fn runtime_dir(&self, out_dir: &Path) -> Option<PathBuf> {
        match self {
            RuntimeSource::Bundled => Some(bundled_crate_dir(out_dir, "oncegen-runtime")),
            RuntimeSource::Registry => None,
            RuntimeSource::Path(path) => Some(path.clone()),
        }
    }
}

/// Whether this generator carries the runtime's sources.
pub fn is_bundled() -> bool {
    !BUNDLE.is_empty()
}

/// The directory of the bundled crate `name` beside a crate generated into `out_dir`.
pub fn bundled_crate_dir(out_dir: &Path, name: &str) -> PathBuf {
    out_dir.join(VENDOR_DIR).join(name)
}

/// Writes (or, in [`Mode::Check`], compares) the bundled `crates` under `out_dir/vendor/`
/// ([`SDK_CRATES`], [`support_crates`]): vendor/ holds only what the generated crates use.
/// Fails when this generator carries none.
pub fn write_bundle(out_dir: &Path, crates: &[&str], mode: Mode) -> Result<write::Report> {
    let vendor = out_dir.join(VENDOR_DIR);
    if !is_bundled() {
        return Err(crate::Error::Io {
            path: vendor,
            source: std::io::Error::new(
                std::io::ErrorKind::NotFound,
                "this oncegen was built from a registry package and carries no runtime sources: \
                 depend on the published runtime (`--runtime registry`) or on a checkout \
                 (`--runtime PATH`)",
            ),
        });
    }
    let mut report = write::Report::default();
    for (path, contents) in files_of(crates) {
        write::ensure_file(&vendor.join(path), contents, mode, &mut report)?;
    }
    Ok(report)
}

/// The bundled files (`CRATE/FILE`) of `crates`.
fn files_of<'a>(
    crates: &'a [&str],
) -> impl Iterator<Item = &'static (&'static str, &'static str)> + 'a {
    BUNDLE.iter().filter(|(path, _)| {
        path.split_once('/')
            .is_some_and(|(krate, _)| crates.contains(&krate))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_checkout_build_bundles_every_crate_with_a_self_contained_manifest() {
        assert!(is_bundled(), "built inside the workspace");
        let manifest_of = |name: &str| {
            BUNDLE
                .iter()
                .find(|(p, _)| *p == format!("{name}/Cargo.toml"))
                .map(|(_, c)| *c)
                .unwrap_or_else(|| panic!("{name} has no manifest in the bundle"))
        };
        for name in [
            "openapi-conventions",
            "oncegen-codec",
            "oncegen-runtime",
            "oncegen-cli",
            "oncegen-mcp",
        ] {
            let manifest = manifest_of(name);
            assert!(!manifest.contains("workspace"), "{name}: {manifest}");
            assert!(
                BUNDLE
                    .iter()
                    .any(|(p, _)| *p == format!("{name}/src/lib.rs")),
                "{name} has no lib.rs"
            );
        }
        let runtime = manifest_of("oncegen-runtime");
        assert!(runtime.contains("path = \"../oncegen-codec\""), "{runtime}");
        let mcp = manifest_of("oncegen-mcp");
        assert!(mcp.contains("path = \"../oncegen-cli\""), "{mcp}");
    }

    #[test]
    fn an_sdk_alone_vendors_only_the_crates_it_compiles_against() {
        let crates = |wanted: &[&str]| -> std::collections::BTreeSet<&str> {
            files_of(wanted)
                .filter_map(|(path, _)| path.split_once('/').map(|(krate, _)| krate))
                .collect()
        };
        assert_eq!(
            crates(SDK_CRATES),
            ["oncegen-codec", "oncegen-runtime", "openapi-conventions"].into()
        );
        assert_eq!(
            crates(support_crates("oncegen-mcp")),
            ["oncegen-cli", "oncegen-mcp"].into()
        );
        assert_eq!(
            crates(support_crates("oncegen-cli")),
            ["oncegen-cli"].into()
        );
    }
}
