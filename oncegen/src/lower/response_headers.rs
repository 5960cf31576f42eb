//! The documented headers of responses: each lowered to a scalar field, and the typed view of
//! a success response's headers shared by every operation that documents the same set.

use crate::error::Result;
use crate::ir::{HeadersDef, IntType, Operation, ResponseHeader, TypeRef};
use crate::naming::{self, Namespace};
use crate::read::Node;
use std::collections::BTreeMap;

/// Name of the view of the set most operations document.
const COMMON_NAME: &str = "ResponseHeaders";

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

/// One view per distinct set of success headers: the set most operations document is
/// `ResponseHeaders`, any other `{Builder}Headers` of the first operation (by builder name)
/// that documents it; each operation names its view.
pub(super) fn views(operations: &mut [Operation], type_names: &mut Namespace) -> Vec<HeadersDef> {
    let set_of = |op: &Operation| -> Option<Vec<ResponseHeader>> {
        let success = op.responses.iter().find(|r| r.status.starts_with('2'))?;
        (!success.headers.is_empty()).then(|| success.headers.clone())
    };
    // Each set with the builders documenting it, sorted.
    let mut sets: Vec<(Vec<ResponseHeader>, Vec<String>)> = Vec::new();
    for op in operations.iter() {
        let Some(set) = set_of(op) else { continue };
        match sets.iter_mut().find(|(s, _)| *s == set) {
            Some((_, builders)) => builders.push(op.builder_name.clone()),
            None => sets.push((set, vec![op.builder_name.clone()])),
        }
    }
    for (_, builders) in &mut sets {
        builders.sort();
    }
    // Most used first; ties by first builder name: the order names are claimed in.
    sets.sort_by(|a, b| b.1.len().cmp(&a.1.len()).then_with(|| a.1[0].cmp(&b.1[0])));
    let mut by_builder: BTreeMap<String, String> = BTreeMap::new();
    let mut defs = Vec::new();
    for (i, (headers, builders)) in sets.into_iter().enumerate() {
        let wanted = if i == 0 {
            COMMON_NAME.to_owned()
        } else {
            format!("{}Headers", builders[0])
        };
        let name = type_names.claim(wanted);
        for builder in builders {
            by_builder.insert(builder, name.clone());
        }
        defs.push(HeadersDef { name, headers });
    }
    for op in operations.iter_mut() {
        op.response_headers = by_builder.get(&op.builder_name).cloned();
    }
    defs.sort_by(|a, b| a.name.cmp(&b.name));
    defs
}
