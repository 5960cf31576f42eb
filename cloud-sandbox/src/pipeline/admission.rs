//! The steps before a handler runs: nothing has been committed yet, so each may answer early.

use openapi_conventions::headers;
use std::collections::HashMap;

use axum::body::Body;
use bytes::Bytes;
use http::{HeaderMap, Request};

use super::Conn;
use super::Stop;
use crate::auth::{AuthInput, Credential, check_scopes};
use crate::errors::ApiError;
use crate::faults::{Fault, FaultTarget};
use crate::handlers::Ctx;
use crate::journal::RequestRecord;
use crate::ratelimit::Verdict;
use crate::shared::Shared;
use crate::spec::{Operation, percent_decode};
use crate::validate::valid_client_request_id;

/// Largest body the sandbox reads.
const MAX_BODY_BYTES: usize = 4 * 1024 * 1024;

/// A request with its body read, in the forms the steps look at.
pub(super) struct Incoming {
    /// Uppercase method.
    pub method: String,
    /// Path without query.
    pub path: String,
    /// Path and query exactly as received (what a signature covers).
    pub path_and_query: String,
    /// Raw query string (empty when none).
    pub raw_query: String,
    /// Decoded query pairs, in order.
    pub query: Vec<(String, String)>,
    /// Request headers.
    pub headers: HeaderMap,
    /// Exact body bytes.
    pub body: Bytes,
}

impl Incoming {
    /// A header's value, when it is text.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }
}

/// Reads the body (at most 4 MiB).
pub(super) async fn read_body(req: Request<Body>) -> Result<Incoming, Stop> {
    let (parts, body) = req.into_parts();
    let body = axum::body::to_bytes(body, MAX_BODY_BYTES)
        .await
        .map_err(|_| ApiError::invalid_field("body", "body too large"))?;
    let path = parts.uri.path().to_owned();
    let raw_query = parts.uri.query().unwrap_or("").to_owned();
    Ok(Incoming {
        method: parts.method.as_str().to_ascii_uppercase(),
        path_and_query: parts
            .uri
            .path_and_query()
            .map_or_else(|| path.clone(), |p| p.as_str().to_owned()),
        path,
        query: form_pairs(&raw_query),
        raw_query,
        headers: parts.headers,
        body,
    })
}

/// Draws this request's fault; the ones that strike before anything commits answer now, the
/// others are handed on.
pub(super) fn inject_fault(
    shared: &Shared,
    req: &Incoming,
    record: &mut RequestRecord,
) -> Result<Option<Fault>, Stop> {
    let query_key = req.query.iter().find(|(k, _)| k == "idempotency_key");
    let fault = shared.edge().faults.next_for(&FaultTarget {
        method: &req.method,
        path: &req.path,
        idempotency_key: req
            .header(headers::IDEMPOTENCY_KEY)
            .or(query_key.map(|(_, v)| v.as_str())),
    });
    record.fault = fault.clone();
    match fault {
        Some(Fault::Status(s)) => Err(ApiError::service_unavailable(s).into()),
        Some(Fault::EdgeHtml) => Err(Stop::EdgeHtml),
        Some(Fault::Error { status, code }) => Err(injected_error(status, &code).into()),
        Some(Fault::RateLimited { retry_after }) => Err(ApiError::rate_limited(retry_after).into()),
        other => Ok(other),
    }
}

/// The documented error a fault injects.
pub(super) fn injected_error(status: u16, code: &str) -> ApiError {
    ApiError::new(status, code, format!("Injected by the sandbox: {code}."))
}

/// Finds the spec operation serving the method and path, with its path parameters: 404 for an
/// unknown path, 405 for a known path with another method.
pub(super) fn route(
    shared: &Shared,
    req: &Incoming,
    record: &mut RequestRecord,
) -> Result<(Operation, HashMap<String, String>), Stop> {
    let Some((op, path_params)) = shared.spec.route(&req.method, &req.path) else {
        return Err(if shared.spec.has_path(&req.path) {
            ApiError::new(405, "method_not_allowed", "Method not allowed.").into()
        } else {
            ApiError::not_found("Route").into()
        });
    };
    record.operation_id = Some(op.operation_id.clone());
    Ok((op.clone(), path_params))
}

/// Authenticates an operation with security requirements and checks the credential's scopes.
pub(super) fn authenticate(
    shared: &Shared,
    conn: &Conn,
    req: &Incoming,
    op: &Operation,
    record: &mut RequestRecord,
) -> Result<Option<Credential>, Stop> {
    let Some(security) = &op.security else {
        return Ok(None);
    };
    let mut state = shared.state();
    let cred = state.auth.authenticate(&AuthInput {
        method: &req.method,
        path_and_query: &req.path_and_query,
        headers: &req.headers,
        body: &req.body,
        peer: conn.peer.ip(),
    })?;
    record.credential_id = Some(cred.id);
    if state.access_disabled {
        let msg = "API access is disabled for the account.";
        return Err(ApiError::new(403, "service_disabled", msg).into());
    }
    drop(state);
    check_scopes(&cred, security)?;
    Ok(Some(cred))
}

/// Counts the request in its credential's rate-limit window.
pub(super) fn count_request(shared: &Shared, cred: Option<&Credential>) -> Verdict {
    shared.edge().rate_limiter.check(cred.map(|c| c.id))
}

/// Answers 429 `rate_limited` when the window's budget is spent.
pub(super) fn enforce_rate_limit(verdict: &Verdict) -> Result<(), Stop> {
    if verdict.limited {
        return Err(ApiError::rate_limited(verdict.reset_secs).into());
    }
    Ok(())
}

/// Rejects a malformed `x-client-request-id`.
pub(super) fn check_client_request_id(req: &Incoming) -> Result<(), Stop> {
    match req.headers.get(headers::CLIENT_REQUEST_ID) {
        Some(v) if !v.to_str().is_ok_and(valid_client_request_id) => Err(ApiError::invalid_field(
            "header.x-client-request-id",
            "1 to 120 characters: a letter or digit, then letters, digits, dot, underscore, colon, hyphen",
        )
        .into()),
        _ => Ok(()),
    }
}

/// Validates parameters and body against the spec, and builds what the handler sees.
pub(super) fn validate(
    shared: &Shared,
    req: &Incoming,
    op: Operation,
    path: HashMap<String, String>,
    cred: Option<Credential>,
) -> Result<Ctx, Stop> {
    let body = shared
        .validators
        .check_request(&op, &path, &req.query, &req.headers, &req.body)?;
    Ok(Ctx {
        spec: shared.spec.clone(),
        operation_format: req.header(headers::RESPONSE_FORMAT)
            == Some(headers::RESPONSE_FORMAT_OPERATION),
        idem_key: req.header(headers::IDEMPOTENCY_KEY).map(str::to_owned),
        op,
        path,
        query: req.query.clone(),
        body,
        cred,
    })
}

/// Parses `a=1&b=x%20y` into decoded pairs.
fn form_pairs(q: &str) -> Vec<(String, String)> {
    q.split('&')
        .filter(|s| !s.is_empty())
        .map(|kv| {
            let (k, v) = kv.split_once('=').unwrap_or((kv, ""));
            let decode = |s: &str| percent_decode(&s.replace('+', " "));
            (decode(k), decode(v))
        })
        .collect()
}
