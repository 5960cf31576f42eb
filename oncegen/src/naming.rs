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
    // std collections and smart pointers an application names beside the SDK's types.
    "HashMap",
    "HashSet",
    "BTreeMap",
    "BTreeSet",
    "VecDeque",
    "BinaryHeap",
    "Cow",
    "Rc",
    "Arc",
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

/// The builder setter of a request type's field `field`: the field's name, except `new`, which
/// the constructor holds (`with_new`).
pub fn setter(field: &str) -> String {
    if field == "new" {
        "with_new".to_owned()
    } else {
        field.to_owned()
    }
}

/// Whether `raw` is usable as a Rust identifier as it is: ASCII letters, digits and `_`, not
/// starting with a digit, not a keyword or a prelude name.
pub fn is_identifier(raw: &str) -> bool {
    !raw.is_empty()
        && raw.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !raw.starts_with(|c: char| c.is_ascii_digit())
        && !KEYWORDS.contains(&raw)
        && !RESERVED_TYPES.contains(&raw)
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

    /// Claims `name`; when it is taken, the spec's own spelling `wire` (a deprecated alias
    /// `pageSize` beside `page_size`, a value `TCP` beside `tcp`) when that is a free Rust
    /// identifier, so the name still reads as the spec says; a numeric suffix only when neither
    /// is free.
    pub fn claim_spelled(&mut self, name: String, wire: &str) -> String {
        if !self.used.contains(&name) || !is_identifier(wire) || self.used.contains(wire) {
            return self.claim(name);
        }
        self.used.insert(wire.to_owned());
        wire.to_owned()
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

    #[test]
    fn collisions_keep_the_spec_spelling_when_they_can() {
        let mut ns = Namespace::default();
        assert_eq!(
            ns.claim_spelled(snake("page_size"), "page_size"),
            "page_size"
        );
        assert_eq!(ns.claim_spelled(snake("pageSize"), "pageSize"), "pageSize");
        assert_eq!(
            ns.claim_spelled(snake("page-size"), "page-size"),
            "page_size_2"
        );
        let mut ns = Namespace::default();
        assert_eq!(ns.claim_spelled(variant("tcp"), "tcp"), "Tcp");
        assert_eq!(ns.claim_spelled(variant("TCP"), "TCP"), "TCP");
        assert_eq!(ns.claim_spelled(variant("Tcp"), "Tcp"), "Tcp2");
        assert!(!is_identifier("type") && !is_identifier("2x") && !is_identifier("a-b"));
    }
}
