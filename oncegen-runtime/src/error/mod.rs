//! The one error type: transport, timeout, unknown write outcome, decode, validation and API errors.
//!
//! Error codes stay strings here: the runtime knows no API's codes. The generated crate turns
//! them into its typed `ErrorCode` enum. This module imports only leaf modules (no module that
//! builds or sends requests), so every other module may use it.

use openapi_conventions::headers;
use std::fmt;
use std::time::Duration;

use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::binary::Binary;
use crate::profile::ErrorBody;
use crate::rate_limit::RateLimitInfo;
use crate::spec::Method;
use crate::transport::{HttpResponse, TransportError};

mod display;
mod message;

/// Where an error happened: the call's identity, so the caller can correlate and recover.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ErrorContext {
    /// Operation id of the call.
    pub operation_id: Option<String>,
    /// HTTP method.
    pub method: Option<Method>,
    /// Path as sent, without the query string.
    pub path: Option<String>,
    /// The `Idempotency-Key` the call used (fixed for the whole logical call).
    pub idempotency_key: Option<String>,
    /// The `x-client-request-id` the call sent.
    pub client_request_id: Option<String>,
    /// The server's `x-request-id` of the last response, if any.
    pub request_id: Option<String>,
    /// Rate-limit headers of the last response.
    pub rate_limit: RateLimitInfo,
    /// HTTP attempts made.
    pub attempts: u32,
}

/// An error response of the API (status ≥ 400), decoded from the nested `error` object, the legacy
/// flat fields, or, for non-JSON and empty bodies, from the status alone.
#[derive(Clone, Debug, PartialEq)]
pub struct ApiError {
    /// HTTP status.
    pub status: u16,
    /// The error code where the API's envelope puts it (`error.code` or flat `code`), else where
    /// common frameworks do (`code`, `error.code`, `errors[0].code`,
    /// `errors[0].extensions.code`, `name`, problem+json's `type`); empty when absent.
    pub code: String,
    /// Whether the contract says the identical request may be resent after this code
    /// (set by the client from its [`ApiProfile`](crate::ApiProfile)).
    pub retryable_code: bool,
    /// `error.message` (or flat `message`); a generic text when absent.
    pub message: String,
    /// `error.request_id`, else the `x-request-id` header.
    pub request_id: Option<String>,
    /// `error.field_errors` (structure not shown by the reference, kept as JSON).
    pub field_errors: Option<Value>,
    /// Legacy flat `details`, when present.
    pub details: Option<Value>,
    /// `Retry-After`, when present.
    pub retry_after: Option<Duration>,
    /// The parsed body, when it was JSON.
    pub body: Option<Value>,
    /// The start of the body (≤ 512 bytes, lossy UTF-8) when it was not JSON.
    pub body_text: Option<String>,
    /// Call context (method, path, idempotency key, rate limits…).
    pub context: ErrorContext,
}

/// The first of `pointers` present (and not null) in `body`.
fn first_at(body: &Value, pointers: &[&str]) -> Option<Value> {
    pointers
        .iter()
        .find_map(|p| body.pointer(p).filter(|v| !v.is_null()))
        .cloned()
}

/// Like [`first_at`], as text (strings as they are, other values as JSON); objects and arrays
/// are skipped, so a pointer to an object member that is sometimes a string still works.
fn text_at(body: &Value, pointers: &[&str]) -> Option<String> {
    pointers.iter().find_map(|p| match body.pointer(p)? {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    })
}

impl ApiError {
    /// Decodes an error response: its members where `shape` says they are (the API's
    /// [`ErrorBody`]), and for non-JSON and empty bodies a message from the status alone.
    pub fn from_response(
        response: &HttpResponse,
        mut context: ErrorContext,
        shape: &ErrorBody,
    ) -> Self {
        let header_request_id = response
            .headers
            .get(headers::REQUEST_ID)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        let rate_limit = RateLimitInfo::from_headers(&response.headers);
        let parsed: Option<Value> = serde_json::from_slice(&response.body)
            .ok()
            .filter(Value::is_object);
        let at = |pointers: &[&str]| parsed.as_ref().and_then(|b| text_at(b, pointers));
        // The envelope's pointers first; else where common frameworks put the code.
        let code = at(shape.code).or_else(|| parsed.as_ref().and_then(message::common_code));
        let request_id = at(shape.request_id);
        // The envelope's pointers first; else where common frameworks put the message.
        let message =
            at(shape.message).or_else(|| parsed.as_ref().and_then(message::common_message));
        let (field_errors, details) = match &parsed {
            Some(b) => (first_at(b, shape.field_errors), first_at(b, shape.details)),
            None => (None, None),
        };
        let body_text = if parsed.is_none() && !response.body.is_empty() {
            let end = response.body.len().min(512);
            Some(String::from_utf8_lossy(&response.body[..end]).into_owned())
        } else {
            None
        };
        let message = message
            .unwrap_or_else(|| status_message(response, parsed.is_some(), body_text.as_deref()));
        let request_id = request_id.or(header_request_id);
        context.request_id = request_id.clone();
        context.rate_limit = rate_limit.clone();
        ApiError {
            status: response.status,
            code: code.unwrap_or_default(),
            retryable_code: false,
            message,
            request_id,
            field_errors,
            details,
            retry_after: rate_limit.retry_after,
            body: parsed,
            body_text,
            context,
        }
    }

    /// Decodes the JSON body into `T` (the error type the operation documents for this status;
    /// generated crates offer it typed per operation as `error_body`).
    pub fn body_as<T: DeserializeOwned>(&self) -> Result<T, serde_json::Error> {
        match &self.body {
            Some(body) => T::deserialize(body),
            None => Err(serde::de::Error::custom(
                "the error body is not a JSON object",
            )),
        }
    }

    /// Whether the body was JSON (an edge failure often answers with HTML or nothing).
    pub fn is_json(&self) -> bool {
        self.body.is_some()
    }
}

/// The message of an error body that gives none: the status and its reason, with the body's
/// text when it is one short line (`body_text`: the start of a body that is not JSON).
fn status_message(response: &HttpResponse, json: bool, body_text: Option<&str>) -> String {
    let reason = http::StatusCode::from_u16(response.status)
        .ok()
        .and_then(|s| s.canonical_reason())
        .unwrap_or("error");
    if let Some(text) = body_text
        .filter(|_| response.body.len() <= 512)
        .and_then(one_line_text)
    {
        format!("HTTP {} {reason}: {text}", response.status)
    } else if !json && !response.body.is_empty() {
        format!("HTTP {} {reason} (non-JSON body)", response.status)
    } else if response.body.is_empty() {
        format!("HTTP {} {reason} (empty body)", response.status)
    } else {
        format!("HTTP {} {reason}", response.status)
    }
}

impl fmt::Display for ApiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "API error {}", self.status)?;
        if !self.code.is_empty() {
            write!(f, " {}", self.code)?;
        }
        write!(f, ": {}", self.message)?;
        if let Some(reasons) = self
            .body
            .as_ref()
            .and_then(|body| message::reasons(body, &self.message))
        {
            write!(f, " ({reasons})")?;
        }
        if let Some(id) = &self.request_id {
            write!(f, " (request id {id})")?;
        }
        Ok(())
    }
}

/// What the reconciliation lookup (the API's [`OperationLookup`](crate::OperationLookup)) found
/// for a write whose outcome was unknown.
#[derive(Clone, Debug, PartialEq)]
pub enum Reconciliation {
    /// No lookup was made (no key, reconciliation disabled, or no time left).
    NotAttempted,
    /// 2xx: the write was recorded (its operation, when the answer named one).
    Recorded {
        /// The recorded operation's id.
        operation_id: Option<String>,
    },
    /// The lookup's not-found code: no recoverable identity (does not prove the write never ran).
    NotFound,
    /// The lookup's ambiguous code: several writes match.
    Ambiguous,
    /// The lookup's expired code: the identity remains but the receipt expired.
    Expired,
    /// The lookup failed after its own retries (network, 5xx, 400, 401/403…), or the API has no
    /// lookup.
    Failed {
        /// Why.
        message: String,
    },
}

impl fmt::Display for Reconciliation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reconciliation::NotAttempted => f.write_str("no lookup was made"),
            Reconciliation::Recorded {
                operation_id: Some(id),
            } => write!(f, "the API recorded it as operation {id}"),
            Reconciliation::Recorded { operation_id: None } => f.write_str("the API recorded it"),
            Reconciliation::NotFound => {
                f.write_str("the lookup found no record of it (which does not prove it never ran)")
            }
            Reconciliation::Ambiguous => f.write_str("the lookup found several matching writes"),
            Reconciliation::Expired => f.write_str("the lookup found it, its receipt expired"),
            Reconciliation::Failed { message } => write!(f, "the lookup failed: {message}"),
        }
    }
}

/// A waited-for resource that did not end in success: what was polled, its last status, and
/// the subject as last read (decode it into the generated type with `serde_json::from_value`).
#[derive(Clone, Debug, PartialEq)]
pub struct PolledOutcome {
    /// What was polled (the operation id of the read and the resource).
    pub target: String,
    /// The last status.
    pub status: Option<String>,
    /// The subject as last read.
    pub subject: Value,
}

/// Details of [`Error::WriteOutcomeUnknown`]: everything needed to recover later.
#[derive(Clone, Debug)]
pub struct UnknownOutcome {
    /// HTTP method of the write.
    pub method: Method,
    /// Path of the write as sent (no query string).
    pub path: String,
    /// The write's `Idempotency-Key` (`None` for a write without key, which is never resent).
    pub idempotency_key: Option<String>,
    /// What made the outcome unknown (timeout, 5xx, non-JSON response…).
    pub reason: String,
    /// What reconciliation found.
    pub reconciliation: Reconciliation,
    /// The last API error, when the unknown outcome came from an error response.
    pub last_api_error: Option<ApiError>,
    /// Call context.
    pub context: ErrorContext,
}

/// The runtime's error type.
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// A client-side validation failed before any I/O (invalid key, header, path parameter…).
    Validation {
        /// What is wrong.
        message: String,
    },
    /// The configuration is unusable (bad base URL, missing environment variable…).
    Config {
        /// What is wrong.
        message: String,
    },
    /// The HTTP stack failed (read: retries exhausted; write: only when certainly not delivered).
    Transport {
        /// The transport failure.
        source: TransportError,
        /// Call context.
        context: Box<ErrorContext>,
    },
    /// The call's whole-call or per-attempt timeout elapsed (reads).
    Timeout {
        /// Call context.
        context: Box<ErrorContext>,
    },
    /// A write may or may not have happened: do not resend blindly; recover with its key.
    WriteOutcomeUnknown(Box<UnknownOutcome>),
    /// The write was applied: the API's operation lookup found it recorded under its key, but
    /// its stored answer could not be fetched (a same-key resend got no answer in time). A
    /// known outcome: never send it again under a new key.
    WriteApplied {
        /// The recorded operation's id, when the lookup named one.
        operation_id: Option<String>,
        /// Call context (the key is in it).
        context: Box<ErrorContext>,
    },
    /// The server answered with a redirect (3xx). Redirects are never followed: the request
    /// and its credentials stay with the configured origin. For a write, the server did not
    /// process it here; the context carries its idempotency key.
    Redirected {
        /// HTTP status (301, 302, 303, 307, 308…).
        status: u16,
        /// Origin and path of the `Location` header (query and fragment left out), if any.
        location: Option<String>,
        /// Call context.
        context: Box<ErrorContext>,
    },
    /// The response body exceeded [`Config::max_response_bytes`](crate::Config::max_response_bytes).
    /// For a write answered 2xx the write was applied: its key is in the context.
    ResponseTooLarge {
        /// HTTP status of the response.
        status: u16,
        /// The cap, in bytes.
        limit: usize,
        /// Call context.
        context: Box<ErrorContext>,
    },
    /// The write journal could not record the write before its first attempt (e.g. its
    /// database is unreachable): nothing was sent, and the write was not sent unjournaled.
    /// Retryable ([`Error::is_retryable`]): the call may be made again.
    #[cfg(feature = "journal")]
    Journal {
        /// What failed.
        message: String,
    },
    /// A 2xx body could not be decoded into the expected type. For a write the write was
    /// applied: the context carries its idempotency key. The body is kept as it came, with
    /// its `Content-Type` ([`Error::undecoded_body`]).
    Decode {
        /// HTTP status of the response.
        status: u16,
        /// The decoder's message, led by the JSON path of the value that failed
        /// (`data[0].lastAccess: premature end of input …`).
        message: String,
        /// The body that did not decode and its `Content-Type` (its `Debug` shows only its length).
        body: Binary,
        /// Call context.
        context: Box<ErrorContext>,
    },
    /// The API answered with an error status.
    Api(Box<ApiError>),
    /// A waited-for resource reached a final status that means failure.
    OperationFailed(Box<PolledOutcome>),
    /// A waited-for resource stayed in a status whose outcome needs reconciliation longer than
    /// the configured patience: never assume failure and never submit a new write.
    OperationOutcomeUnknown(Box<PolledOutcome>),
    /// Polling gave up before the resource reached a final state.
    WaitTimeout {
        /// What was polled (operation id, task id, domain…).
        target: String,
        /// The last observed status, if any.
        last_status: Option<String>,
    },
}

impl Error {
    /// A [`Error::Validation`] with this message.
    pub fn validation(message: impl Into<String>) -> Self {
        Error::Validation {
            message: message.into(),
        }
    }

    pub(crate) fn config(message: impl Into<String>) -> Self {
        Error::Config {
            message: message.into(),
        }
    }

    /// The call context, when the error came from a call.
    pub fn context(&self) -> Option<&ErrorContext> {
        match self {
            Error::Transport { context, .. }
            | Error::Timeout { context }
            | Error::Redirected { context, .. }
            | Error::ResponseTooLarge { context, .. }
            | Error::Decode { context, .. }
            | Error::WriteApplied { context, .. } => Some(context),
            Error::WriteOutcomeUnknown(u) => Some(&u.context),
            Error::Api(api) => Some(&api.context),
            _ => None,
        }
    }

    /// The API error, if this is one.
    pub fn api(&self) -> Option<&ApiError> {
        match self {
            Error::Api(api) => Some(api),
            Error::WriteOutcomeUnknown(u) => u.last_api_error.as_ref(),
            _ => None,
        }
    }

    /// The body of an API error decoded into `T`; `None` when this is not an API error.
    pub fn body_as<T: DeserializeOwned>(&self) -> Option<Result<T, serde_json::Error>> {
        self.api().map(ApiError::body_as)
    }

    /// The successful response's body that did not decode ([`Error::Decode`]), as it came:
    /// read it with [`Binary::text`] or [`Binary::bytes`], and its `Content-Type` with
    /// [`Binary::media_type`] (a server that answers a documented JSON body as `text/csv`
    /// loses nothing).
    pub fn undecoded_body(&self) -> Option<&Binary> {
        match self {
            Error::Decode { body, .. } => Some(body),
            _ => None,
        }
    }

    /// The body of an API error decoded into `T`, when its status falls under one of the
    /// responses `documented` ([`Error::documented_status`]); `None` otherwise, or when the body
    /// does not decode ([`ApiError::body`] keeps it). What a builder's `error_body` returns.
    pub fn documented_body<T: DeserializeOwned>(&self, documented: &[&'static str]) -> Option<T> {
        self.documented_status(documented)?;
        self.body_as().and_then(Result::ok)
    }

    /// Which of the responses an operation documents (`404`, `4XX`, `default`) this API error's
    /// status falls under: the exact status, else its range, else `default`; `None` when it is
    /// not an API error or none applies.
    pub fn documented_status(&self, documented: &[&'static str]) -> Option<&'static str> {
        let status = self.api()?.status;
        let exact = status.to_string();
        let range = format!("{}XX", status / 100);
        documented
            .iter()
            .find(|d| **d == exact)
            .or_else(|| documented.iter().find(|d| d.eq_ignore_ascii_case(&range)))
            .or_else(|| documented.iter().find(|d| **d == "default"))
            .copied()
    }

    /// The HTTP status of the last response, if any.
    pub fn status(&self) -> Option<u16> {
        match self {
            Error::Decode { status, .. }
            | Error::Redirected { status, .. }
            | Error::ResponseTooLarge { status, .. } => Some(*status),
            _ => self.api().map(|a| a.status),
        }
    }

    /// The API error code (`error.code`), if this is an API error with one.
    pub fn code(&self) -> Option<&str> {
        self.api()
            .map(|a| a.code.as_str())
            .filter(|c| !c.is_empty())
    }

    /// The `Idempotency-Key` of the failed call, so the caller can recover or resend with it.
    pub fn idempotency_key(&self) -> Option<&str> {
        match self {
            Error::WriteOutcomeUnknown(u) => u.idempotency_key.as_deref(),
            _ => self.context()?.idempotency_key.as_deref(),
        }
    }

    /// The server's `x-request-id` of the last response, if any.
    pub fn request_id(&self) -> Option<&str> {
        if let Some(id) = self.api().and_then(|a| a.request_id.as_deref()) {
            return Some(id);
        }
        self.context()?.request_id.as_deref()
    }

    /// Rate-limit headers of the last response, if any.
    pub fn rate_limit(&self) -> Option<&RateLimitInfo> {
        self.context().map(|c| &c.rate_limit)
    }

    /// `Retry-After` of the error response, if any.
    pub fn retry_after(&self) -> Option<Duration> {
        self.api().and_then(|a| a.retry_after)
    }

    /// Whether the outcome of a write is unknown (see [`Error::WriteOutcomeUnknown`]).
    pub fn is_write_outcome_unknown(&self) -> bool {
        matches!(self, Error::WriteOutcomeUnknown(_))
    }

    /// Whether sending the identical request again later (same key, same body) is reasonable:
    /// transport failures, timeouts, 429, 5xx, and the error codes the contract marks for it.
    /// An unknown write outcome is not: reconcile first.
    pub fn is_retryable(&self) -> bool {
        match self {
            Error::Transport { .. } | Error::Timeout { .. } => true,
            // Nothing was sent: the same call may be made again once the journal is back.
            #[cfg(feature = "journal")]
            Error::Journal { .. } => true,
            Error::Api(api) => api.status == 429 || api.status >= 500 || api.retryable_code,
            _ => false,
        }
    }

    /// A short, stable name of the variant (the `error.type` of the call's tracing span).
    pub fn kind(&self) -> &'static str {
        match self {
            Error::Validation { .. } => "validation",
            Error::Config { .. } => "config",
            Error::Transport { .. } => "transport",
            Error::Timeout { .. } => "timeout",
            Error::WriteOutcomeUnknown(_) => "write_outcome_unknown",
            Error::WriteApplied { .. } => "write_applied",
            Error::Redirected { .. } => "redirected",
            Error::ResponseTooLarge { .. } => "response_too_large",
            #[cfg(feature = "journal")]
            Error::Journal { .. } => "journal",
            Error::Decode { .. } => "decode",
            Error::Api(_) => "api",
            Error::OperationFailed(_) => "operation_failed",
            Error::OperationOutcomeUnknown(_) => "operation_outcome_unknown",
            Error::WaitTimeout { .. } => "wait_timeout",
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Transport { source, .. } => Some(source),
            _ => None,
        }
    }
}

/// A non-JSON error body short and plain enough to be the error's message (`Square is not
/// empty.`, as an API that answers its errors in text says it): one line of at most 200
/// characters, no markup, no control characters.
fn one_line_text(body: &str) -> Option<&str> {
    let text = body.trim();
    let plain = !text.is_empty()
        && text.chars().count() <= 200
        && !text.contains('<')
        && !text.chars().any(char::is_control);
    plain.then_some(text)
}

#[cfg(test)]
mod tests {
    use super::Reconciliation;

    #[test]
    fn a_reconciliation_reads_as_words_not_rust() {
        for r in [
            Reconciliation::NotAttempted,
            Reconciliation::Recorded {
                operation_id: Some("op-1".into()),
            },
            Reconciliation::NotFound,
            Reconciliation::Ambiguous,
            Reconciliation::Expired,
            Reconciliation::Failed {
                message: "HTTP 503".into(),
            },
        ] {
            let text = r.to_string();
            let debug = format!("{r:?}");
            assert!(!text.contains('{') && text != debug, "{text}");
            assert!(
                text.starts_with("the ") || text.starts_with("no "),
                "{text}"
            );
        }
    }
}
