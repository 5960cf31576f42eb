//! Changes of operations: added, removed, renamed, and aspect by aspect, for the Rust API and
//! for released SDKs calling the new server.

use super::{
    Changes, Class, Wire, arguments, builder, compat, deprecation, renames, security, set_change,
    ticks, union_keys, wire_path,
};
use crate::ir::{Idempotency, ParamLocation};
use crate::surface::{
    BodySurface, ConstraintsSurface, Effects, OperationSurface, PaginationSurface, ParamSurface,
    ResponseHeadersSurface, Surface,
};
use std::collections::{BTreeMap, BTreeSet};

type Operations = BTreeMap<String, OperationSurface>;

pub(super) fn operations(old_api: &Surface, new_api: &Surface, out: &mut Changes) {
    let (old, new) = (&old_api.operations, &new_api.operations);
    let renamed = renames(old, new);
    let operation = |o, n, out: &mut Changes| operation(o, n, (old_api, new_api), out);
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
            out.wire(
                Wire::Breaking,
                &o.area,
                &[&o.rust_fn],
                format!(
                    "`{}`: `{} {}` removed: released SDKs still call it",
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

/// Removed operationId → added operationId, for pairs with the same method and the same path
/// on the wire (parameter names aside).
pub(super) fn renames<'a>(old: &'a Operations, new: &'a Operations) -> BTreeMap<&'a str, &'a str> {
    renames::pairs(old, new, |o, n| {
        o.method == n.method && wire_path(&o.path) == wire_path(&n.path)
    })
}

fn operation(
    o: &OperationSurface,
    n: &OperationSurface,
    (old_api, new_api): (&Surface, &Surface),
    out: &mut Changes,
) {
    let area = n.area.as_str();
    let subject = format!("`{}`", n.rust_fn);
    let released = [o.rust_fn.as_str()];
    let wire = |out: &mut Changes, class: Wire, text: String| {
        out.wire(class, area, &released, format!("{subject}: {text}"));
    };
    let line = |out: &mut Changes, class: Class, text: String| {
        out.push(class, area, format!("{subject}: {text}"))
    };
    if o.area != n.area {
        line(
            out,
            Class::Breaking,
            format!(
                "moved from area `{}` to `{}` (builder module and cargo feature)",
                o.area, n.area
            ),
        );
    }
    if (&o.method, &o.path) != (&n.method, &n.path) {
        let moved = format!("`{} {}` → `{} {}`", o.method, o.path, n.method, n.path);
        line(out, Class::DocsOnly, moved.clone());
        if o.method != n.method || wire_path(&o.path) != wire_path(&n.path) {
            wire(
                out,
                Wire::Breaking,
                format!("{moved}: released SDKs call the old route"),
            );
        }
    }
    if o.server != n.server {
        let at = |server: &Option<String>| match server {
            Some(url) => format!("its own server `{url}`"),
            None => "the base URL".to_owned(),
        };
        let (was, now) = (at(&o.server), at(&n.server));
        line(out, Class::DocsOnly, format!("sent to {was} → {now}"));
        wire(
            out,
            Wire::Breaking,
            format!("the server now expects it at {now}; released SDKs send it to {was}"),
        );
    }
    if o.success != n.success {
        line(
            out,
            Class::Breaking,
            format!("success type `{}` → `{}`", o.success, n.success),
        );
        if !compat::decodes(&old_api.types, &o.success, &new_api.types, &n.success) {
            wire(
                out,
                Wire::Breaking,
                format!(
                    "response type `{}` → `{}`: released SDKs decode it as `{}`, which it no \
                     longer matches",
                    o.success, n.success, o.success
                ),
            );
        }
    }
    for (class, text) in super::success::changes(o, n) {
        wire(out, class, text);
    }
    for (class, text) in builder::methods(o, n) {
        line(out, class, text);
    }
    pagination(
        o.pagination.as_ref(),
        n.pagination.as_ref(),
        |class, text| line(out, class, text),
    );
    if o.pagination.is_some() && o.pagination != n.pagination {
        wire(
            out,
            Wire::Breaking,
            format!(
                "pagination {} → {}: `into_stream` of released SDKs continues the old way",
                pagination_text(o.pagination.as_ref()),
                pagination_text(n.pagination.as_ref())
            ),
        );
    }
    if o.idempotency != n.idempotency {
        let class = match (o.idempotency.sends_key(), n.idempotency.sends_key()) {
            (false, _) => Class::Additive,
            (_, false) => Class::Breaking,
            _ => Class::DocsOnly,
        };
        let setter = match class {
            Class::Additive => " (`idempotency_key` setter added)",
            Class::Breaking => " (`idempotency_key` setter removed)",
            Class::DocsOnly => "",
        };
        line(
            out,
            class,
            format!(
                "Idempotency-Key `{}` → `{}`{setter}",
                o.idempotency.as_str(),
                n.idempotency.as_str()
            ),
        );
        if o.idempotency == Idempotency::None && n.idempotency == Idempotency::Required {
            wire(
                out,
                Wire::Breaking,
                "Idempotency-Key now required: released SDKs send none".to_owned(),
            );
        }
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
        line(out, change.0, change.1.to_owned());
        if !n.operation_envelope {
            wire(
                out,
                Wire::Degraded,
                "no longer answers with the operation envelope: released SDKs that ask for it \
                 get the plain body"
                    .to_owned(),
            );
        }
    }
    for text in effects_changes(&o.effects, &n.effects) {
        line(out, Class::DocsOnly, text);
    }
    if o.deprecated != n.deprecated {
        line(out, Class::DocsOnly, deprecation(n.deprecated).to_owned());
        out.deprecation(
            n.deprecated,
            area,
            subject.clone(),
            n.deprecation_note.as_deref(),
        );
    }
    if let Some(text) = set_change("scope", &o.scopes, &n.scopes) {
        line(out, Class::DocsOnly, text);
    }
    let (new_scopes, _) = super::added_removed(&o.scopes, &n.scopes);
    if !new_scopes.is_empty() {
        wire(
            out,
            Wire::Breaking,
            format!(
                "{} now required: credentials without {} get 403",
                super::named("scope", &new_scopes),
                if new_scopes.len() == 1 { "it" } else { "them" }
            ),
        );
    }
    let (requirements, requirements_wire) = security::requirements(o, n, (old_api, new_api));
    if let Some((class, text)) = requirements {
        line(out, class, text);
    }
    if let Some(text) = requirements_wire {
        wire(out, Wire::Breaking, text);
    }
    if let Some(text) = error_responses(&o.errors, &n.errors) {
        line(out, Class::DocsOnly, text);
    }
    for (class, text) in response_headers(o.response_headers.as_ref(), n.response_headers.as_ref())
    {
        line(out, class, text);
    }
    for text in headers_gone(o.response_headers.as_ref(), n.response_headers.as_ref()) {
        wire(out, Wire::Degraded, text);
    }
    let docs: Vec<&str> = [
        (o.summary != n.summary).then_some("summary"),
        (o.description != n.description).then_some("description"),
    ]
    .into_iter()
    .flatten()
    .collect();
    if !docs.is_empty() {
        line(
            out,
            Class::DocsOnly,
            format!("{} changed", docs.join(" and ")),
        );
    }
    let body_changes = body(o.body.as_ref(), n.body.as_ref(), &n.rust_fn);
    out.push_parts(area, &format!("{subject}: request body"), body_changes);
    // The new server reads what a released SDK sends when its type decodes the old one.
    let accepted = |old_ty: &str, new_ty: &str| {
        compat::decodes(&new_api.types, new_ty, &old_api.types, old_ty)
    };
    body_wire(o.body.as_ref(), n.body.as_ref(), accepted, |class, text| {
        wire(out, class, format!("request body {text}"))
    });
    let renamed = param_renames(o, n);
    if let Some(text) = arguments::passing(o, n) {
        line(out, Class::Breaking, text);
    }
    // Parameters passed by name in both have no order a call depends on; a body follows them.
    let positional = |op: &OperationSurface| -> Vec<String> {
        match op.arguments_struct {
            Some(_) => op
                .arguments
                .iter()
                .filter(|a| !op.params.contains_key(*a))
                .cloned()
                .collect(),
            None => op.arguments.clone(),
        }
    };
    let both_named = o.arguments_struct.is_some() && n.arguments_struct.is_some();
    let (old_order, new_order) = if both_named {
        (positional(o), positional(n))
    } else {
        (o.arguments.clone(), n.arguments.clone())
    };
    if let Some(text) = arguments::reordered(
        &old_order,
        &new_order,
        &renamed,
        |arg| argument_type(o, arg),
        |arg| argument_type(n, arg),
    ) {
        line(out, Class::Breaking, text);
    }
    let same_wire = |a: &str, b: &str| super::same_on_wire(old_api, new_api, a, b);
    params(o, n, &renamed, &same_wire, out);
}

/// Removed parameter → added parameter of one operation, for pairs with the same location,
/// requiredness, type and constraints.
pub(super) fn param_renames<'a>(
    o: &'a OperationSurface,
    n: &'a OperationSurface,
) -> BTreeMap<&'a str, &'a str> {
    renames::pairs(&o.params, &n.params, |a, b| {
        (&a.location, a.required, &a.ty, &a.constraints)
            == (&b.location, b.required, &b.ty, &b.constraints)
    })
}

/// The documented success headers, for the code: a header added is a new field of a
/// `non_exhaustive` view (additive); one removed, retyped, or the view renamed, breaks code
/// that reads it.
fn response_headers(
    o: Option<&ResponseHeadersSurface>,
    n: Option<&ResponseHeadersSurface>,
) -> Vec<(Class, String)> {
    let listed = |h: &ResponseHeadersSurface| {
        let names: Vec<String> = h.headers.keys().map(|k| format!("`{k}`")).collect();
        names.join(", ")
    };
    let (o, n) = match (o, n) {
        (None, None) => return Vec::new(),
        (None, Some(n)) => {
            let text = format!(
                "`response_headers` added (returns `{}`: {})",
                n.ty,
                listed(n)
            );
            return vec![(Class::Additive, text)];
        }
        (Some(o), None) => {
            let text = format!("`response_headers` removed (returned {})", listed(o));
            return vec![(Class::Breaking, text)];
        }
        (Some(o), Some(n)) => (o, n),
    };
    let mut out = Vec::new();
    for (name, ty) in &n.headers {
        match o.headers.get(name) {
            None => out.push((
                Class::Additive,
                format!("response header `{name}` (`{ty}`) added"),
            )),
            Some(was) if was != ty => out.push((
                Class::Breaking,
                format!("response header `{name}`: type `{was}` → `{ty}`"),
            )),
            Some(_) => {}
        }
    }
    for name in o
        .headers
        .keys()
        .filter(|name| !n.headers.contains_key(*name))
    {
        out.push((Class::Breaking, format!("response header `{name}` removed")));
    }
    if o.ty != n.ty {
        out.push((
            Class::Breaking,
            format!("`response_headers` returns `{}` (was `{}`)", n.ty, o.ty),
        ));
    }
    out
}

/// Documented success headers the server no longer sends: released SDKs read `None` there.
fn headers_gone(
    o: Option<&ResponseHeadersSurface>,
    n: Option<&ResponseHeadersSurface>,
) -> Vec<String> {
    let Some(o) = o else { return Vec::new() };
    o.headers
        .keys()
        .filter(|name| n.is_none_or(|n| !n.headers.contains_key(*name)))
        .map(|name| {
            format!("response header `{name}` no longer documented: released SDKs read `None`")
        })
        .collect()
}

/// What changed in how tools treat the operation: the CLI's confirmation and the MCP server's
/// enablements follow `destructive`, `purchase` and `grants_access`.
fn effects_changes(o: &Effects, n: &Effects) -> Vec<String> {
    let mut out = Vec::new();
    if o.destructive != n.destructive {
        out.push(if n.destructive {
            "now destructive: the CLI asks before it, the MCP server offers it only when destructive tools are enabled".to_owned()
        } else {
            "no longer destructive".to_owned()
        });
    }
    match (&o.purchase, &n.purchase) {
        (None, Some(_)) => {
            out.push("now charges the account: tools treat it as a purchase".to_owned())
        }
        (Some(_), None) => out.push("no longer charges the account".to_owned()),
        (Some(old), Some(new)) if old.ceiling != new.ceiling => out.push(format!(
            "spending ceiling members {} → {}",
            members(&old.ceiling),
            members(&new.ceiling)
        )),
        _ => {}
    }
    match (&o.grants_access, &n.grants_access) {
        (None, Some(what)) => out.push(format!(
            "now grants access ({what}): the CLI asks before it, the MCP server offers it only when access grants are enabled"
        )),
        (Some(_), None) => out.push("no longer grants access".to_owned()),
        _ => {}
    }
    out
}

fn members(names: &[String]) -> String {
    if names.is_empty() {
        "none".to_owned()
    } else {
        ticks(names)
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

fn pagination_text(p: Option<&PaginationSurface>) -> String {
    match p {
        None => "none".to_owned(),
        Some(p) => format!(
            "`{}` (`{}` → `{}`, items `{}`)",
            p.model, p.next, p.request, p.items
        ),
    }
}

fn params(
    o: &OperationSurface,
    n: &OperationSurface,
    renamed: &BTreeMap<&str, &str>,
    same_wire: &dyn Fn(&str, &str) -> bool,
    out: &mut Changes,
) {
    let (old, new) = (&o.params, &n.params);
    let area = n.area.as_str();
    let rust_fn = n.rust_fn.as_str();
    let released = [o.rust_fn.as_str()];
    let rename_targets: BTreeSet<&str> = renamed.values().copied().collect();
    let named_in = n
        .arguments_struct
        .as_deref()
        .or(o.arguments_struct.as_deref());
    for key in union_keys(old, new) {
        let subject = |p: &ParamSurface| format!("`{rust_fn}`: {} parameter `{key}`", p.location);
        let wire = |out: &mut Changes, class: Wire, text: String| {
            out.wire(class, area, &released, text);
        };
        match (old.get(key), new.get(key)) {
            (Some(o), None) => {
                if let Some(new_key) = renamed.get(key) {
                    let place = (rust_fn, named_in, area);
                    renamed_param(place, (key, new_key), (o, &new[*new_key]), out);
                    continue;
                }
                out.push(Class::Breaking, area, format!("{} removed", subject(o)));
                wire(
                    out,
                    Wire::Degraded,
                    format!(
                        "{} removed: released SDKs still send it when set",
                        subject(o)
                    ),
                );
            }
            (None, Some(_)) if rename_targets.contains(key) => {}
            (None, Some(n)) if n.required => {
                out.push(
                    Class::Breaking,
                    area,
                    format!(
                        "{} added (required: a new argument of `{rust_fn}`)",
                        subject(n)
                    ),
                );
                wire(
                    out,
                    Wire::Breaking,
                    format!(
                        "{} added as required: released SDKs never send it",
                        subject(n)
                    ),
                );
            }
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
                if let Some(text) = super::constraints_change(&o.constraints, &n.constraints) {
                    parts.push((Class::DocsOnly, text));
                }
                if o.deprecated != n.deprecated {
                    parts.push((Class::DocsOnly, deprecation(n.deprecated).to_owned()));
                    out.deprecation(
                        n.deprecated,
                        area,
                        subject(n),
                        n.deprecation_note.as_deref(),
                    );
                }
                out.push_parts(area, &subject(n), parts);
                let mut effects = Vec::new();
                if !o.required && n.required {
                    effects.push("now required: released SDKs send it only when set".to_owned());
                }
                if o.ty != n.ty && !same_wire(&o.ty, &n.ty) {
                    effects.push(format!(
                        "type `{}` → `{}`: values released SDKs send may be rejected",
                        o.ty, n.ty
                    ));
                }
                let both_in_path =
                    o.location == ParamLocation::Path && n.location == ParamLocation::Path;
                if (&o.location, &o.name) != (&n.location, &n.name) && !both_in_path {
                    effects.push(format!(
                        "now `{}` in {}: released SDKs send `{}` in {}",
                        n.name, n.location, o.name, o.location
                    ));
                }
                effects.extend(narrowed(&o.constraints, &n.constraints));
                if !effects.is_empty() {
                    wire(
                        out,
                        Wire::Breaking,
                        format!("{}: {}", subject(n), effects.join("; ")),
                    );
                }
                if !n.required && o.constraints.default != n.constraints.default {
                    let change = super::default_change(
                        o.constraints.default.as_ref(),
                        n.constraints.default.as_ref(),
                    );
                    wire(out, Wire::Behaviour, format!("{}: {change}", subject(n)));
                }
            }
            (None, None) => {}
        }
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

fn body(
    old: Option<&BodySurface>,
    new: Option<&BodySurface>,
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

/// What a body change does to released SDKs.
fn body_wire(
    old: Option<&BodySurface>,
    new: Option<&BodySurface>,
    accepted: impl Fn(&str, &str) -> bool,
    mut wire: impl FnMut(Wire, String),
) {
    match (old, new) {
        (None, Some(n)) if n.required => wire(
            Wire::Breaking,
            format!("`{}` added as required: released SDKs send none", n.ty),
        ),
        (Some(o), Some(n)) => {
            if !o.required && n.required {
                wire(
                    Wire::Breaking,
                    "now required: released SDKs send it only when set".to_owned(),
                );
            }
            if o.ty != n.ty && !accepted(&o.ty, &n.ty) {
                wire(
                    Wire::Breaking,
                    format!(
                        "type `{}` → `{}`: released SDKs send the old type",
                        o.ty, n.ty
                    ),
                );
            }
            if o.media_type != n.media_type {
                wire(
                    Wire::Breaking,
                    format!(
                        "media type `{}` → `{}`: released SDKs send `{}`",
                        o.media_type, n.media_type, o.media_type
                    ),
                );
            }
        }
        (Some(_), None) => wire(
            Wire::Degraded,
            "removed: released SDKs still send one when set".to_owned(),
        ),
        _ => {}
    }
}

fn pagination(
    old: Option<&PaginationSurface>,
    new: Option<&PaginationSurface>,
    mut line: impl FnMut(Class, String),
) {
    match (old, new) {
        (None, Some(n)) => line(
            Class::Additive,
            format!("paginated (`{}`): `into_stream` added", n.model),
        ),
        (Some(o), None) => line(
            Class::Breaking,
            format!(
                "no longer paginated (was `{}`): `into_stream` removed",
                o.model
            ),
        ),
        (Some(o), Some(n)) if o != n => line(
            Class::DocsOnly,
            format!(
                "pagination {} → {}",
                pagination_text(Some(o)),
                pagination_text(Some(n))
            ),
        ),
        _ => {}
    }
}

/// How `new` rejects values `old` accepted, one phrase per narrowed constraint.
pub(super) fn narrowed(old: &ConstraintsSurface, new: &ConstraintsSurface) -> Vec<String> {
    use serde_json::Value;
    let number = |v: &Option<Value>| v.as_ref().and_then(Value::as_f64);
    let mut out = Vec::new();
    let mut bound = |what: &str, o: Option<f64>, n: Option<f64>, raised: bool| {
        let narrows = match (o, n) {
            (None, Some(_)) => true,
            (Some(o), Some(n)) => (n > o) == raised && n != o,
            _ => false,
        };
        if narrows {
            let shown = |v: Option<f64>| v.map_or_else(|| "none".to_owned(), |v| v.to_string());
            out.push(format!(
                "{what} {} → {}: released SDKs may send values the server now rejects",
                shown(o),
                shown(n)
            ));
        }
    };
    bound("minimum", number(&old.minimum), number(&new.minimum), true);
    bound(
        "exclusive minimum",
        number(&old.exclusive_minimum),
        number(&new.exclusive_minimum),
        true,
    );
    bound("maximum", number(&old.maximum), number(&new.maximum), false);
    bound(
        "exclusive maximum",
        number(&old.exclusive_maximum),
        number(&new.exclusive_maximum),
        false,
    );
    let count = |v: Option<u64>| v.map(|v| v as f64);
    bound(
        "minLength",
        count(old.min_length),
        count(new.min_length),
        true,
    );
    bound(
        "maxLength",
        count(old.max_length),
        count(new.max_length),
        false,
    );
    bound("minItems", count(old.min_items), count(new.min_items), true);
    bound(
        "maxItems",
        count(old.max_items),
        count(new.max_items),
        false,
    );
    if new.pattern.is_some() && old.pattern != new.pattern {
        out.push(format!(
            "pattern `{}` → `{}`: values released SDKs send may no longer match",
            old.pattern.as_deref().unwrap_or("none"),
            new.pattern.as_deref().unwrap_or("none")
        ));
    }
    if new.multiple_of.is_some() && old.multiple_of != new.multiple_of {
        out.push(
            "multipleOf changed: released SDKs may send values the server now rejects".to_owned(),
        );
    }
    if new.unique_items && !old.unique_items {
        out.push("items must now be unique".to_owned());
    }
    if new.format.is_some() && old.format != new.format {
        out.push(format!(
            "format `{}` → `{}`",
            old.format.as_deref().unwrap_or("none"),
            new.format.as_deref().unwrap_or("none")
        ));
    }
    out
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn constraints(value: serde_json::Value) -> ConstraintsSurface {
        serde_json::from_value(value).expect("constraints")
    }

    #[test]
    fn only_narrowing_constraints_are_named() {
        let old = constraints(json!({"minimum": 1, "maxLength": 64, "pattern": "^a"}));
        let widened = constraints(json!({"minimum": 0}));
        assert_eq!(narrowed(&old, &widened), Vec::<String>::new());
        let narrower = constraints(json!({
            "minimum": 2, "maxLength": 32, "pattern": "^ab", "maxItems": 5, "uniqueItems": true
        }));
        let found = narrowed(&old, &narrower);
        for needle in [
            "minimum 1 → 2",
            "maxLength 64 → 32",
            "pattern `^a` → `^ab`",
            "maxItems none → 5",
            "items must now be unique",
        ] {
            assert!(
                found.iter().any(|f| f.contains(needle)),
                "{needle}: {found:?}"
            );
        }
        assert_eq!(found.len(), 5, "{found:?}");
    }
}
