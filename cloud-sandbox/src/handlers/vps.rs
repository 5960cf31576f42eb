//! VPS writes, each an asynchronous operation over the VPS's state: backups (run adds one,
//! restore needs one), snapshot rollback (needs the snapshot), reboot (power state) and
//! firewall policy apply (needs a policy). A service that is not a VPS is 404 `not_found`.

use serde_json::{Map, Value, json};

use super::generic::operation_reply;
use super::{Ctx, Reply};
use crate::errors::ApiError;
use crate::resources::Vps;
use crate::state::State;

/// The VPS the path names, created with its seeded data on first use.
fn vps<'a>(st: &'a mut State, ctx: &Ctx) -> Result<(uuid::Uuid, &'a mut Vps), ApiError> {
    let id = st.require_kind(ctx.path_arg(0), "vps")?.id;
    Ok((id, st.resources.vps.entry(id).or_default()))
}

/// The operation reply of a VPS write with `result` (the service id added).
fn reply(st: &mut State, ctx: &Ctx, id: uuid::Uuid, mut result: Value) -> Reply {
    result["service_id"] = json!(id);
    let links = Map::from_iter([("service".to_owned(), json!(format!("/v1/services/{id}")))]);
    let kind = ctx.op.operation_id.clone();
    operation_reply(st, ctx, &kind, result, links, json!({}))
}

/// `POST /v1/vps/{serviceId}/backup/run`: a new backup file.
pub fn backup_run(st: &mut State, ctx: &Ctx) -> Result<Reply, ApiError> {
    let (id, vps) = vps(st, ctx)?;
    let file = format!("backup-{}.tar.gz", vps.backups.len() + 1);
    vps.backups.push(file.clone());
    Ok(reply(st, ctx, id, json!({"file": file})))
}

/// `POST /v1/vps/{serviceId}/backup/restore`: the named backup, or the latest without `file`.
pub fn backup_restore(st: &mut State, ctx: &Ctx) -> Result<Reply, ApiError> {
    let body = ctx.body.clone().unwrap_or_default();
    let (id, vps) = vps(st, ctx)?;
    let file = match body["file"].as_str() {
        Some(f) => vps.backups.iter().find(|b| *b == f),
        None => vps.backups.last(),
    }
    .cloned()
    .ok_or_else(|| ApiError::not_found("Backup"))?;
    vps.restored_from = Some(file.clone());
    vps.power_state = if body["auto_start"] == false {
        "stopped"
    } else {
        "running"
    }
    .into();
    Ok(reply(st, ctx, id, json!({"file": file})))
}

/// `POST /v1/vps/{serviceId}/reboot`.
pub fn reboot(st: &mut State, ctx: &Ctx) -> Result<Reply, ApiError> {
    let (id, vps) = vps(st, ctx)?;
    vps.power_state = "running".into();
    Ok(reply(st, ctx, id, json!({"power_state": "running"})))
}

/// `POST /v1/vps/{serviceId}/snapshots/{name}/rollback`: the snapshot must exist.
pub fn snapshot_rollback(st: &mut State, ctx: &Ctx) -> Result<Reply, ApiError> {
    let name = ctx.path_arg(1).to_owned();
    let (id, vps) = vps(st, ctx)?;
    if !vps.snapshots.contains(&name) {
        return Err(ApiError::not_found("Snapshot"));
    }
    Ok(reply(st, ctx, id, json!({"snapshot": name})))
}

/// `POST /v1/vps/{serviceId}/firewall/policy/apply`: the body is not shown; the sandbox takes
/// `policy_id`, else the primary policy, else the newest; without any policy 404 `not_found`.
pub fn firewall_apply(st: &mut State, ctx: &Ctx) -> Result<Reply, ApiError> {
    let wanted = ctx.body.as_ref().and_then(|b| b.get("policy_id")).cloned();
    let policies = &st.resources.firewall_policies;
    let policy = match &wanted {
        Some(pid) => policies.iter().find(|p| p["id"] == *pid),
        None => policies
            .iter()
            .find(|p| p["isPrimary"] == true)
            .or(policies.last()),
    }
    .cloned()
    .ok_or_else(|| ApiError::not_found("Firewall policy"))?;
    let (id, vps) = vps(st, ctx)?;
    vps.firewall_policy = Some(policy.clone());
    Ok(reply(st, ctx, id, json!({"policy_id": policy["id"]})))
}

/// `POST /v1/firewall/policies`: stored; a primary policy makes the others non-primary.
pub fn create_policy(st: &mut State, ctx: &Ctx) -> Result<Reply, ApiError> {
    let body = ctx.body.clone().unwrap_or_default();
    let primary = body["is_primary"] == true;
    if primary {
        for p in &mut st.resources.firewall_policies {
            p["isPrimary"] = json!(false);
        }
    }
    let policy = json!({
        "id": uuid::Uuid::new_v4(),
        "name": body["name"],
        "description": body.get("description").cloned().unwrap_or(Value::Null),
        "isPrimary": primary,
        "policyIn": body.get("policy_in").cloned().unwrap_or(Value::Null),
        "policyOut": body.get("policy_out").cloned().unwrap_or(Value::Null),
        "rules": body.get("rules").cloned().unwrap_or(json!([])),
    });
    st.resources.firewall_policies.push(policy.clone());
    Ok(ctx.success(json!({"ok": true, "policy": policy})))
}
