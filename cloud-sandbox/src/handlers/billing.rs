//! Billing and services: invoice payment from balance (possibly partial), unpaid draft orders
//! (never charged), and the page-model listings of services and transactions.

use chrono::Utc;
use rust_decimal::Decimal;
use serde_json::{Value, json};
use uuid::Uuid;

use super::{Ctx, Reply};
use crate::errors::ApiError;
use crate::state::{Service, State, money};

/// `POST /v1/billing/invoices/{id}/pay`.
pub fn pay_invoice(st: &mut State, ctx: &Ctx) -> Result<Reply, ApiError> {
    let id: Uuid = ctx
        .path_arg(0)
        .parse()
        .map_err(|_| ApiError::not_found("Invoice"))?;
    let idx = st
        .invoices
        .iter()
        .position(|i| i.id == id)
        .ok_or_else(|| ApiError::not_found("Invoice"))?;
    let remaining = st.invoices[idx].remaining();
    let pay_now = remaining.min(st.balance.max(Decimal::ZERO));
    if pay_now > Decimal::ZERO {
        st.debit(
            pay_now,
            "invoice_payment",
            Some(id),
            ctx.idem_key.as_deref(),
        );
        st.invoices[idx].paid += pay_now;
    }
    let fully_paid = st.invoices[idx].remaining().is_zero();
    let mut created = Vec::new();
    if fully_paid && st.invoices[idx].status != "paid" {
        st.invoices[idx].status = "paid".into();
        let order_id = st.invoices[idx].order_id;
        if let Some(oi) = order_id.and_then(|o| st.orders.iter().position(|x| x.id == o)) {
            st.orders[oi].status = "paid".into();
            created = provision_paid_order(st, oi);
        }
    }
    let inv = &st.invoices[idx];
    Ok(ctx.success(json!({
        "ok": true,
        "paidNow": money(pay_now),
        "partial": !fully_paid && pay_now > Decimal::ZERO,
        "fullyPaid": fully_paid,
        "remaining": money(inv.remaining()),
        "invoiceId": inv.id,
        "orderId": inv.order_id,
        "status": inv.status,
        "meta": {
            "createdServices": created.len(),
            "renewedServices": 0,
            "createdServiceIds": created,
            "provisioning": !created.is_empty(),
        },
    })))
}

/// Provisions what a fully paid order bought, once: the dedicated server of a dedicated
/// deployment, the services of a draft order. Returns the new service ids.
fn provision_paid_order(st: &mut State, order_index: usize) -> Vec<Uuid> {
    let order = &st.orders[order_index];
    if !order.service_ids.is_empty() {
        return Vec::new();
    }
    match order.kind.as_str() {
        "dedicated" => vec![provision_dedicated(st, order_index)],
        "draft" => provision_draft(st, order_index),
        _ => Vec::new(),
    }
}

/// Paying a dedicated deployment's invoice creates its active server; returns its id.
fn provision_dedicated(st: &mut State, order_index: usize) -> Uuid {
    let items = &st.orders[order_index].items;
    let field = |name: &str, default: &str| items[name].as_str().unwrap_or(default).to_owned();
    let host = field("hostname", "dedicated.sandbox.test");
    let region = field("region_code", "DE");
    let sku = field("configuration_code", "dedicated");
    let sid = Uuid::new_v4();
    st.orders[order_index].service_ids.push(sid);
    st.services.push(Service {
        id: sid,
        status: "active".into(),
        display_name: format!("dedicated {sku}"),
        hostname: host,
        kind: "dedicated".into(),
        created_at: Utc::now(),
        billing_unit: "MONTH".into(),
        billing_count: 1,
        sku,
        ipv4: "192.0.2.200".into(),
        region,
    });
    sid
}

/// Paying a draft order in full provisions one active service per ordered unit (capped at 10
/// per line); returns their ids.
fn provision_draft(st: &mut State, order_index: usize) -> Vec<Uuid> {
    let lines = st.orders[order_index]
        .items
        .as_array()
        .cloned()
        .unwrap_or_default();
    let mut created = Vec::new();
    for line in lines {
        let variant = line["variant_id"].as_str().unwrap_or_default();
        let Some(product) = st
            .products
            .iter()
            .find(|p| p["variant_id"] == variant)
            .cloned()
        else {
            continue;
        };
        for _ in 0..line["qty"].as_u64().unwrap_or(1).min(10) {
            let sid = Uuid::new_v4();
            let n = st.services.len() + 1;
            let sku = product["variant_code"]
                .as_str()
                .unwrap_or("plan")
                .to_owned();
            st.services.push(Service {
                id: sid,
                status: "active".into(),
                display_name: product["name"].as_str().unwrap_or("service").into(),
                hostname: format!("{sku}-{}.sandbox.test", &sid.simple().to_string()[..8]),
                kind: product["type"].as_str().unwrap_or("other").into(),
                created_at: Utc::now(),
                billing_unit: "MONTH".into(),
                billing_count: 1,
                sku,
                ipv4: format!("192.0.2.{}", n % 250 + 1),
                region: product["region"].as_str().unwrap_or("DE").into(),
            });
            created.push(sid);
        }
    }
    st.orders[order_index]
        .service_ids
        .extend(created.iter().copied());
    created
}

/// `POST /v1/billing/orders/draft`: an unpaid order and invoice; never charges.
pub fn draft_order(st: &mut State, ctx: &Ctx) -> Result<Reply, ApiError> {
    let body = ctx.body.clone().unwrap_or_else(|| json!({}));
    let currency = body["currency"].as_str().unwrap_or("EUR").to_owned();
    let mut total = Decimal::ZERO;
    for (i, item) in body["items"].as_array().into_iter().flatten().enumerate() {
        let variant = item["variant_id"].as_str().unwrap_or_default();
        // An unknown variant is an invalid field, not `order_config_invalid` (a product's
        // configuration, which the reference ties to no shown operation; `spec/COVERAGE.md`).
        let product = st
            .products
            .iter()
            .find(|p| p["variant_id"] == variant)
            .ok_or_else(|| {
                ApiError::invalid_field(
                    &format!("body/items/{i}/variant_id"),
                    "not a product variant of the catalog",
                )
            })?;
        let price: Decimal = product["price"]
            .as_str()
            .unwrap_or("0")
            .parse()
            .unwrap_or_default();
        total += price * Decimal::from(item["qty"].as_u64().unwrap_or(1));
    }
    let (order, invoice) = st.create_unpaid_order(
        "draft",
        total,
        &currency,
        body["items"].clone(),
        ctx.idem_key.clone(),
    );
    Ok(ctx.success(json!({
        "ok": true,
        "orderId": order.id,
        "invoiceId": invoice.id,
        "invoiceNumber": invoice.number,
        "status": "unpaid",
        "total": money(total),
        "currency": currency,
    })))
}

/// `GET /v1/billing/services`: page model.
pub fn billing_services(st: &mut State, ctx: &Ctx) -> Result<Reply, ApiError> {
    let items: Vec<Value> = st.services.iter().map(Service::to_json).collect();
    ctx.list(items)
}

/// `GET /v1/billing/transactions`: page model, newest first.
pub fn transactions(st: &mut State, ctx: &Ctx) -> Result<Reply, ApiError> {
    let items: Vec<Value> = st.transactions.iter().rev().map(|t| t.to_json()).collect();
    ctx.list(items)
}

/// `GET /v1/services`: page model; default statuses active and suspended; filters before paging.
pub fn services(st: &mut State, ctx: &Ctx) -> Result<Reply, ApiError> {
    let statuses: Vec<String> = match (ctx.query_param("statuses"), ctx.query_param("status")) {
        (Some(s), _) | (None, Some(s)) => s.split(',').map(str::to_owned).collect(),
        _ => vec!["active".into(), "suspended".into()],
    };
    let types: Option<Vec<String>> = ctx
        .query_param("type")
        .map(|t| t.split(',').map(str::to_owned).collect());
    let all = statuses.iter().any(|s| s == "all");
    let items: Vec<Value> = st
        .services
        .iter()
        .filter(|s| all || statuses.contains(&s.status))
        .filter(|s| types.as_ref().is_none_or(|t| t.contains(&s.kind)))
        .map(Service::to_json)
        .collect();
    ctx.list(items)
}
