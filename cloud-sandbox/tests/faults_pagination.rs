//! Fault injection (drop after commit, delay, 5xx, HTML edge error, 429 bursts, seeded random
//! schedule), each pagination model's termination, and routing of every spec operation.

mod common;

use std::time::Duration;

use cloud_sandbox::{Fault, Matcher, RandomFaults};
use common::Env;
use serde_json::{Value, json};

const DEPLOY: &str = "/v1/deploy/DE/vps/vps-m";

#[tokio::test]
async fn dropped_connection_after_commit_then_retry_replays() {
    let env = Env::new().await;
    env.sb.inject(
        Fault::DropAfterCommit,
        Matcher::new("POST", "/v1/deploy/"),
        1,
    );
    let url = format!("{}{DEPLOY}", env.sb.base_url());
    let token = format!("Bearer {}", env.sb.credentials().bearer.bearer_token());
    let sent = env
        .http
        .post(&url)
        .header("authorization", &token)
        .header("idempotency-key", "drop-key-1")
        .json(&json!({}))
        .send()
        .await;
    assert!(sent.is_err(), "the client gets no response");
    assert_eq!(env.sb.orders().len(), 1, "the write was applied");
    let r = env
        .bearer(
            "POST",
            DEPLOY,
            Some(&json!({})),
            &[("idempotency-key", "drop-key-1")],
        )
        .await;
    assert_eq!(r.status, 200);
    assert_eq!(r.header("idempotent-replayed"), Some("true"));
    assert_eq!(env.sb.applied_writes("drop-key-1"), 1);
    assert_eq!(env.sb.debits().len(), 1);
}

#[tokio::test]
async fn delay_past_client_timeout_still_commits_once() {
    let env = Env::new().await;
    env.sb.inject(
        Fault::Delay(Duration::from_millis(500)),
        Matcher::writes(),
        1,
    );
    let url = format!("{}{DEPLOY}", env.sb.base_url());
    let token = format!("Bearer {}", env.sb.credentials().bearer.bearer_token());
    let sent = env
        .http
        .post(&url)
        .header("authorization", &token)
        .header("idempotency-key", "slow-key-1")
        .json(&json!({}))
        .timeout(Duration::from_millis(100))
        .send()
        .await;
    assert!(sent.unwrap_err().is_timeout());
    tokio::time::sleep(Duration::from_millis(600)).await;
    let r = env
        .bearer(
            "POST",
            DEPLOY,
            Some(&json!({})),
            &[("idempotency-key", "slow-key-1")],
        )
        .await;
    assert_eq!(r.status, 200);
    assert_eq!(env.sb.applied_writes("slow-key-1"), 1);
}

#[tokio::test]
async fn error_faults_5xx_html_and_429_burst() {
    let env = Env::new().await;
    env.sb
        .inject(Fault::Status(503), Matcher::new("GET", "/v1/regions"), 1);
    let r = env.bearer("GET", "/v1/regions", None, &[]).await;
    assert_eq!((r.status, r.code()), (503, "service_unavailable"));
    env.sb.inject(Fault::EdgeHtml, Matcher::any(), 1);
    let r = env.bearer("GET", "/v1/regions", None, &[]).await;
    assert_eq!(r.status, 502);
    assert!(r.body.is_null() && r.text.contains("<html>"));
    assert!(r.header("content-type").unwrap().starts_with("text/html"));
    env.sb
        .inject(Fault::RateLimited { retry_after: 2 }, Matcher::any(), 3);
    for _ in 0..3 {
        let r = env.bearer("GET", "/v1/regions", None, &[]).await;
        assert_eq!(
            (r.status, r.code(), r.header("retry-after")),
            (429, "rate_limited", Some("2"))
        );
    }
    assert_eq!(
        env.bearer("GET", "/v1/regions", None, &[]).await.status,
        200
    );
    // 5xx after commit: the write happened, the answer says otherwise.
    env.sb
        .inject(Fault::StatusAfterCommit(500), Matcher::writes(), 1);
    let r = env
        .bearer(
            "POST",
            DEPLOY,
            Some(&json!({})),
            &[("idempotency-key", "err-after-1")],
        )
        .await;
    assert_eq!(r.status, 500);
    assert_eq!(env.sb.applied_writes("err-after-1"), 1);
    assert_eq!(env.sb.injected_faults().len(), 6);
}

#[tokio::test]
async fn seeded_random_faults_are_reproducible() {
    let mut runs = Vec::new();
    for _ in 0..2 {
        let env = Env::new().await;
        env.sb.inject_random(RandomFaults {
            seed: 9,
            faults: vec![(Fault::Status(503), 0.3), (Fault::EdgeHtml, 0.2)],
            matcher: Matcher::any(),
            per_key: false,
        });
        let mut statuses = Vec::new();
        for _ in 0..20 {
            statuses.push(
                env.bearer("GET", "/v1/regions?limit=1", None, &[])
                    .await
                    .status,
            );
        }
        runs.push(statuses);
    }
    assert_eq!(runs[0], runs[1]);
    assert!(
        runs[0].contains(&503) && runs[0].contains(&200),
        "{:?}",
        runs[0]
    );
}

async fn collect_page(env: &Env, path: &str) -> (usize, u64) {
    let (mut page, mut seen) = (1, 0);
    let mut total;
    loop {
        let r = env
            .bearer("GET", &format!("{path}?limit=7&page={page}"), None, &[])
            .await;
        assert_eq!(r.status, 200, "{}", r.text);
        let items = r.body["items"].as_array().unwrap().len();
        seen += items;
        total = r.body["total"].as_u64().unwrap();
        assert_eq!(r.body["pageSize"], 7);
        if items == 0 || r.body["page"].as_u64() >= r.body["pages"].as_u64() {
            break;
        }
        page += 1;
    }
    assert!(page > 2, "several pages");
    (seen, total)
}

#[tokio::test]
async fn page_model_terminates() {
    let env = Env::new().await;
    for path in [
        "/v1/billing/services",
        "/v1/billing/transactions",
        "/v1/services",
    ] {
        let (seen, total) = collect_page(&env, path).await;
        assert_eq!(seen as u64, total, "{path}");
    }
    let r = env
        .bearer("GET", "/v1/billing/services?limit=5&pageSize=6", None, &[])
        .await;
    assert_eq!(r.code(), "validation_error");
}

#[tokio::test]
async fn offset_and_cursor_models_terminate() {
    let env = Env::new().await;
    for (path, expected) in [
        ("/v1/products", 132),
        ("/v1/dedicated/images", 120),
        ("/v1/regions", 12),
    ] {
        let (mut offset, mut seen, mut pages) = (0u64, 0usize, 0);
        loop {
            let r = env
                .bearer("GET", &format!("{path}?limit=5&offset={offset}"), None, &[])
                .await;
            assert_eq!(r.status, 200, "{path} {}", r.text);
            assert!(r.body.get("page").is_none() && r.body.get("pageSize").is_none());
            seen += r.body["items"].as_array().unwrap().len();
            pages += 1;
            match &r.body["next_offset"] {
                Value::Null => break,
                n => offset = n.as_u64().unwrap(),
            }
        }
        assert_eq!(seen, expected, "{path}");
        assert!(pages > 2);
    }
    let mut cursor: Option<String> = None;
    let mut seen = 0;
    loop {
        let q = cursor
            .as_ref()
            .map_or("/v1/api-credentials?limit=3".to_owned(), |c| {
                format!("/v1/api-credentials?limit=3&cursor={c}")
            });
        let r = env.bearer("GET", &q, None, &[]).await;
        assert_eq!(r.status, 200, "{}", r.text);
        assert!(
            r.body["items"]
                .as_array()
                .unwrap()
                .iter()
                .all(|i| i.get("secret").is_none())
        );
        seen += r.body["items"].as_array().unwrap().len();
        match r.body["next_cursor"].as_str() {
            Some(c) => cursor = Some(c.to_owned()),
            None => break,
        }
    }
    assert_eq!(seen, 8);
    let r = env.bearer("GET", "/v1/products/XX", None, &[]).await;
    assert_eq!(r.code(), "unsupported_region");
}

fn sample_path(template: &str) -> String {
    template
        .split('/')
        .map(|s| {
            if s.starts_with('{') {
                "00000000-0000-4000-8000-000000000000"
            } else {
                s
            }
        })
        .collect::<Vec<_>>()
        .join("/")
}

#[tokio::test]
async fn every_spec_operation_is_routed_and_reads_answer_their_schema() {
    let env = Env::new().await;
    let inner = env.sb.shared().clone();
    assert!(inner.spec.operations.len() >= 50);
    for op in &inner.spec.operations {
        let (found, _) = inner
            .spec
            .route(&op.method, &sample_path(&op.path))
            .expect("routed");
        assert_eq!(found.operation_id, op.operation_id);
    }
    // Every hand-written handler names an operation of the spec.
    for (id, _) in cloud_sandbox::handlers::HANDLERS {
        assert!(
            inner.spec.operations.iter().any(|o| o.operation_id == *id),
            "{id} not in spec"
        );
    }
    // Reads that need no path parameters answer 200 with a body valid against the spec.
    for op in inner
        .spec
        .operations
        .iter()
        .filter(|o| o.method == "GET" && !o.path.contains('{') && o.path != "/v1/operations")
    {
        let r = env.bearer("GET", &op.path, None, &[]).await;
        assert_eq!(r.status, 200, "{} {}", op.path, r.text);
        let errs = inner.validators.check_answer(op, r.status, &r.body);
        assert!(errs.is_empty(), "{}: {errs:?}", op.path);
    }
}
