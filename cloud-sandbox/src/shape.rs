//! Shapes a record the sandbox keeps to the schema the served spec gives it, so a revision that
//! changes a field's type, narrows an enum or adds a required field changes what the sandbox
//! stores and sends without a hand edit: a value of another type is converted (`"4"` ↔ `4`), a
//! value outside an enum becomes the enum's first value, a required member that is missing is
//! synthesized from its schema, and members a closed schema does not list are dropped.
//!
//! This shapes *records*: the members of a success body whose schema is a named component
//! (`$ref`), or an array of them ([`records`]), and the seeded catalog. The envelope around them
//! (`ok`, pagination members, operation envelopes) is not shaped, and every whole answer is
//! still checked against the spec before it leaves (`validate::Validators::check_answer`).

use serde_json::{Map, Value};

use crate::spec::{Spec, pointer_token};
use crate::synth::synthesize;

/// Deepest schema nesting followed (recursive schemas end there).
const MAX_DEPTH: u32 = 16;

/// `value` shaped to the schema at `pointer` of `spec`.
pub fn conform(spec: &Spec, pointer: &str, value: Value) -> Value {
    conform_at(spec, pointer, value, 0)
}

/// `body` with each member whose schema in the success schema at `pointer` is a `$ref` (a
/// record), or an array of `$ref` items, shaped to that schema.
pub fn records(spec: &Spec, pointer: Option<&str>, mut body: Value) -> Value {
    let Some(ptr) = pointer.map(|p| spec.deref_pointer(p)) else {
        return body;
    };
    let Some(props) = spec
        .doc
        .pointer(&format!("{ptr}/properties"))
        .and_then(Value::as_object)
    else {
        return body;
    };
    let Some(members) = body.as_object_mut() else {
        return body;
    };
    for (name, schema) in props {
        let at = format!("{ptr}/properties/{}", pointer_token(name));
        let (Some(value), is_record, is_list) = (
            members.get_mut(name),
            schema.get("$ref").is_some(),
            schema.pointer("/items/$ref").is_some(),
        ) else {
            continue;
        };
        if is_record {
            *value = conform(spec, &at, std::mem::take(value));
        } else if let (true, Value::Array(items)) = (is_list, value) {
            for item in items.iter_mut() {
                *item = conform(spec, &format!("{at}/items"), std::mem::take(item));
            }
        }
    }
    body
}

fn conform_at(spec: &Spec, pointer: &str, value: Value, depth: u32) -> Value {
    let ptr = spec.deref_pointer(pointer);
    let Some(schema) = spec.doc.pointer(&ptr) else {
        return value;
    };
    if depth > MAX_DEPTH {
        return value;
    }
    if let Some(c) = schema.get("const") {
        return c.clone();
    }
    if let Some(all) = schema.get("allOf").and_then(Value::as_array) {
        return (0..all.len()).fold(value, |v, i| {
            conform_at(spec, &format!("{ptr}/allOf/{i}"), v, depth + 1)
        });
    }
    if let Some(branch) = pick_branch(spec, &ptr, schema, &value) {
        return conform_at(spec, &branch, value, depth + 1);
    }
    let value = match allowed_types(schema) {
        Some(types) if !types.iter().any(|t| has_type(&value, t)) => {
            convert(spec, &ptr, value, &types)
        }
        _ => value,
    };
    let value = match value {
        Value::Object(map) => Value::Object(conform_object(spec, &ptr, schema, map, depth)),
        Value::Array(items) => Value::Array(
            items
                .into_iter()
                .map(|i| conform_at(spec, &format!("{ptr}/items"), i, depth + 1))
                .collect(),
        ),
        other => other,
    };
    conform_enum(schema, value)
}

/// For `oneOf`/`anyOf`: the first branch whose type admits the value, else the first branch.
fn pick_branch(spec: &Spec, ptr: &str, schema: &Value, value: &Value) -> Option<String> {
    let (key, branches) = ["oneOf", "anyOf"]
        .iter()
        .find_map(|k| schema.get(*k).and_then(Value::as_array).map(|b| (*k, b)))?;
    let fits = |i: &usize| {
        let p = spec.deref_pointer(&format!("{ptr}/{key}/{i}"));
        spec.doc
            .pointer(&p)
            .and_then(allowed_types)
            .is_none_or(|types| types.iter().any(|t| has_type(value, t)))
    };
    let chosen = (0..branches.len()).find(fits).unwrap_or(0);
    (!branches.is_empty()).then(|| format!("{ptr}/{key}/{chosen}"))
}

/// Listed members shaped; required ones added; unlisted ones dropped when the schema is closed.
fn conform_object(
    spec: &Spec,
    ptr: &str,
    schema: &Value,
    mut map: Map<String, Value>,
    depth: u32,
) -> Map<String, Value> {
    let props = schema.get("properties").and_then(Value::as_object);
    if schema.get("additionalProperties") == Some(&Value::Bool(false)) {
        map.retain(|k, _| props.is_some_and(|p| p.contains_key(k)));
    }
    for name in props.into_iter().flat_map(Map::keys) {
        let p = format!("{ptr}/properties/{}", pointer_token(name));
        if let Some(v) = map.remove(name) {
            map.insert(name.clone(), conform_at(spec, &p, v, depth + 1));
        }
    }
    let required = schema.get("required").and_then(Value::as_array);
    for name in required.into_iter().flatten().filter_map(Value::as_str) {
        if !map.contains_key(name) {
            let p = format!("{ptr}/properties/{}", pointer_token(name));
            map.insert(name.to_owned(), synthesize(spec, &p));
        }
    }
    map
}

/// A value outside the schema's `enum` becomes its first value.
fn conform_enum(schema: &Value, value: Value) -> Value {
    match schema.get("enum").and_then(Value::as_array) {
        Some(values) if !values.contains(&value) => values.first().cloned().unwrap_or(value),
        _ => value,
    }
}

/// The JSON types a schema admits (`None` when it does not say).
fn allowed_types(schema: &Value) -> Option<Vec<String>> {
    match schema.get("type")? {
        Value::String(t) => Some(vec![t.clone()]),
        Value::Array(ts) => Some(
            ts.iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect(),
        ),
        _ => None,
    }
}

fn has_type(value: &Value, ty: &str) -> bool {
    match ty {
        "null" => value.is_null(),
        "boolean" => value.is_boolean(),
        "integer" => value.is_i64() || value.is_u64(),
        "number" => value.is_number(),
        "string" => value.is_string(),
        "array" => value.is_array(),
        "object" => value.is_object(),
        _ => true,
    }
}

/// Converts `value` to the first of `types` it can become; synthesizes when none fits.
fn convert(spec: &Spec, ptr: &str, value: Value, types: &[String]) -> Value {
    let text = match &value {
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        Value::Bool(b) => b.to_string(),
        _ => String::new(),
    };
    for ty in types {
        let converted = match ty.as_str() {
            "string" if !value.is_null() && !value.is_object() && !value.is_array() => {
                Some(Value::String(text.clone()))
            }
            "integer" => text
                .parse::<i64>()
                .ok()
                .or_else(|| text.parse::<f64>().ok().map(|f| f.round() as i64))
                .map(Value::from),
            "number" => text.parse::<f64>().ok().map(Value::from),
            "boolean" => text.parse::<bool>().ok().map(Value::from),
            "array" if !value.is_null() => Some(Value::Array(vec![value.clone()])),
            "null" => Some(Value::Null),
            _ => None,
        };
        if let Some(v) = converted {
            return v;
        }
    }
    synthesize(spec, ptr)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const DOC: &str = r#"
openapi: 3.1.0
info: {title: t, version: "1"}
paths: {}
components:
  schemas:
    Item:
      type: object
      additionalProperties: false
      required: [id, cpu, tier]
      properties:
        id: {type: string}
        cpu: {type: string}
        ram: {type: [integer, "null"]}
        tier: {type: string, enum: [gold, silver]}
        tags: {type: array, items: {type: integer}}
"#;

    #[test]
    fn a_record_follows_its_schema() {
        let spec = Spec::parse(DOC).unwrap();
        let record = json!({"id": 7, "cpu": 4, "ram": "2048", "tier": "bronze", "tags": ["1", 2], "gone": true});
        let shaped = conform(&spec, "/components/schemas/Item", record);
        assert_eq!(
            shaped,
            json!({"id": "7", "cpu": "4", "ram": 2048, "tier": "gold", "tags": [1, 2]})
        );
        let filled = conform(&spec, "/components/schemas/Item", json!({"id": "a"}));
        assert_eq!(filled["tier"], "gold");
        assert!(filled["cpu"].is_string());
        let null_kept = conform(
            &spec,
            "/components/schemas/Item/properties/ram",
            Value::Null,
        );
        assert_eq!(null_kept, Value::Null);
    }
}
