//! The core crate of a split SDK: the client, the API's conventions, error codes, webhooks and
//! the types several areas share, laid out as the single crate's `src/generated/` without the
//! area modules.

use super::extract::{Extension, take_gated};
use super::{SplitNames, manifest};
use crate::emit::docs::sanitize;
use crate::emit::files::{client_rs, lib_tokens, mod_rs, rust_file};
use crate::emit::{Ctx, GeneratedFile, Options, conventions, types, webhooks};
use crate::error::Result;
use crate::ir::Api;
use crate::surface::Surface;
use crate::surface::modules::{ERROR_CODES_MODULE, SHARED_MODULE, WEBHOOKS_MODULE};
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
    let (client, client_gated) = take_gated(client_rs(api, surface, options))?;
    let (shared, shared_gated) = take_gated(shared_types(api, surface, options))?;
    let mut files = vec![
        GeneratedFile {
            path: dir.join("Cargo.toml"),
            contents: manifest::core_toml(api, options, names),
        },
        lib_rs(api, names, &header, dir)?,
        mod_rs_file(api, options, &header, &generated)?,
        rust_file(
            generated.join("client.rs"),
            &header,
            "The client, the SDK identity and the API's conventions.",
            client,
        )?,
        rust_file(
            generated.join(format!("{ERROR_CODES_MODULE}.rs")),
            &header,
            "The API's error codes, typed.",
            conventions::error_codes_module(api),
        )?,
        rust_file(
            generated.join(format!("{SHARED_MODULE}.rs")),
            &header,
            "Types shared by several areas (or by none).",
            shared,
        )?,
    ];
    let webhooks_cx = Ctx::new(api, surface, WEBHOOKS_MODULE).in_crate(&options.crate_name);
    if let Some(tokens) = webhooks::webhooks_module(&webhooks_cx, api) {
        files.push(rust_file(
            generated.join(format!("{WEBHOOKS_MODULE}.rs")),
            &header,
            "Webhooks and callbacks: the requests the API sends to you, decoded.",
            tokens,
        )?);
    }
    let mut extensions = Extension::all("client", client_gated);
    extensions.extend(Extension::all(SHARED_MODULE, shared_gated));
    Ok((files, extensions))
}

/// `src/lib.rs`: the generated tree, re-exported.
fn lib_rs(api: &Api, names: &SplitNames, header: &str, dir: &Path) -> Result<GeneratedFile> {
    let doc = format!(
        "The core of the typed SDK for {}: the client, the API's conventions and the types several areas share. Applications depend on the facade crate `{}`, which re-exports this one.",
        sanitize(&api.title),
        names.facade
    );
    rust_file(dir.join("src/lib.rs"), header, &doc, lib_tokens())
}

/// `src/generated/mod.rs`: the module tree of the single crate, with no area module.
fn mod_rs_file(
    api: &Api,
    options: &Options,
    header: &str,
    generated: &Path,
) -> Result<GeneratedFile> {
    let without_areas = Api {
        areas: Vec::new(),
        ..api.clone()
    };
    let doc = format!(
        "The core of the generated SDK for {} (contract revision `{}`); each area is a crate of its own.",
        sanitize(&api.title),
        api.version.replace('`', "'")
    );
    rust_file(
        generated.join("mod.rs"),
        header,
        &doc,
        mod_rs(&without_areas, options),
    )
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
