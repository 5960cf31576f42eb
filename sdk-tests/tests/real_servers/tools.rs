//! The command-line tool and the MCP server generated from a running server's own document
//! (issues #30 and #31): both crates written beside the SDK that `driver.rs` generated, which
//! they depend on by path, and built in one cargo build into the drivers' target directory.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use oncegen::emit::{GeneratedFile, RUNTIME_VERSION};
use oncegen::write::{Mode, ensure_files};
use rmcp::ServiceExt;
use rmcp::model::{CallToolRequestParams, CallToolResult};
use rmcp::transport::TokioChildProcess;
use serde_json::Value;

use super::driver::workspace;

/// The built binaries of one server's tools.
pub struct Tools {
    /// The command-line tool (`<name>`).
    pub cli: PathBuf,
    /// The MCP server (`<name>-mcp`).
    pub mcp: PathBuf,
    /// Writing both crates.
    pub generate_time: Duration,
    /// The one cargo build of both.
    pub build_time: Duration,
}

/// Generates `<name>-cli` and `<name>-mcp` from `document` into `scratch/<name>-tools/{cli,mcp}`
/// (a workspace of their own, on the SDK `scratch/<name>-sdk` and this checkout's
/// `oncegen-cli`, `oncegen-mcp` and runtime) and builds both binaries with one cargo build.
/// Errs with the generator's error or the first compiler errors.
pub fn generate_and_build(name: &str, document: &str, scratch: &Path) -> Result<Tools, String> {
    let started = Instant::now();
    let sdk = format!("{name}-sdk");
    let api = oncegen::model_str(document, name).map_err(|e| format!("generator: {e}"))?;
    let surface = oncegen::Surface::of(&api, &sdk, "0.1.0");
    let dir = scratch.join(format!("{name}-tools"));
    let _ = std::fs::remove_dir_all(&dir);
    for (member, files) in emit_tools(&surface, name, &sdk)? {
        let member_dir = dir.join(member);
        ensure_files(&member_dir, &files, &member_dir.join("src"), Mode::Write)
            .map_err(|e| format!("writing {}: {e}", member_dir.display()))?;
    }
    std::fs::write(dir.join("Cargo.toml"), tools_manifest()).map_err(|e| e.to_string())?;
    std::fs::copy(workspace().join("Cargo.lock"), dir.join("Cargo.lock"))
        .map_err(|e| e.to_string())?;
    let generate_time = started.elapsed();

    let started = Instant::now();
    let target = sdk_tests::generated_crates_target();
    build_tools(&dir, &target)?;
    Ok(Tools {
        cli: target.join("debug").join(name),
        mcp: target.join("debug").join(format!("{name}-mcp")),
        generate_time,
        build_time: started.elapsed(),
    })
}

/// The files of `<name>-cli` and `<name>-mcp`, by the workspace member they go to.
fn emit_tools(
    surface: &oncegen::Surface,
    name: &str,
    sdk: &str,
) -> Result<[(&'static str, Vec<GeneratedFile>); 2], String> {
    let spec_label = format!("the OpenAPI document served by {name}");
    // The SDK by path with the journal every write of the tools goes through; the support
    // crates by version, as a published generator writes them, patched to this checkout below.
    let sdk_dependency = format!("{sdk} = {{ path = \"../../{sdk}\", features = [\"journal\"] }}");
    let package = vec![
        "version = \"0.1.0\"".to_owned(),
        "edition = \"2024\"".to_owned(),
        "publish = false".to_owned(),
    ];
    let cli = oncegen::cli::emit(
        surface,
        &oncegen::cli::Options {
            crate_name: format!("{name}-cli"),
            bin: name.to_owned(),
            sdk_crate: sdk.to_owned(),
            spec_label: spec_label.clone(),
            dependencies: vec![
                sdk_dependency.clone(),
                format!("oncegen-cli = \"{RUNTIME_VERSION}\""),
            ],
            package: package.clone(),
            dev_dependencies: Vec::new(),
        },
    )
    .map_err(|e| format!("CLI emitter: {e}"))?;
    let mcp = oncegen::mcp::emit(
        surface,
        &oncegen::mcp::Options {
            crate_name: format!("{name}-mcp"),
            bin: format!("{name}-mcp"),
            // The credentials of the CLI generated beside it, as this repository's tools share.
            profiles: name.to_owned(),
            sdk_crate: sdk.to_owned(),
            spec_label,
            dependencies: vec![
                sdk_dependency,
                format!("oncegen-mcp = \"{RUNTIME_VERSION}\""),
            ],
            package,
            features: Vec::new(),
            dev_dependencies: Vec::new(),
        },
    )
    .map_err(|e| format!("MCP emitter: {e}"))?;
    Ok([("cli", cli), ("mcp", mcp)])
}

/// The tools' workspace manifest: both members, the support crates and the runtime patched to
/// this checkout's.
fn tools_manifest() -> String {
    let path = |krate: &str| workspace().join(krate).display().to_string();
    format!(
        r#"[workspace]
resolver = "3"
members = ["cli", "mcp"]

# The generated crates name the support crates and the runtime by version: this checkout's.
[patch.crates-io]
oncegen-runtime = {{ path = {runtime:?} }}
oncegen-cli = {{ path = {cli:?} }}
oncegen-mcp = {{ path = {mcp:?} }}

# As the drivers' (`driver.rs`), so that dependencies built with the same features are shared.
[profile.dev]
debug = false
incremental = false
"#,
        runtime = path("oncegen-runtime"),
        cli = path("oncegen-cli"),
        mcp = path("oncegen-mcp"),
    )
}

/// Builds both tools' binaries into `target`; errs with the first compiler errors.
fn build_tools(dir: &Path, target: &Path) -> Result<(), String> {
    let output = Command::new(env!("CARGO"))
        .args(["build", "--workspace", "--bins", "--message-format=short"])
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", target)
        .output()
        .map_err(|e| format!("cargo: {e}"))?;
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        let errors: Vec<&str> = stderr
            .lines()
            .filter(|l| l.starts_with("error") || l.contains(": error"))
            .take(40)
            .collect();
        return Err(format!(
            "cargo build of {} failed ({}):\n{}",
            dir.display(),
            output.status,
            errors.join("\n")
        ));
    }
    Ok(())
}

/// What one run of the command-line tool did.
pub struct CliRun {
    /// The exit code (`None` when a signal ended it).
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

/// Runs the command-line tool with `args`, its environment only `env` plus a `home` of its own
/// (no configuration file, no journal or credentials of the machine's user).
pub fn run_cli(tools: &Tools, home: &Path, env: &[(&str, String)], args: &[&str]) -> CliRun {
    let mut command = Command::new(&tools.cli);
    command
        .args(args)
        .env_clear()
        .env("HOME", home)
        .env("XDG_CONFIG_HOME", home.join("config"))
        .env("XDG_STATE_HOME", home.join("state"));
    for (k, v) in env {
        command.env(k, v);
    }
    let output = command
        .output()
        .unwrap_or_else(|e| panic!("{}: {e}", tools.cli.display()));
    CliRun {
        code: output.status.code(),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

/// What an MCP session with the generated server answered.
pub struct McpSession {
    /// The `tools/list` answer, `{"tools": [...]}`, as the server sent it.
    pub listed: Value,
    /// Each call's result, in order.
    pub calls: Vec<CallToolResult>,
}

/// Starts the MCP server over stdio (its environment only `env` plus a `home` of its own) and
/// drives it with rmcp's client: `initialize`, `tools/list`, then each of `calls`.
pub fn mcp_session(
    tools: &Tools,
    home: &Path,
    env: &[(&str, String)],
    calls: &[(&str, Value)],
) -> Result<McpSession, String> {
    let mut command = tokio::process::Command::new(&tools.mcp);
    command
        .env_clear()
        .env("HOME", home)
        .env("XDG_CONFIG_HOME", home.join("config"))
        .env("XDG_STATE_HOME", home.join("state"));
    for (k, v) in env {
        command.env(k, v);
    }
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime");
    runtime.block_on(async {
        let transport = TokioChildProcess::new(command).map_err(|e| format!("start: {e}"))?;
        let client = ().serve(transport).await.map_err(|e| format!("initialize: {e}"))?;
        let listed = client
            .list_all_tools()
            .await
            .map_err(|e| format!("tools/list: {e}"))?;
        let listed = serde_json::json!({ "tools": listed });
        let mut results = Vec::new();
        for (tool, arguments) in calls {
            let Value::Object(arguments) = arguments.clone() else {
                return Err(format!("{tool}: arguments must be an object"));
            };
            let request = CallToolRequestParams::new((*tool).to_owned()).with_arguments(arguments);
            let result = client
                .call_tool(request)
                .await
                .map_err(|e| format!("tools/call {tool}: {e}"))?;
            results.push(result);
        }
        let _ = client.cancel().await;
        Ok(McpSession {
            listed,
            calls: results,
        })
    })
}

/// The JSON pointers of every `$ref` in `schema`.
pub fn refs_in(schema: &Value, at: &str) -> Vec<String> {
    match schema {
        Value::Object(map) => map
            .iter()
            .flat_map(|(k, v)| {
                let here = format!("{at}/{k}");
                if k == "$ref" {
                    vec![here]
                } else {
                    refs_in(v, &here)
                }
            })
            .collect(),
        Value::Array(items) => items
            .iter()
            .enumerate()
            .flat_map(|(i, v)| refs_in(v, &format!("{at}/{i}")))
            .collect(),
        _ => Vec::new(),
    }
}
