//! `oncegen check`: whether a directory holds what `oncegen sdk` would write there now.

use crate::Subcommand;
use crate::sdk::Generation;
use clap::{CommandFactory, Parser};
use oncegen::write::Mode;
use std::process::ExitCode;

pub(crate) const SUBCOMMAND: Subcommand = Subcommand {
    command: Args::command,
    run: |m| {
        let args: Args = crate::parse(m)?;
        let run = args.generation.run(Mode::Check)?;
        let out = args.generation.out.display();
        if run.written.is_clean() {
            eprintln!("{out} is up to date ({} files)", run.written.unchanged);
            return Ok(ExitCode::SUCCESS);
        }
        for path in &run.written.changed {
            eprintln!("stale: {}", path.display());
        }
        for path in &run.written.stale {
            eprintln!("no longer generated: {}", path.display());
        }
        eprintln!("{out} is out of date: run `oncegen sdk` with the same arguments");
        Ok(ExitCode::FAILURE)
    },
};

/// Check that a generated SDK crate is fresh: exit 1 and name the files that differ.
///
/// Takes the arguments `oncegen sdk` was given and writes nothing; for CI, after a document or
/// the generator changed.
#[derive(Parser)]
#[command(name = "check")]
struct Args {
    #[command(flatten)]
    generation: Generation,
}
