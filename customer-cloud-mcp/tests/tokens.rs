//! What an agent pays for in tokens: an answer comes once (structured content for a client
//! whose protocol has it, JSON text for an older one, never both), a read returns only what its
//! `jq` filter selects, and `tools/list` stays within its budget.
//!
//! The real server binary over stdio, raw JSON-RPC, against a sandbox in this process.

use cloud_sandbox::Sandbox;
use common::{Server, state_dir, text};
use serde_json::{Value, json};

mod common;

/// Every gate open, as the `tools/list` budget is stated.
const ALL_GATES: [&str; 6] = [
    "--allow-writes",
    "--allow-purchases",
    "--allow-destructive",
    "--allow-access-grants",
    "--allow-any-amount",
    "--allow-unknown-members",
];

/// The most bytes `tools/list` may take with every gate open: half of the 91.6 KB it took
/// before each fact was said once (it was 95,823 bytes before answers' schemas left the
/// listing and the write rule moved to the server's instructions, 53,635 before summaries,
/// titles, derivable operationIds, deprecated arguments and repeated passages went).
const TOOLS_LIST_BUDGET: usize = 45_800;

fn start(sb: &Sandbox, test: &str, version: &str) -> Server {
    Server::start_speaking(
        version,
        sb,
        &state_dir(&format!("tokens-{test}")),
        &ALL_GATES,
    )
}

/// Whether the answer `needle` shows in the result's text.
fn text_holds(result: &Value, needle: &Value) -> bool {
    text(result).contains(&needle.to_string())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_answer_comes_once_in_the_form_the_client_speaks() {
    let sb = Sandbox::start().await.expect("sandbox");
    let mut new = start(&sb, "new", "2025-06-18");
    let result = new.call("get_regions", json!({}));
    let structured = &result["structuredContent"];
    assert!(
        structured.is_object(),
        "a 2025-06-18 client gets structured content: {result}"
    );
    assert!(
        !text_holds(&result, structured),
        "and not the answer again as text: {result}"
    );
    let mut old = start(&sb, "old", "2025-03-26");
    let result = old.call("get_regions", json!({}));
    assert!(result.get("structuredContent").is_none(), "{result}");
    let start = text(&result).find('{').expect("the answer as JSON text");
    let answer: Value = serde_json::from_str(&text(&result)[start..]).expect("JSON");
    assert_eq!(
        &answer, structured,
        "the older client gets the same answer, once, as text"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_read_returns_what_its_filter_selects_and_a_bad_filter_is_named() {
    let sb = Sandbox::start().await.expect("sandbox");
    let mut server = start(&sb, "jq", "2025-06-18");
    let whole = server.call("get_regions", json!({}))["structuredContent"].clone();
    let filtered = server.call("get_regions", json!({"jq": "[.items[].code]"}));
    assert_ne!(filtered["isError"], true, "{filtered}");
    let shown = text(&filtered);
    let json_at = shown.rfind('\n').map_or(0, |i| i + 1); // after the notes, the answer
    let codes: Value = serde_json::from_str(&shown[json_at..]).expect("the selection");
    let expected: Vec<Value> = whole["items"]
        .as_array()
        .expect("items")
        .iter()
        .map(|r| r["code"].clone())
        .collect();
    assert!(!expected.is_empty());
    assert_eq!(codes, Value::Array(expected));
    let bad = server.call("get_regions", json!({"jq": ".items["}));
    assert_eq!(bad["isError"], true, "{bad}");
    assert!(
        text(&bad).contains("`.items[`"),
        "the error names the filter: {bad}"
    );
    let write = server.call("ssh_key_import", json!({"jq": ".", "body": {}}));
    assert_eq!(write["isError"], true, "a write takes no filter: {write}");
    assert!(text(&write).contains("jq"), "{write}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tools_list_with_every_gate_open_stays_within_its_budget() {
    let sb = Sandbox::start().await.expect("sandbox");
    let mut server = start(&sb, "list", "2025-06-18");
    let listed = server.request("tools/list", json!({}));
    let tools = listed["result"]["tools"].as_array().expect("tools");
    assert_eq!(tools.len(), 52, "every tool offered");
    let bytes = serde_json::to_string(&listed["result"])
        .expect("JSON")
        .len();
    assert!(
        bytes <= TOOLS_LIST_BUDGET,
        "tools/list is {bytes} bytes (budget {TOOLS_LIST_BUDGET})"
    );
    for tool in tools {
        pointed_to_passages_are_listed(tool, tools);
        // A key's length is the runtime's (8 to 128), said once in the instructions: a schema
        // bound admitting a key the runtime refuses would be a wrong fact.
        let key = &tool["inputSchema"]["properties"]["idempotency_key"];
        assert!(key["minLength"].as_u64().is_none_or(|n| n >= 8), "{key}");
        assert!(key["maxLength"].as_u64().is_none_or(|n| n <= 128), "{key}");
    }
    let reads = tools
        .iter()
        .filter(|t| t["annotations"]["readOnlyHint"] == true);
    for tool in reads {
        assert!(
            tool["inputSchema"]["properties"]["jq"].is_object(),
            "{}",
            tool["name"]
        );
    }
}

/// Each passage `tool`'s description points to (`As `x` says from "…" to "…"`) is in the
/// description of a tool `tools` lists.
fn pointed_to_passages_are_listed(tool: &Value, tools: &[Value]) {
    let text = tool["description"].as_str().expect("a description");
    for pointer in text.split("As `").skip(1) {
        let (name, rest) = pointer.split_once("` says from \"").expect("a pointer");
        let (first, rest) = rest.split_once("\" to \"").expect("its start");
        let last = rest.split_once('"').expect("its end").0;
        let said = tools
            .iter()
            .find(|t| t["name"] == name)
            .and_then(|t| t["description"].as_str())
            .unwrap_or_else(|| panic!("{}: points to `{name}`, not listed", tool["name"]));
        let start = said.find(first).expect("the passage's start");
        assert!(said[start..].contains(last), "{}: {pointer}", tool["name"]);
    }
}
