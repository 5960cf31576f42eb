//! A document whose `security` is incomplete (its API-key scheme declared on one operation, no
//! top-level `security`): `Config::scheme_credential_everywhere` sends the key on every
//! operation that does not say it needs none, `Config::scheme_credential` only where the
//! document names the scheme; an operation that sends no credential is logged at debug level
//! (its own test binary: the subscriber is set for this test's thread only).

use std::fmt;
use std::sync::{Arc, Mutex};

use oncegen_runtime::{
    CallOptions, Client, Config, Idempotency, Method, OperationSpec, ParamIn, Request, Requirement,
    SchemeCredential, SchemeKind, SecurityScheme,
};
use serde_json::Value;
use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::{Event, Metadata, Subscriber};
use wiremock::{Mock, MockServer, ResponseTemplate};

mod common;

use common::{config, header};

static TOKEN: SecurityScheme = SecurityScheme {
    name: "tokenAuth",
    kind: SchemeKind::ApiKey {
        location: ParamIn::Header,
        param: "X-Token",
    },
};

/// The one operation the document declares the scheme on.
static WITH_TOKEN: &[Requirement] = &[&[&TOKEN]];
/// An operation the document says needs no credential.
static NONE_NEEDED: &[Requirement] = &[&[]];

static ITEMS: OperationSpec = OperationSpec {
    operation_id: "listItems",
    method: Method::Get,
    path: "/items",
    idempotency: Idempotency::None,
    operation_envelope: false,
};

/// Sends `listItems` with `security` (`None`: the document states none) and returns the
/// `X-Token` the server received.
async fn token_sent(
    server: &MockServer,
    config: Config,
    security: Option<&'static [Requirement]>,
) -> Option<String> {
    let client = Client::new(config).unwrap();
    let mut request = Request::new(&ITEMS);
    if let Some(security) = security {
        request.security(security);
    }
    client
        .execute::<Value>(request, CallOptions::new())
        .await
        .unwrap();
    let received = server.received_requests().await.unwrap();
    header(received.last().unwrap(), "x-token").map(str::to_owned)
}

fn key() -> SchemeCredential {
    SchemeCredential::api_key("tok-123")
}

#[tokio::test]
async fn a_credential_set_everywhere_goes_where_the_document_states_no_security() {
    let server = MockServer::start().await;
    Mock::given(wiremock::matchers::any())
        .respond_with(ResponseTemplate::new(200).set_body_json(serde_json::json!([])))
        .mount(&server)
        .await;
    let everywhere = || config(&server).scheme_credential_everywhere(&TOKEN, key());
    let only_where_named = || config(&server).scheme_credential(&TOKEN, key());

    assert_eq!(
        token_sent(&server, everywhere(), None).await.as_deref(),
        Some("tok-123")
    );
    assert_eq!(
        token_sent(&server, everywhere(), Some(WITH_TOKEN))
            .await
            .as_deref(),
        Some("tok-123")
    );
    assert_eq!(
        token_sent(&server, everywhere(), Some(NONE_NEEDED)).await,
        None
    );
    assert_eq!(
        token_sent(&server, only_where_named(), Some(WITH_TOKEN))
            .await
            .as_deref(),
        Some("tok-123")
    );
    assert_eq!(token_sent(&server, only_where_named(), None).await, None);
}

/// A subscriber that keeps the debug events' messages and fields.
#[derive(Clone, Default)]
struct Events(Arc<Mutex<Vec<String>>>);

struct Text<'a>(&'a mut String);

impl Visit for Text<'_> {
    fn record_debug(&mut self, field: &Field, value: &dyn fmt::Debug) {
        self.0.push_str(&format!("{}={value:?} ", field.name()));
    }
}

impl Subscriber for Events {
    fn enabled(&self, _: &Metadata<'_>) -> bool {
        true
    }
    fn new_span(&self, _: &Attributes<'_>) -> Id {
        Id::from_u64(1)
    }
    fn record(&self, _: &Id, _: &Record<'_>) {}
    fn record_follows_from(&self, _: &Id, _: &Id) {}
    fn event(&self, event: &Event<'_>) {
        if *event.metadata().level() == tracing::Level::DEBUG {
            let mut text = String::new();
            event.record(&mut Text(&mut text));
            self.0.lock().unwrap().push(text);
        }
    }
    fn enter(&self, _: &Id) {}
    fn exit(&self, _: &Id) {}
}

#[tokio::test]
async fn an_operation_that_sends_no_credential_is_logged_at_debug_level() {
    let server = MockServer::start().await;
    Mock::given(wiremock::matchers::any())
        .respond_with(ResponseTemplate::new(200).set_body_json(serde_json::json!([])))
        .mount(&server)
        .await;
    let events = Events::default();
    let _guard = tracing::subscriber::set_default(events.clone());
    token_sent(
        &server,
        config(&server).scheme_credential(&TOKEN, key()),
        None,
    )
    .await;
    let logged = events.0.lock().unwrap().clone();
    let line = logged
        .iter()
        .find(|e| e.contains("no credential sent"))
        .unwrap_or_else(|| panic!("no debug line: {logged:?}"));
    assert!(line.contains("operation=\"listItems\""), "{line}");
    assert!(!line.contains("tok-123"), "{line}");
    events.0.lock().unwrap().clear();
    token_sent(
        &server,
        config(&server).scheme_credential(&TOKEN, key()),
        Some(NONE_NEEDED),
    )
    .await;
    token_sent(
        &server,
        config(&server).scheme_credential_everywhere(&TOKEN, key()),
        None,
    )
    .await;
    let logged = events.0.lock().unwrap().clone();
    assert!(
        !logged.iter().any(|e| e.contains("no credential sent")),
        "{logged:?}"
    );
}
