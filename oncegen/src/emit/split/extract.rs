//! Token surgery the split layout needs on what the single-crate emitters produce: an area's
//! client methods become an extension trait of the core `Client`, and methods gated by an area
//! feature (`#[cfg(feature = …)]`: `check_contract`, a receipt's `wait`) leave the crate that
//! cannot reach that area for the facade, which can.

use crate::error::{Error, Result};
use proc_macro2::{Ident, TokenStream};
use quote::{ToTokens, format_ident, quote};
use syn::{Attribute, ImplItem, ImplItemFn, Item, ReturnType};

/// The methods of one `impl` block that exist only with some area's feature.
pub(super) struct Gated {
    /// The type the block implements, as written (`Client`, `OperationEnvelope`).
    pub self_ty: TokenStream,
    /// Its last path segment, which names the extension trait.
    pub type_name: String,
    /// The gated methods, attributes included.
    pub fns: Vec<ImplItemFn>,
}

/// `tokens` without the methods gated by a feature, and those methods by `impl` block. An
/// `impl` block left empty is dropped.
pub(super) fn take_gated(tokens: TokenStream) -> Result<(TokenStream, Vec<Gated>)> {
    let file: syn::File = syn::parse2(tokens).map_err(internal)?;
    let mut kept = TokenStream::new();
    let mut gated = Vec::new();
    for item in file.items {
        let Item::Impl(mut block) = item else {
            item.to_tokens(&mut kept);
            continue;
        };
        let (moved, stay): (Vec<ImplItem>, Vec<ImplItem>) = std::mem::take(&mut block.items)
            .into_iter()
            .partition(|i| matches!(i, ImplItem::Fn(f) if is_feature_gated(&f.attrs)));
        if !moved.is_empty() {
            let self_ty = block.self_ty.to_token_stream();
            let type_name = last_segment(&self_ty);
            let fns = moved
                .into_iter()
                .filter_map(|i| match i {
                    ImplItem::Fn(f) => Some(f),
                    _ => None,
                })
                .collect();
            gated.push(Gated {
                self_ty,
                type_name,
                fns,
            });
        }
        if !stay.is_empty() || block.trait_.is_some() {
            block.items = stay;
            block.to_tokens(&mut kept);
        }
    }
    Ok((kept, gated))
}

/// An area's client methods (`pub fn op(&self, …) -> builders::Op<'_>`, as
/// `operations::operation` emits them for `impl crate::Client`) as the trait `name` and its
/// implementation for the core `Client`. Each method's docs go on the trait; its doc example
/// brings `krate::prelude::*` into scope, which holds the trait.
pub(super) fn area_trait(
    name: &Ident,
    doc: &str,
    methods: Vec<TokenStream>,
    krate: &str,
) -> Result<TokenStream> {
    let prelude_line = format!(" # #[allow(unused_imports)] use {krate}::prelude::*;");
    let mut declared = Vec::new();
    let mut defined = Vec::new();
    for method in methods {
        let method: ImplItemFn = syn::parse2(method).map_err(internal)?;
        let mut attrs = Vec::with_capacity(method.attrs.len() + 1);
        for attr in &method.attrs {
            attrs.push(attr.to_token_stream());
            if attr.to_token_stream().to_string().contains("```no_run") {
                attrs.push(quote!(#[doc = #prelude_line]));
            }
        }
        let (sig, block) = (&method.sig, &method.block);
        declared.push(quote!(#(#attrs)* #sig;));
        defined.push(quote!(#sig #block));
    }
    Ok(quote! {
        #[doc = #doc]
        pub trait #name {
            #( #declared )*
        }
        impl #name for crate::Client {
            #( #defined )*
        }
    })
}

/// The gated methods of `gated` as an extension trait (`<Type>Ext`) implemented for its type
/// at `self_path`: an `async fn` is declared as returning `impl Future + Send`. Each method
/// keeps its `cfg`, so the trait has it exactly when the crate had the method.
fn extension_trait(gated: &Gated, self_path: &TokenStream) -> TokenStream {
    let name = extension_trait_name(&gated.type_name);
    let doc = format!(
        " Methods of [`{}`] that call operations of an area crate (in the single-crate layout they are inherent).",
        gated.type_name
    );
    let mut declared = Vec::new();
    let mut defined = Vec::new();
    for f in &gated.fns {
        let cfgs: Vec<&Attribute> = f
            .attrs
            .iter()
            .filter(|a| a.path().is_ident("cfg"))
            .collect();
        let attrs = &f.attrs;
        let mut sig = f.sig.clone();
        if sig.asyncness.take().is_some() {
            let output = match &sig.output {
                ReturnType::Default => quote!(()),
                ReturnType::Type(_, ty) => ty.to_token_stream(),
            };
            sig.output = syn::parse_quote!(-> impl ::std::future::Future<Output = #output> + Send);
        }
        declared.push(quote!(#(#attrs)* #sig;));
        let (sig, block) = (&f.sig, &f.block);
        defined.push(quote!(#(#cfgs)* #sig #block));
    }
    quote! {
        #[doc = #doc]
        pub trait #name {
            #( #declared )*
        }
        impl #name for #self_path {
            #( #defined )*
        }
    }
}

/// Gated methods moved to the facade, as text: token streams cannot cross the emitting threads.
pub(super) struct Extension {
    /// The module the methods came from (`client`, `types` or an area).
    pub module: String,
    /// The type they are methods of.
    pub type_name: String,
    /// The extension trait and its implementation ([`extension_trait`]).
    pub code: String,
}

impl Extension {
    /// The gated methods of `module` as extensions.
    pub(super) fn all(module: &str, gated: Vec<Gated>) -> Vec<Extension> {
        gated
            .into_iter()
            .map(|g| Extension {
                module: module.to_owned(),
                code: extension_trait(&g, &g.self_ty).to_string(),
                type_name: g.type_name,
            })
            .collect()
    }
}

/// The extension trait of the type called `type_name`.
pub(super) fn extension_trait_name(type_name: &str) -> Ident {
    format_ident!("{type_name}Ext")
}

fn is_feature_gated(attrs: &[Attribute]) -> bool {
    attrs
        .iter()
        .any(|a| a.path().is_ident("cfg") && a.to_token_stream().to_string().contains("feature"))
}

fn last_segment(ty: &TokenStream) -> String {
    ty.to_string()
        .rsplit("::")
        .next()
        .unwrap_or_default()
        .trim()
        .to_owned()
}

fn internal(e: syn::Error) -> Error {
    Error::at(
        "#",
        format!("internal error: emitted code does not parse: {e}"),
    )
}
