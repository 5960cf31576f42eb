//! The facade crate of a split SDK: what applications depend on. It re-exports the core, each
//! enabled area crate as its module, every trait in its prelude, and holds the methods that
//! need an area the core cannot reach (`check_contract`, a receipt's `wait`) as `<Type>Ext`
//! traits.

use super::extract::{Extension, extension_trait_name};
use super::{SplitNames, ident_of, manifest};
use crate::emit::docs::sanitize;
use crate::emit::{GeneratedFile, Options, format_file};
use crate::error::{Error, Result};
use crate::ir::Api;
use crate::surface::modules::SHARED_MODULE;
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

/// The facade's Cargo.toml and `src/lib.rs`.
pub(super) fn files(
    api: &Api,
    options: &Options,
    names: &SplitNames,
    extensions: &[Extension],
) -> Result<Vec<GeneratedFile>> {
    let header = options.header("//");
    let tokens = lib_rs(names, &area_traits(api, names), extensions)?;
    let doc = format!(
        "Typed SDK for {}: one crate per area, each behind the feature of the same name (all on by default), re-exported here as its module.\n\nBring the operations into scope with `use {}::prelude::*;`, then call them on [`Client`] as methods.",
        sanitize(&api.title),
        ident_of(&names.facade)
    );
    Ok(vec![
        GeneratedFile {
            path: "Cargo.toml".into(),
            contents: manifest::facade_toml(api, options, names),
        },
        GeneratedFile {
            path: "src/lib.rs".into(),
            contents: format_file(&header, &doc, tokens)?,
        },
    ])
}

/// The facade's `src/lib.rs`: the core and each enabled area re-exported, the prelude with
/// the area and extension traits, and the extension modules.
fn lib_rs(
    names: &SplitNames,
    area_traits: &[(TokenStream, TokenStream)],
    extensions: &[Extension],
) -> Result<TokenStream> {
    let core = format_ident!("{}", ident_of(&names.core));
    let areas = names.areas.iter().map(|a| {
        let krate = format_ident!("{}", ident_of(&a.package));
        let m = format_ident!("{}", a.module);
        let feature = &a.module;
        quote! {
            #[cfg(feature = #feature)]
            #[cfg_attr(docsrs, doc(cfg(feature = #feature)))]
            pub use ::#krate::#m;
        }
    });
    let named_traits = area_traits
        .iter()
        .map(|(cfg, path)| quote!(#cfg pub use #path;));
    let anonymous_traits = area_traits
        .iter()
        .map(|(cfg, path)| quote!(#cfg pub use #path as _;));
    let extension_exports = extensions.iter().map(|e| {
        let ext = extension_module_name(&e.module);
        let name = extension_trait_name(&e.type_name);
        let cfg = area_cfg(names, &e.module);
        quote!(#cfg pub use super::#ext::#name;)
    });
    let extension_modules = extension_modules(extensions)?;
    let prelude_doc = format!(
        " What an application brings into scope: `use {}::prelude::*;` (the client, and the traits that make each enabled area's operations its methods).",
        ident_of(&names.facade)
    );
    Ok(quote! {
        #![cfg_attr(docsrs, feature(doc_cfg))]
        pub use ::#core::*;
        #( #areas )*
        #[doc = #prelude_doc]
        pub mod prelude {
            pub use ::#core::prelude::*;
            #( #named_traits )*
            #( #extension_exports )*
        }
        /// Every area trait, unnamed: what the extension modules below call through.
        mod __area_traits {
            #![allow(unused_imports)]
            #( #anonymous_traits )*
        }
        #( #extension_modules )*
    })
}

/// Each area trait as its `cfg` (the area's feature) and path; only areas with operations
/// have a trait.
fn area_traits(api: &Api, names: &SplitNames) -> Vec<(TokenStream, TokenStream)> {
    names
        .areas
        .iter()
        .filter(|a| api.operations.iter().any(|o| o.area == a.module))
        .map(|a| {
            let krate = format_ident!("{}", ident_of(&a.package));
            let m = format_ident!("{}", a.module);
            let t = format_ident!("{}", a.trait_name);
            let feature = &a.module;
            (quote!(#[cfg(feature = #feature)]), quote!(::#krate::#m::#t))
        })
        .collect()
}

/// One module per source module of gated methods (`client`, `types` or an area): it sees
/// what that module saw, so the methods' paths resolve as they did there.
fn extension_modules(extensions: &[Extension]) -> Result<Vec<TokenStream>> {
    let mut modules: Vec<&str> = extensions.iter().map(|e| e.module.as_str()).collect();
    modules.dedup();
    modules
        .into_iter()
        .map(|module| {
            let name = extension_module_name(module);
            let scope = if module == "client" {
                quote!(
                    use super::*;
                )
            } else {
                let m = format_ident!("{}", module);
                quote!(use super::#m::*;)
            };
            let cfg = if module == "client" || module == SHARED_MODULE {
                quote!()
            } else {
                quote!(#[cfg(feature = #module)])
            };
            let traits = extensions
                .iter()
                .filter(|e| e.module == module)
                .map(|e| e.code.parse::<TokenStream>())
                .collect::<std::result::Result<Vec<_>, _>>()
                .map_err(|e| {
                    Error::at(
                        "#",
                        format!("internal error: an extension does not lex: {e}"),
                    )
                })?;
            Ok(quote! {
                #cfg
                mod #name {
                    #![allow(unused_imports)]
                    #scope
                    use super::__area_traits::*;
                    #( #traits )*
                }
            })
        })
        .collect()
}

/// The facade module holding the extension traits of `module`'s types.
fn extension_module_name(module: &str) -> proc_macro2::Ident {
    format_ident!("__{}_ext", module)
}

/// The `cfg` of an area module's re-export (none for the core's modules).
fn area_cfg(names: &SplitNames, module: &str) -> TokenStream {
    if names.areas.iter().any(|a| a.module == module) {
        quote!(#[cfg(feature = #module)])
    } else {
        quote!()
    }
}
