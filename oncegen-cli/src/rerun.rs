//! How a re-run of a write is recognized, so that running a command again after a crash, a
//! Ctrl-C or a lost answer settles the first run's write instead of sending a second one.
//!
//! Every write is journaled with an intent `cli <area> <command> <digest> <run>`: the digest
//! is SHA-256 over the base URL, the command, every argument as given and the `--json` body
//! (as canonical JSON: key order and spacing do not count), `<run>` tells runs apart. A write
//! command first looks in the journal for an entry of the same digest that is **not
//! acknowledged** (its run was killed, interrupted or timed out before it printed the outcome
//! and closed the entry). If there is one, that entry is settled (the journal's outcome, or a
//! same-key lookup and resend the server replays) and its outcome is this run's: nothing new is
//! sent. Otherwise the write is new. A run that ended (its outcome printed, its entry
//! acknowledged) is finished: the same command again is a new write, as a user expects of
//! `create` twice. `--new-write` skips the look-up; `--idempotency-key` sends under the
//! caller's own key, which the server deduplicates itself.

use serde_json::Value;
use sha2::{Digest, Sha256};
use std::time::{SystemTime, UNIX_EPOCH};

/// The start of every intent the CLI journals.
const PREFIX: &str = "cli ";

/// What identifies a command's write across runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommandDigest {
    /// `cli <area> <command> <digest> `: every run of the same command line starts with it.
    prefix: String,
}

/// The same-command part of the intent of `area command` at `base_url` with `args` (each
/// argument's id and its values as given) and `body` (the `--json` text).
pub fn digest(
    base_url: &str,
    area: &str,
    command: &str,
    args: &[(&str, Vec<String>)],
    body: Option<&str>,
) -> CommandDigest {
    let mut hash = Sha256::new();
    let mut field = |bytes: &[u8]| {
        hash.update((bytes.len() as u64).to_be_bytes());
        hash.update(bytes);
    };
    field(base_url.as_bytes());
    field(area.as_bytes());
    field(command.as_bytes());
    for (id, values) in args {
        field(id.as_bytes());
        for v in values {
            field(v.as_bytes());
        }
    }
    if let Some(text) = body {
        let canonical = match serde_json::from_str::<Value>(text) {
            Ok(v) => canonical(&v),
            Err(_) => text.to_owned(),
        };
        field(canonical.as_bytes());
    }
    let hex: String = hash
        .finalize()
        .iter()
        .take(16)
        .map(|b| format!("{b:02x}"))
        .collect();
    CommandDigest {
        prefix: format!("{PREFIX}{area} {command} {hex} "),
    }
}

impl CommandDigest {
    /// A new run's intent: the digest and a run id of its own (a shared journal refuses a
    /// second key for one intent, and a finished command may be run again).
    pub fn intent(&self) -> String {
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        format!("{}{}-{nanos}", self.prefix, std::process::id())
    }

    /// Whether `intent` is a run of this command line.
    pub fn matches(&self, intent: Option<&str>) -> bool {
        intent.is_some_and(|i| i.starts_with(&self.prefix))
    }
}

/// The command (`<area> <command>`) an intent of the CLI names, if it is one.
pub fn command_of(intent: &str) -> Option<String> {
    let mut words = intent.strip_prefix(PREFIX)?.split(' ');
    Some(format!("{} {}", words.next()?, words.next()?))
}

/// `value` as compact JSON with every object's keys sorted.
fn canonical(value: &Value) -> String {
    match value {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            let members: Vec<String> = keys
                .iter()
                .map(|k| format!("{}:{}", Value::String((*k).clone()), canonical(&map[*k])))
                .collect();
            format!("{{{}}}", members.join(","))
        }
        Value::Array(items) => {
            let items: Vec<String> = items.iter().map(canonical).collect();
            format!("[{}]", items.join(","))
        }
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::{command_of, digest};

    #[test]
    fn the_same_command_line_is_recognized_whatever_the_body_layout() {
        let args = |v: &str| vec![("region", vec![v.to_owned()])];
        let a = digest(
            "http://x",
            "dns",
            "create",
            &args("eu"),
            Some(r#"{"a":1,"b":[2]}"#),
        );
        let b = digest(
            "http://x",
            "dns",
            "create",
            &args("eu"),
            Some("{ \"b\": [2], \"a\": 1 }"),
        );
        assert_eq!(a, b);
        let run = a.intent();
        assert!(b.matches(Some(&run)));
        assert_eq!(command_of(&run).as_deref(), Some("dns create"));
        for other in [
            digest(
                "http://y",
                "dns",
                "create",
                &args("eu"),
                Some(r#"{"a":1,"b":[2]}"#),
            ),
            digest(
                "http://x",
                "dns",
                "create",
                &args("us"),
                Some(r#"{"a":1,"b":[2]}"#),
            ),
            digest(
                "http://x",
                "dns",
                "create",
                &args("eu"),
                Some(r#"{"a":2,"b":[2]}"#),
            ),
            digest(
                "http://x",
                "dns",
                "delete",
                &args("eu"),
                Some(r#"{"a":1,"b":[2]}"#),
            ),
        ] {
            assert!(!other.matches(Some(&run)), "{other:?}");
        }
        assert!(!a.matches(None));
    }
}
