//! What arrives from servers that are not this API: bodies in every media type and nulls where
//! JSON allows them, against a local HTTP server (wiremock), checked against serde_json's own
//! reading of the same bytes.

use oncegen_runtime::body::{NoBody, Raw, Text};
use oncegen_runtime::{CallOptions, Client, Error, Request};
use serde_json::{Value, json};
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

mod common;

use common::*;

async fn serve(status: u16, content_type: &str, body: &[u8]) -> MockServer {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/v1/things"))
        .respond_with(ResponseTemplate::new(status).set_body_raw(body.to_vec(), content_type))
        .mount(&server)
        .await;
    server
}

fn client(server: &MockServer) -> Client {
    Client::new(config(server)).unwrap()
}

#[tokio::test]
async fn a_csv_body_reads_as_text_and_sends_its_accept() {
    let csv = "id,name\n1,\"a, b\"\n2,é\n";
    let server = serve(200, "text/csv; charset=utf-8", csv.as_bytes()).await;
    let mut request = Request::new(&LIST);
    request.accept("text/csv");
    let response = client(&server)
        .execute_as::<Text>(request, CallOptions::new())
        .await
        .unwrap();
    assert_eq!(response.body(), csv);
    let sent = &server.received_requests().await.unwrap()[0];
    assert_eq!(header(sent, "accept"), Some("text/csv"));
}

#[tokio::test]
async fn a_text_body_that_is_not_utf8_is_a_decode_error_not_a_panic() {
    let server = serve(200, "text/plain", b"caf\xe9").await;
    let err = client(&server)
        .execute_as::<Text>(Request::new(&LIST), CallOptions::new())
        .await
        .unwrap_err();
    assert!(
        matches!(&err, Error::Decode { message, .. } if message.contains("not UTF-8")),
        "{err}"
    );
}

#[tokio::test]
async fn a_pdf_body_keeps_its_bytes_and_content_type() {
    let pdf: Vec<u8> = (0..=255u8).cycle().take(70_000).collect();
    let server = serve(200, "application/pdf", &pdf).await;
    let response = client(&server)
        .execute_as::<Raw>(Request::new(&LIST), CallOptions::new())
        .await
        .unwrap();
    let body = response.into_body();
    assert_eq!(body.media_type(), Some("application/pdf"));
    assert_eq!(body.bytes().as_ref(), pdf.as_slice());
}

#[tokio::test]
async fn a_204_reads_as_unit_whatever_the_server_sends() {
    for body in [&b""[..], b"{}", b"not json"] {
        let server = serve(204, "application/json", body).await;
        let response = client(&server)
            .execute_as::<NoBody>(Request::new(&LIST), CallOptions::new())
            .await
            .unwrap();
        assert_eq!(response.status(), 204);
        assert_eq!(*response.body(), ());
    }
}

#[tokio::test]
async fn a_nullable_body_reads_null_and_empty_as_none() {
    for (body, expected) in [(&b"null"[..], None), (b"", None), (b"2.5", Some(2.5))] {
        let server = serve(200, "application/json", body).await;
        let response = client(&server)
            .execute::<Option<f64>>(Request::new(&LIST), CallOptions::new())
            .await
            .unwrap();
        assert_eq!(*response.body(), expected);
    }
    let server = serve(200, "application/json", br#"[1, null, 3]"#).await;
    let response = client(&server)
        .execute::<Vec<Option<i64>>>(Request::new(&LIST), CallOptions::new())
        .await
        .unwrap();
    let reference: Vec<Value> = serde_json::from_slice(br#"[1, null, 3]"#).unwrap();
    let back: Vec<Value> = response.body().iter().map(|v| json!(v)).collect();
    assert_eq!(back, reference);
}

/// A client for an API without `x-error-envelope`: only the common places speak.
fn plain_client(server: &MockServer) -> Client {
    Client::new(config(server).profile(&PLAIN)).unwrap()
}

static PLAIN: oncegen_runtime::ApiProfile = oncegen_runtime::ApiProfile {
    automatic_retry_codes: &[],
    caller_retry_codes: &[],
    lookup: None,
    error_body: oncegen_runtime::ErrorBody::NONE,
};

#[tokio::test]
async fn a_fastapi_422_says_which_fields_and_decodes_into_its_type() {
    let body = json!({"detail": [
        {"loc": ["body", "name"], "msg": "Field required", "type": "missing"},
        {"loc": ["query", "limit"], "msg": "Input should be a valid integer", "type": "int_parsing", "input": "x"}
    ]});
    let server = serve(422, "application/json", body.to_string().as_bytes()).await;
    let err = plain_client(&server)
        .execute::<Value>(Request::new(&LIST), CallOptions::new())
        .await
        .unwrap_err();
    let shown = err.to_string();
    assert!(
        shown.contains("body.name: Field required; query.limit: Input should be a valid integer"),
        "{shown}"
    );
    // The generated `error_body` does this for the status the operation documents.
    assert_eq!(
        err.documented_status(&["404", "422", "default"]),
        Some("422")
    );
    #[derive(serde::Deserialize, Debug, PartialEq)]
    struct ValidationError {
        loc: Vec<Value>,
        msg: String,
        #[serde(rename = "type")]
        kind: String,
    }
    #[derive(serde::Deserialize, Debug, PartialEq)]
    struct HttpValidationError {
        detail: Vec<ValidationError>,
    }
    let typed: HttpValidationError = err.body_as().unwrap().unwrap();
    assert_eq!(typed.detail[1].kind, "int_parsing");
    assert_eq!(typed.detail[0].loc, vec![json!("body"), json!("name")]);
    // The body stays available as it came.
    assert_eq!(err.api().unwrap().body.as_ref(), Some(&body));
}

#[tokio::test]
async fn problem_json_and_plain_messages_show_in_display() {
    let cases = [
        (
            404,
            "application/problem+json",
            json!({"type": "about:blank", "title": "Not Found", "status": 404, "detail": "collection 'c' does not exist"}),
            "Not Found: collection 'c' does not exist",
        ),
        (
            400,
            "application/json",
            json!({"message": "bad name"}),
            "bad name",
        ),
        (
            404,
            "application/json",
            json!({"detail": "Not Found"}),
            "Not Found",
        ),
        (
            401,
            "application/json",
            json!({"error": "invalid_token"}),
            "invalid_token",
        ),
    ];
    for (status, content_type, body, expected) in cases {
        let server = serve(status, content_type, body.to_string().as_bytes()).await;
        let err = plain_client(&server)
            .execute::<Value>(Request::new(&LIST), CallOptions::new())
            .await
            .unwrap_err();
        assert!(err.to_string().contains(expected), "{err} lacks {expected}");
        assert_eq!(err.status(), Some(status));
    }
}

#[tokio::test]
async fn other_apis_codes_and_reasons_show_in_display() {
    let cases = [
        (
            404,
            json!({"name": "NotFoundError", "message": "Could not find item 7"}),
            "API error 404 NotFoundError: Could not find item 7",
        ),
        (
            403,
            json!({"errors": [{"message": "You don't have permission", "extensions": {"code": "FORBIDDEN"}}]}),
            "API error 403 FORBIDDEN: You don't have permission",
        ),
        (
            409,
            json!({"error": {"code": "conflict", "message": "already exists"}}),
            "API error 409 conflict: already exists",
        ),
        (
            400,
            json!({"code": "invalid_request", "message": "Validation failed", "details": [
                {"field": "name", "message": "is required"},
                {"field": "size", "message": "must be at most 10"}
            ]}),
            "API error 400 invalid_request: Validation failed (name: is required; size: must be at most 10)",
        ),
        (
            402,
            json!({"type": "https://example.com/probs/out-of-credit", "title": "Out of credit", "status": 402}),
            "API error 402 https://example.com/probs/out-of-credit: Out of credit",
        ),
        // No code anywhere: no placeholder where it would be.
        (
            422,
            json!({"message": "Title is too long"}),
            "API error 422: Title is too long",
        ),
    ];
    for (status, body, expected) in cases {
        let server = serve(status, "application/json", body.to_string().as_bytes()).await;
        let err = plain_client(&server)
            .execute::<Value>(Request::new(&LIST), CallOptions::new())
            .await
            .unwrap_err();
        assert!(
            err.to_string().starts_with(expected),
            "{err}\nlacks {expected}"
        );
    }
}

/// An API that answers its errors in text and declares no `x-error-envelope`
/// (`oai-tictactoe.yaml` documents its 400 as `text/html`): a write's 4xx is its final answer,
/// sent once, and the text is the message. With an envelope declared, the same answer came from
/// something in front of the API, and the write's outcome is unknown.
#[tokio::test]
async fn a_text_4xx_of_an_api_without_an_envelope_is_final_and_says_why() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(
            ResponseTemplate::new(400).set_body_raw(b"Square is not empty.".to_vec(), "text/html"),
        )
        .mount(&server)
        .await;
    let err = plain_client(&server)
        .execute::<Value>(create_request(), CallOptions::new())
        .await
        .unwrap_err();
    assert!(matches!(err, Error::Api(_)), "{err:?}");
    let expected = "API error 400: HTTP 400 Bad Request: Square is not empty.";
    assert!(err.to_string().starts_with(expected), "{err}");
    assert_eq!(received(&server).await, 1);

    let enveloped = client(&server)
        .execute::<Value>(create_request(), CallOptions::new())
        .await
        .unwrap_err();
    assert!(
        matches!(enveloped, Error::WriteOutcomeUnknown(_)),
        "{enveloped:?}"
    );

    // A page of markup stays out of the message.
    let page = serve(404, "text/html", b"<html><body>Not Found</body></html>").await;
    let err = plain_client(&page)
        .execute::<Value>(Request::new(&LIST), CallOptions::new())
        .await
        .unwrap_err();
    assert!(err.to_string().contains("(non-JSON body)"), "{err}");
}

#[tokio::test]
async fn the_envelope_still_wins_and_statuses_resolve_exact_then_range_then_default() {
    let body = json!({"error": {"code": "zone_missing", "message": "from the envelope"}, "message": "flat"});
    let server = serve(404, "application/json", body.to_string().as_bytes()).await;
    let err = client(&server)
        .execute::<Value>(Request::new(&LIST), CallOptions::new())
        .await
        .unwrap_err();
    assert_eq!(err.code(), Some("zone_missing"));
    assert!(err.to_string().contains("from the envelope"), "{err}");
    assert_eq!(err.documented_status(&["4XX", "default"]), Some("4XX"));
    assert_eq!(err.documented_status(&["404", "4XX"]), Some("404"));
    assert_eq!(err.documented_status(&["default"]), Some("default"));
    assert_eq!(err.documented_status(&["5XX", "400"]), None);
    // `error_body!` decodes the body only under a documented status.
    let envelope = |v: Value| v["error"]["code"].as_str().map(str::to_owned);
    assert_eq!(
        err.documented_body::<Value>(&["4XX"]).and_then(envelope),
        Some("zone_missing".to_owned())
    );
    assert_eq!(err.documented_body::<Value>(&["5XX", "400"]), None);
    assert_eq!(
        err.documented_body::<u32>(&["404"]),
        None,
        "does not decode"
    );
}

// ---- security schemes ----

use oncegen_runtime::{Config, ParamIn, Requirement, SchemeCredential, SchemeKind, SecurityScheme};

static HEADER_KEY: SecurityScheme = SecurityScheme {
    name: "headerKey",
    kind: SchemeKind::ApiKey {
        location: ParamIn::Header,
        param: "X-Chroma-Token",
    },
};
static QUERY_KEY: SecurityScheme = SecurityScheme {
    name: "queryKey",
    kind: SchemeKind::ApiKey {
        location: ParamIn::Query,
        param: "api key",
    },
};
static COOKIE_KEY: SecurityScheme = SecurityScheme {
    name: "cookieKey",
    kind: SchemeKind::ApiKey {
        location: ParamIn::Cookie,
        param: "session",
    },
};
static BASIC: SecurityScheme = SecurityScheme {
    name: "basic",
    kind: SchemeKind::Basic,
};
static OAUTH: SecurityScheme = SecurityScheme {
    name: "oauth",
    kind: SchemeKind::Bearer,
};

static KEYS: &[Requirement] = &[&[&HEADER_KEY, &QUERY_KEY, &COOKIE_KEY]];
static BASIC_ONLY: &[Requirement] = &[&[&BASIC]];
static OAUTH_OR_KEY: &[Requirement] = &[&[&OAUTH], &[&HEADER_KEY]];
static EMPTY_ONE: &[Requirement] = &[&[]];
static OAUTH_ONLY: &[Requirement] = &[&[&OAUTH]];

/// Sends one GET with `security` and returns the request the server saw.
async fn sent_with(
    config: impl Fn(&MockServer) -> Config,
    security: &'static [Requirement],
) -> wiremock::Request {
    let server = serve(200, "application/json", b"{}").await;
    let client = Client::new(config(&server)).unwrap();
    let mut request = Request::new(&LIST);
    request.query("limit", &1);
    request.security(security);
    client
        .execute::<Value>(request, CallOptions::new())
        .await
        .unwrap();
    server.received_requests().await.unwrap().remove(0)
}

fn plain(server: &MockServer) -> Config {
    Config::new(server.uri())
}

#[tokio::test]
async fn each_kind_of_scheme_travels_where_its_document_says() {
    let all = |s: &MockServer| {
        plain(s)
            .scheme_credential(&HEADER_KEY, SchemeCredential::api_key("h-secret"))
            .scheme_credential(&QUERY_KEY, SchemeCredential::api_key("q secret&"))
            .scheme_credential(&COOKIE_KEY, SchemeCredential::api_key("c-secret"))
            .scheme_credential(&BASIC, SchemeCredential::basic("ann", "p:w"))
    };
    let sent = sent_with(all, KEYS).await;
    assert_eq!(header(&sent, "x-chroma-token"), Some("h-secret"));
    assert_eq!(header(&sent, "cookie"), Some("session=c-secret"));
    let query: Vec<(String, String)> = sent.url.query_pairs().into_owned().collect();
    assert_eq!(
        query,
        vec![
            ("limit".to_owned(), "1".to_owned()),
            ("api key".to_owned(), "q secret&".to_owned())
        ]
    );
    assert!(header(&sent, "authorization").is_none());
    let sent = sent_with(all, BASIC_ONLY).await;
    // RFC 7617: base64("ann:p:w")
    assert_eq!(header(&sent, "authorization"), Some("Basic YW5uOnA6dw=="));
    assert!(header(&sent, "x-chroma-token").is_none());
}

#[tokio::test]
async fn the_first_requirement_that_can_be_met_is_sent_and_an_empty_one_sends_nothing() {
    let key_only =
        |s: &MockServer| plain(s).scheme_credential(&HEADER_KEY, SchemeCredential::api_key("k"));
    // OAuth has no credential: the next alternative, the header key, is sent.
    let sent = sent_with(key_only, OAUTH_OR_KEY).await;
    assert_eq!(header(&sent, "x-chroma-token"), Some("k"));
    assert!(header(&sent, "authorization").is_none());
    // `security: []`: nothing, not even the client's bearer.
    let bearer = |s: &MockServer| plain(s).bearer("b-token");
    let sent = sent_with(bearer, &[]).await;
    assert!(header(&sent, "authorization").is_none());
    let sent = sent_with(bearer, EMPTY_ONE).await;
    assert!(header(&sent, "authorization").is_none());
    // The client's bearer mode stands in for an oauth2 / openIdConnect / bearer scheme.
    let sent = sent_with(bearer, OAUTH_ONLY).await;
    assert_eq!(header(&sent, "authorization"), Some("Bearer b-token"));
    // Its own token wins over the client's.
    let own = |s: &MockServer| {
        plain(s)
            .bearer("b-token")
            .scheme_credential(&OAUTH, SchemeCredential::bearer("o-token"))
    };
    let sent = sent_with(own, OAUTH_ONLY).await;
    assert_eq!(header(&sent, "authorization"), Some("Bearer o-token"));
}

#[test]
fn scheme_credentials_are_redacted_checked_and_kept_off_cleartext() {
    let config = Config::new("https://api.example.com")
        .scheme_credential(&HEADER_KEY, SchemeCredential::api_key("k-hunter2"))
        .scheme_credential(&BASIC, SchemeCredential::basic("ann", "p-hunter2"));
    assert!(!format!("{config:?}").contains("hunter2"));
    let client = Client::new(config).unwrap();
    assert!(!format!("{client:?}").contains("hunter2"));
    let cleartext = Config::new("http://api.example.com")
        .scheme_credential(&HEADER_KEY, SchemeCredential::api_key("k"));
    let err = Client::new(cleartext).unwrap_err();
    assert!(err.to_string().contains("cleartext"), "{err}");
    let wrong = Config::new("https://api.example.com")
        .scheme_credential(&BASIC, SchemeCredential::api_key("k-hunter2"));
    let err = Client::new(wrong).unwrap_err();
    assert!(err.to_string().contains("wrong kind"), "{err}");
    assert!(!err.to_string().contains("hunter2"), "{err}");
}

// ---- downloads ----

#[tokio::test]
async fn a_download_streams_a_body_larger_than_the_cap_and_an_error_is_the_usual_error() {
    use futures::StreamExt;
    let big: Vec<u8> = (0..5_000_000u32).map(|i| (i % 251) as u8).collect();
    let server = serve(200, "application/octet-stream", &big).await;
    // The cap holds for bodies read whole, not for a download.
    let client = Client::new(config(&server).max_response_bytes(1 << 20)).unwrap();
    let mut download = client
        .download(Request::new(&LIST), CallOptions::new())
        .await
        .unwrap();
    assert_eq!(download.status(), 200);
    assert_eq!(download.content_type(), Some("application/octet-stream"));
    let (mut len, mut chunks, mut checksum) = (0usize, 0usize, 0u64);
    while let Some(chunk) = download.next().await {
        let chunk = chunk.unwrap();
        checksum += chunk.iter().map(|b| u64::from(*b)).sum::<u64>();
        len += chunk.len();
        chunks += 1;
    }
    assert_eq!(len, big.len());
    assert_eq!(checksum, big.iter().map(|b| u64::from(*b)).sum::<u64>());
    assert!(chunks > 1, "arrived in {chunks} chunk(s)");
    let sent = &server.received_requests().await.unwrap()[0];
    assert_eq!(header(sent, "accept"), Some("*/*"));

    let server = serve(404, "application/json", br#"{"detail": "no such file"}"#).await;
    let err = plain_client(&server)
        .download(Request::new(&LIST), CallOptions::new())
        .await
        .unwrap_err();
    assert_eq!(err.status(), Some(404));
    assert!(err.to_string().contains("no such file"), "{err}");
}

/// The body of a download, read to its end.
async fn read_all(download: oncegen_runtime::Download) -> Vec<u8> {
    use futures::TryStreamExt;
    let chunks: Vec<_> = download.try_collect().await.unwrap();
    chunks.concat()
}

/// A GET download from a server answering `first` once, then `then`: the body read and the
/// number of requests the server received.
async fn download_after(first: ResponseTemplate, then: ResponseTemplate) -> (Vec<u8>, usize) {
    let server = MockServer::start().await;
    answers(&server, "GET", first, 1, then).await;
    let client = Client::new(config(&server)).unwrap();
    let download = client
        .download(Request::new(&LIST), CallOptions::new())
        .await
        .unwrap();
    let body = read_all(download).await;
    (body, server.received_requests().await.unwrap().len())
}

#[tokio::test]
async fn a_download_is_retried_until_its_head_arrives_like_any_read() {
    let file = ResponseTemplate::new(200)
        .insert_header("content-type", "text/csv")
        .set_body_bytes(b"id,name\n1,a\n".to_vec());
    // A 503, then the file.
    let (body, requests) = download_after(ResponseTemplate::new(503), file.clone()).await;
    assert_eq!((body.as_slice(), requests), (&b"id,name\n1,a\n"[..], 2));
    // A head slower than the attempt timeout (500 ms in `config`), then the file.
    let slow = file
        .clone()
        .set_delay(std::time::Duration::from_millis(900));
    let (body, requests) = download_after(slow, file).await;
    assert_eq!((body.as_slice(), requests), (&b"id,name\n1,a\n"[..], 2));

    // A 503 every time: the usual error once the policy's attempts are spent.
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .respond_with(ResponseTemplate::new(503))
        .mount(&server)
        .await;
    let err = Client::new(config(&server))
        .unwrap()
        .download(Request::new(&LIST), CallOptions::new())
        .await
        .unwrap_err();
    assert_eq!(err.status(), Some(503));
    let attempts = fast_policy().max_attempts as usize;
    assert_eq!(server.received_requests().await.unwrap().len(), attempts);
    assert_eq!(err.context().map(|c| c.attempts), Some(attempts as u32));
}

#[tokio::test]
async fn a_write_download_is_resent_only_when_it_certainly_did_not_run() {
    let file = ResponseTemplate::new(200).set_body_bytes(b"export".to_vec());
    // A 503 may mean the write ran: its answer, and nothing resent.
    let server = MockServer::start().await;
    answers(&server, "POST", ResponseTemplate::new(503), 1, file.clone()).await;
    let client = Client::new(config(&server)).unwrap();
    let err = client
        .download(create_request(), CallOptions::new())
        .await
        .unwrap_err();
    assert_eq!(err.status(), Some(503));
    assert_eq!(server.received_requests().await.unwrap().len(), 1);

    // A 429 was not processed: resent (same idempotency key) after the wait.
    let server = MockServer::start().await;
    let limited = ResponseTemplate::new(429).insert_header("retry-after", "0");
    answers(&server, "POST", limited, 1, file).await;
    let client = Client::new(config(&server)).unwrap();
    let download = client
        .download(create_request(), CallOptions::new())
        .await
        .unwrap();
    assert_eq!(read_all(download).await, b"export");
    let sent = server.received_requests().await.unwrap();
    assert_eq!(sent.len(), 2);
    let key = header(&sent[0], "idempotency-key");
    assert!(key.is_some_and(|k| !k.is_empty()));
    assert_eq!(key, header(&sent[1], "idempotency-key"));
}

// ---- an operation's own server ----

/// A server URL as generated code passes it (`&'static str`).
fn leaked(url: String) -> &'static str {
    Box::leak(url.into_boxed_str())
}

async fn answering_server() -> MockServer {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({"ok": true})))
        .mount(&server)
        .await;
    server
}

async fn received(server: &MockServer) -> usize {
    server.received_requests().await.unwrap().len()
}

#[tokio::test]
async fn an_operation_with_its_own_server_goes_there_or_where_it_is_routed() {
    let (base, files, routed) = (
        answering_server().await,
        answering_server().await,
        answering_server().await,
    );
    let own = || {
        let mut request = Request::new(&LIST);
        request.server(leaked(format!("{}/", files.uri())));
        request
    };
    let client = Client::new(config(&base).bearer("ccs_test.s3cr3t")).unwrap();
    client
        .execute::<Value>(own(), CallOptions::new())
        .await
        .unwrap();
    client
        .execute::<Value>(Request::new(&LIST), CallOptions::new())
        .await
        .unwrap();
    assert_eq!((received(&base).await, received(&files).await), (1, 1));
    let sent = &files.received_requests().await.unwrap()[0];
    assert_eq!(sent.url.path(), "/v1/things");
    assert_eq!(
        header(sent, "authorization"),
        Some("Bearer ccs_test.s3cr3t")
    );

    // Routed (a test server, a proxy): the same request goes to the route's target.
    let routed_client = Client::new(
        config(&base)
            .bearer("ccs_test.s3cr3t")
            .route_server(files.uri(), format!("{}/", routed.uri())),
    )
    .unwrap();
    routed_client
        .execute::<Value>(own(), CallOptions::new())
        .await
        .unwrap();
    assert_eq!(received(&files).await, 1, "not sent to the routed server");
    assert_eq!(received(&routed).await, 1);
}

#[tokio::test]
async fn a_server_that_is_a_path_is_on_the_base_urls_host() {
    let base = answering_server().await;
    let client = Client::new(config(&base).bearer("ccs_test.s3cr3t")).unwrap();
    let mut on_base_host = Request::new(&LIST);
    on_base_host.server("/uploads");
    client
        .execute::<Value>(on_base_host, CallOptions::new())
        .await
        .unwrap();
    let last = base.received_requests().await.unwrap().pop().unwrap();
    assert_eq!(last.url.path(), "/uploads/v1/things");
}

/// The base URL's rules hold for an operation's server and a route: no credentials in
/// cleartext to another machine, checked before anything is sent.
#[tokio::test]
async fn an_operations_server_and_a_route_keep_the_base_urls_rules() {
    let (base, files) = (answering_server().await, answering_server().await);
    let client = Client::new(config(&base).bearer("ccs_test.s3cr3t")).unwrap();
    let mut cleartext = Request::new(&LIST);
    cleartext.server("http://files.example.com");
    let err = client
        .execute::<Value>(cleartext, CallOptions::new())
        .await
        .unwrap_err();
    assert!(err.to_string().contains("cleartext http://"), "{err}");
    assert_eq!(received(&base).await, 0, "nothing sent");
    let err = Client::new(
        config(&base)
            .bearer("ccs_test.s3cr3t")
            .route_server(files.uri(), "http://10.0.0.1"),
    )
    .unwrap_err();
    assert!(err.to_string().contains("cleartext http://"), "{err}");
    assert!(
        Client::new(config(&base).route_server(files.uri(), "not a url")).is_err(),
        "a route to something that is not a URL"
    );
}

/// The shapes of a generated crate, through the codec's macros (as the generator writes them),
/// and their twins with serde's derive: the reference for the paths of decode errors.
#[allow(dead_code)] // only decoded, to fail
mod shapes {
    use std::collections::BTreeMap;

    use chrono::{DateTime, Utc};

    #[derive(Debug)]
    pub struct Page {
        pub data: Vec<Item>,
    }
    oncegen_runtime::json_object!(Page { data });

    #[derive(Debug)]
    pub struct Item {
        pub id: i64,
        pub last_access: DateTime<Utc>,
        pub labels: Option<BTreeMap<String, Label>>,
    }
    oncegen_runtime::json_object!(Item { id, last_access = "lastAccess", labels optional });

    #[derive(Debug)]
    pub struct Label {
        pub weight: f64,
    }
    oncegen_runtime::json_object!(Label { weight });

    pub mod twin {
        use super::*;

        #[derive(Debug, serde::Deserialize)]
        pub struct Page {
            pub data: Vec<Item>,
        }

        #[derive(Debug, serde::Deserialize)]
        pub struct Item {
            pub id: i64,
            #[serde(rename = "lastAccess")]
            pub last_access: DateTime<Utc>,
            pub labels: Option<BTreeMap<String, Label>>,
        }

        #[derive(Debug, serde::Deserialize)]
        pub struct Label {
            pub weight: f64,
        }
    }
}

/// Bodies that do not decode into [`shapes::Page`]: (body, what the message starts with, what
/// else it shows).
fn undecodable_pages() -> [(String, &'static str, Option<&'static str>); 4] {
    let item = r#"{"id": 1, "lastAccess": "2024-05-06T07:08:09Z"}"#;
    [
        // A timestamp without an offset, two levels down.
        (
            r#"{"data": [{"id": 1, "lastAccess": "2024-05-06T07:08:09"}]}"#.to_owned(),
            "data[0].lastAccess: premature end of input",
            Some(r#"(found "2024-05-06T07:08:09")"#),
        ),
        // An object where a list is documented.
        (
            r#"{"data": {"id": 1}}"#.to_owned(),
            "data: invalid type: map, expected a sequence",
            None,
        ),
        // Through an array, an optional map and a struct.
        (
            format!(
                r#"{{"data": [{item}, {{"id": 2, "lastAccess": "2024-05-06T07:08:09Z", "labels": {{"size": {{"weight": "heavy"}}}}}}]}}"#
            ),
            r#"data[1].labels.size.weight: invalid type: string "heavy", expected f64"#,
            None,
        ),
        // A missing member names the object it is missing from.
        (
            r#"{"data": [{"id": 3}]}"#.to_owned(),
            "data[0]: missing field `lastAccess`",
            None,
        ),
    ]
}

#[tokio::test]
async fn a_decode_error_names_the_path_what_was_expected_and_what_was_found() {
    for (body, expected, found) in undecodable_pages() {
        let server = serve(200, "application/json", body.as_bytes()).await;
        let err = client(&server)
            .execute::<shapes::Page>(Request::new(&LIST), CallOptions::new())
            .await
            .unwrap_err();
        let Error::Decode { message, .. } = &err else {
            panic!("a decode error, got {err:?}");
        };
        says_what_the_reference_says(message, &body);
        assert!(message.starts_with(expected), "{message}\nlacks {expected}");
        if let Some(found) = found {
            assert!(message.contains(found), "{message} lacks {found}");
        }
        assert!(err.to_string().contains(expected), "{err}");
        // The body stays as it came.
        assert_eq!(
            err.undecoded_body().unwrap().bytes.as_ref(),
            body.as_bytes()
        );
    }
}

/// The reference: serde_path_to_error over serde's derive of the same shapes; `message` leads
/// with its path and holds its message.
fn says_what_the_reference_says(message: &str, body: &str) {
    let mut reference = serde_json::Deserializer::from_str(body);
    let reference =
        serde_path_to_error::deserialize::<_, shapes::twin::Page>(&mut reference).unwrap_err();
    assert!(
        message.starts_with(&format!("{}: ", reference.path())),
        "{message} does not start with the reference path {}",
        reference.path()
    );
    assert!(
        message.contains(&reference.inner().to_string()),
        "{message} lacks serde's message {}",
        reference.inner()
    );
}
