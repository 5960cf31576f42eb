//! One area crate of a split SDK: the area's module as the single crate has it (types, receipt
//! methods, builders), its client methods as the trait `<Area>Api` of the core `Client`.

use super::extract::{Extension, Gated, area_trait, take_gated};
use super::{AreaCrate, SplitNames, ident_of, manifest};
use crate::emit::docs::sanitize;
use crate::emit::files::{ModuleItems, allowed_lints, module_items};
use crate::emit::{GeneratedFile, Options, format_file};
use crate::error::Result;
use crate::ir::Api;
use crate::surface::Surface;
use crate::surface::modules::SHARED_MODULE;
use quote::{format_ident, quote};
use std::path::Path;

/// The area crate's files under `dir`, and the gated methods it hands to the facade.
pub(super) fn files(
    api: &Api,
    surface: &Surface,
    options: &Options,
    names: &SplitNames,
    area: &AreaCrate,
    dir: &Path,
) -> Result<(Vec<GeneratedFile>, Vec<Extension>)> {
    let header = options.header("//");
    let module = &area.module;
    let (tokens, gated) = area_module(api, surface, options, area)?;
    let core = format_ident!("{}", ident_of(&names.core));
    let m = format_ident!("{}", module);
    let security = (!surface.security_schemes.is_empty()).then(|| {
        quote! {
            #[allow(unused_imports)]
            use ::#core::security_schemes;
        }
    });
    let shared = format_ident!("{}", SHARED_MODULE);
    let root = quote! {
        #![cfg_attr(docsrs, feature(doc_cfg))]
        // The paths the emitters write from inside the area module (`crate::Client`,
        // `super::types::X`) resolve through these.
        #[allow(unused_imports)]
        use ::#core::{Client, #shared};
        #security
        pub mod #m;
    };
    let lints = allowed_lints();
    let crate_doc = format!(
        "Area `{}` of the typed SDK for {}. Applications depend on the facade crate `{}` with its feature `{module}`, which re-exports this crate as its module `{module}` and the trait `{}` in its prelude.",
        surface
            .areas
            .get(module)
            .map_or(module.as_str(), |a| a.tag.as_str())
            .replace('`', "'"),
        sanitize(&api.title),
        names.facade,
        area.trait_name
    );
    let files = vec![
        GeneratedFile {
            path: dir.join("Cargo.toml"),
            contents: manifest::area_toml(api, options, names, area),
        },
        GeneratedFile {
            path: dir.join("src/lib.rs"),
            contents: format_file(&header, &crate_doc, quote!(#lints #root))?,
        },
        GeneratedFile {
            path: dir.join(format!("src/{module}.rs")),
            contents: format_file(&header, &module_doc(surface, module), tokens)?,
        },
    ];
    Ok((files, Extension::all(module, gated)))
}

/// The doc of the area's module, as the single crate writes it.
fn module_doc(surface: &Surface, module: &str) -> String {
    crate::emit::files::modules(surface)
        .into_iter()
        .find(|(m, _)| m == module)
        .map(|(_, doc)| doc)
        .unwrap_or_default()
}

/// The area module: its types, its receipts' methods, its trait and its builders.
fn area_module(
    api: &Api,
    surface: &Surface,
    options: &Options,
    area: &AreaCrate,
) -> Result<(proc_macro2::TokenStream, Vec<Gated>)> {
    let module = area.module.as_str();
    let ModuleItems {
        types,
        receipts,
        client_methods,
        builders_mod,
    } = module_items(api, surface, options, module);
    let (receipts, gated) = take_gated(receipts)?;
    let api_trait = if client_methods.is_empty() {
        quote!()
    } else {
        let doc = format!(
            " The operations of area `{module}`: methods of [`Client`](crate::Client) once this trait is in scope (`use {}::prelude::*;`).",
            ident_of(&options.crate_name)
        );
        area_trait(
            &format_ident!("{}", area.trait_name),
            &doc,
            client_methods,
            &ident_of(&options.crate_name),
        )?
    };
    Ok((quote!(#types #receipts #api_trait #builders_mod), gated))
}
