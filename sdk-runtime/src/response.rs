//! Successful responses: decoded body, status and `ResponseMeta` (request id, rate limits, idempotency key).

use http::HeaderMap;

use crate::rate_limit::RateLimitInfo;

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

/// A successful response: decoded body, HTTP status and metadata.
#[derive(Clone, Debug)]
pub struct Response<T> {
    body: T,
    status: u16,
    meta: ResponseMeta,
}

impl<T> Response<T> {
    /// Assembles a response (used by the client and by test doubles).
    pub fn new(body: T, status: u16, meta: ResponseMeta) -> Self {
        Self { body, status, meta }
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
        }
    }
}
