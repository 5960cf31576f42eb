//! TCP proxy (reference 4.10): a stateful read and update per service. Supplied arrays replace
//! the complete existing arrays, omitted fields stay unchanged; non-TCP services read as `null`.

use serde_json::{Value, json};

use super::{Ctx, Reply};
use crate::errors::ApiError;
use crate::state::{Service, State};

/// Ports included with every seeded or deployed TCP proxy (the paid entitlement).
pub const INCLUDED_PORTS: usize = 5;

/// The configuration a TCP proxy service starts with.
pub fn initial(service: &Service, n: usize) -> Value {
    json!({
        "proxyIp": format!("203.0.113.{}", n % 250 + 1),
        "backendIp": service.ipv4,
        "ports": [{"listen": 25565, "backend": 25565}],
        "includedPorts": INCLUDED_PORTS,
        "additionalPorts": 0,
        "defaults": {"proxy_protocol_v2": false, "max_connections_per_ip": 100},
        "allowedSourceCidrs": [],
        "blockedSourceCidrs": [],
        "countryPolicy": {"mode": "disabled", "countries": []},
        "status": "active",
    })
}

/// The proxy configuration of the service a selector names (created on first use); `None` for
/// a service that is not a TCP proxy.
fn current(st: &mut State, selector: &str) -> Result<Option<(uuid::Uuid, Value)>, ApiError> {
    let service = st
        .find_service(selector)
        .cloned()
        .ok_or_else(|| ApiError::not_found("Service"))?;
    if service.kind != "tcp-proxy" {
        return Ok(None);
    }
    let n = st
        .services
        .iter()
        .position(|s| s.id == service.id)
        .unwrap_or(0);
    let config = st
        .tcp_proxies
        .entry(service.id)
        .or_insert_with(|| initial(&service, n))
        .clone();
    Ok(Some((service.id, config)))
}

/// `GET /v1/tcp-proxy/{serviceId}`.
pub fn get(st: &mut State, ctx: &Ctx) -> Result<Reply, ApiError> {
    let config = current(st, ctx.path_arg(0))?.map(|(_, c)| c);
    Ok(ctx.success(json!({"ok": true, "tcpProxy": config.unwrap_or(Value::Null)})))
}

/// `PATCH /v1/tcp-proxy/{serviceId}`: supplied fields replace, omitted fields stay.
pub fn update(st: &mut State, ctx: &Ctx) -> Result<Reply, ApiError> {
    let Some((id, mut config)) = current(st, ctx.path_arg(0))? else {
        return Err(ApiError::not_found("TCP proxy"));
    };
    let body = ctx.body.clone().unwrap_or_else(|| json!({}));
    if let Some(ip) = body.get("backend_ip") {
        config["backendIp"] = ip.clone();
    }
    if let Some(ports) = body.get("ports").and_then(Value::as_array) {
        let entitled = config["includedPorts"].as_u64().unwrap_or(0)
            + config["additionalPorts"].as_u64().unwrap_or(0);
        if ports.len() as u64 > entitled {
            return Err(ApiError::invalid_field(
                "body/ports",
                &format!(
                    "{} ports exceed the paid entitlement of {entitled}; the update does not purchase extra ports",
                    ports.len()
                ),
            ));
        }
        let pairs: Vec<Value> = ports
            .iter()
            .map(|p| match p {
                Value::Object(m) => {
                    let listen = m.get("listen").cloned().unwrap_or(Value::Null);
                    let backend = m.get("backend").cloned().unwrap_or_else(|| listen.clone());
                    json!({"listen": listen, "backend": backend})
                }
                n => json!({"listen": n, "backend": n}),
            })
            .collect();
        config["ports"] = Value::Array(pairs);
    }
    if let Some(v) = body.get("allowed_source_cidrs") {
        config["allowedSourceCidrs"] = v.clone();
    }
    if let Some(v) = body.get("blocked_source_cidrs") {
        config["blockedSourceCidrs"] = v.clone();
    }
    if let Some(v) = body.get("country_policy") {
        config["countryPolicy"] = v.clone();
    }
    st.tcp_proxies.insert(id, config.clone());
    Ok(ctx.success(json!({"ok": true, "tcpProxy": config})))
}
