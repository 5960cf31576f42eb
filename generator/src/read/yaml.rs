//! YAML to JSON value conversion (keys are stringified: YAML allows `200:` as an integer key).

use serde_json::{Map, Number, Value};

/// Parses YAML text into a JSON value.
pub(super) fn parse(text: &str) -> Result<Value, String> {
    let yaml: yaml_serde::Value = yaml_serde::from_str(text).map_err(|e| e.to_string())?;
    convert(yaml)
}

fn convert(value: yaml_serde::Value) -> Result<Value, String> {
    Ok(match value {
        yaml_serde::Value::Null => Value::Null,
        yaml_serde::Value::Bool(b) => Value::Bool(b),
        yaml_serde::Value::Number(n) => number(&n),
        yaml_serde::Value::String(s) => Value::String(s),
        yaml_serde::Value::Sequence(items) => {
            Value::Array(items.into_iter().map(convert).collect::<Result<_, _>>()?)
        }
        yaml_serde::Value::Mapping(mapping) => {
            let mut map = Map::new();
            for (key, value) in mapping {
                map.insert(key_string(key)?, convert(value)?);
            }
            Value::Object(map)
        }
        yaml_serde::Value::Tagged(tagged) => convert(tagged.value)?,
    })
}

fn number(n: &yaml_serde::Number) -> Value {
    if let Some(i) = n.as_i64() {
        Value::Number(i.into())
    } else if let Some(u) = n.as_u64() {
        Value::Number(u.into())
    } else {
        n.as_f64()
            .and_then(Number::from_f64)
            .map_or(Value::Null, Value::Number)
    }
}

fn key_string(key: yaml_serde::Value) -> Result<String, String> {
    match key {
        yaml_serde::Value::String(s) => Ok(s),
        yaml_serde::Value::Bool(b) => Ok(b.to_string()),
        yaml_serde::Value::Number(n) => Ok(n.to_string()),
        yaml_serde::Value::Null => Ok("null".to_owned()),
        other => Err(format!("unsupported mapping key {other:?}")),
    }
}
