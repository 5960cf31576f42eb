//! DNS templates: create (private), list (without `zoneFile`, with `isHidden`), read by uuid or
//! by name (case-insensitive, the caller's templates first, then the system ones; two matches
//! in the chosen scope are 409 `template_identifier_ambiguous`).

use chrono::Utc;
use serde_json::{Value, json};

use super::{Ctx, Reply};
use crate::errors::ApiError;
use crate::state::{State, ts};

/// `POST /v1/dns/templates`.
pub fn create(st: &mut State, ctx: &Ctx) -> Result<Reply, ApiError> {
    let body = ctx.body.clone().unwrap_or_default();
    let now = ts(Utc::now());
    let template = json!({
        "id": uuid::Uuid::new_v4(),
        "name": body["name"],
        "zoneFile": body["zone_file"],
        "createdAt": now,
        "updatedAt": now,
        "system": false,
        "visibility": "private",
    });
    st.resources.dns_templates.push(template.clone());
    Ok(ctx.success(json!({"ok": true, "template": template})))
}

/// `GET /v1/dns/templates`.
pub fn list(st: &mut State, ctx: &Ctx) -> Result<Reply, ApiError> {
    let items: Vec<Value> = st
        .resources
        .dns_templates
        .iter()
        .map(|t| {
            let mut item = t.clone();
            if let Some(m) = item.as_object_mut() {
                m.remove("zoneFile");
                m.insert("isHidden".into(), json!(false));
            }
            item
        })
        .collect();
    Ok(ctx.success(json!({"ok": true, "templates": items})))
}

/// `GET /v1/dns/templates/{id}`.
pub fn get(st: &mut State, ctx: &Ctx) -> Result<Reply, ApiError> {
    let selector = ctx.path_arg(0);
    let all = &st.resources.dns_templates;
    if let Some(t) = all.iter().find(|t| t["id"].as_str() == Some(selector)) {
        return Ok(ctx.success(json!({"ok": true, "template": t})));
    }
    let named = |system: bool| -> Vec<&Value> {
        all.iter()
            .filter(|t| t["system"] == system)
            .filter(|t| {
                t["name"]
                    .as_str()
                    .is_some_and(|n| n.eq_ignore_ascii_case(selector))
            })
            .collect()
    };
    let own = named(false);
    let scope = if own.is_empty() { named(true) } else { own };
    match scope.as_slice() {
        [] => Err(ApiError::not_found("DNS template")),
        [one] => Ok(ctx.success(json!({"ok": true, "template": one}))),
        _ => Err(ApiError::new(
            409,
            "template_identifier_ambiguous",
            "Several DNS templates match this name; use its uuid.",
        )),
    }
}
