//! Every call has one `tracing` span with OpenTelemetry HTTP client field names (its own test
//! binary: the subscriber is set for this test's thread only).

use std::collections::BTreeMap;
use std::fmt;
use std::sync::{Arc, Mutex};

use oncegen_runtime::Client;
use serde_json::Value;
use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::{Event, Metadata, Subscriber};

mod common;

use common::{config, create_request, flaky_server, with_key};

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

#[tokio::test]
async fn a_call_to_an_operations_own_server_names_that_server() {
    let server = flaky_server().await;
    let port = server.address().port();
    let spans = Spans::default();
    let _guard = tracing::subscriber::set_default(spans.clone());
    let client = Client::new(config(&server)).unwrap();
    let mut request = create_request();
    request.server(Box::leak(
        format!("http://localhost:{port}").into_boxed_str(),
    ));
    client
        .execute::<Value>(request, with_key("traced-write-2"))
        .await
        .unwrap();
    let spans = spans.0.lock().unwrap().clone();
    let call = spans.iter().find(|s| s.name == "sdk.call").unwrap();
    assert_eq!(call.fields["server.address"], "localhost");
    assert_eq!(call.fields["server.port"], port.to_string());
}
