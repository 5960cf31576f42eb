//! One operation as a tool: its entry in the area's table and the function that calls the SDK.

use super::ToolDefinition;
use super::arguments;
use super::description;
use super::repeats;
use super::schema::{self, Side};
use super::schema_text;
use crate::emit::{body_type, input_arguments, turbofish};
use crate::ir::Idempotency;
use crate::surface::{OperationSurface, Surface};
use crate::{Error, Result};
use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};
use serde_json::{Map, Value, json};
use std::collections::BTreeMap;

/// Argument names the server keeps for itself (`oncegen_mcp`'s `BODY`, `IDEMPOTENCY_KEY`,
/// `WAIT`, `JQ`): a parameter of one of these names cannot be a tool argument.
const BODY: &str = "body";
const IDEMPOTENCY_KEY: &str = "idempotency_key";
const WAIT: &str = "wait";
const JQ: &str = "jq";
/// The body's media type when none is worth saying.
const JSON: &str = "application/json";

/// What `tools/list` says of operation `id`: the fields its table entry holds.
pub(super) fn definition(
    surface: &Surface,
    id: &str,
    op: &OperationSurface,
) -> Result<ToolDefinition> {
    let names = arguments::names(op);
    for own in [
        Some(BODY),
        op.effects.writes.then_some(IDEMPOTENCY_KEY),
        op.effects.waits.then_some(WAIT),
        (!op.effects.writes).then_some(JQ),
    ]
    .into_iter()
    .flatten()
    {
        if names.values().any(|name| name == own) {
            return Err(Error::at(
                &format!(
                    "#/paths/{}/{}",
                    op.path.replace('~', "~0").replace('/', "~1"),
                    op.method.as_str().to_ascii_lowercase()
                ),
                format!(
                    "parameter `{own}` has the name of a tool argument the MCP server keeps for itself"
                ),
            ));
        }
    }
    let mut input_schema = input_schema(surface, op);
    let description = description::of(id, &op.rust_fn, op, &input_schema);
    repeats::drop_said(&mut input_schema, &description);
    repeats::drop_restated(&mut input_schema, &op.rust_fn);
    Ok(ToolDefinition {
        name: op.rust_fn.clone(),
        operation_id: id.to_owned(),
        title: op.summary.clone().unwrap_or_else(|| id.to_owned()),
        description,
        input_schema,
        // A tool that offers `wait` answers either what it reads or the settled subject, whose
        // type the surface does not name: no output schema is promised.
        output_schema: (!op.effects.waits)
            .then(|| schema::output(surface, &op.success))
            .flatten(),
        writes: op.effects.writes,
        destructive: op.effects.destructive,
        purchase: op.effects.purchase.is_some(),
        idempotent: !op.effects.writes || op.effects.idempotent,
    })
}

/// The table entry and the function of operation `id` of area `area`.
pub(super) fn render(
    surface: &Surface,
    id: &str,
    op: &OperationSurface,
    area: &str,
    sdk: &Ident,
) -> Result<(TokenStream, TokenStream)> {
    let tool = definition(surface, id, op)?;
    let (name, title, description) = (&tool.name, &tool.title, &tool.description);
    let (input_schema, output_schema, schemas) = schema_constants(&tool)?;
    let method = op.method.as_str();
    let path = &op.path;
    let effects = effects(op);
    let scopes = &op.scopes;
    let names = arguments::names(op);
    let paging = paging(op, &names);
    let run = format_ident!("{}", op.rust_fn);
    let entry = quote! {
        Tool {
            name: #name,
            operation_id: #id,
            area: #area,
            method: #method,
            path: #path,
            title: #title,
            description: #description,
            input_schema: #input_schema,
            output_schema: #output_schema,
            effects: #effects,
            scopes: &[#(#scopes),*],
            paging: #paging,
            run: #run,
        }
    };
    let mut function = function(surface, id, op, sdk, &names);
    function.extend(schemas);
    Ok((entry, function))
}

/// The tool's `Effects`: what calling it does, as its annotations and the server's checks
/// read them.
fn effects(op: &OperationSurface) -> TokenStream {
    let e = &op.effects;
    let (writes, destructive, idempotent, long_running, waits) = (
        e.writes,
        e.destructive,
        e.idempotent,
        e.long_running,
        e.waits,
    );
    let purchase = match &e.purchase {
        Some(p) => {
            let ceiling = &p.ceiling;
            quote!(Some(oncegen_mcp::Purchase { ceiling: &[#(#ceiling),*] }))
        }
        None => quote!(None),
    };
    let grants_access = match &e.grants_access {
        Some(what) => quote!(Some(#what)),
        None => quote!(None),
    };
    quote! {
        Effects {
            writes: #writes,
            destructive: #destructive,
            purchase: #purchase,
            grants_access: #grants_access,
            idempotent: #idempotent,
            long_running: #long_running,
            waits: #waits,
        }
    }
}

/// The tool's `Paging`: the argument that asks for a page (by its tool argument name) and
/// where the answer holds the next one.
fn paging(op: &OperationSurface, names: &BTreeMap<String, String>) -> TokenStream {
    match &op.pagination {
        Some(p) => {
            let argument = names.get(&p.request).unwrap_or(&p.request);
            let next = &p.next;
            quote!(Some(oncegen_mcp::Paging { argument: #argument, next: #next }))
        }
        None => quote!(None),
    }
}

/// The function that calls the SDK: the arguments checked against those the tool knows, the
/// call with its required ones (a purchase's body capped at its ceiling), then the optional
/// parameters, body and key the arguments hold, then the answer.
fn function(
    surface: &Surface,
    id: &str,
    op: &OperationSurface,
    sdk: &Ident,
    names: &BTreeMap<String, String>,
) -> TokenStream {
    let ceiling = op
        .effects
        .purchase
        .as_ref()
        .map(|p| &p.ceiling)
        .filter(|c| !c.is_empty());
    let arguments = input_arguments(
        surface,
        op,
        sdk,
        |rust| names[rust].clone(),
        |ty| match ceiling {
            Some(ceiling) => quote!(input.capped_body #ty (&[#(#ceiling),*])?),
            None => quote!(input.body #ty ()?),
        },
    );
    let setters = setters(surface, op, sdk, names);
    let optional_body = optional_body(surface, op, sdk);
    let key = key(op);
    let answer = answer(op);
    let doc = format!(" `{id}`: calls `{}::Client::{}`.", sdk, op.rust_fn);
    // A deprecated operation or parameter is still offered (its description says so).
    let allow = (op.deprecated || op.params.values().any(|p| p.deprecated))
        .then(|| quote!(#[allow(deprecated)]));
    let known = known(op, names);
    // With `--allow-unknown-members`, a body holding members its type drops is sent as given.
    let as_given = op
        .body
        .as_ref()
        .map(|_| quote!(let call = input.as_given(call);));
    let method = format_ident!("{}", op.rust_fn);
    quote! {
        #[doc = #doc]
        #allow
        fn #method<'a>(client: &'a Client, input: &'a Args) -> Run<'a> {
            Box::pin(async move {
                #known
                let call = client.#method(#(#arguments),*);
                #(#setters)*
                #optional_body
                #as_given
                #key
                #answer
            })
        }
    }
}

/// One statement per optional parameter, setting it on the call when the arguments hold it.
fn setters(
    surface: &Surface,
    op: &OperationSurface,
    sdk: &Ident,
    names: &BTreeMap<String, String>,
) -> Vec<TokenStream> {
    op.params
        .iter()
        .filter(|(_, p)| !p.required)
        .map(|(rust, p)| {
            let setter = format_ident!("{}", rust);
            let ty = turbofish(surface, sdk, &p.ty);
            let name = &names[rust];
            quote! {
                let call = match input.opt #ty (#name)? {
                    Some(value) => call.#setter(value),
                    None => call,
                };
            }
        })
        .collect()
}

/// The statement setting an optional body on the call when the arguments hold one.
fn optional_body(surface: &Surface, op: &OperationSurface, sdk: &Ident) -> Option<TokenStream> {
    op.body.as_ref().filter(|b| !b.required).map(|b| {
        let ty = body_type(surface, sdk, &b.ty).map(|ty| quote!(::<#ty>));
        quote! {
            let call = match input.opt_body #ty ()? {
                Some(body) => call.body(body),
                None => call,
            };
        }
    })
}

/// A keyed write's statements: the caller's idempotency key when given, and the tool's tag
/// (how a repeated call is recognized in the journal).
fn key(op: &OperationSurface) -> Option<TokenStream> {
    (op.idempotency != Idempotency::None).then(|| {
        quote! {
            let call = match input.idempotency_key() {
                Some(key) => call.idempotency_key(key),
                None => call,
            };
            let call = input.tag(call);
        }
    })
}

/// The check that refuses an argument the tool does not take (its parameters and `body`).
fn known(op: &OperationSurface, names: &BTreeMap<String, String>) -> TokenStream {
    let known: Vec<&str> = names
        .values()
        .map(String::as_str)
        .chain(op.body.as_ref().map(|_| BODY))
        .collect();
    quote!(input.known(&[#(#known),*])?;)
}

/// How an operation's function ends: a pollable read's builder followed to its end when
/// `wait` asks, else the answer (bytes of a media type neither JSON nor text, `Binary`, as
/// text or base64).
fn answer(op: &OperationSurface) -> TokenStream {
    let wait = op.effects.waits.then(|| {
        quote! {
            if input.wait() {
                return oncegen_mcp::respond_waited(call.wait().await);
            }
        }
    });
    let respond = if op.success == "Binary" {
        quote!(oncegen_mcp::respond_bytes)
    } else {
        quote!(respond)
    };
    quote! {
        #wait
        #respond(call.send().await)
    }
}

/// The constants holding `tool`'s schemas (`<TOOL>_INPUT`, `<TOOL>_OUTPUT`, next to its
/// function, so its table entry stays short), with what the entry's `input_schema` and
/// `output_schema` say.
fn schema_constants(tool: &ToolDefinition) -> Result<(Ident, TokenStream, TokenStream)> {
    let name = &tool.name;
    let constant = |suffix: &str| format_ident!("{}_{suffix}", name.to_uppercase());
    let input = constant("INPUT");
    let doc = format!("The arguments of `{name}`.");
    let mut constants = schema_text::constant(&input, &doc, &tool.input_schema)?;
    let output = match &tool.output_schema {
        Some(schema) => {
            let output = constant("OUTPUT");
            let doc = format!("What `{name}` answers.");
            constants.extend(schema_text::constant(&output, &doc, schema)?);
            quote!(Some(#output))
        }
        None => quote!(None),
    };
    Ok((input, output, constants))
}

/// The JSON Schema of the tool's arguments: parameters by their names in the API
/// ([`arguments::names`], call order first), the body as `body`, and the server's own
/// `idempotency_key` (writes), `wait` and `jq` (reads).
fn input_schema(surface: &Surface, op: &OperationSurface) -> Value {
    let names = arguments::names(op);
    let mut properties = Map::new();
    let mut required = Vec::new();
    let ordered = op
        .arguments
        .iter()
        .filter(|a| op.params.contains_key(*a))
        .chain(op.params.keys().filter(|k| !op.arguments.contains(k)))
        // An optional deprecated parameter is still taken but not offered: a new call has no
        // use for it.
        .filter(|rust| op.params[*rust].required || !op.params[*rust].deprecated);
    for rust in ordered {
        let p = &op.params[rust];
        let mut schema = schema::of(surface, &p.ty, Side::Input);
        if let (Some(object), Ok(Value::Object(constraints))) =
            (schema.as_object_mut(), serde_json::to_value(&p.constraints))
        {
            object.extend(constraints);
            if let Some(doc) = &p.doc {
                object.insert("description".into(), json!(doc));
            }
            if p.deprecated {
                object.insert("deprecated".into(), json!(true));
            }
        }
        if p.required {
            required.push(json!(names[rust]));
        }
        properties.insert(names[rust].clone(), schema);
    }
    if let Some(body) = &op.body {
        let mut schema = schema::of(surface, &body.ty, Side::Input);
        if let Some(object) = schema.as_object_mut().filter(|_| body.media_type != JSON) {
            object
                .entry("description")
                .or_insert_with(|| json!(format!("The request body ({}).", body.media_type)));
        }
        properties.insert(BODY.into(), schema);
        if body.required {
            required.push(json!(BODY));
        }
    }
    own_arguments(op, &mut properties);
    let mut schema = json!({"type": "object", "properties": properties});
    if !required.is_empty() {
        schema["required"] = Value::Array(required);
    }
    schema
}

/// The arguments the server keeps for itself, where `op` takes them: a write's
/// `idempotency_key`, `wait` of a read that polls, a read's `jq`.
fn own_arguments(op: &OperationSurface, properties: &mut Map<String, Value>) {
    if op.effects.writes {
        properties.insert(
            IDEMPOTENCY_KEY.into(),
            json!({"type": "string"}), // its length is said in the server's instructions
        );
    }
    if op.effects.waits {
        properties.insert(
            WAIT.into(),
            json!({"type": "boolean", "description": "Poll until what this reads settles, then answer its settled state."}),
        );
    }
    if !op.effects.writes {
        properties.insert(JQ.into(), json!({"type": "string"}));
    }
}
