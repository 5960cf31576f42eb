//! How the CLI names a write for the runtime's rule of "the same write"
//! ([`oncegen_runtime::same_write`]): the command, every argument as given and the `--json`
//! body (as canonical JSON: key order and spacing do not count), sent to one base URL with one
//! credential. A re-run of a command whose outcome was never printed answers that outcome
//! (settled if still unknown) and sends nothing new; after the outcome is printed, the same
//! command is a new write. `--new-write` always sends a new one; `--idempotency-key` names one
//! write across runs.

use oncegen_runtime::Config;
use oncegen_runtime::same_write::Identity;
use serde_json::{Map, Value};

/// The tool name every intent of the CLI starts with.
const TOOL: &str = "cli";

/// The write of `area command` with `args` (each argument's id and its values as given) and
/// `body` (the `--json` text), as `config` sends it.
pub fn identity(
    config: &Config,
    area: &str,
    command: &str,
    args: &[(&str, Vec<String>)],
    body: Option<&str>,
) -> Identity {
    let args: Map<String, Value> = args
        .iter()
        .map(|(id, values)| ((*id).to_owned(), Value::from(values.clone())))
        .collect();
    let body = body.map(|text| {
        serde_json::from_str::<Value>(text).unwrap_or_else(|_| Value::String(text.to_owned()))
    });
    let arguments = serde_json::json!({ "args": args, "body": body });
    Identity::new(
        TOOL,
        config.get_base_url(),
        config.credential_id().as_deref(),
        &format!("{area}/{command}"),
        &arguments,
    )
}

/// The command (`<area> <command>`) an intent of the CLI names, if it is one.
pub fn command_of(intent: &str) -> Option<String> {
    let mut words = intent.strip_prefix(TOOL)?.strip_prefix(' ')?.split(' ');
    Some(words.next()?.replacen('/', " ", 1))
}

#[cfg(test)]
mod tests {
    use super::{command_of, identity};
    use oncegen_runtime::Config;

    #[test]
    fn the_same_command_line_is_recognized_whatever_the_body_layout() {
        let x = Config::new("http://x").bearer("p.s");
        let args = |v: &str| vec![("region", vec![v.to_owned()])];
        let a = identity(&x, "dns", "create", &args("eu"), Some(r#"{"a":1,"b":[2]}"#));
        let b = identity(
            &x,
            "dns",
            "create",
            &args("eu"),
            Some("{ \"b\": [2], \"a\": 1 }"),
        );
        assert_eq!(a, b);
        let run = a.intent();
        assert!(b.matches(Some(&run)));
        assert_eq!(command_of(&run).as_deref(), Some("dns create"));
        let body = Some(r#"{"a":1,"b":[2]}"#);
        for other in [
            identity(
                &Config::new("http://y").bearer("p.s"),
                "dns",
                "create",
                &args("eu"),
                body,
            ),
            identity(
                &Config::new("http://x").bearer("p.t"),
                "dns",
                "create",
                &args("eu"),
                body,
            ),
            identity(&x, "dns", "create", &args("us"), body),
            identity(&x, "dns", "create", &args("eu"), Some(r#"{"a":2,"b":[2]}"#)),
            identity(&x, "dns", "delete", &args("eu"), body),
        ] {
            assert!(!other.matches(Some(&run)), "{other:?}");
        }
        assert!(!a.matches(None));
    }
}
