//! Contract discovery: reads the bodies of the API's version and capabilities reads (whose
//! operations the generated crate names, from `x-contract-version` and `x-capabilities`)
//! defensively, and reports whether the deployed contract revision differs from the SDK's.

use serde_json::Value;

/// What the deployment says about its contract.
#[derive(Clone, Debug, PartialEq)]
pub struct ContractCheck {
    /// The revision the SDK was generated from ([`SdkIdentity::contract_revision`](crate::SdkIdentity)).
    pub sdk_revision: String,
    /// The revision the deployment reports, when one was found.
    pub deployed_revision: Option<String>,
    /// Each feature the spec names, with its availability when the capabilities body says.
    pub features: Vec<(String, Option<bool>)>,
    /// Raw version body.
    pub version: Value,
    /// Raw capabilities body (`Null` when it could not be read).
    pub capabilities: Value,
}

impl ContractCheck {
    /// Reads the two bodies: the revision with [`find_revision`], each of `features` with
    /// [`find_capability`].
    pub fn new(sdk_revision: &str, version: Value, capabilities: Value, features: &[&str]) -> Self {
        ContractCheck {
            sdk_revision: sdk_revision.to_owned(),
            deployed_revision: find_revision(&version),
            features: features
                .iter()
                .map(|name| ((*name).to_owned(), find_capability(&capabilities, name)))
                .collect(),
            version,
            capabilities,
        }
    }

    /// The availability of one feature, when the capabilities body says.
    pub fn feature(&self, name: &str) -> Option<bool> {
        self.features
            .iter()
            .find(|(n, _)| n == name)
            .and_then(|(_, available)| *available)
    }

    /// Whether the deployment reports a revision different from the SDK's (`false` when it
    /// reports none).
    pub fn differs(&self) -> bool {
        self.deployed_revision
            .as_deref()
            .is_some_and(|d| d != self.sdk_revision)
    }
}

/// Finds a contract revision in a version body whose shape the spec may not show: searched
/// breadth-first, the first string under a key that names a revision (`revision`,
/// `contractRevision`, `api_revision`…), else under one that names a version; a bare string
/// body is the revision itself.
pub fn find_revision(body: &Value) -> Option<String> {
    find_string_under(body, "revision").or_else(|| find_string_under(body, "version"))
}

fn find_string_under(body: &Value, word: &str) -> Option<String> {
    let mut queue = vec![body];
    while !queue.is_empty() {
        let mut next = Vec::new();
        for v in queue {
            if let Value::Object(map) = v {
                let named = map
                    .iter()
                    .find(|(k, v)| k.to_ascii_lowercase().contains(word) && v.is_string());
                if let Some((_, Value::String(s))) = named {
                    return Some(s.clone());
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

/// Finds a boolean capability (a feature name the spec lists) anywhere in a body: a bool,
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn revision_shapes() {
        assert_eq!(
            find_revision(&json!({"ok": true, "contract_revision": "r-1"})).as_deref(),
            Some("r-1")
        );
        assert_eq!(
            find_revision(&json!({"ok": true, "version": {"revision": "r2"}})).as_deref(),
            Some("r2")
        );
        assert_eq!(
            find_revision(&json!({"api": "v1", "contractVersion": "c3"})).as_deref(),
            Some("c3")
        );
        assert_eq!(find_revision(&json!({"ok": true})), None);
        let check = ContractCheck::new(
            "r1",
            json!({"revision": "r2"}),
            json!({"features": ["a"]}),
            &["a", "b"],
        );
        assert!(check.differs());
        assert_eq!(check.feature("a"), Some(true));
        assert_eq!(check.feature("b"), None);
    }

    #[test]
    fn capability_shapes() {
        let n = "some_feature";
        assert_eq!(
            find_capability(&json!({"some_feature": true}), n),
            Some(true)
        );
        assert_eq!(
            find_capability(
                &json!({"features": {"some_feature": {"enabled": false}}}),
                n
            ),
            Some(false)
        );
        assert_eq!(
            find_capability(&json!({"features": ["other_feature", "some_feature"]}), n),
            Some(true)
        );
        assert_eq!(find_capability(&json!({"ok": true}), n), None);
    }
}
