//! `oncegen cli`: the command-line tool of an SDK crate `oncegen sdk` generated, read from the
//! surface it left there (`api.json`), so the tool calls exactly that crate.

use crate::Subcommand;
use clap::{CommandFactory, Parser};
use oncegen::emit::{RUNTIME_VERSION, relative_path, spec_label};
use oncegen::runtime::bundled_crate_dir;
use oncegen::surface::FILE_NAME;
use oncegen::write::{self, Mode};
use std::path::PathBuf;
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
    /// The SDK crate's directory (with the `api.json` `oncegen sdk` wrote).
    #[arg(long, value_name = "SDK_DIR")]
    sdk: PathBuf,
    /// The tool's crate directory (created when missing).
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// The package name [default: the SDK's, `-sdk` replaced by `-cli`].
    #[arg(long, value_name = "NAME")]
    name: Option<String>,
    /// The binary's name [default: the SDK's name without `-sdk`].
    #[arg(long, value_name = "BIN")]
    bin: Option<String>,
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
    let relative = |target: &std::path::Path| {
        relative_path(&args.out, target)
            .map(|p| p.display().to_string().replace('\\', "/"))
            .map_err(|e| format!("{}: {e}", target.display()))
    };
    let vendored_cli = bundled_crate_dir(&args.sdk, "oncegen-cli");
    let oncegen_cli = if vendored_cli.join("Cargo.toml").is_file() {
        format!(
            "oncegen-cli = {{ path = \"{}\", version = \"{RUNTIME_VERSION}\" }}",
            relative(&vendored_cli)?
        )
    } else {
        format!("oncegen-cli = \"{RUNTIME_VERSION}\"")
    };
    let options = oncegen::cli::Options {
        crate_name: args.name.clone().unwrap_or_else(|| format!("{stem}-cli")),
        bin: args.bin.clone().unwrap_or_else(|| stem.to_owned()),
        sdk_crate: sdk.clone(),
        spec_label: spec_label(&surface_path),
        dependencies: vec![
            format!(
                "{sdk} = {{ path = \"{}\", features = [\"journal\"] }}",
                relative(&args.sdk)?
            ),
            oncegen_cli,
        ],
        package: vec![
            format!("version = \"{}\"", surface.crate_version),
            "edition = \"2024\"".to_owned(),
            "publish = false".to_owned(),
        ],
        dev_dependencies: Vec::new(),
    };
    let mut files = oncegen::cli::emit(&surface, &options).map_err(|e| e.to_string())?;
    // A crate of its own, wherever it is written (as the SDK is).
    if let Some(manifest) = files
        .iter_mut()
        .find(|f| f.path == std::path::Path::new("Cargo.toml"))
    {
        manifest.contents.push_str("\n[workspace]\n");
    }
    let written = write::ensure_files_owning(&args.out, &files, &["src".into()], Mode::Write)
        .map_err(|e| e.to_string())?;
    eprintln!(
        "generated {} (binary `{}`, {} operations; {} files written)",
        args.out.display(),
        options.bin,
        surface.operations.len(),
        written.changed.len()
    );
    Ok(ExitCode::SUCCESS)
}
