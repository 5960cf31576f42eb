//! Authentication tests: missing/invalid credentials, modes, status, scopes, IP policy,
//! signature verification, nonce replay, request ids and RateLimit headers.

mod common;

use cloud_sandbox::Credential;
use common::Env;
use serde_json::json;

#[tokio::test]
async fn missing_and_invalid_credentials_are_unauthorized() {
    let env = Env::new().await;
    let r = env
        .send(None, "GET", "/v1/billing/services", None, &[])
        .await;
    assert_eq!(r.status, 401);
    assert_eq!(r.code(), "unauthorized");
    assert_eq!(r.body["ok"], false);
    assert_eq!(r.body["code"], "unauthorized", "legacy flat field");
    assert_eq!(
        r.header("x-request-id").unwrap(),
        r.body["error"]["request_id"].as_str().unwrap()
    );
    let r = env
        .send(
            None,
            "GET",
            "/v1/billing/services",
            None,
            &[("authorization", "Bearer sbx_bearer.wrong")],
        )
        .await;
    assert_eq!(r.code(), "unauthorized");
    let creds = env.sb.credentials().clone();
    for c in [&creds.disabled, &creds.expired] {
        let r = env
            .send(Some(c), "GET", "/v1/billing/services", None, &[])
            .await;
        assert_eq!((r.status, r.code()), (401, "unauthorized"), "{}", c.name);
    }
    // A signed credential cannot be used as bearer.
    let token = format!("Bearer {}", creds.signed.bearer_token());
    let r = env
        .send(
            None,
            "GET",
            "/v1/billing/services",
            None,
            &[("authorization", &token)],
        )
        .await;
    assert_eq!(r.code(), "unauthorized");
}

#[tokio::test]
async fn scopes_and_ip_policy() {
    let env = Env::new().await;
    let creds = env.sb.credentials().clone();
    let r = env
        .send(
            Some(&creds.read_only),
            "GET",
            "/v1/billing/services",
            None,
            &[],
        )
        .await;
    assert_eq!(r.status, 200);
    let r = env
        .send(
            Some(&creds.read_only),
            "POST",
            "/v1/deploy/DE/vps/vps-s",
            Some(&json!({})),
            &[("idempotency-key", "key-scope-1")],
        )
        .await;
    assert_eq!((r.status, r.code()), (403, "scope_denied"));
    let r = env
        .send(
            Some(&creds.ip_blocked),
            "GET",
            "/v1/billing/services",
            None,
            &[],
        )
        .await;
    assert_eq!((r.status, r.code()), (403, "ip_blocked"));
    let r = env
        .send(
            Some(&creds.loopback_only),
            "GET",
            "/v1/billing/services",
            None,
            &[],
        )
        .await;
    assert_eq!(r.status, 200);
    assert!(r.header("ratelimit-limit").is_some());
    assert!(r.header("ratelimit-remaining").is_some());
    assert!(r.header("x-ratelimit-reset").is_some());
    assert!(r.header("x-request-id").is_some());
}

#[tokio::test]
async fn signed_requests_verify_body_hash_signature_and_nonce() {
    let env = Env::new().await;
    let c = env.sb.credentials().signed.clone();
    signed_requests_are_accepted(&env, &c).await;

    let url = format!("{}/v1/billing/services", env.sb.base_url());
    let headers = cloud_sandbox::auth::signed_headers(&c, "GET", "/v1/billing/services", b"");
    let send = |hs: Vec<(String, String)>| {
        let mut rb = env.http.get(&url);
        for (k, v) in hs {
            rb = rb.header(k, v);
        }
        rb.send()
    };
    // Replaying the same nonce is rejected.
    assert_eq!(send(headers.clone()).await.unwrap().status(), 200);
    let r = send(headers.clone()).await.unwrap();
    assert_eq!(r.status(), 401);
    assert_eq!(
        r.json::<serde_json::Value>().await.unwrap()["error"]["code"],
        "invalid_signature"
    );
    // A wrong signature, a wrong body hash, a stale timestamp, a short nonce.
    for (name, value) in [
        (
            "x-signature",
            "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=",
        ),
        (
            "x-content-sha256",
            "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=",
        ),
        ("x-ts", "1000"),
        ("x-nonce", "short"),
    ] {
        let mut hs = cloud_sandbox::auth::signed_headers(&c, "GET", "/v1/billing/services", b"");
        for h in hs.iter_mut().filter(|(k, _)| k == name) {
            h.1 = value.to_owned();
        }
        let r = send(hs).await.unwrap();
        assert_eq!(r.status(), 401, "{name}");
        assert_eq!(
            r.json::<serde_json::Value>().await.unwrap()["error"]["code"],
            "invalid_signature",
            "{name}"
        );
    }
    // Signing another path than the one sent fails.
    let hs = cloud_sandbox::auth::signed_headers(&c, "GET", "/v1/billing/services?limit=1", b"");
    assert_eq!(send(hs).await.unwrap().status(), 401);
}

/// A signed GET and a signed POST with a body, as the credential `c` signs them, are answered.
async fn signed_requests_are_accepted(env: &Env, c: &Credential) {
    let r = env
        .send(Some(c), "GET", "/v1/billing/services?limit=5", None, &[])
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    let body = json!({"billing_cycle": "monthly"});
    let r = env
        .send(
            Some(c),
            "POST",
            "/v1/deploy/DE/vps/vps-s",
            Some(&body),
            &[("idempotency-key", "signed-deploy-1")],
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
}

#[tokio::test]
async fn rate_limit_answers_429_with_retry_after() {
    let env = Env::new().await;
    env.sb
        .set_rate_limit(Some((3, std::time::Duration::from_secs(30))));
    for _ in 0..3 {
        assert_eq!(
            env.bearer("GET", "/v1/regions", None, &[]).await.status,
            200
        );
    }
    let r = env.bearer("GET", "/v1/regions", None, &[]).await;
    assert_eq!((r.status, r.code()), (429, "rate_limited"));
    assert!(r.header("retry-after").is_some());
    assert_eq!(r.header("ratelimit-remaining"), Some("0"));
}
