//! The steps that commit: claiming the idempotency key, running the handler, and the faults that
//! strike after the write is applied.

use std::sync::Arc;

use bytes::Bytes;

use super::Conn;
use super::Stop;
use super::admission::Incoming;
use super::conformance::checked_reply;
use crate::errors::ApiError;
use crate::faults::Fault;
use crate::handlers::{Ctx, Reply, handler_for};
use crate::idempotency::{Begin, StoreKey, StoredResponse, fingerprint};
use crate::shared::Shared;

/// Claims the key of an idempotent write (a credential, a write and an `Idempotency-Key`):
/// answers a stored response again, or 409 for a conflicting or still-running request.
pub(super) fn claim_idempotency_key(
    shared: &Shared,
    req: &Incoming,
    ctx: &Ctx,
) -> Result<Option<StoreKey>, Stop> {
    let (Some(cred), Some(key)) = (&ctx.cred, &ctx.idem_key) else {
        return Ok(None);
    };
    if !ctx.op.is_write() {
        return Ok(None);
    }
    let store_key = (cred.id, req.method.clone(), req.path.clone(), key.clone());
    let mut state = shared.state();
    let now = state.now();
    let begun = state
        .idempotency
        .begin(&store_key, fingerprint(&req.raw_query, &req.body), now)?;
    match begun {
        Begin::Run => Ok(Some(store_key)),
        Begin::Replay(stored) => Err(Stop::Replay(stored)),
    }
}

/// A handler's outcome: its serialized reply, or its error (answered after the faults that
/// strike after commit).
pub(super) type Outcome = Result<StoredResponse, ApiError>;

/// Runs the handler in its own task, so a write completes (and its idempotent response is
/// stored) even if the client goes away; a `Delay` fault holds the answer back.
pub(super) async fn dispatch(
    shared: &Arc<Shared>,
    ctx: Ctx,
    claim: Option<StoreKey>,
    fault: Option<Fault>,
) -> Result<Outcome, Stop> {
    let shared = shared.clone();
    let task = tokio::spawn(async move {
        let outcome: Outcome = run_handler(&shared, &ctx)
            .and_then(|reply| checked_reply(&shared, &ctx.op, reply))
            .map(|reply| StoredResponse {
                status: reply.status,
                body: Bytes::from(serde_json::to_vec(&reply.body).unwrap_or_default()),
            });
        if let Some(Fault::Delay(d)) = fault {
            tokio::time::sleep(d).await;
        }
        if let Some(key) = claim {
            let mut state = shared.state();
            let now = state.now();
            state
                .idempotency
                .finish(&key, outcome.as_ref().ok().cloned(), now);
        }
        outcome
    });
    task.await
        .map_err(|_| ApiError::service_unavailable(500).into())
}

/// Calls the operation's handler with the state locked, and counts an applied keyed write.
fn run_handler(shared: &Shared, ctx: &Ctx) -> Result<Reply, ApiError> {
    let handler = handler_for(&ctx.op.operation_id);
    let mut state = shared.state();
    let reply = handler(&mut state, ctx)?;
    if let Some(key) = &ctx.idem_key
        && ctx.op.is_write()
        && (200..300).contains(&reply.status)
    {
        state.count_applied_write(key);
    }
    Ok(reply)
}

/// The faults that strike after the write committed: drop the connection without answering,
/// or answer a 5xx.
pub(super) async fn fault_after_commit(conn: &Conn, fault: Option<&Fault>) -> Result<(), Stop> {
    match fault {
        Some(Fault::DropAfterCommit) => {
            conn.drop_connection();
            std::future::pending().await
        }
        Some(Fault::StatusAfterCommit(s)) => Err(ApiError::service_unavailable(*s).into()),
        Some(Fault::ErrorAfterCommit { status, code }) => {
            Err(super::admission::injected_error(*status, code).into())
        }
        _ => Ok(()),
    }
}
