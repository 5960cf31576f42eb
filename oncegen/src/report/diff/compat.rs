//! Whether one revision's type decodes a value of the other's: a released SDK's response type
//! what the new server sends, or the new server's request type what a released SDK sends (a
//! type that changed its name, not always its shape).

use crate::surface::{Shape, TypeSurface};
use std::collections::BTreeMap;

type Types = BTreeMap<String, TypeSurface>;

/// Whether a value of type `new_ty` (of `new_types`) decodes as `old_ty` (of `old_types`)
/// (call it with the revisions swapped for the other direction):
/// equal type strings of the same shape do, as do two structs when every field the old one
/// requires is still sent, under the same wire name, with the same type and never null, and
/// every other field it knows keeps its type. Anything else is taken not to.
pub(super) fn decodes(old_types: &Types, old_ty: &str, new_types: &Types, new_ty: &str) -> bool {
    let (Some(old), Some(new)) = (old_types.get(old_ty), new_types.get(new_ty)) else {
        return old_ty == new_ty;
    };
    match (&old.shape, &new.shape) {
        (Shape::Struct { fields: of, .. }, Shape::Struct { fields: nf, .. }) => {
            of.values()
                .all(|o| match nf.values().find(|n| n.name == o.name) {
                    Some(n) => n.ty == o.ty && (!o.is_always_present() || n.is_always_present()),
                    None => !o.is_always_present(),
                })
        }
        (o, n) => old_ty == new_ty && o == n,
    }
}
