//! Integrations: version, capabilities, API credentials (cursor model, secret only on issuance
//! or same-key retry), and operation lookup / polling (reference 4.2).

use chrono::{Duration, Utc};
use serde_json::{Value, json};
use uuid::Uuid;

use super::{Ctx, Reply};
use crate::auth::{Credential, Mode};
use crate::errors::ApiError;
use crate::state::State;

/// How long terminal operation receipts are kept (reference part 8, advertised in
/// `operation_policy`); older ones answer 410 `operation_expired`.
pub const RECEIPT_RETENTION_DAYS: i64 = 90;

/// `GET /v1/version`: the revision is the served spec's `info.version`.
pub fn version(_: &mut State, ctx: &Ctx) -> Result<Reply, ApiError> {
    Ok(ctx.success(json!({
        "ok": true,
        "version": "v1",
        "contract_revision": ctx.spec.version(),
        "server": "cloud-sandbox",
    })))
}

/// `GET /v1/capabilities`: every feature the operation's `x-capabilities` names is reported
/// available (`operation_policy` with the receipt retention).
pub fn capabilities(_: &mut State, ctx: &Ctx) -> Result<Reply, ApiError> {
    let mut body = serde_json::Map::from_iter([("ok".to_owned(), json!(true))]);
    let features = ctx.spec.operation_member(&ctx.op, "x-capabilities");
    for name in features
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
    {
        let value = match name {
            "operation_policy" => json!({"terminal_retention_days": RECEIPT_RETENTION_DAYS}),
            _ => json!(true),
        };
        body.insert(name.to_owned(), value);
    }
    Ok(ctx.success(Value::Object(body)))
}

/// `GET /v1/api-credentials`: cursor model, at most 100 per page.
pub fn list_credentials(st: &mut State, ctx: &Ctx) -> Result<Reply, ApiError> {
    let include_revoked = ctx.query_param("include_revoked") == Some("true");
    let items: Vec<Value> = st
        .auth
        .credentials
        .iter()
        .filter(|c| include_revoked || c.revoked_at.is_none())
        .map(Credential::to_json)
        .collect();
    ctx.list(items)
}

/// `POST /v1/api-credentials`: scopes and CIDRs cannot exceed the issuer's.
pub fn create_credential(st: &mut State, ctx: &Ctx) -> Result<Reply, ApiError> {
    let body = ctx.body.clone().unwrap_or_default();
    let issuer = ctx
        .cred
        .clone()
        .ok_or_else(|| ApiError::unauthorized("Credentials are missing."))?;
    let scopes: Vec<String> = string_list(&body["scopes"]);
    if let Some(s) = scopes.iter().find(|s| !issuer.scopes.contains(s)) {
        return Err(ApiError::new(
            403,
            "scope_denied",
            format!("Cannot delegate scope {s}."),
        ));
    }
    let cidrs: Vec<String> = string_list(&body["allowed_cidrs"]);
    if !issuer.allowed_cidrs.is_empty() && cidrs.iter().any(|c| !issuer.allowed_cidrs.contains(c)) {
        return Err(ApiError::invalid_field(
            "body/allowed_cidrs",
            "cannot exceed the issuer's allowed_cidrs",
        ));
    }
    let ttl = body["ttl_days"].as_i64().unwrap_or(30);
    let now = Utc::now();
    let id = Uuid::new_v4();
    let cred = Credential {
        id,
        name: body["name"].as_str().unwrap_or("credential").to_owned(),
        prefix: format!("sbx_{}", &id.simple().to_string()[..12]),
        secret: Uuid::new_v4().simple().to_string(),
        mode: if body["mode"] == "bearer" {
            Mode::Bearer
        } else {
            Mode::Signed
        },
        scopes,
        allowed_cidrs: cidrs,
        enabled: true,
        created_at: now,
        expires_at: (now + Duration::days(ttl)).min(issuer.expires_at),
        revoked_at: None,
        last_used_at: None,
        last_used_ip: None,
    };
    let out = json!({"ok": true, "item": cred.to_json(), "secret": cred.secret});
    st.auth.insert(cred);
    Ok(ctx.success(out))
}

/// `GET /v1/api-credentials/{id}`.
pub fn get_credential(st: &mut State, ctx: &Ctx) -> Result<Reply, ApiError> {
    let id = ctx.path_arg(0);
    let c = st
        .auth
        .credentials
        .iter()
        .find(|c| c.id.to_string() == id)
        .ok_or_else(|| ApiError::not_found("Credential"))?;
    Ok(ctx.success(json!({"ok": true, "item": c.to_json()})))
}

/// Reads an operation's envelope; the read may advance it.
fn poll(st: &mut State, id: &str) -> Result<Value, ApiError> {
    let rule = st.operation_settings.progression;
    let now = st.now();
    let op = st
        .operations
        .iter_mut()
        .find(|o| o.id == id)
        .ok_or_else(|| {
            ApiError::new(
                404,
                "operation_not_found",
                "No recoverable identity for this operation.",
            )
        })?;
    op.advance(rule);
    if op.status.done() && now - op.changed_at > Duration::days(RECEIPT_RETENTION_DAYS) {
        return Err(ApiError::new(
            410,
            "operation_expired",
            "The identity remains but the receipt expired; reconcile resources and billing.",
        ));
    }
    Ok(op.envelope())
}

/// `GET /v1/operations/{operationId}`: the canonical envelope; each poll may advance it.
pub fn get_operation(st: &mut State, ctx: &Ctx) -> Result<Reply, ApiError> {
    Ok(ctx.success(poll(st, ctx.path_arg(0))?))
}

/// `GET /v1/operations?idempotency_key&method&path&credential_id`.
pub fn lookup_operation(st: &mut State, ctx: &Ctx) -> Result<Reply, ApiError> {
    let key = ctx
        .query_param("idempotency_key")
        .ok_or_else(|| ApiError::invalid_field("query.idempotency_key", "is required"))?;
    let method = ctx.query_param("method").map(str::to_ascii_uppercase);
    let path = ctx.query_param("path");
    if method.is_some() != path.is_some() {
        return Err(ApiError::invalid_field(
            "query.path",
            "method and path must be supplied together",
        ));
    }
    let credential: Option<Uuid> = match ctx.query_param("credential_id") {
        Some(c) => Some(
            c.parse()
                .map_err(|_| ApiError::invalid_field("query.credential_id", "must be a uuid"))?,
        ),
        None => None,
    };
    let mut ids: Vec<String> = st
        .idempotency
        .identities
        .iter()
        .filter(|i| i.key == key)
        .filter(|i| method.as_deref().is_none_or(|m| i.method == m))
        .filter(|i| path.is_none_or(|p| i.path == p))
        .filter(|i| credential.is_none_or(|c| i.credential_id == c))
        .map(|i| i.operation_id.clone())
        .collect();
    ids.dedup();
    match ids.as_slice() {
        [] => Err(ApiError::new(
            404,
            "operation_not_found",
            "No recoverable identity for this lookup; this does not prove the write never ran.",
        )),
        [one] => Ok(ctx.success(poll(st, one)?)),
        _ => Err(ApiError::new(
            409,
            "operation_lookup_ambiguous",
            "The lookup matches several operations; supply method and path, and credential_id if needed.",
        )),
    }
}

/// The strings of a JSON array (other members and non-arrays give nothing).
fn string_list(value: &Value) -> Vec<String> {
    value
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .map(str::to_owned)
        .collect()
}
