//! Downloads: a successful body read as a stream of chunks, never held whole
//! ([`Client::download`]).

use std::fmt;
use std::pin::Pin;
use std::task::{Context, Poll};

use bytes::{Bytes, BytesMut};
use futures::{Stream, StreamExt};
use http::HeaderMap;

use crate::client::Client;
use crate::error::{ApiError, Error, ErrorContext};
use crate::request::{CallOptions, Request};
use crate::transport::{BodyStream, HttpRequest, HttpResponse, TransportError};

/// A successful response whose body arrives chunk by chunk: a `Stream` of
/// `Result<Bytes, Error>`. Nothing bounds its size but the reader.
pub struct Download {
    status: u16,
    headers: HeaderMap,
    body: BodyStream,
    context: ErrorContext,
}

impl Download {
    /// The HTTP status.
    pub fn status(&self) -> u16 {
        self.status
    }

    /// The response headers.
    pub fn headers(&self) -> &HeaderMap {
        &self.headers
    }

    /// The `Content-Type` the server sent.
    pub fn content_type(&self) -> Option<&str> {
        self.headers
            .get(http::header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
    }

    /// The declared `Content-Length`, if any.
    pub fn content_length(&self) -> Option<u64> {
        self.headers
            .get(http::header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse().ok())
    }
}

impl fmt::Debug for Download {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Download")
            .field("status", &self.status)
            .field("content_type", &self.content_type())
            .finish_non_exhaustive()
    }
}

impl Stream for Download {
    type Item = Result<Bytes, Error>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        self.body.poll_next_unpin(cx).map(|chunk| {
            chunk.map(|r| {
                r.map_err(|source| Error::Transport {
                    source,
                    context: Box::new(self.context.clone()),
                })
            })
        })
    }
}

impl Client {
    /// Sends `request` and returns the successful body as a [`Download`], a stream of chunks,
    /// for bodies too large to hold (files, exports, logs). Credentials, headers and `security`
    /// are as for [`Client::execute`]; the call is one attempt, never resent (a stream half
    /// read cannot be resumed), and its attempt timeout covers the wait for the response head
    /// only. A non-2xx answer is read whole (up to the body cap) and returned as the same
    /// [`Error`] `execute` gives.
    pub async fn download(
        &self,
        mut request: Request,
        options: CallOptions,
    ) -> Result<Download, Error> {
        if !request.accept_is_set() {
            request.accept("*/*");
        }
        let p = self.prepare(&request, &options)?;
        let context = p.context(1);
        let (headers, url) =
            crate::attempt::authorized(&self.inner.auth, &self.inner.user_agent, &p)?;
        let max = self.inner.config.max_response_bytes;
        let http = HttpRequest {
            method: crate::spec::http_method(p.method),
            url,
            headers,
            body: p.body.clone(),
            timeout: p.attempt_timeout,
            max_response_bytes: max,
        };
        let send = self.inner.transport.send_streaming(http);
        let sent = match p.attempt_timeout {
            Some(t) => tokio::time::timeout(t, send)
                .await
                .map_err(|_| Error::Timeout {
                    context: Box::new(context.clone()),
                })?,
            None => send.await,
        };
        let response = sent.map_err(|source| Error::Transport {
            source,
            context: Box::new(context.clone()),
        })?;
        if (200..300).contains(&response.status) {
            return Ok(Download {
                status: response.status,
                headers: response.headers,
                body: response.body,
                context,
            });
        }
        let status = response.status;
        let body = read_capped(response.body, max, status)
            .await
            .map_err(|source| Error::Transport {
                source,
                context: Box::new(context.clone()),
            })?;
        let whole = HttpResponse {
            status,
            headers: response.headers,
            body,
        };
        if (300..400).contains(&status) {
            return Err(Error::Redirected {
                status,
                location: whole
                    .headers
                    .get(http::header::LOCATION)
                    .and_then(|v| v.to_str().ok())
                    .map(|l| l.split(['?', '#']).next().unwrap_or(l).to_owned()),
                context: Box::new(context),
            });
        }
        let profile = self.inner.config.profile;
        let mut api = ApiError::from_response(&whole, context, &profile.error_body);
        api.retryable_code = profile.is_retry_code(&api.code);
        Err(Error::Api(Box::new(api)))
    }
}

/// Reads an error body whole, up to `limit` bytes.
async fn read_capped(
    mut body: BodyStream,
    limit: usize,
    status: u16,
) -> Result<Bytes, TransportError> {
    let mut out = BytesMut::new();
    while let Some(chunk) = body.next().await {
        let chunk = chunk?;
        if out.len() + chunk.len() > limit {
            return Err(TransportError::new(
                crate::transport::TransportErrorKind::BodyTooLarge,
                format!("the response body exceeds {limit} bytes"),
            )
            .with_status(status));
        }
        out.extend_from_slice(&chunk);
    }
    Ok(out.freeze())
}
