//! The conversions a caller relies on: a union's or choice enum's `From` impls (one lost is
//! breaking, one gained additive) and arguments taken as `impl Into<…>` (one that stops is
//! breaking, one that starts additive). A baseline of a layout before they were recorded
//! (format 5) is read with them absent: they are taken to be the new ones, so the report
//! claims no change it cannot see.

use super::{Changes, Class};
use crate::surface::{FieldSurface, ParamSurface, Shape, Surface};
use std::borrow::Cow;

/// The first `api.json` format recording conversions.
const RECORDED_SINCE: u32 = 6;

/// `old`, with the conversions it does not record (a format before [`RECORDED_SINCE`]) taken
/// from `new`.
pub(super) fn known<'a>(old: &'a Surface, new: &Surface) -> Cow<'a, Surface> {
    if old.format >= RECORDED_SINCE {
        return Cow::Borrowed(old);
    }
    let mut old = old.clone();
    for (name, t) in &mut old.types {
        let Some(n) = new.types.get(name) else {
            continue;
        };
        t.converts_from.clone_from(&n.converts_from);
        if let (Shape::Struct { fields, .. }, Shape::Struct { fields: nf, .. }) =
            (&mut t.shape, &n.shape)
        {
            for (key, f) in fields.iter_mut() {
                f.into = nf.get(key).is_some_and(|n| n.into);
            }
        }
    }
    for (id, op) in &mut old.operations {
        let Some(n) = new.operations.get(id) else {
            continue;
        };
        for (key, p) in op.params.iter_mut() {
            p.into = n.params.get(key).is_some_and(|n| n.into);
        }
        if let (Some(b), Some(nb)) = (op.body.as_mut(), n.body.as_ref()) {
            b.into = nb.into;
        }
    }
    Cow::Owned(old)
}

/// One line per `From` conversion of the type `subject` lost (breaking) or gained (additive).
pub(super) fn from_impls(
    subject: &str,
    (old, new): (&[String], &[String]),
    area: &str,
    out: &mut Changes,
) {
    for from in old.iter().filter(|f| !new.contains(f)) {
        let text =
            format!("{subject}: `From<{from}>` removed (`.into()` from it no longer compiles)");
        out.push(Class::Breaking, area, text);
    }
    for from in new.iter().filter(|f| !old.contains(f)) {
        out.push(
            Class::Additive,
            area,
            format!("{subject}: `From<{from}>` added"),
        );
    }
}

/// The part of an argument's change when it stops (breaking) or starts (additive) taking
/// `impl Into<…>`.
pub(super) fn into(old: bool, new: bool) -> Option<(Class, String)> {
    match (old, new) {
        (true, false) => Some((
            Class::Breaking,
            "no longer takes `impl Into<…>`: a value that converts must be converted".to_owned(),
        )),
        (false, true) => Some((Class::Additive, "now takes `impl Into<…>`".to_owned())),
        _ => None,
    }
}

/// The conversion change of a parameter of the same type and requiredness (a required one
/// passed in an arguments struct, `named`, has its exact type there: not compared).
pub(super) fn param_into(
    o: &ParamSurface,
    n: &ParamSurface,
    named: bool,
) -> Option<(Class, String)> {
    let compared = o.ty == n.ty && o.required == n.required && !(n.required && named);
    compared.then(|| into(o.into, n.into)).flatten()
}

/// The conversion change of a field of the same type and role (an argument of `new`, a
/// setter); an argument of `new` passed in its `{Type}Args` struct (`named`) is not compared.
pub(super) fn field_into(
    o: &FieldSurface,
    n: &FieldSurface,
    named: bool,
) -> Option<(Class, String)> {
    let role = |f: &FieldSurface| (f.setter.is_some(), f.is_constructor_argument());
    let compared =
        o.rust_type == n.rust_type && role(o) == role(n) && !(named && n.is_constructor_argument());
    compared.then(|| into(o.into, n.into)).flatten()
}
