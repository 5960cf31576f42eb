//! `cargo xtask`: project automation. `cargo xtask gen` regenerates `customer-cloud-sdk/` from the spec
//! and prints the change report (`oncegen::report`).

use oncegen::emit::Options;
use oncegen::report::render;
use oncegen::write::{Mode, Report};
use oncegen::{Regeneration, Shape, regenerate_as};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;
use xtask::{
    CLI_DIR, CRATE_DIR, MCP_DIR, SPEC, customer_cloud_cli_options, customer_cloud_mcp_options,
    customer_cloud_sdk_options,
};

const USAGE: &str = "\
usage: cargo xtask gen [--check] [--spec PATH] [--out DIR [--crate-name NAME] [--runtime-path PATH]
                      [--split-areas | --single-crate]] [--dump-ir FILE]

  (no options)        regenerate customer-cloud-sdk/, its command-line tool customer-cloud-cli/ and its
                      MCP server customer-cloud-mcp/ from
                      spec/openapi.yaml, print the change report
                      against customer-cloud-sdk/api.json, version the crate (Cargo.toml and its entry
                      in Cargo.lock) and add the report to customer-cloud-sdk/CHANGELOG.md
  --check             write nothing; exit 1 and name the stale files if customer-cloud-sdk/ differs
                      (code, api.json, CHANGELOG.md, the Cargo.toml version or Cargo.lock;
                      run `cargo --locked xtask gen --check`, or cargo itself fixes a stale
                      Cargo.lock before this runs)
  --spec PATH         read this OpenAPI 3.0/3.1 document (JSON or YAML)
  --out DIR           write a standalone crate to DIR (own [workspace]); it depends on the
                      published oncegen-runtime by version
  --crate-name NAME   package name of the standalone crate (default: from the spec file name)
  --runtime-path PATH depend on the runtime crate at PATH instead (written relative to DIR),
                      e.g. `--runtime-path oncegen-runtime` inside this workspace
  --split-areas       write a crate per area behind a facade crate (DIR: the facade, DIR/core,
                      DIR/areas/AREA); the default from 1,000 operations up
  --single-crate      write one crate whatever the size
  --dump-ir FILE      also write the intermediate model as JSON to FILE";

/// Parsed `gen` arguments.
struct GenArgs {
    check: bool,
    spec: Option<PathBuf>,
    out: Option<PathBuf>,
    crate_name: Option<String>,
    runtime_path: Option<PathBuf>,
    shape: Shape,
    dump_ir: Option<PathBuf>,
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.split_first() {
        Some((cmd, rest)) if cmd == "gen" => match parse_gen(rest) {
            Ok(gen_args) => match run_gen(gen_args) {
                Ok(code) => code,
                Err(e) => {
                    eprintln!("error: {e}");
                    ExitCode::FAILURE
                }
            },
            Err(e) => {
                eprintln!("error: {e}\n\n{USAGE}");
                ExitCode::from(2)
            }
        },
        Some((cmd, _)) if cmd == "help" || cmd == "--help" || cmd == "-h" => {
            println!("{USAGE}");
            ExitCode::SUCCESS
        }
        Some((cmd, _)) => {
            eprintln!("error: unknown command `{cmd}`\n\n{USAGE}");
            ExitCode::from(2)
        }
        None => {
            eprintln!("{USAGE}");
            ExitCode::from(2)
        }
    }
}

fn parse_gen(args: &[String]) -> Result<GenArgs, String> {
    let mut out = GenArgs {
        check: false,
        spec: None,
        out: None,
        crate_name: None,
        runtime_path: None,
        shape: Shape::Auto,
        dump_ir: None,
    };
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut value = |name: &str| {
            it.next()
                .filter(|v| !v.starts_with("--"))
                .cloned()
                .ok_or_else(|| format!("`{name}` needs a value"))
        };
        match arg.as_str() {
            "--check" => out.check = true,
            "--spec" => out.spec = Some(PathBuf::from(value("--spec")?)),
            "--out" => out.out = Some(PathBuf::from(value("--out")?)),
            "--crate-name" => out.crate_name = Some(value("--crate-name")?),
            "--runtime-path" => out.runtime_path = Some(PathBuf::from(value("--runtime-path")?)),
            "--dump-ir" => out.dump_ir = Some(PathBuf::from(value("--dump-ir")?)),
            "--split-areas" | "--single-crate" if out.shape != Shape::Auto => {
                return Err("`--split-areas` and `--single-crate` exclude each other".to_owned());
            }
            "--split-areas" => out.shape = Shape::SplitAreas,
            "--single-crate" => out.shape = Shape::Single,
            other => return Err(format!("unexpected argument `{other}`")),
        }
    }
    if out.crate_name.is_some() && out.out.is_none() {
        return Err("`--crate-name` only applies with `--out`".to_owned());
    }
    if out.runtime_path.is_some() && out.out.is_none() {
        return Err("`--runtime-path` only applies with `--out`".to_owned());
    }
    if out.shape != Shape::Auto && out.out.is_none() {
        return Err("`--split-areas` and `--single-crate` only apply with `--out`".to_owned());
    }
    if let Some(name) = &out.crate_name {
        let valid = !name.is_empty()
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
            && name.starts_with(|c: char| c.is_ascii_alphabetic());
        if !valid {
            return Err(format!("`{name}` is not a valid crate name"));
        }
    }
    Ok(out)
}

/// The checkout this run acts on, found at run time.
///
/// Not `env!("CARGO_MANIFEST_DIR")`: that is fixed when xtask is compiled, and with a target
/// directory shared by several checkouts (`CARGO_TARGET_DIR`, `build.target-dir`) cargo reuses
/// an xtask binary built in another checkout (its fingerprint hashes paths relative to the
/// workspace), which would then regenerate that other checkout. `cargo run` (so `cargo xtask`)
/// sets `CARGO_MANIFEST_DIR` and `CARGO_PKG_NAME` for the process it starts: xtask's manifest
/// directory in the workspace cargo resolved from the current directory (or `--manifest-path`).
/// When xtask was started otherwise (the binary run directly), the root is the nearest
/// directory at or above the current one that holds this workspace's contract and xtask.
fn workspace_root() -> Result<PathBuf, String> {
    let started_by_cargo = std::env::var_os("CARGO_PKG_NAME").is_some_and(|n| n == "xtask");
    if let Some(manifest_dir) = std::env::var_os("CARGO_MANIFEST_DIR").filter(|_| started_by_cargo)
    {
        let manifest_dir = PathBuf::from(manifest_dir);
        return match manifest_dir.parent() {
            Some(root) if is_workspace_root(root) => Ok(root.to_owned()),
            _ => Err(format!(
                "CARGO_MANIFEST_DIR={} is not the xtask folder of a checkout with spec/openapi.yaml",
                manifest_dir.display()
            )),
        };
    }
    let cwd = std::env::current_dir().map_err(|e| format!("current directory: {e}"))?;
    cwd.ancestors()
        .find(|dir| is_workspace_root(dir))
        .map(Path::to_owned)
        .ok_or_else(|| {
            format!(
                "no checkout (a folder with spec/openapi.yaml and xtask/Cargo.toml) at or above {}; run `cargo xtask` inside one",
                cwd.display()
            )
        })
}

/// Writes (or checks) `customer-cloud-cli/` and `customer-cloud-mcp/`, read from the surface
/// `customer-cloud-sdk/api.json` was just generated with.
fn generate_cli(
    root: &Path,
    sdk_files: &[oncegen::emit::GeneratedFile],
    mode: Mode,
) -> Result<oncegen::write::Report, String> {
    let surface_file = sdk_files
        .iter()
        .find(|f| f.path == Path::new(oncegen::surface::FILE_NAME))
        .ok_or("the SDK's generation wrote no surface")?;
    let surface: oncegen::Surface =
        serde_json::from_str(&surface_file.contents).map_err(|e| format!("api.json: {e}"))?;
    let files = oncegen::cli::emit(
        &surface,
        &customer_cloud_cli_options(&surface.crate_version),
    )
    .map_err(|e| e.to_string())?;
    let mut report =
        oncegen::write::ensure_files_owning(&root.join(CLI_DIR), &files, &["src".into()], mode)
            .map_err(|e| e.to_string())?;
    let files = oncegen::mcp::emit(
        &surface,
        &customer_cloud_mcp_options(&surface.crate_version),
    )
    .map_err(|e| e.to_string())?;
    let mcp =
        oncegen::write::ensure_files_owning(&root.join(MCP_DIR), &files, &["src".into()], mode)
            .map_err(|e| e.to_string())?;
    report.changed.extend(mcp.changed);
    report.stale.extend(mcp.stale);
    Ok(report)
}

/// Whether `dir` is the root of a checkout of this workspace: it holds the contract and xtask.
fn is_workspace_root(dir: &Path) -> bool {
    dir.join("spec/openapi.yaml").is_file() && dir.join("xtask/Cargo.toml").is_file()
}

fn run_gen(args: GenArgs) -> Result<ExitCode, String> {
    let root = workspace_root()?;
    let started = Instant::now();
    let (spec, out_dir, options) = target(&args, &root)?;
    let mode = if args.check { Mode::Check } else { Mode::Write };
    // customer-cloud-sdk/ (no `--out`) is always one crate (`docs/benchmarks-history.md`, "Generated code: one crate or a crate per area").
    let shape = if args.out.is_some() {
        args.shape
    } else {
        Shape::Single
    };
    let run = regenerate_as(&spec, &out_dir, &options, mode, shape).map_err(|e| e.to_string())?;
    let mut written = run.written.clone();
    if args.out.is_none() {
        let cli = generate_cli(&root, &run.files, mode)?;
        written.changed.extend(cli.changed);
        written.stale.extend(cli.stale);
    }
    warn(&run);
    if let Some(path) = &args.dump_ir {
        let json = serde_json::to_string_pretty(&run.api).map_err(|e| e.to_string())?;
        std::fs::write(path, json + "\n").map_err(|e| format!("{}: {e}", path.display()))?;
    }
    println!("{}", render(&run.report).trim_end());
    if args.check {
        return Ok(checked(&args, &out_dir, run.files.len(), &written));
    }
    let (api, files) = (&run.api, &run.files);
    let lines: usize = files.iter().map(|f| f.contents.lines().count()).sum();
    eprintln!(
        "generated {} ({} operations, {} types, {} files, {} lines; {} written, {} deleted) in {:.0?}",
        out_dir.display(),
        api.operations.len(),
        api.types.len(),
        files.len(),
        lines,
        written.changed.len(),
        written.stale.len(),
        started.elapsed()
    );
    Ok(ExitCode::SUCCESS)
}

/// The spec to read, the directory to write and the generator's options: `--spec`/`--out`, or
/// the contract and customer-cloud-sdk/.
fn target(args: &GenArgs, root: &Path) -> Result<(PathBuf, PathBuf, Options), String> {
    let (spec, spec_label) = match &args.spec {
        Some(p) => (p.clone(), oncegen::emit::spec_label(p)),
        None => (root.join(SPEC), SPEC.to_owned()),
    };
    let Some(dir) = &args.out else {
        let options = Options {
            spec_label,
            ..customer_cloud_sdk_options()
        };
        return Ok((spec, root.join(CRATE_DIR), options));
    };
    let mut options = Options::standalone(&spec, dir, args.runtime_path.as_deref())
        .map_err(|e| format!("--runtime-path: {e}"))?;
    if let Some(name) = &args.crate_name {
        options.crate_name = name.clone();
    }
    Ok((spec, dir.clone(), options))
}

/// The warnings of a run: operations skipped, no baseline, the change report's warnings.
fn warn(run: &Regeneration) {
    for s in &run.api.skipped {
        eprintln!(
            "warning: skipped operation at `{}`: {}",
            s.pointer, s.reason
        );
    }
    if let Some(reason) = &run.report.no_baseline {
        eprintln!("warning: no baseline: {reason}; changes cannot be listed (generation goes on)");
    }
    for warning in &run.report.warnings {
        eprintln!("warning: {warning}");
    }
}

/// The outcome of `--check`: success when nothing differs, else the stale files named.
fn checked(args: &GenArgs, out_dir: &Path, files: usize, written: &Report) -> ExitCode {
    if written.is_clean() {
        eprintln!(
            "{} is up to date ({files} files){}",
            out_dir.display(),
            if args.out.is_none() {
                format!(", and so are {CLI_DIR}/ and {MCP_DIR}/")
            } else {
                String::new()
            }
        );
        return ExitCode::SUCCESS;
    }
    for p in &written.changed {
        eprintln!("stale: {}", p.display());
    }
    for p in &written.stale {
        eprintln!("no longer generated: {}", p.display());
    }
    eprintln!(
        "{} is out of date: run `cargo xtask gen`",
        out_dir.display()
    );
    ExitCode::FAILURE
}
