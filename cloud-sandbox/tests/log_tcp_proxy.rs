//! The request log (operation ids, statuses, Retry-After, faults) and the stateful TCP proxy
//! (supplied arrays replace, omitted fields stay, non-TCP services read as null).

mod common;

use cloud_sandbox::{Fault, Matcher};
use common::Env;
use serde_json::json;

#[tokio::test]
async fn request_log_records_operation_status_and_faults() {
    let env = Env::new().await;
    env.sb.inject(
        Fault::RateLimited { retry_after: 2 },
        Matcher::new("GET", "/v1/regions"),
        1,
    );
    let r = env.bearer("GET", "/v1/regions", None, &[]).await;
    assert_eq!(r.status, 429);
    let r = env
        .bearer(
            "GET",
            "/v1/regions?limit=2",
            None,
            &[("x-client-request-id", "log-1")],
        )
        .await;
    assert_eq!(r.status, 200);
    let r = env.bearer("GET", "/v1/no-such-route", None, &[]).await;
    assert_eq!(r.status, 404);
    let log = env.sb.requests();
    assert_eq!(log.len(), 3);
    assert_eq!(log[0].status, 429);
    assert_eq!(log[0].retry_after, Some(2));
    assert_eq!(log[0].fault, Some(Fault::RateLimited { retry_after: 2 }));
    assert_eq!(log[1].operation_id.as_deref(), Some("getRegions"));
    assert_eq!(log[1].query, "limit=2");
    assert_eq!(log[1].client_request_id.as_deref(), Some("log-1"));
    assert_eq!(log[1].credential_id, Some(env.sb.credentials().bearer.id));
    assert!(log[1].responded_at.unwrap() >= log[1].received_at);
    assert_eq!(log[2].operation_id, None);
    assert_eq!(env.sb.covered_operations(), vec!["getRegions".to_owned()]);
    assert_eq!(env.sb.spec_operations().len(), 52);
    env.sb.clear_requests();
    assert!(env.sb.requests().is_empty());
}

#[tokio::test]
async fn key_matcher_hits_the_write_and_its_lookup_only() {
    let env = Env::new().await;
    env.sb
        .inject(Fault::Status(503), Matcher::key("zone-key-0001"), 2);
    let body = json!({"name": "other.example"});
    let r = env
        .bearer(
            "POST",
            "/v1/dns/zones",
            Some(&body),
            &[("idempotency-key", "zone-key-0002")],
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    let body = json!({"name": "keyed.example"});
    let r = env
        .bearer(
            "POST",
            "/v1/dns/zones",
            Some(&body),
            &[("idempotency-key", "zone-key-0001")],
        )
        .await;
    assert_eq!(r.status, 503);
    let r = env
        .bearer(
            "GET",
            "/v1/operations?idempotency_key=zone-key-0001&method=POST&path=%2Fv1%2Fdns%2Fzones",
            None,
            &[],
        )
        .await;
    assert_eq!(r.status, 503);
    let r = env
        .bearer(
            "POST",
            "/v1/dns/zones",
            Some(&body),
            &[("idempotency-key", "zone-key-0001")],
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(env.sb.applied_writes("zone-key-0001"), 1);
    assert_eq!(env.sb.injected_faults().len(), 2);
}

#[tokio::test]
async fn tcp_proxy_update_replaces_supplied_arrays_and_keeps_the_rest() {
    let env = Env::new().await;
    let proxy = env.sb.service_of_kind("tcp-proxy").unwrap();
    let path = format!("/v1/tcp-proxy/{}", proxy.id);
    let before = env.bearer("GET", &path, None, &[]).await;
    assert_eq!(before.status, 200, "{}", before.text);
    let before = before.body["tcpProxy"].clone();
    assert_eq!(
        before["ports"],
        json!([{"listen": 25565, "backend": 25565}])
    );

    let patch = json!({
        "ports": [8080, {"listen": 9000, "backend": 9001, "proxy_protocol_v2": true}],
        "allowed_source_cidrs": ["198.51.100.0/24"],
    });
    let r = env
        .bearer(
            "PATCH",
            &path,
            Some(&patch),
            &[("idempotency-key", "tcp-update-1")],
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    let after = env.bearer("GET", &path, None, &[]).await.body["tcpProxy"].clone();
    assert_eq!(
        after["ports"],
        json!([{"listen": 8080, "backend": 8080}, {"listen": 9000, "backend": 9001}])
    );
    assert_eq!(after["allowedSourceCidrs"], json!(["198.51.100.0/24"]));
    for unchanged in [
        "backendIp",
        "blockedSourceCidrs",
        "countryPolicy",
        "proxyIp",
        "status",
    ] {
        assert_eq!(after[unchanged], before[unchanged], "{unchanged}");
    }

    let too_many = json!({"ports": [1, 2, 3, 4, 5, 6]});
    let r = env
        .bearer(
            "PATCH",
            &path,
            Some(&too_many),
            &[("idempotency-key", "tcp-update-2")],
        )
        .await;
    assert_eq!(r.status, 400);
    assert_eq!(r.code(), "validation_error");

    let vps = env.sb.service_of_kind("vps").unwrap();
    let r = env
        .bearer("GET", &format!("/v1/tcp-proxy/{}", vps.id), None, &[])
        .await;
    assert_eq!(r.status, 200);
    assert!(r.body["tcpProxy"].is_null());
}
