//! One operation: its entry in the area's table and the function that calls the SDK.

use crate::emit::{body_type, input_arguments, param_type};
use crate::ir::Idempotency;
use crate::surface::{OperationSurface, Shape, Surface, command_line};
use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

/// The names of an operation's command: `line` is how it is called (`<bin> <area> <name>`),
/// `former` its former name, kept as a hidden alias.
pub(super) struct Names<'a> {
    pub name: &'a str,
    pub former: Option<&'a str>,
    pub line: String,
}

/// The table entry and the function of operation `id`, named `names` on the command line.
pub(super) fn render(
    surface: &Surface,
    id: &str,
    op: &OperationSurface,
    names: &Names<'_>,
    sdk: &Ident,
) -> (TokenStream, TokenStream) {
    (
        entry(surface, id, op, names),
        function(surface, id, op, sdk),
    )
}

/// The operation's `Command` in the area's table: its names, help, parameters and effects.
fn entry(surface: &Surface, id: &str, op: &OperationSurface, names: &Names<'_>) -> TokenStream {
    let name = names.name;
    let aliases = names.former.iter();
    let after_help = super::body_help::render(surface, op, &names.line);
    let function = format_ident!("{}", op.rust_fn);
    let positionals = command_line::positionals(op);
    let flags = command_line::flags(op);
    let params = positionals
        .iter()
        .map(|rust| param(surface, op, rust, None))
        .chain(
            flags
                .iter()
                .map(|(rust, flag)| param(surface, op, rust, Some(flag))),
        );
    let about = op.summary.as_deref().unwrap_or(id);
    let long_about = op.description.as_deref().unwrap_or_default();
    let body = optional(op.body.as_ref().map(|b| {
        let required = b.required;
        quote!(#required)
    }));
    let writes = op.effects.writes;
    let pages = command_line::pages(op);
    let waits = command_line::waits(op);
    let destructive = op.effects.destructive;
    let purchase = optional(op.effects.purchase.as_ref().map(|p| {
        let ceiling = &p.ceiling;
        quote!(&[#(#ceiling),*])
    }));
    let grants_access = optional(op.effects.grants_access.as_ref().map(|what| quote!(#what)));
    quote! {
        Command {
            name: #name,
            aliases: &[#(#aliases),*],
            about: #about,
            long_about: #long_about,
            after_help: #after_help,
            params: &[#(#params),*],
            body: #body,
            pages: #pages,
            waits: #waits,
            writes: #writes,
            destructive: #destructive,
            purchase: #purchase,
            grants_access: #grants_access,
            run: #function,
        }
    }
}

/// The function that calls the SDK: the call with its required arguments, then the optional
/// parameters, body, key and `--all` the input holds, then the answer.
fn function(surface: &Surface, id: &str, op: &OperationSurface, sdk: &Ident) -> TokenStream {
    let function = format_ident!("{}", op.rust_fn);
    let all = command_line::pages(op).then(|| {
        quote! {
            if input.all() {
                return input.print_all(call.into_stream()).await;
            }
        }
    });
    let answer = answer(id, op);
    let setters = setters(surface, op, sdk);
    let optional_body = op.body.as_ref().filter(|b| !b.required).map(|b| {
        let ty = body_type(surface, sdk, &b.ty).map(|ty| quote!(: #ty));
        quote!(let call = input.set_body(call, |c, b #ty| c.body(b))?;)
    });
    // With `--allow-unknown-members`, a body holding members its type drops is sent as given.
    let as_given = op
        .body
        .as_ref()
        .map(|_| quote!(let call = input.as_given(call);));
    let key = (op.idempotency != Idempotency::None)
        .then(|| quote!(let call = input.set_key(call, |c, k| c.idempotency_key(k));));
    let call = call(surface, op, sdk);
    let doc = format!(" `{id}`: calls `{}::Client::{}`.", sdk, op.rust_fn);
    // The command offers what the contract offers, deprecated operations and parameters
    // included (their help says so).
    let allow = (op.deprecated || op.params.values().any(|p| p.deprecated))
        .then(|| quote!(#[allow(deprecated)]));
    let input = if reads_input(op) {
        format_ident!("input")
    } else {
        format_ident!("_input")
    };
    quote! {
        #[doc = #doc]
        #allow
        fn #function<'a>(client: &'a Client, #input: &'a Input<'a>) -> Run<'a> {
            Box::pin(async move {
                let call = #call;
                #(#setters)*
                #optional_body
                #as_given
                #key
                #all
                #answer
            })
        }
    }
}

/// The SDK call with the operation's required arguments; a write's is tagged with the
/// command's intent for the journal (how a re-run is recognized).
fn call(surface: &Surface, op: &OperationSurface, sdk: &Ident) -> TokenStream {
    let method = format_ident!("{}", op.rust_fn);
    let arguments = input_arguments(
        surface,
        op,
        sdk,
        str::to_owned,
        |ty| quote!(input.body #ty ()?),
    );
    let call = quote!(client.#method(#(#arguments),*));
    if op.effects.writes {
        quote!(input.tag(#call))
    } else {
        call
    }
}

/// One statement per optional parameter, setting it on the call when the input holds it.
fn setters(surface: &Surface, op: &OperationSurface, sdk: &Ident) -> Vec<TokenStream> {
    op.params
        .iter()
        .filter(|(_, p)| !p.required)
        .map(|(rust, p)| {
            let setter = format_ident!("{}", rust);
            if is_list(&p.ty) {
                quote!(let call = input.set_list(call, #rust, |c, v| c.#setter(v))?;)
            } else if let Some(ty) = param_type(surface, sdk, &p.ty) {
                quote!(let call = input.set::<_, #ty>(call, #rust, |c, v| c.#setter(v))?;)
            } else {
                quote!(let call = input.set(call, #rust, |c, v| c.#setter(v))?;)
            }
        })
        .collect()
}

/// Whether the function reads its input: a write's tag, `--wait` and `--all` read it too
/// (Chroma's `reset`: a POST with neither parameters nor body).
fn reads_input(op: &OperationSurface) -> bool {
    op.effects.writes
        || command_line::waits(op)
        || command_line::pages(op)
        || !op.params.is_empty()
        || op.body.is_some()
        || op.idempotency != Idempotency::None
}

/// How an operation's function ends: with `--wait`, a long-running write's receipt or a
/// pollable read's builder followed to its end (the write sent and journaled first, its key
/// settled by its answer); else the answer, bytes of a media type neither JSON nor text
/// (`Binary`) written as they are.
fn answer(id: &str, op: &OperationSurface) -> TokenStream {
    let wait = if op.effects.long_running {
        Some(quote! {
            if input.waiting() {
                let response = call.send().await.map_err(oncegen_cli::Failure::from)?;
                let waited = input.follow(#id, response.body().wait(client)).await;
                return oncegen_cli::wait::waited(&response, waited);
            }
        })
    } else if op.effects.waits {
        Some(quote! {
            if input.waiting() {
                return oncegen_cli::wait::polled(input.follow(#id, call.wait()).await);
            }
        })
    } else {
        None
    };
    let respond = if op.success == "Binary" {
        quote!(oncegen_cli::respond_bytes)
    } else {
        quote!(respond)
    };
    quote! {
        #wait
        #respond(call.send().await)
    }
}

/// `Some(tokens)` or `None`, as Rust.
fn optional(tokens: Option<TokenStream>) -> TokenStream {
    match tokens {
        Some(tokens) => quote!(Some(#tokens)),
        None => quote!(None),
    }
}

fn param(surface: &Surface, op: &OperationSurface, rust: &str, flag: Option<&str>) -> TokenStream {
    let p = &op.params[rust];
    let help = match (&p.doc, flag) {
        (Some(doc), _) => doc.clone(),
        (None, None) => positional_help(surface, op, rust),
        (None, Some(_)) => String::new(),
    };
    let required = p.required;
    let repeated = is_list(&p.ty);
    let values = enum_values(surface, &p.ty);
    let bound = |b: &Option<serde_json::Value>| match b.as_ref().and_then(|v| v.as_f64()) {
        Some(n) => quote!(Some(#n)),
        None => quote!(None),
    };
    let (minimum, maximum) = (bound(&p.constraints.minimum), bound(&p.constraints.maximum));
    let flag = match flag {
        Some(f) => quote!(Some(#f)),
        None => quote!(None),
    };
    quote! {
        oncegen_cli::Param {
            id: #rust,
            flag: #flag,
            help: #help,
            required: #required,
            repeated: #repeated,
            values: &[#(#values),*],
            minimum: #minimum,
            maximum: #maximum,
        }
    }
}

/// The help of a positional argument the document does not describe: which part of the path
/// it is and its JSON type (`` `{id}` of `/v1/webhooks/{id}`: string (uuid) ``).
fn positional_help(surface: &Surface, op: &OperationSurface, rust: &str) -> String {
    let p = &op.params[rust];
    let ty =
        crate::surface::body_members::json_type(surface, &p.ty, p.constraints.format.as_deref());
    format!("`{{{}}}` of `{}`: {ty}", p.name, op.path)
}

/// A list type (`Vec<…>`): the flag is repeatable.
fn is_list(ty: &str) -> bool {
    ty.starts_with("Vec<")
}

/// The known values of `ty` (or of its items) when it is a string enum.
fn enum_values<'s>(surface: &'s Surface, ty: &str) -> &'s [String] {
    let name = ty
        .strip_prefix("Vec<")
        .and_then(|t| t.strip_suffix('>'))
        .unwrap_or(ty);
    match surface.types.get(name).map(|t| &t.shape) {
        Some(Shape::Enum { values }) => values,
        _ => &[],
    }
}

#[cfg(test)]
mod tests {
    use crate::emit::GeneratedFile;
    use crate::surface::Surface;

    /// A document whose calls a tool cannot infer types for (a union parameter, an optional
    /// union body, a raw body) and whose answer is bytes (`application/pdf`).
    const DOCUMENT: &str = r#"
openapi: 3.1.0
info: {title: t, version: '1'}
tags: [{name: things}]
paths:
  /things/{thingId}:
    put:
      operationId: thingsPut
      tags: [things]
      parameters:
        - {name: thingId, in: path, required: true, schema: {type: string}}
        - {name: since, in: query, schema: {$ref: '#/components/schemas/Since'}}
      requestBody:
        content: {application/json: {schema: {$ref: '#/components/schemas/Shape'}}}
      responses:
        '200': {description: ok, content: {application/pdf: {schema: {type: string, format: binary}}}}
  /uploads:
    post:
      operationId: thingsUpload
      tags: [things]
      requestBody:
        required: true
        content: {application/octet-stream: {schema: {type: string, format: binary}}}
      responses: {'204': {description: ok}}
components:
  schemas:
    Since: {oneOf: [{type: string, format: date-time}, {type: integer}]}
    Shape: {oneOf: [{$ref: '#/components/schemas/Circle'}, {$ref: '#/components/schemas/Square'}]}
    Circle: {type: object, required: [r], properties: {r: {type: number}}}
    Square: {type: object, required: [side], properties: {side: {type: number}}}
"#;

    /// The area file `things.rs` of `files`, without its line breaks and indentation.
    fn things(files: &[GeneratedFile]) -> String {
        let file = files.iter().find(|f| f.path.ends_with("things.rs"));
        let text = &file.expect("the things area").contents;
        text.split_whitespace().collect::<Vec<_>>().join(" ")
    }

    /// Both tools (the CLI's and the MCP server's inputs are emitted alike): each call
    /// compiles only with these types named (a union is taken as `impl Into<Union>`, a raw body
    /// as `impl Into<Bytes>`), and a `Binary` answer is not `Serialize`.
    #[test]
    fn calls_name_the_types_they_cannot_infer_and_bytes_are_answered_as_bytes() {
        let api = crate::model_str(DOCUMENT, "tools.yaml").expect("the document lowers");
        let surface = Surface::of(&api, "t", "0.1.0");
        let cli = crate::cli::Options {
            crate_name: "t-cli".to_owned(),
            bin: "t".to_owned(),
            sdk_crate: "t".to_owned(),
            spec_label: "tools.yaml".to_owned(),
            dependencies: Vec::new(),
            package: Vec::new(),
            dev_dependencies: Vec::new(),
        };
        let mcp = crate::mcp::Options {
            crate_name: "t-mcp".to_owned(),
            bin: "t-mcp".to_owned(),
            profiles: "t".to_owned(),
            sdk_crate: "t".to_owned(),
            spec_label: "tools.yaml".to_owned(),
            dependencies: Vec::new(),
            package: Vec::new(),
            features: Vec::new(),
            dev_dependencies: Vec::new(),
        };
        let cli = things(&crate::cli::emit(&surface, &cli).expect("the CLI emits"));
        let mcp = things(&crate::mcp::emit(&surface, &mcp).expect("the MCP server emits"));
        for (tool, expected) in [
            (&cli, r#"input.set::<_, t::things::Since>(call, "since""#),
            (
                &cli,
                "input.set_body(call, |c, b: t::things::Shape| c.body(b))?",
            ),
            (&cli, "client.things_upload(input.body::<String>()?)"),
            (&cli, "oncegen_cli::respond_bytes(call.send().await)"),
            (&mcp, r#"input.opt::<t::things::Since>("since")?"#),
            (&mcp, "input.opt_body::<t::things::Shape>()?"),
            (&mcp, "client.things_upload(input.body::<String>()?)"),
            (&mcp, "oncegen_mcp::respond_bytes(call.send().await)"),
        ] {
            assert!(tool.contains(expected), "{expected} in {tool}");
        }
    }
}
