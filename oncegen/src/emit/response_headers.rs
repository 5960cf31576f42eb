//! The typed views of documented response headers: one struct per distinct set, in the shared
//! `types` module, read from a response's metadata; and each builder's `response_headers`.

use super::Ctx;
use super::docs::lines_attrs;
use crate::ir::Api;
use crate::surface::OperationSurface;
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

/// The view structs (for the shared module).
pub(super) fn views(cx: &Ctx<'_>, api: &Api) -> TokenStream {
    let views = api.response_headers.iter().map(|def| {
        let name = format_ident!("{}", def.name);
        let fields = def.headers.iter().map(|h| {
            let ident = format_ident!("{}", h.rust_name);
            let ty = cx.ty(&h.ty);
            let mut doc = format!("`{}`", h.name.replace('`', "'"));
            if let Some(text) = &h.doc {
                doc.push_str(": ");
                doc.push_str(&super::docs::sanitize(text));
            }
            if h.deprecated {
                doc.push_str("\n\nDeprecated.");
            }
            let doc = lines_attrs(&doc);
            quote!(#doc pub #ident: Option<#ty>)
        });
        let inits = def.headers.iter().map(|h| {
            let ident = format_ident!("{}", h.rust_name);
            let wire = &h.name;
            quote!(#ident: meta.header_as(#wire))
        });
        let doc = lines_attrs(
            "The response headers the document describes, typed: read with \
             `from_meta(response.meta())` or a builder's `response_headers`. A header that is \
             absent or does not parse as its type is `None` (`ResponseMeta::headers` keeps every \
             header as received).",
        );
        quote! {
            #doc
            #[derive(Clone, Debug, Default, PartialEq)]
            #[non_exhaustive]
            pub struct #name {
                #(#fields,)*
            }
            impl #name {
                /// Reads the documented headers from a response's metadata.
                pub fn from_meta(meta: &::oncegen_runtime::ResponseMeta) -> Self {
                    Self { #(#inits,)* }
                }
            }
        }
    });
    quote!(#(#views)*)
}

/// The builder's `response_headers`, when its success response documents headers.
pub(super) fn builder_method(op: &OperationSurface) -> Option<TokenStream> {
    let name = format_ident!("{}", op.response_headers.as_ref()?.ty);
    Some(quote! {
        /// The headers the operation documents on success, typed, from a response's metadata
        /// (`response.meta()`).
        pub fn response_headers(meta: &::oncegen_runtime::ResponseMeta) -> crate::types::#name {
            crate::types::#name::from_meta(meta)
        }
    })
}
