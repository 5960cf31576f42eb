//! Constraints that narrowed: values released SDKs send that the server may now reject.

use crate::surface::ConstraintsSurface;
use serde_json::Value;

/// How `new` rejects values `old` accepted, one phrase per narrowed constraint.
pub(in super::super) fn narrowed(
    old: &ConstraintsSurface,
    new: &ConstraintsSurface,
) -> Vec<String> {
    let mut out = bounds_narrowed(old, new);
    out.extend(rules_narrowed(old, new));
    out
}

/// The bounds raised (`minimum`, `minLength`, `minItems`) or lowered (the maximums).
fn bounds_narrowed(old: &ConstraintsSurface, new: &ConstraintsSurface) -> Vec<String> {
    let number = |v: &Option<Value>| v.as_ref().and_then(Value::as_f64);
    let count = |v: Option<u64>| v.map(|v| v as f64);
    let bounds = [
        ("minimum", number(&old.minimum), number(&new.minimum), true),
        (
            "exclusive minimum",
            number(&old.exclusive_minimum),
            number(&new.exclusive_minimum),
            true,
        ),
        ("maximum", number(&old.maximum), number(&new.maximum), false),
        (
            "exclusive maximum",
            number(&old.exclusive_maximum),
            number(&new.exclusive_maximum),
            false,
        ),
        (
            "minLength",
            count(old.min_length),
            count(new.min_length),
            true,
        ),
        (
            "maxLength",
            count(old.max_length),
            count(new.max_length),
            false,
        ),
        ("minItems", count(old.min_items), count(new.min_items), true),
        (
            "maxItems",
            count(old.max_items),
            count(new.max_items),
            false,
        ),
    ];
    bounds
        .into_iter()
        .filter_map(|(what, o, n, raised)| bound_narrowed(what, o, n, raised))
        .collect()
}

/// `what o → n` when the bound narrows: a bound added, a minimum raised (`raised`) or a
/// maximum lowered.
fn bound_narrowed(what: &str, o: Option<f64>, n: Option<f64>, raised: bool) -> Option<String> {
    let narrows = match (o, n) {
        (None, Some(_)) => true,
        (Some(o), Some(n)) => (n > o) == raised && n != o,
        _ => false,
    };
    let shown = |v: Option<f64>| v.map_or_else(|| "none".to_owned(), |v| v.to_string());
    narrows.then(|| {
        format!(
            "{what} {} → {}: released SDKs may send values the server now rejects",
            shown(o),
            shown(n)
        )
    })
}

/// The rules a value must newly follow: pattern, multipleOf, unique items, format.
fn rules_narrowed(old: &ConstraintsSurface, new: &ConstraintsSurface) -> Vec<String> {
    let mut out = Vec::new();
    if new.pattern.is_some() && old.pattern != new.pattern {
        out.push(format!(
            "pattern `{}` → `{}`: values released SDKs send may no longer match",
            old.pattern.as_deref().unwrap_or("none"),
            new.pattern.as_deref().unwrap_or("none")
        ));
    }
    if new.multiple_of.is_some() && old.multiple_of != new.multiple_of {
        out.push(
            "multipleOf changed: released SDKs may send values the server now rejects".to_owned(),
        );
    }
    if new.unique_items && !old.unique_items {
        out.push("items must now be unique".to_owned());
    }
    if new.format.is_some() && old.format != new.format {
        out.push(format!(
            "format `{}` → `{}`",
            old.format.as_deref().unwrap_or("none"),
            new.format.as_deref().unwrap_or("none")
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn constraints(value: serde_json::Value) -> ConstraintsSurface {
        serde_json::from_value(value).expect("constraints")
    }

    #[test]
    fn only_narrowing_constraints_are_named() {
        let old = constraints(json!({"minimum": 1, "maxLength": 64, "pattern": "^a"}));
        let widened = constraints(json!({"minimum": 0}));
        assert_eq!(narrowed(&old, &widened), Vec::<String>::new());
        let narrower = constraints(json!({
            "minimum": 2, "maxLength": 32, "pattern": "^ab", "maxItems": 5, "uniqueItems": true
        }));
        let found = narrowed(&old, &narrower);
        for needle in [
            "minimum 1 → 2",
            "maxLength 64 → 32",
            "pattern `^a` → `^ab`",
            "maxItems none → 5",
            "items must now be unique",
        ] {
            assert!(
                found.iter().any(|f| f.contains(needle)),
                "{needle}: {found:?}"
            );
        }
        assert_eq!(found.len(), 5, "{found:?}");
    }
}
