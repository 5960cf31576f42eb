//! Changes of a struct's fields, for the Rust API and for released SDKs that send or decode
//! the struct.

use super::super::operations::narrowed;
use super::super::{
    Changes, Class, Wire, constraints_change, conversions, default_change, union_keys,
};
use super::{Pair, Side, Uses};
use crate::surface::FieldSurface;
use std::collections::BTreeMap;

/// The field changes of a struct; `renamed` pairs removed fields with added fields of the same
/// type.
pub(super) fn fields(
    pair: &Pair<'_>,
    old: &Side<'_>,
    new: &Side<'_>,
    renamed: &BTreeMap<&str, &str>,
    out: &mut Changes,
) {
    let rename_targets: Vec<&str> = renamed.values().copied().collect();
    for key in union_keys(old.fields, new.fields) {
        let subject = format!("`{}`: field `{key}`", pair.name);
        let wire = |old, new, out: &mut Changes| {
            field_wire(&subject, old, new, &pair.uses, pair.area, out)
        };
        match (old.fields.get(key), new.fields.get(key)) {
            (Some(o), None) => match renamed.get(key) {
                Some(new_key) => {
                    let n = &new.fields[*new_key];
                    renamed_field(pair, &subject, new_key, (o, (new.request, n)), out);
                    wire(Some(o), Some(n), out);
                }
                None => {
                    out.push(Class::Breaking, pair.area, format!("{subject} removed"));
                    wire(Some(o), None, out);
                }
            },
            (None, Some(_)) if rename_targets.contains(&key) => {}
            (None, Some(n)) => {
                added(pair, &subject, (new.request, n), out);
                wire(None, Some(n), out);
            }
            (Some(o), Some(n)) => {
                let mut parts = changed(pair, &subject, (old.request, o), (new.request, n), out);
                let named = old.constructor_struct.is_some() || new.constructor_struct.is_some();
                parts.extend(conversions::field_into(o, n, named));
                out.push_parts(pair.area, &subject, parts);
                wire(Some(o), Some(n), out);
            }
            (None, None) => {}
        }
    }
}

/// A field removed and another added with the same type: one probable rename. Each side of
/// `(o, (new_request, n))` is a field, the new one with whether its struct is a request type.
fn renamed_field(
    pair: &Pair<'_>,
    subject: &str,
    new_key: &str,
    (o, (new_request, n)): (&FieldSurface, (bool, &FieldSurface)),
    out: &mut Changes,
) {
    let argument = if new_request && n.is_constructor_argument() {
        format!(", still an argument of `{}::new`", pair.name)
    } else {
        String::new()
    };
    let text = format!(
        "{subject} probably renamed to `{new_key}` (same type `{}`{argument}; wire name `{}` → \
         `{}`)",
        n.rust_type, o.name, n.name
    );
    out.push(Class::Breaking, pair.area, text);
}

/// A field added: a new argument of `new` (breaking) or a new field (additive).
fn added(pair: &Pair<'_>, subject: &str, (request, n): (bool, &FieldSurface), out: &mut Changes) {
    if request && n.is_constructor_argument() {
        let text = format!(
            "{subject} added (required: a new argument of `{}::new`)",
            pair.name
        );
        out.push(Class::Breaking, pair.area, text);
    } else {
        let text = format!("{subject} added (`{}`)", n.rust_type);
        out.push(Class::Additive, pair.area, text);
    }
}

/// The parts of a field's change for the Rust API: what code reads or writes, then what the
/// documentation says. Each side is `(its struct is a request type, the field)`.
fn changed(
    pair: &Pair<'_>,
    subject: &str,
    (old_request, o): (bool, &FieldSurface),
    (new_request, n): (bool, &FieldSurface),
    out: &mut Changes,
) -> Vec<(Class, String)> {
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
        let text = format!("type `{}` → `{}`", o.rust_type, n.rust_type);
        parts.push((Class::Breaking, text));
    }
    let was_argument = old_request && o.is_constructor_argument();
    let is_argument = new_request && n.is_constructor_argument();
    if was_argument != is_argument {
        let now = if is_argument { "now" } else { "no longer" };
        parts.push((
            Class::Breaking,
            format!("{now} an argument of `{}::new`", pair.name),
        ));
    }
    parts.extend(documented(o, n));
    if o.deprecated != n.deprecated {
        let note = n.deprecation_note.as_deref();
        out.deprecation(n.deprecated, pair.area, subject.to_owned(), note);
    }
    parts
}

/// What changed in a field beyond its Rust type: fixed value, wire name, constraints,
/// deprecation, documentation.
fn documented(o: &FieldSurface, n: &FieldSurface) -> Vec<(Class, String)> {
    let mut parts = Vec::new();
    if o.const_value != n.const_value {
        parts.push((Class::DocsOnly, "fixed value changed".to_owned()));
    }
    if o.name != n.name {
        let text = format!("wire name `{}` → `{}`", o.name, n.name);
        parts.push((Class::DocsOnly, text));
    }
    if let Some(text) = constraints_change(&o.constraints, &n.constraints) {
        parts.push((Class::DocsOnly, text));
    }
    if o.deprecated != n.deprecated {
        parts.push((Class::DocsOnly, super::deprecation(n.deprecated).to_owned()));
    }
    if o.doc != n.doc {
        parts.push((Class::DocsOnly, "documentation changed".to_owned()));
    }
    parts
}

/// The effects of a field change on released SDKs, by class and side.
#[derive(Default)]
struct Effects {
    /// Requests released SDKs send may be rejected.
    sent: Vec<String>,
    /// Responses may no longer decode.
    received: Vec<String>,
    /// Released SDKs send what the server may ignore or reject.
    degraded_sent: Vec<String>,
    /// Released SDKs read less.
    degraded_received: Vec<String>,
    /// Released SDKs that leave the field out get something else.
    behaviour_sent: Vec<String>,
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
    let effects = match (old, new) {
        (None, Some(n)) if n.required => Effects {
            sent: vec!["added as required: released SDKs do not send it".to_owned()],
            ..Effects::default()
        },
        (Some(o), None) => removed_effects(o),
        (Some(o), Some(n)) => changed_effects(o, n, uses.same_wire),
        _ => Effects::default(),
    };
    let effects = [
        (Wire::Breaking, "request", effects.sent, &uses.sent),
        (
            Wire::Behaviour,
            "request",
            effects.behaviour_sent,
            &uses.sent,
        ),
        (Wire::Breaking, "response", effects.received, &uses.received),
        (Wire::Degraded, "request", effects.degraded_sent, &uses.sent),
        (
            Wire::Degraded,
            "response",
            effects.degraded_received,
            &uses.received,
        ),
    ];
    for (class, side, texts, operations) in effects {
        for effect in texts {
            let text = format!("{subject} ({side}): {effect}");
            out.wire(class, area, operations, text);
        }
    }
}

/// A field removed: a response without it, a request with it.
fn removed_effects(o: &FieldSurface) -> Effects {
    let mut effects = Effects::default();
    if o.is_always_present() {
        let text = "removed: released SDKs require it in the response";
        effects.received.push(text.to_owned());
    } else {
        let text = "removed: released SDKs read it as absent";
        effects.degraded_received.push(text.to_owned());
    }
    effects.degraded_sent.push(
        "removed: released SDKs still send it when set, which the server may reject".to_owned(),
    );
    effects
}

/// A field in both revisions: its wire name, requiredness, nullability, type, constraints and
/// default, as released SDKs meet them.
fn changed_effects(
    o: &FieldSurface,
    n: &FieldSurface,
    same_wire: &dyn Fn(&str, &str) -> bool,
) -> Effects {
    let mut effects = renamed_effects(o, n);
    let (sent, received) = (&mut effects.sent, &mut effects.received);
    if n.required && !o.required && o.const_value.is_none() {
        sent.push("now required: released SDKs send it only when set".to_owned());
    }
    if o.nullable && !n.nullable {
        sent.push("no longer nullable: released SDKs may send `null`".to_owned());
    }
    if o.ty != n.ty && !same_wire(&o.ty, &n.ty) {
        let (was, now) = (&o.ty, &n.ty);
        sent.push(format!(
            "type `{was}` → `{now}`: released SDKs send the old type"
        ));
        received.push(format!(
            "type `{was}` → `{now}`: released SDKs decode the old type"
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
        effects.behaviour_sent.push(default_change(
            o.constraints.default.as_ref(),
            n.constraints.default.as_ref(),
        ));
    }
    effects
}

/// A field's wire name changed: released SDKs send the old name (when the field is required)
/// and require it (when the field is always present).
fn renamed_effects(o: &FieldSurface, n: &FieldSurface) -> Effects {
    let mut effects = Effects::default();
    if o.name == n.name {
        return effects;
    }
    let renamed = format!("wire name `{}` → `{}`", o.name, n.name);
    if n.required {
        let text = format!("{renamed}: released SDKs send `{}`", o.name);
        effects.sent.push(text);
    }
    if o.is_always_present() {
        let text = format!("{renamed}: released SDKs require `{}`", o.name);
        effects.received.push(text);
    }
    effects
}
