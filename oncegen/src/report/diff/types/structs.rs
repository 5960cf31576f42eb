//! Changes of a struct type: its fixed tag, how `new` takes its arguments, its fields and its
//! catch-all map.

use super::super::{Changes, Class, arguments, renames};
use super::{Pair, Side, fields, fixed_tag};
use std::collections::BTreeMap;

/// The changes of a struct present in both revisions.
pub(super) fn change(pair: &Pair<'_>, o: &Side<'_>, n: &Side<'_>, out: &mut Changes) {
    let (subject, area) = (&pair.subject, pair.area);
    fixed_tag(subject, o.fixed_tag, n.fixed_tag, area, &pair.uses, out);
    let renamed = renames::pairs(o.fields, n.fields, |a, b| {
        (&a.rust_type, &a.const_value, &a.constraints)
            == (&b.rust_type, &b.const_value, &b.constraints)
    });
    constructor(pair, o, n, &renamed, out);
    fields::fields(pair, o, n, &renamed, out);
    out.push_parts(area, subject, catch_all(o.additional, n.additional));
}

/// How `new` takes its arguments, and their order.
fn constructor(
    pair: &Pair<'_>,
    o: &Side<'_>,
    n: &Side<'_>,
    renamed: &BTreeMap<&str, &str>,
    out: &mut Changes,
) {
    let (name, subject, area) = (pair.name, &pair.subject, pair.area);
    // Only between two request types: `new` appearing or going is reported with the type.
    let passing = (o.request && n.request)
        .then(|| {
            arguments::constructor_passing(
                name,
                (o.constructor, o.constructor_struct),
                (n.constructor, n.constructor_struct),
            )
        })
        .flatten();
    if let Some(text) = passing {
        out.push(Class::Breaking, area, format!("{subject}: {text}"));
    }
    // Fields passed by name have no order a call depends on (and a change of how they are
    // passed is reported above).
    let reordered = (o.constructor_struct.is_none() && n.constructor_struct.is_none())
        .then(|| {
            arguments::reordered(
                o.constructor,
                n.constructor,
                renamed,
                |f| o.fields.get(f).map(|f| f.ty.clone()),
                |f| n.fields.get(f).map(|f| f.ty.clone()),
            )
        })
        .flatten();
    if let Some(text) = reordered {
        let text = format!("{subject}: `{name}::new`: {text}");
        out.push(Class::Breaking, area, text);
    }
}

/// The catch-all map of an open object: added, removed, or of another value type.
fn catch_all(old: Option<&str>, new: Option<&str>) -> Vec<(Class, String)> {
    let change = match (old, new) {
        (None, Some(_)) => Some((Class::Additive, "catch-all map added".to_owned())),
        (Some(_), None) => Some((Class::Breaking, "catch-all map removed".to_owned())),
        (Some(a), Some(b)) if a != b => Some((
            Class::Breaking,
            format!("catch-all value type `{a}` → `{b}`"),
        )),
        _ => None,
    };
    change.into_iter().collect()
}
