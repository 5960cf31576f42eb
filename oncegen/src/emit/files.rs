//! The files of a generated crate: Cargo.toml, the module tree, the client and one module per area.

use super::conventions;
use super::docs::sanitize;
use super::options::Options;
use super::{Ctx, GeneratedFile, format_file, operations, types};
use crate::error::Result;
use crate::ir::Api;
use crate::surface::Surface;
use crate::surface::modules::{ERROR_CODES_MODULE, SHARED_MODULE, WEBHOOKS_MODULE};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Every file of the crate.
pub(super) fn crate_files(
    api: &Api,
    surface: &Surface,
    options: &Options,
) -> Result<Vec<GeneratedFile>> {
    let header = options.header("//");
    let mut files = vec![
        GeneratedFile {
            path: "Cargo.toml".into(),
            contents: super::manifest::cargo_toml(api, options),
        },
        rust_file(
            "src/generated/mod.rs".into(),
            &header,
            &mod_doc(api),
            mod_rs(api, options),
        )?,
        rust_file(
            "src/generated/client.rs".into(),
            &header,
            "The client, the SDK identity and the API's conventions.",
            client_rs(api, surface, options),
        )?,
        rust_file(
            format!("src/generated/{ERROR_CODES_MODULE}.rs").into(),
            &header,
            "The API's error codes, typed.",
            conventions::error_codes_module(api),
        )?,
    ];
    let webhooks_cx = Ctx::new(api, surface, WEBHOOKS_MODULE).in_crate(&options.crate_name);
    if let Some(tokens) = super::webhooks::webhooks_module(&webhooks_cx, api) {
        files.push(rust_file(
            format!("src/generated/{WEBHOOKS_MODULE}.rs").into(),
            &header,
            "Webhooks and callbacks: the requests the API sends to you, decoded.",
            tokens,
        )?);
    }
    files.extend(module_files(api, surface, options, &header)?);
    if options.layout.is_standalone() {
        let doc = format!(
            "Typed SDK for {}.\n\n{}",
            sanitize(&api.title),
            super::examples::call_options_doc(webhooks_cx.crate_ident())
        );
        files.push(rust_file("src/lib.rs".into(), &header, &doc, lib_tokens())?);
    }
    files.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(files)
}

/// A Rust source file at `path`: `header`, inner doc `doc`, then `tokens` formatted.
pub(super) fn rust_file(
    path: PathBuf,
    header: &str,
    doc: &str,
    tokens: TokenStream,
) -> Result<GeneratedFile> {
    Ok(GeneratedFile {
        path,
        contents: format_file(header, doc, tokens)?,
    })
}

/// A standalone crate's `src/lib.rs`: the generated tree, re-exported.
pub(super) fn lib_tokens() -> TokenStream {
    quote! {
        #![cfg_attr(docsrs, feature(doc_cfg))]
        mod generated;
        pub use generated::*;
    }
}

fn mod_doc(api: &Api) -> String {
    let mut doc = format!(
        "The generated SDK for {} (contract revision `{}`).\n\nOne module and one cargo feature per API area; `types` holds shared types.",
        sanitize(&api.title),
        api.version.replace('`', "'")
    );
    if !api.skipped.is_empty() {
        doc.push_str("\n\nOperations left out (unsupported constructs):\n");
        for s in &api.skipped {
            doc.push_str(&format!(
                "\n- `{}`: {}",
                s.pointer.replace('`', "'"),
                sanitize(&s.reason).replace('\n', " ")
            ));
        }
    }
    doc
}

/// The lints a generated crate's root allows on generated code (spec-derived names, long
/// argument lists, prose from the document).
pub(super) fn allowed_lints() -> TokenStream {
    quote! {
        #![allow(
            deprecated,
            non_camel_case_types,
            non_snake_case,
            clippy::too_many_arguments,
            clippy::large_enum_variant,
            clippy::enum_variant_names,
            clippy::doc_lazy_continuation,
            clippy::doc_overindented_list_items
        )]
    }
}

pub(super) fn mod_rs(api: &Api, options: &Options) -> TokenStream {
    let prelude_doc = format!(
        " What an application brings into scope: `use {}::prelude::*;`.",
        options.crate_name.replace('-', "_")
    );
    let areas = api.areas.iter().map(|a| {
        let m = format_ident!("{}", a.module);
        let feature = &a.module;
        quote! {
            #[cfg(feature = #feature)]
            #[cfg_attr(docsrs, doc(cfg(feature = #feature)))]
            pub mod #m;
        }
    });
    let shared = format_ident!("{}", SHARED_MODULE);
    let error_codes = format_ident!("{}", ERROR_CODES_MODULE);
    let reexports = optional_reexports(api);
    let webhooks = (!api.webhooks.is_empty()).then(|| {
        let m = format_ident!("{}", WEBHOOKS_MODULE);
        quote! {
            pub mod #m;
            pub use ::oncegen_runtime::WebhookError;
        }
    });
    let lints = allowed_lints();
    quote! {
        #lints
        mod client;
        pub use client::{CONTRACT_REVISION, Client, ConfigExt, ENV_PREFIX, PROFILE, SDK_NAME};
        #reexports
        pub mod #error_codes;
        pub use #error_codes::{ErrorCode, ErrorCodeExt};
        pub use ::oncegen_runtime::{
            ApiError, Binary, CallBuilder, Config, Credentials, Error, ErrorContext, FilePart, Nullable, PolledOutcome,
            RateLimitInfo, Reconciliation, Response, ResponseMeta, RetryPolicy, SchemeCredential, Secret, SdkIdentity,
            Timeouts, UnknownOutcome, WaitPolicy,
        };
        pub use ::oncegen_runtime::pagination::Continuation;
        pub use ::oncegen_runtime::version::ContractCheck;
        #[doc = #prelude_doc]
        pub mod prelude {
            pub use super::{CallBuilder, Client, Config, ConfigExt, Error, ErrorCode, ErrorCodeExt};
        }
        pub mod #shared;
        #webhooks
        #(#areas)*
    }
}

/// What the crate re-exports when the API has it: `security_schemes`, `servers`, and the
/// crates its types come from.
fn optional_reexports(api: &Api) -> TokenStream {
    let crates = super::reexports::crates_in_api(api).into_iter().map(|c| {
        let c = format_ident!("{}", c);
        quote!(pub use ::#c;)
    });
    let servers_reexport = (!api.servers.is_empty()).then(|| {
        quote!(
            pub use client::servers;
        )
    });
    let security_reexport = (!api.security_schemes.is_empty()).then(|| {
        quote!(
            pub use client::security_schemes;
        )
    });
    quote! {
        #security_reexport
        #servers_reexport
        #( #crates )*
    }
}

pub(super) fn client_rs(api: &Api, surface: &Surface, options: &Options) -> TokenStream {
    let revision = &api.version;
    let name = &options.crate_name;
    let doc = super::docs::lines_attrs(&format!(
        "Client for {}: one method per operation (see the area modules).",
        sanitize(&api.title)
    ));
    let profile = conventions::profile_static(api, surface);
    let check_contract = conventions::check_contract(api, surface);
    let from_env = conventions::config_from_env(name);
    let security = super::security::schemes_module(api, surface);
    let servers = super::security::servers_module(api);
    quote! {
        /// Name of this SDK crate, sent as part of the SDK identity.
        pub const SDK_NAME: &str = #name;
        /// The contract revision (`info.version` of the spec) this crate was generated from.
        pub const CONTRACT_REVISION: &str = #revision;
        #profile
        #doc
        #[derive(Clone, Debug)]
        pub struct Client {
            runtime: ::oncegen_runtime::Client,
        }
        impl Client {
            /// Creates a client; the SDK identity (name, version, contract revision) and the API's
            /// conventions ([`PROFILE`]) are set on `config`.
            pub fn new(config: ::oncegen_runtime::Config) -> Result<Self, ::oncegen_runtime::Error> {
                let config = config
                    .sdk(::oncegen_runtime::SdkIdentity::new(SDK_NAME, env!("CARGO_PKG_VERSION"), CONTRACT_REVISION))
                    .profile(&PROFILE);
                Ok(Self { runtime: ::oncegen_runtime::Client::new(config)? })
            }
            /// Wraps a configured runtime client as is (its config should carry [`PROFILE`]).
            pub fn from_runtime(runtime: ::oncegen_runtime::Client) -> Self {
                Self { runtime }
            }
            /// The underlying runtime client.
            pub fn runtime(&self) -> &::oncegen_runtime::Client {
                &self.runtime
            }
        }
        #from_env
        #check_contract
        #security
        #servers
    }
}

/// The shared types module and one module per area, with their docs.
pub(super) fn modules(surface: &Surface) -> Vec<(String, String)> {
    let mut modules: Vec<(String, String)> = vec![(
        SHARED_MODULE.to_owned(),
        "Types shared by several areas (or by none).".to_owned(),
    )];
    for (module, area) in &surface.areas {
        let doc = area.doc.as_deref().map(sanitize).unwrap_or_default();
        let doc = if doc.is_empty() {
            format!(
                "Area `{}`: its operations and the types only it uses.",
                area.tag
            )
        } else {
            format!("Area `{}`: {doc}", area.tag)
        };
        modules.push((module.clone(), doc));
    }
    modules
}

/// Stack of each emitting thread. `syn` and `prettyplease` recurse once per level of a nested
/// type, and lowering admits schemas nested up to its own depth limit: 2 MiB (a spawned
/// thread's default) overflowed at about 55 levels of `items` (found by
/// `sdk-tests/tests/codegen_mutations.rs`). Only the pages used are committed.
pub(super) const EMIT_STACK_SIZE: usize = 64 * 1024 * 1024;

/// The files of [`modules`], emitted in parallel: each file is independent of the others.
fn module_files(
    api: &Api,
    surface: &Surface,
    options: &Options,
    header: &str,
) -> Result<Vec<GeneratedFile>> {
    in_parallel(&modules(surface), |(module, doc)| {
        module_file(api, surface, options, header, module, doc)
    })
    .into_iter()
    .collect()
}

/// `work` on every item, on as many threads (each with [`EMIT_STACK_SIZE`]) as the machine
/// offers; the results are in the items' order, whatever the number of threads. The caller's
/// own stack is only used when no thread could be started.
pub(super) fn in_parallel<T: Sync, R: Send>(items: &[T], work: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let next = AtomicUsize::new(0);
    let run = || {
        let mut done = Vec::new();
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(item) = items.get(i) else { break };
            done.push((i, work(item)));
        }
        done
    };
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut done: Vec<(usize, R)> = std::thread::scope(|s| {
        let workers: Vec<_> = (0..threads.min(items.len()))
            .filter_map(|_| {
                std::thread::Builder::new()
                    .stack_size(EMIT_STACK_SIZE)
                    .spawn_scoped(s, run)
                    .ok()
            })
            .collect();
        let mut done = if workers.is_empty() {
            run()
        } else {
            Vec::new()
        };
        for worker in workers {
            done.extend(
                worker
                    .join()
                    .unwrap_or_else(|e| std::panic::resume_unwind(e)),
            );
        }
        done
    });
    done.sort_by_key(|(i, _)| *i);
    done.into_iter().map(|(_, r)| r).collect()
}

/// What one module is made of, before it is laid out as a file (here) or as an area crate
/// (`split::area`).
pub(super) struct ModuleItems {
    /// Its types and their impls.
    pub types: TokenStream,
    /// Its receipts' `wait` methods.
    pub receipts: TokenStream,
    /// The client method of each of its operations.
    pub client_methods: Vec<TokenStream>,
    /// `pub mod builders { … }`, when it has operations.
    pub builders_mod: Option<TokenStream>,
}

/// The items of `module`: its types, its receipts' `wait`, its client methods and builders.
pub(super) fn module_items(
    api: &Api,
    surface: &Surface,
    options: &Options,
    module: &str,
) -> ModuleItems {
    let cx = Ctx::new(api, surface, module).in_crate(&options.crate_name);
    let type_items = api
        .types
        .iter()
        .filter(|t| t.module == module)
        .map(|t| types::type_def(&cx, t));
    let header_views = (module == SHARED_MODULE).then(|| super::response_headers::views(&cx, api));
    let receipts = conventions::receipt_impls(&cx, api);
    let bx = Ctx::builders(api, surface, module).in_crate(&options.crate_name);
    let mut arguments_structs = Vec::new();
    let (client_methods, builders): (Vec<_>, Vec<_>) = api
        .operations
        .iter()
        .filter(|o| cx.operation(o).area == module)
        .map(|o| {
            let items = operations::operation(&cx, &bx, o);
            arguments_structs.extend(items.arguments_struct);
            (items.client_method, items.builder)
        })
        .unzip();
    let builders_mod = (!builders.is_empty()).then(|| {
        quote! {
            /// Request builders of this area: set optional parameters, then `send`.
            pub mod builders {
                #(#builders)*
            }
        }
    });
    ModuleItems {
        types: quote!(#(#type_items)* #(#arguments_structs)* #header_views),
        receipts,
        client_methods,
        builders_mod,
    }
}

/// One module: its types, its receipts' `wait`, its client methods and its `builders`.
fn module_file(
    api: &Api,
    surface: &Surface,
    options: &Options,
    header: &str,
    module: &str,
    doc: &str,
) -> Result<GeneratedFile> {
    let ModuleItems {
        types,
        receipts,
        client_methods,
        builders_mod,
    } = module_items(api, surface, options, module);
    let client_impl = (!client_methods.is_empty()).then(|| {
        quote! {
            impl crate::Client {
                #(#client_methods)*
            }
        }
    });
    let tokens = quote!(#types #receipts #client_impl #builders_mod);
    Ok(GeneratedFile {
        path: format!("src/generated/{module}.rs").into(),
        contents: format_file(header, doc, tokens)?,
    })
}
