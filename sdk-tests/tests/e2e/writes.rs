//! Money-moving writes shared by the fault and crash tests: atomic deploys, draft orders,
//! invoice payments and DNS zones, each with its own idempotency key; sending one through the
//! SDK, settling one the SDK left unknown, and checking the sandbox's ledger.

use cloud_sandbox::Sandbox;
use cloud_sandbox::state::{Invoice, Order, Transaction, Zone};
use customer_cloud_sdk::{ErrorCode, ErrorCodeExt};
use customer_cloud_sdk::{billing, deployments, dns};
use oncegen_runtime::Error;
use rust_decimal::Decimal;
use uuid::Uuid;

/// Where the deploys go (seeded catalog).
pub const REGION: &str = "DE";
pub const VARIANT: &str = "vps-xs";

#[derive(Clone, Debug)]
pub enum Kind {
    Deploy,
    Draft,
    Pay(Uuid),
    Zone,
}

#[derive(Clone, Debug)]
pub struct Write {
    pub index: usize,
    pub key: String,
    pub kind: Kind,
}

impl Write {
    /// Write number `index` under `key`: the kinds take turns (deploy, draft, payment of a
    /// fresh invoice, zone).
    pub fn new(sb: &Sandbox, index: usize, key: String) -> Self {
        let mut w = Self::new_without_payment(index, key);
        if index % 4 == 2 {
            w.kind = Kind::Pay(sb.add_unpaid_invoice(Decimal::new(100 + index as i64, 2)));
        }
        w
    }

    /// Like [`Write::new`], with a zone instead of a payment (no invoice to create).
    pub fn new_without_payment(index: usize, key: String) -> Self {
        let kind = match index % 4 {
            0 => Kind::Deploy,
            1 => Kind::Draft,
            _ => Kind::Zone,
        };
        Self { index, key, kind }
    }

    /// `(method, path)` of the write as sent.
    pub fn target(&self) -> (&'static str, String) {
        match &self.kind {
            Kind::Deploy => ("POST", format!("/v1/deploy/{REGION}/vps/{VARIANT}")),
            Kind::Draft => ("POST", "/v1/billing/orders/draft".to_owned()),
            Kind::Pay(invoice) => ("POST", format!("/v1/billing/invoices/{invoice}/pay")),
            Kind::Zone => ("POST", "/v1/dns/zones".to_owned()),
        }
    }
}

/// The catalog plan every deploy buys.
#[derive(Clone, Copy, Debug)]
pub struct Plan {
    pub product_id: Uuid,
    pub variant_id: Uuid,
    pub total: Decimal,
}

impl Plan {
    /// Reads the plan from the catalog.
    pub async fn read(c: &customer_cloud_sdk::Client) -> Self {
        let product = c
            .get_products_by_region(REGION)
            .product_code(customer_cloud_sdk::catalog::GetProductsByRegionProductCode::Vps)
            .send()
            .await
            .expect("catalog")
            .into_body()
            .items
            .into_iter()
            .find(|p| p.variant_code.as_deref() == Some(VARIANT))
            .expect("seeded plan");
        Self {
            product_id: product.product_id.expect("product id"),
            variant_id: product.variant_id.expect("variant id"),
            total: product.price.expect("price"),
        }
    }
}

/// Sends the write once through the SDK (same key, identical body every time).
pub async fn send(c: &customer_cloud_sdk::Client, w: &Write, plan: &Plan) -> Result<(), Error> {
    match &w.kind {
        Kind::Deploy => c
            .product_variant_deploy(
                deployments::ProductVariantDeployArgs {
                    region: REGION.to_owned(),
                    product_code:
                        customer_cloud_sdk::deployments::ProductVariantDeployProductCode::Vps,
                    variant_code: VARIANT.to_owned(),
                },
                deployments::ProductVariantDeployRequest::DeployRequest(
                    deployments::DeployRequest::new()
                        .hostname(format!("eo-{}.example.net", w.index))
                        .max_total(plan.total),
                ),
            )
            .idempotency_key(w.key.clone())
            .send()
            .await
            .map(drop),
        Kind::Draft => c
            .billing_order_draft(
                billing::BillingOrderDraftRequest::new()
                    .idempotency_key(w.key.clone())
                    .currency(billing::BillingOrderDraftRequestCurrency::Eur)
                    .items(vec![
                        billing::DraftOrderItem::new()
                            .product_id(plan.product_id)
                            .variant_id(plan.variant_id)
                            .qty(1),
                    ]),
            )
            .idempotency_key(w.key.clone())
            .send()
            .await
            .map(drop),
        Kind::Pay(invoice) => c
            .pay_invoice(*invoice)
            .idempotency_key(w.key.clone())
            .send()
            .await
            .map(drop),
        Kind::Zone => c
            .create_dns_zone(dns::CreateDnsZoneRequest::new(format!(
                "eo-{}.example",
                w.index
            )))
            .idempotency_key(w.key.clone())
            .send()
            .await
            .map(drop),
    }
}

/// Errors after which the same write may be sent again with the same key.
pub fn resendable(e: &Error) -> bool {
    e.is_write_outcome_unknown() || e.is_retryable()
}

/// How the caller settled a write the SDK could not confirm.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Settled {
    /// The operation lookup found it.
    ByLookup,
    /// Resent with the same key.
    ByResend,
}

/// Settles a write whose outcome the SDK could not confirm: look it up by key, method and path
/// (`GET /v1/operations`), and when no operation is recorded (only tracked writes have one)
/// resend it with the same key; repeat while faults keep hitting. Returns how, and the lookups
/// made.
pub async fn settle_by_hand(
    c: &customer_cloud_sdk::Client,
    w: &Write,
    plan: &Plan,
) -> (Settled, usize) {
    let (method, path) = w.target();
    for lookups in 1..=40 {
        match c
            .get_operations()
            .idempotency_key(w.key.clone())
            .method(method)
            .path(path.clone())
            .send()
            .await
        {
            Ok(found) => {
                assert!(!found.body().operation.id.is_empty());
                return (Settled::ByLookup, lookups);
            }
            Err(e) if e.error_code() == Some(ErrorCode::OperationNotFound) => {}
            Err(e) if e.is_retryable() || e.api().is_none() => continue,
            Err(e) => panic!("lookup of {}: {e}", w.key),
        }
        match send(c, w, plan).await {
            Ok(()) => return (Settled::ByResend, lookups),
            Err(e) if resendable(&e) => {
                assert_eq!(e.idempotency_key(), Some(w.key.as_str()), "{e}");
            }
            Err(e) => panic!("resend of {}: {e}", w.key),
        }
    }
    panic!("write {} was not settled", w.key);
}

/// "N deploys, N drafts, N payments, N zones".
pub fn describe(writes: &[Write]) -> String {
    let count = |k: fn(&Kind) -> bool| writes.iter().filter(|w| k(&w.kind)).count();
    format!(
        "{} deploys, {} drafts, {} payments, {} zones",
        count(|k| matches!(k, Kind::Deploy)),
        count(|k| matches!(k, Kind::Draft)),
        count(|k| matches!(k, Kind::Pay(_))),
        count(|k| matches!(k, Kind::Zone)),
    )
}

/// Checks the ledger: every write applied exactly once (nothing duplicated, nothing lost),
/// with exactly its orders, debits, zones and invoice payment, and the balance moved by exactly
/// their sum.
pub fn assert_ledger(sb: &Sandbox, writes: &[Write], initial_balance: Decimal, plan: &Plan) {
    let count = |k: fn(&Kind) -> bool| writes.iter().filter(|w| k(&w.kind)).count();
    let deploys = count(|k| matches!(k, Kind::Deploy));
    let drafts = count(|k| matches!(k, Kind::Draft));
    let pays = count(|k| matches!(k, Kind::Pay(_)));
    let zones = count(|k| matches!(k, Kind::Zone));
    for w in writes {
        assert_eq!(sb.applied_writes(&w.key), 1, "write {} applied once", w.key);
    }
    assert_eq!(sb.total_writes(), writes.len() as u64);

    let ledger = Ledger::of(sb);
    let paid_total: Decimal = writes.iter().map(|w| ledger.assert_effects_of(w)).sum();
    assert_eq!(ledger.orders.len(), deploys + drafts);
    assert_eq!(ledger.debits.len(), deploys + pays);
    assert_eq!(ledger.zones.len(), zones);
    let deploy_services: usize = ledger
        .orders
        .iter()
        .filter(|o| o.kind == "deploy")
        .map(|o| o.service_ids.len())
        .sum();
    assert_eq!(deploy_services, deploys, "one service per deploy");
    assert_eq!(
        sb.balance(),
        initial_balance - plan.total * Decimal::from(deploys) - paid_total
    );
}

/// What the sandbox's ledger holds after the writes.
struct Ledger {
    /// Orders placed under an idempotency key.
    orders: Vec<Order>,
    debits: Vec<Transaction>,
    zones: Vec<Zone>,
    invoices: Vec<Invoice>,
}

impl Ledger {
    fn of(sb: &Sandbox) -> Self {
        Self {
            orders: sb
                .orders()
                .into_iter()
                .filter(|o| o.idempotency_key.is_some())
                .collect(),
            debits: sb.debits(),
            zones: sb.zones(),
            invoices: sb.invoices(),
        }
    }

    /// Checks that `w` left exactly the orders, debits and zones of its kind under its key, and
    /// for a payment that its invoice is paid in full by its one debit; returns what it paid.
    fn assert_effects_of(&self, w: &Write) -> Decimal {
        let key = Some(w.key.as_str());
        let orders_of = self
            .orders
            .iter()
            .filter(|o| o.idempotency_key.as_deref() == key)
            .count();
        let debits_of: Vec<_> = self
            .debits
            .iter()
            .filter(|d| d.idempotency_key.as_deref() == key)
            .collect();
        let zones_of = self
            .zones
            .iter()
            .filter(|z| z.idempotency_key.as_deref() == key)
            .count();
        let expected = match &w.kind {
            Kind::Deploy => (1, 1, 0),
            Kind::Draft => (1, 0, 0),
            Kind::Pay(_) => (0, 1, 0),
            Kind::Zone => (0, 0, 1),
        };
        assert_eq!(
            (orders_of, debits_of.len(), zones_of),
            expected,
            "orders, debits, zones of {} ({:?})",
            w.key,
            w.kind
        );
        let Kind::Pay(id) = &w.kind else {
            return Decimal::ZERO;
        };
        let invoice = self.invoices.iter().find(|i| i.id == *id).unwrap();
        assert_eq!(invoice.status, "paid");
        assert_eq!(invoice.paid, invoice.total);
        assert_eq!(debits_of[0].amount_out, invoice.total);
        invoice.total
    }
}
