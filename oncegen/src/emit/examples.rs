//! A `no_run` code example in an operation's rustdoc where the call shows something its
//! signature does not: a request body, an optional (query or header) parameter, pagination or a
//! download. The example is the client method with its required arguments, one optional setter,
//! `send` (or `into_stream` for paginated operations); a plain call with path parameters gets
//! none, and the per-call options every builder has are shown once, in the crate's docs.
//! Doctests compile every example, so the docs cannot drift from the API.

use super::Ctx;
use crate::ir::{Operation, Success, TypeKind, TypeRef};
use std::collections::{BTreeMap, BTreeSet};

/// How deep example values nest before the generator gives up on a type.
const MAX_DEPTH: usize = 6;

/// The example as rustdoc text (a fenced `no_run` block), or `None` when the call shows
/// nothing the signature does not, or some argument has no example value the generator can
/// write.
pub fn operation_example(cx: &Ctx<'_>, op: &Operation) -> Option<String> {
    let mut args = parameter_args(cx, op)?;
    let body = op.body.as_ref().filter(|b| b.required);
    if let Some(body) = body {
        args.push(value(cx, &body.ty, 0)?);
    }
    let surface = cx.operation(op);
    // One optional setter (not the one a stream sets for each page).
    let continuation = surface.pagination.as_ref().map(|pg| pg.request.as_str());
    let optional = op
        .params
        .iter()
        .filter(|p| !p.required && !p.deprecated && Some(p.rust_name.as_str()) != continuation)
        .find_map(|p| Some(format!("{}({})", p.rust_name, value(cx, &p.ty, 0)?)));
    let download = op.success == Success::Binary;
    if body.is_none() && optional.is_none() && surface.pagination.is_none() && !download {
        return None;
    }
    let krate = cx.crate_ident();
    let mut lines = Vec::new();
    let (binding, tail): (&str, &[&str]) = if surface.pagination.is_some() {
        lines.push("use futures::TryStreamExt;".to_owned());
        (
            "let items: Vec<_>",
            &["into_stream()", "try_collect()", "await?"],
        )
    } else {
        ("let response", &["send()", "await?"])
    };
    let calls: Vec<String> = [format!("{}({})", surface.rust_fn, args.join(", "))]
        .into_iter()
        .chain(optional)
        .chain(tail.iter().map(|t| (*t).to_owned()))
        .collect();
    lines.push(format!("{binding} = client.{};", calls.join(".")));
    let (mut uses, statements) = area_paths(krate, &lines.join("\n"));
    uses.push(statements);
    let signature =
        format!("async fn example(client: &{krate}::Client) -> Result<(), {krate}::Error> {{");
    let statements = uses.join("\n");
    let function = format!("{signature}\n{statements}\nOk(())\n}}");
    let shown = formatted(&function)
        .unwrap_or_else(|| format!("# {signature}\n{statements}\n# Ok(()) }}\n"));
    Some(format!("```no_run\n{shown}```"))
}

/// The example values of the call's required parameters: one each, or one arguments struct.
fn parameter_args(cx: &Ctx<'_>, op: &Operation) -> Option<Vec<String>> {
    let Some(name) = cx.arguments_struct(op) else {
        return cx
            .arguments(op)
            .into_iter()
            .map(|p| value(cx, &p.ty, 0))
            .collect();
    };
    let mut fields = Vec::new();
    for p in cx.arguments(op) {
        let into = cx
            .operation(op)
            .params
            .get(&p.rust_name)
            .is_some_and(|s| s.into);
        fields.push(format!("{}: {}", p.rust_name, owned(cx, into, &p.ty, 0)?));
    }
    Some(vec![format!(
        "{}::{}::{name} {{ {} }}",
        cx.crate_ident(),
        cx.operation(op).area,
        fields.join(", ")
    )])
}

/// Names the example spells itself, which an imported type of the same name would shadow.
const PRELUDE: [&str; 8] = [
    "Box", "Default", "Ok", "Option", "Result", "Some", "String", "Vec",
];

/// `code` with each `krate::area::Type` path shortened to `Type`, and the `use` lines importing
/// those types first (as a person writes it, and short enough for the docs' width).
fn area_paths(krate: &str, code: &str) -> (Vec<String>, String) {
    let prefix = format!("{krate}::");
    let mut imported: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    let mut out = String::with_capacity(code.len());
    let mut rest = code;
    while let Some(at) = rest.find(&prefix) {
        out.push_str(&rest[..at]);
        rest = &rest[at + prefix.len()..];
        let ident = |text: &'_ str| {
            let end = text.find(|c: char| !(c.is_alphanumeric() || c == '_'));
            text[..end.unwrap_or(text.len())].to_owned()
        };
        let module = ident(rest);
        let item = rest[module.len()..].strip_prefix("::").map(ident);
        match item {
            Some(item)
                if module.starts_with(|c: char| c.is_ascii_lowercase())
                    && item.starts_with(|c: char| c.is_ascii_uppercase())
                    && !PRELUDE.contains(&item.as_str()) =>
            {
                let (module, tail) = rest.split_at(module.len());
                imported
                    .entry(module)
                    .or_default()
                    .insert(&tail[2..2 + item.len()]);
                rest = &tail[2..];
            }
            _ => out.push_str(&prefix),
        }
    }
    out.push_str(rest);
    let uses = imported
        .iter()
        .map(|(module, items)| match items.len() {
            1 => format!("use {krate}::{module}::{};", items.first().unwrap_or(&"")),
            _ => format!(
                "use {krate}::{module}::{{{}}};",
                items.iter().copied().collect::<Vec<_>>().join(", ")
            ),
        })
        .collect();
    (uses, out)
}

/// The example function `source` formatted by prettyplease, as doc text: its signature and its
/// `Ok(())` hidden (`# `), its statements shown; `None` when it does not parse (a crate name
/// that is no identifier).
fn formatted(source: &str) -> Option<String> {
    let file = syn::parse_file(source).ok()?;
    let printed = prettyplease::unparse(&file);
    let mut out = String::with_capacity(printed.len() + 64);
    let mut in_body = false;
    for line in printed.lines() {
        let shown = line.strip_prefix("    ").filter(|_| in_body);
        match shown {
            Some(statement) if statement != "Ok(())" => out.push_str(statement),
            _ if line.is_empty() => {}
            _ => {
                out.push_str("# ");
                out.push_str(line);
            }
        }
        out.push('\n');
        in_body |= line.ends_with('{') && !line.starts_with(' ');
    }
    Some(out)
}

/// The crate docs' paragraph on the per-call options every request builder has (shown here
/// once rather than in each operation's example).
pub fn call_options_doc(krate: &str) -> String {
    format!(
        "Each client method returns a request builder: optional parameters are its setters, and \
[`CallBuilder`] gives every builder per-call control (correlation id, timeouts, retry policy, \
headers). Builders of writes that take an idempotency key also have `idempotency_key`; one is \
generated and reused across retries when none is set.\n\n\
```no_run\n\
use {krate}::CallBuilder;\n\
use std::time::Duration;\n\n\
fn with_call_options<B: CallBuilder>(request: B) -> B {{\n    \
request.client_request_id(\"example-1\").timeout(Duration::from_secs(30))\n\
}}\n\
```"
    )
}

/// A Rust expression of type `ty` itself (a field of an arguments struct takes no `impl Into`;
/// `into`: the surface's, a value of another type that converts).
fn owned(cx: &Ctx<'_>, into: bool, ty: &TypeRef, depth: usize) -> Option<String> {
    let value = value(cx, ty, depth)?;
    Some(if into {
        format!("{value}.into()")
    } else {
        value
    })
}

/// A Rust expression of type `ty` (or one converting into it), with paths from the crate root.
fn value(cx: &Ctx<'_>, ty: &TypeRef, depth: usize) -> Option<String> {
    if depth > MAX_DEPTH {
        return None;
    }
    Some(match ty {
        TypeRef::String => "\"example\"".to_owned(),
        TypeRef::Bool => "true".to_owned(),
        TypeRef::Int(_) => "1".to_owned(),
        TypeRef::Float => "1.0".to_owned(),
        TypeRef::Uuid => "uuid::Uuid::nil()".to_owned(),
        TypeRef::DateTime => "chrono::Utc::now()".to_owned(),
        TypeRef::Date => "chrono::NaiveDate::default()".to_owned(),
        TypeRef::Decimal => "rust_decimal::Decimal::ONE".to_owned(),
        TypeRef::Secret => format!("{}::Secret::from(\"secret\")", cx.crate_ident()),
        TypeRef::Json => "serde_json::json!({})".to_owned(),
        TypeRef::JsonObject => "serde_json::Map::new()".to_owned(),
        TypeRef::Bytes => "b\"data\".to_vec()".to_owned(),
        TypeRef::File => format!(
            "{}::FilePart::new(b\"data\".to_vec()).filename(\"data.bin\")",
            cx.crate_ident()
        ),
        TypeRef::Array(item) => format!("vec![{}]", value(cx, item, depth + 1)?),
        TypeRef::Map(_) => "Default::default()".to_owned(),
        // An `Option` argument takes no `impl Into`: a string must be owned.
        TypeRef::Nullable(inner) if cx.resolves_to(inner, &TypeRef::String) => {
            "Some(\"example\".to_owned())".to_owned()
        }
        TypeRef::Nullable(inner) => format!("Some({})", value(cx, inner, depth + 1)?),
        TypeRef::Named(name) => named(cx, name, depth)?,
    })
}

fn named(cx: &Ctx<'_>, name: &str, depth: usize) -> Option<String> {
    let def = cx.def(name)?;
    let path = format!("{}::{}::{}", cx.crate_ident(), def.module, def.name);
    match &def.kind {
        TypeKind::Enum { variants, .. } => Some(format!("{path}::{}", variants.first()?.rust_name)),
        TypeKind::Alias { target } => value(cx, target, depth + 1),
        TypeKind::Union { variants, .. } => {
            let first = variants.first()?;
            let inner = value(cx, &first.ty, depth + 1)?;
            let inner = if first.boxed {
                format!("Box::new({inner})")
            } else {
                inner
            };
            Some(format!("{path}::{}({inner})", first.rust_name))
        }
        TypeKind::Struct { fields, .. } if def.request => {
            let named = cx.constructor_struct(&def.name);
            let mut args = Vec::new();
            for f in cx.constructor_fields(&def.name, fields) {
                let value = match (f.nullable, named) {
                    (true, _) => "None".to_owned(),
                    (false, Some(_)) => {
                        let into = cx.field_surface(&def.name, &f.rust_name).into;
                        owned(cx, into, &f.ty, depth + 1)?
                    }
                    (false, None) => value(cx, &f.ty, depth + 1)?,
                };
                args.push(match named {
                    Some(_) => format!("{}: {value}", f.rust_name),
                    None => value,
                });
            }
            Some(match named {
                Some(args_struct) => format!(
                    "{path}::new({}::{}::{args_struct} {{ {} }})",
                    cx.crate_ident(),
                    def.module,
                    args.join(", ")
                ),
                None => format!("{path}::new({})", args.join(", ")),
            })
        }
        TypeKind::Struct { .. } => None,
    }
}
