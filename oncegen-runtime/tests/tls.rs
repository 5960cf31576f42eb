//! The default transport over TLS, against a local rustls server with a certificate of a test
//! CA (`fixtures/tls/`): an unknown issuer is refused before anything is sent, a trusted one
//! is spoken to over HTTP/2 or HTTP/1.1, whichever ALPN agrees on.

use std::sync::{Arc, Mutex};

use bytes::Bytes;
use oncegen_runtime::{
    CallOptions, Client, Error, HyperTransport, Request, RetryPolicy, TransportErrorKind,
};
use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;
use tokio_rustls::TlsAcceptor;

mod common;

use common::{LIST, config_for};

const CA: &[u8] = include_bytes!("fixtures/tls/ca.der");

/// What the server saw, one line per handshake or request.
type Seen = Arc<Mutex<Vec<String>>>;

/// A TLS server offering the protocols `alpn`, answering every request `{"ok":true}`.
async fn tls_server(alpn: &[&[u8]]) -> (u16, Seen) {
    let certs = vec![CertificateDer::from(
        include_bytes!("fixtures/tls/server.der").to_vec(),
    )];
    let key = PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(
        include_bytes!("fixtures/tls/server.key.der").to_vec(),
    ));
    let provider = Arc::new(rustls::crypto::aws_lc_rs::default_provider());
    let mut config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_no_client_auth()
        .with_single_cert(certs, key)
        .unwrap();
    config.alpn_protocols = alpn.iter().map(|p| p.to_vec()).collect();
    let acceptor = TlsAcceptor::from(Arc::new(config));
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let seen = Seen::default();
    let log = seen.clone();
    tokio::spawn(async move {
        while let Ok((socket, _)) = listener.accept().await {
            let (acceptor, log) = (acceptor.clone(), log.clone());
            tokio::spawn(async move {
                let Ok(mut tls) = acceptor.accept(socket).await else {
                    log.lock().unwrap().push("handshake failed".into());
                    return;
                };
                if tls.get_ref().1.alpn_protocol() == Some(b"h2") {
                    serve_h2(tls, log).await;
                } else {
                    let mut head = Vec::new();
                    let mut byte = [0u8; 1];
                    while !head.ends_with(b"\r\n\r\n")
                        && tls.read(&mut byte).await.unwrap_or(0) == 1
                    {
                        head.push(byte[0]);
                    }
                    let line = String::from_utf8_lossy(&head);
                    let line = line.lines().next().unwrap_or_default().to_owned();
                    log.lock().unwrap().push(line);
                    let _ = tls
                        .write_all(b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 11\r\nconnection: close\r\n\r\n{\"ok\":true}")
                        .await;
                    let _ = tls.shutdown().await;
                }
            });
        }
    });
    (port, seen)
}

async fn serve_h2(tls: tokio_rustls::server::TlsStream<tokio::net::TcpStream>, log: Seen) {
    let Ok(mut conn) = h2::server::handshake(tls).await else {
        return;
    };
    while let Some(Ok((request, mut respond))) = conn.accept().await {
        log.lock()
            .unwrap()
            .push(format!("h2 {} {}", request.method(), request.uri().path()));
        let response = http::Response::builder()
            .status(200)
            .header("content-type", "application/json")
            .body(())
            .unwrap();
        if let Ok(mut body) = respond.send_response(response, false) {
            let _ = body.send_data(Bytes::from_static(b"{\"ok\":true}"), true);
        }
    }
}

async fn get(client: &Client) -> Result<Value, Error> {
    client
        .execute::<Value>(Request::new(&LIST), CallOptions::new())
        .await
        .map(|r| r.into_body())
}

#[tokio::test]
async fn a_certificate_of_an_unknown_issuer_is_refused_before_anything_is_sent() {
    let (port, seen) = tls_server(&[b"h2", b"http/1.1"]).await;
    let config = config_for(&format!("https://localhost:{port}"))
        .bearer("ccs_tls.s3cr3t")
        .retry_policy(RetryPolicy::disabled());
    let err = get(&Client::new(config).unwrap()).await.unwrap_err();
    let Error::Transport { source, .. } = &err else {
        panic!("{err:?}")
    };
    assert_eq!(source.kind, TransportErrorKind::Connect, "{source}");
    assert!(source.message.contains("certificate"), "{source}");
    // The server's side of the failed handshake may end just after the client's.
    for _ in 0..100 {
        if !seen.lock().unwrap().is_empty() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    assert_eq!(*seen.lock().unwrap(), ["handshake failed"], "no request");
}

#[tokio::test]
async fn a_trusted_server_is_spoken_to_over_the_protocol_alpn_agrees_on() {
    let trusted = || Arc::new(HyperTransport::with_root_certificates(None, &[CA]).unwrap());
    for (alpn, expected) in [
        (&[&b"h2"[..], b"http/1.1"][..], "h2 GET /v1/things"),
        (&[&b"http/1.1"[..]][..], "GET /v1/things HTTP/1.1"),
    ] {
        let (port, seen) = tls_server(alpn).await;
        for host in ["localhost", "127.0.0.1"] {
            let config = config_for(&format!("https://{host}:{port}"))
                .bearer("ccs_tls.s3cr3t")
                .transport(trusted());
            let body = get(&Client::new(config).unwrap()).await.unwrap();
            assert_eq!(body["ok"], true);
        }
        assert_eq!(*seen.lock().unwrap(), [expected, expected], "{alpn:?}");
    }
    assert!(
        HyperTransport::with_root_certificates(None, &[b"not a certificate"]).is_err(),
        "a root that is not a certificate"
    );
}
