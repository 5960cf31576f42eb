//! The pluggable HTTP transport: send one fully built request, get status, headers and body bytes.

use std::fmt;
use std::time::Duration;

use bytes::Bytes;
use futures::future::BoxFuture;
use http::HeaderMap;

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
    /// [`Transport::send`] itself, so a transport need not (the default one does not, to keep
    /// one timer per attempt); it is passed on for transports that want it at socket level.
    pub timeout: Option<Duration>,
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
pub enum TransportErrorKind {
    /// The connection could not be established: the request was certainly not delivered.
    Connect,
    /// The attempt timed out (the request may have been delivered).
    Timeout,
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
}

impl TransportError {
    /// Builds a transport error.
    pub fn new(kind: TransportErrorKind, message: impl Into<String>) -> Self {
        Self {
            kind,
            message: message.into(),
        }
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
            TransportErrorKind::Other => "io",
        };
        write!(f, "{kind}: {}", self.message)
    }
}

impl std::error::Error for TransportError {}

/// An HTTP stack. Implement it to plug another client (or a test double) into [`Config`](crate::Config).
pub trait Transport: Send + Sync + fmt::Debug {
    /// Sends one request and reads the whole response.
    fn send(&self, request: HttpRequest) -> BoxFuture<'_, Result<HttpResponse, TransportError>>;
}

/// The default transport over `reqwest` (rustls).
#[derive(Clone, Debug)]
pub struct ReqwestTransport {
    client: reqwest::Client,
}

impl ReqwestTransport {
    /// Builds a reqwest client with the given connect timeout.
    pub fn new(connect_timeout: Option<Duration>) -> Result<Self, TransportError> {
        let mut builder = reqwest::Client::builder();
        if let Some(t) = connect_timeout {
            builder = builder.connect_timeout(t);
        }
        let client = builder.build().map_err(|e| {
            TransportError::new(
                TransportErrorKind::Other,
                format!("cannot build HTTP client: {e}"),
            )
        })?;
        Ok(Self { client })
    }

    /// Wraps an existing reqwest client.
    pub fn from_client(client: reqwest::Client) -> Self {
        Self { client }
    }
}

fn map_reqwest_error(e: reqwest::Error) -> TransportError {
    let kind = if e.is_connect() {
        TransportErrorKind::Connect
    } else if e.is_timeout() {
        TransportErrorKind::Timeout
    } else {
        TransportErrorKind::Other
    };
    // `without_url` keeps query strings (which may hold ids) out of the message.
    TransportError::new(kind, e.without_url().to_string())
}

impl Transport for ReqwestTransport {
    fn send(&self, request: HttpRequest) -> BoxFuture<'_, Result<HttpResponse, TransportError>> {
        Box::pin(async move {
            // The attempt timeout is enforced by the client around this future.
            let response = self
                .client
                .request(request.method, &request.url)
                .headers(request.headers)
                .body(request.body)
                .send()
                .await
                .map_err(map_reqwest_error)?;
            let status = response.status().as_u16();
            let headers = response.headers().clone();
            let body = response.bytes().await.map_err(map_reqwest_error)?;
            Ok(HttpResponse {
                status,
                headers,
                body,
            })
        })
    }
}
