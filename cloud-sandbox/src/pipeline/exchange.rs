//! One request's bookkeeping around the steps: its id, its journal record, and the rate-limit
//! verdict its answer carries.

use openapi_conventions::headers;
use std::sync::Arc;
use std::time::Instant;

use axum::body::Body;
use http::{HeaderMap, HeaderValue, Request, Response};

use crate::journal::RequestRecord;
use crate::ratelimit::Verdict;
use crate::shared::Shared;

/// The bookkeeping of one request; its record reaches the journal when it is dropped, however
/// the request ends (answered, or abandoned when the connection goes away).
pub(super) struct Exchange {
    shared: Arc<Shared>,
    request_id: String,
    record: RequestRecord,
    /// The rate-limit verdict, once the request was counted.
    pub verdict: Option<Verdict>,
}

impl Exchange {
    /// Numbers a request that just arrived and starts its record.
    pub fn open(shared: Arc<Shared>, req: &Request<Body>) -> Self {
        let record = RequestRecord {
            received_at: Instant::now(),
            responded_at: None,
            method: req.method().as_str().to_ascii_uppercase(),
            path: req.uri().path().to_owned(),
            query: req.uri().query().unwrap_or("").to_owned(),
            operation_id: None,
            status: 0,
            retry_after: None,
            credential_id: None,
            idempotency_key: header(req.headers(), headers::IDEMPOTENCY_KEY),
            client_request_id: header(req.headers(), headers::CLIENT_REQUEST_ID),
            fault: None,
            replayed: false,
        };
        Self {
            shared,
            request_id: uuid::Uuid::new_v4().to_string(),
            record,
            verdict: None,
        }
    }

    /// The sandbox serving the request.
    pub fn shared(&self) -> &Arc<Shared> {
        &self.shared
    }

    /// The spec operation serving the request's method and path (also for an answer that
    /// came before the routing step, such as an injected fault).
    pub fn operation(&self) -> Option<crate::spec::Operation> {
        let (op, _) = self
            .shared
            .spec
            .route(&self.record.method, &self.record.path)?;
        Some(op.clone())
    }

    /// The `x-request-id` of the answer.
    pub fn request_id(&self) -> &str {
        &self.request_id
    }

    /// The record steps fill in (operation, credential, fault).
    pub fn record(&mut self) -> &mut RequestRecord {
        &mut self.record
    }

    /// Records the answer and stamps `x-request-id` and the rate-limit headers on it.
    pub fn close(mut self, mut response: Response<Body>) -> Response<Body> {
        let headers = response.headers();
        self.record.status = response.status().as_u16();
        self.record.retry_after = header(headers, "retry-after").and_then(|v| v.parse().ok());
        self.record.replayed = headers.contains_key("idempotent-replayed");
        self.record.responded_at = Some(Instant::now());
        let headers = response.headers_mut();
        if let Ok(v) = HeaderValue::from_str(&self.request_id) {
            headers.insert(headers::REQUEST_ID, v);
        }
        for (name, value) in self.verdict.iter().flat_map(Verdict::headers) {
            if let Ok(value) = HeaderValue::from_str(&value) {
                headers.insert(name, value);
            }
        }
        response
    }
}

impl Drop for Exchange {
    fn drop(&mut self) {
        self.shared.journal().requests.push(self.record.clone());
    }
}

/// A header's value as an owned string.
fn header(headers: &HeaderMap, name: &str) -> Option<String> {
    headers
        .get(name)
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned)
}
