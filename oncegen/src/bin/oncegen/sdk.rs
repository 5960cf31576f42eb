//! `oncegen sdk`: a standalone SDK crate for a document, with the change report against the
//! surface a previous run left in the directory (`api.json`).

use crate::Subcommand;
use clap::{CommandFactory, Parser};
use oncegen::emit::Options;
use oncegen::report::render;
use oncegen::runtime::{self, RuntimeSource};
use oncegen::write::Mode;
use oncegen::{Regeneration, Shape};
use std::path::PathBuf;
use std::process::ExitCode;

pub(crate) const SUBCOMMAND: Subcommand = Subcommand {
    command: Args::command,
    run: |m| {
        let args: Args = crate::parse(m)?;
        let run = args.generation.run(Mode::Write)?;
        let written = run.written.changed.len();
        eprintln!(
            "generated {} ({} operations, {} types; {} files written)",
            args.generation.out.display(),
            run.api.operations.len(),
            run.api.types.len(),
            written
        );
        Ok(ExitCode::SUCCESS)
    },
};

/// Generate a Rust SDK crate from an OpenAPI 3.0 or 3.1 document.
///
/// Writes a crate of its own (its own `[workspace]`) to DIR and prints the change report
/// against the `api.json` a previous run left there; the crate's version and CHANGELOG.md
/// follow the report. Files you add beside the generated ones are kept.
#[derive(Parser)]
#[command(name = "sdk")]
pub(crate) struct Args {
    #[command(flatten)]
    pub(crate) generation: Generation,
}

/// What a generation is told: shared by `sdk` and `check`.
#[derive(clap::Args)]
pub(crate) struct Generation {
    /// The OpenAPI 3.0 or 3.1 document (JSON or YAML).
    #[arg(long, value_name = "DOC")]
    spec: PathBuf,
    /// The crate's directory (created when missing).
    #[arg(long, value_name = "DIR")]
    pub(crate) out: PathBuf,
    /// The package name [default: from the document's file name, `petstore.yaml` →
    /// `petstore-sdk`].
    #[arg(long, value_name = "NAME", value_parser = crate_name)]
    name: Option<String>,
    /// Where the runtime comes from: `bundled` writes the copy this oncegen carries under
    /// DIR/vendor/ (the default when it carries one, as when installed from a checkout),
    /// `registry` depends on the published `oncegen-runtime` by version, a PATH on the
    /// `oncegen-runtime` crate there (written relative to DIR).
    #[arg(long, value_name = "bundled|registry|PATH", value_parser = runtime_source)]
    runtime: Option<RuntimeSource>,
    /// Write a crate per area behind a facade crate (DIR, DIR/core, DIR/areas/AREA) [default
    /// from 1,000 operations up].
    #[arg(long, conflicts_with = "single_crate")]
    split_areas: bool,
    /// Write one crate whatever the document's size.
    #[arg(long)]
    single_crate: bool,
}

impl Generation {
    /// Generates (or, in [`Mode::Check`], compares) the crate and its bundled runtime; prints
    /// the change report and the warnings.
    pub(crate) fn run(&self, mode: Mode) -> Result<Regeneration, String> {
        let source = self
            .runtime
            .clone()
            .unwrap_or_else(RuntimeSource::default_for_this_build);
        if source == RuntimeSource::Bundled && !runtime::is_bundled() {
            return Err(
                "this oncegen carries no runtime (it was built from a registry package): \
                 pass `--runtime registry` or `--runtime PATH`"
                    .to_owned(),
            );
        }
        let mut options = Options::standalone(
            &self.spec,
            &self.out,
            source.runtime_dir(&self.out).as_deref(),
        )
        .map_err(|e| format!("--runtime: {e}"))?;
        if let Some(name) = &self.name {
            options.crate_name = name.clone();
        }
        let shape = match (self.split_areas, self.single_crate) {
            (true, _) => Shape::SplitAreas,
            (_, true) => Shape::Single,
            _ => Shape::Auto,
        };
        let mut run = oncegen::regenerate_as(&self.spec, &self.out, &options, mode, shape)
            .map_err(|e| e.to_string())?;
        if source == RuntimeSource::Bundled {
            let vendored = runtime::write_bundle(&self.out, runtime::SDK_CRATES, mode)
                .map_err(|e| e.to_string())?;
            run.written.changed.extend(vendored.changed);
            run.written.unchanged += vendored.unchanged;
        }
        for skipped in &run.api.skipped {
            eprintln!(
                "warning: skipped operation at `{}`: {}",
                skipped.pointer, skipped.reason
            );
        }
        if let Some(reason) = &run.report.no_baseline {
            eprintln!("note: no baseline ({reason}): this run records the first one");
        }
        for warning in &run.report.warnings {
            eprintln!("warning: {warning}");
        }
        println!("{}", render(&run.report).trim_end());
        Ok(run)
    }
}

/// A package name cargo accepts.
fn crate_name(name: &str) -> Result<String, String> {
    let valid = name.starts_with(|c: char| c.is_ascii_alphabetic())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if valid {
        Ok(name.to_owned())
    } else {
        Err("a package name is ASCII letters, digits, `-` and `_`, starting with a letter".into())
    }
}

fn runtime_source(value: &str) -> Result<RuntimeSource, String> {
    Ok(match value {
        "bundled" => RuntimeSource::Bundled,
        "registry" => RuntimeSource::Registry,
        path => RuntimeSource::Path(PathBuf::from(path)),
    })
}
