//! The `Client`: prepares each call, then runs it as classify → decide → act. Every attempt's
//! result is classified (module `classify`, a pure function), a decision is taken (module
//! `decide`, the decision table as a pure function over a `budget`), and this module acts on
//! it: waits, resends, reconciliation lookups (module `reconcile`), the 429 gate, the write
//! journal, errors.

use std::borrow::Cow;
use std::sync::Arc;
use std::time::Duration;

use futures::FutureExt;
use futures::future::BoxFuture;
use http::{HeaderMap, HeaderValue};
use serde::de::DeserializeOwned;
use tokio::time::Instant;
use tracing::{Instrument, Span};

use crate::auth::Auth;
use crate::auth::endpoint::Endpoint;
use crate::config::Config;
use crate::encoding::body::{Binary, Format};
use crate::engine::attempt::{self, Wire};
use crate::engine::budget::Budget;
use crate::engine::decision::classify::{Class, classify};
use crate::engine::decision::decide::{Decision, Facts, Failure, after_lookup, decide, exhausted};
use crate::engine::prepare::{Defaults, Prepared};
use crate::engine::rate_limit::{ProbePermit, RateLimitGate, RateLimitInfo};
use crate::engine::telemetry;
use crate::error::{ApiError, Error, ErrorContext, Reconciliation, UnknownOutcome};
use crate::request::{CallOptions, Request};
use crate::response::{ResponseFuture, Undecoded};
use crate::transport::{HttpResponse, Transport, TransportError, TransportErrorKind};
use crate::write::reconcile;

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
}

/// What a call's future gives: a successful response with its body not decoded yet, or the
/// error that ended the call.
pub(crate) type CallResult = Result<Undecoded, Error>;

/// A call that ended with a response the decision table accepts.
#[derive(Debug)]
pub(crate) struct Settled {
    /// The final response (2xx).
    pub response: HttpResponse,
    /// HTTP attempts made, 429s included.
    pub attempts: u32,
}

/// How a call begins.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Start {
    /// With an attempt.
    Send,
    /// With a reconciliation lookup (a journaled write whose outcome is unknown).
    Reconcile,
    /// A reconciliation lookup itself: a read within its write's deadline.
    Lookup,
}

/// What the act loop remembers of a write whose outcome became unknown.
#[derive(Debug)]
struct Memory {
    reason: Cow<'static, str>,
    /// Boxed: an `ApiError` is large and rare, and this lives in every call's future.
    last_api: Option<Box<ApiError>>,
    found: Reconciliation,
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
    /// | timeout, reset, truncated body, 5xx, error status with a non-JSON body, 2xx with a non-JSON content type | backoff, resend; then the last error ([`Error::Decode`] for a 2xx) | **unknown outcome**: reconcile (below) |
    /// | 3xx | [`Error::Redirected`]: never followed | same |
    /// | body over [`Config::max_response_bytes`] (non-5xx) | [`Error::ResponseTooLarge`] | same (a 2xx write was applied) |
    /// | other 4xx | [`Error::Api`] | [`Error::Api`] |
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

    /// Prepares a call and boxes the future that runs it; its body is left to the
    /// [`ResponseFuture`] to decode.
    ///
    /// The call is prepared at once, so that its future holds a pointer, not the request and
    /// options: an invalid request still fails only when polled.
    fn start(&self, request: Request, options: CallOptions) -> BoxFuture<'_, CallResult> {
        let prepared = self.prepare(&request, &options);
        drop((request, options));
        match prepared {
            Ok(p) => self.traced(Box::new(p), Start::Send),
            Err(e) => std::future::ready(Err(e)).boxed(),
        }
    }

    /// The future of a prepared call, in its span (opened now). The call is one state machine
    /// ([`Self::call`]), wrapped in the span only when a subscriber wants it: without one,
    /// entering it on every poll is wasted.
    pub(crate) fn traced(&self, p: Box<Prepared>, start: Start) -> BoxFuture<'_, CallResult> {
        let span = telemetry::call_span(&p, &self.inner.endpoint);
        if span.is_disabled() {
            self.call(p, start, span).boxed()
        } else {
            let inside = span.clone();
            self.call(p, start, span).instrument(inside).boxed()
        }
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

    /// Runs a prepared call, one state machine from the journal record to the settled
    /// response: every attempt's result is classified, a decision taken and acted on, and the
    /// answers recorded on `span`. The call's clock restarts here (it counts from the first
    /// poll) unless it is a lookup, which keeps its write's deadline. With a journal, a keyed
    /// write is recorded before its first attempt (unless `start` resumes a journaled one) and
    /// its outcome once definite (the entry stays until the application acknowledges it). A
    /// failure is recorded on `span` here, a success when its body is decoded.
    async fn call(&self, mut p: Box<Prepared>, start: Start, span: Span) -> CallResult {
        if start != Start::Lookup {
            p.restart_clock();
        }
        #[cfg(feature = "journal")]
        let journal = self
            .inner
            .config
            .journal
            .as_deref()
            .filter(|_| p.is_write() && start != Start::Lookup);
        #[cfg(feature = "journal")]
        if let (Some(journal), Start::Send) = (journal, start)
            && let Err(e) = Box::pin(crate::write::journaling::record(
                journal,
                &p,
                &self.inner.user_agent,
            ))
            .await
        {
            telemetry::record_outcome(&span, 0, Some(&e));
            return Err(e);
        }
        let mut budget = Budget::new(&p.policy, p.deadline);
        let mut facts = Facts {
            is_write: p.is_write(),
            has_key: p.idempotency_key.is_some(),
            reconcile: p.policy.reconcile_unknown_writes,
            maybe_delivered: false,
        };
        let mut memory = Memory {
            reason: Cow::Borrowed("the write was journaled and its outcome is unknown"),
            last_api: None,
            found: Reconciliation::NotAttempted,
        };
        let mut reconcile_first = start == Start::Reconcile;
        // With the call's result, the final answer of a call that ends otherwise than with
        // success (a rejection, a redirect), which settles its journal entry.
        let (result, answer): (Result<Settled, Error>, Option<HttpResponse>) = 'act: loop {
            if reconcile_first {
                reconcile_first = false;
                facts.maybe_delivered = true;
                memory.found = self.lookup(&p).await;
                // A journaled write resumed by recovery had no failed attempt in this process:
                // nothing to back off from.
                let backoff = match budget.sent() {
                    0 => Duration::ZERO,
                    sent => p.policy.backoff(sent - 1),
                };
                let found = reconcile::as_lookup(&memory.found);
                let resend = p.policy.resend_when_not_found;
                match after_lookup(found, resend, &budget, backoff, Instant::now()) {
                    Decision::Retry { after } => tokio::time::sleep(after).await,
                    Decision::Fail(Failure::Applied) => {
                        break 'act (Err(applied(&p, budget.sent(), &memory.found)), None);
                    }
                    _ => break 'act (Err(unknown(&p, budget.sent(), memory)), None),
                }
            }
            // An open gate (the usual case) is one atomic load, no future.
            let gate = match self.inner.gate.is_closed() {
                false => Ok(None),
                true => self.pass_gate(&budget).await,
            };
            let Ok(permit) = gate else {
                let error = match exhausted(&facts, Failure::Timeout) {
                    Failure::Unknown => {
                        let reason = memory.reason.to_mut();
                        reason.push_str("; then the rate-limit wait outlasted the call timeout");
                        unknown(&p, budget.sent(), memory)
                    }
                    _ => Error::Timeout {
                        context: Box::new(p.context(budget.sent())),
                    },
                };
                break 'act (Err(error), None);
            };
            budget.spend_attempt();
            let (request, sent) = match attempt::begin(self.wire(), &p, budget.sent()) {
                Ok(begun) => begun,
                Err(e) => break 'act (Err(e), None),
            };
            let send = self.inner.transport.send(request);
            // `timeout_at`: the end is known, no second clock read.
            let result = match sent.ends {
                Some(e) => tokio::time::timeout_at(e, send)
                    .await
                    .unwrap_or_else(|_| Err(attempt::timed_out())),
                None => send.await,
            };
            let result = match attempt::end(self.wire(), &p, sent, result) {
                Ok(result) => result,
                Err(e) => break 'act (Err(e), None),
            };
            self.update_gate(&result, permit, &p, &budget);
            let class = match classify(&result, self.inner.config.profile) {
                // A call reading text or bytes takes any 2xx body as it is (a garbled answer
                // is a 2xx whose body is not JSON).
                Class::Garbled if !p.expects_json() => Class::Success,
                class => class,
            };
            if let Ok(r) = &result {
                telemetry::record_response(&span, r);
            }
            if matches!(class, Class::RateLimited { .. }) {
                budget.spend_rate_limit();
            }
            if facts.is_write && maybe_processed(&class) {
                facts.maybe_delivered = true;
                memory.reason = Cow::Owned(reason(&class, &result));
                memory.last_api = result
                    .as_ref()
                    .ok()
                    .filter(|r| r.status >= 400)
                    .map(|r| Box::new(self.api_error(r, p.context(budget.sent()))));
            }
            let decision = match class {
                // The table's answer to a success, without the clock read and the jitter draw
                // of a backoff it does not use.
                Class::Success => Decision::Done,
                _ => {
                    let backoff = p.policy.backoff(budget.sent() - 1);
                    decide(&class, &facts, &budget, backoff, Instant::now())
                }
            };
            match decision {
                Decision::Done => {
                    let Ok(response) = result else {
                        unreachable!("only a response is classified a success")
                    };
                    let settled = Settled {
                        response,
                        attempts: budget.sent(),
                    };
                    break 'act (Ok(settled), None);
                }
                Decision::Retry { after } => tokio::time::sleep(after).await,
                Decision::AwaitGate => {}
                Decision::Reconcile => reconcile_first = true,
                Decision::Fail(Failure::Unknown) => {
                    break 'act (Err(unknown(&p, budget.sent(), memory)), None);
                }
                Decision::Fail(failure) => {
                    #[cfg(feature = "journal")]
                    let answer = journal.and(result.as_ref().ok()).cloned();
                    #[cfg(not(feature = "journal"))]
                    let answer = None;
                    let error = self.failure(failure, &p, result, budget.sent());
                    break 'act (Err(error), answer);
                }
            }
        };
        // Only a journal keeps the final answer.
        #[cfg(not(feature = "journal"))]
        let _ = answer;
        #[cfg(feature = "journal")]
        if let Some(journal) = journal {
            crate::write::kill_point!("receive");
            let response = result.as_ref().map(|s| &s.response);
            crate::write::journaling::settle(journal, &p, response, answer.as_ref()).await;
        }
        match result {
            Ok(Settled { response, attempts }) => Ok(Undecoded {
                response,
                attempts,
                prepared: p,
                span,
            }),
            Err(e) => {
                let attempts = e.context().map_or(0, |c| c.attempts);
                telemetry::record_outcome(&span, attempts, Some(&e));
                Err(e)
            }
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
    /// any other answer to the probe.
    pub(crate) fn update_gate(
        &self,
        result: &Result<HttpResponse, TransportError>,
        permit: Option<ProbePermit<'_>>,
        p: &Prepared,
        budget: &Budget,
    ) {
        match result {
            Ok(r) if r.status == 429 => {
                let wait = RateLimitInfo::from_headers(&r.headers)
                    .suggested_wait()
                    .unwrap_or_else(|| {
                        p.policy
                            .backoff(budget.sent() - 1)
                            .max(Duration::from_millis(1))
                    });
                self.inner
                    .gate
                    .close_for(wait.min(p.policy.max_retry_after));
            }
            Ok(_) if permit.is_some() => self.inner.gate.open(),
            _ => {}
        }
        drop(permit);
    }

    /// Looks the write up by its key: a read through the same loop (its own attempts, the
    /// write's deadline), in its own span.
    fn lookup<'a>(&'a self, p: &'a Prepared) -> BoxFuture<'a, Reconciliation> {
        async move {
            let (Some(lookup), Some(key)) = (
                self.inner.config.profile.lookup,
                p.idempotency_key.as_deref(),
            ) else {
                return Reconciliation::Failed {
                    message: "the API has no operation lookup".into(),
                };
            };
            let request = reconcile::lookup_request(&lookup, key, p.method, p.url.path());
            let mut options = CallOptions::new();
            if let Some(id) = &p.client_request_id {
                options.set_client_request_id(id.clone());
            }
            let answer = match self.prepare(&request, &options) {
                Ok(mut read) => {
                    read.deadline = p.deadline;
                    read.attempt_timeout = p.attempt_timeout;
                    read.policy = p.policy.clone();
                    let span = telemetry::call_span(&read, &self.inner.endpoint);
                    let inside = span.clone();
                    // A failure is recorded on the span by the call, a success here: the
                    // lookup's body is read as it is, not decoded as a response.
                    self.call(Box::new(read), Start::Lookup, span)
                        .instrument(inside)
                        .await
                        .map(|read| {
                            telemetry::record_outcome(&read.span, read.attempts, None);
                            read.response
                        })
                }
                Err(e) => Err(e),
            };
            let found = reconcile::read_answer(&lookup, answer);
            tracing::debug!(?found, "reconciliation lookup");
            found
        }
        .boxed()
    }

    /// An error response, with whether the contract says its code may be resent.
    fn api_error(&self, response: &HttpResponse, context: ErrorContext) -> ApiError {
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

/// Whether `class` means a write may have been processed without the client knowing how.
fn maybe_processed(class: &Class) -> bool {
    matches!(
        class,
        Class::Garbled | Class::ServerError | Class::Lost { .. }
    )
}

/// Why a write's outcome is unknown, in words.
fn reason(class: &Class, result: &Result<HttpResponse, TransportError>) -> String {
    match (class, result) {
        (Class::Lost { timeout: true }, _) => "timeout".into(),
        (_, Err(e)) => format!("transport error: {e}"),
        (Class::Garbled, Ok(_)) => "non-JSON success response".into(),
        (_, Ok(r)) if r.status >= 500 => format!("HTTP {}", r.status),
        (_, Ok(r)) => format!("non-JSON HTTP {} response", r.status),
    }
}

fn unknown(p: &Prepared, attempts: u32, memory: Memory) -> Error {
    let mut context = p.context(attempts);
    if let Some(api) = &memory.last_api {
        context.request_id = api.request_id.clone();
        context.rate_limit = api.context.rate_limit.clone();
    }
    Error::WriteOutcomeUnknown(Box::new(UnknownOutcome {
        method: p.method,
        path: p.url.path().to_owned(),
        idempotency_key: p.idempotency_key.clone(),
        reason: memory.reason.into_owned(),
        reconciliation: memory.found,
        last_api_error: memory.last_api.map(|api| *api),
        context,
    }))
}

/// A write the lookup found recorded whose stored answer could not be fetched.
fn applied(p: &Prepared, attempts: u32, found: &Reconciliation) -> Error {
    let operation_id = match found {
        Reconciliation::Recorded { operation_id } => operation_id.clone(),
        _ => None,
    };
    Error::WriteApplied {
        operation_id,
        context: Box::new(p.context(attempts)),
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
