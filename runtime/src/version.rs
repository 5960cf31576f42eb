//! Contract discovery: reads `GET /v1/version` and `GET /v1/capabilities` defensively and
//! reports whether the deployed contract revision differs from the SDK's.

use serde_json::Value;

use crate::client::Client;
use crate::error::Error;
use crate::request::{CallOptions, Request};
use crate::spec::{Idempotency, Method, OperationSpec};

static GET_VERSION: OperationSpec = OperationSpec {
    operation_id: "getVersion",
    method: Method::Get,
    path: "/v1/version",
    idempotency: Idempotency::None,
    operation_envelope: false,
};

static GET_CAPABILITIES: OperationSpec = OperationSpec {
    operation_id: "getCapabilities",
    method: Method::Get,
    path: "/v1/capabilities",
    idempotency: Idempotency::None,
    operation_envelope: false,
};

/// Keys that may carry the contract revision, most specific first.
const REVISION_KEYS: &[&str] = &[
    "contract_revision",
    "contractRevision",
    "api_revision",
    "apiRevision",
    "revision",
    "contract_version",
    "contractVersion",
];

/// What the deployment says about its contract.
#[derive(Clone, Debug, PartialEq)]
pub struct ContractCheck {
    /// The revision the SDK was generated from ([`SdkIdentity::contract_revision`](crate::SdkIdentity)).
    pub sdk_revision: String,
    /// The revision the deployment reports, when one was found.
    pub deployed_revision: Option<String>,
    /// `canonical_operation_responses` from capabilities, when found.
    pub canonical_operation_responses: Option<bool>,
    /// Raw `GET /v1/version` body.
    pub version: Value,
    /// Raw `GET /v1/capabilities` body (`Null` when it could not be read).
    pub capabilities: Value,
}

impl ContractCheck {
    /// Whether the deployment reports a revision different from the SDK's (`false` when it
    /// reports none).
    pub fn differs(&self) -> bool {
        self.deployed_revision
            .as_deref()
            .is_some_and(|d| d != self.sdk_revision)
    }
}

/// Finds the deployed contract revision in a `GET /v1/version` body (shape not shown by the
/// reference): the first string under one of the usual keys, searched breadth-first.
pub fn find_revision(body: &Value) -> Option<String> {
    let mut queue = vec![body];
    while !queue.is_empty() {
        let mut next = Vec::new();
        for v in queue {
            if let Value::Object(map) = v {
                for key in REVISION_KEYS {
                    if let Some(Value::String(s)) = map.get(*key) {
                        return Some(s.clone());
                    }
                }
                next.extend(map.values());
            }
        }
        queue = next;
    }
    match body {
        Value::String(s) => Some(s.clone()),
        _ => None,
    }
}

/// Finds a boolean capability (e.g. `canonical_operation_responses`) anywhere in a body: a bool,
/// or an object with `enabled` / `available`, or a string in a list of feature names.
pub fn find_capability(body: &Value, name: &str) -> Option<bool> {
    match body {
        Value::Object(map) => {
            if let Some(v) = map.get(name) {
                match v {
                    Value::Bool(b) => return Some(*b),
                    Value::Object(o) => {
                        if let Some(b) = ["enabled", "available", "supported"]
                            .iter()
                            .find_map(|k| o.get(*k).and_then(Value::as_bool))
                        {
                            return Some(b);
                        }
                    }
                    Value::String(s) => {
                        return Some(matches!(
                            s.as_str(),
                            "enabled" | "available" | "true" | "on"
                        ));
                    }
                    _ => {}
                }
            }
            map.values().find_map(|v| find_capability(v, name))
        }
        Value::Array(items) => {
            if items.iter().any(|i| i.as_str() == Some(name)) {
                return Some(true);
            }
            items.iter().find_map(|v| find_capability(v, name))
        }
        _ => None,
    }
}

/// Reads `GET /v1/version` and `GET /v1/capabilities` and compares revisions. A failing
/// capabilities read is tolerated (`capabilities` is then `Null`).
pub async fn check_contract(client: &Client) -> Result<ContractCheck, Error> {
    let version: Value = client
        .execute(Request::new(&GET_VERSION), CallOptions::new())
        .await?
        .into_body();
    let capabilities: Value = client
        .execute(Request::new(&GET_CAPABILITIES), CallOptions::new())
        .await
        .map(|r| r.into_body())
        .unwrap_or(Value::Null);
    Ok(ContractCheck {
        sdk_revision: client.config().get_sdk().contract_revision.clone(),
        deployed_revision: find_revision(&version),
        canonical_operation_responses: find_capability(
            &capabilities,
            "canonical_operation_responses",
        ),
        version,
        capabilities,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn revision_shapes() {
        assert_eq!(
            find_revision(&json!({"ok": true, "contract_revision": "2026-10-07.1"})).as_deref(),
            Some("2026-10-07.1")
        );
        assert_eq!(
            find_revision(&json!({"ok": true, "version": {"revision": "r2"}})).as_deref(),
            Some("r2")
        );
        assert_eq!(find_revision(&json!({"ok": true})), None);
    }

    #[test]
    fn capability_shapes() {
        let n = "canonical_operation_responses";
        assert_eq!(
            find_capability(&json!({"canonical_operation_responses": true}), n),
            Some(true)
        );
        assert_eq!(
            find_capability(
                &json!({"features": {"canonical_operation_responses": {"enabled": false}}}),
                n
            ),
            Some(false)
        );
        assert_eq!(
            find_capability(
                &json!({"features": ["durable_writes", "canonical_operation_responses"]}),
                n
            ),
            Some(true)
        );
        assert_eq!(find_capability(&json!({"ok": true}), n), None);
    }
}
