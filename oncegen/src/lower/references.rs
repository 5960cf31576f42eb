//! Which types name which: the edges the whole-model passes (`graph.rs`) and the member-tag
//! pass (`member_tags.rs`) walk.

use crate::ir::{TypeDef, TypeKind, TypeRef};
use std::collections::BTreeMap;

/// Type names referenced by `ty` (through containers too).
pub(super) fn names_in(ty: &TypeRef, out: &mut Vec<String>) {
    match ty {
        TypeRef::Named(n) => out.push(n.clone()),
        TypeRef::Array(inner) | TypeRef::Map(inner) | TypeRef::Nullable(inner) => {
            names_in(inner, out)
        }
        _ => {}
    }
}

/// Edges from each type to the types it contains; `through_containers: false` keeps only
/// direct (unboxed) containment, the edges that make a type infinitely sized.
pub(super) fn edges(types: &[TypeDef], through_containers: bool) -> BTreeMap<String, Vec<String>> {
    let direct = |ty: &TypeRef, out: &mut Vec<String>| {
        if through_containers {
            names_in(ty, out);
        } else if let TypeRef::Named(n) = ty {
            out.push(n.clone());
        }
    };
    types
        .iter()
        .map(|def| {
            let mut out = Vec::new();
            match &def.kind {
                TypeKind::Struct {
                    fields,
                    exclusive,
                    additional,
                    ..
                } => {
                    fields.iter().for_each(|f| direct(&f.ty, &mut out));
                    exclusive
                        .iter()
                        .flat_map(|g| &g.members)
                        .for_each(|m| direct(&m.ty, &mut out));
                    // The values live in a map: only a container edge.
                    if let Some(a) = additional
                        && through_containers
                    {
                        names_in(&a.value_ty, &mut out);
                    }
                }
                TypeKind::Union { variants, .. } => {
                    variants.iter().for_each(|v| direct(&v.ty, &mut out))
                }
                TypeKind::Alias { target } => direct(target, &mut out),
                TypeKind::Enum { .. } => {}
            }
            (def.name.clone(), out)
        })
        .collect()
}
