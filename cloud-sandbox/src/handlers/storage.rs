//! Storage volumes, named by their storage service: attach to one active VPS or dedicated
//! server of the account, detach. Attaching elsewhere while attached is a `validation_error`
//! (detach first); detaching a detached volume is a no-op.

use serde_json::json;

use super::{Ctx, Reply};
use crate::errors::ApiError;
use crate::state::State;

/// `POST /v1/storage/volumes/{serviceId}/attach`.
pub fn attach(st: &mut State, ctx: &Ctx) -> Result<Reply, ApiError> {
    let volume = st.require_kind(ctx.path_arg(0), "storage")?.id;
    let body = ctx.body.clone().unwrap_or_default();
    let target = st.require_service(body["target_service_id"].as_str().unwrap_or_default())?;
    if !matches!(target.kind.as_str(), "vps" | "dedicated") || target.status != "active" {
        return Err(ApiError::invalid_field(
            "body/target_service_id",
            "not an eligible server: an active VPS or dedicated server",
        ));
    }
    let target = target.id;
    match st.resources.volume_attachments.get(&volume) {
        Some(current) if *current != target => Err(ApiError::invalid_field(
            "body/target_service_id",
            "the volume is attached to another server; detach it first",
        )),
        _ => {
            st.resources.volume_attachments.insert(volume, target);
            Ok(ctx.success(json!({"ok": true})))
        }
    }
}

/// `POST /v1/storage/volumes/{serviceId}/detach`.
pub fn detach(st: &mut State, ctx: &Ctx) -> Result<Reply, ApiError> {
    let volume = st.require_kind(ctx.path_arg(0), "storage")?.id;
    st.resources.volume_attachments.remove(&volume);
    Ok(ctx.success(json!({"ok": true})))
}
