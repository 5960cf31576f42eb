//! The failure modes users must handle, simulated by the sandbox and met through the SDK:
//! `service_disabled`, `operation_expired` (receipts past retention, with the sandbox clock
//! moved forward), stored idempotent answers expiring after 24 hours, a degraded and an
//! unavailable catalog, documented errors after a commit, and the sandbox's own loud answer to
//! an error the contract does not document.

use std::time::Duration;

use cloud_sandbox::{CatalogHealth, Fault, Matcher};
use customer_cloud_sdk::{deployments, dns, tcp_proxy};

use crate::harness::Env;

const DAY: Duration = Duration::from_secs(24 * 3600);

/// How many requests reached the sandbox for `path`.
fn attempts(env: &Env, path: &str) -> usize {
    env.sb()
        .requests()
        .iter()
        .filter(|r| r.path == path)
        .count()
}

#[tokio::test]
async fn service_disabled_is_a_typed_403_the_sdk_does_not_retry() {
    let Some(env) = Env::sandbox_only("service_disabled", "account switches").await else {
        return;
    };
    let c = env.client();
    env.sb().set_access_disabled(true);
    let e = c.get_regions().send().await.expect_err("access disabled");
    assert_eq!(
        (e.status(), e.code()),
        (Some(403), Some("service_disabled"))
    );
    assert!(e.request_id().is_some());
    assert_eq!(attempts(&env, "/v1/regions"), 1, "a 403 is not retried");
    env.sb().set_access_disabled(false);
    c.get_regions().send().await.expect("access restored");
}

/// Deploys the first VPS plan under `key` with the operation envelope; returns the
/// operation's id and the deploy's path.
async fn deploy_with_a_receipt(c: &customer_cloud_sdk::Client, key: &str) -> (String, String) {
    let plan = c
        .get_products()
        .product_code(customer_cloud_sdk::catalog::GetProductsProductCode::Vps)
        .limit(1)
        .send()
        .await
        .expect("products")
        .into_body()
        .items
        .remove(0);
    let region = plan.region.clone().expect("region");
    let variant = plan.variant_code.clone().expect("variant");
    let receipt = c
        .product_variant_deploy(
            deployments::ProductVariantDeployArgs {
                region: region.clone(),
                product_code: customer_cloud_sdk::deployments::ProductVariantDeployProductCode::Vps,
                variant_code: variant.clone(),
            },
            deployments::ProductVariantDeployRequest::DeployRequest(
                deployments::DeployRequest::new().hostname("expiring.example.net".to_owned()),
            ),
        )
        .idempotency_key(key)
        .operation_format(true)
        .send()
        .await
        .expect("deploy")
        .into_body();
    let id = receipt.operation_id().expect("operation id");
    (id, format!("/v1/deploy/{region}/vps/{variant}"))
}

#[tokio::test]
async fn an_expired_receipt_is_410_operation_expired_for_polls_and_lookups() {
    let Some(env) = Env::sandbox_only("operation_expired", "a clock to move").await else {
        return;
    };
    let c = env.client();
    let (id, path) = deploy_with_a_receipt(&c, "expiry-deploy-0001").await;
    for _ in 0..3 {
        c.get_operations_by_operation_id(id.clone())
            .send()
            .await
            .expect("poll");
    }
    env.sb().advance_clock(DAY * 91);
    let e = c
        .get_operations_by_operation_id(id)
        .send()
        .await
        .expect_err("receipt expired");
    assert_eq!(
        (e.status(), e.code()),
        (Some(410), Some("operation_expired"))
    );
    let e = c
        .get_operations()
        .idempotency_key("expiry-deploy-0001")
        .method("POST")
        .path(path)
        .send()
        .await
        .expect_err("identity remains, receipt expired");
    assert_eq!(
        (e.status(), e.code()),
        (Some(410), Some("operation_expired"))
    );
    assert_eq!(
        env.sb().orders().len(),
        1,
        "polling never repeats the write"
    );
}

#[tokio::test]
async fn a_stored_answer_replays_for_24_hours_and_the_write_never_runs_twice() {
    let Some(env) = Env::sandbox_only("idempotency expiry", "a clock to move").await else {
        return;
    };
    let c = env.client();
    let zone = || dns::CreateDnsZoneRequest::new("expiry.example".to_owned());
    let key = "expiry-zone-0001";
    c.create_dns_zone(zone())
        .idempotency_key(key)
        .send()
        .await
        .expect("create");
    env.sb().advance_clock(DAY - Duration::from_secs(60));
    c.create_dns_zone(zone())
        .idempotency_key(key)
        .send()
        .await
        .expect("replayed within 24 h");
    env.sb().advance_clock(Duration::from_secs(120));
    let e = c
        .create_dns_zone(zone())
        .idempotency_key(key)
        .send()
        .await
        .expect_err("the stored answer expired");
    assert_eq!(
        (e.status(), e.code()),
        (Some(409), Some("idempotency_conflict"))
    );
    assert_eq!(env.sb().applied_writes(key), 1, "the write ran once");
    assert_eq!(env.sb().zones().len(), 1);
}

#[tokio::test]
async fn a_degraded_catalog_says_what_it_left_out() {
    let Some(env) = Env::sandbox_only("degraded catalog", "catalog health").await else {
        return;
    };
    let c = env.client();
    env.sb()
        .set_catalog_health(CatalogHealth::Degraded(vec!["dedicated".into()]));
    let page = c
        .get_products()
        .limit(100)
        .send()
        .await
        .expect("partial listing")
        .into_body();
    assert_eq!(page.partial, Some(true));
    assert_eq!(
        page.unavailable_types,
        Some(vec![serde_json::json!("dedicated")])
    );
    assert_eq!(page.availability, Some(serde_json::json!("unknown")));
    assert!(page.items.iter().all(|p| p.product_code
        != Some(customer_cloud_sdk::catalog::CatalogProductProductCode::Dedicated)));
    env.sb().set_catalog_health(CatalogHealth::Healthy);
    let page = c
        .get_products()
        .limit(100)
        .send()
        .await
        .expect("listing")
        .into_body();
    assert_eq!(page.partial, None);
}

#[tokio::test]
async fn an_unavailable_catalog_is_a_retried_503_never_an_empty_list() {
    let Some(env) = Env::sandbox_only("catalog outage", "catalog health").await else {
        return;
    };
    let c = env.client();
    env.sb().set_catalog_health(CatalogHealth::Unavailable);
    let e = c.get_regions().send().await.expect_err("outage");
    assert_eq!(
        (e.status(), e.code()),
        (Some(503), Some("catalog_unavailable"))
    );
    let tries = attempts(&env, "/v1/regions");
    println!("failure_modes: the SDK sent GET /v1/regions {tries} times before giving up");
    assert!(tries > 1, "a GET is retried with backoff after a 5xx");
    let e = c.get_dedicated_images().send().await.expect_err("outage");
    assert_eq!(e.code(), Some("dedicated_catalog_unavailable"));
}

#[tokio::test]
async fn a_502_after_the_commit_leaves_one_applied_write() {
    let Some(env) = Env::sandbox_only("proxy policy", "fault injection").await else {
        return;
    };
    let c = env.client();
    let sb = env.sb();
    let proxy = sb.service_of_kind("tcp-proxy").expect("a tcp proxy").id;
    let fault = Fault::ErrorAfterCommit {
        status: 502,
        code: "proxy_policy_unavailable".into(),
    };
    sb.inject(fault, Matcher::key("proxy-update-0001"), 1);
    let update = tcp_proxy::TcpProxyUpdateRequest::new()
        .blocked_source_cidrs(vec!["203.0.113.0/24".to_owned()]);
    let first = c
        .tcp_proxy_update(proxy, update.clone())
        .idempotency_key("proxy-update-0001")
        .send()
        .await;
    match &first {
        Ok(_) => println!("failure_modes: the SDK resent the write and got its stored answer"),
        Err(e) => assert_eq!(
            (e.status(), e.code()),
            (Some(502), Some("proxy_policy_unavailable"))
        ),
    }
    // The caller's move after "state may be unknown": the same key and body again.
    c.tcp_proxy_update(proxy, update)
        .idempotency_key("proxy-update-0001")
        .send()
        .await
        .expect("the stored answer");
    assert_eq!(
        sb.applied_writes("proxy-update-0001"),
        1,
        "applied exactly once"
    );
}

#[tokio::test]
async fn an_answer_the_contract_does_not_document_is_a_loud_sandbox_bug() {
    let Some(env) = Env::sandbox_only("response check", "fault injection").await else {
        return;
    };
    let c = env.client();
    let sb = env.sb();
    // `catalog_unavailable` is not a documented answer of the SSH key import.
    let fault = Fault::Error {
        status: 503,
        code: "catalog_unavailable".into(),
    };
    sb.inject(fault, Matcher::new("POST", "/v1/ssh/keys"), 100);
    let e = c
        .ssh_key_import(customer_cloud_sdk::ssh::SshKeyImportRequest::new(
            customer_cloud_sdk::ssh::SshKeyImportRequestArgs {
                name: "k".to_owned(),
                public_key:
                    "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl"
                        .to_owned(),
            },
        ))
        .idempotency_key("undocumented-0001")
        .send()
        .await
        .expect_err("a sandbox bug");
    assert_eq!(e.status(), Some(500));
    let violations = std::mem::take(&mut sb.shared().journal().schema_violations);
    assert!(!violations.is_empty());
    assert!(violations[0].1.contains("x-error-codes"), "{violations:?}");
    assert!(
        violations.iter().all(|(op, _)| op == "sshKeyImport"),
        "{violations:?}"
    );
    sb.clear_faults();
}

#[tokio::test]
async fn service_changed_retry_is_left_to_the_caller_who_resends_the_same_request() {
    let Some(env) = Env::sandbox_only("service_changed_retry", "fault injection").await else {
        return;
    };
    let c = env.client();
    let sb = env.sb();
    let vps = sb.service_of_kind("vps").expect("a vps").id;
    let key = "renewal-changed-0001";
    let fault = Fault::Error {
        status: 409,
        code: "service_changed_retry".into(),
    };
    sb.inject(fault, Matcher::key(key), 1);
    let cycle = customer_cloud_sdk::services::BillingCycleCheckoutRequest::new(
        customer_cloud_sdk::services::BillingCycleCheckoutRequestArgs {
            count: 1,
            unit: "MONTH".to_owned(),
        },
    );
    let e = c
        .service_renewal_checkout(vps, cycle.clone())
        .idempotency_key(key)
        .send()
        .await
        .expect_err("the service changed");
    assert_eq!(
        (e.status(), e.code()),
        (Some(409), Some("service_changed_retry"))
    );
    assert!(
        e.is_retryable(),
        "the contract marks it a caller retry (x-retry-codes)"
    );
    let path = format!("/v1/services/{vps}/renewal/checkout");
    assert_eq!(
        attempts(&env, &path),
        1,
        "the SDK leaves the retry to the caller"
    );
    // Reload and retry with the same key and body (reference part 7).
    let renewed = c
        .service_renewal_checkout(vps, cycle)
        .idempotency_key(key)
        .send()
        .await
        .expect("the retry renews")
        .into_body();
    assert_eq!(
        renewed.applied,
        Some(serde_json::json!(true)),
        "paid from balance"
    );
    assert_eq!(sb.applied_writes(key), 1);
}

#[tokio::test]
async fn order_options_unavailable_commits_no_dedicated_order() {
    let Some(env) = Env::sandbox_only("order_options_unavailable", "fault injection").await else {
        return;
    };
    let c = env.client();
    let sb = env.sb();
    let image = c
        .get_dedicated_images()
        .limit(1)
        .send()
        .await
        .expect("images")
        .into_body();
    let image = &image.items[0];
    let text = |v: Option<&serde_json::Value>| v.and_then(|v| v.as_str()).expect("text").to_owned();
    let request = customer_cloud_sdk::dedicated_servers::DedicatedDeployRequest::new(
        customer_cloud_sdk::dedicated_servers::DedicatedDeployRequestArgs {
            configuration_code: text(image.configuration_code.as_ref()),
            hostname: "dedi-options.example.net".to_owned(),
            os_profile_id: image.id.expect("image id"),
            region_code: text(image.region.as_ref()),
        },
    );
    let fault = Fault::Error {
        status: 503,
        code: "order_options_unavailable".into(),
    };
    sb.inject(
        fault,
        Matcher::new("POST", "/v1/dedicated/deployments"),
        100,
    );
    let e = c
        .dedicated_deploy(request)
        .idempotency_key("dedi-options-0001")
        .send()
        .await
        .expect_err("options could not be checked");
    println!("failure_modes: order_options_unavailable -> {e}");
    assert_eq!(e.status(), Some(503));
    assert!(
        sb.orders().is_empty() && sb.invoices().is_empty(),
        "nothing committed"
    );
    sb.clear_faults();
}
