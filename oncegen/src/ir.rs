//! The intermediate model: what the SDK consists of, independent of OpenAPI syntax.
//!
//! Produced by [`crate::lower`], read by [`crate::emit`]. All names are final Rust names;
//! every list is sorted, so the model (and everything emitted from it) is deterministic.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The whole API.
#[derive(Debug, Clone, Serialize)]
pub struct Api {
    /// `info.title`.
    pub title: String,
    /// `info.version`: the contract revision.
    pub version: String,
    /// `info.description`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// API areas (one per tag used by an operation), sorted by module name.
    pub areas: Vec<Area>,
    /// Operations, sorted by area then Rust name.
    pub operations: Vec<Operation>,
    /// Named types, sorted by module then name.
    pub types: Vec<TypeDef>,
    /// Operations left out of the SDK, with the reason.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub skipped: Vec<Skipped>,
    /// Requests the API sends to the user (`webhooks`, and operations' `callbacks`), sorted by
    /// name.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub webhooks: Vec<Webhook>,
    /// Every error code the spec ties to a response (`x-error-codes`), sorted by code.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub error_codes: Vec<ErrorCode>,
    /// The API's cross-cutting conventions the runtime's mechanisms are driven by.
    pub conventions: Conventions,
    /// The security schemes the runtime can send (`components.securitySchemes`), sorted by name.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub security_schemes: Vec<SecuritySchemeDef>,
    /// The document's `servers`, in document order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub servers: Vec<ServerDef>,
    /// The typed views of success responses' documented headers, one per distinct set, sorted
    /// by name (emitted in the shared `types` module).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub response_headers: Vec<HeadersDef>,
}

/// The documented headers of a success response, as one struct read from a response's
/// metadata: every operation documenting the same set shares it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HeadersDef {
    /// Rust name of the struct.
    pub name: String,
    /// The headers, by wire name (lower case).
    pub headers: Vec<ResponseHeader>,
}

/// A header a response documents.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ResponseHeader {
    /// Wire name, lower case.
    pub name: String,
    /// Rust name of its field.
    pub rust_name: String,
    /// Its type: a scalar parsed from the header's text (`String` for anything else).
    pub ty: TypeRef,
    /// Documentation.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub doc: Option<String>,
    /// Marked deprecated.
    #[serde(skip_serializing_if = "is_false")]
    pub deprecated: bool,
}

/// A server URL of the document (`servers`).
#[derive(Debug, Clone, Serialize)]
pub struct ServerDef {
    /// The URL as written (may be relative, may hold `{variables}`).
    pub url: String,
    /// The constant naming it (SCREAMING_SNAKE).
    pub rust_name: String,
    /// Its description.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Its variables, in document order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub variables: Vec<ServerVariable>,
}

/// A variable of a server URL.
#[derive(Debug, Clone, Serialize)]
pub struct ServerVariable {
    /// Its name in the URL.
    pub name: String,
    /// The argument naming it (snake case).
    pub rust_name: String,
    /// Its default.
    pub default: String,
    /// The values it may take (`enum`), if listed.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub values: Vec<String>,
    /// Its description.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub doc: Option<String>,
}

/// A security scheme (`components.securitySchemes`).
#[derive(Debug, Clone, Serialize)]
pub struct SecuritySchemeDef {
    /// Its key in the document.
    pub name: String,
    /// The `static` holding it (SCREAMING_SNAKE).
    pub rust_name: String,
    /// How its credential travels.
    pub kind: SchemeKind,
    /// The runtime's signed mode sends it (`x-signing`: the key and a signature made with a
    /// secret), not a credential of its own.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub signed: bool,
    /// Its description.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub doc: Option<String>,
}

/// How a scheme's credential travels.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum SchemeKind {
    /// `apiKey`: the key in a header, query parameter or cookie.
    ApiKey {
        /// `in`.
        location: ParamLocation,
        /// `name`.
        param: String,
    },
    /// `http basic`.
    Basic,
    /// `http bearer`, `oauth2`, `openIdConnect`: a bearer token.
    Bearer,
}

/// A webhook or callback: a request the API sends, with its payload type.
#[derive(Debug, Clone, Serialize)]
pub struct Webhook {
    /// Its name: the key under `webhooks`, or `operationId.callback` for a callback.
    pub name: String,
    /// Variant name in the generated `Webhook` enum.
    pub variant: String,
    /// The payload (`Json` when the request has no JSON schema).
    pub payload: TypeRef,
    /// Summary or description.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub doc: Option<String>,
    /// JSON pointer of the webhook's operation.
    pub pointer: String,
}

/// An error code (`error.code` of an error response), with where it is returned.
#[derive(Debug, Clone, Serialize)]
pub struct ErrorCode {
    /// The wire code.
    pub code: String,
    /// Variant name.
    pub variant: String,
    /// Operations and statuses that return it, sorted.
    pub returned_by: Vec<ErrorSource>,
    /// Whether the runtime or the caller may resend the identical request (`x-retry-codes`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub retry: Option<RetryCode>,
}

/// One operation and status that returns an [`ErrorCode`].
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct ErrorSource {
    /// The operation's `operationId`.
    pub operation_id: String,
    /// The response status (`409`, `5XX`).
    pub status: String,
}

/// Who resends the identical request (same key, same body) after an error code (`x-retry-codes`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RetryCode {
    /// The runtime waits (`Retry-After`) and resends within the call.
    Automatic,
    /// The caller may resend later (`Error::is_retryable`).
    Caller,
}

/// Cross-cutting conventions of the API, read from the spec's extensions.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Conventions {
    /// The operation that settles a write whose outcome is unknown (`x-operation-lookup`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lookup: Option<OperationLookup>,
    /// Where error bodies carry their members (`x-error-envelope`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error_envelope: Option<ErrorEnvelope>,
    /// The operation identifying the deployed contract (`x-contract-version`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub contract_version: Option<String>,
    /// The operation reporting optional features, and the feature names (`x-capabilities`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub capabilities: Option<Capabilities>,
}

/// JSON pointers of an error body's members, first present wins (`x-error-envelope`).
#[derive(Debug, Clone, Default, Serialize)]
pub struct ErrorEnvelope {
    /// The error code.
    pub code: Vec<String>,
    /// The message.
    pub message: Vec<String>,
    /// The request id.
    pub request_id: Vec<String>,
    /// Per-field errors.
    pub field_errors: Vec<String>,
    /// Details.
    pub details: Vec<String>,
}

/// How to look up a write by its idempotency key (`x-operation-lookup`).
#[derive(Debug, Clone, Serialize)]
pub struct OperationLookup {
    /// The lookup operation's `operationId`.
    pub operation_id: String,
    /// Query parameter carrying the idempotency key.
    pub idempotency_key: String,
    /// Query parameter carrying the original method.
    pub method: String,
    /// Query parameter carrying the original path.
    pub path: String,
    /// JSON pointer of the found operation's id in the success body.
    pub found_id: String,
    /// Error code: no recoverable identity.
    pub not_found: String,
    /// Error code: several writes match.
    pub ambiguous: String,
    /// Error code: the identity remains but the receipt expired.
    pub expired: String,
}

/// A call that spends the account's money (`x-charges`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Charges {
    /// Request body members that cap the amount charged (any one of them, when the body has
    /// several shapes); empty when the call takes no ceiling and its amount cannot be read
    /// before paying (`amount: not-shown`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub ceiling: Vec<String>,
}

/// The capabilities operation (`x-capabilities`).
#[derive(Debug, Clone, Serialize)]
pub struct Capabilities {
    /// Its `operationId`.
    pub operation_id: String,
    /// Feature names it reports.
    pub names: Vec<String>,
}

/// An API area: one module and one cargo feature.
#[derive(Debug, Clone, Serialize)]
pub struct Area {
    /// The tag as written in the spec.
    pub tag: String,
    /// Module and feature name.
    pub module: String,
    /// The tag's description.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub doc: Option<String>,
}

/// An operation the generator could not express, and why.
#[derive(Debug, Clone, Serialize)]
pub struct Skipped {
    /// JSON pointer of the operation.
    pub pointer: String,
    /// The unsupported construct.
    pub reason: String,
}

pub use openapi_conventions::{Idempotency, Method};

/// One API operation.
#[derive(Debug, Clone, Serialize)]
pub struct Operation {
    /// `operationId` (or the derived one).
    pub operation_id: String,
    /// Client method name (snake case).
    pub fn_name: String,
    /// Builder type name (upper camel case).
    pub builder_name: String,
    /// The struct the client method takes its required parameters in, by name (`{Builder}Args`
    /// in the area module), when it has two or more ([`crate::lower`] names it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub arguments_struct: Option<String>,
    /// HTTP method.
    pub method: Method,
    /// Path template.
    pub path: String,
    /// The operation's own server (`servers` on the operation, else on its path) when it is
    /// not the document's first: an absolute URL, its variables at their defaults.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub server: Option<String>,
    /// Module of the area the operation belongs to.
    pub area: String,
    /// Summary line.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub summary: Option<String>,
    /// Longer description.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Marked deprecated.
    #[serde(skip_serializing_if = "is_false")]
    pub deprecated: bool,
    /// OAuth/API scopes named by the security requirements.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub scopes: Vec<String>,
    /// Account permissions (`x-permissions`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub permissions: Vec<String>,
    /// Idempotency-Key requirement.
    pub idempotency: Idempotency,
    /// Accepts the canonical operation envelope (`x-operation-envelope`).
    #[serde(skip_serializing_if = "is_false")]
    pub operation_envelope: bool,
    /// The success body is an operation receipt, waited on through the operation with
    /// [`Poll::receipt_id`] (`x-operation-envelope` or `x-operation-receipt`).
    #[serde(skip_serializing_if = "is_false")]
    pub receipt: bool,
    /// How to wait on what this read returns (`x-poll`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub poll: Option<Poll>,
    /// The document declares the write destructive though its method is not `DELETE`
    /// (`x-destructive`).
    #[serde(skip_serializing_if = "is_false")]
    pub destructive: bool,
    /// The call spends the account's money (`x-charges`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub charges: Option<Charges>,
    /// What the write grants access to, when it grants any (`x-grants-access`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub grants_access: Option<String>,
    /// How to continue a paginated listing.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pagination: Option<Pagination>,
    /// The operation's `security` (else the document's): requirements, each the Rust names of
    /// the schemes sent together; `None` when neither says anything.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub security: Option<Vec<Vec<String>>>,
    /// Path, query and header parameters (path parameters in template order first).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub params: Vec<Param>,
    /// Request body (JSON, form or binary).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub body: Option<Body>,
    /// The success body type (the default format when the operation offers several).
    pub success: Success,
    /// The media types `success` reads, sent as `Accept` when it is not JSON or when the
    /// operation offers other formats; empty for JSON alone (the runtime's default `Accept`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub accept: Vec<String>,
    /// The other formats the success response comes in, one per kind (text, bytes, JSON), each
    /// asked for with its own `send_*` method.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub alternatives: Vec<Alternative>,
    /// All declared responses by status.
    pub responses: Vec<ResponseDef>,
    /// The [`HeadersDef`] of the first success response's documented headers, if it has any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub response_headers: Option<String>,
}

/// The body type of a successful response.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", content = "type", rename_all = "snake_case")]
pub enum Success {
    /// A JSON body of this type.
    Json(TypeRef),
    /// JSON without a schema, or no success response documented: read as `serde_json::Value`.
    Untyped,
    /// A `text/*` body: a `String`.
    Text,
    /// Any other media type: its bytes and content type (`oncegen_runtime::Binary`).
    Binary,
    /// A success documented without a body (`204`, no `content`): `()`.
    Empty,
}

/// A format the success response also comes in (`Accept`), besides the default.
#[derive(Debug, Clone, Serialize)]
pub struct Alternative {
    /// Builder method sending the request for this format (`send_text`, `send_bytes`,
    /// `send_json`).
    pub method: String,
    /// How the body decodes.
    pub success: Success,
    /// Media types sent as `Accept`.
    pub accept: Vec<String>,
}

/// How to wait on the resource a read returns (`x-poll`): read it again until its status
/// settles.
#[derive(Debug, Clone, Serialize)]
pub struct Poll {
    /// JSON pointer of the polled object in the success body (empty: the body).
    pub subject: String,
    /// Type of the polled object.
    pub subject_ty: TypeRef,
    /// Member of the subject holding its status.
    pub status: String,
    /// Boolean member of the subject, true once final.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub done: Option<String>,
    /// Statuses that keep polling (used when there is no `done` member).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub pending: Vec<String>,
    /// Final statuses that mean success.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub succeeded: Vec<String>,
    /// Final statuses that mean failure.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub failed: Vec<String>,
    /// Statuses whose outcome needs reconciliation when they last.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unknown: Vec<String>,
    /// JSON pointers where a write's receipt carries the id this read takes as its one path
    /// parameter; empty when receipts are not waited on through this read.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub receipt_id: Vec<String>,
}

/// Where a parameter travels.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[allow(missing_docs)]
pub enum ParamLocation {
    Path,
    Query,
    Header,
    Cookie,
}

impl ParamLocation {
    /// The name OpenAPI's `in` gives it.
    pub fn as_str(self) -> &'static str {
        match self {
            ParamLocation::Path => "path",
            ParamLocation::Query => "query",
            ParamLocation::Header => "header",
            ParamLocation::Cookie => "cookie",
        }
    }
}

impl std::fmt::Display for ParamLocation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One parameter.
#[derive(Debug, Clone, Serialize)]
pub struct Param {
    /// Wire name.
    pub name: String,
    /// Rust name (builder field / argument).
    pub rust_name: String,
    /// Location.
    pub location: ParamLocation,
    /// Required (a client-method argument) or optional (a builder setter).
    pub required: bool,
    /// Type.
    pub ty: TypeRef,
    /// Documentation.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub doc: Option<String>,
    /// Marked deprecated.
    #[serde(skip_serializing_if = "is_false")]
    pub deprecated: bool,
    /// Validation constraints.
    #[serde(skip_serializing_if = "Constraints::is_empty")]
    pub constraints: Constraints,
    /// How a list-valued query parameter travels (`None` for everything else).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub list_style: Option<ListStyle>,
    /// How a parameter that is neither a plain scalar nor a plain query list travels: objects,
    /// lists outside the query, non-default styles, cookies and `content` parameters.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub structured: Option<Structured>,
}

/// The serialization of a structured parameter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Structured {
    /// OpenAPI `style` and `explode` (the runtime's `ParamStyle`).
    Style {
        /// The style.
        style: ParamStyle,
        /// `explode`.
        explode: bool,
    },
    /// `content: application/json`: the value's JSON text.
    Json,
}

/// OpenAPI parameter styles.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub enum ParamStyle {
    Simple,
    Label,
    Matrix,
    Form,
    SpaceDelimited,
    PipeDelimited,
    DeepObject,
}

/// Serialization of a list-valued query parameter (OpenAPI `style`/`explode`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ListStyle {
    /// `style: form, explode: true` (the default): `name=a&name=b`.
    Repeated,
    /// `style: form, explode: false`: `name=a,b`.
    Comma,
}

/// A request body.
#[derive(Debug, Clone, Serialize)]
pub struct Body {
    /// Type ([`TypeRef::Bytes`] for binary bodies).
    pub ty: TypeRef,
    /// How the body travels.
    #[serde(skip_serializing_if = "BodyEncoding::is_json")]
    pub encoding: BodyEncoding,
    /// Required (a client-method argument) or optional (a builder setter).
    pub required: bool,
    /// Media type.
    pub media_type: String,
    /// Documentation.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub doc: Option<String>,
    /// The document's example of a JSON body (the media type's `example`, else its first
    /// `examples` value, else its schema's `example` or first `examples` item).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub example: Option<serde_json::Value>,
}

/// How a request body is encoded on the wire.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum BodyEncoding {
    /// JSON (`application/json` and `+json` types): `Request::json_body`.
    Json,
    /// `application/x-www-form-urlencoded` from a flat object: `Request::form_body`.
    Form,
    /// Raw bytes sent as they are with the media type (`application/octet-stream`, a
    /// `format: binary` schema, or any media type with no typed form): `Request::raw_body`.
    Binary,
    /// `multipart/form-data` from an object: `Request::multipart_body`.
    Multipart,
    /// A `text/*` body from a `String`, sent as it is with the media type: `Request::raw_body`.
    Text,
}

impl BodyEncoding {
    fn is_json(&self) -> bool {
        *self == BodyEncoding::Json
    }
}

/// One declared response.
#[derive(Debug, Clone, Serialize)]
pub struct ResponseDef {
    /// Status code or range (`200`, `4XX`, `default`).
    pub status: String,
    /// Description.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Body type, when it is a named type or a scalar.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ty: Option<TypeRef>,
    /// Error codes tied to this response (`x-error-codes`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub error_codes: Vec<String>,
    /// Documented headers (`Content-Type` aside), by wire name.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub headers: Vec<ResponseHeader>,
}

/// Pagination model of an operation (`x-pagination`).
#[derive(Debug, Clone, Serialize)]
pub struct Pagination {
    /// page, cursor or offset.
    pub model: PageModel,
    /// Response field holding the items.
    pub items: FieldAccess,
    /// Type of one item.
    pub item_ty: TypeRef,
    /// Builder field of the request parameter that continues (page, cursor or offset).
    pub request_param: String,
    /// Type of that request parameter.
    pub request_param_ty: TypeRef,
    /// Response field telling how to continue (pages, next_cursor or next_offset).
    pub next: FieldAccess,
    /// Page model: the response field with the current page.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page: Option<FieldAccess>,
}

/// A response field used by pagination.
#[derive(Debug, Clone, Serialize)]
pub struct FieldAccess {
    /// Rust field name.
    pub rust_name: String,
    /// The field may be missing or `null`: an `Option`, or a `Nullable` when [`Self::nullable`].
    pub optional: bool,
    /// Optional and nullable: a `Nullable` (absent and `null` kept apart).
    #[serde(skip_serializing_if = "is_false")]
    pub nullable: bool,
    /// The field's type (without optionality).
    pub ty: TypeRef,
}

/// Pagination models.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[allow(missing_docs)]
pub enum PageModel {
    Page,
    Cursor,
    Offset,
}

impl std::fmt::Display for PageModel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            PageModel::Page => "page",
            PageModel::Cursor => "cursor",
            PageModel::Offset => "offset",
        })
    }
}

/// A named type.
#[derive(Debug, Clone, Serialize)]
pub struct TypeDef {
    /// Rust name.
    pub name: String,
    /// Module it is emitted in (an area module, or `types` for shared types).
    pub module: String,
    /// Where it comes from in the spec.
    pub pointer: String,
    /// Documentation.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub doc: Option<String>,
    /// Marked deprecated.
    #[serde(skip_serializing_if = "is_false")]
    pub deprecated: bool,
    /// Reachable from a request (gets a constructor and setters).
    #[serde(skip_serializing_if = "is_false")]
    pub request: bool,
    /// The struct `new` of a request struct takes its required fields in, by name
    /// (`{Type}Args` in the type's module), when it has two or more ([`crate::lower`] names it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub constructor_struct: Option<String>,
    /// The shape.
    pub kind: TypeKind,
}

/// Shapes of named types.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum TypeKind {
    /// A struct (objects, merged `allOf`).
    Struct {
        /// Fields in document order.
        fields: Vec<Field>,
        /// `x-at-most-one-of` groups, each emitted as one optional enum field.
        #[serde(skip_serializing_if = "Vec::is_empty")]
        exclusive: Vec<ExclusiveGroup>,
        /// Catch-all for the properties not listed (`additionalProperties: true` or a schema),
        /// emitted as one flattened map field; `None` for closed or unspecified objects.
        #[serde(skip_serializing_if = "Option::is_none")]
        additional: Option<AdditionalProperties>,
        /// The tag of the union this struct is a member of, when its property admits only this
        /// member's value: written and checked by the serde impls, not a Rust field.
        #[serde(skip_serializing_if = "Option::is_none")]
        fixed_tag: Option<FixedTag>,
    },
    /// A forward-compatible string enum (unknown values kept).
    Enum {
        /// Known values.
        variants: Vec<EnumVariant>,
        /// The variant holding a value the spec does not list (`Unknown`, or `Other` when a
        /// listed value is called `unknown`).
        fallback: String,
    },
    /// `oneOf`/`anyOf`.
    Union {
        /// Property whose value selects the variant (discriminator or `const`), if any.
        #[serde(skip_serializing_if = "Option::is_none")]
        tag: Option<String>,
        /// Variants.
        variants: Vec<UnionVariant>,
        /// Every variant is a scalar (or a list of scalars): the union implements `Display`
        /// and can be a parameter.
        #[serde(skip_serializing_if = "is_false")]
        display: bool,
    },
    /// A type alias.
    Alias {
        /// Target.
        target: TypeRef,
    },
}

/// A property a struct always sends with one value (a union member's tag).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FixedTag {
    /// Wire name of the property.
    pub name: String,
    /// Its one value.
    pub value: String,
}

/// A struct field.
#[derive(Debug, Clone, Serialize)]
pub struct Field {
    /// Wire name.
    pub name: String,
    /// Rust name.
    pub rust_name: String,
    /// Type (without optionality).
    pub ty: TypeRef,
    /// Listed in `required`, in every direction the type travels: not for a read-only field
    /// of a type a request sends, nor a write-only one of a type a response carries.
    pub required: bool,
    /// May be `null`.
    #[serde(skip_serializing_if = "is_false")]
    pub nullable: bool,
    /// Boxed to break a recursive cycle.
    #[serde(skip_serializing_if = "is_false")]
    pub boxed: bool,
    /// Fixed value (`const`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub const_value: Option<String>,
    /// Documentation.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub doc: Option<String>,
    /// Marked deprecated.
    #[serde(skip_serializing_if = "is_false")]
    pub deprecated: bool,
    /// `readOnly`.
    #[serde(skip_serializing_if = "is_false")]
    pub read_only: bool,
    /// `writeOnly`.
    #[serde(skip_serializing_if = "is_false")]
    pub write_only: bool,
    /// Validation constraints.
    #[serde(skip_serializing_if = "Constraints::is_empty")]
    pub constraints: Constraints,
}

/// The catch-all field of an open object (`additionalProperties`).
#[derive(Debug, Clone, Serialize)]
pub struct AdditionalProperties {
    /// Rust name of the flattened map field.
    pub rust_name: String,
    /// Type of one value (`Json` for `additionalProperties: true`).
    pub value_ty: TypeRef,
}

/// An `x-at-most-one-of` group: at most one of its members may be present.
#[derive(Debug, Clone, Serialize)]
pub struct ExclusiveGroup {
    /// Rust name of the struct field holding the choice.
    pub rust_name: String,
    /// Name of the enum type holding the choice.
    pub type_name: String,
    /// The members, one enum variant each.
    pub members: Vec<ExclusiveMember>,
}

/// One member of an [`ExclusiveGroup`].
#[derive(Debug, Clone, Serialize)]
pub struct ExclusiveMember {
    /// Wire name of the property.
    pub name: String,
    /// Variant name.
    pub variant: String,
    /// Type.
    pub ty: TypeRef,
    /// Boxed to break a recursive cycle.
    #[serde(skip_serializing_if = "is_false")]
    pub boxed: bool,
    /// Documentation.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub doc: Option<String>,
}

/// A value of a string enum.
#[derive(Debug, Clone, Serialize)]
pub struct EnumVariant {
    /// Wire value.
    pub value: String,
    /// Variant name.
    pub rust_name: String,
}

/// A variant of a union.
#[derive(Debug, Clone, Serialize)]
pub struct UnionVariant {
    /// Variant name.
    pub rust_name: String,
    /// Payload type.
    pub ty: TypeRef,
    /// Boxed to break a recursive cycle.
    #[serde(skip_serializing_if = "is_false")]
    pub boxed: bool,
    /// Tag value selecting this variant, when the union is tagged.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tag_value: Option<String>,
}

/// A reference to a type.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(tag = "kind", content = "of", rename_all = "snake_case")]
pub enum TypeRef {
    /// A named type.
    Named(String),
    /// `String`.
    String,
    /// `bool`.
    Bool,
    /// A fixed-width integer.
    Int(IntType),
    /// `f64`.
    Float,
    /// `uuid::Uuid`.
    Uuid,
    /// `chrono::DateTime<Utc>`.
    DateTime,
    /// `chrono::NaiveDate`.
    Date,
    /// `rust_decimal::Decimal`.
    Decimal,
    /// `oncegen_runtime::Secret`.
    Secret,
    /// Any JSON value.
    Json,
    /// A free-form JSON object.
    JsonObject,
    /// `Vec<T>`.
    Array(Box<TypeRef>),
    /// `BTreeMap<String, T>`.
    Map(Box<TypeRef>),
    /// `Option<T>`: a value that may be JSON `null` where no field's optionality carries it
    /// (an array item, a map value, a whole body, a required parameter). Never wraps `Json`,
    /// which holds `null` itself, and never a field's own type (`Field::nullable` says it).
    Nullable(Box<TypeRef>),
    /// Raw bytes (`bytes::Bytes`): the payload of a binary request body.
    Bytes,
    /// A file (`oncegen_runtime::FilePart`: bytes, file name, media type): a `format: binary`
    /// string, sent as a file part of a multipart body.
    File,
}

impl TypeRef {
    /// `ty`, as `Option<ty>` when `nullable` (but never `Option<Value>`: a JSON value holds
    /// `null` itself).
    pub fn maybe_null(ty: TypeRef, nullable: bool) -> TypeRef {
        if nullable && ty != TypeRef::Json && !matches!(ty, TypeRef::Nullable(_)) {
            TypeRef::Nullable(Box::new(ty))
        } else {
            ty
        }
    }

    /// The type without a `Nullable` around it.
    pub fn non_null(&self) -> &TypeRef {
        match self {
            TypeRef::Nullable(inner) => inner,
            other => other,
        }
    }

    /// Whether a value of this type can be written into a URL or header (`Display`), looking
    /// named types up with `kind_of`; lists only when `allow_list` (comma-joined).
    pub fn displayable<'a>(
        &self,
        kind_of: &dyn Fn(&str) -> Option<&'a TypeKind>,
        allow_list: bool,
    ) -> bool {
        self.displayable_at(kind_of, allow_list, 0)
    }

    fn displayable_at<'a>(
        &self,
        kind_of: &dyn Fn(&str) -> Option<&'a TypeKind>,
        allow_list: bool,
        depth: usize,
    ) -> bool {
        if depth > 16 {
            return false;
        }
        match self {
            TypeRef::Named(name) => match kind_of(name) {
                Some(TypeKind::Enum { .. }) => true,
                Some(TypeKind::Alias { target }) => {
                    target.displayable_at(kind_of, allow_list, depth + 1)
                }
                Some(TypeKind::Union {
                    tag: None,
                    variants,
                    ..
                }) => variants
                    .iter()
                    .all(|v| !v.boxed && v.ty.displayable_at(kind_of, true, depth + 1)),
                _ => false,
            },
            TypeRef::Array(item) => allow_list && item.displayable_at(kind_of, false, depth + 1),
            TypeRef::Nullable(_) => false,
            TypeRef::Json
            | TypeRef::JsonObject
            | TypeRef::Map(_)
            | TypeRef::Secret
            | TypeRef::Bytes
            | TypeRef::File => false,
            _ => true,
        }
    }
}

/// Integer widths.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
#[allow(missing_docs)]
pub enum IntType {
    U8,
    U16,
    U32,
    U64,
    I8,
    I16,
    I32,
    I64,
}

/// Validation constraints kept from the schema.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[allow(missing_docs)]
pub struct Constraints {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub format: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub minimum: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub maximum: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exclusive_minimum: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exclusive_maximum: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub multiple_of: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min_length: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_length: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pattern: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min_items: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_items: Option<u64>,
    #[serde(skip_serializing_if = "is_false")]
    pub unique_items: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub default: Option<Value>,
}

impl Constraints {
    /// No constraint is set.
    pub fn is_empty(&self) -> bool {
        *self == Constraints::default()
    }
}

fn is_false(b: &bool) -> bool {
    !*b
}
