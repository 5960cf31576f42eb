//! Changes of operations: added, removed, renamed, and aspect by aspect.

use super::{Changes, Class, deprecation, set_change, ticks, union_keys};
use crate::report::describe::{BodyDescription, OperationDescription, ParamDescription};
use std::collections::{BTreeMap, BTreeSet};

type Operations = BTreeMap<String, OperationDescription>;

pub(super) fn operations(old: &Operations, new: &Operations, out: &mut Changes) {
    let renamed = renames(old, new);
    for (id, o) in old {
        if let Some(n) = new.get(id) {
            if o.rust_fn != n.rust_fn {
                out.push(
                    Class::Breaking,
                    &n.area,
                    format!(
                        "`{}`: client method renamed from `{}`",
                        n.rust_fn, o.rust_fn
                    ),
                );
            }
            operation(o, n, out);
        } else if let Some(new_id) = renamed.get(id.as_str()) {
            let n = &new[*new_id];
            let (class, what) = if o.rust_fn == n.rust_fn {
                (Class::DocsOnly, format!("operation `{}`", n.rust_fn))
            } else {
                (
                    Class::Breaking,
                    format!("operation `{}` renamed to `{}`", o.rust_fn, n.rust_fn),
                )
            };
            out.push(
                class,
                &n.area,
                format!(
                    "{what}: operationId `{id}` → `{new_id}` (`{} {}`)",
                    n.method, n.path
                ),
            );
            operation(o, n, out);
        } else {
            out.push(
                Class::Breaking,
                &o.area,
                format!(
                    "operation `{}` removed (`{} {}`)",
                    o.rust_fn, o.method, o.path
                ),
            );
        }
    }
    let rename_targets: BTreeSet<&str> = renamed.values().copied().collect();
    for (id, n) in new {
        if !old.contains_key(id) && !rename_targets.contains(id.as_str()) {
            out.push(
                Class::Additive,
                &n.area,
                format!(
                    "operation `{}` added (`{} {}`)",
                    n.rust_fn, n.method, n.path
                ),
            );
        }
    }
}

/// Removed operationId → added operationId, for pairs with the same method and path.
fn renames<'a>(old: &'a Operations, new: &'a Operations) -> BTreeMap<&'a str, &'a str> {
    let mut added: BTreeMap<(&str, &str), &str> = BTreeMap::new();
    for (id, n) in new.iter().filter(|(id, _)| !old.contains_key(*id)) {
        added.entry((&n.method, &n.path)).or_insert(id);
    }
    old.iter()
        .filter(|(id, _)| !new.contains_key(*id))
        .filter_map(|(id, o)| {
            let new_id = added.remove(&(o.method.as_str(), o.path.as_str()))?;
            Some((id.as_str(), new_id))
        })
        .collect()
}

fn operation(o: &OperationDescription, n: &OperationDescription, out: &mut Changes) {
    let area = n.area.as_str();
    let subject = format!("`{}`", n.rust_fn);
    let mut line = |class: Class, text: String| out.push(class, area, format!("{subject}: {text}"));
    if o.area != n.area {
        line(
            Class::Breaking,
            format!(
                "moved from area `{}` to `{}` (builder module and cargo feature)",
                o.area, n.area
            ),
        );
    }
    if (&o.method, &o.path) != (&n.method, &n.path) {
        line(
            Class::DocsOnly,
            format!("`{} {}` → `{} {}`", o.method, o.path, n.method, n.path),
        );
    }
    if o.success != n.success {
        line(
            Class::Breaking,
            format!("success type `{}` → `{}`", o.success, n.success),
        );
    }
    if let Some(change) = pagination(o.pagination.as_deref(), n.pagination.as_deref()) {
        line(change.0, change.1);
    }
    if o.idempotency != n.idempotency {
        let class = match (o.idempotency.as_str(), n.idempotency.as_str()) {
            ("none", _) => Class::Additive,
            (_, "none") => Class::Breaking,
            _ => Class::DocsOnly,
        };
        let setter = match class {
            Class::Additive => " (`idempotency_key` setter added)",
            Class::Breaking => " (`idempotency_key` setter removed)",
            Class::DocsOnly => "",
        };
        line(
            class,
            format!(
                "Idempotency-Key `{}` → `{}`{setter}",
                o.idempotency, n.idempotency
            ),
        );
    }
    if o.operation_envelope != n.operation_envelope {
        let change = if n.operation_envelope {
            (
                Class::Additive,
                "accepts the operation envelope (`operation_format` setter added)",
            )
        } else {
            (
                Class::Breaking,
                "no longer accepts the operation envelope (`operation_format` setter removed)",
            )
        };
        line(change.0, change.1.to_owned());
    }
    if o.deprecated != n.deprecated {
        line(Class::DocsOnly, deprecation(n.deprecated).to_owned());
    }
    if let Some(text) = set_change("scope", &o.scopes, &n.scopes) {
        line(Class::DocsOnly, text);
    }
    if let Some(text) = error_responses(&o.errors, &n.errors) {
        line(Class::DocsOnly, text);
    }
    let docs: Vec<&str> = [
        (o.summary != n.summary).then_some("summary"),
        (o.description != n.description).then_some("description"),
    ]
    .into_iter()
    .flatten()
    .collect();
    if !docs.is_empty() {
        line(Class::DocsOnly, format!("{} changed", docs.join(" and ")));
    }
    let body_changes = body(o.body.as_ref(), n.body.as_ref(), &n.rust_fn);
    out.push_parts(area, &format!("{subject}: request body"), body_changes);
    params(&o.params, &n.params, area, &n.rust_fn, out);
}

fn params(
    old: &BTreeMap<String, ParamDescription>,
    new: &BTreeMap<String, ParamDescription>,
    area: &str,
    rust_fn: &str,
    out: &mut Changes,
) {
    for key in union_keys(old, new) {
        let subject =
            |p: &ParamDescription| format!("`{rust_fn}`: {} parameter `{key}`", p.location);
        match (old.get(key), new.get(key)) {
            (Some(o), None) => out.push(Class::Breaking, area, format!("{} removed", subject(o))),
            (None, Some(n)) if n.required => out.push(
                Class::Breaking,
                area,
                format!(
                    "{} added (required: a new argument of `{rust_fn}`)",
                    subject(n)
                ),
            ),
            (None, Some(n)) => out.push(
                Class::Additive,
                area,
                format!("{} added (optional: a builder setter)", subject(n)),
            ),
            (Some(o), Some(n)) => {
                let mut parts = argument_changes(
                    (o.required, n.required),
                    (&o.ty, &n.ty),
                    rust_fn,
                    "a builder setter",
                );
                if o.location != n.location {
                    parts.push((
                        Class::DocsOnly,
                        format!("sent in {} → {}", o.location, n.location),
                    ));
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
                out.push_parts(area, &subject(n), parts);
            }
            (None, None) => {}
        }
    }
}

/// The breaking changes of an argument: it moved between the client method's arguments and a
/// setter (`setter` names which), or its type changed.
fn argument_changes(
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

fn body(
    old: Option<&BodyDescription>,
    new: Option<&BodyDescription>,
    rust_fn: &str,
) -> Vec<(Class, String)> {
    let mut parts = Vec::new();
    match (old, new) {
        (None, None) => {}
        (Some(_), None) => parts.push((Class::Breaking, "removed".to_owned())),
        (None, Some(n)) if n.required => parts.push((
            Class::Breaking,
            format!("`{}` added (required: a new argument of `{rust_fn}`)", n.ty),
        )),
        (None, Some(n)) => parts.push((
            Class::Additive,
            format!("`{}` added (optional: the `body` setter)", n.ty),
        )),
        (Some(o), Some(n)) => {
            parts.extend(argument_changes(
                (o.required, n.required),
                (&o.ty, &n.ty),
                rust_fn,
                "the `body` setter",
            ));
            if o.media_type != n.media_type {
                parts.push((
                    Class::DocsOnly,
                    format!("media type `{}` → `{}`", o.media_type, n.media_type),
                ));
            }
        }
    }
    parts
}

fn pagination(old: Option<&str>, new: Option<&str>) -> Option<(Class, String)> {
    match (old, new) {
        (None, Some(n)) => Some((
            Class::Additive,
            format!("paginated (`{n}`): `into_stream` added"),
        )),
        (Some(o), None) => Some((
            Class::Breaking,
            format!("no longer paginated (was `{o}`): `into_stream` removed"),
        )),
        (Some(o), Some(n)) if o != n => {
            Some((Class::DocsOnly, format!("pagination `{o}` → `{n}`")))
        }
        _ => None,
    }
}

/// Status-by-status changes of the error responses, in one line.
fn error_responses(
    old: &BTreeMap<String, Vec<String>>,
    new: &BTreeMap<String, Vec<String>>,
) -> Option<String> {
    let mut parts = Vec::new();
    for status in union_keys(old, new) {
        match (old.get(status), new.get(status)) {
            (None, Some(codes)) => parts.push(format!(
                "error response {status} added{}",
                codes_suffix(codes)
            )),
            (Some(_), None) => parts.push(format!("error response {status} removed")),
            (Some(o), Some(n)) => {
                if let Some(text) = set_change("code", o, n) {
                    parts.push(format!("error response {status}: {text}"));
                }
            }
            (None, None) => {}
        }
    }
    (!parts.is_empty()).then(|| parts.join("; "))
}

fn codes_suffix(codes: &[String]) -> String {
    if codes.is_empty() {
        String::new()
    } else {
        format!(" ({})", ticks(codes))
    }
}
