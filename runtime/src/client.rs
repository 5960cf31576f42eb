//! The `Client`: builds each attempt (auth, headers), runs the retry loop, the 429 gate and
//! unknown-write-outcome reconciliation, and decodes responses.

use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use http::{HeaderMap, HeaderName, HeaderValue};
use serde::de::DeserializeOwned;
use serde_json::Value;
use tokio::time::Instant;

use crate::config::{Config, Credentials};
use crate::error::{ApiError, Error, ErrorContext, Reconciliation, UnknownOutcome};
use crate::idempotency::{
    generate_idempotency_key, validate_client_request_id, validate_idempotency_key,
};
use crate::rate_limit::{RateLimitGate, RateLimitInfo};
use crate::request::{CallOptions, Request};
use crate::response::{Response, ResponseMeta};
use crate::retry::RetryPolicy;
use crate::signing::{SigningInput, content_sha256, new_nonce, unix_timestamp};
use crate::spec::OperationSpec;
use crate::transport::{
    HttpRequest, HttpResponse, ReqwestTransport, Transport, TransportError, TransportErrorKind,
};

/// The API client: cheap to clone (an `Arc` inside), one 429 gate shared by all clones.
#[derive(Clone, Debug)]
pub struct Client {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    config: Config,
    /// Base URL without trailing slash.
    base: String,
    /// Path prefix of the base URL (e.g. `/api`), empty when none.
    base_path: String,
    transport: Arc<dyn Transport>,
    gate: RateLimitGate,
    user_agent: HeaderValue,
    /// `Authorization: Bearer …` in bearer mode.
    authorization: Option<HeaderValue>,
}

/// A request ready to be sent any number of times (fixed URL, key and body bytes).
struct Prepared {
    spec: &'static OperationSpec,
    /// API path as sent, without base prefix or query.
    path: String,
    /// Path (with base prefix) and query as sent: what is signed.
    signed_target: String,
    url: String,
    headers: HeaderMap,
    body: Bytes,
    idempotency_key: Option<String>,
    client_request_id: Option<String>,
    deadline: Option<Instant>,
    attempt_timeout: Option<Duration>,
    policy: RetryPolicy,
}

enum Outcome {
    Resend,
    Fail(Error),
}

impl Client {
    /// Builds a client (validates the base URL, builds the default transport when none is set).
    pub fn new(config: Config) -> Result<Self, Error> {
        let url = reqwest::Url::parse(config.base_url.trim())
            .map_err(|e| Error::config(format!("invalid base URL: {e}")))?;
        if !matches!(url.scheme(), "http" | "https") || url.query().is_some() {
            return Err(Error::config("base URL must be http(s) without a query"));
        }
        let base = url.as_str().trim_end_matches('/').to_owned();
        let base_path = url.path().trim_end_matches('/').to_owned();
        let transport: Arc<dyn Transport> = match &config.transport {
            Some(t) => t.clone(),
            None => Arc::new(
                ReqwestTransport::new(config.timeouts.connect)
                    .map_err(|e| Error::config(e.to_string()))?,
            ),
        };
        let user_agent = HeaderValue::from_str(&config.effective_user_agent())
            .map_err(|_| Error::config("the user agent is not a valid header value"))?;
        // Built once: one copy of the bearer secret in a header value (marked sensitive, so
        // `Debug` never shows it) instead of a fresh copy per attempt.
        let authorization = match &config.credentials {
            Credentials::Bearer(token) => {
                let mut value = HeaderValue::from_str(&format!("Bearer {}", token.expose_secret()))
                    .map_err(|_| {
                        Error::config("the bearer credential is not a valid header value")
                    })?;
                value.set_sensitive(true);
                Some(value)
            }
            _ => None,
        };
        if let Credentials::Signed { api_key, .. } = &config.credentials
            && (api_key.is_empty() || HeaderValue::from_str(api_key).is_err())
        {
            return Err(Error::config(
                "the signed-mode API key is empty or not a valid header value",
            ));
        }
        Ok(Self {
            inner: Arc::new(Inner {
                config,
                base,
                base_path,
                transport,
                gate: RateLimitGate::new(),
                user_agent,
                authorization,
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
    /// Before any I/O: the idempotency key and client request id are validated; writes whose
    /// [`Idempotency`] is not `None` get a generated key unless the caller gave one. The key and
    /// body bytes stay fixed for every attempt; signed mode re-signs every attempt with a fresh
    /// `x-ts` and `x-nonce`.
    ///
    /// Retries (bounded by [`RetryPolicy`] attempts and the whole-call timeout):
    ///
    /// | Situation | Read (GET…) | Write |
    /// | --- | --- | --- |
    /// | connection not established | backoff, resend | backoff, resend (not delivered) |
    /// | 429 | gate closes per `Retry-After`/`RateLimit-Reset`; one probe at a time | same (rejected, not processed) |
    /// | an automatic retry code of the [`ApiProfile`](crate::ApiProfile) | wait `Retry-After`, resend | wait `Retry-After`, resend same key and body |
    /// | timeout, reset, 5xx, non-JSON answer | backoff, resend | **unknown outcome**: reconcile (below) |
    /// | other 4xx | [`Error::Api`] | [`Error::Api`] |
    ///
    /// Unknown write outcome: without an idempotency key, never resend
    /// ([`Error::WriteOutcomeUnknown`]). With a key, the profile's
    /// [`OperationLookup`](crate::OperationLookup) is called with the key, method and path:
    ///
    /// | Lookup | Decision |
    /// | --- | --- |
    /// | 2xx (recorded) | resend same key and body: the server returns the stored response |
    /// | its not-found code | does not prove the write never ran; resending the same key and body is still safe because the server deduplicates by key, so resend (unless [`RetryPolicy::resend_when_not_found`] is off) |
    /// | its ambiguous or expired code, 400, 401/403, 5xx, unreachable, no lookup | [`Error::WriteOutcomeUnknown`] with key, method, path |
    ///
    /// When no attempt is left, the error is [`Error::WriteOutcomeUnknown`] carrying what the
    /// lookup found.
    pub async fn execute<T: DeserializeOwned>(
        &self,
        request: Request,
        options: CallOptions,
    ) -> Result<Response<T>, Error> {
        let prepared = self.prepare(request, &options)?;
        let (response, attempts) = self.run(&prepared).await?;
        let HttpResponse {
            status,
            headers,
            body,
        } = response;
        let meta = ResponseMeta {
            request_id: header_string(&headers, "x-request-id"),
            client_request_id: prepared.client_request_id.clone(),
            idempotency_key: prepared.idempotency_key.clone(),
            rate_limit: RateLimitInfo::from_headers(&headers),
            attempts,
            headers,
        };
        let body = decode_body::<T>(&body).map_err(|message| Error::Decode {
            status,
            message,
            context: Box::new(ErrorContext {
                request_id: meta.request_id.clone(),
                rate_limit: meta.rate_limit.clone(),
                ..prepared.context(attempts)
            }),
        })?;
        Ok(Response::new(body, status, meta))
    }

    fn prepare(&self, request: Request, options: &CallOptions) -> Result<Prepared, Error> {
        options.validate()?;
        let spec = request.spec();
        let path = request.render_path()?;
        let query = request.render_query();
        let mut idempotency_key = options.idempotency_key().map(str::to_owned);
        let mut client_request_id = options.client_request_id().map(str::to_owned);
        let mut headers = HeaderMap::new();
        headers.insert(http::header::USER_AGENT, self.inner.user_agent.clone());
        headers.insert(
            http::header::ACCEPT,
            HeaderValue::from_static("application/json"),
        );
        for (name, value) in request.headers() {
            let lower = name.to_ascii_lowercase();
            match lower.as_str() {
                "idempotency-key" => {
                    validate_idempotency_key(value)?;
                    idempotency_key.get_or_insert_with(|| value.clone());
                    continue;
                }
                "x-client-request-id" => {
                    validate_client_request_id(value)?;
                    client_request_id.get_or_insert_with(|| value.clone());
                    continue;
                }
                _ => {}
            }
            let name = HeaderName::from_bytes(lower.as_bytes())
                .map_err(|_| Error::validation(format!("invalid header name `{name}`")))?;
            let value = HeaderValue::from_str(value)
                .map_err(|_| Error::validation(format!("invalid value for header `{name}`")))?;
            headers.append(name, value);
        }
        for (name, value) in options.headers() {
            // Validated by `options.validate()` above.
            if let (Ok(name), Ok(value)) = (
                HeaderName::from_bytes(name.to_ascii_lowercase().as_bytes()),
                HeaderValue::from_str(value),
            ) {
                headers.append(name, value);
            }
        }
        if spec.idempotency.sends_key() && idempotency_key.is_none() {
            idempotency_key = Some(generate_idempotency_key());
        }
        if let Some(key) = &idempotency_key {
            headers.insert(
                "idempotency-key",
                HeaderValue::from_str(key).expect("validated key"),
            );
        }
        if let Some(id) = &client_request_id {
            headers.insert(
                "x-client-request-id",
                HeaderValue::from_str(id).expect("validated id"),
            );
        }
        if options.operation_format() {
            headers.insert(
                "x-svc-response-format",
                HeaderValue::from_static("operation"),
            );
        }
        let body = match request.body() {
            Some((bytes, content_type)) => {
                headers.insert(
                    http::header::CONTENT_TYPE,
                    HeaderValue::from_str(content_type).map_err(|_| {
                        Error::validation(format!("invalid content type `{content_type}`"))
                    })?,
                );
                bytes.clone()
            }
            None => Bytes::new(),
        };
        let target = if query.is_empty() {
            path.clone()
        } else {
            format!("{path}?{query}")
        };
        let total = options.timeout().or(self.inner.config.timeouts.total);
        Ok(Prepared {
            spec,
            signed_target: format!("{}{target}", self.inner.base_path),
            url: format!("{}{target}", self.inner.base),
            path,
            headers,
            body,
            idempotency_key,
            client_request_id,
            deadline: total.map(|t| Instant::now() + t),
            attempt_timeout: options
                .attempt_timeout()
                .or(self.inner.config.timeouts.attempt),
            policy: options
                .retry_policy()
                .unwrap_or(&self.inner.config.retry)
                .clone(),
        })
    }

    /// Adds auth headers (fresh `x-ts`/`x-nonce` per attempt in signed mode) and sends once.
    async fn send_once(&self, p: &Prepared) -> Result<HttpResponse, TransportError> {
        let mut headers = p.headers.clone();
        match &self.inner.config.credentials {
            Credentials::None => {}
            Credentials::Bearer(_) => {
                if let Some(value) = &self.inner.authorization {
                    headers.insert(http::header::AUTHORIZATION, value.clone());
                }
            }
            Credentials::Signed { api_key, secret } => {
                let timestamp = unix_timestamp();
                let nonce = new_nonce();
                let hash = content_sha256(&p.body);
                let input = SigningInput {
                    method: p.spec.method.as_str(),
                    path_and_query: &p.signed_target,
                    timestamp: &timestamp,
                    nonce: &nonce,
                    content_sha256: &hash,
                    body: &p.body,
                };
                let signature = self
                    .inner
                    .config
                    .signer
                    .sign(secret.expose_secret().as_bytes(), &input);
                let value = |s: &str| {
                    HeaderValue::from_str(s).map_err(|_| {
                        TransportError::new(
                            TransportErrorKind::Connect,
                            "invalid signed-mode header value",
                        )
                    })
                };
                headers.insert("x-api-key", value(api_key)?);
                headers.insert("x-ts", value(&timestamp)?);
                headers.insert("x-nonce", value(&nonce)?);
                headers.insert("x-content-sha256", value(&hash)?);
                let mut sig = value(&signature)?;
                sig.set_sensitive(true);
                headers.insert("x-signature", sig);
            }
        }
        let attempt_timeout = min_opt(
            p.attempt_timeout,
            p.deadline
                .map(|d| d.saturating_duration_since(Instant::now())),
        );
        let request = HttpRequest {
            method: p.spec.method.to_http(),
            url: p.url.clone(),
            headers,
            body: p.body.clone(),
            timeout: attempt_timeout,
        };
        let send = self.inner.transport.send(request);
        match attempt_timeout {
            Some(t) => tokio::time::timeout(t, send).await.unwrap_or_else(|_| {
                Err(TransportError::new(
                    TransportErrorKind::Timeout,
                    "attempt timed out",
                ))
            }),
            None => send.await,
        }
    }

    /// The retry loop. Returns the successful raw response and the number of attempts.
    async fn run(&self, p: &Prepared) -> Result<(HttpResponse, u32), Error> {
        let is_write = p.spec.is_write();
        let mut attempt = 0u32;
        // Attempts answered with 429: they have their own budget and do not use up `attempt`s.
        let mut rate_limited = 0u32;
        let mut maybe_delivered = false;
        loop {
            // The 429 gate: wait (bounded by the deadline) until this request may go. An open
            // gate costs one lock and no timer.
            let permit = match p.deadline {
                _ if !self.inner.gate.is_closed() => None,
                Some(d) => match tokio::time::timeout_at(d, self.inner.gate.acquire()).await {
                    Ok(permit) => permit,
                    Err(_) => {
                        return Err(self.deadline_error(
                            p,
                            attempt,
                            maybe_delivered,
                            "rate-limit wait exceeded the call timeout",
                        ));
                    }
                },
                None => self.inner.gate.acquire().await,
            };
            attempt += 1;
            tracing::debug!(operation = p.spec.operation_id, method = %p.spec.method, path = %p.path, attempt, "sending");
            let result = self.send_once(p).await;
            match result {
                Ok(response) => {
                    if response.status == 429 {
                        let info = RateLimitInfo::from_headers(&response.headers);
                        let wait = info.suggested_wait().unwrap_or_else(|| {
                            p.policy.backoff(attempt - 1).max(Duration::from_millis(1))
                        });
                        self.inner
                            .gate
                            .close_for(wait.min(p.policy.max_retry_after));
                    } else if permit.is_some() {
                        self.inner.gate.open();
                    }
                    drop(permit);
                    tracing::debug!(
                        operation = p.spec.operation_id,
                        status = response.status,
                        request_id = header_string(&response.headers, "x-request-id")
                            .as_deref()
                            .unwrap_or("-"),
                        "response"
                    );
                    if (200..300).contains(&response.status) {
                        if is_write
                            && !response.body.is_empty()
                            && serde_json::from_slice::<serde::de::IgnoredAny>(&response.body)
                                .is_err()
                        {
                            match self
                                .reconcile(
                                    p,
                                    "non-JSON success response",
                                    None,
                                    attempt,
                                    attempt - rate_limited,
                                )
                                .await
                            {
                                Outcome::Resend => {
                                    self.pause(p, attempt).await;
                                    continue;
                                }
                                Outcome::Fail(e) => return Err(e),
                            }
                        }
                        return Ok((response, attempt));
                    }
                    let api = self.api_error(&response, p.context(attempt));
                    if response.status == 429 {
                        let wait = api.context.rate_limit.suggested_wait().unwrap_or_default();
                        rate_limited += 1;
                        if wait <= p.policy.max_retry_after
                            && rate_limited <= p.policy.rate_limit_waits()
                            && self.within_deadline(p, wait)
                        {
                            continue; // the gate makes us wait
                        }
                        return Err(Error::Api(Box::new(api)));
                    }
                    if self.inner.config.profile.retries_automatically(&api.code) {
                        let wait = api
                            .retry_after
                            .unwrap_or_else(|| p.policy.backoff(attempt - 1));
                        if wait <= p.policy.max_retry_after
                            && self.can_retry(p, attempt - rate_limited, wait)
                        {
                            tokio::time::sleep(wait).await;
                            continue;
                        }
                        return Err(Error::Api(Box::new(api)));
                    }
                    let server_side_unknown = response.status >= 500 || !api.is_json();
                    if !server_side_unknown {
                        return Err(Error::Api(Box::new(api)));
                    }
                    if !is_write {
                        let wait = p.policy.backoff(attempt - 1);
                        if self.can_retry(p, attempt - rate_limited, wait) {
                            tokio::time::sleep(wait).await;
                            continue;
                        }
                        return Err(Error::Api(Box::new(api)));
                    }
                    maybe_delivered = true;
                    let reason = if response.status >= 500 {
                        format!("HTTP {}", response.status)
                    } else {
                        format!("non-JSON HTTP {} response", response.status)
                    };
                    match self
                        .reconcile(p, &reason, Some(api), attempt, attempt - rate_limited)
                        .await
                    {
                        Outcome::Resend => self.pause(p, attempt).await,
                        Outcome::Fail(e) => return Err(e),
                    }
                }
                Err(te) => {
                    drop(permit);
                    tracing::debug!(operation = p.spec.operation_id, error = %te, "transport error");
                    if !is_write || te.not_delivered() {
                        let wait = p.policy.backoff(attempt - 1);
                        if self.can_retry(p, attempt - rate_limited, wait) {
                            tokio::time::sleep(wait).await;
                            continue;
                        }
                        if !maybe_delivered || !is_write {
                            return Err(transport_error(te, p.context(attempt)));
                        }
                        return Err(self.unknown(
                            p,
                            te.to_string(),
                            Reconciliation::NotAttempted,
                            None,
                            attempt,
                        ));
                    }
                    maybe_delivered = true;
                    let reason = if te.kind == TransportErrorKind::Timeout {
                        "timeout".to_owned()
                    } else {
                        format!("transport error: {te}")
                    };
                    match self
                        .reconcile(p, &reason, None, attempt, attempt - rate_limited)
                        .await
                    {
                        Outcome::Resend => self.pause(p, attempt).await,
                        Outcome::Fail(e) => return Err(e),
                    }
                }
            }
        }
    }

    async fn pause(&self, p: &Prepared, attempt: u32) {
        tokio::time::sleep(p.policy.backoff(attempt.saturating_sub(1))).await;
    }

    /// Whether another attempt fits the policy: `attempt` counts attempts not answered with 429.
    fn can_retry(&self, p: &Prepared, attempt: u32, wait: Duration) -> bool {
        attempt < p.policy.attempts() && self.within_deadline(p, wait)
    }

    /// Whether waiting `wait` still leaves the call inside its whole-call deadline.
    fn within_deadline(&self, p: &Prepared, wait: Duration) -> bool {
        p.deadline.is_none_or(|d| Instant::now() + wait < d)
    }

    fn deadline_error(
        &self,
        p: &Prepared,
        attempt: u32,
        maybe_delivered: bool,
        reason: &str,
    ) -> Error {
        if p.spec.is_write() && maybe_delivered {
            self.unknown(
                p,
                reason.to_owned(),
                Reconciliation::NotAttempted,
                None,
                attempt,
            )
        } else {
            Error::Timeout {
                context: Box::new(p.context(attempt)),
            }
        }
    }

    fn unknown(
        &self,
        p: &Prepared,
        reason: String,
        reconciliation: Reconciliation,
        last: Option<ApiError>,
        attempt: u32,
    ) -> Error {
        let mut context = p.context(attempt);
        if let Some(api) = &last {
            context.request_id = api.request_id.clone();
            context.rate_limit = api.context.rate_limit.clone();
        }
        Error::WriteOutcomeUnknown(Box::new(UnknownOutcome {
            method: p.spec.method,
            path: p.path.clone(),
            idempotency_key: p.idempotency_key.clone(),
            reason,
            reconciliation,
            last_api_error: last,
            context,
        }))
    }

    /// Decides what to do with a write whose outcome is unknown (see [`Client::execute`]).
    async fn reconcile(
        &self,
        p: &Prepared,
        reason: &str,
        last: Option<ApiError>,
        attempt: u32,
        budgeted_attempts: u32,
    ) -> Outcome {
        let Some(key) = &p.idempotency_key else {
            return Outcome::Fail(self.unknown(
                p,
                reason.to_owned(),
                Reconciliation::NotAttempted,
                last,
                attempt,
            ));
        };
        if !p.policy.reconcile_unknown_writes || p.deadline.is_some_and(|d| Instant::now() >= d) {
            return Outcome::Fail(self.unknown(
                p,
                reason.to_owned(),
                Reconciliation::NotAttempted,
                last,
                attempt,
            ));
        }
        let found = self.lookup(key, p).await;
        tracing::debug!(
            operation = p.spec.operation_id,
            ?found,
            "reconciliation lookup"
        );
        let resend = match &found {
            Reconciliation::Recorded { .. } => true,
            Reconciliation::NotFound => p.policy.resend_when_not_found,
            _ => false,
        };
        if resend && self.can_retry(p, budgeted_attempts, Duration::ZERO) {
            Outcome::Resend
        } else {
            Outcome::Fail(self.unknown(p, reason.to_owned(), found, last, attempt))
        }
    }

    /// An error response, with whether the contract says its code may be resent.
    fn api_error(&self, response: &HttpResponse, context: ErrorContext) -> ApiError {
        let profile = self.inner.config.profile;
        let mut api = ApiError::from_response(response, context, &profile.error_body);
        api.retryable_code = profile.is_retry_code(&api.code);
        api
    }

    async fn lookup(&self, key: &str, p: &Prepared) -> Reconciliation {
        let Some(spec) = self.inner.config.profile.lookup else {
            return Reconciliation::Failed {
                message: "the API has no operation lookup".into(),
            };
        };
        let mut request = Request::new(spec.spec);
        request.query(spec.idempotency_key, &key);
        request.query(spec.method, &p.spec.method.as_str());
        request.query(spec.path, &p.path);
        let mut options = CallOptions::new();
        if let Some(id) = &p.client_request_id {
            options.set_client_request_id(id.clone());
        }
        let mut lookup = match self.prepare(request, &options) {
            Ok(l) => l,
            Err(e) => {
                return Reconciliation::Failed {
                    message: e.to_string(),
                };
            }
        };
        lookup.deadline = p.deadline;
        if let Some(d) = p.deadline
            && tokio::time::timeout_at(d, self.inner.gate.acquire())
                .await
                .is_err()
        {
            return Reconciliation::Failed {
                message: "no time left for the lookup".into(),
            };
        }
        let response = match self.send_once(&lookup).await {
            Ok(r) => r,
            Err(e) => {
                return Reconciliation::Failed {
                    message: e.to_string(),
                };
            }
        };
        if response.status == 429 {
            if let Some(wait) = RateLimitInfo::from_headers(&response.headers).suggested_wait() {
                self.inner
                    .gate
                    .close_for(wait.min(p.policy.max_retry_after));
            }
            return Reconciliation::Failed {
                message: "lookup rate limited".into(),
            };
        }
        if (200..300).contains(&response.status) {
            let body: Value = serde_json::from_slice(&response.body).unwrap_or(Value::Null);
            let operation_id = body
                .pointer(spec.found_id)
                .and_then(Value::as_str)
                .map(str::to_owned);
            return Reconciliation::Recorded { operation_id };
        }
        let api = self.api_error(&response, lookup.context(1));
        match api.code.as_str() {
            code if code == spec.not_found => Reconciliation::NotFound,
            code if code == spec.ambiguous => Reconciliation::Ambiguous,
            code if code == spec.expired => Reconciliation::Expired,
            _ => Reconciliation::Failed {
                message: api.to_string(),
            },
        }
    }
}

impl Prepared {
    fn context(&self, attempts: u32) -> ErrorContext {
        ErrorContext {
            operation_id: Some(self.spec.operation_id.to_owned()),
            method: Some(self.spec.method),
            path: Some(self.path.clone()),
            idempotency_key: self.idempotency_key.clone(),
            client_request_id: self.client_request_id.clone(),
            request_id: None,
            rate_limit: RateLimitInfo::default(),
            attempts,
        }
    }
}

fn transport_error(source: TransportError, context: ErrorContext) -> Error {
    if source.kind == TransportErrorKind::Timeout {
        Error::Timeout {
            context: Box::new(context),
        }
    } else {
        Error::Transport {
            source,
            context: Box::new(context),
        }
    }
}

fn min_opt(a: Option<Duration>, b: Option<Duration>) -> Option<Duration> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

fn header_string(headers: &HeaderMap, name: &str) -> Option<String> {
    headers
        .get(name)
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned)
}

/// Decodes a success body; an empty (or whitespace) body reads as JSON `null`.
pub(crate) fn decode_body<T: DeserializeOwned>(body: &[u8]) -> Result<T, String> {
    if body.iter().all(u8::is_ascii_whitespace) {
        serde_json::from_value(Value::Null).map_err(|e| format!("empty body: {e}"))
    } else {
        serde_json::from_slice(body).map_err(|e| e.to_string())
    }
}
