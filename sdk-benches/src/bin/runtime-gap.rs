//! Attribution of the wall-clock gap between the SDK and hand-written reqwest over loopback
//! (issue #23; `BENCHMARKS.md`, "Runtime: per-request overhead"). One `current_thread` runtime
//! shared with the loopback server, as in `bench-report runtime`; interleaved rounds (order
//! reversed every other round); median µs per call of each variant:
//!
//! * `raw`: the hand-written GET;
//! * `sdk`: the SDK's GET (default config), and `sdk, no timeouts`;
//! * `transport alone`: the SDK's `ReqwestTransport` sent the request the SDK builds (same
//!   headers), then the same parse: the transport and the reqwest client without the SDK's
//!   client layer;
//! * `nn sdk` / `nn raw`: the SDK over an in-memory transport / the hand-written request built
//!   but not sent (no network);
//! * `raw + nn sdk` / `raw + nn raw`: a raw GET followed by one of those two in the same
//!   iteration: whether the SDK's own work costs more beside network I/O than alone;
//! * `raw + touch 64 KiB`: a raw GET followed by a read of one byte per cache line of 64 KiB
//!   (a data footprint with almost no instructions).
//!
//! Run: `cargo run -p sdk-benches --release --bin runtime-gap`.

use std::time::Duration;

use bytes::Bytes;
use http::{HeaderMap, HeaderValue, Method};
use oncegen_runtime::ReqwestTransport;
use oncegen_runtime::{Config, HttpRequest, SdkIdentity, Transport};
use reqwest::header::{ACCEPT, AUTHORIZATION, USER_AGENT};
use sdk_benches::fixtures::{PRODUCT_ID, Product};
use sdk_benches::requests::{BEARER, NoNetwork, Paths};
use sdk_benches::server::{ItemsConfig, current_thread_runtime, start};
use sdk_benches::stats::{median, per_call};

const ROUNDS: usize = 31;
const CALLS: u32 = 250;
const VARIANTS: [&str; 9] = [
    "raw",
    "sdk",
    "sdk, no timeouts",
    "transport alone",
    "nn sdk",
    "nn raw",
    "raw + nn sdk",
    "raw + nn raw",
    "raw + touch 64 KiB",
];

/// Reads one byte per cache line of `buffer`: a data footprint with almost no instructions.
fn touch(buffer: &[u8]) {
    let mut sum = 0u8;
    for line in buffer.chunks(64) {
        sum = sum.wrapping_add(std::hint::black_box(line[0]));
    }
    std::hint::black_box(sum);
}

fn main() {
    let rt = current_thread_runtime();
    rt.block_on(async {
        let base = start(ItemsConfig::default(), None).await;
        let variants = Variants::new(&base);
        for _ in 0..300 {
            for variant in 0..VARIANTS.len() {
                variants.one(variant).await;
            }
        }
        let mut times = vec![Vec::new(); VARIANTS.len()];
        for round in 0..ROUNDS {
            let mut order: Vec<usize> = (0..VARIANTS.len()).collect();
            if round % 2 == 1 {
                order.reverse();
            }
            for variant in order {
                times[variant].push(per_call(CALLS, || variants.one(variant)).await);
            }
        }
        println!("| variant | µs per call (median of {ROUNDS} rounds) |");
        println!("| --- | ---: |");
        for (name, t) in VARIANTS.iter().zip(&mut times) {
            println!("| {name} | {:.2} |", median(t));
        }
    });
}

/// What the [`VARIANTS`] call through, against the loopback server.
struct Variants {
    p: Paths,
    nn: NoNetwork,
    transport: ReqwestTransport,
    /// The product's URL.
    url: String,
    /// The headers the SDK sends with its GET.
    headers: HeaderMap,
    /// What `raw + touch 64 KiB` reads.
    buffer: Vec<u8>,
}

impl Variants {
    /// The variants against the loopback server at `base`.
    fn new(base: &str) -> Self {
        let transport = ReqwestTransport::new(Some(Duration::from_secs(10))).expect("transport");
        let user_agent = Config::new(base)
            .sdk(SdkIdentity::new(
                "customer-cloud-sdk",
                "0.1.0",
                "2026-10-07.1",
            ))
            .effective_user_agent();
        let mut headers = HeaderMap::new();
        headers.insert(USER_AGENT, HeaderValue::from_str(&user_agent).expect("ua"));
        headers.insert(ACCEPT, HeaderValue::from_static("application/json"));
        let bearer = HeaderValue::from_str(&format!("Bearer {BEARER}")).expect("bearer");
        headers.insert(AUTHORIZATION, bearer);
        Variants {
            p: Paths::new(base),
            nn: NoNetwork::new(),
            transport,
            url: format!("{base}/v1/products/{PRODUCT_ID}"),
            headers,
            buffer: vec![1u8; 64 << 10],
        }
    }

    /// One call of variant `variant` (an index of [`VARIANTS`]).
    async fn one(&self, variant: usize) {
        let (p, nn) = (&self.p, &self.nn);
        match variant {
            0 => drop(p.raw_get().await),
            1 => drop(p.sdk_get(&p.sdk_bearer).await),
            2 => drop(p.sdk_get(&p.sdk_bearer_no_timeouts).await),
            3 => drop(self.transport_alone().await),
            4 => drop(nn.paths.sdk_get(&nn.sdk_bearer).await),
            5 => drop(nn.raw_get()),
            6 => {
                p.raw_get().await;
                drop(nn.paths.sdk_get(&nn.sdk_bearer).await);
            }
            7 => {
                p.raw_get().await;
                drop(nn.raw_get());
            }
            _ => {
                p.raw_get().await;
                touch(&self.buffer);
            }
        }
    }

    /// The SDK's transport sent the request the SDK builds, then the same parse.
    async fn transport_alone(&self) -> Product {
        let request = HttpRequest {
            method: Method::GET,
            url: self.url.clone(),
            headers: self.headers.clone(),
            body: Bytes::new(),
            timeout: None,
            max_response_bytes: 1 << 20,
        };
        let response = self.transport.send(request).await.expect("send");
        serde_json::from_slice::<Product>(&response.body).expect("product")
    }
}
