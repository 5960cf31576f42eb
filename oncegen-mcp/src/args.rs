//! A tool call's arguments, decoded into the types the SDK's client method and setters take.
//!
//! Parameters are the properties named by their Rust names; the request body is the property
//! `body`. Each value is decoded with serde into whatever type the generated call needs
//! (inferred from the client method); an error names the argument and the path inside it.

use crate::Failure;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

/// The property holding a request body.
pub const BODY: &str = "body";
/// The property holding a write's idempotency key.
pub const IDEMPOTENCY_KEY: &str = "idempotency_key";
/// The property asking a read that offers `wait` to poll until its subject settles.
pub const WAIT: &str = "wait";

/// The arguments of one tool call.
#[derive(Debug, Clone, Default)]
pub struct Args {
    values: Map<String, Value>,
    idempotency_key: Option<String>,
    intent: Option<String>,
    wait: bool,
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
        }
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
    pub fn body<T: DeserializeOwned>(&self) -> Result<T, Failure> {
        self.arg(BODY)
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
                "this purchase would be sent without a spending ceiling: the body's shape does                  not carry `{}`. Use the body shape that has it and set it.",
                ceiling.join("` or `")
            )))
        }
    }

    /// The optional request body.
    pub fn opt_body<T: DeserializeOwned>(&self) -> Result<Option<T>, Failure> {
        self.opt(BODY)
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

/// `value` decoded as `T`; a string that is not a `T` is also tried as JSON text (`"5"`).
fn decode<T: DeserializeOwned>(id: &str, value: &Value) -> Result<T, Failure> {
    let located = |value: &Value| {
        serde_path_to_error::deserialize::<_, T>(value).map_err(|e| {
            let path = e.path().to_string();
            let at = if path == "." {
                String::new()
            } else {
                format!(" at `{path}`")
            };
            Failure::invalid(format!("invalid argument `{id}`{at}: {}", e.inner()))
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
        #[derive(serde::Deserialize, Debug)]
        struct Body {
            #[allow(dead_code)]
            a: Vec<u8>,
        }
        let e = a.body::<Body>().unwrap_err();
        assert!(e.message.contains("at `a[1]`"), "{}", e.message);
    }
}
