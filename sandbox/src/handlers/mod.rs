//! Handlers by area, the table mapping `METHOD /path/{}` to a hand-written handler, and the
//! generic documented-shape answer for every other operation of the spec.

use serde_json::{Map, Value, json};

use crate::app::{Ctx, Handler, Inner, Reply};
use crate::async_operations::OperationRecord;
use crate::errors::ApiError;

pub mod billing;
pub mod catalog;
pub mod dedicated;
pub mod deploy;
pub mod dns;
pub mod integrations;
pub mod ssh;
pub mod tcp_proxy;

/// Hand-written handlers, keyed by method and normalized path template.
pub const HANDLERS: &[(&str, Handler)] = &[
    ("GET /v1/version", integrations::version),
    ("GET /v1/capabilities", integrations::capabilities),
    ("GET /v1/api-credentials", integrations::list_credentials),
    ("POST /v1/api-credentials", integrations::create_credential),
    ("GET /v1/api-credentials/{}", integrations::get_credential),
    ("GET /v1/operations", integrations::lookup_operation),
    ("GET /v1/operations/{}", integrations::get_operation),
    ("POST /v1/deploy/{}/{}/{}", deploy::deploy),
    ("GET /v1/regions", catalog::regions),
    ("GET /v1/products", catalog::products),
    ("GET /v1/products/{}", catalog::products),
    ("GET /v1/dedicated/images", catalog::images),
    ("POST /v1/billing/invoices/{}/pay", billing::pay_invoice),
    ("POST /v1/billing/orders/draft", billing::draft_order),
    ("GET /v1/billing/services", billing::billing_services),
    ("GET /v1/billing/transactions", billing::transactions),
    ("GET /v1/services", billing::services),
    ("POST /v1/dedicated/deployments", dedicated::deploy),
    (
        "POST /v1/dedicated/{}/password-reset",
        dedicated::password_reset,
    ),
    ("GET /v1/dedicated/{}/tasks", dedicated::tasks),
    ("GET /v1/dedicated/{}/tasks/{}", dedicated::task),
    ("POST /v1/dns/zones", dns::create_zone),
    ("GET /v1/dns/zones", dns::list_zones),
    ("GET /v1/dns/zones/{}", dns::get_zone),
    ("GET /v1/domains/{}/dnssec", dns::get_dnssec),
    ("POST /v1/domains/{}/dnssec", dns::enable_dnssec),
    ("POST /v1/ssh/keys/generate", ssh::generate),
    ("GET /v1/tcp-proxy/{}", tcp_proxy::get),
    ("PATCH /v1/tcp-proxy/{}", tcp_proxy::update),
];

/// The handler of an operation key: hand-written, else generic.
pub fn handler_for(key: &str) -> Handler {
    HANDLERS
        .iter()
        .find(|(k, _)| *k == key)
        .map_or(generic as Handler, |(_, h)| *h)
}

/// Creates an operation and answers in the requested format.
pub fn operation_reply(
    inner: &Inner,
    ctx: &Ctx,
    kind: &str,
    result: Value,
    links: Map<String, Value>,
    legacy_extra: Value,
) -> Reply {
    let outcome = *inner.outcome.lock().unwrap();
    let op = OperationRecord::new(kind, outcome, result, links);
    if let (Some(cred), Some(key)) = (&ctx.cred, &ctx.idem_key) {
        inner
            .idem
            .lock()
            .unwrap()
            .identities
            .push(crate::idempotency::LookupIdentity {
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
    inner.state.lock().unwrap().operations.push(op);
    Reply {
        status: ctx.op.success.0,
        body,
    }
}

/// The concrete request path, rebuilt from the template.
pub fn request_path(ctx: &Ctx) -> String {
    ctx.op
        .path
        .split('/')
        .map(|s| {
            if s.starts_with('{') {
                ctx.p(s.trim_matches(|c| c == '{' || c == '}')).to_owned()
            } else {
                s.to_owned()
            }
        })
        .collect::<Vec<_>>()
        .join("/")
}

/// Checks a service path parameter names an existing service.
pub fn require_service(inner: &Inner, selector: &str) -> Result<crate::state::Service, ApiError> {
    inner
        .state
        .lock()
        .unwrap()
        .find_service(selector)
        .cloned()
        .ok_or_else(|| ApiError::not_found("Service"))
}

/// The answer of operations without a hand-written handler.
pub fn generic(inner: &Inner, ctx: &Ctx) -> Result<Reply, ApiError> {
    if let Some(sid) = ctx.path.get("serviceId") {
        require_service(inner, sid)?;
    }
    if ctx.op.operation_envelope {
        let mut links = Map::new();
        let mut result = json!({});
        if let Some(sid) = ctx.path.get("serviceId") {
            links.insert("service".into(), json!(format!("/v1/services/{sid}")));
            result = json!({"service_id": sid});
        }
        return Ok(operation_reply(
            inner,
            ctx,
            &ctx.op.operation_id,
            result,
            links,
            json!({}),
        ));
    }
    let body = match &ctx.op.success.1 {
        Some(ptr) => {
            let mut v = crate::synth::synthesize(&inner.spec, ptr);
            if let Value::Object(m) = &mut v {
                m.insert("ok".into(), json!(true));
            }
            v
        }
        None => json!({"ok": true}),
    };
    Ok(Reply {
        status: ctx.op.success.0,
        body,
    })
}
