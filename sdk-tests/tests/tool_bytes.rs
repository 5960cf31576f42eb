//! A call answering bytes of a media type neither JSON nor text (`oncegen_runtime::Binary`),
//! through the binaries of the tools generated for it: the command-line tool writes the bytes
//! to stdout as they are; the MCP server answers them as base64 (they are not UTF-8). The SDK
//! and both tools are generated from [`DOCUMENT`] under `target/tool-bytes/` and built into the
//! generated crates' target directory; the API is a thread on 127.0.0.1 answering every request
//! with [`PDF`]. Its tag is named like a command of the tool's own: the area is
//! `completions-api`, and `completions` still writes shell completions.

use oncegen::emit::{Layout, Options, RUNTIME_VERSION};
use oncegen::write::{Mode, ensure_files};
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const DOCUMENT: &str = r#"
openapi: 3.1.0
info: {title: bytes, version: '1'}
tags: [{name: Completions}]
paths:
  /completions/{reportId}:
    get:
      operationId: completionsGet
      tags: [Completions]
      parameters:
        - {name: reportId, in: path, required: true, schema: {type: string}}
      responses:
        '200': {description: ok, content: {application/pdf: {schema: {type: string, format: binary}}}}
"#;

/// The API's answer: a body that is not UTF-8.
const PDF: &[u8] = b"%PDF\xff\x00\x01";

/// The SDK `bytes-sdk` written under `dir`, on this checkout's runtime; returns its surface.
fn write_sdk(dir: &Path) -> oncegen::Surface {
    let options = Options {
        crate_name: "bytes-sdk".to_owned(),
        spec_label: "tool_bytes.rs".to_owned(),
        layout: Layout::Standalone {
            runtime_path: sdk_tests::workspace::repo().join("oncegen-runtime"),
        },
        crate_version: None,
        manifest: Default::default(),
    };
    let (api, files) = oncegen::generate_str(DOCUMENT, "tool_bytes.rs", &options).expect("SDK");
    let sdk = dir.join("bytes-sdk");
    ensure_files(&sdk, &files, &sdk.join("src/generated"), Mode::Write).expect("SDK written");
    oncegen::Surface::of(&api, "bytes-sdk", "0.1.0")
}

/// The SDK (under `dir`) and its tools `bytes-cli` and `bytes-mcp`, a workspace on this
/// checkout's support crates at `dir/tools`; returns that directory.
fn write_crates(dir: &Path) -> PathBuf {
    let surface = write_sdk(dir);
    let sdk_dependency = "bytes-sdk = { path = \"../../bytes-sdk\" }".to_owned();
    let package = vec![
        "version = \"0.1.0\"".to_owned(),
        "edition = \"2024\"".to_owned(),
    ];
    let cli = oncegen::cli::Options {
        crate_name: "bytes-cli".to_owned(),
        bin: "bytes".to_owned(),
        sdk_crate: "bytes-sdk".to_owned(),
        spec_label: "tool_bytes.rs".to_owned(),
        dependencies: vec![
            sdk_dependency.clone(),
            format!("oncegen-cli = \"{RUNTIME_VERSION}\""),
        ],
        package: package.clone(),
        dev_dependencies: Vec::new(),
    };
    let mcp = oncegen::mcp::Options {
        crate_name: "bytes-mcp".to_owned(),
        bin: "bytes-mcp".to_owned(),
        profiles: "bytes".to_owned(),
        sdk_crate: "bytes-sdk".to_owned(),
        spec_label: "tool_bytes.rs".to_owned(),
        dependencies: vec![
            sdk_dependency,
            format!("oncegen-mcp = \"{RUNTIME_VERSION}\""),
        ],
        package,
        features: Vec::new(),
        dev_dependencies: Vec::new(),
    };
    let tools = dir.join("tools");
    for (member, files) in [
        ("cli", oncegen::cli::emit(&surface, &cli).expect("CLI")),
        (
            "mcp",
            oncegen::mcp::emit(&surface, &mcp).expect("MCP server"),
        ),
    ] {
        let crate_dir = tools.join(member);
        ensure_files(&crate_dir, &files, &crate_dir.join("src"), Mode::Write).expect("written");
    }
    write_workspace(&tools);
    tools
}

/// The manifest of the tools' workspace at `tools`: the support crates the generated manifests
/// name by version are this checkout's.
fn write_workspace(tools: &Path) {
    let root = sdk_tests::workspace::repo();
    let path = |krate: &str| root.join(krate).display().to_string();
    let manifest = format!(
        "[workspace]\nresolver = \"3\"\nmembers = [\"cli\", \"mcp\"]\n\n[patch.crates-io]\n\
         oncegen-runtime = {{ path = {:?} }}\noncegen-cli = {{ path = {:?} }}\n\
         oncegen-mcp = {{ path = {:?} }}\n\n[profile.dev]\ndebug = false\nincremental = false\n",
        path("oncegen-runtime"),
        path("oncegen-cli"),
        path("oncegen-mcp"),
    );
    std::fs::write(tools.join("Cargo.toml"), manifest).expect("tools manifest");
    std::fs::copy(root.join("Cargo.lock"), tools.join("Cargo.lock")).expect("lock copied");
}

/// Builds the tools' workspace; returns the target directory.
fn build(tools: &Path) -> PathBuf {
    let target = sdk_tests::generated_crates_target();
    let output = Command::new(env!("CARGO"))
        .args(["build", "--workspace", "--bins", "--message-format=short"])
        .current_dir(tools)
        .env("CARGO_TARGET_DIR", &target)
        .output()
        .expect("cargo runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "the tools do not build:\n{stderr}");
    target
}

/// An API on 127.0.0.1 answering every request with [`PDF`] as `application/pdf`; its base URL.
fn api() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").expect("a port");
    let url = format!("http://{}", listener.local_addr().expect("its address"));
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let mut reader = BufReader::new(stream);
            let mut line = String::new();
            while reader.read_line(&mut line).is_ok_and(|n| n > 0) && line != "\r\n" {
                line.clear();
            }
            let head = format!(
                "HTTP/1.1 200 OK\r\ncontent-type: application/pdf\r\ncontent-length: {}\r\n\
                 connection: close\r\n\r\n",
                PDF.len()
            );
            let mut stream = reader.into_inner();
            let _ = stream.write_all(&[head.as_bytes(), PDF].concat());
        }
    });
    url
}

/// A tool's command with the API at `url` and its state and configuration under `state`.
fn tool(binary: &Path, url: &str, state: &Path) -> Command {
    let mut command = Command::new(binary);
    command
        .env("BYTES_API_BASE_URL", url)
        .env("XDG_STATE_HOME", state)
        .env("XDG_CONFIG_HOME", state.join("config"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    command
}

/// The MCP server's answer to calling `completions_get` over stdio, raw JSON-RPC lines.
fn mcp_call(mut command: Command) -> Value {
    let mut child = command.spawn().expect("the MCP server starts");
    let lines = [
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "tool-bytes", "version": "0"}}}),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
            "name": "completions_get", "arguments": {"reportId": "r1"}}}),
    ];
    let mut stdin = child.stdin.take().expect("stdin");
    for line in lines {
        writeln!(stdin, "{line}").expect("a request written");
    }
    let stdout = BufReader::new(child.stdout.take().expect("stdout"));
    let answer = stdout
        .lines()
        .map(|line| serde_json::from_str::<Value>(&line.expect("a line")).expect("JSON"))
        .find(|message| message["id"] == 2)
        .expect("an answer to the call");
    drop(stdin);
    let _ = child.wait();
    answer
}

/// Both in the area of tag `Completions`, the CLI's `completions-api` (its own
/// `completions` untouched).
#[test]
fn bytes_answered_are_written_as_they_are_and_given_to_an_agent_as_base64() {
    let dir = sdk_tests::target_dir().join("tool-bytes");
    let _ = std::fs::remove_dir_all(&dir);
    let target = build(&write_crates(&dir));
    let url = api();
    let state = dir.join("state");

    let cli = tool(&target.join("debug/bytes"), &url, &state)
        .args(["completions-api", "get", "r1"])
        .output()
        .expect("the CLI runs");
    let stderr = String::from_utf8_lossy(&cli.stderr);
    assert!(cli.status.success(), "{stderr}");
    assert_eq!(cli.stdout, PDF, "{stderr}");

    let completions = tool(&target.join("debug/bytes"), &url, &state)
        .args(["completions", "bash"])
        .output()
        .expect("the CLI runs");
    assert!(completions.status.success());
    assert!(String::from_utf8_lossy(&completions.stdout).contains("completions-api"));

    let answer = mcp_call(tool(&target.join("debug/bytes-mcp"), &url, &state));
    let result = &answer["result"];
    assert_ne!(result["isError"], true, "{answer}");
    // An object answer is structured content (`oncegen_mcp::result`), given once.
    assert_eq!(
        result["structuredContent"],
        json!({"content_type": "application/pdf", "base64": "JVBERv8AAQ=="}),
        "{answer}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
