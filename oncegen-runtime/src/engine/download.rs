//! Downloads: a successful body read as a stream of chunks, never held whole
//! ([`Client::download`]).

use std::fmt;
use std::pin::Pin;
use std::task::{Context, Poll};

use bytes::{Bytes, BytesMut};
use futures::{Stream, StreamExt};
use http::HeaderMap;

use tokio::time::Instant;

use crate::engine::attempt;
use crate::engine::budget::Budget;
use crate::engine::client::Client;
use crate::engine::decision::classify::{Class, classify};
use crate::engine::decision::decide::{Decision, Facts, Failure, decide};
use crate::engine::prepare::Prepared;
use crate::error::{Error, ErrorContext};
use crate::request::{CallOptions, Request};
use crate::transport::{BodyStream, HttpResponse, TransportError};

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
    /// for bodies too large to hold (files, exports, logs). Credentials, headers, `security`,
    /// hooks and the 429 gate are as for [`Client::execute`], and so are retries until the
    /// response head arrives: a read is resent after a connection failure, a timeout, a 5xx, a
    /// 429 or a retry code, within the retry policy and the call timeout; a write only when it
    /// certainly was not processed (not delivered, 429, a retry code), never after an answer
    /// that may mean it ran. Once a 2xx head arrives the download is returned and nothing is
    /// resent (a stream half read cannot be resumed): a failure while reading it is an
    /// [`Error::Transport`] from the stream. The attempt timeout covers the wait for the head
    /// (and the read of an error body) only. A non-2xx answer is read whole (up to the body
    /// cap) and returned as the same [`Error`] `execute` gives.
    pub async fn download(
        &self,
        mut request: Request,
        options: CallOptions,
    ) -> Result<Download, Error> {
        if !request.accept_is_set() {
            request.accept("*/*");
        }
        let mut p = self.prepare(&request, &options)?;
        drop((request, options));
        p.start_clock();
        let mut budget = Budget::new(&p.policy, p.deadline);
        let facts = Facts {
            is_write: p.is_write(),
            has_key: p.idempotency_key.is_some(),
            // No lookups: a write that may have run ends with its answer, below.
            reconcile: false,
            maybe_delivered: false,
        };
        loop {
            let permit = match self.inner.gate.is_closed() {
                false => None,
                true => self.pass_gate(&budget).await.map_err(|()| Error::Timeout {
                    context: Box::new(p.context(budget.sent())),
                })?,
            };
            budget.spend_attempt();
            let result = match self.download_attempt(&p, budget.sent()).await? {
                Head::Success(download) => {
                    if permit.is_some() {
                        self.inner.gate.open();
                    }
                    return Ok(download);
                }
                Head::Other(result) => result,
            };
            self.update_gate(&result, permit, &p, &budget);
            let class = classify(&result, self.inner.config.profile);
            if matches!(class, Class::RateLimited { .. }) {
                budget.spend_rate_limit();
            }
            let backoff = p.policy.backoff(budget.sent() - 1);
            match decide(&class, &facts, &budget, backoff, Instant::now()) {
                Decision::Retry { after } => tokio::time::sleep(after).await,
                Decision::AwaitGate => {}
                Decision::Fail(failure @ (Failure::Redirected | Failure::TooLarge)) => {
                    return Err(self.failure(failure, &p, result, budget.sent()));
                }
                // The answer as it came: an API error, a transport failure or a timeout (a
                // write that may have run included: it is not resent).
                _ => return Err(self.failure(Failure::Api, &p, result, budget.sent())),
            }
        }
    }

    /// One attempt of a download, until its head (a 2xx) or its whole answer (anything else)
    /// arrived, under the attempt's time limit.
    async fn download_attempt(&self, p: &Prepared, number: u32) -> Result<Head, Error> {
        let wire = self.wire();
        let (request, sent) = attempt::begin(wire, p, number)?;
        let head = async {
            let response = self.inner.transport.send_streaming(request).await?;
            if (200..300).contains(&response.status) {
                return Ok(Ok(response));
            }
            let body = read_capped(response.body, wire.max_response_bytes, response.status);
            Ok(Err(HttpResponse {
                status: response.status,
                headers: response.headers,
                body: body.await?,
            }))
        };
        let arrived = match sent.ends {
            Some(e) => tokio::time::timeout_at(e, head)
                .await
                .unwrap_or_else(|_| Err(attempt::timed_out())),
            None => head.await,
        };
        // The hooks see a 2xx head as a response with an empty body (its stream is the
        // caller's to read).
        let (result, stream) = match arrived {
            Ok(Ok(streaming)) => {
                let head = HttpResponse {
                    status: streaming.status,
                    headers: streaming.headers,
                    body: Bytes::new(),
                };
                (Ok(head), Some(streaming.body))
            }
            Ok(Err(whole)) => (Ok(whole), None),
            Err(e) => (Err(e), None),
        };
        let result = attempt::end(wire, p, sent, result)?;
        Ok(match (result, stream) {
            (Ok(head), Some(body)) => Head::Success(Download {
                status: head.status,
                headers: head.headers,
                body,
                context: p.context(number),
            }),
            (result, _) => Head::Other(result),
        })
    }
}

/// How a download attempt ended.
enum Head {
    /// A 2xx head: the body is the caller's stream.
    Success(Download),
    /// Anything else, read whole: another status, or a transport failure.
    Other(Result<HttpResponse, TransportError>),
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
