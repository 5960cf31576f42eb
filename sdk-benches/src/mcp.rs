//! `bench-report mcp` (issue #31): a tool call of the `customer-cloud-mcp` server against the
//! same SDK call, both against the in-process sandbox. The server is the release binary, a
//! child process spoken to over stdio by rmcp's client (what an agent's host does); the SDK
//! call is `customer-cloud-sdk` in this process. Interleaved rounds, median time per call.

use crate::repo_root;
use crate::stats::median;
use cloud_sandbox::Sandbox;
use customer_cloud_sdk::Client;
use oncegen_runtime::Config;
use rmcp::ServiceExt;
use rmcp::model::CallToolRequestParams;
use rmcp::transport::TokioChildProcess;
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
