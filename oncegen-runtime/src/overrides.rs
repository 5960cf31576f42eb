//! Escape hatches of one call: what a caller adds to or replaces in the request a generated
//! builder assembled, for a document that is wrong (a body it does not declare, a field it
//! lacks or types wrongly, a query parameter it does not list). They change the request before
//! its bytes are fixed, so idempotency keys, signing and the write journal see the request as
//! sent.

use std::borrow::Cow;

use bytes::Bytes;
use serde_json::{Map, Value};

use crate::encoding::params;
use crate::error::Error;

/// What a caller overrides in one call's request (see `CallBuilder::extra_query`,
/// `extra_body_field` and `raw_json_body`).
#[derive(Clone, Debug, Default)]
pub struct Overrides {
    /// Query parameters (name, value as given), each replacing the builder's of that name.
    query: Vec<(String, String)>,
    /// A JSON body replacing the builder's (checked to be JSON before any I/O).
    raw_json_body: Option<Bytes>,
    /// Fields set in the JSON object body, each replacing the builder's of that name.
    body_fields: Map<String, Value>,
    /// The first override that could not be taken (a value that does not serialize).
    error: Option<String>,
}

impl Overrides {
    /// Sets the query parameter `name` to `value`, replacing any value the builder set for it.
    pub fn set_query(&mut self, name: impl Into<String>, value: impl Into<String>) {
        let name = name.into();
        self.query.retain(|(n, _)| *n != name);
        self.query.push((name, value.into()));
    }

    /// Sends `body` (JSON text) as the request body instead of the builder's.
    pub fn set_raw_json_body(&mut self, body: impl Into<Bytes>) {
        self.raw_json_body = Some(body.into());
    }

    /// Sets the field `name` of the JSON object body to `value` (a `null` sends `null`),
    /// replacing the builder's field of that name or adding it.
    pub fn set_body_field(&mut self, name: impl Into<String>, value: impl serde::Serialize) {
        let name = name.into();
        match serde_json::to_value(value) {
            Ok(value) => {
                self.body_fields.insert(name, value);
            }
            Err(e) => {
                if self.error.is_none() {
                    self.error = Some(format!("cannot serialize extra body field `{name}`: {e}"));
                }
            }
        }
    }

    /// Replaces the builder's query pairs of each overridden name by the override (encoded).
    pub(crate) fn apply_to_query(&self, query: &mut Vec<(String, String)>) {
        for (name, value) in &self.query {
            query.retain(|(n, _)| n != name);
            query.push((name.clone(), params::encode_component(value)));
        }
    }

    /// The body the call sends: the raw JSON body if set, else the builder's, with the extra
    /// fields set in it (a call without a body gets a JSON object of them). Fields need a JSON
    /// object body; a raw body must be JSON.
    pub(crate) fn apply_to_body(
        &self,
        body: Option<(Bytes, Cow<'static, str>)>,
    ) -> Result<Option<(Bytes, Cow<'static, str>)>, Error> {
        if let Some(message) = &self.error {
            return Err(Error::validation(message.clone()));
        }
        let json = Cow::Borrowed("application/json");
        let body = match &self.raw_json_body {
            Some(raw) => {
                if let Err(e) = serde_json::from_slice::<serde::de::IgnoredAny>(raw) {
                    return Err(Error::validation(format!(
                        "the raw JSON body is not JSON: {e}"
                    )));
                }
                Some((raw.clone(), json.clone()))
            }
            None => body,
        };
        if self.body_fields.is_empty() {
            return Ok(body);
        }
        let mut object = match &body {
            None => Map::new(),
            Some((bytes, content_type)) if is_json(content_type) => {
                match serde_json::from_slice::<Value>(bytes) {
                    Ok(Value::Object(object)) => object,
                    _ => {
                        return Err(Error::validation(
                            "extra body fields need a JSON object body, and this call's body is another JSON value",
                        ));
                    }
                }
            }
            Some((_, content_type)) => {
                return Err(Error::validation(format!(
                    "extra body fields need a JSON body, and this call sends `{content_type}`: set the whole body with raw_json_body"
                )));
            }
        };
        for (name, value) in &self.body_fields {
            object.insert(name.clone(), value.clone());
        }
        let bytes = serde_json::to_vec(&object)
            .map_err(|e| Error::validation(format!("cannot serialize the request body: {e}")))?;
        Ok(Some((Bytes::from(bytes), json)))
    }
}

/// Whether a content type is JSON (`application/json`, `…+json`, with parameters or not).
fn is_json(content_type: &str) -> bool {
    let media = content_type
        .split(';')
        .next()
        .unwrap_or_default()
        .trim()
        .to_ascii_lowercase();
    media == "application/json" || media.ends_with("+json")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn json(text: &'static str) -> Option<(Bytes, Cow<'static, str>)> {
        Some((
            Bytes::from_static(text.as_bytes()),
            Cow::Borrowed("application/json"),
        ))
    }

    fn sent(body: Option<(Bytes, Cow<'static, str>)>) -> String {
        let (bytes, content_type) = body.expect("a body");
        assert_eq!(content_type, "application/json");
        String::from_utf8(bytes.to_vec()).unwrap()
    }

    #[test]
    fn fields_replace_or_add_to_the_builders_object() {
        let mut o = Overrides::default();
        o.set_body_field("name", "fixed");
        o.set_body_field("extra", serde_json::json!({"a": 1}));
        let body = o
            .apply_to_body(json(r#"{"name":"x","kept":true}"#))
            .unwrap();
        assert_eq!(
            sent(body),
            r#"{"name":"fixed","kept":true,"extra":{"a":1}}"#
        );
        assert_eq!(
            sent(o.apply_to_body(None).unwrap()),
            r#"{"name":"fixed","extra":{"a":1}}"#
        );
    }

    #[test]
    fn a_raw_body_replaces_the_builders_and_must_be_json() {
        let mut o = Overrides::default();
        o.set_raw_json_body(r#"{"id":"9b1c"}"#);
        assert_eq!(
            sent(o.apply_to_body(json("{}")).unwrap()),
            r#"{"id":"9b1c"}"#
        );
        o.set_body_field("n", 1);
        assert_eq!(
            sent(o.apply_to_body(None).unwrap()),
            r#"{"id":"9b1c","n":1}"#
        );
        let mut bad = Overrides::default();
        bad.set_raw_json_body("{nope");
        let err = bad.apply_to_body(None).unwrap_err().to_string();
        assert!(err.contains("not JSON"), "{err}");
    }

    #[test]
    fn fields_on_a_body_that_is_no_json_object_are_refused() {
        let mut o = Overrides::default();
        o.set_body_field("n", 1);
        let err = o.apply_to_body(json("[1]")).unwrap_err().to_string();
        assert!(err.contains("JSON object body"), "{err}");
        let form = Some((
            Bytes::from_static(b"a=1"),
            Cow::Borrowed("application/x-www-form-urlencoded"),
        ));
        let err = o.apply_to_body(form).unwrap_err().to_string();
        assert!(err.contains("raw_json_body"), "{err}");
        let merge = Some((
            Bytes::from_static(b"{}"),
            Cow::Borrowed("application/merge-patch+json"),
        ));
        assert!(o.apply_to_body(merge).is_ok());
    }

    #[test]
    fn query_overrides_replace_the_builders_pairs_of_their_name() {
        let mut o = Overrides::default();
        o.set_query("limit", "5");
        o.set_query("filter[name]", "a b");
        o.set_query("limit", "7");
        let mut query = vec![
            ("limit".to_owned(), "10".to_owned()),
            ("page".to_owned(), "2".to_owned()),
        ];
        o.apply_to_query(&mut query);
        let pairs: Vec<(&str, &str)> = query
            .iter()
            .map(|(n, v)| (n.as_str(), v.as_str()))
            .collect();
        assert_eq!(
            pairs,
            [("page", "2"), ("filter[name]", "a%20b"), ("limit", "7")]
        );
    }
}
