//! `--dry-run`: the request a command would send, printed instead of sent.
//!
//! The client is built with a transport that records the first request and answers it with a
//! local failure (`TransportErrorKind::Invalid`: nothing was sent, and the runtime neither
//! retries nor journals it). The request is then the runtime's own, byte for byte: method,
//! URL, headers (credentials redacted) and body.

use http::HeaderMap;
use oncegen_runtime::{HttpRequest, HttpResponse, Transport, TransportError, TransportErrorKind};
use percent_encoding::{NON_ALPHANUMERIC, utf8_percent_encode};
use serde_json::{Map, Value, json};
use std::future::Future;
use std::pin::Pin;
use std::sync::Mutex;

/// A transport that keeps the request and sends nothing.
#[derive(Debug, Default)]
pub struct Recorder {
    request: Mutex<Option<HttpRequest>>,
    /// Query parameters that carry a credential (API keys `in: query`), as written in URLs.
    secret_query: Vec<String>,
}

impl Recorder {
    /// A recorder that redacts the query parameters `secret_query` (names as the document
    /// writes them) besides the credential headers.
    pub fn redacting<'q>(secret_query: impl IntoIterator<Item = &'q str>) -> Self {
        let encoded = |name: &str| utf8_percent_encode(name, NON_ALPHANUMERIC).to_string();
        Recorder {
            request: Mutex::default(),
            secret_query: secret_query.into_iter().map(encoded).collect(),
        }
    }

    /// The recorded request as JSON (`method`, `url`, `headers`, `body`), if one was made.
    pub fn request(&self) -> Option<Value> {
        let guard = self.request.lock().unwrap_or_else(|e| e.into_inner());
        guard.as_ref().map(|r| describe(r, &self.secret_query))
    }
}

/// `url` with the value of each query parameter named in `secret` replaced.
fn redact_query(url: &str, secret: &[String]) -> String {
    let Some((path, query)) = url.split_once('?') else {
        return url.to_owned();
    };
    let pairs: Vec<String> = query
        .split('&')
        .map(|pair| match pair.split_once('=') {
            Some((name, _)) if secret.iter().any(|s| s == name) => format!("{name}=<redacted>"),
            _ => pair.to_owned(),
        })
        .collect();
    format!("{path}?{}", pairs.join("&"))
}

impl Transport for Recorder {
    fn send(
        &self,
        request: HttpRequest,
    ) -> Pin<Box<dyn Future<Output = Result<HttpResponse, TransportError>> + Send + '_>> {
        let mut slot = self.request.lock().unwrap_or_else(|e| e.into_inner());
        slot.get_or_insert(request);
        Box::pin(async {
            Err(TransportError::new(
                TransportErrorKind::Invalid,
                "dry run: nothing was sent",
            ))
        })
    }
}

/// Header names whose values are credentials.
fn is_secret(name: &str) -> bool {
    let name = name.to_ascii_lowercase();
    name != "idempotency-key"
        && (matches!(
            name.as_str(),
            "authorization" | "proxy-authorization" | "cookie"
        ) || ["key", "secret", "signature", "token"]
            .iter()
            .any(|w| name.contains(w)))
}

fn headers(map: &HeaderMap) -> Value {
    let mut out = Map::new();
    for (name, value) in map {
        let shown = if is_secret(name.as_str()) || value.is_sensitive() {
            "<redacted>".to_owned()
        } else {
            String::from_utf8_lossy(value.as_bytes()).into_owned()
        };
        out.insert(name.as_str().to_owned(), Value::String(shown));
    }
    Value::Object(out)
}

fn describe(request: &HttpRequest, secret_query: &[String]) -> Value {
    let body = if request.body.is_empty() {
        Value::Null
    } else {
        serde_json::from_slice(&request.body)
            .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&request.body).into_owned()))
    };
    json!({
        "method": request.method.as_str(),
        "url": redact_query(&request.url, secret_query),
        "headers": headers(&request.headers),
        "body": body,
    })
}

#[cfg(test)]
mod tests {
    use super::{Recorder, is_secret, redact_query};

    #[test]
    fn credentials_are_redacted_and_the_idempotency_key_shown() {
        for secret in [
            "Authorization",
            "x-api-key",
            "X-Signature",
            "x-auth-token",
            "cookie",
        ] {
            assert!(is_secret(secret), "{secret}");
        }
        for shown in [
            "Idempotency-Key",
            "content-type",
            "x-client-request-id",
            "user-agent",
        ] {
            assert!(!is_secret(shown), "{shown}");
        }
    }

    #[test]
    fn a_query_credential_is_redacted() {
        let recorder = Recorder::redacting(["api_key"]);
        let url = "http://h/v1/x?limit=2&api%5Fkey=s3cr3t&api_key_hint=shown";
        assert_eq!(
            redact_query(url, &recorder.secret_query),
            "http://h/v1/x?limit=2&api%5Fkey=<redacted>&api_key_hint=shown"
        );
        assert_eq!(
            redact_query("http://h/v1/x", &recorder.secret_query),
            "http://h/v1/x"
        );
    }
}
