//! Lowering operations: parameters, bodies, responses, pagination and the contract extensions.

use super::schema::{constraints, doc_of};
use super::{Lowerer, security};
use crate::error::{Error, Result};
use crate::ir::{
    Alternative, Area, Body, BodyEncoding, FieldAccess, Idempotency, ListStyle, Method, Operation,
    PageModel, Pagination, Param, ParamLocation, ParamStyle, ResponseDef, Skipped, Structured,
    Success, TypeKind, TypeRef,
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
        let mut found = Vec::new();
        if let Some(paths) = root.get("paths") {
            let mut entries = paths.entries();
            entries.sort_by(|a, b| a.0.cmp(b.0));
            for (path, item) in entries {
                let item = item.resolve(self.root)?;
                for method in Method::ALL {
                    let key = method.key();
                    if let Some(op) = item.get(key) {
                        found.push((path.to_owned(), method, item.clone(), op));
                    }
                }
            }
        }
        let mut tags: Vec<String> = found
            .iter()
            .map(|(_, _, _, op)| {
                op.strings("tags")
                    .into_iter()
                    .next()
                    .unwrap_or_else(|| UNTAGGED.to_owned())
            })
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        tags.sort();
        let areas = super::areas_for(root, &tags);
        let mut fn_names = Namespace::with_reserved(&["new", "runtime", "from_runtime"]);
        let mut seen_ids = BTreeSet::new();
        let mut builder_names: BTreeMap<String, Namespace> = BTreeMap::new();
        let mut operations = Vec::new();
        let mut skipped = Vec::new();
        // A derived operationId steps aside from every id the document gives.
        let given: BTreeSet<String> = found
            .iter()
            .filter_map(|(_, _, _, op)| op.str("operationId").map(str::to_owned))
            .collect();
        for (path, method, item, op) in found {
            let id = match op.str("operationId") {
                Some(id) => id.to_owned(),
                None => derived_id(method.key(), &path, &given, &seen_ids),
            };
            if !seen_ids.insert(id.clone()) {
                return Err(op.error(format!("duplicate operationId `{id}`")));
            }
            let tag = op
                .strings("tags")
                .into_iter()
                .next()
                .unwrap_or_else(|| UNTAGGED.to_owned());
            let area = areas
                .iter()
                .find(|(t, _)| *t == tag)
                .map(|(_, a)| a.module.clone())
                .unwrap_or_default();
            let fn_name = fn_names.claim(naming::snake(&id));
            // Builders live in their area's own `builders` module: no model name is in the way.
            let builder_name = builder_names
                .entry(area.clone())
                .or_default()
                .claim(naming::camel(&id));
            let base = OpBase {
                id,
                fn_name,
                builder_name,
                method,
                path,
                area,
            };
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
        let poll = self.poll(op, &success).map_err(Skip::from)?;
        let idempotency = idempotency(op, &params, base.method)?;
        let destructive = super::effects::destructive(op)?;
        let charges = super::effects::charges(op)?;
        let grants_access = super::effects::grants_access(op)?;
        let pagination = match op.get("x-pagination") {
            Some(p) => Some(self.pagination(&p, &success, &params).map_err(Skip::from)?),
            None => None,
        };
        let params = params
            .into_iter()
            .filter(|p| !p.sent_by_runtime)
            .map(|p| p.param)
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
            description: op
                .str("description")
                .map(|s| s.trim().to_owned())
                .filter(|s| !s.is_empty()),
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
        let mut merged: Vec<Node<'a>> = Vec::new();
        for list in [item.get("parameters"), op.get("parameters")]
            .into_iter()
            .flatten()
        {
            for p in list.items() {
                let p = p.resolve(self.root)?;
                let key = (
                    p.str("in").map(str::to_owned),
                    p.str("name").map(str::to_owned),
                );
                merged.retain(|m| {
                    (
                        m.str("in").map(str::to_owned),
                        m.str("name").map(str::to_owned),
                    ) != key
                });
                merged.push(p);
            }
        }
        let envelope = op.flag("x-operation-envelope");
        let mut names = Namespace::with_reserved(&builder_members(op, &merged, self.root));
        let mut out = Vec::new();
        for p in merged {
            let Some(name) = p.str("name") else {
                return Err(Skip(p.error("parameter without `name`")));
            };
            let location = match p.str("in") {
                Some("path") => ParamLocation::Path,
                Some("query") => ParamLocation::Query,
                Some("header") => ParamLocation::Header,
                Some("cookie") => ParamLocation::Cookie,
                other => {
                    return Err(Skip(p.error(format!(
                        "unsupported construct: parameter in `{}`",
                        other.unwrap_or("?")
                    ))));
                }
            };
            let lower = name.to_ascii_lowercase();
            // The runtime also sends `x-svc-response-format` itself (`operation_format`) for
            // operations with the envelope.
            let runtime_header = (location == ParamLocation::Header
                && (RUNTIME_HEADERS.contains(&lower.as_str())
                    || (envelope && lower == headers::RESPONSE_FORMAT)))
                || self.sent_by_a_scheme(location, name);
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
            let (list_style, structured) = if runtime_header {
                (None, None)
            } else {
                self.param_encoding(&p, location, &ty)?
            };
            let rust_name = if runtime_header {
                naming::snake(name)
            } else {
                names.claim_spelled(naming::snake(name), name)
            };
            let required = location == ParamLocation::Path || p.flag("required");
            // A required parameter that admits `null` is an `Option` argument (`None`: not
            // sent); an optional one already is. A path segment cannot be null.
            let ty = if required && location != ParamLocation::Path {
                TypeRef::maybe_null(ty, nullable)
            } else {
                ty
            };
            out.push(LoweredParam {
                param: Param {
                    name: name.to_owned(),
                    rust_name,
                    location,
                    required,
                    ty,
                    doc: doc_of(&p),
                    deprecated: p.flag("deprecated"),
                    constraints: cons,
                    list_style,
                    structured,
                },
                sent_by_runtime: runtime_header,
            });
        }
        // Path parameters first, in template order; every template variable must be declared.
        let mut ordered = Vec::new();
        for var in template_vars(&base.path) {
            match out
                .iter()
                .position(|p| p.param.location == ParamLocation::Path && p.param.name == var)
            {
                Some(i) => ordered.push(out.remove(i)),
                None => {
                    return Err(Skip(op.error(format!(
                        "path template variable `{{{var}}}` has no path parameter"
                    ))));
                }
            }
        }
        if let Some(p) = out
            .iter()
            .map(|p| &p.param)
            .find(|p| p.location == ParamLocation::Path)
        {
            return Err(Skip(op.error(format!(
                "path parameter `{}` does not occur in the path template",
                p.name
            ))));
        }
        ordered.extend(out);
        Ok(ordered)
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
        let mut formats = Vec::new();
        let mut first_success = true;
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
            let content = resp.get("content").map(|c| c.entries()).unwrap_or_default();
            let schema = content
                .iter()
                .find(|(k, m)| response_kind(k, m, self.root) == Kind::Json)
                .and_then(|(_, m)| m.get("schema"));
            let ty = match &schema {
                Some(s) if is_success => {
                    let hint = if first_success {
                        format!("{camel}Response")
                    } else {
                        format!("{camel}Response{status}")
                    };
                    let shape = self.lower_schema(s, &hint)?;
                    Some(TypeRef::maybe_null(shape.ty, shape.nullable))
                }
                // An error body: its own type, named after the status when inline; an inline
                // schema equal to one met before (annotations aside) reuses that one's type.
                Some(s) => {
                    let key = s
                        .reference()
                        .is_none()
                        .then(|| super::schema::shape_key(s.value));
                    match key
                        .as_ref()
                        .and_then(|k| self.inline_errors.get(k))
                        .cloned()
                    {
                        Some(shape) => {
                            self.schema_types.insert(s.pointer.clone(), shape.clone());
                            Some(TypeRef::maybe_null(shape.ty, shape.nullable))
                        }
                        None => {
                            let shape = self.lower_schema(s, &error_type_name(s))?;
                            if let Some(key) = key {
                                self.inline_errors.insert(key, shape.clone());
                            }
                            Some(TypeRef::maybe_null(shape.ty, shape.nullable))
                        }
                    }
                }
                None => None,
            };
            if is_success && first_success {
                formats = offered(&content, ty.as_ref(), self.root);
                first_success = false;
            }
            out.push(ResponseDef {
                status: status.to_owned(),
                description: resp
                    .str("description")
                    .map(|s| s.trim().to_owned())
                    .filter(|s| !s.is_empty()),
                ty,
                error_codes: resp.strings("x-error-codes"),
                headers: super::response_headers::headers_of(&resp, self.root)?,
            });
        }
        Ok((out, formats))
    }

    fn pagination(
        &self,
        node: &Node<'a>,
        success: &Success,
        params: &[LoweredParam],
    ) -> Result<Pagination> {
        let model = match node.str("model") {
            Some("page") => PageModel::Page,
            Some("cursor") => PageModel::Cursor,
            Some("offset") => PageModel::Offset,
            other => {
                return Err(node.error(format!(
                    "unknown `x-pagination` model `{}`",
                    other.unwrap_or("?")
                )));
            }
        };
        let Success::Json(TypeRef::Named(resp)) = success else {
            return Err(node.error("`x-pagination` needs a named object success response"));
        };
        let fields = match self.defs.iter().find(|d| &d.name == resp).map(|d| &d.kind) {
            Some(TypeKind::Struct { fields, .. }) => fields,
            _ => {
                return Err(node.error(format!(
                    "`x-pagination`: response `{resp}` is not an object"
                )));
            }
        };
        let field = |key: &str, default: &str| {
            let wire = node.str(key).unwrap_or(default);
            fields.iter().find(|f| f.name == wire).ok_or_else(|| {
                node.error(format!(
                    "`x-pagination`: response `{resp}` has no field `{wire}`"
                ))
            })
        };
        let access = |f: &crate::ir::Field| FieldAccess {
            rust_name: f.rust_name.clone(),
            optional: !f.required || f.nullable,
            nullable: !f.required && f.nullable,
            ty: f.ty.clone(),
        };
        let items = field("items", "items")?;
        let TypeRef::Array(item_ty) = &items.ty else {
            return Err(node.error(format!(
                "`x-pagination`: field `{}` is not an array",
                items.name
            )));
        };
        let (param_key, next_key, default_param, default_next) = match model {
            PageModel::Page => ("page", "pages", "page", "pages"),
            PageModel::Cursor => ("cursor", "next_cursor", "cursor", "next_cursor"),
            PageModel::Offset => ("offset", "next_offset", "offset", "next_offset"),
        };
        let wire_param = node.str(param_key).unwrap_or(default_param);
        let Some(param) = params
            .iter()
            .map(|p| &p.param)
            .find(|p| p.name == wire_param)
        else {
            return Err(node.error(format!(
                "`x-pagination`: the operation has no parameter `{wire_param}`"
            )));
        };
        if param.required {
            return Err(node.error(format!(
                "`x-pagination`: parameter `{wire_param}` must be optional"
            )));
        }
        if param.location != ParamLocation::Query {
            return Err(node.error(format!(
                "`x-pagination`: parameter `{wire_param}` is a {} parameter; the continuation must be a query parameter",
                param.location.as_str()
            )));
        }
        let next = field(next_key, default_next)?;
        let page = match model {
            PageModel::Page => Some(field("page_field", "page")?),
            _ => None,
        };
        // The types the continuation can travel in: a number for pages and offsets, text (or a
        // number, parsed) for a cursor.
        let is_int = |ty: &TypeRef| matches!(ty, TypeRef::Int(_));
        let (param_fits, next_fits, wanted) = match model {
            PageModel::Page | PageModel::Offset => {
                (is_int(&param.ty), is_int(&next.ty), "an integer")
            }
            // The builder parses the cursor into the parameter's type.
            PageModel::Cursor => (
                matches!(
                    param.ty,
                    TypeRef::String
                        | TypeRef::Int(_)
                        | TypeRef::Float
                        | TypeRef::Uuid
                        | TypeRef::Decimal
                ),
                next.ty == TypeRef::String,
                "a string",
            ),
        };
        if !param_fits {
            return Err(node.error(format!(
                "`x-pagination`: parameter `{wire_param}` must be {}",
                if model == PageModel::Cursor {
                    "a string, a number or a uuid"
                } else {
                    "an integer"
                }
            )));
        }
        let wrong_field = |f: &crate::ir::Field, wanted: &str| {
            node.error(format!(
                "`x-pagination`: response field `{}` of `{resp}` must be {wanted}",
                f.name
            ))
        };
        if !next_fits {
            return Err(wrong_field(next, wanted));
        }
        if let Some(page) = page
            && !is_int(&page.ty)
        {
            return Err(wrong_field(page, "an integer"));
        }
        Ok(Pagination {
            model,
            items: access(items),
            item_ty: (**item_ty).clone(),
            request_param: param.rust_name.clone(),
            request_param_ty: param.ty.clone(),
            next: access(next),
            page: page.map(access),
        })
    }
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
