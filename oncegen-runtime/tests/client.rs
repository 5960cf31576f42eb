//! I/O paths against a local HTTP server: what is sent on the wire, retries, reconciliation.

use std::time::Duration;

use oncegen_runtime::signing::{
    SigningInput, canonical_string, content_sha256, hmac_sha256_base64,
};
use oncegen_runtime::{
    CallOptions, Client, Config, Error, Method, Reconciliation, Request, RetryPolicy,
};
use serde_json::{Value, json};
use wiremock::matchers::{method, path, query_param};
use wiremock::{Mock, MockServer, ResponseTemplate};

mod common;

use common::*;

#[tokio::test]
async fn bearer_get_decodes_and_exposes_meta() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/v1/things"))
        .and(query_param("limit", "10"))
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_json(json!({"ok": true, "items": [1, 2]}))
                .insert_header("x-request-id", "req-1")
                .insert_header("RateLimit-Limit", "100")
                .insert_header("RateLimit-Remaining", "99")
                .insert_header("RateLimit-Reset", "30")
                .insert_header("X-RateLimit-Reset", "1700000000"),
        )
        .expect(1)
        .mount(&server)
        .await;
    let client = Client::new(config(&server).bearer("pfx.sekret")).unwrap();
    let mut req = Request::new(&LIST);
    req.query("limit", &10);
    let mut options = CallOptions::new();
    options.set_client_request_id("trace-1");
    let resp = client.execute::<Value>(req, options).await.unwrap();
    assert_eq!(resp.status(), 200);
    assert_eq!(resp.body()["items"][1], 2);
    let meta = resp.meta();
    assert_eq!(meta.request_id.as_deref(), Some("req-1"));
    assert_eq!(meta.rate_limit.limit, Some(100));
    assert_eq!(meta.rate_limit.remaining, Some(99));
    assert_eq!(meta.rate_limit.reset_seconds, Some(30));
    assert_eq!(meta.rate_limit.legacy_reset_unix, Some(1_700_000_000));
    assert_eq!(meta.idempotency_key, None);
    let sent = &server.received_requests().await.unwrap()[0];
    assert_eq!(header(sent, "authorization"), Some("Bearer pfx.sekret"));
    assert_eq!(header(sent, "x-client-request-id"), Some("trace-1"));
    assert!(
        header(sent, "user-agent")
            .unwrap()
            .contains("customer-cloud-sdk/9.9.9")
    );
    assert!(header(sent, "user-agent").unwrap().contains("2026-10-07.1"));
    assert!(header(sent, "idempotency-key").is_none());
    assert!(header(sent, "x-signature").is_none());
}

#[tokio::test]
async fn signed_write_is_verifiable_and_resigned_per_attempt() {
    let server = MockServer::start().await;
    answers(
        &server,
        "POST",
        ResponseTemplate::new(429).insert_header("Retry-After", "0"),
        1,
        ResponseTemplate::new(201).set_body_json(json!({"ok": true})),
    )
    .await;
    let client = Client::new(config(&server).signed("key-prefix", "the-secret")).unwrap();
    let resp = client
        .execute::<Value>(create_request(), with_key("fixed-key-123"))
        .await
        .unwrap();
    assert_eq!(
        resp.meta().idempotency_key.as_deref(),
        Some("fixed-key-123")
    );
    assert_eq!(resp.meta().attempts, 2);
    let sent = server.received_requests().await.unwrap();
    assert_eq!(sent.len(), 2);
    for r in &sent {
        assert_eq!(header(r, "x-api-key"), Some("key-prefix"));
        assert_eq!(header(r, "idempotency-key"), Some("fixed-key-123"));
        let hash = header(r, "x-content-sha256").unwrap();
        assert_eq!(hash, content_sha256(&r.body));
        let target = match r.url.query() {
            Some(q) => format!("{}?{q}", r.url.path()),
            None => r.url.path().to_owned(),
        };
        assert_eq!(target, "/v1/things/eu%20central");
        let input = SigningInput {
            method: r.method.as_str(),
            path_and_query: &target,
            timestamp: header(r, "x-ts").unwrap(),
            nonce: header(r, "x-nonce").unwrap(),
            content_sha256: hash,
            body: &r.body,
        };
        let expected = hmac_sha256_base64(b"the-secret", canonical_string(&input).as_bytes());
        assert_eq!(header(r, "x-signature"), Some(expected.as_str()));
        assert!(header(r, "authorization").is_none());
    }
    assert_eq!(
        sent[0].body, sent[1].body,
        "body bytes identical across attempts"
    );
    assert_ne!(
        header(&sent[0], "x-nonce"),
        header(&sent[1], "x-nonce"),
        "fresh nonce per attempt"
    );
}

#[tokio::test]
async fn bodyless_signed_request_hashes_empty_body() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .respond_with(ResponseTemplate::new(200))
        .mount(&server)
        .await;
    let client = Client::new(config(&server).signed("k", "s")).unwrap();
    let resp = client
        .execute::<Value>(Request::new(&LIST), CallOptions::new())
        .await
        .unwrap();
    assert_eq!(*resp.body(), Value::Null, "empty body reads as null");
    let sent = &server.received_requests().await.unwrap()[0];
    assert_eq!(
        header(sent, "x-content-sha256"),
        Some(content_sha256(b"").as_str())
    );
}

#[tokio::test]
async fn generated_key_is_valid_and_stable_across_retries() {
    let server = MockServer::start().await;
    let in_progress = ResponseTemplate::new(409)
        .insert_header("Retry-After", "0")
        .set_body_json(
            json!({"ok": false, "error": {"code": "idempotency_in_progress", "message": "wait"}}),
        );
    let ok = ResponseTemplate::new(200).set_body_json(json!({"ok": true}));
    answers(&server, "POST", in_progress, 2, ok).await;
    let client = Client::new(config(&server)).unwrap();
    let resp = client
        .execute::<Value>(create_request(), CallOptions::new())
        .await
        .unwrap();
    let key = resp.meta().idempotency_key.clone().unwrap();
    assert!(oncegen_runtime::idempotency::is_valid_idempotency_key(&key));
    let sent = server.received_requests().await.unwrap();
    assert_eq!(sent.len(), 3);
    for r in &sent {
        assert_eq!(header(r, "idempotency-key"), Some(key.as_str()));
        assert_eq!(r.body, sent[0].body);
        assert_eq!(header(r, "content-type"), Some("application/json"));
    }
}

#[tokio::test]
async fn invalid_inputs_are_rejected_before_io() {
    let server = MockServer::start().await;
    Mock::given(wiremock::matchers::any())
        .respond_with(ResponseTemplate::new(200))
        .expect(0)
        .mount(&server)
        .await;
    let client = Client::new(config(&server)).unwrap();
    let err = client
        .execute::<Value>(create_request(), with_key("bad key!"))
        .await
        .unwrap_err();
    assert!(matches!(err, Error::Validation { .. }), "{err}");
    let mut options = CallOptions::new();
    options.set_client_request_id("_starts-badly");
    let err = client
        .execute::<Value>(Request::new(&LIST), options)
        .await
        .unwrap_err();
    assert!(matches!(err, Error::Validation { .. }));
    let mut req = Request::new(&CREATE);
    req.json_body(&json!({}));
    let err = client
        .execute::<Value>(req, CallOptions::new())
        .await
        .unwrap_err();
    assert!(err.to_string().contains("missing path parameter"));
}

#[tokio::test]
async fn get_retries_5xx_then_succeeds() {
    let server = MockServer::start().await;
    answers(
        &server,
        "GET",
        ResponseTemplate::new(503),
        2,
        ResponseTemplate::new(200).set_body_json(json!({"ok": true})),
    )
    .await;
    let client = Client::new(config(&server)).unwrap();
    let resp = client
        .execute::<Value>(Request::new(&LIST), CallOptions::new())
        .await
        .unwrap();
    assert_eq!(resp.meta().attempts, 3);
}

#[tokio::test]
async fn get_retries_are_bounded_and_switchable_off() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .respond_with(ResponseTemplate::new(500).set_body_json(json!({"ok": false, "error": {"code": "service_unavailable", "message": "down", "request_id": "r-5"}})))
        .mount(&server)
        .await;
    let client = Client::new(config(&server)).unwrap();
    let err = client
        .execute::<Value>(Request::new(&LIST), CallOptions::new())
        .await
        .unwrap_err();
    assert_eq!(err.code(), Some("service_unavailable"));
    assert_eq!(err.request_id(), Some("r-5"));
    assert!(err.is_retryable());
    assert_eq!(server.received_requests().await.unwrap().len(), 4);

    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .respond_with(ResponseTemplate::new(500))
        .mount(&server)
        .await;
    let client = Client::new(config(&server).retry_policy(RetryPolicy::disabled())).unwrap();
    client
        .execute::<Value>(Request::new(&LIST), CallOptions::new())
        .await
        .unwrap_err();
    assert_eq!(server.received_requests().await.unwrap().len(), 1);
}

async fn mount_write_failure_then_success(server: &MockServer, first: ResponseTemplate) {
    let created = ResponseTemplate::new(201).set_body_json(json!({"ok": true, "id": 1}));
    answers(server, "POST", first, 1, created).await;
}

#[tokio::test]
async fn write_5xx_reconciles_then_resends_when_recorded() {
    let server = MockServer::start().await;
    mount_write_failure_then_success(
        &server,
        ResponseTemplate::new(502).set_body_string("<html>bad gateway</html>"),
    )
    .await;
    Mock::given(method("GET"))
        .and(path("/v1/operations"))
        .and(query_param("idempotency_key", "write-key-1"))
        .and(query_param("method", "POST"))
        .and(query_param("path", "/v1/things/eu%20central"))
        .respond_with(ResponseTemplate::new(200).set_body_json(
            json!({"ok": true, "operation": {"id": "op1", "status": "running", "done": false}}),
        ))
        .expect(1)
        .mount(&server)
        .await;
    let client = Client::new(config(&server)).unwrap();
    let resp = client
        .execute::<Value>(create_request(), with_key("write-key-1"))
        .await
        .unwrap();
    assert_eq!(resp.body()["id"], 1);
    let writes: Vec<_> = server
        .received_requests()
        .await
        .unwrap()
        .into_iter()
        .filter(|r| r.method.as_str() == "POST")
        .collect();
    assert_eq!(writes.len(), 2);
    assert_eq!(writes[0].body, writes[1].body);
    assert_eq!(header(&writes[1], "idempotency-key"), Some("write-key-1"));
}

#[tokio::test]
async fn write_5xx_lookup_not_found_resends_with_same_key() {
    let server = MockServer::start().await;
    mount_write_failure_then_success(&server, ResponseTemplate::new(500)).await;
    Mock::given(method("GET"))
        .and(path("/v1/operations"))
        .respond_with(ResponseTemplate::new(404).set_body_json(
            json!({"ok": false, "error": {"code": "operation_not_found", "message": "no"}}),
        ))
        .expect(1)
        .mount(&server)
        .await;
    let client = Client::new(config(&server)).unwrap();
    client
        .execute::<Value>(create_request(), with_key("write-key-2"))
        .await
        .unwrap();
}

#[tokio::test]
async fn write_5xx_lookup_not_found_without_resend_policy_is_unknown() {
    let server = MockServer::start().await;
    mount_write_failure_then_success(&server, ResponseTemplate::new(500)).await;
    Mock::given(method("GET"))
        .and(path("/v1/operations"))
        .respond_with(ResponseTemplate::new(404).set_body_json(
            json!({"ok": false, "error": {"code": "operation_not_found", "message": "no"}}),
        ))
        .mount(&server)
        .await;
    let policy = RetryPolicy {
        resend_when_not_found: false,
        ..fast_policy()
    };
    let client = Client::new(config(&server).retry_policy(policy)).unwrap();
    let err = client
        .execute::<Value>(create_request(), with_key("write-key-3"))
        .await
        .unwrap_err();
    let Error::WriteOutcomeUnknown(u) = &err else {
        panic!("{err}")
    };
    assert_eq!(u.reconciliation, Reconciliation::NotFound);
    assert_eq!(u.method, Method::Post);
    assert_eq!(u.path, "/v1/things/eu%20central");
    assert_eq!(err.idempotency_key(), Some("write-key-3"));
    assert!(err.is_write_outcome_unknown());
    assert!(!err.is_retryable());
}

#[tokio::test]
async fn write_5xx_lookup_failing_returns_unknown_outcome_without_resend() {
    for (status, body, expected) in [
        (
            503u16,
            json!({"ok": false, "error": {"code": "service_unavailable", "message": "x"}}),
            "failed",
        ),
        (
            410,
            json!({"ok": false, "error": {"code": "operation_expired", "message": "x"}}),
            "expired",
        ),
        (
            409,
            json!({"ok": false, "error": {"code": "operation_lookup_ambiguous", "message": "x"}}),
            "ambiguous",
        ),
    ] {
        let server = MockServer::start().await;
        mount_write_failure_then_success(&server, ResponseTemplate::new(500)).await;
        Mock::given(method("GET"))
            .and(path("/v1/operations"))
            .respond_with(ResponseTemplate::new(status).set_body_json(body))
            .mount(&server)
            .await;
        let client = Client::new(config(&server)).unwrap();
        let err = client
            .execute::<Value>(create_request(), with_key("write-key-4"))
            .await
            .unwrap_err();
        let Error::WriteOutcomeUnknown(u) = &err else {
            panic!("{err}")
        };
        let got = match u.reconciliation {
            Reconciliation::Failed { .. } => "failed",
            Reconciliation::Expired => "expired",
            Reconciliation::Ambiguous => "ambiguous",
            _ => "other",
        };
        assert_eq!(got, expected);
        assert_eq!(u.last_api_error.as_ref().map(|a| a.status), Some(500));
        let writes = server
            .received_requests()
            .await
            .unwrap()
            .into_iter()
            .filter(|r| r.method.as_str() == "POST")
            .count();
        assert_eq!(writes, 1, "never resent blindly");
    }
}

#[tokio::test]
async fn write_timeout_is_reconciled() {
    let server = MockServer::start().await;
    mount_write_failure_then_success(
        &server,
        ResponseTemplate::new(201).set_delay(Duration::from_millis(400)),
    )
    .await;
    Mock::given(method("GET"))
        .and(path("/v1/operations"))
        .respond_with(
            ResponseTemplate::new(200).set_body_json(json!({"ok": true, "operation_id": "op2"})),
        )
        .expect(1)
        .mount(&server)
        .await;
    let client = Client::new(config(&server).attempt_timeout(Duration::from_millis(150))).unwrap();
    let resp = client
        .execute::<Value>(create_request(), with_key("write-key-5"))
        .await
        .unwrap();
    assert_eq!(resp.meta().attempts, 2);
}

#[tokio::test]
async fn write_without_key_is_never_resent() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(500))
        .mount(&server)
        .await;
    let client = Client::new(config(&server)).unwrap();
    let mut req = Request::new(&CREATE_NO_KEY);
    req.json_body(&json!({}));
    let err = client
        .execute::<Value>(req, CallOptions::new())
        .await
        .unwrap_err();
    let Error::WriteOutcomeUnknown(u) = &err else {
        panic!("{err}")
    };
    assert_eq!(u.idempotency_key, None);
    assert_eq!(u.reconciliation, Reconciliation::NotAttempted);
    let sent = server.received_requests().await.unwrap();
    assert_eq!(sent.len(), 1);
    assert!(header(&sent[0], "idempotency-key").is_none());
}

#[tokio::test]
async fn idempotency_conflict_is_a_distinct_api_error() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(409).insert_header("x-request-id", "rid-9").set_body_json(
            json!({"ok": false, "error": {"code": "idempotency_conflict", "message": "key reused", "request_id": "rid-9"}}),
        ))
        .expect(1)
        .mount(&server)
        .await;
    let client = Client::new(config(&server)).unwrap();
    let err = client
        .execute::<Value>(create_request(), with_key("write-key-6"))
        .await
        .unwrap_err();
    assert_eq!(err.code(), Some("idempotency_conflict"));
    assert_eq!(err.status(), Some(409));
    assert_eq!(err.idempotency_key(), Some("write-key-6"));
    let line = err.to_string();
    assert!(
        line.contains("idempotency_conflict") && line.contains("rid-9"),
        "{line}"
    );
    assert!(!line.contains('\n'));
}

#[tokio::test]
async fn decode_error_keeps_key_and_status() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({"ok": true})))
        .mount(&server)
        .await;
    #[derive(serde::Deserialize, Debug)]
    #[allow(dead_code)]
    struct Strict {
        id: u32,
    }
    let client = Client::new(config(&server)).unwrap();
    let err = client
        .execute::<Strict>(create_request(), with_key("write-key-7"))
        .await
        .unwrap_err();
    assert!(matches!(err, Error::Decode { status: 200, .. }));
    assert_eq!(err.idempotency_key(), Some("write-key-7"));
}

#[tokio::test]
async fn secrets_never_leak_into_errors() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .respond_with(
            ResponseTemplate::new(401)
                .set_body_json(json!({"ok": false, "code": "unauthorized", "message": "bad"})),
        )
        .mount(&server)
        .await;
    let config = config(&server).bearer("pfx.top-secret-value");
    assert!(!format!("{config:?}").contains("top-secret-value"));
    let client = Client::new(config).unwrap();
    assert!(!format!("{client:?}").contains("top-secret-value"));
    let err = client
        .execute::<Value>(Request::new(&LIST), CallOptions::new())
        .await
        .unwrap_err();
    assert_eq!(err.code(), Some("unauthorized"));
    assert!(!format!("{err:?}").contains("top-secret-value"));
    assert!(!err.to_string().contains("top-secret-value"));
}

#[tokio::test]
async fn from_env_style_config_builds_a_client() {
    let vars = |k: &str| match k {
        "EXAMPLE_API_BASE_URL" => Some("http://127.0.0.1:9/base/".into()),
        "EXAMPLE_API_KEY" => Some("k".into()),
        "EXAMPLE_API_SECRET" => Some("s".into()),
        _ => None,
    };
    let config = Config::from_lookup_with_prefix("EXAMPLE_API", vars).unwrap();
    let client = Client::new(config).unwrap();
    assert_eq!(client.config().get_base_url(), "http://127.0.0.1:9/base/");
    let missing = Config::from_lookup_with_prefix("OTHER_API", vars).unwrap_err();
    assert!(
        missing
            .to_string()
            .contains("OTHER_API_BASE_URL is not set"),
        "{missing}"
    );
    let half = Config::from_lookup_with_prefix("EXAMPLE_API", |k| {
        (k != "EXAMPLE_API_SECRET").then(|| vars(k)).flatten()
    })
    .unwrap_err();
    assert!(
        half.to_string()
            .contains("signed mode needs both EXAMPLE_API_KEY and EXAMPLE_API_SECRET"),
        "{half}"
    );
}

#[tokio::test]
async fn whole_call_timeout_bounds_read_retries() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .respond_with(ResponseTemplate::new(200).set_delay(Duration::from_millis(300)))
        .mount(&server)
        .await;
    let client = Client::new(config(&server)).unwrap();
    let mut options = CallOptions::new();
    options.set_timeout(Duration::from_millis(100));
    let err = client
        .execute::<Value>(Request::new(&LIST), options)
        .await
        .unwrap_err();
    assert!(matches!(err, Error::Timeout { .. }), "{err}");
    assert!(err.is_retryable());
}

#[tokio::test]
async fn whole_call_timeout_counts_from_the_first_poll() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!([])))
        .expect(1)
        .mount(&server)
        .await;
    let client = Client::new(config(&server)).unwrap();
    let mut options = CallOptions::new();
    options.set_timeout(Duration::from_millis(200));
    let call = client.execute::<Value>(Request::new(&LIST), options);
    // Created, not yet polled, for longer than its whole timeout: its clock has not started.
    tokio::time::sleep(Duration::from_millis(400)).await;
    let response = call.await.expect("the timeout counts from the first poll");
    assert_eq!(response.status(), 200);
}

#[tokio::test]
async fn operation_format_header_is_sent() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(wiremock::matchers::header("x-svc-response-format", "operation"))
        .respond_with(ResponseTemplate::new(200).set_body_json(
            json!({"ok": true, "operation": {"id": "op5", "status": "pending", "done": false, "links": {"operation": "/v1/operations/op5"}}}),
        ))
        .expect(1)
        .mount(&server)
        .await;
    let client = Client::new(config(&server)).unwrap();
    let mut options = with_key("write-key-8");
    options.set_operation_format(true);
    let resp = client
        .execute::<Value>(create_request(), options)
        .await
        .unwrap();
    assert_eq!(resp.body()["operation"]["id"], "op5");
}

#[test]
fn invalid_configs_are_rejected() {
    assert!(Client::new(Config::new("not a url")).is_err());
    assert!(Client::new(Config::new("ftp://x")).is_err());
    assert!(Client::new(Config::new("http://127.0.0.1:1").signed("", "s")).is_err());
    assert!(Client::new(Config::new("http://127.0.0.1:1").bearer("bad\nvalue")).is_err());
}

#[tokio::test]
async fn rate_limited_answers_have_their_own_budget() {
    let server = MockServer::start().await;
    answers(
        &server,
        "GET",
        ResponseTemplate::new(429).insert_header("Retry-After", "0"),
        5,
        ResponseTemplate::new(200).set_body_json(json!({"ok": true})),
    )
    .await;
    let policy = RetryPolicy {
        max_attempts: 1,
        max_rate_limit_waits: 5,
        ..fast_policy()
    };
    let client = Client::new(config(&server).retry_policy(policy.clone())).unwrap();
    let resp = client
        .execute::<Value>(Request::new(&LIST), CallOptions::new())
        .await
        .unwrap();
    assert_eq!(
        resp.meta().attempts,
        6,
        "five 429s waited out, then one success"
    );

    // One 429 more than the budget ends the call with the rate_limited error.
    let server = MockServer::start().await;
    let body = json!({"ok": false, "error": {"code": "rate_limited", "message": "slow down"}});
    Mock::given(method("GET"))
        .respond_with(
            ResponseTemplate::new(429)
                .insert_header("Retry-After", "0")
                .set_body_json(body),
        )
        .mount(&server)
        .await;
    let client = Client::new(config(&server).retry_policy(policy)).unwrap();
    let err = client
        .execute::<Value>(Request::new(&LIST), CallOptions::new())
        .await
        .unwrap_err();
    assert!(
        matches!(&err, Error::Api(api) if api.code == "rate_limited"),
        "{err}"
    );
    assert_eq!(server.received_requests().await.unwrap().len(), 6);
}

#[tokio::test]
async fn per_call_headers_and_retry_policy_apply_to_that_call_only() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/v1/things"))
        .respond_with(ResponseTemplate::new(503))
        .mount(&server)
        .await;
    let client = Client::new(config(&server)).unwrap();
    let mut options = CallOptions::new();
    options.add_header("x-tenant", "blue");
    options.set_retry_policy(RetryPolicy::disabled());
    let err = client
        .execute::<Value>(Request::new(&LIST), options)
        .await
        .unwrap_err();
    assert_eq!(err.status(), Some(503));
    let sent = server.received_requests().await.unwrap();
    assert_eq!(sent.len(), 1, "the call's own policy: one attempt");
    assert_eq!(header(&sent[0], "x-tenant"), Some("blue"));

    // The next call uses the client's policy again (4 attempts) and no extra header.
    client
        .execute::<Value>(Request::new(&LIST), CallOptions::new())
        .await
        .unwrap_err();
    let sent = server.received_requests().await.unwrap();
    assert_eq!(sent.len(), 1 + 4);
    assert_eq!(header(&sent[1], "x-tenant"), None);
}

#[tokio::test]
async fn a_clashing_header_is_refused_before_any_io() {
    let server = MockServer::start().await;
    let client = Client::new(config(&server)).unwrap();
    let mut options = CallOptions::new();
    options.add_header("Idempotency-Key", "mine-12345");
    let err = client
        .execute::<Value>(create_request(), options)
        .await
        .unwrap_err();
    assert!(matches!(err, Error::Validation { .. }), "{err}");
    assert!(server.received_requests().await.unwrap().is_empty());
}

/// A transport that cannot build any request, counting how often it is asked.
#[derive(Debug, Default)]
struct Unbuildable(std::sync::atomic::AtomicUsize);

impl oncegen_runtime::Transport for Unbuildable {
    fn send(
        &self,
        _request: oncegen_runtime::HttpRequest,
    ) -> futures::future::BoxFuture<
        '_,
        Result<oncegen_runtime::HttpResponse, oncegen_runtime::TransportError>,
    > {
        self.0.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        Box::pin(async {
            Err(oncegen_runtime::TransportError::new(
                oncegen_runtime::TransportErrorKind::Invalid,
                "bad request line",
            ))
        })
    }
}

#[tokio::test]
async fn a_request_that_cannot_be_built_is_a_validation_error_never_not_delivered() {
    let transport = std::sync::Arc::new(Unbuildable::default());
    let client = Client::new(
        Config::new("http://127.0.0.1:1")
            .retry_policy(fast_policy())
            .transport(transport.clone()),
    )
    .unwrap();
    let err = client
        .execute::<Value>(create_request(), with_key("local-key-1"))
        .await
        .unwrap_err();
    assert!(matches!(err, Error::Validation { .. }), "{err:?}");
    assert!(err.to_string().contains("nothing was sent"), "{err}");
    assert_eq!(
        transport.0.load(std::sync::atomic::Ordering::SeqCst),
        1,
        "not retried"
    );
}
