//! Signing cost per request in signed mode (body hash, timestamp, nonce, canonical string, HMAC,
//! as the client does per attempt) for 0 B, 1 KiB and 1 MiB bodies.
//!
//! `cargo bench -p sdk-benches --bench signing -- --warm-up-time 1 --measurement-time 3`

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use oncegen_runtime::signing::{
    DefaultSigner, Signer, SigningInput, content_sha256, new_nonce, unix_timestamp,
};

/// One attempt's signing work, as `Client` does it.
fn sign(secret: &[u8], body: &[u8]) -> String {
    let timestamp = unix_timestamp();
    let nonce = new_nonce();
    let hash = content_sha256(body);
    let input = SigningInput {
        method: "POST",
        path_and_query: "/v1/dns/zones",
        timestamp: &timestamp,
        nonce: &nonce,
        content_sha256: &hash,
        body,
    };
    DefaultSigner.sign(secret, &input)
}

fn signing(c: &mut Criterion) {
    let secret = b"s3cr3t-hmac-key-for-benchmarks-0123456789";
    let mut group = c.benchmark_group("sign_request");
    for (label, size) in [("0B", 0usize), ("1KiB", 1024), ("1MiB", 1 << 20)] {
        let body = vec![b'x'; size];
        group.throughput(Throughput::Bytes(size.max(1) as u64));
        group.bench_with_input(BenchmarkId::from_parameter(label), &body, |b, body| {
            b.iter(|| sign(black_box(secret), black_box(body)))
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(30)
        .warm_up_time(std::time::Duration::from_secs(1))
        .measurement_time(std::time::Duration::from_secs(3));
    targets = signing
}
criterion_main!(benches);
