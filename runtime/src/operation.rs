//! The operation envelope (canonical and legacy shapes), waiting on operations, and a generic
//! `poll_until` with thin wrappers for dedicated tasks and DNSSEC.

use std::fmt;
use std::future::Future;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;
use tokio::time::Instant;

use crate::client::Client;
use crate::config::WaitPolicy;
use crate::error::Error;
use crate::request::{CallOptions, Request};
use crate::response::Response;
use crate::spec::{Idempotency, Method, OperationSpec};

static GET_OPERATION: OperationSpec = OperationSpec {
    operation_id: "getOperation",
    method: Method::Get,
    path: "/v1/operations/{operationId}",
    idempotency: Idempotency::None,
    operation_envelope: false,
};

static LOOKUP_OPERATION: OperationSpec = OperationSpec {
    operation_id: "lookupOperation",
    method: Method::Get,
    path: "/v1/operations",
    idempotency: Idempotency::None,
    operation_envelope: false,
};

static GET_DEDICATED_TASK: OperationSpec = OperationSpec {
    operation_id: "dedicatedTask",
    method: Method::Get,
    path: "/v1/dedicated/{serviceId}/tasks/{taskId}",
    idempotency: Idempotency::None,
    operation_envelope: false,
};

static GET_DNSSEC: OperationSpec = OperationSpec {
    operation_id: "getDomainDnssec",
    method: Method::Get,
    path: "/v1/domains/{serviceId}/dnssec",
    idempotency: Idempotency::None,
    operation_envelope: false,
};

/// Status of an operation (reference 3.1).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum OperationStatus {
    /// Accepted, not completed.
    Pending,
    /// Executing.
    Running,
    /// Outcome needs reconciliation: never assume failure, never submit a new write.
    Unknown,
    /// Recorded completion; only this state exposes a result.
    Succeeded,
    /// Recorded terminal failure.
    Failed,
    /// Recorded terminal cancellation.
    Cancelled,
    /// A status this SDK does not know.
    Other(String),
}

impl OperationStatus {
    /// Parses a wire status.
    pub fn parse(s: &str) -> Self {
        match s {
            "pending" => Self::Pending,
            "running" => Self::Running,
            "unknown" => Self::Unknown,
            "succeeded" => Self::Succeeded,
            "failed" => Self::Failed,
            "cancelled" => Self::Cancelled,
            other => Self::Other(other.to_owned()),
        }
    }

    /// The wire form.
    pub fn as_str(&self) -> &str {
        match self {
            Self::Pending => "pending",
            Self::Running => "running",
            Self::Unknown => "unknown",
            Self::Succeeded => "succeeded",
            Self::Failed => "failed",
            Self::Cancelled => "cancelled",
            Self::Other(s) => s,
        }
    }

    /// Whether the status is terminal (`succeeded`, `failed`, `cancelled`).
    pub fn is_terminal(&self) -> bool {
        matches!(self, Self::Succeeded | Self::Failed | Self::Cancelled)
    }
}

impl fmt::Display for OperationStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Relative customer API URLs of an operation, each present when that identity is known.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OperationLinks {
    /// `links.operation`.
    pub operation: Option<String>,
    /// `links.service`.
    pub service: Option<String>,
    /// `links.invoice`.
    pub invoice: Option<String>,
    /// `links.order`.
    pub order: Option<String>,
}

impl OperationLinks {
    fn from_value(v: Option<&Value>) -> Self {
        let get = |k: &str| {
            v.and_then(|v| v.get(k))
                .and_then(Value::as_str)
                .map(str::to_owned)
        };
        Self {
            operation: get("operation"),
            service: get("service"),
            invoice: get("invoice"),
            order: get("order"),
        }
    }
}

/// The safe failure code and message of a failed or cancelled operation.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OperationFailure {
    /// Failure code.
    pub code: Option<String>,
    /// Failure message.
    pub message: Option<String>,
}

/// The `operation` object of the canonical envelope.
#[derive(Clone, Debug, PartialEq)]
pub struct Operation {
    /// Opaque id.
    pub id: String,
    /// Status.
    pub status: OperationStatus,
    /// `true` only for `succeeded`, `failed`, `cancelled`.
    pub done: bool,
    /// Progress (may be null).
    pub progress: Option<Value>,
    /// Informational stage; branch on status and done, not on stage.
    pub stage: Option<String>,
    /// Result (present only when `succeeded`).
    pub result: Option<Value>,
    /// Links.
    pub links: OperationLinks,
    /// Failure code and message (from `error` or `failure`), when present.
    pub failure: Option<OperationFailure>,
    /// The raw `operation` object (no field is lost).
    pub raw: Value,
}

impl Operation {
    /// Reads an `operation` object; `None` when it is not an object.
    pub fn from_value(v: &Value) -> Option<Self> {
        let obj = v.as_object()?;
        let id = match obj.get("id").or_else(|| obj.get("operation_id")) {
            Some(Value::String(s)) => s.clone(),
            Some(Value::Number(n)) => n.to_string(),
            _ => String::new(),
        };
        let status =
            OperationStatus::parse(obj.get("status").and_then(Value::as_str).unwrap_or(""));
        let done = obj
            .get("done")
            .and_then(Value::as_bool)
            .unwrap_or_else(|| status.is_terminal());
        let failure = ["error", "failure"].iter().find_map(|k| match obj.get(*k) {
            Some(Value::Object(e)) => Some(OperationFailure {
                code: e.get("code").and_then(Value::as_str).map(str::to_owned),
                message: e.get("message").and_then(Value::as_str).map(str::to_owned),
            }),
            Some(Value::String(code)) => Some(OperationFailure {
                code: Some(code.clone()),
                message: None,
            }),
            _ => None,
        });
        let non_null = |k: &str| obj.get(k).filter(|v| !v.is_null()).cloned();
        Some(Self {
            id,
            status,
            done,
            progress: non_null("progress"),
            stage: obj.get("stage").and_then(Value::as_str).map(str::to_owned),
            result: non_null("result"),
            links: OperationLinks::from_value(obj.get("links")),
            failure,
            raw: v.clone(),
        })
    }

    /// The failure code and message, if any.
    pub fn failure(&self) -> Option<&OperationFailure> {
        self.failure.as_ref()
    }

    /// Whether the operation succeeded (its result is in [`Operation::result`]).
    pub fn succeeded(&self) -> bool {
        self.status == OperationStatus::Succeeded
    }
}

/// The success body of a write with `x-operation-envelope: true`: reads the canonical envelope
/// (`{ok, operation: {...}}`) and the legacy shape (`actionId`, `operation_id`,
/// `operation_url`, `links`). Keeps the raw JSON so no field is lost.
#[derive(Clone, Debug, PartialEq)]
pub struct OperationReceipt {
    operation: Option<Operation>,
    operation_id: Option<String>,
    operation_url: Option<String>,
    action_id: Option<Value>,
    links: OperationLinks,
    raw: Value,
}

impl OperationReceipt {
    /// Reads a receipt from any JSON body (never fails; unknown shapes keep only `raw`).
    pub fn from_value(raw: Value) -> Self {
        let operation = raw.get("operation").and_then(Operation::from_value);
        let str_of = |v: Option<&Value>| match v {
            Some(Value::String(s)) if !s.is_empty() => Some(s.clone()),
            Some(Value::Number(n)) => Some(n.to_string()),
            _ => None,
        };
        let operation_url = str_of(raw.get("operation_url"))
            .or_else(|| operation.as_ref().and_then(|o| o.links.operation.clone()))
            .or_else(|| str_of(raw.pointer("/links/operation")));
        let operation_id = operation
            .as_ref()
            .map(|o| o.id.clone())
            .filter(|id| !id.is_empty())
            .or_else(|| str_of(raw.get("operation_id")))
            .or_else(|| {
                operation_url
                    .as_deref()
                    .and_then(|u| u.split('?').next())
                    .and_then(|u| {
                        u.strip_prefix("/v1/operations/")
                            .filter(|id| !id.is_empty() && !id.contains('/'))
                            .map(str::to_owned)
                    })
            });
        let action_id = raw.get("actionId").filter(|v| !v.is_null()).cloned();
        let links = match raw.get("links") {
            Some(l) => OperationLinks::from_value(Some(l)),
            None => operation
                .as_ref()
                .map(|o| o.links.clone())
                .unwrap_or_default(),
        };
        Self {
            operation,
            operation_id,
            operation_url,
            action_id,
            links,
            raw,
        }
    }

    /// The operation id (`operation.id`, else `operation_id`, else parsed from `operation_url`).
    pub fn id(&self) -> Option<&str> {
        self.operation_id.as_deref()
    }

    /// The canonical `operation` object, when the envelope was returned.
    pub fn operation(&self) -> Option<&Operation> {
        self.operation.as_ref()
    }

    /// The legacy `actionId`.
    pub fn action_id(&self) -> Option<&Value> {
        self.action_id.as_ref()
    }

    /// The relative operation URL (`operation_url` or `links.operation`).
    pub fn operation_url(&self) -> Option<&str> {
        self.operation_url.as_deref()
    }

    /// Links (top-level `links`, else the operation's).
    pub fn links(&self) -> &OperationLinks {
        &self.links
    }

    /// The raw body.
    pub fn raw(&self) -> &Value {
        &self.raw
    }

    /// Whether the receipt already carries a terminal operation.
    pub fn is_done(&self) -> bool {
        self.operation.as_ref().is_some_and(|o| o.done)
    }

    /// Polls `GET /v1/operations/{id}` with the client's [`WaitPolicy`] until done.
    /// See [`OperationReceipt::wait_with`].
    pub async fn wait(&self, client: &Client) -> Result<Operation, Error> {
        self.wait_with(client, client.config().get_wait_policy())
            .await
    }

    /// Polls until done with backoff: returns the operation when `succeeded` (its result in
    /// [`Operation::result`]); [`Error::OperationFailed`] when `failed` or `cancelled` (code and
    /// message in [`Operation::failure`]); [`Error::OperationOutcomeUnknown`] when it stays
    /// `unknown` longer than `policy.unknown_patience` (reconcile; never a new write);
    /// [`Error::WaitTimeout`] after `policy.max_wait`.
    pub async fn wait_with(
        &self,
        client: &Client,
        policy: &WaitPolicy,
    ) -> Result<Operation, Error> {
        if let Some(op) = self.operation.as_ref().filter(|o| o.done) {
            return finish(op.clone());
        }
        let id = self
            .id()
            .ok_or_else(|| Error::validation("the receipt carries no operation id (legacy response without operation adapter)"))?
            .to_owned();
        wait_for_operation(client, &id, policy).await
    }
}

fn finish(op: Operation) -> Result<Operation, Error> {
    if op.succeeded() {
        Ok(op)
    } else {
        Err(Error::OperationFailed(Box::new(op)))
    }
}

/// Polls `GET /v1/operations/{id}` until done (see [`OperationReceipt::wait_with`]).
pub async fn wait_for_operation(
    client: &Client,
    id: &str,
    policy: &WaitPolicy,
) -> Result<Operation, Error> {
    let mut unknown_since: Option<Instant> = None;
    let patience = policy.unknown_patience;
    let op = poll_until(
        policy,
        &format!("operation {id}"),
        || get_operation(client, id),
        |response: Response<OperationReceipt>| {
            let Some(op) = response.into_body().operation else {
                return Ok(Poll::Pending(None));
            };
            if op.done || op.status.is_terminal() {
                return Ok(Poll::Ready(op));
            }
            if op.status == OperationStatus::Unknown {
                let since = *unknown_since.get_or_insert_with(Instant::now);
                if since.elapsed() >= patience {
                    return Err(Error::OperationOutcomeUnknown(Box::new(op)));
                }
            } else {
                unknown_since = None;
            }
            Ok(Poll::Pending(Some(op.status.to_string())))
        },
    )
    .await?;
    finish(op)
}

/// `GET /v1/operations/{operationId}`.
pub async fn get_operation(client: &Client, id: &str) -> Result<Response<OperationReceipt>, Error> {
    let mut request = Request::new(&GET_OPERATION);
    request.path_param("operationId", &id);
    client.execute(request, CallOptions::new()).await
}

/// `GET /v1/operations?idempotency_key=…&method=…&path=…[&credential_id=…]`: recovers a
/// tracked write without repeating it (reference 4.2).
pub async fn lookup_operation(
    client: &Client,
    idempotency_key: &str,
    method: Method,
    path: &str,
    credential_id: Option<&str>,
) -> Result<Response<OperationReceipt>, Error> {
    let mut request = Request::new(&LOOKUP_OPERATION);
    request.query("idempotency_key", &idempotency_key);
    request.query("method", &method.as_str());
    request.query("path", &path);
    if let Some(c) = credential_id {
        request.query("credential_id", &c);
    }
    client.execute(request, CallOptions::new()).await
}

/// One observation of a polled resource.
#[derive(Clone, Debug, PartialEq)]
pub enum Poll<T> {
    /// Final: stop polling with this value.
    Ready(T),
    /// Not final yet; the observed status, if any.
    Pending(Option<String>),
}

/// Generic poller: calls `fetch`, hands the result to `decide`, and sleeps with exponential
/// backoff (`policy.initial_interval` doubling up to `policy.max_interval`) until `decide` says
/// [`Poll::Ready`], returns an error, or `policy.max_wait` passes ([`Error::WaitTimeout`]).
pub async fn poll_until<S, T, F, Fut, D>(
    policy: &WaitPolicy,
    target: &str,
    mut fetch: F,
    mut decide: D,
) -> Result<T, Error>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<S, Error>>,
    D: FnMut(S) -> Result<Poll<T>, Error>,
{
    let start = Instant::now();
    let mut interval = policy.initial_interval;
    loop {
        let observed = fetch().await?;
        let last_status = match decide(observed)? {
            Poll::Ready(value) => return Ok(value),
            Poll::Pending(status) => status,
        };
        if start.elapsed() + interval > policy.max_wait {
            return Err(Error::WaitTimeout {
                target: target.to_owned(),
                last_status,
            });
        }
        tokio::time::sleep(interval).await;
        interval = (interval * 2).min(policy.max_interval);
    }
}

/// Polls `GET /v1/dedicated/{serviceId}/tasks/{taskId}` until the task's `status` is no longer
/// `in_progress` (the one value the reference gives), and returns the `task` object. Inspect its
/// `status` and `errorCode`.
pub async fn wait_dedicated_task(
    client: &Client,
    service_id: &str,
    task_id: &str,
    policy: &WaitPolicy,
) -> Result<Value, Error> {
    poll_until(
        policy,
        &format!("dedicated task {task_id}"),
        || {
            let mut request = Request::new(&GET_DEDICATED_TASK);
            request.path_param("serviceId", &service_id);
            request.path_param("taskId", &task_id);
            client.execute::<Value>(request, CallOptions::new())
        },
        |response| {
            let body = response.into_body();
            let task = body.get("task").cloned().unwrap_or(body);
            match task.get("status").and_then(Value::as_str) {
                Some("in_progress") | None => Ok(Poll::Pending(
                    task.get("status")
                        .and_then(Value::as_str)
                        .map(str::to_owned),
                )),
                Some(_) => Ok(Poll::Ready(task)),
            }
        },
    )
    .await
}

/// Polls `GET /v1/domains/{serviceId}/dnssec` until `settled(body)` is true and returns the body.
/// DNSSEC keeps its own legacy state contract (not shown by the reference), so the caller says
/// what "settled" means.
pub async fn wait_dnssec(
    client: &Client,
    service_id: &str,
    policy: &WaitPolicy,
    mut settled: impl FnMut(&Value) -> bool,
) -> Result<Value, Error> {
    poll_until(
        policy,
        &format!("DNSSEC of {service_id}"),
        || {
            let mut request = Request::new(&GET_DNSSEC);
            request.path_param("serviceId", &service_id);
            client.execute::<Value>(request, CallOptions::new())
        },
        |response| {
            let body = response.into_body();
            if settled(&body) {
                Ok(Poll::Ready(body))
            } else {
                let status = ["status", "state"]
                    .iter()
                    .find_map(|k| body.get(*k).and_then(Value::as_str))
                    .map(str::to_owned);
                Ok(Poll::Pending(status))
            }
        },
    )
    .await
}

impl Serialize for OperationReceipt {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.raw.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for OperationReceipt {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Value::deserialize(deserializer).map(Self::from_value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn canonical_envelope() {
        let r: OperationReceipt = serde_json::from_value(json!({
            "ok": true,
            "operation": {"id": "op_1", "status": "succeeded", "done": true, "progress": null, "stage": "done",
                          "result": {"service_ids": ["a"]}, "links": {"operation": "/v1/operations/op_1", "service": "/v1/services/a"}}
        }))
        .unwrap();
        assert_eq!(r.id(), Some("op_1"));
        let op = r.operation().unwrap();
        assert!(op.done && op.succeeded());
        assert_eq!(op.result.as_ref().unwrap()["service_ids"][0], "a");
        assert_eq!(r.links().service.as_deref(), Some("/v1/services/a"));
        assert!(r.is_done());
    }

    #[test]
    fn legacy_shape() {
        let r = OperationReceipt::from_value(json!({
            "ok": true, "actionId": 42, "operation_id": "op_9", "operation_url": "/v1/operations/op_9", "links": {"service": "/v1/services/s"}
        }));
        assert_eq!(r.id(), Some("op_9"));
        assert_eq!(r.action_id(), Some(&json!(42)));
        assert_eq!(r.operation_url(), Some("/v1/operations/op_9"));
        assert!(r.operation().is_none());
        assert_eq!(r.raw()["actionId"], 42);
        // id from the URL alone
        let r = OperationReceipt::from_value(
            json!({"ok": true, "operation_url": "/v1/operations/op_7"}),
        );
        assert_eq!(r.id(), Some("op_7"));
        // bare actionId only
        let r = OperationReceipt::from_value(json!({"ok": true, "actionId": "x"}));
        assert_eq!(r.id(), None);
        assert_eq!(
            serde_json::to_value(&r).unwrap(),
            json!({"ok": true, "actionId": "x"})
        );
    }

    #[test]
    fn failure_fields() {
        let op = Operation::from_value(&json!({"id": "o", "status": "failed", "done": true,
            "error": {"code": "provider_failed", "message": "Safe message"}}))
        .unwrap();
        assert_eq!(
            op.failure().unwrap().code.as_deref(),
            Some("provider_failed")
        );
        assert_eq!(
            op.failure().unwrap().message.as_deref(),
            Some("Safe message")
        );
        let op = Operation::from_value(&json!({"id": "o", "status": "weird"})).unwrap();
        assert_eq!(op.status, OperationStatus::Other("weird".into()));
        assert!(!op.done);
    }
}
