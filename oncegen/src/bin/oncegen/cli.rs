//! `oncegen cli`: the command-line tool of an SDK crate `oncegen sdk` generated, read from the
//! surface it left there (`api.json`), so the tool calls exactly that crate.

use crate::Subcommand;
use crate::beside::{Place, Sdk, write_crate};
use clap::{CommandFactory, Parser};
use std::process::ExitCode;

pub(crate) const SUBCOMMAND: Subcommand = Subcommand {
    command: Args::command,
    run: |m| run(&crate::parse(m)?),
};

/// Generate the command-line tool of a generated SDK crate.
///
/// `<bin> <area> <operation>` for every operation of the SDK at `--sdk` (a directory `oncegen
/// sdk` wrote), with flags from its parameters, `--json` bodies, an idempotency key and a
/// journal for every write, and exit codes by class. Writes a crate of its own to DIR that
/// depends on the SDK by path, and on the `oncegen-cli` copy under the SDK's vendor/ when
/// there is one (else on the published `oncegen-cli` by version).
#[derive(Parser)]
#[command(name = "cli")]
struct Args {
    #[command(flatten)]
    place: Place,
    /// The package name [default: the SDK's, `-sdk` replaced by `-cli`].
    #[arg(long, value_name = "NAME")]
    name: Option<String>,
    /// The binary's name [default: the SDK's name without `-sdk`].
    #[arg(long, value_name = "BIN")]
    bin: Option<String>,
}

fn run(args: &Args) -> Result<ExitCode, String> {
    let sdk = Sdk::read(&args.place.sdk)?;
    let options = oncegen::cli::Options {
        crate_name: args
            .name
            .clone()
            .unwrap_or_else(|| format!("{}-cli", sdk.stem())),
        bin: args.bin.clone().unwrap_or_else(|| sdk.stem().to_owned()),
        sdk_crate: sdk.name().to_owned(),
        spec_label: sdk.spec_label.clone(),
        dependencies: sdk.dependencies(&args.place.out, "oncegen-cli")?,
        package: sdk.package(),
        dev_dependencies: Vec::new(),
    };
    let files = oncegen::cli::emit(&sdk.surface, &options).map_err(|e| e.to_string())?;
    let written = write_crate(&args.place.out, files)?;
    eprintln!(
        "generated {} (binary `{}`, {} operations; {written} files written)",
        args.place.out.display(),
        options.bin,
        sdk.surface.operations.len(),
    );
    Ok(ExitCode::SUCCESS)
}
