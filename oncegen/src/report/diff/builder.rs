//! Changes of a request builder's methods beyond its setters and `send`: the other formats'
//! `send_*`, `download`, and `error_body` with its `{Builder}Error` enum.

use super::{Class, union_keys};
use crate::surface::builder_methods;
use crate::surface::{ErrorBodySurface, OperationSurface};

/// The Rust API changes of the builder's other sending methods and of its `error_body`.
pub(super) fn methods(o: &OperationSurface, n: &OperationSurface) -> Vec<(Class, String)> {
    let mut out = Vec::new();
    for method in union_keys(&o.send_variants, &n.send_variants) {
        match (o.send_variants.get(method), n.send_variants.get(method)) {
            (None, Some(ty)) => out.push((
                Class::Additive,
                format!("builder method `{method}` added (resolves to `{ty}`)"),
            )),
            (Some(_), None) => out.push((
                Class::Breaking,
                format!("builder method `{method}` removed"),
            )),
            (Some(a), Some(b)) if a != b => out.push((
                Class::Breaking,
                format!("builder method `{method}` resolves to `{a}` → `{b}`"),
            )),
            _ => {}
        }
    }
    out.extend(error_body(o.error_body.as_ref(), n.error_body.as_ref()));
    out
}

fn error_body(
    old: Option<&ErrorBodySurface>,
    new: Option<&ErrorBodySurface>,
) -> Vec<(Class, String)> {
    let (o, n) = match (old, new) {
        (None, None) => return Vec::new(),
        (None, Some(n)) => {
            return vec![(
                Class::Additive,
                format!("`error_body` added (returns `Option<{}>`)", n.ty),
            )];
        }
        (Some(_), None) => {
            return vec![(
                Class::Breaking,
                "`error_body` removed (no error response has a type any more)".to_owned(),
            )];
        }
        (Some(o), Some(n)) => (o, n),
    };
    if o.ty != n.ty {
        return vec![(
            Class::Breaking,
            format!(
                "`error_body` returns `Option<{}>` → `Option<{}>`",
                o.ty, n.ty
            ),
        )];
    }
    let mut out = Vec::new();
    for status in union_keys(&o.variants, &n.variants) {
        let variant = format!("{}::{}", n.ty, builder_methods::error_variant_name(status));
        match (o.variants.get(status), n.variants.get(status)) {
            (None, Some(ty)) => out.push((
                Class::Breaking,
                format!(
                    "`{variant}({ty})` added: `{}` is exhaustive, so matches on it stop compiling",
                    n.ty
                ),
            )),
            (Some(_), None) => out.push((Class::Breaking, format!("`{variant}` removed"))),
            (Some(a), Some(b)) if a != b => out.push((
                Class::Breaking,
                format!("`{variant}` payload `{a}` → `{b}`"),
            )),
            _ => {}
        }
    }
    out
}
