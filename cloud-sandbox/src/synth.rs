//! Synthesizes a minimal documented-shape value from a response schema, for operations without
//! a hand-written handler (required members only, `ok: true`, formats honoured).

use serde_json::{Map, Value, json};

use crate::spec::Spec;

/// A value valid against the schema at `pointer` (best effort).
pub fn synthesize(spec: &Spec, pointer: &str) -> Value {
    synth_value(spec, pointer, 0)
}

fn synth_value(spec: &Spec, pointer: &str, depth: u32) -> Value {
    let ptr = spec.deref_pointer(pointer);
    let Some(s) = spec.doc.pointer(&ptr) else {
        return Value::Null;
    };
    if depth > 12 {
        return Value::Null;
    }
    if let Some(c) = s.get("const") {
        return c.clone();
    }
    if let Some(e) = s
        .get("enum")
        .and_then(Value::as_array)
        .and_then(|e| e.first())
    {
        return e.clone();
    }
    if let Some(d) = s.get("default") {
        return d.clone();
    }
    for key in ["oneOf", "anyOf"] {
        if s.get(key)
            .and_then(Value::as_array)
            .is_some_and(|a| !a.is_empty())
        {
            return synth_value(spec, &format!("{ptr}/{key}/0"), depth + 1);
        }
    }
    if let Some(all) = s.get("allOf").and_then(Value::as_array) {
        let mut out = Map::new();
        for i in 0..all.len() {
            if let Value::Object(o) = synth_value(spec, &format!("{ptr}/allOf/{i}"), depth + 1) {
                out.extend(o);
            }
        }
        return Value::Object(out);
    }
    let ty = match s.get("type") {
        Some(Value::String(t)) => t.clone(),
        Some(Value::Array(ts)) => ts
            .iter()
            .filter_map(Value::as_str)
            .find(|t| *t != "null")
            .unwrap_or("null")
            .to_owned(),
        _ if s.get("properties").is_some() => "object".into(),
        _ => return Value::Null,
    };
    match ty.as_str() {
        "object" => {
            let mut out = Map::new();
            let required: Vec<&str> = s
                .get("required")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .collect();
            if let Some(props) = s.get("properties").and_then(Value::as_object) {
                for (name, _) in props {
                    if name == "ok" || required.contains(&name.as_str()) {
                        let p = format!("{ptr}/properties/{}", crate::spec::pointer_token(name));
                        out.insert(name.clone(), synth_value(spec, &p, depth + 1));
                    }
                }
            }
            Value::Object(out)
        }
        "array" => {
            let min = s.get("minItems").and_then(Value::as_u64).unwrap_or(0);
            Value::Array(
                (0..min)
                    .map(|_| synth_value(spec, &format!("{ptr}/items"), depth + 1))
                    .collect(),
            )
        }
        "integer" => json!(
            s.get("minimum").and_then(Value::as_i64).unwrap_or(1).max(
                s.get("exclusiveMinimum")
                    .and_then(Value::as_i64)
                    .map_or(i64::MIN, |m| m + 1)
            )
        ),
        "number" => json!(s.get("minimum").and_then(Value::as_f64).unwrap_or(1.0)),
        "boolean" => json!(true),
        "string" => match s.get("format").and_then(Value::as_str) {
            Some("uuid") => json!(uuid::Uuid::new_v4()),
            Some("date-time") => json!(crate::state::ts(chrono::Utc::now())),
            Some("decimal") => json!("0.00"),
            Some("email") => json!("sandbox@example.com"),
            Some("uri-reference") | Some("uri") => json!("/v1"),
            _ => {
                let min = s.get("minLength").and_then(Value::as_u64).unwrap_or(1) as usize;
                json!("x".repeat(min.max(1)))
            }
        },
        _ => Value::Null,
    }
}
