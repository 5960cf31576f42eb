//! Compares two [`Surface`]s and classifies every change by the rules in the
//! [module docs](super): one [`Change`] per operation aspect, parameter, field, type or error
//! code, one [`WireChange`] per effect on SDK versions already released, one
//! [`Deprecation`] per newly deprecated item, and one [`Change`] per command or flag of the
//! generated command-line tool that changed (`cli.rs`), in a deterministic order.

mod arguments;
mod builder;
mod cli;
mod compat;
mod conversions;
mod operations;
mod renames;
mod security;
mod servers;
mod success;
mod types;
mod usage;

use crate::surface::{Shape, Surface};
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
    /// Code written against the previous crate may no longer compile, or may compile and send
    /// something else (reordered arguments of the same type).
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

/// What a change does to a released SDK version calling a server of the new revision.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Wire {
    /// Calls keep working, but the released SDK sees less: a new value decodes as the
    /// catch-all, a new code reads as unknown, a parameter it sends is ignored.
    Degraded,
    /// Calls keep working but do something else: a request field's default changed, so a
    /// released SDK that leaves the field out now gets the new default; the success response
    /// comes with another status or media type.
    Behaviour,
    /// Calls of the released SDK may fail: the route is gone, the request is rejected, or the
    /// response no longer decodes.
    Breaking,
}

impl Wire {
    /// Every class, most severe first (the report's order).
    pub const ALL: [Wire; 3] = [Wire::Breaking, Wire::Behaviour, Wire::Degraded];

    /// The heading of the class in the report.
    pub fn title(self) -> &'static str {
        match self {
            Wire::Breaking => "Wire-breaking",
            Wire::Behaviour => "Behaviour changes",
            Wire::Degraded => "Degraded",
        }
    }
}

/// One effect of the revision on SDK versions already released.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WireChange {
    /// The class.
    pub class: Wire,
    /// Area module of the operation or type, as for [`Change::area`].
    pub area: String,
    /// Client methods of the released SDK the change affects.
    pub operations: Vec<String>,
    /// One line of Markdown naming the change and its effect.
    pub text: String,
}

/// An item the revision newly deprecates, with the guidance the spec gives.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Deprecation {
    /// Area module of the operation or type.
    pub area: String,
    /// The item, as Markdown (`` `list_zones` ``, `` `Zone`: field `notes` ``).
    pub item: String,
    /// What the spec says to do instead.
    pub note: Option<String>,
}

/// Everything that changed from one description to the next.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Diff {
    /// Changes of the Rust API.
    pub changes: Vec<Change>,
    /// Effects on released SDK versions.
    pub wire: Vec<WireChange>,
    /// Newly deprecated items.
    pub deprecations: Vec<Deprecation>,
    /// Changes of the command-line tool's commands and flags, for scripts; their area is the
    /// area's command.
    pub cli: Vec<Change>,
}

/// One classified change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    /// The class.
    pub class: Class,
    /// Area module of the operation or type (`types` for shared types), or one of the areas
    /// of crate-wide items: `error codes`, `contract`, `security_schemes`, `servers`.
    pub area: String,
    /// One line of Markdown naming the change.
    pub text: String,
}

/// Every change from `old` to `new`.
pub fn diff(old: &Surface, new: &Surface) -> Diff {
    let old = &*conversions::known(old, new);
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
    operations::operations(old, new, &mut out);
    let usage = usage::Usage::of(old);
    let same_wire = |o: &str, n: &str| same_on_wire(old, new, o, n);
    types::types(&old.types, &new.types, &usage, &same_wire, &mut out);
    error_codes(old, new, &mut out);
    security::schemes(old, new, &mut out);
    servers::servers(old, new, &mut out);
    out.0.cli = cli::commands(old, new);
    out.0
}

#[derive(Default)]
struct Changes(Diff);

impl Changes {
    fn push(&mut self, class: Class, area: &str, text: String) {
        self.0.changes.push(Change {
            class,
            area: area.to_owned(),
            text,
        });
    }

    /// An effect on released SDKs, for the client methods `operations` (none: nothing to say).
    fn wire<S: AsRef<str>>(&mut self, class: Wire, area: &str, operations: &[S], text: String) {
        if operations.is_empty() {
            return;
        }
        let operations: Vec<String> = operations.iter().map(|o| o.as_ref().to_owned()).collect();
        self.0.wire.push(WireChange {
            class,
            area: area.to_owned(),
            operations,
            text,
        });
    }

    /// `item` became deprecated (`deprecated`: it is deprecated now), with the spec's `note`.
    fn deprecation(&mut self, deprecated: bool, area: &str, item: String, note: Option<&str>) {
        if deprecated {
            self.0.deprecations.push(Deprecation {
                area: area.to_owned(),
                item,
                note: note.map(str::to_owned),
            });
        }
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

fn error_codes(old: &Surface, new: &Surface, out: &mut Changes) {
    for code in union_keys(&old.error_codes, &new.error_codes) {
        match (old.error_codes.get(code), new.error_codes.get(code)) {
            (None, Some(returned_by)) => {
                out.push(
                    Class::Additive,
                    ERROR_CODES_AREA,
                    format!(
                        "error code `{code}` added (returned by {})",
                        returned_by_text(new, returned_by)
                    ),
                );
                let released: Vec<&str> = returned_by
                    .iter()
                    .filter_map(|pair| pair.split(' ').next())
                    .filter_map(|id| old.operations.get(id))
                    .map(|o| o.rust_fn.as_str())
                    .collect::<BTreeSet<_>>()
                    .into_iter()
                    .collect();
                out.wire(
                    Wire::Degraded,
                    ERROR_CODES_AREA,
                    &released,
                    format!(
                        "error code `{code}` added: released SDKs read it as an unknown code \
                         (`ErrorCode::Unknown`)"
                    ),
                );
            }
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
/// Whether a value of type `old_ty` (of the old surface) is the same on the wire as one of
/// `new_ty` (of the new) although the Rust type differs: two string enums of the same values,
/// as when identical inline enums became one type.
fn same_on_wire(old: &Surface, new: &Surface, old_ty: &str, new_ty: &str) -> bool {
    match (
        old.types.get(old_ty).map(|t| &t.shape),
        new.types.get(new_ty).map(|t| &t.shape),
    ) {
        (Some(Shape::Enum { values: a }), Some(Shape::Enum { values: b })) => a == b,
        _ => false,
    }
}

fn returned_by_text(api: &Surface, returned_by: &[String]) -> String {
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

/// `` constraints: `maxLength` 64 → 32, `pattern` added `` when the constraints differ.
fn constraints_change(
    old: &crate::surface::ConstraintsSurface,
    new: &crate::surface::ConstraintsSurface,
) -> Option<String> {
    let as_map = |c| match serde_json::to_value(c) {
        Ok(serde_json::Value::Object(map)) => map,
        _ => serde_json::Map::new(),
    };
    let (old, new) = (as_map(old), as_map(new));
    let keys: BTreeSet<&String> = old.keys().chain(new.keys()).collect();
    let parts: Vec<String> = keys
        .into_iter()
        .filter_map(|key| match (old.get(key), new.get(key)) {
            (None, Some(v)) => Some(format!("`{key}` {v} added")),
            (Some(_), None) => Some(format!("`{key}` removed")),
            (Some(o), Some(n)) if o != n => Some(format!("`{key}` {o} → {n}")),
            _ => None,
        })
        .collect();
    (!parts.is_empty()).then(|| format!("constraints: {}", parts.join(", ")))
}

/// A path template with its parameter names left out (`/zones/{}`): two templates that send
/// the same URLs are equal.
fn wire_path(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    let mut in_param = false;
    for c in path.chars() {
        match c {
            '{' => {
                in_param = true;
                out.push_str("{}");
            }
            '}' => in_param = false,
            _ if in_param => {}
            _ => out.push(c),
        }
    }
    out
}

fn deprecation(deprecated: bool) -> &'static str {
    if deprecated {
        "deprecated"
    } else {
        "no longer deprecated"
    }
}

/// What a changed default of an optional request field means for a released SDK.
fn default_change(old: Option<&serde_json::Value>, new: Option<&serde_json::Value>) -> String {
    let show = |v: Option<&serde_json::Value>| v.map_or("none".to_owned(), |v| format!("`{v}`"));
    format!(
        "default {} → {}: released SDKs that leave it out now get {}",
        show(old),
        show(new),
        match new {
            Some(v) => format!("`{v}`"),
            None => "whatever the server decides".to_owned(),
        }
    )
}
