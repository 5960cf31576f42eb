//! The pluggable HTTP transport: send one fully built request, get status, headers and body bytes.
//!
//! The [`Transport`] trait and what crosses it are here; the transports are its children:
//! [`hyper_transport`] (the default), `reqwest_transport` (feature `reqwest`, picked when the
//! environment names a proxy), and `default` decides between them. Every transport follows no
//! redirect and reads at most [`HttpRequest::max_response_bytes`] of a body.

use std::fmt;
use std::time::Duration;

use bytes::Bytes;
use futures::future::BoxFuture;
use http::HeaderMap;

pub(crate) mod default;
pub mod hyper_transport;
#[cfg(feature = "reqwest")]
pub mod reqwest_transport;

/// One fully built HTTP request (URL, headers including auth, exact body bytes).
#[derive(Clone, Debug)]
pub struct HttpRequest {
    /// HTTP method.
    pub method: http::Method,
    /// Absolute URL.
    pub url: String,
    /// All headers to send.
    pub headers: HeaderMap,
    /// Exact body bytes (empty for bodyless requests).
    pub body: Bytes,
    /// Per-attempt timeout. The [`Client`](crate::Client) enforces it around
    /// [`Transport::send`] itself (the body read included), so a transport need not (the
    /// default one does not, to keep one timer per attempt); it is passed on for transports
    /// that want it at socket level.
    pub timeout: Option<Duration>,
    /// Largest response body to read. A transport stops reading beyond it and fails with
    /// [`TransportErrorKind::BodyTooLarge`]; the client checks the length again.
    pub max_response_bytes: usize,
}

/// A raw HTTP response.
#[derive(Clone, Debug)]
pub struct HttpResponse {
    /// Status code.
    pub status: u16,
    /// Response headers.
    pub headers: HeaderMap,
    /// Full body bytes.
    pub body: Bytes,
}

/// Why a transport failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum TransportErrorKind {
    /// The connection could not be established: the request was certainly not delivered.
    Connect,
    /// The attempt timed out (the request may have been delivered).
    Timeout,
    /// The response body exceeded [`HttpRequest::max_response_bytes`].
    BodyTooLarge,
    /// The request could not be built (a local failure): nothing was sent. The client reports
    /// it as [`Error::Validation`](crate::Error::Validation).
    Invalid,
    /// Any other failure after the request may have been delivered (reset, truncated body…).
    Other,
}

/// A transport failure. Never contains request headers (no credentials leak through it).
#[derive(Clone, Debug)]
pub struct TransportError {
    /// Failure class.
    pub kind: TransportErrorKind,
    /// Human-readable cause.
    pub message: String,
    /// The response status, when the failure came while reading the body.
    pub status: Option<u16>,
}

impl TransportError {
    /// Builds a transport error.
    pub fn new(kind: TransportErrorKind, message: impl Into<String>) -> Self {
        Self {
            kind,
            message: message.into(),
            status: None,
        }
    }

    /// The same error, noting the status line that arrived before it.
    pub fn with_status(mut self, status: u16) -> Self {
        self.status = Some(status);
        self
    }

    /// Whether the request certainly never reached the server.
    pub fn not_delivered(&self) -> bool {
        self.kind == TransportErrorKind::Connect
    }
}

impl fmt::Display for TransportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = match self.kind {
            TransportErrorKind::Connect => "connect",
            TransportErrorKind::Timeout => "timeout",
            TransportErrorKind::BodyTooLarge => "body too large",
            TransportErrorKind::Invalid => "invalid request",
            TransportErrorKind::Other => "io",
        };
        write!(f, "{kind}: {}", self.message)?;
        if let Some(status) = self.status {
            write!(f, " (after status {status})")?;
        }
        Ok(())
    }
}

impl std::error::Error for TransportError {}

/// An HTTP stack. Implement it to plug another client (or a test double) into [`Config`](crate::Config).
pub trait Transport: Send + Sync + fmt::Debug {
    /// Sends one request and reads the whole response (at most
    /// [`HttpRequest::max_response_bytes`] of body). It must not follow redirects to another
    /// origin: the request carries credentials.
    fn send(&self, request: HttpRequest) -> BoxFuture<'_, Result<HttpResponse, TransportError>>;

    /// Sends one request and returns as soon as the status and headers are in, the body to be
    /// read as a stream of chunks, with no size cap (a download). By default the whole body is
    /// read through [`Transport::send`] and handed over as one chunk.
    fn send_streaming(
        &self,
        request: HttpRequest,
    ) -> BoxFuture<'_, Result<StreamingResponse, TransportError>> {
        Box::pin(async move {
            let response = self.send(request).await?;
            Ok(StreamingResponse {
                status: response.status,
                headers: response.headers,
                body: Box::pin(futures::stream::once(async move { Ok(response.body) })),
            })
        })
    }
}

/// The chunks of a response body, as they arrive.
pub type BodyStream = futures::stream::BoxStream<'static, Result<Bytes, TransportError>>;

/// A response whose body has not been read yet ([`Transport::send_streaming`]).
pub struct StreamingResponse {
    /// HTTP status.
    pub status: u16,
    /// Response headers.
    pub headers: HeaderMap,
    /// The body, chunk by chunk.
    pub body: BodyStream,
}

impl fmt::Debug for StreamingResponse {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("StreamingResponse")
            .field("status", &self.status)
            .field("headers", &self.headers)
            .finish_non_exhaustive()
    }
}
