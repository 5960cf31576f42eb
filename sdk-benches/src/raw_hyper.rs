//! The floor of the SDK's own transport (issue #29): a hand-written request on hyper-util's
//! pooled client (`hyper_util::client::legacy::Client`) over a plain `HttpConnector`, doing the
//! same work as the SDK call and the reqwest twin (build the headers, sign, send, read the
//! whole body, decode it into the same type) and sending the same bytes.
//!
//! Like the SDK (and the reqwest twin), it turns a URL into an `http::Uri` on every call: the
//! GET's path carries the product id, a value only known at the call, so its URL is formatted
//! and parsed per call; the POST's URL is parsed from its text, as reqwest's twin does.
//!
//! The connector is set like the SDK's default transport (`TCP_NODELAY`, the connect
//! timeout, hyper's pool: idle connections kept 90 s), without the TLS layer the SDK's wraps
//! around it: the benchmarks speak `http://` to a loopback server, and the floor is what the
//! least code on hyper costs. [`crate::requests::check_identical_requests`] holds the "same
//! bytes" claim.

use std::time::Duration;

use bytes::Bytes;
use http::header::{ACCEPT, AUTHORIZATION, CONTENT_TYPE, USER_AGENT};
use http::{HeaderValue, Method, Request, Uri};
use http_body_util::{BodyExt, Full};
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;

use crate::credentials::{API_KEY, BEARER, Signed};
use crate::fixtures::{CreateZoneRequest, PRODUCT_ID, Product, Zone};

/// A raw hyper client for one base URL, and what its requests need.
pub struct RawHyper {
    client: Client<HttpConnector, Full<Bytes>>,
    base: String,
    zone_url: String,
    user_agent: HeaderValue,
}

impl RawHyper {
    /// A client for `base` (e.g. `http://127.0.0.1:PORT`) sending `user_agent`.
    pub fn new(base: &str, user_agent: &str) -> Self {
        let mut http = HttpConnector::new();
        http.set_connect_timeout(Some(Duration::from_secs(10)));
        http.set_nodelay(true);
        Self {
            client: Client::builder(TokioExecutor::new()).build(http),
            base: base.to_owned(),
            zone_url: format!("{base}/v1/dns/zones"),
            user_agent: HeaderValue::from_str(user_agent).expect("user agent"),
        }
    }

    /// `GET /v1/products/{id}` with the bearer token, decoded as [`Product`].
    pub async fn get(&self) -> Product {
        let url = format!("{}/v1/products/{}", self.base, PRODUCT_ID);
        let request = Request::builder()
            .method(Method::GET)
            .uri(Uri::try_from(url).expect("product URI"))
            .header(USER_AGENT, self.user_agent.clone())
            .header(ACCEPT, HeaderValue::from_static("application/json"))
            .header(AUTHORIZATION, format!("Bearer {BEARER}"))
            .body(Full::new(Bytes::new()))
            .expect("request");
        let body = self.send(request).await;
        serde_json::from_slice(&body).expect("product json")
    }

    /// The signed `POST /v1/dns/zones` of `body` (fresh idempotency key), decoded as [`Zone`].
    pub async fn post(&self, body: &CreateZoneRequest) -> Zone {
        let bytes = serde_json::to_vec(body).expect("body");
        let signed = Signed::new(&bytes);
        let request = Request::builder()
            .method(Method::POST)
            .uri(Uri::try_from(self.zone_url.as_str()).expect("zone URI"))
            .header(USER_AGENT, self.user_agent.clone())
            .header(ACCEPT, HeaderValue::from_static("application/json"))
            .header("idempotency-key", signed.key)
            .header(CONTENT_TYPE, HeaderValue::from_static("application/json"))
            .header("x-api-key", HeaderValue::from_static(API_KEY))
            .header("x-ts", signed.ts)
            .header("x-nonce", signed.nonce)
            .header("x-content-sha256", signed.hash)
            .header("x-signature", signed.signature)
            .body(Full::new(Bytes::from(bytes)))
            .expect("request");
        let body = self.send(request).await;
        serde_json::from_slice(&body).expect("zone json")
    }

    /// Sends `request` and reads the whole body of a successful answer.
    async fn send(&self, request: Request<Full<Bytes>>) -> Bytes {
        let response = self.client.request(request).await.expect("raw hyper send");
        assert!(response.status().is_success());
        response
            .into_body()
            .collect()
            .await
            .expect("raw hyper body")
            .to_bytes()
    }
}
