//! The operation's arguments and parameters: how they are passed, their order, and each
//! parameter added, removed, renamed or changed.

use super::super::{
    Changes, Class, Wire, arguments, constraints_change, conversions, default_change, deprecation,
    renames, same_on_wire, union_keys,
};
use super::Pair;
use super::constraints::narrowed;
use crate::ir::ParamLocation;
use crate::surface::{OperationSurface, ParamSurface};
use std::collections::{BTreeMap, BTreeSet};

/// Removed parameter → added parameter of one operation, for pairs with the same location,
/// requiredness, type and constraints.
pub(in super::super) fn param_renames<'a>(
    o: &'a OperationSurface,
    n: &'a OperationSurface,
) -> BTreeMap<&'a str, &'a str> {
    renames::pairs(&o.params, &n.params, |a, b| {
        (&a.location, a.required, &a.ty, &a.constraints)
            == (&b.location, b.required, &b.ty, &b.constraints)
    })
}

/// How the client method takes its arguments (see `arguments::passing`) and their order.
pub(super) fn arguments(pair: &Pair<'_>, out: &mut Changes) {
    let (o, n) = (pair.o, pair.n);
    if let Some(text) = arguments::passing(o, n) {
        pair.line(out, Class::Breaking, text);
    }
    let both_named = o.arguments_struct.is_some() && n.arguments_struct.is_some();
    let (old_order, new_order) = if both_named {
        (positional(o), positional(n))
    } else {
        (o.arguments.clone(), n.arguments.clone())
    };
    if let Some(text) = arguments::reordered(
        &old_order,
        &new_order,
        &param_renames(o, n),
        |arg| argument_type(o, arg),
        |arg| argument_type(n, arg),
    ) {
        pair.line(out, Class::Breaking, text);
    }
}

/// The arguments whose order a call depends on: parameters passed by name in an arguments
/// struct have none; a body follows them.
fn positional(op: &OperationSurface) -> Vec<String> {
    match op.arguments_struct {
        Some(_) => op
            .arguments
            .iter()
            .filter(|a| !op.params.contains_key(*a))
            .cloned()
            .collect(),
        None => op.arguments.clone(),
    }
}

/// The type of the client method's argument `arg` (a parameter, or `body`).
fn argument_type(op: &OperationSurface, arg: &str) -> Option<String> {
    match (op.params.get(arg), &op.body) {
        (Some(p), _) => Some(p.ty.clone()),
        (None, Some(b)) if arg == "body" => Some(b.ty.clone()),
        _ => None,
    }
}

/// Each parameter removed, renamed, added or changed.
pub(super) fn params(pair: &Pair<'_>, out: &mut Changes) {
    let (old, new) = (&pair.o.params, &pair.n.params);
    let renamed = param_renames(pair.o, pair.n);
    let rename_targets: BTreeSet<&str> = renamed.values().copied().collect();
    for key in union_keys(old, new) {
        match (old.get(key), new.get(key)) {
            (Some(o), None) => match renamed.get(key) {
                Some(new_key) => {
                    let named_in =
                        (pair.n.arguments_struct.as_deref()).or(pair.o.arguments_struct.as_deref());
                    let place = (pair.n.rust_fn.as_str(), named_in, pair.area());
                    renamed_param(place, (key, new_key), (o, &new[*new_key]), out);
                }
                None => removed(pair, key, o, out),
            },
            (None, Some(_)) if rename_targets.contains(key) => {}
            (None, Some(n)) => added(pair, key, n, out),
            (Some(o), Some(n)) => {
                changed(pair, key, (o, n), out);
                changed_on_wire(pair, key, (o, n), out);
            }
            (None, None) => {}
        }
    }
}

/// `` query parameter `key` ``: the parameter, after the client method in a line.
fn param(key: &str, p: &ParamSurface) -> String {
    format!("{} parameter `{key}`", p.location)
}

/// A parameter removed: its setter or argument is gone; released SDKs still send it.
fn removed(pair: &Pair<'_>, key: &str, o: &ParamSurface, out: &mut Changes) {
    let param = param(key, o);
    pair.line(out, Class::Breaking, format!("{param} removed"));
    let text = format!("{param} removed: released SDKs still send it when set");
    pair.wire(out, Wire::Degraded, text);
}

/// A parameter added: a required one is a new argument released SDKs never send, an optional
/// one a new setter.
fn added(pair: &Pair<'_>, key: &str, n: &ParamSurface, out: &mut Changes) {
    let param = param(key, n);
    if !n.required {
        let text = format!("{param} added (optional: a builder setter)");
        pair.line(out, Class::Additive, text);
        return;
    }
    let text = format!(
        "{param} added (required: a new argument of `{}`)",
        pair.n.rust_fn
    );
    pair.line(out, Class::Breaking, text);
    let text = format!("{param} added as required: released SDKs never send it");
    pair.wire(out, Wire::Breaking, text);
}

/// A parameter in both revisions, for the Rust API: one line of its changes.
fn changed(pair: &Pair<'_>, key: &str, (o, n): (&ParamSurface, &ParamSurface), out: &mut Changes) {
    let subject = format!("{}: {}", pair.subject, param(key, n));
    let rust_fn = pair.n.rust_fn.as_str();
    let mut parts = argument_changes(
        (o.required, n.required),
        (&o.ty, &n.ty),
        rust_fn,
        "a builder setter",
    );
    let named = pair.o.arguments_struct.is_some() || pair.n.arguments_struct.is_some();
    parts.extend(conversions::param_into(o, n, named));
    if o.location != n.location {
        let text = format!("sent in {} → {}", o.location, n.location);
        parts.push((Class::DocsOnly, text));
    }
    if o.name != n.name {
        let text = format!("wire name `{}` → `{}`", o.name, n.name);
        parts.push((Class::DocsOnly, text));
    }
    if let Some(text) = constraints_change(&o.constraints, &n.constraints) {
        parts.push((Class::DocsOnly, text));
    }
    if o.deprecated != n.deprecated {
        parts.push((Class::DocsOnly, deprecation(n.deprecated).to_owned()));
        let note = n.deprecation_note.as_deref();
        out.deprecation(n.deprecated, pair.area(), subject.clone(), note);
    }
    out.push_parts(pair.area(), &subject, parts);
}

/// A parameter in both revisions, for released SDKs: what they send that the server may now
/// reject, and a changed default of an optional one.
fn changed_on_wire(
    pair: &Pair<'_>,
    key: &str,
    (o, n): (&ParamSurface, &ParamSurface),
    out: &mut Changes,
) {
    let (old_api, new_api) = pair.apis;
    let mut effects = Vec::new();
    if !o.required && n.required {
        effects.push("now required: released SDKs send it only when set".to_owned());
    }
    if o.ty != n.ty && !same_on_wire(old_api, new_api, &o.ty, &n.ty) {
        effects.push(format!(
            "type `{}` → `{}`: values released SDKs send may be rejected",
            o.ty, n.ty
        ));
    }
    let both_in_path = o.location == ParamLocation::Path && n.location == ParamLocation::Path;
    if (&o.location, &o.name) != (&n.location, &n.name) && !both_in_path {
        effects.push(format!(
            "now `{}` in {}: released SDKs send `{}` in {}",
            n.name, n.location, o.name, o.location
        ));
    }
    effects.extend(narrowed(&o.constraints, &n.constraints));
    let param = param(key, n);
    if !effects.is_empty() {
        let text = format!("{param}: {}", effects.join("; "));
        pair.wire(out, Wire::Breaking, text);
    }
    if !n.required && o.constraints.default != n.constraints.default {
        let change = default_change(
            o.constraints.default.as_ref(),
            n.constraints.default.as_ref(),
        );
        pair.wire(out, Wire::Behaviour, format!("{param}: {change}"));
    }
}

/// One line for a parameter removed and another added with the same location, requiredness
/// and type. A required one is an argument of the client method: positional, its name is not
/// part of a call; named in the arguments struct (`named_in`), it is a field every call names
/// (E0560 when renamed: breaking). An optional one is a setter (renamed: breaking). On the wire
/// the old name is sent. `place` is the client method, its arguments struct and the area.
fn renamed_param(
    (rust_fn, named_in, area): (&str, Option<&str>, &str),
    (old_key, new_key): (&str, &str),
    (o, n): (&ParamSurface, &ParamSurface),
    out: &mut Changes,
) {
    let subject = format!(
        "`{rust_fn}`: {} parameter `{old_key}` probably renamed to `{new_key}`",
        n.location
    );
    let (class, what) = match (n.required, named_in) {
        (true, Some(named)) => (
            Class::Breaking,
            format!("field of `{named}` renamed: every call that names it must change"),
        ),
        (true, None) => (
            Class::DocsOnly,
            "the argument keeps its place unless reordered".to_owned(),
        ),
        (false, _) => (Class::Breaking, "setter renamed".to_owned()),
    };
    out.push(
        class,
        area,
        format!(
            "{subject} (same type `{}`; wire name `{}` → `{}`; {what})",
            n.ty, o.name, n.name
        ),
    );
    // A path parameter's name is not sent: the route is judged by its template.
    if o.name != n.name && n.location != ParamLocation::Path {
        out.wire(
            Wire::Breaking,
            area,
            &[rust_fn],
            format!("{subject}: released SDKs send `{}`", o.name),
        );
    }
}

/// The breaking changes of an argument: it moved between the client method's arguments and a
/// setter (`setter` names which), or its type changed.
pub(super) fn argument_changes(
    (was_required, required): (bool, bool),
    (old_ty, new_ty): (&str, &str),
    rust_fn: &str,
    setter: &str,
) -> Vec<(Class, String)> {
    let mut parts = Vec::new();
    if was_required != required {
        parts.push((
            Class::Breaking,
            if required {
                format!("optional → required (now an argument of `{rust_fn}`)")
            } else {
                format!("required → optional (now {setter})")
            },
        ));
    }
    if old_ty != new_ty {
        parts.push((Class::Breaking, format!("type `{old_ty}` → `{new_ty}`")));
    }
    parts
}
