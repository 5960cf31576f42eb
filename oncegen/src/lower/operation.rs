//! Lowering operations: parameters, bodies, responses, pagination and the contract extensions.

use super::schema::{constraints, doc_of};
use super::{Lowerer, security};
use crate::error::{Error, Result};
use crate::ir::{
    Alternative, Area, Body, BodyEncoding, Constraints, Idempotency, ListStyle, Method, Operation,
    Param, ParamLocation, ParamStyle, ResponseDef, Skipped, Structured, Success, TypeRef,
};
use crate::naming::{self, Namespace};
use crate::read::Node;
use openapi_conventions::headers;
use std::collections::{BTreeMap, BTreeSet};

/// Builder members every builder has; a parameter may not be named after them.
const BUILDER_RESERVED: &[&str] = &[
    "client",
    "options",
    "call_options",
    "client_request_id",
    "timeout",
    "attempt_timeout",
    "retry_policy",
    "header",
    "send",
];

/// Headers the runtime sets itself; they are not parameters of generated methods.
const RUNTIME_HEADERS: &[&str] = &[
    headers::IDEMPOTENCY_KEY,
    headers::CLIENT_REQUEST_ID,
    "authorization",
    headers::API_KEY,
];

/// Tag of operations without one.
const UNTAGGED: &str = "general";

/// A lowered parameter, and whether the runtime sends it itself (auth, idempotency and
/// correlation headers): such a parameter is kept only to read its `required`, never emitted.
struct LoweredParam {
    param: Param,
    sent_by_runtime: bool,
}

/// An operation whose construct the generator cannot express: the located error says where
/// and why.
struct Skip(Error);

impl From<Error> for Skip {
    fn from(e: Error) -> Self {
        Skip(e)
    }
}

impl<'a> Lowerer<'a> {
    /// Lowers every operation; returns them, the skipped ones and the areas.
    pub(super) fn lower_operations(
        &mut self,
        root: &Node<'a>,
    ) -> Result<(Vec<Operation>, Vec<Skipped>, Vec<Area>)> {
        let found = self.found_operations(root)?;
        let tags: Vec<String> = found
            .iter()
            .map(|f| tag_of(&f.op))
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        let areas = super::areas_for(root, &tags);
        let mut names = OperationNames::new(&found);
        let mut operations = Vec::new();
        let mut skipped = Vec::new();
        for Found {
            path,
            method,
            item,
            op,
        } in found
        {
            let base = names.claim(path, method, &op, &areas)?;
            match self.lower_operation(base, &item, &op, root) {
                Ok(operation) => operations.push(operation),
                Err(Skip(error)) => skipped.push(Skipped {
                    pointer: op.pointer.clone(),
                    reason: error.to_string(),
                }),
            }
        }
        Ok((
            operations,
            skipped,
            areas.into_iter().map(|(_, a)| a).collect(),
        ))
    }

    /// Every operation of the document, in path order, then method order within a path.
    fn found_operations(&self, root: &Node<'a>) -> Result<Vec<Found<'a>>> {
        let mut found = Vec::new();
        let Some(paths) = root.get("paths") else {
            return Ok(found);
        };
        let mut entries = paths.entries();
        entries.sort_by(|a, b| a.0.cmp(b.0));
        for (path, item) in entries {
            let item = item.resolve(self.root)?;
            for method in Method::ALL {
                if let Some(op) = item.get(method.key()) {
                    found.push(Found {
                        path: path.to_owned(),
                        method,
                        item: item.clone(),
                        op,
                    });
                }
            }
        }
        Ok(found)
    }

    /// One operation, or why it is skipped.
    fn lower_operation(
        &mut self,
        base: OpBase,
        item: &Node<'a>,
        op: &Node<'a>,
        root: &Node<'a>,
    ) -> Result<Operation, Skip> {
        let camel = naming::camel(&base.id);
        let params = self.params(&base, item, op, &camel)?;
        let body = self.body(op, &camel)?;
        let (responses, formats) = self.responses(op, &camel)?;
        let operation_envelope = op.flag("x-operation-envelope");
        let receipt = operation_envelope || op.flag("x-operation-receipt");
        let (success, accept, alternatives) = success_formats(formats);
        let poll = self.poll(op, &success)?;
        let idempotency = idempotency(op, &params, base.method)?;
        let destructive = super::effects::destructive(op)?;
        let charges = super::effects::charges(op)?;
        let grants_access = super::effects::grants_access(op)?;
        let pagination = match op.get("x-pagination") {
            Some(p) => Some(self.pagination(&p, &success, params.iter().map(|p| &p.param))?),
            None => None,
        };
        // A parameter the runtime sends is not the generated method's.
        let params = params
            .into_iter()
            .filter_map(|p| (!p.sent_by_runtime).then_some(p.param))
            .collect();
        Ok(Operation {
            operation_id: base.id,
            fn_name: base.fn_name,
            builder_name: base.builder_name,
            arguments_struct: None,
            method: base.method,
            path: base.path,
            server: super::servers::own_server(op, item, &self.servers),
            area: base.area,
            summary: op.str("summary").map(|s| s.trim().to_owned()),
            description: description(op),
            deprecated: op.flag("deprecated"),
            scopes: scopes(op, root),
            security: security::requirements(op, root, &self.security_schemes),
            permissions: op.strings("x-permissions"),
            idempotency,
            operation_envelope,
            receipt,
            poll,
            destructive,
            charges,
            grants_access,
            pagination,
            params,
            body,
            success,
            accept,
            alternatives,
            responses,
            response_headers: None,
        })
    }

    /// The operation's parameters, path parameters first in template order.
    fn params(
        &mut self,
        base: &OpBase,
        item: &Node<'a>,
        op: &Node<'a>,
        camel: &str,
    ) -> Result<Vec<LoweredParam>, Skip> {
        let merged = self.merged_params(item, op)?;
        let envelope = op.flag("x-operation-envelope");
        let mut names = Namespace::with_reserved(&builder_members(op, &merged, self.root));
        let mut out = Vec::new();
        for p in merged {
            out.push(self.param(&p, envelope, &mut names, camel)?);
        }
        in_template_order(out, &base.path, op)
    }

    /// The path item's parameters, then the operation's: an operation's parameter replaces the
    /// path item's of the same name and location.
    fn merged_params(&self, item: &Node<'a>, op: &Node<'a>) -> Result<Vec<Node<'a>>> {
        let key = |p: &Node<'_>| {
            (
                p.str("in").map(str::to_owned),
                p.str("name").map(str::to_owned),
            )
        };
        let mut merged: Vec<Node<'a>> = Vec::new();
        for list in [item.get("parameters"), op.get("parameters")]
            .into_iter()
            .flatten()
        {
            for p in list.items() {
                let p = p.resolve(self.root)?;
                merged.retain(|m| key(m) != key(&p));
                merged.push(p);
            }
        }
        Ok(merged)
    }

    /// One parameter; `names` holds the builder's members (a parameter's Rust name steps aside
    /// from them and from the parameters before it).
    fn param(
        &mut self,
        p: &Node<'a>,
        envelope: bool,
        names: &mut Namespace,
        camel: &str,
    ) -> Result<LoweredParam, Skip> {
        let Some(name) = p.str("name") else {
            return Err(Skip(p.error("parameter without `name`")));
        };
        let location = param_location(p)?;
        let runtime_header = self.sent_by_runtime(location, name, envelope);
        let (ty, nullable, cons) = self.param_type(p, runtime_header, camel, name)?;
        let (list_style, structured) = if runtime_header {
            (None, None)
        } else {
            self.param_encoding(p, location, &ty)?
        };
        let rust_name = if runtime_header {
            naming::snake(name)
        } else {
            names.claim_spelled(naming::snake(name), name)
        };
        let required = location == ParamLocation::Path || p.flag("required");
        let param = Param {
            name: name.to_owned(),
            rust_name,
            location,
            required,
            ty: argument_type(ty, nullable, required, location),
            doc: doc_of(p),
            deprecated: p.flag("deprecated"),
            constraints: cons,
            list_style,
            structured,
        };
        Ok(LoweredParam {
            param,
            sent_by_runtime: runtime_header,
        })
    }

    /// Whether the runtime sends this parameter itself: the auth, idempotency and correlation
    /// headers, an API key a security scheme sends, and `x-svc-response-format` for operations
    /// with the envelope (the runtime sends it as `operation_format`).
    fn sent_by_runtime(&self, location: ParamLocation, name: &str, envelope: bool) -> bool {
        let lower = name.to_ascii_lowercase();
        (location == ParamLocation::Header
            && (RUNTIME_HEADERS.contains(&lower.as_str())
                || (envelope && lower == headers::RESPONSE_FORMAT)))
            || self.sent_by_a_scheme(location, name)
    }

    /// A parameter's type (from its `schema`, else its `content`'s schema; a string when it has
    /// neither or the runtime sends it), whether it admits `null`, and its constraints. A
    /// secret parameter is a plain string.
    fn param_type(
        &mut self,
        p: &Node<'a>,
        runtime_header: bool,
        camel: &str,
        name: &str,
    ) -> Result<(TypeRef, bool, Constraints), Skip> {
        let schema = p.get("schema").or_else(|| {
            p.get("content")
                .and_then(|c| c.entries().into_iter().next())
                .and_then(|(_, m)| m.get("schema"))
        });
        let (ty, nullable, cons) = match &schema {
            // Sent by the runtime: no type of its own (it would only be an unused one).
            Some(_) if runtime_header => (TypeRef::String, false, Default::default()),
            Some(s) => {
                let shape = self.lower_schema(s, &format!("{camel}{}", naming::camel(name)))?;
                let resolved = s.resolve(self.root).unwrap_or_else(|_| s.clone());
                (shape.ty, shape.nullable, constraints(&resolved))
            }
            None => (TypeRef::String, false, Default::default()),
        };
        let ty = if ty == TypeRef::Secret {
            TypeRef::String
        } else {
            ty
        };
        Ok((ty, nullable, cons))
    }

    /// Whether a security scheme sends this parameter (an API key the operation also lists).
    fn sent_by_a_scheme(&self, location: ParamLocation, name: &str) -> bool {
        self.security_schemes.iter().any(|s| match &s.kind {
            crate::ir::SchemeKind::ApiKey { location: l, param } => {
                *l == location
                    && (param == name
                        || (location == ParamLocation::Header && param.eq_ignore_ascii_case(name)))
            }
            _ => false,
        })
    }

    /// Whether a parameter of this type can be written into a URL or header.
    fn displayable(&self, ty: &TypeRef, allow_list: bool) -> bool {
        let kind_of = |name: &str| self.defs.iter().find(|d| d.name == name).map(|d| &d.kind);
        ty.displayable(&kind_of, allow_list)
    }

    fn body(&mut self, op: &Node<'a>, camel: &str) -> Result<Option<Body>, Skip> {
        let Some(body) = op.get("requestBody") else {
            return Ok(None);
        };
        let body = body.resolve(self.root)?;
        let content = body.get("content").map(|c| c.entries()).unwrap_or_default();
        let required = body.flag("required");
        // JSON first, then a form, multipart, then raw bytes: the first the operation offers
        // wins. A media type with no typed form (XML, text, JWT…) travels as raw bytes.
        let pick = |encoding: BodyEncoding| {
            content
                .iter()
                .find(|(k, m)| body_encoding(k, m, self.root) == encoding)
        };
        let chosen = [
            BodyEncoding::Json,
            BodyEncoding::Form,
            BodyEncoding::Multipart,
            BodyEncoding::Text,
            BodyEncoding::Binary,
        ]
        .into_iter()
        .find_map(|e| pick(e).map(|found| (e, found)));
        let Some((encoding, (media, m))) = chosen else {
            return Ok(None);
        };
        let ty = match (encoding, m.get("schema")) {
            (BodyEncoding::Binary, _) => TypeRef::Bytes,
            (BodyEncoding::Text, _) => TypeRef::String,
            (_, Some(s)) => {
                let shape = self.lower_schema(&s, &format!("{camel}Request"))?;
                TypeRef::maybe_null(shape.ty, shape.nullable)
            }
            (_, None) => TypeRef::Json,
        };
        // A wildcard media type names no type to send: raw bytes go as octet-stream.
        let media_type = if media.contains('*') {
            "application/octet-stream".to_owned()
        } else {
            (*media).to_owned()
        };
        Ok(Some(Body {
            ty,
            encoding,
            required,
            media_type,
            doc: doc_of(&body),
            example: (encoding == BodyEncoding::Json)
                .then(|| body_example(m, self.root))
                .flatten(),
        }))
    }

    /// Every declared response, and the success formats: the first 2xx response's body in each
    /// kind it comes in (JSON, text, bytes; the first is the default), or nothing.
    fn responses(
        &mut self,
        op: &Node<'a>,
        camel: &str,
    ) -> Result<(Vec<ResponseDef>, Vec<Offered>), Skip> {
        let mut entries = op.get("responses").map(|r| r.entries()).unwrap_or_default();
        entries.sort_by(|a, b| a.0.cmp(b.0));
        let mut out = Vec::new();
        let mut formats = None;
        for (status, resp) in entries {
            if status.starts_with("x-") {
                continue;
            }
            if !is_response_key(status) {
                return Err(Skip(resp.error(format!(
                    "malformed document: response key `{status}` is neither an HTTP status code, \
                     a range such as `4XX`, nor `default`"
                ))));
            }
            let resp = resp.resolve(self.root)?;
            let is_success = status.starts_with('2');
            let first_success = is_success && formats.is_none();
            let content = resp.get("content").map(|c| c.entries()).unwrap_or_default();
            let schema = content
                .iter()
                .find(|(k, m)| response_kind(k, m, self.root) == Kind::Json)
                .and_then(|(_, m)| m.get("schema"));
            let ty = match &schema {
                Some(s) if is_success => {
                    Some(self.success_type(s, camel, status, first_success)?)
                }
                Some(s) => Some(self.error_type(s)?),
                None => None,
            };
            if first_success {
                formats = Some(offered(&content, ty.as_ref(), self.root));
            }
            out.push(ResponseDef {
                status: status.to_owned(),
                description: description(&resp),
                ty,
                error_codes: resp.strings("x-error-codes"),
                headers: super::response_headers::headers_of(&resp, self.root)?,
            });
        }
        Ok((out, formats.unwrap_or_default()))
    }

    /// A success body's type: `{Op}Response` for the first success, `{Op}Response{status}` for
    /// the others.
    fn success_type(
        &mut self,
        schema: &Node<'a>,
        camel: &str,
        status: &str,
        first_success: bool,
    ) -> Result<TypeRef> {
        let hint = if first_success {
            format!("{camel}Response")
        } else {
            format!("{camel}Response{status}")
        };
        let shape = self.lower_schema(schema, &hint)?;
        Ok(TypeRef::maybe_null(shape.ty, shape.nullable))
    }

    /// An error body's type, named after its shape when inline ([`error_type_name`]); an inline
    /// schema equal to one met before (annotations aside) reuses that one's type.
    fn error_type(&mut self, schema: &Node<'a>) -> Result<TypeRef> {
        let key = schema
            .reference()
            .is_none()
            .then(|| super::schema::shape_key(schema.value));
        let known = key
            .as_ref()
            .and_then(|k| self.inline_errors.get(k))
            .cloned();
        let shape = match known {
            Some(shape) => {
                self.schema_types
                    .insert(schema.pointer.clone(), shape.clone());
                shape
            }
            None => {
                let shape = self.lower_schema(schema, &error_type_name(schema))?;
                if let Some(key) = key {
                    self.inline_errors.insert(key, shape.clone());
                }
                shape
            }
        };
        Ok(TypeRef::maybe_null(shape.ty, shape.nullable))
    }
}

/// An operation as the document has it: its path, method, path item and operation object.
struct Found<'a> {
    path: String,
    method: Method,
    item: Node<'a>,
    op: Node<'a>,
}

/// The names operations claim, in path order: operationIds (given or derived), method names
/// and, per area, builder names.
struct OperationNames {
    /// The operationIds the document gives: a derived one steps aside from each.
    given: BTreeSet<String>,
    seen_ids: BTreeSet<String>,
    fn_names: Namespace,
    builder_names: BTreeMap<String, Namespace>,
}

impl OperationNames {
    fn new(found: &[Found<'_>]) -> Self {
        OperationNames {
            given: found
                .iter()
                .filter_map(|f| f.op.str("operationId").map(str::to_owned))
                .collect(),
            seen_ids: BTreeSet::new(),
            fn_names: Namespace::with_reserved(&["new", "runtime", "from_runtime"]),
            builder_names: BTreeMap::new(),
        }
    }

    /// The names of the next operation; an operationId may occur once.
    fn claim(
        &mut self,
        path: String,
        method: Method,
        op: &Node<'_>,
        areas: &[(String, Area)],
    ) -> Result<OpBase> {
        let id = match op.str("operationId") {
            Some(id) => id.to_owned(),
            None => derived_id(method.key(), &path, &self.given, &self.seen_ids),
        };
        if !self.seen_ids.insert(id.clone()) {
            return Err(op.error(format!("duplicate operationId `{id}`")));
        }
        let tag = tag_of(op);
        let area = areas
            .iter()
            .find(|(t, _)| *t == tag)
            .map(|(_, a)| a.module.clone())
            .unwrap_or_default();
        let fn_name = self.fn_names.claim(naming::snake(&id));
        // Builders live in their area's own `builders` module: no model name is in the way.
        let builder_name = self
            .builder_names
            .entry(area.clone())
            .or_default()
            .claim(naming::camel(&id));
        Ok(OpBase {
            id,
            fn_name,
            builder_name,
            method,
            path,
            area,
        })
    }
}

/// A node's `description`, trimmed; none when empty.
fn description(node: &Node<'_>) -> Option<String> {
    node.str("description")
        .map(|s| s.trim().to_owned())
        .filter(|s| !s.is_empty())
}

/// An operation's first tag, or [`UNTAGGED`].
fn tag_of(op: &Node<'_>) -> String {
    op.strings("tags")
        .into_iter()
        .next()
        .unwrap_or_else(|| UNTAGGED.to_owned())
}

/// Names decided for an operation before its parts are lowered.
struct OpBase {
    id: String,
    fn_name: String,
    builder_name: String,
    method: Method,
    path: String,
    area: String,
}

/// The builder members this operation's builder has besides its parameters: the fixed ones,
/// plus `body`, `idempotency_key`, `operation_format`, `into_stream`, `wait`, the other
/// formats' `send_*`, `download`, `error_body` and `response_headers` where they apply (a
/// parameter is renamed only for a member its builder has).
fn builder_members(
    op: &Node<'_>,
    params: &[Node<'_>],
    root: &serde_json::Value,
) -> Vec<&'static str> {
    let mut out = BUILDER_RESERVED.to_vec();
    out.extend(response_members(op, root));
    if op.get("requestBody").is_some() {
        out.push("body");
    }
    let idempotency_header = params.iter().any(|p| {
        p.str("in") == Some("header")
            && p.str("name")
                .is_some_and(|n| n.eq_ignore_ascii_case(headers::IDEMPOTENCY_KEY))
    });
    if op.get("x-idempotency-key").is_some() || idempotency_header {
        out.push("idempotency_key");
    }
    if op.flag("x-operation-envelope") {
        out.push("operation_format");
    }
    if op.get("x-pagination").is_some() {
        out.push("into_stream");
    }
    if op.get("x-poll").is_some() {
        out.extend(["wait", "wait_with"]);
    }
    out
}

/// The builder members the operation's responses give it: `send_json`/`send_text`/`send_bytes`
/// when its success comes in several kinds, `download` when one is bytes, `error_body` when an
/// error response has a body, `response_headers` when the success documents headers.
fn response_members(op: &Node<'_>, root: &serde_json::Value) -> Vec<&'static str> {
    let responses: Vec<(&str, Node<'_>)> = op
        .get("responses")
        .map(|r| r.entries())
        .unwrap_or_default()
        .into_iter()
        .filter_map(|(status, r)| Some((status, r.resolve(root).ok()?)))
        .collect();
    let mut out = Vec::new();
    let mut successes: Vec<&(&str, Node<'_>)> = responses
        .iter()
        .filter(|(s, _)| s.starts_with('2'))
        .collect();
    successes.sort_by(|a, b| a.0.cmp(b.0));
    if let Some((_, success)) = successes.first() {
        let kinds: BTreeSet<Kind> = success
            .get("content")
            .map(|c| c.entries())
            .unwrap_or_default()
            .iter()
            .map(|(media, object)| response_kind(media, object, root))
            .collect();
        if kinds.len() > 1 {
            out.extend(["send_json", "send_text", "send_bytes"]);
        }
        if kinds.contains(&Kind::Bytes) {
            out.push("download");
        }
        let headers = success
            .get("headers")
            .map(|h| h.entries())
            .unwrap_or_default();
        if headers
            .iter()
            .any(|(name, _)| !name.eq_ignore_ascii_case("content-type"))
        {
            out.push("response_headers");
        }
    }
    if responses
        .iter()
        .any(|(status, r)| !status.starts_with('2') && r.get("content").is_some())
    {
        out.push("error_body");
    }
    out
}

/// How a list-valued query parameter is serialized: `style: form` (the default) repeats the
/// name when `explode` is true (the default for form) and joins with commas when false.
impl Lowerer<'_> {
    /// How a parameter travels: a plain scalar (both `None`), a plain query list (`ListStyle`),
    /// or structured (any other shape or style, cookies, `content`), per OpenAPI's defaults:
    /// `form` with `explode: true` in query and cookie, `simple` in path and header.
    fn param_encoding(
        &self,
        p: &Node<'_>,
        location: ParamLocation,
        ty: &TypeRef,
    ) -> Result<(Option<ListStyle>, Option<Structured>), Skip> {
        if p.get("schema").is_none() && p.get("content").is_some() {
            return Ok((None, Some(Structured::Json)));
        }
        let default_style = match location {
            ParamLocation::Query | ParamLocation::Cookie => "form",
            ParamLocation::Path | ParamLocation::Header => "simple",
        };
        let style_name = p.str("style").unwrap_or(default_style);
        let style = match style_name {
            "simple" => ParamStyle::Simple,
            "label" => ParamStyle::Label,
            "matrix" => ParamStyle::Matrix,
            "form" => ParamStyle::Form,
            "spaceDelimited" => ParamStyle::SpaceDelimited,
            "pipeDelimited" => ParamStyle::PipeDelimited,
            "deepObject" => ParamStyle::DeepObject,
            other => {
                return Err(Skip(p.error(format!("unknown parameter style `{other}`"))));
            }
        };
        let explode = match p.value.get("explode") {
            Some(serde_json::Value::Bool(b)) => *b,
            Some(_) => return Err(Skip(p.error("`explode` must be a boolean"))),
            None => style == ParamStyle::Form,
        };
        let ty = ty.non_null();
        let scalar = self.displayable(ty, false);
        let plain = match location {
            ParamLocation::Path | ParamLocation::Header => style == ParamStyle::Simple && scalar,
            ParamLocation::Query => style == ParamStyle::Form && scalar,
            ParamLocation::Cookie => false,
        };
        if plain {
            return Ok((None, None));
        }
        let list_of_scalars = matches!(ty, TypeRef::Array(_)) && self.displayable(ty, true);
        if location == ParamLocation::Query && list_of_scalars {
            match (style, explode) {
                (
                    ParamStyle::Form | ParamStyle::SpaceDelimited | ParamStyle::PipeDelimited,
                    true,
                ) => {
                    return Ok((Some(ListStyle::Repeated), None));
                }
                (ParamStyle::Form, false) => return Ok((Some(ListStyle::Comma), None)),
                _ => {}
            }
        }
        Ok((None, Some(Structured::Style { style, explode })))
    }
}

fn idempotency(
    op: &Node<'_>,
    params: &[LoweredParam],
    method: Method,
) -> Result<Idempotency, Skip> {
    match op.str("x-idempotency-key") {
        Some("required") => return Ok(Idempotency::Required),
        Some("optional") => return Ok(Idempotency::Optional),
        Some("not-shown") => return Ok(Idempotency::NotShown),
        Some(other) => {
            return Err(Skip(Error::at(
                &format!("{}/x-idempotency-key", op.pointer),
                format!("unknown value `{other}`"),
            )));
        }
        None => {}
    }
    let header = params
        .iter()
        .find(|p| p.sent_by_runtime && p.param.name.eq_ignore_ascii_case(headers::IDEMPOTENCY_KEY));
    Ok(match header {
        Some(p) if p.param.required => Idempotency::Required,
        Some(_) => Idempotency::Optional,
        None if matches!(method, Method::Get | Method::Head | Method::Options) => Idempotency::None,
        None => Idempotency::None,
    })
}

/// Scopes from the operation's (or the document's) security requirements, sorted.
fn scopes(op: &Node<'_>, root: &Node<'_>) -> Vec<String> {
    let security = op.get("security").or_else(|| root.get("security"));
    let mut out = BTreeSet::new();
    for req in security.map(|s| s.items()).unwrap_or_default() {
        for (_, list) in req.entries() {
            for s in list.items() {
                if let Some(s) = s.value.as_str() {
                    out.insert(s.to_owned());
                }
            }
        }
    }
    out.into_iter().collect()
}

/// How a request body of this media type (and media type object) can be sent, if at all.
fn body_encoding(media: &str, object: &Node<'_>, root: &serde_json::Value) -> BodyEncoding {
    let lower = media.to_ascii_lowercase();
    let essence = lower.split(';').next().unwrap_or("").trim();
    let binary_schema = object
        .get("schema")
        .and_then(|s| s.resolve(root).ok())
        .is_some_and(|s| {
            s.str("type") == Some("string")
                && (s.str("format") == Some("binary") || s.get("contentMediaType").is_some())
        });
    if binary_schema {
        BodyEncoding::Binary
    } else if is_json(essence) {
        BodyEncoding::Json
    } else if essence == "application/x-www-form-urlencoded" {
        BodyEncoding::Form
    } else if essence == "multipart/form-data" || essence == "multipart/mixed" {
        BodyEncoding::Multipart
    } else if essence.starts_with("text/") {
        BodyEncoding::Text
    } else {
        BodyEncoding::Binary
    }
}

fn is_json(media: &str) -> bool {
    let media = media.to_ascii_lowercase();
    media == "application/json" || media.ends_with("+json") || media.contains("/json")
}

/// Where a parameter travels.
fn param_location(p: &Node<'_>) -> Result<ParamLocation, Skip> {
    match p.str("in") {
        Some("path") => Ok(ParamLocation::Path),
        Some("query") => Ok(ParamLocation::Query),
        Some("header") => Ok(ParamLocation::Header),
        Some("cookie") => Ok(ParamLocation::Cookie),
        other => Err(Skip(p.error(format!(
            "unsupported construct: parameter in `{}`",
            other.unwrap_or("?")
        )))),
    }
}

/// A required parameter that admits `null` is an `Option` argument (`None`: not sent); an
/// optional one already is. A path segment cannot be null.
fn argument_type(ty: TypeRef, nullable: bool, required: bool, location: ParamLocation) -> TypeRef {
    if required && location != ParamLocation::Path {
        TypeRef::maybe_null(ty, nullable)
    } else {
        ty
    }
}

/// Path parameters first, in template order, then the others: every template variable must
/// be declared, and every path parameter must occur in the template.
fn in_template_order(
    mut params: Vec<LoweredParam>,
    path: &str,
    op: &Node<'_>,
) -> Result<Vec<LoweredParam>, Skip> {
    let mut ordered = Vec::new();
    for var in template_vars(path) {
        let Some(i) = params
            .iter()
            .position(|p| p.param.location == ParamLocation::Path && p.param.name == var)
        else {
            return Err(Skip(op.error(format!(
                "path template variable `{{{var}}}` has no path parameter"
            ))));
        };
        ordered.push(params.remove(i));
    }
    if let Some(p) = params
        .iter()
        .map(|p| &p.param)
        .find(|p| p.location == ParamLocation::Path)
    {
        return Err(Skip(op.error(format!(
            "path parameter `{}` does not occur in the path template",
            p.name
        ))));
    }
    ordered.extend(params);
    Ok(ordered)
}

fn template_vars(path: &str) -> Vec<String> {
    path.split('{')
        .skip(1)
        .filter_map(|s| s.split_once('}').map(|(v, _)| v.to_owned()))
        .collect()
}

/// The kind of a success body, by media type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    Json,
    Text,
    Bytes,
}

/// One kind of body the success response comes in, with its media types in document order.
struct Offered {
    success: Success,
    media_types: Vec<String>,
}

/// How a response body of this media type reads: JSON (`application/json`, `+json`, or a
/// wildcard whose schema is not a binary string), text (`text/*`), or bytes (anything else).
fn response_kind(media: &str, object: &Node<'_>, root: &serde_json::Value) -> Kind {
    let lower = media.to_ascii_lowercase();
    let essence = lower.split(';').next().unwrap_or("").trim();
    let binary_schema = object
        .get("schema")
        .and_then(|s| s.resolve(root).ok())
        .is_some_and(|s| {
            s.str("type") == Some("string")
                && (s.str("format") == Some("binary") || s.get("contentMediaType").is_some())
        });
    if is_json(essence) {
        Kind::Json
    } else if essence.starts_with("text/") {
        Kind::Text
    } else if (essence == "*/*" || essence == "application/*")
        && object.get("schema").is_some()
        && !binary_schema
    {
        Kind::Json
    } else {
        Kind::Bytes
    }
}

/// The kinds a success response's `content` offers, JSON first, then text, then bytes; one
/// `Success::Empty` when it has none.
fn offered(
    content: &[(&str, Node<'_>)],
    json_ty: Option<&TypeRef>,
    root: &serde_json::Value,
) -> Vec<Offered> {
    let mut kinds: BTreeMap<Kind, Vec<String>> = BTreeMap::new();
    for (media, object) in content {
        // Only what can travel in a header: visible ASCII.
        if media.bytes().all(|b| b.is_ascii_graphic() || b == b' ') {
            kinds
                .entry(response_kind(media, object, root))
                .or_default()
                .push((*media).to_owned());
        }
    }
    if kinds.is_empty() {
        return vec![Offered {
            success: Success::Empty,
            media_types: Vec::new(),
        }];
    }
    kinds
        .into_iter()
        .map(|(kind, media_types)| Offered {
            success: match kind {
                Kind::Json => json_ty.cloned().map_or(Success::Untyped, Success::Json),
                Kind::Text => Success::Text,
                Kind::Bytes => Success::Binary,
            },
            media_types,
        })
        .collect()
}

/// The default success format, the `Accept` it sends (none for JSON alone) and the other
/// formats as `send_*` methods.
fn success_formats(formats: Vec<Offered>) -> (Success, Vec<String>, Vec<Alternative>) {
    let mut formats = formats.into_iter();
    let Some(default) = formats.next() else {
        return (Success::Untyped, Vec::new(), Vec::new());
    };
    let alternatives: Vec<Alternative> = formats
        .map(|f| Alternative {
            method: match f.success {
                Success::Text => "send_text",
                Success::Binary => "send_bytes",
                _ => "send_json",
            }
            .to_owned(),
            success: f.success,
            accept: f.media_types,
        })
        .collect();
    let json = matches!(default.success, Success::Json(_) | Success::Untyped);
    let accept = if json && alternatives.is_empty() {
        Vec::new()
    } else {
        default.media_types
    };
    (default.success, accept, alternatives)
}

/// The name of an inline error body's type, from its shape rather than the operation that
/// happens to declare it first (every operation declaring the same shape shares the type): its
/// `title`, else `Error` and its first three property names (`ErrorCodeMessage`), else
/// `ErrorBody`.
fn error_type_name(schema: &Node<'_>) -> String {
    if let Some(title) = schema.str("title").filter(|t| !t.trim().is_empty()) {
        return naming::camel(title);
    }
    let mut properties: Vec<&str> = schema
        .value
        .get("properties")
        .and_then(serde_json::Value::as_object)
        .map(|p| p.keys().map(String::as_str).collect())
        .unwrap_or_default();
    properties.sort_unstable();
    let words: String = properties
        .iter()
        .take(3)
        .map(|p| naming::camel(p))
        .collect();
    match words.as_str() {
        "" => "ErrorBody".to_owned(),
        w if w.starts_with("Error") => w.to_owned(),
        w => format!("Error{w}"),
    }
}

/// Whether `key` names responses as the Responses Object allows: an HTTP status code, a range
/// (`1XX` to `5XX`), or `default`.
fn is_response_key(key: &str) -> bool {
    let range = |a: u8, b: u8| a.eq_ignore_ascii_case(&b'X') && b.eq_ignore_ascii_case(&b'X');
    key == "default"
        || matches!(key.as_bytes(), [b'1'..=b'5', a, b]
            if (a.is_ascii_digit() && b.is_ascii_digit()) || range(*a, *b))
}

/// The document's example of the body of media type object `media`: its `example`, else the
/// `value` of its first Example Object (`$ref`s resolved; one with `externalValue` has none),
/// else its schema's `example` or first `examples` item.
fn body_example(media: &Node<'_>, root: &serde_json::Value) -> Option<serde_json::Value> {
    let resolved = |node: Node<'_>| node.resolve(root).ok().map(|n| n.value.clone());
    if let Some(example) = media.get("example") {
        return Some(example.value.clone());
    }
    let first = media
        .get("examples")
        .and_then(|e| e.entries().into_iter().next());
    if let Some(value) = first.and_then(|(_, e)| e.resolve(root).ok()?.get("value")) {
        return Some(value.value.clone());
    }
    let schema = media.get("schema")?.resolve(root).ok()?;
    match schema.get("example") {
        Some(example) => resolved(example),
        None => schema.get("examples")?.index(0).map(|e| e.value.clone()),
    }
}

/// The operationId of an operation the document gives none (`openapi_conventions`'s rule), with
/// a number appended when another operation already has it: `/a_b` and `/a/b` both derive
/// `getAB`, and the second path in sorted order becomes `getAB2`.
fn derived_id(
    method: &str,
    path: &str,
    given: &BTreeSet<String>,
    taken: &BTreeSet<String>,
) -> String {
    let id = openapi_conventions::operation_id::derive(method, path);
    let free = |candidate: &String| !given.contains(candidate) && !taken.contains(candidate);
    if free(&id) {
        return id;
    }
    let mut n = 2;
    loop {
        let candidate = format!("{id}{n}");
        if free(&candidate) {
            return candidate;
        }
        n += 1;
    }
}
