//! The server driven by a second client nobody here wrote: the official MCP inspector's CLI
//! (npm `@modelcontextprotocol/inspector-cli` 1.0.3, the `--cli` mode of
//! `npx @modelcontextprotocol/inspector` 1.x, locked in `.ci/mcp-inspector-pkg/`, installed by
//! `bash .ci/mcp-inspector` into `target/mcp-inspector`). Each CLI call is one connection:
//! initialize, then one method. Against one sandbox, over stdio (each call starts the server) and
//! over streamable HTTP (one server, its bearer token sent with `--header`): `tools/list` offers
//! what the server's `--list-tools` does, a write called twice under one `idempotency_key` is
//! applied once on the sandbox's ledger, a read answers the sandbox's records, a purchase
//! without a ceiling and a destructive call not enabled are tool errors (`isError`) naming what
//! would allow them and change nothing.
//!
//! Without the installed CLI or `node`, the test fails, naming the script that installs it.

use cloud_sandbox::Sandbox;
use serde_json::{Value, json};
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};

const SERVER: &str = env!("CARGO_BIN_EXE_customer-cloud-mcp");
const FLAGS: [&str; 2] = ["--allow-writes", "--allow-purchases"];
const TOKEN: &str = "inspector-cli-test-token-0123456789";

/// The installed CLI, run as `node build/index.js TARGET… --method …`: the program
/// `npx @modelcontextprotocol/inspector --cli TARGET… --method …` runs with the same arguments
/// (its launcher, `build/cli.js`, only starts it; skipped here, it costs a Node start a call).
struct Inspector {
    cli: PathBuf,
}

/// Where the CLI connects: the server's command line (stdio) or its URL and transport options
/// (HTTP), and the environment the CLI passes to a server it starts.
struct Target {
    args: Vec<String>,
    env: Vec<(&'static str, String)>,
}

impl Inspector {
    fn installed() -> Self {
        let package = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../target/mcp-inspector/node_modules/@modelcontextprotocol/inspector-cli");
        let cli = package.join("build/index.js");
        assert!(
            cli.is_file(),
            "the MCP inspector's CLI is not installed at {}: run `bash .ci/mcp-inspector`",
            package.display()
        );
        Self { cli }
    }

    fn run(&self, target: &Target, method: &[&str]) -> Output {
        Command::new("node")
            .arg(&self.cli)
            .args(&target.args)
            .args(method)
            // 1.0.3 imports its own package.json from `../package.json` only when that path
            // exists relative to the working directory, else from `../../`, and fails in any
            // other directory (modelcontextprotocol/inspector#1334, closed unfixed in 1.x).
            .current_dir(self.cli.parent().expect("build/"))
            .env_remove("CUSTOMER_CLOUD_API_BEARER")
            .env_remove("CUSTOMER_CLOUD_API_JOURNAL")
            .env_remove("CUSTOMER_CLOUD_API_PROFILE")
            .envs(target.env.iter().map(|(k, v)| (k, v)))
            .output()
            .unwrap_or_else(|e| panic!("`node` runs (Node.js 20 or later on PATH): {e}"))
    }

    /// The method's JSON answer; the CLI must succeed.
    fn answer(&self, target: &Target, method: &[&str]) -> Value {
        let out = self.run(target, method);
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "the inspector's CLI failed on {method:?}:\n{stdout}\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: not JSON:\n{stdout}"))
    }

    fn call(&self, target: &Target, tool: &str, args: &[String]) -> Value {
        let mut method = vec!["--method", "tools/call", "--tool-name", tool];
        if !args.is_empty() {
            method.push("--tool-arg");
            method.extend(args.iter().map(String::as_str));
        }
        self.answer(target, &method)
    }
}

/// The server's environment: the sandbox's signed credential and a state directory (also as
/// the configuration directory, so no configuration file of the user's is read).
fn server_env(sb: &Sandbox, state: &Path) -> Vec<(&'static str, String)> {
    let cred = &sb.credentials().signed;
    let state = state.display().to_string();
    vec![
        ("CUSTOMER_CLOUD_API_BASE_URL", sb.base_url()),
        ("CUSTOMER_CLOUD_API_KEY", cred.prefix.clone()),
        ("CUSTOMER_CLOUD_API_SECRET", cred.secret.clone()),
        ("XDG_STATE_HOME", state.clone()),
        ("XDG_CONFIG_HOME", state),
    ]
}

/// The tool names the server offers with [`FLAGS`], from its own `--list-tools`, sorted.
fn offered_tools(env: &[(&'static str, String)]) -> Vec<String> {
    let out = Command::new(SERVER)
        .args(FLAGS)
        .arg("--list-tools")
        .envs(env.iter().map(|(k, v)| (k, v)))
        .output()
        .expect("the server runs");
    assert!(out.status.success(), "{out:?}");
    let listed: Value = serde_json::from_slice(&out.stdout).expect("--list-tools prints JSON");
    names(&listed)
}

fn names(listed: &Value) -> Vec<String> {
    let mut names: Vec<String> = listed["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .map(|t| t["name"].as_str().expect("a name").to_owned())
        .collect();
    names.sort();
    names
}

fn text(result: &Value) -> &str {
    result["content"][0]["text"].as_str().unwrap_or_default()
}

fn ids(records: &[Value]) -> Vec<String> {
    let mut ids: Vec<String> = records.iter().map(|r| r["id"].to_string()).collect();
    ids.sort();
    ids
}

/// How a transport connects the CLI to the server.
struct Transport {
    label: &'static str,
    target: Target,
    /// Every call reaches the same server process (HTTP), which answers a retry from memory
    /// without sending it again; over stdio each call starts a server, which sends the retry
    /// under the same key, and the API answers the first outcome.
    one_server: bool,
}

/// One transport's calls, checked against the sandbox; `offered`: the tools the server offers.
fn exercise(inspector: &Inspector, transport: &Transport, sb: &Sandbox, offered: &[String]) {
    let listed = inspector.answer(&transport.target, &["--method", "tools/list"]);
    assert_eq!(names(&listed), offered, "{}: tools/list", transport.label);
    let name = format!("inspector-{}", transport.label);
    a_retried_write_is_applied_once(inspector, transport, sb, &name);
    a_read_answers_the_records(inspector, transport, sb);
    a_purchase_without_a_ceiling_is_refused(inspector, transport, &name);
    a_destructive_call_not_enabled_is_refused(inspector, transport, sb);
}

/// A write creating the template `name`, retried: the same call again under the same key
/// answers the first outcome and the sandbox applies it once.
fn a_retried_write_is_applied_once(
    inspector: &Inspector,
    transport: &Transport,
    sb: &Sandbox,
    name: &str,
) {
    let Transport {
        label,
        ref target,
        one_server,
    } = *transport;
    let key = format!("inspector-{label}-retry");
    let write = [
        format!(
            "body={}",
            json!({"name": name, "zone_file": "@ 3600 IN A 192.0.2.1\n"})
        ),
        format!("idempotency_key={key}"),
    ];
    let first = inspector.call(target, "dns_template_create", &write);
    assert_eq!(first["isError"], false, "{label}: {}", text(&first));
    assert_eq!(first["_meta"]["idempotency_key"], key.as_str());
    let again = inspector.call(target, "dns_template_create", &write);
    assert_eq!(
        again["structuredContent"], first["structuredContent"],
        "{label}: a retry answers the first outcome"
    );
    if one_server {
        assert_eq!(again["_meta"]["replayed"], true, "{label}: {again}");
    }
    assert_eq!(sb.applied_writes(&key), 1, "{label}: applied once");
    let created = sb.resources(|r| r.dns_templates.iter().filter(|t| t["name"] == name).count());
    assert_eq!(created, 1, "{label}: one template for two calls");
}

/// A read answers the sandbox's records (the one just written among them).
fn a_read_answers_the_records(inspector: &Inspector, transport: &Transport, sb: &Sandbox) {
    let read = inspector.call(&transport.target, "get_dns_templates", &[]);
    let records = read["structuredContent"]["templates"]
        .as_array()
        .unwrap_or_else(|| panic!("{}: templates in {read}", transport.label));
    assert_eq!(ids(records), sb.resources(|r| ids(&r.dns_templates)));
}

/// A purchase without a spending ceiling: refused, nothing sent (the test checks no debit).
fn a_purchase_without_a_ceiling_is_refused(
    inspector: &Inspector,
    transport: &Transport,
    name: &str,
) {
    let deploy = [
        "region=DE".to_owned(),
        "productCode=vps".to_owned(),
        "variantCode=vps-xs".to_owned(),
        format!(
            "body={}",
            json!({"hostname": format!("{name}.example.net")})
        ),
    ];
    let refused = inspector.call(&transport.target, "product_variant_deploy", &deploy);
    assert_eq!(refused["isError"], true, "{}: {refused}", transport.label);
    assert!(text(&refused).contains("spending ceiling"), "{refused}");
}

/// A destructive call, not enabled: refused, the webhook stays.
fn a_destructive_call_not_enabled_is_refused(
    inspector: &Inspector,
    transport: &Transport,
    sb: &Sandbox,
) {
    let webhook = sb.resources(|r| r.webhooks[0]["id"].clone());
    let id = format!("id={}", webhook.as_str().expect("a webhook id"));
    let refused = inspector.call(&transport.target, "webhook_delete", &[id]);
    assert_eq!(refused["isError"], true, "{}: {refused}", transport.label);
    assert!(text(&refused).contains("--allow-destructive"), "{refused}");
    assert!(sb.resources(|r| r.webhooks.iter().any(|w| w["id"] == webhook)));
}

/// The server on streamable HTTP at a free loopback port, killed when dropped.
struct HttpServer {
    child: Child,
    url: String,
}

impl HttpServer {
    fn start(env: &[(&'static str, String)]) -> Self {
        let mut child = Command::new(SERVER)
            .args(FLAGS)
            .args(["--http", "127.0.0.1:0"])
            .env_remove("CUSTOMER_CLOUD_API_BEARER")
            .env_remove("CUSTOMER_CLOUD_API_JOURNAL")
            .env_remove("CUSTOMER_CLOUD_API_PROFILE")
            .envs(env.iter().map(|(k, v)| (k, v)))
            .env("CUSTOMER_CLOUD_API_MCP_TOKEN", TOKEN)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the server starts");
        let mut stderr = BufReader::new(child.stderr.take().expect("stderr"));
        let mut line = String::new();
        stderr
            .read_line(&mut line)
            .expect("the server says where it serves");
        // Whatever it says later must not fill the pipe.
        std::thread::spawn(move || std::io::copy(&mut stderr, &mut std::io::sink()));
        let url = line
            .split_whitespace()
            .find(|w| w.starts_with("http://"))
            .unwrap_or_else(|| panic!("no URL in {line:?}"))
            .to_owned();
        Self { child, url }
    }

    /// The CLI's options for this server, with its token.
    fn target(&self) -> Target {
        let args = [self.url.as_str(), "--transport", "http", "--header"]
            .map(str::to_owned)
            .into_iter()
            .chain([format!("Authorization: Bearer {TOKEN}")])
            .collect();
        Target { args, env: vec![] }
    }
}

impl Drop for HttpServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_inspector_cli_drives_the_server_over_stdio_and_http() {
    let inspector = Inspector::installed();
    let sb = Sandbox::start().await.expect("sandbox starts");
    let state = std::env::temp_dir().join(format!(
        "customer-cloud-mcp-inspector-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&state);
    let env = server_env(&sb, &state);
    tokio::task::block_in_place(|| {
        let offered = offered_tools(&env);
        let stdio = Transport {
            label: "stdio",
            target: Target {
                args: [SERVER]
                    .iter()
                    .chain(&FLAGS)
                    .map(|a| a.to_string())
                    .collect(),
                env: env.clone(),
            },
            one_server: false,
        };
        exercise(&inspector, &stdio, &sb, &offered);

        let server = HttpServer::start(&env);
        let http = Transport {
            label: "http",
            target: server.target(),
            one_server: true,
        };
        exercise(&inspector, &http, &sb, &offered);
    });
    assert!(sb.debits().is_empty(), "nothing was charged");
    let _ = std::fs::remove_dir_all(&state);
}
