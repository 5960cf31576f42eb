//! One attempt: credentials added, hooks told, the request built for the transport ([`begin`]);
//! then, once the transport answered under the attempt timeout (which covers the whole body
//! read; the client awaits it, so that a call is one state machine), the body cap checked again
//! and the hooks told ([`end`]).

use std::sync::Arc;

use http::HeaderValue;
use tokio::time::Instant;

use crate::auth::Auth;
use crate::engine::prepare::Prepared;
use crate::error::Error;
use crate::header_names;
use crate::hooks::{AttemptInfo, AttemptOutcome, Hook, Wait};
use crate::transport::{HttpRequest, HttpResponse, TransportError, TransportErrorKind};

/// What an attempt needs from its client.
#[derive(Clone, Copy)]
pub(crate) struct Wire<'a> {
    pub auth: &'a Auth,
    pub user_agent: &'a HeaderValue,
    pub hooks: &'a [Arc<dyn Hook>],
    pub max_response_bytes: usize,
}

/// An attempt handed to the transport: what its end needs.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Sent {
    /// 1 for the first attempt of the call.
    pub number: u32,
    /// When it was handed over.
    pub started: Instant,
    /// When it times out: its own limit or the call's, whichever comes first.
    pub ends: Option<Instant>,
}

/// The headers and URL of one attempt of `p`, with `auth`'s credentials applied (a query
/// credential appended to the URL). Fails locally, before anything is sent.
pub(crate) fn authorized(
    auth: &Auth,
    user_agent: &HeaderValue,
    p: &Prepared,
) -> Result<(http::HeaderMap, String), Error> {
    let mut headers = p.headers.to_map(user_agent, auth.header_room());
    let credential_query = auth.apply(
        &mut headers,
        (p.method.as_str(), &p.operation_id),
        p.url.signed_target(),
        &p.body,
        p.security,
    )?;
    let url = p.url.as_str();
    let url = if credential_query.0.is_empty() {
        url.to_owned()
    } else {
        let joiner = if url.contains('?') { '&' } else { '?' };
        format!("{url}{joiner}{}", credential_query.0)
    };
    Ok((headers, url))
}

/// Builds attempt number `number` of `p` for the transport and tells the hooks. The error is
/// local (credentials that cannot be encoded): a validation error, nothing was sent.
pub(crate) fn begin(
    wire: Wire<'_>,
    p: &Prepared,
    number: u32,
) -> Result<(HttpRequest, Sent), Error> {
    let (headers, url) = authorized(wire.auth, wire.user_agent, p)?;
    let started = Instant::now();
    // (A limit too far to represent is no limit.)
    let own = p.attempt_timeout.and_then(|t| started.checked_add(t));
    let ends = match (own, p.deadline) {
        (Some(a), Some(d)) => Some(a.min(d)),
        (a, d) => a.or(d),
    };
    let request = HttpRequest {
        method: crate::spec::http_method(p.method),
        url,
        headers,
        body: p.body.clone(),
        timeout: ends.map(|e| e.saturating_duration_since(started)),
        max_response_bytes: wire.max_response_bytes,
    };
    if !wire.hooks.is_empty() {
        let info = info(p, number);
        for hook in wire.hooks {
            hook.before_send(&info);
        }
    }
    tracing::debug!(attempt = number, "sending");
    crate::write::kill_point!("send");
    let sent = Sent {
        number,
        started,
        ends,
    };
    Ok((request, sent))
}

/// The error of an attempt that outlasted [`Sent::ends`].
pub(crate) fn timed_out() -> TransportError {
    TransportError::new(TransportErrorKind::Timeout, "attempt timed out")
}

/// Ends attempt `sent` of `p` with what the transport gave: the body cap checked again, the
/// hooks told. The outer error is local (a request the transport could not build): a
/// validation error, nothing was sent. The inner result is what the wire gave.
pub(crate) fn end(
    wire: Wire<'_>,
    p: &Prepared,
    sent: Sent,
    result: Result<HttpResponse, TransportError>,
) -> Result<Result<HttpResponse, TransportError>, Error> {
    let number = sent.number;
    let result = result.and_then(|r| capped(r, wire.max_response_bytes));
    match &result {
        Ok(r) => {
            tracing::debug!(
                attempt = number,
                status = r.status,
                request_id = request_id(r),
                "response"
            );
        }
        Err(error) => tracing::debug!(attempt = number, %error, "transport error"),
    }
    if !wire.hooks.is_empty() {
        let elapsed = sent.started.elapsed();
        let outcome = match &result {
            Ok(r) => AttemptOutcome::Response {
                status: r.status,
                request_id: request_id(r),
                elapsed,
            },
            Err(error) => AttemptOutcome::Failed { error, elapsed },
        };
        let info = info(p, number);
        for hook in wire.hooks {
            hook.after_response(&info, &outcome);
        }
    }
    match result {
        Err(e) if e.kind == TransportErrorKind::Invalid => Err(Error::validation(format!(
            "the HTTP request could not be built, nothing was sent: {}",
            e.message
        ))),
        result => Ok(result),
    }
}

/// Tells the hooks that the call waits `wait` after attempt `number` of `p`.
pub(crate) fn waiting(hooks: &[Arc<dyn Hook>], p: &Prepared, number: u32, wait: &Wait) {
    if !hooks.is_empty() {
        let info = info(p, number);
        for hook in hooks {
            hook.before_wait(&info, wait);
        }
    }
}

/// What the hooks see of attempt `number` of `p`.
fn info(p: &Prepared, number: u32) -> AttemptInfo<'_> {
    AttemptInfo {
        operation_id: &p.operation_id,
        method: p.method,
        url_template: &p.template,
        path: p.url.path(),
        attempt: number,
        idempotency_key: p.idempotency_key.as_deref(),
    }
}

/// The server's `x-request-id`, if it is text.
fn request_id(response: &HttpResponse) -> Option<&str> {
    response
        .headers
        .get(header_names::REQUEST_ID)
        .and_then(|v| v.to_str().ok())
}

/// Enforces the body cap on what a transport returned (a custom one may not).
fn capped(response: HttpResponse, limit: usize) -> Result<HttpResponse, TransportError> {
    if response.body.len() > limit {
        return Err(TransportError::new(
            TransportErrorKind::BodyTooLarge,
            format!("the response body exceeds {limit} bytes"),
        )
        .with_status(response.status));
    }
    Ok(response)
}
