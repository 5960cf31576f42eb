//! A minimal axum loopback server, spawned on the caller's tokio runtime (benchmarks use a
//! `current_thread` runtime shared by client and server: on 2 vCPUs two unpinned processes
//! measure ~4x slower and far noisier).
//!
//! Routes (answers are prebuilt bytes, so the server costs the same for every client):
//! * `GET /v1/products/{id}`: the 324-byte [`product`] JSON;
//! * `POST /v1/dns/zones`: reads the body, answers 201 with the [`zone`];
//! * `GET /v1/items?page=N`: page `N` of [`ItemsConfig::total`] items, page model.

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use axum::Router;
use axum::body::Bytes;
use axum::extract::{Query, Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde::Deserialize;

use crate::fixtures::{ItemPage, item, product, zone};

/// The `current_thread` tokio runtime (IO and timers on) that a benchmark's client and this
/// server share.
pub fn current_thread_runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("tokio runtime")
}

/// Size of `GET /v1/items`.
#[derive(Clone, Copy, Debug)]
pub struct ItemsConfig {
    /// Items across all pages.
    pub total: u64,
    /// Items per page.
    pub per_page: u64,
}

impl Default for ItemsConfig {
    fn default() -> Self {
        Self {
            total: 100_000,
            per_page: 1_000,
        }
    }
}

impl ItemsConfig {
    /// Number of pages.
    pub fn pages(&self) -> u64 {
        self.total.div_ceil(self.per_page)
    }

    /// The JSON bytes of page `page` (1-based), as served.
    pub fn render(&self, page: u64) -> Vec<u8> {
        let start = (page.saturating_sub(1)) * self.per_page;
        let end = (start + self.per_page).min(self.total);
        let body = ItemPage {
            items: (start..end).map(item).collect(),
            page: Some(page),
            pages: Some(self.pages()),
        };
        serde_json::to_vec(&body).expect("serializable")
    }
}

#[derive(Clone)]
struct AppState {
    product: Bytes,
    zone: Bytes,
    items: ItemsConfig,
}

/// What the capturing server saw of one request (to check that two clients send the same bytes).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Captured {
    /// Method.
    pub method: String,
    /// Path and query.
    pub target: String,
    /// Header names in arrival order with the length of each value (values differ: nonces).
    pub headers: Vec<(String, usize)>,
    /// Body bytes.
    pub body: Vec<u8>,
}

/// Requests seen by a capturing server.
pub type CaptureLog = Arc<Mutex<Vec<Captured>>>;

fn json(status: StatusCode, body: Bytes) -> Response {
    let mut response = (status, body).into_response();
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    headers.insert(
        "x-request-id",
        HeaderValue::from_static("req_01HV6Z8Y3N4Q5R6S7T8U9V0W1X"),
    );
    response
}

async fn get_product(State(state): State<AppState>) -> Response {
    json(StatusCode::OK, state.product.clone())
}

async fn create_zone(State(state): State<AppState>, body: Bytes) -> Response {
    std::hint::black_box(&body);
    json(StatusCode::CREATED, state.zone.clone())
}

#[derive(Deserialize)]
struct PageQuery {
    page: Option<u64>,
}

async fn list_items(State(state): State<AppState>, Query(q): Query<PageQuery>) -> Response {
    json(
        StatusCode::OK,
        Bytes::from(state.items.render(q.page.unwrap_or(1))),
    )
}

async fn capture(State(log): State<CaptureLog>, request: Request, next: Next) -> Response {
    let (parts, body) = request.into_parts();
    let bytes = axum::body::to_bytes(body, usize::MAX)
        .await
        .unwrap_or_default();
    log.lock().expect("capture log").push(Captured {
        method: parts.method.to_string(),
        target: parts
            .uri
            .path_and_query()
            .map(|p| p.to_string())
            .unwrap_or_default(),
        headers: parts
            .headers
            .iter()
            .map(|(n, v)| (n.to_string(), v.len()))
            .collect(),
        body: bytes.to_vec(),
    });
    next.run(Request::from_parts(parts, axum::body::Body::from(bytes)))
        .await
}

/// Starts the server on `127.0.0.1:0` on the current tokio runtime and returns its base URL
/// (`http://127.0.0.1:PORT`). With `log`, every request is recorded first.
pub async fn start(items: ItemsConfig, log: Option<CaptureLog>) -> String {
    let state = AppState {
        product: Bytes::from(serde_json::to_vec(&product()).expect("serializable")),
        zone: Bytes::from(serde_json::to_vec(&zone()).expect("serializable")),
        items,
    };
    let mut app = Router::new()
        .route("/v1/products/{id}", get(get_product))
        .route("/v1/dns/zones", post(create_zone))
        .route("/v1/items", get(list_items))
        .with_state(state);
    if let Some(log) = log {
        app = app.layer(middleware::from_fn_with_state(log, capture));
    }
    let listener = tokio::net::TcpListener::bind(SocketAddr::from(([127, 0, 0, 1], 0)))
        .await
        .expect("bind loopback");
    let addr = listener.local_addr().expect("local addr");
    tokio::spawn(async move {
        axum::serve(listener, app).await.expect("serve");
    });
    format!("http://{addr}")
}
