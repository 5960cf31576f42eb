//! Credentials stay where they belong: redirects are never followed (a 3xx is
//! `Error::Redirected`), so another origin never receives a write's body, its key or signed-mode
//! headers; and credentials never go over cleartext `http://` to a host that is not loopback
//! unless the user opts in.

use std::time::Duration;

use oncegen_runtime::{CallOptions, Client, Config, Error, Request, RetryPolicy};
use serde_json::Value;
use wiremock::matchers::any;
use wiremock::{Mock, MockServer, ResponseTemplate};

mod common;

use common::{LIST, create_request, with_key};

fn with_credentials(config: Config, signed: bool) -> Config {
    if signed {
        config.signed("key-prefix", "signing-secret")
    } else {
        config.bearer("pfx.bearer-secret")
    }
}

#[tokio::test]
async fn a_redirect_to_another_origin_is_never_followed_in_either_auth_mode() {
    for signed in [false, true] {
        for status in [301u16, 302, 303, 307, 308] {
            let elsewhere = MockServer::start().await;
            Mock::given(any())
                .respond_with(ResponseTemplate::new(200))
                .mount(&elsewhere)
                .await;
            let origin = MockServer::start().await;
            let location = format!("{}/collect?token=abc", elsewhere.uri());
            Mock::given(any())
                .respond_with(ResponseTemplate::new(status).insert_header("location", location))
                .mount(&origin)
                .await;
            let config = Config::new(origin.uri())
                .retry_policy(RetryPolicy::default())
                .total_timeout(Duration::from_secs(5));
            let client = Client::new(with_credentials(config, signed)).unwrap();

            let err = client
                .execute::<Value>(create_request(), with_key("redirected-write-1"))
                .await
                .unwrap_err();
            let Error::Redirected {
                status: got,
                location,
                context,
            } = &err
            else {
                panic!("{err:?}")
            };
            assert_eq!(*got, status);
            assert_eq!(
                location.as_deref(),
                Some(format!("{}/collect", elsewhere.uri()).as_str()),
                "the query (which may hold a token) is left out"
            );
            assert_eq!(context.attempts, 1, "not retried");
            assert_eq!(err.idempotency_key(), Some("redirected-write-1"));
            assert!(!err.is_retryable());
            assert!(!err.to_string().contains("secret"));

            let err = client
                .execute::<Value>(Request::new(&LIST), CallOptions::new())
                .await
                .unwrap_err();
            assert!(matches!(err, Error::Redirected { .. }), "{err:?}");

            assert_eq!(origin.received_requests().await.unwrap().len(), 2);
            let leaked = elsewhere.received_requests().await.unwrap();
            assert!(
                leaked.is_empty(),
                "signed={signed} {status}: another origin received {} request(s)",
                leaked.len()
            );
        }
    }
}

#[test]
fn credentials_over_cleartext_to_another_host_are_refused_unless_opted_in() {
    for signed in [false, true] {
        let remote = with_credentials(Config::new("http://api.example.com"), signed);
        let err = Client::new(remote.clone()).unwrap_err();
        assert!(matches!(err, Error::Config { .. }), "{err:?}");
        let message = err.to_string();
        assert!(
            message.contains("cleartext http://") && message.contains("api.example.com"),
            "{message}"
        );
        assert!(message.contains("allow_insecure_http(true)"), "{message}");
        assert!(Client::new(remote.allow_insecure_http(true)).is_ok());
        let tls = with_credentials(Config::new("https://api.example.com"), signed);
        assert!(Client::new(tls).is_ok());
        let local = with_credentials(Config::new("http://localhost:8080"), signed);
        assert!(Client::new(local).is_ok());
    }
    assert!(
        Client::new(Config::new("http://api.example.com")).is_ok(),
        "no credentials"
    );
}
