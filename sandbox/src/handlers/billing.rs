//! Billing and services: invoice payment from balance (possibly partial), unpaid draft orders
//! (never charged), and the page-model listings of services and transactions.

use chrono::Utc;
use rust_decimal::Decimal;
use serde_json::{Value, json};
use uuid::Uuid;

use crate::app::{Ctx, Inner, Reply};
use crate::errors::ApiError;
use crate::pagination;
use crate::state::{Invoice, Order, Service, money};

/// `POST /v1/billing/invoices/{id}/pay`.
pub fn pay_invoice(inner: &Inner, ctx: &Ctx) -> Result<Reply, ApiError> {
    let id: Uuid = ctx
        .pn(0)
        .parse()
        .map_err(|_| ApiError::not_found("Invoice"))?;
    let mut st = inner.state.lock().unwrap();
    let idx = st
        .invoices
        .iter()
        .position(|i| i.id == id)
        .ok_or_else(|| ApiError::not_found("Invoice"))?;
    let remaining = st.invoices[idx].remaining();
    let pay_now = remaining.min(st.balance.max(Decimal::ZERO));
    if pay_now > Decimal::ZERO {
        let key = ctx.idem_key.clone();
        st.debit(pay_now, "invoice_payment", Some(id), key.as_deref());
        st.invoices[idx].paid += pay_now;
    }
    let fully_paid = st.invoices[idx].remaining().is_zero();
    let mut created = Vec::new();
    if fully_paid && st.invoices[idx].status != "paid" {
        st.invoices[idx].status = "paid".into();
        let order_id = st.invoices[idx].order_id;
        if let Some(oi) = order_id.and_then(|o| st.orders.iter().position(|x| x.id == o)) {
            st.orders[oi].status = "paid".into();
            if st.orders[oi].kind == "dedicated" && st.orders[oi].service_ids.is_empty() {
                let sid = Uuid::new_v4();
                let host = st.orders[oi].items["hostname"]
                    .as_str()
                    .unwrap_or("dedicated.sandbox.test")
                    .to_owned();
                let region = st.orders[oi].items["region_code"]
                    .as_str()
                    .unwrap_or("DE")
                    .to_owned();
                let sku = st.orders[oi].items["configuration_code"]
                    .as_str()
                    .unwrap_or("dedicated")
                    .to_owned();
                st.orders[oi].service_ids.push(sid);
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
                created.push(sid);
            }
            if st.orders[oi].kind == "draft" && st.orders[oi].service_ids.is_empty() {
                created.extend(provision_draft(&mut st, oi));
            }
        }
    }
    let inv = st.invoices[idx].clone();
    Ok(Reply::ok(json!({
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

/// Paying a draft order in full provisions one active service per ordered unit (capped at 10
/// per line); returns their ids.
fn provision_draft(st: &mut crate::state::State, order_index: usize) -> Vec<Uuid> {
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

/// Creates an unpaid order and its invoice; nothing is charged. Returns (order, invoice).
pub fn create_unpaid(
    inner: &Inner,
    kind: &str,
    total: Decimal,
    currency: &str,
    items: Value,
    key: Option<String>,
) -> (Order, Invoice) {
    let mut st = inner.state.lock().unwrap();
    let now = Utc::now();
    let (order_id, invoice_id) = (Uuid::new_v4(), Uuid::new_v4());
    let invoice = Invoice {
        id: invoice_id,
        number: format!("INV-{}", 100_000 + st.invoices.len()),
        status: "unpaid".into(),
        order_id: Some(order_id),
        total,
        paid: Decimal::ZERO,
        currency: currency.into(),
        created_at: now,
    };
    let order = Order {
        id: order_id,
        status: if kind == "draft" {
            "draft".into()
        } else {
            "unpaid".into()
        },
        kind: kind.into(),
        total,
        currency: currency.into(),
        invoice_id: Some(invoice_id),
        service_ids: Vec::new(),
        items,
        idempotency_key: key,
        created_at: now,
    };
    st.invoices.push(invoice.clone());
    st.orders.push(order.clone());
    (order, invoice)
}

/// `POST /v1/billing/orders/draft`: an unpaid order and invoice; never charges.
pub fn draft_order(inner: &Inner, ctx: &Ctx) -> Result<Reply, ApiError> {
    let body = ctx.body.clone().unwrap_or_else(|| json!({}));
    let currency = body["currency"].as_str().unwrap_or("EUR").to_owned();
    let mut total = Decimal::ZERO;
    {
        let st = inner.state.lock().unwrap();
        for item in body["items"].as_array().into_iter().flatten() {
            let variant = item["variant_id"].as_str().unwrap_or_default();
            let product = st
                .products
                .iter()
                .find(|p| p["variant_id"] == variant)
                .ok_or_else(|| {
                    ApiError::new(400, "order_config_invalid", "Unknown product variant.")
                })?;
            let price: Decimal = product["price"]
                .as_str()
                .unwrap_or("0")
                .parse()
                .unwrap_or_default();
            total += price * Decimal::from(item["qty"].as_u64().unwrap_or(1));
        }
    }
    let (order, invoice) = create_unpaid(
        inner,
        "draft",
        total,
        &currency,
        body["items"].clone(),
        ctx.idem_key.clone(),
    );
    Ok(Reply::ok(json!({
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
pub fn billing_services(inner: &Inner, ctx: &Ctx) -> Result<Reply, ApiError> {
    let items: Vec<Value> = inner
        .state
        .lock()
        .unwrap()
        .services
        .iter()
        .map(Service::to_json)
        .collect();
    Ok(Reply::ok(pagination::page(&items, &ctx.query)?))
}

/// `GET /v1/billing/transactions`: page model, newest first.
pub fn transactions(inner: &Inner, ctx: &Ctx) -> Result<Reply, ApiError> {
    let items: Vec<Value> = inner
        .state
        .lock()
        .unwrap()
        .transactions
        .iter()
        .rev()
        .map(|t| t.to_json())
        .collect();
    Ok(Reply::ok(pagination::page(&items, &ctx.query)?))
}

/// `GET /v1/services`: page model; default statuses active and suspended; filters before paging.
pub fn services(inner: &Inner, ctx: &Ctx) -> Result<Reply, ApiError> {
    let statuses: Vec<String> = match (ctx.q("statuses"), ctx.q("status")) {
        (Some(s), _) | (None, Some(s)) => s.split(',').map(str::to_owned).collect(),
        _ => vec!["active".into(), "suspended".into()],
    };
    let types: Option<Vec<String>> = ctx
        .q("type")
        .map(|t| t.split(',').map(str::to_owned).collect());
    let all = statuses.iter().any(|s| s == "all");
    let items: Vec<Value> = inner
        .state
        .lock()
        .unwrap()
        .services
        .iter()
        .filter(|s| all || statuses.contains(&s.status))
        .filter(|s| types.as_ref().is_none_or(|t| t.contains(&s.kind)))
        .map(Service::to_json)
        .collect();
    Ok(Reply::ok(pagination::page(&items, &ctx.query)?))
}
