//! The stdio transport at its edges, on the real binary: requests read from a file, a closed
//! standard input or output, and a hostile line longer than the server reads (over a pipe and
//! from a file). Each ends the server with an exit code and a message, never a hang or a panic.
//! No request reaches an API: the calls are `tools/list` and a refused write.

use oncegen_mcp::transport::MAX_MESSAGE;
use serde_json::Value;
use std::io::Write;
use std::path::PathBuf;
use std::process::{Child, Command, Output, Stdio};
use std::sync::mpsc;
use std::time::Duration;

const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"stdio-test","version":"0"}}}"#;
const INITIALIZED: &str = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
const LIST: &str = r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#;
/// A write on a server that does not enable writes: refused without a request to the API.
const REFUSED: &str = r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"patch_webhooks_by_id","arguments":{}}}"#;

/// A server with a base URL nothing listens on (no test calls the API), a placeholder
/// credential, and its state and configuration under a fresh directory.
fn server(test: &str) -> Command {
    let state = std::env::temp_dir().join(format!(
        "customer-cloud-mcp-stdio-{test}-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&state);
    let mut command = Command::new(env!("CARGO_BIN_EXE_customer-cloud-mcp"));
    for name in ["KEY", "SECRET", "JOURNAL", "PROFILE"] {
        command.env_remove(format!("CUSTOMER_CLOUD_API_{name}"));
    }
    command
        .env("CUSTOMER_CLOUD_API_BASE_URL", "http://127.0.0.1:9")
        .env("CUSTOMER_CLOUD_API_BEARER", "stdio-test.placeholder")
        .env("XDG_STATE_HOME", &state)
        .env("XDG_CONFIG_HOME", state.join("config"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    command
}

/// A file holding `bytes`, for standard input.
fn input_file(test: &str, bytes: &[u8]) -> std::fs::File {
    let path: PathBuf = std::env::temp_dir().join(format!(
        "customer-cloud-mcp-stdin-{test}-{}",
        std::process::id()
    ));
    std::fs::write(&path, bytes).expect("writing the input file");
    let file = std::fs::File::open(&path).expect("opening the input file");
    let _ = std::fs::remove_file(&path);
    file
}

fn lines(lines: &[&str]) -> Vec<u8> {
    lines
        .iter()
        .flat_map(|l| format!("{l}\n").into_bytes())
        .collect()
}

/// The server's output once it ended by itself; a server still running after two minutes has
/// hung (each case ends in well under a second) and fails the test.
fn ended(child: Child) -> Output {
    let (sent, received) = mpsc::channel();
    std::thread::spawn(move || sent.send(child.wait_with_output()));
    received
        .recv_timeout(Duration::from_secs(120))
        .expect("the server hung: still running after two minutes")
        .expect("waiting for the server")
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// The JSON-RPC answers written, by id.
fn answers(output: &Output) -> Vec<(u64, Value)> {
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|line| {
            let answer: Value = serde_json::from_str(line).expect("each line is one JSON message");
            (answer["id"].as_u64().expect("an answer's id"), answer)
        })
        .collect()
}

/// An error exit with a message and no panic.
fn assert_error_exit(output: &Output, says: &str) {
    let text = stderr(output);
    assert_eq!(output.status.code(), Some(1), "{text}");
    assert!(text.contains(says), "stderr does not say `{says}`: {text}");
    assert!(!text.contains("panicked"), "{text}");
}

#[test]
fn requests_from_a_file_are_answered_and_the_server_ends_at_its_end() {
    let input = input_file("file", &lines(&[INITIALIZE, INITIALIZED, LIST, REFUSED]));
    let child = server("file")
        .stdin(input)
        .spawn()
        .expect("the server starts");
    let output = ended(child);
    assert!(output.status.success(), "{}", stderr(&output));
    let mut answers = answers(&output);
    answers.sort_by_key(|(id, _)| *id);
    let ids: Vec<u64> = answers.iter().map(|(id, _)| *id).collect();
    assert_eq!(ids, [1, 2, 3], "{answers:?}");
    assert_eq!(
        answers[0].1["result"]["serverInfo"]["name"],
        "customer-cloud-mcp"
    );
    let listed = answers[1].1["result"]["tools"].as_array().expect("tools");
    assert!(
        listed.iter().any(|t| t["name"] == "get_version"),
        "{listed:?}"
    );
    let refused = &answers[2].1["result"];
    assert_eq!(refused["isError"], true, "{refused}");
    assert!(refused.to_string().contains("--allow-writes"), "{refused}");
}

#[test]
fn a_closed_standard_input_ends_the_server_with_a_message() {
    let mut child = server("closed-stdin")
        .stdin(Stdio::piped())
        .spawn()
        .expect("the server starts");
    drop(child.stdin.take());
    let output = ended(child);
    assert_error_exit(&output, "initialize");
    assert!(output.stdout.is_empty());
}

#[test]
fn a_closed_standard_output_ends_the_server_with_a_message() {
    let mut child = server("closed-stdout")
        .stdin(Stdio::piped())
        .spawn()
        .expect("the server starts");
    drop(child.stdout.take());
    let mut stdin = child.stdin.take().expect("piped stdin");
    // The server may already have ended when the later lines arrive.
    let _ = stdin.write_all(&lines(&[INITIALIZE, INITIALIZED, REFUSED]));
    drop(stdin);
    let output = ended(child);
    assert_error_exit(&output, "stdio transport");
}

/// Initialization, then a line of `MAX_MESSAGE + 1` bytes with no newline.
fn oversized() -> Vec<u8> {
    let mut bytes = lines(&[INITIALIZE, INITIALIZED]);
    bytes.resize(bytes.len() + MAX_MESSAGE + 1, b'x');
    bytes
}

#[test]
fn a_line_longer_than_the_limit_on_a_pipe_ends_the_session_with_an_error() {
    let mut child = server("oversized-pipe")
        .stdin(Stdio::piped())
        .spawn()
        .expect("the server starts");
    let mut stdin = child.stdin.take().expect("piped stdin");
    // Standard input stays open: only the limit can end the session.
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&oversized());
        stdin
    });
    let output = ended(child);
    drop(writer.join());
    assert_error_exit(&output, &format!("longer than {MAX_MESSAGE} bytes"));
    assert_eq!(answers(&output).len(), 1, "only initialize is answered");
}

#[test]
fn a_line_longer_than_the_limit_in_a_file_ends_the_session_with_an_error() {
    let input = input_file("oversized-file", &oversized());
    let child = server("oversized-file")
        .stdin(input)
        .spawn()
        .expect("the server starts");
    let output = ended(child);
    assert_error_exit(&output, &format!("longer than {MAX_MESSAGE} bytes"));
}
