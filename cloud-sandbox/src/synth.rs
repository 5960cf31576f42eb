//! Synthesizes a minimal documented-shape value from a response schema, for operations without
//! a hand-written handler (required members only, `ok: true`, formats honoured).

use serde_json::{Map, Value, json};

use crate::spec::Spec;

/// How deep `$ref`s and compositions are followed before a value is `null`.
const MAX_DEPTH: u32 = 12;

/// A value valid against the schema at `pointer` (best effort).
pub fn synthesize(spec: &Spec, pointer: &str) -> Value {
    synth_value(spec, pointer, 0)
}

/// The value of the schema at `pointer`: a value it fixes (`const`, first `enum` value,
/// `default`), else one of its composition, else one of its type.
fn synth_value(spec: &Spec, pointer: &str, depth: u32) -> Value {
    let ptr = spec.deref_pointer(pointer);
    let Some(schema) = spec.doc.pointer(&ptr) else {
        return Value::Null;
    };
    if depth > MAX_DEPTH {
        return Value::Null;
    }
    if let Some(fixed) = fixed_value(schema) {
        return fixed;
    }
    let at = Schema {
        spec,
        ptr: &ptr,
        schema,
        depth,
    };
    at.composed().unwrap_or_else(|| at.typed())
}

/// The value a schema names outright: `const`, the first `enum` value, or `default`.
fn fixed_value(schema: &Value) -> Option<Value> {
    let first_enum = schema
        .get("enum")
        .and_then(Value::as_array)
        .and_then(|e| e.first());
    schema
        .get("const")
        .or(first_enum)
        .or_else(|| schema.get("default"))
        .cloned()
}

/// One schema being synthesized: where it is and how deep.
struct Schema<'a> {
    spec: &'a Spec,
    ptr: &'a str,
    schema: &'a Value,
    depth: u32,
}

impl Schema<'_> {
    /// The value of the subschema at `suffix` below this one.
    fn child(&self, suffix: &str) -> Value {
        synth_value(self.spec, &format!("{}/{suffix}", self.ptr), self.depth + 1)
    }

    /// The first `oneOf`/`anyOf` member's value, or the merged objects of every `allOf` member.
    fn composed(&self) -> Option<Value> {
        for key in ["oneOf", "anyOf"] {
            if self
                .schema
                .get(key)
                .and_then(Value::as_array)
                .is_some_and(|a| !a.is_empty())
            {
                return Some(self.child(&format!("{key}/0")));
            }
        }
        let all = self.schema.get("allOf").and_then(Value::as_array)?;
        let mut out = Map::new();
        for i in 0..all.len() {
            if let Value::Object(o) = self.child(&format!("allOf/{i}")) {
                out.extend(o);
            }
        }
        Some(Value::Object(out))
    }

    /// A value of the schema's type (the first non-null one of a type list; `object` when it
    /// only lists `properties`).
    fn typed(&self) -> Value {
        let ty = match self.schema.get("type") {
            Some(Value::String(t)) => t.as_str(),
            Some(Value::Array(ts)) => ts
                .iter()
                .filter_map(Value::as_str)
                .find(|t| *t != "null")
                .unwrap_or("null"),
            _ if self.schema.get("properties").is_some() => "object",
            _ => return Value::Null,
        };
        match ty {
            "object" => self.object(),
            "array" => self.array(),
            "integer" => json!(self.integer()),
            "number" => json!(
                self.schema
                    .get("minimum")
                    .and_then(Value::as_f64)
                    .unwrap_or(1.0)
            ),
            "boolean" => json!(true),
            "string" => self.string(),
            _ => Value::Null,
        }
    }

    /// An object of its required members and `ok`.
    fn object(&self) -> Value {
        let required: Vec<&str> = self
            .schema
            .get("required")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .collect();
        let mut out = Map::new();
        let props = self.schema.get("properties").and_then(Value::as_object);
        for name in props.into_iter().flat_map(Map::keys) {
            if name == "ok" || required.contains(&name.as_str()) {
                let suffix = format!("properties/{}", crate::spec::pointer_token(name));
                out.insert(name.clone(), self.child(&suffix));
            }
        }
        Value::Object(out)
    }

    /// An array of `minItems` items (none by default).
    fn array(&self) -> Value {
        let min = self.schema.get("minItems").and_then(Value::as_u64);
        Value::Array((0..min.unwrap_or(0)).map(|_| self.child("items")).collect())
    }

    /// The least integer the bounds allow, 1 when none is given.
    fn integer(&self) -> i64 {
        let minimum = self.schema.get("minimum").and_then(Value::as_i64);
        let exclusive = self.schema.get("exclusiveMinimum").and_then(Value::as_i64);
        minimum
            .unwrap_or(1)
            .max(exclusive.map_or(i64::MIN, |m| m + 1))
    }

    /// A string of the schema's format, else `minLength` (at least one) `x`s.
    fn string(&self) -> Value {
        match self.schema.get("format").and_then(Value::as_str) {
            Some("uuid") => json!(uuid::Uuid::new_v4()),
            Some("date-time") => json!(crate::state::ts(chrono::Utc::now())),
            Some("decimal") => json!("0.00"),
            Some("email") => json!("sandbox@example.com"),
            Some("uri-reference") | Some("uri") => json!("/v1"),
            _ => {
                let min = self.schema.get("minLength").and_then(Value::as_u64);
                json!("x".repeat(min.unwrap_or(1).max(1) as usize))
            }
        }
    }
}
