//! YAML straight into a JSON value, without an intermediate YAML tree.
//!
//! Mapping keys are stringified (YAML allows `200:` as an integer key), tags are dropped,
//! integers beyond 64 bits are kept as the nearest `f64`, and a duplicate key is an error.
//! Non-finite floats (`.inf`, `.nan`) have no JSON form and become `null`.

use serde::de::{self, DeserializeSeed, Deserializer, EnumAccess, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};
use std::fmt;

/// Parses YAML text into a JSON value; the message names the line and column of a failure.
pub(super) fn parse(text: &str) -> Result<Value, String> {
    yaml_serde::Deserializer::from_str(text)
        .deserialize_any(JsonVisitor)
        .map_err(|e| e.to_string())
}

/// Builds a [`Value`] from any YAML node.
struct JsonVisitor;

impl<'de> DeserializeSeed<'de> for JsonVisitor {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for JsonVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any YAML value")
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(self)
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }

    // Integers beyond 64 bits: kept as the nearest float, as JSON parsers do.
    fn visit_i128<E>(self, v: i128) -> Result<Value, E> {
        Ok(float(v as f64))
    }

    fn visit_u128<E>(self, v: u128) -> Result<Value, E> {
        Ok(float(v as f64))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(float(v))
    }

    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }

    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0));
        while let Some(item) = seq.next_element_seed(JsonVisitor)? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Value, A::Error> {
        let mut map = Map::new();
        while let Some(key) = access.next_key_seed(KeyVisitor)? {
            if map.contains_key(&key) {
                return Err(de::Error::custom(format!("duplicate key `{key}`")));
            }
            let value = access.next_value_seed(JsonVisitor)?;
            map.insert(key, value);
        }
        Ok(Value::Object(map))
    }

    /// A tagged node (`!tag value`): the tag is dropped, the value kept.
    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<Value, A::Error> {
        let (_tag, variant) = data.variant::<de::IgnoredAny>()?;
        de::VariantAccess::newtype_variant_seed(variant, JsonVisitor)
    }
}

/// A float as a JSON number; `null` when it has no JSON form (infinite or NaN).
fn float(v: f64) -> Value {
    Number::from_f64(v).map_or(Value::Null, Value::Number)
}

/// Reads a mapping key as a string: strings as they are, scalars in their YAML spelling.
struct KeyVisitor;

impl<'de> DeserializeSeed<'de> for KeyVisitor {
    type Value = String;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<String, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl Visitor<'_> for KeyVisitor {
    type Value = String;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a scalar mapping key")
    }

    fn visit_unit<E>(self) -> Result<String, E> {
        Ok("null".to_owned())
    }

    fn visit_bool<E>(self, v: bool) -> Result<String, E> {
        Ok(v.to_string())
    }

    fn visit_i64<E>(self, v: i64) -> Result<String, E> {
        Ok(v.to_string())
    }

    fn visit_u64<E>(self, v: u64) -> Result<String, E> {
        Ok(v.to_string())
    }

    fn visit_i128<E>(self, v: i128) -> Result<String, E> {
        Ok(v.to_string())
    }

    fn visit_u128<E>(self, v: u128) -> Result<String, E> {
        Ok(v.to_string())
    }

    fn visit_f64<E>(self, v: f64) -> Result<String, E> {
        Ok(v.to_string())
    }

    fn visit_str<E>(self, v: &str) -> Result<String, E> {
        Ok(v.to_owned())
    }

    fn visit_string<E>(self, v: String) -> Result<String, E> {
        Ok(v)
    }
}
