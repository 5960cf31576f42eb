//! The request body: for the Rust API, and what the new server makes of the body released
//! SDKs send.

use super::super::{Changes, Class, Wire, compat, conversions};
use super::Pair;
use super::params::argument_changes;
use crate::surface::BodySurface;

/// The body's changes, in one line, and their effects on released SDKs.
pub(super) fn body(pair: &Pair<'_>, out: &mut Changes) {
    let (o, n) = (pair.o.body.as_ref(), pair.n.body.as_ref());
    let subject = format!("{}: request body", pair.subject);
    out.push_parts(pair.area(), &subject, api(o, n, &pair.n.rust_fn));
    // The new server reads what a released SDK sends when its type decodes the old one.
    let (old_api, new_api) = pair.apis;
    let accepted = |old_ty: &str, new_ty: &str| {
        compat::decodes(&new_api.types, new_ty, &old_api.types, old_ty)
    };
    body_wire(o, n, accepted, |class, text| {
        pair.wire(out, class, format!("request body {text}"))
    });
}

/// The parts of the body's change for the Rust API.
fn api(
    old: Option<&BodySurface>,
    new: Option<&BodySurface>,
    rust_fn: &str,
) -> Vec<(Class, String)> {
    let mut parts = Vec::new();
    match (old, new) {
        (None, None) => {}
        (Some(_), None) => parts.push((Class::Breaking, "removed".to_owned())),
        (None, Some(n)) if n.required => parts.push((
            Class::Breaking,
            format!("`{}` added (required: a new argument of `{rust_fn}`)", n.ty),
        )),
        (None, Some(n)) => parts.push((
            Class::Additive,
            format!("`{}` added (optional: the `body` setter)", n.ty),
        )),
        (Some(o), Some(n)) => {
            parts.extend(argument_changes(
                (o.required, n.required),
                (&o.ty, &n.ty),
                rust_fn,
                "the `body` setter",
            ));
            if (&o.ty, o.required) == (&n.ty, n.required) {
                parts.extend(conversions::into(o.into, n.into));
            }
            if o.media_type != n.media_type {
                parts.push((
                    Class::DocsOnly,
                    format!("media type `{}` → `{}`", o.media_type, n.media_type),
                ));
            }
        }
    }
    parts
}

/// What a body change does to released SDKs.
fn body_wire(
    old: Option<&BodySurface>,
    new: Option<&BodySurface>,
    accepted: impl Fn(&str, &str) -> bool,
    mut wire: impl FnMut(Wire, String),
) {
    match (old, new) {
        (None, Some(n)) if n.required => wire(
            Wire::Breaking,
            format!("`{}` added as required: released SDKs send none", n.ty),
        ),
        (Some(o), Some(n)) => {
            if !o.required && n.required {
                wire(
                    Wire::Breaking,
                    "now required: released SDKs send it only when set".to_owned(),
                );
            }
            if o.ty != n.ty && !accepted(&o.ty, &n.ty) {
                wire(
                    Wire::Breaking,
                    format!(
                        "type `{}` → `{}`: released SDKs send the old type",
                        o.ty, n.ty
                    ),
                );
            }
            if o.media_type != n.media_type {
                wire(
                    Wire::Breaking,
                    format!(
                        "media type `{}` → `{}`: released SDKs send `{}`",
                        o.media_type, n.media_type, o.media_type
                    ),
                );
            }
        }
        (Some(_), None) => wire(
            Wire::Degraded,
            "removed: released SDKs still send one when set".to_owned(),
        ),
        _ => {}
    }
}
