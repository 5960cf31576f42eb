//! The default transport over `reqwest`: rustls (or native-tls, by cargo feature), no
//! redirects, and a body read that stops at the cap.

use std::time::Duration;

use bytes::{Bytes, BytesMut};
use futures::future::BoxFuture;

use crate::transport::{
    HttpRequest, HttpResponse, StreamingResponse, Transport, TransportError, TransportErrorKind,
};

/// The default transport over `reqwest`.
///
/// It never follows a redirect: a 3xx reaches the client, which reports it as
/// [`Error::Redirected`](crate::Error::Redirected). TLS is rustls unless the crate is built with
/// only the `native-tls` feature.
#[derive(Clone, Debug)]
pub struct ReqwestTransport {
    client: reqwest::Client,
}

impl ReqwestTransport {
    /// `request` as reqwest's. Built directly rather than through `RequestBuilder::headers`,
    /// which copies the header map entry by entry into the request's own.
    fn reqwest_request(request: HttpRequest) -> Result<reqwest::Request, TransportError> {
        let url = reqwest::Url::parse(&request.url).map_err(|e| {
            TransportError::new(TransportErrorKind::Invalid, format!("invalid URL: {e}"))
        })?;
        let mut built = reqwest::Request::new(request.method, url);
        *built.headers_mut() = request.headers;
        *built.body_mut() = Some(request.body.into());
        Ok(built)
    }

    /// Builds a reqwest client with the given connect timeout.
    pub fn new(connect_timeout: Option<Duration>) -> Result<Self, TransportError> {
        let mut builder = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none());
        #[cfg(feature = "rustls")]
        {
            builder = builder.tls_backend_rustls();
        }
        #[cfg(all(feature = "native-tls", not(feature = "rustls")))]
        {
            builder = builder.tls_backend_native();
        }
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

    /// Wraps an existing reqwest client. Build it with
    /// `redirect(reqwest::redirect::Policy::none())`: a client that follows redirects may
    /// carry a write and its credentials to another origin.
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

fn too_large(limit: usize, status: u16) -> TransportError {
    TransportError::new(
        TransportErrorKind::BodyTooLarge,
        format!("the response body exceeds {limit} bytes"),
    )
    .with_status(status)
}

/// Reads the body chunk by chunk, failing as soon as it would pass `limit` bytes (a declared
/// `Content-Length` over it fails before any read).
async fn read_capped(
    mut response: reqwest::Response,
    limit: usize,
) -> Result<Bytes, TransportError> {
    let status = response.status().as_u16();
    let declared = response.content_length().unwrap_or(0);
    if declared > limit as u64 {
        return Err(too_large(limit, status));
    }
    let read_error = |e| map_reqwest_error(e).with_status(status);
    let Some(first) = response.chunk().await.map_err(read_error)? else {
        return Ok(Bytes::new());
    };
    if first.len() > limit {
        return Err(too_large(limit, status));
    }
    let Some(second) = response.chunk().await.map_err(read_error)? else {
        return Ok(first); // the common case: one chunk, no copy
    };
    let mut body = BytesMut::with_capacity((declared as usize).max(first.len() + second.len()));
    let mut next = Some(second);
    body.extend_from_slice(&first);
    while let Some(chunk) = next {
        if body.len() + chunk.len() > limit {
            return Err(too_large(limit, status));
        }
        body.extend_from_slice(&chunk);
        next = response.chunk().await.map_err(read_error)?;
    }
    Ok(body.freeze())
}

impl Transport for ReqwestTransport {
    fn send(&self, request: HttpRequest) -> BoxFuture<'_, Result<HttpResponse, TransportError>> {
        // The attempt timeout is enforced by the client around this future.
        let max_response_bytes = request.max_response_bytes;
        // Handed to reqwest before the future is made, so that it holds reqwest's request only.
        let sent = match Self::reqwest_request(request) {
            Ok(built) => self.client.execute(built),
            Err(e) => return Box::pin(std::future::ready(Err(e))),
        };
        Box::pin(async move {
            let mut response = sent.await.map_err(map_reqwest_error)?;
            // Moved, not cloned: the body read needs only the body.
            let status = response.status().as_u16();
            let headers = std::mem::take(response.headers_mut());
            let body = read_capped(response, max_response_bytes).await?;
            Ok(HttpResponse {
                status,
                headers,
                body,
            })
        })
    }

    fn send_streaming(
        &self,
        request: HttpRequest,
    ) -> BoxFuture<'_, Result<StreamingResponse, TransportError>> {
        let sent = match Self::reqwest_request(request) {
            Ok(built) => self.client.execute(built),
            Err(e) => return Box::pin(std::future::ready(Err(e))),
        };
        Box::pin(async move {
            let mut response = sent.await.map_err(map_reqwest_error)?;
            let status = response.status().as_u16();
            let headers = std::mem::take(response.headers_mut());
            let body = futures::stream::try_unfold(response, move |mut response| async move {
                let chunk = response
                    .chunk()
                    .await
                    .map_err(|e| map_reqwest_error(e).with_status(status))?;
                Ok(chunk.map(|c| (c, response)))
            });
            Ok(StreamingResponse {
                status,
                headers,
                body: Box::pin(body),
            })
        })
    }
}
