//! The answer of operations without a hand-written handler, and the reply of every operation
//! that starts an asynchronous operation.

use serde_json::{Map, Value, json};

use super::{Ctx, Reply};
use crate::async_operations::OperationRecord;
use crate::errors::ApiError;
use crate::idempotency::LookupIdentity;
use crate::state::State;

/// A documented-shape answer: a real operation for `x-operation-envelope` operations, else a
/// value synthesized from the success schema. A `serviceId` must name an existing service.
pub fn answer(st: &mut State, ctx: &Ctx) -> Result<Reply, ApiError> {
    let service_id = ctx.path.get("serviceId");
    if let Some(sid) = service_id {
        st.require_service(sid)?;
    }
    if ctx.op.operation_envelope {
        let mut links = Map::new();
        let mut result = json!({});
        if let Some(sid) = service_id {
            links.insert("service".into(), json!(format!("/v1/services/{sid}")));
            result = json!({"service_id": sid});
        }
        let kind = &ctx.op.operation_id;
        return Ok(operation_reply(st, ctx, kind, result, links, json!({})));
    }
    let body = match &ctx.op.success.1 {
        Some(ptr) => {
            let mut v = crate::synth::synthesize(&ctx.spec, ptr);
            if let Value::Object(m) = &mut v {
                m.insert("ok".into(), json!(true));
            }
            v
        }
        None => json!({"ok": true}),
    };
    Ok(ctx.success(body))
}

/// Creates an operation (findable by its idempotency key) and answers in the requested format:
/// the canonical envelope, or the legacy shape with `legacy_extra` merged in.
pub fn operation_reply(
    st: &mut State,
    ctx: &Ctx,
    kind: &str,
    result: Value,
    links: Map<String, Value>,
    legacy_extra: Value,
) -> Reply {
    let op = OperationRecord::new(kind, st.operation_settings.outcome, result, links);
    if let (Some(cred), Some(key)) = (&ctx.cred, &ctx.idem_key) {
        st.idempotency.identities.push(LookupIdentity {
            credential_id: cred.id,
            method: ctx.op.method.clone(),
            path: request_path(ctx),
            key: key.clone(),
            operation_id: op.id.clone(),
        });
    }
    let body = if ctx.operation_format {
        op.envelope()
    } else {
        op.legacy(legacy_extra)
    };
    st.operations.push(op);
    ctx.success(body)
}

/// The concrete request path, rebuilt from the template.
fn request_path(ctx: &Ctx) -> String {
    ctx.op
        .path
        .split('/')
        .map(|s| {
            if s.starts_with('{') {
                ctx.param(s.trim_matches(|c| c == '{' || c == '}'))
                    .to_owned()
            } else {
                s.to_owned()
            }
        })
        .collect::<Vec<_>>()
        .join("/")
}
