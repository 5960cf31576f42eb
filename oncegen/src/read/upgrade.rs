//! Upgrades an OpenAPI 3.0.x document to 3.1 form before it enters the model.
//!
//! Rewrites every schema: `nullable: true` → a type array with `"null"` (or an `anyOf` with
//! `{type: "null"}` when the schema has no `type`), boolean `exclusiveMinimum`/`Maximum` →
//! numeric bounds, `example` → `examples`.

use serde_json::{Map, Value, json};

/// Rewrites a 3.0 document in place into 3.1 form.
pub(super) fn upgrade_3_0(root: &mut Value) {
    if let Some(obj) = root.as_object_mut() {
        obj.insert("openapi".to_owned(), Value::String("3.1.0".to_owned()));
    }
    for_each_schema_slot(root, &mut upgrade_schema);
}

/// Calls `f` on every schema position reachable from the document root.
fn for_each_schema_slot(root: &mut Value, f: &mut dyn FnMut(&mut Value)) {
    let Some(root) = root.as_object_mut() else {
        return;
    };
    if let Some(components) = root.get_mut("components").and_then(Value::as_object_mut) {
        for (kind, group) in components.iter_mut() {
            let Some(group) = group.as_object_mut() else {
                continue;
            };
            for item in group.values_mut() {
                match kind.as_str() {
                    "schemas" => walk_schema(item, f),
                    "parameters" | "headers" => parameter(item, f),
                    "requestBodies" => content_holder(item, f),
                    "responses" => response(item, f),
                    _ => {}
                }
            }
        }
    }
    if let Some(paths) = root.get_mut("paths").and_then(Value::as_object_mut) {
        for item in paths.values_mut() {
            let Some(item) = item.as_object_mut() else {
                continue;
            };
            for (key, op) in item.iter_mut() {
                if key == "parameters" {
                    each(op, |p| parameter(p, f));
                } else if let Some(op) = op.as_object_mut() {
                    if let Some(params) = op.get_mut("parameters") {
                        each(params, |p| parameter(p, f));
                    }
                    if let Some(body) = op.get_mut("requestBody") {
                        content_holder(body, f);
                    }
                    if let Some(responses) = op.get_mut("responses").and_then(Value::as_object_mut)
                    {
                        for r in responses.values_mut() {
                            response(r, f);
                        }
                    }
                }
            }
        }
    }
}

fn each(value: &mut Value, mut f: impl FnMut(&mut Value)) {
    if let Some(items) = value.as_array_mut() {
        items.iter_mut().for_each(&mut f);
    }
}

fn parameter(p: &mut Value, f: &mut dyn FnMut(&mut Value)) {
    if let Some(schema) = p.get_mut("schema") {
        walk_schema(schema, f);
    }
    content_holder(p, f);
}

fn content_holder(v: &mut Value, f: &mut dyn FnMut(&mut Value)) {
    if let Some(content) = v.get_mut("content").and_then(Value::as_object_mut) {
        for media in content.values_mut() {
            if let Some(schema) = media.get_mut("schema") {
                walk_schema(schema, f);
            }
        }
    }
}

fn response(r: &mut Value, f: &mut dyn FnMut(&mut Value)) {
    content_holder(r, f);
    if let Some(headers) = r.get_mut("headers").and_then(Value::as_object_mut) {
        for h in headers.values_mut() {
            parameter(h, f);
        }
    }
}

/// Applies `f` to a schema and, depth first, to all its subschemas.
fn walk_schema(schema: &mut Value, f: &mut dyn FnMut(&mut Value)) {
    let Some(obj) = schema.as_object_mut() else {
        return;
    };
    for key in ["items", "additionalProperties", "not", "contains"] {
        if let Some(sub) = obj.get_mut(key) {
            walk_schema(sub, f);
        }
    }
    for key in ["allOf", "oneOf", "anyOf", "prefixItems"] {
        if let Some(list) = obj.get_mut(key).and_then(Value::as_array_mut) {
            list.iter_mut().for_each(|s| walk_schema(s, f));
        }
    }
    for key in ["properties", "patternProperties"] {
        if let Some(map) = obj.get_mut(key).and_then(Value::as_object_mut) {
            map.values_mut().for_each(|s| walk_schema(s, f));
        }
    }
    f(schema);
}

fn upgrade_schema(schema: &mut Value) {
    let Some(obj) = schema.as_object_mut() else {
        return;
    };
    if let Some(example) = obj.remove("example") {
        obj.entry("examples")
            .or_insert_with(|| Value::Array(vec![example]));
    }
    for (flag, bound) in [
        ("exclusiveMinimum", "minimum"),
        ("exclusiveMaximum", "maximum"),
    ] {
        if let Some(Value::Bool(on)) = obj.get(flag).cloned() {
            obj.remove(flag);
            if on && let Some(b) = obj.remove(bound) {
                obj.insert(flag.to_owned(), b);
            }
        }
    }
    if obj.remove("nullable") == Some(Value::Bool(true)) {
        make_nullable(obj);
    }
}

fn make_nullable(obj: &mut Map<String, Value>) {
    if let Some(Value::Array(values)) = obj.get_mut("enum")
        && !values.contains(&Value::Null)
    {
        values.push(Value::Null);
    }
    match obj.get_mut("type") {
        Some(Value::String(t)) => {
            let t = std::mem::take(t);
            obj.insert("type".to_owned(), json!([t, "null"]));
        }
        Some(Value::Array(types)) => {
            if !types.contains(&json!("null")) {
                types.push(json!("null"));
            }
        }
        _ => {
            let keep: Vec<&str> = [
                "description",
                "title",
                "readOnly",
                "writeOnly",
                "default",
                "deprecated",
            ]
            .into_iter()
            .filter(|k| obj.contains_key(*k))
            .collect();
            let mut outer = Map::new();
            for k in keep {
                if let Some(v) = obj.remove(k) {
                    outer.insert(k.to_owned(), v);
                }
            }
            let inner = std::mem::take(obj);
            outer.insert(
                "anyOf".to_owned(),
                json!([Value::Object(inner), {"type": "null"}]),
            );
            *obj = outer;
        }
    }
}
