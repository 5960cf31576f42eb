//! A failed command: what to print on stderr and the exit code.

use crate::exit;
use oncegen_runtime::{Error, Reconciliation, UnknownOutcome};
use std::fmt;

/// Why a command failed, with its exit code ([`exit`]). Its text never holds a credential:
/// the SDK's errors leave them out.
#[derive(Debug)]
pub struct Failure {
    /// The exit code.
    pub code: u8,
    /// What to print after `error: `.
    pub message: String,
    /// The key of a write whose outcome is known (it failed definitely): its journal entry
    /// can be closed once the failure is reported.
    pub settled_key: Option<String>,
}

impl Failure {
    /// A usage error (bad value, bad body, missing configuration).
    pub fn usage(message: impl Into<String>) -> Self {
        Failure {
            code: exit::USAGE,
            message: message.into(),
            settled_key: None,
        }
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl From<Error> for Failure {
    fn from(e: Error) -> Self {
        let code = match &e {
            Error::Api(api) => exit::of_status(api.status),
            Error::WriteOutcomeUnknown(_) | Error::OperationOutcomeUnknown(_) => {
                exit::OUTCOME_UNKNOWN
            }
            Error::Validation { .. } | Error::Config { .. } => exit::USAGE,
            _ => exit::OTHER,
        };
        let message = match &e {
            Error::Api(api) => {
                let mut text = match api.code.as_str() {
                    "" => format!("{}: {}", api.status, api.message),
                    code => format!("{} {code}: {}", api.status, api.message),
                };
                if let Some(id) = &api.request_id {
                    text.push_str(&format!("\n  request id: {id}"));
                }
                let listed = |v: &&serde_json::Value| match v {
                    serde_json::Value::Array(a) => !a.is_empty(),
                    serde_json::Value::Object(o) => !o.is_empty(),
                    serde_json::Value::Null => false,
                    _ => true,
                };
                if let Some(fields) = api.field_errors.as_ref().filter(listed) {
                    text.push_str(&format!("\n  field errors: {fields}"));
                }
                text
            }
            other => {
                let mut text = match other {
                    Error::WriteOutcomeUnknown(unknown) => unknown_outcome(unknown),
                    _ => other.to_string(),
                };
                if let Some(key) = other
                    .idempotency_key()
                    .filter(|_| code == exit::OUTCOME_UNKNOWN)
                {
                    text.push_str(&format!(
                        "\n  idempotency key: {key} (re-run with --idempotency-key {key} to settle it)"
                    ));
                }
                text
            }
        };
        let settled_key = match &e {
            Error::Api(api) => api.context.idempotency_key.clone(),
            _ => None,
        };
        Failure {
            code,
            message,
            settled_key,
        }
    }
}

/// A write of unknown outcome in one line: the write, why, and what the lookup found, in words
/// (the runtime's `Display` repeats a transport error in its lookup's and shows the lookup as
/// Rust `Debug`); the key follows on the next line.
fn unknown_outcome(unknown: &UnknownOutcome) -> String {
    let lookup = match &unknown.reconciliation {
        Reconciliation::NotAttempted => "no lookup was made".to_owned(),
        Reconciliation::Recorded { .. } => "the lookup found it recorded".to_owned(),
        Reconciliation::NotFound => "the lookup found no record of it".to_owned(),
        Reconciliation::Ambiguous => "the lookup matched several writes".to_owned(),
        Reconciliation::Expired => "its record expired".to_owned(),
        // The lookup's error names its own request (` [GET /v1/…]`): the same failure otherwise.
        Reconciliation::Failed { message } if message.starts_with(&unknown.reason) => {
            "the lookup failed the same way".to_owned()
        }
        Reconciliation::Failed { message } => format!("the lookup failed: {message}"),
    };
    format!(
        "write outcome unknown: {} {}: {}; {lookup}",
        unknown.method, unknown.path, unknown.reason
    )
}
