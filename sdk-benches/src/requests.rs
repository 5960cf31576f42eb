//! The request paths compared by the runtime benchmarks: the SDK (`oncegen_runtime::Client`) and
//! two minimal hand-written twins doing the same essential work (serialize, hash, sign, send,
//! read, parse) and sending the same header names, lengths and body bytes: one on reqwest, one
//! on raw hyper ([`crate::raw_hyper`], the floor of the SDK's own transport).
//!
//! [`check_identical_requests`] proves the "same bytes" claim once before anything is timed.

use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use futures::future::BoxFuture;

use oncegen_runtime::{
    CallOptions, Client, Config, HttpRequest, HttpResponse, Request, ReqwestTransport, SdkIdentity,
    Timeouts, Transport, TransportError,
};
use reqwest::header::{ACCEPT, AUTHORIZATION, CONTENT_TYPE, USER_AGENT};

pub use crate::credentials::{API_KEY, API_SECRET, BEARER, Signed};
use crate::fixtures::{
    CREATE_ZONE, CreateZoneRequest, GET_PRODUCT, PRODUCT_ID, Product, Zone, create_zone_request,
    product, zone,
};
use crate::raw_hyper::RawHyper;
use crate::server::{CaptureLog, ItemsConfig, start};

/// Clients for one base URL.
pub struct Paths {
    /// SDK client, bearer mode, default config (timeouts, retries, 429 gate).
    pub sdk_bearer: Client,
    /// SDK client, signed mode, default config.
    pub sdk_signed: Client,
    /// SDK client, signed mode, no attempt/total timeouts (to attribute timer cost).
    pub sdk_signed_no_timeouts: Client,
    /// SDK client, bearer mode, no attempt/total timeouts.
    pub sdk_bearer_no_timeouts: Client,
    /// SDK client, bearer mode, over reqwest (the transport it picks behind a proxy).
    pub sdk_bearer_reqwest: Client,
    /// SDK client, signed mode, over reqwest.
    pub sdk_signed_reqwest: Client,
    raw: reqwest::Client,
    /// Hand-written on hyper-util's pooled client.
    pub hyper: RawHyper,
    product_url: String,
    zone_url: String,
    user_agent: String,
    body: CreateZoneRequest,
}

fn config(base: &str) -> Config {
    Config::new(base).sdk(SdkIdentity::new(
        "customer-cloud-sdk",
        "0.1.0",
        "2026-10-07.1",
    ))
}

/// The runtime's reqwest transport, as a client builds it behind a proxy.
fn reqwest_transport() -> Arc<dyn Transport> {
    Arc::new(ReqwestTransport::new(Some(Duration::from_secs(10))).expect("reqwest transport"))
}

fn no_timeouts() -> Timeouts {
    Timeouts {
        connect: Some(Duration::from_secs(10)),
        attempt: None,
        total: None,
    }
}

impl Paths {
    /// Builds all clients for `base` (e.g. `http://127.0.0.1:PORT`).
    pub fn new(base: &str) -> Self {
        let bearer = config(base).bearer(BEARER);
        let signed = config(base).signed(API_KEY, API_SECRET);
        let user_agent = bearer.effective_user_agent();
        Self {
            hyper: RawHyper::new(base, &user_agent),
            user_agent,
            sdk_bearer: Client::new(bearer.clone()).expect("sdk client"),
            sdk_bearer_no_timeouts: Client::new(bearer.clone().timeouts(no_timeouts()))
                .expect("sdk client"),
            sdk_signed: Client::new(signed.clone()).expect("sdk client"),
            sdk_bearer_reqwest: Client::new(bearer.clone().transport(reqwest_transport()))
                .expect("sdk client"),
            sdk_signed_reqwest: Client::new(signed.clone().transport(reqwest_transport()))
                .expect("sdk client"),
            sdk_signed_no_timeouts: Client::new(signed.timeouts(no_timeouts()))
                .expect("sdk client"),
            // The settings of the runtime's transports: reqwest's default connection pool (the
            // default hyper transport keeps hyper's, which reqwest's is), no redirects, the
            // connect timeout.
            raw: reqwest::Client::builder()
                .redirect(reqwest::redirect::Policy::none())
                .connect_timeout(Duration::from_secs(10))
                .build()
                .expect("reqwest"),
            product_url: format!("{base}/v1/products/{PRODUCT_ID}"),
            zone_url: format!("{base}/v1/dns/zones"),
            body: create_zone_request(),
        }
    }

    /// SDK: `GET /v1/products/{id}` decoded as [`Product`].
    pub async fn sdk_get(&self, client: &Client) -> Product {
        let mut request = Request::new(&GET_PRODUCT);
        request.path_param("id", &PRODUCT_ID);
        client
            .execute::<Product>(request, CallOptions::default())
            .await
            .expect("sdk get")
            .into_body()
    }

    /// Hand-written: the same GET with reqwest.
    pub async fn raw_get(&self) -> Product {
        let response = self.raw_get_request().send().await.expect("raw get");
        assert!(response.status().is_success());
        let bytes = response.bytes().await.expect("raw body");
        serde_json::from_slice(&bytes).expect("product json")
    }

    /// The hand-written GET, built but not sent.
    pub fn raw_get_request(&self) -> reqwest::RequestBuilder {
        self.raw
            .get(&self.product_url)
            .header(USER_AGENT, &self.user_agent)
            .header(ACCEPT, "application/json")
            .header(AUTHORIZATION, format!("Bearer {BEARER}"))
    }

    /// SDK: signed `POST /v1/dns/zones` (generated idempotency key) decoded as [`Zone`].
    pub async fn sdk_post(&self, client: &Client) -> Zone {
        let mut request = Request::new(&CREATE_ZONE);
        request.json_body(&self.body);
        client
            .execute::<Zone>(request, CallOptions::default())
            .await
            .expect("sdk post")
            .into_body()
    }

    /// Hand-written: the same signed POST with reqwest (same canonical string and headers).
    pub async fn raw_post(&self) -> Zone {
        let response = self.raw_post_request().send().await.expect("raw post");
        assert!(response.status().is_success());
        let bytes = response.bytes().await.expect("raw body");
        serde_json::from_slice(&bytes).expect("zone json")
    }

    /// The hand-written signed POST (serialized, hashed, signed), built but not sent.
    pub fn raw_post_request(&self) -> reqwest::RequestBuilder {
        let body = serde_json::to_vec(&self.body).expect("body");
        let signed = Signed::new(&body);
        self.raw
            .post(&self.zone_url)
            .header(USER_AGENT, &self.user_agent)
            .header(ACCEPT, "application/json")
            .header("idempotency-key", signed.key)
            .header(CONTENT_TYPE, "application/json")
            .header("x-api-key", API_KEY)
            .header("x-ts", signed.ts)
            .header("x-nonce", signed.nonce)
            .header("x-content-sha256", signed.hash)
            .header("x-signature", signed.signature)
            .body(body)
    }

    /// Hand-written on raw hyper: the same GET.
    pub async fn raw_hyper_get(&self) -> Product {
        self.hyper.get().await
    }

    /// Hand-written on raw hyper: the same signed POST.
    pub async fn raw_hyper_post(&self) -> Zone {
        self.hyper.post(&self.body).await
    }
}

/// A transport that answers every request at once with canned bytes (no I/O): it isolates the
/// SDK's own per-request work (assembly, signing, headers, timers, retry loop, decoding).
#[derive(Debug)]
pub struct CannedTransport {
    product: Bytes,
    zone: Bytes,
}

impl CannedTransport {
    /// Answers GETs with the product and everything else with 201 and the zone.
    pub fn new() -> Self {
        Self {
            product: Bytes::from(serde_json::to_vec(&product()).expect("json")),
            zone: Bytes::from(serde_json::to_vec(&zone()).expect("json")),
        }
    }
}

impl Default for CannedTransport {
    fn default() -> Self {
        Self::new()
    }
}

impl Transport for CannedTransport {
    fn send(&self, request: HttpRequest) -> BoxFuture<'_, Result<HttpResponse, TransportError>> {
        let (status, body) = if request.method == http::Method::GET {
            (200, self.product.clone())
        } else {
            (201, self.zone.clone())
        };
        std::hint::black_box(&request);
        let mut headers = http::HeaderMap::new();
        headers.insert(
            http::header::CONTENT_TYPE,
            http::HeaderValue::from_static("application/json"),
        );
        headers.insert(
            "x-request-id",
            http::HeaderValue::from_static("req_01HV6Z8Y3N4Q5R6S7T8U9V0W1X"),
        );
        Box::pin(async move {
            Ok(HttpResponse {
                status,
                headers,
                body,
            })
        })
    }
}

/// The SDK with [`CannedTransport`] against the hand-written path's non-network work (build the
/// reqwest request without sending it, parse the same bytes).
pub struct NoNetwork {
    /// SDK, bearer, default config.
    pub sdk_bearer: Client,
    /// SDK, bearer, no attempt/total timeouts.
    pub sdk_bearer_no_timeouts: Client,
    /// SDK, signed, default config.
    pub sdk_signed: Client,
    /// Shared request paths (for the hand-written request building).
    pub paths: Paths,
    product: Bytes,
    zone: Bytes,
}

impl NoNetwork {
    /// Builds the clients (base URL is never contacted).
    pub fn new() -> Self {
        let base = "http://127.0.0.1:9";
        let canned: Arc<dyn Transport> = Arc::new(CannedTransport::new());
        let bearer = config(base).bearer(BEARER).transport(canned.clone());
        Self {
            sdk_bearer: Client::new(bearer.clone()).expect("client"),
            sdk_bearer_no_timeouts: Client::new(bearer.clone().timeouts(no_timeouts()))
                .expect("client"),
            sdk_signed: Client::new(config(base).signed(API_KEY, API_SECRET).transport(canned))
                .expect("client"),
            paths: Paths::new(base),
            product: Bytes::from(serde_json::to_vec(&product()).expect("json")),
            zone: Bytes::from(serde_json::to_vec(&zone()).expect("json")),
        }
    }

    /// Hand-written GET without the network: build the reqwest request, parse the canned body.
    pub fn raw_get(&self) -> Product {
        let request = self.paths.raw_get_request().build().expect("request");
        std::hint::black_box(&request);
        serde_json::from_slice(&self.product).expect("product")
    }

    /// Only decoding the canned GET body: the part of a call both paths must do.
    pub fn decode_get(&self) -> Product {
        serde_json::from_slice(&self.product).expect("product")
    }

    /// Only decoding the canned POST answer.
    pub fn decode_post(&self) -> Zone {
        serde_json::from_slice(&self.zone).expect("zone")
    }

    /// Hand-written signed POST without the network.
    pub fn raw_post(&self) -> Zone {
        let request = self.paths.raw_post_request().build().expect("request");
        std::hint::black_box(&request);
        serde_json::from_slice(&self.zone).expect("zone")
    }
}

impl Default for NoNetwork {
    fn default() -> Self {
        Self::new()
    }
}

/// Sends each request once through a capturing server and panics unless the SDK and each
/// hand-written twin (reqwest, raw hyper) sent the same method, target, header names in the
/// same order with the same value lengths, and body. This is a check of the comparison, not of
/// timings. Run it inside a tokio runtime.
pub async fn check_identical_requests() {
    let log = CaptureLog::default();
    let base = start(ItemsConfig::default(), Some(log.clone())).await;
    let paths = Paths::new(&base);
    paths.sdk_get(&paths.sdk_bearer).await;
    paths.raw_get().await;
    paths.raw_hyper_get().await;
    paths.sdk_post(&paths.sdk_signed).await;
    paths.raw_post().await;
    paths.raw_hyper_post().await;
    let seen = log.lock().expect("log").clone();
    assert_eq!(seen.len(), 6);
    assert_eq!(seen[0], seen[1], "GET: the SDK and raw reqwest differ");
    assert_eq!(seen[0], seen[2], "GET: the SDK and raw hyper differ");
    assert_eq!(seen[3], seen[4], "POST: the SDK and raw reqwest differ");
    assert_eq!(seen[3], seen[5], "POST: the SDK and raw hyper differ");
}

#[cfg(test)]
mod tests {
    /// The SDK and the hand-written baseline keep sending the same bytes (no timing involved).
    #[tokio::test]
    async fn sdk_and_baseline_send_identical_requests() {
        super::check_identical_requests().await;
    }
}
