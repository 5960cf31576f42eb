//! Atomic deployment exactly-once, 402 and 409 outcomes, idempotency replay/conflict/in-progress,
//! partial invoice payment, draft orders and dedicated deployments.

mod common;

use std::time::Duration;

use cloud_sandbox::{Fault, Matcher, OpStatus};
use common::{Answer, Env};
use rust_decimal::Decimal;
use serde_json::json;

const DEPLOY: &str = "/v1/deploy/DE/vps/vps-s";

#[tokio::test]
async fn atomic_deploy_debits_exactly_once_and_replays() {
    let env = Env::new().await;
    let before = env.sb.balance();
    let body = json!({"billing_cycle": "monthly", "hostname": "web-1.example.com"});
    let a = env
        .keyed("POST", DEPLOY, Some(&body), "deploy-once-1")
        .await;
    assert_eq!(a.status, 200, "{}", a.text);
    assert!(
        a.body["actionId"].is_string() && a.body["operation_url"].is_string(),
        "{}",
        a.text
    );
    let b = env
        .keyed("POST", DEPLOY, Some(&body), "deploy-once-1")
        .await;
    assert_eq!(b.status, 200);
    assert_eq!(a.body, b.body, "replay is identical");
    assert_eq!(b.header("idempotent-replayed"), Some("true"));
    assert_eq!(env.sb.applied_writes("deploy-once-1"), 1);
    assert_eq!(env.sb.orders().len(), 1);
    assert_eq!(env.sb.debits().len(), 1);
    assert_eq!(env.sb.balance(), before - env.sb.orders()[0].total);
    // Different request under the same key.
    let c = env
        .keyed(
            "POST",
            DEPLOY,
            Some(&json!({"billing_cycle": "annually"})),
            "deploy-once-1",
        )
        .await;
    assert_eq!((c.status, c.code()), (409, "idempotency_conflict"));
    assert_eq!(env.sb.orders().len(), 1);
}

#[tokio::test]
async fn deploy_402_and_409_commit_nothing() {
    let env = Env::new().await;
    env.sb.set_balance(Decimal::new(100, 2));
    let r = env
        .keyed("POST", DEPLOY, Some(&json!({})), "deploy-poor-1")
        .await;
    assert_eq!((r.status, r.code()), (402, "insufficient_credit"));
    assert!(
        env.sb.orders().is_empty()
            && env.sb.invoices().iter().all(|i| i.status != "paid")
            && env.sb.debits().is_empty()
    );
    assert_eq!(env.sb.balance(), Decimal::new(100, 2));
    env.sb.set_balance(Decimal::new(100_000, 2));
    let r = env
        .keyed(
            "POST",
            DEPLOY,
            Some(&json!({"max_total": "1.00"})),
            "deploy-max-1",
        )
        .await;
    assert_eq!(
        (r.status, r.code()),
        (409, "deployment_price_limit_exceeded"),
        "{}",
        r.text
    );
    let legacy = json!({"billing": {"unit": "MONTH", "count": 1}, "maxTotal": "1.00"});
    let r = env
        .keyed("POST", DEPLOY, Some(&legacy), "deploy-max-2")
        .await;
    assert_eq!(
        (r.status, r.code()),
        (409, "deployment_price_limit_exceeded"),
        "{}",
        r.text
    );
    assert!(env.sb.orders().is_empty() && env.sb.debits().is_empty());
    // After a 402 the key is released: the same request can succeed later.
    let r = env
        .keyed("POST", DEPLOY, Some(&json!({})), "deploy-poor-1")
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    let legacy_ok = json!({"billing": {"unit": "MONTH", "count": 1}, "maxTotal": "9999.99"});
    let r = env
        .keyed("POST", DEPLOY, Some(&legacy_ok), "deploy-legacy-1")
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(env.sb.debits().len(), 2);
}

#[tokio::test]
async fn validation_and_idempotency_key_errors() {
    let env = Env::new().await;
    let r = env
        .keyed("POST", DEPLOY, Some(&json!({"bogus": 1})), "deploy-val-1")
        .await;
    assert_eq!(
        (r.status, r.code()),
        (400, "validation_error"),
        "{}",
        r.text
    );
    assert!(
        !r.body["error"]["field_errors"]
            .as_array()
            .unwrap()
            .is_empty()
    );
    let r = env
        .keyed(
            "POST",
            DEPLOY,
            Some(&json!({"additional_ips": 101})),
            "deploy-val-2",
        )
        .await;
    assert_eq!(r.code(), "validation_error");
    let r = env.bearer("POST", DEPLOY, Some(&json!({})), &[]).await;
    assert_eq!((r.status, r.code()), (400, "idempotency_key_required"));
    let r = env
        .keyed("POST", DEPLOY, Some(&json!({})), "bad key!")
        .await;
    assert_eq!((r.status, r.code()), (400, "invalid_idempotency_key"));
    let r = env
        .bearer(
            "GET",
            "/v1/regions",
            None,
            &[("x-client-request-id", "-bad")],
        )
        .await;
    assert_eq!((r.status, r.code()), (400, "validation_error"));
    let r = env
        .bearer(
            "GET",
            "/v1/regions",
            None,
            &[("x-client-request-id", "trace-1:a.b_c")],
        )
        .await;
    assert_eq!(r.status, 200);
    assert!(env.sb.orders().is_empty());
}

#[tokio::test]
async fn in_flight_key_answers_in_progress() {
    let env = Env::new().await;
    env.sb.inject(
        Fault::Delay(Duration::from_millis(600)),
        Matcher::new("POST", "/v1/deploy/"),
        1,
    );
    let body = json!({});
    let first = env.keyed("POST", DEPLOY, Some(&body), "deploy-slow-1");
    let second = async {
        tokio::time::sleep(Duration::from_millis(200)).await;
        env.keyed("POST", DEPLOY, Some(&body), "deploy-slow-1")
            .await
    };
    let (a, b) = tokio::join!(first, second);
    assert_eq!(a.status, 200);
    assert_eq!((b.status, b.code()), (409, "idempotency_in_progress"));
    assert!(b.header("retry-after").is_some());
    assert_eq!(env.sb.applied_writes("deploy-slow-1"), 1);
}

#[tokio::test]
async fn operation_envelope_polling_and_lookup() {
    let env = Env::new().await;
    let h = [
        ("idempotency-key", "deploy-op-1"),
        ("x-svc-response-format", "operation"),
    ];
    let r = env.bearer("POST", DEPLOY, Some(&json!({})), &h).await;
    assert_eq!(r.status, 200, "{}", r.text);
    let op = &r.body["operation"];
    assert_eq!(op["status"], "pending");
    assert_eq!(op["done"], false);
    let id = op["id"].as_str().unwrap().to_owned();
    // A cached retry keeps its initial format even without the header.
    let again = env
        .keyed("POST", DEPLOY, Some(&json!({})), "deploy-op-1")
        .await;
    assert_eq!(again.body["operation"]["id"], id.as_str());
    let p1 = env.get(&format!("/v1/operations/{id}")).await;
    assert_eq!(p1.body["operation"]["status"], "running");
    let p2 = env.get(&format!("/v1/operations/{id}")).await;
    assert_eq!(p2.body["operation"]["status"], "succeeded");
    assert_eq!(p2.body["operation"]["done"], true);
    assert_eq!(
        p2.body["operation"]["result"]["service_ids"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
    lookups(&env, &id).await;
    forced_failure(&env).await;
}

/// Operations looked up by idempotency key (and method and path): found, missing, asked
/// wrongly, ambiguous once the key is used on another path.
async fn lookups(env: &Env, id: &str) {
    let l = env.get("/v1/operations?idempotency_key=deploy-op-1").await;
    assert_eq!(l.body["operation"]["id"], id, "{}", l.text);
    let l = env
        .get(&format!(
            "/v1/operations?idempotency_key=deploy-op-1&method=POST&path={DEPLOY}"
        ))
        .await;
    assert_eq!(l.status, 200);
    let l = env
        .get("/v1/operations?idempotency_key=deploy-none-1")
        .await;
    assert_eq!((l.status, l.code()), (404, "operation_not_found"));
    let l = env
        .get("/v1/operations?idempotency_key=deploy-op-1&method=POST")
        .await;
    assert_eq!((l.status, l.code()), (400, "validation_error"));
    // Same key on another path → ambiguous lookup.
    let r = env
        .keyed(
            "POST",
            "/v1/deploy/NL/vps/vps-s",
            Some(&json!({})),
            "deploy-op-1",
        )
        .await;
    assert_eq!(r.status, 200);
    let l = env.get("/v1/operations?idempotency_key=deploy-op-1").await;
    assert_eq!((l.status, l.code()), (409, "operation_lookup_ambiguous"));
}

/// A forced failed outcome: the operation ends failed, without a result, for good.
async fn forced_failure(env: &Env) {
    env.sb.set_operation_outcome(OpStatus::Failed);
    let r = env
        .bearer(
            "POST",
            DEPLOY,
            Some(&json!({})),
            &[
                ("idempotency-key", "deploy-op-2"),
                ("x-svc-response-format", "operation"),
            ],
        )
        .await;
    let id2 = r.body["operation"]["id"].as_str().unwrap().to_owned();
    env.get(&format!("/v1/operations/{id2}")).await;
    let p = env.get(&format!("/v1/operations/{id2}")).await;
    assert_eq!(p.body["operation"]["status"], "failed");
    assert!(p.body["operation"].get("result").is_none());
    assert!(
        !env.sb.set_operation_status(&id2, OpStatus::Succeeded),
        "terminal receipts are immutable"
    );
}

#[tokio::test]
async fn partial_invoice_payment_then_full() {
    let env = Env::new().await;
    let inv = env.sb.add_unpaid_invoice(Decimal::new(5000, 2));
    env.sb.set_balance(Decimal::new(3000, 2));
    let path = format!("/v1/billing/invoices/{inv}/pay");
    let r = env.keyed("POST", &path, None, "pay-part-1").await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.body["paidNow"], "30.00");
    assert_eq!(r.body["partial"], true);
    assert_eq!(r.body["fullyPaid"], false);
    assert_eq!(r.body["remaining"], "20.00");
    assert_eq!(r.body["status"], "unpaid");
    assert_eq!(env.sb.balance(), Decimal::ZERO);
    env.sb.set_balance(Decimal::new(10_000, 2));
    let r = env.keyed("POST", &path, None, "pay-part-2").await;
    assert_eq!(r.body["paidNow"], "20.00");
    assert_eq!(r.body["fullyPaid"], true);
    assert_eq!(r.body["status"], "paid");
    assert_eq!(env.sb.balance(), Decimal::new(8000, 2));
    let r = env
        .keyed(
            "POST",
            "/v1/billing/invoices/00000000-0000-4000-8000-000000000000/pay",
            None,
            "pay-none-1",
        )
        .await;
    assert_eq!((r.status, r.code()), (404, "not_found"));
}

#[tokio::test]
async fn draft_orders_and_dedicated_deployments_never_charge() {
    let env = Env::new().await;
    let before = env.sb.balance();
    let products = env.get("/v1/products?product_code=vps&limit=1").await;
    let p = &products.body["items"][0];
    let body = json!({"currency": "EUR", "items": [{"product_id": p["product_id"], "variant_id": p["variant_id"], "qty": 2}]});
    let r = env
        .keyed(
            "POST",
            "/v1/billing/orders/draft",
            Some(&body),
            "draft-one-1",
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    let dd = json!({"configuration_code": "dedi-e3-de", "region_code": "DE", "os_profile_id": 101, "hostname": "db-1.example.com"});
    let r = env
        .keyed("POST", "/v1/dedicated/deployments", Some(&dd), "dedi-one-1")
        .await;
    assert_eq!(r.status, 201, "{}", r.text);
    assert_eq!(r.body["status"], "unpaid");
    assert_eq!(env.sb.balance(), before);
    assert!(env.sb.debits().is_empty());
    assert_eq!(
        env.sb
            .invoices()
            .iter()
            .filter(|i| i.status == "unpaid")
            .count(),
        2
    );
    paying_creates_the_services(&env, &r).await;
}

/// Paying the dedicated deployment's invoice (`dedicated` answered the deployment) creates its
/// service; paying the draft order's, one service per ordered unit.
async fn paying_creates_the_services(env: &Env, dedicated: &Answer) {
    // Paying the dedicated invoice creates the service.
    let inv = dedicated.body["invoiceId"].as_str().unwrap();
    let r = pay(env, inv, "dedi-pay-1").await;
    assert_eq!(r.body["fullyPaid"], true, "{}", r.text);
    assert_eq!(
        r.body["meta"]["createdServiceIds"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
    // Paying the draft's invoice provisions one service per ordered unit.
    let draft_invoice = env
        .sb
        .orders()
        .iter()
        .find(|o| o.idempotency_key.as_deref() == Some("draft-one-1"))
        .and_then(|o| o.invoice_id)
        .unwrap();
    let r = pay(env, draft_invoice, "draft-pay-1").await;
    assert_eq!(r.body["fullyPaid"], true, "{}", r.text);
    let created = r.body["meta"]["createdServiceIds"].as_array().unwrap();
    assert_eq!(created.len(), 2);
    let services = env.sb.services();
    for id in created {
        let s = services
            .iter()
            .find(|s| s.id.to_string() == id.as_str().unwrap())
            .unwrap();
        assert_eq!((s.kind.as_str(), s.status.as_str()), ("vps", "active"));
    }
}

/// Pays `invoice` under the idempotency key `key`.
async fn pay(env: &Env, invoice: impl std::fmt::Display, key: &str) -> Answer {
    let path = format!("/v1/billing/invoices/{invoice}/pay");
    env.keyed("POST", &path, None, key).await
}
