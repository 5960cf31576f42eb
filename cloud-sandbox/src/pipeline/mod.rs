//! The request path as named steps. Each step hands the next one what it needs, or stops the
//! request with its answer ([`Stop`]); [`respond`] runs them in this order:
//!
//! 1. [`admission::read_body`]: the body, at most 4 MiB;
//! 2. [`admission::inject_fault`]: scheduled faults that strike before anything commits;
//! 3. [`admission::route`]: the spec operation serving the method and path (404, 405);
//! 4. [`admission::authenticate`]: credential, IP policy and scopes (401, 403);
//! 5. [`admission::count_request`] and [`admission::enforce_rate_limit`] (429);
//! 6. [`admission::check_client_request_id`] and [`admission::validate`] against the spec (400);
//! 7. [`commit::claim_idempotency_key`]: replay, conflict or in progress (409);
//! 8. [`commit::dispatch`]: the operation's handler, in its own task;
//! 9. [`commit::fault_after_commit`]: faults that strike after the write committed.
//!
//! The [`Exchange`](exchange::Exchange) around them numbers the request, journals it however it
//! ends, and stamps `x-request-id` and the rate-limit headers on the answer.

mod admission;
mod commit;
mod conformance;
mod conn;
mod exchange;
mod response;

use std::sync::Arc;

use axum::body::Body;
use http::{Request, Response};

use crate::errors::ApiError;
use crate::idempotency::StoredResponse;
use crate::shared::Shared;
pub(crate) use conn::Conn;
use exchange::Exchange;

/// Why a request ends before its handler's reply is sent.
#[derive(Debug)]
enum Stop {
    /// An API error, answered with the error envelope.
    Error(ApiError),
    /// The edge's HTML error page.
    EdgeHtml,
    /// The stored response of an idempotent write, replayed.
    Replay(StoredResponse),
}

impl From<ApiError> for Stop {
    fn from(e: ApiError) -> Self {
        Self::Error(e)
    }
}

/// Serves one request.
pub(crate) async fn respond(shared: Arc<Shared>, conn: Conn, req: Request<Body>) -> Response<Body> {
    let mut exchange = Exchange::open(shared, &req);
    let response = match steps(&mut exchange, &conn, req).await {
        Ok(response) => response,
        Err(Stop::Error(e)) => {
            let op = exchange.operation();
            let e = conformance::checked_error(exchange.shared(), op.as_ref(), e);
            response::error(&e, exchange.request_id())
        }
        Err(Stop::EdgeHtml) => response::edge_html(),
        Err(Stop::Replay(stored)) => response::replay(&stored),
    };
    exchange.close(response)
}

/// The steps of the request path, in order.
async fn steps(ex: &mut Exchange, conn: &Conn, req: Request<Body>) -> Result<Response<Body>, Stop> {
    let shared = ex.shared().clone();
    let req = admission::read_body(req).await?;
    let fault = admission::inject_fault(&shared, &req, ex.record())?;
    let (op, path_params) = admission::route(&shared, &req, ex.record())?;
    let cred = admission::authenticate(&shared, conn, &req, &op, ex.record())?;
    let verdict = admission::count_request(&shared, cred.as_ref());
    ex.verdict = Some(verdict);
    admission::enforce_rate_limit(&verdict)?;
    admission::check_client_request_id(&req)?;
    let ctx = admission::validate(&shared, &req, op, path_params, cred)?;
    let claim = commit::claim_idempotency_key(&shared, &req, &ctx)?;
    let outcome = commit::dispatch(&shared, ctx, claim, fault.clone()).await?;
    commit::fault_after_commit(conn, fault.as_ref()).await?;
    Ok(response::stored(&outcome?))
}
