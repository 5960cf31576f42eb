//! Positional arguments (of a client method or of `new`): a change of their order is breaking,
//! and silent when every position keeps its type; so is a client method's required parameters
//! or a request type's required fields moving into (or out of) a struct that names them.

use crate::surface::OperationSurface;
use std::collections::BTreeMap;

/// `` arguments reordered: `(a, b)` → `(b, a)` `` when the arguments both lists keep (a renamed
/// one under its new name, per `renamed`) come in another order, with what that means for
/// existing calls; `type_of_old` and `type_of_new` give each argument's type.
pub(super) fn reordered(
    old: &[String],
    new: &[String],
    renamed: &BTreeMap<&str, &str>,
    type_of_old: impl Fn(&str) -> Option<String>,
    type_of_new: impl Fn(&str) -> Option<String>,
) -> Option<String> {
    let now_called = |name: &str| renamed.get(name).copied().unwrap_or(name).to_owned();
    let kept_old: Vec<String> = old
        .iter()
        .map(|a| now_called(a))
        .filter(|a| new.contains(a))
        .collect();
    let kept_new: Vec<String> = new
        .iter()
        .filter(|a| kept_old.contains(a))
        .cloned()
        .collect();
    if kept_old == kept_new {
        return None;
    }
    let old_types: Vec<Option<String>> = old.iter().map(|a| type_of_old(a)).collect();
    let new_types: Vec<Option<String>> = new.iter().map(|a| type_of_new(a)).collect();
    let effect = if old_types == new_types {
        "every position keeps its type, so existing calls still compile and send the values \
         crossed"
    } else {
        "existing calls pass values in the old order"
    };
    Some(format!(
        "arguments reordered: `({})` → `({})`: {effect}",
        old.join(", "),
        new.join(", ")
    ))
}

/// How a client method's required parameters are passed, when that changed: positionally
/// (`f(a, b)`) or named in a struct (`f(Name { a, b })`); every existing call stops compiling.
pub(super) fn passing(old: &OperationSurface, new: &OperationSurface) -> Option<String> {
    let is_param = |op: &OperationSurface, a: &str| op.params.contains_key(a);
    passed_differently(
        "required parameters",
        &new.rust_fn,
        (&old.arguments, old.arguments_struct.as_deref(), &|a| {
            is_param(old, a)
        }),
        (&new.arguments, new.arguments_struct.as_deref(), &|a| {
            is_param(new, a)
        }),
    )
}

/// How `new` of a request type takes its required fields, when that changed: positionally
/// (`new(a, b)`) or named in a struct (`new(Name { a, b })`); every existing call stops
/// compiling. Each side is `new`'s arguments and the struct they are passed in.
pub(super) fn constructor_passing(
    type_name: &str,
    (old, old_struct): (&[String], Option<&str>),
    (new, new_struct): (&[String], Option<&str>),
) -> Option<String> {
    let every = |_: &str| true;
    passed_differently(
        "required fields",
        &format!("{type_name}::new"),
        (old, old_struct, &every),
        (new, new_struct, &every),
    )
}

/// One side of [`passed_differently`]: the arguments in call order, the struct naming some of
/// them, and which ones it names (the others follow it).
type Passing<'a> = (&'a [String], Option<&'a str>, &'a dyn Fn(&str) -> bool);

/// `` {what} passed differently: `f(a, b)` → `f(Name { a, b })`: … `` when the struct differs.
fn passed_differently(
    what: &str,
    fn_name: &str,
    old: Passing<'_>,
    new: Passing<'_>,
) -> Option<String> {
    if old.1 == new.1 {
        return None;
    }
    Some(format!(
        "{what} passed differently: {} → {}: every existing call must change",
        call(fn_name, old),
        call(fn_name, new)
    ))
}

/// `` `f(a, b)` `` or `` `f(Name { a, b }, body)` ``.
fn call(fn_name: &str, (arguments, named, is_field): Passing<'_>) -> String {
    let listed: Vec<String> = match named {
        Some(name) => {
            let (fields, rest): (Vec<&String>, Vec<&String>) =
                arguments.iter().partition(|a| is_field(a));
            let fields: Vec<&str> = fields.into_iter().map(String::as_str).collect();
            std::iter::once(format!("{name} {{ {} }}", fields.join(", ")))
                .chain(rest.into_iter().cloned())
                .collect()
        }
        None => arguments.to_vec(),
    };
    format!("`{fn_name}({})`", listed.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(items: &[&str]) -> Vec<String> {
        items.iter().map(|s| (*s).to_owned()).collect()
    }

    fn string_type(_: &str) -> Option<String> {
        Some("String".to_owned())
    }

    #[test]
    fn a_swap_of_same_typed_arguments_is_named_silent() {
        let text = reordered(
            &strings(&["name", "public_key"]),
            &strings(&["public_key", "name"]),
            &BTreeMap::new(),
            string_type,
            string_type,
        )
        .expect("a swap");
        assert!(
            text.contains("`(name, public_key)` → `(public_key, name)`"),
            "{text}"
        );
        assert!(
            text.contains("still compile and send the values crossed"),
            "{text}"
        );
    }

    #[test]
    fn additions_renames_and_removals_alone_are_not_a_reorder() {
        let renamed = BTreeMap::from([("public_key", "openssh_public_key")]);
        for (old, new) in [
            (&["a", "b"][..], &["a", "x", "b"][..]),
            (&["a", "b", "c"][..], &["a", "c"][..]),
            (
                &["name", "public_key"][..],
                &["name", "openssh_public_key"][..],
            ),
        ] {
            let change = reordered(
                &strings(old),
                &strings(new),
                &renamed,
                string_type,
                string_type,
            );
            assert_eq!(change, None, "{old:?} → {new:?}");
        }
    }
}
