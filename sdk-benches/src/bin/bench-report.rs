//! Whole-process benchmark runner of issue #6: prints Markdown tables with ratios.
//!
//! ```text
//! cargo run -p sdk-benches --release --bin bench-report -- [SECTION...]
//!   runtime   SDK vs hand-written raw hyper and reqwest, interleaved rounds, one
//!             current_thread runtime
//!   gen       generator time and peak memory (child process per run) on the real and
//!             synthetic documents; time per operation
//!   compile   cargo check / debug build time of customer-cloud-sdk alone, all areas vs one; lines/op
//!   compare   ours vs progenitor 0.15.1 on sdk-tests/realspecs/nexus.json (generation time and
//!             memory, lines, clean check and build), one area vs all, growth on synthetic
//!             documents (issue #13; builds progenitor, ~15 min; see `sdk_benches::compare`)
//!   journal   journaled vs unjournaled writes/s at 1, 16 and 64 in flight against the
//!             sandbox, and the recovery time of 100 open entries (issue #20)
//!   concurrency  one shared client under 1/16/64/256 tasks beside raw hyper and raw reqwest
//!             (throughput, client CPU per request, p50/p99), reads and
//!             keyed writes, and a 1,000,000-request soak (issue #23; ~4 min quiet; settings in
//!             `sdk_benches::concurrency::Settings::from_env`)
//!   mcp       a tool call of customer-cloud-mcp over stdio against the same SDK call, and the
//!             `tools/list` sizes of this contract and the largest corpus document (issue #31)
//!   cli       customer-cloud's GET against curl's, whole process, `--help` time and the
//!             release binary's size (issue #30)
//! (no section: runtime, gen, compile and journal)
//! ```
//!
//! Internal: `bench-report mcp-sdk-child` times SDK calls for `mcp` in a separate process.
//! `bench-report gen-child SPEC [--count]` generates once in-process and prints
//! `cpu_nanos operations files lines peak_heap_bytes peak_rss_bytes read_ns lower_ns emit_ns
//! wall_ns` (peak heap only with `--count`, which also slows allocation a little).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use cpu_time::ThreadTime;
use oncegen::emit::{Layout, Options};
use sdk_benches::alloc::{self, Counting, human};
use sdk_benches::repo_root as root;
use sdk_benches::requests::{NoNetwork, Paths, check_identical_requests};
use sdk_benches::server::{ItemsConfig, current_thread_runtime, start};
use sdk_benches::stats::{median, per_call};

#[global_allocator]
static ALLOC: Counting = Counting;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if internal(&args) {
        return;
    }
    let all = args.is_empty();
    let wants = |s: &str| all || args.iter().any(|a| a == s);
    let asked = |s: &str| args.iter().any(|a| a == s);
    machine();
    if wants("runtime") {
        runtime_section();
    }
    if wants("gen") {
        gen_section();
    }
    if wants("compile") {
        compile_section();
    }
    if wants("journal") {
        sdk_benches::journal::section();
    }
    if asked("concurrency") {
        sdk_benches::concurrency::section(&sdk_benches::concurrency::Settings::from_env());
    }
    if asked("mcp") {
        sdk_benches::mcp::section();
        sdk_benches::mcp::tools_list_section();
    }
    if asked("cli") {
        sdk_benches::cli::section();
    }
    if asked("compare") {
        sdk_benches::compare::section(&sdk_benches::compare::Settings::from_env());
    }
}

/// Runs an internal mode (a child process of a section, or a loop for profilers) when `args`
/// name one; whether they did.
fn internal(args: &[String]) -> bool {
    match args.first().map(String::as_str) {
        Some("gen-child") => {
            let count = args.iter().any(|a| a == "--count");
            if !count {
                alloc::disable_counting();
            }
            gen_child(Path::new(args.get(1).expect("gen-child SPEC")));
        }
        Some(sdk_benches::mcp::SDK_CHILD) => {
            // Internal, for `mcp`: SDK calls timed in a separate process (`mcp::sdk_child`).
            alloc::disable_counting();
            sdk_benches::mcp::sdk_child();
        }
        Some("calls") => {
            // Internal, for instruction counts: `bench-report calls PATH N [WARMUP]` (`fixed_calls`).
            alloc::disable_counting();
            let n = |i: usize| args.get(i).and_then(|s| s.parse().ok());
            let count = n(2).unwrap_or(1000);
            sdk_benches::fixed_calls::run(
                args.get(1).map_or("sdk-get", String::as_str),
                n(3).unwrap_or(200),
                count,
            );
        }
        Some("loop") => {
            // Internal, for profilers: `bench-report loop sdk-get|raw-get|raw-hyper-get|sdk-post|
            // raw-post|raw-hyper-post SECONDS`.
            profile_loop(
                args.get(1).map_or("sdk-get", String::as_str),
                args.get(2).and_then(|s| s.parse().ok()).unwrap_or(5),
            );
        }
        _ => return false,
    }
    true
}

fn sh(cmd: &str) -> String {
    Command::new("sh")
        .args(["-c", cmd])
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
        .unwrap_or_default()
}

fn machine() {
    println!("## Machine\n");
    println!("- date: {}", sh("date -u '+%Y-%m-%d %H:%M UTC'"));
    println!("- nproc: {}", sh("nproc"));
    println!(
        "- CPU: {}",
        sh("grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'")
    );
    println!(
        "- memory: {}",
        sh("free -h | awk '/^Mem:/ {print $2\" total, \"$7\" available\"}'")
    );
    println!("- rustc: {}", sh("rustc --version"));
    println!("- load at start: {}\n", sh("cut -d' ' -f1-3 /proc/loadavg"));
}

// ---------------------------------------------------------------- runtime

/// Interleaved rounds of the runtime section.
const ROUNDS: usize = 41;
/// Sequential calls per path and round.
const CALLS: u32 = 250;
/// Target: SDK / raw hyper per call (issue #29).
const PER_CALL_TARGET: f64 = 1.03;

fn runtime_section() {
    println!(
        "## Runtime: SDK vs hand-written raw hyper and reqwest (same bytes, same loopback server)\n"
    );
    println!(
        "Client and server share one `current_thread` tokio runtime. {ROUNDS} interleaved rounds of \
         {CALLS} sequential calls per path (who goes first rotates, order reversed every other \
         round). Times: fastest round / median round, µs per call. Headline ratios: median of \
         the per-round SDK/raw ratios; beside them the ratio of the fastest rounds. Raw hyper is \
         hyper-util's pooled client (`sdk_benches::raw_hyper`), the floor of the SDK's own \
         transport; target SDK/raw hyper ≤ {PER_CALL_TARGET} (issue #29).\n"
    );
    let rt = current_thread_runtime();
    rt.block_on(async {
        check_identical_requests().await;
        let base = start(ItemsConfig::default(), None).await;
        let p = Paths::new(&base);
        // Warm-up: connections, lazy statics, allocator.
        for _ in 0..500 {
            p.raw_get().await;
            p.raw_hyper_get().await;
            p.sdk_get(&p.sdk_bearer).await;
            p.raw_post().await;
            p.raw_hyper_post().await;
            p.sdk_post(&p.sdk_signed).await;
        }
        println!(
            "| request | raw hyper µs | raw reqwest µs | SDK µs | **SDK/raw hyper** | SDK/raw hyper, fastest rounds | SDK/raw reqwest | SDK without timeouts µs | its ratio to raw hyper |"
        );
        println!("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
        let mut ratios = Vec::new();
        for get in [true, false] {
            ratios.push(loopback_row(get, loopback_times(&p, get).await));
        }
        let own_work = without_network().await;
        // The figure to keep from creeping back (issue #23): the SDK's own work per call (over
        // the in-memory transport, decoding the body excluded), beside the loopback ratio.
        println!();
        for ((label, own, beyond), (to_hyper, to_reqwest)) in own_work.iter().zip(&ratios) {
            println!(
                "- {label}: SDK/raw hyper **{to_hyper:.3}**, SDK/raw reqwest {to_reqwest:.3}; the SDK's own work (no network, body decoding excluded): **{own:.0} ns / call** ({beyond:+.0} ns against the hand-written request, which also parses its URL)"
            );
        }
    });
    println!();
}

/// µs per call of each path by round, for the GET (`get`) or the signed POST: 0 raw hyper,
/// 1 raw reqwest, 2 SDK, 3 SDK without timeouts. Who goes first rotates, order reversed every
/// other round.
async fn loopback_times(p: &Paths, get: bool) -> [Vec<f64>; 4] {
    let mut times: [Vec<f64>; 4] = Default::default();
    for round in 0..ROUNDS {
        for step in 0..4 {
            let step = if round % 2 == 0 { step } else { 3 - step };
            let which = (step + round) % 4;
            times[which].push(match (get, which) {
                (true, 0) => per_call(CALLS, || p.raw_hyper_get()).await,
                (true, 1) => per_call(CALLS, || p.raw_get()).await,
                (true, 2) => per_call(CALLS, || p.sdk_get(&p.sdk_bearer)).await,
                (true, _) => per_call(CALLS, || p.sdk_get(&p.sdk_bearer_no_timeouts)).await,
                (false, 0) => per_call(CALLS, || p.raw_hyper_post()).await,
                (false, 1) => per_call(CALLS, || p.raw_post()).await,
                (false, 2) => per_call(CALLS, || p.sdk_post(&p.sdk_signed)).await,
                (false, _) => per_call(CALLS, || p.sdk_post(&p.sdk_signed_no_timeouts)).await,
            });
        }
    }
    times
}

/// Prints the row of the GET (`get`) or the signed POST from its [`loopback_times`]; the
/// SDK's median ratios to raw hyper and to raw reqwest.
fn loopback_row(get: bool, times: [Vec<f64>; 4]) -> (f64, f64) {
    let ratio = |a: usize, b: usize| {
        median(
            &mut times[a]
                .iter()
                .zip(&times[b])
                .map(|(a, b)| a / b)
                .collect::<Vec<_>>(),
        )
    };
    let (to_hyper, to_reqwest, no_timeouts) = (ratio(2, 0), ratio(2, 1), ratio(3, 0));
    let min = |v: &[f64]| v.iter().copied().fold(f64::INFINITY, f64::min);
    let fastest: [f64; 4] = std::array::from_fn(|i| min(&times[i]));
    let medians: [f64; 4] = std::array::from_fn(|i| median(&mut times[i].clone()));
    let kind = if get {
        "small GET (bearer)"
    } else {
        "signed POST"
    };
    println!(
        "| {kind} | {:.1} / {:.1} | {:.1} / {:.1} | {:.1} / {:.1} | **{to_hyper:.3}** ({}) | {:.3} | {to_reqwest:.3} | {:.1} / {:.1} | {no_timeouts:.3} |",
        fastest[0],
        medians[0],
        fastest[1],
        medians[1],
        fastest[2],
        medians[2],
        if to_hyper <= PER_CALL_TARGET {
            "met"
        } else {
            "not met"
        },
        fastest[2] / fastest[0],
        fastest[3],
        medians[3],
    );
    (to_hyper, to_reqwest)
}

/// The same comparison without the network: the SDK over a transport that answers at once,
/// the hand-written request built (not sent) plus the same parse. Prints its table; for each
/// request its label, the SDK's own work and its excess over the hand-written request (ns).
async fn without_network() -> Vec<(&'static str, f64, f64)> {
    let nn = NoNetwork::new();
    println!(
        "\nWithout the network (SDK over a canned in-memory transport; hand-written: build the \
         reqwest request without sending it, parse the same bytes), same rounds:\n"
    );
    println!("| request | hand-written µs | SDK µs | SDK − hand-written µs |");
    println!("| --- | ---: | ---: | ---: |");
    let mut own_work = Vec::new();
    for get in [true, false] {
        let (mut raw, mut sdk, mut decode) = (vec![], vec![], vec![]);
        for _ in 0..ROUNDS {
            if get {
                raw.push(per_call(CALLS * 4, || async { nn.raw_get() }).await);
                sdk.push(per_call(CALLS * 4, || nn.paths.sdk_get(&nn.sdk_bearer)).await);
                decode.push(per_call(CALLS * 4, || async { nn.decode_get() }).await);
            } else {
                raw.push(per_call(CALLS * 4, || async { nn.raw_post() }).await);
                sdk.push(per_call(CALLS * 4, || nn.paths.sdk_post(&nn.sdk_signed)).await);
                decode.push(per_call(CALLS * 4, || async { nn.decode_post() }).await);
            }
        }
        let (r, k, d) = (median(&mut raw), median(&mut sdk), median(&mut decode));
        let label = if get {
            "small GET (bearer)"
        } else {
            "signed POST"
        };
        println!("| {label} | {r:.2} | {k:.2} | {:.2} |", k - r);
        own_work.push((label, (k - d) * 1e3, (k - r) * 1e3));
    }
    own_work
}

fn profile_loop(which: &str, seconds: u64) {
    let rt = current_thread_runtime();
    rt.block_on(async {
        let base = start(ItemsConfig::default(), None).await;
        let p = Paths::new(&base);
        let end = Instant::now() + Duration::from_secs(seconds);
        let mut n = 0u64;
        while Instant::now() < end {
            for _ in 0..100 {
                match which {
                    "raw-get" => drop(p.raw_get().await),
                    "raw-hyper-get" => drop(p.raw_hyper_get().await),
                    "raw-hyper-post" => drop(p.raw_hyper_post().await),
                    "sdk-post" => drop(p.sdk_post(&p.sdk_signed).await),
                    "raw-post" => drop(p.raw_post().await),
                    _ => drop(p.sdk_get(&p.sdk_bearer).await),
                }
            }
            n += 100;
        }
        println!("{which}: {:.1} µs/call", seconds as f64 * 1e6 / n as f64);
    });
}

// ---------------------------------------------------------------- generator

fn gen_child(spec: &Path) {
    let options = Options {
        crate_name: "bench-sdk".into(),
        spec_label: spec.display().to_string(),
        layout: Layout::Standalone {
            runtime_path: root().join("oncegen-runtime"),
        },
        crate_version: None,
        manifest: Default::default(),
    };
    // The three stages of `oncegen::generate`, timed one by one.
    // CPU time of this (single) thread, so that other processes' load on the shared machine
    // does not show up as generator time; wall time is reported too.
    let base = alloc::reset_peak();
    let (w0, t0) = (Instant::now(), ThreadTime::now());
    let doc = oncegen::read::load(spec).expect("read");
    let c1 = t0.elapsed().as_nanos();
    let api = oncegen::lower::lower(&doc).expect("lower");
    let c2 = t0.elapsed().as_nanos();
    let files = oncegen::emit::emit(&api, &options).expect("emit");
    let (w3, c3) = (Instant::now(), t0.elapsed().as_nanos());
    let peak_heap = alloc::peak() - base;
    let lines: usize = files.iter().map(|f| f.contents.lines().count()).sum();
    println!(
        "{} {} {} {lines} {peak_heap} {} {} {} {} {}",
        c3,
        api.operations.len(),
        files.len(),
        alloc::peak_rss().unwrap_or(0),
        c1,
        c2 - c1,
        c3 - c2,
        (w3 - w0).as_nanos()
    );
}

struct GenRun {
    secs: f64,
    ops: usize,
    files: usize,
    lines: usize,
    peak_heap: u64,
    peak_rss: u64,
    /// CPU seconds in read, lower, emit.
    stages: [f64; 3],
    /// Wall-clock seconds of the three stages.
    wall: f64,
}

fn run_child(spec: &Path, count: bool) -> GenRun {
    let out = Command::new(std::env::current_exe().expect("current exe"))
        .arg("gen-child")
        .arg(spec)
        .args(count.then_some("--count"))
        .output()
        .expect("spawn gen-child");
    assert!(
        out.status.success(),
        "generation of {} failed:\n{}",
        spec.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    let f: Vec<u128> = text
        .split_whitespace()
        .map(|v| v.parse().expect("number"))
        .collect();
    GenRun {
        secs: f[0] as f64 / 1e9,
        ops: f[1] as usize,
        files: f[2] as usize,
        lines: f[3] as usize,
        peak_heap: f[4] as u64,
        peak_rss: f[5] as u64,
        stages: [f[6] as f64 / 1e9, f[7] as f64 / 1e9, f[8] as f64 / 1e9],
        wall: f[9] as f64 / 1e9,
    }
}

/// Timed generator runs per document.
const GEN_RUNS: usize = 3;

/// A synthetic document's row: operations, µs per operation, peak heap, CPU seconds per stage.
type Synthetic = (usize, f64, u64, [f64; 3]);

fn gen_section() {
    println!("## Generator (release, in a child process per run; median of {GEN_RUNS} runs)\n");
    println!(
        "Time is the CPU time (`CLOCK_THREAD_CPUTIME_ID`) of the three stages of `oncegen::generate` (read, lower, emit with prettyplease; no disk writes), wall time beside it; \
         peak heap from a counting allocator in one extra run (counting is off in the timed runs), peak RSS (`VmHWM`) of the timed runs.\n"
    );
    println!(
        "| document | size | operations | CPU time | wall time | µs / op | peak heap | peak RSS | files | lines | lines / op |"
    );
    println!("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    let mut synthetic = Vec::new();
    for (label, path, size) in &gen_documents() {
        if !path.exists() {
            println!("| {label} | missing | | | | | | | | | |");
            continue;
        }
        let row = gen_row(label, path, *size);
        if label.starts_with("synthetic") {
            synthetic.push(row);
        }
    }
    scaling(&synthetic);
    println!();
}

/// The documents generated: the contract, the largest corpus document, synthetic ones of 100,
/// 1,000 and 5,000 operations (written under target/); each with its label and size.
fn gen_documents() -> Vec<(String, PathBuf, u64)> {
    let dir = root().join("target").join("bench-specs");
    let mut specs: Vec<(String, PathBuf, u64)> = vec![
        (
            "spec/openapi.yaml".into(),
            root().join("spec/openapi.yaml"),
            0,
        ),
        (
            "sdk-tests/realspecs/vultr.json".into(),
            root().join("sdk-tests/realspecs/vultr.json"),
            0,
        ),
    ];
    for n in [100usize, 1_000, 5_000] {
        let path = sdk_benches::synth::write_document(n, &dir);
        specs.push((format!("synthetic {n} ops"), path, 0));
    }
    for s in &mut specs {
        s.2 = std::fs::metadata(&s.1).map(|m| m.len()).unwrap_or(0);
    }
    specs
}

/// Generates the document at `path` ([`GEN_RUNS`] timed runs and one counted) and prints its
/// row.
fn gen_row(label: &str, path: &Path, size: u64) -> Synthetic {
    let counted = run_child(path, true);
    let mut runs: Vec<GenRun> = (0..GEN_RUNS).map(|_| run_child(path, false)).collect();
    runs.sort_by(|a, b| a.secs.total_cmp(&b.secs));
    let r = &runs[GEN_RUNS / 2];
    let peak_heap = counted.peak_heap;
    let peak_rss = runs.iter().map(|r| r.peak_rss).max().unwrap_or(0);
    let per_op = r.secs * 1e6 / r.ops.max(1) as f64;
    println!(
        "| {label} | {} | {} | {:.1} ms | {:.1} ms | {per_op:.0} | {} | {} | {} | {} | {:.0} |",
        human(size),
        r.ops,
        r.secs * 1e3,
        r.wall * 1e3,
        human(peak_heap),
        human(peak_rss),
        r.files,
        r.lines,
        r.lines as f64 / r.ops.max(1) as f64
    );
    (r.ops, per_op, peak_heap, r.stages)
}

/// The table of the synthetic documents against the smallest: per operation, 1.00 is linear.
fn scaling(synthetic: &[Synthetic]) {
    let Some(&(ops0, us0, heap0, st0)) = synthetic.first() else {
        return;
    };
    println!(
        "\nScaling against the {ops0}-operation document (1.00 = linear), per stage µs / op:\n"
    );
    println!(
        "| operations | µs / op relative | peak heap / op relative | read µs/op | lower µs/op | emit µs/op |"
    );
    println!("| ---: | ---: | ---: | ---: | ---: | ---: |");
    for (ops, us, heap, st) in synthetic {
        let per = |s: f64| s * 1e6 / *ops as f64;
        println!(
            "| {ops} | {:.2} | {:.2} | {:.0} ({:.2}) | {:.0} ({:.2}) | {:.0} ({:.2}) |",
            us / us0,
            (*heap as f64 / *ops as f64) / (heap0 as f64 / ops0 as f64),
            per(st[0]),
            per(st[0]) / (st0[0] * 1e6 / ops0 as f64),
            per(st[1]),
            per(st[1]) / (st0[1] * 1e6 / ops0 as f64),
            per(st[2]),
            per(st[2]) / (st0[2] * 1e6 / ops0 as f64),
        );
    }
}

// ---------------------------------------------------------------- compile

fn cargo(target_dir: &Path, args: &[&str]) -> Duration {
    let start = Instant::now();
    let status = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .current_dir(root())
        .env("CARGO_TARGET_DIR", target_dir)
        .args(args)
        .args(["--quiet"])
        .status()
        .expect("spawn cargo");
    assert!(status.success(), "cargo {args:?} failed");
    start.elapsed()
}

/// Timed builds per command.
const COMPILE_RUNS: usize = 3;

fn compile_section() {
    // A target dir of its own: `cargo clean -p customer-cloud-sdk` does not disturb other builds and
    // their builds do not hold the lock while we time.
    let target = root().join("target").join("bench-compile");
    println!(
        "## Generated crate `customer-cloud-sdk`: compile time (dependencies prebuilt; median of {COMPILE_RUNS})\n"
    );
    println!(
        "Each run: `cargo clean -p customer-cloud-sdk` then the timed command, `CARGO_TARGET_DIR=target/bench-compile`.\n"
    );
    let area = std::env::var("BENCH_AREA").unwrap_or_else(|_| "dns".into());
    println!("| command | time | vs all areas | same command, nothing to rebuild |");
    println!("| --- | ---: | ---: | ---: |");
    let mut all_secs = 0.0;
    for (label, args) in &compile_commands(&area) {
        let mut full: Vec<&str> = args.iter().map(String::as_str).collect();
        full.extend(["-p", "customer-cloud-sdk"]);
        cargo(&target, &full); // prebuild dependencies for this profile and feature set
        let noop = cargo(&target, &full).as_secs_f64(); // nothing to do: cargo's fixed cost
        let mut secs: Vec<f64> = (0..COMPILE_RUNS)
            .map(|_| {
                cargo(&target, &["clean", "-p", "customer-cloud-sdk"]);
                cargo(&target, &full).as_secs_f64()
            })
            .collect();
        let m = median(&mut secs);
        if label.ends_with("(default features)") || label == "debug build, all areas" {
            all_secs = m;
            println!(
                "| `cargo {}` | {m:.2} s | 1.00 | {noop:.2} s |",
                full.join(" ")
            );
        } else {
            println!(
                "| `cargo {}` | {m:.2} s | {:.2} | {noop:.2} s |",
                full.join(" "),
                m / all_secs
            );
        }
    }
    lines_per_operation();
}

/// The commands timed, each with its label: check and debug build, all areas and `area` only.
fn compile_commands(area: &str) -> Vec<(String, Vec<String>)> {
    let only = |command: &str| {
        let args = [command, "--no-default-features", "--features", area];
        args.map(str::to_owned).to_vec()
    };
    vec![
        (
            "check, all areas (default features)".into(),
            vec!["check".into()],
        ),
        (format!("check, `{area}` only"), only("check")),
        ("debug build, all areas".into(), vec!["build".into()]),
        (format!("debug build, `{area}` only"), only("build")),
    ]
}

/// Lines of generated code per operation.
fn lines_per_operation() {
    let ops = std::fs::read_to_string(root().join("spec/openapi.yaml"))
        .map(|s| {
            s.lines()
                .filter(|l| l.trim_start().starts_with("operationId:"))
                .count()
        })
        .unwrap_or(0);
    let (lines, files) = sdk_benches::code_size::rust_lines(&root().join("customer-cloud-sdk/src"));
    println!(
        "\n`customer-cloud-sdk/src`: {files} files, {lines} lines for {ops} operations in spec/openapi.yaml = {:.0} lines / operation\n",
        lines as f64 / ops.max(1) as f64
    );
}
