//! The conversions a caller relies on: which members a union or an `x-at-most-one-of` choice
//! enum converts from (`impl From<Member>`), and which arguments and setters take
//! `impl Into<…>` rather than the exact type. Removing either breaks callers' code, so the
//! surface records both and the change report diffs them.

use super::rust_type;
use crate::ir::{Api, TypeKind, TypeRef};
use std::collections::BTreeMap;

/// The named types of a model, by name, to decide conversions from.
pub(crate) struct Conversions<'a> {
    kinds: BTreeMap<&'a str, &'a TypeKind>,
}

impl<'a> Conversions<'a> {
    /// The conversions of `api`'s types.
    pub fn of(api: &'a Api) -> Self {
        Conversions {
            kinds: api
                .types
                .iter()
                .map(|d| (d.name.as_str(), &d.kind))
                .collect(),
        }
    }

    /// Which members of the enum `owner` get `impl From<Member>`, one flag per payload type.
    ///
    /// The rule (the same for `oneOf`/`anyOf` unions and `x-at-most-one-of` choice enums): a
    /// member converts when its payload is a named struct, enum or union (not an alias, not
    /// `owner` itself) that no other member of the same enum wraps. Scalars, lists, maps and
    /// aliases never convert this way: a `From<String>` or `From<Uuid>` would pick a variant
    /// by its Rust type, which says nothing about what the value means (a zone file and a
    /// hostname are both strings), and two members sharing a payload type would make the
    /// choice ambiguous. A named type carries its meaning, so converting from it cannot
    /// surprise. A union (not a choice enum) also converts from a scalar no other member has
    /// ([`unique_scalar`]).
    fn members(&self, owner: &str, payloads: &[&TypeRef], union: bool) -> Vec<bool> {
        payloads
            .iter()
            .map(|ty| {
                self.named_member(owner, ty, payloads) || union && unique_scalar(ty, payloads)
            })
            .collect()
    }

    /// Whether `ty` is a named struct, enum or union other than `owner` no other payload
    /// shares.
    fn named_member(&self, owner: &str, ty: &TypeRef, payloads: &[&TypeRef]) -> bool {
        let TypeRef::Named(n) = ty else {
            return false;
        };
        n != owner
            && matches!(
                self.kinds.get(n.as_str()),
                Some(TypeKind::Struct { .. } | TypeKind::Enum { .. } | TypeKind::Union { .. })
            )
            && payloads.iter().filter(|other| **other == ty).count() == 1
    }

    /// The types the union (`union`) or choice enum `owner` with members `payloads` converts
    /// from, as spelled in `impl From<…>`, sorted: each converting member's payload, and
    /// `&str` when an unboxed `String` member converts.
    pub fn converts_from(
        &self,
        owner: &str,
        payloads: &[(&TypeRef, bool)],
        union: bool,
    ) -> Vec<String> {
        let types: Vec<&TypeRef> = payloads.iter().map(|(ty, _)| *ty).collect();
        let convert = self.members(owner, &types, union);
        let mut from: Vec<String> = types
            .iter()
            .zip(&convert)
            .filter(|(_, c)| **c)
            .map(|(ty, _)| rust_type::text(ty))
            .collect();
        let text = payloads
            .iter()
            .zip(&convert)
            .any(|((ty, boxed), c)| *c && **ty == TypeRef::String && !boxed);
        if text {
            from.push("&str".to_owned());
        }
        from.sort();
        from
    }

    /// Whether a choice enum with members `payloads` has a `From` conversion: its setter
    /// takes `impl Into<Choice>`.
    pub fn choice_converts(&self, owner: &str, payloads: &[&TypeRef]) -> bool {
        self.members(owner, payloads, false).contains(&true)
    }

    /// Whether an argument or setter of type `ty` takes `impl Into<…>`: text (`impl
    /// Into<String>`), bytes, or a union that converts from a named member.
    pub fn argument(&self, ty: &TypeRef) -> bool {
        self.text(ty) || *ty == TypeRef::Bytes || self.union_converts(ty)
    }

    /// Whether a field of type `ty` is taken by `new` or its setter as `impl Into<…>`: text, or
    /// a union that converts from a named member (bytes are taken as they are).
    pub fn field_argument(&self, ty: &TypeRef) -> bool {
        self.text(ty) || self.union_converts(ty)
    }

    /// Whether `ty` names a union one of whose named members converts.
    fn union_converts(&self, ty: &TypeRef) -> bool {
        let TypeRef::Named(n) = ty else {
            return false;
        };
        match self.kinds.get(n.as_str()) {
            Some(TypeKind::Union { variants, .. }) => {
                let payloads: Vec<&TypeRef> = variants.iter().map(|v| &v.ty).collect();
                self.members(n, &payloads, false).contains(&true)
            }
            _ => false,
        }
    }

    /// Whether `ty` is `String`, directly or through aliases.
    pub fn text(&self, ty: &TypeRef) -> bool {
        let mut current = ty;
        for _ in 0..16 {
            match current {
                TypeRef::String => return true,
                TypeRef::Named(n) => match self.kinds.get(n.as_str()) {
                    Some(TypeKind::Alias { target }) => current = target,
                    _ => return false,
                },
                _ => return false,
            }
        }
        false
    }
}

/// Whether `ty` is a scalar (text, number, boolean, uuid, time, decimal) no other member of
/// the union has: the union converts from it (`Id::from(7)`, `Id::from("a-7")`).
fn unique_scalar(ty: &TypeRef, payloads: &[&TypeRef]) -> bool {
    matches!(
        ty,
        TypeRef::String
            | TypeRef::Bool
            | TypeRef::Int(_)
            | TypeRef::Float
            | TypeRef::Uuid
            | TypeRef::DateTime
            | TypeRef::Date
            | TypeRef::Decimal
    ) && payloads.iter().filter(|other| **other == ty).count() == 1
}
