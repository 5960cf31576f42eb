//! Compares two [`ApiDescription`]s and classifies every change by the rules in the
//! [module docs](super): one [`Change`] per operation aspect, parameter, field, type or error
//! code, in a deterministic order.

mod operations;
mod types;

use super::describe::ApiDescription;
use std::collections::{BTreeMap, BTreeSet};

/// Area label of changes to the crate-wide error codes.
pub const ERROR_CODES_AREA: &str = "error codes";

/// Area label of the contract revision change.
pub const CONTRACT_AREA: &str = "contract";

/// How a change affects code written against the previous crate, least severe first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Class {
    /// Documentation, wire or server-behaviour facts only: the Rust API is unchanged.
    DocsOnly,
    /// New API; code written against the previous crate still compiles.
    Additive,
    /// Code written against the previous crate may no longer compile.
    Breaking,
}

impl Class {
    /// Every class, most severe first (the report's order).
    pub const ALL: [Class; 3] = [Class::Breaking, Class::Additive, Class::DocsOnly];

    /// The heading of the class in the report.
    pub fn title(self) -> &'static str {
        match self {
            Class::Breaking => "Breaking",
            Class::Additive => "Additive",
            Class::DocsOnly => "Docs only",
        }
    }
}

/// One classified change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    /// The class.
    pub class: Class,
    /// Area module of the operation or type (`types` for shared types), or
    /// [`ERROR_CODES_AREA`] / [`CONTRACT_AREA`].
    pub area: String,
    /// One line of Markdown naming the change.
    pub text: String,
}

/// Every change from `old` to `new`.
pub fn diff(old: &ApiDescription, new: &ApiDescription) -> Vec<Change> {
    let mut out = Changes::default();
    if old.contract_revision != new.contract_revision {
        out.push(
            Class::DocsOnly,
            CONTRACT_AREA,
            format!(
                "contract revision `{}` → `{}`",
                old.contract_revision, new.contract_revision
            ),
        );
    }
    operations::operations(&old.operations, &new.operations, &mut out);
    types::types(&old.types, &new.types, &mut out);
    error_codes(old, new, &mut out);
    out.0
}

#[derive(Default)]
struct Changes(Vec<Change>);

impl Changes {
    fn push(&mut self, class: Class, area: &str, text: String) {
        self.0.push(Change {
            class,
            area: area.to_owned(),
            text,
        });
    }

    /// One line `subject: part; part` classified by its most severe part.
    fn push_parts(&mut self, area: &str, subject: &str, parts: Vec<(Class, String)>) {
        let Some(class) = parts.iter().map(|(c, _)| *c).max() else {
            return;
        };
        let texts: Vec<String> = parts.into_iter().map(|(_, t)| t).collect();
        self.push(class, area, format!("{subject}: {}", texts.join("; ")));
    }
}

fn error_codes(old: &ApiDescription, new: &ApiDescription, out: &mut Changes) {
    for code in union_keys(&old.error_codes, &new.error_codes) {
        match (old.error_codes.get(code), new.error_codes.get(code)) {
            (None, Some(returned_by)) => out.push(
                Class::Additive,
                ERROR_CODES_AREA,
                format!(
                    "error code `{code}` added (returned by {})",
                    returned_by_text(new, returned_by)
                ),
            ),
            (Some(_), None) => out.push(
                Class::Breaking,
                ERROR_CODES_AREA,
                format!("error code `{code}` removed"),
            ),
            _ => {}
        }
    }
}

/// `` `fn` 409, `fn2` 422 `` for `operationId status` pairs, at most three named.
fn returned_by_text(api: &ApiDescription, returned_by: &[String]) -> String {
    const NAMED: usize = 3;
    let mut named: Vec<String> = returned_by
        .iter()
        .take(NAMED)
        .map(|pair| {
            let (id, status) = pair.split_once(' ').unwrap_or((pair, ""));
            let rust_fn = api.operations.get(id).map_or(id, |o| o.rust_fn.as_str());
            format!("`{rust_fn}` {status}")
        })
        .collect();
    if returned_by.len() > NAMED {
        named.push(format!("{} more", returned_by.len() - NAMED));
    }
    named.join(", ")
}

/// `` scopes `a`, `b` added, scope `c` removed `` for two lists, `None` when equal.
fn set_change(what: &str, old: &[String], new: &[String]) -> Option<String> {
    let (added, removed) = added_removed(old, new);
    let mut parts = Vec::new();
    if !added.is_empty() {
        parts.push(format!("{} added", named(what, &added)));
    }
    if !removed.is_empty() {
        parts.push(format!("{} removed", named(what, &removed)));
    }
    (!parts.is_empty()).then(|| parts.join(", "))
}

fn added_removed<'a>(old: &'a [String], new: &'a [String]) -> (Vec<&'a String>, Vec<&'a String>) {
    let added = new.iter().filter(|v| !old.contains(v)).collect();
    let removed = old.iter().filter(|v| !new.contains(v)).collect();
    (added, removed)
}

fn union_keys<'a, V>(a: &'a BTreeMap<String, V>, b: &'a BTreeMap<String, V>) -> BTreeSet<&'a str> {
    a.keys().chain(b.keys()).map(String::as_str).collect()
}

fn ticks<S: AsRef<str>>(items: &[S]) -> String {
    items
        .iter()
        .map(|s| format!("`{}`", s.as_ref()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `` value `a` `` or `` values `a`, `b` ``.
fn named<S: AsRef<str>>(noun: &str, items: &[S]) -> String {
    let plural = if items.len() == 1 { "" } else { "s" };
    format!("{noun}{plural} {}", ticks(items))
}

fn deprecation(deprecated: bool) -> &'static str {
    if deprecated {
        "deprecated"
    } else {
        "no longer deprecated"
    }
}
