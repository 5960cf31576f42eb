//! Rehearsing a contract revision: a JSON Patch (RFC 6902: `add`, `remove`, `replace`, `move`,
//! `copy`, `test`) applied to a copy of a spec document, so a test can start the sandbox on
//! the revised contract (`SandboxConfig::spec_yaml`) without editing `spec/openapi.yaml`.

use serde_json::Value;

/// Applies `patch` (an array of RFC 6902 operations) to `doc`; the first failing operation
/// names its index, op and path.
pub fn apply_patch(doc: &mut Value, patch: &Value) -> Result<(), String> {
    let ops = patch.as_array().ok_or("a JSON Patch is an array")?;
    for (i, op) in ops.iter().enumerate() {
        let name = op["op"].as_str().unwrap_or_default();
        let path = op["path"]
            .as_str()
            .ok_or(format!("operation {i}: no path"))?;
        apply_one(doc, name, path, op)
            .map_err(|e| format!("operation {i} ({name} {path}): {e}"))?;
    }
    Ok(())
}

fn apply_one(doc: &mut Value, name: &str, path: &str, op: &Value) -> Result<(), String> {
    let from = || op["from"].as_str().ok_or("no from".to_owned());
    match name {
        "add" => add(doc, path, value(op)?),
        "remove" => remove(doc, path).map(drop),
        "replace" => {
            remove(doc, path)?;
            add(doc, path, value(op)?)
        }
        "move" => {
            let moved = remove(doc, from()?)?;
            add(doc, path, moved)
        }
        "copy" => {
            let copied = doc.pointer(from()?).cloned().ok_or("from not found")?;
            add(doc, path, copied)
        }
        "test" if doc.pointer(path) == Some(&value(op)?) => Ok(()),
        "test" => Err("value differs".into()),
        other => Err(format!("unknown op {other:?}")),
    }
}

fn value(op: &Value) -> Result<Value, String> {
    op.get("value").cloned().ok_or_else(|| "no value".into())
}

/// The parent pointer and the unescaped last token of `path`.
fn split(path: &str) -> Result<(&str, String), String> {
    let (parent, last) = path.rsplit_once('/').ok_or("not a JSON pointer")?;
    Ok((parent, last.replace("~1", "/").replace("~0", "~")))
}

fn add(doc: &mut Value, path: &str, v: Value) -> Result<(), String> {
    let (parent, key) = split(path)?;
    match doc.pointer_mut(parent).ok_or("parent not found")? {
        Value::Object(map) => {
            map.insert(key, v);
            Ok(())
        }
        Value::Array(items) if key == "-" => {
            items.push(v);
            Ok(())
        }
        Value::Array(items) => {
            let at: usize = key.parse().map_err(|_| "bad array index")?;
            (at <= items.len())
                .then(|| items.insert(at, v))
                .ok_or("index out of range".into())
        }
        _ => Err("parent is not a container".into()),
    }
}

fn remove(doc: &mut Value, path: &str) -> Result<Value, String> {
    let (parent, key) = split(path)?;
    match doc.pointer_mut(parent).ok_or("parent not found")? {
        Value::Object(map) => map.remove(&key).ok_or("not found".into()),
        Value::Array(items) => {
            let at: usize = key.parse().map_err(|_| "bad array index")?;
            (at < items.len())
                .then(|| items.remove(at))
                .ok_or("index out of range".into())
        }
        _ => Err("parent is not a container".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_rfc_6902_operations() {
        let mut doc = json!({"a": {"b~c": 1, "x/y": 2}, "l": [1, 2]});
        let patch = json!([
            {"op": "replace", "path": "/a/b~0c", "value": 3},
            {"op": "move", "from": "/a/x~1y", "path": "/moved"},
            {"op": "add", "path": "/l/-", "value": 9},
            {"op": "add", "path": "/l/0", "value": 0},
            {"op": "remove", "path": "/l/1"},
            {"op": "copy", "from": "/moved", "path": "/copied"},
            {"op": "test", "path": "/copied", "value": 2},
        ]);
        apply_patch(&mut doc, &patch).unwrap();
        assert_eq!(
            doc,
            json!({"a": {"b~c": 3}, "l": [0, 2, 9], "moved": 2, "copied": 2})
        );
        let bad = json!([{"op": "remove", "path": "/nope/x"}]);
        let e = apply_patch(&mut doc, &bad).unwrap_err();
        assert!(e.contains("operation 0 (remove /nope/x)"), "{e}");
    }
}
