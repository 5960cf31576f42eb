//! The last check before an answer leaves: it must be one the contract documents for its
//! operation and status. An answer that is not is a sandbox bug, never sent silently: it is
//! journaled (tests fail on it) and replaced by a 500 whose message names the spec pointer.

use crate::errors::ApiError;
use crate::handlers::Reply;
use crate::shared::Shared;
use crate::spec::Operation;

/// The handler's reply when it follows the contract, else the sandbox-bug error.
pub(super) fn checked_reply(
    shared: &Shared,
    op: &Operation,
    reply: Reply,
) -> Result<Reply, ApiError> {
    match violations(shared, op, reply.status, &reply.body) {
        None => Ok(reply),
        Some(bug) => Err(bug),
    }
}

/// The error when its envelope follows the contract for its status, else the sandbox-bug error.
pub(super) fn checked_error(shared: &Shared, op: Option<&Operation>, e: ApiError) -> ApiError {
    let Some(op) = op else {
        return e;
    };
    let body = e.body("00000000-0000-4000-8000-000000000000");
    violations(shared, op, e.status, &body).unwrap_or(e)
}

/// The sandbox-bug error for an answer that breaks the contract, after journaling it.
fn violations(
    shared: &Shared,
    op: &Operation,
    status: u16,
    body: &serde_json::Value,
) -> Option<ApiError> {
    let errors = shared.validators.check_answer(op, status, body);
    if errors.is_empty() {
        return None;
    }
    let msg = errors
        .iter()
        .map(|e| format!("{}: {}", e.field, e.message))
        .collect::<Vec<_>>()
        .join("; ");
    tracing::error!(
        "sandbox bug: {status} answer of {} breaks the contract: {msg}",
        op.operation_id
    );
    shared
        .journal()
        .schema_violations
        .push((op.operation_id.clone(), format!("{status}: {msg}")));
    Some(ApiError::new(
        500,
        "service_unavailable",
        format!(
            "sandbox bug: the {status} answer of {} breaks the contract: {msg}",
            op.operation_id
        ),
    ))
}
