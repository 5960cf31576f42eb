//! Per-request overhead of the SDK against a hand-written reqwest request sending the same bytes
//! to the same loopback server (client and server share one `current_thread` tokio runtime).
//!
//! `cargo bench -p sdk-benches --bench runtime -- --warm-up-time 1 --measurement-time 3`

use criterion::{Criterion, criterion_group, criterion_main};
use sdk_benches::requests::{NoNetwork, Paths, check_identical_requests};
use sdk_benches::server::{ItemsConfig, current_thread_runtime, start};

fn requests(c: &mut Criterion) {
    let rt = current_thread_runtime();
    rt.block_on(check_identical_requests());
    let base = rt.block_on(start(ItemsConfig::default(), None));
    let paths = Paths::new(&base);

    let mut group = c.benchmark_group("get_small");
    group.bench_function("raw_reqwest", |b| b.to_async(&rt).iter(|| paths.raw_get()));
    group.bench_function("sdk", |b| {
        b.to_async(&rt).iter(|| paths.sdk_get(&paths.sdk_bearer))
    });
    group.bench_function("sdk_no_timeouts", |b| {
        b.to_async(&rt)
            .iter(|| paths.sdk_get(&paths.sdk_bearer_no_timeouts))
    });
    group.finish();

    let mut group = c.benchmark_group("signed_post");
    group.bench_function("raw_reqwest", |b| b.to_async(&rt).iter(|| paths.raw_post()));
    group.bench_function("sdk", |b| {
        b.to_async(&rt).iter(|| paths.sdk_post(&paths.sdk_signed))
    });
    group.bench_function("sdk_no_timeouts", |b| {
        b.to_async(&rt)
            .iter(|| paths.sdk_post(&paths.sdk_signed_no_timeouts))
    });
    group.finish();

    // The same work without the network: the SDK over a transport that answers at once, and the
    // hand-written request built (not sent) plus the same parse.
    let nn = NoNetwork::new();
    let mut group = c.benchmark_group("no_network");
    group.bench_function("get_raw_build_and_parse", |b| b.iter(|| nn.raw_get()));
    group.bench_function("get_sdk", |b| {
        b.to_async(&rt)
            .iter(|| async { nn.paths.sdk_get(&nn.sdk_bearer).await })
    });
    group.bench_function("get_sdk_no_timeouts", |b| {
        b.to_async(&rt)
            .iter(|| async { nn.paths.sdk_get(&nn.sdk_bearer_no_timeouts).await })
    });
    group.bench_function("post_raw_build_and_parse", |b| b.iter(|| nn.raw_post()));
    group.bench_function("post_sdk", |b| {
        b.to_async(&rt)
            .iter(|| async { nn.paths.sdk_post(&nn.sdk_signed).await })
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(30)
        .warm_up_time(std::time::Duration::from_secs(1))
        .measurement_time(std::time::Duration::from_secs(3));
    targets = requests
}
criterion_main!(benches);
