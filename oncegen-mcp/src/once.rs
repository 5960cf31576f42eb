//! Exactly-once writes for agents, who retry whenever they are unsure.
//!
//! Every write is sent under an Idempotency-Key and journaled by the SDK. The key is the call's
//! `idempotency_key` argument, or one derived from the tool and its arguments (so a retry of
//! the same call without a key is still the same write; a second, intended write with the
//! same arguments passes a new key). The first result returns the key.
//!
//! A call under a key this server has already settled gets the first outcome back without
//! sending anything; a concurrent call under the same key waits for the first to finish. A
//! key reused with other arguments is refused. An unknown outcome is not remembered: a retry
//! sends again under the same key, which the API answers with the first outcome.

use crate::{Failure, Sent};
use serde_json::{Map, Value};
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// A settled outcome and the fingerprint of the arguments it was for.
#[derive(Debug, Clone)]
struct Settled {
    fingerprint: String,
    outcome: Result<Sent, Failure>,
}

/// The outcomes of the writes this server has settled, by key.
#[derive(Debug, Default)]
pub struct Outcomes {
    slots: Mutex<HashMap<String, Arc<tokio::sync::Mutex<Option<Settled>>>>>,
}

/// What [`Outcomes::run`] answered: the outcome and whether it is a replay.
#[derive(Debug)]
pub struct Answer {
    /// The outcome.
    pub outcome: Result<Sent, Failure>,
    /// The outcome is the first call's, nothing was sent.
    pub replayed: bool,
}

impl Outcomes {
    /// Runs `send` for the write of `tool` with `arguments` under `key`, once: a settled key
    /// answers its first outcome.
    pub async fn run<F>(
        &self,
        key: &str,
        tool: &str,
        arguments: &Map<String, Value>,
        send: F,
    ) -> Answer
    where
        F: Future<Output = Result<Sent, Failure>>,
    {
        let slot = self
            .slots
            .lock()
            .expect("outcomes lock")
            .entry(key.to_owned())
            .or_default()
            .clone();
        let mut slot = slot.lock().await;
        let fingerprint = fingerprint(tool, arguments);
        if let Some(settled) = slot.as_ref() {
            if settled.fingerprint != fingerprint {
                let mut refused = Failure::refused(format!(
                    "the idempotency key `{key}` was already used for another call (other tool \
                     or arguments). A key names one write: pass a new key for a new write."
                ));
                refused.idempotency_key = Some(key.to_owned());
                return Answer {
                    outcome: Err(refused),
                    replayed: false,
                };
            }
            return Answer {
                outcome: settled.outcome.clone(),
                replayed: true,
            };
        }
        let outcome = send.await;
        let settled = match &outcome {
            Ok(_) => true,
            Err(failure) => failure.is_settled(),
        };
        if settled {
            *slot = Some(Settled {
                fingerprint,
                outcome: outcome.clone(),
            });
        }
        Answer {
            outcome,
            replayed: false,
        }
    }
}

/// The key of a write of `tool` with `arguments` when the call names none: the same call
/// always derives the same key.
pub fn derived_key(tool: &str, arguments: &Map<String, Value>) -> String {
    format!("mcp-{}", &fingerprint(tool, arguments)[..32])
}

/// A digest of `tool` and `arguments` in canonical form (object members sorted).
fn fingerprint(tool: &str, arguments: &Map<String, Value>) -> String {
    let mut text = String::from(tool);
    text.push('\n');
    canonical(&Value::Object(arguments.clone()), &mut text);
    Sha256::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn canonical(value: &Value, out: &mut String) {
    match value {
        Value::Object(map) => {
            let mut members: Vec<_> = map.iter().collect();
            members.sort_by(|a, b| a.0.cmp(b.0));
            out.push('{');
            for (i, (name, value)) in members.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&Value::String(name.clone()).to_string());
                out.push(':');
                canonical(value, out);
            }
            out.push('}');
        }
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                canonical(item, out);
            }
            out.push(']');
        }
        other => out.push_str(&other.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::{Outcomes, derived_key};
    use crate::{Failure, Sent};
    use serde_json::json;
    use std::sync::atomic::{AtomicUsize, Ordering};

    fn map(v: serde_json::Value) -> serde_json::Map<String, serde_json::Value> {
        v.as_object().unwrap().clone()
    }

    #[test]
    fn derived_keys_ignore_member_order_and_differ_by_tool_and_value() {
        let a = map(json!({"x": 1, "y": {"b": 2, "a": [1, 2]}}));
        let b = map(json!({"y": {"a": [1, 2], "b": 2}, "x": 1}));
        assert_eq!(derived_key("t", &a), derived_key("t", &b));
        assert_ne!(derived_key("t", &a), derived_key("u", &a));
        assert_ne!(
            derived_key("t", &a),
            derived_key("t", &map(json!({"x": 2})))
        );
    }

    #[tokio::test(flavor = "current_thread")]
    async fn a_settled_key_replays_and_refuses_other_arguments() {
        let outcomes = Outcomes::default();
        let sends = AtomicUsize::new(0);
        let send = || async {
            sends.fetch_add(1, Ordering::SeqCst);
            Ok::<_, Failure>(Sent {
                value: json!({"id": 1}),
                idempotency_key: Some("k".into()),
            })
        };
        let args = map(json!({"a": 1}));
        let first = outcomes.run("k", "t", &args, send()).await;
        assert!(!first.replayed);
        let second = outcomes.run("k", "t", &args, send()).await;
        assert!(second.replayed);
        assert_eq!(second.outcome.unwrap().value, json!({"id": 1}));
        let other = outcomes.run("k", "t", &map(json!({"a": 2})), send()).await;
        assert_eq!(other.outcome.unwrap_err().kind, "refused");
        assert_eq!(sends.load(Ordering::SeqCst), 1);
    }

    #[tokio::test(flavor = "current_thread")]
    async fn an_unknown_outcome_is_not_remembered() {
        let outcomes = Outcomes::default();
        let args = map(json!({}));
        let unknown = || async {
            let mut f = Failure::refused("x");
            f.kind = "outcome_unknown";
            Err::<Sent, _>(f)
        };
        outcomes.run("k", "t", &args, unknown()).await;
        let again = outcomes.run("k", "t", &args, unknown()).await;
        assert!(!again.replayed);
    }
}
