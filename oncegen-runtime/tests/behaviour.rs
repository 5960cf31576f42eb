//! 429 gate (with a transport double), error bodies, pagination streams, and waiting on a
//! status (`PollSpec`).

use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use bytes::Bytes;
use futures::StreamExt;
use futures::future::BoxFuture;
use http::{HeaderMap, HeaderValue};
use oncegen_runtime::pagination::{self, Continuation, Paginated};
use oncegen_runtime::poll::{self, Poll, poll_until};
use oncegen_runtime::{
    ApiError, ApiProfile, CallOptions, Client, Config, Error, ErrorBody, ErrorContext, HttpRequest,
    HttpResponse, Idempotency, Method, OperationSpec, PollSpec, Request, Response, ResponseMeta,
    RetryPolicy, Transport, TransportError, WaitPolicy,
};
use serde_json::{Value, json};
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

static LIST: OperationSpec = OperationSpec {
    operation_id: "listThings",
    method: Method::Get,
    path: "/things",
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
    let client = Client::new(
        Config::new(server.uri())
            .retry_policy(fast_policy())
            .profile(&PROFILE),
    )
    .unwrap();
    let err = client
        .execute::<Value>(Request::new(&LIST), CallOptions::new())
        .await
        .unwrap_err();
    assert_eq!(err.code(), Some("rate_limited"));
    assert_eq!(err.retry_after(), Some(Duration::from_secs(3600)));
    assert!(err.is_retryable());
}

/// A nested error object with legacy flat copies, as a generated profile would describe it.
static ENVELOPE: ErrorBody = ErrorBody {
    code: &["/error/code", "/code"],
    message: &["/error/message", "/message"],
    request_id: &["/error/request_id", "/request_id"],
    field_errors: &["/error/field_errors", "/field_errors"],
    details: &["/error/details", "/details"],
};

static PROFILE: ApiProfile = ApiProfile {
    error_body: ENVELOPE,
    ..ApiProfile::NONE
};

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
        &ENVELOPE,
    );
    assert_eq!(nested.code, "validation_error");
    assert_eq!(nested.message, "bad name");
    assert_eq!(nested.request_id.as_deref(), Some("r1"));
    assert_eq!(nested.field_errors.as_ref().unwrap()[0]["field"], "name");

    let flat = ApiError::from_response(
        &raw(403, br#"{"ok":false,"code":"scope_denied","message":"nope","request_id":"r2","details":{"scope":"dns.write"},"status":403}"#, &[]),
        ErrorContext::default(),
        &ENVELOPE,
    );
    assert_eq!(flat.code, "scope_denied");
    assert_eq!(flat.request_id.as_deref(), Some("r2"));
    assert_eq!(flat.details.as_ref().unwrap()["scope"], "dns.write");

    let html = ApiError::from_response(
        &raw(
            502,
            b"<html>Bad Gateway</html>",
            &[("x-request-id", "edge-1"), ("retry-after", "5")],
        ),
        ErrorContext::default(),
        &ENVELOPE,
    );
    assert_eq!(html.code, "");
    assert!(!html.is_json());
    assert_eq!(html.request_id.as_deref(), Some("edge-1"));
    assert_eq!(html.retry_after, Some(Duration::from_secs(5)));
    assert!(html.body_text.as_deref().unwrap().contains("Bad Gateway"));

    let empty = ApiError::from_response(&raw(503, b"", &[]), ErrorContext::default(), &ENVELOPE);
    assert!(empty.message.contains("503"));
    assert_eq!(empty.to_string().lines().count(), 1);

    let unknown = ApiError::from_response(
        &raw(
            418,
            br#"{"error":{"code":"brand_new_code","message":"m"}}"#,
            &[],
        ),
        ErrorContext::default(),
        &ENVELOPE,
    );
    assert_eq!(unknown.code, "brand_new_code");
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

// ---- waiting on a status ----

static GET_JOB: OperationSpec = OperationSpec {
    operation_id: "getJob",
    method: Method::Get,
    path: "/jobs/{id}",
    idempotency: Idempotency::None,
    operation_envelope: false,
};

/// A job API with a `done` member, like the generated `x-poll` data of a real one.
static JOB_POLL: PollSpec = PollSpec {
    subject: "/job",
    status: "state",
    done: Some("finished"),
    pending: &[],
    succeeded: &["ok"],
    failed: &["failed", "cancelled"],
    unknown: &["lost"],
};

/// A task API that only names its pending status.
static TASK_POLL: PollSpec = PollSpec {
    subject: "/task",
    status: "state",
    done: None,
    pending: &["in_progress"],
    succeeded: &[],
    failed: &[],
    unknown: &[],
};

fn wait_policy() -> WaitPolicy {
    WaitPolicy {
        initial_interval: Duration::from_millis(5),
        max_interval: Duration::from_millis(10),
        max_wait: Duration::from_secs(1),
        unknown_patience: Duration::from_millis(50),
    }
}

/// Answers `GET /jobs/j1` with each body in turn, the last one from then on.
async fn job_server(bodies: &[Value]) -> MockServer {
    let server = MockServer::start().await;
    let (last, first) = bodies.split_last().unwrap();
    for b in first {
        Mock::given(method("GET"))
            .and(path("/jobs/j1"))
            .respond_with(ResponseTemplate::new(200).set_body_json(b))
            .up_to_n_times(1)
            .mount(&server)
            .await;
    }
    Mock::given(method("GET"))
        .and(path("/jobs/j1"))
        .respond_with(ResponseTemplate::new(200).set_body_json(last))
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

async fn wait_job(client: &Client, spec: &PollSpec) -> Result<Value, Error> {
    poll::wait(spec, &wait_policy(), "getJob j1", || {
        let mut request = Request::new(&GET_JOB);
        request.path_param("id", &"j1");
        client.execute::<Value>(request, CallOptions::new())
    })
    .await
}

#[tokio::test]
async fn wait_returns_the_subject_on_success() {
    let server = job_server(&[
        json!({"job": {"state": "queued", "finished": false}}),
        json!({"job": {"state": "running", "finished": false, "progress": 50}}),
        json!({"job": {"state": "ok", "finished": true, "result": {"ids": ["s1"]}}}),
    ])
    .await;
    let job = wait_job(&client(&server), &JOB_POLL).await.unwrap();
    assert_eq!(job["result"]["ids"][0], "s1");
    assert_eq!(server.received_requests().await.unwrap().len(), 3);
}

#[tokio::test]
async fn wait_exposes_a_failed_subject() {
    let server = job_server(&[json!({"job": {"state": "failed", "finished": true, "error": {"code": "provision_failed"}}})]).await;
    let err = wait_job(&client(&server), &JOB_POLL).await.unwrap_err();
    let Error::OperationFailed(outcome) = &err else {
        panic!("{err}")
    };
    assert_eq!(outcome.status.as_deref(), Some("failed"));
    assert_eq!(outcome.subject["error"]["code"], "provision_failed");
    assert!(err.to_string().contains("getJob j1 ended failed"), "{err}");
}

#[tokio::test]
async fn wait_on_an_unknown_status_ends_in_reconciliation() {
    let server = job_server(&[json!({"job": {"state": "lost", "finished": false}})]).await;
    let err = wait_job(&client(&server), &JOB_POLL).await.unwrap_err();
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
async fn wait_by_pending_statuses() {
    let server = job_server(&[
        json!({"task": {"state": "in_progress"}}),
        json!({"task": {"state": "in_progress"}}),
        json!({"task": {"state": "completed", "errorCode": null}}),
    ])
    .await;
    let task = wait_job(&client(&server), &TASK_POLL).await.unwrap();
    assert_eq!(task["state"], "completed");
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
