//! An operation as a caller sees it: the client method, its arguments and builder, what it
//! sends and receives, and what calling it does.

use super::builder_methods::{self, ErrorBody};
use super::conversions::Conversions;
use super::rust_type::{self, BARE};
use super::{ConstraintsSurface, call_order, deprecation, is_false};
use crate::ir::{self, Idempotency, Method, PageModel, ParamLocation};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// One operation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OperationSurface {
    /// Area module (and cargo feature).
    pub area: String,
    /// HTTP method.
    pub method: Method,
    /// Path template.
    pub path: String,
    /// The operation's own server (`servers` on it or its path), when it is not the base URL.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server: Option<String>,
    /// Client method name.
    pub rust_fn: String,
    /// The request builder the client method returns (in the area's `builders` module).
    pub builder: String,
    /// Marked deprecated.
    #[serde(default, skip_serializing_if = "is_false")]
    pub deprecated: bool,
    /// What the spec says to do instead, when deprecated (`deprecation::note`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deprecation_note: Option<String>,
    /// Scopes of the security requirements.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub scopes: Vec<String>,
    /// Account permissions the reference names instead of scopes (`x-permissions`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub permissions: Vec<String>,
    /// The security requirements the operation sends, in the order the runtime tries them
    /// (the first whose schemes all have a credential is sent): each the `static` names of
    /// the schemes sent together, sorted (`[]`: no credential). Absent when the document
    /// states none: the client's own credentials go as they always do.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub security: Option<Vec<Vec<String>>>,
    /// Idempotency-Key requirement; the builder has `idempotency_key` unless it is `none`.
    pub idempotency: Idempotency,
    /// What calling it does.
    #[serde(default, skip_serializing_if = "is_default")]
    pub effects: Effects,
    /// How a paginated listing continues, if paginated.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pagination: Option<PaginationSurface>,
    /// Accepts the operation envelope (`operation_format` setter).
    #[serde(default, skip_serializing_if = "is_false")]
    pub operation_envelope: bool,
    /// The client method's arguments after `&self`, in call order: the Rust names of the
    /// required parameters, then `body` when the body is required.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub arguments: Vec<String>,
    /// The struct (a type of the area module) the required parameters are passed in, one
    /// public field each, when there are two or more: the first argument is then
    /// `Name { .. }`, naming every value, and a required body follows it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arguments_struct: Option<String>,
    /// Parameters by Rust name: a required one is an argument of the client method, an
    /// optional one a builder setter of the same name.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub params: BTreeMap<String, ParamSurface>,
    /// Request body.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub body: Option<BodySurface>,
    /// Success type, as emitted (`serde_json::Value` when the response has no schema).
    pub success: String,
    /// The status of the success response the builder reads (the first 2xx the document
    /// lists), when it documents one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub success_status: Option<String>,
    /// The media types the builder asks the success body in (`Accept`); empty: JSON, the
    /// runtime's default.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub accept: Vec<String>,
    /// The builder's other sending methods (`send_text`, `send_bytes`, `send_json`,
    /// `download`) → the type they resolve to.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub send_variants: BTreeMap<String, String>,
    /// The builder's `error_body`, when an error response has a type.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error_body: Option<ErrorBodySurface>,
    /// Error responses: status → error codes.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub errors: BTreeMap<String, Vec<String>>,
    /// Summary line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summary: Option<String>,
    /// Longer description.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The builder's `response_headers`, when the success response documents headers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub response_headers: Option<ResponseHeadersSurface>,
}

/// What a builder's `response_headers` returns: the view shared by the operations documenting
/// the same headers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResponseHeadersSurface {
    /// The view's name (in `types`).
    pub ty: String,
    /// Wire name (lower case) → the Rust type of its field (inside `Option`).
    pub headers: BTreeMap<String, String>,
}

/// What a builder's `error_body` returns (inside its `Option`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ErrorBodySurface {
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
pub struct ParamSurface {
    /// Wire name.
    pub name: String,
    /// Where it travels.
    pub location: ParamLocation,
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
    #[serde(default, skip_serializing_if = "ConstraintsSurface::is_empty")]
    pub constraints: ConstraintsSurface,
    /// Documentation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub doc: Option<String>,
    /// The argument or setter takes `impl Into<…>` (a field of the `{Builder}Args` struct has
    /// the exact type).
    #[serde(default, skip_serializing_if = "is_false")]
    pub into: bool,
}

/// How a paginated listing continues: the model and the Rust names of the fields involved.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PaginationSurface {
    /// How the next page is asked for.
    pub model: PageModel,
    /// The request parameter that asks for the next page (Rust name).
    pub request: String,
    /// The response field holding the items.
    pub items: String,
    /// The response field telling how to continue.
    pub next: String,
}

/// A request body.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BodySurface {
    /// A client-method argument (required) or the builder setter `body` (optional).
    #[serde(default, skip_serializing_if = "is_false")]
    pub required: bool,
    /// Media type.
    pub media_type: String,
    /// The Rust type of the body.
    #[serde(rename = "type")]
    pub ty: String,
    /// The document's example of the body, when it gives one (a tool's help shows it).
    #[serde(
        default,
        deserialize_with = "super::present",
        skip_serializing_if = "Option::is_none"
    )]
    pub example: Option<serde_json::Value>,
    /// The argument or the `body` setter takes `impl Into<…>`.
    #[serde(default, skip_serializing_if = "is_false")]
    pub into: bool,
}

/// What calling an operation does: what a command-line tool or an agent needs to decide
/// whether to ask before calling it and whether calling it again is safe.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Effects {
    /// Changes state on the server (`POST`, `PUT`, `PATCH`, `DELETE`); otherwise a read.
    #[serde(default, skip_serializing_if = "is_false")]
    pub writes: bool,
    /// Deletes or overwrites: a `DELETE`, or a write the document declares destructive
    /// (`x-destructive`: a restore, a rollback, a detach, a reset). A tool asks before it.
    #[serde(default, skip_serializing_if = "is_false")]
    pub destructive: bool,
    /// Spends the account's money (`x-charges`); a tool asks for a spending ceiling.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub purchase: Option<Purchase>,
    /// Grants access (`x-grants-access`: a credential, a password): what it grants. A tool
    /// asks before it, naming this; an MCP server needs its own enablement.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grants_access: Option<String>,
    /// Sending the same request again has the effect of sending it once, by its method (a
    /// read, `PUT`, `DELETE`). Another write is safe to repeat only under the same
    /// Idempotency-Key (the operation's `idempotency` is not `none`: the builder's
    /// `idempotency_key`; without one the SDK generates a key per call, so a second call is a
    /// second write).
    #[serde(default, skip_serializing_if = "is_false")]
    pub idempotent: bool,
    /// A long-running write: its success body is an operation receipt whose `wait` polls the
    /// work to its end (`x-operation-envelope`, `x-operation-receipt`).
    #[serde(default, skip_serializing_if = "is_false")]
    pub long_running: bool,
    /// The builder has `wait`, which polls what this read returns until it settles (`x-poll`).
    #[serde(default, skip_serializing_if = "is_false")]
    pub waits: bool,
}

/// A call that charges the account.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Purchase {
    /// The request body's members that cap the amount charged (any one of them, when the body
    /// has several shapes); empty when the call takes no ceiling and its amount cannot be read
    /// before paying (`amount: not-shown`), so no ceiling can bound it: a tool refuses it
    /// without an acknowledgement of its own.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ceiling: Vec<String>,
}

impl Effects {
    /// What calling `op` does.
    pub fn of(op: &ir::Operation) -> Effects {
        let writes = op.method.is_write();
        Effects {
            writes,
            destructive: op.method == Method::Delete || op.destructive,
            purchase: op.charges.as_ref().map(|charges| Purchase {
                ceiling: charges.ceiling.clone(),
            }),
            grants_access: op.grants_access.clone(),
            idempotent: !writes || matches!(op.method, Method::Put | Method::Delete),
            long_running: writes && op.receipt,
            waits: op.poll.is_some(),
        }
    }
}

/// The surface of a request body.
fn body(b: &ir::Body, conversions: &Conversions<'_>) -> BodySurface {
    BodySurface {
        required: b.required,
        media_type: b.media_type.clone(),
        ty: rust_type::text(&b.ty),
        example: b.example.clone(),
        into: conversions.argument(&b.ty),
    }
}

/// The surface of `op`.
pub(super) fn describe(op: &ir::Operation, conversions: &Conversions<'_>) -> OperationSurface {
    let mut scopes = op.scopes.clone();
    scopes.sort();
    OperationSurface {
        area: op.area.clone(),
        method: op.method,
        path: op.path.clone(),
        server: op.server.clone(),
        rust_fn: op.fn_name.clone(),
        builder: op.builder_name.clone(),
        success_status: op
            .responses
            .iter()
            .find(|r| r.status.starts_with('2'))
            .map(|r| r.status.clone()),
        accept: op.accept.clone(),
        deprecated: op.deprecated,
        deprecation_note: deprecation::note(op.deprecated, op.description.as_deref()),
        scopes,
        permissions: op.permissions.clone(),
        security: op.security.as_ref().map(|r| requirements(r)),
        idempotency: op.idempotency,
        effects: Effects::of(op),
        pagination: op.pagination.as_ref().map(|p| PaginationSurface {
            model: p.model,
            request: p.request_param.clone(),
            items: p.items.rust_name.clone(),
            next: p.next.rust_name.clone(),
        }),
        operation_envelope: op.operation_envelope,
        arguments: arguments(op),
        arguments_struct: call_order::arguments_struct(op).map(str::to_owned),
        params: op
            .params
            .iter()
            .map(|p| (p.rust_name.clone(), param(p, conversions)))
            .collect(),
        body: op.body.as_ref().map(|b| body(b, conversions)),
        success: rust_type::success(&op.success, &BARE),
        send_variants: send_variants(op),
        error_body: error_body(op),
        errors: errors(op),
        summary: op.summary.clone(),
        description: op.description.clone(),
        response_headers: response_headers(op),
    }
}

/// The error codes each non-success status documents, sorted.
fn errors(op: &ir::Operation) -> BTreeMap<String, Vec<String>> {
    let mut errors = BTreeMap::new();
    for response in op.responses.iter().filter(|r| !r.status.starts_with('2')) {
        let mut codes = response.error_codes.clone();
        codes.sort();
        errors.insert(response.status.clone(), codes);
    }
    errors
}

/// The builder's other `send*` methods (one per other format, and `download`) with what each
/// answers.
fn send_variants(op: &ir::Operation) -> BTreeMap<String, String> {
    op.alternatives
        .iter()
        .map(|a| (a.method.clone(), rust_type::success(&a.success, &BARE)))
        .chain(
            builder_methods::download_accept(op)
                .map(|_| ("download".to_owned(), "Download".to_owned())),
        )
        .collect()
}

/// What `error_body` returns: the one type, or the enum of them by status.
fn error_body(op: &ir::Operation) -> Option<ErrorBodySurface> {
    match builder_methods::error_body(op) {
        ErrorBody::Absent => None,
        ErrorBody::One(ty) => Some(ErrorBodySurface {
            ty: rust_type::text(ty),
            variants: BTreeMap::new(),
        }),
        ErrorBody::ByStatus(typed) => Some(ErrorBodySurface {
            ty: builder_methods::error_enum_name(op),
            variants: typed
                .into_iter()
                .map(|(status, ty)| (status.to_owned(), rust_type::text(ty)))
                .collect(),
        }),
    }
}

/// The client method's arguments in call order: the required parameters, then a required body.
fn arguments(op: &ir::Operation) -> Vec<String> {
    call_order::method_params(op)
        .into_iter()
        .map(|p| p.rust_name.clone())
        .chain(
            op.body
                .iter()
                .filter(|b| b.required)
                .map(|_| "body".to_owned()),
        )
        .collect()
}

/// The surface of one parameter.
fn param(p: &ir::Param, conversions: &Conversions<'_>) -> ParamSurface {
    ParamSurface {
        name: p.name.clone(),
        location: p.location,
        required: p.required,
        ty: rust_type::text(&p.ty),
        deprecated: p.deprecated,
        deprecation_note: deprecation::note(p.deprecated, p.doc.as_deref()),
        constraints: (&p.constraints).into(),
        doc: p.doc.clone(),
        into: conversions.argument(&p.ty),
    }
}

/// The view `response_headers` returns, from the first success response's headers.
fn response_headers(op: &ir::Operation) -> Option<ResponseHeadersSurface> {
    let ty = op.response_headers.clone()?;
    let success = op.responses.iter().find(|r| r.status.starts_with('2'))?;
    let headers = success
        .headers
        .iter()
        .map(|h| (h.name.clone(), rust_type::text(&h.ty)))
        .collect();
    Some(ResponseHeadersSurface { ty, headers })
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

fn is_default(effects: &Effects) -> bool {
    *effects == Effects::default()
}

#[cfg(test)]
mod tests {
    use super::Effects;

    /// The effects of each operation of a small document, by `operationId`.
    fn effects(text: &str) -> Vec<(String, Effects)> {
        let api = crate::model_str(text, "effects.yaml").expect("the document lowers");
        let mut out: Vec<(String, Effects)> = api
            .operations
            .iter()
            .map(|op| (op.operation_id.clone(), Effects::of(op)))
            .collect();
        out.sort_by(|a, b| a.0.cmp(&b.0));
        out
    }

    #[test]
    fn effects_follow_the_method_and_the_receipt() {
        let text = r#"
openapi: 3.1.0
info: {title: t, version: '1'}
paths:
  /things/{id}:
    parameters: [{name: id, in: path, required: true, schema: {type: string}}]
    get: {operationId: read, responses: {'204': {description: ok}}}
    put: {operationId: replace, responses: {'204': {description: ok}}}
    delete: {operationId: remove, responses: {'204': {description: ok}}}
    patch:
      operationId: change
      x-idempotency-key: required
      parameters: [{name: Idempotency-Key, in: header, required: true, schema: {type: string}}]
      responses: {'204': {description: ok}}
    post:
      operationId: start
      x-operation-receipt: true
      responses:
        '202':
          description: accepted
          content: {application/json: {schema: {type: object}}}
"#;
        let effect = |writes, destructive, idempotent, long_running| Effects {
            writes,
            destructive,
            idempotent,
            long_running,
            waits: false,
            purchase: None,
            grants_access: None,
        };
        assert_eq!(
            effects(text),
            [
                ("change".to_owned(), effect(true, false, false, false)),
                ("read".to_owned(), effect(false, false, true, false)),
                ("remove".to_owned(), effect(true, true, true, false)),
                ("replace".to_owned(), effect(true, false, true, false)),
                ("start".to_owned(), effect(true, false, false, true)),
            ]
        );
    }

    #[test]
    fn declared_effects_add_to_the_method() {
        let text = r#"
openapi: 3.1.0
info: {title: t, version: '1'}
paths:
  /restore:
    post:
      operationId: restore
      x-destructive: true
      responses: {'204': {description: ok}}
  /pay:
    post:
      operationId: pay
      x-charges: {amount: not-shown}
      responses: {'204': {description: ok}}
  /keys:
    post:
      operationId: key
      x-grants-access: a new key
      responses: {'204': {description: ok}}
  /buy:
    post:
      operationId: buy
      x-charges: {ceiling: [max_total]}
      requestBody:
        content: {application/json: {schema: {type: object, properties: {max_total: {type: string}}}}}
      responses: {'204': {description: ok}}
"#;
        let found = effects(text);
        let [buy, key, pay, restore] = &found[..] else {
            panic!("four operations: {found:?}")
        };
        assert!(restore.1.destructive && restore.1.purchase.is_none());
        let purchase = buy.1.purchase.as_ref().expect("buy charges");
        assert_eq!(purchase.ceiling, ["max_total"]);
        assert!(!buy.1.destructive && buy.1.grants_access.is_none());
        let unbounded = pay.1.purchase.as_ref().expect("pay charges");
        assert!(unbounded.ceiling.is_empty(), "{unbounded:?}");
        assert_eq!(key.1.grants_access.as_deref(), Some("a new key"));
        assert!(key.1.purchase.is_none() && !key.1.destructive);
    }
}
