//! What arrives from servers that are not this API: bodies in every media type and nulls where
//! JSON allows them, against a local HTTP server (wiremock), checked against serde_json's own
//! reading of the same bytes.

use sdk_runtime::body::{NoBody, Raw, Text};
use sdk_runtime::{CallOptions, Client, Error, Request};
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
