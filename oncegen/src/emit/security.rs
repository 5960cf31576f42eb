//! The document's security schemes as runtime data (`security_schemes`, one `static` each), and
//! the statement that gives an operation's request its `security`.

use super::docs::sanitize;
use crate::ir::{Api, Operation, ParamLocation, SchemeKind};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

/// `pub mod security_schemes { pub static NAME: SecurityScheme = …; }` (nothing without schemes).
pub(super) fn schemes_module(api: &Api) -> Option<TokenStream> {
    if api.security_schemes.is_empty() {
        return None;
    }
    let statics = api.security_schemes.iter().map(|s| {
        let ident = format_ident!("{}", s.rust_name);
        let name = &s.name;
        let (kind, how) = match &s.kind {
            SchemeKind::ApiKey { location, param } => {
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
            SchemeKind::Basic => (
                quote!(::oncegen_runtime::SchemeKind::Basic),
                "a user name and password (`SchemeCredential::basic`)".to_owned(),
            ),
            SchemeKind::Bearer => (
                quote!(::oncegen_runtime::SchemeKind::Bearer),
                "a bearer token (`SchemeCredential::bearer`, or the client's `Config::bearer`)"
                    .to_owned(),
            ),
        };
        let mut doc = format!(
            "Security scheme `{}`: {how}. Set it once with `Config::scheme_credential(&{}, …)`.",
            name.replace('`', "'"),
            s.rust_name
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
    });
    let mut module_doc = "The API's security schemes: set a credential once per client with \
        `Config::scheme_credential`; each operation sends those of the first of its `security` \
        requirements that all have one."
        .to_owned();
    let unstated = api
        .operations
        .iter()
        .filter(|o| o.security.is_none())
        .count();
    if unstated > 0 {
        module_doc.push_str(&format!(
            "\n\n{unstated} of the {} operations state no `security` (nor does the document): \
             they send a scheme's credential only when it is set with \
             `Config::scheme_credential_everywhere`, which sends it on every operation that \
             does not say it needs none (`Config::bearer` goes on those too). An operation that \
             sends no credential is logged at debug level.",
            api.operations.len()
        ));
    }
    let module_doc = super::docs::lines_attrs(&module_doc);
    Some(quote! {
        #module_doc
        pub mod security_schemes {
            #( #statics )*
        }
    })
}

/// `static SECURITY: &[Requirement] = …; request.security(SECURITY);` for an operation whose
/// document states its `security`.
pub(super) fn requirement_statements(op: &Operation) -> Option<TokenStream> {
    let requirements = op.security.as_ref()?;
    let each = requirements.iter().map(|r| {
        let schemes = r.iter().map(|name| {
            let ident = format_ident!("{}", name);
            quote!(&crate::security_schemes::#ident)
        });
        quote!(&[#(#schemes),*])
    });
    Some(quote! {
        static SECURITY: &[::oncegen_runtime::Requirement] = &[#(#each),*];
        request.security(SECURITY);
    })
}

/// `pub mod servers`: a constant per server of the document (variables at their defaults), a
/// function per server with variables, `DEFAULT` (the first) and `resolve` for relative URLs.
pub(super) fn servers_module(api: &Api) -> Option<TokenStream> {
    let first = api.servers.first()?;
    let items = api.servers.iter().map(|server| {
        let ident = format_ident!("{}", server.rust_name);
        let filled = crate::surface::access::default_url(server);
        let relative = !filled.contains("://");
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
        if relative {
            doc.push_str(
                "\n\nRelative: the URL the document is served from resolves it ([`resolve`]).",
            );
        }
        let doc = super::docs::lines_attrs(&doc);
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
        let mut fn_doc = format!("`{}` with its variables:\n", template.replace('`', "'"));
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
        let fn_doc = super::docs::lines_attrs(&fn_doc);
        quote! {
            #constant
            #fn_doc
            pub fn #function(#(#args),*) -> String {
                ::oncegen_runtime::servers::fill(#template, &[#(#pairs),*])
            }
        }
    });
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
