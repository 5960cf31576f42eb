//! The server's edges on the real binary: every line on standard input answered however deep or
//! malformed, and the serving goes on; the HTTP transport refusing a browser's foreign
//! `Origin`; start-up refusing unknown selections and malformed credentials. No request reaches
//! an API.

use serde_json::Value;
use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Output, Stdio};
use std::sync::mpsc;
use std::time::Duration;

const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"edges-test","version":"0"}}}"#;
const INITIALIZED: &str = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;

/// A server with a base URL nothing listens on, a placeholder credential, and its state and
/// configuration under a fresh directory.
fn server(test: &str) -> Command {
    let state = std::env::temp_dir().join(format!(
        "customer-cloud-mcp-edges-{test}-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&state);
    let mut command = Command::new(env!("CARGO_BIN_EXE_customer-cloud-mcp"));
    for name in ["KEY", "SECRET", "JOURNAL", "PROFILE", "MCP_TOKEN"] {
        command.env_remove(format!("CUSTOMER_CLOUD_API_{name}"));
    }
    command
        .env("CUSTOMER_CLOUD_API_BASE_URL", "http://127.0.0.1:9")
        .env("CUSTOMER_CLOUD_API_BEARER", "edges-test.placeholder")
        .env("XDG_STATE_HOME", &state)
        .env("XDG_CONFIG_HOME", state.join("config"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    command
}

/// The server's output once it ended by itself; still running after two minutes is a hang.
fn ended(child: Child) -> Output {
    let (sent, received) = mpsc::channel();
    std::thread::spawn(move || sent.send(child.wait_with_output()));
    received
        .recv_timeout(Duration::from_secs(120))
        .expect("the server hung: still running after two minutes")
        .expect("waiting for the server")
}

/// The server's answers to `input` written on a pipe that then closes.
fn answers(input: &[u8]) -> Vec<Value> {
    let mut child = server("stdio").spawn().expect("the server starts");
    let mut stdin = child.stdin.take().expect("piped stdin");
    let input = input.to_vec();
    let writer = std::thread::spawn(move || stdin.write_all(&input));
    let output = ended(child);
    writer.join().unwrap().expect("writing the input");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|line| serde_json::from_str(line).expect("each answer is one JSON line"))
        .collect()
}

fn ping(id: u64) -> String {
    format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"ping"}}"#)
}

#[test]
fn every_line_gets_an_answer_and_the_next_request_is_served() {
    let deep_array = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
    let deep_object = format!("{}1{}", r#"{"a":"#.repeat(10_000), "}".repeat(10_000));
    // Each case: a line, the error code of its answer (to id null).
    let cases: [(&[u8], i64); 6] = [
        (deep_array.as_bytes(), -32700),
        (deep_object.as_bytes(), -32700),
        (b"\xff\xfe{}", -32700),
        (br#"{"jsonrpc":"2.0","id":99,"method":"#, -32700),
        (b"5", -32600),
        (br#"[{"jsonrpc":"2.0","id":98,"method":"ping"}]"#, -32600),
    ];
    let mut input = format!("{INITIALIZE}\n{INITIALIZED}\n").into_bytes();
    for (i, (line, _)) in cases.iter().enumerate() {
        input.extend_from_slice(line);
        input.extend_from_slice(format!("\n{}\n", ping(10 + i as u64)).as_bytes());
    }
    let answers = answers(&input);
    let refused: Vec<&Value> = answers.iter().filter(|a| a["id"].is_null()).collect();
    let codes: Vec<i64> = refused
        .iter()
        .map(|a| a["error"]["code"].as_i64().unwrap())
        .collect();
    let expected: Vec<i64> = cases.iter().map(|(_, code)| *code).collect();
    assert_eq!(codes, expected, "{refused:?}");
    let deep = refused[0]["error"]["message"].as_str().unwrap();
    assert!(deep.contains("nesting deeper than 128 levels"), "{deep}");
    for id in 10..10 + cases.len() as u64 {
        let pong = answers.iter().find(|a| a["id"] == id);
        assert!(
            pong.is_some_and(|p| p["result"].is_object()),
            "ping {id}: {answers:?}"
        );
    }
}

#[test]
fn bad_params_are_invalid_params_and_bad_arguments_a_tool_error() {
    let lines = [
        INITIALIZE,
        INITIALIZED,
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_version","arguments":5}}"#,
        r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"arguments":{}}}"#,
        r#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"get_products_by_region","arguments":{"region":[1]}}}"#,
    ];
    let answers = answers(format!("{}\n", lines.join("\n")).as_bytes());
    let by_id = |id: u64| answers.iter().find(|a| a["id"] == id).expect("answered");
    assert_eq!(by_id(2)["error"]["code"], -32602, "{:?}", by_id(2));
    let nameless = &by_id(3)["error"];
    assert_eq!(nameless["code"], -32602, "{nameless}");
    assert!(
        nameless["message"].as_str().unwrap().contains("name"),
        "{nameless}"
    );
    let tool_error = &by_id(4)["result"];
    assert_eq!(tool_error["isError"], true, "{tool_error}");
    assert!(tool_error.to_string().contains("region"), "{tool_error}");
}

const TOKEN: &str = "edges-test-token-0123456789";

/// The server on streamable HTTP at a free loopback port with `flags`; its child and address.
fn serve_http(flags: &[&str]) -> (Child, String) {
    let mut child = server("http")
        .args(["--http", "127.0.0.1:0"])
        .args(flags)
        .env("CUSTOMER_CLOUD_API_MCP_TOKEN", TOKEN)
        .stdin(Stdio::null())
        .spawn()
        .expect("the server starts");
    let mut stderr = BufReader::new(child.stderr.take().expect("stderr"));
    let mut line = String::new();
    stderr
        .read_line(&mut line)
        .expect("the server says where it serves");
    let addr = line
        .split_whitespace()
        .find_map(|w| w.strip_prefix("http://"))
        .and_then(|w| w.strip_suffix("/mcp"))
        .unwrap_or_else(|| panic!("no URL in {line:?}"))
        .to_owned();
    (child, addr)
}

/// The status of an `initialize` POSTed to `/mcp` at `addr` with `headers`, over raw HTTP/1.1.
fn status(addr: &str, headers: &[String]) -> u16 {
    let mut stream = TcpStream::connect(addr).expect("connecting to the server");
    let mut request = format!(
        "POST /mcp HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nContent-Length: {}\r\n\
         Connection: close\r\n",
        INITIALIZE.len()
    );
    for header in headers {
        request.push_str(&format!("{header}\r\n"));
    }
    request.push_str("\r\n");
    request.push_str(INITIALIZE);
    stream.write_all(request.as_bytes()).expect("sending");
    let mut head = String::new();
    BufReader::new(stream)
        .read_line(&mut head)
        .expect("an answer");
    head.split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("not an HTTP status line: {head:?}"))
}

#[test]
fn http_refuses_a_foreign_origin_before_the_token_and_passes_loopback_and_none() {
    let (mut child, addr) = serve_http(&["--allow-origin", "https://app.example.com"]);
    let bearer = format!("Authorization: Bearer {TOKEN}");
    let origin = |o: &str| format!("Origin: {o}");
    let cases = [
        (vec![origin("http://evil.example")], 403),
        (vec![origin("http://evil.example"), bearer.clone()], 403),
        (
            vec![origin("http://localhost.evil.example:80"), bearer.clone()],
            403,
        ),
        (vec![origin("null"), bearer.clone()], 403),
        (vec![bearer.clone()], 200),
        (vec![origin("http://localhost:6274"), bearer.clone()], 200),
        (vec![origin("http://127.0.0.1:8080"), bearer.clone()], 200),
        (vec![origin("http://[::1]:3000"), bearer.clone()], 200),
        (vec![origin("https://app.example.com"), bearer.clone()], 200),
        (vec![origin("http://localhost:6274")], 401),
    ];
    let seen: Vec<(Vec<String>, u16)> = cases
        .iter()
        .map(|(headers, _)| (headers.clone(), status(&addr, headers)))
        .collect();
    child.kill().expect("stopping the server");
    let _ = child.wait();
    let expected: Vec<(Vec<String>, u16)> = cases.into_iter().collect();
    assert_eq!(seen, expected);
}

#[test]
fn an_allowed_origin_that_is_not_one_is_a_start_up_error() {
    let output = ended(
        server("origin-flag")
            .args(["--http", "127.0.0.1:0", "--allow-origin", "example.com"])
            .env("CUSTOMER_CLOUD_API_MCP_TOKEN", TOKEN)
            .spawn()
            .expect("the server starts"),
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("--allow-origin example.com"), "{stderr}");
}

/// The exit code and standard error of a server started with `args` and `env`, stdin closed.
fn start_up(args: &[&str], env: &[(&str, &str)]) -> (Option<i32>, String) {
    let mut command = server("start-up");
    command.args(args).stdin(Stdio::null());
    for (name, value) in env {
        command.env(name, value);
    }
    let output = ended(command.spawn().expect("the server starts"));
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    (output.status.code(), stderr)
}

#[test]
fn an_unknown_selection_is_a_start_up_error_listing_the_valid_values() {
    let cases = [
        (
            ["--area", "dnz"],
            "--area dnz: no such area; valid (closest first): dns, ",
        ),
        (
            ["--method", "GOT"],
            "--method GOT: no such method; valid (closest first): GET, ",
        ),
        (
            ["--operation", "getVersio"],
            "no such operation; valid (closest first): getVersion, ",
        ),
        (
            ["--exclude-area", "vpz"],
            "--exclude-area vpz: no such area; valid",
        ),
        (
            ["--exclude-method", "FETCH"],
            "--exclude-method FETCH: no such method",
        ),
        (
            ["--exclude-operation", "nope"],
            "--exclude-operation nope: no such operation",
        ),
    ];
    for (args, says) in cases {
        let (code, stderr) = start_up(&args, &[]);
        assert_eq!(code, Some(1), "{args:?}: {stderr}");
        assert!(stderr.contains(says), "{args:?}: {stderr}");
    }
}

#[test]
fn a_malformed_bearer_credential_is_a_start_up_error_that_does_not_show_it() {
    for malformed in ["Bearer ck.s3cr3t", "ck.s3cr3t with space", "ck.s3cr3t\n"] {
        let env = [("CUSTOMER_CLOUD_API_BEARER", malformed)];
        let (code, stderr) = start_up(&["--list-tools"], &env);
        assert_eq!(code, Some(1), "{stderr}");
        assert!(
            stderr.contains("CUSTOMER_CLOUD_API_BEARER is not a bearer credential"),
            "{stderr}"
        );
        assert!(!stderr.contains("s3cr3t"), "{stderr}");
    }
}

/// The dynamic mode's tools/list with `flags`, and the answer to `call` (id 3) after it.
fn dynamic(flags: &[&str], call: &str) -> (Vec<Value>, Value) {
    let list = r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#;
    let mut child = server("dynamic")
        .args(["--tools", "dynamic"])
        .args(flags)
        .spawn()
        .expect("the server starts");
    let mut stdin = child.stdin.take().expect("piped stdin");
    writeln!(stdin, "{INITIALIZE}\n{INITIALIZED}\n{list}\n{call}").expect("writing");
    drop(stdin);
    let output = ended(child);
    let answers: Vec<Value> = String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON answer per line"))
        .collect();
    let by_id = |id: u64| {
        answers
            .iter()
            .find(|a| a["id"] == id)
            .cloned()
            .expect("answered")
    };
    let tools = by_id(2)["result"]["tools"]
        .as_array()
        .cloned()
        .expect("tools");
    (tools, by_id(3))
}

fn annotations(tools: &[Value], name: &str) -> Value {
    let tool = tools.iter().find(|t| t["name"] == name);
    tool.unwrap_or_else(|| panic!("no {name}: {tools:?}"))["annotations"].clone()
}

#[test]
fn a_read_through_the_dynamic_mode_is_a_read_only_tool() {
    let write = r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"call_read_operation","arguments":{"name":"dns_template_create","arguments":{}}}}"#;
    let (read_only, _) = dynamic(&[], write);
    let names: Vec<&str> = read_only
        .iter()
        .filter_map(|t| t["name"].as_str())
        .collect();
    assert_eq!(
        names,
        ["search_operations", "describe_operation", "call_operation"]
    );
    assert_eq!(
        annotations(&read_only, "call_operation")["readOnlyHint"],
        true
    );

    let (writes, refused) = dynamic(&["--allow-writes"], write);
    let call = annotations(&writes, "call_operation");
    assert_eq!(
        (&call["readOnlyHint"], &call["destructiveHint"]),
        (&false.into(), &false.into())
    );
    assert_eq!(
        annotations(&writes, "call_read_operation")["readOnlyHint"],
        true
    );
    let refused = &refused["result"];
    assert_eq!(refused["isError"], true, "{refused}");
    assert!(
        refused
            .to_string()
            .contains("writes: call it with call_operation"),
        "{refused}"
    );

    let (destructive, _) = dynamic(&["--allow-writes", "--allow-destructive"], write);
    assert_eq!(
        annotations(&destructive, "call_operation")["destructiveHint"],
        true
    );
}
