//! Domain contacts: create (a contact and its handle), assign to a domain by role; every
//! assigned id must name a contact of the account (else 404 `not_found`).

use serde_json::{Map, Value, json};

use super::dns::domain_key;
use super::{Ctx, Reply};
use crate::errors::ApiError;
use crate::state::State;

/// `POST /v1/domains/contacts`.
pub fn create(st: &mut State, ctx: &Ctx) -> Result<Reply, ApiError> {
    let body = ctx.body.clone().unwrap_or_default();
    let contact = json!({
        "id": uuid::Uuid::new_v4(),
        "firstName": body["first_name"],
        "lastName": body["last_name"],
        "country": body["address"]["country"],
    });
    let handle = format!("CCS-{}", 1000 + st.resources.contacts.len());
    st.resources
        .contacts
        .push((contact.clone(), handle.clone()));
    Ok(ctx.success(json!({"ok": true, "contact": contact, "handle": handle})))
}

/// `PUT /v1/domains/{serviceId}/contacts`: the given roles replace the assigned ones.
pub fn assign(st: &mut State, ctx: &Ctx) -> Result<Reply, ApiError> {
    let domain = domain_key(st, ctx.path_arg(0))?;
    let body = ctx.body.clone().unwrap_or_default();
    let given = body["contact_ids"].as_object().cloned().unwrap_or_default();
    for id in given.values() {
        if !st.resources.contacts.iter().any(|(c, _)| c["id"] == *id) {
            return Err(ApiError::not_found("Contact"));
        }
    }
    let assigned = st
        .resources
        .domain_contacts
        .entry(domain.clone())
        .or_insert_with(|| Value::Object(Map::new()));
    for (role, id) in given {
        assigned[role.as_str()] = id;
    }
    let contact_ids = assigned.clone();
    Ok(ctx.success(json!({"ok": true, "domain": domain, "contact_ids": contact_ids})))
}
