//! The `customer-cloud` binary at its edges, against the sandbox: a reader that went away, the
//! timeouts, a visible wait when rate limited.

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
