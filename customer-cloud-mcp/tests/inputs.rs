//! A tool's arguments are exactly what the agent wrote, or a tool error before anything is
//! sent: parameters are named as the API names them (`type`, not the Rust field `type_`), an
//! unknown argument or body member is refused naming it, and a union body's error names the
//! member and path that came closest. Every tool's parameter names are the spec's.
//!
//! The real server binary over stdio, one raw JSON-RPC line at a time (each answer read before
//! the next request), against a sandbox running in this process.

use cloud_sandbox::Sandbox;
use common::{Server, state_dir};

mod common;
use serde_json::{Value, json};

/// Every gate open: the tools' inputs are what is tested.
const ALL_GATES: [&str; 7] = [
    "--allow-writes",
    "--allow-purchases",
    "--allow-destructive",
    "--allow-access-grants",
    "--allow-any-amount",
    "--max-total",
    "1000",
];

/// The server on a sandbox with every gate open, and `extra` flags.
fn start_with(sb: &Sandbox, test: &str, extra: &[&str]) -> Server {
    let flags: Vec<&str> = ALL_GATES.iter().chain(extra).copied().collect();
    Server::start(sb, &state_dir(&format!("inputs-{test}")), &flags)
}

fn start(sb: &Sandbox, test: &str) -> Server {
    start_with(sb, test, &[])
}

/// The text of a tool result that must be an error.
fn error_text(result: &Value) -> String {
    assert_eq!(result["isError"], true, "{result}");
    result["content"][0]["text"]
        .as_str()
        .expect("text")
        .to_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unknown_body_member_is_a_tool_error_naming_it_and_nothing_is_sent() {
    let sb = Sandbox::start().await.expect("sandbox starts");
    let mut server = start(&sb, "unknown");
    let sent = sb.requests().len();
    let body = json!({"name": "mcp.example", "dryrun": true});
    let text = error_text(&server.call("create_dns_zone", json!({"body": body})));
    assert!(
        text.contains("`body.dryrun`: unknown member `dryrun`, did you mean `dryRun`?"),
        "{text}"
    );
    let ttl = json!({"name": "mcp.example", "records": [{"name": "@", "ttl": "300"}]});
    let text = error_text(&server.call("create_dns_zone", json!({"body": ttl})));
    assert!(
        text.contains("`body.records[0].ttl`: invalid type: string"),
        "{text}"
    );
    assert_eq!(sb.requests().len(), sent, "nothing reached the sandbox");
    assert!(sb.zones().iter().all(|z| z.name != "mcp.example"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn get_products_takes_the_api_s_type_and_refuses_the_rust_name() {
    let sb = Sandbox::start().await.expect("sandbox starts");
    let mut server = start(&sb, "type");
    let result = server.call("get_products", json!({"type": "vps", "limit": 100}));
    assert_ne!(result["isError"], true, "{result}");
    let items = result["structuredContent"]["items"]
        .as_array()
        .expect("items")
        .clone();
    assert!(!items.is_empty(), "{result}");
    assert!(
        items.iter().all(|i| i["type"] == "vps"),
        "filtered by type: {items:?}"
    );
    let all = server.call("get_products", json!({"limit": 100}));
    let every = all["structuredContent"]["items"].as_array().expect("items");
    assert!(
        every.iter().any(|i| i["type"] != "vps"),
        "the filter matters"
    );

    let sent = sb.requests().len();
    let text = error_text(&server.call("get_products", json!({"type_": "vps"})));
    assert!(
        text.contains("unknown argument `type_`, did you mean `type`?"),
        "{text}"
    );
    assert_eq!(sb.requests().len(), sent, "nothing reached the sandbox");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_union_body_error_names_the_closest_member_and_its_path() {
    let sb = Sandbox::start().await.expect("sandbox starts");
    let mut server = start(&sb, "union");
    let sent = sb.requests().len();
    let arguments = json!({"region": "eu", "productCode": "vps", "variantCode": "v",
        "body": {"hostname": 5, "max_total": "25"}});
    let text = error_text(&server.call("product_variant_deploy", arguments));
    assert!(
        text.contains("`body.hostname`: invalid type: integer `5`, expected a string"),
        "{text}"
    );
    assert!(text.contains("`DeployRequest`"), "{text}");
    assert!(!text.contains("matches no member"), "{text}");
    assert_eq!(sb.requests().len(), sent, "nothing reached the sandbox");
}

/// The names the spec gives the parameters of each operation, by `METHOD /path`; header
/// parameters are left out: every one of this spec's is a header the SDK sets itself
/// (idempotency, correlation, signing, response format), never a tool argument. So is an
/// optional deprecated parameter: a tool takes it but does not offer it.
fn spec_parameters() -> Vec<(String, Vec<String>)> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../spec/openapi.yaml");
    let doc: Value =
        yaml_serde::from_str(&std::fs::read_to_string(path).expect("spec")).expect("spec parses");
    let resolve = |p: &Value| -> Value {
        match p["$ref"].as_str() {
            Some(r) => doc.pointer(r.trim_start_matches('#')).expect("ref").clone(),
            None => p.clone(),
        }
    };
    let mut out = Vec::new();
    for (path, item) in doc["paths"].as_object().expect("paths") {
        let shared: Vec<Value> = item["parameters"].as_array().cloned().unwrap_or_default();
        for method in ["get", "put", "post", "delete", "patch"] {
            if item[method].is_null() {
                continue;
            }
            let own = item[method]["parameters"]
                .as_array()
                .cloned()
                .unwrap_or_default();
            let mut names: Vec<String> = shared
                .iter()
                .chain(&own)
                .map(&resolve)
                .filter(|p| p["in"] != "header")
                .filter(|p| p["deprecated"] != true || p["required"] == true)
                .map(|p| p["name"].as_str().expect("name").to_owned())
                .collect();
            names.sort();
            names.dedup();
            out.push((format!("{} {path}", method.to_uppercase()), names));
        }
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_tool_s_parameters_are_named_as_the_spec_names_them() {
    let sb = Sandbox::start().await.expect("sandbox starts");
    let mut server = start(&sb, "names");
    let listed = server.request("tools/list", json!({}));
    let tools = listed["result"]["tools"].as_array().expect("tools").clone();
    let own = ["body", "idempotency_key", "wait", "jq"];
    let spec = spec_parameters();
    assert_eq!(tools.len(), spec.len(), "one tool per operation");
    for tool in &tools {
        // The description's last line starts with "METHOD /path." (after "`operationId`: "
        // when the tool's name does not spell it).
        let description = tool["description"].as_str().expect("description");
        let last = &description[description.rfind('\n').map_or(0, |at| at + 1)..];
        let last = last.split_once("`: ").map_or(last, |(_, request)| request);
        let id = last.split(". ").next().expect("the request");
        let id = id.strip_suffix('.').unwrap_or(id);
        let (_, names) = spec
            .iter()
            .find(|(op, _)| op == id)
            .expect("a spec operation");
        let mut arguments: Vec<String> = tool["inputSchema"]["properties"]
            .as_object()
            .expect("properties")
            .keys()
            // The server's own arguments, unless a read has a parameter of that name.
            .filter(|k| !own.contains(&k.as_str()) || names.contains(k))
            .cloned()
            .collect();
        arguments.sort();
        assert_eq!(&arguments, names, "{id}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn allow_unknown_members_sends_them_as_given_and_says_so() {
    let sb = Sandbox::start().await.expect("sandbox starts");
    let mut server = start_with(&sb, "allow-unknown", &["--allow-unknown-members"]);
    let body = json!({"name": "mcp-allowed.example", "dry_run": true});
    let result = server.call("create_dns_zone", json!({"body": body}));
    let text = result.to_string();
    assert!(
        text.contains("sent members the API document does not define: `dry_run`"),
        "{text}"
    );
    // The sandbox refuses a member the contract does not define: it was sent, not dropped.
    assert!(text.contains("dry_run"), "{text}");
    let zones: Vec<String> = sb.zones().iter().map(|z| z.name.clone()).collect();
    assert!(
        !zones.contains(&"mcp-allowed.example".to_owned()),
        "{zones:?}"
    );
}
