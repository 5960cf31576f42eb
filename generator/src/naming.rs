//! The one place where spec names become Rust names.
//!
//! Case conversion (heck), sanitizing punctuation and leading digits, escaping keywords and
//! names that would shadow the prelude, and deterministic collision suffixes ([`Namespace`]).

use heck::{ToSnakeCase, ToUpperCamelCase};
use std::collections::BTreeSet;

/// Rust keywords (strict, reserved, and 2024 edition `gen`).
const KEYWORDS: &[&str] = &[
    "abstract", "as", "async", "await", "become", "box", "break", "const", "continue", "crate",
    "do", "dyn", "else", "enum", "extern", "false", "final", "fn", "for", "gen", "if", "impl",
    "in", "let", "loop", "macro", "match", "mod", "move", "mut", "override", "priv", "pub", "ref",
    "return", "self", "static", "struct", "super", "trait", "true", "try", "type", "typeof",
    "unsafe", "unsized", "use", "virtual", "where", "while", "yield",
];

/// Type names generated code uses unqualified (prelude) or that the generator itself emits.
const RESERVED_TYPES: &[&str] = &[
    "Self",
    "Option",
    "Result",
    "String",
    "Vec",
    "Box",
    "Some",
    "None",
    "Ok",
    "Err",
    "Default",
    "Clone",
    "Copy",
    "Send",
    "Sync",
    "Sized",
    "Drop",
    "Fn",
    "FnMut",
    "FnOnce",
    "Iterator",
    "IntoIterator",
    "Extend",
    "ToString",
    "ToOwned",
    "Into",
    "From",
    "TryFrom",
    "TryInto",
    "AsRef",
    "AsMut",
    "Eq",
    "PartialEq",
    "Ord",
    "PartialOrd",
    "Debug",
    "Hash",
    "Unpin",
    "FromIterator",
    "Client",
    "Serialize",
    "Deserialize",
];

/// Splits a raw name into words, dropping punctuation (`x-api-key`, `foo.bar`, `a b`).
fn words(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    for c in raw.chars() {
        match c {
            '+' => out.push_str(" plus "),
            c if c.is_ascii_alphanumeric() => out.push(c),
            c if c.is_alphanumeric() => out.push(c),
            _ => out.push(' '),
        }
    }
    out
}

/// A snake_case identifier (fields, parameters, functions, modules) for `raw`.
pub fn snake(raw: &str) -> String {
    let mut name = ascii_only(&words(raw).to_snake_case());
    if name.is_empty() {
        name = "value".to_owned();
    }
    if name.starts_with(|c: char| c.is_ascii_digit()) {
        name = format!("n_{name}");
    }
    if KEYWORDS.contains(&name.as_str()) {
        name.push('_');
    }
    name
}

/// An UpperCamelCase identifier (types, variants) for `raw`.
pub fn camel(raw: &str) -> String {
    let mut name = ascii_only(&words(raw).to_upper_camel_case());
    if name.is_empty() {
        name = "Value".to_owned();
    }
    if name.starts_with(|c: char| c.is_ascii_digit()) {
        name = format!("N{name}");
    }
    if RESERVED_TYPES.contains(&name.as_str()) {
        name.push_str("Model");
    }
    name
}

/// An enum variant identifier for `raw`: like [`camel`], but prelude names are fine as variants.
pub fn variant(raw: &str) -> String {
    let name = camel(raw);
    match name.strip_suffix("Model") {
        Some(base) if RESERVED_TYPES.contains(&base) && base != "Self" && camel(base) == name => {
            base.to_owned()
        }
        _ => name,
    }
}

/// Keeps ASCII letters, digits and `_` (non-ASCII letters are transliterated to `_`).
fn ascii_only(s: &str) -> String {
    let mapped: String = s
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    mapped.trim_matches('_').to_owned()
}

/// A set of names in one scope; [`Namespace::claim`] makes a name unique.
#[derive(Debug, Default, Clone)]
pub struct Namespace {
    used: BTreeSet<String>,
}

impl Namespace {
    /// A namespace with `reserved` names already taken.
    pub fn with_reserved(reserved: &[&str]) -> Self {
        Namespace {
            used: reserved.iter().map(|s| (*s).to_owned()).collect(),
        }
    }

    /// Claims `name`, or `name2`, `name3`, ... (`name_2` for snake case) when taken.
    pub fn claim(&mut self, name: String) -> String {
        if self.used.insert(name.clone()) {
            return name;
        }
        let sep = if name.contains(|c: char| c.is_ascii_uppercase()) {
            ""
        } else {
            "_"
        };
        let mut n = 2;
        loop {
            let candidate = format!("{name}{sep}{n}");
            if self.used.insert(candidate.clone()) {
                return candidate;
            }
            n += 1;
        }
    }

    /// Whether `name` is taken.
    pub fn contains(&self, name: &str) -> bool {
        self.used.contains(name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn converts_and_escapes() {
        assert_eq!(snake("fooBar"), "foo_bar");
        assert_eq!(snake("type"), "type_");
        assert_eq!(snake("2fa"), "n_2fa");
        assert_eq!(snake("x-api-key"), "x_api_key");
        assert_eq!(camel("option"), "OptionModel");
        assert_eq!(camel("self"), "SelfModel");
        assert_eq!(camel("dns.zone"), "DnsZone");
        assert_eq!(camel("+1"), "Plus1");
        assert_eq!(camel("1st"), "N1st");
        assert_eq!(camel(""), "Value");
    }

    #[test]
    fn collisions_get_suffixes() {
        let mut ns = Namespace::default();
        assert_eq!(ns.claim(snake("fooBar")), "foo_bar");
        assert_eq!(ns.claim(snake("foo_bar")), "foo_bar_2");
        assert_eq!(ns.claim(camel("a")), "A");
        assert_eq!(ns.claim(camel("A")), "A2");
    }
}
