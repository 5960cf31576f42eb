//! `bench-report mcp` (issue #31): a tool call of the `customer-cloud-mcp` server against the
//! same SDK call, both against the in-process sandbox. The server is the release binary, a
//! child process spoken to over stdio by rmcp's client (what an agent's host does); the SDK
//! call is `customer-cloud-sdk` in this process. Beside them, what the difference is made of:
//! the same tool call from a bare JSON-RPC client (a line out, a line in: no client library),
//! the same SDK call from a separate process, a tool call the server answers without calling
//! the API, and a line echoed by `cat` over pipes (the floor of the process hop). Interleaved
//! rounds, median time per call, and the CPU time the child process spent per call (Linux's
//! `/proc/PID/task/*/schedstat`). `BENCH_MCP_BASELINE=<server binary>` adds that binary's tool
//! call to the rounds (an A/B of two builds in one run).
//!
//! Then the size of `tools/list` with every tool offered and in dynamic mode, for this contract
//! and for the largest corpus document the MCP generator handles: the tools are computed by the
//! generator in-process (`oncegen::mcp::tools`) and described by the server's own code
//! (`oncegen_mcp::Listing::describe`), so no server is built for the corpus document;
//! `customer-cloud-mcp/tests/tools.rs` checks that this computation is what the built server
//! answers.

use crate::concurrency::cpu::process_cpu_ns;
use crate::repo_root;
use crate::stats::median;
use cloud_sandbox::Sandbox;
use customer_cloud_sdk::Client;
use oncegen::Surface;
use oncegen::mcp::ToolDefinition;
use oncegen_mcp::Listing;
use oncegen_runtime::Config;
use rmcp::model::CallToolRequestParams;
use rmcp::service::RunningService;
use rmcp::transport::TokioChildProcess;
use rmcp::{RoleClient, ServiceExt};
use serde_json::Value;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

const ROUNDS: usize = 7;
const CALLS: usize = 300;

/// What is timed, in the order of the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Timed {
    Sdk,
    Tool,
    /// The tool call from a bare JSON-RPC client instead of rmcp's.
    Bare,
    Separate,
    Refused,
    Echo,
    /// A tool call of another server binary (`BENCH_MCP_BASELINE`), for an A/B in one run.
    Baseline,
}

impl Timed {
    fn name(self) -> &'static str {
        match self {
            Timed::Sdk => "SDK call, in this process",
            Timed::Tool => "tool call (stdio), rmcp's client",
            Timed::Bare => "tool call (stdio), a bare JSON-RPC client",
            Timed::Separate => "SDK call from a separate process",
            Timed::Refused => "MCP round trip without an SDK call (a refused write)",
            Timed::Echo => "pipe round trip to `cat` (one JSON-RPC line)",
            Timed::Baseline => "tool call (stdio), `BENCH_MCP_BASELINE` server",
        }
    }
}

/// A `tools/call` request line as rmcp's client sends it, echoed by `cat` and sent by the bare
/// client.
const ECHOED: &[u8] =
    b"{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":\"get_version\"}}\n";

/// The bare client's `initialize` and `notifications/initialized` lines.
const HANDSHAKE: [&[u8]; 2] = [
    b"{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"bench-report\",\"version\":\"1\"}}}\n",
    b"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n",
];

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
    let baseline = std::env::var_os("BENCH_MCP_BASELINE").map(PathBuf::from);
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("tokio runtime");
    rt.block_on(async {
        let sb = Sandbox::start().await.expect("sandbox");
        sb.set_rate_limit(None);
        let mut callers = Callers::start(&sb, &binary, baseline.as_deref()).await;
        let paths = callers.paths();
        let (medians, cpu) = rounds(&mut callers, &paths).await;
        print_table(&paths, &medians, &cpu);
        callers.close().await;
    });
}

/// A server running as a child process, and its process id (for its CPU time).
type Server = (RunningService<RoleClient, ()>, u32);

/// Everything a path calls through: the SDK client, the servers and the piped children.
struct Callers {
    sdk: Client,
    mcp: Server,
    /// The `BENCH_MCP_BASELINE` server.
    other: Option<Server>,
    bare: Piped,
    separate: Piped,
    cat: Piped,
}

impl Callers {
    /// Starts every caller against the sandbox `sb`: the server `binary` (twice: for rmcp's
    /// client and for the bare one), the `baseline` server, the SDK child and `cat`.
    async fn start(sb: &Sandbox, binary: &Path, baseline: Option<&Path>) -> Self {
        let token = sb.credentials().bearer.bearer_token();
        let sdk = Client::new(Config::new(sb.base_url()).bearer(token.clone())).expect("client");
        let command = |program: &Path| child_command(program, &sb.base_url(), &token);
        let serve = async |program: &Path| {
            let child = TokioChildProcess::new(command(program)).expect("the server starts");
            let pid = child.id().expect("a running server");
            (().serve(child).await.expect("initialize"), pid)
        };
        let mcp = serve(binary).await;
        let other = match baseline {
            Some(program) => Some(serve(program).await),
            None => None,
        };
        let mut bare = Piped::spawn(command(binary));
        for line in HANDSHAKE {
            bare.input.write_all(line).await.expect("the server reads");
        }
        let answer: Value = serde_json::from_str(bare.read_line().await).expect("JSON-RPC");
        assert!(answer["result"]["serverInfo"].is_object(), "{answer}");
        let mut child = command(std::env::current_exe().expect("bench-report").as_path());
        child.arg(SDK_CHILD);
        let separate = Piped::spawn(child);
        let cat = Piped::spawn(tokio::process::Command::new("cat"));
        Callers {
            sdk,
            mcp,
            other,
            bare,
            separate,
            cat,
        }
    }

    /// The paths timed, in the order of the table.
    fn paths(&self) -> Vec<Timed> {
        let mut paths = vec![
            Timed::Sdk,
            Timed::Tool,
            Timed::Bare,
            Timed::Separate,
            Timed::Refused,
            Timed::Echo,
        ];
        if self.other.is_some() {
            paths.push(Timed::Baseline);
        }
        paths
    }

    /// The child process whose CPU time a path's calls are counted in.
    fn pid(&self, path: Timed) -> Option<u32> {
        match path {
            Timed::Sdk => None,
            Timed::Tool | Timed::Refused => Some(self.mcp.1),
            Timed::Bare => self.bare.child.id(),
            Timed::Separate => self.separate.child.id(),
            Timed::Echo => self.cat.child.id(),
            Timed::Baseline => self.other.as_ref().map(|(_, pid)| *pid),
        }
    }

    /// [`CALLS`] sequential calls along `path`: µs per call (the separate process times its
    /// own).
    async fn time(&mut self, path: Timed) -> f64 {
        let started = Instant::now();
        match path {
            Timed::Sdk => {
                for _ in 0..CALLS {
                    self.sdk.get_version().send().await.expect("get_version");
                }
            }
            Timed::Tool => tool_calls(&self.mcp.0, "get_version", false).await,
            Timed::Baseline => {
                let other = &self.other.as_ref().expect("a baseline server").0;
                tool_calls(other, "get_version", false).await;
            }
            Timed::Refused => tool_calls(&self.mcp.0, REFUSED, true).await,
            Timed::Bare => {
                for _ in 0..CALLS {
                    let line = self.bare.round_trip(ECHOED).await;
                    let answer: Value = serde_json::from_str(line).expect("JSON-RPC");
                    let result = &answer["result"];
                    assert!(result.is_object() && result["isError"] != true, "{answer}");
                }
            }
            Timed::Separate => {
                let calls = format!("{CALLS}\n");
                let line = self.separate.round_trip(calls.as_bytes()).await;
                return line.trim().parse().expect("the child's µs per call");
            }
            Timed::Echo => {
                for _ in 0..CALLS {
                    let line = self.cat.round_trip(ECHOED).await;
                    assert_eq!(line.len(), ECHOED.len());
                }
            }
        }
        started.elapsed().as_secs_f64() * 1e6 / CALLS as f64
    }

    /// Ends the servers and the children.
    async fn close(self) {
        let _ = self.mcp.0.cancel().await;
        if let Some((other, _)) = self.other {
            let _ = other.cancel().await;
        }
        self.bare.close().await;
        self.separate.close().await;
        self.cat.close().await;
    }
}

/// The command running `program` against the sandbox at `base_url` with the bearer `token`
/// (and no other credential).
fn child_command(program: &Path, base_url: &str, token: &str) -> tokio::process::Command {
    let mut command = tokio::process::Command::new(program);
    command
        .env_remove("CUSTOMER_CLOUD_API_KEY")
        .env_remove("CUSTOMER_CLOUD_API_SECRET")
        .env("CUSTOMER_CLOUD_API_BASE_URL", base_url)
        .env("CUSTOMER_CLOUD_API_BEARER", token);
    command
}

/// [`CALLS`] calls of the tool `name`, each answered as an error exactly when `refused`.
async fn tool_calls(server: &RunningService<RoleClient, ()>, name: &'static str, refused: bool) {
    for _ in 0..CALLS {
        let call = CallToolRequestParams::new(name);
        let result = server.call_tool(call).await.expect("tools/call");
        assert_eq!(result.is_error == Some(true), refused, "{result:?}");
    }
}

/// [`ROUNDS`] interleaved rounds (the order rotates): each path's median µs per call and, for
/// the paths through a child, the median CPU µs per call it used.
async fn rounds(callers: &mut Callers, paths: &[Timed]) -> (Vec<f64>, Vec<Option<f64>>) {
    let pids: Vec<Option<u32>> = paths.iter().map(|p| callers.pid(*p)).collect();
    let mut times = vec![Vec::new(); paths.len()];
    let mut cpu = vec![Vec::new(); paths.len()];
    for round in 0..ROUNDS {
        for i in 0..paths.len() {
            let which = (round + i) % paths.len();
            let cpu_before = pids[which].and_then(process_cpu_ns);
            times[which].push(callers.time(paths[which]).await);
            if let Some(used) = cpu_used(pids[which], cpu_before) {
                cpu[which].push(used);
            }
        }
    }
    let medians: Vec<f64> = times.iter_mut().map(|t| median(t)).collect();
    let cpu: Vec<Option<f64>> = cpu
        .iter_mut()
        .map(|c| (!c.is_empty()).then(|| median(c)))
        .collect();
    (medians, cpu)
}

/// The section's text and table of the medians.
fn print_table(paths: &[Timed], medians: &[f64], cpu: &[Option<f64>]) {
    let at = |path: Timed| paths.iter().position(|p| *p == path).expect("a timed path");
    let (direct, tool, apart) = (
        medians[at(Timed::Sdk)],
        medians[at(Timed::Tool)],
        medians[at(Timed::Separate)],
    );
    println!(
        "`get_version`, {CALLS} sequential calls per path and round, {ROUNDS} interleaved \
         rounds (the order rotates), median µs per call. The tool call is rmcp's client → \
         stdio → the release server → its SDK client → the sandbox (in this process); the \
         SDK call goes straight to the sandbox. The separate process is this binary's \
         `{SDK_CHILD}`: the same SDK call from a current-thread runtime like the server's \
         stdio one, timed in the child. A refused write (`{REFUSED}`, writes not enabled) \
         is answered by the server without a request to the sandbox. `cat` echoes a \
         `tools/call` line of {} bytes over two pipes: the floor of one process hop there \
         and back. The bare client writes that line to a second server and parses the \
         answer's line as JSON. The child's CPU is the time the server (or the SDK's \
         process, or `cat`) ran on a CPU per call, kernel time included.\n",
        ECHOED.len()
    );
    println!("| path | µs per call | ratio to the SDK call | child's CPU µs per call |");
    println!("| --- | ---: | ---: | ---: |");
    for ((path, micros), cpu) in paths.iter().zip(medians).zip(cpu) {
        let ratio = micros / direct;
        let cpu = cpu.map_or_else(|| "—".to_owned(), |c| format!("{c:.0}"));
        if *path == Timed::Tool {
            println!("| {} | {micros:.0} | **{ratio:.2}** | {cpu} |", path.name());
        } else {
            println!("| {} | {micros:.0} | {ratio:.2} | {cpu} |", path.name());
        }
    }
    println!(
        "\nThe tool call against the SDK call from a separate process: {:.2}.\n",
        tool / apart
    );
}

/// The internal argument that runs [`sdk_child`].
pub const SDK_CHILD: &str = "mcp-sdk-child";

/// A write tool the bench's server refuses (writes are not enabled).
const REFUSED: &str = "patch_webhooks_by_id";

/// `bench-report mcp-sdk-child`: for each line `N` on standard input, `N` sequential
/// `get_version` calls against `CUSTOMER_CLOUD_API_BASE_URL` with `CUSTOMER_CLOUD_API_BEARER`,
/// then a line with the µs per call. On the runtime the server runs stdio on.
pub fn sdk_child() {
    let var = |name: &str| std::env::var(name).unwrap_or_else(|_| panic!("{name} is set"));
    let config =
        Config::new(var("CUSTOMER_CLOUD_API_BASE_URL")).bearer(var("CUSTOMER_CLOUD_API_BEARER"));
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("tokio runtime");
    rt.block_on(async {
        let sdk = Client::new(config).expect("client");
        let mut out = std::io::stdout().lock();
        for line in std::io::stdin().lines() {
            let calls: u32 = line.expect("stdin").trim().parse().expect("a call count");
            let started = Instant::now();
            for _ in 0..calls {
                sdk.get_version().send().await.expect("get_version");
            }
            let micros = started.elapsed().as_secs_f64() * 1e6 / f64::from(calls);
            writeln!(out, "{micros}")
                .and_then(|()| out.flush())
                .expect("stdout");
        }
    });
}

/// A child process spoken to in lines over its standard input and output.
struct Piped {
    child: tokio::process::Child,
    input: tokio::process::ChildStdin,
    output: BufReader<tokio::process::ChildStdout>,
    line: String,
}

impl Piped {
    fn spawn(mut command: tokio::process::Command) -> Self {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .expect("the child starts");
        let input = child.stdin.take().expect("piped stdin");
        let output = BufReader::new(child.stdout.take().expect("piped stdout"));
        Piped {
            child,
            input,
            output,
            line: String::new(),
        }
    }

    /// Writes `line` and reads the answer's line.
    async fn round_trip(&mut self, line: &[u8]) -> &str {
        self.input.write_all(line).await.expect("the child reads");
        self.read_line().await
    }

    /// Reads one line.
    async fn read_line(&mut self) -> &str {
        self.line.clear();
        self.output
            .read_line(&mut self.line)
            .await
            .expect("the child answers");
        assert!(self.line.ends_with('\n'), "the child ended early");
        &self.line
    }

    /// Closes its input and waits for it to end.
    async fn close(self) {
        drop(self.input);
        let mut child = self.child;
        let _ = child.wait().await;
    }
}

/// µs of CPU per call process `pid` used since `before`.
fn cpu_used(pid: Option<u32>, before: Option<u64>) -> Option<f64> {
    let after = process_cpu_ns(pid?)?;
    Some(after.saturating_sub(before?) as f64 / 1e3 / CALLS as f64)
}

/// The `tools/list` sizes: this contract and the largest corpus document, both modes.
pub fn tools_list_section() {
    println!("## MCP server: `tools/list` size, every tool offered and dynamic (issue #31)\n");
    let everything = oncegen_mcp::dynamic::Reach {
        writes: true,
        destructive: true,
    };
    let dynamic = oncegen_mcp::result_size(&oncegen_mcp::dynamic::tools(everything));
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
    let inputs: Vec<String> = tools.iter().map(|t| t.input_schema.to_string()).collect();
    let listings: Vec<Listing> = tools
        .iter()
        .zip(&inputs)
        .map(|(t, input)| Listing {
            name: &t.name,
            description: &t.description,
            input_schema: input,
            writes: t.writes,
            destructive: t.destructive,
            purchase: t.purchase,
            idempotent: t.idempotent,
        })
        .collect();
    oncegen_mcp::describe_all(&listings).expect("the generator's schemas are objects")
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
