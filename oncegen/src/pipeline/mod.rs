//! The pipeline: read → lower → surface → emit, and with the change report, `regenerate`:
//! generate the crate, compare its surface with the baseline, version it, and bring the
//! directory (crate files, `api.json`, `CHANGELOG.md`) and the crate's entry in `Cargo.lock`
//! up to date ([`lockfile`]). The entry points of `cargo xtask gen`, of the `oncegen` binary and
//! of the tests. [`runtime`] places the crates a standalone crate compiles against.

mod lockfile;
pub mod runtime;

use crate::emit::{self, GeneratedFile, Options};
use crate::error::{Error, Result};
use crate::ir::Api;
use crate::report::version::package_version;
use crate::report::{Baseline, ChangeReport, Version, changelog, compare};
use crate::surface::Surface;
use crate::write::{self, Mode};
use crate::{lower, read};
use std::path::Path;

/// The model of the document at `spec`.
pub fn model(spec: &Path) -> Result<Api> {
    lower::lower(&read::load(spec)?)
}

/// The model of a document given as text (`source_name` labels errors).
pub fn model_str(text: &str, source_name: &str) -> Result<Api> {
    lower::lower(&read::parse(text, source_name)?)
}

/// Reads, lowers and emits: the model and the files of the crate for the document at `spec`.
pub fn generate(spec: &Path, options: &Options) -> Result<(Api, Vec<GeneratedFile>)> {
    let api = model(spec)?;
    let files = emit::emit(&api, options)?;
    Ok((api, files))
}

/// Like [`generate`], for a document given as text (`source_name` labels errors).
pub fn generate_str(
    text: &str,
    source_name: &str,
    options: &Options,
) -> Result<(Api, Vec<GeneratedFile>)> {
    let api = model_str(text, source_name)?;
    let files = emit::emit(&api, options)?;
    Ok((api, files))
}

/// Directory, relative to the crate, whose generated files are deleted when no longer produced.
const OWNED_DIR: &str = "src/generated";

/// What one run did (or, in check mode, would do).
#[derive(Debug)]
pub struct Regeneration {
    /// The model.
    pub api: Api,
    /// Every file of the directory: the crate, `api.json` and, with a new entry, the
    /// changelog.
    pub files: Vec<GeneratedFile>,
    /// The change report.
    pub report: ChangeReport,
    /// Files that differed (written in [`Mode::Write`]), `Cargo.lock` included.
    pub written: write::Report,
}

/// One crate, or a crate per area behind a facade ([`emit::split`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// One crate.
    Single,
    /// A crate per area behind a facade.
    SplitAreas,
    /// Split from [`emit::split::DEFAULT_SPLIT_OPERATIONS`] operations up, for a standalone
    /// crate; one crate otherwise.
    Auto,
}

/// Generates the crate for `spec` into `dir` (or compares, in [`Mode::Check`]). The crate
/// version in `options` is replaced by the one the change report implies.
pub fn regenerate(spec: &Path, dir: &Path, options: &Options, mode: Mode) -> Result<Regeneration> {
    regenerate_as(spec, dir, options, mode, Shape::Single)
}

/// [`regenerate`], in the given shape.
pub fn regenerate_as(
    spec: &Path,
    dir: &Path,
    options: &Options,
    mode: Mode,
    shape: Shape,
) -> Result<Regeneration> {
    let api = model(spec)?;
    let baseline = Baseline::load(dir);
    let manifest_version = version_in_manifest(dir)?;
    // The surface is computed once: the report versions it, the emitter renders it.
    let surface = Surface::of(&api, &options.crate_name, &Version::INITIAL.to_string());
    let (surface, report) = compare(&baseline, manifest_version, surface);
    let options = Options {
        crate_version: Some(report.crate_version.to_string()),
        ..options.clone()
    };
    let (mut files, owned) = if split(shape, &api, &options) {
        (
            emit::split::emit_split_surface(&api, &surface, &options)?,
            emit::split::owned_dirs(dir),
        )
    } else {
        (
            emit::emit_surface(&api, &surface, &options)?,
            vec![OWNED_DIR.into()],
        )
    };
    files.push(GeneratedFile {
        path: crate::surface::FILE_NAME.into(),
        contents: surface.to_json(),
    });
    files.extend(changelog_file(dir, &report, &options)?);
    let mut written = write::ensure_files_owning(dir, &files, &owned, mode)?;
    if let Some(path) = lockfile::location(dir, &options.layout) {
        let lock = read_if_present(&path)?.unwrap_or_default();
        let version = report.crate_version.to_string();
        if let Some(updated) = lockfile::with_version(&lock, &options.crate_name, &version) {
            write::ensure_file(&path, &updated, mode, &mut written)?;
        }
    }
    Ok(Regeneration {
        api,
        files,
        report,
        written,
    })
}

/// Whether the crate is generated split by area: as asked, or (`Shape::Auto`) for a standalone
/// crate of many operations.
fn split(shape: Shape, api: &Api, options: &Options) -> bool {
    match shape {
        Shape::Single => false,
        Shape::SplitAreas => true,
        Shape::Auto => {
            options.layout.is_standalone()
                && api.operations.len() >= emit::split::DEFAULT_SPLIT_OPERATIONS
        }
    }
}

/// The crate's changelog with the report's entry, when it has one to add.
fn changelog_file(
    dir: &Path,
    report: &ChangeReport,
    options: &Options,
) -> Result<Option<GeneratedFile>> {
    let existing = read_if_present(&dir.join(changelog::FILE_NAME))?;
    let updated = changelog::updated(existing.as_deref(), report, &options.crate_name);
    Ok(updated.map(|contents| GeneratedFile {
        path: changelog::FILE_NAME.into(),
        contents,
    }))
}

/// The version written in `dir/Cargo.toml`, if there is one.
fn version_in_manifest(dir: &Path) -> Result<Option<Version>> {
    let path = dir.join("Cargo.toml");
    let Some(manifest) = read_if_present(&path)? else {
        return Ok(None);
    };
    match package_version(&manifest) {
        None => Ok(None),
        Some(text) => Version::parse(text).map(Some).ok_or_else(|| Error::Syntax {
            source_name: path.display().to_string(),
            message: format!("package version `{text}` is not MAJOR.MINOR.PATCH"),
        }),
    }
}

fn read_if_present(path: &Path) -> Result<Option<String>> {
    match std::fs::read_to_string(path) {
        Ok(text) => Ok(Some(text)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(source) => Err(Error::Io {
            path: path.to_owned(),
            source,
        }),
    }
}
