//! Emitting: the model becomes formatted Rust files (and the crate's Cargo.toml).
//!
//! What a caller sees (names, arguments and which take `impl Into`, `From` conversions,
//! builder methods, deprecations, effects, schemes, areas) is read from the [`Surface`] the
//! pipeline computed (`Ctx::operation`, `Ctx::type_surface`); the [`ir`](crate::ir) model
//! supplies only what the surface does not record: wire detail, the document's order and the
//! types spelled from each module (`sdk-tests/tests/architecture.rs` lists what remains). Token
//! streams are built with `quote!`, parsed with `syn` and printed with `prettyplease`; the
//! fixed `@generated` header is added after formatting. Output depends only on the model.

mod conventions;
mod doc_wrap;
mod docs;
mod examples;
mod files;
mod layout;
mod manifest;
mod operation_spec;
mod operations;
mod options;
mod pagination;
mod paths;
mod reexports;
mod response_headers;
mod security;
pub mod split;
mod string_wrap;
mod types;
mod webhooks;

pub use options::{Layout, ManifestExtras, Options, RUNTIME_VERSION, crate_name_from};
pub use paths::{label as spec_label, relative as relative_path};

use crate::error::{Error, Result};
use crate::ir::{Api, Field, Operation, Pagination, Param, Success, TypeDef, TypeKind, TypeRef};
use crate::surface::rust_type::{self, NamedPaths, Spelling};
use crate::surface::{FieldSurface, OperationSurface, Shape, Surface, TypeSurface};
pub(crate) use operations::{body_type, input_arguments, param_type, turbofish};
use proc_macro2::TokenStream;
use std::collections::BTreeMap;

pub use crate::write::GeneratedFile;

/// Emits every file of the crate for `api`.
pub fn emit(api: &Api, options: &Options) -> Result<Vec<GeneratedFile>> {
    let surface = Surface::of(api, &options.crate_name, options.version());
    emit_surface(api, &surface, options)
}

/// Emits every file of the crate for `api`, whose surface the caller computed.
pub(crate) fn emit_surface(
    api: &Api,
    surface: &Surface,
    options: &Options,
) -> Result<Vec<GeneratedFile>> {
    files::crate_files(api, surface, options)
}

/// What emitters need to know besides the item at hand.
pub(crate) struct Ctx<'a> {
    /// What a caller sees of the API: the call orders emitted code follows.
    surface: &'a Surface,
    defs: BTreeMap<&'a str, &'a TypeDef>,
    pagination: BTreeMap<&'a str, &'a Pagination>,
    /// The module being emitted.
    pub current: String,
    /// Emitting into the `builders` module inside `current` (one level deeper).
    pub nested: bool,
    /// The generated crate's name as a path (`customer_cloud_sdk`), for doc examples.
    crate_ident: String,
}

impl<'a> Ctx<'a> {
    /// A context for emitting into `current`.
    pub fn new(api: &'a Api, surface: &'a Surface, current: &str) -> Self {
        let mut pagination = BTreeMap::new();
        for op in &api.operations {
            if let (Some(pg), Success::Json(TypeRef::Named(n))) = (&op.pagination, &op.success) {
                pagination.entry(n.as_str()).or_insert(pg);
            }
        }
        Ctx {
            surface,
            defs: api.types.iter().map(|d| (d.name.as_str(), d)).collect(),
            pagination,
            current: current.to_owned(),
            nested: false,
            crate_ident: "sdk".to_owned(),
        }
    }

    /// The same context, for the crate called `crate_name`.
    pub fn in_crate(self, crate_name: &str) -> Self {
        Ctx {
            crate_ident: crate_name.replace('-', "_"),
            ..self
        }
    }

    /// The generated crate's name as a path.
    pub fn crate_ident(&self) -> &str {
        &self.crate_ident
    }

    /// What a caller sees of `op`, as the surface records it.
    pub fn operation(&self, op: &Operation) -> &'a OperationSurface {
        self.surface
            .operations
            .get(&op.operation_id)
            .expect("the surface describes every operation")
    }

    /// What a caller sees of the named type `name`, as the surface records it.
    pub fn type_surface(&self, name: &str) -> &'a TypeSurface {
        self.surface
            .types
            .get(name)
            .expect("the surface describes every named type")
    }

    /// What a caller sees of the field `rust_name` of the struct `owner`.
    pub fn field_surface(&self, owner: &str, rust_name: &str) -> &'a FieldSurface {
        match &self.type_surface(owner).shape {
            Shape::Struct { fields, .. } => fields.get(rust_name),
            _ => None,
        }
        .expect("the surface describes every field of a struct")
    }

    /// The named type `name`, if defined.
    pub fn def(&self, name: &str) -> Option<&'a TypeDef> {
        self.defs.get(name).copied()
    }

    /// A context for emitting into the `builders` module of `current`.
    pub fn builders(api: &'a Api, surface: &'a Surface, current: &str) -> Self {
        Ctx {
            nested: true,
            ..Ctx::new(api, surface, current)
        }
    }

    /// The required parameters the client method of `op` takes, in the surface's call order
    /// (a required body follows them).
    pub fn arguments<'o>(&self, op: &'o Operation) -> Vec<&'o Param> {
        self.operation(op)
            .arguments
            .iter()
            .filter_map(|name| {
                op.params
                    .iter()
                    .find(|p| p.required && p.rust_name == *name)
            })
            .collect()
    }

    /// The struct the client method of `op` takes its required parameters in, when the
    /// surface passes them by name.
    pub fn arguments_struct(&self, op: &Operation) -> Option<&'a str> {
        self.operation(op).arguments_struct.as_deref()
    }

    /// The fields `new` of the request type `type_name` takes, in the surface's call order.
    pub fn constructor_fields<'f>(&self, type_name: &str, fields: &'f [Field]) -> Vec<&'f Field> {
        let Some(Shape::Struct { constructor, .. }) =
            self.surface.types.get(type_name).map(|t| &t.shape)
        else {
            return Vec::new();
        };
        constructor
            .iter()
            .filter_map(|name| fields.iter().find(|f| f.rust_name == *name))
            .collect()
    }

    /// The struct `new` of the request type `type_name` takes its required fields in, when the
    /// surface passes them by name.
    pub fn constructor_struct(&self, type_name: &str) -> Option<&'a str> {
        match self.surface.types.get(type_name).map(|t| &t.shape) {
            Some(Shape::Struct {
                constructor_struct, ..
            }) => constructor_struct.as_deref(),
            _ => None,
        }
    }

    /// Tokens naming `ty` from the current module.
    pub fn ty(&self, ty: &TypeRef) -> TokenStream {
        self.rust(&rust_type::spell(ty, &self.spelling()))
    }

    /// Tokens of Rust type text spelled by [`Ctx::spelling`].
    pub fn rust(&self, text: &str) -> TokenStream {
        text.parse()
            .unwrap_or_else(|e| panic!("spelled type `{text}` is not Rust tokens: {e}"))
    }

    /// How types are spelled from the current module: named types by the shortest path that
    /// reaches them, other crates' types by their full paths.
    pub fn spelling(&self) -> Spelling<'_> {
        Spelling {
            named: self,
            runtime: "::oncegen_runtime::",
            qualified: true,
        }
    }

    /// The module a named type lives in.
    pub fn module_of(&self, name: &str) -> Option<&str> {
        self.defs.get(name).map(|d| d.module.as_str())
    }

    /// Whether `ty` is `target`, directly or through aliases.
    pub fn resolves_to(&self, ty: &TypeRef, target: &TypeRef) -> bool {
        let mut current = ty;
        for _ in 0..16 {
            if current == target {
                return true;
            }
            match current {
                TypeRef::Named(n) => match self.defs.get(n.as_str()).map(|d| &d.kind) {
                    Some(TypeKind::Alias { target: next }) => current = next,
                    _ => return false,
                },
                _ => return false,
            }
        }
        false
    }

    /// `impl Paginated` for a response type of a paginated operation (empty otherwise).
    pub fn pagination_impl(&self, type_name: &str) -> TokenStream {
        match self.pagination.get(type_name) {
            Some(pg) => pagination::paginated_impl(self, type_name, pg),
            None => TokenStream::new(),
        }
    }
}

impl NamedPaths for Ctx<'_> {
    /// The path of the named type `name` from the current module.
    fn path(&self, name: &str) -> String {
        match self.module_of(name) {
            // From a `builders` module, by the crate root's re-export (the shorter path).
            Some(m) if m != self.current && self.nested => format!("crate::{m}::{name}"),
            Some(m) if m != self.current => format!("super::{m}::{name}"),
            _ if self.nested => format!("super::{name}"),
            _ => name.to_owned(),
        }
    }
}

/// Formats tokens as a Rust file (the runtime's `Name { entries }` macro calls laid out entry by
/// entry, doc comments wrapped and long string literals continued at 100 columns:
/// [`doc_wrap`], [`string_wrap`]) and prepends the `@generated` header. The syntax tree is dropped as soon as it is printed (it is the largest thing alive
/// while a file is emitted).
pub(crate) fn format_file(header: &str, inner_doc: &str, tokens: TokenStream) -> Result<String> {
    let body = {
        let file: syn::File = syn::parse2(tokens).map_err(|e| {
            Error::at(
                "#",
                format!("internal error: emitted code does not parse: {e}"),
            )
        })?;
        layout::joined_lines(&layout::entry_calls(&prettyplease::unparse(&file)))
    };
    let mut out = String::with_capacity(header.len() + inner_doc.len() + body.len() * 21 / 20);
    out.push_str(header);
    out.push_str("\n\n");
    for line in inner_doc.lines() {
        out.push_str(if line.is_empty() { "//!" } else { "//! " });
        out.push_str(line);
        out.push('\n');
    }
    out.push('\n');
    space_items(&body, &mut out);
    Ok(string_wrap::wrapped(&doc_wrap::wrapped(&out)))
}

/// Appends `text` to `out` with a blank line between top-level items, so that diffs read well;
/// a type's runtime macro calls stay under the type.
fn space_items(text: &str, out: &mut String) {
    let mut prev: Option<&str> = None;
    for line in text.lines() {
        if let Some(p) = prev {
            let starts_item = !line.starts_with(' ')
                && !line.starts_with('}')
                && !line.is_empty()
                && !layout::implements_previous_type(line);
            let prev_ends_item = p == "}" || (p.ends_with(';') && !p.starts_with([' ', '/', '#']));
            if starts_item && prev_ends_item {
                out.push('\n');
            }
        }
        out.push_str(line);
        out.push('\n');
        prev = Some(line);
    }
}

/// How an argument of type `ty` is taken and stored, as the surface says (`into`): text as
/// `impl Into<String>`, other converting types as `impl Into<T>`, otherwise as it is. Returns
/// the parameter type and the expression storing `ident`.
pub(super) fn taken_as(
    cx: &Ctx<'_>,
    into: bool,
    ty: &TypeRef,
    ident: &proc_macro2::Ident,
) -> (TokenStream, TokenStream) {
    let rust = cx.ty(ty);
    if !into {
        (rust, quote::quote!(#ident))
    } else if cx.resolves_to(ty, &TypeRef::String) {
        (
            quote::quote!(impl Into<String>),
            quote::quote!(#ident.into()),
        )
    } else {
        (
            quote::quote!(impl Into<#rust>),
            quote::quote!(#ident.into()),
        )
    }
}
