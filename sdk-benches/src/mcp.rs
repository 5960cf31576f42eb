//! `bench-report mcp` (issue #31): a tool call of the `customer-cloud-mcp` server against the
//! same SDK call, both against the in-process sandbox. The server is the release binary, a
//! child process spoken to over stdio by rmcp's client (what an agent's host does); the SDK
//! call is `customer-cloud-sdk` in this process. Interleaved rounds, median time per call.
//!
//! Then the size of `tools/list` with every tool offered and in dynamic mode, for this contract
//! and for the largest corpus document the MCP generator handles: the tools are computed by the
//! generator in-process (`oncegen::mcp::tools`) and described by the server's own code
//! (`oncegen_mcp::Listing::describe`), so no server is built for the corpus document;
//! `customer-cloud-mcp/tests/tools.rs` checks that this computation is what the built server
//! answers.

use crate::repo_root;
use crate::stats::median;
use cloud_sandbox::Sandbox;
use customer_cloud_sdk::Client;
use oncegen::Surface;
use oncegen::mcp::ToolDefinition;
use oncegen_mcp::Listing;
use oncegen_runtime::Config;
use rmcp::ServiceExt;
use rmcp::model::CallToolRequestParams;
use rmcp::transport::TokioChildProcess;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

const ROUNDS: usize = 5;
const CALLS: usize = 300;

/// Prints the section.
pub fn section() {
    println!("## MCP server: a tool call against the same SDK call (issue #31)\n");
    let built = Command::new(env!("CARGO"))
        .args(["build", "--release", "-q", "-p", "customer-cloud-mcp"])
        .current_dir(repo_root())
        .status()
        .expect("cargo runs");
    assert!(built.success(), "building customer-cloud-mcp failed");
    let binary = repo_root().join("target/release/customer-cloud-mcp");
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("tokio runtime");
    rt.block_on(async {
        let sb = Sandbox::start().await.expect("sandbox");
        sb.set_rate_limit(None);
        let token = sb.credentials().bearer.bearer_token();
        let sdk = Client::new(Config::new(sb.base_url()).bearer(token.clone())).expect("client");
        let mut command = tokio::process::Command::new(&binary);
        command
            .env_remove("CUSTOMER_CLOUD_API_KEY")
            .env_remove("CUSTOMER_CLOUD_API_SECRET")
            .env("CUSTOMER_CLOUD_API_BASE_URL", sb.base_url())
            .env("CUSTOMER_CLOUD_API_BEARER", &token);
        let mcp = ()
            .serve(TokioChildProcess::new(command).expect("the server starts"))
            .await
            .expect("initialize");
        let call = || CallToolRequestParams::new("get_version");
        let (mut tool, mut direct) = (Vec::new(), Vec::new());
        for round in 0..ROUNDS {
            for first in [round % 2 == 0, round % 2 == 1] {
                let started = Instant::now();
                for _ in 0..CALLS {
                    if first {
                        let result = mcp.call_tool(call()).await.expect("tools/call");
                        assert_ne!(result.is_error, Some(true), "{result:?}");
                    } else {
                        sdk.get_version().send().await.expect("get_version");
                    }
                }
                let micros = started.elapsed().as_secs_f64() * 1e6 / CALLS as f64;
                if first { &mut tool } else { &mut direct }.push(micros);
            }
        }
        let (tool, direct) = (median(&mut tool), median(&mut direct));
        println!(
            "`get_version`, {CALLS} sequential calls per round, {ROUNDS} interleaved rounds, median \
             µs per call. The tool call is rmcp's client → stdio → the server → its SDK client → \
             the sandbox; the SDK call goes straight to the sandbox.\n"
        );
        println!("| path | µs per call | ratio |");
        println!("| --- | ---: | ---: |");
        println!("| SDK call | {direct:.0} | 1.00 |");
        println!("| tool call (stdio) | {tool:.0} | **{:.2}** |", tool / direct);
        println!();
        let _ = mcp.cancel().await;
    });
}

/// The `tools/list` sizes: this contract and the largest corpus document, both modes.
pub fn tools_list_section() {
    println!("## MCP server: `tools/list` size, every tool offered and dynamic (issue #31)\n");
    let dynamic = oncegen_mcp::result_size(&oncegen_mcp::dynamic::tools());
    let contract = repo_root()
        .join("customer-cloud-sdk")
        .join(oncegen::surface::FILE_NAME);
    let text = std::fs::read_to_string(&contract).expect("customer-cloud-sdk/api.json");
    let surface: Surface = serde_json::from_str(&text).expect("api.json is a surface");
    let ours = oncegen::mcp::tools(&surface).expect("the contract's tools");
    let (corpus, skipped) = largest_corpus_document();
    println!(
        "Bytes of the `tools/list` result's JSON as the server sends it; tokens approximated as \
         bytes / 4. Computed in-process from the generator's tool definitions and the server's \
         own description code (no server built). Dynamic mode is three tools whatever the API."
    );
    for (name, reason) in &skipped {
        println!("\nSkipped (larger, but the MCP generator refuses it): {name}: {reason}");
    }
    println!("\n| document | operations | mode | tools | bytes | ~tokens |");
    println!("| --- | ---: | --- | ---: | ---: | ---: |");
    for (name, tools) in [
        ("spec/openapi.yaml (this contract)", &ours),
        (corpus.0.as_str(), &corpus.1),
    ] {
        let full = tools_list_size(tools);
        println!(
            "| {name} | {} | one tool per operation | {} | {full} | {} |",
            tools.len(),
            tools.len(),
            full / 4
        );
        println!(
            "| {name} | {} | dynamic | 3 | {dynamic} | {} |",
            tools.len(),
            dynamic / 4
        );
    }
    println!();
}

/// The tools of `customer-cloud-mcp`, from the surface it is generated from
/// (`customer-cloud-sdk/api.json`, as `cargo xtask gen` reads it).
pub fn contract_tools() -> Vec<ToolDefinition> {
    let contract = repo_root()
        .join("customer-cloud-sdk")
        .join(oncegen::surface::FILE_NAME);
    let text = std::fs::read_to_string(&contract).expect("customer-cloud-sdk/api.json");
    let surface: Surface = serde_json::from_str(&text).expect("api.json is a surface");
    oncegen::mcp::tools(&surface).expect("the contract's tools")
}

/// The size in bytes of `tools/list` with every tool of `tools` offered.
pub fn tools_list_size(tools: &[ToolDefinition]) -> usize {
    oncegen_mcp::result_size(&described(tools))
}

/// The protocol's descriptions of `tools`, by the code the server describes its table with.
pub fn described(tools: &[ToolDefinition]) -> Vec<rmcp::model::Tool> {
    tools
        .iter()
        .map(|t| {
            let (input, output) = (
                t.input_schema.to_string(),
                t.output_schema.as_ref().map(Value::to_string),
            );
            Listing {
                name: &t.name,
                title: &t.title,
                description: &t.description,
                input_schema: &input,
                output_schema: output.as_deref(),
                writes: t.writes,
                destructive: t.destructive,
                purchase: t.purchase,
            }
            .describe()
            .expect("the generator's schemas are objects")
        })
        .collect()
}

/// A document's file name and its tools.
type Document = (String, Vec<ToolDefinition>);

/// The largest document of `sdk-tests/realspecs/` (by bytes) whose tools the MCP generator
/// makes, with its tools; and the larger ones it refuses, with the reason.
fn largest_corpus_document() -> (Document, Vec<(String, String)>) {
    let dir = repo_root().join("sdk-tests/realspecs");
    let mut documents: Vec<(u64, PathBuf)> = std::fs::read_dir(&dir)
        .expect("sdk-tests/realspecs")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            matches!(
                p.extension().and_then(|e| e.to_str()),
                Some("yaml" | "json")
            )
        })
        .map(|p| (std::fs::metadata(&p).map_or(0, |m| m.len()), p))
        .collect();
    documents.sort_by(|a, b| b.cmp(a));
    let mut skipped = Vec::new();
    for (_, path) in documents {
        let name = file_name(&path);
        match corpus_tools(&path) {
            Ok(tools) => return ((name, tools), skipped),
            Err(reason) => skipped.push((name, reason)),
        }
    }
    panic!("the MCP generator handles no corpus document: {skipped:?}");
}

fn corpus_tools(path: &Path) -> Result<Vec<ToolDefinition>, String> {
    let api = oncegen::model(path).map_err(|e| e.to_string())?;
    let surface = Surface::of(&api, "corpus", "0.1.0");
    oncegen::mcp::tools(&surface).map_err(|e| e.to_string())
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
}
