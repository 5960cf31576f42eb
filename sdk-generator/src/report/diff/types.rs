//! Changes of named types: added, removed, moved, and shape by shape.

use super::{Changes, Class, added_removed, deprecation, named, union_keys};
use crate::report::describe::{FieldDescription, Shape, TypeDescription};
use std::collections::BTreeMap;

type Types = BTreeMap<String, TypeDescription>;

pub(super) fn types(old: &Types, new: &Types, out: &mut Changes) {
    for name in union_keys(old, new) {
        match (old.get(name), new.get(name)) {
            (Some(o), None) => {
                out.push(Class::Breaking, &o.module, format!("type `{name}` removed"))
            }
            (None, Some(n)) => out.push(Class::Additive, &n.module, format!("type `{name}` added")),
            (Some(o), Some(n)) => type_change(name, o, n, out),
            (None, None) => {}
        }
    }
}

fn type_change(name: &str, o: &TypeDescription, n: &TypeDescription, out: &mut Changes) {
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
    }
    if o.doc != n.doc {
        parts.push((Class::DocsOnly, "documentation changed".to_owned()));
    }
    out.push_parts(area, &subject, parts);
    match (&o.shape, &n.shape) {
        (
            Shape::Struct {
                fields: of,
                additional: oa,
            },
            Shape::Struct {
                fields: nf,
                additional: na,
            },
        ) => {
            fields(name, (o.request, of), (n.request, nf), area, out);
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
            let (added, removed) = added_removed(ov, nv);
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
            }
        }
        (old_shape, new_shape) => out.push(
            Class::Breaking,
            area,
            format!(
                "{subject}: {} → {}",
                shape_name(old_shape),
                shape_name(new_shape)
            ),
        ),
    }
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

type Fields = BTreeMap<String, FieldDescription>;

/// Field changes of struct `name`; each side is `(is a request type, fields)`.
fn fields(
    name: &str,
    (old_request, old): (bool, &Fields),
    (new_request, new): (bool, &Fields),
    area: &str,
    out: &mut Changes,
) {
    for key in union_keys(old, new) {
        let subject = format!("`{name}`: field `{key}`");
        match (old.get(key), new.get(key)) {
            (Some(_), None) => out.push(Class::Breaking, area, format!("{subject} removed")),
            (None, Some(n)) if new_request && n.is_constructor_argument() => out.push(
                Class::Breaking,
                area,
                format!("{subject} added (required: a new argument of `{name}::new`)"),
            ),
            (None, Some(n)) => out.push(
                Class::Additive,
                area,
                format!("{subject} added (`{}`)", n.rust_type),
            ),
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
                if o.ty != n.ty {
                    parts.push((Class::Breaking, format!("type `{}` → `{}`", o.ty, n.ty)));
                } else if o.rust_type != n.rust_type {
                    parts.push((
                        Class::Breaking,
                        format!("Rust type `{}` → `{}`", o.rust_type, n.rust_type),
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
                if o.deprecated != n.deprecated {
                    parts.push((Class::DocsOnly, deprecation(n.deprecated).to_owned()));
                }
                if o.doc != n.doc {
                    parts.push((Class::DocsOnly, "documentation changed".to_owned()));
                }
                out.push_parts(area, &subject, parts);
            }
            (None, None) => {}
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
