//! The shapes of an answer: JSON, the error envelope, a stored (or replayed) response, and the
//! edge's HTML error page.

use axum::body::Body;
use http::{HeaderValue, Response, StatusCode, header};

use crate::errors::ApiError;
use crate::idempotency::StoredResponse;

/// A JSON answer of `status` with these body bytes.
fn json(status: u16, body: impl Into<Body>) -> Response<Body> {
    let mut r = Response::new(body.into());
    *r.status_mut() = StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    r.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    r
}

/// The error envelope of `e`, with its `Retry-After`.
pub(super) fn error(e: &ApiError, request_id: &str) -> Response<Body> {
    let mut r = json(
        e.status,
        serde_json::to_vec(&e.body(request_id)).unwrap_or_default(),
    );
    if let Some(s) = e.retry_after {
        r.headers_mut()
            .insert(header::RETRY_AFTER, HeaderValue::from(s));
    }
    r
}

/// A handler's serialized reply.
pub(super) fn stored(sent: &StoredResponse) -> Response<Body> {
    json(sent.status, sent.body.clone())
}

/// A stored response replayed for a retry, marked `idempotent-replayed: true`.
pub(super) fn replay(stored: &StoredResponse) -> Response<Body> {
    let mut r = self::stored(stored);
    r.headers_mut()
        .insert("idempotent-replayed", HeaderValue::from_static("true"));
    r
}

/// The edge's non-JSON 502 page.
pub(super) fn edge_html() -> Response<Body> {
    let html = "<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>edge</center></body></html>\n";
    let mut r = Response::new(Body::from(html));
    *r.status_mut() = StatusCode::BAD_GATEWAY;
    r.headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static("text/html"));
    r
}
