//! The split layout: one crate per area behind a facade, for APIs too large to compile as one
//! crate (issue #23: rustc's time per operation and its peak memory grow with the crate).
//!
//! ```text
//! <out>/Cargo.toml, src/lib.rs          the facade `<name>`: a feature per area, prelude
//! <out>/core/                           `<name>-core`: Client, conventions, shared types
//! <out>/areas/<area>/                   `<name>-<area>`: the area's types, builders, `<Area>Api`
//! ```
//!
//! The pieces are the single-crate emitters' own output, so the code of a type, a builder or a
//! method is the same in both layouts. Three things differ: an area's client methods are an
//! extension trait (`<Area>Api`, implemented for the core `Client`: a crate cannot add inherent
//! methods to another crate's type), methods gated by an area feature (`check_contract`, a
//! receipt's `wait`) move to the facade as `<Type>Ext` traits, and each area crate imports
//! `Client`, `types` and `security_schemes` from the core at its root, so that the paths the
//! emitters write (`crate::Client`, `super::types::X`) resolve unchanged. The facade's prelude
//! brings every trait into scope, so a call still reads `client.op(…)`.

mod area;
mod core_crate;
mod extract;
mod facade;
mod manifest;

use super::files::in_parallel;
use super::{GeneratedFile, Layout, Options};
use crate::error::{Error, Result};
use crate::ir::Api;
use crate::naming;
use crate::surface::Surface;
use std::path::{Path, PathBuf};

/// From this many operations up, `cargo xtask gen --out` splits by default (see BENCHMARKS.md,
/// "Split crates"): below it the one crate compiles as fast per operation as the split set does.
pub const DEFAULT_SPLIT_OPERATIONS: usize = 1_000;

/// Directory of the core crate, relative to the facade.
const CORE_DIR: &str = "core";
/// Directory holding one directory per area crate, relative to the facade.
const AREAS_DIR: &str = "areas";

/// The crates of a split SDK and what each is called.
#[derive(Debug, Clone)]
pub struct SplitNames {
    /// The facade package (`Options::crate_name`).
    pub facade: String,
    /// The core package (`<facade>-core`).
    pub core: String,
    /// One entry per area, in the model's order.
    pub areas: Vec<AreaCrate>,
}

/// One area crate.
#[derive(Debug, Clone)]
pub struct AreaCrate {
    /// The area's module and feature name (`dns`).
    pub module: String,
    /// Its package name (`<facade>-dns`).
    pub package: String,
    /// Its extension trait of `Client` (`DnsApi`).
    pub trait_name: String,
}

impl SplitNames {
    /// The names for `api` with the facade called `facade`.
    pub fn new(api: &Api, facade: &str) -> Self {
        let taken = |name: &str| api.types.iter().any(|t| t.name == name);
        let core = if api.areas.iter().any(|a| a.module == "core") {
            format!("{facade}-core-crate")
        } else {
            format!("{facade}-core")
        };
        let areas = api
            .areas
            .iter()
            .map(|a| {
                let base = format!("{}Api", naming::camel(&a.module));
                let trait_name = if taken(&base) {
                    format!("{base}Operations")
                } else {
                    base
                };
                AreaCrate {
                    module: a.module.clone(),
                    package: format!("{facade}-{}", a.module.replace('_', "-")),
                    trait_name,
                }
            })
            .collect();
        SplitNames {
            facade: facade.to_owned(),
            core,
            areas,
        }
    }
}

/// A package name as a Rust path (`customer-cloud-sdk-dns` → `customer_cloud_sdk_dns`).
pub(super) fn ident_of(package: &str) -> String {
    package.replace('-', "_")
}

/// Every file of the split SDK for `api`, relative to the facade's directory. Only for a
/// standalone crate (`--out`): a workspace member stays one crate.
pub fn emit_split(api: &Api, options: &Options) -> Result<Vec<GeneratedFile>> {
    let surface = Surface::of(api, &options.crate_name, options.version());
    emit_split_surface(api, &surface, options)
}

/// [`emit_split`], for an API whose surface the caller computed.
pub(crate) fn emit_split_surface(
    api: &Api,
    surface: &Surface,
    options: &Options,
) -> Result<Vec<GeneratedFile>> {
    if !options.layout.is_standalone() {
        return Err(Error::at(
            "#",
            "the split layout is for a standalone SDK (`--out`); the workspace's crate stays one crate",
        ));
    }
    let names = SplitNames::new(api, &options.crate_name);
    let units: Vec<Unit<'_>> = std::iter::once(Unit::Core)
        .chain(names.areas.iter().map(Unit::Area))
        .collect();
    let done = in_parallel(&units, |unit| match unit {
        Unit::Core => core_crate::files(api, surface, options, &names, Path::new(CORE_DIR)),
        Unit::Area(area) => {
            area::files(api, surface, options, &names, area, &area_dir(&area.module))
        }
    })
    .into_iter()
    .collect::<Result<Vec<_>>>()?;
    let mut files = Vec::new();
    let mut extensions = Vec::new();
    for (unit_files, unit_extensions) in done {
        files.extend(unit_files);
        extensions.extend(unit_extensions);
    }
    files.extend(facade::files(api, options, &names, &extensions)?);
    files.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(files)
}

/// The directories, relative to the facade, whose generated files the writer deletes when
/// they are no longer produced: the core's modules and the sources of every area crate
/// present in `dir` (a removed area's crate is emptied of its generated files).
pub(crate) fn owned_dirs(dir: &Path) -> Vec<PathBuf> {
    let mut dirs = vec![Path::new(CORE_DIR).join("src/generated")];
    if let Ok(entries) = std::fs::read_dir(dir.join(AREAS_DIR)) {
        let mut areas: Vec<PathBuf> = entries
            .filter_map(|e| e.ok())
            .filter(|e| e.path().is_dir())
            .map(|e| Path::new(AREAS_DIR).join(e.file_name()))
            .collect();
        areas.sort();
        for area in areas {
            dirs.push(area.join("src"));
            dirs.push(area);
        }
    }
    dirs
}

fn area_dir(module: &str) -> PathBuf {
    Path::new(AREAS_DIR).join(module)
}

/// The options of a crate written `depth` directories below the facade: a runtime path is
/// relative to the crate's own directory.
pub(super) fn nested_options(options: &Options, depth: usize) -> Options {
    let layout = match &options.layout {
        Layout::Standalone { runtime_path } => {
            let mut path = PathBuf::new();
            for _ in 0..depth {
                path.push("..");
            }
            Layout::Standalone {
                runtime_path: path.join(runtime_path),
            }
        }
        other => other.clone(),
    };
    Options {
        layout,
        ..options.clone()
    }
}

/// What one thread emits: the core crate, or one area crate.
enum Unit<'a> {
    Core,
    Area(&'a AreaCrate),
}
