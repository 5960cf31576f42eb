//! Atomic deployment (`POST /v1/deploy/{region}/{productCode}/{variantCode}`): order, invoice,
//! one balance debit and an operation in one commit — or 402/409 with nothing committed.

use chrono::{DateTime, Utc};
use rust_decimal::Decimal;
use serde_json::{Map, Value, json};
use uuid::Uuid;

use super::generic::operation_reply;
use super::{Ctx, Reply};
use crate::errors::ApiError;
use crate::state::{Invoice, Order, Service, State, money};

/// Price of one additional IPv4 address per billing period.
pub const ADDITIONAL_IP_PRICE: Decimal = Decimal::from_parts(300, 0, 0, false, 2);

/// What one deployment buys, priced.
struct Purchase {
    region: String,
    code: String,
    variant: String,
    product: Value,
    cycle: Value,
    total: Decimal,
}

/// The handler: prices the purchase, checks the ceiling and the balance, then commits.
pub fn deploy(st: &mut State, ctx: &Ctx) -> Result<Reply, ApiError> {
    let body = ctx.body.clone().unwrap_or_else(|| json!({}));
    let legacy = body.get("billing").is_some();
    let purchase = price(st, ctx, &body, legacy)?;
    let max_total = if legacy {
        parse_money(&body["maxTotal"], "body/maxTotal")?
    } else {
        parse_money(&body["max_total"], "body/max_total")?
    };
    let total = purchase.total;
    if let Some(max) = max_total
        && total > max
    {
        return Err(ApiError::new(
            409,
            "deployment_price_limit_exceeded",
            format!(
                "The current total {} exceeds max_total {}.",
                money(total),
                money(max)
            ),
        ));
    }
    if st.balance < total {
        return Err(ApiError::new(
            402,
            "insufficient_credit",
            format!(
                "The balance does not cover the total {}; nothing was committed.",
                money(total)
            ),
        ));
    }
    Ok(commit(st, ctx, &body, purchase))
}

/// Finds the product variant and billing cycle the request names, and its total.
///
/// An unknown region or a billing cycle the plan does not offer is a 400 `validation_error`
/// naming the field: the reference ties `unsupported_region` to the catalog listings (4.4) and
/// `billing_cycle_not_available` to no shown operation, so the contract documents neither for
/// this operation (`spec/COVERAGE.md`, "Error codes per operation").
fn price(st: &State, ctx: &Ctx, body: &Value, legacy: bool) -> Result<Purchase, ApiError> {
    let region = ctx.path_arg(0).to_ascii_uppercase();
    let (code, variant) = (ctx.path_arg(1), ctx.path_arg(2));
    if !st.regions.iter().any(|r| r["id"] == region.as_str()) {
        return Err(ApiError::invalid_field(
            "path.region",
            "not a region the regions list returns",
        ));
    }
    let product = st
        .products
        .iter()
        .find(|p| {
            p["product_code"] == code
                && p["variant_code"] == variant
                && p["region"] == region.as_str()
        })
        .cloned()
        .ok_or_else(|| ApiError::not_found("Product variant"))?;
    let cycle = billing_cycle(&product, body, legacy)?;
    let decimal = |v: &Value| -> Decimal { v.as_str().unwrap_or("0").parse().unwrap_or_default() };
    let ips = Decimal::from(body["additional_ips"].as_u64().unwrap_or(0));
    let total = decimal(&cycle["price"]) + decimal(&cycle["setup_fee"]) + ADDITIONAL_IP_PRICE * ips;
    Ok(Purchase {
        region,
        code: code.to_owned(),
        variant: variant.to_owned(),
        product,
        cycle,
        total,
    })
}

/// The product's billing cycle the body names (`billing_cycle`, or the legacy `billing`).
fn billing_cycle(product: &Value, body: &Value, legacy: bool) -> Result<Value, ApiError> {
    let cycles = product["billing_cycles"]
        .as_array()
        .map_or(&[][..], Vec::as_slice);
    let found = if legacy {
        let unit = body["billing"]["unit"].as_str().unwrap_or("MONTH");
        let count = body["billing"]["count"].as_u64().unwrap_or(1);
        cycles
            .iter()
            .find(|c| c["unit"] == unit && c["count"].as_u64() == Some(count))
    } else {
        let name = body["billing_cycle"].as_str().unwrap_or("monthly");
        cycles.iter().find(|c| c["billing_cycle"] == name)
    };
    let field = if legacy {
        "body/billing"
    } else {
        "body/billing_cycle"
    };
    found.cloned().ok_or_else(|| {
        ApiError::invalid_field(
            field,
            "the plan has no public price for that period and currency",
        )
    })
}

/// Commits the purchase: service, paid invoice, paid order, one debit and an operation.
fn commit(st: &mut State, ctx: &Ctx, body: &Value, p: Purchase) -> Reply {
    let now = Utc::now();
    let (order_id, invoice_id, service_id) = (Uuid::new_v4(), Uuid::new_v4(), Uuid::new_v4());
    let key = ctx.idem_key.clone();
    let hostname = body["hostname"].as_str().map_or_else(
        || {
            format!(
                "{}-{}.sandbox.test",
                p.variant,
                &service_id.simple().to_string()[..8]
            )
        },
        str::to_owned,
    );
    st.services.push(new_service(
        st.services.len() + 1,
        service_id,
        hostname,
        &p,
        now,
    ));
    record_paid_order(st, &p, [order_id, invoice_id, service_id], key.clone(), now);
    st.debit(p.total, "deploy_debit", Some(invoice_id), key.as_deref());
    let result =
        json!({"service_ids": [service_id], "order_id": order_id, "invoice_id": invoice_id});
    let extra = json!({"service_ids": [service_id], "order_id": order_id, "invoice_id": invoice_id, "total": money(p.total), "currency": "EUR"});
    let links = deployment_links(order_id, invoice_id, service_id);
    operation_reply(st, ctx, "deploy", result, links, extra)
}

/// The paid invoice and the paid order of a deployment (`ids`: order, invoice, service).
fn record_paid_order(
    st: &mut State,
    p: &Purchase,
    ids: [Uuid; 3],
    key: Option<String>,
    now: DateTime<Utc>,
) {
    let [order_id, invoice_id, service_id] = ids;
    let invoice_number = format!("INV-{}", 100_000 + st.invoices.len());
    let currency = st.currency.clone();
    st.invoices.push(Invoice {
        id: invoice_id,
        number: invoice_number,
        status: "paid".into(),
        order_id: Some(order_id),
        total: p.total,
        paid: p.total,
        currency: currency.clone(),
        created_at: now,
    });
    st.orders.push(Order {
        id: order_id,
        status: "paid".into(),
        kind: "deploy".into(),
        total: p.total,
        currency,
        invoice_id: Some(invoice_id),
        service_ids: vec![service_id],
        items: json!([{"product_code": p.code, "variant_code": p.variant, "region": p.region, "billing_cycle": p.cycle["billing_cycle"]}]),
        idempotency_key: key,
        created_at: now,
    });
}

/// The `links` of a deployment's legacy answer: its service, invoice and order.
fn deployment_links(order_id: Uuid, invoice_id: Uuid, service_id: Uuid) -> Map<String, Value> {
    Map::from_iter([
        (
            "service".to_owned(),
            json!(format!("/v1/services/{service_id}")),
        ),
        (
            "invoice".to_owned(),
            json!(format!("/v1/billing/invoices/{invoice_id}")),
        ),
        (
            "order".to_owned(),
            json!(format!("/v1/billing/orders/{order_id}")),
        ),
    ])
}

/// The active service an atomic deployment creates.
fn new_service(
    n: usize,
    id: Uuid,
    hostname: String,
    p: &Purchase,
    now: chrono::DateTime<Utc>,
) -> Service {
    Service {
        id,
        status: "active".into(),
        display_name: p.product["name"].as_str().unwrap_or("service").into(),
        hostname,
        kind: p.product["type"].as_str().unwrap_or("other").into(),
        created_at: now,
        billing_unit: p.cycle["unit"].as_str().unwrap_or("MONTH").into(),
        billing_count: p.cycle["count"].as_u64().unwrap_or(1) as u32,
        sku: p.variant.clone(),
        ipv4: format!("192.0.2.{}", n % 250 + 1),
        region: p.region.clone(),
    }
}

/// A decimal string member, absent when null.
fn parse_money(v: &Value, field: &str) -> Result<Option<Decimal>, ApiError> {
    match v {
        Value::Null => Ok(None),
        Value::String(s) => s
            .parse::<Decimal>()
            .map(Some)
            .map_err(|_| ApiError::invalid_field(field, "must be a decimal string")),
        _ => Err(ApiError::invalid_field(field, "must be a decimal string")),
    }
}
