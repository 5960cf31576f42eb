//! One attempt: credentials added, hooks told, the transport called under the attempt timeout
//! (which covers the whole body read), the body cap checked again.

use std::sync::Arc;

use tokio::time::Instant;

use crate::auth::Auth;
use crate::error::Error;
use crate::header_names;
use crate::hooks::{AttemptInfo, AttemptOutcome, Hook};
use crate::prepare::Prepared;
use crate::transport::{HttpRequest, HttpResponse, Transport, TransportError, TransportErrorKind};

/// What an attempt needs from its client.
#[derive(Clone, Copy)]
pub(crate) struct Wire<'a> {
    pub transport: &'a dyn Transport,
    pub auth: &'a Auth,
    pub hooks: &'a [Arc<dyn Hook>],
    pub max_response_bytes: usize,
}

/// The headers and URL of one attempt of `p`, with `auth`'s credentials applied (a query
/// credential appended to the URL). Fails locally, before anything is sent.
pub(crate) fn authorized(auth: &Auth, p: &Prepared) -> Result<(http::HeaderMap, String), Error> {
    let mut headers = p.headers.clone();
    let credential_query = auth.apply(
        &mut headers,
        p.method.as_str(),
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

/// Sends attempt number `number` of `p`. The outer error is local (credentials that cannot be
/// encoded, a request the transport cannot build): a validation error, nothing was sent. The
/// inner result is what the wire gave.
pub(crate) async fn send(
    wire: Wire<'_>,
    p: &Prepared,
    number: u32,
) -> Result<Result<HttpResponse, TransportError>, Error> {
    let (headers, url) = authorized(wire.auth, p)?;
    let started = Instant::now();
    // The attempt ends at its own limit or the call's, whichever comes first.
    // (A limit too far to represent is no limit.)
    let own = p.attempt_timeout.and_then(|t| started.checked_add(t));
    let ends = match (own, p.deadline) {
        (Some(a), Some(d)) => Some(a.min(d)),
        (a, d) => a.or(d),
    };
    let timeout = ends.map(|e| e.saturating_duration_since(started));
    let request = HttpRequest {
        method: crate::spec::http_method(p.method),
        url,
        headers,
        body: p.body.clone(),
        timeout,
        max_response_bytes: wire.max_response_bytes,
    };
    let info = AttemptInfo {
        operation_id: &p.operation_id,
        method: p.method,
        url_template: &p.template,
        path: p.url.path(),
        attempt: number,
        idempotency_key: p.idempotency_key.as_deref(),
    };
    for hook in wire.hooks {
        hook.before_send(&info);
    }
    tracing::debug!(attempt = number, "sending");
    crate::write::kill_point!("send");
    let send = wire.transport.send(request);
    // `timeout_at`: the end is known, no second clock read.
    let result = match ends {
        Some(e) => tokio::time::timeout_at(e, send).await.unwrap_or_else(|_| {
            Err(TransportError::new(
                TransportErrorKind::Timeout,
                "attempt timed out",
            ))
        }),
        None => send.await,
    };
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
        let elapsed = started.elapsed();
        let outcome = match &result {
            Ok(r) => AttemptOutcome::Response {
                status: r.status,
                request_id: request_id(r),
                elapsed,
            },
            Err(error) => AttemptOutcome::Failed { error, elapsed },
        };
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
