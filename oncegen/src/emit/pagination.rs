//! Emits `impl oncegen_runtime::pagination::Paginated` for paginated responses.

use super::Ctx;
use crate::ir::{FieldAccess, IntType, PageModel, Pagination, TypeRef};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

/// The impl for response type `type_name`.
pub fn paginated_impl(cx: &Ctx<'_>, type_name: &str, pg: &Pagination) -> TokenStream {
    let name = format_ident!("{}", type_name);
    let item = cx.ty(&pg.item_ty);
    let items = format_ident!("{}", pg.items.rust_name);
    let (empty, into_items) = if pg.items.nullable {
        (
            quote!(self.#items.as_value().is_none_or(Vec::is_empty)),
            quote!(self.#items.into_value().unwrap_or_default()),
        )
    } else if pg.items.optional {
        (
            quote!(self.#items.as_ref().is_none_or(Vec::is_empty)),
            quote!(self.#items.unwrap_or_default()),
        )
    } else {
        (quote!(self.#items.is_empty()), quote!(self.#items))
    };
    let next = match pg.model {
        PageModel::Page => {
            let pages = as_u64(&pg.next);
            let page = pg.page.as_ref().map_or(quote!(None), as_u64);
            quote!(::oncegen_runtime::pagination::next_page(#page, #pages, #empty))
        }
        PageModel::Offset => {
            let offset = as_u64(&pg.next);
            quote!(#offset.map(::oncegen_runtime::pagination::Continuation::Offset))
        }
        PageModel::Cursor => {
            let field = format_ident!("{}", pg.next.rust_name);
            if pg.next.nullable {
                quote!(self.#field.clone().into_value().map(::oncegen_runtime::pagination::Continuation::Cursor))
            } else if pg.next.optional {
                quote!(self.#field.clone().map(::oncegen_runtime::pagination::Continuation::Cursor))
            } else {
                quote!((!self.#field.is_empty()).then(|| ::oncegen_runtime::pagination::Continuation::Cursor(self.#field.clone())))
            }
        }
    };
    quote! {
        impl ::oncegen_runtime::pagination::Paginated for #name {
            type Item = #item;
            fn next_continuation(&self) -> Option<::oncegen_runtime::pagination::Continuation> {
                #next
            }
            fn into_items(self) -> Vec<Self::Item> {
                #into_items
            }
        }
    }
}

/// `Option<u64>` from an integer response field.
fn as_u64(f: &FieldAccess) -> TokenStream {
    let field = format_ident!("{}", f.rust_name);
    if f.nullable {
        return if f.ty == TypeRef::Int(IntType::U64) {
            quote!(self.#field.as_value().copied())
        } else {
            quote!(self.#field.as_value().and_then(|v| u64::try_from(*v).ok()))
        };
    }
    match (f.optional, f.ty == TypeRef::Int(IntType::U64)) {
        (true, true) => quote!(self.#field),
        (true, false) => quote!(self.#field.and_then(|v| u64::try_from(v).ok())),
        (false, true) => quote!(Some(self.#field)),
        (false, false) => quote!(u64::try_from(self.#field).ok()),
    }
}
