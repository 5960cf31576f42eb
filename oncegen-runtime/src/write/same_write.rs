//! What "the same write" means: one rule for the SDK's journal, the generated CLI and the
//! generated MCP server, decided here and read by each of them.
//!
//! # The rule
//!
//! 1. A write is named by its [`Identity`]: the server (base URL), the credential, the
//!    operation and its arguments (canonical JSON: member order and spacing do not count).
//! 2. **Until its outcome has been delivered**, the same call again is a *retry*: it answers
//!    the first call's outcome, says it is a replay and when the write was applied, and sends
//!    nothing new (an outcome still unknown is settled first, by a lookup and a resend under
//!    the first key, which the API replays). A tool delivers an outcome by handing it over
//!    (the CLI prints it, the MCP server writes it to its client) and then acknowledges the
//!    journal entry; an SDK application delivers by [`Client::acknowledge_write`](crate::Client::acknowledge_write).
//! 3. **After delivery**, the same call again is a *new* write, under a new key.
//! 4. A call that **applied nothing** (refused before sending, never delivered, refused by the
//!    API) leaves nothing that blocks the next call: its entry is closed at once.
//! 5. **An explicit key names one write**: the same key with the same arguments answers that
//!    write again (a resend under the key, which the API replays), whenever it is called; with
//!    other arguments it is refused while that write is applied or its outcome unknown, and
//!    free when it applied nothing.
//!
//! 6. **A guarded repeat** ([`plan_guarded`]): a tool that cannot know whether its caller saw
//!    an outcome (a command line killed between printing and exiting) may guard writes that
//!    cost money: the same call within the guard of a delivered one answers that write again (a
//!    resend under its key, which the API replays); a deliberate repeat says so (the CLI's
//!    `--new-write`).
//!
//! [`plan`] applies the rule before a call; the caller then sends ([`Plan::Send`]), settles
//! the earlier entry and answers its outcome ([`Plan::Resume`]), or refuses.

use std::io;
use std::time::{Duration, SystemTime};

use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::write::journal::{PendingWrite, Resume, WriteJournal};

/// What names one write (see [the rule](self#the-rule)).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Identity {
    /// `<tool> <operation> <digest> `: the start of the intent of every call of this write.
    prefix: String,
}

impl Identity {
    /// The write of `operation` with `arguments` through `tool` (`cli`, `mcp`, an
    /// application's name), sent to `base_url` with the credential `credential`
    /// ([`Config::credential_id`](crate::Config::credential_id)).
    pub fn new(
        tool: &str,
        base_url: &str,
        credential: Option<&str>,
        operation: &str,
        arguments: &Value,
    ) -> Self {
        let mut hash = Sha256::new();
        for part in [base_url, credential.unwrap_or(""), operation] {
            hash.update((part.len() as u64).to_be_bytes());
            hash.update(part.as_bytes());
        }
        hash.update(canonical(arguments).as_bytes());
        let hex: String = hash.finalize()[..16]
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        Identity {
            prefix: format!("{tool} {operation} {hex} "),
        }
    }

    /// The intent of one call of this write: the identity and a run id of its own (a shared
    /// journal refuses a second key for one intent, and a delivered write may be made again).
    pub fn intent(&self) -> String {
        format!("{}{}", self.prefix, uuid::Uuid::new_v4().simple())
    }

    /// The start every intent of this write shares.
    pub fn prefix(&self) -> &str {
        &self.prefix
    }

    /// Whether `intent` is a call of this write.
    pub fn matches(&self, intent: Option<&str>) -> bool {
        intent.is_some_and(|i| i.starts_with(&self.prefix))
    }
}

/// The tool and operation an intent made by [`Identity::intent`] names (`cli dns_zone_create`).
pub fn described(intent: &str) -> Option<String> {
    let mut words = intent.split(' ');
    Some(format!("{} {}", words.next()?, words.next()?))
}

/// What to do with a call (see [`plan`]).
#[derive(Debug)]
pub enum Plan {
    /// Send the write under `key`.
    Send {
        /// The key: the caller's, or a new one.
        key: String,
        /// When the caller's key was applied before: the answer is the API's replay of it.
        applied_at: Option<SystemTime>,
    },
    /// The call is a retry of this undelivered entry: settle it (recovery's way) and answer
    /// its outcome as a replay.
    Resume(Box<PendingWrite>),
    /// Another live process holds the entry of this write now (sending or settling it):
    /// nothing is sent; call again once it is done.
    Busy {
        /// Its key.
        key: String,
    },
    /// The caller's key names another write.
    Refused(String),
}

/// Applies [the rule](self#the-rule) to a call of `identity`, under the caller's `key` if any.
pub async fn plan(
    journal: &dyn WriteJournal,
    identity: &Identity,
    key: Option<&str>,
) -> io::Result<Plan> {
    plan_guarded(journal, identity, key, None).await
}

/// [`plan`], and a call without a key that repeats a write delivered less than `guard` ago
/// answers that write again (rule 6).
pub async fn plan_guarded(
    journal: &dyn WriteJournal,
    identity: &Identity,
    key: Option<&str>,
    guard: Option<Duration>,
) -> io::Result<Plan> {
    match key {
        Some(key) => plan_key(journal, identity, key).await,
        None => loop {
            match journal.resume(identity.prefix()).await? {
                Resume::None => return guarded(journal, identity, guard).await,
                Resume::Busy { key } => return Ok(Plan::Busy { key }),
                Resume::Taken(entry) if applied_nothing(&entry) => {
                    journal.acknowledge(&entry.write.key).await?;
                }
                Resume::Taken(entry) => return Ok(Plan::Resume(entry)),
            }
        },
    }
}

/// A new key, unless a write of `identity` was delivered within `guard`: then its key again.
async fn guarded(
    journal: &dyn WriteJournal,
    identity: &Identity,
    guard: Option<Duration>,
) -> io::Result<Plan> {
    let since = guard.and_then(|g| SystemTime::now().checked_sub(g));
    let Some(since) = since else {
        return Ok(new_key());
    };
    Ok(match journal.delivered(identity.prefix(), since).await? {
        Some(delivered) => Plan::Send {
            key: delivered.key,
            applied_at: Some(delivered.settled_at.unwrap_or(since)),
        },
        None => new_key(),
    })
}

fn new_key() -> Plan {
    Plan::Send {
        key: uuid::Uuid::new_v4().to_string(),
        applied_at: None,
    }
}

/// An entry settled as not applied: it blocks nothing.
fn applied_nothing(entry: &PendingWrite) -> bool {
    entry.settlement.as_ref().is_some_and(|s| !s.is_applied())
}

async fn plan_key(journal: &dyn WriteJournal, identity: &Identity, key: &str) -> io::Result<Plan> {
    let send = |applied_at| Plan::Send {
        key: key.to_owned(),
        applied_at,
    };
    let Some(state) = journal.key_state(key).await? else {
        return Ok(send(None));
    };
    if state.applied == Some(false) {
        if !state.acknowledged {
            journal.acknowledge(key).await?;
        }
        return Ok(send(None));
    }
    let Some(intent) = state.intent.filter(|i| identity.matches(Some(i))) else {
        return Ok(Plan::Refused(format!(
            "the idempotency key `{key}` was already used for another write (other operation \
             or arguments), which {}. A key names one write: pass a new key for a new write.",
            if state.applied == Some(true) {
                "was applied"
            } else {
                "may have been applied"
            }
        )));
    };
    if state.acknowledged {
        return Ok(send(state.settled_at));
    }
    Ok(match journal.resume(&intent).await? {
        Resume::Taken(entry) => Plan::Resume(entry),
        Resume::Busy { key } => Plan::Busy { key },
        Resume::None => send(None),
    })
}

/// `value` as compact JSON with every object's members sorted.
pub fn canonical(value: &Value) -> String {
    let mut out = String::new();
    write_canonical(value, &mut out);
    out
}

fn write_canonical(value: &Value, out: &mut String) {
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
                write_canonical(value, out);
            }
            out.push('}');
        }
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_canonical(item, out);
            }
            out.push(']');
        }
        other => out.push_str(&other.to_string()),
    }
}
