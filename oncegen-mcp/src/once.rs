//! Exactly-once writes for agents, who retry whenever they are unsure: the runtime's rule of
//! "the same write" ([`oncegen_runtime::same_write`]) applied to tool calls.
//!
//! A write is named by the tool and its arguments, sent to this server's API with its
//! credential. Until a call's outcome has been written to the client, the same call again
//! answers it (`replayed`, with when it was applied) and sends nothing new; once written, the
//! same call is a new write. A call that applied nothing blocks nothing. An `idempotency_key`
//! names one write whenever it comes. Identical calls of one server take turns, so a retry
//! that arrives while the first call is still running waits for its outcome.

use crate::Sent;
use oncegen_runtime::Config;
use oncegen_runtime::same_write::Identity;
use serde_json::{Map, Value};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, Weak};
use std::time::SystemTime;
use tokio::sync::OwnedMutexGuard;

/// The tool name every intent of the MCP server starts with.
const TOOL: &str = "mcp";

/// The write of `tool` with `arguments` as `config` sends it.
pub(crate) fn identity(config: &Config, tool: &str, arguments: &Map<String, Value>) -> Identity {
    Identity::new(
        TOOL,
        config.get_base_url(),
        config.credential_id().as_deref(),
        tool,
        &Value::Object(arguments.clone()),
    )
}

/// The outcomes this server delivered, by key, answered again in full to a call under that key
/// while it runs (also for an operation the API takes no key for, which the journal cannot
/// hold); after a restart the journal says only that the write was applied.
#[derive(Debug, Default)]
pub(crate) struct Answered {
    by_key: Mutex<HashMap<String, (String, Sent, SystemTime)>>,
}

/// Answers kept at most; the oldest half goes when it is reached.
const ANSWERED: usize = 4096;

impl Answered {
    /// The outcome delivered under `key`: its write's identity prefix, the answer and when.
    pub(crate) fn get(&self, key: &str) -> Option<(String, Sent, SystemTime)> {
        self.by_key.lock().expect("answers lock").get(key).cloned()
    }

    /// Keeps `sent`, the answer of `identity`'s write under `key`.
    pub(crate) fn put(&self, key: &str, identity: &Identity, sent: &Sent) {
        let mut by_key = self.by_key.lock().expect("answers lock");
        if by_key.len() >= ANSWERED {
            let mut times: Vec<SystemTime> = by_key.values().map(|(_, _, t)| *t).collect();
            times.sort();
            let cut = times[times.len() / 2];
            by_key.retain(|_, (_, _, t)| *t > cut);
        }
        let entry = (
            identity.prefix().to_owned(),
            sent.clone(),
            SystemTime::now(),
        );
        by_key.insert(key.to_owned(), entry);
    }
}

/// One turn per write at a time.
#[derive(Debug, Default)]
pub(crate) struct Turns {
    slots: Mutex<HashMap<String, Weak<tokio::sync::Mutex<()>>>>,
}

impl Turns {
    /// Waits for the turn of the write `identity`: held while the call runs.
    pub(crate) async fn take(&self, identity: &Identity) -> OwnedMutexGuard<()> {
        let slot = {
            let mut slots = self.slots.lock().expect("turns lock");
            slots.retain(|_, slot| slot.strong_count() > 0);
            let slot = slots
                .get(identity.prefix())
                .and_then(Weak::upgrade)
                .unwrap_or_default();
            slots.insert(identity.prefix().to_owned(), Arc::downgrade(&slot));
            slot
        };
        slot.lock_owned().await
    }
}

#[cfg(test)]
mod tests {
    use super::{Turns, identity};
    use oncegen_runtime::Config;
    use serde_json::json;

    fn map(v: serde_json::Value) -> serde_json::Map<String, serde_json::Value> {
        v.as_object().unwrap().clone()
    }

    #[test]
    fn identities_ignore_member_order_and_differ_by_tool_value_server_and_credential() {
        let config = Config::new("http://a").bearer("p.s");
        let a = map(json!({"x": 1, "y": {"b": 2, "a": [1, 2]}}));
        let b = map(json!({"y": {"a": [1, 2], "b": 2}, "x": 1}));
        assert_eq!(identity(&config, "t", &a), identity(&config, "t", &b));
        assert_ne!(identity(&config, "t", &a), identity(&config, "u", &a));
        assert_ne!(
            identity(&config, "t", &a),
            identity(&config, "t", &map(json!({"x": 2})))
        );
        let elsewhere = Config::new("http://b").bearer("p.s");
        assert_ne!(identity(&config, "t", &a), identity(&elsewhere, "t", &a));
        let other = Config::new("http://a").bearer("p.t");
        assert_ne!(identity(&config, "t", &a), identity(&other, "t", &a));
    }

    #[tokio::test(flavor = "current_thread")]
    async fn identical_calls_take_turns_and_others_do_not_wait() {
        let turns = Turns::default();
        let config = Config::new("http://a");
        let one = identity(&config, "t", &map(json!({"a": 1})));
        let two = identity(&config, "t", &map(json!({"a": 2})));
        let held = turns.take(&one).await;
        let _other = turns.take(&two).await;
        let mut waiting = std::pin::pin!(turns.take(&one));
        let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
        assert!(waiting.as_mut().poll(&mut cx).is_pending());
        drop(held);
        let _next = waiting.await;
    }
}
