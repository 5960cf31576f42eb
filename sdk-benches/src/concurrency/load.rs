//! One timed run: `tasks` tasks share one client and send `calls` requests between them.

use std::sync::Arc;
use std::time::Instant;

use super::cpu::Threads;
use crate::alloc;
use crate::requests::Paths;

/// Which client sends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// The SDK (`oncegen_runtime::Client`, default configuration).
    Sdk,
    /// Hand-written reqwest, the same bytes on the wire.
    RawReqwest,
    /// Hand-written raw hyper (hyper-util's pooled client), the same bytes on the wire.
    RawHyper,
    /// The SDK without attempt and whole-call timeouts (no timer per call), to attribute the
    /// timers' share.
    SdkNoTimeouts,
}

/// Which request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `GET /v1/products/{id}`, bearer token.
    Read,
    /// Signed `POST /v1/dns/zones` with a fresh idempotency key per call.
    KeyedWrite,
}

impl Kind {
    /// The label in tables.
    pub fn label(self) -> &'static str {
        match self {
            Kind::Read => "reads (small GET, bearer)",
            Kind::KeyedWrite => "keyed writes (signed POST, idempotency key)",
        }
    }
}

/// Sends one request of `kind` through `side` and decodes the answer.
pub async fn call(paths: &Paths, side: Side, kind: Kind) {
    match (side, kind) {
        (Side::Sdk, Kind::Read) => drop(paths.sdk_get(&paths.sdk_bearer).await),
        (Side::RawReqwest, Kind::Read) => drop(paths.raw_get().await),
        (Side::RawHyper, Kind::Read) => drop(paths.raw_hyper_get().await),
        (Side::Sdk, Kind::KeyedWrite) => drop(paths.sdk_post(&paths.sdk_signed).await),
        (Side::RawReqwest, Kind::KeyedWrite) => drop(paths.raw_post().await),
        (Side::RawHyper, Kind::KeyedWrite) => drop(paths.raw_hyper_post().await),
        (Side::SdkNoTimeouts, Kind::Read) => {
            drop(paths.sdk_get(&paths.sdk_bearer_no_timeouts).await)
        }
        (Side::SdkNoTimeouts, Kind::KeyedWrite) => {
            drop(paths.sdk_post(&paths.sdk_signed_no_timeouts).await)
        }
    }
}

/// What one run measured.
#[derive(Debug)]
pub struct Run {
    /// Wall-clock seconds from the first spawn to the last task's end.
    pub secs: f64,
    /// Calls made.
    pub calls: usize,
    /// Each call's latency in nanoseconds, sorted.
    pub latencies: Vec<u64>,
    /// Peak live heap bytes during the run above the live heap before it.
    pub peak_over_base: usize,
    /// CPU nanoseconds the client's threads spent during the run (NaN when unreadable).
    pub client_cpu_ns: f64,
}

impl Run {
    /// Calls per second.
    pub fn throughput(&self) -> f64 {
        self.calls as f64 / self.secs
    }

    /// The client's CPU time per call, in microseconds.
    pub fn cpu_us_per_call(&self) -> f64 {
        self.client_cpu_ns / 1e3 / self.calls as f64
    }

    /// The `q`-quantile latency (nearest rank) in microseconds.
    pub fn latency_us(&self, q: f64) -> f64 {
        let n = self.latencies.len();
        if n == 0 {
            return f64::NAN;
        }
        let rank = ((q * n as f64).ceil() as usize).clamp(1, n);
        self.latencies[rank - 1] as f64 / 1e3
    }
}

/// Runs `tasks` tasks, each sending `calls / tasks` (rounded up) requests one after the other,
/// on the current multi-threaded runtime, whose threads are `client`.
pub async fn run(
    paths: &Arc<Paths>,
    client: &Threads,
    side: Side,
    kind: Kind,
    tasks: usize,
    calls: usize,
) -> Run {
    let per_task = calls.div_ceil(tasks);
    let buffers: Vec<Vec<u64>> = (0..tasks).map(|_| Vec::with_capacity(per_task)).collect();
    let mut latencies = Vec::with_capacity(per_task * tasks);
    let base = alloc::reset_peak();
    let cpu_before = client.cpu_ns();
    let start = Instant::now();
    let handles: Vec<_> = buffers
        .into_iter()
        .map(|mut times| {
            let paths = paths.clone();
            tokio::spawn(async move {
                for _ in 0..per_task {
                    let t = Instant::now();
                    call(&paths, side, kind).await;
                    times.push(t.elapsed().as_nanos() as u64);
                }
                times
            })
        })
        .collect();
    for handle in handles {
        latencies.extend(handle.await.expect("benchmark task"));
    }
    let secs = start.elapsed().as_secs_f64();
    let client_cpu_ns = match (cpu_before, client.cpu_ns()) {
        (Some(before), Some(after)) => after.saturating_sub(before) as f64,
        _ => f64::NAN,
    };
    let peak_over_base = alloc::peak().saturating_sub(base);
    latencies.sort_unstable();
    Run {
        secs,
        calls: per_task * tasks,
        latencies,
        peak_over_base,
        client_cpu_ns,
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::{Kind, Run, Side, run};
    use crate::concurrency::cpu::Threads;
    use crate::requests::Paths;
    use crate::server::{ItemsConfig, start};

    /// Every task sends its share, every call is timed and the client's CPU is read (the
    /// harness, not a timing).
    #[test]
    fn every_call_of_every_task_is_counted() {
        let client = Threads::default();
        let rt = client.runtime(2, "load-test");
        rt.block_on(async {
            let paths = Arc::new(Paths::new(&start(ItemsConfig::default(), None).await));
            for side in [
                Side::Sdk,
                Side::RawReqwest,
                Side::RawHyper,
                Side::SdkNoTimeouts,
            ] {
                for kind in [Kind::Read, Kind::KeyedWrite] {
                    let r = run(&paths, &client, side, kind, 5, 23).await;
                    assert_eq!(r.calls, 25, "23 calls over 5 tasks round up to 5 each");
                    assert_eq!(r.latencies.len(), 25);
                    assert!(r.latencies.windows(2).all(|w| w[0] <= w[1]));
                    assert!(r.throughput() > 0.0);
                    assert!(
                        r.client_cpu_ns > 0.0,
                        "{side:?} {kind:?}: no client CPU read"
                    );
                }
            }
        });
    }

    #[test]
    fn nearest_rank_quantiles() {
        let run = Run {
            secs: 1.0,
            calls: 100,
            latencies: (1..=100).map(|i| i * 1000).collect(),
            peak_over_base: 0,
            client_cpu_ns: 250_000.0,
        };
        assert_eq!(run.cpu_us_per_call(), 2.5);
        assert_eq!(run.latency_us(0.5), 50.0);
        assert_eq!(run.latency_us(0.99), 99.0);
        assert_eq!(run.latency_us(1.0), 100.0);
        assert_eq!(run.throughput(), 100.0);
    }
}
