//! `oncegen mcp`: the Model Context Protocol server of an SDK crate `oncegen sdk` generated,
//! read from the surface it left there (`api.json`), so the server calls exactly that crate.

use crate::Subcommand;
use clap::{CommandFactory, Parser};
use oncegen::emit::{RUNTIME_VERSION, relative_path, spec_label};
use oncegen::runtime::bundled_crate_dir;
use oncegen::surface::FILE_NAME;
use oncegen::write::{self, Mode};
use std::path::{Path, PathBuf};
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
    /// The SDK crate's directory (with the `api.json` `oncegen sdk` wrote).
    #[arg(long, value_name = "SDK_DIR")]
    sdk: PathBuf,
    /// The server's crate directory (created when missing).
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// The package name, also the binary's [default: the SDK's, `-sdk` replaced by `-mcp`].
    #[arg(long, value_name = "NAME")]
    name: Option<String>,
    /// The command-line tool whose configuration file holds the credential profiles the server
    /// reads [default: the SDK's name without `-sdk`, as `oncegen cli` names its binary].
    #[arg(long, value_name = "BIN")]
    profiles: Option<String>,
}

fn run(args: &Args) -> Result<ExitCode, String> {
    let surface_path = args.sdk.join(FILE_NAME);
    let text = std::fs::read_to_string(&surface_path).map_err(|e| {
        format!(
            "{}: {e} (is {} a crate `oncegen sdk` generated?)",
            surface_path.display(),
            args.sdk.display()
        )
    })?;
    let surface: oncegen::Surface =
        serde_json::from_str(&text).map_err(|e| format!("{}: {e}", surface_path.display()))?;
    let sdk = surface.crate_name.clone();
    let stem = sdk.strip_suffix("-sdk").unwrap_or(&sdk);
    let relative = |target: &Path| {
        relative_path(&args.out, target)
            .map(|p| p.display().to_string().replace('\\', "/"))
            .map_err(|e| format!("{}: {e}", target.display()))
    };
    let vendored = bundled_crate_dir(&args.sdk, "oncegen-mcp");
    let oncegen_mcp = if vendored.join("Cargo.toml").is_file() {
        format!(
            "oncegen-mcp = {{ path = \"{}\", version = \"{RUNTIME_VERSION}\" }}",
            relative(&vendored)?
        )
    } else {
        format!("oncegen-mcp = \"{RUNTIME_VERSION}\"")
    };
    let name = args.name.clone().unwrap_or_else(|| format!("{stem}-mcp"));
    let options = oncegen::mcp::Options {
        crate_name: name.clone(),
        bin: name,
        profiles: args.profiles.clone().unwrap_or_else(|| stem.to_owned()),
        sdk_crate: sdk.clone(),
        spec_label: spec_label(&surface_path),
        dependencies: vec![
            format!(
                "{sdk} = {{ path = \"{}\", features = [\"journal\"] }}",
                relative(&args.sdk)?
            ),
            oncegen_mcp,
        ],
        package: vec![
            format!("version = \"{}\"", surface.crate_version),
            "edition = \"2024\"".to_owned(),
            "publish = false".to_owned(),
        ],
        // `--journal postgres://…`: the write journal shared by many processes.
        features: vec![format!(
            "postgres = [\"oncegen-mcp/postgres\", \"{sdk}/postgres\"]"
        )],
        dev_dependencies: Vec::new(),
    };
    let mut files = oncegen::mcp::emit(&surface, &options).map_err(|e| e.to_string())?;
    // A crate of its own, wherever it is written (as the SDK is).
    if let Some(manifest) = files.iter_mut().find(|f| f.path == Path::new("Cargo.toml")) {
        manifest.contents.push_str("\n[workspace]\n");
    }
    let written = write::ensure_files_owning(&args.out, &files, &["src".into()], Mode::Write)
        .map_err(|e| e.to_string())?;
    eprintln!(
        "generated {} (binary `{}`, {} tools; {} files written)",
        args.out.display(),
        options.bin,
        surface.operations.len(),
        written.changed.len()
    );
    Ok(ExitCode::SUCCESS)
}
