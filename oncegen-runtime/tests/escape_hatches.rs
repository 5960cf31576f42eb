//! The escape hatches of one call, through a request builder written as generated code writes
//! it: extra query parameters, extra or overriding body fields and a raw JSON body reach the
//! wire, are signed, keep one idempotency key and the same bytes across retries, are journaled
//! as sent; and the raw response (status, headers, bytes) is beside the typed one.

use std::sync::Arc;

use oncegen_runtime::journal::WriteJournal;
use oncegen_runtime::signing::{SigningInput, canonical_string, hmac_sha256_base64};
use oncegen_runtime::{
    Call, CallBuilder, Client, Idempotency, Method, OperationSpec, Request, ResponseFuture,
    SqliteJournal,
};
use serde_json::{Value, json};
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

mod common;

use common::{answers, config, header};

/// What the document says the body is: it lacks `scope`, which the server requires.
#[derive(Clone, Debug, serde::Serialize)]
struct CreateTokenRequest {
    name: String,
    #[serde(rename = "ttlSeconds")]
    ttl_seconds: i64,
}

/// What the document says the answer is.
#[derive(Debug, serde::Deserialize)]
struct Token {
    id: String,
}

/// The builder of `createToken` as the generator writes one.
#[derive(Clone, Debug)]
struct CreateToken<'c> {
    call: Call<'c>,
    body: CreateTokenRequest,
}
oncegen_runtime::call_builder!(CreateToken);

impl<'c> CreateToken<'c> {
    fn send(self) -> ResponseFuture<'c, Token> {
        let mut request = oncegen_runtime::request!(Post "/v1/tokens", "createToken", Required);
        request.json_body(&self.body);
        self.call.execute(request)
    }
}

static PURGE: OperationSpec = OperationSpec {
    operation_id: "purgeCache",
    method: Method::Post,
    path: "/v1/cache/purge",
    idempotency: Idempotency::None,
    operation_envelope: false,
};

/// An operation the document declares without a body (the server needs one).
#[derive(Clone, Debug)]
struct PurgeCache<'c> {
    call: Call<'c>,
}
oncegen_runtime::call_builder!(PurgeCache);

impl<'c> PurgeCache<'c> {
    fn send(self) -> ResponseFuture<'c, Value> {
        self.call.execute(Request::new(&PURGE))
    }
}

fn create_token(client: &Client) -> CreateToken<'_> {
    CreateToken {
        call: Call::new(client),
        body: CreateTokenRequest {
            name: "backend".to_owned(),
            ttl_seconds: 60,
        },
    }
}

#[tokio::test]
async fn overrides_are_signed_keyed_and_resent_as_they_are() {
    let server = MockServer::start().await;
    let created = ResponseTemplate::new(201)
        .insert_header("x-token-region", "eu")
        .set_body_raw(r#"{"id":"tok_1","undocumented":true}"#, "application/json");
    let busy = ResponseTemplate::new(429).insert_header("Retry-After", "0");
    answers(&server, "POST", busy, 1, created).await;
    let client = Client::new(config(&server).signed("key-prefix", "the-secret")).unwrap();
    let response = create_token(&client)
        .extra_body_field("scope", json!(["read", "write"]))
        .extra_body_field("ttlSeconds", "3600s")
        .extra_query("dry", false)
        .extra_query("note", "a b&c")
        .send()
        .await
        .unwrap();

    assert_eq!(response.body().id, "tok_1");
    assert_eq!(response.status(), 201);
    assert_eq!(response.meta().headers.get("x-token-region").unwrap(), "eu");
    assert_eq!(
        response.raw_body().as_ref(),
        br#"{"id":"tok_1","undocumented":true}"#
    );

    let sent = server.received_requests().await.unwrap();
    assert_eq!(sent.len(), 2, "429 then 201");
    let body: Value = serde_json::from_slice(&sent[0].body).unwrap();
    assert_eq!(
        body,
        json!({"name": "backend", "ttlSeconds": "3600s", "scope": ["read", "write"]})
    );
    assert_eq!(sent[0].url.query(), Some("dry=false&note=a%20b%26c"));
    assert_eq!(
        sent[0].body, sent[1].body,
        "the same bytes on every attempt"
    );
    let key = header(&sent[0], "idempotency-key").expect("a write sends a key");
    assert_eq!(header(&sent[1], "idempotency-key"), Some(key));
    for r in &sent {
        assert_eq!(header(r, "content-type"), Some("application/json"));
        let target = format!("{}?{}", r.url.path(), r.url.query().unwrap());
        let input = SigningInput {
            method: r.method.as_str(),
            path_and_query: &target,
            timestamp: header(r, "x-ts").unwrap(),
            nonce: header(r, "x-nonce").unwrap(),
            content_sha256: header(r, "x-content-sha256").unwrap(),
            body: &r.body,
        };
        let expected = hmac_sha256_base64(b"the-secret", canonical_string(&input).as_bytes());
        assert_eq!(header(r, "x-signature"), Some(expected.as_str()));
    }
}

#[tokio::test]
async fn a_raw_json_body_goes_where_the_document_declares_none() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/cache/purge"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({"purged": 3})))
        .mount(&server)
        .await;
    let client = Client::new(config(&server).bearer("pfx.sekret")).unwrap();
    let response = PurgeCache {
        call: Call::new(&client),
    }
    .raw_json_body(r#"{"paths":["/a"]}"#)
    .extra_body_field("soft", true)
    .send()
    .await
    .unwrap();
    assert_eq!(response.body()["purged"], 3);
    let sent = &server.received_requests().await.unwrap()[0];
    assert_eq!(header(sent, "content-type"), Some("application/json"));
    let body: Value = serde_json::from_slice(&sent.body).unwrap();
    assert_eq!(body, json!({"paths": ["/a"], "soft": true}));
}

#[tokio::test]
async fn a_wrong_override_fails_before_any_io() {
    let server = MockServer::start().await;
    let client = Client::new(config(&server).bearer("pfx.sekret")).unwrap();
    let error = PurgeCache {
        call: Call::new(&client),
    }
    .raw_json_body("{\"paths\": [")
    .send()
    .await
    .unwrap_err();
    assert!(error.to_string().contains("not JSON"), "{error}");
    assert!(server.received_requests().await.unwrap().is_empty());
}

#[tokio::test]
async fn the_journal_keeps_the_write_as_sent() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(201).set_body_json(json!({"id": "tok_2"})))
        .mount(&server)
        .await;
    let dir = std::env::temp_dir().join(format!("sdk-escape-{}", uuid::Uuid::new_v4()));
    std::fs::create_dir_all(&dir).unwrap();
    let journal = Arc::new(SqliteJournal::open(dir.join("writes.journal")).unwrap());
    let client = Client::new(
        config(&server)
            .bearer("pfx.sekret")
            .journal(journal.clone()),
    )
    .unwrap();
    create_token(&client)
        .extra_body_field("scope", "read")
        .extra_query("dry", true)
        .send()
        .await
        .unwrap();
    let pending = journal.pending().await.unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    let [entry] = pending.writes.as_slice() else {
        panic!("one journaled write, got {}", pending.writes.len());
    };
    let sent = &server.received_requests().await.unwrap()[0];
    assert_eq!(entry.write.body, sent.body);
    assert_eq!(entry.write.target, "/v1/tokens?dry=true");
    let body: Value = serde_json::from_slice(&entry.write.body).unwrap();
    assert_eq!(body["scope"], "read");
}
