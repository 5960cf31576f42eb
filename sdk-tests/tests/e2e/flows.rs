//! The flows the reference describes, through the generated SDK as far as its documented
//! operations reach; where a step has no documented operation the test says so and uses the
//! sandbox's handle instead of inventing an endpoint.

use std::collections::BTreeSet;

use cloud_sandbox::{OpStatus, Sandbox};
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
    let invoice_id = draft_two_units(&c, sb, &plan).await;
    let total = unit * Decimal::from(2);
    pay_one_unit_then_replay(&c, sb, invoice_id, unit).await;
    let created = pay_the_rest(&c, sb, invoice_id, unit, total).await;
    assert_services_and_transactions(&c, &created, invoice_id, total).await;
}

/// Drafts an order of two units of `plan`: it charges nothing, and its unpaid invoice (named
/// by the draft's open body) is on the ledger. Returns the invoice's id.
async fn draft_two_units(
    c: &customer_cloud_sdk::Client,
    sb: &Sandbox,
    plan: &catalog::CatalogProduct,
) -> Uuid {
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
    let total = plan.price.expect("price") * Decimal::from(2);
    let invoice = sb
        .invoices()
        .into_iter()
        .find(|i| i.id == invoice_id)
        .unwrap();
    assert_eq!((invoice.status.as_str(), invoice.total), ("unpaid", total));
    invoice_id
}

/// A partial payment from a balance that covers one `unit` only; the same key and request
/// again is the stored answer, with no second debit.
async fn pay_one_unit_then_replay(
    c: &customer_cloud_sdk::Client,
    sb: &Sandbox,
    invoice_id: Uuid,
    unit: Decimal,
) {
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
}

/// The account is topped up (no documented operation does that), then a separate payment
/// request with its own key pays the rest of `total`. Returns the services it created.
async fn pay_the_rest(
    c: &customer_cloud_sdk::Client,
    sb: &Sandbox,
    invoice_id: Uuid,
    unit: Decimal,
    total: Decimal,
) -> Vec<String> {
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
    created
}

/// Payment is not provisioning: the `created` services are tracked through the listing, and
/// both payments of the invoice are listed as transactions summing to `total`.
async fn assert_services_and_transactions(
    c: &customer_cloud_sdk::Client,
    created: &[String],
    invoice_id: Uuid,
    total: Decimal,
) {
    let listed = listed_service_ids(c).await;
    for id in created {
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
    let deploy = Deploy {
        c: &c,
        region,
        variant,
    };
    let total = monthly_total(&plan);
    let balance = sb.balance();
    refused_over_the_ceiling_or_the_balance(&deploy, sb, total).await;
    let op_id = deployed_within_the_ceiling(&deploy, sb, total).await;
    assert_eq!(sb.balance(), balance - total);
    found_by_key_without_repeating_the_write(&deploy, sb, &op_id).await;
    legacy_shape_names_the_operation(&deploy, total).await;
    failed_provisioning_is_a_typed_error(&deploy, sb, total).await;
}

/// The monthly deploy of one VPS plan as `web-1.example.net`.
struct Deploy<'c> {
    c: &'c customer_cloud_sdk::Client,
    region: String,
    variant: String,
}

impl<'c> Deploy<'c> {
    /// The deploy with the ceiling `max_total`, ready to send.
    fn call(&self, max_total: Decimal) -> deployments::builders::ProductVariantDeploy<'c> {
        self.c.product_variant_deploy(
            deployments::ProductVariantDeployArgs {
                region: self.region.clone(),
                product_code: customer_cloud_sdk::deployments::ProductVariantDeployProductCode::Vps,
                variant_code: self.variant.clone(),
            },
            deployments::ProductVariantDeployRequest::DeployRequest(
                deployments::DeployRequest::new()
                    .billing_cycle(deployments::DeployRequestBillingCycle::Monthly)
                    .hostname("web-1.example.net".to_owned())
                    .max_total(max_total),
            ),
        )
    }
}

/// A ceiling below the current `total` is a 409, and a balance below it a 402: nothing is
/// charged or committed either way.
async fn refused_over_the_ceiling_or_the_balance(
    deploy: &Deploy<'_>,
    sb: &Sandbox,
    total: Decimal,
) {
    let balance = sb.balance();
    let err = deploy
        .call(total - Decimal::new(1, 2))
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

    sb.set_balance(total - Decimal::new(1, 2));
    let err = deploy
        .call(total)
        .send()
        .await
        .expect_err("insufficient credit");
    assert_eq!(err.error_code(), Some(ErrorCode::InsufficientCredit));
    assert_eq!(err.status(), Some(402));
    assert!(sb.orders().is_empty() && sb.debits().is_empty());
    sb.set_balance(balance);
}

/// Within the ceiling: an accepted operation to wait for, which names the listed service; one
/// order under the call's key, one debit of `total`. Returns the operation's id.
async fn deployed_within_the_ceiling(deploy: &Deploy<'_>, sb: &Sandbox, total: Decimal) -> String {
    let receipt = deploy
        .call(total)
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
    let op = receipt.wait(deploy.c).await.expect("operation succeeds");
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
    assert!(listed_service_ids(deploy.c).await.contains(&service_id));
    let orders = sb.orders();
    assert_eq!(orders.len(), 1);
    assert_eq!(
        orders[0].idempotency_key.as_deref(),
        Some("flow-deploy-0001")
    );
    assert_eq!(sb.debits().len(), 1);
    assert_eq!(sb.debits()[0].amount_out, total);
    op.id
}

/// A lookup by key finds the operation `op_id` without repeating the write, and its receipt
/// can be waited on like the write's own.
async fn found_by_key_without_repeating_the_write(deploy: &Deploy<'_>, sb: &Sandbox, op_id: &str) {
    let found = deploy
        .c
        .get_operations()
        .idempotency_key("flow-deploy-0001")
        .method("POST")
        .path(format!(
            "/v1/deploy/{}/vps/{}",
            deploy.region, deploy.variant
        ))
        .send()
        .await
        .expect("lookup")
        .into_body();
    assert_eq!(found.operation_id().as_deref(), Some(op_id));
    let waited = found.wait(deploy.c).await.expect("looked-up operation");
    assert!(waited.status == OperationStatus::Succeeded && waited.id == op_id);
    assert_eq!(sb.orders().len(), 1, "a lookup never repeats the write");
}

/// The legacy shape (no envelope header) still names the operation to wait for.
async fn legacy_shape_names_the_operation(deploy: &Deploy<'_>, total: Decimal) {
    let legacy = deploy
        .call(total)
        .idempotency_key("flow-deploy-0002")
        .send()
        .await
        .expect("legacy deploy")
        .into_body();
    let OperationOrLegacyWriteResponse::LegacyWriteResponse(shape) = &legacy else {
        panic!("legacy shape expected, got {legacy:?}");
    };
    assert!(!shape.action_id.is_null());
    let op = legacy.wait(deploy.c).await.expect("legacy operation");
    assert_eq!(op.status, OperationStatus::Succeeded);
}

/// A failed provisioning is a typed error carrying the operation; payment is not
/// provisioning, so the debits of the three accepted deploys stay.
async fn failed_provisioning_is_a_typed_error(deploy: &Deploy<'_>, sb: &Sandbox, total: Decimal) {
    sb.set_operation_outcome(OpStatus::Failed);
    let failing = deploy
        .call(total)
        .idempotency_key("flow-deploy-0003")
        .operation_format(true)
        .send()
        .await
        .expect("accepted")
        .into_body();
    match failing.wait(deploy.c).await {
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
    let name = "shop.example";
    let request = zone_with_records(name);
    a_dry_run_creates_nothing(&c, sb, &request).await;
    created_then_found(&c, &request, name).await;
    same_key_replays_and_a_new_key_never_overwrites(&c, sb, &request).await;
}

/// The zone `name` with an `A` record at its apex and a `www` CNAME.
fn zone_with_records(name: &str) -> dns::CreateDnsZoneRequest {
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
            .values(vec![Value::from(format!("{name}."))]),
    ]);
    dns::CreateDnsZoneRequest::new(name.to_owned()).source(records)
}

/// Preview: validates and returns records without creating or reserving the zone.
async fn a_dry_run_creates_nothing(
    c: &customer_cloud_sdk::Client,
    sb: &Sandbox,
    request: &dns::CreateDnsZoneRequest,
) {
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
}

/// Created with a separate key, the zone `name` is read and listed.
async fn created_then_found(
    c: &customer_cloud_sdk::Client,
    request: &dns::CreateDnsZoneRequest,
    name: &str,
) {
    c.create_dns_zone(request.clone())
        .idempotency_key("flow-zone-create-1")
        .send()
        .await
        .expect("create");
    c.get_dns_zone(name).send().await.expect("zone detail");
    let listed = c
        .list_dns_zones()
        .q("shop")
        .send()
        .await
        .expect("list")
        .into_body();
    assert_eq!(listed.zones.len(), 1);
    assert_eq!(listed.zones[0].name.as_deref(), Some(name));
}

/// A retry with the same key is the same write; a new write never overwrites the zone.
async fn same_key_replays_and_a_new_key_never_overwrites(
    c: &customer_cloud_sdk::Client,
    sb: &Sandbox,
    request: &dns::CreateDnsZoneRequest,
) {
    c.create_dns_zone(request.clone())
        .idempotency_key("flow-zone-create-1")
        .send()
        .await
        .expect("replay");
    let again = c
        .create_dns_zone(request.clone())
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

/// The `type` of each listed service.
fn kinds(items: &[serde_json::Map<String, Value>]) -> BTreeSet<String> {
    items
        .iter()
        .filter_map(|i| i.get("type").and_then(Value::as_str).map(str::to_owned))
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
    let c = env.client();
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
    assert_last_listing_sent_comma_lists(env.sb());
}

/// The last `GET /v1/services` sent both filters as one `name=a,b` pair each.
fn assert_last_listing_sent_comma_lists(sb: &Sandbox) {
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

/// The id of the first listed service of type `kind`.
async fn first_service(c: &customer_cloud_sdk::Client, kind: &str) -> Uuid {
    let items = c
        .get_services()
        .type_(vec![kind.to_owned()])
        .send()
        .await
        .expect("services")
        .into_body()
        .items;
    items[0]["id"].as_str().unwrap().parse().unwrap()
}

/// The TCP proxy settings of service `id` (none for another type of service).
async fn read_proxy(c: &customer_cloud_sdk::Client, id: Uuid) -> Option<tcp_proxy::TcpProxy> {
    c.get_tcp_proxy(id)
        .send()
        .await
        .expect("read")
        .into_body()
        .tcp_proxy
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
    let id = first_service(&c, "tcp-proxy").await;
    let before = read_proxy(&c, id).await.expect("a TCP proxy");
    let after = ports_and_allow_list_replaced(&c, id, &before).await;
    only_the_country_policy_changes(&c, id, &after).await;
    an_empty_array_clears_the_list(&c, id, &after).await;
    // Non-TCP services read as null.
    let vps_id = first_service(&c, "vps").await;
    assert!(read_proxy(&c, vps_id).await.is_none());
}

/// Supplied ports and allow list replace the old ones; omitted fields stay as `before`.
/// Returns the proxy as updated.
async fn ports_and_allow_list_replaced(
    c: &customer_cloud_sdk::Client,
    id: Uuid,
    before: &tcp_proxy::TcpProxy,
) -> tcp_proxy::TcpProxy {
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
    let after = read_proxy(c, id).await.expect("proxy");
    assert_eq!(answered, after);
    assert_eq!(
        ports(&after),
        vec![
            (Value::from(8080), Value::from(8080)),
            (Value::from(9000), Value::from(9001))
        ],
        "supplied ports replace the old ones"
    );
    assert_ne!(ports(&after), ports(before));
    assert_eq!(
        after.allowed_source_cidrs,
        Some(vec!["198.51.100.0/24".to_owned()])
    );
    assert_eq!(after.blocked_source_cidrs, before.blocked_source_cidrs);
    assert_eq!(after.country_policy, before.country_policy);
    assert_eq!(after.backend_ip, before.backend_ip);
    assert_eq!(after.proxy_ip, before.proxy_ip);
    after
}

/// Only the country policy is supplied: every array stays as in `after`.
async fn only_the_country_policy_changes(
    c: &customer_cloud_sdk::Client,
    id: Uuid,
    after: &tcp_proxy::TcpProxy,
) {
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
    let last = read_proxy(c, id).await.expect("proxy");
    assert_eq!(ports(&last), ports(after));
    assert_eq!(last.allowed_source_cidrs, after.allowed_source_cidrs);
    let cp = last.country_policy.expect("country policy");
    assert_eq!(cp.mode, Some(Value::from("block")));
    assert_eq!(cp.countries, Some(serde_json::json!(["KP"])));
}

/// An empty array is supplied too: it replaces the allow list with nothing, and the ports
/// stay as in `after`.
async fn an_empty_array_clears_the_list(
    c: &customer_cloud_sdk::Client,
    id: Uuid,
    after: &tcp_proxy::TcpProxy,
) {
    c.tcp_proxy_update(
        id,
        tcp_proxy::TcpProxyUpdateRequest::new().allowed_source_cidrs(vec![]),
    )
    .idempotency_key("flow-tcp-0003")
    .send()
    .await
    .expect("clear allow list");
    let cleared = read_proxy(c, id).await.expect("proxy");
    assert_eq!(cleared.allowed_source_cidrs, Some(vec![]));
    assert_eq!(ports(&cleared), ports(after));
}
