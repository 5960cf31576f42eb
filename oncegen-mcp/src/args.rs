//! A tool call's arguments, decoded into the types the SDK's client method and setters take.
//!
//! Parameters are the properties named as the API names them (the generated function maps
//! each to its Rust setter); the request body is the property `body`. Each value is decoded
//! with serde into whatever type the generated call needs (inferred from the client method),
//! refusing an argument or a member the tool does not define, rather than dropping it; an
//! error names the argument and the path inside it.

use crate::Failure;
use oncegen_runtime::{closest, dropped_members, located, refusing_unknown};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

/// The property holding a request body.
pub const BODY: &str = "body";
/// The property holding a write's idempotency key.
pub const IDEMPOTENCY_KEY: &str = "idempotency_key";
/// The property asking a read that offers `wait` to poll until its subject settles.
pub const WAIT: &str = "wait";
/// The argument holding a read's jq filter (`crate::filter`).
pub const JQ: &str = "jq";

/// The arguments of one tool call.
#[derive(Debug, Clone, Default)]
pub struct Args {
    values: Map<String, Value>,
    idempotency_key: Option<String>,
    intent: Option<String>,
    wait: bool,
    /// `--allow-unknown-members`: a body's unknown members are sent as given.
    allow_unknown: bool,
    /// The body's members its type does not define, when they are sent as given.
    sent_unknown: std::sync::OnceLock<Vec<String>>,
}

impl Args {
    /// The arguments `values`, the write sent under `idempotency_key`.
    pub(crate) fn new(
        values: Map<String, Value>,
        idempotency_key: Option<String>,
        wait: bool,
    ) -> Self {
        Args {
            values,
            idempotency_key,
            intent: None,
            wait,
            allow_unknown: false,
            sent_unknown: std::sync::OnceLock::new(),
        }
    }

    /// The arguments, a body's unknown members sent as given when `allow` (the server's
    /// `--allow-unknown-members`) instead of refused.
    pub(crate) fn allowing_unknown(mut self, allow: bool) -> Self {
        self.allow_unknown = allow;
        self
    }

    /// The body's members its type does not define that the call sends as given.
    pub(crate) fn sent_unknown(&self) -> &[String] {
        self.sent_unknown.get().map_or(&[], Vec::as_slice)
    }

    /// `call` sending the body as given, when unknown members were let through.
    pub fn as_given<B: oncegen_runtime::CallBuilder>(&self, call: B) -> B {
        match self.values.get(BODY) {
            Some(body) if !self.sent_unknown().is_empty() => call.raw_json_body(body.to_string()),
            _ => call,
        }
    }

    /// The body `value` decoded without refusing unknown members, which are recorded to be
    /// sent as given.
    fn lenient_body<T: DeserializeOwned + Serialize>(&self, value: &Value) -> Result<T, Failure> {
        let typed: T = located::from_value(value).map_err(|e| {
            Failure::invalid(format!(
                "invalid argument `{BODY}.{}`: {}",
                e.path, e.message
            ))
        })?;
        let encoded = serde_json::to_value(&typed)
            .map_err(|e| Failure::internal(format!("the body does not encode as JSON: {e}")))?;
        let dropped = dropped_members(value, &encoded);
        if !dropped.is_empty() {
            let _ = self.sent_unknown.set(dropped);
        }
        Ok(typed)
    }

    /// The arguments, the write journaled with `intent` (what names it across calls:
    /// [`crate::once`]).
    pub(crate) fn with_intent(mut self, intent: String) -> Self {
        self.intent = Some(intent);
        self
    }

    /// `call` tied to the write's intent (journaled, never sent), when it is a write.
    pub fn tag<B: oncegen_runtime::CallBuilder>(&self, call: B) -> B {
        match &self.intent {
            Some(intent) => call.intent(intent.clone()),
            None => call,
        }
    }

    /// Refuses an argument that is none of `known` (the tool's, by their names in the API),
    /// naming it, a close match and the known ones: before anything is sent.
    pub fn known(&self, known: &[&str]) -> Result<(), Failure> {
        let Some(unknown) = self.values.keys().find(|k| !known.contains(&k.as_str())) else {
            return Ok(());
        };
        let mut message = format!("unknown argument `{unknown}`");
        if let Some(close) = closest(unknown, known.iter().copied()) {
            message.push_str(&format!(", did you mean `{close}`?"));
        }
        let names: Vec<String> = known.iter().map(|k| format!("`{k}`")).collect();
        message.push_str(&match names.is_empty() {
            true => " (this tool takes no arguments)".to_owned(),
            false => format!(" (this tool's arguments: {})", names.join(", ")),
        });
        Err(Failure::invalid(message))
    }

    /// The required argument `id`.
    pub fn arg<T: DeserializeOwned>(&self, id: &str) -> Result<T, Failure> {
        self.opt(id)?
            .ok_or_else(|| Failure::invalid(format!("the argument `{id}` is required")))
    }

    /// The optional argument `id` (`null` counts as absent).
    pub fn opt<T: DeserializeOwned>(&self, id: &str) -> Result<Option<T>, Failure> {
        match self.values.get(id) {
            None | Some(Value::Null) => Ok(None),
            Some(value) => decode(id, value).map(Some),
        }
    }

    /// The required request body.
    pub fn body<T: DeserializeOwned + Serialize>(&self) -> Result<T, Failure> {
        self.opt_body()?
            .ok_or_else(|| Failure::invalid(format!("the argument `{BODY}` is required")))
    }

    /// The required body of a purchase, refused unless what will be sent still carries one of
    /// the `ceiling` members (a body shape without that member would drop the ceiling).
    pub fn capped_body<T: DeserializeOwned + Serialize>(
        &self,
        ceiling: &[&str],
    ) -> Result<T, Failure> {
        let body: T = self.body()?;
        let sent = serde_json::to_value(&body)
            .map_err(|e| Failure::internal(format!("the body does not encode as JSON: {e}")))?;
        if ceiling
            .iter()
            .any(|name| sent.get(*name).is_some_and(|v| !v.is_null()))
        {
            Ok(body)
        } else {
            Err(Failure::refused(format!(
                "this purchase would be sent without a spending ceiling: the body's shape does \
                 not carry `{}`. Use the body shape that has it and set it.",
                ceiling.join("` or `")
            )))
        }
    }

    /// The optional request body.
    pub fn opt_body<T: DeserializeOwned + Serialize>(&self) -> Result<Option<T>, Failure> {
        match self.values.get(BODY) {
            None | Some(Value::Null) => Ok(None),
            Some(value) if self.allow_unknown => self.lenient_body(value).map(Some),
            Some(value) => decode(BODY, value).map(Some),
        }
    }

    /// The key a write is sent under.
    pub fn idempotency_key(&self) -> Option<String> {
        self.idempotency_key.clone()
    }

    /// Whether the call asked to poll until its subject settles.
    pub fn wait(&self) -> bool {
        self.wait
    }
}

/// `value` decoded as `T`, refusing members no type names; a string that is not a `T` is also
/// tried as JSON text (`"5"`). An error names the argument and the path inside it
/// (`body.records[0].ttl`).
fn decode<T: DeserializeOwned>(id: &str, value: &Value) -> Result<T, Failure> {
    let located = |value: &Value| {
        refusing_unknown(|| located::from_value::<T>(value)).map_err(|e| {
            let at = match e.path.as_str() {
                "" => id.to_owned(),
                path if path.starts_with('[') => format!("{id}{path}"),
                path => format!("{id}.{path}"),
            };
            Failure::invalid(format!("invalid argument `{at}`: {}", e.message))
        })
    };
    located(value).or_else(|first| match value {
        Value::String(text) => serde_json::from_str::<Value>(text)
            .ok()
            .and_then(|parsed| located(&parsed).ok())
            .ok_or(first),
        _ => Err(first),
    })
}

#[cfg(test)]
mod tests {
    use super::Args;
    use serde_json::json;

    fn args(value: serde_json::Value) -> Args {
        Args::new(value.as_object().unwrap().clone(), None, false)
    }

    #[test]
    fn arguments_decode_into_the_call_types_and_errors_name_them() {
        let a = args(json!({"limit": 5, "name": "x", "n": "7", "body": {"a": [1, "b"]}}));
        assert_eq!(a.arg::<u8>("limit").unwrap(), 5);
        assert_eq!(a.arg::<u8>("n").unwrap(), 7);
        assert_eq!(a.arg::<String>("name").unwrap(), "x");
        assert_eq!(a.opt::<u8>("absent").unwrap(), None);
        let e = a.arg::<u8>("absent").unwrap_err();
        assert!(e.message.contains("`absent` is required"), "{}", e.message);
        let e = a.arg::<u8>("name").unwrap_err();
        assert!(e.message.contains("`name`"), "{}", e.message);
        #[derive(serde::Deserialize, serde::Serialize, Debug)]
        struct Body {
            #[allow(dead_code)]
            a: Vec<u8>,
        }
        let e = a.body::<Body>().unwrap_err();
        assert!(e.message.contains("`body.a[1]`"), "{}", e.message);
    }

    #[derive(Debug)]
    struct Zone {
        #[allow(dead_code)]
        name: String,
    }
    oncegen_runtime::json_object!(Zone { name });

    #[test]
    fn unknown_arguments_and_members_are_refused_naming_them() {
        let a = args(json!({"type_": "vps", "body": {"name": "a", "nmae": "b"}}));
        let e = a.known(&["type", "body"]).unwrap_err();
        assert!(
            e.message
                .starts_with("unknown argument `type_`, did you mean `type`?"),
            "{}",
            e.message
        );
        assert!(
            args(json!({"type": "vps"}))
                .known(&["type", "body"])
                .is_ok()
        );
        let e = a.body::<Zone>().unwrap_err();
        assert!(
            e.message.starts_with(
                "invalid argument `body.nmae`: unknown member `nmae`, did you mean `name`?"
            ),
            "{}",
            e.message
        );
    }
}
