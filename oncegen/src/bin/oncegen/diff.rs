//! `oncegen diff`: the change report between two revisions of a document, without generating.

use crate::Subcommand;
use clap::{CommandFactory, Parser};
use oncegen::Surface;
use oncegen::report::{Baseline, Version, compare, render};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

pub(crate) const SUBCOMMAND: Subcommand = Subcommand {
    command: Args::command,
    run: |m| {
        let args: Args = crate::parse(m)?;
        let name = args
            .name
            .clone()
            .unwrap_or_else(|| oncegen::emit::crate_name_from(&args.new));
        let old = surface(&args.old, &name)?;
        let new = surface(&args.new, &name)?;
        let (_, report) = compare(&Baseline::Found(Box::new(old)), None, new);
        for warning in &report.warnings {
            eprintln!("warning: {warning}");
        }
        println!("{}", render(&report).trim_end());
        let breaking = report.severity() == Some(oncegen::report::Class::Breaking);
        Ok(if breaking && args.fail_on_breaking {
            ExitCode::FAILURE
        } else {
            ExitCode::SUCCESS
        })
    },
};

/// Print the change report between two revisions of an OpenAPI document.
///
/// What the new revision changes for a caller of the generated Rust crate (breaking, additive,
/// docs only) and for SDKs already released against a server of it (wire-breaking, degraded),
/// with the version bump it implies from OLD's crate version (0.1.0). Generates nothing.
#[derive(Parser)]
#[command(name = "diff", visible_alias = "report")]
struct Args {
    /// The previous revision.
    old: PathBuf,
    /// The new revision.
    new: PathBuf,
    /// The crate name the report speaks of [default: from NEW's file name].
    #[arg(long, value_name = "NAME")]
    name: Option<String>,
    /// Exit 1 when the Rust API has a breaking change.
    #[arg(long)]
    fail_on_breaking: bool,
}

/// The surface of the crate `name` generated from `spec`, at the first version.
fn surface(spec: &Path, name: &str) -> Result<Surface, String> {
    let api = oncegen::model(spec).map_err(|e| e.to_string())?;
    Ok(Surface::of(&api, name, &Version::INITIAL.to_string()))
}
