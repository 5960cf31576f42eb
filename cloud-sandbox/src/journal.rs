//! What the sandbox observed, for tests: every request it received ([`RequestRecord`]) and the
//! answers of its own that broke the contract.

use std::time::Instant;

use crate::faults::Fault;

/// The observations of one sandbox.
#[derive(Debug, Default)]
pub struct Journal {
    /// Every request received, in the order their handling finished.
    pub requests: Vec<RequestRecord>,
    /// Answers that broke the contract (replaced by a 500): (operationId, "status: errors").
    pub schema_violations: Vec<(String, String)>,
}

/// One request as the sandbox saw it: for tests that assert on what reached the server
/// (coverage of operations, spacing of retries after 429, faults hit).
#[derive(Clone, Debug)]
pub struct RequestRecord {
    /// When the request arrived (before its body was read).
    pub received_at: Instant,
    /// When the response was handed to the connection; `None` when no response was sent
    /// (drop-after-commit fault, or the client went away first).
    pub responded_at: Option<Instant>,
    /// Uppercase method.
    pub method: String,
    /// Path without query.
    pub path: String,
    /// Raw query string (empty when none).
    pub query: String,
    /// The matched operation's `operationId`, `None` when no route matched (or a fault answered
    /// before routing).
    pub operation_id: Option<String>,
    /// HTTP status sent; 0 when no response was sent.
    pub status: u16,
    /// `Retry-After` sent, in seconds.
    pub retry_after: Option<u64>,
    /// The authenticated credential.
    pub credential_id: Option<uuid::Uuid>,
    /// `Idempotency-Key` header.
    pub idempotency_key: Option<String>,
    /// `x-client-request-id` header.
    pub client_request_id: Option<String>,
    /// The fault injected into this request, if any.
    pub fault: Option<Fault>,
    /// The response was a stored idempotent replay.
    pub replayed: bool,
}

impl RequestRecord {
    /// Whether the status is 2xx.
    pub fn succeeded(&self) -> bool {
        (200..300).contains(&self.status)
    }
}
