//! What the integration tests share: operations and an API profile a generated crate would
//! hand the runtime (written by hand here), fast policies, and request helpers.
#![allow(dead_code)] // each test binary uses a different part

use std::time::Duration;

use oncegen_runtime::{
    ApiProfile, CallOptions, Config, ErrorBody, Idempotency, Method, OperationLookup,
    OperationSpec, Request, RetryPolicy, SdkIdentity,
};
use serde_json::json;
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

pub static LIST: OperationSpec = OperationSpec {
    operation_id: "listThings",
    method: Method::Get,
    path: "/v1/things",
    idempotency: Idempotency::None,
    operation_envelope: false,
};

pub static CREATE: OperationSpec = OperationSpec {
    operation_id: "createThing",
    method: Method::Post,
    path: "/v1/things/{region}",
    idempotency: Idempotency::Required,
    operation_envelope: true,
};

pub static CREATE_NO_KEY: OperationSpec = OperationSpec {
    operation_id: "createThingNoKey",
    method: Method::Post,
    path: "/v1/nokey",
    idempotency: Idempotency::None,
    operation_envelope: false,
};

pub static LOOKUP: OperationSpec = OperationSpec {
    operation_id: "getOperations",
    method: Method::Get,
    path: "/v1/operations",
    idempotency: Idempotency::None,
    operation_envelope: false,
};

/// The conventions a generated crate would hand the runtime (here: written by hand).
pub static PROFILE: ApiProfile = ApiProfile {
    automatic_retry_codes: &["idempotency_in_progress"],
    caller_retry_codes: &["service_changed_retry"],
    lookup: Some(OperationLookup {
        spec: &LOOKUP,
        idempotency_key: "idempotency_key",
        method: "method",
        path: "path",
        found_id: "/operation/id",
        not_found: "operation_not_found",
        ambiguous: "operation_lookup_ambiguous",
        expired: "operation_expired",
    }),
    error_body: ErrorBody {
        code: &["/error/code", "/code"],
        message: &["/error/message", "/message"],
        request_id: &["/error/request_id", "/request_id"],
        field_errors: &["/error/field_errors", "/field_errors"],
        details: &["/error/details", "/details"],
    },
};

pub fn fast_policy() -> RetryPolicy {
    RetryPolicy {
        max_attempts: 4,
        initial_backoff: Duration::from_millis(5),
        max_backoff: Duration::from_millis(20),
        max_retry_after: Duration::from_secs(2),
        ..RetryPolicy::default()
    }
}

pub fn config(server: &MockServer) -> Config {
    config_for(&server.uri())
}

/// The test configuration for any base URL.
pub fn config_for(base: &str) -> Config {
    Config::new(base)
        .sdk(SdkIdentity::new(
            "customer-cloud-sdk",
            "9.9.9",
            "2026-10-07.1",
        ))
        .profile(&PROFILE)
        .retry_policy(fast_policy())
        .attempt_timeout(Duration::from_millis(500))
        .total_timeout(Duration::from_secs(2))
}

pub fn create_request() -> Request {
    let mut r = Request::new(&CREATE);
    r.path_param("region", &"eu central");
    r.json_body(&json!({"name": "x", "n": 1}));
    r
}

pub fn with_key(key: &str) -> CallOptions {
    let mut o = CallOptions::new();
    o.set_idempotency_key(key);
    o
}

pub fn header<'a>(r: &'a wiremock::Request, name: &str) -> Option<&'a str> {
    r.headers.get(name).and_then(|v| v.to_str().ok())
}

/// Mounts on `server`: requests with HTTP method `verb` are answered `first` the first `times`
/// times, then `then`.
pub async fn answers(
    server: &MockServer,
    verb: &str,
    first: ResponseTemplate,
    times: u64,
    then: ResponseTemplate,
) {
    Mock::given(method(verb))
        .respond_with(first)
        .up_to_n_times(times)
        .mount(server)
        .await;
    Mock::given(method(verb))
        .respond_with(then)
        .mount(server)
        .await;
}

/// A write answered 503 then, after a lookup that finds nothing, 201; and a read answered 500
/// then 200.
pub async fn flaky_server() -> MockServer {
    let server = MockServer::start().await;
    let created = ResponseTemplate::new(201)
        .insert_header("x-request-id", "req-created")
        .set_body_json(json!({"id": 7}));
    answers(&server, "POST", ResponseTemplate::new(503), 1, created).await;
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
