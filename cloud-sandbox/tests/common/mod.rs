//! Shared helpers of the sandbox's HTTP tests: start a sandbox and send bearer or signed requests.
#![allow(dead_code)]

use cloud_sandbox::{Credential, Sandbox};
use serde_json::Value;

/// A started sandbox and an HTTP client.
pub struct Env {
    /// The sandbox.
    pub sb: Sandbox,
    /// Plain reqwest client.
    pub http: reqwest::Client,
}

/// One answer.
pub struct Answer {
    /// Status.
    pub status: u16,
    /// Headers.
    pub headers: reqwest::header::HeaderMap,
    /// JSON body (Null if not JSON).
    pub body: Value,
    /// Raw text.
    pub text: String,
}

impl Answer {
    /// `error.code` of an error envelope.
    pub fn code(&self) -> &str {
        self.body["error"]["code"].as_str().unwrap_or("")
    }

    /// A header as str.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }
}

impl Drop for Env {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            assert_eq!(
                self.sb.schema_violations(),
                Vec::new(),
                "responses must match the spec"
            );
        }
    }
}

impl Env {
    /// Starts a sandbox.
    pub async fn new() -> Self {
        Self {
            sb: Sandbox::start().await.unwrap(),
            http: reqwest::Client::new(),
        }
    }

    /// Sends a request with optional credentials and extra headers.
    pub async fn send(
        &self,
        cred: Option<&Credential>,
        method: &str,
        pq: &str,
        body: Option<&Value>,
        headers: &[(&str, &str)],
    ) -> Answer {
        let bytes = body
            .map(|b| serde_json::to_vec(b).unwrap())
            .unwrap_or_default();
        let m = reqwest::Method::from_bytes(method.as_bytes()).unwrap();
        let mut rb = self.http.request(m, format!("{}{pq}", self.sb.base_url()));
        if let Some(c) = cred {
            match c.mode {
                cloud_sandbox::Mode::Bearer => {
                    rb = rb.header("authorization", format!("Bearer {}", c.bearer_token()))
                }
                cloud_sandbox::Mode::Signed => {
                    for (k, v) in cloud_sandbox::auth::signed_headers(c, method, pq, &bytes) {
                        rb = rb.header(k, v);
                    }
                }
            }
        }
        for (k, v) in headers {
            rb = rb.header(*k, *v);
        }
        if body.is_some() {
            rb = rb.header("content-type", "application/json").body(bytes);
        }
        let r = rb.send().await.expect("response");
        let status = r.status().as_u16();
        let headers = r.headers().clone();
        let text = r.text().await.unwrap_or_default();
        let body = serde_json::from_str(&text).unwrap_or(Value::Null);
        Answer {
            status,
            headers,
            body,
            text,
        }
    }

    /// Bearer request with the all-scopes credential.
    pub async fn bearer(
        &self,
        method: &str,
        pq: &str,
        body: Option<&Value>,
        headers: &[(&str, &str)],
    ) -> Answer {
        let c = self.sb.credentials().bearer.clone();
        self.send(Some(&c), method, pq, body, headers).await
    }

    /// Bearer `GET` of `pq`.
    pub async fn get(&self, pq: &str) -> Answer {
        self.bearer("GET", pq, None, &[]).await
    }

    /// Bearer request with an `Idempotency-Key`.
    pub async fn keyed(&self, method: &str, pq: &str, body: Option<&Value>, key: &str) -> Answer {
        self.bearer(method, pq, body, &[("idempotency-key", key)])
            .await
    }
}
