//! How every kind of [`Error`] reads: one line naming what happened and what the caller needs
//! to recover (the method and path, the idempotency key, the server's request id).

use std::fmt;

use super::{ApiError, Error, ErrorContext, UnknownOutcome};

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
            Error::WriteOutcomeUnknown(u) => write_outcome_unknown(f, u),
            Error::WriteApplied {
                operation_id,
                context,
            } => write_applied(f, operation_id.as_deref(), context),
            Error::Redirected {
                status,
                location,
                context,
            } => redirected(f, *status, location.as_deref(), context),
            Error::ResponseTooLarge {
                status,
                limit,
                context,
            } => response_too_large(f, *status, *limit, context),
            #[cfg(feature = "journal")]
            Error::Journal { message } => {
                write!(f, "the write journal failed, nothing was sent: {message}")
            }
            Error::Decode {
                status,
                message,
                context,
                ..
            } => {
                write!(f, "cannot decode HTTP {status} response: {message}")?;
                write_context(f, context)
            }
            Error::Api(api) => api_error(f, api),
            Error::OperationFailed(outcome) => {
                write!(f, "{} ended {}", outcome.target, or_dash(&outcome.status))
            }
            Error::OperationOutcomeUnknown(outcome) => write!(
                f,
                "{} outcome unknown (status {}): needs reconciliation; do not submit a new write",
                outcome.target,
                or_dash(&outcome.status)
            ),
            Error::WaitTimeout {
                target,
                last_status,
            } => write!(
                f,
                "gave up waiting for {target} (last status {})",
                or_dash(last_status)
            ),
        }
    }
}

/// The text, or `-` when there is none.
fn or_dash(text: &Option<String>) -> &str {
    text.as_deref().unwrap_or("-")
}

/// ` [METHOD /path]` and ` (request id …)`, each when known.
fn write_context(f: &mut fmt::Formatter<'_>, ctx: &ErrorContext) -> fmt::Result {
    if let (Some(m), Some(p)) = (ctx.method, ctx.path.as_deref()) {
        write!(f, " [{m} {p}]")?;
    }
    if let Some(id) = &ctx.request_id {
        write!(f, " (request id {id})")?;
    }
    Ok(())
}

/// [`Error::WriteOutcomeUnknown`]: why, the write, its key and what reconciliation found.
fn write_outcome_unknown(f: &mut fmt::Formatter<'_>, u: &UnknownOutcome) -> fmt::Result {
    write!(
        f,
        "write outcome unknown ({}): {} {}",
        u.reason, u.method, u.path
    )?;
    match &u.idempotency_key {
        Some(k) => write!(f, ", idempotency key {k}")?,
        None => write!(f, ", no idempotency key")?,
    }
    write!(f, "; {}", u.reconciliation)?;
    if let Some(id) = &u.context.request_id {
        write!(f, " (request id {id})")?;
    }
    Ok(())
}

/// [`Error::WriteApplied`]: the recorded operation and the write's key.
fn write_applied(
    f: &mut fmt::Formatter<'_>,
    operation_id: Option<&str>,
    context: &ErrorContext,
) -> fmt::Result {
    write!(
        f,
        "write applied (recorded as operation {}), its answer not fetched",
        operation_id.unwrap_or("-")
    )?;
    if let Some(key) = &context.idempotency_key {
        write!(f, ", idempotency key {key}")?;
    }
    write_context(f, context)
}

/// [`Error::Redirected`]: the status and where it pointed.
fn redirected(
    f: &mut fmt::Formatter<'_>,
    status: u16,
    location: Option<&str>,
    context: &ErrorContext,
) -> fmt::Result {
    write!(
        f,
        "HTTP {status} redirect to {} not followed (redirects never are: the request stays with the configured origin)",
        location.unwrap_or("-")
    )?;
    write_context(f, context)
}

/// [`Error::ResponseTooLarge`]: the status and the cap.
fn response_too_large(
    f: &mut fmt::Formatter<'_>,
    status: u16,
    limit: usize,
    context: &ErrorContext,
) -> fmt::Result {
    write!(
        f,
        "HTTP {status} response body exceeds the {limit}-byte cap (Config::max_response_bytes)"
    )?;
    write_context(f, context)
}

/// [`Error::Api`]: the API's error, then the method and path.
fn api_error(f: &mut fmt::Formatter<'_>, api: &ApiError) -> fmt::Result {
    write!(f, "{api}")?;
    if let (Some(m), Some(p)) = (api.context.method, api.context.path.as_deref()) {
        write!(f, " [{m} {p}]")?;
    }
    Ok(())
}
