//! Servers that misbehave: each case ends in a typed error within the configured timeouts,
//! never a panic or a hang. Raw answers come from a small TCP server on 127.0.0.1; HTTP/2
//! resets from an `h2` server.

use std::future::Future;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use oncegen_runtime::{
    CallOptions, Client, Config, Error, HyperTransport, Request, RetryPolicy, Transport,
    TransportErrorKind,
};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use wiremock::matchers::method;
use wiremock::{Mock, MockServer, ResponseTemplate};

mod common;

use common::{CREATE, LIST, create_request, with_key};

/// Upper bound of every case: a hang fails the test instead of blocking it.
const LIMIT: Duration = Duration::from_secs(10);

/// Three attempts, short timeouts, no lookup (so an unknown write outcome reaches the caller).
fn config(base: &str) -> Config {
    Config::new(base)
        .retry_policy(RetryPolicy {
            max_attempts: 3,
            initial_backoff: Duration::from_millis(5),
            max_backoff: Duration::from_millis(20),
            ..RetryPolicy::default()
        })
        .attempt_timeout(Duration::from_millis(400))
        .total_timeout(Duration::from_secs(4))
}

/// Every transport compiled in: hyper's (the default) and, with the `reqwest` feature (on in
/// these tests), reqwest's (behind a proxy).
fn transports() -> Vec<Arc<dyn Transport>> {
    vec![
        Arc::new(HyperTransport::new(None).unwrap()),
        #[cfg(feature = "reqwest")]
        Arc::new(oncegen_runtime::ReqwestTransport::new(None).unwrap()),
    ]
}

/// Serves every connection with `answer` after reading one request; counts requests.
async fn raw_server<F, Fut>(answer: F) -> (String, Arc<AtomicUsize>)
where
    F: Fn(TcpStream) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = ()> + Send + 'static,
{
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let count = Arc::new(AtomicUsize::new(0));
    let seen = count.clone();
    tokio::spawn(async move {
        while let Ok((mut stream, _)) = listener.accept().await {
            if read_request(&mut stream).await {
                seen.fetch_add(1, Ordering::SeqCst);
                tokio::spawn(answer(stream));
            }
        }
    });
    (base, count)
}

/// Reads one request (head, then a `Content-Length` body); false if the client went away.
async fn read_request(stream: &mut TcpStream) -> bool {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 4096];
    let head_end = loop {
        if let Some(end) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            break end + 4;
        }
        match stream.read(&mut chunk).await {
            Ok(0) | Err(_) => return false,
            Ok(n) => buf.extend_from_slice(&chunk[..n]),
        }
    };
    let head = String::from_utf8_lossy(&buf[..head_end]).to_ascii_lowercase();
    let length: usize = head
        .lines()
        .find_map(|l| l.strip_prefix("content-length:"))
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(0);
    while buf.len() < head_end + length {
        match stream.read(&mut chunk).await {
            Ok(0) | Err(_) => return false,
            Ok(n) => buf.extend_from_slice(&chunk[..n]),
        }
    }
    true
}

/// Answers `bytes`, then closes the connection.
fn answer(bytes: &'static [u8]) -> impl Fn(TcpStream) -> futures::future::BoxFuture<'static, ()> {
    move |mut stream| {
        Box::pin(async move {
            let _ = stream.write_all(bytes).await;
            let _ = stream.shutdown().await;
        })
    }
}

async fn read(client: &Client) -> Result<Value, Error> {
    client
        .execute::<Value>(Request::new(&LIST), CallOptions::new())
        .await
        .map(|r| r.into_body())
}

async fn write(client: &Client, key: &str) -> Result<Value, Error> {
    client
        .execute::<Value>(create_request(), with_key(key))
        .await
        .map(|r| r.into_body())
}

/// The unknown outcome of a write: the key and why.
fn unknown(err: &Error) -> (&str, &str) {
    let Error::WriteOutcomeUnknown(u) = err else {
        panic!("expected an unknown outcome, got {err:?}")
    };
    (u.idempotency_key.as_deref().unwrap(), u.reason.as_str())
}

#[tokio::test]
async fn a_truncated_body_is_a_transport_error_and_an_unknown_write_outcome() {
    for transport in transports() {
        truncated_body(transport).await;
    }
}

async fn truncated_body(transport: Arc<dyn Transport>) {
    let (base, count) = raw_server(answer(
        b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 50\r\n\r\n{\"id\":",
    ))
    .await;
    let client = Client::new(config(&base).transport(transport)).unwrap();
    let err = tokio::time::timeout(LIMIT, read(&client))
        .await
        .unwrap()
        .unwrap_err();
    let Error::Transport { source, context } = &err else {
        panic!("{err:?}")
    };
    assert_eq!(source.kind, TransportErrorKind::Other);
    assert_eq!(source.status, Some(200));
    assert_eq!(context.attempts, 3, "a read is retried");
    assert_eq!(count.load(Ordering::SeqCst), 3);

    let err = tokio::time::timeout(LIMIT, write(&client, "trunc-key-1"))
        .await
        .unwrap()
        .unwrap_err();
    let (key, reason) = unknown(&err);
    assert_eq!(key, "trunc-key-1");
    assert!(reason.contains("transport error"), "{reason}");
    assert_eq!(
        count.load(Ordering::SeqCst),
        4,
        "the write is never resent blindly"
    );
}

#[tokio::test]
async fn a_2xx_with_another_content_type_is_a_decode_error_or_an_unknown_write_outcome() {
    let (base, count) = raw_server(answer(
        b"HTTP/1.1 200 OK\r\ncontent-type: text/html\r\ncontent-length: 13\r\n\r\n<html></html>",
    ))
    .await;
    let client = Client::new(config(&base)).unwrap();
    let err = tokio::time::timeout(LIMIT, read(&client))
        .await
        .unwrap()
        .unwrap_err();
    let Error::Decode {
        status,
        message,
        context,
        body,
    } = &err
    else {
        panic!("{err:?}")
    };
    assert_eq!(*status, 200);
    assert!(message.contains("text/html"), "{message}");
    assert_eq!(body.media_type(), Some("text/html"), "the body is kept");
    assert_eq!(body.text(), Some("<html></html>"));
    assert_eq!(err.undecoded_body(), Some(body));
    assert_eq!(
        context.attempts, 3,
        "an edge page may be transient: retried"
    );

    let err = tokio::time::timeout(LIMIT, write(&client, "html-key-1"))
        .await
        .unwrap()
        .unwrap_err();
    assert_eq!(unknown(&err), ("html-key-1", "non-JSON success response"));
    assert_eq!(count.load(Ordering::SeqCst), 4);
}

#[tokio::test]
async fn a_huge_body_stops_at_the_cap() {
    for transport in transports() {
        huge_body(transport).await;
    }
}

async fn huge_body(transport: Arc<dyn Transport>) {
    assert_eq!(
        Config::new("https://api.example.com").get_max_response_bytes(),
        32 * 1024 * 1024,
        "a sensible default"
    );
    // Declared too large: refused before the body is read.
    let (declared, _) = raw_server(answer(
        b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 1000000\r\n\r\n[",
    ))
    .await;
    // Chunked, no length: stopped while reading.
    let (chunked, _) = raw_server(|mut stream: TcpStream| async move {
        let _ = stream
            .write_all(b"HTTP/1.1 201 Created\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n")
            .await;
        let chunk = format!("400\r\n{}\r\n", "1".repeat(0x400));
        for _ in 0..64 {
            if stream.write_all(chunk.as_bytes()).await.is_err() {
                return;
            }
        }
        let _ = stream.write_all(b"0\r\n\r\n").await;
    })
    .await;
    for base in [declared, chunked] {
        let client = Client::new(
            config(&base)
                .max_response_bytes(4096)
                .transport(transport.clone()),
        )
        .unwrap();
        let err = tokio::time::timeout(LIMIT, read(&client))
            .await
            .unwrap()
            .unwrap_err();
        let Error::ResponseTooLarge { limit, context, .. } = &err else {
            panic!("{err:?}")
        };
        assert_eq!((*limit, context.attempts), (4096, 1), "final, not retried");
        let err = tokio::time::timeout(LIMIT, write(&client, "huge-key-1"))
            .await
            .unwrap()
            .unwrap_err();
        assert!(matches!(err, Error::ResponseTooLarge { .. }), "{err:?}");
        assert_eq!(
            err.idempotency_key(),
            Some("huge-key-1"),
            "a 2xx write was applied: settle it by key"
        );
    }
}

#[tokio::test]
async fn a_response_that_trickles_times_out_within_the_attempt_timeout() {
    for transport in transports() {
        trickling_body(transport).await;
    }
}

async fn trickling_body(transport: Arc<dyn Transport>) {
    let (base, _) = raw_server(|mut stream: TcpStream| async move {
        let _ = stream
            .write_all(
                b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 200\r\n\r\n",
            )
            .await;
        for _ in 0..200 {
            tokio::time::sleep(Duration::from_millis(50)).await;
            if stream.write_all(b" ").await.is_err() {
                return;
            }
        }
    })
    .await;
    let client = Client::new(
        config(&base)
            .retry_policy(RetryPolicy::disabled())
            .attempt_timeout(Duration::from_millis(300))
            .transport(transport),
    )
    .unwrap();
    let started = Instant::now();
    let err = tokio::time::timeout(LIMIT, read(&client))
        .await
        .unwrap()
        .unwrap_err();
    assert!(matches!(err, Error::Timeout { .. }), "{err:?}");
    // A timeout, not the body (complete after 10 s): the attempt timeout covers the body read.
    // How soon it fires depends on the machine's load; only its lower bound is certain.
    let elapsed = started.elapsed();
    assert!(
        elapsed >= Duration::from_millis(300),
        "the attempt timeout fired early: {elapsed:?}"
    );
}

/// Over HTTP/2 without TLS (prior knowledge), which only reqwest's client is built for here.
#[cfg(feature = "reqwest")]
#[tokio::test]
async fn http2_stream_resets_are_transport_errors() {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let resets = Arc::new(AtomicUsize::new(0));
    let counted = resets.clone();
    tokio::spawn(async move {
        while let Ok((socket, _)) = listener.accept().await {
            let counted = counted.clone();
            tokio::spawn(async move {
                let Ok(mut conn) = h2::server::handshake(socket).await else {
                    return;
                };
                while let Some(Ok((_request, mut respond))) = conn.accept().await {
                    counted.fetch_add(1, Ordering::SeqCst);
                    respond.send_reset(h2::Reason::INTERNAL_ERROR);
                }
            });
        }
    });
    let h2c = reqwest::Client::builder()
        .http2_prior_knowledge()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let client = Client::new(config(&base).transport(Arc::new(
        oncegen_runtime::ReqwestTransport::from_client(h2c),
    )))
    .unwrap();
    let err = tokio::time::timeout(LIMIT, read(&client))
        .await
        .unwrap()
        .unwrap_err();
    let Error::Transport { source, context } = &err else {
        panic!("{err:?}")
    };
    assert_eq!(source.kind, TransportErrorKind::Other, "{source}");
    assert_eq!(context.attempts, 3);
    let err = tokio::time::timeout(LIMIT, write(&client, "reset-key-1"))
        .await
        .unwrap()
        .unwrap_err();
    assert_eq!(unknown(&err).0, "reset-key-1");
    assert_eq!(resets.load(Ordering::SeqCst), 4);
}

#[tokio::test]
async fn a_2xx_write_whose_json_does_not_match_keeps_its_key() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(201).set_body_json(json!({"unexpected": [1, 2]})))
        .expect(1)
        .mount(&server)
        .await;
    #[derive(Debug, serde::Deserialize)]
    #[allow(dead_code)]
    struct Created {
        id: u64,
    }
    let client = Client::new(config(&server.uri())).unwrap();
    let mut request = Request::new(&CREATE);
    request.path_param("region", &"eu");
    request.json_body(&json!({"name": "x"}));
    let err = tokio::time::timeout(
        LIMIT,
        client.execute::<Created>(request, with_key("schema-key-1")),
    )
    .await
    .unwrap()
    .unwrap_err();
    assert!(matches!(err, Error::Decode { status: 201, .. }), "{err:?}");
    assert_eq!(err.idempotency_key(), Some("schema-key-1"));
    assert!(
        !err.is_retryable(),
        "applied: settle by key, do not resend blindly"
    );
}

/// A 2xx from the API (JSON content type) means the write was applied, so a body that does not
/// parse, or does not decode into the expected type, is `Error::Decode` with the idempotency
/// key and the body kept, after one request: never resent, never a lookup, never silent.
#[tokio::test]
async fn a_write_answered_2xx_with_a_body_that_does_not_decode_keeps_its_key_and_is_never_resent() {
    #[derive(Debug, serde::Deserialize)]
    #[allow(dead_code)] // only its shape matters
    struct Created {
        id: u64,
    }
    let cases: [(&[u8], &str); 2] = [
        (
            b"HTTP/1.1 201 Created\r\ncontent-type: application/json\r\ncontent-length: 9\r\n\r\n<b>ok</b>",
            "<b>ok</b>",
        ),
        (
            b"HTTP/1.1 201 Created\r\ncontent-type: application/json\r\ncontent-length: 13\r\n\r\n{\"id\":\"abc\"}\n",
            "{\"id\":\"abc\"}\n",
        ),
    ];
    for (raw, body_text) in cases {
        let (base, count) = raw_server(answer(raw)).await;
        // With the lookup profile: reconciliation is available, and still not used.
        let client = Client::new(config(&base).profile(&common::PROFILE)).unwrap();
        let err = tokio::time::timeout(
            LIMIT,
            client.execute::<Created>(create_request(), with_key("decode-key-1")),
        )
        .await
        .unwrap()
        .unwrap_err();
        let Error::Decode {
            status,
            body,
            context,
            ..
        } = &err
        else {
            panic!("{body_text}: {err:?}")
        };
        assert_eq!(*status, 201);
        assert_eq!(body.text(), Some(body_text), "the body is kept");
        assert_eq!(context.attempts, 1);
        assert_eq!(
            err.idempotency_key(),
            Some("decode-key-1"),
            "a 2xx write was applied: settle it by key"
        );
        assert_eq!(
            count.load(Ordering::SeqCst),
            1,
            "{body_text}: one request: no resend, no lookup"
        );
    }
}
