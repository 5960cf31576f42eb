//! The generated SDK against real servers nobody here wrote (issue #19): Chroma (a vector
//! database, 35 operations) and Prefect (workflow orchestration, 187 operations), installed
//! from PyPI at pinned versions by `.ci/real-servers` and started by the test on loopback.
//!
//! For each server the test starts it on a free 127.0.0.1 port, waits (bounded) until it
//! answers, fetches the OpenAPI document the running server serves, generates the SDK crate
//! from it, writes a driver program that depends on that crate (`sdk-tests/realservers/<server>/`,
//! one binary per behaviour), builds it, runs it against the server and requires every check
//! to pass: JSON bodies, path and query parameters, nulls inside arrays, top-level null and
//! empty bodies, a non-JSON response, the error bodies the document declares decoded into their
//! types with the server's message shown, the document's auth scheme set once on the client
//! (seen on the wire through a recording relay), the document's `servers`, and a generated
//! crate that holds no absolute path. The server is stopped when the test ends (kill on drop).
//!
//! On Chroma (issues #30 and #31) the command-line tool and the MCP server generated from the
//! same document are built too, in one cargo build beside the SDK (`real_servers/tools.rs`),
//! and run against the server: the tool reads a database and reports a missing one with its
//! not-found exit code and Chroma's message; the MCP server, driven over stdio by rmcp's client,
//! lists every read as a tool with a `$ref`-free object input schema and answers a read with
//! what Chroma holds. Chroma rather than Prefect: every Chroma has `default_tenant` and
//! `default_database` to read without setup, its 404 is documented (`ErrorResponse`), and its
//! 35 operations build in a fraction of Prefect's 187.
//!
//! Outside CI a server that cannot be installed skips its test with a printed reason; under
//! `CI=true` that fails. Dependencies of the drivers build once into `target/generated-crates` (shared with the
//! revision rehearsal's driver).
//! Run with `cargo test -p sdk-tests --test real_servers -- --nocapture` to see the timings.

#[path = "real_servers/driver.rs"]
mod driver;
#[path = "real_servers/install.rs"]
mod install;
#[path = "real_servers/relay.rs"]
mod relay;
#[path = "real_servers/server.rs"]
mod server;
#[path = "real_servers/tools.rs"]
mod tools;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use driver::{BinOutcome, DriverReport, generate_build_run, workspace};
use relay::Relay;
use serde_json::{Value, json};
use server::{Server, free_port, get};

/// A fresh scratch directory for one server's run (`target/real-servers/run/<server>`).
fn scratch(server: &str) -> PathBuf {
    let dir = workspace().join("target/real-servers/run").join(server);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

/// The OpenAPI document the running server serves at `path`.
fn served_document(server: &Server, path: &str) -> String {
    let (status, body) = get(server.port(), path).expect("the document can be fetched");
    assert_eq!(status, 200, "GET {path}");
    let text = String::from_utf8(body).expect("the document is UTF-8");
    let doc: serde_json::Value = serde_json::from_str(&text).expect("the document is JSON");
    assert!(
        doc["openapi"].as_str().is_some_and(|v| v.starts_with("3.")),
        "GET {path} is no OpenAPI 3 document"
    );
    text
}

/// Prints the timings and the per-binary summary, then fails with every failure listed.
fn conclude(
    server: &str,
    started: Instant,
    ready: Duration,
    report: &DriverReport,
    extra: Vec<String>,
) {
    install::say(format_args!(
        "{server}: {} operations; ready in {:.1}s, generated in {:.1}s, driver built in {:.1}s, run in {:.1}s; {:.1}s in all",
        report.operations,
        ready.as_secs_f64(),
        report.generate_time.as_secs_f64(),
        report.build_time.as_secs_f64(),
        report.run_time.as_secs_f64(),
        started.elapsed().as_secs_f64()
    ));
    print!("{}", report.summary());
    let mut failures = report.failures();
    failures.extend(extra);
    assert!(
        failures.is_empty(),
        "{server}: {} failures:\n- {}",
        failures.len(),
        failures.join("\n- ")
    );
}

const CHROMA_TOKEN: &str = "chroma-test-token-7f3a";

#[test]
fn chroma_round_trips_through_the_sdk_generated_from_its_own_document() {
    let Some(bin) = install::require("chroma") else {
        return;
    };
    let started = Instant::now();
    let scratch = scratch("chroma");
    let port = free_port();
    let mut command = Command::new(bin.join("chroma"));
    command
        .args([
            "run",
            "--host",
            "127.0.0.1",
            "--port",
            &port.to_string(),
            "--path",
        ])
        .arg(scratch.join("data"))
        .env("ANONYMIZED_TELEMETRY", "False");
    let mut server = Server::spawn("chroma", command, port, &scratch.join("server.log"));
    let ready = server.wait_ready("/api/v2/heartbeat", Duration::from_secs(90));
    let document = served_document(&server, "/openapi.json");
    let (status, version_body) = get(server.port(), "/api/v2/version").expect("GET version");
    assert_eq!(status, 200, "GET /api/v2/version");
    let relay = Relay::start(server.port());

    let report = generate_build_run(
        "chroma",
        &document,
        &scratch,
        &[
            ("SERVER_URL", server.origin()),
            ("RELAY_URL", relay.origin()),
            ("CHROMA_TOKEN", CHROMA_TOKEN.to_owned()),
            (
                "VERSION_BODY",
                String::from_utf8(version_body).expect("the version body is UTF-8"),
            ),
        ],
    );
    let mut problems = chroma_token_on_the_wire(&relay, &report);
    problems.extend(chroma_tools(&server, &relay, &document, &scratch));
    conclude("chroma", started, ready, &report, problems);
}

/// The `auth` binary talks through the relay: the token set once on the client must reach
/// every operation the document secures with `ApiKeyAuth` (`x-chroma-token`), and no other.
fn chroma_token_on_the_wire(relay: &Relay, report: &DriverReport) -> Vec<String> {
    if !matches!(report.bins.get("auth"), Some(BinOutcome::Ran { .. })) {
        return Vec::new(); // its failure to compile is reported already
    }
    let unsecured = [
        "/api/v2/heartbeat",
        "/api/v2/version",
        "/api/v2/healthcheck",
    ];
    let requests = relay.requests();
    let mut problems = Vec::new();
    if requests.is_empty() {
        problems.push("auth: no request went through the relay".to_owned());
    }
    for r in &requests {
        let path = r.path.split('?').next().unwrap_or_default();
        let token = r.header("x-chroma-token");
        if unsecured.contains(&path) {
            if token.is_some() {
                problems.push(format!(
                    "auth: {} {path} (no security) sent x-chroma-token",
                    r.method
                ));
            }
        } else if token != Some(CHROMA_TOKEN) {
            problems.push(format!(
                "auth: {} {path} (security ApiKeyAuth) sent x-chroma-token {token:?}",
                r.method
            ));
        }
    }
    problems
}

/// What Chroma holds at `path`, read without generated code: the JSON of a `GET`, and its status.
fn held(server: &Server, path: &str) -> (u16, Value) {
    let (status, body) = get(server.port(), path).unwrap_or_else(|e| panic!("GET {path}: {e}"));
    let value = serde_json::from_slice(&body)
        .unwrap_or_else(|e| panic!("GET {path}: the answer is not JSON ({e})"));
    (status, value)
}

/// Issues #30 and #31 on Chroma: the command-line tool and the MCP server generated from its
/// document, built in one cargo build, read the database every Chroma has
/// (`default_tenant/default_database`) as the server holds it, and the tool reports a database
/// that does not exist with the not-found exit code and Chroma's own message.
fn chroma_tools(server: &Server, relay: &Relay, document: &str, scratch: &Path) -> Vec<String> {
    let tools = match tools::generate_and_build("chroma", document, scratch) {
        Ok(tools) => tools,
        Err(why) => return vec![format!("tools: {why}")],
    };
    install::say(format_args!(
        "chroma: CLI and MCP server generated in {:.1}s, built in {:.1}s",
        tools.generate_time.as_secs_f64(),
        tools.build_time.as_secs_f64()
    ));
    let home = scratch.join("tools-home");
    let env = [("CHROMA_API_BASE_URL", server.origin())];
    let database_path = "/api/v2/tenants/default_tenant/databases/default_database";
    let (status, database) = held(server, database_path);
    assert_eq!(status, 200, "GET {database_path}: {database}");
    let mut problems = Vec::new();

    let args = [
        "database",
        "get-database",
        "default_tenant",
        "default_database",
        "--output",
        "json",
    ];
    let run = tools::run_cli(&tools, &home, &env, &args);
    match serde_json::from_str::<Value>(&run.stdout) {
        Ok(printed) if run.code == Some(0) && printed == database => {}
        printed => problems.push(format!(
            "cli: `chroma {}` exited with {:?} and printed {printed:?} (Chroma holds {database}); stderr: {}",
            args.join(" "),
            run.code,
            run.stderr
        )),
    }
    problems.extend(chroma_cli_not_found(server, &tools, &home, &env));
    let call = json!({ "tenant": "default_tenant", "database": "default_database" });
    match tools::mcp_session(&tools, &home, &env, &[("get_database", call)]) {
        Ok(session) => problems.extend(chroma_mcp_answers(document, &session, &database)),
        Err(why) => problems.push(format!("mcp: {why}")),
    }
    problems.extend(chroma_tools_send_the_key(&tools, relay, scratch));
    problems
}

/// Issue #41: the generated tools send Chroma's API key (scheme `ApiKeyAuth`, header
/// `x-chroma-token`) under the names derived from the scheme: the CLI from the variable
/// `CHROMA_API_API_KEY_AUTH`, the flag `--api-key-auth` and a profile's `credentials` table, the
/// MCP server from the variable. Each goes through the relay, which sees what went on the wire.
fn chroma_tools_send_the_key(tools: &tools::Tools, relay: &Relay, scratch: &Path) -> Vec<String> {
    let base = ("CHROMA_API_BASE_URL", relay.origin());
    let variable = ("CHROMA_API_API_KEY_AUTH", CHROMA_TOKEN.to_owned());
    let read = [
        "database",
        "get-database",
        "default_tenant",
        "default_database",
    ];
    let profile_home = scratch.join("tools-home-profile");
    let config = profile_home.join("config/chroma");
    std::fs::create_dir_all(&config).expect("a configuration directory");
    std::fs::write(
        config.join("config.toml"),
        format!("[profiles.default.credentials]\napi_key_auth = \"{CHROMA_TOKEN}\"\n"),
    )
    .expect("a profile");
    let home = scratch.join("tools-home-key");
    let flag = [&["--api-key-auth", CHROMA_TOKEN][..], &read].concat();
    // Each way: where the key comes from, the tool's home, whether the variable is set, args.
    let ways = [
        ("the variable", &home, true, &read[..]),
        ("the flag", &home, false, &flag[..]),
        ("the profile", &profile_home, false, &read[..]),
    ];
    let mut problems = Vec::new();
    for (way, home, with_variable, args) in ways {
        let mut env = vec![base.clone()];
        env.extend(with_variable.then(|| variable.clone()));
        let before = relay.requests().len();
        let run = tools::run_cli(tools, home, &env, args);
        let sent = tokens_sent(relay, before);
        if run.code != Some(0) || sent.is_empty() || sent.iter().any(|t| t != CHROMA_TOKEN) {
            problems.push(format!(
                "cli: the key from {way}: exited with {:?}, sent x-chroma-token {sent:?}; stderr: {}",
                run.code, run.stderr
            ));
        }
    }
    let before = relay.requests().len();
    let call = json!({ "tenant": "default_tenant", "database": "default_database" });
    let session = tools::mcp_session(tools, &home, &[base, variable], &[("get_database", call)]);
    let sent = tokens_sent(relay, before);
    let answered = session.map(|s| s.calls[0].is_error != Some(true));
    if answered != Ok(true) || sent.is_empty() || sent.iter().any(|t| t != CHROMA_TOKEN) {
        problems.push(format!(
            "mcp: the key from the variable: answered {answered:?}, sent x-chroma-token {sent:?}"
        ));
    }
    problems
}

/// The `x-chroma-token` of each request the relay saw after the first `before` ("" when none).
fn tokens_sent(relay: &Relay, before: usize) -> Vec<String> {
    relay.requests()[before..]
        .iter()
        .map(|r| r.header("x-chroma-token").unwrap_or_default().to_owned())
        .collect()
}

/// `get-database` of a database Chroma does not hold exits with the tool's not-found code and
/// Chroma's own message.
fn chroma_cli_not_found(
    server: &Server,
    tools: &tools::Tools,
    home: &Path,
    env: &[(&str, String)],
) -> Vec<String> {
    let missing_path = "/api/v2/tenants/default_tenant/databases/no-such-database";
    let (status, missing) = held(server, missing_path);
    assert_eq!(status, 404, "GET {missing_path}: {missing}");
    let message = missing["message"]
        .as_str()
        .unwrap_or_else(|| panic!("GET {missing_path}: Chroma's error has no message: {missing}"));
    let args = [
        "database",
        "get-database",
        "default_tenant",
        "no-such-database",
    ];
    let run = tools::run_cli(tools, home, env, &args);
    // 5: the not-found class of the tool's documented exit codes (`oncegen_cli::exit`).
    if run.code != Some(5) || !run.stderr.contains(message) {
        return vec![format!(
            "cli: `chroma {}` exited with {:?} (not found is 5) and wrote to stderr {:?} (Chroma answered {missing})",
            args.join(" "),
            run.code,
            run.stderr
        )];
    }
    Vec::new()
}

/// The MCP server's `tools/list` offers every read of the document (its `GET` operations; a
/// server started without `--allow-writes` offers no write) with object input schemas a client
/// needs no `$ref` for, and its `get_database` answer is what Chroma holds.
fn chroma_mcp_answers(
    document: &str,
    session: &tools::McpSession,
    database: &Value,
) -> Vec<String> {
    let mut problems = Vec::new();
    let doc: Value = serde_json::from_str(document).expect("the document is JSON");
    let reads: BTreeSet<&str> = doc["paths"]
        .as_object()
        .expect("paths")
        .values()
        .filter_map(|item| item["get"]["operationId"].as_str())
        .collect();
    let listed = session.listed["tools"].as_array().expect("tools");
    let names: BTreeSet<&str> = listed.iter().filter_map(|t| t["name"].as_str()).collect();
    if names != reads {
        problems.push(format!(
            "mcp: tools/list offers {names:?}, the document's reads are {reads:?}"
        ));
    }
    for tool in listed {
        let schema = &tool["inputSchema"];
        let refs = tools::refs_in(schema, "");
        if schema["type"] != "object" || !refs.is_empty() {
            problems.push(format!(
                "mcp: {}: the input schema is no object schema without $ref (type {}, $ref at {refs:?})",
                tool["name"], schema["type"]
            ));
        }
    }
    let size = serde_json::to_vec(&session.listed).map_or(0, |b| b.len());
    install::say(format_args!(
        "chroma: MCP tools/list {} tools, {size} bytes (~{} tokens)",
        listed.len(),
        size / 4
    ));
    let result = &session.calls[0];
    if result.is_error == Some(true) || result.structured_content.as_ref() != Some(database) {
        problems.push(format!(
            "mcp: get_database answered {result:?}; Chroma holds {database}"
        ));
    }
    problems
}

#[test]
fn prefect_round_trips_through_the_sdk_generated_from_its_own_document() {
    let Some(bin) = install::require("prefect") else {
        return;
    };
    let started = Instant::now();
    let scratch = scratch("prefect");
    let home = scratch.join("home");
    std::fs::create_dir_all(&home).expect("prefect home");
    let port = free_port();
    let mut command = Command::new(bin.join("prefect"));
    command
        .args([
            "server",
            "start",
            "--host",
            "127.0.0.1",
            "--port",
            &port.to_string(),
        ])
        .env("PREFECT_HOME", &home)
        .env(
            "PREFECT_API_DATABASE_CONNECTION_URL",
            format!("sqlite+aiosqlite:///{}", home.join("prefect.db").display()),
        )
        .env("PREFECT_SERVER_ANALYTICS_ENABLED", "false")
        .env("PREFECT_UI_ENABLED", "false")
        .env("PREFECT_API_URL", format!("http://127.0.0.1:{port}/api"));
    let mut server = Server::spawn("prefect", command, port, &scratch.join("server.log"));
    let ready = server.wait_ready("/api/health", Duration::from_secs(180));
    let document = served_document(&server, "/api/openapi.json");

    let report = generate_build_run(
        "prefect",
        &document,
        &scratch,
        &[
            ("SERVER_ORIGIN", server.origin()),
            ("SERVER_URL", format!("{}/api", server.origin())),
        ],
    );
    conclude("prefect", started, ready, &report, Vec::new());
}
