//! The documented headers of responses: each lowered to a scalar field, and the typed view of
//! each operation's success response headers.

use crate::error::Result;
use crate::ir::{HeadersDef, IntType, Operation, ResponseHeader, TypeRef};
use crate::naming::{self, Namespace};
use crate::read::Node;

/// The headers `response` documents, by lower-case wire name; `Content-Type` is the body's
/// (OpenAPI ignores it here).
pub(super) fn headers_of(
    response: &Node<'_>,
    root: &serde_json::Value,
) -> Result<Vec<ResponseHeader>> {
    let Some(headers) = response.get("headers") else {
        return Ok(Vec::new());
    };
    let mut entries: Vec<(String, Node<'_>)> = headers
        .entries()
        .into_iter()
        .map(|(name, node)| (name.to_ascii_lowercase(), node))
        .filter(|(name, _)| name != "content-type")
        .collect();
    entries.sort_by(|a, b| a.0.cmp(&b.0));
    entries.dedup_by(|a, b| a.0 == b.0);
    let mut fields = Namespace::default();
    let mut out = Vec::new();
    for (name, node) in entries {
        let node = node.resolve(root)?;
        let schema = match node.get("schema") {
            Some(schema) => Some(schema.resolve(root)?),
            None => None,
        };
        out.push(ResponseHeader {
            rust_name: fields.claim(naming::snake(&name)),
            ty: schema.as_ref().map_or(TypeRef::String, scalar),
            doc: super::schema::doc_of(&node),
            deprecated: node.flag("deprecated"),
            name,
        });
    }
    Ok(out)
}

/// The Rust scalar a header's text parses into: integers, numbers, booleans, uuids and
/// timestamps typed, anything else (enums, lists, objects) its text.
fn scalar(schema: &Node<'_>) -> TypeRef {
    match (schema.str("type"), schema.str("format")) {
        (Some("integer"), _) => TypeRef::Int(IntType::I64),
        (Some("number"), _) => TypeRef::Float,
        (Some("boolean"), _) => TypeRef::Bool,
        (Some("string"), Some("uuid")) => TypeRef::Uuid,
        (Some("string"), Some("date-time")) => TypeRef::DateTime,
        _ => TypeRef::String,
    }
}

/// One view per operation whose success response documents headers, `{Builder}Headers`.
///
/// Operations documenting the same set do not share a view: a shared one would be named after
/// the set most operations document, or after the first operation of a set, so a header added
/// to one operation (or an operation added) would rename the view others return. Named after
/// its operation, a view changes only when that operation's headers do.
pub(super) fn views(operations: &mut [Operation], type_names: &mut Namespace) -> Vec<HeadersDef> {
    let mut defs = Vec::new();
    for op in operations.iter_mut() {
        let success = op.responses.iter().find(|r| r.status.starts_with('2'));
        let Some(headers) = success.map(|r| r.headers.clone()).filter(|h| !h.is_empty()) else {
            op.response_headers = None;
            continue;
        };
        let name = type_names.claim(format!("{}Headers", op.builder_name));
        op.response_headers = Some(name.clone());
        defs.push(HeadersDef { name, headers });
    }
    defs.sort_by(|a, b| a.name.cmp(&b.name));
    defs
}
