//! Changes of the servers (the crate's `servers` constants, functions and `DEFAULT`), for the
//! Rust API and for released SDKs calling the new server.
//!
//! A caller always passes `Config::new` a base URL: either a string of their own, which no
//! revision changes, or one of these constants, whose value is the document's URL.

use super::{Changes, Class, Wire, renames, set_change, ticks, union_keys};
use crate::surface::ServerSurface;
use crate::surface::Surface;
use crate::surface::access::server_function;

/// Area label of changes to the servers (the crate's `servers` module).
pub const SERVERS_AREA: &str = "servers";

const CONFIGURED: &str = "a base URL configured as a string is unaffected";

pub(super) fn servers(old_api: &Surface, new_api: &Surface, out: &mut Changes) {
    let (old, new) = (&old_api.servers, &new_api.servers);
    let renamed = renames::pairs(old, new, |a, b| {
        (&a.url, &a.variables) == (&b.url, &b.variables)
    });
    let rename_targets: Vec<&str> = renamed.values().copied().collect();
    // Every operation of a released SDK goes to the base URL it was configured with.
    let everything: Vec<&str> = old_api
        .operations
        .values()
        .map(|o| o.rust_fn.as_str())
        .collect();
    for key in union_keys(old, new) {
        let subject = format!("server `servers::{key}`");
        match (old.get(key), new.get(key)) {
            (Some(o), None) => match renamed.get(key) {
                Some(new_key) => out.push(
                    Class::Breaking,
                    SERVERS_AREA,
                    format!(
                        "{subject} probably renamed to `servers::{new_key}` (same URL `{}`): \
                         code naming `servers::{key}` stops compiling",
                        o.url
                    ),
                ),
                None => removed(key, o, new_api, &everything, out),
            },
            (None, Some(_)) if rename_targets.contains(&key) => {}
            (None, Some(n)) => out.push(
                Class::Additive,
                SERVERS_AREA,
                format!("{subject} added (`{}`){}", n.value(), function_text(key, n)),
            ),
            (Some(o), Some(n)) => server(key, (o, n), (old_api, new_api), &everything, out),
            (None, None) => {}
        }
    }
    default(old_api, new_api, out);
}

/// A server gone: code naming its constant stops compiling, and released SDKs configured with
/// it call a URL this revision no longer lists (unless another server lists it).
fn removed(
    key: &str,
    o: &ServerSurface,
    new_api: &Surface,
    everything: &[&str],
    out: &mut Changes,
) {
    let subject = format!("server `servers::{key}`");
    out.push(
        Class::Breaking,
        SERVERS_AREA,
        format!(
            "{subject} removed (was `{}`): code that uses it stops compiling; {CONFIGURED}",
            o.value()
        ),
    );
    if !new_api.servers.values().any(|s| s.lists(&o.value())) {
        out.wire(
            Wire::Breaking,
            SERVERS_AREA,
            everything,
            format!(
                "{subject} removed: this revision no longer lists `{}`, which \
                 released SDKs' `servers::{key}` holds: clients of released SDKs \
                 configured with it call a server it does not promise; {CONFIGURED}",
                o.value()
            ),
        );
    }
}

/// `, with function `servers::name(a, b)`` for a server with variables.
fn function_text(key: &str, server: &ServerSurface) -> String {
    if server.variables.is_empty() {
        return String::new();
    }
    format!(" with function `{}`", signature(key, server))
}

/// `servers::name(a, b)`: the emitter names the function after the constant, in lower case.
fn signature(key: &str, server: &ServerSurface) -> String {
    let arguments: Vec<&str> = server
        .variables
        .iter()
        .map(|v| v.rust_name.as_str())
        .collect();
    format!(
        "servers::{}({})",
        server_function(key),
        arguments.join(", ")
    )
}

/// A server in both revisions: its value, URL template, function, variables and description
/// for the Rust API; the URLs released SDKs hold that this revision no longer lists.
fn server(
    key: &str,
    (o, n): (&ServerSurface, &ServerSurface),
    (old_api, new_api): (&Surface, &Surface),
    everything: &[&str],
    out: &mut Changes,
) {
    let subject = format!("server `servers::{key}`");
    let mut parts = Vec::new();
    let (old_value, new_value) = (o.value(), n.value());
    if old_value != new_value {
        let also_default = also_default(new_api, key);
        parts.push((
            Class::Breaking,
            format!(
                "`{old_value}` → `{new_value}`: code passing `servers::{key}`{also_default} to \
                 `Config::new` now calls `{new_value}`; {CONFIGURED}"
            ),
        ));
    }
    if o.url != n.url {
        let text = format!("URL template `{}` → `{}`", o.url, n.url);
        parts.push((Class::DocsOnly, text));
    }
    parts.extend(function_change(key, o, n));
    let (variables, dropped_values) = variables(o, n);
    parts.extend(variables);
    if o.description != n.description {
        parts.push((Class::DocsOnly, "description changed".to_owned()));
    }
    out.push_parts(SERVERS_AREA, &subject, parts);
    let mut unlisted = Vec::new();
    if !new_api.servers.values().any(|s| s.lists(&old_value)) {
        let also_default = also_default(old_api, key);
        unlisted.push(format!(
            "`{old_value}`, which released SDKs' `servers::{key}`{also_default} holds"
        ));
    }
    if !dropped_values.is_empty() {
        unlisted.push(format!(
            "the URLs `servers::{}` builds with {}",
            server_function(key),
            dropped_values.join(" or ")
        ));
    }
    if !unlisted.is_empty() {
        out.wire(
            Wire::Breaking,
            SERVERS_AREA,
            everything,
            format!(
                "{subject}: this revision no longer lists {}: clients of released SDKs \
                 configured with them call a server it does not promise; {CONFIGURED}",
                unlisted.join(", nor ")
            ),
        );
    }
}

/// `` (and `servers::DEFAULT`)`` when the server `key` is the API's default.
fn also_default(api: &Surface, key: &str) -> &'static str {
    if api.default_server.as_deref() == Some(key) {
        " (and `servers::DEFAULT`)"
    } else {
        ""
    }
}

/// The server's function (it has one while it has variables): added, removed, or with other
/// arguments.
fn function_change(key: &str, o: &ServerSurface, n: &ServerSurface) -> Option<(Class, String)> {
    let old_args: Vec<&str> = o.variables.iter().map(|v| v.rust_name.as_str()).collect();
    let new_args: Vec<&str> = n.variables.iter().map(|v| v.rust_name.as_str()).collect();
    match (old_args.is_empty(), new_args.is_empty()) {
        (true, false) => Some((
            Class::Additive,
            format!("function `{}` added", signature(key, n)),
        )),
        (false, true) => Some((
            Class::Breaking,
            format!(
                "function `servers::{}` removed (no variables left)",
                server_function(key)
            ),
        )),
        (false, false) if old_args != new_args => Some((
            Class::Breaking,
            format!(
                "function `{}` → `{}`: its arguments changed",
                signature(key, o),
                signature(key, n)
            ),
        )),
        _ => None,
    }
}

/// The changes of the variables in both revisions (defaults, values), and for each variable
/// that dropped values, `` `argument` `a`, `b` ``: the values released SDKs may still pass.
fn variables(o: &ServerSurface, n: &ServerSurface) -> (Vec<(Class, String)>, Vec<String>) {
    let (mut parts, mut dropped_values) = (Vec::new(), Vec::new());
    for v in &o.variables {
        let Some(nv) = n.variables.iter().find(|nv| nv.name == v.name) else {
            continue;
        };
        let mut changes = Vec::new();
        if v.default != nv.default {
            changes.push(format!("default `{}` → `{}`", v.default, nv.default));
        }
        changes.extend(set_change("value", &v.values, &nv.values));
        if !changes.is_empty() {
            let text = format!("variable `{}`: {}", v.name, changes.join(", "));
            parts.push((Class::DocsOnly, text));
        }
        let dropped: Vec<&String> = if nv.values.is_empty() {
            Vec::new()
        } else {
            v.values.iter().filter(|x| !nv.values.contains(x)).collect()
        };
        if !dropped.is_empty() {
            dropped_values.push(format!("`{}` {}", v.rust_name, ticks(&dropped)));
        }
    }
    (parts, dropped_values)
}

/// `servers::DEFAULT` naming another server (its value changing with the server it names is
/// said on that server's line).
fn default(old_api: &Surface, new_api: &Surface, out: &mut Changes) {
    let (old, new) = (&old_api.default_server, &new_api.default_server);
    if old == new {
        return;
    }
    let value = |api: &Surface, key: &Option<String>| {
        key.as_ref()
            .and_then(|k| api.servers.get(k).map(|s| (k.clone(), s.value())))
    };
    match (value(old_api, old), value(new_api, new)) {
        (None, Some((key, url))) => out.push(
            Class::Additive,
            SERVERS_AREA,
            format!("`servers::DEFAULT` added: `servers::{key}` (`{url}`)"),
        ),
        (Some((key, url)), None) => out.push(
            Class::Breaking,
            SERVERS_AREA,
            format!(
                "`servers::DEFAULT` removed (was `servers::{key}`, `{url}`): code that uses it \
                 stops compiling; {CONFIGURED}"
            ),
        ),
        (Some((old_key, old_url)), Some((new_key, new_url))) if old_url != new_url => out.push(
            Class::Breaking,
            SERVERS_AREA,
            format!(
                "`servers::DEFAULT`: `servers::{old_key}` (`{old_url}`) → `servers::{new_key}` \
                 (`{new_url}`): code passing `servers::DEFAULT` to `Config::new` now calls \
                 `{new_url}`; {CONFIGURED}"
            ),
        ),
        (Some((old_key, url)), Some((new_key, _))) => out.push(
            Class::DocsOnly,
            SERVERS_AREA,
            format!(
                "`servers::DEFAULT`: `servers::{old_key}` → `servers::{new_key}` (same URL \
                 `{url}`)"
            ),
        ),
        (None, None) => {}
    }
}
