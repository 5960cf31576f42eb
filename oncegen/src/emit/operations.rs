//! Emits operations: a client method per operation and its request builder.

use super::docs::{lines_attrs, sanitize};
use super::operation_spec::spec_idents;
use super::{Ctx, taken_as};
use crate::ir::{
    Alternative, BodyEncoding, IntType, ListStyle, Operation, PageModel, Param, ParamLocation,
    ParamStyle, Structured, Success, TypeRef,
};
use crate::surface::rust_type;
use crate::surface::{Idempotency, Method, OperationSurface, ParamSurface, Shape, Surface};
use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

/// One operation: its client method (emitted in the area module) and its request builder
/// (emitted in the area's `builders` module, whose context `bx` is one module deeper).
pub struct OperationItems {
    /// `pub fn op(..) -> builders::Op<'_>`, a method of `crate::Client`.
    pub client_method: TokenStream,
    /// The builder struct and its impls.
    pub builder: TokenStream,
    /// `pub struct {Builder}Args { .. }` (area module), when the client method takes its
    /// required parameters by name.
    pub arguments_struct: Option<TokenStream>,
}

/// The client method and the builder of one operation.
pub fn operation(cx: &Ctx<'_>, bx: &Ctx<'_>, op: &Operation) -> OperationItems {
    let mut parts = Parts::default();
    let named = cx.arguments_struct(op);
    let mut named_fields = Vec::new();
    for p in cx.arguments(op) {
        let ident = format_ident!("{}", p.rust_name);
        if named.is_some() {
            let (doc, ty) = (param_doc(param_surface(cx, op, p), p), cx.ty(&p.ty));
            named_fields.push(quote!(#doc pub #ident: #ty));
            parts.inits.push(quote!(#ident));
        } else {
            let into = param_surface(cx, op, p).into;
            let (arg, value) = taken_as(cx, into, &p.ty, &ident);
            parts.args.push(quote!(#ident: #arg));
            parts.inits.push(field_init(&ident, value));
        }
        let ty = bx.ty(&p.ty);
        parts.fields.push(quote!(pub(super) #ident: #ty));
    }
    let arguments_struct = named.map(|name| {
        let name = format_ident!("{name}");
        let idents = cx
            .arguments(op)
            .into_iter()
            .map(|p| format_ident!("{}", p.rust_name));
        parts.args.push(quote!(args: #name));
        parts.unpack = quote!(let #name { #(#idents),* } = args;);
        arguments_struct(&cx.operation(op).rust_fn, &name, &named_fields)
    });
    for p in op.params.iter().filter(|p| !p.required) {
        let ident = format_ident!("{}", p.rust_name);
        let ty = bx.ty(&p.ty);
        parts.inits.push(quote!(#ident: None));
        parts.fields.push(quote!(pub(super) #ident: Option<#ty>));
        parts.setters.push(param_setter(bx, op, p));
    }
    let body_send = match &op.body {
        Some(body) => {
            let into = cx.operation(op).body.as_ref().is_some_and(|b| b.into);
            body_items(cx, bx, (body, into), &mut parts)
        }
        None => quote!(),
    };
    let surface = cx.operation(op);
    parts.setters.extend(option_setters(surface));
    OperationItems {
        client_method: client_method(cx, op, &parts),
        builder: builder(bx, op, parts, body_send),
        arguments_struct,
    }
}

/// The struct of the required parameters of `op`'s client method, one public field each: a
/// struct literal names every value, so two of one type cannot be passed crossed.
fn arguments_struct(
    fn_name: &str,
    name: &proc_macro2::Ident,
    fields: &[TokenStream],
) -> TokenStream {
    let doc = lines_attrs(&format!(
        "The required parameters of `Client::{fn_name}`, each named where it is passed (`client.{fn_name}({name} {{ .. }})`), so no two can be crossed.",
    ));
    quote! {
        #doc
        #[derive(Debug, Clone)]
        pub struct #name {
            #(#fields,)*
        }
    }
}

/// What the client method and the builder of one operation are assembled from: `args` and
/// `inits` belong to the client method (area module), `fields` and `setters` to the builder
/// (`builders` module, one level deeper).
#[derive(Default)]
struct Parts {
    args: Vec<TokenStream>,
    inits: Vec<TokenStream>,
    fields: Vec<TokenStream>,
    setters: Vec<TokenStream>,
    /// `let {Builder}Args { .. } = args;` when the required parameters come by name.
    unpack: TokenStream,
}

/// The builder setter of an optional parameter.
fn param_setter(bx: &Ctx<'_>, op: &Operation, p: &Param) -> TokenStream {
    let ident = format_ident!("{}", p.rust_name);
    let surface = param_surface(bx, op, p);
    let doc = param_doc(surface, p);
    let deprecated =
        super::docs::deprecated_attr(surface.deprecated, surface.deprecation_note.as_deref());
    let value_ident = format_ident!("value");
    let (arg, value) = taken_as(bx, surface.into, &p.ty, &value_ident);
    quote! {
        #doc
        #deprecated
        pub fn #ident(mut self, value: #arg) -> Self {
            self.#ident = Some(#value);
            self
        }
    }
}

/// The setters of per-call options only some operations have: the idempotency key and the
/// operation envelope.
fn option_setters(op: &OperationSurface) -> Vec<TokenStream> {
    let idempotency_key = (op.idempotency != Idempotency::None).then(|| {
        quote! {
            /// Sets the Idempotency-Key (validated before any I/O); one is generated and reused
            /// across retries when none is set.
            pub fn idempotency_key(mut self, key: impl Into<String>) -> Self {
                self.call.options_mut().set_idempotency_key(key);
                self
            }
        }
    });
    let envelope = op.operation_envelope.then(|| {
        quote! {
            /// Asks for the canonical operation envelope (`x-svc-response-format: operation`).
            pub fn operation_format(mut self, on: bool) -> Self {
                self.call.options_mut().set_operation_format(on);
                self
            }
        }
    });
    idempotency_key.into_iter().chain(envelope).collect()
}

/// `pub fn op(&self, required...) -> builders::Op<'_>`, documented with an example.
fn client_method(cx: &Ctx<'_>, op: &Operation, parts: &Parts) -> TokenStream {
    let surface = cx.operation(op);
    let fn_name = format_ident!("{}", surface.rust_fn);
    let builder = format_ident!("{}", surface.builder);
    let mut doc = operation_doc(op, surface);
    if let Some(example) = super::examples::operation_example(cx, op) {
        doc.push_str("\n\n");
        doc.push_str(&example);
    }
    let doc = lines_attrs(&doc);
    let deprecated =
        super::docs::deprecated_attr(surface.deprecated, surface.deprecation_note.as_deref());
    let (args, inits, unpack) = (&parts.args, &parts.inits, &parts.unpack);
    quote! {
        #doc
        #deprecated
        pub fn #fn_name(&self, #(#args),*) -> builders::#builder<'_> {
            #unpack
            builders::#builder {
                call: ::oncegen_runtime::Call::new(self.runtime()),
                #(#inits,)*
            }
        }
    }
}

/// The builder struct, its setters, `send`, and `into_stream` or `wait` where they apply.
/// `send` is `#[inline]`: like the `async fn` it replaces, it is then compiled where it is
/// called, not for every operation when the SDK crate itself is built.
fn builder(bx: &Ctx<'_>, op: &Operation, parts: Parts, body_send: TokenStream) -> TokenStream {
    let surface = bx.operation(op);
    let builder = format_ident!("{}", surface.builder);
    let doc = lines_attrs(&format!(
        "Request builder for `{} {}` (`{}`): set optional parameters, then call `send`. Per-call control (timeouts, retry policy, headers, correlation id) comes from [`CallBuilder`](::oncegen_runtime::CallBuilder).",
        method_upper(surface.method),
        surface.path,
        op.operation_id
    ));
    let (success, _) = success_call(bx, &op.success);
    let (assemble, send_body) = send(bx, op, body_send);
    let stream = op.pagination.as_ref().map(|pg| stream_method(bx, pg));
    let (error_body, error_enum) = error_body(bx, op, surface);
    let response_headers = super::response_headers::builder_method(surface);
    let wait = op
        .poll
        .as_ref()
        .map(|poll| super::conventions::poll_methods(bx, op, poll));
    let Parts {
        fields, setters, ..
    } = parts;
    quote! {
        #doc
        #[derive(Clone, Debug)]
        #[must_use = "a request does nothing until `send` is called"]
        pub struct #builder<'c> {
            pub(super) call: ::oncegen_runtime::Call<'c>,
            #(#fields,)*
        }

        ::oncegen_runtime::call_builder!(#builder);

        #error_enum

        impl<'c> #builder<'c> {
            #( #setters )*
            /// Sends the request when the returned future is awaited.
            #[inline]
            pub fn send(self) -> ::oncegen_runtime::ResponseFuture<'c, #success> {
                #send_body
            }
            #assemble
            #error_body
            #response_headers
            #stream
            #wait
        }
    }
}

/// The builder's other methods that send (none, or `request` and one per other format and the
/// download), and the body of `send`. With other formats on offer, the request is assembled
/// once (`request`), and each `send*` sets its `Accept` and decodes its format.
fn send(bx: &Ctx<'_>, op: &Operation, body_send: TokenStream) -> (TokenStream, TokenStream) {
    let (_, execute) = success_call(bx, &op.success);
    let surface = bx.operation(op);
    let accept = accept_call(&surface.accept);
    let security = request_security(op, surface);
    let param_sends = op.params.iter().map(|p| param_send(bx, p));
    let fills = !op.params.is_empty() || op.body.is_some() || security.is_some();
    let download = download_method(op, surface);
    if op.alternatives.is_empty() && download.is_none() {
        let request_decl = declare_request(bx, op, fills || accept.is_some());
        let send_body = quote! {
            #request_decl
            #( #param_sends )*
            #body_send
            #security
            #accept
            self.call.#execute(request)
        };
        return (quote!(), send_body);
    }
    let assemble_decl = declare_request(bx, op, fills);
    let alternatives = op.alternatives.iter().map(|alt| alternative(bx, alt));
    let assemble = quote! {
        /// The request, before its `Accept` is set.
        fn request(self) -> (::oncegen_runtime::Call<'c>, ::oncegen_runtime::Request) {
            #assemble_decl
            #( #param_sends )*
            #body_send
            #security
            (self.call, request)
        }
        #( #alternatives )*
        #download
    };
    let send_body = quote! {
        let (call, mut request) = self.request();
        #accept
        call.#execute(request)
    };
    (assemble, send_body)
}

/// The statements that route the request to the operation's own server and apply its
/// security requirements, if it has either.
fn request_security(op: &Operation, surface: &OperationSurface) -> Option<TokenStream> {
    let security = super::security::requirement_statements(op);
    let server = surface
        .server
        .as_deref()
        .map(|url| quote!(request.server(#url);));
    (security.is_some() || server.is_some()).then(|| quote!(#server #security))
}

/// `let request = …`, `mut` when statements after it fill it.
fn declare_request(bx: &Ctx<'_>, op: &Operation, filled: bool) -> TokenStream {
    let new_request = new_request(&op.operation_id, bx.operation(op));
    if filled {
        quote!(let mut request = #new_request;)
    } else {
        quote!(let request = #new_request;)
    }
}

/// The method that sends the request asking for another format (`alt`'s `Accept`).
fn alternative(bx: &Ctx<'_>, alt: &Alternative) -> TokenStream {
    let method = format_ident!("{}", alt.method);
    let (ty, execute) = success_call(bx, &alt.success);
    let accept = accept_call(&alt.accept);
    let doc = format!(
        " Sends the request asking for `{}` (`Accept`).",
        alt.accept.join(", ").replace('`', "'")
    );
    quote! {
        #[doc = #doc]
        #[inline]
        pub fn #method(self) -> ::oncegen_runtime::ResponseFuture<'c, #ty> {
            let (call, mut request) = self.request();
            #accept
            call.#execute(request)
        }
    }
}

/// `error_body`, the error body the operation documents for an API error's status (exact,
/// then `4XX`, then `default`) decoded into its type; with several types, an enum of them
/// (`{Builder}Error`, one variant per status). Nothing when no error response has a type.
/// What it decodes is the surface's; the statuses and their types, in the document's order,
/// the model's.
fn error_body(
    bx: &Ctx<'_>,
    op: &Operation,
    surface: &OperationSurface,
) -> (Option<TokenStream>, Option<TokenStream>) {
    let Some(decoded) = &surface.error_body else {
        return (None, None);
    };
    let typed = crate::surface::builder_methods::typed_errors(op);
    match typed.first() {
        Some((_, ty)) if decoded.variants.is_empty() => (Some(one_error_body(bx, op, ty)), None),
        _ => {
            let (method, error_enum) = error_body_by_status(bx, op, surface, &typed);
            (Some(method), Some(error_enum))
        }
    }
}

/// `error_body` when every typed error response has type `ty`: the `error_body!` macro when
/// every error response has it, else a method that first checks the status has a body.
fn one_error_body(bx: &Ctx<'_>, op: &Operation, ty: &TypeRef) -> TokenStream {
    let errors = crate::surface::builder_methods::error_responses(op);
    let typed = crate::surface::builder_methods::typed_errors(op);
    let ty = bx.ty(ty);
    if typed.len() == errors.len() {
        let statuses = errors.iter().map(|r| r.status.as_str());
        return quote!(::oncegen_runtime::error_body!(#ty, #(#statuses),*););
    }
    let doc = error_body_doc(op);
    let documented = documented_status(op);
    let with_body = typed.iter().map(|(s, _)| s);
    quote! {
        #[doc = #doc]
        pub fn error_body(error: &::oncegen_runtime::Error) -> Option<#ty> {
            if ![#(#with_body),*].contains(&#documented) {
                return None;
            }
            error.body_as().and_then(Result::ok)
        }
    }
}

/// `error_body` when the typed error responses differ in type: the method and the
/// `{Builder}Error` enum it returns (one variant per status).
fn error_body_by_status(
    bx: &Ctx<'_>,
    op: &Operation,
    surface: &OperationSurface,
    typed: &[(&str, &TypeRef)],
) -> (TokenStream, TokenStream) {
    let error_enum = surface
        .error_body
        .as_ref()
        .expect("an error body by status");
    let name = format_ident!("{}", error_enum.ty);
    let variant = |status: &str| {
        format_ident!(
            "{}",
            crate::surface::builder_methods::error_variant_name(status)
        )
    };
    let variants = typed.iter().map(|(status, ty)| {
        let v = variant(status);
        let ty = bx.ty(ty);
        let doc = format!(" The `{status}` response's body.");
        quote!(#[doc = #doc] #v(#ty))
    });
    let arms = typed.iter().map(|(status, _)| {
        let v = variant(status);
        quote!(#status => error.body_as().and_then(Result::ok).map(#name::#v),)
    });
    let enum_doc = format!(
        " The error bodies `{}` documents, by status (see `{}::error_body`).",
        op.operation_id, surface.builder
    );
    let error_enum = quote! {
        #[doc = #enum_doc]
        #[derive(Clone, Debug)]
        pub enum #name {
            #( #variants, )*
        }
    };
    let doc = error_body_doc(op);
    let documented = documented_status(op);
    let method = quote! {
        #[doc = #doc]
        pub fn error_body(error: &::oncegen_runtime::Error) -> Option<#name> {
            match #documented {
                #( #arms )*
                _ => None,
            }
        }
    };
    (method, error_enum)
}

/// `error_body`'s doc: the statuses whose body it decodes.
fn error_body_doc(op: &Operation) -> String {
    let listed = crate::surface::builder_methods::typed_errors(op)
        .iter()
        .map(|(s, _)| format!("`{s}`"))
        .collect::<Vec<_>>()
        .join(", ");
    format!(
        " The documented error body ({listed}) for `error`'s status, decoded; `None` when there is none or it does not decode (`ApiError::body` keeps it)."
    )
}

/// The documented status an error's status falls under (exact, then `4XX`, then `default`).
fn documented_status(op: &Operation) -> TokenStream {
    let errors = crate::surface::builder_methods::error_responses(op);
    let statuses = errors.iter().map(|r| r.status.as_str());
    quote!(error.documented_status(&[#(#statuses),*])?)
}

/// `download`, for an operation whose success comes in a media type read as bytes: the body
/// as a stream of chunks (`Client::download`), with that media type's `Accept`.
fn download_method(op: &Operation, surface: &OperationSurface) -> Option<TokenStream> {
    if !surface.send_variants.contains_key("download") {
        return None;
    }
    let accept = crate::surface::builder_methods::download_accept(op)?;
    let accept = accept_call(accept);
    Some(quote! {
        /// Sends the request and returns the body as a stream of chunks, never held whole: for
        /// large downloads. Retried like `send` until the response head arrives, not after.
        pub fn download(self) -> impl ::std::future::Future<Output = Result<::oncegen_runtime::Download, ::oncegen_runtime::Error>> + 'c {
            let (call, mut request) = self.request();
            #accept
            call.download(request)
        }
    })
}

/// The response type of a format (with its `Format` when not JSON) and the runtime method that
/// runs the call (`execute` or `execute_as::<Format>`).
fn success_call(bx: &Ctx<'_>, success: &Success) -> (TokenStream, TokenStream) {
    let format = |f: TokenStream| quote!(execute_as::<::oncegen_runtime::body::#f>);
    let ty = bx.rust(&rust_type::success(success, &bx.spelling()));
    match success {
        Success::Json(_) | Success::Untyped => (ty, quote!(execute)),
        Success::Text => (
            quote!(#ty, ::oncegen_runtime::body::Text),
            format(quote!(Text)),
        ),
        Success::Binary => (
            quote!(#ty, ::oncegen_runtime::body::Raw),
            format(quote!(Raw)),
        ),
        Success::Empty => (
            quote!(#ty, ::oncegen_runtime::body::NoBody),
            format(quote!(NoBody)),
        ),
    }
}

/// `request.accept("…");` for these media types (nothing when empty).
fn accept_call(media_types: &[String]) -> Option<TokenStream> {
    (!media_types.is_empty()).then(|| {
        let joined = media_types.join(", ");
        quote!(request.accept(#joined);)
    })
}

/// `field` (shorthand) when the value is the argument itself, else `field: value`.
fn field_init(field: &proc_macro2::Ident, value: TokenStream) -> TokenStream {
    if *field == value.to_string() {
        quote!(#field)
    } else {
        quote!(#field: #value)
    }
}

/// The body's argument (required) or setter (optional) and builder field (`into`: taken as
/// `impl Into<…>`); returns the send statement.
fn body_items(
    cx: &Ctx<'_>,
    bx: &Ctx<'_>,
    (body, into): (&crate::ir::Body, bool),
    parts: &mut Parts,
) -> TokenStream {
    let ty = bx.ty(&body.ty);
    let media = &body.media_type;
    // `value` is a reference to the body, except for raw bytes, which move into the request.
    let send = |value: TokenStream| match body.encoding {
        BodyEncoding::Json => quote!(request.json_body(#value);),
        BodyEncoding::Form => quote!(request.form_body(#value);),
        BodyEncoding::Binary | BodyEncoding::Text => quote!(request.raw_body(#value, #media);),
        BodyEncoding::Multipart => quote!(request.multipart_body(#value);),
    };
    let taken = if matches!(body.encoding, BodyEncoding::Binary | BodyEncoding::Text) {
        quote!(self.body)
    } else {
        quote!(&self.body)
    };
    let ident = format_ident!("body");
    if body.required {
        let (arg, value) = taken_as(cx, into, &body.ty, &ident);
        parts.args.push(quote!(body: #arg));
        parts.inits.push(field_init(&ident, value));
        parts.fields.push(quote!(pub(super) body: #ty));
        return send(taken);
    }
    parts.inits.push(quote!(body: None));
    parts.fields.push(quote!(pub(super) body: Option<#ty>));
    let (arg, value) = taken_as(bx, into, &body.ty, &ident);
    parts.setters.push(quote! {
        /// Sets the request body.
        pub fn body(mut self, body: #arg) -> Self {
            self.body = Some(#value);
            self
        }
    });
    let one = send(quote!(body));
    quote! {
        if let Some(body) = #taken {
            #one
        }
    }
}

/// `into_stream`: every item of every page, one page at a time.
fn stream_method(bx: &Ctx<'_>, pg: &crate::ir::Pagination) -> TokenStream {
    let item = bx.ty(&pg.item_ty);
    let param = format_ident!("{}", pg.request_param);
    let convert = if pg.request_param_ty == TypeRef::Int(IntType::U64) {
        quote!(Some(value))
    } else {
        quote!(::std::convert::TryFrom::try_from(value).ok())
    };
    let (variant, assign) = match pg.model {
        PageModel::Page => (quote!(Page), convert),
        PageModel::Offset => (quote!(Offset), convert),
        PageModel::Cursor if pg.request_param_ty == TypeRef::String => {
            (quote!(Cursor), quote!(Some(value)))
        }
        PageModel::Cursor => (quote!(Cursor), quote!(value.parse().ok())),
    };
    quote! {
        /// Streams every item of every page, fetching one page at a time.
        pub fn into_stream(self) -> impl ::futures::Stream<Item = Result<#item, ::oncegen_runtime::Error>> + 'c {
            ::oncegen_runtime::pagination::stream(move |continuation: Option<::oncegen_runtime::pagination::Continuation>| {
                let mut next = self.clone();
                if let Some(::oncegen_runtime::pagination::Continuation::#variant(value)) = continuation {
                    next.#param = #assign;
                }
                next.send()
            })
        }
    }
}

/// `oncegen_runtime::request!(Get "/path", "operationId", None)`: a new request of the operation.
fn new_request(operation_id: &str, op: &OperationSurface) -> TokenStream {
    let (method, idempotency) = spec_idents(op);
    let path = &op.path;
    let envelope = op.operation_envelope.then(|| quote!(, operation_envelope));
    quote!(::oncegen_runtime::request!(#method #path, #operation_id, #idempotency #envelope))
}

/// The statement that puts one parameter on the request.
fn param_send(cx: &Ctx<'_>, p: &Param) -> TokenStream {
    let ident = format_ident!("{}", p.rust_name);
    let name = &p.name;
    let list = matches!(p.ty.non_null(), TypeRef::Array(_));
    let is_dt = cx.resolves_to(p.ty.non_null(), &TypeRef::DateTime);
    // A required parameter that may be null is an `Option` too: `None` is not sent.
    let optional = !p.required || matches!(p.ty, TypeRef::Nullable(_));
    // A plain scalar query or header value: one call that skips `None`.
    let plain = p.structured.is_none() && !list && !is_dt;
    if !optional {
        put_param(cx, p, quote!(&self.#ident))
    } else if plain && p.location == ParamLocation::Query {
        quote!(request.query_opt(#name, self.#ident.as_ref());)
    } else if plain && p.location == ParamLocation::Header {
        quote!(request.header_opt(#name, self.#ident.as_ref());)
    } else {
        let c = put_param(cx, p, quote!(value));
        quote! {
            if let Some(value) = &self.#ident {
                #c
            }
        }
    }
}

/// The statement that puts value `v` of parameter `p` on the request, by how it is encoded
/// (JSON, a style) and where it goes; a date-time goes as RFC 3339.
fn put_param(cx: &Ctx<'_>, p: &Param, v: TokenStream) -> TokenStream {
    let name = &p.name;
    let list = matches!(p.ty.non_null(), TypeRef::Array(_));
    let is_dt = cx.resolves_to(p.ty.non_null(), &TypeRef::DateTime);
    let value = |v: TokenStream| if is_dt { quote!(&#v.to_rfc3339()) } else { v };
    let location = format_ident!(
        "{}",
        match p.location {
            ParamLocation::Path => "Path",
            ParamLocation::Query => "Query",
            ParamLocation::Header => "Header",
            ParamLocation::Cookie => "Cookie",
        }
    );
    match (p.structured, p.location, list) {
        (Some(Structured::Json), ..) => {
            quote!(request.json_param(::oncegen_runtime::ParamIn::#location, #name, #v);)
        }
        (Some(Structured::Style { style, explode }), ..) => {
            let style = format_ident!("{}", param_style(style));
            quote!(request.param(::oncegen_runtime::ParamIn::#location, #name, ::oncegen_runtime::ParamStyle::#style, #explode, #v);)
        }
        (None, ParamLocation::Path, _) => {
            let v = value(v);
            quote!(request.path_param(#name, #v);)
        }
        (None, ParamLocation::Query, true) => match p.list_style {
            Some(ListStyle::Comma) => quote!(request.query_csv(#name, (#v).as_slice());),
            _ => quote! {
                for item in (#v).iter() {
                    request.query(#name, item);
                }
            },
        },
        (None, ParamLocation::Query, false) => {
            let v = value(v);
            quote!(request.query(#name, #v);)
        }
        // Cookies are always structured (`form`): lowering never leaves one plain.
        (None, ParamLocation::Header | ParamLocation::Cookie, _) => {
            let v = value(v);
            quote!(request.header(#name, #v);)
        }
    }
}

/// What a caller sees of the parameter `p` of `op`.
fn param_surface<'a>(cx: &Ctx<'a>, op: &Operation, p: &Param) -> &'a ParamSurface {
    cx.operation(op)
        .params
        .get(&p.rust_name)
        .expect("the surface describes every parameter")
}

/// A parameter's doc: what the surface records of it (description, constraints, wire name and
/// place) and how a list travels.
fn param_doc(surface: &ParamSurface, p: &Param) -> TokenStream {
    let mut doc = surface.doc.as_deref().map(sanitize).unwrap_or_default();
    if let Some(c) = super::docs::constraints_doc(&surface.constraints) {
        if !doc.is_empty() {
            doc.push(' ');
        }
        doc.push_str(&c);
    }
    let how = match p.list_style {
        Some(ListStyle::Comma) => " (one comma-separated list)",
        Some(ListStyle::Repeated) => " (repeated once per item)",
        None => "",
    };
    // One paragraph when the description is one; after a longer text, a paragraph of its own.
    if doc.contains('\n') {
        doc.push_str("\n\n");
    } else if !doc.is_empty() {
        doc = super::docs::as_sentence(&doc) + " ";
    }
    doc.push_str(&format!(
        "Sent as {} parameter `{}`{how}.",
        loc(surface.location),
        surface.name.replace('`', "'")
    ));
    lines_attrs(&doc)
}

/// The runtime's `ParamStyle` variant for a style.
fn param_style(style: ParamStyle) -> &'static str {
    match style {
        ParamStyle::Simple => "Simple",
        ParamStyle::Label => "Label",
        ParamStyle::Matrix => "Matrix",
        ParamStyle::Form => "Form",
        ParamStyle::SpaceDelimited => "SpaceDelimited",
        ParamStyle::PipeDelimited => "PipeDelimited",
        ParamStyle::DeepObject => "DeepObject",
    }
}

fn loc(l: ParamLocation) -> &'static str {
    match l {
        ParamLocation::Path => "path",
        ParamLocation::Query => "query",
        ParamLocation::Header => "header",
        ParamLocation::Cookie => "cookie",
    }
}

/// The rustdoc of a client method: summary, description, method and path, scopes,
/// idempotency, pagination, envelope and error responses (in the document's order, from the
/// model).
fn operation_doc(op: &Operation, surface: &OperationSurface) -> String {
    let mut parts = Vec::new();
    if let Some(s) = &surface.summary {
        parts.push(sanitize(s));
    }
    // A description that is all of the deprecation note shows in `#[deprecated]`, not twice.
    if let Some(d) = &surface.description
        && Some(d) != surface.summary.as_ref()
        && !crate::surface::deprecation::is_only(surface.deprecation_note.as_deref(), d)
    {
        parts.push(sanitize(d));
    }
    // What the call does, its facts and its error statuses: one paragraph, a line each (the
    // statuses alone on the last).
    let mut call = vec![format!(
        "Sends `{} {}` (operation `{}`).",
        method_upper(surface.method),
        surface.path,
        op.operation_id
    )];
    call.extend(operation_facts(op, surface));
    if let Some(server) = &surface.server {
        call.push(format!(
            "Sent to its own server `{server}` (`Config::route_server` sends it elsewhere)."
        ));
    }
    let errors: Vec<_> = op
        .responses
        .iter()
        .filter(|r| !r.status.starts_with('2'))
        .collect();
    if errors.iter().all(|r| r.error_codes.is_empty()) {
        // Statuses alone fit one line.
        if let (false, Some(last)) = (errors.is_empty(), call.last_mut()) {
            let statuses: Vec<String> = errors.iter().map(|r| format!("`{}`", r.status)).collect();
            last.push_str(&format!(" Error responses: {}.", statuses.join(", ")));
        }
        parts.push(call.join("\n"));
    } else {
        parts.push(call.join("\n"));
        let lines: Vec<String> = errors
            .iter()
            .map(|r| match r.error_codes.as_slice() {
                [] => format!("- `{}`", r.status),
                codes => format!("- `{}` ({})", r.status, ticks(codes)),
            })
            .collect();
        parts.push(format!("Error responses:\n{}", lines.join("\n")));
    }
    parts.join("\n\n")
}

/// One line per fact of the operation: scopes, permissions, idempotency, pagination, receipts
/// and polling, how the body travels, deprecation.
fn operation_facts(op: &Operation, surface: &OperationSurface) -> Vec<String> {
    let mut facts = Vec::new();
    if !surface.scopes.is_empty() {
        facts.push(format!("Scopes: {}.", ticks(&surface.scopes)));
    }
    if !surface.permissions.is_empty() {
        facts.push(format!("Permissions: {}.", ticks(&surface.permissions)));
    }
    match surface.idempotency {
        Idempotency::None => {}
        Idempotency::Required => {
            facts.push("Idempotency-Key: required (generated when not set).".to_owned())
        }
        Idempotency::Optional => facts.push("Idempotency-Key: optional.".to_owned()),
        Idempotency::NotShown => {
            facts.push("Idempotency-Key: requirement not shown by the reference.".to_owned())
        }
    }
    if let Some(pg) = &surface.pagination {
        let model = match pg.model {
            PageModel::Page => "page",
            PageModel::Cursor => "cursor",
            PageModel::Offset => "offset",
        };
        facts.push(format!(
            "Paginated ({model} model): `into_stream` yields every item of every page."
        ));
    }
    if surface.operation_envelope {
        facts.push("Returns an operation receipt (`wait` polls it to a final state); `operation_format(true)` asks for the canonical envelope.".to_owned());
    } else if op.receipt {
        facts.push("Returns an operation receipt; `wait` polls it to a final state.".to_owned());
    }
    if surface.effects.waits {
        facts.push("`wait` reads again until the result settles.".to_owned());
    }
    // A deprecation shows from the method's `#[deprecated]`, not from a line here.
    facts.extend(op.body.as_ref().and_then(body_fact));
    facts
}

/// How a body that is not JSON travels.
fn body_fact(body: &crate::ir::Body) -> Option<String> {
    let media = body.media_type.replace('`', "'");
    match body.encoding {
        BodyEncoding::Json => None,
        BodyEncoding::Form => Some(format!("The body is sent as `{media}`.")),
        BodyEncoding::Binary => Some(format!("The body is sent as raw bytes (`{media}`).")),
        BodyEncoding::Text => Some(format!("The body is sent as text (`{media}`).")),
        BodyEncoding::Multipart => Some(
            "The body is sent as `multipart/form-data`: one part per field, `FilePart` fields as files."
                .to_owned(),
        ),
    }
}

fn ticks(items: &[String]) -> String {
    items
        .iter()
        .map(|s| format!("`{}`", s.replace('`', "'")))
        .collect::<Vec<_>>()
        .join(", ")
}

fn method_upper(m: Method) -> String {
    m.key().to_uppercase()
}

/// A generated caller's arguments to the client method of `op` (the CLI's and the MCP
/// server's), as the surface passes them: the required parameters in their struct
/// (`sdk::area::{Builder}Args { name: value, .. }`) when it names one, a required body after it.
fn call_arguments(
    op: &OperationSurface,
    sdk: &Ident,
    arguments: Vec<TokenStream>,
) -> Vec<TokenStream> {
    let Some(name) = &op.arguments_struct else {
        return arguments;
    };
    let (area, name) = (format_ident!("{}", op.area), format_ident!("{name}"));
    let (fields, rest): (Vec<_>, Vec<_>) = op
        .arguments
        .iter()
        .zip(arguments)
        .partition(|(a, _)| op.params.contains_key(*a));
    let fields = fields.into_iter().map(|(a, value)| {
        let field = format_ident!("{a}");
        quote!(#field: #value)
    });
    std::iter::once(quote!(#sdk::#area::#name { #(#fields),* }))
        .chain(rest.into_iter().map(|(_, value)| value))
        .collect()
}

/// A generated caller's arguments to the client method of `op`, read from its `input` (the
/// CLI's and the MCP server's have the same `arg::<T>(name)`): each required parameter by the
/// name `id` gives its Rust name, the required body as `body` renders it from the body's type turbofish (the MCP server
/// caps a purchase's), passed as [`call_arguments`] does.
pub(crate) fn input_arguments(
    surface: &Surface,
    op: &OperationSurface,
    sdk: &Ident,
    id: impl Fn(&str) -> String,
    body: impl Fn(Option<TokenStream>) -> TokenStream,
) -> Vec<TokenStream> {
    let arguments = op
        .arguments
        .iter()
        .map(|a| match op.params.get(a) {
            Some(p) => {
                let ty = turbofish(surface, sdk, &p.ty);
                let id = id(a);
                quote!(input.arg #ty (#id)?)
            }
            None => body(
                op.body
                    .as_ref()
                    .and_then(|b| body_type(surface, sdk, &b.ty))
                    .map(|ty| quote!(::<#ty>)),
            ),
        })
        .collect();
    call_arguments(op, sdk, arguments)
}

/// The type a tool reads a parameter of type `ty` as where the call cannot infer it: `String`
/// for a `String` (or an alias of it, `Name = String`), taken as `impl Into<String>`; the
/// union's path for a union (or an alias of one), which may be taken as `impl Into<Union>` (a
/// member converts into it). `None` for the others, whose exact type the call infers.
pub(crate) fn param_type(surface: &Surface, sdk: &Ident, ty: &str) -> Option<TokenStream> {
    let alias_of = |ty: &&str| match surface.types.get(*ty).map(|t| &t.shape) {
        Some(Shape::Alias { target }) => Some(target.as_str()),
        _ => None,
    };
    // Aliases of aliases, a few deep at most (bounded should a document chain them in a loop).
    let resolved = std::iter::successors(Some(ty), alias_of).take(8).last()?;
    if resolved == "String" {
        return Some(quote!(String));
    }
    match surface.types.get(resolved)?.shape {
        Shape::Union { .. } => named_type(surface, sdk, resolved),
        _ => None,
    }
}

/// [`param_type`] as a turbofish (`::<String>`).
pub(crate) fn turbofish(surface: &Surface, sdk: &Ident, ty: &str) -> Option<TokenStream> {
    param_type(surface, sdk, ty).map(|ty| quote!(::<#ty>))
}

/// The type a tool reads a body of type `ty` as: a named type's path, since a body may be
/// taken as `impl Into<Type>` (a union's member converts into it) and the call cannot infer
/// it; `String` for a raw body (`impl Into<Bytes>`): a tool takes it as a JSON string, as its
/// help shows.
pub(crate) fn body_type(surface: &Surface, sdk: &Ident, ty: &str) -> Option<TokenStream> {
    if ty == "Bytes" {
        return Some(quote!(String));
    }
    named_type(surface, sdk, ty)
}

/// `sdk::module::Type` for the named type `ty`.
fn named_type(surface: &Surface, sdk: &Ident, ty: &str) -> Option<TokenStream> {
    let module = format_ident!("{}", surface.types.get(ty)?.module);
    let name = format_ident!("{}", ty);
    Some(quote!(#sdk::#module::#name))
}
