//! The server driven by a client nobody here wrote: the official MCP Python SDK (PyPI `mcp`,
//! pinned in `tests/python/requirements.txt`, installed by `bash .ci/mcp-python` into
//! `target/mcp-python/venv`). Over stdio and over streamable HTTP (bearer token required):
//! initialize, `tools/list`, reads, a write repeated after its outcome (a new write) and called
//! again under its key (replayed), a purchase refused without a
//! ceiling, a destructive call refused when not enabled, and over stdio a purchase that asks the
//! user first (declined: nothing sent; accepted: sent) (`tests/python/client.py`); then the
//! sandbox's own state shows two writes for those three calls.
//!
//! Without the installed client the test fails, naming the script that installs it.

use cloud_sandbox::Sandbox;
use serde_json::Value;
use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};

const TOKEN: &str = "python-client-test-token-0123456789";

fn python() -> PathBuf {
    let venv = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/mcp-python/venv");
    let python = venv.join("bin/python");
    assert!(
        python.is_file(),
        "the MCP Python SDK is not installed at {}: run `bash .ci/mcp-python`",
        venv.display()
    );
    python
}

fn script() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/python/client.py")
}

/// The server's environment: the sandbox's signed credential and a fresh state directory
/// (also as the configuration directory).
fn server_env(command: &mut Command, sb: &Sandbox, state: &PathBuf) {
    let cred = &sb.credentials().signed;
    command
        .env_remove("CUSTOMER_CLOUD_API_BEARER")
        .env_remove("CUSTOMER_CLOUD_API_JOURNAL")
        .env("CUSTOMER_CLOUD_API_BASE_URL", sb.base_url())
        .env("CUSTOMER_CLOUD_API_KEY", &cred.prefix)
        .env("CUSTOMER_CLOUD_API_SECRET", &cred.secret)
        .env("XDG_STATE_HOME", state)
        // No configuration file of the user's: the credential is the environment's alone.
        .env("XDG_CONFIG_HOME", state);
}

fn state_dir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "customer-cloud-mcp-py-{test}-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// Runs the client with `args`; its one JSON line.
fn run_client(mut command: Command) -> Value {
    let out = command.output().expect("python runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "the Python client failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_str(stdout.lines().last().unwrap_or_default()).expect("a JSON line")
}

fn templates_named(sb: &Sandbox, name: &str) -> usize {
    sb.resources(|r| r.dns_templates.iter().filter(|t| t["name"] == name).count())
}

const FLAGS: [&str; 3] = ["--allow-writes", "--allow-purchases", "--allow-any-amount"];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_python_sdk_drives_the_server_over_stdio() {
    let python = python();
    let sb = Sandbox::start().await.expect("sandbox starts");
    let state = state_dir("stdio");
    let mut command = Command::new(python);
    command
        .arg(script())
        .arg("stdio")
        .arg(env!("CARGO_BIN_EXE_customer-cloud-mcp"))
        .args(FLAGS);
    server_env(&mut command, &sb, &state);
    let seen = tokio::task::spawn_blocking(move || run_client(command))
        .await
        .expect("the client ran");
    println!("python client over stdio: {seen}");
    assert_eq!(
        templates_named(&sb, "py-stdio"),
        2,
        "two writes for three calls: a repeat after the outcome is new, the key's call is not"
    );
    let _ = std::fs::remove_dir_all(&state);
}

/// The server on streamable HTTP at a free loopback port; its child process and `/mcp` URL.
fn serve_http(sb: &Sandbox, state: &PathBuf) -> (Child, String) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_customer-cloud-mcp"));
    command
        .args(FLAGS)
        .args(["--http", "127.0.0.1:0"])
        .env("CUSTOMER_CLOUD_API_MCP_TOKEN", TOKEN)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    server_env(&mut command, sb, state);
    let mut child = command.spawn().expect("the server starts");
    let stderr = child.stderr.take().expect("stderr");
    let mut line = String::new();
    BufReader::new(stderr)
        .read_line(&mut line)
        .expect("the server says where it serves");
    let url = line
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap_or_else(|| panic!("no URL in {line:?}"))
        .to_owned();
    (child, url)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_python_sdk_drives_the_server_over_http_with_its_token() {
    let python = python();
    let sb = Sandbox::start().await.expect("sandbox starts");
    let state = state_dir("http");
    let (mut server, url) = serve_http(&sb, &state);
    let mut command = Command::new(python);
    command
        .arg(script())
        .arg("http")
        .arg(&url)
        .env("MCP_TEST_TOKEN", TOKEN);
    let seen = tokio::task::spawn_blocking(move || run_client(command))
        .await
        .expect("the client ran");
    let _ = server.kill();
    let _ = server.wait();
    println!("python client over http: {seen}");
    assert_eq!(
        templates_named(&sb, "py-http"),
        2,
        "two writes for three calls: a repeat after the outcome is new, the key's call is not"
    );
    let _ = std::fs::remove_dir_all(&state);
}
