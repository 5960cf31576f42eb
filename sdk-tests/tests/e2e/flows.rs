//! The flows the reference describes, through the generated SDK as far as its documented
//! operations reach; where a step has no documented operation the test says so and uses the
//! sandbox's handle instead of inventing an endpoint.

use std::collections::BTreeSet;

use cloud_sandbox::OpStatus;
use customer_cloud_sdk::types::{OperationOrLegacyWriteResponse, OperationStatus};
use customer_cloud_sdk::{ErrorCode, ErrorCodeExt};
use customer_cloud_sdk::{billing, catalog, deployments, dns, services, tcp_proxy};
use futures::TryStreamExt;
use oncegen_runtime::Error;
use rust_decimal::Decimal;
use serde_json::Value;
use uuid::Uuid;

use crate::harness::Env;

/// The monthly total (price plus setup fee) of a catalog plan, from its billing cycles.
fn monthly_total(plan: &catalog::CatalogProduct) -> Decimal {
    let cycle = plan
        .billing_cycles
        .as_ref()
        .and_then(|cs| {
            cs.iter()
                .find(|c| c.billing_cycle.as_deref() == Some("monthly"))
        })
        .expect("a monthly cycle");
    cycle.price.expect("price") + cycle.setup_fee.unwrap_or_default()
}

/// The cheapest VPS plan of the first region, discovered through the catalog.
async fn cheapest_vps(c: &customer_cloud_sdk::Client) -> (String, catalog::CatalogProduct) {
    let regions: Vec<catalog::Region> = c
        .get_regions()
        .into_stream()
        .try_collect()
        .await
        .expect("regions");
    let region = regions[0].id.clone().expect("region id");
    let plans = c
        .get_products_by_region(region.clone())
        .product_code(customer_cloud_sdk::catalog::GetProductsByRegionProductCode::Vps)
        .send()
        .await
        .expect("products")
        .into_body()
        .items;
    let plan = plans
        .into_iter()
        .filter(|p| p.available != Some(false))
        .min_by_key(|p| p.price.unwrap_or(Decimal::MAX))
        .expect("a VPS plan");
    (region, plan)
}

/// Service ids listed by `GET /v1/services` (all pages).
async fn listed_service_ids(c: &customer_cloud_sdk::Client) -> BTreeSet<String> {
    let items: Vec<serde_json::Map<String, Value>> = c
        .get_services()
        .limit(100)
        .into_stream()
        .try_collect()
        .await
        .expect("services");
    items
        .iter()
        .filter_map(|i| i.get("id").and_then(Value::as_str).map(str::to_owned))
        .collect()
}

#[tokio::test]
async fn catalog_then_draft_order_then_partial_and_full_payment_then_service() {
    let Some(env) = Env::sandbox_only(
        "catalog_then_draft_order_then_partial_and_full_payment_then_service",
        "the ledger (the invoice of a draft is not reachable through documented operations)",
    )
    .await
    else {
        return;
    };
    let sb = env.sb();
    let c = env.client();
    let (_, plan) = cheapest_vps(&c).await;
    let unit = plan.price.expect("price");
    println!(
        "quote: the quote endpoint's path is not shown by the reference; using the catalog price {unit}"
    );

    // Draft order: creating it does not charge the account.
    let balance_before = sb.balance();
    let draft = billing::BillingOrderDraftRequest::new()
        .currency(billing::BillingOrderDraftRequestCurrency::Eur)
        .items(vec![
            billing::DraftOrderItem::new()
                .product_id(plan.product_id.expect("product id"))
                .variant_id(plan.variant_id.expect("variant id"))
                .qty(2),
        ]);
    let drafted = c
        .billing_order_draft(draft)
        .idempotency_key("flow-draft-0001")
        .send()
        .await
        .expect("draft order");
    assert_eq!(drafted.body().ok, Some(true));
    assert_eq!(
        sb.balance(),
        balance_before,
        "a draft order charges nothing"
    );
    assert!(sb.debits().is_empty());

    // The draft's response body is not shown by the reference, so its schema is open: the
    // members the sandbox returns (`invoiceId`, ...) are reachable through the catch-all map.
    let invoice_id: Uuid = drafted.body().additional_properties["invoiceId"]
        .as_str()
        .expect("the draft names its invoice")
        .parse()
        .expect("invoice uuid");
    let order = sb
        .orders()
        .into_iter()
        .find(|o| o.idempotency_key.as_deref() == Some("flow-draft-0001"))
        .expect("the draft's order");
    assert_eq!(order.invoice_id, Some(invoice_id), "the ledger agrees");
    let total = unit * Decimal::from(2);
    let invoice = sb
        .invoices()
        .into_iter()
        .find(|i| i.id == invoice_id)
        .unwrap();
    assert_eq!((invoice.status.as_str(), invoice.total), ("unpaid", total));

    // Partial payment from a balance that covers one unit only.
    sb.set_balance(unit);
    let partial = c
        .pay_invoice(invoice_id)
        .idempotency_key("flow-pay-0001")
        .send()
        .await
        .expect("partial payment")
        .into_body();
    assert_eq!(partial.paid_now, Some(unit));
    assert_eq!(partial.partial, Some(Value::Bool(true)));
    assert_eq!(partial.fully_paid, Some(Value::Bool(false)));
    assert_eq!(partial.status, Some(Value::from("unpaid")));
    // Same key, same request: the stored answer, no second debit.
    let replay = c
        .pay_invoice(invoice_id)
        .idempotency_key("flow-pay-0001")
        .send()
        .await
        .expect("replayed payment")
        .into_body();
    assert_eq!(replay, partial);
    assert_eq!(sb.debits().len(), 1);
    assert_eq!(sb.balance(), Decimal::ZERO);

    // The account is topped up (no documented operation does that), then a separate payment
    // request with its own key pays the rest.
    sb.set_balance(Decimal::new(100_000, 2));
    let full = c
        .pay_invoice(invoice_id)
        .idempotency_key("flow-pay-0002")
        .send()
        .await
        .expect("full payment")
        .into_body();
    assert_eq!(full.paid_now, Some(total - unit));
    assert_eq!(full.fully_paid, Some(Value::Bool(true)));
    assert_eq!(full.status, Some(Value::from("paid")));
    let created: Vec<String> = full
        .meta
        .as_ref()
        .and_then(|m| m.created_service_ids.as_ref())
        .and_then(Value::as_array)
        .expect("createdServiceIds")
        .iter()
        .filter_map(|v| v.as_str().map(str::to_owned))
        .collect();
    assert_eq!(created.len(), 2, "one service per ordered unit");
    assert_eq!(sb.debits().len(), 2);
    let paid: Decimal = sb.debits().iter().map(|d| d.amount_out).sum();
    assert_eq!(paid, total);

    // Payment is not provisioning: track the new services through the listing.
    let listed = listed_service_ids(&c).await;
    for id in &created {
        assert!(listed.contains(id), "service {id} is listed");
    }
    let transactions = c
        .billing_transactions()
        .limit(5)
        .send()
        .await
        .expect("transactions")
        .into_body();
    let payments: Decimal = transactions
        .items
        .iter()
        .filter(|t| t.invoice_id.as_ref().and_then(Value::as_str) == Some(&invoice_id.to_string()))
        .filter_map(|t| t.amount_out)
        .sum();
    assert_eq!(payments, total, "both payments are listed as transactions");
}

#[tokio::test]
async fn atomic_deploy_with_max_total_then_wait_then_find_the_service() {
    let Some(env) = Env::sandbox_only(
        "atomic_deploy_with_max_total_then_wait_then_find_the_service",
        "the ledger and a balance it can set",
    )
    .await
    else {
        return;
    };
    let sb = env.sb();
    let c = env.client();
    let check = c.check_contract().await.expect("version and capabilities");
    assert!(!check.differs(), "{check:?}");
    assert_eq!(check.feature("canonical_operation_responses"), Some(true));

    let (region, plan) = cheapest_vps(&c).await;
    let variant = plan.variant_code.clone().expect("variant code");
    let total = monthly_total(&plan);
    let deploy = |max_total: Decimal| {
        c.product_variant_deploy(
            deployments::ProductVariantDeployArgs {
                region: region.clone(),
                product_code: customer_cloud_sdk::deployments::ProductVariantDeployProductCode::Vps,
                variant_code: variant.clone(),
            },
            deployments::ProductVariantDeployRequest::DeployRequest(
                deployments::DeployRequest::new()
                    .billing_cycle(deployments::DeployRequestBillingCycle::Monthly)
                    .hostname("web-1.example.net".to_owned())
                    .max_total(max_total),
            ),
        )
    };
    let balance = sb.balance();

    // A ceiling below the current total: 409, nothing charged.
    let err = deploy(total - Decimal::new(1, 2))
        .send()
        .await
        .expect_err("over the ceiling");
    assert_eq!(
        err.error_code(),
        Some(ErrorCode::DeploymentPriceLimitExceeded)
    );
    assert_eq!(err.status(), Some(409));
    assert!(err.request_id().is_some());
    assert!(sb.orders().is_empty() && sb.debits().is_empty());
    assert_eq!(sb.balance(), balance);

    // Not enough balance: 402, nothing committed.
    sb.set_balance(total - Decimal::new(1, 2));
    let err = deploy(total).send().await.expect_err("insufficient credit");
    assert_eq!(err.error_code(), Some(ErrorCode::InsufficientCredit));
    assert_eq!(err.status(), Some(402));
    assert!(sb.orders().is_empty() && sb.debits().is_empty());
    sb.set_balance(balance);

    // Within the ceiling: order, invoice, one debit, and an operation to wait for.
    let receipt = deploy(total)
        .idempotency_key("flow-deploy-0001")
        .operation_format(true)
        .send()
        .await
        .expect("deploy")
        .into_body();
    let OperationOrLegacyWriteResponse::OperationEnvelope(pending) = &receipt else {
        panic!("canonical envelope expected, got {receipt:?}");
    };
    assert!(!pending.operation.done, "accepted is not completed");
    let op = receipt.wait(&c).await.expect("operation succeeds");
    assert_eq!(op.status, OperationStatus::Succeeded);
    let result = op.result.as_ref().expect("result");
    let service_id = result.service_ids.as_ref().expect("service ids")[0].to_string();
    assert!(
        result.order_id.as_ref().is_some_and(|v| v.is_string())
            && result.invoice_id.as_ref().is_some_and(|v| v.is_string())
    );
    assert_eq!(
        op.links.as_ref().and_then(|l| l.service.as_deref()),
        Some(format!("/v1/services/{service_id}").as_str())
    );
    assert!(listed_service_ids(&c).await.contains(&service_id));
    assert_eq!(sb.balance(), balance - total);
    let orders = sb.orders();
    assert_eq!(orders.len(), 1);
    assert_eq!(
        orders[0].idempotency_key.as_deref(),
        Some("flow-deploy-0001")
    );
    assert_eq!(sb.debits().len(), 1);
    assert_eq!(sb.debits()[0].amount_out, total);

    // Lookup by key recovers the same operation without repeating the write.
    let found = c
        .get_operations()
        .idempotency_key("flow-deploy-0001")
        .method("POST")
        .path(format!("/v1/deploy/{region}/vps/{variant}"))
        .send()
        .await
        .expect("lookup")
        .into_body();
    assert_eq!(found.operation_id().as_deref(), Some(op.id.as_str()));
    // The looked-up receipt can be waited on like the write's own.
    let waited = found.wait(&c).await.expect("looked-up operation");
    assert!(waited.status == OperationStatus::Succeeded && waited.id == op.id);
    assert_eq!(sb.orders().len(), 1, "a lookup never repeats the write");

    // The legacy shape (no envelope header) still names the operation to wait for.
    let legacy = deploy(total)
        .idempotency_key("flow-deploy-0002")
        .send()
        .await
        .expect("legacy deploy")
        .into_body();
    let OperationOrLegacyWriteResponse::LegacyWriteResponse(shape) = &legacy else {
        panic!("legacy shape expected, got {legacy:?}");
    };
    assert!(!shape.action_id.is_null());
    let op = legacy.wait(&c).await.expect("legacy operation");
    assert_eq!(op.status, OperationStatus::Succeeded);

    // A failed provisioning is a typed error carrying the operation.
    sb.set_operation_outcome(OpStatus::Failed);
    let failing = deploy(total)
        .idempotency_key("flow-deploy-0003")
        .operation_format(true)
        .send()
        .await
        .expect("accepted")
        .into_body();
    match failing.wait(&c).await {
        Err(Error::OperationFailed(op)) => assert_eq!(op.status.as_deref(), Some("failed")),
        other => panic!("expected a failed operation, got {other:?}"),
    }
    assert_eq!(
        sb.debits().len(),
        3,
        "payment is not provisioning: the debit stays"
    );
}

#[tokio::test]
async fn dns_zone_dry_run_then_create() {
    let Some(env) = Env::sandbox_only("dns_zone_dry_run_then_create", "the zone ledger").await
    else {
        return;
    };
    let sb = env.sb();
    let c = env.client();
    let name = "shop.example".to_owned();
    let records = dns::CreateDnsZoneRequestSource::Records(vec![
        dns::DnsRecordSet::new()
            .name("@")
            .type_("A")
            .ttl(300)
            .values(vec![Value::from("192.0.2.10")]),
        dns::DnsRecordSet::new()
            .name("www")
            .type_("CNAME")
            .ttl(300)
            .values(vec![Value::from("shop.example.")]),
    ]);
    let request = dns::CreateDnsZoneRequest::new(name.clone()).source(records);

    // Preview: validates and returns records without creating or reserving the zone.
    let preview = c
        .create_dns_zone(request.clone().dry_run(true))
        .idempotency_key("flow-zone-preview-1")
        .send()
        .await
        .expect("dry run");
    assert_eq!(preview.body().ok, Some(true));
    println!(
        "dns: the response body of dry run and creation is not shown; the SDK exposes `ok` only"
    );
    assert!(sb.zones().is_empty(), "a dry run creates nothing");
    let listed = c.list_dns_zones().send().await.expect("list").into_body();
    assert!(listed.zones.is_empty());

    // Create, with a separate key.
    c.create_dns_zone(request.clone())
        .idempotency_key("flow-zone-create-1")
        .send()
        .await
        .expect("create");
    c.get_dns_zone(name.clone())
        .send()
        .await
        .expect("zone detail");
    let listed = c
        .list_dns_zones()
        .q("shop")
        .send()
        .await
        .expect("list")
        .into_body();
    assert_eq!(listed.zones.len(), 1);
    assert_eq!(listed.zones[0].name.as_deref(), Some(name.as_str()));

    // A retry with the same key is the same write; a new write never overwrites the zone.
    c.create_dns_zone(request.clone())
        .idempotency_key("flow-zone-create-1")
        .send()
        .await
        .expect("replay");
    let again = c
        .create_dns_zone(request)
        .idempotency_key("flow-zone-create-2")
        .send()
        .await
        .expect_err("existing zones are never overwritten");
    // The reference gives no code for it: the documented 400 `validation_error`.
    assert_eq!(again.status(), Some(400));
    let zones = sb.zones();
    assert_eq!(zones.len(), 1);
    assert_eq!(
        zones[0].idempotency_key.as_deref(),
        Some("flow-zone-create-1")
    );
    assert_eq!(sb.applied_writes("flow-zone-create-1"), 1);
}

fn ports(p: &tcp_proxy::TcpProxy) -> Vec<(Value, Value)> {
    p.ports
        .iter()
        .flatten()
        .map(|x| {
            (
                x.listen.clone().unwrap_or_default(),
                x.backend.clone().unwrap_or_default(),
            )
        })
        .collect()
}

/// `statuses` and `type` are comma lists (`style: form, explode: false`): the SDK takes lists
/// and sends one `name=a,b` pair each, which the service filters on.
#[tokio::test]
async fn service_listing_filters_are_sent_as_comma_lists() {
    let Some(env) = Env::sandbox_only(
        "service_listing_filters_are_sent_as_comma_lists",
        "seeded services and the request log",
    )
    .await
    else {
        return;
    };
    let sb = env.sb();
    let c = env.client();
    let kinds = |items: &[serde_json::Map<String, Value>]| -> BTreeSet<String> {
        items
            .iter()
            .filter_map(|i| i.get("type").and_then(Value::as_str).map(str::to_owned))
            .collect()
    };
    let all = c
        .get_services()
        .limit(100)
        .send()
        .await
        .expect("services")
        .into_body()
        .items;
    let both = c
        .get_services()
        .limit(100)
        .statuses(vec![
            services::GetServicesStatusesItem::Active,
            services::GetServicesStatusesItem::Suspended,
        ])
        .type_(vec!["vps".to_owned(), "tcp-proxy".to_owned()])
        .send()
        .await
        .expect("filtered services")
        .into_body()
        .items;
    assert!(!both.is_empty());
    let wanted: BTreeSet<String> = ["vps", "tcp-proxy"].map(str::to_owned).into();
    assert!(kinds(&both).is_subset(&wanted), "{:?}", kinds(&both));
    let expected = all
        .iter()
        .filter(|i| {
            i.get("type")
                .and_then(Value::as_str)
                .is_some_and(|t| wanted.contains(t))
        })
        .count();
    assert_eq!(both.len(), expected, "both types listed, nothing else");
    let sent = sb
        .requests()
        .into_iter()
        .rev()
        .find(|r| r.path == "/v1/services")
        .expect("the listing request");
    assert!(
        sent.query.contains("statuses=active,suspended")
            && sent.query.contains("type=vps,tcp-proxy"),
        "{}",
        sent.query
    );
}

#[tokio::test]
async fn tcp_proxy_update_replaces_supplied_arrays_and_keeps_omitted_fields() {
    let Some(env) = Env::sandbox_only(
        "tcp_proxy_update_replaces_supplied_arrays_and_keeps_omitted_fields",
        "a seeded TCP proxy service",
    )
    .await
    else {
        return;
    };
    let c = env.client();
    let proxies = c
        .get_services()
        .type_(vec!["tcp-proxy".to_owned()])
        .send()
        .await
        .expect("services")
        .into_body()
        .items;
    let id: Uuid = proxies[0]["id"].as_str().unwrap().parse().unwrap();
    let read = |id: Uuid| {
        let c = &c;
        async move {
            c.get_tcp_proxy(id)
                .send()
                .await
                .expect("read")
                .into_body()
                .tcp_proxy
        }
    };
    let before = read(id).await.expect("a TCP proxy");

    let update = tcp_proxy::TcpProxyUpdateRequest::new()
        .ports(vec![
            tcp_proxy::TcpProxyUpdateRequestPortsItem::Integer(8080),
            tcp_proxy::TcpProxyUpdateRequestPortsItem::TcpProxyPortMapping(
                tcp_proxy::TcpProxyPortMapping::new(9000)
                    .backend(9001)
                    .proxy_protocol_v2(true),
            ),
        ])
        .allowed_source_cidrs(vec!["198.51.100.0/24".to_owned()]);
    let answered = c
        .tcp_proxy_update(id, update)
        .idempotency_key("flow-tcp-0001")
        .send()
        .await
        .expect("update")
        .into_body()
        .tcp_proxy
        .expect("proxy");
    let after = read(id).await.expect("proxy");
    assert_eq!(answered, after);
    assert_eq!(
        ports(&after),
        vec![
            (Value::from(8080), Value::from(8080)),
            (Value::from(9000), Value::from(9001))
        ],
        "supplied ports replace the old ones"
    );
    assert_ne!(ports(&after), ports(&before));
    assert_eq!(
        after.allowed_source_cidrs,
        Some(vec!["198.51.100.0/24".to_owned()])
    );
    assert_eq!(after.blocked_source_cidrs, before.blocked_source_cidrs);
    assert_eq!(after.country_policy, before.country_policy);
    assert_eq!(after.backend_ip, before.backend_ip);
    assert_eq!(after.proxy_ip, before.proxy_ip);

    // Only the country policy: every array stays as it was.
    let policy = tcp_proxy::TcpProxyCountryPolicy::new(tcp_proxy::TcpProxyCountryPolicyArgs {
        countries: vec!["KP".to_owned()],
        mode: tcp_proxy::TcpProxyCountryPolicyMode::Block,
    });
    c.tcp_proxy_update(
        id,
        tcp_proxy::TcpProxyUpdateRequest::new().country_policy(policy),
    )
    .idempotency_key("flow-tcp-0002")
    .send()
    .await
    .expect("update policy");
    let last = read(id).await.expect("proxy");
    assert_eq!(ports(&last), ports(&after));
    assert_eq!(last.allowed_source_cidrs, after.allowed_source_cidrs);
    let cp = last.country_policy.expect("country policy");
    assert_eq!(cp.mode, Some(Value::from("block")));
    assert_eq!(cp.countries, Some(serde_json::json!(["KP"])));

    // An empty array is supplied too: it replaces the list with nothing.
    c.tcp_proxy_update(
        id,
        tcp_proxy::TcpProxyUpdateRequest::new().allowed_source_cidrs(vec![]),
    )
    .idempotency_key("flow-tcp-0003")
    .send()
    .await
    .expect("clear allow list");
    let cleared = read(id).await.expect("proxy");
    assert_eq!(cleared.allowed_source_cidrs, Some(vec![]));
    assert_eq!(ports(&cleared), ports(&after));

    // Non-TCP services read as null.
    let vps = c
        .get_services()
        .type_(vec!["vps".to_owned()])
        .send()
        .await
        .expect("services")
        .into_body()
        .items;
    let vps_id: Uuid = vps[0]["id"].as_str().unwrap().parse().unwrap();
    assert!(read(vps_id).await.is_none());
}
