//! Stateful resources beyond billing: credentials (secret once), DNS zones, DNSSEC progress,
//! dedicated password-reset tasks, VPS writes as operations, TCP proxy reads.

mod common;

use common::Env;
use serde_json::json;

#[tokio::test]
async fn credential_creation_returns_secret_once_and_the_new_key_works() {
    let env = Env::new().await;
    let body = json!({"name": "ci", "scopes": ["billing.services.read"], "mode": "bearer"});
    let r = env
        .bearer(
            "POST",
            "/v1/api-credentials",
            Some(&body),
            &[("idempotency-key", "cred-create-1")],
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.text);
    let secret = r.body["secret"].as_str().unwrap();
    let prefix = r.body["item"]["prefix"].as_str().unwrap();
    let token = format!("Bearer {prefix}.{secret}");
    let ok = env
        .send(
            None,
            "GET",
            "/v1/billing/services",
            None,
            &[("authorization", &token)],
        )
        .await;
    assert_eq!(ok.status, 200);
    let denied = env
        .send(
            None,
            "GET",
            "/v1/billing/transactions",
            None,
            &[("authorization", &token)],
        )
        .await;
    assert_eq!(denied.code(), "scope_denied");
    let id = r.body["item"]["id"].as_str().unwrap();
    let read = env
        .bearer("GET", &format!("/v1/api-credentials/{id}"), None, &[])
        .await;
    assert!(read.body.get("secret").is_none() && read.body["item"].get("secret").is_none());
    let bad = json!({"name": "x", "scopes": ["not.a.scope"]});
    let r = env
        .bearer(
            "POST",
            "/v1/api-credentials",
            Some(&bad),
            &[("idempotency-key", "cred-create-2")],
        )
        .await;
    assert_eq!(r.code(), "validation_error");
}

#[tokio::test]
async fn dns_zones_and_dnssec_progress() {
    let env = Env::new().await;
    let zone = json!({"name": "example.org", "records": [{"name": "www", "type": "A", "ttl": 300, "values": ["192.0.2.1"]}]});
    let r = env
        .bearer(
            "POST",
            "/v1/dns/zones",
            Some(&zone),
            &[("idempotency-key", "zone-create-1")],
        )
        .await;
    assert!(r.status < 300, "{}", r.text);
    let again = env
        .bearer(
            "POST",
            "/v1/dns/zones",
            Some(&zone),
            &[("idempotency-key", "zone-create-2")],
        )
        .await;
    assert_eq!(again.status, 400, "existing zones are never overwritten");
    assert_eq!(again.body["error"]["code"], "validation_error");
    assert_eq!(env.sb.zones().len(), 1);
    let both = json!({"name": "example.net", "zone_file": "x", "records": []});
    let r = env
        .bearer(
            "POST",
            "/v1/dns/zones",
            Some(&both),
            &[("idempotency-key", "zone-create-3")],
        )
        .await;
    assert_eq!(r.code(), "validation_error", "{}", r.text);
    let list = env
        .bearer("GET", "/v1/dns/zones?view=summary&limit=10", None, &[])
        .await;
    assert_eq!(list.body["total"], 1);
    let domain = env.sb.service_of_kind("domain").unwrap();
    let p = format!("/v1/domains/{}/dnssec", domain.hostname);
    let r = env
        .bearer(
            "POST",
            &p,
            Some(&json!({"acknowledge": true})),
            &[("idempotency-key", "dnssec-on-1")],
        )
        .await;
    assert_eq!(r.status, 202, "{}", r.text);
    let states: Vec<String> = dnssec_states(&env, &p).await;
    assert_eq!(states, ["configuring", "active", "active"]);
}

async fn dnssec_states(env: &Env, p: &str) -> Vec<String> {
    let mut out = Vec::new();
    for _ in 0..3 {
        let r = env.bearer("GET", p, None, &[]).await;
        out.push(r.body["state"].as_str().unwrap().to_owned());
    }
    out
}

#[tokio::test]
async fn dedicated_password_reset_task_completes_on_polls() {
    let env = Env::new().await;
    let sid = env.sb.service_of_kind("dedicated").unwrap().id;
    let r = env
        .bearer(
            "POST",
            &format!("/v1/dedicated/{sid}/password-reset"),
            None,
            &[("idempotency-key", "pw-reset-1")],
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    let tid = r.body["task"]["id"].as_str().unwrap().to_owned();
    assert_eq!(r.body["task"]["status"], "in_progress");
    let path = format!("/v1/dedicated/{sid}/tasks/{tid}");
    assert_eq!(
        env.bearer("GET", &path, None, &[]).await.body["task"]["status"],
        "in_progress"
    );
    assert_eq!(
        env.bearer("GET", &path, None, &[]).await.body["task"]["status"],
        "completed"
    );
    let list = env
        .bearer("GET", &format!("/v1/dedicated/{sid}/tasks"), None, &[])
        .await;
    assert_eq!(list.body["tasks"].as_array().unwrap().len(), 1);
}

#[tokio::test]
async fn vps_writes_are_operations_and_unknown_services_are_not_found() {
    let env = Env::new().await;
    let vps = env.sb.service_of_kind("vps").unwrap().id;
    let r = env
        .bearer(
            "POST",
            &format!("/v1/vps/{vps}/reboot"),
            None,
            &[("x-svc-response-format", "operation")],
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.body["operation"]["status"], "pending");
    let r = env
        .bearer(
            "POST",
            &format!("/v1/vps/{vps}/backup/restore"),
            Some(&json!({"auto_start": true})),
            &[("idempotency-key", "restore-1")],
        )
        .await;
    assert!(r.body["actionId"].is_string(), "{}", r.text);
    let tcp = env.sb.service_of_kind("tcp-proxy").unwrap().id;
    let r = env
        .bearer("GET", &format!("/v1/tcp-proxy/{tcp}"), None, &[])
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    let r = env
        .bearer(
            "GET",
            "/v1/tcp-proxy/00000000-0000-4000-8000-000000000000",
            None,
            &[],
        )
        .await;
    assert_eq!(r.code(), "not_found");
}
