//! Reading OpenAPI documents: parse JSON or YAML, upgrade 3.0 to 3.1 form, resolve local `$ref`s.
//!
//! # Why not `oas3`
//!
//! The reader keeps the document as a [`serde_json::Value`] with a thin typed layer
//! ([`Node`]) instead of deserializing into `oas3`'s model, because `oas3` 0.22 drops
//! what this generator needs: its `ObjectOrReference::Ref` keeps only `$ref`, `summary`
//! and `description`, so `$ref` siblings (`nullable`, `readOnly`, `default`, `x-` keys) are
//! lost; it rejects or mis-reads several 3.0 documents (boolean `exclusiveMinimum`,
//! `nullable`), which must be upgraded *before* entering any 3.1 model; and a typed
//! deserialization error cannot name the JSON pointer of the offending construct. Working on
//! `Value` keeps every keyword and extension, lets the 3.0 upgrade be a plain tree rewrite,
//! and every lookup carries its pointer for located errors.

mod node;
mod text;
mod upgrade;
mod yaml;

pub use node::Node;
pub(crate) use node::escape_pointer;
pub(crate) use node::lookup;

use crate::error::{Error, Result};
use serde_json::Value;
use std::path::Path;

/// A parsed OpenAPI document in 3.1 form.
#[derive(Debug, Clone)]
pub struct Document {
    /// The document tree (3.0 documents are already upgraded to 3.1 form).
    pub root: Value,
    /// The `openapi` version the input declared (before any upgrade): the document's examples
    /// are read by its rules.
    #[cfg(any(test, feature = "doc-examples"))]
    pub source_version: String,
}

impl Document {
    /// The root of the document as a [`Node`].
    pub fn node(&self) -> Node<'_> {
        Node::root(&self.root)
    }
}

/// Reads and parses the document at `path` (JSON or YAML, UTF-8).
pub fn load(path: &Path) -> Result<Document> {
    let bytes = std::fs::read(path).map_err(|source| Error::Io {
        path: path.to_owned(),
        source,
    })?;
    let source_name = path.display().to_string();
    parse(text::decode(&bytes, &source_name)?, &source_name)
}

/// Parses a document from text; JSON when it starts with `{`, YAML otherwise.
pub fn parse(text: &str, source_name: &str) -> Result<Document> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let root = if text.trim_start().starts_with('{') {
        serde_json::from_str(text).map_err(|e| Error::Syntax {
            source_name: source_name.to_owned(),
            message: e.to_string(),
        })?
    } else {
        yaml::parse(text).map_err(|message| Error::Syntax {
            source_name: source_name.to_owned(),
            message,
        })?
    };
    from_value(root)
}

/// Checks the version of an already parsed document and upgrades 3.0 to 3.1 form.
pub(crate) fn from_value(mut root: Value) -> Result<Document> {
    if !root.is_object() {
        return Err(Error::at("#", "the document is not an object"));
    }
    let source_version = match root.get("openapi") {
        Some(Value::String(v)) => v.clone(),
        Some(_) => return Err(Error::at("#/openapi", "`openapi` must be a string")),
        None if root.get("swagger").is_some() => {
            return Err(Error::at(
                "#/swagger",
                "unsupported construct: Swagger 2.0 documents (only OpenAPI 3.0 and 3.1)",
            ));
        }
        None => return Err(Error::at("#", "missing `openapi` version field")),
    };
    if source_version.starts_with("3.0") {
        upgrade::upgrade_3_0(&mut root);
    } else if !source_version.starts_with("3.1") {
        return Err(Error::at(
            "#/openapi",
            format!(
                "unsupported construct: OpenAPI version {source_version} (only 3.0.x and 3.1.x)"
            ),
        ));
    }
    Ok(Document {
        root,
        #[cfg(any(test, feature = "doc-examples"))]
        source_version,
    })
}
