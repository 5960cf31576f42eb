//! Changes of named types: added, removed, moved, and shape by shape, for the Rust API and,
//! through the operations that send or receive each type, for released SDKs.

mod fields;
mod structs;

use super::usage::Usage;
use super::{
    Changes, Class, Wire, added_removed, conversions, deprecation, named, renames, union_keys,
};
use crate::surface::{FieldSurface, FixedTagSurface, Shape, TypeSurface};
use std::collections::BTreeMap;

type Types = BTreeMap<String, TypeSurface>;

/// The client methods of the released SDK that send (`sent`) and receive (`received`) a type,
/// and whether an old field type and a new one are the same on the wire (`same_wire`).
struct Uses<'a> {
    sent: Vec<&'a str>,
    received: Vec<&'a str>,
    same_wire: &'a dyn Fn(&str, &str) -> bool,
}

pub(super) fn types(
    old: &Types,
    new: &Types,
    usage: &Usage,
    same_wire: &dyn Fn(&str, &str) -> bool,
    out: &mut Changes,
) {
    for name in union_keys(old, new) {
        match (old.get(name), new.get(name)) {
            (Some(o), None) => {
                out.push(Class::Breaking, &o.module, format!("type `{name}` removed"))
            }
            (None, Some(n)) => out.push(Class::Additive, &n.module, format!("type `{name}` added")),
            (Some(o), Some(n)) => {
                let uses = Uses {
                    sent: usage.sent_by(name),
                    received: usage.received_by(name),
                    same_wire,
                };
                let subject = format!("`{name}`");
                let area = n.module.as_str();
                type_change(
                    &Pair {
                        name,
                        subject,
                        area,
                        uses,
                    },
                    o,
                    n,
                    out,
                )
            }
            (None, None) => {}
        }
    }
}

/// A type in both revisions: its name, its subject in a line (`` `Name` ``), the area its
/// changes are filed under (its new module), and the released client methods that use it.
struct Pair<'a> {
    name: &'a str,
    subject: String,
    area: &'a str,
    uses: Uses<'a>,
}

/// One revision of a struct type.
struct Side<'a> {
    /// A request type: it has `new` and setters.
    request: bool,
    fields: &'a BTreeMap<String, FieldSurface>,
    constructor: &'a [String],
    constructor_struct: Option<&'a str>,
    additional: Option<&'a str>,
    fixed_tag: Option<&'a FixedTagSurface>,
}

impl<'a> Side<'a> {
    /// The struct `t` is, if it is one.
    fn of(t: &'a TypeSurface) -> Option<Self> {
        let Shape::Struct {
            fields,
            constructor,
            constructor_struct,
            additional,
            fixed_tag,
        } = &t.shape
        else {
            return None;
        };
        Some(Side {
            request: t.request,
            fields,
            constructor,
            constructor_struct: constructor_struct.as_deref(),
            additional: additional.as_deref(),
            fixed_tag: fixed_tag.as_ref(),
        })
    }
}

/// The changes of a type present in both revisions: where it lives, what it is, then its shape.
fn type_change(pair: &Pair<'_>, o: &TypeSurface, n: &TypeSurface, out: &mut Changes) {
    let (subject, area) = (&pair.subject, pair.area);
    if o.module != n.module {
        let text = format!(
            "{subject}: moved from module `{}` to `{}`",
            o.module, n.module
        );
        out.push(Class::Breaking, area, text);
    }
    let parts = type_parts(pair, o, n, out);
    out.push_parts(area, subject, parts);
    let from = (o.converts_from.as_slice(), n.converts_from.as_slice());
    conversions::from_impls(subject, from, area, out);
    if let (Some(os), Some(ns)) = (Side::of(o), Side::of(n)) {
        return structs::change(pair, &os, &ns, out);
    }
    match (&o.shape, &n.shape) {
        (Shape::Enum { values: ov }, Shape::Enum { values: nv }) => {
            enum_values(subject, ov, nv, area, &pair.uses, out);
        }
        (
            Shape::Union {
                variants: ov,
                display: od,
                ..
            },
            Shape::Union {
                variants: nv,
                unknown_fallback,
                display: nd,
            },
        ) => union_change(pair, (ov, *od), (nv, *nd), *unknown_fallback, out),
        (Shape::Choice { variants: ov }, Shape::Choice { variants: nv }) => {
            variants(subject, ov, nv, Class::Breaking, area, out);
        }
        (Shape::Alias { target: ot }, Shape::Alias { target: nt }) => {
            alias_change(pair, ot, nt, out)
        }
        (old_shape, new_shape) => shape_change(pair, old_shape, new_shape, out),
    }
}

/// The type as a whole: a request type (with `new` and setters) or not, deprecated,
/// documented.
fn type_parts(
    pair: &Pair<'_>,
    o: &TypeSurface,
    n: &TypeSurface,
    out: &mut Changes,
) -> Vec<(Class, String)> {
    let mut parts = Vec::new();
    let both_structs = matches!(
        (&o.shape, &n.shape),
        (Shape::Struct { .. }, Shape::Struct { .. })
    );
    if both_structs && o.request != n.request {
        parts.push(if n.request {
            (
                Class::Additive,
                "now a request type (`new` and setters added)".to_owned(),
            )
        } else {
            (
                Class::Breaking,
                "no longer a request type (`new` and setters removed)".to_owned(),
            )
        });
    }
    if o.deprecated != n.deprecated {
        parts.push((Class::DocsOnly, deprecation(n.deprecated).to_owned()));
        let note = n.deprecation_note.as_deref();
        out.deprecation(n.deprecated, pair.area, pair.subject.clone(), note);
    }
    if o.doc != n.doc {
        parts.push((Class::DocsOnly, "documentation changed".to_owned()));
    }
    parts
}

/// A union's members (each side `(variants, implements Display)`): a member added reaches
/// released SDKs as `Unknown` when the union is tagged (`unknown_fallback`), or may not decode.
fn union_change(
    pair: &Pair<'_>,
    (ov, od): (&BTreeMap<String, String>, bool),
    (nv, nd): (&BTreeMap<String, String>, bool),
    unknown_fallback: bool,
    out: &mut Changes,
) {
    let (subject, area) = (&pair.subject, pair.area);
    let grows = if unknown_fallback {
        Class::Additive
    } else {
        Class::Breaking
    };
    variants(subject, ov, nv, grows, area, out);
    let (added, _) = added_removed_keys(ov, nv);
    if !added.is_empty() {
        let them = if added.len() == 1 { "it" } else { "them" };
        let (class, effect) = if unknown_fallback {
            (
                Wire::Degraded,
                format!("released SDKs decode {them} as the `Unknown` variant"),
            )
        } else {
            (
                Wire::Breaking,
                format!(
                    "the union is untagged: released SDKs may fail to decode {them} or \
                     take {them} for another member"
                ),
            )
        };
        let text = format!("{subject}: {} added: {effect}", named("member", &added));
        out.wire(class, area, &pair.uses.received, text);
    }
    if od != nd {
        let (class, text) = if nd {
            (Class::Additive, "`Display` added")
        } else {
            (Class::Breaking, "`Display` removed")
        };
        out.push(class, area, format!("{subject}: {text}"));
    }
}

/// An alias of another type: released SDKs send and decode the old target.
fn alias_change(pair: &Pair<'_>, ot: &str, nt: &str, out: &mut Changes) {
    if ot == nt {
        return;
    }
    let (area, uses) = (pair.area, &pair.uses);
    let effect = format!("{}: alias of `{ot}` → `{nt}`", pair.subject);
    out.push(Class::Breaking, area, effect.clone());
    let text = format!("{effect}: released SDKs decode `{ot}`");
    out.wire(Wire::Breaking, area, &uses.received, text);
    let text = format!("{effect}: released SDKs send `{ot}`");
    out.wire(Wire::Breaking, area, &uses.sent, text);
}

/// A type that became another kind of type (a struct an enum, ...).
fn shape_change(pair: &Pair<'_>, old_shape: &Shape, new_shape: &Shape, out: &mut Changes) {
    let text = format!(
        "{}: {} → {}",
        pair.subject,
        shape_name(old_shape),
        shape_name(new_shape)
    );
    out.push(Class::Breaking, pair.area, text.clone());
    let uses = &pair.uses;
    let mut ops: Vec<&str> = uses.sent.iter().chain(&uses.received).copied().collect();
    ops.sort_unstable();
    ops.dedup();
    let text = format!("{text}: released SDKs send and decode the old shape");
    out.wire(Wire::Breaking, pair.area, &ops, text);
}

fn added_removed_keys<'a>(
    old: &'a BTreeMap<String, String>,
    new: &'a BTreeMap<String, String>,
) -> (Vec<&'a String>, Vec<&'a String>) {
    let added = new.keys().filter(|k| !old.contains_key(*k)).collect();
    let removed = old.keys().filter(|k| !new.contains_key(*k)).collect();
    (added, removed)
}

fn shape_name(shape: &Shape) -> &'static str {
    match shape {
        Shape::Struct { .. } => "struct",
        Shape::Enum { .. } => "enum",
        Shape::Union { .. } => "union",
        Shape::Choice { .. } => "choice enum",
        Shape::Alias { .. } => "alias",
    }
}

/// Value changes of an enum: one removed and one added value are one probable rename.
fn enum_values(
    subject: &str,
    old: &[String],
    new: &[String],
    area: &str,
    uses: &Uses<'_>,
    out: &mut Changes,
) {
    let (added, removed) = added_removed(old, new);
    if let Some((from, to)) = renames::single(old, new) {
        out.push(
            Class::Breaking,
            area,
            format!("{subject}: value `{from}` probably renamed to `{to}` (variant replaced)"),
        );
    } else {
        if !added.is_empty() {
            out.push(
                Class::Additive,
                area,
                format!("{subject}: {} added", named("value", &added)),
            );
        }
        if !removed.is_empty() {
            out.push(
                Class::Breaking,
                area,
                format!("{subject}: {} removed", named("value", &removed)),
            );
        }
    }
    if !added.is_empty() {
        out.wire(
            Wire::Degraded,
            area,
            &uses.received,
            format!(
                "{subject}: {} added: released SDKs decode {} as `Unknown`",
                named("value", &added),
                if added.len() == 1 { "it" } else { "them" }
            ),
        );
    }
    if !removed.is_empty() {
        out.wire(
            Wire::Breaking,
            area,
            &uses.sent,
            format!(
                "{subject}: {} removed: released SDKs may still send {}",
                named("value", &removed),
                if removed.len() == 1 { "it" } else { "them" }
            ),
        );
    }
}

/// Variant changes of a union or choice enum; an added variant is classified `grows`.
fn variants(
    subject: &str,
    old: &BTreeMap<String, String>,
    new: &BTreeMap<String, String>,
    grows: Class,
    area: &str,
    out: &mut Changes,
) {
    for key in union_keys(old, new) {
        match (old.get(key), new.get(key)) {
            (Some(_), None) => out.push(
                Class::Breaking,
                area,
                format!("{subject}: variant `{key}` removed"),
            ),
            (None, Some(ty)) => out.push(
                grows,
                area,
                format!("{subject}: variant `{key}({ty})` added"),
            ),
            (Some(o), Some(n)) if o != n => out.push(
                Class::Breaking,
                area,
                format!("{subject}: variant `{key}` payload `{o}` → `{n}`"),
            ),
            _ => {}
        }
    }
}

/// A struct's fixed union tag: no Rust API to change, but released SDKs send and expect the old
/// value.
fn fixed_tag(
    subject: &str,
    old: Option<&FixedTagSurface>,
    new: Option<&FixedTagSurface>,
    area: &str,
    uses: &Uses<'_>,
    out: &mut Changes,
) {
    if old == new {
        return;
    }
    let show = |t: Option<&FixedTagSurface>| {
        t.map_or("none".to_owned(), |t| {
            format!("`{}` = `{}`", t.name, t.value)
        })
    };
    let text = format!("{subject}: fixed tag {} → {}", show(old), show(new));
    out.push(Class::DocsOnly, area, text.clone());
    out.wire(
        Wire::Breaking,
        area,
        &uses.sent,
        format!("{text}: released SDKs send the old one"),
    );
    out.wire(
        Wire::Breaking,
        area,
        &uses.received,
        format!("{text}: released SDKs refuse the new one"),
    );
}
