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
                    quote!(::sdk_runtime::SchemeKind::ApiKey { location: ::sdk_runtime::ParamIn::#loc, param: #param }),
                    format!("an API key (`SchemeCredential::api_key`) in {word} `{param}`"),
                )
            }
            SchemeKind::Basic => (
                quote!(::sdk_runtime::SchemeKind::Basic),
                "a user name and password (`SchemeCredential::basic`)".to_owned(),
            ),
            SchemeKind::Bearer => (
                quote!(::sdk_runtime::SchemeKind::Bearer),
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
            pub static #ident: ::sdk_runtime::SecurityScheme = ::sdk_runtime::SecurityScheme {
                name: #name,
                kind: #kind,
            };
        }
    });
    Some(quote! {
        /// The API's security schemes: set a credential once per client with
        /// `Config::scheme_credential`; each operation sends those of the first of its
        /// `security` requirements that all have one.
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
        static SECURITY: &[::sdk_runtime::Requirement] = &[#(#each),*];
        request.security(SECURITY);
    })
}
