//! Static operation metadata (`OperationSpec`) emitted by the generator, one per operation, and
//! where a parameter travels ([`ParamIn`]).

pub use openapi_conventions::{Idempotency, Method};

/// The [`http::Method`] of a [`Method`].
pub(crate) fn http_method(method: Method) -> http::Method {
    match method {
        Method::Get => http::Method::GET,
        Method::Post => http::Method::POST,
        Method::Put => http::Method::PUT,
        Method::Patch => http::Method::PATCH,
        Method::Delete => http::Method::DELETE,
        Method::Head => http::Method::HEAD,
        Method::Options => http::Method::OPTIONS,
        Method::Trace => http::Method::TRACE,
    }
}

/// Static description of one operation, emitted by the generator as a `static`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OperationSpec {
    /// The OpenAPI `operationId` (or a synthesized name), used in logs and errors.
    pub operation_id: &'static str,
    /// HTTP method.
    pub method: Method,
    /// Path template, e.g. `"/zones/{name}"`.
    pub path: &'static str,
    /// Idempotency-Key handling.
    pub idempotency: Idempotency,
    /// Whether the operation accepts `x-svc-response-format: operation` (canonical envelope).
    pub operation_envelope: bool,
}

impl OperationSpec {
    /// An operation's description (the generator emits one `static` per operation with this).
    pub const fn new(
        operation_id: &'static str,
        method: Method,
        path: &'static str,
        idempotency: Idempotency,
        operation_envelope: bool,
    ) -> Self {
        OperationSpec {
            operation_id,
            method,
            path,
            idempotency,
            operation_envelope,
        }
    }

    /// Whether this operation is a write (not a safe method).
    pub fn is_write(&self) -> bool {
        self.method.is_write()
    }
}

/// Where a parameter travels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParamIn {
    /// A path segment.
    Path,
    /// The query string.
    Query,
    /// A request header.
    Header,
    /// The `Cookie` header.
    Cookie,
}
