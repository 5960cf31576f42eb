//! Without a `tracing` subscriber, tracing's `log` feature hands a call's span to the `log`
//! crate: an application that logs through `log` still sees `sdk.call` and its fields (its own
//! test binary: no tracing subscriber may ever be set in it). The span is skipped only when
//! neither would take it.

use std::sync::Mutex;

use oncegen_runtime::{CallOptions, Client, Request};
use wiremock::matchers::method;
use wiremock::{Mock, MockServer, ResponseTemplate};

mod common;

use common::{LIST, config};

/// A `log` logger that keeps every record's target and text.
struct Records(Mutex<Vec<(String, String)>>);

impl log::Log for Records {
    fn enabled(&self, _: &log::Metadata<'_>) -> bool {
        true
    }

    fn log(&self, record: &log::Record<'_>) {
        let entry = (record.target().to_owned(), record.args().to_string());
        self.0.lock().unwrap().push(entry);
    }

    fn flush(&self) {}
}

static RECORDS: Records = Records(Mutex::new(Vec::new()));

async fn one_call(server: &MockServer) {
    let client = Client::new(config(server)).unwrap();
    let response = client
        .execute::<serde_json::Value>(Request::new(&LIST), CallOptions::new())
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
}

fn spans() -> Vec<String> {
    let records = RECORDS.0.lock().unwrap();
    records
        .iter()
        .filter(|(_, text)| text.starts_with("sdk.call;"))
        .map(|(_, text)| text.clone())
        .collect()
}

#[tokio::test]
async fn a_log_logger_gets_the_call_span_only_when_it_takes_info() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .respond_with(ResponseTemplate::new(200).set_body_json(serde_json::json!([])))
        .mount(&server)
        .await;
    log::set_logger(&RECORDS).unwrap();

    // A logger that takes WARN and above: the span is not built.
    log::set_max_level(log::LevelFilter::Warn);
    one_call(&server).await;
    assert_eq!(spans(), Vec::<String>::new());

    // One that takes INFO gets the span with its fields, as tracing's `log` fallback gives it.
    log::set_max_level(log::LevelFilter::Info);
    one_call(&server).await;
    let spans = spans();
    assert_eq!(spans.len(), 1, "{spans:?}");
    assert!(
        spans[0].contains(r#"operation.id="listThings""#),
        "{}",
        spans[0]
    );
    assert!(
        spans[0].contains(r#"url.template="/v1/things""#),
        "{}",
        spans[0]
    );
}
