//! The facts of one API that the runtime's generic mechanisms consume, supplied by the generated
//! crate (read from the spec's extensions): where error bodies carry their code, which error
//! codes mean "resend the identical request", and which operation settles a write whose outcome
//! is unknown.
//!
//! The runtime itself names no operation, path, field or error code of any API; a client without
//! a profile ([`ApiProfile::NONE`]) simply never resends on an error code and never looks up.

use crate::spec::OperationSpec;

/// Conventions of one API (generated from its spec; see `docs/extensions.md`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ApiProfile {
    /// Error codes after which the runtime waits (`Retry-After`, else backoff) and resends the
    /// identical request within the call (`x-retry-codes: automatic`).
    pub automatic_retry_codes: &'static [&'static str],
    /// Error codes after which the caller may resend the identical request later
    /// (`x-retry-codes: caller`): [`Error::is_retryable`](crate::Error::is_retryable) says so.
    pub caller_retry_codes: &'static [&'static str],
    /// How to look up a write by its idempotency key (`x-operation-lookup`), if the API can.
    pub lookup: Option<OperationLookup>,
    /// Where an error response carries its code, message and details (`x-error-envelope`).
    pub error_body: ErrorBody,
}

impl ApiProfile {
    /// No conventions: no code is resent, unknown write outcomes are not looked up.
    pub const NONE: ApiProfile = ApiProfile {
        automatic_retry_codes: &[],
        caller_retry_codes: &[],
        lookup: None,
        error_body: ErrorBody::NONE,
    };

    /// Whether the runtime resends the identical request after `code`.
    pub fn retries_automatically(&self, code: &str) -> bool {
        self.automatic_retry_codes.contains(&code)
    }

    /// Whether the API declares where its JSON error bodies keep their members
    /// (`x-error-envelope`). Such an API answers its errors in JSON, so a 4xx with another body
    /// came from something in front of it (an edge, a proxy) and a write's outcome is unknown;
    /// without one, a 4xx of any body is the API's final answer.
    pub fn declares_error_envelope(&self) -> bool {
        self.error_body != ErrorBody::NONE
    }

    /// Whether resending the identical request after `code` is safe and may succeed.
    pub fn is_retry_code(&self, code: &str) -> bool {
        self.retries_automatically(code) || self.caller_retry_codes.contains(&code)
    }
}

impl Default for ApiProfile {
    fn default() -> Self {
        ApiProfile::NONE
    }
}

/// The operation that finds a write by its idempotency key, and how to read its answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OperationLookup {
    /// The lookup operation (a read).
    pub spec: &'static OperationSpec,
    /// Query parameter for the write's idempotency key.
    pub idempotency_key: &'static str,
    /// Query parameter for the write's HTTP method.
    pub method: &'static str,
    /// Query parameter for the write's exact path.
    pub path: &'static str,
    /// JSON pointer of the found operation's id in a success body.
    pub found_id: &'static str,
    /// Error code: no recoverable identity (does not prove the write never ran).
    pub not_found: &'static str,
    /// Error code: several writes match.
    pub ambiguous: &'static str,
    /// Error code: the identity remains but the receipt expired.
    pub expired: &'static str,
}

/// Where an error response's members live: JSON pointers, the first present one wins (the
/// nested object first, then legacy flat copies, for example).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ErrorBody {
    /// The error code.
    pub code: &'static [&'static str],
    /// The human-readable message.
    pub message: &'static [&'static str],
    /// The server's request id (else the `x-request-id` header is used).
    pub request_id: &'static [&'static str],
    /// Per-field validation errors (kept as JSON).
    pub field_errors: &'static [&'static str],
    /// Further details (kept as JSON).
    pub details: &'static [&'static str],
}

impl ErrorBody {
    /// Nothing is read from error bodies: errors carry the status and a generic message.
    pub const NONE: ErrorBody = ErrorBody {
        code: &[],
        message: &[],
        request_id: &[],
        field_errors: &[],
        details: &[],
    };
}
