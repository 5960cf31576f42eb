//! Webhook endpoints: enable or disable (PATCH), delete (removes the endpoint and its
//! delivery history; a second delete is 404 `not_found`). Endpoints are seeded: the
//! operations that create them are not shown.

use serde_json::json;

use super::{Ctx, Reply};
use crate::errors::ApiError;
use crate::state::State;

/// The index of the endpoint the path names.
fn find(st: &State, ctx: &Ctx) -> Result<usize, ApiError> {
    let id = ctx.path_arg(0);
    st.resources
        .webhooks
        .iter()
        .position(|w| w["id"].as_str() == Some(id))
        .ok_or_else(|| ApiError::not_found("Webhook endpoint"))
}

/// `PATCH /v1/webhooks/{id}`: sets `enabled` when given.
pub fn update(st: &mut State, ctx: &Ctx) -> Result<Reply, ApiError> {
    let i = find(st, ctx)?;
    let item = &mut st.resources.webhooks[i];
    if let Some(enabled) = ctx.body.as_ref().and_then(|b| b.get("enabled")) {
        item["enabled"] = enabled.clone();
    }
    Ok(ctx.success(json!({"ok": true, "item": item})))
}

/// `DELETE /v1/webhooks/{id}`.
pub fn delete(st: &mut State, ctx: &Ctx) -> Result<Reply, ApiError> {
    let i = find(st, ctx)?;
    st.resources.webhooks.remove(i);
    Ok(ctx.success(json!({"ok": true})))
}
