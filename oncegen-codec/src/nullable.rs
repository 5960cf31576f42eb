//! `Nullable<T>`: an optional and nullable field where absent differs from `null`.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A field that may be absent, explicitly `null`, or carry a value.
///
/// Use it with `#[serde(default, skip_serializing_if = "Nullable::is_absent")]`: `Absent` is
/// omitted from the JSON, `Null` serializes as `null` (for example to clear a value on PATCH) and
/// `Value(v)` as `v`. When deserializing with `#[serde(default)]`, a missing field reads as
/// `Absent` and `null` as `Null`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Nullable<T> {
    /// The field is not sent.
    #[default]
    Absent,
    /// The field is sent as JSON `null`.
    Null,
    /// The field is sent with this value.
    Value(T),
}

impl<T> Nullable<T> {
    /// Whether the field is absent (used by `skip_serializing_if`).
    pub fn is_absent(&self) -> bool {
        matches!(self, Nullable::Absent)
    }

    /// Whether the field is an explicit `null`.
    pub fn is_null(&self) -> bool {
        matches!(self, Nullable::Null)
    }

    /// The value, if any.
    pub fn as_value(&self) -> Option<&T> {
        match self {
            Nullable::Value(v) => Some(v),
            _ => None,
        }
    }

    /// Converts into the value, if any (`Absent` and `Null` both give `None`).
    pub fn into_value(self) -> Option<T> {
        match self {
            Nullable::Value(v) => Some(v),
            _ => None,
        }
    }
}

impl<T> From<T> for Nullable<T> {
    fn from(value: T) -> Self {
        Nullable::Value(value)
    }
}

impl From<&str> for Nullable<String> {
    /// A string slice becomes `Value` (so a nullable string setter takes `"text"` as well).
    fn from(value: &str) -> Self {
        Nullable::Value(value.to_owned())
    }
}

impl<T> From<Option<T>> for Nullable<T> {
    /// `Some(v)` becomes `Value(v)` and `None` becomes `Null` (an explicit clear).
    fn from(value: Option<T>) -> Self {
        match value {
            Some(v) => Nullable::Value(v),
            None => Nullable::Null,
        }
    }
}

impl<T: Serialize> Serialize for Nullable<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Nullable::Value(v) => serializer.serialize_some(v),
            Nullable::Absent | Nullable::Null => serializer.serialize_none(),
        }
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Nullable<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Ok(Option::<T>::deserialize(deserializer)?.into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::{Deserialize, Serialize};

    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    struct Body {
        #[serde(default, skip_serializing_if = "Nullable::is_absent")]
        description: Nullable<String>,
    }

    fn set(value: impl Into<Nullable<String>>) -> Nullable<String> {
        value.into()
    }

    #[test]
    fn setter_conversions() {
        assert_eq!(set("x"), Nullable::Value("x".to_owned()));
        assert_eq!(set("x".to_owned()), Nullable::Value("x".to_owned()));
        assert_eq!(set(None), Nullable::Null);
        assert_eq!(set(Some("x".to_owned())), Nullable::Value("x".to_owned()));
    }

    #[test]
    fn absent_null_value() {
        let absent = Body {
            description: Nullable::Absent,
        };
        let null = Body {
            description: Nullable::Null,
        };
        let value = Body {
            description: Nullable::Value("x".into()),
        };
        assert_eq!(serde_json::to_string(&absent).unwrap(), "{}");
        assert_eq!(
            serde_json::to_string(&null).unwrap(),
            r#"{"description":null}"#
        );
        assert_eq!(
            serde_json::to_string(&value).unwrap(),
            r#"{"description":"x"}"#
        );
        assert_eq!(serde_json::from_str::<Body>("{}").unwrap(), absent);
        assert_eq!(
            serde_json::from_str::<Body>(r#"{"description":null}"#).unwrap(),
            null
        );
        assert_eq!(
            serde_json::from_str::<Body>(r#"{"description":"x"}"#).unwrap(),
            value
        );
    }
}
