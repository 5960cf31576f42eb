//! Successful responses: decoded body, status and `ResponseMeta` (request id, rate limits,
//! idempotency key), and `ResponseFuture`, what a call returns before it is awaited
//! ([`Client::execute`], [`Client::execute_as`]): the engine's call, then the decoding of its
//! body, which only this layer above the engine knows.

use std::fmt;
use std::future::Future;
use std::marker::PhantomData;
use std::pin::Pin;
use std::task::{Context, Poll};

use bytes::Bytes;
use futures::future::BoxFuture;
use http::HeaderMap;
use serde::de::DeserializeOwned;

use crate::binary::Binary;
use crate::encoding::body::{Format, Json};
use crate::engine::call::Undecoded;
use crate::engine::client::Client;
use crate::engine::prepare::Prepared;
use crate::engine::telemetry;
use crate::error::{Error, ErrorContext};
use crate::rate_limit::RateLimitInfo;
use crate::request::{CallOptions, Request};
use crate::transport::HttpResponse;

/// What every response exposes besides its body.
#[derive(Clone, Debug, Default)]
pub struct ResponseMeta {
    /// The server's `x-request-id`.
    pub request_id: Option<String>,
    /// The `x-client-request-id` sent, if any.
    pub client_request_id: Option<String>,
    /// The `Idempotency-Key` used (caller-supplied or generated), for writes.
    pub idempotency_key: Option<String>,
    /// Rate-limit headers.
    pub rate_limit: RateLimitInfo,
    /// HTTP attempts the call needed.
    pub attempts: u32,
    /// All response headers.
    pub headers: HeaderMap,
}

impl ResponseMeta {
    /// The response header `name` parsed as `T` (its text trimmed); `None` when it is absent,
    /// not text, or does not parse. What generated response-header views read each field with.
    pub fn header_as<T: std::str::FromStr>(&self, name: &str) -> Option<T> {
        self.headers.get(name)?.to_str().ok()?.trim().parse().ok()
    }
}

/// A successful response: decoded body, HTTP status and metadata, and the body's bytes as
/// received (the raw response beside the typed one).
#[derive(Clone, Debug)]
pub struct Response<T> {
    body: T,
    status: u16,
    meta: ResponseMeta,
    raw: Bytes,
}

impl<T> Response<T> {
    /// Assembles a response (used by the client and by test doubles); its raw body is empty
    /// until [`with_raw_body`](Self::with_raw_body).
    pub fn new(body: T, status: u16, meta: ResponseMeta) -> Self {
        Self {
            body,
            status,
            meta,
            raw: Bytes::new(),
        }
    }

    /// The response with the body's bytes as received.
    pub fn with_raw_body(mut self, raw: Bytes) -> Self {
        self.raw = raw;
        self
    }

    /// The body's bytes as received (shared with the buffer that was decoded, not a copy):
    /// what the server sent when the typed body leaves something out. Empty for a streamed
    /// download.
    pub fn raw_body(&self) -> &Bytes {
        &self.raw
    }

    /// The decoded body.
    pub fn body(&self) -> &T {
        &self.body
    }

    /// Takes the decoded body.
    pub fn into_body(self) -> T {
        self.body
    }

    /// The HTTP status.
    pub fn status(&self) -> u16 {
        self.status
    }

    /// Request id, rate limits, idempotency key and headers.
    pub fn meta(&self) -> &ResponseMeta {
        &self.meta
    }

    /// Splits into body and metadata.
    pub fn into_parts(self) -> (T, u16, ResponseMeta) {
        (self.body, self.status, self.meta)
    }

    /// Maps the body, keeping status and metadata.
    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> Response<U> {
        Response {
            body: f(self.body),
            status: self.status,
            meta: self.meta,
            raw: self.raw,
        }
    }
}

impl Client {
    /// Sends `request` and decodes a successful body as `T` (an empty body reads as JSON `null`).
    ///
    /// Before any I/O: the idempotency key and client request id are validated, headers
    /// encoded; writes whose [`Idempotency`](crate::Idempotency) is not `None` get a generated
    /// key unless the caller gave one. A local failure is [`Error::Validation`]: nothing was
    /// sent. The key and body bytes stay fixed for every attempt; signed mode re-signs every
    /// attempt with a fresh `x-ts` and `x-nonce`. With a journal (feature `journal`), a keyed
    /// write is recorded before its first attempt and its outcome kept until the application
    /// calls `Client::acknowledge_write` (see the `journal` module).
    ///
    /// Every attempt's result is classified, then this table decides (reads are GET, HEAD,
    /// OPTIONS and TRACE; writes the rest). Attempts are bounded by [`RetryPolicy`](crate::RetryPolicy)
    /// `max_attempts`, 429 waits by `max_rate_limit_waits`, and everything by the whole-call
    /// timeout; the attempt timeout covers the whole body read.
    ///
    /// | Attempt result | Read | Write |
    /// | --- | --- | --- |
    /// | 2xx, JSON content type (or none) or empty body | return it, decoded (a body that does not parse or decode as `T` is [`Error::Decode`], which keeps the key: never resent) | same |
    /// | connection not established | backoff, resend | backoff, resend (not delivered) |
    /// | 429 | the client's gate closes per `Retry-After`/`RateLimit-Reset`, one probe at a time, then resend (a 429 uses up a 429 wait, not an attempt) | same |
    /// | an automatic retry code of the [`ApiProfile`](crate::ApiProfile) | wait `Retry-After` (else backoff), resend | same, same key and body |
    /// | timeout, reset, truncated body, 5xx, 4xx with a non-JSON body when the API declares a JSON error envelope, 2xx with a non-JSON content type | backoff, resend; then the last error ([`Error::Decode`] for a 2xx) | **unknown outcome**: reconcile (below) |
    /// | 3xx | [`Error::Redirected`]: never followed | same |
    /// | body over [`Config::max_response_bytes`](crate::Config::max_response_bytes) (non-5xx) | [`Error::ResponseTooLarge`] | same (a 2xx write was applied) |
    /// | other 4xx (any body when the API declares no error envelope) | [`Error::Api`] | [`Error::Api`] |
    ///
    /// When attempts, 429 waits or time run out the call ends with the last error, except for
    /// a write an earlier attempt of which may have been processed: [`Error::WriteOutcomeUnknown`].
    ///
    /// Unknown write outcome: without an idempotency key, or with
    /// [`RetryPolicy::reconcile_unknown_writes`](crate::RetryPolicy::reconcile_unknown_writes)
    /// off, the write is never resent ([`Error::WriteOutcomeUnknown`]). With a key, the
    /// profile's [`OperationLookup`](crate::OperationLookup) is sent with the key, method and
    /// path. The lookup is a read, retried like any read within the write's deadline:
    ///
    /// | Lookup | Decision |
    /// | --- | --- |
    /// | 2xx (recorded) | resend at once, same key and body: the server answers with the stored response |
    /// | its not-found code | does not prove the write never ran, but the server deduplicates by key: backoff, resend same key and body (unless [`RetryPolicy::resend_when_not_found`](crate::RetryPolicy::resend_when_not_found) is off) |
    /// | its ambiguous or expired code; any other answer after its retries; no lookup | [`Error::WriteOutcomeUnknown`] |
    ///
    /// A resend needs an attempt left. So an unknown outcome reaches the caller only when the
    /// lookup cannot justify a resend or attempts or time run out; the error carries the key,
    /// method, path and what the lookup found.
    ///
    /// The returned [`ResponseFuture`] sends nothing until it is polled (the request is
    /// assembled and the call's span opened at once, but an invalid request fails when polled
    /// and the call timeout counts from the first poll). Everything above runs in one future
    /// shared by all response types; only decoding the body depends on `T`.
    pub fn execute<T: DeserializeOwned>(
        &self,
        request: Request,
        options: CallOptions,
    ) -> ResponseFuture<'_, T> {
        ResponseFuture::new(self.start(request, options))
    }

    /// [`Self::execute`] for a body decoded in the format `F` ([`crate::encoding::body`]: text, raw bytes
    /// or none) rather than as JSON; `Accept` is the format's own unless the request sets one.
    pub fn execute_as<F: Format>(
        &self,
        mut request: Request,
        options: CallOptions,
    ) -> ResponseFuture<'_, F::Output, F> {
        if !request.accept_is_set() {
            request.accept(F::ACCEPT);
        }
        ResponseFuture::new(self.start(request, options))
    }
}

/// The future of one call, returned by [`Client::execute`](crate::Client::execute) (and by every
/// generated `send`): it does nothing until polled, then runs the call and decodes a
/// successful body as `T`, in the [`Format`] `F` (JSON unless the operation says otherwise).
///
/// The call itself (attempts, retries, idempotency, reconciliation) is one future of the
/// runtime, the same for every `T`; only the final decoding step depends on `T`, so a crate
/// with many operations compiles one call future, not one per response type.
#[must_use = "a call does nothing until it is awaited"]
pub struct ResponseFuture<'c, T, F = Json<T>> {
    call: BoxFuture<'c, Result<Undecoded, Error>>,
    body: PhantomData<fn() -> (T, F)>,
}

impl<'c, T, F> ResponseFuture<'c, T, F> {
    pub(crate) fn new(call: BoxFuture<'c, Result<Undecoded, Error>>) -> Self {
        Self {
            call,
            body: PhantomData,
        }
    }
}

impl<T, F> fmt::Debug for ResponseFuture<'_, T, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ResponseFuture").finish_non_exhaustive()
    }
}

impl<T, F: Format<Output = T>> Future for ResponseFuture<'_, T, F> {
    type Output = Result<Response<T>, Error>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        self.call
            .as_mut()
            .poll(cx)
            .map(|call| call.and_then(Undecoded::decode_as::<F>))
    }
}

impl Undecoded {
    /// Decodes the body as JSON into `T` (an empty body reads as `null`).
    #[cfg(feature = "journal")]
    pub(crate) fn decode<T: serde::de::DeserializeOwned>(self) -> Result<Response<T>, Error> {
        self.decode_as::<Json<T>>()
    }

    /// Decodes the body in the format `F` and records the outcome on the call's span. A body
    /// that does not decode is [`Error::Decode`], which keeps the idempotency key (a write
    /// answered 2xx was applied).
    pub(crate) fn decode_as<F: Format>(self) -> Result<Response<F::Output>, Error> {
        let Undecoded {
            response,
            attempts,
            prepared,
            span,
        } = self;
        let HttpResponse {
            status,
            headers,
            body,
        } = response;
        // `Bytes` clones share the buffer: kept for the error should the body not decode.
        let result = match F::decode(&headers, body.clone()) {
            Ok(decoded) => {
                // The call is over: its key and id move into the metadata.
                let Prepared {
                    idempotency_key,
                    client_request_id,
                    ..
                } = *prepared;
                let (rate_limit, request_id) = RateLimitInfo::with_request_id(&headers);
                let request_id = request_id.map(str::to_owned);
                let meta = ResponseMeta {
                    request_id,
                    client_request_id,
                    idempotency_key,
                    rate_limit,
                    attempts,
                    headers,
                };
                Ok(Response {
                    body: decoded,
                    status,
                    meta,
                    raw: body,
                })
            }
            Err(e) => Err(decode_error(
                e.message, status, body, headers, &prepared, attempts,
            )),
        };
        telemetry::record_outcome(&span, attempts, result.as_ref().err());
        result
    }
}

/// [`Error::Decode`] for a successful response whose body did not decode (kept in the error).
fn decode_error(
    message: String,
    status: u16,
    body: Bytes,
    headers: HeaderMap,
    p: &Prepared,
    attempts: u32,
) -> Error {
    let (rate_limit, request_id) = RateLimitInfo::with_request_id(&headers);
    Error::Decode {
        status,
        message,
        body: Binary::from_response(&headers, body),
        context: Box::new(ErrorContext {
            request_id: request_id.map(str::to_owned),
            rate_limit,
            ..p.context(attempts)
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_header_reads_as_its_type_or_none() {
        let mut headers = HeaderMap::new();
        headers.insert("x-remaining", " 42 ".parse().unwrap());
        headers.insert(
            "x-id",
            "9b1c6a1e-0f5a-4c1e-9a59-2b0c3b7d8e11".parse().unwrap(),
        );
        headers.insert("x-bad", "many".parse().unwrap());
        let meta = ResponseMeta {
            headers,
            ..ResponseMeta::default()
        };
        assert_eq!(meta.header_as::<i64>("x-remaining"), Some(42));
        assert_eq!(meta.header_as::<i64>("X-Remaining"), Some(42));
        assert!(meta.header_as::<uuid::Uuid>("x-id").is_some());
        assert_eq!(meta.header_as::<i64>("x-bad"), None);
        assert_eq!(meta.header_as::<String>("x-absent"), None);
    }
}
