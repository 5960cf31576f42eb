//! Changes of named types: added, removed, moved, and shape by shape, for the Rust API and,
//! through the operations that send or receive each type, for released SDKs.

use super::operations::narrowed;
use super::usage::Usage;
use super::{
    Changes, Class, Wire, added_removed, arguments, deprecation, named, renames, union_keys,
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
                type_change(name, o, n, &uses, out)
            }
            (None, None) => {}
        }
    }
}

fn type_change(name: &str, o: &TypeSurface, n: &TypeSurface, uses: &Uses<'_>, out: &mut Changes) {
    let area = n.module.as_str();
    let subject = format!("`{name}`");
    if o.module != n.module {
        out.push(
            Class::Breaking,
            area,
            format!(
                "{subject}: moved from module `{}` to `{}`",
                o.module, n.module
            ),
        );
    }
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
        out.deprecation(
            n.deprecated,
            area,
            subject.clone(),
            n.deprecation_note.as_deref(),
        );
    }
    if o.doc != n.doc {
        parts.push((Class::DocsOnly, "documentation changed".to_owned()));
    }
    out.push_parts(area, &subject, parts);
    match (&o.shape, &n.shape) {
        (
            Shape::Struct {
                fields: of,
                constructor: oc,
                constructor_struct: os,
                additional: oa,
                fixed_tag: ot,
            },
            Shape::Struct {
                fields: nf,
                constructor: nc,
                constructor_struct: ns,
                additional: na,
                fixed_tag: nt,
            },
        ) => {
            fixed_tag(&subject, ot.as_ref(), nt.as_ref(), area, uses, out);
            let renamed = renames::pairs(of, nf, |a, b| {
                (&a.rust_type, &a.const_value, &a.constraints)
                    == (&b.rust_type, &b.const_value, &b.constraints)
            });
            // Only between two request types: `new` appearing or going is reported above.
            let passing = (o.request && n.request)
                .then(|| {
                    arguments::constructor_passing(name, (oc, os.as_deref()), (nc, ns.as_deref()))
                })
                .flatten();
            if let Some(text) = passing {
                out.push(Class::Breaking, area, format!("{subject}: {text}"));
            }
            // Fields passed by name have no order a call depends on (and a change of how they
            // are passed is reported above).
            let reordered = (os.is_none() && ns.is_none())
                .then(|| {
                    arguments::reordered(
                        oc,
                        nc,
                        &renamed,
                        |f| of.get(f).map(|f| f.ty.clone()),
                        |f| nf.get(f).map(|f| f.ty.clone()),
                    )
                })
                .flatten();
            if let Some(text) = reordered {
                out.push(
                    Class::Breaking,
                    area,
                    format!("{subject}: `{name}::new`: {text}"),
                );
            }
            fields(
                name,
                (o.request, of),
                (n.request, nf),
                &renamed,
                area,
                uses,
                out,
            );
            let catch_all = match (oa, na) {
                (None, Some(_)) => Some((Class::Additive, "catch-all map added".to_owned())),
                (Some(_), None) => Some((Class::Breaking, "catch-all map removed".to_owned())),
                (Some(a), Some(b)) if a != b => Some((
                    Class::Breaking,
                    format!("catch-all value type `{a}` → `{b}`"),
                )),
                _ => None,
            };
            out.push_parts(area, &subject, catch_all.into_iter().collect());
        }
        (Shape::Enum { values: ov }, Shape::Enum { values: nv }) => {
            enum_values(&subject, ov, nv, area, uses, out);
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
        ) => {
            let grows = if *unknown_fallback {
                Class::Additive
            } else {
                Class::Breaking
            };
            variants(&subject, ov, nv, grows, area, out);
            let (added, _) = added_removed_keys(ov, nv);
            if !added.is_empty() {
                let them = if added.len() == 1 { "it" } else { "them" };
                let (class, effect) = if *unknown_fallback {
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
                out.wire(
                    class,
                    area,
                    &uses.received,
                    format!("{subject}: {} added: {effect}", named("member", &added)),
                );
            }
            if od != nd {
                let change = if *nd {
                    (Class::Additive, "`Display` added")
                } else {
                    (Class::Breaking, "`Display` removed")
                };
                out.push(change.0, area, format!("{subject}: {}", change.1));
            }
        }
        (Shape::Choice { variants: ov }, Shape::Choice { variants: nv }) => {
            variants(&subject, ov, nv, Class::Breaking, area, out);
        }
        (Shape::Alias { target: ot }, Shape::Alias { target: nt }) => {
            if ot != nt {
                out.push(
                    Class::Breaking,
                    area,
                    format!("{subject}: alias of `{ot}` → `{nt}`"),
                );
                let effect = format!("{subject}: alias of `{ot}` → `{nt}`");
                out.wire(
                    Wire::Breaking,
                    area,
                    &uses.received,
                    format!("{effect}: released SDKs decode `{ot}`"),
                );
                out.wire(
                    Wire::Breaking,
                    area,
                    &uses.sent,
                    format!("{effect}: released SDKs send `{ot}`"),
                );
            }
        }
        (old_shape, new_shape) => {
            let text = format!(
                "{subject}: {} → {}",
                shape_name(old_shape),
                shape_name(new_shape)
            );
            out.push(Class::Breaking, area, text.clone());
            let mut ops: Vec<&str> = uses.sent.iter().chain(&uses.received).copied().collect();
            ops.sort_unstable();
            ops.dedup();
            out.wire(
                Wire::Breaking,
                area,
                &ops,
                format!("{text}: released SDKs send and decode the old shape"),
            );
        }
    }
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

type Fields = BTreeMap<String, FieldSurface>;

/// Field changes of struct `name`; each side is `(is a request type, fields)`; `renamed` pairs
/// removed fields with added fields of the same type.
fn fields(
    name: &str,
    (old_request, old): (bool, &Fields),
    (new_request, new): (bool, &Fields),
    renamed: &BTreeMap<&str, &str>,
    area: &str,
    uses: &Uses<'_>,
    out: &mut Changes,
) {
    let rename_targets: Vec<&str> = renamed.values().copied().collect();
    for key in union_keys(old, new) {
        let subject = format!("`{name}`: field `{key}`");
        match (old.get(key), new.get(key)) {
            (Some(o), None) => {
                if let Some(new_key) = renamed.get(key) {
                    let n = &new[*new_key];
                    let argument = if new_request && n.is_constructor_argument() {
                        format!(", still an argument of `{name}::new`")
                    } else {
                        String::new()
                    };
                    out.push(
                        Class::Breaking,
                        area,
                        format!(
                            "{subject} probably renamed to `{new_key}` (same type `{}`{argument}; \
                             wire name `{}` → `{}`)",
                            n.rust_type, o.name, n.name
                        ),
                    );
                    field_wire(&subject, Some(o), Some(n), uses, area, out);
                    continue;
                }
                out.push(Class::Breaking, area, format!("{subject} removed"));
                field_wire(&subject, Some(o), None, uses, area, out);
            }
            (None, Some(_)) if rename_targets.contains(&key) => {}
            (None, Some(n)) => {
                if new_request && n.is_constructor_argument() {
                    out.push(
                        Class::Breaking,
                        area,
                        format!("{subject} added (required: a new argument of `{name}::new`)"),
                    );
                } else {
                    out.push(
                        Class::Additive,
                        area,
                        format!("{subject} added (`{}`)", n.rust_type),
                    );
                }
                field_wire(&subject, None, Some(n), uses, area, out);
            }
            (Some(o), Some(n)) => {
                let mut parts = Vec::new();
                if o.required != n.required {
                    let text = if n.required {
                        "optional → required"
                    } else {
                        "required → optional"
                    };
                    parts.push((Class::DocsOnly, text.to_owned()));
                }
                if o.nullable != n.nullable {
                    let text = if n.nullable {
                        "now nullable"
                    } else {
                        "no longer nullable"
                    };
                    parts.push((Class::DocsOnly, text.to_owned()));
                }
                if o.rust_type != n.rust_type {
                    parts.push((
                        Class::Breaking,
                        format!("type `{}` → `{}`", o.rust_type, n.rust_type),
                    ));
                }
                let was_argument = old_request && o.is_constructor_argument();
                let is_argument = new_request && n.is_constructor_argument();
                if was_argument != is_argument {
                    let text = if is_argument {
                        format!("now an argument of `{name}::new`")
                    } else {
                        format!("no longer an argument of `{name}::new`")
                    };
                    parts.push((Class::Breaking, text));
                }
                if o.const_value != n.const_value {
                    parts.push((Class::DocsOnly, "fixed value changed".to_owned()));
                }
                if o.name != n.name {
                    parts.push((
                        Class::DocsOnly,
                        format!("wire name `{}` → `{}`", o.name, n.name),
                    ));
                }
                if let Some(text) = super::constraints_change(&o.constraints, &n.constraints) {
                    parts.push((Class::DocsOnly, text));
                }
                if o.deprecated != n.deprecated {
                    parts.push((Class::DocsOnly, deprecation(n.deprecated).to_owned()));
                    out.deprecation(
                        n.deprecated,
                        area,
                        subject.clone(),
                        n.deprecation_note.as_deref(),
                    );
                }
                if o.doc != n.doc {
                    parts.push((Class::DocsOnly, "documentation changed".to_owned()));
                }
                out.push_parts(area, &subject, parts);
                field_wire(&subject, Some(o), Some(n), uses, area, out);
            }
            (None, None) => {}
        }
    }
}

/// What a field change does to released SDKs: as part of a request they send the old field;
/// as part of a response they decode into it.
fn field_wire(
    subject: &str,
    old: Option<&FieldSurface>,
    new: Option<&FieldSurface>,
    uses: &Uses<'_>,
    area: &str,
    out: &mut Changes,
) {
    let mut sent = Vec::new();
    let mut received = Vec::new();
    let mut degraded_sent = Vec::new();
    let mut degraded_received = Vec::new();
    let mut behaviour_sent = Vec::new();
    match (old, new) {
        (None, Some(n)) if n.required => {
            sent.push("added as required: released SDKs do not send it".to_owned());
        }
        (Some(o), None) => {
            if o.is_always_present() {
                received.push("removed: released SDKs require it in the response".to_owned());
            } else {
                degraded_received.push("removed: released SDKs read it as absent".to_owned());
            }
            degraded_sent.push(
                "removed: released SDKs still send it when set, which the server may reject"
                    .to_owned(),
            );
        }
        (Some(o), Some(n)) => {
            if o.name != n.name {
                if n.required {
                    sent.push(format!(
                        "wire name `{}` → `{}`: released SDKs send `{}`",
                        o.name, n.name, o.name
                    ));
                }
                if o.is_always_present() {
                    received.push(format!(
                        "wire name `{}` → `{}`: released SDKs require `{}`",
                        o.name, n.name, o.name
                    ));
                }
            }
            if n.required && !o.required && o.const_value.is_none() {
                sent.push("now required: released SDKs send it only when set".to_owned());
            }
            if o.nullable && !n.nullable {
                sent.push("no longer nullable: released SDKs may send `null`".to_owned());
            }
            if o.ty != n.ty && !(uses.same_wire)(&o.ty, &n.ty) {
                sent.push(format!(
                    "type `{}` → `{}`: released SDKs send the old type",
                    o.ty, n.ty
                ));
                received.push(format!(
                    "type `{}` → `{}`: released SDKs decode the old type",
                    o.ty, n.ty
                ));
            } else if o.is_always_present() && !n.is_always_present() {
                let why = if n.required {
                    "may now be null"
                } else {
                    "may now be absent"
                };
                received.push(format!("{why}: released SDKs require a value"));
            }
            sent.extend(narrowed(&o.constraints, &n.constraints));
            if !n.required && o.constraints.default != n.constraints.default {
                behaviour_sent.push(super::default_change(
                    o.constraints.default.as_ref(),
                    n.constraints.default.as_ref(),
                ));
            }
        }
        _ => {}
    }
    let effects = [
        (Wire::Breaking, "request", sent, &uses.sent),
        (Wire::Behaviour, "request", behaviour_sent, &uses.sent),
        (Wire::Breaking, "response", received, &uses.received),
        (Wire::Degraded, "request", degraded_sent, &uses.sent),
        (
            Wire::Degraded,
            "response",
            degraded_received,
            &uses.received,
        ),
    ];
    for (class, side, texts, operations) in effects {
        for effect in texts {
            out.wire(
                class,
                area,
                operations,
                format!("{subject} ({side}): {effect}"),
            );
        }
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
