//! The document's security schemes as runtime data (`security_schemes`, one `static` each), and
//! the statement that gives an operation's request its `security`.

use super::docs::sanitize;
use crate::ir::{Api, Operation, ServerDef};
use crate::surface::{CredentialKind, ParamLocation, SchemeSurface, Surface};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

/// `pub mod security_schemes { pub static NAME: SecurityScheme = …; }` (nothing without schemes).
pub(super) fn schemes_module(api: &Api, surface: &Surface) -> Option<TokenStream> {
    let operations = &surface.operations;
    let stated = operations.values().any(|o| o.security.is_some());
    if surface.security_schemes.is_empty() && !stated {
        return None;
    }
    // In the order of their keys in the document, as lowering read them.
    let mut schemes: Vec<_> = surface.security_schemes.iter().collect();
    schemes.sort_by(|a, b| a.1.name.cmp(&b.1.name));
    let statics = schemes
        .into_iter()
        .map(|(rust_name, s)| scheme_static(rust_name, s));
    let mut module_doc = "The API's security schemes: set a credential once per client with \
        `Config::scheme_credential`; each operation sends those of the first of its `security` \
        requirements that all have one."
        .to_owned();
    let unstated = operations.values().filter(|o| o.security.is_none()).count();
    if unstated > 0 {
        module_doc.push_str(&format!(
            "\n\n{unstated} of the {} operations state no `security` (nor does the document): \
             they send a scheme's credential only when it is set with \
             `Config::scheme_credential_everywhere`, which sends it on every operation that \
             does not say it needs none (`Config::bearer` goes on those too). An operation that \
             sends no credential is logged at debug level.",
            operations.len()
        ));
    }
    let module_doc = super::docs::lines_attrs(&module_doc);
    let requirements = requirement_statics(api);
    Some(quote! {
        #module_doc
        pub mod security_schemes {
            #( #statics )*
            #( #requirements )*
        }
    })
}

/// `pub static NAME: SecurityScheme = …;` with its doc: how its credential travels.
fn scheme_static(rust_name: &str, s: &SchemeSurface) -> TokenStream {
    let ident = format_ident!("{}", rust_name);
    let name = &s.name;
    let (kind, how) = match s.kind {
        CredentialKind::ApiKey => {
            let (Some(location), Some(param)) = (s.location, &s.param) else {
                unreachable!("the surface places every API key")
            };
            let (loc, word) = match location {
                ParamLocation::Header => (quote!(Header), "header"),
                ParamLocation::Query => (quote!(Query), "query parameter"),
                ParamLocation::Cookie => (quote!(Cookie), "cookie"),
                ParamLocation::Path => (quote!(Path), "path"),
            };
            (
                quote!(::oncegen_runtime::SchemeKind::ApiKey { location: ::oncegen_runtime::ParamIn::#loc, param: #param }),
                format!("an API key (`SchemeCredential::api_key`) in {word} `{param}`"),
            )
        }
        CredentialKind::Basic => (
            quote!(::oncegen_runtime::SchemeKind::Basic),
            "a user name and password (`SchemeCredential::basic`)".to_owned(),
        ),
        CredentialKind::Bearer => (
            quote!(::oncegen_runtime::SchemeKind::Bearer),
            "a bearer token (`SchemeCredential::bearer`, or the client's `Config::bearer`)"
                .to_owned(),
        ),
    };
    let mut doc = format!(
        "Security scheme `{}`: {how}. Set it once with `Config::scheme_credential(&{}, …)`.",
        name.replace('`', "'"),
        rust_name
    );
    if let Some(d) = &s.doc {
        doc = format!("{}\n\n{doc}", sanitize(d));
    }
    let doc = super::docs::lines_attrs(&doc);
    quote! {
        #doc
        pub static #ident: ::oncegen_runtime::SecurityScheme = ::oncegen_runtime::SecurityScheme {
            name: #name,
            kind: #kind,
        };
    }
}

/// `request.security(crate::security_schemes::REQUIRES_…);` for an operation whose document
/// states its `security`: operations that state the same share one `static`
/// ([`requirement_name`]).
pub(super) fn requirement_statements(op: &Operation) -> Option<TokenStream> {
    let ident = format_ident!("{}", requirement_name(op.security.as_ref()?));
    Some(quote! {
        request.security(crate::security_schemes::#ident);
    })
}

/// The name of the `static` holding one `security` list, from its content alone (so no other
/// operation renames it): `REQUIRES_A_AND_B_OR_C`, `REQUIRES_A_OR_NOTHING` when an empty
/// requirement makes the credential optional, `NO_SECURITY` for `security: []`.
fn requirement_name(requirements: &[Vec<String>]) -> String {
    let alternatives: Vec<String> = distinct(requirements)
        .into_iter()
        .map(|r| match r.is_empty() {
            true => "NOTHING".to_owned(),
            false => r.join("_AND_"),
        })
        .collect();
    match alternatives.is_empty() {
        true => "NO_SECURITY".to_owned(),
        false => format!("REQUIRES_{}", alternatives.join("_OR_")),
    }
}

/// One `pub static REQUIRES_…: &[Requirement]` per distinct `security` the operations state
/// (`NO_SECURITY` for an empty one).
fn requirement_statics(api: &Api) -> Vec<TokenStream> {
    let mut lists = std::collections::BTreeMap::new();
    for requirements in api.operations.iter().filter_map(|o| o.security.as_ref()) {
        lists.insert(requirement_name(requirements), requirements);
    }
    let statics = lists.into_iter().map(|(name, requirements)| {
        let ident = format_ident!("{}", name);
        let requirements = distinct(requirements);
        let each = requirements.iter().map(|r| {
            let schemes = r.iter().map(|scheme| format_ident!("{}", scheme));
            quote!(&[#(&#schemes),*])
        });
        let doc = format!(
            " The `security` of the operations that send {}.",
            describe(&requirements)
        );
        quote! {
            #[doc = #doc]
            pub static #ident: &[::oncegen_runtime::Requirement] = &[#(#each),*];
        }
    });
    statics.collect()
}

/// The requirements of a `security` list without repeats, first occurrences in order (a
/// document lists one scheme again for other scopes, which the runtime does not tell apart).
fn distinct(requirements: &[Vec<String>]) -> Vec<&Vec<String>> {
    let mut seen = Vec::new();
    for r in requirements {
        if !seen.contains(&r) {
            seen.push(r);
        }
    }
    seen
}

/// A `security` list in words: "`A` and `B`, else `C`", or "no credential".
fn describe(requirements: &[&Vec<String>]) -> String {
    let words: Vec<String> = requirements
        .iter()
        .map(|r| match r.is_empty() {
            true => "no credential".to_owned(),
            false => r
                .iter()
                .map(|s| format!("`{s}`"))
                .collect::<Vec<_>>()
                .join(" and "),
        })
        .collect();
    match words.is_empty() {
        true => "no credential".to_owned(),
        false => words.join(", else "),
    }
}

/// `pub mod servers`: a constant per server of the document (variables at their defaults), a
/// function per server with variables, `DEFAULT` (the first) and `resolve` for relative URLs.
pub(super) fn servers_module(api: &Api) -> Option<TokenStream> {
    let first = api.servers.first()?;
    let items = api.servers.iter().map(server_items);
    let default = format_ident!("{}", first.rust_name);
    Some(quote! {
        /// The servers the document lists: pass one to `Config::new` (a relative one through
        /// [`servers::resolve`] first).
        pub mod servers {
            #( #items )*
            /// The first server the document lists.
            pub const DEFAULT: &str = #default;
            /// Resolves a relative server URL against the URL the document is served from
            /// (an absolute one is returned as it is).
            pub fn resolve(document_url: &str, server: &str) -> Result<String, ::oncegen_runtime::Error> {
                ::oncegen_runtime::servers::resolve(document_url, server)
            }
        }
    })
}

/// A server's constant (its URL, variables at their defaults) and, when it has variables, the
/// function that fills them.
fn server_items(server: &ServerDef) -> TokenStream {
    let ident = format_ident!("{}", server.rust_name);
    let filled = crate::surface::access::default_url(server);
    let doc = super::docs::lines_attrs(&server_doc(server, &filled));
    let constant = quote! {
        #doc
        pub const #ident: &str = #filled;
    };
    if server.variables.is_empty() {
        return constant;
    }
    let function = format_ident!(
        "{}",
        crate::surface::access::server_function(&server.rust_name)
    );
    let args = server.variables.iter().map(|v| {
        let a = format_ident!("{}", v.rust_name);
        quote!(#a: &str)
    });
    let pairs = server.variables.iter().map(|v| {
        let a = format_ident!("{}", v.rust_name);
        let name = &v.name;
        quote!((#name, #a))
    });
    let template = &server.url;
    let fn_doc = super::docs::lines_attrs(&server_function_doc(server));
    quote! {
        #constant
        #fn_doc
        pub fn #function(#(#args),*) -> String {
            ::oncegen_runtime::servers::fill(#template, &[#(#pairs),*])
        }
    }
}

/// A server constant's doc: its description, its URL (`filled`, variables at their defaults)
/// and, when relative, how it is resolved.
fn server_doc(server: &ServerDef, filled: &str) -> String {
    let mut doc = server
        .description
        .as_deref()
        .map(|d| format!("{}\n\n", sanitize(d)))
        .unwrap_or_default();
    doc.push_str(&format!("`{}`", server.url.replace('`', "'")));
    if !server.variables.is_empty() {
        doc.push_str(&format!(
            " with its variables at their defaults (`{}`).",
            filled.replace('`', "'")
        ));
    }
    if !filled.contains("://") {
        doc.push_str(
            "\n\nRelative: the URL the document is served from resolves it ([`resolve`]).",
        );
    }
    doc
}

/// A server function's doc: its URL template and each variable's default, values and doc.
fn server_function_doc(server: &ServerDef) -> String {
    let mut fn_doc = format!("`{}` with its variables:\n", server.url.replace('`', "'"));
    for v in &server.variables {
        fn_doc.push_str(&format!(
            "\n- `{}` (default `{}`",
            v.rust_name,
            v.default.replace('`', "'")
        ));
        if !v.values.is_empty() {
            let values: Vec<String> = v
                .values
                .iter()
                .map(|x| format!("`{}`", x.replace('`', "'")))
                .collect();
            fn_doc.push_str(&format!("; one of {}", values.join(", ")));
        }
        fn_doc.push(')');
        if let Some(d) = &v.doc {
            fn_doc.push_str(&format!(": {}", sanitize(d).replace('\n', " ")));
        }
    }
    fn_doc
}
