//! The account state, everything the API remembers: balance, catalog, services, orders,
//! invoices, transactions, zones, dedicated tasks, DNSSEC state, credentials, idempotent writes,
//! operations and the per-idempotency-key counts of applied writes.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use rust_decimal::Decimal;
use serde::Serialize;
use serde_json::Value;
use uuid::Uuid;

use crate::async_operations::{OperationRecord, OperationSettings};
use crate::auth::AuthStore;
use crate::errors::ApiError;
use crate::idempotency::IdempotencyStore;

/// Formats a timestamp as RFC 3339 with seconds and `Z`.
pub fn ts(t: DateTime<Utc>) -> String {
    t.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

/// Formats money with two decimals.
pub fn money(d: Decimal) -> String {
    format!("{:.2}", d.round_dp(2))
}

/// A billing order.
#[derive(Clone, Debug, Serialize)]
pub struct Order {
    /// Order uuid.
    pub id: Uuid,
    /// `paid`, `unpaid` or `draft`.
    pub status: String,
    /// How it was created: `deploy`, `draft`, `dedicated`.
    pub kind: String,
    /// Final total.
    pub total: Decimal,
    /// Currency.
    pub currency: String,
    /// Invoice of this order.
    pub invoice_id: Option<Uuid>,
    /// Services created for it.
    pub service_ids: Vec<Uuid>,
    /// Order lines as received.
    pub items: Value,
    /// Idempotency key of the write that created it.
    pub idempotency_key: Option<String>,
    /// Creation time.
    pub created_at: DateTime<Utc>,
}

/// An invoice.
#[derive(Clone, Debug, Serialize)]
pub struct Invoice {
    /// Invoice uuid.
    pub id: Uuid,
    /// Human number.
    pub number: String,
    /// `unpaid` or `paid`.
    pub status: String,
    /// Order it bills.
    pub order_id: Option<Uuid>,
    /// Total.
    pub total: Decimal,
    /// Amount paid so far.
    pub paid: Decimal,
    /// Currency.
    pub currency: String,
    /// Creation time.
    pub created_at: DateTime<Utc>,
}

impl Invoice {
    /// Amount still due.
    pub fn remaining(&self) -> Decimal {
        (self.total - self.paid).max(Decimal::ZERO)
    }
}

/// A balance movement.
#[derive(Clone, Debug, Serialize)]
pub struct Transaction {
    /// Transaction uuid.
    pub id: Uuid,
    /// Creation time.
    pub created_at: DateTime<Utc>,
    /// `completed`.
    pub status: String,
    /// `deploy_debit`, `invoice_payment`, `credit`.
    pub kind: String,
    /// Currency.
    pub currency: String,
    /// Money in.
    pub amount_in: Decimal,
    /// Money out (debits).
    pub amount_out: Decimal,
    /// Related invoice.
    pub invoice_id: Option<Uuid>,
    /// Idempotency key of the write that made it.
    pub idempotency_key: Option<String>,
}

impl Transaction {
    /// The documented transaction item.
    pub fn to_json(&self) -> Value {
        serde_json::json!({
            "id": self.id,
            "createdAt": ts(self.created_at),
            "status": self.status,
            "type": self.kind,
            "currency": self.currency,
            "amountIn": money(self.amount_in),
            "amountOut": money(self.amount_out),
            "fee": "0.00",
            "gateway": if self.kind == "credit" { Value::from("bank_transfer") } else { Value::Null },
            "invoiceId": self.invoice_id,
            "meta": Value::Null,
        })
    }
}

/// A customer service.
#[derive(Clone, Debug, Serialize)]
pub struct Service {
    /// Service uuid.
    pub id: Uuid,
    /// `active`, `suspended`, `terminated`.
    pub status: String,
    /// Display name.
    pub display_name: String,
    /// Hostname (domain name for domain services).
    pub hostname: String,
    /// `vps`, `dedicated`, `domain`, `tcp-proxy`, `hosting`.
    pub kind: String,
    /// Creation time.
    pub created_at: DateTime<Utc>,
    /// Billing unit, e.g. `MONTH`.
    pub billing_unit: String,
    /// Billing count.
    pub billing_count: u32,
    /// Variant SKU.
    pub sku: String,
    /// IPv4.
    pub ipv4: String,
    /// Region code.
    pub region: String,
}

impl Service {
    /// The documented billing service item.
    pub fn to_json(&self) -> Value {
        serde_json::json!({
            "id": self.id,
            "status": self.status,
            "displayName": self.display_name,
            "hostname": self.hostname,
            "type": self.kind,
            "createdAt": ts(self.created_at),
            "dueDate": ts(self.created_at + chrono::Duration::days(30)),
            "billingUnit": self.billing_unit,
            "billingCount": self.billing_count,
            "sku": self.sku,
            "ipv4": self.ipv4,
            "ipv6": Value::Null,
            "meta": {"serviceType": self.kind},
        })
    }
}

/// A DNS zone.
#[derive(Clone, Debug, Serialize)]
pub struct Zone {
    /// Zone name.
    pub name: String,
    /// `active`.
    pub status: String,
    /// Records.
    pub records: Vec<Value>,
    /// Creation time.
    pub created_at: DateTime<Utc>,
    /// Idempotency key of the write that created it.
    pub idempotency_key: Option<String>,
}

/// A dedicated server task.
#[derive(Clone, Debug, Serialize)]
pub struct DedicatedTask {
    /// Task uuid.
    pub id: Uuid,
    /// Service it belongs to.
    pub service_id: Uuid,
    /// Kind, e.g. `password_reset`.
    pub kind: String,
    /// `in_progress`, then `completed` (or `failed`).
    pub status: String,
    /// Stage.
    pub stage: String,
    /// Number of reads so far.
    pub polls: u32,
    /// Creation time.
    pub created_at: DateTime<Utc>,
    /// Last change.
    pub updated_at: DateTime<Utc>,
}

impl DedicatedTask {
    /// The documented task object.
    pub fn to_json(&self) -> Value {
        serde_json::json!({
            "id": self.id,
            "kind": self.kind,
            "status": self.status,
            "stage": self.stage,
            "errorCode": Value::Null,
            "createdAt": ts(self.created_at),
            "updatedAt": ts(self.updated_at),
        })
    }
}

/// The whole account state of one sandbox; handlers run with it locked.
#[derive(Debug, Default)]
pub struct State {
    /// Account balance.
    pub balance: Decimal,
    /// Account currency.
    pub currency: String,
    /// Regions `{id, name}`.
    pub regions: Vec<Value>,
    /// Catalog product items.
    pub products: Vec<Value>,
    /// Dedicated OS profiles.
    pub images: Vec<Value>,
    /// Services.
    pub services: Vec<Service>,
    /// Orders.
    pub orders: Vec<Order>,
    /// Invoices.
    pub invoices: Vec<Invoice>,
    /// Transactions (newest last).
    pub transactions: Vec<Transaction>,
    /// DNS zones.
    pub zones: Vec<Zone>,
    /// Saved SSH keys.
    pub ssh_keys: Vec<Value>,
    /// Asynchronous operations.
    pub operations: Vec<OperationRecord>,
    /// How new operations advance and end (set by tests).
    pub operation_settings: OperationSettings,
    /// API credentials and the signed-mode nonces already seen.
    pub auth: AuthStore,
    /// Idempotent writes: stored responses and operation lookup identities.
    pub idempotency: IdempotencyStore,
    /// Dedicated tasks.
    pub tasks: Vec<DedicatedTask>,
    /// DNSSEC state per domain service id/name: (state, polls).
    pub dnssec: HashMap<String, (String, u32)>,
    /// TCP proxy configurations per service (created on first read or update).
    pub tcp_proxies: HashMap<Uuid, Value>,
    /// Webhooks, VPS data, firewall policies, volumes, DNS templates, contacts, websites.
    pub resources: crate::resources::Resources,
    /// How far the sandbox's clock runs ahead of the real one (tests move it forward).
    pub clock_offset: chrono::Duration,
    /// API access disabled for the account: every authenticated request is 403
    /// `service_disabled`.
    pub access_disabled: bool,
    /// The catalog backend's health.
    pub catalog: CatalogHealth,
    /// Applied writes per idempotency key.
    pub applied: HashMap<String, u32>,
    /// Total applied writes.
    pub writes: u64,
}

/// The health of the catalog backend the catalog reads depend on.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum CatalogHealth {
    /// Every product is listed.
    #[default]
    Healthy,
    /// Products of these normalized types cannot be read: listings leave them out and say so
    /// (`partial: true`, `unavailable_types`, `availability: "unknown"`).
    Degraded(Vec<String>),
    /// The catalog cannot be read safely: 503 `catalog_unavailable` (dedicated images and
    /// deployments: `dedicated_catalog_unavailable`).
    Unavailable,
}

impl State {
    /// The sandbox's current time (the real clock plus [`State::clock_offset`]).
    pub fn now(&self) -> DateTime<Utc> {
        Utc::now() + self.clock_offset
    }

    /// Finds a service by uuid or (for domains) by name, case-insensitively, one trailing dot accepted.
    pub fn find_service(&self, selector: &str) -> Option<&Service> {
        if let Ok(id) = selector.parse::<Uuid>() {
            return self.services.iter().find(|s| s.id == id);
        }
        let name = selector.trim_end_matches('.').to_ascii_lowercase();
        self.services
            .iter()
            .find(|s| s.status != "terminated" && s.hostname.eq_ignore_ascii_case(&name))
    }

    /// The service a path parameter names, else 404 `not_found`.
    pub fn require_service(&self, selector: &str) -> Result<&Service, ApiError> {
        self.find_service(selector)
            .ok_or_else(|| ApiError::not_found("Service"))
    }

    /// The service a path parameter names when it is of `kind`, else 404 `not_found`.
    pub fn require_kind(&self, selector: &str, kind: &str) -> Result<Service, ApiError> {
        self.find_service(selector)
            .filter(|s| s.kind == kind)
            .cloned()
            .ok_or_else(|| ApiError::not_found(&format!("{kind} service")))
    }

    /// Counts one applied write under an idempotency key.
    pub fn count_applied_write(&mut self, key: &str) {
        *self.applied.entry(key.to_owned()).or_default() += 1;
        self.writes += 1;
    }

    /// Creates an unpaid order (`draft` status for drafts) and its invoice; nothing is charged.
    pub fn create_unpaid_order(
        &mut self,
        kind: &str,
        total: Decimal,
        currency: &str,
        items: Value,
        key: Option<String>,
    ) -> (Order, Invoice) {
        let now = Utc::now();
        let (order_id, invoice_id) = (Uuid::new_v4(), Uuid::new_v4());
        let invoice = Invoice {
            id: invoice_id,
            number: format!("INV-{}", 100_000 + self.invoices.len()),
            status: "unpaid".into(),
            order_id: Some(order_id),
            total,
            paid: Decimal::ZERO,
            currency: currency.into(),
            created_at: now,
        };
        let order = Order {
            id: order_id,
            status: if kind == "draft" { "draft" } else { "unpaid" }.into(),
            kind: kind.into(),
            total,
            currency: currency.into(),
            invoice_id: Some(invoice_id),
            service_ids: Vec::new(),
            items,
            idempotency_key: key,
            created_at: now,
        };
        self.invoices.push(invoice.clone());
        self.orders.push(order.clone());
        (order, invoice)
    }

    /// Records a balance debit.
    pub fn debit(
        &mut self,
        amount: Decimal,
        kind: &str,
        invoice_id: Option<Uuid>,
        key: Option<&str>,
    ) {
        self.balance -= amount;
        self.transactions.push(Transaction {
            id: Uuid::new_v4(),
            created_at: Utc::now(),
            status: "completed".into(),
            kind: kind.into(),
            currency: self.currency.clone(),
            amount_in: Decimal::ZERO,
            amount_out: amount,
            invoice_id,
            idempotency_key: key.map(str::to_owned),
        });
    }
}
