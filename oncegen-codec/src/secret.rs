//! `Secret`: a string that never shows up in `Debug`, `Display`, logs or errors and is zeroized on drop.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use zeroize::Zeroizing;

/// A secret string (API secret, created credential secret, private key, passphrase, SSL key).
///
/// `Debug` and `Display` print `[REDACTED]`; the memory is zeroized on drop. Serde writes it as
/// a plain JSON string, so it can sit in request and response bodies. It reads a JSON string as
/// is and any other JSON value as its JSON text, so a response member whose shape is not known
/// (e.g. a private key returned once under an unshown name) is still held as a secret. Read the
/// value with [`Secret::expose_secret`].
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Secret(Zeroizing<String>);

impl Secret {
    /// Wraps a secret value.
    pub fn new(value: impl Into<String>) -> Self {
        Self(Zeroizing::new(value.into()))
    }

    /// The secret value. Keep the borrow short and never log it.
    pub fn expose_secret(&self) -> &str {
        self.0.as_str()
    }

    /// Whether the secret is the empty string.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[REDACTED]")
    }
}

impl fmt::Display for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[REDACTED]")
    }
}

impl From<String> for Secret {
    fn from(value: String) -> Self {
        Self::new(value)
    }
}

impl From<&str> for Secret {
    fn from(value: &str) -> Self {
        Self::new(value)
    }
}

impl Serialize for Secret {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.expose_secret())
    }
}

impl<'de> Deserialize<'de> for Secret {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Ok(match serde_json::Value::deserialize(deserializer)? {
            serde_json::Value::String(value) => Secret::new(value),
            other => Secret::new(other.to_string()),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn redacted_everywhere() {
        let s = Secret::new("hunter2-very-secret");
        assert_eq!(format!("{s:?}"), "[REDACTED]");
        assert_eq!(format!("{s}"), "[REDACTED]");
        assert_eq!(s.expose_secret(), "hunter2-very-secret");
        #[derive(Debug)]
        #[allow(dead_code)]
        struct Holder {
            secret: Secret,
        }
        let h = Holder { secret: s.clone() };
        assert!(!format!("{h:?}").contains("hunter2"));
    }

    #[test]
    fn any_json_value_reads_as_its_text() {
        let s: Secret = serde_json::from_str(r#"{"pem":"-----BEGIN"}"#).unwrap();
        assert_eq!(s.expose_secret(), r#"{"pem":"-----BEGIN"}"#);
        assert_eq!(format!("{s:?}"), "[REDACTED]");
        let n: Secret = serde_json::from_str("42").unwrap();
        assert_eq!(n.expose_secret(), "42");
    }

    #[test]
    fn serde_plain_string() {
        let s: Secret = serde_json::from_str("\"abc\"").unwrap();
        assert_eq!(s.expose_secret(), "abc");
        assert_eq!(serde_json::to_string(&s).unwrap(), "\"abc\"");
    }
}
