//! Static operation metadata (`OperationSpec`) emitted by the generator, one per operation.

use std::fmt;

/// HTTP method of an operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Method {
    /// `GET`
    Get,
    /// `POST`
    Post,
    /// `PUT`
    Put,
    /// `PATCH`
    Patch,
    /// `DELETE`
    Delete,
    /// `HEAD`
    Head,
    /// `OPTIONS`
    Options,
    /// `TRACE`
    Trace,
}

impl Method {
    /// The uppercase method name, e.g. `"POST"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Method::Get => "GET",
            Method::Post => "POST",
            Method::Put => "PUT",
            Method::Patch => "PATCH",
            Method::Delete => "DELETE",
            Method::Head => "HEAD",
            Method::Options => "OPTIONS",
            Method::Trace => "TRACE",
        }
    }

    /// Whether the method is safe (reads only): `GET`, `HEAD`, `OPTIONS`, `TRACE`.
    pub fn is_safe(self) -> bool {
        matches!(
            self,
            Method::Get | Method::Head | Method::Options | Method::Trace
        )
    }

    /// The equivalent [`http::Method`].
    pub fn to_http(self) -> http::Method {
        match self {
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
}

impl fmt::Display for Method {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Whether and how an operation takes an `Idempotency-Key` header.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Idempotency {
    /// No key (reads, and writes the reference shows without one).
    None,
    /// The reference requires a key.
    Required,
    /// The reference makes the key optional (but recommended).
    Optional,
    /// The reference does not say (4.0: "requirement not shown"); a key is sent anyway.
    NotShown,
}

impl Idempotency {
    /// Whether the runtime sends an `Idempotency-Key` (generating one when the caller gave none).
    pub fn sends_key(self) -> bool {
        !matches!(self, Idempotency::None)
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
        !self.method.is_safe()
    }
}
