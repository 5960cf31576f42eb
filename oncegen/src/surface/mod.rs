//! The public surface of a generated API: what a user of the generated code sees of every
//! operation and type (method names, argument order and types, builder setters and sending
//! methods, the Rust type of every field, parameter, body and response, error bodies, servers
//! and security, pagination and waits), and what calling each operation does (reads or writes,
//! deletes, may be repeated, waits for a receipt). Computed once from the [`ir`](crate::ir)
//! model.
//!
//! It owns the decisions every output of the generator shares: the order of positional
//! arguments (`call_order`), the conversions a caller relies on (`conversions`: `From` impls
//! and `impl Into<…>` arguments), which sending methods and `error_body` a builder has
//! (`builder_methods`), the Rust spelling of a type and of a field's optionality
//! (`rust_type`), deprecation notes (`deprecation`), a server constant's value and a server
//! function's name (`access`), the crate's fixed module names (`modules`). The emitter renders
//! code from them (reading the [`Surface`] the pipeline computed, not deciding again), the
//! change report diffs two [`Surface`]s, and `api.json` next to a generated crate is a
//! [`Surface`] serialized.
//!
//! Every map is a `BTreeMap` and every list is sorted (argument lists are in call order), so the
//! same model always gives the same bytes. Members that are `false`, empty or absent are left
//! out of the JSON; a member this layout does not know makes the file unreadable rather than
//! half read.

pub(crate) mod access;
pub(crate) mod body_members;
pub(crate) mod builder_methods;
pub(crate) mod call_order;
pub(crate) mod command_line;
mod conversions;
pub(crate) mod credentials;
pub(crate) mod deprecation;
pub(crate) mod modules;
mod operation;
pub(crate) mod rust_type;
mod types;

/// The model's enums the surface records as they are.
pub use crate::ir::{Idempotency, Method, PageModel, ParamLocation};
pub use access::{CredentialKind, SchemeSurface, ServerSurface, VariableSurface};
pub use command_line::{RESERVED_COMMANDS, RESERVED_FLAGS};
pub use credentials::RESERVED_VARIABLES;
pub use operation::{
    BodySurface, Effects, ErrorBodySurface, OperationSurface, PaginationSurface, ParamSurface,
    Purchase, ResponseHeadersSurface,
};
pub use types::{ConstraintsSurface, FieldSurface, FixedTagSurface, Shape, TypeSurface};

use crate::ir::Api;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Version of the surface's serialized layout; a baseline of a number outside
/// [`FORMAT_READ`]`..=FORMAT` is not compared.
///
/// 2: argument order of client methods and constructors, wire facts (constraints, pagination
/// fields), deprecation notes, exact Rust types.
/// 3: each builder's other sending methods and its `error_body`.
/// 4: the security schemes (`security_schemes`), the servers (`servers`, `default_server`),
/// each operation's security requirements (`security`) and its own server (`server`).
/// 5: the areas (`areas`); each operation's builder type (`builder`), what calling it does
/// (`effects`: writes, destructive, idempotent, long-running, waits) and the account
/// permissions it names (`permissions`); each parameter's documentation (`doc`); each
/// optional field's setter of a request type (`setter`). Read as absent from an older file of
/// this format: each operation's `arguments_struct` (required parameters passed by name) and
/// each request struct's `constructor_struct` (`new`'s required fields passed by name), and
/// each operation's `success_status` and `accept` (what the report compares only when the
/// baseline records them), each body's `example` (help text only: never compared), and each
/// security scheme's `signed`.
/// 6: the conversions a caller relies on: the types each union or choice enum converts from
/// (`converts_from`) and each parameter, body and field taken as `impl Into<…>` (`into`).
/// A file of format 5 is still read, these absent: the report then compares neither
/// ([`FORMAT_READ`]).
pub const FORMAT: u32 = 6;

/// The oldest layout a baseline may have to be compared: members added since are read as
/// absent, and the report does not compare what the baseline does not record.
pub const FORMAT_READ: u32 = 5;

/// File name of the serialized surface, in the generated crate's directory.
pub const FILE_NAME: &str = "api.json";

/// The generated API as a Rust caller sees it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Surface {
    /// Layout version ([`FORMAT`]).
    pub format: u32,
    /// `info.version` of the spec.
    pub contract_revision: String,
    /// Cargo package name of the generated crate.
    pub crate_name: String,
    /// Cargo package version of the generated crate.
    pub crate_version: String,
    /// Areas by module name (each a module and a cargo feature of the crate).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub areas: BTreeMap<String, AreaSurface>,
    /// Operations by `operationId`.
    pub operations: BTreeMap<String, OperationSurface>,
    /// Named types by Rust name (choice enums of `x-at-most-one-of` groups included).
    pub types: BTreeMap<String, TypeSurface>,
    /// Error codes (`x-error-codes`), each with the `operationId status` pairs returning it.
    pub error_codes: BTreeMap<String, Vec<String>>,
    /// Security schemes the crate can send, by `static` name (`security_schemes::…`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub security_schemes: BTreeMap<String, SchemeSurface>,
    /// Servers by constant name (`servers::…`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub servers: BTreeMap<String, ServerSurface>,
    /// The server `servers::DEFAULT` names (the document's first).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default_server: Option<String>,
    /// The client has `check_contract` (the document marks a version read,
    /// `x-contract-version`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub checks_contract: bool,
}

/// An area of the API: the tag its operations share.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AreaSurface {
    /// The tag as the document writes it.
    pub tag: String,
    /// The tag's description.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub doc: Option<String>,
}

impl Surface {
    /// The surface of `api`, generated as crate `crate_name` version `crate_version`.
    pub fn of(api: &Api, crate_name: &str, crate_version: &str) -> Self {
        let conversions = conversions::Conversions::of(api);
        let mut types = BTreeMap::new();
        for def in &api.types {
            types::describe(def, &conversions, &mut types);
        }
        let mut error_codes: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for op in &api.operations {
            for response in &op.responses {
                for code in &response.error_codes {
                    let returned_by = format!("{} {}", op.operation_id, response.status);
                    error_codes
                        .entry(code.clone())
                        .or_default()
                        .push(returned_by);
                }
            }
        }
        for returned_by in error_codes.values_mut() {
            returned_by.sort();
            returned_by.dedup();
        }
        Surface {
            format: FORMAT,
            contract_revision: api.version.clone(),
            crate_name: crate_name.to_owned(),
            crate_version: crate_version.to_owned(),
            checks_contract: api
                .conventions
                .contract_version
                .as_deref()
                .is_some_and(|id| api.operations.iter().any(|op| op.operation_id == id)),
            areas: api
                .areas
                .iter()
                .map(|a| {
                    let area = AreaSurface {
                        tag: a.tag.clone(),
                        doc: a.doc.clone(),
                    };
                    (a.module.clone(), area)
                })
                .collect(),
            operations: api
                .operations
                .iter()
                .map(|op| {
                    (
                        op.operation_id.clone(),
                        operation::describe(op, &conversions),
                    )
                })
                .collect(),
            types,
            error_codes,
            security_schemes: access::schemes(&api.security_schemes),
            servers: access::servers(&api.servers),
            default_server: api.servers.first().map(|s| s.rust_name.clone()),
        }
    }

    /// The JSON text written to [`FILE_NAME`] (pretty, newline-terminated).
    pub fn to_json(&self) -> String {
        let mut text = serde_json::to_string_pretty(self).expect("a surface serializes");
        text.push('\n');
        text
    }
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// A JSON value that may be `null` read as given: `"default": null` is `Some(Null)`, an absent
/// member `None` (serde's `Option` would read both as `None`, so `api.json` would lose a
/// document's `default: null`).
fn present<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<serde_json::Value>, D::Error> {
    serde_json::Value::deserialize(d).map(Some)
}
