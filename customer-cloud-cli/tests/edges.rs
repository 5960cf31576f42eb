//! The `customer-cloud` binary at its edges, against the sandbox or a tiny server of the test's:
//! a reader that went away, a number out of its schema's range, the timeouts, a visible wait
//! when rate limited (in a pipe and on a terminal), a write of unknown outcome in one line.

mod common;

use cloud_sandbox::{Fault, Matcher, Sandbox};
use common::Cli;
use std::process::{Output, Stdio};

/// The output of `args` written into a pipe whose reader has already closed.
fn into_closed_pipe(cli: &Cli, args: &[&str]) -> Output {
    let (reader, writer) = std::io::pipe().expect("a pipe");
    drop(reader);
    cli.command(args)
        .stdout(Stdio::from(writer))
        .stderr(Stdio::piped())
        .output()
        .expect("the binary runs")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_closed_pipe_ends_the_command_quietly_with_status_0() {
    let sb = Sandbox::start().await.expect("sandbox starts");
    let cli = Cli::new(&sb, "closed-pipe");
    let commands: [&[&str]; 4] = [
        &["catalog", "get-products", "--all"],
        &["catalog", "get-products", "--all", "--output", "ndjson"],
        &["catalog", "get-products", "--output", "yaml"],
        &["catalog", "get-products", "--jq", ".items[].id"],
    ];
    for args in commands {
        let output = into_closed_pipe(&cli, args);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(0), "{args:?}: {stderr}");
        assert!(stderr.is_empty(), "{args:?}: {stderr}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wait_on_429_is_one_line_on_stderr_and_the_answer_follows() {
    let sb = Sandbox::start().await.expect("sandbox starts");
    let cli = Cli::new(&sb, "rate-limited");
    sb.inject(
        Fault::RateLimited { retry_after: 1 },
        Matcher::new("GET", "/v1/products"),
        1,
    );
    let output = cli.output(&["catalog", "get-products", "--limit", "1"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert_eq!(
        stderr.lines().collect::<Vec<_>>(),
        ["waiting 1s: rate limited (429), attempt 2 of 4"],
        "{stderr}"
    );
    let answer: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
    assert!(answer["items"].is_array(), "{answer}");
}

#[test]
fn a_number_out_of_the_schema_s_range_names_the_flag_and_the_bound() {
    let cases = [
        ("1000", "'--limit <limit>': 1000 is above the maximum 100"),
        ("0", "'--limit <limit>': 0 is below the minimum 1"),
    ];
    for (limit, says) in cases {
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_customer-cloud"))
            .args(["catalog", "get-products", "--limit", limit])
            .env("CUSTOMER_CLOUD_API_BASE_URL", "http://127.0.0.1:9")
            .output()
            .expect("the binary runs");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains(says), "{stderr}");
        assert!(!stderr.contains("u8"), "{stderr}");
    }
}

/// A server that accepts connections and never answers; its base URL. The listener lives as
/// long as the test process.
fn silent_server() -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("a port");
    let url = format!("http://{}", listener.local_addr().expect("an address"));
    std::thread::spawn(move || {
        let held: Vec<_> = listener.incoming().collect();
        drop(held);
    });
    url
}

/// The exit code and stderr of `catalog get-regions` against `url` with `args` and `env`.
fn timed_out(url: &str, args: &[&str], env: &[(&str, &str)]) -> (Option<i32>, String) {
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_customer-cloud"));
    command
        .args(["catalog", "get-regions"])
        .args(args)
        .env("CUSTOMER_CLOUD_API_BASE_URL", url)
        .env("CUSTOMER_CLOUD_API_BEARER", "edges.placeholder")
        .env_remove("CUSTOMER_CLOUD_API_READ_TIMEOUT")
        .env_remove("CUSTOMER_CLOUD_API_TOTAL_TIMEOUT");
    for (name, value) in env {
        command.env(name, value);
    }
    let output = command.output().expect("the binary runs");
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    (output.status.code(), stderr)
}

#[test]
fn read_and_total_timeouts_come_from_flags_or_the_environment() {
    let url = silent_server();
    // One attempt of a second, within a total of one: the call ends after that attempt.
    let (code, stderr) = timed_out(&url, &["--read-timeout", "1", "--total-timeout", "1"], &[]);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.contains("timed out after 1 attempt(s)"), "{stderr}");
    let env = [
        ("CUSTOMER_CLOUD_API_READ_TIMEOUT", "1"),
        ("CUSTOMER_CLOUD_API_TOTAL_TIMEOUT", "1"),
    ];
    let (code, stderr) = timed_out(&url, &[], &env);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.contains("timed out after 1 attempt(s)"), "{stderr}");
    let bad = [("CUSTOMER_CLOUD_API_TOTAL_TIMEOUT", "soon")];
    let (code, stderr) = timed_out(&url, &[], &bad);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains("CUSTOMER_CLOUD_API_TOTAL_TIMEOUT=soon"),
        "{stderr}"
    );
    let (code, stderr) = timed_out(&url, &["--read-timeout", "0"], &[]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("--read-timeout"), "{stderr}");
}

/// A server that reads a request's first bytes and closes the connection without an answer;
/// its base URL.
fn closing_server() -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("a port");
    let url = format!("http://{}", listener.local_addr().expect("an address"));
    std::thread::spawn(move || {
        for mut stream in listener.incoming().flatten() {
            let _ = std::io::Read::read(&mut stream, &mut [0; 4096]);
        }
    });
    url
}

#[test]
fn a_write_of_unknown_outcome_says_its_transport_error_once_in_words() {
    let state = std::env::temp_dir().join(format!("cli-edges-unknown-{}", std::process::id()));
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_customer-cloud"))
        .args([
            "dns",
            "create-dns-zone",
            "--json",
            r#"{"name":"a.example"}"#,
        ])
        .env("CUSTOMER_CLOUD_API_BASE_URL", closing_server())
        .env("CUSTOMER_CLOUD_API_BEARER", "edges.placeholder")
        .env("XDG_STATE_HOME", &state)
        .env_remove("CUSTOMER_CLOUD_API_JOURNAL")
        .output()
        .expect("the binary runs");
    let _ = std::fs::remove_dir_all(&state);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(8), "{stderr}");
    let error: Vec<&str> = stderr
        .lines()
        .filter(|l| !l.starts_with("waiting "))
        .collect();
    assert_eq!(error.len(), 2, "the error and its key: {stderr}");
    assert!(
        error[0].starts_with("error: write outcome unknown: POST /v1/dns/zones: "),
        "{stderr}"
    );
    assert_eq!(error[0].matches("transport error").count(), 1, "{stderr}");
    assert!(
        !error[0].contains('{') && !error[0].contains("idempotency key"),
        "{stderr}"
    );
    assert!(error[1].starts_with("  idempotency key: "), "{stderr}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_terminal_sees_the_wait_on_429_too() {
    let sb = Sandbox::start().await.expect("sandbox starts");
    let cli = Cli::new(&sb, "rate-limited-terminal");
    sb.inject(
        Fault::RateLimited { retry_after: 1 },
        Matcher::new("GET", "/v1/regions"),
        1,
    );
    let mut command = cli.command(&["catalog", "get-regions"]);
    command.env("TERM", "xterm");
    // Each step waits for output; the 120 seconds only guard against a hang.
    let mut session =
        rexpect::session::spawn_command(command, Some(120_000)).expect("a pseudo-terminal");
    session
        .exp_string("waiting 1s: rate limited (429), attempt 2 of 4")
        .expect("the wait line");
    session.exp_string("Germany").expect("the table after it");
    session.exp_eof().expect("ends");
}
