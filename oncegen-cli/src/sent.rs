//! What a call answered, as the tool prints it.

use crate::{Failure, exit};
use oncegen_runtime::{Error, Response};
use serde::Serialize;
use serde_json::Value;

/// What a call answered: its body as JSON and its write's key.
pub struct Sent {
    /// The success body.
    pub value: Value,
    /// The idempotency key of a write.
    pub idempotency_key: Option<String>,
    /// Already printed (`--all` prints items as they arrive).
    pub printed: bool,
}

/// The result of an SDK call as the CLI prints it.
pub fn respond<T: Serialize>(result: Result<Response<T>, Error>) -> Result<Sent, Failure> {
    let (body, _, meta) = result?.into_parts();
    let value = serde_json::to_value(body).map_err(|e| Failure {
        code: exit::OTHER,
        message: format!("the answer does not encode as JSON: {e}"),
        settled_key: meta.idempotency_key.clone(),
    })?;
    Ok(Sent {
        value,
        idempotency_key: meta.idempotency_key,
        printed: false,
    })
}
