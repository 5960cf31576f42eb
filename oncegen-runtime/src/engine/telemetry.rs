//! One `tracing` span per call, with OpenTelemetry HTTP client field names where they apply
//! (`http.request.method`, `url.template`, `server.address`, `server.port`,
//! `http.response.status_code`, `http.request.resend_count`, `error.type`; `otel.name` and
//! `otel.kind` for `tracing-opentelemetry`; the idempotency key, client request id and the
//! server's request id as OpenTelemetry header attributes, `http.request.header.idempotency-key`,
//! `http.request.header.x-client-request-id` and `http.response.header.x-request-id`), and the
//! SDK's own: `operation.id`, `attempts` and `outcome` (`ok` or `error`).
//!
//! The span is named `sdk.call` at `INFO` level; attempts are `DEBUG` events inside it. No
//! header, body or credential is recorded. Without a subscriber that wants the span (tracing's
//! `Span::is_disabled`) nothing is recorded on it at all, and without a `log` logger that takes
//! INFO records either (tracing's `log` fallback) its fields are not even built: a call pays
//! two atomic loads for its span.

use tracing::Span;
use tracing::field::Empty;

use crate::auth::endpoint::Endpoint;
use crate::engine::prepare::Prepared;
use crate::error::Error;
use crate::header_names;
use crate::transport::HttpResponse;

/// The span of one call.
pub(crate) fn call_span(p: &Prepared, endpoint: &Endpoint) -> Span {
    // With tracing's `log` feature (on in most dependency trees) and no subscriber ever set, a
    // disabled span still builds its fields for a `log` logger. When neither a subscriber nor
    // a logger takes INFO, the span is disabled and nobody reads them: skip building them.
    if !tracing::level_enabled!(tracing::Level::INFO) && log::max_level() < log::LevelFilter::Info {
        return Span::none();
    }
    // An operation with its own server goes elsewhere than the base URL.
    let own_server;
    let (host, port) = if p.url.as_str().starts_with(&endpoint.base) {
        (endpoint.host.as_str(), endpoint.port)
    } else {
        own_server = url::Url::parse(p.url.as_str()).ok();
        own_server.as_ref().map_or(("", 0), |url| {
            let port = url.port_or_known_default().unwrap_or_default();
            (url.host_str().unwrap_or_default(), port)
        })
    };
    tracing::info_span!(
        "sdk.call",
        otel.name = %format_args!("{} {}", p.method, p.template),
        otel.kind = "client",
        http.request.method = p.method.as_str(),
        url.template = &*p.template,
        server.address = host,
        server.port = port,
        operation.id = &*p.operation_id,
        "http.request.header.idempotency-key" = p.idempotency_key.as_deref(),
        "http.request.header.x-client-request-id" = p.client_request_id.as_deref(),
        "http.response.header.x-request-id" = Empty,
        http.response.status_code = Empty,
        http.request.resend_count = Empty,
        attempts = Empty,
        outcome = Empty,
        error.type = Empty,
    )
}

/// Records an attempt's answer on the call's span.
pub(crate) fn record_response(span: &Span, response: &HttpResponse) {
    if span.is_disabled() {
        return;
    }
    span.record("http.response.status_code", response.status);
    let request_id = response.headers.get(header_names::REQUEST_ID);
    if let Some(id) = request_id.and_then(|v| v.to_str().ok()) {
        span.record("http.response.header.x-request-id", id);
    }
}

/// Records how the call ended on its span.
pub(crate) fn record_outcome(span: &Span, attempts: u32, error: Option<&Error>) {
    if span.is_disabled() {
        return;
    }
    span.record("attempts", attempts);
    if attempts > 1 {
        span.record("http.request.resend_count", attempts - 1);
    }
    match error {
        None => {
            span.record("outcome", "ok");
        }
        Some(e) => {
            span.record("outcome", "error");
            span.record("error.type", e.kind());
        }
    }
}
