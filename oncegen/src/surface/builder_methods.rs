//! Which methods a request builder has besides its setters and `send`: the other formats'
//! `send_*`, `download`, and `error_body` with its `{Builder}Error` enum, decided here for the
//! [`OperationSurface`](super::OperationSurface). The emitter reads the decision from the
//! surface; of this module it uses only the error responses in the document's order, the
//! download's media types and the variant names.

use crate::ir::{Operation, ResponseDef, Success, TypeRef};

/// What `error_body` decodes.
pub(super) enum ErrorBody<'a> {
    /// No error response has a type: no `error_body`.
    Absent,
    /// Every typed error response has this type: `error_body` returns it.
    One(&'a TypeRef),
    /// Several types: `error_body` returns the `{Builder}Error` enum ([`error_enum_name`]),
    /// one variant per status, in the spec's order.
    ByStatus(Vec<(&'a str, &'a TypeRef)>),
}

/// The error responses (every status not `2XX`), in the spec's order.
pub fn error_responses(op: &Operation) -> Vec<&ResponseDef> {
    op.responses
        .iter()
        .filter(|r| !r.status.starts_with('2'))
        .collect()
}

/// The error responses that have a type, with it, in the spec's order.
pub fn typed_errors(op: &Operation) -> Vec<(&str, &TypeRef)> {
    error_responses(op)
        .into_iter()
        .filter_map(|r| Some((r.status.as_str(), r.ty.as_ref()?)))
        .collect()
}

/// What the operation's `error_body` decodes.
pub(super) fn error_body(op: &Operation) -> ErrorBody<'_> {
    let typed = typed_errors(op);
    match typed.first() {
        None => ErrorBody::Absent,
        Some((_, first)) if typed.iter().all(|(_, ty)| ty == first) => ErrorBody::One(first),
        Some(_) => ErrorBody::ByStatus(typed),
    }
}

/// The name of the enum `error_body` returns when the error bodies have several types.
pub(super) fn error_enum_name(op: &Operation) -> String {
    format!("{}Error", op.builder_name)
}

/// The media types of `download`'s `Accept`, when the builder has `download`: the
/// operation's success, or one of its other formats, is read as bytes.
pub fn download_accept(op: &Operation) -> Option<&[String]> {
    if op.success == Success::Binary {
        return Some(&op.accept);
    }
    op.alternatives
        .iter()
        .find(|a| a.success == Success::Binary)
        .map(|a| a.accept.as_slice())
}

/// The `{Builder}Error` variant of a status: `Status404`, `Status4xx`, `StatusDefault`.
pub fn error_variant_name(status: &str) -> String {
    match status {
        "default" => "StatusDefault".to_owned(),
        other => format!("Status{}", other.to_ascii_lowercase()),
    }
}
