//! A located view of the document: a value together with its JSON pointer.

use crate::error::{Error, Result};
use serde_json::Value;

/// A value inside the document and the JSON pointer where it lives.
#[derive(Debug, Clone)]
pub struct Node<'a> {
    /// The value.
    pub value: &'a Value,
    /// Its JSON pointer, `#`-prefixed (`#/components/schemas/Zone`).
    pub pointer: String,
}

pub use openapi_conventions::pointer::escape as escape_pointer;

impl<'a> Node<'a> {
    /// The document root.
    pub fn root(value: &'a Value) -> Self {
        Node {
            value,
            pointer: "#".to_owned(),
        }
    }

    /// The member `key` of this object, if present.
    pub fn get(&self, key: &str) -> Option<Node<'a>> {
        self.value.get(key).map(|value| Node {
            value,
            pointer: format!("{}/{}", self.pointer, escape_pointer(key)),
        })
    }

    /// The element `index` of this array, if present.
    pub fn index(&self, index: usize) -> Option<Node<'a>> {
        self.value.get(index).map(|value| Node {
            value,
            pointer: format!("{}/{index}", self.pointer),
        })
    }

    /// The string member `key`, if present and a string.
    pub fn str(&self, key: &str) -> Option<&'a str> {
        self.value.get(key).and_then(Value::as_str)
    }

    /// The boolean member `key`, `false` when absent.
    pub fn flag(&self, key: &str) -> bool {
        self.value
            .get(key)
            .and_then(Value::as_bool)
            .unwrap_or(false)
    }

    /// The members of this object in document order (empty when not an object).
    pub fn entries(&self) -> Vec<(&'a str, Node<'a>)> {
        match self.value {
            Value::Object(map) => map
                .iter()
                .map(|(k, value)| {
                    (
                        k.as_str(),
                        Node {
                            value,
                            pointer: format!("{}/{}", self.pointer, escape_pointer(k)),
                        },
                    )
                })
                .collect(),
            _ => Vec::new(),
        }
    }

    /// The elements of this array (empty when not an array).
    pub fn items(&self) -> Vec<Node<'a>> {
        match self.value {
            Value::Array(items) => (0..items.len()).filter_map(|i| self.index(i)).collect(),
            _ => Vec::new(),
        }
    }

    /// The strings of the array member `key` (non-strings are skipped).
    pub fn strings(&self, key: &str) -> Vec<String> {
        self.get(key)
            .map(|n| {
                n.items()
                    .iter()
                    .filter_map(|i| i.value.as_str().map(str::to_owned))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// The `$ref` target of this node, if it is a reference.
    pub fn reference(&self) -> Option<&'a str> {
        self.str("$ref")
    }

    /// Follows `$ref` chains (local references only) to the referenced node.
    pub fn resolve(&self, root: &'a Value) -> Result<Node<'a>> {
        let mut current = self.clone();
        for _ in 0..32 {
            match current.reference() {
                Some(target) => current = lookup(root, target, &current.pointer)?,
                None => return Ok(current),
            }
        }
        Err(Error::at(
            &self.pointer,
            "unsupported construct: `$ref` chain longer than 32 or cyclic",
        ))
    }

    /// Builds an error located at this node.
    pub fn error(&self, message: impl Into<String>) -> Error {
        Error::at(&self.pointer, message)
    }
}

/// Looks up a local reference (`#/components/...`) in the document.
pub fn lookup<'a>(root: &'a Value, target: &str, from: &str) -> Result<Node<'a>> {
    let Some(pointer) = target.strip_prefix('#') else {
        return Err(Error::at(
            from,
            format!(
                "unsupported construct: external `$ref` `{target}` (only local `#/...` references)"
            ),
        ));
    };
    let decoded = percent_decode(pointer);
    root.pointer(&decoded)
        .map(|value| Node {
            value,
            pointer: format!("#{decoded}"),
        })
        .ok_or_else(|| {
            Error::at(
                from,
                format!("dangling `$ref` `{target}`: no such location"),
            )
        })
}

fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (bytes.get(i), hex) {
            (Some(b'%'), Some(b)) => {
                out.push(b);
                i += 3;
            }
            (Some(&b), _) => {
                out.push(b);
                i += 1;
            }
            (None, _) => break,
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}
