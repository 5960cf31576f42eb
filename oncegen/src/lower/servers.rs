//! The document's `servers`: URLs with their variables, each named for a constant.

use crate::ir::{ServerDef, ServerVariable};
use crate::naming::{self, Namespace};
use crate::read::Node;

/// The document's top-level servers, in document order. A server is named after its
/// description when that is short (`Production` → `PRODUCTION`), else after its URL's host, else
/// `SERVER_<n>`; the first is also what `DEFAULT` names.
pub(super) fn servers(root: &Node<'_>) -> Vec<ServerDef> {
    let Some(list) = root.get("servers") else {
        return Vec::new();
    };
    let mut names = Namespace::with_reserved(&["DEFAULT", "ALL"]);
    let mut out = Vec::new();
    for (i, server) in list.items().into_iter().enumerate() {
        let Some(url) = server.str("url").map(str::trim).filter(|u| !u.is_empty()) else {
            continue;
        };
        let description = server
            .str("description")
            .map(str::trim)
            .filter(|d| !d.is_empty())
            .map(str::to_owned);
        let mut variables = Vec::new();
        let mut arg_names = Namespace::default();
        for (name, var) in server
            .get("variables")
            .map(|v| v.entries())
            .unwrap_or_default()
        {
            let Some(default) = var.value.get("default").and_then(value_text) else {
                continue;
            };
            variables.push(ServerVariable {
                name: name.to_owned(),
                rust_name: arg_names.claim(naming::snake(name)),
                default,
                values: var
                    .value
                    .get("enum")
                    .and_then(serde_json::Value::as_array)
                    .map(|v| v.iter().filter_map(value_text).collect())
                    .unwrap_or_default(),
                doc: var.str("description").map(str::to_owned),
            });
        }
        let base = description
            .as_deref()
            .filter(|d| d.split_whitespace().count() <= 4)
            .map(str::to_owned)
            .or_else(|| host(url))
            .unwrap_or_else(|| format!("server {}", i + 1));
        let mut rust_name = naming::snake(&base).to_ascii_uppercase();
        if rust_name.starts_with("N_") {
            rust_name = format!("SERVER_{}", &rust_name[2..]);
        }
        out.push(ServerDef {
            url: url.to_owned(),
            rust_name: names.claim(rust_name),
            description,
            variables,
        });
    }
    out
}

/// The server of an operation that has its own (`servers` on the operation, else on its path
/// item): its first URL with the variables at their defaults, unless that is where the
/// document's first server already sends it. A path (`/uploads`) is kept: the runtime puts it
/// on the base URL's host. `None` for another relative URL (relative to where the document was
/// served, which the generator does not know; the client's base URL stands in) and for one
/// that keeps a variable without a default.
pub(super) fn own_server(op: &Node<'_>, item: &Node<'_>, document: &[ServerDef]) -> Option<String> {
    let list = op.get("servers").or_else(|| item.get("servers"))?;
    let first = list.items().into_iter().next()?;
    let url = first.str("url").map(str::trim)?;
    let mut filled = url.to_owned();
    for (name, var) in first
        .get("variables")
        .map(|v| v.entries())
        .unwrap_or_default()
    {
        if let Some(default) = var.value.get("default").and_then(value_text) {
            filled = filled.replace(&format!("{{{name}}}"), &default);
        }
    }
    let default = document.first().map(|server| {
        let mut url = server.url.clone();
        for v in &server.variables {
            url = url.replace(&format!("{{{}}}", v.name), &v.default);
        }
        url
    });
    let same = |a: &str, b: &str| a.trim_end_matches('/') == b.trim_end_matches('/');
    let usable = (filled.contains("://") || filled.starts_with('/')) && !filled.contains('{');
    (usable && !default.is_some_and(|d| same(&d, &filled))).then_some(filled)
}

/// A variable's value as text (the spec says strings; numbers are seen too).
fn value_text(v: &serde_json::Value) -> Option<String> {
    match v {
        serde_json::Value::String(s) => Some(s.clone()),
        serde_json::Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// The host of an absolute URL, without variables (`api.example.com`).
fn host(url: &str) -> Option<String> {
    let rest = url.split_once("://")?.1;
    let host = rest.split(['/', ':', '?']).next()?;
    (!host.is_empty() && !host.contains('{')).then(|| host.to_owned())
}
