//! `oncegen mcp`: the Model Context Protocol server of an SDK crate `oncegen sdk` generated,
//! read from the surface it left there (`api.json`), so the server calls exactly that crate.

use crate::Subcommand;
use crate::beside::{Place, Sdk, write_crate};
use clap::{CommandFactory, Parser};
use std::process::ExitCode;

pub(crate) const SUBCOMMAND: Subcommand = Subcommand {
    command: Args::command,
    run: |m| run(&crate::parse(m)?),
};

/// Generate the MCP server of a generated SDK crate.
///
/// One tool per operation of the SDK at `--sdk` (a directory `oncegen sdk` wrote), with input
/// and output schemas, annotations from the document's effects, selection and safety gates at
/// start (read-only unless writes are enabled), exactly-once writes through a journal, and
/// stdio and streamable HTTP transports. Writes a crate of its own to DIR that depends on the
/// SDK by path, and on the `oncegen-mcp` copy under the SDK's vendor/ when there is one (else
/// on the published `oncegen-mcp` by version).
#[derive(Parser)]
#[command(name = "mcp")]
struct Args {
    #[command(flatten)]
    place: Place,
    /// The package name, also the binary's [default: the SDK's, `-sdk` replaced by `-mcp`].
    #[arg(long, value_name = "NAME")]
    name: Option<String>,
    /// The command-line tool whose configuration file holds the credential profiles the server
    /// reads [default: the SDK's name without `-sdk`, as `oncegen cli` names its binary].
    #[arg(long, value_name = "BIN")]
    profiles: Option<String>,
}

fn run(args: &Args) -> Result<ExitCode, String> {
    let sdk = Sdk::read(&args.place.sdk)?;
    let name = args
        .name
        .clone()
        .unwrap_or_else(|| format!("{}-mcp", sdk.stem()));
    let options = oncegen::mcp::Options {
        crate_name: name.clone(),
        bin: name,
        profiles: args
            .profiles
            .clone()
            .unwrap_or_else(|| sdk.stem().to_owned()),
        sdk_crate: sdk.name().to_owned(),
        spec_label: sdk.spec_label.clone(),
        dependencies: sdk.dependencies(&args.place.out, "oncegen-mcp")?,
        package: sdk.package(),
        // `--journal postgres://…`: the write journal shared by many processes.
        features: vec![format!(
            "postgres = [\"oncegen-mcp/postgres\", \"{}/postgres\"]",
            sdk.name()
        )],
        dev_dependencies: Vec::new(),
    };
    let files = oncegen::mcp::emit(&sdk.surface, &options).map_err(|e| e.to_string())?;
    let written = write_crate(&args.place.out, files)?;
    eprintln!(
        "generated {} (binary `{}`, {} tools; {written} files written)",
        args.place.out.display(),
        options.bin,
        sdk.surface.operations.len(),
    );
    Ok(ExitCode::SUCCESS)
}
