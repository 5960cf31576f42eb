//! The baseline: the surface (`api.json`) the previous generation left next to the crate.

use super::version::Version;
use crate::surface::{FILE_NAME, FORMAT, FORMAT_READ, Surface};
use std::path::Path;

/// What was found where the previous surface should be.
#[derive(Debug, Clone, PartialEq)]
pub enum Baseline {
    /// A surface this generator can compare against.
    Found(Box<Surface>),
    /// No `api.json`.
    Missing,
    /// A surface in another layout (written by another generator version).
    OtherFormat {
        /// The `format` it declares, if any.
        found: Option<u64>,
    },
    /// A file that is not a valid surface.
    Unreadable(String),
}

impl Baseline {
    /// Reads the baseline from the crate directory `dir`.
    pub fn load(dir: &Path) -> Baseline {
        match std::fs::read_to_string(dir.join(FILE_NAME)) {
            Ok(text) => Baseline::parse(&text),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Baseline::Missing,
            Err(e) => Baseline::Unreadable(e.to_string()),
        }
    }

    /// Interprets the text of an `api.json` file.
    fn parse(text: &str) -> Baseline {
        let value: serde_json::Value = match serde_json::from_str(text) {
            Ok(value) => value,
            Err(e) => return Baseline::Unreadable(e.to_string()),
        };
        let found = value.get("format").and_then(serde_json::Value::as_u64);
        let readable = u64::from(FORMAT_READ)..=u64::from(FORMAT);
        if !found.is_some_and(|f| readable.contains(&f)) {
            return Baseline::OtherFormat { found };
        }
        match serde_json::from_value::<Surface>(value) {
            Ok(d) if Version::parse(&d.crate_version).is_none() => Baseline::Unreadable(format!(
                "crate_version `{}` is not MAJOR.MINOR.PATCH",
                d.crate_version
            )),
            Ok(d) => Baseline::Found(Box::new(d)),
            Err(e) => Baseline::Unreadable(e.to_string()),
        }
    }

    /// Why there is nothing to compare against (`None` when a surface was found).
    pub fn absence_reason(&self) -> Option<String> {
        match self {
            Baseline::Found(_) => None,
            Baseline::Missing => Some(format!("`{FILE_NAME}` is missing")),
            Baseline::OtherFormat { found } => Some(format!(
                "`{FILE_NAME}` was written by another generator version (format {}; this one \
                 reads formats {FORMAT_READ} to {FORMAT} and writes {FORMAT}: to list what a new \
                 contract revision changes, generate from the previous revision's spec first, \
                 then from the new one)",
                found.map_or_else(|| "not stated".to_owned(), |f| f.to_string())
            )),
            Baseline::Unreadable(why) => Some(format!("`{FILE_NAME}` cannot be read: {why}")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_member_this_layout_does_not_know_makes_the_baseline_unreadable() {
        let known = format!(
            "{{\"format\": {FORMAT}, \"contract_revision\": \"1\", \"crate_name\": \"x\", \
             \"crate_version\": \"0.1.0\", \"operations\": {{}}, \"types\": {{}}, \
             \"error_codes\": {{}}}}"
        );
        assert!(matches!(Baseline::parse(&known), Baseline::Found(_)));
        let unknown = known.replace("\"types\"", "\"max_length\": 3, \"types\"");
        match Baseline::parse(&unknown) {
            Baseline::Unreadable(why) => assert!(why.contains("max_length"), "{why}"),
            other => panic!("{other:?}"),
        }
    }
}
