//! The crates whose types appear in the generated crate's public API, re-exported from it so
//! that an application needs no dependency of its own (and no version to keep in step).

use crate::ir::{Api, BodyEncoding, Success, TypeKind, TypeRef};
use std::collections::BTreeSet;

/// `serde_json` always (every client's errors carry its `Value`: `ApiError::body`, an error's
/// `body_as`), and `chrono`, `rust_decimal`, `uuid` and `bytes` for those the API's types name.
pub(super) fn crates_in_api(api: &Api) -> BTreeSet<&'static str> {
    let mut out = BTreeSet::from(["serde_json"]);
    let mut add = |ty: &TypeRef| crates_of(ty, &mut out);
    for def in &api.types {
        match &def.kind {
            TypeKind::Struct {
                fields,
                exclusive,
                additional,
                ..
            } => {
                fields.iter().for_each(|f| add(&f.ty));
                exclusive
                    .iter()
                    .flat_map(|g| &g.members)
                    .for_each(|m| add(&m.ty));
                if let Some(a) = additional {
                    add(&a.value_ty);
                }
            }
            TypeKind::Union { variants, .. } => variants.iter().for_each(|v| add(&v.ty)),
            TypeKind::Alias { target } => add(target),
            TypeKind::Enum { .. } => {}
        }
    }
    for op in &api.operations {
        op.params.iter().for_each(|p| add(&p.ty));
        if let Some(body) = &op.body {
            add(&body.ty);
        }
        if let Success::Json(ty) = &op.success {
            add(ty);
        }
    }
    if api.operations.iter().any(|o| {
        o.body
            .as_ref()
            .is_some_and(|b| b.encoding == BodyEncoding::Binary)
    }) {
        out.insert("bytes");
    }
    out
}

fn crates_of(ty: &TypeRef, out: &mut BTreeSet<&'static str>) {
    match ty {
        TypeRef::DateTime | TypeRef::Date => {
            out.insert("chrono");
        }
        TypeRef::Uuid => {
            out.insert("uuid");
        }
        TypeRef::Decimal => {
            out.insert("rust_decimal");
        }
        TypeRef::Array(inner) | TypeRef::Map(inner) | TypeRef::Nullable(inner) => {
            crates_of(inner, out)
        }
        _ => {}
    }
}
