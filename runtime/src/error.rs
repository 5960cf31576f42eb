//! The one error type: transport, timeout, unknown write outcome, decode, validation and API errors.

use std::fmt;
use std::time::Duration;

use serde_json::Value;

use crate::operation::Operation;
use crate::rate_limit::RateLimitInfo;
use crate::spec::Method;
use crate::transport::{HttpResponse, TransportError};

macro_rules! error_codes {
    ($($variant:ident => $code:literal,)*) => {
        /// The `error.code` of an API error: every code of reference part 7, plus `Unknown`.
        #[derive(Clone, Debug, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        pub enum ErrorCode {
            $(
                #[doc = concat!("`", $code, "`")]
                $variant,
            )*
            /// A code this SDK does not know, or an empty string when the body had none.
            Unknown(String),
        }

        impl ErrorCode {
            /// Parses a wire code; unknown codes become [`ErrorCode::Unknown`].
            pub fn parse(code: &str) -> Self {
                match code {
                    $($code => ErrorCode::$variant,)*
                    other => ErrorCode::Unknown(other.to_owned()),
                }
            }

            /// The wire form of the code.
            pub fn as_str(&self) -> &str {
                match self {
                    $(ErrorCode::$variant => $code,)*
                    ErrorCode::Unknown(s) => s,
                }
            }

            /// Every known code, in reference order.
            pub const ALL: &'static [&'static str] = &[$($code,)*];
        }
    };
}

error_codes! {
    ValidationError => "validation_error",
    IdempotencyKeyRequired => "idempotency_key_required",
    InvalidIdempotencyKey => "invalid_idempotency_key",
    UnsupportedRegion => "unsupported_region",
    BillingCycleNotAvailable => "billing_cycle_not_available",
    OrderConfigInvalid => "order_config_invalid",
    PriceNotFound => "price_not_found",
    InvalidDomainIdentifier => "invalid_domain_identifier",
    DomainIdentifierMismatch => "domain_identifier_mismatch",
    Unauthorized => "unauthorized",
    InvalidSignature => "invalid_signature",
    InsufficientCredit => "insufficient_credit",
    ScopeDenied => "scope_denied",
    IpBlocked => "ip_blocked",
    ServiceDisabled => "service_disabled",
    NotFound => "not_found",
    SshKeyNotFound => "ssh_key_not_found",
    OperationNotFound => "operation_not_found",
    ServiceNotRenewable => "service_not_renewable",
    RenewalInvoiceRequiresReview => "renewal_invoice_requires_review",
    RenewalPriceLimitExceeded => "renewal_price_limit_exceeded",
    ServiceChangedRetry => "service_changed_retry",
    DeploymentPriceLimitExceeded => "deployment_price_limit_exceeded",
    CatalogVariantAmbiguous => "catalog_variant_ambiguous",
    DomainIdentifierAmbiguous => "domain_identifier_ambiguous",
    TemplateIdentifierAmbiguous => "template_identifier_ambiguous",
    IdempotencyConflict => "idempotency_conflict",
    IdempotencyInProgress => "idempotency_in_progress",
    DedicatedConfigurationUnavailable => "dedicated_configuration_unavailable",
    DedicatedOsSshKeysNotSupported => "dedicated_os_ssh_keys_not_supported",
    SshKeyNotAvailable => "ssh_key_not_available",
    OperationLookupAmbiguous => "operation_lookup_ambiguous",
    OperationExpired => "operation_expired",
    RateLimited => "rate_limited",
    ProtectionUpdateUnconfirmed => "protection_update_unconfirmed",
    CountryPolicySyncIncomplete => "country_policy_sync_incomplete",
    ProxyPolicyUnavailable => "proxy_policy_unavailable",
    ProxyPolicyResponseInvalid => "proxy_policy_response_invalid",
    CatalogUnavailable => "catalog_unavailable",
    OrderOptionsUnavailable => "order_options_unavailable",
    DedicatedCatalogUnavailable => "dedicated_catalog_unavailable",
    ServiceUnavailable => "service_unavailable",
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.as_str() {
            "" => f.write_str("-"),
            s => f.write_str(s),
        }
    }
}

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
    /// `error.code` (or flat `code`); `Unknown("")` when absent.
    pub code: ErrorCode,
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

fn str_field(v: &Value, key: &str) -> Option<String> {
    match v.get(key)? {
        Value::String(s) => Some(s.clone()),
        Value::Null => None,
        other => Some(other.to_string()),
    }
}

fn non_null(v: Option<&Value>) -> Option<Value> {
    v.filter(|v| !v.is_null()).cloned()
}

impl ApiError {
    /// Decodes an error response. Works on nested, flat, non-JSON and empty bodies.
    pub fn from_response(response: &HttpResponse, mut context: ErrorContext) -> Self {
        let header_request_id = response
            .headers
            .get("x-request-id")
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        let rate_limit = RateLimitInfo::from_headers(&response.headers);
        let parsed: Option<Value> = serde_json::from_slice(&response.body)
            .ok()
            .filter(Value::is_object);
        let (mut code, mut message, mut request_id, mut field_errors, mut details) =
            (None, None, None, None, None);
        if let Some(body) = &parsed {
            if let Some(nested) = body.get("error").filter(|e| e.is_object()) {
                code = str_field(nested, "code");
                message = str_field(nested, "message");
                request_id = str_field(nested, "request_id");
                field_errors = non_null(nested.get("field_errors"));
                details = non_null(nested.get("details"));
            }
            code = code.or_else(|| str_field(body, "code"));
            if code.is_none() {
                // `{"error": "some_code"}` (a string) is a common legacy variant.
                code = body.get("error").and_then(Value::as_str).map(str::to_owned);
            }
            message = message.or_else(|| str_field(body, "message"));
            request_id = request_id.or_else(|| str_field(body, "request_id"));
            field_errors = field_errors.or_else(|| non_null(body.get("field_errors")));
            details = details.or_else(|| non_null(body.get("details")));
        }
        let body_text = if parsed.is_none() && !response.body.is_empty() {
            let end = response.body.len().min(512);
            Some(String::from_utf8_lossy(&response.body[..end]).into_owned())
        } else {
            None
        };
        let message = message.unwrap_or_else(|| {
            let reason = http::StatusCode::from_u16(response.status)
                .ok()
                .and_then(|s| s.canonical_reason())
                .unwrap_or("error");
            if parsed.is_none() && !response.body.is_empty() {
                format!("HTTP {} {reason} (non-JSON body)", response.status)
            } else if response.body.is_empty() {
                format!("HTTP {} {reason} (empty body)", response.status)
            } else {
                format!("HTTP {} {reason}", response.status)
            }
        });
        let request_id = request_id.or(header_request_id);
        context.request_id = request_id.clone();
        context.rate_limit = rate_limit.clone();
        ApiError {
            status: response.status,
            code: ErrorCode::parse(code.as_deref().unwrap_or("")),
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

    /// Whether the body was JSON (an edge failure often answers with HTML or nothing).
    pub fn is_json(&self) -> bool {
        self.body.is_some()
    }
}

impl fmt::Display for ApiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "API error {} {}: {}",
            self.status, self.code, self.message
        )?;
        if let Some(id) = &self.request_id {
            write!(f, " (request id {id})")?;
        }
        Ok(())
    }
}

/// What the reconciliation lookup (`GET /v1/operations?idempotency_key=…`) found for a write
/// whose outcome was unknown.
#[derive(Clone, Debug, PartialEq)]
pub enum Reconciliation {
    /// No lookup was made (no key, reconciliation disabled, or no time left).
    NotAttempted,
    /// 200: the write was recorded (its operation, when the envelope named one).
    Recorded {
        /// The recorded operation's id.
        operation_id: Option<String>,
    },
    /// 404 `operation_not_found`: no recoverable identity (does not prove the write never ran).
    NotFound,
    /// 409 `operation_lookup_ambiguous`.
    Ambiguous,
    /// 410 `operation_expired`: reconcile resources and billing.
    Expired,
    /// The lookup failed (network, 5xx, 400, 401/403…).
    Failed {
        /// Why.
        message: String,
    },
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
    /// A 2xx body could not be decoded into the expected type.
    Decode {
        /// HTTP status of the response.
        status: u16,
        /// The decoder's message.
        message: String,
        /// Call context.
        context: Box<ErrorContext>,
    },
    /// The API answered with an error status.
    Api(Box<ApiError>),
    /// A waited-for operation ended `failed` or `cancelled`.
    OperationFailed(Box<Operation>),
    /// A waited-for operation stayed `unknown` longer than the configured patience:
    /// it needs reconciliation; never assume failure and never submit a new write.
    OperationOutcomeUnknown(Box<Operation>),
    /// Polling gave up before the resource reached a final state.
    WaitTimeout {
        /// What was polled (operation id, task id, domain…).
        target: String,
        /// The last observed status, if any.
        last_status: Option<String>,
    },
}

impl Error {
    pub(crate) fn validation(message: impl Into<String>) -> Self {
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
            | Error::Decode { context, .. } => Some(context),
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

    /// The HTTP status of the last response, if any.
    pub fn status(&self) -> Option<u16> {
        match self {
            Error::Decode { status, .. } => Some(*status),
            _ => self.api().map(|a| a.status),
        }
    }

    /// The API error code, if this is an API error.
    pub fn code(&self) -> Option<&ErrorCode> {
        self.api().map(|a| &a.code)
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
    /// transport failures, timeouts, 429, 5xx, `idempotency_in_progress`, `service_changed_retry`.
    /// An unknown write outcome is not: reconcile first.
    pub fn is_retryable(&self) -> bool {
        match self {
            Error::Transport { .. } | Error::Timeout { .. } => true,
            Error::Api(api) => {
                api.status == 429
                    || api.status >= 500
                    || matches!(
                        api.code,
                        ErrorCode::IdempotencyInProgress | ErrorCode::ServiceChangedRetry
                    )
            }
            _ => false,
        }
    }
}

fn write_context(f: &mut fmt::Formatter<'_>, ctx: &ErrorContext) -> fmt::Result {
    if let (Some(m), Some(p)) = (ctx.method, ctx.path.as_deref()) {
        write!(f, " [{m} {p}]")?;
    }
    if let Some(id) = &ctx.request_id {
        write!(f, " (request id {id})")?;
    }
    Ok(())
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Validation { message } => write!(f, "invalid request: {message}"),
            Error::Config { message } => write!(f, "configuration error: {message}"),
            Error::Transport { source, context } => {
                write!(f, "transport error: {source}")?;
                write_context(f, context)
            }
            Error::Timeout { context } => {
                write!(f, "timed out after {} attempt(s)", context.attempts)?;
                write_context(f, context)
            }
            Error::WriteOutcomeUnknown(u) => {
                write!(
                    f,
                    "write outcome unknown ({}): {} {}",
                    u.reason, u.method, u.path
                )?;
                match &u.idempotency_key {
                    Some(k) => write!(f, ", idempotency key {k}")?,
                    None => write!(f, ", no idempotency key")?,
                }
                write!(f, ", reconciliation: {:?}", u.reconciliation)?;
                if let Some(id) = &u.context.request_id {
                    write!(f, " (request id {id})")?;
                }
                Ok(())
            }
            Error::Decode {
                status,
                message,
                context,
            } => {
                write!(f, "cannot decode HTTP {status} response: {message}")?;
                write_context(f, context)
            }
            Error::Api(api) => {
                write!(f, "{api}")?;
                if let (Some(m), Some(p)) = (api.context.method, api.context.path.as_deref()) {
                    write!(f, " [{m} {p}]")?;
                }
                Ok(())
            }
            Error::OperationFailed(op) => {
                let (code, message) = op
                    .failure()
                    .map(|x| (x.code.as_deref(), x.message.as_deref()))
                    .unwrap_or_default();
                write!(
                    f,
                    "operation {} {}: {} {}",
                    op.id,
                    op.status,
                    code.unwrap_or("-"),
                    message.unwrap_or("")
                )
            }
            Error::OperationOutcomeUnknown(op) => {
                write!(
                    f,
                    "operation {} outcome unknown: needs reconciliation; do not submit a new write",
                    op.id
                )
            }
            Error::WaitTimeout {
                target,
                last_status,
            } => {
                write!(
                    f,
                    "gave up waiting for {target} (last status {})",
                    last_status.as_deref().unwrap_or("-")
                )
            }
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
