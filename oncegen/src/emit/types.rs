//! Emits named types: structs (with constructors and setters for request types), forward-
//! compatible enums, unions, `x-at-most-one-of` choice enums and aliases.

use super::Ctx;
use super::docs::{doc_attrs, lines_attrs};
use crate::ir::{
    AdditionalProperties, EnumVariant, ExclusiveGroup, Field, FixedTag, TypeDef, TypeKind, TypeRef,
    UnionVariant,
};
use crate::surface::rust_type;
use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

/// Tokens for one named type and its impls.
pub fn type_def(cx: &Ctx<'_>, def: &TypeDef) -> TokenStream {
    let name = format_ident!("{}", def.name);
    let surface = cx.type_surface(&def.name);
    let doc = lines_attrs(&type_doc(def, surface.doc.as_deref()));
    let deprecated =
        super::docs::deprecated_attr(surface.deprecated, surface.deprecation_note.as_deref());
    let body = match &def.kind {
        TypeKind::Struct {
            fields,
            exclusive,
            additional,
            fixed_tag,
        } => struct_def(
            cx,
            def,
            &name,
            fields,
            exclusive,
            additional.as_ref(),
            fixed_tag.as_ref(),
        ),
        TypeKind::Enum { variants, fallback } => enum_def(&name, variants, fallback),
        TypeKind::Union {
            tag,
            variants,
            display,
        } => {
            let display = display.then(|| union_display(cx, &name, variants));
            let conversions = union_conversions(cx, &def.name, &name, variants);
            let def = union_def(cx, &name, tag.as_deref(), variants);
            quote!(#def #display #conversions)
        }
        TypeKind::Alias { target } => {
            let target = cx.ty(target);
            quote!(pub type #name = #target;)
        }
    };
    let paginated = cx.pagination_impl(&def.name);
    quote! {
        #doc
        #deprecated
        #body
        #paginated
    }
}

/// A type's doc: its description (`described`, the surface's), then the schema's pointer unless
/// the type bears the name of the component it comes from.
fn type_doc(def: &TypeDef, described: Option<&str>) -> String {
    let schema = (def.pointer != format!("#/components/schemas/{}", def.name))
        .then(|| format!("Schema: `{}`.", def.pointer));
    match (described.map(super::docs::sanitize), schema) {
        // After a one-paragraph description, in its paragraph.
        (Some(d), Some(schema)) if !d.is_empty() && !d.contains('\n') => {
            format!("{} {schema}", super::docs::as_sentence(&d))
        }
        (Some(d), Some(schema)) if !d.is_empty() => format!("{d}\n\n{schema}"),
        (Some(d), None) => d,
        (_, schema) => schema.unwrap_or_default(),
    }
}

/// A string enum: a variant per known value and the fallback that keeps any other.
fn enum_def(name: &Ident, variants: &[EnumVariant], fallback: &str) -> TokenStream {
    let idents: Vec<_> = variants
        .iter()
        .map(|v| format_ident!("{}", v.rust_name))
        .collect();
    let values: Vec<_> = variants.iter().map(|v| v.value.as_str()).collect();
    let docs = values
        .iter()
        .map(|v| lines_attrs(&format!("`{}`", v.replace('`', "'"))));
    let fallback = format_ident!("{}", fallback);
    quote! {
        #[derive(Clone, Debug)]
        #[non_exhaustive]
        pub enum #name {
            #( #docs #idents, )*
            /// A value this version of the SDK does not know; kept as received.
            #fallback(String),
        }
        ::oncegen_runtime::string_enum!(#name, #fallback, #( #idents = #values ),*);
    }
}

/// A union's `From` impls: from each member the surface lists in `converts_from`, and from
/// `&str` when it lists that (into the unboxed `String` member).
fn union_conversions(
    cx: &Ctx<'_>,
    def_name: &str,
    name: &Ident,
    variants: &[UnionVariant],
) -> TokenStream {
    let convert = converting(cx, def_name, variants.iter().map(|v| &v.ty));
    let conversions = from_impls(
        cx,
        name,
        &convert,
        variants
            .iter()
            .map(|v| (v.rust_name.as_str(), &v.ty, v.boxed)),
    );
    let from_str = cx
        .type_surface(def_name)
        .converts_from
        .iter()
        .any(|from| from == "&str")
        .then(|| {
            variants
                .iter()
                .find(|v| v.ty == TypeRef::String && !v.boxed)
        })
        .flatten()
        .map(|v| {
            let variant = format_ident!("{}", v.rust_name);
            quote! {
                impl From<&str> for #name {
                    fn from(value: &str) -> Self {
                        Self::#variant(value.to_owned())
                    }
                }
            }
        });
    quote!(#conversions #from_str)
}

/// Which members of the union or choice enum `enum_name` convert, one flag per payload: those
/// whose type the surface lists in `converts_from`.
fn converting<'t>(
    cx: &Ctx<'_>,
    enum_name: &str,
    payloads: impl Iterator<Item = &'t TypeRef>,
) -> Vec<bool> {
    let from = &cx.type_surface(enum_name).converts_from;
    payloads
        .map(|ty| from.contains(&rust_type::text(ty)))
        .collect()
}

/// The Rust type of a field, as the surface decides it ([`rust_type::field_type`]).
fn field_ty(cx: &Ctx<'_>, f: &Field) -> TokenStream {
    cx.rust(&rust_type::field_type(f, &cx.spelling()))
}

/// An optional field: left out when empty, empty when missing.
fn is_optional(f: &Field) -> bool {
    !f.required
}

/// The spec's description of a field, then what its constraints and flags say; nothing at all
/// rather than an echo of the name.
fn field_doc(cx: &Ctx<'_>, owner: &str, f: &Field) -> String {
    let surface = cx.field_surface(owner, &f.rust_name);
    let mut doc = surface
        .doc
        .as_deref()
        .map(super::docs::sanitize)
        .unwrap_or_default();
    let mut notes: Vec<String> = super::docs::constraints_doc(&surface.constraints)
        .into_iter()
        .collect();
    if let Some(c) = &f.const_value {
        notes.push(format!("Always `{}`.", c.replace('`', "'")));
    }
    if f.read_only {
        notes.push("Read-only.".to_owned());
    }
    if f.write_only {
        notes.push("Write-only.".to_owned());
    }
    if !f.required && f.nullable {
        notes.push("Optional and nullable.".to_owned());
    }
    if !notes.is_empty() {
        if !doc.is_empty() {
            doc.push_str("\n\n");
        }
        doc.push_str(&notes.join(" "));
    }
    doc
}

fn struct_def(
    cx: &Ctx<'_>,
    def: &TypeDef,
    name: &proc_macro2::Ident,
    fields: &[Field],
    exclusive: &[ExclusiveGroup],
    additional: Option<&AdditionalProperties>,
    fixed_tag: Option<&FixedTag>,
) -> TokenStream {
    let field_tokens = fields.iter().map(|f| field_decl(cx, &def.name, f));
    let group_fields = exclusive.iter().map(group_field);
    let additional_field = additional.map(|a| additional_field(cx, a));
    let group_enums = exclusive.iter().map(|g| group_enum(cx, &def.name, g));
    // Request types are built with a constructor and setters. Response types are
    // `non_exhaustive` (new fields are additive) except under `test-util`, where tests build them
    // with struct literals.
    let (ctor, exhaustive) = if def.request {
        (
            Some(constructor(cx, def, name, fields, exclusive, additional)),
            quote!(#[non_exhaustive]),
        )
    } else {
        (
            None,
            quote!(#[cfg_attr(not(feature = "test-util"), non_exhaustive)]),
        )
    };
    let serde_impls = json_object(name, fields, exclusive, additional, fixed_tag);
    quote! {
        #[derive(Clone, Debug, PartialEq)]
        #exhaustive
        pub struct #name {
            #( #field_tokens )*
            #( #group_fields )*
            #additional_field
        }
        #serde_impls
        #ctor
        #( #group_enums )*
    }
}

/// `json_object!(Name tagged "kind" = "a" one_of group { field, renamed = "wire", other
/// optional, ..rest })`: the struct's serde impls.
fn json_object(
    name: &proc_macro2::Ident,
    fields: &[Field],
    exclusive: &[ExclusiveGroup],
    additional: Option<&AdditionalProperties>,
    fixed_tag: Option<&FixedTag>,
) -> TokenStream {
    let entries = fields.iter().map(|f| {
        let ident = format_ident!("{}", f.rust_name);
        let wire = (f.rust_name != f.name).then(|| {
            let wire = &f.name;
            quote!(= #wire)
        });
        let optional = is_optional(f).then(|| quote!(optional));
        quote!(#ident #wire #optional)
    });
    let rest = additional.map(|a| {
        let ident = format_ident!("{}", a.rust_name);
        let comma = (!fields.is_empty()).then(|| quote!(,));
        quote!(#comma ..#ident)
    });
    let tagged = fixed_tag.map(|t| {
        let (tag, value) = (&t.name, &t.value);
        quote!(tagged #tag = #value)
    });
    let groups = exclusive.iter().map(|g| {
        let ident = format_ident!("{}", g.rust_name);
        quote!(one_of #ident)
    });
    quote! {
        ::oncegen_runtime::json_object!(#name #tagged #( #groups )* { #( #entries ),* #rest });
    }
}

/// One field of a struct, with its doc.
fn field_decl(cx: &Ctx<'_>, owner: &str, f: &Field) -> TokenStream {
    let ident = format_ident!("{}", f.rust_name);
    let ty = field_ty(cx, f);
    let doc = lines_attrs(&field_doc(cx, owner, f));
    let surface = cx.field_surface(owner, &f.rust_name);
    let deprecated =
        super::docs::deprecated_attr(surface.deprecated, surface.deprecation_note.as_deref());
    quote! {
        #doc
        #deprecated
        pub #ident: #ty,
    }
}

/// The optional field of an `x-at-most-one-of` group (`one_of` in `json_object!`).
fn group_field(g: &ExclusiveGroup) -> TokenStream {
    let ident = format_ident!("{}", g.rust_name);
    let ty = format_ident!("{}", g.type_name);
    let members: Vec<String> = g.members.iter().map(|m| format!("`{}`", m.name)).collect();
    let doc = lines_attrs(&format!(
        "At most one of {} (`x-at-most-one-of`).",
        members.join(", ")
    ));
    quote! {
        #doc
        pub #ident: Option<#ty>,
    }
}

/// The catch-all field of `additionalProperties`.
fn additional_field(cx: &Ctx<'_>, a: &AdditionalProperties) -> TokenStream {
    let ident = format_ident!("{}", a.rust_name);
    let ty = additional_ty(cx, a);
    let doc = lines_attrs(
        "Properties the schema does not list (`additionalProperties`), kept as received so \
         that they round-trip; empty by default.",
    );
    quote! {
        #doc
        pub #ident: #ty,
    }
}

/// The map type of a catch-all field.
fn additional_ty(cx: &Ctx<'_>, a: &AdditionalProperties) -> TokenStream {
    if a.value_ty == TypeRef::Json {
        quote!(::serde_json::Map<String, ::serde_json::Value>)
    } else {
        cx.ty(&TypeRef::Map(Box::new(a.value_ty.clone())))
    }
}

/// `new(required...)` (or `new(args)`, the required fields named in their struct) plus one
/// setter per optional field; a missing required field does not compile.
fn constructor(
    cx: &Ctx<'_>,
    def: &TypeDef,
    name: &proc_macro2::Ident,
    fields: &[Field],
    exclusive: &[ExclusiveGroup],
    additional: Option<&AdditionalProperties>,
) -> TokenStream {
    let mut inits = Vec::new();
    let (args, unpack, arguments_struct) = required_args(cx, def, fields, &mut inits);
    let setters = optional_setters(cx, &def.name, fields, exclusive, additional, &mut inits);
    let default_impl = args.is_empty().then(|| {
        quote! {
            impl Default for #name {
                fn default() -> Self {
                    Self::new()
                }
            }
        }
    });
    let new_doc = lines_attrs(&new_doc(cx, def, fields));
    quote! {
        #arguments_struct
        impl #name {
            #new_doc
            pub fn new(#(#args),*) -> Self {
                #unpack
                Self { #(#inits,)* }
            }
            #( #setters )*
        }
        #default_impl
    }
}

/// `new`'s parameters for the required fields (pushing their initialisers to `inits`): one
/// each, or one arguments struct (with the statement that unpacks it, and its definition).
fn required_args(
    cx: &Ctx<'_>,
    def: &TypeDef,
    fields: &[Field],
    inits: &mut Vec<TokenStream>,
) -> (Vec<TokenStream>, TokenStream, Option<TokenStream>) {
    let required = cx.constructor_fields(&def.name, fields);
    let Some(struct_name) = cx.constructor_struct(&def.name) else {
        let args = required
            .into_iter()
            .map(|f| {
                let into = cx.field_surface(&def.name, &f.rust_name).into;
                let (arg, init) = required_arg(cx, (f, into));
                inits.push(init);
                arg
            })
            .collect();
        return (args, TokenStream::new(), None);
    };
    let struct_name = format_ident!("{struct_name}");
    let mut decls = Vec::new();
    let mut idents = Vec::new();
    for f in required {
        let (decl, init) = named_field(cx, &def.name, f);
        decls.push(decl);
        inits.push(init);
        idents.push(format_ident!("{}", f.rust_name));
    }
    (
        vec![quote!(args: #struct_name)],
        quote!(let #struct_name { #(#idents),* } = args;),
        Some(arguments_struct(&def.name, &struct_name, &decls)),
    )
}

/// The setters of the optional fields (those the surface gives one, by its name) and exclusive
/// groups of the request type `owner`, pushing to `inits` their initialisers and those of
/// fixed-value fields and additional properties.
fn optional_setters(
    cx: &Ctx<'_>,
    owner: &str,
    fields: &[Field],
    exclusive: &[ExclusiveGroup],
    additional: Option<&AdditionalProperties>,
    inits: &mut Vec<TokenStream>,
) -> Vec<TokenStream> {
    let mut setters = Vec::new();
    for f in fields {
        if let Some(c) = &f.const_value {
            inits.push(const_init(f, c));
        } else if !f.required {
            inits.push(optional_init(f));
            // A read-only field is the server's to set: the surface gives it no setter.
            let surface = cx.field_surface(owner, &f.rust_name);
            let setter = surface.setter.as_deref();
            setters.extend(setter.map(|name| optional_setter(cx, f, (name, surface.into))));
        }
    }
    for g in exclusive {
        let (init, setter) = group_setter(g, cx.field_surface(owner, &g.rust_name).into);
        inits.push(init);
        setters.push(setter);
    }
    if let Some(a) = additional {
        let ident = format_ident!("{}", a.rust_name);
        inits.push(quote!(#ident: ::std::default::Default::default()));
    }
    setters
}

/// The initialiser of a field with a fixed value (`const`).
fn const_init(f: &Field, value: &str) -> TokenStream {
    let ident = format_ident!("{}", f.rust_name);
    let value = if f.required && !f.nullable {
        quote!(::std::borrow::ToOwned::to_owned(#value))
    } else {
        quote!(Some(::std::borrow::ToOwned::to_owned(#value)))
    };
    quote!(#ident: #value)
}

/// The struct `new` of `owner` takes its required fields in (`fields`, one public field each),
/// named `{Type}Args` after the client methods' `{Builder}Args`.
fn arguments_struct(owner: &str, name: &proc_macro2::Ident, fields: &[TokenStream]) -> TokenStream {
    let doc = lines_attrs(&format!(
        "The required fields of [`{owner}`], each named where it is created \
         (`{owner}::new({name} {{ .. }})`), so no two can be crossed and none left out. Named \
         like the `{{Builder}}Args` struct a client method takes its required parameters in."
    ));
    quote! {
        #doc
        #[derive(Debug, Clone)]
        pub struct #name {
            #(#fields,)*
        }
    }
}

/// A required field as a public field of the struct `new` takes (its exact type: a struct
/// literal converts nothing; a recursive field unboxed), and its initialiser.
fn named_field(cx: &Ctx<'_>, owner: &str, f: &Field) -> (TokenStream, TokenStream) {
    let ident = format_ident!("{}", f.rust_name);
    let doc = lines_attrs(&field_doc(cx, owner, f));
    let (ty, init) = if f.boxed && !f.nullable {
        (cx.ty(&f.ty), quote!(#ident: Box::new(#ident)))
    } else {
        (field_ty(cx, f), quote!(#ident))
    };
    (quote!(#doc pub #ident: #ty), init)
}

/// The argument of `new` for a required field (`into`: taken as `impl Into<…>`, as the surface
/// says), and its initialiser.
fn required_arg(cx: &Ctx<'_>, (f, into): (&Field, bool)) -> (TokenStream, TokenStream) {
    let ident = format_ident!("{}", f.rust_name);
    let boxed = f.boxed && !f.nullable;
    if into && cx.resolves_to(&f.ty, &TypeRef::String) {
        (
            quote!(#ident: impl Into<String>),
            quote!(#ident: #ident.into()),
        )
    } else if into {
        let arg_ty = cx.ty(&f.ty);
        let value = if boxed {
            quote!(Box::new(#ident.into()))
        } else {
            quote!(#ident.into())
        };
        (quote!(#ident: impl Into<#arg_ty>), quote!(#ident: #value))
    } else if boxed {
        let arg_ty = cx.ty(&f.ty);
        (quote!(#ident: #arg_ty), quote!(#ident: Box::new(#ident)))
    } else {
        let ty = field_ty(cx, f);
        (quote!(#ident: #ty), quote!(#ident))
    }
}

/// The initialiser (unset) of an optional field.
fn optional_init(f: &Field) -> TokenStream {
    let ident = format_ident!("{}", f.rust_name);
    if f.nullable {
        quote!(#ident: ::oncegen_runtime::Nullable::Absent)
    } else {
        quote!(#ident: None)
    }
}

/// The setter `name` of an optional field (`into`: it takes `impl Into<…>`, as the surface
/// says).
fn optional_setter(cx: &Ctx<'_>, f: &Field, (name, into): (&str, bool)) -> TokenStream {
    let ident = format_ident!("{}", f.rust_name);
    let setter = format_ident!("{}", name);
    let inner = cx.ty(&f.ty);
    let doc = lines_attrs(&format!("Sets `{}`.", f.name.replace('`', "'")));
    if f.nullable {
        let assign = if f.boxed {
            quote! {
                self.#ident = match value.into() {
                    ::oncegen_runtime::Nullable::Value(v) => ::oncegen_runtime::Nullable::Value(Box::new(v)),
                    ::oncegen_runtime::Nullable::Null => ::oncegen_runtime::Nullable::Null,
                    ::oncegen_runtime::Nullable::Absent => ::oncegen_runtime::Nullable::Absent,
                };
            }
        } else {
            quote!(self.#ident = value.into();)
        };
        return quote! {
            #doc
            #[doc = ""]
            #[doc = " Pass a value, or `None` to send an explicit `null`."]
            pub fn #setter(mut self, value: impl Into<::oncegen_runtime::Nullable<#inner>>) -> Self {
                #assign
                self
            }
        };
    }
    let wrap = |v: TokenStream| if f.boxed { quote!(Box::new(#v)) } else { v };
    let (arg, value) = if into && cx.resolves_to(&f.ty, &TypeRef::String) {
        (quote!(impl Into<String>), quote!(value.into()))
    } else if into {
        (quote!(impl Into<#inner>), wrap(quote!(value.into())))
    } else {
        (inner, wrap(quote!(value)))
    };
    quote! {
        #doc
        pub fn #setter(mut self, value: #arg) -> Self {
            self.#ident = Some(#value);
            self
        }
    }
}

/// The initialiser (unset) of an `x-at-most-one-of` group, and its setter (`into`: taking
/// `impl Into<Choice>`, as the surface says).
fn group_setter(g: &ExclusiveGroup, into: bool) -> (TokenStream, TokenStream) {
    let ident = format_ident!("{}", g.rust_name);
    let ty = format_ident!("{}", g.type_name);
    let (arg, value) = if into {
        (quote!(impl Into<#ty>), quote!(value.into()))
    } else {
        (quote!(#ty), quote!(value))
    };
    let setter = quote! {
        /// Chooses one member of the group.
        pub fn #ident(mut self, value: #arg) -> Self {
            self.#ident = Some(#value);
            self
        }
    };
    (quote!(#ident: None), setter)
}

/// The doc line of `new`: which fields it takes.
fn new_doc(cx: &Ctx<'_>, def: &TypeDef, fields: &[Field]) -> String {
    let required: Vec<String> = cx
        .constructor_fields(&def.name, fields)
        .into_iter()
        .map(|f| format!("`{}`", f.name.replace('`', "'")))
        .collect();
    if required.is_empty() {
        return format!(
            "Creates a `{}` with no field set; set the ones you need with the setters below.",
            def.name
        );
    }
    if let Some(args) = cx.constructor_struct(&def.name) {
        return format!(
            "Creates a `{}` from its required fields {}, each named in [`{args}`]; set optional \
             fields with the setters below.",
            def.name,
            required.join(", ")
        );
    }
    format!(
        "Creates a `{}` from its required {} {}; set optional fields with the setters below.",
        def.name,
        if required.len() == 1 {
            "field"
        } else {
            "fields"
        },
        required.join(", ")
    )
}

fn group_enum(cx: &Ctx<'_>, parent: &str, g: &ExclusiveGroup) -> TokenStream {
    let name = format_ident!("{}", g.type_name);
    let variants = g.members.iter().map(|m| {
        let ident = format_ident!("{}", m.variant);
        let wire = &m.name;
        let mut ty = cx.ty(&m.ty);
        if m.boxed {
            ty = quote!(Box<#ty>);
        }
        let doc = m
            .doc
            .as_deref()
            .map_or_else(|| lines_attrs(&format!("`{wire}`")), doc_attrs);
        quote! {
            #doc
            #ident(#ty),
        }
    });
    let entries = g.members.iter().map(|m| {
        let (ident, wire) = (format_ident!("{}", m.variant), &m.name);
        quote!(#ident = #wire)
    });
    let doc = lines_attrs(&format!(
        "The one present member of an `x-at-most-one-of` group of [`{parent}`]."
    ));
    let conversions = from_impls(
        cx,
        &name,
        &converting(cx, &g.type_name, g.members.iter().map(|m| &m.ty)),
        g.members
            .iter()
            .map(|m| (m.variant.as_str(), &m.ty, m.boxed)),
    );
    quote! {
        #doc
        #[derive(Clone, Debug, PartialEq)]
        pub enum #name {
            #( #variants )*
        }
        ::oncegen_runtime::exclusive_group!(#name { #( #entries ),* });
        #conversions
    }
}

/// `impl From<Payload> for Enum` for the members that convert
/// (`convert[i]` for the i-th `(variant, payload, boxed)`), in one `from_variants!` call.
fn from_impls<'m>(
    cx: &Ctx<'_>,
    name: &proc_macro2::Ident,
    convert: &[bool],
    members: impl Iterator<Item = (&'m str, &'m TypeRef, bool)>,
) -> TokenStream {
    let conversions: Vec<TokenStream> = members
        .zip(convert)
        .filter(|(_, c)| **c)
        .map(|((variant, ty, boxed), _)| {
            let ident = format_ident!("{}", variant);
            let ty = cx.ty(ty);
            if boxed {
                quote!(#ident(Box<#ty>))
            } else {
                quote!(#ident(#ty))
            }
        })
        .collect();
    if conversions.is_empty() {
        return TokenStream::new();
    }
    quote!(::oncegen_runtime::from_variants!(#name { #( #conversions ),* });)
}

fn union_def(
    cx: &Ctx<'_>,
    name: &proc_macro2::Ident,
    tag: Option<&str>,
    variants: &[UnionVariant],
) -> TokenStream {
    let decls: Vec<TokenStream> = variants
        .iter()
        .map(|v| {
            let ident = format_ident!("{}", v.rust_name);
            let ty = cx.ty(&v.ty);
            let ty = if v.boxed { quote!(Box<#ty>) } else { ty };
            let doc = lines_attrs(&match &v.tag_value {
                Some(t) => format!("Selected by `{}`.", t.replace('`', "'")),
                None => format!("A `{}`.", v.rust_name),
            });
            quote!(#doc #ident(#ty),)
        })
        .collect();
    match tag {
        Some(tag) => tagged_union(name, tag, &decls, variants),
        None => untagged_union(name, &decls, variants),
    }
}

/// A union without a discriminator: decoded into the member that keeps the most of the value
/// (`oncegen_runtime::untagged_union!`).
fn untagged_union(
    name: &proc_macro2::Ident,
    decls: &[TokenStream],
    variants: &[UnionVariant],
) -> TokenStream {
    let members = variants.iter().map(|v| {
        let ident = format_ident!("{}", v.rust_name);
        let boxed = v.boxed.then(|| quote!(boxed));
        quote!(#ident #boxed)
    });
    quote! {
        #[derive(Clone, Debug, PartialEq, ::serde::Serialize)]
        #[serde(untagged)]
        pub enum #name {
            #( #decls )*
        }
        ::oncegen_runtime::untagged_union!(#name { #( #members ),* });
    }
}

/// A union selected by the discriminator property `tag`, with an `Unknown` variant for tag
/// values this SDK does not know (`oncegen_runtime::tagged_union!`).
fn tagged_union(
    name: &proc_macro2::Ident,
    tag: &str,
    decls: &[TokenStream],
    variants: &[UnionVariant],
) -> TokenStream {
    let members = variants.iter().map(|v| {
        let ident = format_ident!("{}", v.rust_name);
        let value = v.tag_value.clone().unwrap_or_default();
        quote!(#ident = #value)
    });
    quote! {
        #[derive(Clone, Debug, PartialEq, ::serde::Serialize)]
        #[serde(untagged)]
        pub enum #name {
            #( #decls )*
            /// A variant this version of the SDK does not know; kept as received.
            Unknown(::serde_json::Value),
        }
        ::oncegen_runtime::tagged_union!(#name by #tag { #( #members ),* });
    }
}

/// `Display` for a union of scalars: the variant's value (lists comma-joined).
fn union_display(
    cx: &Ctx<'_>,
    name: &proc_macro2::Ident,
    variants: &[UnionVariant],
) -> TokenStream {
    let arms = variants.iter().map(|v| {
        let ident = format_ident!("{}", v.rust_name);
        let one = |x: TokenStream, ty: &TypeRef| {
            if cx.resolves_to(ty, &TypeRef::DateTime) {
                quote!(f.write_str(&#x.to_rfc3339()))
            } else {
                quote!(write!(f, "{}", #x))
            }
        };
        match &v.ty {
            TypeRef::Array(item) => {
                let write = one(quote!(item), item);
                quote! {
                    Self::#ident(items) => {
                        for (i, item) in items.iter().enumerate() {
                            if i > 0 {
                                f.write_str(",")?;
                            }
                            #write?;
                        }
                        Ok(())
                    }
                }
            }
            ty => {
                let write = one(quote!(value), ty);
                quote!(Self::#ident(value) => #write,)
            }
        }
    });
    quote! {
        impl ::std::fmt::Display for #name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                match self {
                    #( #arms )*
                }
            }
        }
    }
}
