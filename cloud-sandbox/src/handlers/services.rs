//! Services beyond the listings: the grouped inventory, the billing-cycle change (applied to
//! the service at once, nothing to pay now) and the renewal checkout (a renewal invoice for the
//! requested cycle, paid from balance as far as it covers).

use std::collections::BTreeMap;

use rust_decimal::Decimal;
use serde_json::{Value, json};

use super::{Ctx, Reply};
use crate::errors::ApiError;
use crate::state::{Service, State, money};

/// Billing period units of reference 2.3 a service can be billed in, with their months.
const UNITS: &[(&str, u32)] = &[
    ("MONTH", 1),
    ("QUARTAL", 3),
    ("SEMIANNUAL", 6),
    ("YEAR", 12),
];

/// `GET /v1/services/grouped`: the complete filtered inventory grouped by type (default status
/// `active`; `all` for every status).
pub fn grouped(st: &mut State, ctx: &Ctx) -> Result<Reply, ApiError> {
    let status = ctx.query_param("status").unwrap_or("active");
    let types: Option<Vec<&str>> = ctx.query_param("type").map(|t| t.split(',').collect());
    let mut groups: BTreeMap<String, Vec<Value>> = BTreeMap::new();
    for s in &st.services {
        if (status == "all" || s.status == status)
            && types.as_ref().is_none_or(|t| t.contains(&s.kind.as_str()))
        {
            groups.entry(s.kind.clone()).or_default().push(s.to_json());
        }
    }
    Ok(ctx.success(json!({"ok": true, "groups": groups})))
}

/// The service and the months of the requested cycle; terminated services are not eligible.
fn checkout_target(st: &State, ctx: &Ctx) -> Result<(Service, u32), ApiError> {
    let service = st.require_service(ctx.path_arg(0))?.clone();
    let body = ctx.body.clone().unwrap_or_default();
    let unit = body["unit"].as_str().unwrap_or_default();
    let months = UNITS
        .iter()
        .find(|(u, _)| *u == unit)
        .map(|(_, m)| *m)
        .ok_or_else(|| {
            ApiError::invalid_field("body/unit", "one of MONTH, QUARTAL, SEMIANNUAL, YEAR")
        })?;
    let count = u32::try_from(body["count"].as_u64().unwrap_or(1)).unwrap_or(u32::MAX);
    Ok((service, months.saturating_mul(count)))
}

/// `POST /v1/services/{serviceId}/billing/change/checkout`.
pub fn change_checkout(st: &mut State, ctx: &Ctx) -> Result<Reply, ApiError> {
    let (service, _) = checkout_target(st, ctx)?;
    if service.status == "terminated" {
        return Err(ApiError::invalid_field(
            "path.serviceId",
            "the service is terminated",
        ));
    }
    let body = ctx.body.clone().unwrap_or_default();
    if let Some(s) = st.services.iter_mut().find(|s| s.id == service.id) {
        s.billing_unit = body["unit"].as_str().unwrap_or("MONTH").to_owned();
        s.billing_count = u32::try_from(body["count"].as_u64().unwrap_or(1)).unwrap_or(1);
    }
    let currency = st.currency.clone();
    Ok(ctx.success(json!({"ok": true, "applied": true, "payNow": "0.00", "currency": currency})))
}

/// `POST /v1/services/{serviceId}/renewal/checkout`: only active or suspended services renew.
pub fn renewal_checkout(st: &mut State, ctx: &Ctx) -> Result<Reply, ApiError> {
    let (service, months) = checkout_target(st, ctx)?;
    if !matches!(service.status.as_str(), "active" | "suspended") {
        return Err(ApiError::new(
            409,
            "service_not_renewable",
            "Only active or suspended services renew.",
        ));
    }
    let amount = monthly_price(st, &service) * Decimal::from(months);
    let currency = st.currency.clone();
    let (_, invoice) = st.create_unpaid_order(
        "renewal",
        amount,
        &currency,
        json!([{"service_id": service.id, "months": months}]),
        ctx.idem_key.clone(),
    );
    let paid = amount.min(st.balance.max(Decimal::ZERO));
    if paid > Decimal::ZERO {
        st.debit(
            paid,
            "invoice_payment",
            Some(invoice.id),
            ctx.idem_key.as_deref(),
        );
    }
    if let Some(i) = st.invoices.iter_mut().find(|i| i.id == invoice.id) {
        i.paid = paid;
        if i.remaining().is_zero() {
            i.status = "paid".into();
        }
    }
    let applied = paid == amount;
    Ok(ctx.success(
        json!({"ok": true, "applied": applied, "payNow": money(paid), "currency": currency}),
    ))
}

/// The catalog's monthly price of the service's variant in its region (zero when unlisted).
fn monthly_price(st: &State, s: &Service) -> Decimal {
    st.products
        .iter()
        .find(|p| p["variant_code"] == s.sku.as_str() && p["region"] == s.region.as_str())
        .and_then(|p| {
            p["price"]
                .as_str()
                .map(str::to_owned)
                .or_else(|| p["price"].as_f64().map(|f| f.to_string()))
        })
        .and_then(|p| p.parse().ok())
        .unwrap_or(Decimal::ZERO)
}
