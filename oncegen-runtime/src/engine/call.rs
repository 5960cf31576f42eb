//! A call as steps: prepare (at `execute`), begin the journal entry, then attempts until the
//! decision table ends the call (each one: pass the 429 gate, one attempt, classify, decide,
//! act), and settle the entry. Every attempt's result is classified (`classify`, a pure
//! function), a decision taken (`decide`, the decision table as a pure function over a
//! `budget`), and the steps here act on it: waits, resends, reconciliation lookups (module
//! `reconcile`), the 429 gate, errors. The journal steps are the `entry` module's.

use std::borrow::Cow;
use std::time::Duration;

use futures::FutureExt;
use futures::future::BoxFuture;
use tokio::time::Instant;
use tracing::{Instrument, Span};

use crate::engine::attempt;
use crate::engine::budget::Budget;
use crate::engine::client::Client;
use crate::engine::decision::classify::{Class, classify};
use crate::engine::decision::decide::{Decision, Facts, Failure, after_lookup, decide, exhausted};
use crate::engine::entry::Entry;
use crate::engine::prepare::Prepared;
use crate::engine::reconcile;
use crate::engine::telemetry;
use crate::error::{ApiError, Error, Reconciliation, UnknownOutcome};
use crate::hooks::Wait;
use crate::request::{CallOptions, Request};
use crate::transport::{HttpResponse, TransportError};

/// A call that settled with a successful response whose body is not decoded yet (decoded by
/// the [`ResponseFuture`](crate::ResponseFuture), in the results layer above).
pub(crate) struct Undecoded {
    /// The final response (2xx).
    pub response: HttpResponse,
    /// HTTP attempts made, 429s included.
    pub attempts: u32,
    /// The call.
    pub prepared: Box<Prepared>,
    /// The call's span, which records how the call ended.
    pub span: Span,
}

/// What a call's future gives: a successful response with its body not decoded yet, or the
/// error that ended the call.
pub(crate) type CallResult = Result<Undecoded, Error>;

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

/// How the attempts of a call ended: with the accepted response, or an error and, for a call
/// that ends otherwise than with success (a rejection, a redirect), the final answer, which
/// settles its journal entry.
type Ended = (Result<Settled, Error>, Option<HttpResponse>);

/// A call that ended with a response the decision table accepts.
#[derive(Debug)]
struct Settled {
    /// The final response (2xx).
    response: HttpResponse,
    /// HTTP attempts made, 429s included.
    attempts: u32,
}

/// What the attempts of a call keep between steps.
struct Run {
    budget: Budget,
    facts: Facts,
    memory: Memory,
    /// The next step is a reconciliation lookup, not an attempt.
    reconcile_next: bool,
}

/// What a call remembers of a write whose outcome became unknown.
#[derive(Debug)]
struct Memory {
    reason: Cow<'static, str>,
    /// Boxed: an `ApiError` is large and rare, and this lives in every call's future.
    last_api: Option<Box<ApiError>>,
    found: Reconciliation,
}

impl Client {
    /// Prepares a call and boxes the future that runs it; its body is left to the
    /// [`ResponseFuture`](crate::ResponseFuture) to decode.
    ///
    /// The call is prepared at once, so that its future holds a pointer, not the request and
    /// options: an invalid request still fails only when polled.
    pub(crate) fn start(
        &self,
        request: Request,
        options: CallOptions,
    ) -> BoxFuture<'_, CallResult> {
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

    /// Runs a prepared call, one state machine of four steps: begin its journal entry, run its
    /// attempts ([`Self::attempts`]), settle the entry, and hand over the response. The call's
    /// clock starts here (it counts from the first poll) unless it is a lookup, which keeps
    /// its write's deadline. A failure is recorded on `span` here, a success when its body is
    /// decoded.
    async fn call(&self, mut p: Box<Prepared>, start: Start, span: Span) -> CallResult {
        let entry = match start {
            Start::Send => {
                p.start_clock();
                match Entry::begin(self, &p).await {
                    Ok(entry) => entry,
                    Err(e) => {
                        telemetry::record_outcome(&span, 0, Some(&e));
                        return Err(e);
                    }
                }
            }
            Start::Reconcile => {
                p.start_clock();
                Entry::resumed(self, &p)
            }
            Start::Lookup => Entry::none(),
        };
        let (result, answer) = self.attempts(&p, start, &entry, &span).await;
        let response = result.as_ref().map(|s| &s.response);
        entry.settle(&p, response, answer.as_ref()).await;
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

    /// Attempts until the decision table ends the call: each pass waits at a closed 429 gate,
    /// sends one attempt, classifies and decides, then acts (wait and resend, look the write
    /// up, end). The answers are recorded on `span`.
    async fn attempts(&self, p: &Prepared, start: Start, entry: &Entry<'_>, span: &Span) -> Ended {
        let mut run = Run::new(p, start);
        loop {
            if run.reconcile_next {
                match self.reconcile(p, &mut run).await {
                    Decision::Retry { after } => tokio::time::sleep(after).await,
                    Decision::Fail(Failure::Applied) => return (Err(run.applied(p)), None),
                    _ => return (Err(run.unknown(p)), None),
                }
            }
            // An open gate (the usual case) is one atomic load, no future.
            let permit = match self.inner.gate.is_closed() {
                false => None,
                true => match self.pass_gate(&run.budget).await {
                    Ok(permit) => permit,
                    Err(()) => return (Err(run.gate_outlasted_the_call(p)), None),
                },
            };
            let result = match self.attempt(p, &mut run.budget).await {
                Ok(result) => result,
                Err(e) => return (Err(e), None),
            };
            let closed = self.update_gate(&result, permit, p, &run.budget);
            let decision = self.decide(p, &mut run, &result, span);
            let wait = match decision {
                Decision::Retry { after } => Some(after),
                Decision::AwaitGate => closed,
                _ => None,
            };
            if let Some(duration) = wait {
                self.waiting(p, &run, &result, duration);
            }
            match decision {
                Decision::Done => {
                    let Ok(response) = result else {
                        unreachable!("only a response is classified a success")
                    };
                    let attempts = run.budget.sent();
                    return (Ok(Settled { response, attempts }), None);
                }
                Decision::Retry { after } => tokio::time::sleep(after).await,
                Decision::AwaitGate => {}
                Decision::Reconcile => run.reconcile_next = true,
                Decision::Fail(Failure::Unknown) => return (Err(run.unknown(p)), None),
                Decision::Fail(failure) => {
                    let answer = entry.answer(&result);
                    let error = self.failure(failure, p, result, run.budget.sent());
                    return (Err(error), answer);
                }
            }
        }
    }

    /// One attempt: its headers, credentials and hook (`attempt::begin`), the transport within
    /// the attempt timeout, then the hook and the attempt's event (`attempt::end`). `Err`: the
    /// attempt could not be built, and the call ends.
    async fn attempt(
        &self,
        p: &Prepared,
        budget: &mut Budget,
    ) -> Result<Result<HttpResponse, TransportError>, Error> {
        budget.spend_attempt();
        let (request, sent) = attempt::begin(self.wire(), p, budget.sent())?;
        let send = self.inner.transport.send(request);
        // `timeout_at`: the end is known, no second clock read.
        let result = match sent.ends {
            Some(e) => tokio::time::timeout_at(e, send)
                .await
                .unwrap_or_else(|_| Err(attempt::timed_out())),
            None => send.await,
        };
        attempt::end(self.wire(), p, sent, result)
    }

    /// Tells the hooks the call waits `duration` before it sends again.
    fn waiting(
        &self,
        p: &Prepared,
        run: &Run,
        result: &Result<HttpResponse, TransportError>,
        duration: Duration,
    ) {
        let wait = Wait {
            duration,
            status: result.as_ref().ok().map(|r| r.status),
            max_attempts: p.policy.max_attempts,
        };
        attempt::waiting(&self.inner.config.hooks, p, run.budget.sent(), &wait);
    }

    /// Classifies an attempt's result, records it on the call (its span, the budget, and what
    /// an unknown write outcome will report) and takes the decision table's answer.
    fn decide(
        &self,
        p: &Prepared,
        run: &mut Run,
        result: &Result<HttpResponse, TransportError>,
        span: &Span,
    ) -> Decision {
        let class = match classify(result, self.inner.config.profile) {
            // A call reading text or bytes takes any 2xx body as it is (a garbled answer is a
            // 2xx whose body is not JSON).
            Class::Garbled if !p.expects_json() => Class::Success,
            class => class,
        };
        if let Ok(r) = result {
            telemetry::record_response(span, r);
        }
        if matches!(class, Class::RateLimited { .. }) {
            run.budget.spend_rate_limit();
        }
        if run.facts.is_write && maybe_processed(&class) {
            run.facts.maybe_delivered = true;
            run.memory.reason = Cow::Owned(reason(&class, result));
            run.memory.last_api = result
                .as_ref()
                .ok()
                .filter(|r| r.status >= 400)
                .map(|r| Box::new(self.api_error(r, p.context(run.budget.sent()))));
        }
        match class {
            // The table's answer to a success, without the clock read and the jitter draw of a
            // backoff it does not use.
            Class::Success => Decision::Done,
            _ => {
                let backoff = p.policy.backoff(run.budget.sent() - 1);
                decide(&class, &run.facts, &run.budget, backoff, Instant::now())
            }
        }
    }

    /// Looks the write up by its key and takes the table's answer to what was found: a resend
    /// (`Retry`), or how the call ends.
    async fn reconcile(&self, p: &Prepared, run: &mut Run) -> Decision {
        run.reconcile_next = false;
        run.facts.maybe_delivered = true;
        run.memory.found = self.lookup(p).await;
        // A journaled write resumed by recovery had no failed attempt in this process: nothing
        // to back off from.
        let backoff = match run.budget.sent() {
            0 => Duration::ZERO,
            sent => p.policy.backoff(sent - 1),
        };
        let found = reconcile::as_lookup(&run.memory.found);
        let resend = p.policy.resend_when_not_found;
        after_lookup(found, resend, &run.budget, backoff, Instant::now())
    }

    /// Looks the write up by its key: a read through the same steps (its own attempts, the
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
}

impl Run {
    fn new(p: &Prepared, start: Start) -> Self {
        Run {
            budget: Budget::new(&p.policy, p.deadline),
            facts: Facts {
                is_write: p.is_write(),
                has_key: p.idempotency_key.is_some(),
                reconcile: p.policy.reconcile_unknown_writes,
                maybe_delivered: false,
            },
            memory: Memory {
                reason: Cow::Borrowed("the write was journaled and its outcome is unknown"),
                last_api: None,
                found: Reconciliation::NotAttempted,
            },
            reconcile_next: start == Start::Reconcile,
        }
    }

    /// The error when the deadline passes at the closed 429 gate.
    fn gate_outlasted_the_call(mut self, p: &Prepared) -> Error {
        match exhausted(&self.facts, Failure::Timeout) {
            Failure::Unknown => {
                let reason = self.memory.reason.to_mut();
                reason.push_str("; then the rate-limit wait outlasted the call timeout");
                self.unknown(p)
            }
            _ => Error::Timeout {
                context: Box::new(p.context(self.budget.sent())),
            },
        }
    }

    /// The write's outcome is unknown: the error says what is known.
    fn unknown(self, p: &Prepared) -> Error {
        let Memory {
            reason,
            last_api,
            found,
        } = self.memory;
        let mut context = p.context(self.budget.sent());
        if let Some(api) = &last_api {
            context.request_id = api.request_id.clone();
            context.rate_limit = api.context.rate_limit.clone();
        }
        Error::WriteOutcomeUnknown(Box::new(UnknownOutcome {
            method: p.method,
            path: p.url.path().to_owned(),
            idempotency_key: p.idempotency_key.clone(),
            reason: reason.into_owned(),
            reconciliation: found,
            last_api_error: last_api.map(|api| *api),
            context,
        }))
    }

    /// A write the lookup found recorded whose stored answer could not be fetched.
    fn applied(&self, p: &Prepared) -> Error {
        let operation_id = match &self.memory.found {
            Reconciliation::Recorded { operation_id } => operation_id.clone(),
            _ => None,
        };
        Error::WriteApplied {
            operation_id,
            context: Box::new(p.context(self.budget.sent())),
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
