//! The concurrency section of `bench-report` (issues #23 and #29): one shared SDK client driven
//! by many tasks at once against the loopback server, beside raw hyper and raw reqwest with the
//! same concurrency and the same connection pool settings, for reads (the small GET) and keyed
//! writes (the signed POST with a generated idempotency key); then a soak of one client.
//!
//! The clients run on a multi-threaded tokio runtime with one worker per core, so shared state
//! on the request path (the client's `Arc`, the 429 gate, the pool) is touched from more than
//! one thread; the server runs on a second runtime of its own, so that the client's CPU time
//! can be read apart from the server's (`cpu`). Nothing here asserts on timings: it prints
//! figures, ratios and whether each meets its target.

pub(crate) mod cpu;
mod load;
mod soak;
mod table;

use std::sync::Arc;
use std::time::Duration;

use crate::requests::Paths;
use crate::server::{ItemsConfig, start};

pub use cpu::Threads;
pub use load::{Kind, Run, Side, run};
pub use soak::{Soak, soak};

/// What the section runs; [`Settings::from_env`] reads overrides.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Concurrent tasks per level.
    pub levels: Vec<usize>,
    /// Interleaved rounds (raw hyper, raw reqwest, the SDK and the SDK without timeouts take
    /// turns going first).
    pub rounds: usize,
    /// Calls per timed run (rounded up to a multiple of the level).
    pub calls: usize,
    /// Requests of the soak.
    pub soak_requests: u64,
    /// Concurrent tasks of the soak.
    pub soak_tasks: usize,
    /// The soak stops here even if it has not sent all its requests.
    pub soak_limit: Duration,
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            levels: vec![1, 16, 64, 256],
            rounds: 7,
            calls: 4096,
            soak_requests: 1_000_000,
            soak_tasks: 64,
            soak_limit: Duration::from_secs(300),
        }
    }
}

impl Settings {
    /// The defaults, overridden by `BENCH_CONC_LEVELS` (e.g. `1,16,64,256`), `BENCH_CONC_ROUNDS`,
    /// `BENCH_CONC_CALLS`, `BENCH_SOAK_REQUESTS` and `BENCH_SOAK_SECS`.
    pub fn from_env() -> Self {
        let var = |name: &str| std::env::var(name).ok().filter(|v| !v.trim().is_empty());
        let number = |name: &str, v: String| -> u64 {
            v.trim()
                .replace('_', "")
                .parse()
                .unwrap_or_else(|_| panic!("{name}: expected a number, got {v:?}"))
        };
        let mut s = Self::default();
        if let Some(v) = var("BENCH_CONC_LEVELS") {
            s.levels = v
                .split(',')
                .map(|n| number("BENCH_CONC_LEVELS", n.to_owned()).max(1) as usize)
                .collect();
        }
        if let Some(v) = var("BENCH_CONC_ROUNDS") {
            s.rounds = number("BENCH_CONC_ROUNDS", v).max(1) as usize;
        }
        if let Some(v) = var("BENCH_CONC_CALLS") {
            s.calls = number("BENCH_CONC_CALLS", v).max(1) as usize;
        }
        if let Some(v) = var("BENCH_SOAK_REQUESTS") {
            s.soak_requests = number("BENCH_SOAK_REQUESTS", v);
        }
        if let Some(v) = var("BENCH_SOAK_SECS") {
            s.soak_limit = Duration::from_secs(number("BENCH_SOAK_SECS", v));
        }
        s
    }
}

/// Runs the section and prints it as Markdown.
pub fn section(settings: &Settings) {
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get());
    let server_rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(workers)
        .thread_name("bench-server")
        .enable_all()
        .build()
        .expect("tokio runtime");
    let client = Threads::default();
    client.register_current();
    let client_rt = client.runtime(workers, "bench-client");
    println!("## Concurrency: one shared client under many tasks (issues #23, #29)\n");
    println!(
        "The tasks run on a multi-threaded tokio runtime ({workers} workers), the loopback server \
         on a second one ({workers} workers) in the same process. Per level: {} interleaved \
         rounds; in each round raw hyper (hyper-util's pooled client, `sdk_benches::raw_hyper`), \
         raw reqwest (one `reqwest::Client` built like the SDK's transports: same pool, no \
         redirects, same connect timeout), the SDK (one `Client` shared by every task) and the \
         SDK without attempt and call timeouts each send {} calls split evenly over the tasks, \
         each task one call after the other; who goes first rotates. Throughput is calls / wall \
         time of the run; client CPU is the CPU time of the client runtime's threads (and the \
         thread driving it) during the run over its calls (`/proc/self/task/*/schedstat`; the \
         server's threads are not counted); latency is each call's own time; ratios are medians \
         of the per-round ratios, absolute figures medians of the rounds. Memory per in-flight \
         call: peak live heap during the run above the live heap before it, over the number of \
         tasks (counting allocator; the in-process server's share is included on every side).\n",
        settings.rounds, settings.calls
    );
    let base = server_rt.block_on(start(ItemsConfig::default(), None));
    client_rt.block_on(async {
        let paths = Arc::new(Paths::new(&base));
        for kind in [Kind::Read, Kind::KeyedWrite] {
            let mut rows = Vec::new();
            for &tasks in &settings.levels {
                rows.push(table::level(&paths, &client, kind, tasks, settings).await);
            }
            table::print(kind, &rows);
        }
        // Fresh clients for the soak: the levels' pools hold hundreds of idle connections
        // (and the server their buffers) until the idle timeout reaps them, which would show
        // as a drop in the soak's live heap.
        drop(paths);
        tokio::time::sleep(Duration::from_millis(200)).await;
        let soaked = soak(&Arc::new(Paths::new(&base)), settings).await;
        soaked.print(settings);
    });
}
