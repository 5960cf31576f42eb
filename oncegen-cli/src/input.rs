//! A command's arguments, decoded into the types the SDK's client method and setters take.
//!
//! A value is decoded with serde into whatever type the generated call needs (inferred from
//! the client method), first as a JSON string (`active`, a UUID, a date, a name), then as JSON
//! text (`5`, `true`): so one rule covers every scalar and enum without generated parsing code.

use crate::Failure;
use clap::ArgMatches;
use serde::de::DeserializeOwned;
use serde_json::Value;
use std::io::Read;

/// The arguments of one command line.
pub struct Input<'m> {
    matches: &'m ArgMatches,
    idempotency_key: Option<String>,
}

/// The id of the `--json` argument.
pub(crate) const BODY: &str = "json";

impl<'m> Input<'m> {
    pub(crate) fn new(matches: &'m ArgMatches, idempotency_key: Option<String>) -> Self {
        Input {
            matches,
            idempotency_key,
        }
    }

    /// The required argument `id`.
    pub fn arg<T: DeserializeOwned>(&self, id: &str) -> Result<T, Failure> {
        self.opt(id)?
            .ok_or_else(|| Failure::usage(format!("`{id}` is required")))
    }

    /// The optional argument `id`.
    pub fn opt<T: DeserializeOwned>(&self, id: &str) -> Result<Option<T>, Failure> {
        match self.matches.get_one::<String>(id) {
            None => Ok(None),
            Some(raw) => scalar(id, raw).map(Some),
        }
    }

    /// The optional repeatable argument `id`, as a list.
    pub fn list<T: DeserializeOwned>(&self, id: &str) -> Result<Option<Vec<T>>, Failure> {
        let Some(values) = self.matches.get_many::<String>(id) else {
            return Ok(None);
        };
        values
            .map(|raw| scalar(id, raw))
            .collect::<Result<_, _>>()
            .map(Some)
    }

    /// The required `--json` body.
    pub fn body<T: DeserializeOwned>(&self) -> Result<T, Failure> {
        self.opt_body()?.ok_or_else(|| {
            Failure::usage("the request body is required: --json <JSON | @FILE | ->")
        })
    }

    /// The optional `--json` body, decoded into its type before anything is sent; an error
    /// names the field (`items[0].name`).
    pub fn opt_body<T: DeserializeOwned>(&self) -> Result<Option<T>, Failure> {
        let Some(raw) = self.matches.get_one::<String>(BODY) else {
            return Ok(None);
        };
        let text = read_source(raw)?;
        let mut de = serde_json::Deserializer::from_str(&text);
        let value = serde_path_to_error::deserialize(&mut de).map_err(|e| {
            let path = e.path().to_string();
            let at = if path == "." {
                String::new()
            } else {
                format!(" at `{path}`")
            };
            Failure::usage(format!("--json: invalid body{at}: {}", e.inner()))
        })?;
        de.end()
            .map_err(|e| Failure::usage(format!("--json: trailing input: {e}")))?;
        Ok(Some(value))
    }

    /// The key `--idempotency-key` gave, if any.
    pub fn idempotency_key(&self) -> Option<String> {
        self.idempotency_key.clone()
    }
}

/// `raw` decoded as `T`: as a JSON string, else as JSON text.
fn scalar<T: DeserializeOwned>(id: &str, raw: &str) -> Result<T, Failure> {
    serde_json::from_value(Value::String(raw.to_owned()))
        .or_else(|as_string| serde_json::from_str(raw).map_err(|_| as_string))
        .map_err(|e| Failure::usage(format!("invalid value `{raw}` for `{id}`: {e}")))
}

/// The text of `--json`'s value: itself, a file (`@path`) or standard input (`-`).
fn read_source(raw: &str) -> Result<String, Failure> {
    if raw == "-" {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .map_err(|e| Failure::usage(format!("--json -: reading standard input: {e}")))?;
        Ok(text)
    } else if let Some(path) = raw.strip_prefix('@') {
        std::fs::read_to_string(path).map_err(|e| Failure::usage(format!("--json @{path}: {e}")))
    } else {
        Ok(raw.to_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::scalar;

    #[test]
    fn scalars_decode_as_strings_then_as_json() {
        assert_eq!(scalar::<String>("q", "42").unwrap(), "42");
        assert_eq!(scalar::<u8>("limit", "42").unwrap(), 42);
        assert!(scalar::<bool>("b", "true").unwrap());
        let err = scalar::<u8>("limit", "300").unwrap_err();
        assert!(err.message.contains("`limit`"), "{}", err.message);
    }
}
