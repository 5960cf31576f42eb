//! The default transport, on hyper's client directly: rustls (or native-tls, by cargo feature),
//! HTTP/1.1 and HTTP/2 (by ALPN), no redirects, and a body read that stops at the cap.
//!
//! Written on hyper rather than through reqwest because reqwest's own layer (its request
//! builder, `url::Url` parsing with IDNA host processing, its tower services) cost more per
//! call than everything the SDK adds: over loopback a call through this transport executes
//! about a third fewer instructions than a hand-written reqwest request (`BENCHMARKS.md`,
//! issue #23). What reqwest adds that this does not, proxies from the environment, is why
//! [`Client::new`](crate::Client::new) picks `ReqwestTransport` (feature `reqwest`) when a
//! proxy variable is set.

use std::error::Error as StdError;
use std::time::Duration;

use bytes::{Bytes, BytesMut};
use futures::future::BoxFuture;
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::client::legacy::{Client, ResponseFuture};
use hyper_util::rt::TokioExecutor;

use crate::transport::{
    HttpRequest, HttpResponse, StreamingResponse, Transport, TransportError, TransportErrorKind,
};

#[cfg(feature = "rustls")]
type Connector = hyper_rustls::HttpsConnector<HttpConnector>;
#[cfg(all(feature = "native-tls", not(feature = "rustls")))]
type Connector = hyper_tls::HttpsConnector<HttpConnector>;
#[cfg(not(any(feature = "rustls", feature = "native-tls")))]
type Connector = HttpConnector;

/// The default transport: hyper's pooled client.
///
/// It never follows a redirect: a 3xx reaches the client, which reports it as
/// [`Error::Redirected`](crate::Error::Redirected). TLS is rustls with the platform's
/// certificate verifier unless the crate is built with only the `native-tls` feature; without
/// either, `https://` URLs fail.
#[derive(Clone, Debug)]
pub struct HyperTransport {
    client: Client<Connector, Full<Bytes>>,
}

impl HyperTransport {
    /// A transport whose connections time out after `connect_timeout` (DNS and TCP), with
    /// reqwest's defaults otherwise: `TCP_NODELAY`, idle connections kept 90 s.
    pub fn new(connect_timeout: Option<Duration>) -> Result<Self, TransportError> {
        Self::with_root_certificates(connect_timeout, &[])
    }

    /// [`HyperTransport::new`] that also trusts the certificate authorities `roots` (each a
    /// DER-encoded X.509 certificate) beside the platform's: for a private CA.
    pub fn with_root_certificates(
        connect_timeout: Option<Duration>,
        roots: &[&[u8]],
    ) -> Result<Self, TransportError> {
        let mut http = HttpConnector::new();
        http.set_connect_timeout(connect_timeout);
        http.set_nodelay(true);
        // The TLS connector takes `https://`; without one, the plain connector refuses it
        // rather than speaking cleartext to port 443.
        http.enforce_http(!cfg!(any(feature = "rustls", feature = "native-tls")));
        let client = Client::builder(TokioExecutor::new()).build(tls(http, roots)?);
        Ok(Self { client })
    }
}

/// The error of a TLS set-up that failed.
fn tls_failed(e: impl std::fmt::Display) -> TransportError {
    TransportError::new(TransportErrorKind::Other, format!("cannot set up TLS: {e}"))
}

#[cfg(feature = "rustls")]
fn tls(http: HttpConnector, roots: &[&[u8]]) -> Result<Connector, TransportError> {
    use rustls_platform_verifier::Verifier;
    use std::sync::Arc;
    // An application's own default provider wins, as with reqwest.
    let provider = rustls::crypto::CryptoProvider::get_default()
        .cloned()
        .unwrap_or_else(|| Arc::new(rustls::crypto::aws_lc_rs::default_provider()));
    let verifier = if roots.is_empty() {
        Verifier::new(provider.clone()).map_err(tls_failed)?
    } else {
        extra_roots(roots, provider.clone())?
    };
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(tls_failed)?
        .dangerous()
        .with_custom_certificate_verifier(Arc::new(verifier))
        .with_no_client_auth();
    Ok(hyper_rustls::HttpsConnectorBuilder::new()
        .with_tls_config(config)
        .https_or_http()
        .enable_http1()
        .enable_http2()
        .wrap_connector(http))
}

/// The platform's verifier, also trusting `roots`.
#[cfg(all(
    feature = "rustls",
    any(all(unix, not(target_os = "android")), target_os = "windows")
))]
fn extra_roots(
    roots: &[&[u8]],
    provider: std::sync::Arc<rustls::crypto::CryptoProvider>,
) -> Result<rustls_platform_verifier::Verifier, TransportError> {
    let roots = roots
        .iter()
        .map(|der| rustls::pki_types::CertificateDer::from(der.to_vec()));
    rustls_platform_verifier::Verifier::new_with_extra_roots(roots, provider).map_err(tls_failed)
}

#[cfg(all(
    feature = "rustls",
    not(any(all(unix, not(target_os = "android")), target_os = "windows"))
))]
fn extra_roots(
    _: &[&[u8]],
    _: std::sync::Arc<rustls::crypto::CryptoProvider>,
) -> Result<rustls_platform_verifier::Verifier, TransportError> {
    Err(tls_failed(
        "extra root certificates are not supported on this platform",
    ))
}

#[cfg(all(feature = "native-tls", not(feature = "rustls")))]
fn tls(http: HttpConnector, roots: &[&[u8]]) -> Result<Connector, TransportError> {
    let mut builder = native_tls::TlsConnector::builder();
    builder.request_alpns(&["h2", "http/1.1"]);
    for der in roots {
        builder.add_root_certificate(native_tls::Certificate::from_der(der).map_err(tls_failed)?);
    }
    let tls = builder.build().map_err(tls_failed)?;
    Ok(hyper_tls::HttpsConnector::from((http, tls.into())))
}

#[cfg(not(any(feature = "rustls", feature = "native-tls")))]
fn tls(http: HttpConnector, roots: &[&[u8]]) -> Result<Connector, TransportError> {
    match roots {
        [] => Ok(http),
        _ => Err(tls_failed(
            "built without a TLS feature (`rustls` or `native-tls`)",
        )),
    }
}

/// `request` as hyper's. The URL is the client's, already encoded; one that `http::Uri` finds
/// too strict to take is normalized by `url` first (as reqwest would send it).
///
/// The URI keeps the URL's own buffer (shared, not copied: one allocation and copy fewer per
/// call than parsing from `&str`, measured in `BENCHMARKS.md`).
fn hyper_request(request: HttpRequest) -> Result<http::Request<Full<Bytes>>, TransportError> {
    let url = Bytes::from(request.url);
    let uri = match http::Uri::from_maybe_shared(url.clone()) {
        Ok(uri) => uri,
        Err(_) => std::str::from_utf8(&url)
            .ok()
            .and_then(|text| url::Url::parse(text).ok())
            .and_then(|url| http::Uri::try_from(url.as_str()).ok())
            .ok_or_else(|| {
                TransportError::new(TransportErrorKind::Invalid, "invalid URL".to_owned())
            })?,
    };
    let mut built = http::Request::new(Full::new(request.body));
    *built.method_mut() = request.method;
    *built.uri_mut() = uri;
    *built.headers_mut() = request.headers;
    Ok(built)
}

/// An error of hyper's client: whether the connection failed (the request was not sent), and
/// the causes (no URL or header is in them).
fn client_error(e: hyper_util::client::legacy::Error) -> TransportError {
    let kind = if e.is_connect() {
        TransportErrorKind::Connect
    } else {
        TransportErrorKind::Other
    };
    TransportError::new(kind, causes(&e))
}

/// An error and its sources, `: `-separated.
fn causes(e: &dyn StdError) -> String {
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}

fn too_large(limit: usize, status: u16) -> TransportError {
    TransportError::new(
        TransportErrorKind::BodyTooLarge,
        format!("the response body exceeds {limit} bytes"),
    )
    .with_status(status)
}

/// The next data chunk of `body` (trailers are skipped), `None` at its end.
async fn next_chunk(body: &mut Incoming, status: u16) -> Result<Option<Bytes>, TransportError> {
    while let Some(frame) = body.frame().await {
        let frame = frame.map_err(|e| {
            TransportError::new(TransportErrorKind::Other, causes(&e)).with_status(status)
        })?;
        if let Ok(data) = frame.into_data() {
            return Ok(Some(data));
        }
    }
    Ok(None)
}

/// Reads the body chunk by chunk, failing as soon as it would pass `limit` bytes (a declared
/// `Content-Length` over it fails before any read). A body in one chunk is not copied.
async fn read_capped(
    mut body: Incoming,
    declared: Option<u64>,
    limit: usize,
    status: u16,
) -> Result<Bytes, TransportError> {
    if declared.is_some_and(|d| d > limit as u64) {
        return Err(too_large(limit, status));
    }
    let Some(first) = next_chunk(&mut body, status).await? else {
        return Ok(Bytes::new());
    };
    if first.len() > limit {
        return Err(too_large(limit, status));
    }
    let Some(second) = next_chunk(&mut body, status).await? else {
        return Ok(first);
    };
    let capacity = declared.map_or(0, |d| d as usize);
    let mut whole = BytesMut::with_capacity(capacity.max(first.len() + second.len()));
    whole.extend_from_slice(&first);
    let mut next = Some(second);
    while let Some(chunk) = next {
        if whole.len() + chunk.len() > limit {
            return Err(too_large(limit, status));
        }
        whole.extend_from_slice(&chunk);
        next = next_chunk(&mut body, status).await?;
    }
    Ok(whole.freeze())
}

/// The `Content-Length` a response declares.
fn declared_length(headers: &http::HeaderMap) -> Option<u64> {
    headers
        .get(http::header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse().ok())
}

impl HyperTransport {
    /// `request` handed to hyper, before the caller's future is made: that future then holds
    /// hyper's response future only.
    fn sent(&self, request: HttpRequest) -> Result<ResponseFuture, TransportError> {
        hyper_request(request).map(|built| self.client.request(built))
    }
}

impl Transport for HyperTransport {
    fn send(&self, request: HttpRequest) -> BoxFuture<'_, Result<HttpResponse, TransportError>> {
        // The attempt timeout is enforced by the client around this future.
        let limit = request.max_response_bytes;
        let sent = self.sent(request);
        Box::pin(async move {
            let (parts, body) = sent?.await.map_err(client_error)?.into_parts();
            let status = parts.status.as_u16();
            let declared = declared_length(&parts.headers);
            let body = read_capped(body, declared, limit, status).await?;
            Ok(HttpResponse {
                status,
                headers: parts.headers,
                body,
            })
        })
    }

    fn send_streaming(
        &self,
        request: HttpRequest,
    ) -> BoxFuture<'_, Result<StreamingResponse, TransportError>> {
        let sent = self.sent(request);
        Box::pin(async move {
            let (parts, body) = sent?.await.map_err(client_error)?.into_parts();
            let status = parts.status.as_u16();
            let chunks = futures::stream::try_unfold(body, move |mut body| async move {
                Ok(next_chunk(&mut body, status)
                    .await?
                    .map(|chunk| (chunk, body)))
            });
            Ok(StreamingResponse {
                status,
                headers: parts.headers,
                body: Box::pin(chunks),
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::{HttpRequest, TransportErrorKind, hyper_request};

    fn request(url: &str) -> HttpRequest {
        HttpRequest {
            method: http::Method::GET,
            url: url.to_owned(),
            headers: http::HeaderMap::new(),
            body: bytes::Bytes::new(),
            timeout: None,
            max_response_bytes: 1 << 20,
        }
    }

    fn uri(url: &str) -> String {
        hyper_request(request(url))
            .expect("a request")
            .uri()
            .to_string()
    }

    #[test]
    fn the_url_is_sent_as_it_is() {
        let url = "http://127.0.0.1:8080/v1/zones/a%2Fb?page=2&q=x%20y";
        assert_eq!(uri(url), url);
    }

    #[test]
    fn a_url_http_refuses_is_normalized_by_url_first() {
        assert!(http::Uri::try_from("http://127.0.0.1:8080/a b").is_err());
        assert_eq!(
            uri("http://127.0.0.1:8080/a b"),
            "http://127.0.0.1:8080/a%20b"
        );
    }

    #[test]
    fn a_url_neither_takes_is_invalid() {
        let error = hyper_request(request("not a url")).expect_err("invalid");
        assert_eq!(error.kind, TransportErrorKind::Invalid);
    }
}
