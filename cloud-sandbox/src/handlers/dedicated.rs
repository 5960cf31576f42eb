//! Dedicated servers: unpaid deployments (order + invoice, provisioning after payment),
//! password-reset tasks and task polling (`in_progress` → `completed` on reads).

use chrono::Utc;
use rust_decimal::Decimal;
use serde_json::{Value, json};
use uuid::Uuid;

use super::{Ctx, Reply};
use crate::async_operations::Progression;
use crate::errors::ApiError;
use crate::state::{DedicatedTask, State, money};

/// `POST /v1/dedicated/deployments`: creates an unpaid order and invoice.
pub fn deploy(st: &mut State, ctx: &Ctx) -> Result<Reply, ApiError> {
    super::catalog::readable(st, "dedicated_catalog_unavailable")?;
    let body = ctx.body.clone().unwrap_or_default();
    let currency = body["currency"].as_str().unwrap_or("EUR").to_owned();
    let total = quote(st, &body)?;
    let (order, invoice) = st.create_unpaid_order(
        "dedicated",
        total,
        &currency,
        body.clone(),
        ctx.idem_key.clone(),
    );
    Ok(ctx.success(json!({
            "ok": true,
            "orderId": order.id,
            "invoiceId": invoice.id,
            "invoiceNumber": invoice.number,
            "total": money(total),
            "currency": currency,
            "status": "unpaid",
            "deploymentStatusUrl": format!("/v1/billing/orders/{}", order.id),
            "message": "Deployment created unpaid; provisioning starts after payment and any approval.",
    })))
}

/// The total of a dedicated deployment body: the configuration's price per month × billing
/// count plus its setup fee; 409 when configuration, region or OS is unavailable or the OS
/// cannot install the requested SSH key.
fn quote(st: &State, body: &Value) -> Result<Decimal, ApiError> {
    let cfg = body["configuration_code"].as_str().unwrap_or_default();
    let region = body["region_code"].as_str().unwrap_or_default();
    let os = body["os_profile_id"].as_i64().unwrap_or_default();
    let product = st
        .products
        .iter()
        .find(|p| p["configuration_code"] == cfg && p["region"] == region)
        .ok_or_else(configuration_unavailable)?;
    let image = st
        .images
        .iter()
        .find(|i| i["id"] == os && i["configuration_code"] == cfg)
        .ok_or_else(configuration_unavailable)?;
    if body.get("ssh_key_id").is_some() && image["ssh_keys_supported"] == false {
        return Err(ApiError::new(
            409,
            "dedicated_os_ssh_keys_not_supported",
            "The OS profile cannot install SSH keys.",
        ));
    }
    let decimal = |v: &Value| {
        v.as_str()
            .unwrap_or("0")
            .parse::<Decimal>()
            .unwrap_or_default()
    };
    let price = decimal(&product["price"]);
    let setup = decimal(&product["billing_cycles"][0]["setup_fee"]);
    Ok(price * Decimal::from(body["billing"]["count"].as_u64().unwrap_or(1)) + setup)
}

/// The dedicated server the `serviceId` parameter names.
fn dedicated_service(st: &State, ctx: &Ctx) -> Result<Uuid, ApiError> {
    let s = st.require_service(ctx.path_arg(0))?;
    if s.kind != "dedicated" {
        return Err(ApiError::not_found("Dedicated service"));
    }
    Ok(s.id)
}

/// `POST /v1/dedicated/{serviceId}/password-reset`: returns a task.
pub fn password_reset(st: &mut State, ctx: &Ctx) -> Result<Reply, ApiError> {
    let service_id = dedicated_service(st, ctx)?;
    let now = Utc::now();
    let task = DedicatedTask {
        id: Uuid::new_v4(),
        service_id,
        kind: "password_reset".into(),
        status: "in_progress".into(),
        stage: "queued".into(),
        polls: 0,
        created_at: now,
        updated_at: now,
    };
    let out = json!({"ok": true, "task": task.to_json()});
    st.tasks.push(task);
    Ok(ctx.success(out))
}

fn advance(task: &mut DedicatedTask, rule: Progression) {
    task.polls += 1;
    let due = match rule {
        Progression::PerPoll => task.polls >= 2,
        Progression::ByTime(d) => {
            (Utc::now() - task.created_at).to_std().unwrap_or_default() >= d * 2
        }
        Progression::Manual => false,
    };
    if task.status == "in_progress" {
        if task.polls == 1 {
            task.stage = "running".into();
        }
        if due {
            task.status = "completed".into();
            task.stage = "completed".into();
            task.updated_at = Utc::now();
        }
    }
}

/// `GET /v1/dedicated/{serviceId}/tasks`.
pub fn tasks(st: &mut State, ctx: &Ctx) -> Result<Reply, ApiError> {
    let sid = dedicated_service(st, ctx)?;
    let tasks: Vec<Value> = st
        .tasks
        .iter()
        .filter(|t| t.service_id == sid)
        .map(DedicatedTask::to_json)
        .collect();
    Ok(ctx.success(json!({"ok": true, "tasks": tasks})))
}

/// `GET /v1/dedicated/{serviceId}/tasks/{taskId}`: each read may advance the task.
pub fn task(st: &mut State, ctx: &Ctx) -> Result<Reply, ApiError> {
    let sid = dedicated_service(st, ctx)?;
    let rule = st.operation_settings.progression;
    let t = st
        .tasks
        .iter_mut()
        .find(|t| t.service_id == sid && t.id.to_string() == ctx.path_arg(1))
        .ok_or_else(|| ApiError::not_found("Task"))?;
    advance(t, rule);
    Ok(ctx.success(json!({"ok": true, "task": t.to_json()})))
}

/// 409 `dedicated_configuration_unavailable`.
fn configuration_unavailable() -> ApiError {
    ApiError::new(
        409,
        "dedicated_configuration_unavailable",
        "The dedicated configuration, region or OS is unavailable.",
    )
}

/// `GET /v1/dedicated/{serviceId}/rescue-options`: rescue mode (off unless set through the
/// sandbox handle) and the rescue profiles the sandbox offers.
pub fn rescue_options(st: &mut State, ctx: &Ctx) -> Result<Reply, ApiError> {
    let id = dedicated_service(st, ctx)?;
    let enabled = st
        .resources
        .rescue_enabled
        .get(&id)
        .copied()
        .unwrap_or(false);
    Ok(ctx.success(json!({
        "ok": true,
        "enabled": enabled,
        "profiles": [{"id": 1, "name": "Linux rescue (64-bit)"}, {"id": 2, "name": "FreeBSD rescue"}],
    })))
}

/// `GET /v1/dedicated/{serviceId}/traffic`: sample fields are not shown, and missing
/// statistics are not zero, so the sandbox reports the server with no samples.
pub fn traffic(st: &mut State, ctx: &Ctx) -> Result<Reply, ApiError> {
    let id = dedicated_service(st, ctx)?;
    Ok(ctx.success(json!({"ok": true, "service_id": id})))
}
