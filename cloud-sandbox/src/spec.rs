//! The contract: `spec/openapi.yaml` parsed once, and the route table derived from it
//! (method + path template → operation, with its scopes, parameters, body and extensions).

use openapi_conventions::Method;
use std::collections::HashMap;
use std::sync::{Arc, LazyLock};

use serde_json::Value;

/// The spec embedded at compile time.
pub const EMBEDDED_SPEC: &str = include_str!("../../spec/openapi.yaml");

/// The embedded spec, parsed once per process.
pub static SPEC: LazyLock<Arc<Spec>> =
    LazyLock::new(|| Arc::new(Spec::parse(EMBEDDED_SPEC).expect("spec/openapi.yaml parses")));

/// Where a parameter travels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParamIn {
    /// A path segment.
    Path,
    /// A query parameter.
    Query,
    /// A request header.
    Header,
}

/// One declared parameter.
#[derive(Clone, Debug)]
pub struct Param {
    /// Name as declared (headers compared case-insensitively).
    pub name: String,
    /// Location.
    pub location: ParamIn,
    /// Whether the spec marks it required.
    pub required: bool,
    /// JSON pointer (into the spec) of its schema, if any.
    pub schema_pointer: Option<String>,
}

/// One operation of the spec.
#[derive(Clone, Debug)]
pub struct Operation {
    /// operationId (derived from method and path when the spec has none).
    pub operation_id: String,
    /// Uppercase HTTP method.
    pub method: String,
    /// Path template, e.g. `/v1/dns/zones/{name}`.
    pub path: String,
    /// Security requirements (alternatives); each maps scheme name → required scopes.
    /// `None` means no authentication is needed.
    pub security: Option<Vec<HashMap<String, Vec<String>>>>,
    /// Declared parameters (path-level and operation-level merged).
    pub params: Vec<Param>,
    /// JSON pointer of the JSON request body schema and whether a body is required.
    pub body: Option<(String, bool)>,
    /// `x-idempotency-key`: `required`, `optional`, `not-shown`.
    pub idempotency: Option<String>,
    /// `x-operation-envelope: true`.
    pub operation_envelope: bool,
    /// `x-pagination`.
    pub pagination: Option<crate::pagination::Model>,
    /// First 2xx status declared, and the pointer of its JSON schema.
    pub success: (u16, Option<String>),
    /// JSON pointer of the operation object in the document (for its other extensions).
    pub pointer: String,
}

impl Operation {
    /// True for methods that change state.
    pub fn is_write(&self) -> bool {
        Method::parse(&self.method).is_some_and(Method::is_write)
    }

    /// All scopes named by any security requirement (for docs and tests).
    pub fn scopes(&self) -> Vec<String> {
        let mut v: Vec<String> = self
            .security
            .iter()
            .flatten()
            .flat_map(|r| r.values().flatten().cloned())
            .collect();
        v.sort();
        v.dedup();
        v
    }
}

/// The parsed contract and its route table.
#[derive(Debug)]
pub struct Spec {
    /// The whole document as JSON.
    pub doc: Value,
    /// Every operation, in document order.
    pub operations: Vec<Operation>,
}

/// Escapes one JSON pointer token.
pub use openapi_conventions::pointer::escape as pointer_token;

impl Spec {
    /// Parses a YAML (or JSON) OpenAPI document.
    pub fn parse(text: &str) -> Result<Self, String> {
        let doc: Value = yaml_serde::from_str(text).map_err(|e| format!("spec: {e}"))?;
        let mut operations = Vec::new();
        if let Some(paths) = doc.get("paths").and_then(Value::as_object) {
            for (path, item) in paths {
                let Some(item) = item.as_object() else {
                    continue;
                };
                let path_ptr = format!("/paths/{}", pointer_token(path));
                let shared = parse_params(
                    &doc,
                    item.get("parameters"),
                    &format!("{path_ptr}/parameters"),
                );
                for method in [
                    "get", "put", "post", "delete", "options", "head", "patch", "trace",
                ] {
                    if let Some(op) = item.get(method) {
                        let op_ptr = format!("{path_ptr}/{method}");
                        operations.push(parse_operation(&doc, path, method, op, &shared, op_ptr));
                    }
                }
            }
        }
        Ok(Self { doc, operations })
    }

    /// `info.version`: the contract revision this spec describes.
    pub fn version(&self) -> &str {
        self.doc
            .pointer("/info/version")
            .and_then(Value::as_str)
            .unwrap_or_default()
    }

    /// Every scope the document declares: those its security requirements name, and the
    /// values of every `scopes` property enumerated in its schemas (the scope list of the
    /// credential-creation body), sorted.
    pub fn declared_scopes(&self) -> Vec<String> {
        let mut scopes: Vec<String> = self.operations.iter().flat_map(Operation::scopes).collect();
        collect_scope_enums(&self.doc, &mut scopes);
        scopes.sort();
        scopes.dedup();
        scopes
    }

    /// The operation with this `operationId`.
    pub fn operation(&self, operation_id: &str) -> Option<&Operation> {
        self.operations
            .iter()
            .find(|o| o.operation_id == operation_id)
    }

    /// The schema pointer of the items an operation lists: the success schema's `items_name`
    /// array member (its `x-pagination` items name, else `items`), following `$ref`s.
    pub fn list_item_schema(&self, op: &Operation) -> Option<String> {
        let name = op.pagination.as_ref().map_or("items", |m| m.items.as_str());
        let body = self.deref_pointer(op.success.1.as_deref()?);
        let array = self.deref_pointer(&format!("{body}/properties/{}", pointer_token(name)));
        let item = format!("{array}/items");
        self.doc.pointer(&item).map(|_| item)
    }

    /// An extension (or any member) of an operation object, e.g. `x-capabilities`.
    pub fn operation_member(&self, op: &Operation, name: &str) -> Option<&Value> {
        self.doc.pointer(&op.pointer)?.get(name)
    }

    /// Follows `$ref`s (local ones) from a JSON pointer, returning the final pointer.
    pub fn deref_pointer(&self, pointer: &str) -> String {
        deref(&self.doc, pointer)
    }

    /// Finds the operation serving `method` + `path`, with its path parameters.
    /// Literal segments win over parameters.
    pub fn route(&self, method: &str, path: &str) -> Option<(&Operation, HashMap<String, String>)> {
        let segs: Vec<&str> = path.split('/').collect();
        let mut best: Option<(usize, &Operation, HashMap<String, String>)> = None;
        for op in self.operations.iter().filter(|o| o.method == method) {
            let tsegs: Vec<&str> = op.path.split('/').collect();
            if tsegs.len() != segs.len() {
                continue;
            }
            let mut literal = 0;
            let mut params = HashMap::new();
            let mut ok = true;
            for (t, s) in tsegs.iter().zip(&segs) {
                if t.starts_with('{') && t.ends_with('}') {
                    if s.is_empty() {
                        ok = false;
                        break;
                    }
                    params.insert(t[1..t.len() - 1].to_owned(), percent_decode(s));
                } else if t == s {
                    literal += 1;
                } else {
                    ok = false;
                    break;
                }
            }
            if ok && best.as_ref().is_none_or(|(l, _, _)| literal > *l) {
                best = Some((literal, op, params));
            }
        }
        best.map(|(_, op, p)| (op, p))
    }

    /// Whether any operation has this path (for 405 vs 404).
    pub fn has_path(&self, path: &str) -> bool {
        ["GET", "POST", "PUT", "PATCH", "DELETE"]
            .iter()
            .any(|m| self.route(m, path).is_some())
    }
}

/// Adds the `enum` values of the items of every property named `scopes`, anywhere in `v`.
fn collect_scope_enums(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Object(map) => {
            let listed = map
                .get("properties")
                .and_then(|p| p.get("scopes"))
                .and_then(|s| s.pointer("/items/enum"))
                .and_then(Value::as_array);
            out.extend(
                listed
                    .into_iter()
                    .flatten()
                    .filter_map(Value::as_str)
                    .map(str::to_owned),
            );
            map.values()
                .for_each(|child| collect_scope_enums(child, out));
        }
        Value::Array(items) => items
            .iter()
            .for_each(|child| collect_scope_enums(child, out)),
        _ => {}
    }
}

/// Decodes `%XX` escapes of one path segment.
pub fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && i + 2 < bytes.len()
            && let Ok(b) = u8::from_str_radix(&s[i + 1..i + 3], 16)
        {
            out.push(b);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn deref(doc: &Value, pointer: &str) -> String {
    let mut ptr = pointer.to_owned();
    for _ in 0..32 {
        match doc
            .pointer(&ptr)
            .and_then(|v| v.get("$ref"))
            .and_then(Value::as_str)
        {
            Some(r) if r.starts_with('#') => ptr = r[1..].to_owned(),
            _ => break,
        }
    }
    ptr
}

/// One operation: its parameters (the operation's override the path item's `shared` ones of the
/// same name and location), security (its own, else the document's) and contract extensions.
fn parse_operation(
    doc: &Value,
    path: &str,
    method: &str,
    op: &Value,
    shared: &[Param],
    op_ptr: String,
) -> Operation {
    let mut params = shared.to_vec();
    for p in parse_params(doc, op.get("parameters"), &format!("{op_ptr}/parameters")) {
        params.retain(|q| !(q.name.eq_ignore_ascii_case(&p.name) && q.location == p.location));
        params.push(p);
    }
    let upper = method.to_ascii_uppercase();
    let operation_id = op
        .get("operationId")
        .and_then(Value::as_str)
        .map(str::to_owned)
        .unwrap_or_else(|| openapi_conventions::operation_id::derive(&upper, path));
    Operation {
        operation_id,
        method: upper,
        path: path.to_owned(),
        security: parse_security(op.get("security").or_else(|| doc.get("security"))),
        params,
        body: parse_body(doc, op, &op_ptr),
        idempotency: op
            .get("x-idempotency-key")
            .and_then(Value::as_str)
            .map(str::to_owned),
        operation_envelope: op
            .get("x-operation-envelope")
            .and_then(Value::as_bool)
            .unwrap_or(false),
        pagination: crate::pagination::Model::from_extension(op.get("x-pagination")),
        success: parse_success(doc, op, &op_ptr),
        pointer: op_ptr,
    }
}

fn parse_params(doc: &Value, list: Option<&Value>, base: &str) -> Vec<Param> {
    let mut out = Vec::new();
    for (i, _) in list
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .enumerate()
    {
        let ptr = deref(doc, &format!("{base}/{i}"));
        let Some(p) = doc.pointer(&ptr) else { continue };
        let location = match p.get("in").and_then(Value::as_str) {
            Some("path") => ParamIn::Path,
            Some("query") => ParamIn::Query,
            Some("header") => ParamIn::Header,
            _ => continue,
        };
        out.push(Param {
            name: p
                .get("name")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned(),
            location,
            required: p
                .get("required")
                .and_then(Value::as_bool)
                .unwrap_or(location == ParamIn::Path),
            schema_pointer: p.get("schema").map(|_| format!("{ptr}/schema")),
        });
    }
    out
}

fn parse_security(v: Option<&Value>) -> Option<Vec<HashMap<String, Vec<String>>>> {
    let list = v?.as_array()?;
    let reqs: Vec<HashMap<String, Vec<String>>> = list
        .iter()
        .filter_map(Value::as_object)
        .filter(|o| !o.is_empty())
        .map(|o| {
            o.iter()
                .map(|(k, v)| {
                    let scopes = v
                        .as_array()
                        .into_iter()
                        .flatten()
                        .filter_map(Value::as_str)
                        .map(str::to_owned);
                    (k.clone(), scopes.collect())
                })
                .collect()
        })
        .collect();
    // An empty requirement object (`{}`) among the alternatives makes auth optional.
    if reqs.is_empty()
        || list
            .iter()
            .any(|o| o.as_object().is_some_and(|o| o.is_empty()))
    {
        None
    } else {
        Some(reqs)
    }
}

fn parse_body(doc: &Value, op: &Value, op_ptr: &str) -> Option<(String, bool)> {
    op.get("requestBody")?;
    let rb_ptr = deref(doc, &format!("{op_ptr}/requestBody"));
    let rb = doc.pointer(&rb_ptr)?;
    let content = rb.get("content")?.as_object()?;
    let (ct, media) = content
        .iter()
        .find(|(k, _)| k.contains("json"))
        .or_else(|| content.iter().next())?;
    media.get("schema")?;
    let required = rb.get("required").and_then(Value::as_bool).unwrap_or(false);
    Some((
        format!("{rb_ptr}/content/{}/schema", pointer_token(ct)),
        required,
    ))
}

fn parse_success(doc: &Value, op: &Value, op_ptr: &str) -> (u16, Option<String>) {
    let Some(responses) = op.get("responses").and_then(Value::as_object) else {
        return (200, None);
    };
    let mut codes: Vec<(&String, u16)> = responses
        .keys()
        .filter_map(|k| {
            let c = if k.eq_ignore_ascii_case("2XX") {
                Some(200)
            } else {
                k.parse::<u16>().ok()
            };
            c.filter(|c| (200..300).contains(c)).map(|c| (k, c))
        })
        .collect();
    codes.sort_by_key(|(_, c)| *c);
    let Some((key, code)) = codes.first() else {
        return (200, None);
    };
    let rptr = deref(doc, &format!("{op_ptr}/responses/{}", pointer_token(key)));
    let schema = doc
        .pointer(&rptr)
        .and_then(|r| r.get("content"))
        .and_then(Value::as_object)
        .and_then(|c| c.iter().find(|(k, _)| k.contains("json")))
        .filter(|(_, m)| m.get("schema").is_some())
        .map(|(k, _)| format!("{rptr}/content/{}/schema", pointer_token(k)));
    (*code, schema)
}

#[cfg(test)]
mod tests {
    use super::*;

    const MINI: &str = r#"
openapi: 3.1.0
info: {title: t, version: "1"}
paths:
  /v1/ssh/keys/{id}:
    get:
      operationId: sshKey
      security: [{BearerAuth: [ssh.read]}]
      parameters: [{name: id, in: path, required: true, schema: {type: string}}]
      responses: {"200": {description: ok}}
  /v1/ssh/keys/generate:
    get:
      responses: {"200": {description: ok}}
"#;

    #[test]
    fn routes_prefer_literal_segments_and_derive_ids() {
        let spec = Spec::parse(MINI).unwrap();
        let (op, _) = spec.route("GET", "/v1/ssh/keys/generate").unwrap();
        assert_eq!(op.operation_id, "getSshKeysGenerate");
        let (op, params) = spec.route("GET", "/v1/ssh/keys/a%20b").unwrap();
        assert_eq!(op.operation_id, "sshKey");
        assert_eq!(params["id"], "a b");
        assert_eq!(op.scopes(), vec!["ssh.read".to_owned()]);
    }
}
