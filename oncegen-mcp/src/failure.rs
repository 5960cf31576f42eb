//! A failed tool call as the agent reads it: what happened and what to do next. Its text never
//! holds a credential: the SDK's errors leave them out.

use oncegen_runtime::{ApiError, Error};
use serde_json::{Value, json};
use std::fmt;

/// Why a tool call did not succeed.
#[derive(Debug, Clone)]
pub struct Failure {
    /// `invalid_arguments`, `refused`, `api_error`, `outcome_unknown`, `in_progress`, `failed`
    /// or `internal`.
    pub kind: &'static str,
    /// What happened and what to do next.
    pub message: String,
    /// The idempotency key of the write, when there was one.
    pub idempotency_key: Option<String>,
    /// Details an agent can branch on (status, code, request id, field errors).
    pub details: Option<Box<Value>>,
}

impl Failure {
    fn of(kind: &'static str, message: String) -> Self {
        Failure {
            kind,
            message,
            idempotency_key: None,
            details: None,
        }
    }

    /// Arguments that do not fit the tool's schema.
    pub fn invalid(message: impl Into<String>) -> Self {
        Self::of("invalid_arguments", message.into())
    }

    /// A call the server's configuration does not allow.
    pub fn refused(message: impl Into<String>) -> Self {
        Self::of("refused", message.into())
    }

    /// The same write is being sent or settled by another process now: nothing was sent.
    pub fn busy(key: &str) -> Self {
        let mut f = Self::of(
            "in_progress",
            format!(
                "the same write (idempotency key {key}) is being sent or settled by another \
                 process right now; nothing was sent. Call again shortly: you will get its \
                 outcome."
            ),
        );
        f.idempotency_key = Some(key.to_owned());
        f
    }

    /// A failure of the server itself.
    pub fn internal(message: impl Into<String>) -> Self {
        Self::of("internal", message.into())
    }

    /// Whether the write's outcome is known (it failed definitely): its journal entry can be
    /// closed.
    pub fn is_settled(&self) -> bool {
        matches!(self.kind, "api_error" | "invalid_arguments")
    }

    /// The failure as the structured content of an error result.
    pub fn to_json(&self) -> Value {
        let mut value = json!({"error": self.kind, "message": self.message});
        if let Some(key) = &self.idempotency_key {
            value["idempotency_key"] = json!(key);
        }
        if let Some(details) = &self.details {
            value["details"] = (**details).clone();
        }
        value
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl From<Error> for Failure {
    fn from(e: Error) -> Self {
        let key = e.idempotency_key().map(str::to_owned);
        let mut failure = match &e {
            Error::Api(api) => api_failure(api, e.is_retryable()),
            Error::WriteOutcomeUnknown(_) | Error::OperationOutcomeUnknown(_) => Failure::of(
                "outcome_unknown",
                format!(
                    "the outcome of this write is UNKNOWN (it may or may not have been applied): {e}. \
                     Do not send it again under a new key. Call the same tool again with the same \
                     `idempotency_key` (the server replays the first outcome, never writes twice), \
                     or look the write up with the operations tools."
                ),
            ),
            Error::WriteApplied { .. } => Failure::of(
                "outcome_unknown",
                format!(
                    "the write WAS applied, but its answer could not be fetched: {e}. Do not send it \
                     again; call the same tool with the same `idempotency_key` to read its answer."
                ),
            ),
            Error::Validation { .. } => Failure::invalid(e.to_string()),
            _ => Failure::of(
                "failed",
                format!(
                    "{e}.{}",
                    if e.is_retryable() {
                        " Retrying with the same arguments (and the same `idempotency_key` for a write) is safe."
                    } else {
                        ""
                    }
                ),
            ),
        };
        failure.idempotency_key = key;
        failure
    }
}

/// An API error: its status, code and message with the next step, and the details an agent
/// acts on.
fn api_failure(api: &ApiError, retryable: bool) -> Failure {
    // No code: nothing where it would be; a message ending its sentence keeps its own stop.
    let code = if api.code.is_empty() {
        String::new()
    } else {
        format!(" {}", api.code)
    };
    let stop = if api.message.ends_with(['.', '!', '?']) {
        ""
    } else {
        "."
    };
    let mut f = Failure::of(
        "api_error",
        format!(
            "the API answered {}{code}: {}{stop} {}",
            api.status,
            api.message,
            next_step(api.status, retryable)
        ),
    );
    f.details = Some(Box::new(json!({
        "status": api.status,
        "code": api.code,
        "request_id": api.request_id,
        "field_errors": api.field_errors,
        "retryable": retryable,
    })));
    f
}

fn next_step(status: u16, retryable: bool) -> &'static str {
    match status {
        _ if retryable => "Retrying later with the same arguments is safe.",
        400 | 422 => "Fix the arguments named above and call again.",
        401 | 403 => "The server's credential may not do this; ask the operator.",
        404 => "Check the identifiers (list or search tools find them).",
        409 => "The resource's state does not allow this now; read it first.",
        _ => "",
    }
}
