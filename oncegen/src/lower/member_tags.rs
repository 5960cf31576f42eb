//! Union members' tags: a tagged union's member whose tag property admits only the member's own
//! value (a one-value `enum` or a `const`) gets no Rust field for it. The struct's serde impls
//! write the value and check it when reading ([`FixedTag`]), so a caller never sets it and
//! cannot send a member with another member's tag; the one-value enum made for the property
//! goes too when nothing else names it.

use crate::ir::{Field, FixedTag, TypeDef, TypeKind, TypeRef};
use std::collections::{BTreeMap, BTreeSet};

/// Moves each qualifying tag field into its struct's fixed tag; returns the names of the enum
/// types removed with them.
pub(super) fn fix_member_tags(types: &mut Vec<TypeDef>) -> BTreeSet<String> {
    let mut dropped_enums = BTreeSet::new();
    let enums = one_value_enums(types);
    for (member, tag) in member_tags(types) {
        let Some(def) = types.iter_mut().find(|d| d.name == member) else {
            continue;
        };
        let TypeKind::Struct {
            fields,
            exclusive,
            fixed_tag,
            ..
        } = &mut def.kind
        else {
            continue;
        };
        // A struct with a choice group keeps serde's derive, which has no fixed tag.
        if !exclusive.is_empty() || fixed_tag.is_some() {
            continue;
        }
        let Some(index) = fields.iter().position(|f| holds_only(f, &tag, &enums)) else {
            continue;
        };
        if let TypeRef::Named(name) = &fields.remove(index).ty {
            // An enum made for a property, not a component of its own.
            if enums
                .get(name)
                .is_some_and(|(_, pointer)| pointer.contains("/properties/"))
            {
                dropped_enums.insert(name.clone());
            }
        }
        *fixed_tag = Some(tag);
    }
    let still_named: BTreeSet<String> = super::references::edges(types, true)
        .into_values()
        .flatten()
        .collect();
    dropped_enums.retain(|name| !still_named.contains(name));
    types.retain(|d| !dropped_enums.contains(&d.name));
    dropped_enums
}

/// Each struct that is a member of a tagged union, with its tag; a struct that two unions tag
/// differently keeps its field.
fn member_tags(types: &[TypeDef]) -> BTreeMap<String, FixedTag> {
    let mut tags: BTreeMap<String, Option<FixedTag>> = BTreeMap::new();
    for def in types {
        let TypeKind::Union {
            tag: Some(property),
            variants,
            ..
        } = &def.kind
        else {
            continue;
        };
        for variant in variants {
            let (TypeRef::Named(member), Some(value)) = (&variant.ty, &variant.tag_value) else {
                continue;
            };
            let tag = FixedTag {
                name: property.clone(),
                value: value.clone(),
            };
            tags.entry(member.clone())
                .and_modify(|known| {
                    if known.as_ref() != Some(&tag) {
                        *known = None;
                    }
                })
                .or_insert(Some(tag));
        }
    }
    tags.into_iter()
        .filter_map(|(member, tag)| Some((member, tag?)))
        .collect()
}

/// Each string enum that has exactly one value: its value and its schema's pointer.
fn one_value_enums(types: &[TypeDef]) -> BTreeMap<String, (String, String)> {
    types
        .iter()
        .filter_map(|d| match &d.kind {
            TypeKind::Enum { variants, .. } if variants.len() == 1 => Some((
                d.name.clone(),
                (variants[0].value.clone(), d.pointer.clone()),
            )),
            _ => None,
        })
        .collect()
}

/// Whether `field` is the required, non-null property `tag.name` admitting only `tag.value`.
fn holds_only(
    field: &Field,
    tag: &FixedTag,
    one_value_enums: &BTreeMap<String, (String, String)>,
) -> bool {
    let only = match &field.ty {
        TypeRef::Named(name) => one_value_enums.get(name).map(|(value, _)| value.as_str()),
        TypeRef::String => field.const_value.as_deref(),
        _ => None,
    };
    field.name == tag.name && field.required && !field.nullable && only == Some(&tag.value)
}
