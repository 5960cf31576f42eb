//! What a call answered, as the tool prints it.

use crate::{Failure, exit, output};
use oncegen_runtime::{Binary, Error, Response};
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

/// The result of an SDK call answering bytes of a media type neither JSON nor text (a
/// [`Binary`]): written to stdout as they are (`> file.pdf`), not as JSON, so `--output` and
/// `--jq` do not apply.
pub fn respond_bytes(result: Result<Response<Binary>, Error>) -> Result<Sent, Failure> {
    let (body, _, meta) = result?.into_parts();
    output::write_bytes(body.bytes()).map_err(|e| Failure {
        code: exit::OTHER,
        message: format!("writing the output: {e}"),
        settled_key: meta.idempotency_key.clone(),
    })?;
    Ok(Sent {
        value: Value::Null,
        idempotency_key: meta.idempotency_key,
        printed: true,
    })
}
