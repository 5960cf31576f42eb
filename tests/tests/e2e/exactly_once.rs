//! Exactly-once writes under faults: 1,200 writes (atomic deploys, draft orders, invoice
//! payments, DNS zones) from concurrent tasks, each with its own seeded fault sequence
//! (drop after commit, 5xx before and after commit, non-JSON edge errors, delays past the client
//! timeout, 429 bursts). Every write must end applied exactly once on the sandbox's ledger:
//! either the SDK succeeded, or it reported the outcome as unknown with the write's idempotency
//! key and the caller recovered it through the operation lookup or by resending with that key.

use std::sync::Arc;
use std::time::{Duration, Instant};

use cloud_sandbox::{Fault, Matcher, Sandbox};
use cloud_sdk::{ErrorCode, ErrorCodeExt};
use cloud_sdk::{billing, deployments, dns};
use rust_decimal::Decimal;
use sdk_runtime::{Error, RetryPolicy};
use uuid::Uuid;

use crate::harness::{Env, Rng};

/// Seed of the fault schedule (printed; change it to explore other schedules).
const SEED: u64 = 0x5EED_0005;
/// Logical writes.
const WRITES: usize = 1200;
/// Concurrent tasks, each with its own client (and so its own 429 gate).
const WORKERS: usize = 48;
/// Share of writes that get a fault sequence.
const FAULT_RATE: f64 = 0.3;
/// Per-attempt client timeout; `Fault::Delay` answers well after it.
const ATTEMPT_TIMEOUT: Duration = Duration::from_millis(250);
const DELAY: Duration = Duration::from_millis(700);
/// Where the deploys go (seeded catalog).
const REGION: &str = "DE";
const VARIANT: &str = "vps-xs";

#[derive(Clone, Debug)]
enum Kind {
    Deploy,
    Draft,
    Pay(Uuid),
    Zone,
}

#[derive(Clone, Debug)]
struct Write {
    index: usize,
    key: String,
    kind: Kind,
}

impl Write {
    /// `(method, path)` of the write as sent.
    fn target(&self) -> (&'static str, String) {
        match &self.kind {
            Kind::Deploy => ("POST", format!("/v1/deploy/{REGION}/vps/{VARIANT}")),
            Kind::Draft => ("POST", "/v1/billing/orders/draft".to_owned()),
            Kind::Pay(invoice) => ("POST", format!("/v1/billing/invoices/{invoice}/pay")),
            Kind::Zone => ("POST", "/v1/dns/zones".to_owned()),
        }
    }
}

/// What happened to the writes (summed over workers).
#[derive(Debug, Default)]
struct Stats {
    ok_first: usize,
    unknown: usize,
    rejected_retryable: usize,
    recovered_by_lookup: usize,
    recovered_by_resend: usize,
    lookups: usize,
}

impl Stats {
    fn add(&mut self, o: &Stats) {
        self.ok_first += o.ok_first;
        self.unknown += o.unknown;
        self.rejected_retryable += o.rejected_retryable;
        self.recovered_by_lookup += o.recovered_by_lookup;
        self.recovered_by_resend += o.recovered_by_resend;
        self.lookups += o.lookups;
    }
}

/// The catalog plan every deploy buys.
struct Plan {
    product_id: Uuid,
    variant_id: Uuid,
    total: Decimal,
}

/// Sends the write once through the SDK (same key, identical body every time).
async fn send(c: &cloud_sdk::Client, w: &Write, plan: &Plan) -> Result<(), Error> {
    match &w.kind {
        Kind::Deploy => c
            .product_variant_deploy(
                REGION,
                deployments::ProductVariantDeployProductCode::Vps,
                VARIANT,
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
fn resendable(e: &Error) -> bool {
    e.is_write_outcome_unknown() || e.is_retryable()
}

/// Recovers a write whose outcome the SDK could not confirm: look it up by key, method and
/// path (`GET /v1/operations`), and when no operation is recorded (only tracked writes have
/// one) resend it with the same key; repeat while faults keep hitting.
async fn recover(c: &cloud_sdk::Client, w: &Write, plan: &Plan, stats: &mut Stats) {
    let (method, path) = w.target();
    for _ in 0..40 {
        stats.lookups += 1;
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
                stats.recovered_by_lookup += 1;
                return;
            }
            Err(e) if e.error_code() == Some(ErrorCode::OperationNotFound) => {}
            Err(e) if e.is_retryable() || e.api().is_none() => continue,
            Err(e) => panic!("lookup of {}: {e}", w.key),
        }
        match send(c, w, plan).await {
            Ok(()) => {
                stats.recovered_by_resend += 1;
                return;
            }
            Err(e) if resendable(&e) => {
                assert_eq!(e.idempotency_key(), Some(w.key.as_str()), "{e}");
            }
            Err(e) => panic!("resend of {}: {e}", w.key),
        }
    }
    panic!("write {} was not recovered", w.key);
}

/// The seeded fault sequence of one write.
fn schedule(rng: &mut Rng) -> Vec<Fault> {
    if rng.unit() >= FAULT_RATE {
        return Vec::new();
    }
    (0..1 + rng.below(3))
        .map(|_| match rng.below(6) {
            0 => Fault::DropAfterCommit,
            1 => Fault::Status(503),
            2 => Fault::StatusAfterCommit(500),
            3 => Fault::EdgeHtml,
            4 => Fault::Delay(DELAY),
            _ => Fault::RateLimited { retry_after: 1 },
        })
        .collect()
}

fn fault_name(f: &Fault) -> &'static str {
    match f {
        Fault::DropAfterCommit => "drop-after-commit",
        Fault::Status(_) => "5xx-before-commit",
        Fault::StatusAfterCommit(_) => "5xx-after-commit",
        Fault::EdgeHtml => "non-JSON-edge-502",
        Fault::Delay(_) => "delay-past-timeout",
        Fault::RateLimited { .. } => "429",
    }
}

/// Builds the writes (and the invoices they pay) and schedules their faults.
fn plan_writes(sb: &Sandbox) -> (Vec<Write>, usize) {
    let mut rng = Rng::new(SEED);
    let mut scheduled = 0;
    let writes: Vec<Write> = (0..WRITES)
        .map(|index| {
            let key = format!("eo-{SEED:x}-{index:05}");
            let kind = match index % 4 {
                0 => Kind::Deploy,
                1 => Kind::Draft,
                2 => Kind::Pay(sb.add_unpaid_invoice(Decimal::new(100 + index as i64, 2))),
                _ => Kind::Zone,
            };
            for fault in schedule(&mut rng) {
                sb.inject(fault, Matcher::key(&key), 1);
                scheduled += 1;
            }
            Write { index, key, kind }
        })
        .collect();
    (writes, scheduled)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_write_is_applied_exactly_once_under_faults() {
    let Some(env) = Env::sandbox_only(
        "every_write_is_applied_exactly_once_under_faults",
        "fault injection and the ledger",
    )
    .await
    else {
        return;
    };
    let sb = env.sb();
    let initial_balance = Decimal::new(100_000_000, 2);
    sb.set_balance(initial_balance);
    let catalog = env.client();
    let product = catalog
        .get_products_by_region(REGION)
        .product_code(cloud_sdk::catalog::GetProductsByRegionProductCode::Vps)
        .send()
        .await
        .expect("catalog")
        .into_body()
        .items
        .into_iter()
        .find(|p| p.variant_code.as_deref() == Some(VARIANT))
        .expect("seeded plan");
    let plan = Arc::new(Plan {
        product_id: product.product_id.expect("product id"),
        variant_id: product.variant_id.expect("variant id"),
        total: product.price.expect("price"),
    });
    let (writes, scheduled) = plan_writes(sb);
    let writes = Arc::new(writes);
    let config = env
        .config()
        .attempt_timeout(ATTEMPT_TIMEOUT)
        .total_timeout(Duration::from_secs(8))
        .retry_policy(RetryPolicy {
            max_attempts: 3,
            initial_backoff: Duration::from_millis(2),
            max_backoff: Duration::from_millis(20),
            max_retry_after: Duration::from_secs(2),
            ..RetryPolicy::default()
        });

    let started = Instant::now();
    let mut tasks = Vec::new();
    for worker in 0..WORKERS {
        let (writes, plan) = (writes.clone(), plan.clone());
        let client = cloud_sdk::Client::new(config.clone()).expect("client");
        tasks.push(tokio::spawn(async move {
            let mut stats = Stats::default();
            for w in writes.iter().skip(worker).step_by(WORKERS) {
                match send(&client, w, &plan).await {
                    Ok(()) => stats.ok_first += 1,
                    Err(e) if e.is_write_outcome_unknown() => {
                        assert_eq!(e.idempotency_key(), Some(w.key.as_str()), "{e}");
                        stats.unknown += 1;
                        recover(&client, w, &plan, &mut stats).await;
                    }
                    Err(e) if e.is_retryable() => {
                        stats.rejected_retryable += 1;
                        recover(&client, w, &plan, &mut stats).await;
                    }
                    Err(e) => panic!("write {}: {e}", w.key),
                }
            }
            stats
        }));
    }
    let mut stats = Stats::default();
    for t in tasks {
        stats.add(&t.await.expect("worker"));
    }
    let elapsed = started.elapsed();
    // Writes answered late (`Fault::Delay`) finish in the background; let them settle.
    tokio::time::sleep(DELAY).await;

    // ---- The ledger: nothing duplicated, nothing lost ----
    let count = |k: fn(&Kind) -> bool| writes.iter().filter(|w| k(&w.kind)).count();
    let deploys = count(|k| matches!(k, Kind::Deploy));
    let drafts = count(|k| matches!(k, Kind::Draft));
    let pays = count(|k| matches!(k, Kind::Pay(_)));
    let zones = count(|k| matches!(k, Kind::Zone));
    for w in writes.iter() {
        assert_eq!(sb.applied_writes(&w.key), 1, "write {} applied once", w.key);
    }
    assert_eq!(sb.total_writes(), WRITES as u64);

    let orders: Vec<_> = sb
        .orders()
        .into_iter()
        .filter(|o| o.idempotency_key.is_some())
        .collect();
    let debits = sb.debits();
    let zone_list = sb.zones();
    let invoices = sb.invoices();
    let mut paid_total = Decimal::ZERO;
    for w in writes.iter() {
        let orders_of = orders
            .iter()
            .filter(|o| o.idempotency_key.as_deref() == Some(&w.key))
            .count();
        let debits_of: Vec<_> = debits
            .iter()
            .filter(|d| d.idempotency_key.as_deref() == Some(&w.key))
            .collect();
        let zones_of = zone_list
            .iter()
            .filter(|z| z.idempotency_key.as_deref() == Some(&w.key))
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
        if let Kind::Pay(id) = &w.kind {
            let invoice = invoices.iter().find(|i| i.id == *id).unwrap();
            assert_eq!(invoice.status, "paid");
            assert_eq!(invoice.paid, invoice.total);
            assert_eq!(debits_of[0].amount_out, invoice.total);
            paid_total += invoice.total;
        }
    }
    assert_eq!(orders.len(), deploys + drafts);
    assert_eq!(debits.len(), deploys + pays);
    assert_eq!(zone_list.len(), zones);
    let deploy_services: usize = orders
        .iter()
        .filter(|o| o.kind == "deploy")
        .map(|o| o.service_ids.len())
        .sum();
    assert_eq!(deploy_services, deploys, "one service per deploy");
    assert_eq!(
        sb.balance(),
        initial_balance - plan.total * Decimal::from(deploys) - paid_total
    );

    // ---- The schedule was really exercised ----
    let injected = sb.injected_faults();
    let mut by_kind = std::collections::BTreeMap::<&str, usize>::new();
    for (_, _, f) in &injected {
        *by_kind.entry(fault_name(f)).or_default() += 1;
    }
    println!(
        "exactly-once: seed {SEED:#x}, {WRITES} writes ({deploys} deploys, {drafts} drafts, {pays} payments, {zones} zones) \
         by {WORKERS} tasks in {:.1?}; faults scheduled {scheduled}, injected {} {by_kind:?}; \
         first-try successes {}, unknown outcomes {}, retryable rejections {}, recovered by lookup {}, \
         recovered by resend {}, lookups {}",
        elapsed,
        injected.len(),
        stats.ok_first,
        stats.unknown,
        stats.rejected_retryable,
        stats.recovered_by_lookup,
        stats.recovered_by_resend,
        stats.lookups,
    );
    assert_eq!(
        stats.ok_first + stats.unknown + stats.rejected_retryable,
        WRITES
    );
    assert_eq!(
        stats.recovered_by_lookup + stats.recovered_by_resend,
        stats.unknown + stats.rejected_retryable
    );
    const { assert!(WRITES >= 1000) };
    assert_eq!(
        by_kind.len(),
        6,
        "every fault kind was injected: {by_kind:?}"
    );
    assert!(injected.len() >= 200, "{} faults", injected.len());
    assert!(
        stats.unknown > 0,
        "some outcomes reached the caller as unknown"
    );
}
