//! Hooks see every attempt (retries, resends, lookups, transport failures), and every call has
//! one `tracing` span with OpenTelemetry HTTP client field names.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use sdk_runtime::{
    AttemptInfo, AttemptOutcome, CallOptions, Client, Config, Hook, Request, RetryPolicy,
};
use serde_json::{Value, json};
use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::{Event, Metadata, Subscriber};
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

mod common;

use common::{LIST, config, create_request, with_key};

/// Counts attempts and keeps what it saw of each.
#[derive(Debug, Default)]
struct Counting {
    before: AtomicU64,
    seen: Mutex<Vec<(String, u32, Option<u16>)>>,
}

impl Hook for Counting {
    fn before_send(&self, _attempt: &AttemptInfo<'_>) {
        self.before.fetch_add(1, Ordering::SeqCst);
    }

    fn after_response(&self, attempt: &AttemptInfo<'_>, outcome: &AttemptOutcome<'_>) {
        self.seen.lock().unwrap().push((
            attempt.operation_id.to_owned(),
            attempt.attempt,
            outcome.status(),
        ));
    }
}

/// A write answered 503 then, after a lookup that finds nothing, 201; and a read answered 500
/// then 200.
async fn flaky_server() -> MockServer {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(503))
        .up_to_n_times(1)
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .respond_with(
            ResponseTemplate::new(201)
                .insert_header("x-request-id", "req-created")
                .set_body_json(json!({"id": 7})),
        )
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/v1/operations"))
        .respond_with(ResponseTemplate::new(404).set_body_json(
            json!({"ok": false, "error": {"code": "operation_not_found", "message": "no"}}),
        ))
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/v1/things"))
        .respond_with(ResponseTemplate::new(500))
        .up_to_n_times(1)
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/v1/things"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!([])))
        .mount(&server)
        .await;
    server
}

#[tokio::test]
async fn a_counting_hook_sees_every_attempt() {
    let server = flaky_server().await;
    let hook = Arc::new(Counting::default());
    let client = Client::new(config(&server).hook(hook.clone())).unwrap();
    client
        .execute::<Value>(create_request(), with_key("hooked-write-1"))
        .await
        .unwrap();
    client
        .execute::<Value>(Request::new(&LIST), CallOptions::new())
        .await
        .unwrap();
    let received = server.received_requests().await.unwrap().len();
    assert_eq!(received, 5);
    assert_eq!(hook.before.load(Ordering::SeqCst), 5);
    let seen = hook.seen.lock().unwrap().clone();
    let expected = [
        ("createThing", 1, Some(503)),
        ("getOperations", 1, Some(404)),
        ("createThing", 2, Some(201)),
        ("listThings", 1, Some(500)),
        ("listThings", 2, Some(200)),
    ];
    let expected: Vec<_> = expected
        .iter()
        .map(|(op, n, s)| ((*op).to_owned(), *n, *s))
        .collect();
    assert_eq!(seen, expected);

    // Attempts that never got an answer are seen too.
    let hook = Arc::new(Counting::default());
    let unreachable = Config::new("http://127.0.0.1:1")
        .retry_policy(RetryPolicy {
            max_attempts: 2,
            initial_backoff: Duration::from_millis(1),
            max_backoff: Duration::from_millis(2),
            ..RetryPolicy::default()
        })
        .hook(hook.clone());
    Client::new(unreachable)
        .unwrap()
        .execute::<Value>(Request::new(&LIST), CallOptions::new())
        .await
        .unwrap_err();
    assert_eq!(hook.before.load(Ordering::SeqCst), 2);
    let seen = hook.seen.lock().unwrap().clone();
    assert_eq!(seen.len(), 2);
    assert!(seen.iter().all(|(_, _, status)| status.is_none()));
}

/// A subscriber that keeps every span's fields (name, fields, parent).
#[derive(Clone, Default)]
struct Spans(Arc<Mutex<Vec<SpanRecord>>>);

#[derive(Clone, Debug)]
struct SpanRecord {
    name: &'static str,
    fields: BTreeMap<String, String>,
    parent: Option<u64>,
}

struct Fields<'a>(&'a mut BTreeMap<String, String>);

impl Visit for Fields<'_> {
    fn record_debug(&mut self, field: &Field, value: &dyn fmt::Debug) {
        self.0.insert(field.name().to_owned(), format!("{value:?}"));
    }

    fn record_str(&mut self, field: &Field, value: &str) {
        self.0.insert(field.name().to_owned(), value.to_owned());
    }
}

thread_local! {
    static CURRENT: std::cell::RefCell<Vec<u64>> = const { std::cell::RefCell::new(Vec::new()) };
}

impl Subscriber for Spans {
    fn enabled(&self, _: &Metadata<'_>) -> bool {
        true
    }

    fn new_span(&self, attrs: &Attributes<'_>) -> Id {
        let mut fields = BTreeMap::new();
        attrs.record(&mut Fields(&mut fields));
        let parent = CURRENT.with(|c| c.borrow().last().copied());
        let mut spans = self.0.lock().unwrap();
        spans.push(SpanRecord {
            name: attrs.metadata().name(),
            fields,
            parent,
        });
        Id::from_u64(spans.len() as u64)
    }

    fn record(&self, span: &Id, values: &Record<'_>) {
        let mut spans = self.0.lock().unwrap();
        let record = &mut spans[span.into_u64() as usize - 1];
        values.record(&mut Fields(&mut record.fields));
    }

    fn record_follows_from(&self, _: &Id, _: &Id) {}

    fn event(&self, _: &Event<'_>) {}

    fn enter(&self, span: &Id) {
        CURRENT.with(|c| c.borrow_mut().push(span.into_u64()));
    }

    fn exit(&self, _: &Id) {
        CURRENT.with(|c| c.borrow_mut().pop());
    }
}

#[tokio::test]
async fn each_call_has_a_span_with_open_telemetry_fields() {
    let server = flaky_server().await;
    let spans = Spans::default();
    let _guard = tracing::subscriber::set_default(spans.clone());
    let client = Client::new(config(&server).bearer("pfx.bearer-secret")).unwrap();
    client
        .execute::<Value>(create_request(), with_key("traced-write-1"))
        .await
        .unwrap();
    let spans = spans.0.lock().unwrap().clone();
    let calls: Vec<&SpanRecord> = spans.iter().filter(|s| s.name == "sdk.call").collect();
    assert_eq!(calls.len(), 2, "the write and its lookup: {spans:?}");
    let write = &calls[0].fields;
    let expect = [
        ("otel.name", "POST /v1/things/{region}"),
        ("otel.kind", "client"),
        ("http.request.method", "POST"),
        ("url.template", "/v1/things/{region}"),
        ("server.address", "127.0.0.1"),
        ("operation.id", "createThing"),
        ("http.request.header.idempotency-key", "traced-write-1"),
        ("http.response.status_code", "201"),
        ("http.response.header.x-request-id", "req-created"),
        ("http.request.resend_count", "1"),
        ("attempts", "2"),
        ("outcome", "ok"),
    ];
    for (name, value) in expect {
        assert_eq!(
            write.get(name).map(String::as_str),
            Some(value),
            "{name}: {write:?}"
        );
    }
    assert!(write.contains_key("server.port"));
    let lookup = &calls[1];
    assert_eq!(lookup.fields["operation.id"], "getOperations");
    assert_eq!(lookup.fields["outcome"], "error");
    assert_eq!(lookup.fields["error.type"], "api");
    assert_eq!(lookup.fields["http.response.status_code"], "404");
    assert_eq!(
        lookup.parent,
        Some(1),
        "the lookup's span is inside the write's"
    );
    let all = format!("{spans:?}");
    assert!(!all.contains("bearer-secret"), "no credential in a span");
}
