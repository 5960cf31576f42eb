//! Changes of operations: added, removed, renamed, and aspect by aspect, for the Rust API and
//! for released SDKs calling the new server. Each aspect is one function of [`ASPECTS`].

mod body;
mod constraints;
mod contract;
mod params;
mod responses;

pub(super) use constraints::narrowed;
pub(super) use params::param_renames;

use super::{Changes, Class, Wire, builder, compat, deprecation, renames, security, wire_path};
use crate::surface::{OperationSurface, Surface};
use std::collections::{BTreeMap, BTreeSet};

type Operations = BTreeMap<String, OperationSurface>;

pub(super) fn operations(old_api: &Surface, new_api: &Surface, out: &mut Changes) {
    let (old, new) = (&old_api.operations, &new_api.operations);
    let renamed = renames(old, new);
    let apis = (old_api, new_api);
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
            operation(&Pair::new(o, n, apis), out);
        } else if let Some(new_id) = renamed.get(id.as_str()) {
            renamed_operation(id, new_id, Pair::new(o, &new[*new_id], apis), out);
        } else {
            removed(o, out);
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

/// An operation whose operationId changed (`id` → `new_id`) on the same route.
fn renamed_operation(id: &str, new_id: &str, pair: Pair<'_>, out: &mut Changes) {
    let (o, n) = (pair.o, pair.n);
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
    operation(&pair, out);
}

/// An operation gone from the new revision: its method is gone, and released SDKs still call it.
fn removed(o: &OperationSurface, out: &mut Changes) {
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

/// One operation in both revisions, with the surfaces it belongs to; its changes are filed
/// under its new area, as lines about its new client method.
struct Pair<'a> {
    o: &'a OperationSurface,
    n: &'a OperationSurface,
    apis: (&'a Surface, &'a Surface),
    subject: String,
}

impl<'a> Pair<'a> {
    fn new(
        o: &'a OperationSurface,
        n: &'a OperationSurface,
        apis: (&'a Surface, &'a Surface),
    ) -> Self {
        let subject = format!("`{}`", n.rust_fn);
        Pair {
            o,
            n,
            apis,
            subject,
        }
    }

    fn area(&self) -> &'a str {
        self.n.area.as_str()
    }

    /// A change of the Rust API: `` `fn`: text ``.
    fn line(&self, out: &mut Changes, class: Class, text: String) {
        out.push(class, self.area(), format!("{}: {text}", self.subject));
    }

    /// An effect on released SDKs, which call the old client method: `` `fn`: text ``.
    fn wire(&self, out: &mut Changes, class: Wire, text: String) {
        let released = [self.o.rust_fn.as_str()];
        let text = format!("{}: {text}", self.subject);
        out.wire(class, self.area(), &released, text);
    }
}

/// Every aspect of an operation that may change, in the report's order.
const ASPECTS: &[fn(&Pair<'_>, &mut Changes)] = &[
    area,
    route,
    server,
    success,
    builder_methods,
    contract::pagination,
    contract::idempotency,
    contract::envelope,
    contract::effects,
    deprecated,
    scopes,
    requirements,
    responses::errors,
    responses::headers,
    docs,
    body::body,
    params::arguments,
    params::params,
];

/// The changes of one operation present in both revisions.
fn operation(pair: &Pair<'_>, out: &mut Changes) {
    for aspect in ASPECTS {
        aspect(pair, out);
    }
}

/// The area module (and cargo feature) holding the operation's builder.
fn area(pair: &Pair<'_>, out: &mut Changes) {
    let (o, n) = (pair.o, pair.n);
    if o.area != n.area {
        let text = format!(
            "moved from area `{}` to `{}` (builder module and cargo feature)",
            o.area, n.area
        );
        pair.line(out, Class::Breaking, text);
    }
}

/// The method and path: released SDKs call the old route unless only parameter names changed.
fn route(pair: &Pair<'_>, out: &mut Changes) {
    let (o, n) = (pair.o, pair.n);
    if (&o.method, &o.path) == (&n.method, &n.path) {
        return;
    }
    let moved = format!("`{} {}` → `{} {}`", o.method, o.path, n.method, n.path);
    pair.line(out, Class::DocsOnly, moved.clone());
    if o.method != n.method || wire_path(&o.path) != wire_path(&n.path) {
        let text = format!("{moved}: released SDKs call the old route");
        pair.wire(out, Wire::Breaking, text);
    }
}

/// The server the operation is sent to, when it has its own.
fn server(pair: &Pair<'_>, out: &mut Changes) {
    let (o, n) = (pair.o, pair.n);
    if o.server == n.server {
        return;
    }
    let at = |server: &Option<String>| match server {
        Some(url) => format!("its own server `{url}`"),
        None => "the base URL".to_owned(),
    };
    let (was, now) = (at(&o.server), at(&n.server));
    pair.line(out, Class::DocsOnly, format!("sent to {was} → {now}"));
    pair.wire(
        out,
        Wire::Breaking,
        format!("the server now expects it at {now}; released SDKs send it to {was}"),
    );
}

/// The success type, and what released SDKs decode when it or its status changes.
fn success(pair: &Pair<'_>, out: &mut Changes) {
    let (o, n) = (pair.o, pair.n);
    let (old_api, new_api) = pair.apis;
    if o.success != n.success {
        let text = format!("success type `{}` → `{}`", o.success, n.success);
        pair.line(out, Class::Breaking, text);
        if !compat::decodes(&old_api.types, &o.success, &new_api.types, &n.success) {
            let text = format!(
                "response type `{}` → `{}`: released SDKs decode it as `{}`, which it no \
                 longer matches",
                o.success, n.success, o.success
            );
            pair.wire(out, Wire::Breaking, text);
        }
    }
    for (class, text) in super::success::changes(o, n) {
        pair.wire(out, class, text);
    }
}

/// The builder's setters and helper methods (see `builder::methods`).
fn builder_methods(pair: &Pair<'_>, out: &mut Changes) {
    for (class, text) in builder::methods(pair.o, pair.n) {
        pair.line(out, class, text);
    }
}

/// The operation became deprecated, or no longer is.
fn deprecated(pair: &Pair<'_>, out: &mut Changes) {
    let n = pair.n;
    if pair.o.deprecated != n.deprecated {
        pair.line(out, Class::DocsOnly, deprecation(n.deprecated).to_owned());
        let note = n.deprecation_note.as_deref();
        out.deprecation(n.deprecated, pair.area(), pair.subject.clone(), note);
    }
}

/// The scopes the operation requires: a new one fails credentials without it.
fn scopes(pair: &Pair<'_>, out: &mut Changes) {
    let (o, n) = (pair.o, pair.n);
    if let Some(text) = super::set_change("scope", &o.scopes, &n.scopes) {
        pair.line(out, Class::DocsOnly, text);
    }
    let (new_scopes, _) = super::added_removed(&o.scopes, &n.scopes);
    if !new_scopes.is_empty() {
        let text = format!(
            "{} now required: credentials without {} get 403",
            super::named("scope", &new_scopes),
            if new_scopes.len() == 1 { "it" } else { "them" }
        );
        pair.wire(out, Wire::Breaking, text);
    }
}

/// The security requirements (see `security::requirements`).
fn requirements(pair: &Pair<'_>, out: &mut Changes) {
    let (requirements, wire) = security::requirements(pair.o, pair.n, pair.apis);
    if let Some((class, text)) = requirements {
        pair.line(out, class, text);
    }
    if let Some(text) = wire {
        pair.wire(out, Wire::Breaking, text);
    }
}

/// The summary and description, in one line.
fn docs(pair: &Pair<'_>, out: &mut Changes) {
    let (o, n) = (pair.o, pair.n);
    let docs: Vec<&str> = [
        (o.summary != n.summary).then_some("summary"),
        (o.description != n.description).then_some("description"),
    ]
    .into_iter()
    .flatten()
    .collect();
    if !docs.is_empty() {
        let text = format!("{} changed", docs.join(" and "));
        pair.line(out, Class::DocsOnly, text);
    }
}
