//! The `webhooks` module: one `Webhook` enum of every webhook and callback the spec lists, with
//! `parse` turning an incoming request (name, headers, body) into a typed value.

use super::Ctx;
use super::docs::{lines_attrs, sanitize};
use crate::ir::{Api, Webhook};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

/// The module's items, or `None` when the spec has no webhook.
pub fn webhooks_module(cx: &Ctx<'_>, api: &Api) -> Option<TokenStream> {
    if api.webhooks.is_empty() {
        return None;
    }
    let names: Vec<&str> = api.webhooks.iter().map(|w| w.name.as_str()).collect();
    let variants = api.webhooks.iter().map(|w| variant(cx, w));
    let arms = api.webhooks.iter().map(|w| {
        let ident = format_ident!("{}", w.variant);
        let name = &w.name;
        quote!(#name => ::oncegen_runtime::webhook::decode(name, body).map(Webhook::#ident),)
    });
    let name_arms = api.webhooks.iter().map(|w| {
        let ident = format_ident!("{}", w.variant);
        let name = &w.name;
        quote!(Webhook::#ident(_) => #name,)
    });
    Some(quote! {
        /// A webhook or callback the API sent, decoded into its payload type.
        #[derive(Clone, Debug, PartialEq)]
        #[non_exhaustive]
        pub enum Webhook {
            #(#variants)*
        }

        impl Webhook {
            /// The name of every webhook and callback (`operationId.callback`) of the spec.
            pub const NAMES: &'static [&'static str] = &[#(#names),*];

            /// Decodes an incoming webhook: `name` is its name in the spec (see [`Webhook::NAMES`]),
            /// `headers` the request's headers (a `Content-Type` must be JSON), `body` its bytes.
            /// An unknown name, a wrong content type or a body that does not decode is a
            /// [`WebhookError`](::oncegen_runtime::WebhookError) saying which.
            pub fn parse<'h>(
                name: &str,
                headers: impl IntoIterator<Item = (&'h str, &'h str)>,
                body: &[u8],
            ) -> Result<Self, ::oncegen_runtime::WebhookError> {
                ::oncegen_runtime::webhook::check_content_type(name, headers)?;
                match name {
                    #(#arms)*
                    _ => Err(::oncegen_runtime::WebhookError::unknown(name, Self::NAMES)),
                }
            }

            /// The webhook's name in the spec.
            pub fn name(&self) -> &'static str {
                match self {
                    #(#name_arms)*
                }
            }
        }
    })
}

/// The `Webhook` variant of webhook `w`, holding its payload, with its name and doc.
fn variant(cx: &Ctx<'_>, w: &Webhook) -> TokenStream {
    let ident = format_ident!("{}", w.variant);
    let payload = cx.ty(&w.payload);
    let mut doc = format!("`{}`", w.name.replace('`', "'"));
    if let Some(d) = &w.doc {
        doc.push_str(": ");
        doc.push_str(&sanitize(d).replace('\n', " "));
    }
    let doc = lines_attrs(&doc);
    quote!(#doc #ident(#payload),)
}
