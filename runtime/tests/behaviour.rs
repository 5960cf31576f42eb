//! 429 gate (with a transport double), error bodies, pagination streams, operation waiting,
//! dedicated tasks, DNSSEC and contract checks.

use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use bytes::Bytes;
use futures::StreamExt;
use futures::future::BoxFuture;
use http::{HeaderMap, HeaderValue};
use sdk_runtime::operation::{Poll, poll_until, wait_dedicated_task, wait_dnssec};
use sdk_runtime::pagination::{self, Continuation, Paginated};
use sdk_runtime::{
    ApiError, CallOptions, Client, Config, Error, ErrorCode, ErrorContext, HttpRequest,
    HttpResponse, Idempotency, Method, OperationReceipt, OperationSpec, Request, Response,
    ResponseMeta, RetryPolicy, Transport, TransportError, WaitPolicy,
};
use serde_json::{Value, json};
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

static LIST: OperationSpec = OperationSpec {
    operation_id: "listThings",
    method: Method::Get,
    path: "/v1/things",
    idempotency: Idempotency::None,
    operation_envelope: false,
};

/// Answers 429 to the first `n429` requests, then 200 after a short delay; records how many
/// requests were in flight when each one started.
#[derive(Debug, Default)]
struct GateProbe {
    n429: usize,
    seen: AtomicUsize,
    in_flight: AtomicUsize,
    starts: Mutex<Vec<usize>>,
}

impl Transport for GateProbe {
    fn send(&self, _request: HttpRequest) -> BoxFuture<'_, Result<HttpResponse, TransportError>> {
        Box::pin(async move {
            let n = self.seen.fetch_add(1, Ordering::SeqCst);
            let now = self.in_flight.fetch_add(1, Ordering::SeqCst) + 1;
            self.starts.lock().unwrap().push(now);
            let mut headers = HeaderMap::new();
            let status = if n < self.n429 {
                headers.insert("retry-after", HeaderValue::from_static("0.1"));
                429
            } else {
                tokio::time::sleep(Duration::from_millis(20)).await;
                200
            };
            self.in_flight.fetch_sub(1, Ordering::SeqCst);
            Ok(HttpResponse {
                status,
                headers,
                body: Bytes::from_static(b"{\"ok\":true}"),
            })
        })
    }
}

fn fast_policy() -> RetryPolicy {
    RetryPolicy {
        max_attempts: 5,
        initial_backoff: Duration::from_millis(5),
        max_backoff: Duration::from_millis(20),
        ..RetryPolicy::default()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn after_429_requests_wait_and_only_one_probes() {
    let transport = Arc::new(GateProbe {
        n429: 2,
        ..GateProbe::default()
    });
    let client = Client::new(
        Config::new("http://gate.invalid")
            .transport(transport.clone())
            .retry_policy(fast_policy()),
    )
    .unwrap();
    let first = {
        let client = client.clone();
        tokio::spawn(async move {
            client
                .execute::<Value>(Request::new(&LIST), CallOptions::new())
                .await
        })
    };
    while transport.seen.load(Ordering::SeqCst) == 0 {
        tokio::task::yield_now().await;
    }
    tokio::time::sleep(Duration::from_millis(10)).await;
    assert!(client.rate_limit_gate().is_closed());
    let mut others = Vec::new();
    for _ in 0..4 {
        let client = client.clone();
        others.push(tokio::spawn(async move {
            client
                .execute::<Value>(Request::new(&LIST), CallOptions::new())
                .await
        }));
    }
    first.await.unwrap().unwrap();
    for o in others {
        o.await.unwrap().unwrap();
    }
    let starts = transport.starts.lock().unwrap().clone();
    assert_eq!(starts.len(), 7, "1 + 1 probe 429 + 5 successes");
    // The first request, the first probe (429) and the second probe each went alone.
    assert_eq!(&starts[..3], &[1, 1, 1], "{starts:?}");
    assert!(!client.rate_limit_gate().is_closed());
}

#[tokio::test]
async fn long_retry_after_is_not_slept_through() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .respond_with(
            ResponseTemplate::new(429)
                .insert_header("Retry-After", "3600")
                .set_body_json(
                    json!({"ok": false, "error": {"code": "rate_limited", "message": "slow down"}}),
                ),
        )
        .expect(1)
        .mount(&server)
        .await;
    let client = Client::new(Config::new(server.uri()).retry_policy(fast_policy())).unwrap();
    let err = client
        .execute::<Value>(Request::new(&LIST), CallOptions::new())
        .await
        .unwrap_err();
    assert_eq!(err.code(), Some(&ErrorCode::RateLimited));
    assert_eq!(err.retry_after(), Some(Duration::from_secs(3600)));
    assert!(err.is_retryable());
}

fn raw(status: u16, body: &'static [u8], headers: &[(&'static str, &'static str)]) -> HttpResponse {
    let mut map = HeaderMap::new();
    for (k, v) in headers {
        map.insert(*k, HeaderValue::from_static(v));
    }
    HttpResponse {
        status,
        headers: map,
        body: Bytes::from_static(body),
    }
}

#[test]
fn nested_flat_non_json_and_empty_error_bodies() {
    let nested = ApiError::from_response(
        &raw(400, br#"{"ok":false,"error":{"code":"validation_error","message":"bad name","request_id":"r1","field_errors":[{"field":"name"}]}}"#, &[]),
        ErrorContext::default(),
    );
    assert_eq!(nested.code, ErrorCode::ValidationError);
    assert_eq!(nested.message, "bad name");
    assert_eq!(nested.request_id.as_deref(), Some("r1"));
    assert_eq!(nested.field_errors.as_ref().unwrap()[0]["field"], "name");

    let flat = ApiError::from_response(
        &raw(403, br#"{"ok":false,"code":"scope_denied","message":"nope","request_id":"r2","details":{"scope":"dns.write"},"status":403}"#, &[]),
        ErrorContext::default(),
    );
    assert_eq!(flat.code, ErrorCode::ScopeDenied);
    assert_eq!(flat.request_id.as_deref(), Some("r2"));
    assert_eq!(flat.details.as_ref().unwrap()["scope"], "dns.write");

    let html = ApiError::from_response(
        &raw(
            502,
            b"<html>Bad Gateway</html>",
            &[("x-request-id", "edge-1"), ("retry-after", "5")],
        ),
        ErrorContext::default(),
    );
    assert_eq!(html.code, ErrorCode::Unknown(String::new()));
    assert!(!html.is_json());
    assert_eq!(html.request_id.as_deref(), Some("edge-1"));
    assert_eq!(html.retry_after, Some(Duration::from_secs(5)));
    assert!(html.body_text.as_deref().unwrap().contains("Bad Gateway"));

    let empty = ApiError::from_response(&raw(503, b"", &[]), ErrorContext::default());
    assert!(empty.message.contains("503"));
    assert_eq!(empty.to_string().lines().count(), 1);

    let unknown = ApiError::from_response(
        &raw(
            418,
            br#"{"error":{"code":"brand_new_code","message":"m"}}"#,
            &[],
        ),
        ErrorContext::default(),
    );
    assert_eq!(unknown.code, ErrorCode::Unknown("brand_new_code".into()));
}

#[test]
fn every_reference_code_round_trips() {
    assert_eq!(ErrorCode::ALL.len(), 42);
    for code in ErrorCode::ALL {
        let parsed = ErrorCode::parse(code);
        assert!(!matches!(parsed, ErrorCode::Unknown(_)), "{code}");
        assert_eq!(parsed.as_str(), *code);
    }
}

// ---- pagination ----

struct PageBody {
    page: Option<u64>,
    pages: Option<u64>,
    items: Vec<u32>,
}
impl Paginated for PageBody {
    type Item = u32;
    fn next_continuation(&self) -> Option<Continuation> {
        pagination::next_page(self.page, self.pages, self.items.is_empty())
    }
    fn into_items(self) -> Vec<u32> {
        self.items
    }
}

struct CursorBody {
    next_cursor: Option<String>,
    items: Vec<u32>,
}
impl Paginated for CursorBody {
    type Item = u32;
    fn next_continuation(&self) -> Option<Continuation> {
        pagination::next_cursor(self.next_cursor.as_deref())
    }
    fn into_items(self) -> Vec<u32> {
        self.items
    }
}

fn ok<T>(body: T) -> Result<Response<T>, Error> {
    Ok(Response::new(body, 200, ResponseMeta::default()))
}

#[tokio::test]
async fn page_stream_stops_at_pages() {
    let calls = Arc::new(AtomicUsize::new(0));
    let c = calls.clone();
    let s = pagination::stream::<PageBody, _, _>(move |cont| {
        c.fetch_add(1, Ordering::SeqCst);
        let page = match cont {
            None => 1,
            Some(Continuation::Page(p)) => p,
            other => panic!("{other:?}"),
        };
        async move {
            ok(PageBody {
                page: Some(page),
                pages: Some(3),
                items: vec![page as u32 * 10, page as u32 * 10 + 1],
            })
        }
    });
    let items: Vec<u32> = s.map(Result::unwrap).collect().await;
    assert_eq!(items, vec![10, 11, 20, 21, 30, 31]);
    assert_eq!(calls.load(Ordering::SeqCst), 3);
}

#[tokio::test]
async fn cursor_stream_is_lazy_and_stops_at_null() {
    let calls = Arc::new(AtomicUsize::new(0));
    let c = calls.clone();
    let s = pagination::stream::<CursorBody, _, _>(move |cont| {
        c.fetch_add(1, Ordering::SeqCst);
        let body = match cont {
            None => CursorBody {
                next_cursor: Some("c2".into()),
                items: vec![1, 2],
            },
            Some(Continuation::Cursor(c)) if c == "c2" => CursorBody {
                next_cursor: None,
                items: vec![3],
            },
            other => panic!("{other:?}"),
        };
        async move { ok(body) }
    });
    futures::pin_mut!(s);
    assert_eq!(s.next().await.unwrap().unwrap(), 1);
    assert_eq!(
        calls.load(Ordering::SeqCst),
        1,
        "second page not fetched yet"
    );
    let rest: Vec<u32> = s.map(Result::unwrap).collect().await;
    assert_eq!(rest, vec![2, 3]);
    assert_eq!(calls.load(Ordering::SeqCst), 2);
}

#[tokio::test]
async fn stream_stops_after_error_and_on_repeated_continuation() {
    let s = pagination::stream::<CursorBody, _, _>(|cont| async move {
        match cont {
            None => ok(CursorBody {
                next_cursor: Some("same".into()),
                items: vec![1],
            }),
            Some(_) => ok(CursorBody {
                next_cursor: Some("same".into()),
                items: vec![2],
            }),
        }
    });
    let items: Vec<u32> = s.map(Result::unwrap).collect().await;
    assert_eq!(items, vec![1, 2]);
    let s = pagination::stream::<CursorBody, _, _>(|_| async {
        Err::<Response<CursorBody>, _>(Error::WaitTimeout {
            target: "x".into(),
            last_status: None,
        })
    });
    let all: Vec<_> = s.collect().await;
    assert_eq!(all.len(), 1);
    assert!(all[0].is_err());
}

// ---- operations ----

fn wait_policy() -> WaitPolicy {
    WaitPolicy {
        initial_interval: Duration::from_millis(5),
        max_interval: Duration::from_millis(10),
        max_wait: Duration::from_secs(1),
        unknown_patience: Duration::from_millis(50),
    }
}

async fn op_server(states: &[Value]) -> MockServer {
    let server = MockServer::start().await;
    let (last, first) = states.split_last().unwrap();
    for s in first {
        Mock::given(method("GET"))
            .and(path("/v1/operations/op1"))
            .respond_with(
                ResponseTemplate::new(200).set_body_json(json!({"ok": true, "operation": s})),
            )
            .up_to_n_times(1)
            .mount(&server)
            .await;
    }
    Mock::given(method("GET"))
        .and(path("/v1/operations/op1"))
        .respond_with(
            ResponseTemplate::new(200).set_body_json(json!({"ok": true, "operation": last})),
        )
        .mount(&server)
        .await;
    server
}

fn client(server: &MockServer) -> Client {
    Client::new(
        Config::new(server.uri())
            .retry_policy(fast_policy())
            .wait_policy(wait_policy()),
    )
    .unwrap()
}

#[tokio::test]
async fn wait_returns_result_on_success() {
    let server = op_server(&[
        json!({"id": "op1", "status": "pending", "done": false}),
        json!({"id": "op1", "status": "running", "done": false, "progress": 50}),
        json!({"id": "op1", "status": "succeeded", "done": true, "result": {"service_ids": ["s1"]}}),
    ])
    .await;
    let receipt =
        OperationReceipt::from_value(json!({"ok": true, "actionId": 5, "operation_id": "op1"}));
    let op = receipt.wait(&client(&server)).await.unwrap();
    assert!(op.succeeded());
    assert_eq!(op.result.unwrap()["service_ids"][0], "s1");
}

#[tokio::test]
async fn wait_exposes_failure_code_and_message() {
    let server = op_server(&[json!({"id": "op1", "status": "failed", "done": true, "error": {"code": "provision_failed", "message": "Could not provision"}})]).await;
    let receipt = OperationReceipt::from_value(
        json!({"ok": true, "operation": {"id": "op1", "status": "pending", "done": false}}),
    );
    let err = receipt.wait(&client(&server)).await.unwrap_err();
    let Error::OperationFailed(op) = &err else {
        panic!("{err}")
    };
    assert_eq!(
        op.failure().unwrap().code.as_deref(),
        Some("provision_failed")
    );
    assert!(err.to_string().contains("provision_failed"));
}

#[tokio::test]
async fn wait_on_unknown_returns_reconciliation_outcome() {
    let server = op_server(&[json!({"id": "op1", "status": "unknown", "done": false})]).await;
    let receipt = OperationReceipt::from_value(json!({"ok": true, "operation_id": "op1"}));
    let err = receipt.wait(&client(&server)).await.unwrap_err();
    assert!(matches!(err, Error::OperationOutcomeUnknown(_)), "{err}");
    // never a write while waiting
    assert!(
        server
            .received_requests()
            .await
            .unwrap()
            .iter()
            .all(|r| r.method.as_str() == "GET")
    );
}

#[tokio::test]
async fn poll_until_times_out() {
    let policy = WaitPolicy {
        max_wait: Duration::from_millis(30),
        ..wait_policy()
    };
    let err = poll_until(
        &policy,
        "thing",
        || async { Ok::<_, Error>(()) },
        |_| Ok(Poll::<()>::Pending(Some("running".into()))),
    )
    .await
    .unwrap_err();
    assert!(matches!(err, Error::WaitTimeout { last_status: Some(ref s), .. } if s == "running"));
}

#[tokio::test]
async fn dedicated_task_and_dnssec_waits() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/v1/dedicated/svc/tasks/t1"))
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_json(json!({"ok": true, "task": {"id": "t1", "status": "in_progress"}})),
        )
        .up_to_n_times(2)
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/v1/dedicated/svc/tasks/t1"))
        .respond_with(ResponseTemplate::new(200).set_body_json(
            json!({"ok": true, "task": {"id": "t1", "status": "completed", "errorCode": null}}),
        ))
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/v1/domains/example.com/dnssec"))
        .respond_with(
            ResponseTemplate::new(200).set_body_json(json!({"ok": true, "status": "active"})),
        )
        .mount(&server)
        .await;
    let client = client(&server);
    let task = wait_dedicated_task(&client, "svc", "t1", &wait_policy())
        .await
        .unwrap();
    assert_eq!(task["status"], "completed");
    let dnssec = wait_dnssec(&client, "example.com", &wait_policy(), |b| {
        b["status"] == "active"
    })
    .await
    .unwrap();
    assert_eq!(dnssec["ok"], true);
}

#[tokio::test]
async fn contract_check_reports_difference() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/v1/version"))
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_json(json!({"ok": true, "contract_revision": "2027-01-01.1"})),
        )
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/v1/capabilities"))
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_json(json!({"ok": true, "canonical_operation_responses": true})),
        )
        .mount(&server)
        .await;
    let client = Client::new(Config::new(server.uri()).sdk(sdk_runtime::SdkIdentity::new(
        "cloud-sdk",
        "0.1.0",
        "2026-10-07.1",
    )))
    .unwrap();
    let check = sdk_runtime::version::check_contract(&client).await.unwrap();
    assert_eq!(check.deployed_revision.as_deref(), Some("2027-01-01.1"));
    assert!(check.differs());
    assert_eq!(check.canonical_operation_responses, Some(true));
}
