//! How an operation is called from a command line: `<bin> <area> <operation>`, its path
//! parameters as positional arguments in call order, the others as `--flags` (a required one
//! a required flag).
//!
//! Names are decided here, once, so every command-line output and a later change report
//! agree: an area's command is its module name in kebab case (`tcp-proxy`), `-api` after it
//! where that is a command the tool has of its own ([`area_command`]); an operation's is
//! its `operationId` in kebab case, without the area's name when the id starts with it
//! (`dnsTemplateCreate` in `dns` is `template-create`; `getDnsZone` stays `get-dns-zone`),
//! unless that leaves nothing or two operations of the area with one name; an operationId that
//! reads like its URL (`postVpsByServiceIdReboot`) is named from its path instead ([`readable`]:
//! `reboot`), its former name kept as a hidden alias ([`former_commands`]). A flag is the
//! parameter's wire name in kebab case (`include_revoked` is `--include-revoked`); parameters
//! of one operation whose flags would be the same keep their wire names as written, and one
//! whose flag the tool has of its own ([`RESERVED_FLAGS`]) gets its location in front.

use super::{OperationSurface, Surface};
use crate::ir::ParamLocation;
use heck::ToKebabCase;
use std::collections::BTreeMap;

/// The commands every generated tool has of its own besides the areas
/// (`oncegen_cli::OWN_COMMANDS`, held equal by `sdk-tests/tests/architecture.rs`).
pub const RESERVED_COMMANDS: [&str; 6] = [
    "completions",
    "configure",
    "doctor",
    "help",
    "man",
    "writes",
];

/// The command of area module `area` of `surface`: the module in kebab case; where that is
/// one of the tool's own commands ([`RESERVED_COMMANDS`]), `-api` after it, again while that is
/// another area's command (tag `Completions` is `completions-api`).
pub fn area_command(surface: &Surface, area: &str) -> String {
    let mut name = area.to_kebab_case();
    if RESERVED_COMMANDS.contains(&name.as_str()) {
        let taken = |name: &str| {
            RESERVED_COMMANDS.contains(&name)
                || surface
                    .areas
                    .keys()
                    .any(|other| other != area && other.to_kebab_case() == name)
        };
        while taken(&name) {
            name.push_str("-api");
        }
    }
    name
}

/// The command of every operation, by `operationId`, inside its area's command.
pub fn operation_commands(surface: &Surface) -> BTreeMap<String, String> {
    names(surface, true)
}

/// The name each operation's command had before operationIds that read like URLs were named
/// from their paths ([`readable`]), where it differs and no command of the area has it now:
/// a hidden alias, so scripts written against it keep working.
pub fn former_commands(surface: &Surface) -> BTreeMap<String, String> {
    let (now, before) = (names(surface, true), names(surface, false));
    let taken = |area: &str, name: &str| {
        now.iter()
            .any(|(id, n)| n == name && surface.operations[id].area == area)
    };
    before
        .into_iter()
        .filter(|(id, old)| *old != now[id] && !taken(&surface.operations[id].area, old))
        .collect()
}

/// Each operation's command: [`readable`] where its operationId reads like a URL, else the
/// operationId without the area's words ([`stripped`]). Names two operations of an area
/// would share are told apart: readable ones by their method in front (`get-dnssec`,
/// `post-dnssec`); what still collides, or is empty, is the whole operationId in kebab case.
fn names(surface: &Surface, from_paths: bool) -> BTreeMap<String, String> {
    let mut by_area: BTreeMap<&str, Vec<(&str, String, bool)>> = BTreeMap::new();
    for (id, op) in &surface.operations {
        let from_path = readable(id, op).filter(|_| from_paths);
        let is_readable = from_path.is_some();
        let name = from_path.unwrap_or_else(|| stripped(&op.area, id));
        by_area
            .entry(op.area.as_str())
            .or_default()
            .push((id.as_str(), name, is_readable));
    }
    let mut out = BTreeMap::new();
    for ops in by_area.values_mut() {
        let shared = |ops: &[(&str, String, bool)], name: &str| {
            name.is_empty() || ops.iter().filter(|(_, other, _)| other == name).count() > 1
        };
        let first: Vec<bool> = ops.iter().map(|(_, name, _)| shared(ops, name)).collect();
        for ((id, name, is_readable), clash) in ops.iter_mut().zip(first) {
            if clash && *is_readable {
                let method = surface.operations[*id].method.key();
                *name = format!("{method}-{name}");
            }
        }
        for (id, name, _) in ops.iter() {
            let name = if shared(ops, name) {
                id.to_kebab_case()
            } else {
                name.clone()
            };
            out.insert((*id).to_owned(), name);
        }
    }
    out
}

/// The command of an operation whose operationId reads like its URL, named from its path; `None`
/// for any other. An operationId reads like a URL when it holds `/` or `{`, or is what
/// `openapi_conventions::operation_id::derive` makes of the method and a path with a parameter
/// (a number after it allowed): `postVpsByServiceIdReboot`. The name is then
/// - after the last parameter, the literal segments there, a verb in front for `PUT` (`set`),
///   `PATCH` (`update`) and `DELETE` (`delete`): `POST /vps/{serviceId}/reboot` is `reboot`,
///   `GET /dedicated/{serviceId}/rescue-options` is `rescue-options`;
/// - a path ending in the parameter `id` or `<item>Id` after the segment `<item>s`: the verb of
///   the method and the item, `PATCH /webhooks/{id}` is `update-webhook`,
///   `GET /operations/{operationId}` is `get-operation`;
/// - `None` otherwise (`getProductsByRegion` reads as a phrase: `get-products-by-region`).
pub fn readable(operation_id: &str, op: &OperationSurface) -> Option<String> {
    let method = op.method.key();
    let derived = openapi_conventions::operation_id::derive(method, &op.path);
    let like_url = operation_id.contains(['/', '{'])
        || operation_id
            .strip_prefix(derived.as_str())
            .is_some_and(|rest| rest.bytes().all(|b| b.is_ascii_digit()));
    let segments: Vec<&str> = op.path.split('/').filter(|s| !s.is_empty()).collect();
    let last_param = segments.iter().rposition(|s| s.starts_with('{'))?;
    if !like_url {
        return None;
    }
    let verb = match method {
        "get" => "get",
        "put" => "set",
        "patch" => "update",
        "delete" => "delete",
        other => other,
    };
    let after = &segments[last_param + 1..];
    if !after.is_empty() {
        let words = after.join("-").to_kebab_case();
        return Some(match method {
            "get" | "post" => words,
            _ => format!("{verb}-{words}"),
        });
    }
    let param = segments[last_param]
        .trim_matches(['{', '}'])
        .to_kebab_case();
    let item = segments
        .get(last_param.checked_sub(1)?)?
        .strip_suffix('s')?
        .to_kebab_case();
    (param == "id" || param == format!("{item}-id")).then(|| format!("{verb}-{item}"))
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

#[cfg(test)]
mod readable_tests {
    use super::{former_commands, operation_commands};
    use crate::surface::Surface;

    #[test]
    fn operation_ids_that_read_like_urls_are_named_from_their_paths() {
        let text = r#"
openapi: 3.1.0
info: {title: t, version: '1'}
tags: [{name: vps}]
paths:
  /v1/vps/{serviceId}/reboot:
    parameters: [{name: serviceId, in: path, required: true, schema: {type: string}}]
    post: {operationId: postVpsByServiceIdReboot, tags: [vps], responses: {'204': {description: ok}}}
  /v1/vps/{serviceId}/dnssec:
    parameters: [{name: serviceId, in: path, required: true, schema: {type: string}}]
    get: {tags: [vps], responses: {'204': {description: ok}}}
    post: {tags: [vps], responses: {'204': {description: ok}}}
  /v1/vps/{serviceId}/rescue-options:
    parameters: [{name: serviceId, in: path, required: true, schema: {type: string}}]
    get: {operationId: getVpsByServiceIdRescueOptions, tags: [vps], responses: {'204': {description: ok}}}
  /v1/webhooks/{id}:
    parameters: [{name: id, in: path, required: true, schema: {type: string}}]
    patch: {operationId: patchWebhooksById, tags: [vps], responses: {'204': {description: ok}}}
  /v1/products/{region}:
    parameters: [{name: region, in: path, required: true, schema: {type: string}}]
    get: {operationId: getProductsByRegion, tags: [vps], responses: {'204': {description: ok}}}
  /v1/vps/{serviceId}/backup/run:
    parameters: [{name: serviceId, in: path, required: true, schema: {type: string}}]
    post: {operationId: vpsBackupRun, tags: [vps], responses: {'204': {description: ok}}}
"#;
        let api = crate::model_str(text, "readable.yaml").expect("the document lowers");
        let surface = Surface::of(&api, "t", "0.1.0");
        let names = operation_commands(&surface);
        let name = |id: &str| {
            names
                .get(id)
                .unwrap_or_else(|| panic!("{id} in {names:?}"))
                .as_str()
        };
        assert_eq!(name("postVpsByServiceIdReboot"), "reboot");
        assert_eq!(name("getVpsByServiceIdDnssec"), "get-dnssec");
        assert_eq!(name("postVpsByServiceIdDnssec"), "post-dnssec");
        assert_eq!(name("getVpsByServiceIdRescueOptions"), "rescue-options");
        assert_eq!(name("patchWebhooksById"), "update-webhook");
        assert_eq!(name("getProductsByRegion"), "get-products-by-region");
        assert_eq!(name("vpsBackupRun"), "backup-run");
        let former = former_commands(&surface);
        assert_eq!(
            former["postVpsByServiceIdReboot"],
            "post-vps-by-service-id-reboot"
        );
        assert!(!former.contains_key("vpsBackupRun"));
    }
}

#[cfg(test)]
mod area_tests {
    use super::area_command;
    use crate::surface::Surface;

    #[test]
    fn an_area_named_like_a_command_of_the_tools_own_gets_api_after_it() {
        let text = r#"
openapi: 3.1.0
info: {title: t, version: '1'}
tags: [{name: Completions}, {name: completions-api}, {name: writes}, {name: tcp-proxy}]
paths:
  /a: {get: {operationId: a, tags: [Completions], responses: {'204': {description: ok}}}}
  /b: {get: {operationId: b, tags: [completions-api], responses: {'204': {description: ok}}}}
  /c: {get: {operationId: c, tags: [writes], responses: {'204': {description: ok}}}}
  /d: {get: {operationId: d, tags: [tcp-proxy], responses: {'204': {description: ok}}}}
"#;
        let api = crate::model_str(text, "areas.yaml").expect("the document lowers");
        let surface = Surface::of(&api, "t", "0.1.0");
        let commands: Vec<(String, String)> = surface
            .areas
            .iter()
            .map(|(module, area)| (area.tag.clone(), area_command(&surface, module)))
            .collect();
        let expected = [
            ("Completions", "completions-api-api"),
            ("completions-api", "completions-api"),
            ("tcp-proxy", "tcp-proxy"),
            ("writes", "writes-api"),
        ];
        assert_eq!(
            commands,
            expected.map(|(tag, command)| (tag.to_owned(), command.to_owned()))
        );
    }
}
