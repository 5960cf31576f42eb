//! The core crate of a split SDK: the client, the API's conventions, error codes, webhooks and
//! the types several areas share, laid out as the single crate's `src/generated/` without the
//! area modules.

use super::extract::{Extension, take_gated};
use super::{SplitNames, manifest};
use crate::emit::docs::sanitize;
use crate::emit::files::{client_rs, mod_rs};
use crate::emit::{Ctx, GeneratedFile, Options, conventions, format_file, types, webhooks};
use crate::error::Result;
use crate::ir::Api;
use crate::lower::{ERROR_CODES_MODULE, SHARED_MODULE, WEBHOOKS_MODULE};
use crate::surface::Surface;
use quote::quote;
use std::path::Path;

/// The core crate's files under `dir`, and the gated methods it hands to the facade.
pub(super) fn files(
    api: &Api,
    surface: &Surface,
    options: &Options,
    names: &SplitNames,
    dir: &Path,
) -> Result<(Vec<GeneratedFile>, Vec<Extension>)> {
    let header = options.header("//");
    let generated = dir.join("src/generated");
    // The module tree of the single crate, with no area module.
    let without_areas = Api {
        areas: Vec::new(),
        ..api.clone()
    };
    let (client, client_gated) = take_gated(client_rs(api, options))?;
    let (shared, shared_gated) = take_gated(shared_types(api, surface, options))?;
    let mut files = vec![
        GeneratedFile {
            path: dir.join("Cargo.toml"),
            contents: manifest::core_toml(api, options, names),
        },
        GeneratedFile {
            path: dir.join("src/lib.rs"),
            contents: format_file(
                &header,
                &format!(
                    "The core of the typed SDK for {}: the client, the API's conventions and the types several areas share. Applications depend on the facade crate `{}`, which re-exports this one.",
                    sanitize(&api.title),
                    names.facade
                ),
                quote! {
                    #![cfg_attr(docsrs, feature(doc_cfg))]
                    mod generated;
                    pub use generated::*;
                },
            )?,
        },
        GeneratedFile {
            path: generated.join("mod.rs"),
            contents: format_file(
                &header,
                &format!(
                    "The core of the generated SDK for {} (contract revision `{}`); each area is a crate of its own.",
                    sanitize(&api.title),
                    api.version.replace('`', "'")
                ),
                mod_rs(&without_areas, options),
            )?,
        },
        GeneratedFile {
            path: generated.join("client.rs"),
            contents: format_file(
                &header,
                "The client, the SDK identity and the API's conventions.",
                client,
            )?,
        },
        GeneratedFile {
            path: generated.join(format!("{ERROR_CODES_MODULE}.rs")),
            contents: format_file(
                &header,
                "The API's error codes, typed.",
                conventions::error_codes_module(api),
            )?,
        },
        GeneratedFile {
            path: generated.join(format!("{SHARED_MODULE}.rs")),
            contents: format_file(
                &header,
                "Types shared by several areas (or by none).",
                shared,
            )?,
        },
    ];
    let webhooks_cx = Ctx::new(api, surface, WEBHOOKS_MODULE).in_crate(&options.crate_name);
    if let Some(tokens) = webhooks::webhooks_module(&webhooks_cx, api) {
        files.push(GeneratedFile {
            path: generated.join(format!("{WEBHOOKS_MODULE}.rs")),
            contents: format_file(
                &header,
                "Webhooks and callbacks: the requests the API sends to you, decoded.",
                tokens,
            )?,
        });
    }
    let mut extensions = Extension::all("client", client_gated);
    extensions.extend(Extension::all(SHARED_MODULE, shared_gated));
    Ok((files, extensions))
}

/// The shared `types` module: its types and its receipts' methods.
fn shared_types(api: &Api, surface: &Surface, options: &Options) -> proc_macro2::TokenStream {
    let cx = Ctx::new(api, surface, SHARED_MODULE).in_crate(&options.crate_name);
    let items = api
        .types
        .iter()
        .filter(|t| t.module == SHARED_MODULE)
        .map(|t| types::type_def(&cx, t));
    let header_views = crate::emit::response_headers::views(&cx, api);
    let receipts = conventions::receipt_impls(&cx, api);
    quote!(#(#items)* #header_views #receipts)
}
