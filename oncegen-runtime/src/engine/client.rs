//! The `Client`: built once from a `Config`, cheap to clone. A call runs as the steps of the
//! `call` module; the pieces here are shared by calls, downloads and recovery: the 429 gate,
//! the wire an attempt is built with, and the error that ends a call.

use std::sync::Arc;
use std::time::Duration;

use http::{HeaderMap, HeaderValue};
use serde::de::DeserializeOwned;

use crate::auth::Auth;
use crate::auth::endpoint::Endpoint;
use crate::binary::Binary;
use crate::config::Config;
use crate::encoding::body::Format;
use crate::engine::attempt::Wire;
use crate::engine::budget::Budget;
use crate::engine::decision::decide::Failure;
use crate::engine::prepare::{Defaults, Prepared};
use crate::error::{ApiError, Error, ErrorContext};
use crate::rate_limit::{ProbePermit, RateLimitGate, RateLimitInfo};
use crate::request::{CallOptions, Request};
use crate::response::ResponseFuture;
use crate::transport::{HttpResponse, Transport, TransportError, TransportErrorKind};

/// The API client: cheap to clone (an `Arc` inside), one 429 gate shared by all clones.
#[derive(Clone, Debug)]
pub struct Client {
    pub(crate) inner: Arc<Inner>,
}

#[derive(Debug)]
pub(crate) struct Inner {
    pub config: Config,
    pub endpoint: Endpoint,
    pub transport: Arc<dyn Transport>,
    pub gate: RateLimitGate,
    pub user_agent: HeaderValue,
    pub auth: Auth,
    /// [`Config::credential_id`], computed once: what the journal records of each write.
    #[cfg(feature = "journal")]
    pub credential_id: Option<String>,
}

impl Client {
    /// Builds a client: validates the base URL (credentials over cleartext `http://` only to
    /// loopback hosts, unless [`Config::allow_insecure_http`]), the servers it routes to
    /// ([`Config::route_server`]) likewise, and the credentials, and builds the default
    /// transport when none is set: [`HyperTransport`](crate::HyperTransport), or, with the
    /// `reqwest` feature, `ReqwestTransport` when the environment names a proxy (`HTTPS_PROXY`,
    /// `HTTP_PROXY`, `ALL_PROXY`, in either case), which reqwest honours. Without that feature
    /// a proxy variable is not honoured, and a warning says so.
    pub fn new(config: Config) -> Result<Self, Error> {
        let endpoint = Endpoint::new(&config)?;
        for (_, to) in &config.server_routes {
            Endpoint::for_server(to, &config)?;
        }
        let transport: Arc<dyn Transport> = match &config.transport {
            Some(t) => t.clone(),
            None => crate::transport::default::default_transport(config.timeouts.connect, |name| {
                std::env::var(name).ok()
            })
            .map_err(|e| Error::config(e.to_string()))?,
        };
        let user_agent = HeaderValue::from_str(&config.effective_user_agent())
            .map_err(|_| Error::config("the user agent is not a valid header value"))?;
        let auth = Auth::new(&config)?;
        Ok(Self {
            inner: Arc::new(Inner {
                #[cfg(feature = "journal")]
                credential_id: config.credential_id(),
                config,
                endpoint,
                transport,
                gate: RateLimitGate::new(),
                user_agent,
                auth,
            }),
        })
    }

    /// The configuration.
    pub fn config(&self) -> &Config {
        &self.inner.config
    }

    /// The per-client 429 gate.
    pub fn rate_limit_gate(&self) -> &RateLimitGate {
        &self.inner.gate
    }

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
    /// | body over [`Config::max_response_bytes`] (non-5xx) | [`Error::ResponseTooLarge`] | same (a 2xx write was applied) |
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

    /// Validates and assembles a request with this client's defaults.
    pub(crate) fn prepare(
        &self,
        request: &Request,
        options: &CallOptions,
    ) -> Result<Prepared, Error> {
        Prepared::new(request, options, self.defaults())
    }

    pub(crate) fn defaults(&self) -> Defaults<'_> {
        Defaults {
            config: &self.inner.config,
            endpoint: &self.inner.endpoint,
        }
    }

    pub(crate) fn wire(&self) -> Wire<'_> {
        Wire {
            auth: &self.inner.auth,
            user_agent: &self.inner.user_agent,
            hooks: &self.inner.config.hooks,
            max_response_bytes: self.inner.config.max_response_bytes,
        }
    }

    /// Waits (bounded by the deadline) until the closed 429 gate lets this attempt go; `Err`
    /// when the deadline passes first.
    pub(crate) async fn pass_gate(&self, budget: &Budget) -> Result<Option<ProbePermit<'_>>, ()> {
        match budget.deadline() {
            Some(d) => tokio::time::timeout_at(d, self.inner.gate.acquire())
                .await
                .map_err(drop),
            None => Ok(self.inner.gate.acquire().await),
        }
    }

    /// Closes the gate after a 429 (for the advertised wait, else a backoff), opens it after
    /// any other answer to the probe. The wait the gate closed for, if it did.
    pub(crate) fn update_gate(
        &self,
        result: &Result<HttpResponse, TransportError>,
        permit: Option<ProbePermit<'_>>,
        p: &Prepared,
        budget: &Budget,
    ) -> Option<Duration> {
        let closed = match result {
            Ok(r) if r.status == 429 => {
                let wait = RateLimitInfo::from_headers(&r.headers)
                    .suggested_wait()
                    .unwrap_or_else(|| {
                        p.policy
                            .backoff(budget.sent() - 1)
                            .max(Duration::from_millis(1))
                    });
                let wait = wait.min(p.policy.max_retry_after);
                self.inner.gate.close_for(wait);
                Some(wait)
            }
            Ok(_) if permit.is_some() => {
                self.inner.gate.open();
                None
            }
            _ => None,
        };
        drop(permit);
        closed
    }

    /// An error response, with whether the contract says its code may be resent.
    pub(crate) fn api_error(&self, response: &HttpResponse, context: ErrorContext) -> ApiError {
        let profile = self.inner.config.profile;
        let mut api = ApiError::from_response(response, context, &profile.error_body);
        api.retryable_code = profile.is_retry_code(&api.code);
        api
    }

    /// The error that ends a call with `failure` (any but an unknown outcome).
    pub(crate) fn failure(
        &self,
        failure: Failure,
        p: &Prepared,
        result: Result<HttpResponse, TransportError>,
        attempts: u32,
    ) -> Error {
        let mut context = p.context(attempts);
        let response = match result {
            Err(source) if failure == Failure::TooLarge => {
                return Error::ResponseTooLarge {
                    status: source.status.unwrap_or_default(),
                    limit: self.inner.config.max_response_bytes,
                    context: Box::new(context),
                };
            }
            Err(source) if source.kind == TransportErrorKind::Timeout => {
                return Error::Timeout {
                    context: Box::new(context),
                };
            }
            Err(source) => {
                return Error::Transport {
                    source,
                    context: Box::new(context),
                };
            }
            Ok(response) => response,
        };
        let (rate_limit, request_id) = RateLimitInfo::with_request_id(&response.headers);
        context.request_id = request_id.map(str::to_owned);
        context.rate_limit = rate_limit;
        let status = response.status;
        match failure {
            Failure::Redirected => Error::Redirected {
                status,
                location: header(&response.headers, http::header::LOCATION.as_str())
                    .map(strip_query),
                context: Box::new(context),
            },
            Failure::Decode => Error::Decode {
                status,
                message: format!(
                    "expected a JSON body, got content type `{}`",
                    header(&response.headers, http::header::CONTENT_TYPE.as_str()).unwrap_or("-")
                ),
                body: Binary::from_response(&response.headers, response.body),
                context: Box::new(context),
            },
            _ => Error::Api(Box::new(self.api_error(&response, context))),
        }
    }
}

fn header<'h>(headers: &'h HeaderMap, name: &str) -> Option<&'h str> {
    headers.get(name).and_then(|v| v.to_str().ok())
}

/// A `Location` without its query and fragment (they may carry tokens).
fn strip_query(location: &str) -> String {
    location
        .split(['?', '#'])
        .next()
        .unwrap_or_default()
        .to_owned()
}
