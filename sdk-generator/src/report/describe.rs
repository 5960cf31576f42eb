//! The machine-readable description of a generated API (`api.json` next to the crate): what a
//! Rust caller of the SDK sees, built from the [`ir`] model.
//!
//! Every map is a `BTreeMap` and every list is sorted (argument lists are in call order), so the
//! same model always gives the same bytes. Members that are `false`, empty or absent are left
//! out of the JSON; a member this layout does not know makes the file unreadable rather than
//! half read.

use super::access::{self, SchemeDescription, ServerDescription};
use crate::emit::builder_methods::{self, ErrorBody};
use crate::emit::{call_order, docs::deprecation_note};
use crate::ir::{self, Api, Constraints, Field, Success, TypeKind, TypeRef};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

/// Version of the description's layout; a baseline with another number is not compared.
///
/// 2: argument order of client methods and constructors, wire facts (constraints, pagination
/// fields), deprecation notes, exact Rust types.
/// 3: each builder's other sending methods and its `error_body`.
/// 4: the security schemes (`security_schemes`), the servers (`servers`, `default_server`),
/// each operation's security requirements (`security`) and its own server (`server`).
pub const FORMAT: u32 = 4;

/// File name of the description, in the generated crate's directory.
pub const FILE_NAME: &str = "api.json";

/// The generated API as a Rust caller sees it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ApiDescription {
    /// Layout version ([`FORMAT`]).
    pub format: u32,
    /// `info.version` of the spec.
    pub contract_revision: String,
    /// Cargo package name of the generated crate.
    pub crate_name: String,
    /// Cargo package version of the generated crate.
    pub crate_version: String,
    /// Operations by `operationId`.
    pub operations: BTreeMap<String, OperationDescription>,
    /// Named types by Rust name (choice enums of `x-at-most-one-of` groups included).
    pub types: BTreeMap<String, TypeDescription>,
    /// Error codes (`x-error-codes`), each with the `operationId status` pairs returning it.
    pub error_codes: BTreeMap<String, Vec<String>>,
    /// Security schemes the crate can send, by `static` name (`security_schemes::…`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub security_schemes: BTreeMap<String, SchemeDescription>,
    /// Servers by constant name (`servers::…`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub servers: BTreeMap<String, ServerDescription>,
    /// The server `servers::DEFAULT` names (the document's first).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default_server: Option<String>,
}

/// One operation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OperationDescription {
    /// Area module (and cargo feature).
    pub area: String,
    /// HTTP method.
    pub method: String,
    /// Path template.
    pub path: String,
    /// The operation's own server (`servers` on it or its path), when it is not the base URL.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server: Option<String>,
    /// Client method name.
    pub rust_fn: String,
    /// Marked deprecated.
    #[serde(default, skip_serializing_if = "is_false")]
    pub deprecated: bool,
    /// What the spec says to do instead, when deprecated ([`deprecation_note`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deprecation_note: Option<String>,
    /// Scopes of the security requirements.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub scopes: Vec<String>,
    /// The security requirements the operation sends, in the order the runtime tries them
    /// (the first whose schemes all have a credential is sent): each the `static` names of
    /// the schemes sent together, sorted (`[]`: no credential). Absent when the document
    /// states none: the client's own credentials go as they always do.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub security: Option<Vec<Vec<String>>>,
    /// Idempotency-Key requirement (`none`, `required`, `optional`, `not-shown`).
    pub idempotency: String,
    /// How a paginated listing continues, if paginated.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pagination: Option<PaginationDescription>,
    /// Accepts the operation envelope (`operation_format` setter).
    #[serde(default, skip_serializing_if = "is_false")]
    pub operation_envelope: bool,
    /// The client method's positional arguments after `&self`, in call order: the Rust names
    /// of the required parameters, then `body` when the body is required.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub arguments: Vec<String>,
    /// Parameters by Rust name.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub params: BTreeMap<String, ParamDescription>,
    /// Request body.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub body: Option<BodyDescription>,
    /// Success type, as emitted (`serde_json::Value` when the response has no schema).
    pub success: String,
    /// The builder's other sending methods (`send_text`, `send_bytes`, `send_json`,
    /// `download`) → the type they resolve to.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub send_variants: BTreeMap<String, String>,
    /// The builder's `error_body`, when an error response has a type.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error_body: Option<ErrorBodyDescription>,
    /// Error responses: status → error codes.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub errors: BTreeMap<String, Vec<String>>,
    /// Summary line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summary: Option<String>,
    /// Longer description.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
}

/// What a builder's `error_body` returns (inside its `Option`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ErrorBodyDescription {
    /// The one error body type, or the `{Builder}Error` enum's name.
    #[serde(rename = "type")]
    pub ty: String,
    /// For the enum: status → the payload type of its variant (`Status404`, `Status4xx`,
    /// `StatusDefault`). The enum is exhaustive, so a variant added or removed is breaking.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub variants: BTreeMap<String, String>,
}

/// One parameter.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ParamDescription {
    /// Wire name.
    pub name: String,
    /// `path`, `query` or `header`.
    pub location: String,
    /// A client-method argument (required) or a builder setter (optional).
    #[serde(default, skip_serializing_if = "is_false")]
    pub required: bool,
    /// The Rust type of the value the argument or setter takes.
    #[serde(rename = "type")]
    pub ty: String,
    /// Marked deprecated.
    #[serde(default, skip_serializing_if = "is_false")]
    pub deprecated: bool,
    /// What the spec says to do instead, when deprecated.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deprecation_note: Option<String>,
    /// Validation constraints the server applies.
    #[serde(default, skip_serializing_if = "ConstraintsDescription::is_empty")]
    pub constraints: ConstraintsDescription,
}

/// How a paginated listing continues: the model and the Rust names of the fields involved.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PaginationDescription {
    /// `page`, `cursor` or `offset`.
    pub model: String,
    /// The request parameter that asks for the next page (Rust name).
    pub request: String,
    /// The response field holding the items.
    pub items: String,
    /// The response field telling how to continue.
    pub next: String,
}

/// Validation constraints kept from a schema (the server's side of a request value), under
/// their OpenAPI names.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[allow(missing_docs)]
pub struct ConstraintsDescription {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub format: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub minimum: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub maximum: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exclusive_minimum: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exclusive_maximum: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub multiple_of: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_length: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_length: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pattern: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_items: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_items: Option<u64>,
    #[serde(default, skip_serializing_if = "is_false")]
    pub unique_items: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default: Option<Value>,
}

impl ConstraintsDescription {
    /// No constraint is set.
    pub fn is_empty(&self) -> bool {
        *self == ConstraintsDescription::default()
    }
}

impl From<&Constraints> for ConstraintsDescription {
    fn from(c: &Constraints) -> Self {
        ConstraintsDescription {
            format: c.format.clone(),
            minimum: c.minimum.clone(),
            maximum: c.maximum.clone(),
            exclusive_minimum: c.exclusive_minimum.clone(),
            exclusive_maximum: c.exclusive_maximum.clone(),
            multiple_of: c.multiple_of.clone(),
            min_length: c.min_length,
            max_length: c.max_length,
            pattern: c.pattern.clone(),
            min_items: c.min_items,
            max_items: c.max_items,
            unique_items: c.unique_items,
            default: c.default.clone(),
        }
    }
}

/// A request body.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BodyDescription {
    /// A client-method argument (required) or a builder setter (optional).
    #[serde(default, skip_serializing_if = "is_false")]
    pub required: bool,
    /// Media type.
    pub media_type: String,
    /// The Rust type of the body.
    #[serde(rename = "type")]
    pub ty: String,
}

/// One named type.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TypeDescription {
    /// Module the type lives in (an area, or `types`).
    pub module: String,
    /// Reachable from a request: structs get `new(required fields)` and setters.
    #[serde(default, skip_serializing_if = "is_false")]
    pub request: bool,
    /// Marked deprecated.
    #[serde(default, skip_serializing_if = "is_false")]
    pub deprecated: bool,
    /// What the spec says to do instead, when deprecated.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deprecation_note: Option<String>,
    /// Documentation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub doc: Option<String>,
    /// The shape.
    pub shape: Shape,
}

/// Shapes of named types.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Shape {
    /// A `#[non_exhaustive]` struct.
    Struct {
        /// Fields by Rust name (a choice group is one optional field of its choice enum).
        fields: BTreeMap<String, FieldDescription>,
        /// The arguments of `new` in call order (Rust field names), for a request type.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        constructor: Vec<String>,
        /// Value type of the catch-all map of an open object.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        additional: Option<String>,
        /// The union tag the struct always sends (no Rust field): property and value.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        fixed_tag: Option<FixedTagDescription>,
    },
    /// A string enum with an `Unknown` fallback.
    Enum {
        /// Known wire values, sorted.
        values: Vec<String>,
    },
    /// A `oneOf`/`anyOf` enum.
    Union {
        /// Variant name → payload type.
        variants: BTreeMap<String, String>,
        /// Tagged: unknown tags land in an `Unknown` variant.
        #[serde(default, skip_serializing_if = "is_false")]
        unknown_fallback: bool,
        /// Implements `Display` (usable as a parameter).
        #[serde(default, skip_serializing_if = "is_false")]
        display: bool,
    },
    /// The exhaustive enum of an `x-at-most-one-of` group.
    Choice {
        /// Variant name → payload type.
        variants: BTreeMap<String, String>,
    },
    /// A type alias.
    Alias {
        /// Target type.
        target: String,
    },
}

/// The union tag a struct always sends ([`crate::ir::FixedTag`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FixedTagDescription {
    /// Wire name of the property.
    pub name: String,
    /// Its one value.
    pub value: String,
}

/// One struct field.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FieldDescription {
    /// Wire name.
    pub name: String,
    /// The Rust type of the value, without optionality or box.
    #[serde(rename = "type")]
    pub ty: String,
    /// The field's Rust type as emitted (`T`, `Option<T>`, `Nullable<T>`, boxed where
    /// recursive).
    pub rust_type: String,
    /// Listed in `required`.
    #[serde(default, skip_serializing_if = "is_false")]
    pub required: bool,
    /// May be `null`.
    #[serde(default, skip_serializing_if = "is_false")]
    pub nullable: bool,
    /// Fixed value (`const`): never an argument of `new`.
    #[serde(default, rename = "const", skip_serializing_if = "Option::is_none")]
    pub const_value: Option<String>,
    /// Marked deprecated.
    #[serde(default, skip_serializing_if = "is_false")]
    pub deprecated: bool,
    /// What the spec says to do instead, when deprecated.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deprecation_note: Option<String>,
    /// Validation constraints the server applies.
    #[serde(default, skip_serializing_if = "ConstraintsDescription::is_empty")]
    pub constraints: ConstraintsDescription,
    /// Documentation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub doc: Option<String>,
}

impl FieldDescription {
    /// Whether the field is an argument of `new` when its struct is a request type.
    pub fn is_constructor_argument(&self) -> bool {
        self.required && self.const_value.is_none()
    }

    /// Whether the field's Rust type is the bare `T` (required and not nullable): decoding
    /// fails when a response leaves it out or sends `null`.
    pub fn is_always_present(&self) -> bool {
        self.required && !self.nullable
    }
}

impl ApiDescription {
    /// The description of `api`, generated as crate `crate_name` version `crate_version`.
    pub fn of(api: &Api, crate_name: &str, crate_version: &str) -> Self {
        let mut types = BTreeMap::new();
        for def in &api.types {
            describe_type(def, &mut types);
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
        ApiDescription {
            format: FORMAT,
            contract_revision: api.version.clone(),
            crate_name: crate_name.to_owned(),
            crate_version: crate_version.to_owned(),
            operations: api
                .operations
                .iter()
                .map(|op| (op.operation_id.clone(), describe_operation(op)))
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
        let mut text = serde_json::to_string_pretty(self).expect("a description serializes");
        text.push('\n');
        text
    }
}

fn describe_operation(op: &ir::Operation) -> OperationDescription {
    let mut errors: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for response in op.responses.iter().filter(|r| !r.status.starts_with('2')) {
        let mut codes = response.error_codes.clone();
        codes.sort();
        errors.insert(response.status.clone(), codes);
    }
    let success = success_text(&op.success);
    let send_variants = op
        .alternatives
        .iter()
        .map(|a| (a.method.clone(), success_text(&a.success)))
        .chain(
            builder_methods::download_accept(op)
                .map(|_| ("download".to_owned(), "Download".to_owned())),
        )
        .collect();
    let error_body = match builder_methods::error_body(op) {
        ErrorBody::Absent => None,
        ErrorBody::One(ty) => Some(ErrorBodyDescription {
            ty: type_string(ty),
            variants: BTreeMap::new(),
        }),
        ErrorBody::ByStatus(typed) => Some(ErrorBodyDescription {
            ty: builder_methods::error_enum_name(op),
            variants: typed
                .into_iter()
                .map(|(status, ty)| (status.to_owned(), type_string(ty)))
                .collect(),
        }),
    };
    let mut scopes = op.scopes.clone();
    scopes.sort();
    // The emitter's argument order (`emit::call_order`), then a required body.
    let arguments = call_order::method_params(op)
        .into_iter()
        .map(|p| p.rust_name.clone())
        .chain(
            op.body
                .iter()
                .filter(|b| b.required)
                .map(|_| "body".to_owned()),
        )
        .collect();
    OperationDescription {
        area: op.area.clone(),
        method: serde_name(&op.method),
        path: op.path.clone(),
        server: op.server.clone(),
        rust_fn: op.fn_name.clone(),
        deprecated: op.deprecated,
        deprecation_note: deprecation_note(op.deprecated, op.description.as_deref()),
        scopes,
        security: op.security.as_ref().map(|r| requirements(r)),
        idempotency: serde_name(&op.idempotency),
        pagination: op.pagination.as_ref().map(|p| PaginationDescription {
            model: serde_name(&p.model),
            request: p.request_param.clone(),
            items: p.items.rust_name.clone(),
            next: p.next.rust_name.clone(),
        }),
        operation_envelope: op.operation_envelope,
        arguments,
        params: op
            .params
            .iter()
            .map(|p| {
                let param = ParamDescription {
                    name: p.name.clone(),
                    location: serde_name(&p.location),
                    required: p.required,
                    ty: type_string(&p.ty),
                    deprecated: p.deprecated,
                    deprecation_note: deprecation_note(p.deprecated, p.doc.as_deref()),
                    constraints: (&p.constraints).into(),
                };
                (p.rust_name.clone(), param)
            })
            .collect(),
        body: op.body.as_ref().map(|b| BodyDescription {
            required: b.required,
            media_type: b.media_type.clone(),
            ty: type_string(&b.ty),
        }),
        success,
        send_variants,
        error_body,
        errors,
        summary: op.summary.clone(),
        description: op.description.clone(),
    }
}

/// Each requirement's schemes sorted, and a requirement repeated (the same schemes with other
/// scopes) kept once, at its first place: the order the runtime tries them in.
fn requirements(listed: &[Vec<String>]) -> Vec<Vec<String>> {
    let mut out: Vec<Vec<String>> = Vec::new();
    for requirement in listed {
        let mut schemes = requirement.clone();
        schemes.sort();
        schemes.dedup();
        if !out.contains(&schemes) {
            out.push(schemes);
        }
    }
    out
}

fn describe_type(def: &ir::TypeDef, out: &mut BTreeMap<String, TypeDescription>) {
    let described = |shape: Shape| TypeDescription {
        module: def.module.clone(),
        request: def.request,
        deprecated: def.deprecated,
        deprecation_note: deprecation_note(def.deprecated, def.doc.as_deref()),
        doc: def.doc.clone(),
        shape,
    };
    let shape = match &def.kind {
        TypeKind::Struct {
            fields,
            exclusive,
            additional,
            fixed_tag,
        } => {
            let mut described_fields: BTreeMap<String, FieldDescription> = fields
                .iter()
                .map(|f| (f.rust_name.clone(), describe_field(f)))
                .collect();
            for group in exclusive {
                let choice = FieldDescription {
                    name: group.rust_name.clone(),
                    ty: group.type_name.clone(),
                    rust_type: format!("Option<{}>", group.type_name),
                    required: false,
                    nullable: false,
                    const_value: None,
                    deprecated: false,
                    deprecation_note: None,
                    constraints: ConstraintsDescription::default(),
                    doc: None,
                };
                described_fields.insert(group.rust_name.clone(), choice);
                let variants = group
                    .members
                    .iter()
                    .map(|m| (m.variant.clone(), payload(&m.ty, m.boxed)))
                    .collect();
                let choice_type = TypeDescription {
                    doc: None,
                    deprecated: false,
                    deprecation_note: None,
                    ..described(Shape::Choice { variants })
                };
                out.insert(group.type_name.clone(), choice_type);
            }
            // The emitter's `new` (`emit::call_order`).
            let constructor = if def.request {
                call_order::constructor_fields(fields)
                    .into_iter()
                    .map(|f| f.rust_name.clone())
                    .collect()
            } else {
                Vec::new()
            };
            Shape::Struct {
                fields: described_fields,
                constructor,
                additional: additional.as_ref().map(|a| type_string(&a.value_ty)),
                fixed_tag: fixed_tag.as_ref().map(|t| FixedTagDescription {
                    name: t.name.clone(),
                    value: t.value.clone(),
                }),
            }
        }
        TypeKind::Enum { variants, .. } => {
            let mut values: Vec<String> = variants.iter().map(|v| v.value.clone()).collect();
            values.sort();
            Shape::Enum { values }
        }
        TypeKind::Union {
            tag,
            variants,
            display,
        } => Shape::Union {
            variants: variants
                .iter()
                .map(|v| (v.rust_name.clone(), payload(&v.ty, v.boxed)))
                .collect(),
            unknown_fallback: tag.is_some(),
            display: *display,
        },
        TypeKind::Alias { target } => Shape::Alias {
            target: type_string(target),
        },
    };
    out.insert(def.name.clone(), described(shape));
}

/// Mirrors the emitter's field typing (`emit::types::field_ty`): required and not nullable →
/// `T`; required and nullable → `Option<T>`; optional and nullable → `Nullable<T>`; otherwise
/// `Option<T>`.
fn describe_field(f: &Field) -> FieldDescription {
    let inner = payload(&f.ty, f.boxed);
    let rust_type = match (f.required, f.nullable) {
        (true, false) => inner,
        (false, true) => format!("Nullable<{inner}>"),
        _ => format!("Option<{inner}>"),
    };
    FieldDescription {
        name: f.name.clone(),
        ty: type_string(&f.ty),
        rust_type,
        required: f.required,
        nullable: f.nullable,
        const_value: f.const_value.clone(),
        deprecated: f.deprecated,
        deprecation_note: deprecation_note(f.deprecated, f.doc.as_deref()),
        constraints: (&f.constraints).into(),
        doc: f.doc.clone(),
    }
}

/// The type a sending method resolves to, as emitted.
fn success_text(success: &Success) -> String {
    match success {
        Success::Json(ty) => type_string(ty),
        Success::Untyped => type_string(&TypeRef::Json),
        Success::Text => "String".to_owned(),
        Success::Binary => "Binary".to_owned(),
        Success::Empty => "()".to_owned(),
    }
}

fn payload(ty: &TypeRef, boxed: bool) -> String {
    if boxed {
        format!("Box<{}>", type_string(ty))
    } else {
        type_string(ty)
    }
}

/// The Rust type as emitted, with paths left out (named types by their bare name,
/// `DateTime<Utc>`, `Secret`); `serde_json` keeps its prefix.
pub fn type_string(ty: &TypeRef) -> String {
    match ty {
        TypeRef::Named(name) => name.clone(),
        TypeRef::String => "String".to_owned(),
        TypeRef::Bool => "bool".to_owned(),
        TypeRef::Int(width) => serde_name(width),
        TypeRef::Float => "f64".to_owned(),
        TypeRef::Uuid => "Uuid".to_owned(),
        TypeRef::DateTime => "DateTime<Utc>".to_owned(),
        TypeRef::Date => "NaiveDate".to_owned(),
        TypeRef::Decimal => "Decimal".to_owned(),
        TypeRef::Secret => "Secret".to_owned(),
        TypeRef::Json => "serde_json::Value".to_owned(),
        TypeRef::JsonObject => "serde_json::Map<String, serde_json::Value>".to_owned(),
        TypeRef::Bytes => "Bytes".to_owned(),
        TypeRef::File => "FilePart".to_owned(),
        TypeRef::Array(item) => format!("Vec<{}>", type_string(item)),
        TypeRef::Map(value) => format!("BTreeMap<String, {}>", type_string(value)),
        TypeRef::Nullable(inner) => format!("Option<{}>", type_string(inner)),
    }
}

/// The name the IR serializes a value as (a string, or the `kind` of a tagged variant).
pub(super) fn serde_name<T: Serialize>(value: &T) -> String {
    match serde_json::to_value(value) {
        Ok(serde_json::Value::String(name)) => name,
        Ok(serde_json::Value::Object(map)) => map
            .get("kind")
            .and_then(|kind| kind.as_str())
            .unwrap_or_default()
            .to_owned(),
        _ => String::new(),
    }
}

fn is_false(b: &bool) -> bool {
    !*b
}
