//! How an operation is called from a command line: `<bin> <area> <operation>`, its path
//! parameters as positional arguments in call order, the others as `--flags` (a required one
//! a required flag).
//!
//! Names are decided here, once, so every command-line output and a later change report
//! agree: an area's command is its module name in kebab case (`tcp-proxy`); an operation's is
//! its `operationId` in kebab case, without the area's name when the id starts with it
//! (`dnsTemplateCreate` in `dns` is `template-create`; `getDnsZone` stays `get-dns-zone`),
//! unless that leaves nothing or two operations of the area with one name. A flag is the
//! parameter's wire name in kebab case (`include_revoked` is `--include-revoked`); parameters
//! of one operation whose flags would be the same keep their wire names as written, and one
//! whose flag the tool has of its own ([`RESERVED_FLAGS`]) gets its location in front.

use super::{OperationSurface, Surface};
use crate::ir::ParamLocation;
use heck::ToKebabCase;
use std::collections::BTreeMap;

/// The command of area module `area`.
pub fn area_command(area: &str) -> String {
    area.to_kebab_case()
}

/// The command of every operation, by `operationId`, inside its area's command.
pub fn operation_commands(surface: &Surface) -> BTreeMap<String, String> {
    let mut by_area: BTreeMap<&str, Vec<(&str, String)>> = BTreeMap::new();
    for (id, op) in &surface.operations {
        by_area
            .entry(op.area.as_str())
            .or_default()
            .push((id.as_str(), stripped(&op.area, id)));
    }
    let mut out = BTreeMap::new();
    for ops in by_area.values() {
        for (id, name) in ops {
            let shared = ops.iter().filter(|(_, other)| other == name).count() > 1;
            let name = if shared || name.is_empty() {
                id.to_kebab_case()
            } else {
                name.clone()
            };
            out.insert((*id).to_owned(), name);
        }
    }
    out
}

/// `operation_id` in kebab case without the area's words in front.
fn stripped(area: &str, operation_id: &str) -> String {
    let full = operation_id.to_kebab_case();
    let prefix = format!("{}-", area.to_kebab_case());
    full.strip_prefix(&prefix).unwrap_or(&full).to_owned()
}

/// The flags every generated tool has of its own (`oncegen_cli::OWN_FLAGS`, held equal by
/// `sdk-tests/tests/architecture.rs`: the global flags, `--json`
/// and clap's): a parameter whose flag would be one of them gets its location in front
/// (`idempotency_key` in the query is `--query-idempotency-key`).
pub const RESERVED_FLAGS: [&str; 20] = [
    "accept-any-amount",
    "all",
    "base-url",
    "jq",
    "new-write",
    "profile",
    "timeout",
    "read-timeout",
    "total-timeout",
    "wait",
    "yes",
    "max-total",
    "dry-run",
    "output",
    "journal",
    "idempotency-key",
    "json",
    "allow-unknown-members",
    "help",
    "version",
];

/// The flag (without `--`) of each parameter of `op` that is not positional, by Rust name.
pub fn flags(op: &OperationSurface) -> BTreeMap<String, String> {
    let named: Vec<(&String, String)> = op
        .params
        .iter()
        .filter(|(rust, _)| !is_positional(op, rust))
        .map(|(rust, p)| {
            let flag = p.name.to_kebab_case();
            if RESERVED_FLAGS.contains(&flag.as_str()) {
                (
                    rust,
                    format!("{}-{flag}", p.location.as_str().to_kebab_case()),
                )
            } else {
                (rust, flag)
            }
        })
        .collect();
    named
        .iter()
        .map(|(rust, flag)| {
            let shared = named.iter().filter(|(_, other)| other == flag).count() > 1;
            let flag = if shared {
                op.params[*rust].name.clone()
            } else {
                flag.clone()
            };
            ((*rust).clone(), flag)
        })
        .collect()
}

/// A paginated operation's command takes `--all`.
pub fn pages(op: &OperationSurface) -> bool {
    op.pagination.is_some()
}

/// A long-running write's or a pollable read's command takes `--wait` (and `--timeout`).
pub fn waits(op: &OperationSurface) -> bool {
    op.effects.long_running || op.effects.waits
}

/// The flags of the tool's own that `op`'s command takes because of what the operation is,
/// each with whether it is required: `--json` for a body, `--all` ([`pages`]), `--wait` and
/// `--timeout` ([`waits`]), `--max-total` for a purchase (required with a ceiling member,
/// else with `--accept-any-amount`) (what
/// `oncegen_cli::Command` adds for its `body`, `pages`, `waits` and `purchase`).
pub fn own_flags(op: &OperationSurface) -> BTreeMap<&'static str, bool> {
    let mut out = BTreeMap::new();
    if let Some(body) = &op.body {
        out.insert("json", body.required);
    }
    if pages(op) {
        out.insert("all", false);
    }
    if waits(op) {
        out.insert("wait", false);
        out.insert("timeout", false);
    }
    if let Some(purchase) = &op.effects.purchase {
        // Without a ceiling member the amount cannot be bounded: `--max-total` only refuses,
        // `--accept-any-amount` is the acknowledgement.
        let unbounded = purchase.ceiling.is_empty();
        out.insert("max-total", !unbounded);
        if unbounded {
            out.insert("accept-any-amount", false);
        }
    }
    out
}

/// The positional arguments of `op` by Rust name: its path parameters, in call order.
pub fn positionals(op: &OperationSurface) -> Vec<&str> {
    op.arguments
        .iter()
        .filter(|a| is_positional(op, a))
        .map(String::as_str)
        .collect()
}

fn is_positional(op: &OperationSurface, rust: &str) -> bool {
    op.arguments.iter().any(|a| a == rust)
        && op
            .params
            .get(rust)
            .is_some_and(|p| p.location == ParamLocation::Path)
}

#[cfg(test)]
mod tests {
    use super::stripped;

    #[test]
    fn the_area_is_stripped_only_where_the_id_repeats_it() {
        assert_eq!(stripped("dns", "dnsTemplateCreate"), "template-create");
        assert_eq!(stripped("dns", "getDnsZone"), "get-dns-zone");
        assert_eq!(stripped("tcp_proxy", "tcpProxyUpdate"), "update");
        assert_eq!(stripped("vps", "vpsx"), "vpsx");
    }
}

#[cfg(test)]
mod flag_tests {
    use super::{flags, operation_commands, positionals};
    use crate::surface::Surface;

    #[test]
    fn flags_are_kebab_wire_names_unless_two_collide_or_the_tool_owns_one() {
        let text = r#"
openapi: 3.1.0
info: {title: t, version: '1'}
tags: [{name: things}]
paths:
  /things/{thingId}:
    get:
      operationId: thingsRead
      tags: [things]
      parameters:
        - {name: thingId, in: path, required: true, schema: {type: string}}
        - {name: page_size, in: query, schema: {type: integer}}
        - {name: pageSize, in: query, schema: {type: integer}}
        - {name: include_all, in: query, schema: {type: boolean}}
        - {name: output, in: query, schema: {type: string}}
      responses: {'204': {description: ok}}
"#;
        let api = crate::model_str(text, "flags.yaml").expect("the document lowers");
        let surface = Surface::of(&api, "t", "0.1.0");
        let op = &surface.operations["thingsRead"];
        let by_wire: Vec<(String, String)> = flags(op)
            .into_iter()
            .map(|(rust, flag)| (op.params[&rust].name.clone(), flag))
            .collect();
        let mut by_wire = by_wire;
        by_wire.sort();
        let expected = [
            ("include_all", "include-all"),
            ("output", "query-output"),
            ("pageSize", "pageSize"),
            ("page_size", "page_size"),
        ];
        assert_eq!(by_wire, expected.map(|(w, f)| (w.to_owned(), f.to_owned())));
        assert_eq!(positionals(op), ["thing_id"]);
        assert_eq!(operation_commands(&surface)["thingsRead"], "read");
    }
}
