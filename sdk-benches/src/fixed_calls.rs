//! A fixed number of calls of one request path, for instruction-count profilers (issue #23).
//!
//! `bench-report calls WHICH N [WARMUP]` warms up (200 calls by default), then runs exactly `N` calls inside
//! [`measured`], a function that is never inlined, so that
//! `valgrind --tool=callgrind --collect-atstart=no --toggle-collect='*fixed_calls*measured*'`
//! counts the calls and nothing else (the in-process server's work included, the same for every
//! path). Instructions per call are the total over `N`; see `BENCHMARKS.md` for the commands.

use std::future::Future;

use crate::requests::{NoNetwork, Paths};
use crate::server::{ItemsConfig, current_thread_runtime, start};

/// The paths `bench-report calls` knows.
pub const PATHS: [&str; 14] = [
    "sdk-get-reqwest",
    "sdk-post-reqwest",
    "sdk-get",
    "raw-get",
    "sdk-post",
    "raw-post",
    "raw-hyper-get",
    "raw-hyper-post",
    "nn-sdk-get",
    "nn-raw-get",
    "nn-sdk-post",
    "nn-raw-post",
    "sdk-get-no-timeouts",
    "sdk-post-no-timeouts",
];

/// Runs `warmup` then `n` calls of `which` (one of [`PATHS`]) on a `current_thread` runtime
/// shared with the loopback server.
pub fn run(which: &str, warmup: u64, n: u64) {
    assert!(
        PATHS.contains(&which),
        "unknown path {which:?}: expected one of {PATHS:?}"
    );
    let rt = current_thread_runtime();
    let base = rt.block_on(start(ItemsConfig::default(), None));
    let paths = Paths::new(&base);
    let nn = NoNetwork::new();
    let one = || one_call(which, &paths, &nn);
    rt.block_on(repeat(warmup, one));
    measured(&rt, n, one);
}

/// The counted part: `n` calls.
#[inline(never)]
pub fn measured<'a, F, Fut>(rt: &tokio::runtime::Runtime, n: u64, one: F)
where
    F: Fn() -> Fut + 'a,
    Fut: Future<Output = ()> + 'a,
{
    rt.block_on(repeat(n, one));
}

async fn repeat<F, Fut>(n: u64, one: F)
where
    F: Fn() -> Fut,
    Fut: Future<Output = ()>,
{
    for _ in 0..n {
        one().await;
    }
}

async fn one_call(which: &str, p: &Paths, nn: &NoNetwork) {
    match which {
        "sdk-get-reqwest" => drop(std::hint::black_box(p.sdk_get(&p.sdk_bearer_reqwest).await)),
        "sdk-post-reqwest" => drop(std::hint::black_box(
            p.sdk_post(&p.sdk_signed_reqwest).await,
        )),
        "sdk-get" => drop(std::hint::black_box(p.sdk_get(&p.sdk_bearer).await)),
        "raw-get" => drop(std::hint::black_box(p.raw_get().await)),
        "sdk-post" => drop(std::hint::black_box(p.sdk_post(&p.sdk_signed).await)),
        "raw-post" => drop(std::hint::black_box(p.raw_post().await)),
        "raw-hyper-get" => drop(std::hint::black_box(p.raw_hyper_get().await)),
        "raw-hyper-post" => drop(std::hint::black_box(p.raw_hyper_post().await)),
        "sdk-get-no-timeouts" => drop(std::hint::black_box(
            p.sdk_get(&p.sdk_bearer_no_timeouts).await,
        )),
        "sdk-post-no-timeouts" => drop(std::hint::black_box(
            p.sdk_post(&p.sdk_signed_no_timeouts).await,
        )),
        "nn-sdk-get" => drop(std::hint::black_box(nn.paths.sdk_get(&nn.sdk_bearer).await)),
        "nn-raw-get" => drop(std::hint::black_box(nn.raw_get())),
        "nn-sdk-post" => drop(std::hint::black_box(
            nn.paths.sdk_post(&nn.sdk_signed).await,
        )),
        _ => drop(std::hint::black_box(nn.raw_post())),
    }
}
