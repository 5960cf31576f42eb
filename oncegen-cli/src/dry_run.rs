//! `--dry-run`: the request a command would send, printed instead of sent.
//!
//! The client is built with a transport that records the first request and answers it with a
//! local failure (`TransportErrorKind::Invalid`: nothing was sent, and the runtime neither
//! retries nor journals it). The request is then the runtime's own, byte for byte: method,
//! URL, headers (credentials redacted) and body.

use http::HeaderMap;
use oncegen_runtime::{HttpRequest, HttpResponse, Transport, TransportError, TransportErrorKind};
use serde_json::{Map, Value, json};
use std::future::Future;
use std::pin::Pin;
use std::sync::Mutex;

/// A transport that keeps the request and sends nothing.
#[derive(Debug, Default)]
pub struct Recorder {
    request: Mutex<Option<HttpRequest>>,
}

impl Recorder {
    /// The recorded request as JSON (`method`, `url`, `headers`, `body`), if one was made.
    pub fn request(&self) -> Option<Value> {
        let guard = self.request.lock().unwrap_or_else(|e| e.into_inner());
        guard.as_ref().map(describe)
    }
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
        let shown = if is_secret(name.as_str()) {
            "<redacted>".to_owned()
        } else {
            String::from_utf8_lossy(value.as_bytes()).into_owned()
        };
        out.insert(name.as_str().to_owned(), Value::String(shown));
    }
    Value::Object(out)
}

fn describe(request: &HttpRequest) -> Value {
    let body = if request.body.is_empty() {
        Value::Null
    } else {
        serde_json::from_slice(&request.body)
            .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&request.body).into_owned()))
    };
    json!({
        "method": request.method.as_str(),
        "url": request.url,
        "headers": headers(&request.headers),
        "body": body,
    })
}

#[cfg(test)]
mod tests {
    use super::is_secret;

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
}
