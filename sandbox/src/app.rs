//! The HTTP front: accepts connections (with a per-connection kill switch for the
//! drop-after-commit fault), and runs every request through fault injection, authentication,
//! rate limiting, scope checks, validation, idempotency and the handler.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use axum::body::Body;
use bytes::Bytes;
use http::{HeaderMap, HeaderValue, Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use serde_json::Value;
use tokio::net::TcpListener;
use tokio::sync::Notify;

use crate::async_operations::{OpStatus, Progression};
use crate::auth::{AuthInput, AuthStore, Credential, check_scopes};
use crate::errors::ApiError;
use crate::faults::{Fault, FaultPlan, FaultTarget};
use crate::idempotency::{Begin, IdempotencyStore, StoredResponse, fingerprint};
use crate::ratelimit::{RateLimiter, Verdict};
use crate::seed::SeededCredentials;
use crate::spec::{Operation, Spec};
use crate::state::State;
use crate::validate::{Validators, valid_client_request_id};

/// Everything one sandbox holds.
#[derive(Debug)]
pub struct Inner {
    /// The contract.
    pub spec: Arc<Spec>,
    /// Its validators.
    pub validators: Arc<Validators>,
    /// The ledger.
    pub state: Mutex<State>,
    /// Credentials and nonces.
    pub auth: Mutex<AuthStore>,
    /// Idempotency store.
    pub idem: Mutex<IdempotencyStore>,
    /// Fault plan.
    pub faults: Mutex<FaultPlan>,
    /// Rate limiter.
    pub rate: Mutex<RateLimiter>,
    /// How operations advance.
    pub progression: Mutex<Progression>,
    /// Terminal status new operations reach.
    pub outcome: Mutex<OpStatus>,
    /// The seeded credentials.
    pub seeded: SeededCredentials,
    /// Successful responses that did not match their spec schema: (operationId, errors).
    pub violations: Mutex<Vec<(String, String)>>,
    /// Every request received, in the order their handling finished (see [`RequestRecord`]).
    pub log: Mutex<Vec<RequestRecord>>,
}

/// One request as the sandbox saw it: for tests that assert on what reached the server
/// (coverage of operations, spacing of retries after 429, faults hit).
#[derive(Clone, Debug)]
pub struct RequestRecord {
    /// When the request arrived (before its body was read).
    pub received_at: Instant,
    /// When the response was handed to the connection; `None` when no response was sent
    /// (drop-after-commit fault, or the client went away first).
    pub responded_at: Option<Instant>,
    /// Uppercase method.
    pub method: String,
    /// Path without query.
    pub path: String,
    /// Raw query string (empty when none).
    pub query: String,
    /// The matched operation's `operationId`, `None` when no route matched (or a fault answered
    /// before routing).
    pub operation_id: Option<String>,
    /// HTTP status sent; 0 when no response was sent.
    pub status: u16,
    /// `Retry-After` sent, in seconds.
    pub retry_after: Option<u64>,
    /// The authenticated credential.
    pub credential_id: Option<uuid::Uuid>,
    /// `Idempotency-Key` header.
    pub idempotency_key: Option<String>,
    /// `x-client-request-id` header.
    pub client_request_id: Option<String>,
    /// The fault injected into this request, if any.
    pub fault: Option<Fault>,
    /// The response was a stored idempotent replay.
    pub replayed: bool,
}

impl RequestRecord {
    /// Whether the status is 2xx.
    pub fn succeeded(&self) -> bool {
        (200..300).contains(&self.status)
    }
}

/// Pushes the record into the log when the request's handling ends, however it ends.
struct LogGuard {
    inner: Arc<Inner>,
    record: Option<RequestRecord>,
}

impl Drop for LogGuard {
    fn drop(&mut self) {
        if let Some(r) = self.record.take() {
            self.inner
                .log
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(r);
        }
    }
}

/// What a handler sees.
#[derive(Debug)]
pub struct Ctx {
    /// The matched operation.
    pub op: Operation,
    /// Path parameters by name.
    pub path: HashMap<String, String>,
    /// Query pairs in order.
    pub query: Vec<(String, String)>,
    /// Request headers.
    pub headers: HeaderMap,
    /// Parsed, validated JSON body.
    pub body: Option<Value>,
    /// The authenticated credential.
    pub cred: Option<Credential>,
    /// `x-svc-response-format: operation` was sent.
    pub operation_format: bool,
    /// The Idempotency-Key, if any.
    pub idem_key: Option<String>,
}

impl Ctx {
    /// First value of a query parameter.
    pub fn q(&self, name: &str) -> Option<&str> {
        self.query
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// A path parameter (empty when absent).
    pub fn p(&self, name: &str) -> &str {
        self.path.get(name).map_or("", String::as_str)
    }

    /// The `n`-th path parameter in template order.
    pub fn pn(&self, n: usize) -> &str {
        let name = self
            .op
            .path
            .split('/')
            .filter(|s| s.starts_with('{'))
            .nth(n)
            .unwrap_or("")
            .trim_matches(|c| c == '{' || c == '}');
        self.p(name)
    }
}

/// A successful handler answer.
#[derive(Debug)]
pub struct Reply {
    /// HTTP status.
    pub status: u16,
    /// JSON body.
    pub body: Value,
}

impl Reply {
    /// 200 with `body`.
    pub fn ok(body: Value) -> Self {
        Self { status: 200, body }
    }
}

/// A hand-written or generic handler.
pub type Handler = fn(&Inner, &Ctx) -> Result<Reply, ApiError>;

/// Per-connection context inserted into each request.
#[derive(Clone)]
struct Conn {
    peer: SocketAddr,
    kill: Arc<Notify>,
}

/// Accepts connections until `shutdown` is notified.
pub async fn serve(listener: TcpListener, inner: Arc<Inner>, shutdown: Arc<Notify>) {
    loop {
        let (stream, peer) = tokio::select! {
            r = listener.accept() => match r { Ok(x) => x, Err(_) => continue },
            () = shutdown.notified() => return,
        };
        let inner = inner.clone();
        let shutdown = shutdown.clone();
        tokio::spawn(async move {
            let conn = Conn {
                peer,
                kill: Arc::new(Notify::new()),
            };
            let kill = conn.kill.clone();
            let svc = hyper::service::service_fn(move |req: Request<hyper::body::Incoming>| {
                let inner = inner.clone();
                let conn = conn.clone();
                async move {
                    Ok::<_, std::convert::Infallible>(handle(inner, conn, req.map(Body::new)).await)
                }
            });
            let http = hyper::server::conn::http1::Builder::new()
                .serve_connection(TokioIo::new(stream), svc);
            tokio::select! {
                _ = http => {}
                () = kill.notified() => {}
                () = shutdown.notified() => {}
            }
        });
    }
}

fn json_response(status: u16, body: &Value) -> Response<Body> {
    let mut r = Response::new(Body::from(serde_json::to_vec(body).unwrap_or_default()));
    *r.status_mut() = StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    r.headers_mut().insert(
        http::header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    r
}

fn error_response(e: &ApiError, request_id: &str) -> Response<Body> {
    let mut r = json_response(e.status, &e.body(request_id));
    if let Some(s) = e.retry_after {
        r.headers_mut()
            .insert(http::header::RETRY_AFTER, HeaderValue::from(s));
    }
    r
}

fn edge_html() -> Response<Body> {
    let html = "<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>edge</center></body></html>\n";
    let mut r = Response::new(Body::from(html));
    *r.status_mut() = StatusCode::BAD_GATEWAY;
    r.headers_mut().insert(
        http::header::CONTENT_TYPE,
        HeaderValue::from_static("text/html"),
    );
    r
}

fn header_owned(headers: &HeaderMap, name: &str) -> Option<String> {
    headers
        .get(name)
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned)
}

async fn handle(inner: Arc<Inner>, conn: Conn, req: Request<Body>) -> Response<Body> {
    let request_id = uuid::Uuid::new_v4().to_string();
    let idempotency_key = header_owned(req.headers(), "idempotency-key");
    let client_request_id = header_owned(req.headers(), "x-client-request-id");
    let mut guard = LogGuard {
        inner: inner.clone(),
        record: Some(RequestRecord {
            received_at: Instant::now(),
            responded_at: None,
            method: req.method().as_str().to_ascii_uppercase(),
            path: req.uri().path().to_owned(),
            query: req.uri().query().unwrap_or("").to_owned(),
            operation_id: None,
            status: 0,
            retry_after: None,
            credential_id: None,
            idempotency_key,
            client_request_id,
            fault: None,
            replayed: false,
        }),
    };
    let (mut resp, verdict) = {
        let record = guard.record.as_mut().expect("set above");
        run(inner, &conn, req, &request_id, record).await
    };
    if let Some(r) = guard.record.as_mut() {
        r.status = resp.status().as_u16();
        r.retry_after = resp
            .headers()
            .get(http::header::RETRY_AFTER)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse().ok());
        r.replayed = resp.headers().contains_key("idempotent-replayed");
        r.responded_at = Some(Instant::now());
    }
    drop(guard);
    let h = resp.headers_mut();
    if let Ok(v) = HeaderValue::from_str(&request_id) {
        h.insert("x-request-id", v);
    }
    if let Some(v) = verdict {
        for (name, value) in v.headers() {
            if let Ok(value) = HeaderValue::from_str(&value) {
                h.insert(name, value);
            }
        }
    }
    resp
}

async fn run(
    inner: Arc<Inner>,
    conn: &Conn,
    req: Request<Body>,
    request_id: &str,
    record: &mut RequestRecord,
) -> (Response<Body>, Option<Verdict>) {
    let (parts, body) = req.into_parts();
    let method = parts.method.as_str().to_ascii_uppercase();
    let path = parts.uri.path().to_owned();
    let path_and_query = parts
        .uri
        .path_and_query()
        .map_or(path.clone(), |p| p.as_str().to_owned());
    let raw_query = parts.uri.query().unwrap_or("").to_owned();
    let body: Bytes = match axum::body::to_bytes(body, 4 * 1024 * 1024).await {
        Ok(b) => b,
        Err(_) => {
            return (
                error_response(
                    &ApiError::invalid_field("body", "body too large"),
                    request_id,
                ),
                None,
            );
        }
    };
    let query_key = form_pairs(&raw_query)
        .into_iter()
        .find(|(k, _)| k == "idempotency_key")
        .map(|(_, v)| v);
    let fault = {
        let key = record.idempotency_key.as_deref().or(query_key.as_deref());
        inner.faults.lock().unwrap().next_for(&FaultTarget {
            method: &method,
            path: &path,
            idempotency_key: key,
        })
    };
    record.fault = fault.clone();
    match &fault {
        Some(Fault::Status(s)) => {
            return (
                error_response(&ApiError::service_unavailable(*s), request_id),
                None,
            );
        }
        Some(Fault::EdgeHtml) => return (edge_html(), None),
        Some(Fault::RateLimited { retry_after }) => {
            let e = ApiError::new(429, "rate_limited", "The key reached its request limit.")
                .with_retry_after(*retry_after);
            return (error_response(&e, request_id), None);
        }
        _ => {}
    }
    let Some((op, path_params)) = inner.spec.route(&method, &path) else {
        let e = if inner.spec.has_path(&path) {
            ApiError::new(405, "method_not_allowed", "Method not allowed.")
        } else {
            ApiError::not_found("Route")
        };
        return (error_response(&e, request_id), None);
    };
    let op = op.clone();
    record.operation_id = Some(op.operation_id.clone());
    // Authentication, rate limit, scopes.
    let cred = if let Some(security) = &op.security {
        let input = AuthInput {
            method: &method,
            path_and_query: &path_and_query,
            headers: &parts.headers,
            body: &body,
            peer: conn.peer.ip(),
        };
        let authed = inner.auth.lock().unwrap().authenticate(&input);
        match authed {
            Ok(c) => {
                record.credential_id = Some(c.id);
                if let Err(e) = check_scopes(&c, security) {
                    return (error_response(&e, request_id), None);
                }
                Some(c)
            }
            Err(e) => return (error_response(&e, request_id), None),
        }
    } else {
        None
    };
    let verdict = inner
        .rate
        .lock()
        .unwrap()
        .check(cred.as_ref().map(|c| c.id));
    if verdict.limited {
        let e = ApiError::new(429, "rate_limited", "The key reached its request limit.")
            .with_retry_after(verdict.reset_secs);
        return (error_response(&e, request_id), Some(verdict));
    }
    let verdict = Some(verdict);
    if let Some(v) = parts.headers.get("x-client-request-id")
        && !v.to_str().is_ok_and(valid_client_request_id)
    {
        let e = ApiError::invalid_field(
            "header.x-client-request-id",
            "1 to 120 characters: a letter or digit, then letters, digits, dot, underscore, colon, hyphen",
        );
        return (error_response(&e, request_id), verdict);
    }
    let query: Vec<(String, String)> = form_pairs(&raw_query);
    let parsed =
        match inner
            .validators
            .check_request(&op, &path_params, &query, &parts.headers, &body)
        {
            Ok(b) => b,
            Err(e) => return (error_response(&e, request_id), verdict),
        };
    let idem_key = parts
        .headers
        .get("idempotency-key")
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    let ctx = Ctx {
        operation_format: parts
            .headers
            .get("x-svc-response-format")
            .is_some_and(|v| v.as_bytes() == b"operation"),
        op,
        path: path_params,
        query,
        headers: parts.headers.clone(),
        body: parsed,
        cred,
        idem_key: idem_key.clone(),
    };
    let store_key = match (&ctx.cred, &idem_key) {
        (Some(c), Some(k)) if ctx.op.is_write() => {
            Some((c.id, method.clone(), path.clone(), k.clone()))
        }
        _ => None,
    };
    if let Some(sk) = &store_key {
        let begun = inner
            .idem
            .lock()
            .unwrap()
            .begin(sk, fingerprint(&raw_query, &body));
        match begun {
            Ok(Begin::Run) => {}
            Ok(Begin::Replay(stored)) => {
                let mut r = Response::new(Body::from(stored.body));
                *r.status_mut() = StatusCode::from_u16(stored.status).unwrap_or(StatusCode::OK);
                r.headers_mut().insert(
                    http::header::CONTENT_TYPE,
                    HeaderValue::from_static("application/json"),
                );
                r.headers_mut()
                    .insert("idempotent-replayed", HeaderValue::from_static("true"));
                return (r, verdict);
            }
            Err(e) => return (error_response(&e, request_id), verdict),
        }
    }
    // The write runs to completion in its own task, whatever happens to the connection.
    let task_inner = inner.clone();
    let task_fault = fault.clone();
    let rid = request_id.to_owned();
    let job = tokio::spawn(async move {
        let inner = task_inner;
        let handler = crate::handlers::handler_for(&ctx.op.key);
        let result = handler(&inner, &ctx);
        if let Ok(reply) = &result {
            let errs = inner.validators.check_response(&ctx.op, &reply.body);
            if !errs.is_empty() {
                let msg = errs
                    .iter()
                    .map(|e| format!("{}: {}", e.field, e.message))
                    .collect::<Vec<_>>()
                    .join("; ");
                tracing::warn!(
                    "response of {} violates the spec: {msg}",
                    ctx.op.operation_id
                );
                inner
                    .violations
                    .lock()
                    .unwrap()
                    .push((ctx.op.operation_id.clone(), msg));
            }
        }
        if let (Ok(reply), Some(k)) = (&result, &ctx.idem_key)
            && ctx.op.is_write()
            && (200..300).contains(&reply.status)
        {
            let mut st = inner.state.lock().unwrap();
            *st.applied.entry(k.clone()).or_default() += 1;
            st.writes += 1;
        }
        if let Some(Fault::Delay(d)) = &task_fault {
            tokio::time::sleep(*d).await;
        }
        let (status, bytes) = match &result {
            Ok(reply) => (
                reply.status,
                Bytes::from(serde_json::to_vec(&reply.body).unwrap_or_default()),
            ),
            Err(e) => (
                e.status,
                Bytes::from(serde_json::to_vec(&e.body(&rid)).unwrap_or_default()),
            ),
        };
        if let Some(sk) = &store_key {
            inner.idem.lock().unwrap().finish(
                sk,
                Some(StoredResponse {
                    status,
                    body: bytes.clone(),
                }),
            );
        }
        (status, bytes, result.err())
    });
    let Ok((status, bytes, err)) = job.await else {
        return (
            error_response(&ApiError::service_unavailable(500), request_id),
            verdict,
        );
    };
    match fault {
        Some(Fault::DropAfterCommit) => {
            conn.kill.notify_one();
            std::future::pending::<()>().await;
            unreachable!()
        }
        Some(Fault::StatusAfterCommit(s)) => {
            return (
                error_response(&ApiError::service_unavailable(s), request_id),
                verdict,
            );
        }
        _ => {}
    }
    if let Some(e) = err {
        return (error_response(&e, request_id), verdict);
    }
    let mut r = Response::new(Body::from(bytes));
    *r.status_mut() = StatusCode::from_u16(status).unwrap_or(StatusCode::OK);
    r.headers_mut().insert(
        http::header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    (r, verdict)
}

/// Parses `a=1&b=x%20y` into decoded pairs.
pub fn form_pairs(q: &str) -> Vec<(String, String)> {
    q.split('&')
        .filter(|s| !s.is_empty())
        .map(|kv| {
            let (k, v) = kv.split_once('=').unwrap_or((kv, ""));
            let d = |s: &str| crate::spec::percent_decode(&s.replace('+', " "));
            (d(k), d(v))
        })
        .collect()
}
