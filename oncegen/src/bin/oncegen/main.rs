//! `oncegen`: the generator as a program. `oncegen sdk` writes a Rust SDK crate for an OpenAPI
//! document, `oncegen cli` its command-line tool, `oncegen mcp` its MCP server, `oncegen diff` the change report between two
//! revisions of a document, `oncegen check` whether a generated crate is fresh.
//!
//! Each subcommand is a module with a [`Subcommand`]; adding one is a module and one entry of
//! [`SUBCOMMANDS`].

mod beside;
mod check;
mod cli;
mod diff;
mod mcp;
mod sdk;

use clap::{ArgMatches, Command};
use std::process::ExitCode;

/// One subcommand: its definition (name, help, arguments) and what runs it.
struct Subcommand {
    command: fn() -> Command,
    run: fn(&ArgMatches) -> Result<ExitCode, String>,
}

/// Every subcommand, in the order `--help` lists them.
const SUBCOMMANDS: &[Subcommand] = &[
    sdk::SUBCOMMAND,
    cli::SUBCOMMAND,
    mcp::SUBCOMMAND,
    diff::SUBCOMMAND,
    check::SUBCOMMAND,
];

fn main() -> ExitCode {
    let app = SUBCOMMANDS.iter().fold(
        Command::new("oncegen")
            .version(env!("CARGO_PKG_VERSION"))
            .about(
                "OpenAPI 3.0/3.1 documents to typed Rust SDK crates, their command-line tools and MCP servers",
            )
            .after_help(
                "A generated crate builds where it is written: this oncegen writes the runtime it \
                 compiles against under DIR/vendor/ (see `oncegen sdk --help`, `--runtime`).",
            )
            .subcommand_required(true)
            .arg_required_else_help(true),
        |app, sub| app.subcommand((sub.command)()),
    );
    let matches = app.get_matches();
    let Some((name, args)) = matches.subcommand() else {
        unreachable!("clap requires a subcommand")
    };
    let Some(sub) = SUBCOMMANDS
        .iter()
        .find(|s| (s.command)().get_name() == name)
    else {
        unreachable!("clap accepts only the subcommands it was given")
    };
    match (sub.run)(args) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Parses a subcommand's arguments from what clap matched.
fn parse<T: clap::FromArgMatches>(matches: &ArgMatches) -> Result<T, String> {
    T::from_arg_matches(matches).map_err(|e| e.to_string())
}
