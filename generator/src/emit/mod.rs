//! Emitting: the model becomes formatted Rust files (and the crate's Cargo.toml).
//!
//! Token streams are built with `quote!`, parsed with `syn` and printed with `prettyplease`;
//! the fixed `@generated` header is added after formatting. Output depends only on the model.

mod conventions;
pub mod docs;
mod examples;
mod files;
mod manifest;
mod operations;
mod pagination;
mod types;
mod webhooks;

pub use files::{Layout, ManifestExtras, Options};

use crate::error::{Error, Result};
use crate::ir::{Api, Pagination, Success, TypeDef, TypeKind, TypeRef};
use proc_macro2::TokenStream;
use std::collections::BTreeMap;
use std::path::PathBuf;

/// One output file, relative to the crate directory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GeneratedFile {
    /// Path relative to the crate root (`src/generated/dns.rs`).
    pub path: PathBuf,
    /// Full contents, header included.
    pub contents: String,
}

/// Emits every file of the crate for `api`.
pub fn emit(api: &Api, options: &Options) -> Result<Vec<GeneratedFile>> {
    files::crate_files(api, options)
}

/// What emitters need to know besides the item at hand.
pub struct Ctx<'a> {
    defs: BTreeMap<&'a str, &'a TypeDef>,
    pagination: BTreeMap<&'a str, &'a Pagination>,
    /// The module being emitted.
    pub current: String,
    /// Emitting into the `builders` module inside `current` (one level deeper).
    pub nested: bool,
    /// The generated crate's name as a path (`cloud_sdk`), for doc examples.
    crate_ident: String,
}

impl<'a> Ctx<'a> {
    /// A context for emitting into `current`.
    pub fn new(api: &'a Api, current: &str) -> Self {
        let mut pagination = BTreeMap::new();
        for op in &api.operations {
            if let (Some(pg), Success::Json(TypeRef::Named(n))) = (&op.pagination, &op.success) {
                pagination.entry(n.as_str()).or_insert(pg);
            }
        }
        Ctx {
            defs: api.types.iter().map(|d| (d.name.as_str(), d)).collect(),
            pagination,
            current: current.to_owned(),
            nested: false,
            crate_ident: "sdk".to_owned(),
        }
    }

    /// The same context, for the crate called `crate_name`.
    pub fn in_crate(self, crate_name: &str) -> Self {
        Ctx {
            crate_ident: crate_name.replace('-', "_"),
            ..self
        }
    }

    /// The generated crate's name as a path.
    pub fn crate_ident(&self) -> &str {
        &self.crate_ident
    }

    /// The named type `name`, if defined.
    pub fn def(&self, name: &str) -> Option<&'a TypeDef> {
        self.defs.get(name).copied()
    }

    /// A context for emitting into the `builders` module of `current`.
    pub fn builders(api: &'a Api, current: &str) -> Self {
        Ctx {
            nested: true,
            ..Ctx::new(api, current)
        }
    }

    /// Tokens naming `ty` from the current module.
    pub fn ty(&self, ty: &TypeRef) -> TokenStream {
        types::type_ref(self, ty)
    }

    /// The module a named type lives in.
    pub fn module_of(&self, name: &str) -> Option<&str> {
        self.defs.get(name).map(|d| d.module.as_str())
    }

    /// Whether `ty` is `target`, directly or through aliases.
    pub fn resolves_to(&self, ty: &TypeRef, target: &TypeRef) -> bool {
        let mut current = ty;
        for _ in 0..16 {
            if current == target {
                return true;
            }
            match current {
                TypeRef::Named(n) => match self.defs.get(n.as_str()).map(|d| &d.kind) {
                    Some(TypeKind::Alias { target: next }) => current = next,
                    _ => return false,
                },
                _ => return false,
            }
        }
        false
    }

    /// Which payload types of an enum get `impl From<Payload> for Enum`, one flag per member.
    ///
    /// The rule (the same for `oneOf`/`anyOf` unions and `x-at-most-one-of` choice enums): a
    /// member converts when its payload is a named struct, enum or union (not an alias, not
    /// `owner` itself) that no other member of the same enum wraps. Scalars, lists, maps and
    /// aliases never convert: a `From<String>` or `From<Uuid>` would pick a variant by its
    /// Rust type, which says nothing about what the value means (a zone file and a hostname
    /// are both strings), and two members sharing a payload type would make the choice
    /// ambiguous. A named type carries its meaning, so converting from it cannot surprise.
    pub fn converting_members(&self, owner: &str, payloads: &[&TypeRef]) -> Vec<bool> {
        payloads
            .iter()
            .map(|ty| match ty {
                TypeRef::Named(n) => {
                    n != owner
                        && matches!(
                            self.defs.get(n.as_str()).map(|d| &d.kind),
                            Some(
                                TypeKind::Struct { .. }
                                    | TypeKind::Enum { .. }
                                    | TypeKind::Union { .. }
                            )
                        )
                        && payloads.iter().filter(|other| **other == *ty).count() == 1
                }
                _ => false,
            })
            .collect()
    }

    /// Whether `ty` names a union with at least one `From` conversion (see
    /// [`Ctx::converting_members`]); arguments of such a type take `impl Into<Union>`.
    pub fn converts_into(&self, ty: &TypeRef) -> bool {
        let TypeRef::Named(n) = ty else {
            return false;
        };
        match self.defs.get(n.as_str()).map(|d| &d.kind) {
            Some(TypeKind::Union { variants, .. }) => {
                let payloads: Vec<&TypeRef> = variants.iter().map(|v| &v.ty).collect();
                self.converting_members(n, &payloads).contains(&true)
            }
            _ => false,
        }
    }

    /// `impl Paginated` for a response type of a paginated operation (empty otherwise).
    pub fn pagination_impl(&self, type_name: &str) -> TokenStream {
        match self.pagination.get(type_name) {
            Some(pg) => pagination::paginated_impl(self, type_name, pg),
            None => TokenStream::new(),
        }
    }
}

/// Formats tokens as a Rust file and prepends the `@generated` header.
pub fn format_file(header: &str, inner_doc: &str, tokens: TokenStream) -> Result<String> {
    let file: syn::File = syn::parse2(tokens).map_err(|e| {
        Error::at(
            "#",
            format!("internal error: emitted code does not parse: {e}"),
        )
    })?;
    let body = prettyplease::unparse(&file);
    let body = space_items(&body);
    let docs: String = inner_doc
        .lines()
        .map(|l| {
            if l.is_empty() {
                "//!\n".to_owned()
            } else {
                format!("//! {l}\n")
            }
        })
        .collect();
    Ok(format!("{header}\n\n{docs}\n{body}"))
}

/// Adds a blank line between top-level items so that diffs read well.
fn space_items(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 20);
    let mut prev: Option<&str> = None;
    for line in text.lines() {
        if let Some(p) = prev {
            let starts_item = !line.starts_with(' ') && !line.starts_with('}') && !line.is_empty();
            let prev_ends_item = p == "}" || (p.ends_with(';') && !p.starts_with([' ', '/', '#']));
            if starts_item && prev_ends_item {
                out.push('\n');
            }
        }
        out.push_str(line);
        out.push('\n');
        prev = Some(line);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{Ctx, operations, types};
    use crate::ir::Api;

    fn api(schemas: &str, paths: &str) -> Api {
        let text = format!(
            "openapi: 3.1.0\ninfo: {{title: t, version: '1'}}\npaths:\n{paths}\ncomponents:\n  schemas:\n{schemas}"
        );
        let doc = crate::read::parse(&text, "test").expect("parses");
        crate::lower::lower(&doc).expect("lowers")
    }

    fn type_tokens(api: &Api, name: &str) -> String {
        let def = api
            .types
            .iter()
            .find(|d| d.name == name)
            .expect("type exists");
        types::type_def(&Ctx::new(api, &def.module), def).to_string()
    }

    #[test]
    fn integer_ranges_pick_fitting_types() {
        let api = api(
            "    P:\n      type: object\n      required: [port]\n      properties:\n        port: {type: integer, minimum: 1, maximum: 65535}\n        count: {type: integer, minimum: 0}\n        delta: {type: integer}\n",
            "  {}",
        );
        let t = type_tokens(&api, "P");
        assert!(t.contains("pub port : u16"), "{t}");
        assert!(t.contains("pub count : Option < u64 >"), "{t}");
        assert!(t.contains("pub delta : Option < i64 >"), "{t}");
    }

    #[test]
    fn enums_keep_unknown_values() {
        let api = api("    S: {type: string, enum: [on, off]}\n", "  {}");
        let t = type_tokens(&api, "S");
        assert!(t.contains("Unknown (String)"), "{t}");
        assert!(
            t.contains(
                ":: sdk_runtime :: string_enum ! (S , Unknown , On = \"on\" , Off = \"off\")"
            ),
            "{t}"
        );
        assert!(!t.contains("serde (other)"), "{t}");
    }

    #[test]
    fn request_types_get_constructors_and_nullable_fields() {
        let api = api(
            "    R:\n      type: object\n      required: [name]\n      properties:\n        name: {type: string}\n        note: {type: [string, 'null']}\n",
            "  /r:\n    post:\n      operationId: makeR\n      requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/R'}}}}\n      responses: {'204': {description: ok}}\n",
        );
        let t = type_tokens(&api, "R");
        assert!(
            t.contains("pub fn new (name : impl Into < String >) -> Self"),
            "{t}"
        );
        assert!(t.contains(":: sdk_runtime :: Nullable < String >"), "{t}");
        assert!(t.contains("is_absent"), "{t}");
    }

    #[test]
    fn recursive_fields_are_boxed() {
        let api = api(
            "    N:\n      type: object\n      properties:\n        next: {$ref: '#/components/schemas/N'}\n        all: {type: array, items: {$ref: '#/components/schemas/N'}}\n",
            "  {}",
        );
        let t = type_tokens(&api, "N");
        assert!(t.contains("pub next : Option < Box < N > >"), "{t}");
        assert!(t.contains("pub all : Option < Vec < N > >"), "{t}");
    }

    #[test]
    fn operations_document_method_path_and_idempotency() {
        let api = api(
            "    X: {type: object}\n",
            "  /v1/x/{id}:\n    post:\n      operationId: doX\n      summary: Do x\n      x-idempotency-key: required\n      parameters: [{name: id, in: path, required: true, schema: {type: string}}]\n      responses: {'200': {description: ok}}\n",
        );
        let op = api.operations.first().expect("one operation");
        let t = op_text(&api, op);
        assert!(t.contains("Sends `POST /v1/x/{id}`"), "{t}");
        assert!(t.contains("Idempotency-Key: required"), "{t}");
        assert!(t.contains("pub fn idempotency_key"), "{t}");
        assert!(
            t.contains("request . path_param (\"id\" , & self . id)"),
            "{t}"
        );
    }

    fn op_tokens(api: &Api, id: &str) -> String {
        let op = api
            .operations
            .iter()
            .find(|o| o.operation_id == id)
            .expect("operation exists");
        op_text(api, op)
    }

    /// The client method and the builder of `op`, as token text.
    fn op_text(api: &Api, op: &crate::ir::Operation) -> String {
        let items =
            operations::operation(&Ctx::new(api, &op.area), &Ctx::builders(api, &op.area), op);
        format!("{} {}", items.client_method, items.builder)
    }

    #[test]
    fn builder_names_reserve_only_the_setters_the_builder_has() {
        let api = api(
            "    X: {type: object}\n",
            "  /ops:\n    get:\n      operationId: lookup\n      parameters: [{name: idempotency_key, in: query, schema: {type: string}}, {name: operation_format, in: query, schema: {type: string}}, {name: body, in: query, schema: {type: string}}, {name: timeout, in: query, schema: {type: string}}]\n      responses: {'200': {description: ok}}\n    post:\n      operationId: write\n      x-idempotency-key: required\n      x-operation-envelope: true\n      parameters: [{name: idempotency_key, in: query, schema: {type: string}}, {name: operation_format, in: query, schema: {type: string}}]\n      responses: {'202': {description: ok}}\n",
        );
        let read = op_tokens(&api, "lookup");
        assert!(
            read.contains("pub fn idempotency_key (mut self , value"),
            "{read}"
        );
        assert!(
            read.contains("pub fn operation_format (mut self , value"),
            "{read}"
        );
        assert!(read.contains("pub fn body (mut self , value"), "{read}");
        assert!(
            read.contains("pub fn timeout_2 (mut self , value"),
            "{read}"
        );
        assert!(!read.contains("idempotency_key_2"), "{read}");
        let write = op_tokens(&api, "write");
        assert!(
            write.contains("pub fn idempotency_key_2 (mut self , value"),
            "{write}"
        );
        assert!(
            write.contains("pub fn operation_format_2 (mut self , value"),
            "{write}"
        );
        assert!(
            write.contains("pub fn idempotency_key (mut self , key"),
            "{write}"
        );
    }

    #[test]
    fn operation_receipt_extension_returns_the_specs_own_type() {
        let api = api(
            "    Env: {type: object, properties: {operation: {type: object}}}\n",
            "  /ops/{id}:\n    get:\n      operationId: poll\n      x-operation-receipt: true\n      parameters: [{name: id, in: path, required: true, schema: {type: string}}]\n      responses: {'200': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/Env'}}}}}\n  /plain/{id}:\n    get:\n      operationId: plain\n      parameters: [{name: id, in: path, required: true, schema: {type: string}}]\n      responses: {'200': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/Env'}}}}}\n",
        );
        let t = op_tokens(&api, "poll");
        assert!(
            t.contains(":: sdk_runtime :: Response < super :: Env >"),
            "{t}"
        );
        assert!(!t.contains("operation_format"), "{t}");
        let t = op_tokens(&api, "plain");
        assert!(
            t.contains(":: sdk_runtime :: Response < super :: Env >"),
            "{t}"
        );
        let receipt = |id: &str| {
            api.operations
                .iter()
                .any(|o| o.operation_id == id && o.receipt)
        };
        assert!(receipt("poll") && !receipt("plain"));
    }

    #[test]
    fn open_objects_keep_unknown_members() {
        let api = api(
            "    Open:\n      type: object\n      additionalProperties: true\n      properties:\n        ok: {type: boolean}\n    Typed:\n      type: object\n      required: [name]\n      additionalProperties: {type: integer}\n      properties:\n        name: {type: string}\n        additional_properties: {type: string}\n    Closed:\n      type: object\n      additionalProperties: false\n      properties:\n        ok: {type: boolean}\n    Unsaid:\n      type: object\n      properties:\n        ok: {type: boolean}\n",
            "  /t:\n    post:\n      operationId: makeT\n      requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/Typed'}}}}\n      responses: {'200': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/Open'}}}}}\n",
        );
        let open = type_tokens(&api, "Open");
        assert!(
            open.contains("# [serde (flatten)] pub additional_properties : :: serde_json :: Map < String , :: serde_json :: Value > ,"),
            "{open}"
        );
        let typed = type_tokens(&api, "Typed");
        assert!(
            typed.contains("# [serde (flatten)] pub additional_properties_2 : :: std :: collections :: BTreeMap < String , i64 > ,"),
            "{typed}"
        );
        assert!(
            typed.contains("additional_properties_2 : :: std :: default :: Default :: default ()"),
            "{typed}"
        );
        for closed in ["Closed", "Unsaid"] {
            let t = type_tokens(&api, closed);
            assert!(!t.contains("flatten"), "{t}");
        }
    }

    #[test]
    fn envelope_operations_leave_the_format_header_to_the_runtime() {
        let header =
            "{name: x-svc-response-format, in: header, schema: {type: string, enum: [operation]}}";
        let api = api(
            "    X: {type: object}\n",
            &format!(
                "  /a:\n    post:\n      operationId: withEnvelope\n      x-operation-envelope: true\n      parameters: [{header}]\n      responses: {{'202': {{description: ok}}}}\n  /b:\n    post:\n      operationId: withoutEnvelope\n      parameters: [{header}]\n      responses: {{'202': {{description: ok}}}}\n"
            ),
        );
        let t = op_tokens(&api, "withEnvelope");
        assert!(!t.contains("x_svc_response_format"), "{t}");
        assert!(t.contains("pub fn operation_format"), "{t}");
        let t = op_tokens(&api, "withoutEnvelope");
        assert!(t.contains("pub fn x_svc_response_format"), "{t}");
    }

    #[test]
    fn query_lists_follow_style_and_explode() {
        let api = api(
            "    X: {type: object}\n",
            "  /l:\n    get:\n      operationId: list\n      parameters:\n        - {name: ids, in: query, schema: {type: array, items: {type: string}}}\n        - {name: tags, in: query, style: form, explode: false, schema: {type: array, items: {type: string}}}\n        - {name: more, in: query, style: form, explode: true, schema: {type: array, items: {type: integer}}}\n      responses: {'200': {description: ok}}\n",
        );
        let t = op_tokens(&api, "list");
        assert!(
            t.contains("for item in value . iter () { request . query (\"ids\" , item) ; }"),
            "{t}"
        );
        assert!(
            t.contains("for item in value . iter () { request . query (\"more\" , item) ; }"),
            "{t}"
        );
        assert!(
            t.contains("request . query_csv (\"tags\" , value . as_slice ())"),
            "{t}"
        );
        let api_bad = {
            let text = "openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths:\n  /l:\n    get:\n      operationId: deep\n      parameters: [{name: ids, in: query, style: deepObject, schema: {type: array, items: {type: string}}}]\n      responses: {'200': {description: ok}}\n";
            crate::lower::lower(&crate::read::parse(text, "test").expect("parses")).expect("lowers")
        };
        assert_eq!(api_bad.skipped.len(), 1, "{:?}", api_bad.skipped);
    }

    #[test]
    fn at_most_one_of_groups_can_be_named() {
        let api = api(
            "    Z:\n      type: object\n      properties:\n        a: {type: string}\n        b: {type: string}\n        c: {type: string}\n        d: {type: string}\n      x-at-most-one-of:\n        - {name: source, members: [a, b]}\n        - [c, d]\n",
            "  /z:\n    post:\n      operationId: makeZ\n      requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/Z'}}}}\n      responses: {'204': {description: ok}}\n",
        );
        let t = type_tokens(&api, "Z");
        assert!(t.contains("pub source : Option < ZSource >"), "{t}");
        assert!(t.contains("pub c_or_d : Option < ZCOrD >"), "{t}");
        assert!(
            t.contains("pub fn source (mut self , value : ZSource)"),
            "{t}"
        );
        assert!(t.contains("pub enum ZSource"), "{t}");
    }

    #[test]
    fn unions_of_distinct_named_types_convert_from_them() {
        let api = api(
            "    A: {type: object, properties: {a: {type: string}}}\n    B: {type: object, properties: {b: {type: string}}}\n    Label: {type: string}\n    U:\n      oneOf: [{$ref: '#/components/schemas/A'}, {$ref: '#/components/schemas/B'}, {type: string}, {$ref: '#/components/schemas/Label'}]\n    Twin:\n      anyOf: [{$ref: '#/components/schemas/A'}, {$ref: '#/components/schemas/A'}, {$ref: '#/components/schemas/B'}]\n    Scalars:\n      anyOf: [{type: string}, {type: integer}]\n    Holder:\n      type: object\n      required: [u]\n      properties:\n        u: {$ref: '#/components/schemas/U'}\n        s: {$ref: '#/components/schemas/Scalars'}\n        label: {$ref: '#/components/schemas/Label'}\n",
            "  /u:\n    post:\n      operationId: sendU\n      requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/U'}}}}\n      responses: {'204': {description: ok}}\n  /t:\n    post:\n      operationId: sendTwin\n      requestBody: {content: {application/json: {schema: {$ref: '#/components/schemas/Twin'}}}}\n      responses: {'204': {description: ok}}\n  /s:\n    post:\n      operationId: sendScalars\n      requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/Scalars'}}}}\n      responses: {'204': {description: ok}}\n  /h/{label}:\n    post:\n      operationId: sendHolder\n      parameters: [{name: label, in: path, required: true, schema: {$ref: '#/components/schemas/Label'}}]\n      requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/Holder'}}}}\n      responses: {'204': {description: ok}}\n",
        );
        let u = type_tokens(&api, "U");
        assert!(u.contains("impl From < A > for U"), "{u}");
        assert!(u.contains("impl From < B > for U"), "{u}");
        assert!(!u.contains("impl From < String >"), "{u}");
        assert!(!u.contains("impl From < Label >"), "{u}");
        let twin = type_tokens(&api, "Twin");
        assert!(!twin.contains("impl From < A >"), "{twin}");
        assert!(twin.contains("impl From < B > for Twin"), "{twin}");
        let scalars = type_tokens(&api, "Scalars");
        assert!(!scalars.contains("impl From"), "{scalars}");
        let holder = type_tokens(&api, "Holder");
        assert!(
            holder.contains("pub fn new (u : impl Into < U >)"),
            "{holder}"
        );
        assert!(holder.contains("u : u . into ()"), "{holder}");
        assert!(
            holder.contains("pub fn s (mut self , value : Scalars)"),
            "{holder}"
        );
        assert!(
            holder.contains("pub fn label (mut self , value : impl Into < String >)"),
            "{holder}"
        );
        let t = op_tokens(&api, "sendU");
        assert!(t.contains("body : impl Into < U >"), "{t}");
        assert!(t.contains("body : body . into ()"), "{t}");
        let t = op_tokens(&api, "sendTwin");
        assert!(
            t.contains("pub fn body (mut self , body : impl Into < super :: Twin >)"),
            "{t}"
        );
        let t = op_tokens(&api, "sendScalars");
        assert!(t.contains("body : Scalars"), "{t}");
        assert!(!t.contains("Into < Scalars >"), "{t}");
        let t = op_tokens(&api, "sendHolder");
        assert!(t.contains("label : impl Into < String >"), "{t}");
    }

    #[test]
    fn choice_groups_convert_only_from_unique_named_members() {
        let api = api(
            "    A: {type: object, properties: {a: {type: string}}}\n    B: {type: object, properties: {b: {type: string}}}\n    Z:\n      type: object\n      properties:\n        a: {$ref: '#/components/schemas/A'}\n        b: {$ref: '#/components/schemas/B'}\n        a2: {$ref: '#/components/schemas/A'}\n        id: {type: string, format: uuid}\n        template: {type: string, format: uuid}\n        file: {type: string}\n      x-at-most-one-of:\n        - {name: pick, members: [a, b, a2, id]}\n        - {name: source, members: [template, file]}\n",
            "  /z:\n    post:\n      operationId: makeZ\n      requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/Z'}}}}\n      responses: {'204': {description: ok}}\n",
        );
        let t = type_tokens(&api, "Z");
        assert!(t.contains("impl From < B > for ZPick"), "{t}");
        assert!(!t.contains("impl From < A >"), "{t}");
        assert!(!t.contains("impl From < :: uuid :: Uuid >"), "{t}");
        assert!(!t.contains("impl From < String >"), "{t}");
        assert!(
            t.contains("pub fn pick (mut self , value : impl Into < ZPick >)"),
            "{t}"
        );
        assert!(
            t.contains("pub fn source (mut self , value : ZSource)"),
            "{t}"
        );
    }

    #[test]
    fn non_json_bodies_travel_as_form_or_raw_bytes() {
        let api = api(
            "    Form:\n      type: object\n      required: [id]\n      properties:\n        id: {type: string, format: uuid}\n        ttl: {type: integer, minimum: 0}\n",
            "  /bin:\n    put:\n      operationId: putBin\n      requestBody: {required: true, content: {application/octet-stream: {schema: {type: string, format: binary}}}}\n      responses: {'204': {description: ok}}\n    post:\n      operationId: postAny\n      requestBody: {content: {'*/*': {schema: {type: string, format: binary}}}}\n      responses: {'204': {description: ok}}\n    patch:\n      operationId: patchBoth\n      requestBody: {required: true, content: {application/octet-stream: {schema: {type: string, format: binary}}, application/json: {schema: {$ref: '#/components/schemas/Form'}}}}\n      responses: {'204': {description: ok}}\n  /form:\n    post:\n      operationId: postForm\n      requestBody: {required: true, content: {application/x-www-form-urlencoded: {schema: {$ref: '#/components/schemas/Form'}}}}\n      responses: {'204': {description: ok}}\n  /nested:\n    post:\n      operationId: postNested\n      requestBody: {required: true, content: {application/x-www-form-urlencoded: {schema: {type: object, properties: {a: {type: array, items: {type: string}}}}}}}\n      responses: {'204': {description: ok}}\n  /multi:\n    post:\n      operationId: postMulti\n      requestBody: {required: true, content: {multipart/form-data: {schema: {type: object}}}}\n      responses: {'204': {description: ok}}\n",
        );
        let t = op_tokens(&api, "putBin");
        assert!(t.contains("body : impl Into < :: bytes :: Bytes >"), "{t}");
        assert!(
            t.contains("request . raw_body (self . body , \"application/octet-stream\")"),
            "{t}"
        );
        assert!(t.contains("raw bytes (`application/octet-stream`)"), "{t}");
        let t = op_tokens(&api, "postAny");
        assert!(
            t.contains("pub fn body (mut self , body : impl Into < :: bytes :: Bytes >)"),
            "{t}"
        );
        assert!(
            t.contains("request . raw_body (body , \"application/octet-stream\")"),
            "{t}"
        );
        let t = op_tokens(&api, "patchBoth");
        assert!(t.contains("request . json_body (& self . body) ?"), "{t}");
        let t = op_tokens(&api, "postForm");
        assert!(t.contains("request . form_body (& self . body) ?"), "{t}");
        let reasons: Vec<&str> = api.skipped.iter().map(|s| s.reason.as_str()).collect();
        assert_eq!(reasons.len(), 2, "{reasons:?}");
        assert!(
            reasons
                .iter()
                .any(|r| r.contains("~1nested/post/requestBody")
                    && r.contains("not an object of scalar properties")),
            "{reasons:?}"
        );
        assert!(
            reasons
                .iter()
                .any(|r| r.contains("~1multi/post/requestBody")
                    && r.contains("`multipart/form-data`")),
            "{reasons:?}"
        );
        let toml = super::files::crate_files(&api, &super::Options::workspace())
            .expect("emits")
            .into_iter()
            .find(|f| f.path.ends_with("Cargo.toml"))
            .expect("Cargo.toml");
        assert!(
            toml.contents.contains("bytes.workspace = true"),
            "{}",
            toml.contents
        );
    }
}
