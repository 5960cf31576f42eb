//! Whether a re-encoded example means what the example says.
//!
//! Object members are compared by name, in any order. Absent and `null` differ: a member that
//! is `null` in one and missing in the other is a difference. Numbers compare by value
//! (`1` and `1.0` are equal); strings that differ compare as the values they denote when both
//! are date-times (the same instant), decimals (`1.50` and `1.5`) or UUIDs (any letter case), and
//! a number and a string compare as decimals.

use serde_json::Value;
use std::str::FromStr;

/// `Ok` when `again` means what `example` means, else the differences (the first ones, by
/// JSON pointer inside the example).
pub fn same(example: &Value, again: &Value) -> Result<(), String> {
    let mut differences = Vec::new();
    compare("", example, again, &mut differences);
    match differences.as_slice() {
        [] => Ok(()),
        [one] => Err(one.clone()),
        [first, second] => Err(format!("{first}; {second}")),
        [first, second, rest @ ..] => Err(format!(
            "{first}; {second}; and {} more differences",
            rest.len()
        )),
    }
}

fn compare(path: &str, a: &Value, b: &Value, out: &mut Vec<String>) {
    let at = if path.is_empty() { "/" } else { path };
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            for (key, v) in x {
                let inner = format!("{path}/{}", escape(key));
                match y.get(key) {
                    Some(w) => compare(&inner, v, w, out),
                    None if v.is_null() => out.push(format!("{inner}: null became absent")),
                    None => out.push(format!("{inner}: dropped")),
                }
            }
            for (key, w) in y {
                if !x.contains_key(key) {
                    let inner = format!("{path}/{}", escape(key));
                    if w.is_null() {
                        out.push(format!("{inner}: absent became null"));
                    } else {
                        out.push(format!("{inner}: added as {}", shown(w)));
                    }
                }
            }
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
            for (i, (v, w)) in x.iter().zip(y).enumerate() {
                compare(&format!("{path}/{i}"), v, w, out);
            }
        }
        _ if a == b || same_value(a, b) => {}
        _ => out.push(format!("{at}: {} became {}", shown(a), shown(b))),
    }
}

/// Scalars equal by the value they denote.
fn same_value(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            match (x.as_i64(), y.as_i64(), x.as_u64(), y.as_u64()) {
                (Some(x), Some(y), _, _) => x == y,
                (_, _, Some(x), Some(y)) => x == y,
                _ => x.as_f64() == y.as_f64(),
            }
        }
        (Value::String(x), Value::String(y)) => same_text_value(x, y),
        (Value::Number(n), Value::String(s)) | (Value::String(s), Value::Number(n)) => {
            same_decimal(&n.to_string(), s)
        }
        _ => false,
    }
}

fn same_text_value(x: &str, y: &str) -> bool {
    let instant = |s: &str| chrono::DateTime::<chrono::FixedOffset>::from_str(s).ok();
    if let (Some(a), Some(b)) = (instant(x), instant(y)) {
        return a == b;
    }
    if let (Ok(a), Ok(b)) = (uuid::Uuid::parse_str(x), uuid::Uuid::parse_str(y)) {
        return a == b;
    }
    same_decimal(x, y)
}

fn same_decimal(x: &str, y: &str) -> bool {
    let decimal = |s: &str| {
        rust_decimal::Decimal::from_str(s)
            .or_else(|_| rust_decimal::Decimal::from_scientific(s))
            .ok()
    };
    matches!((decimal(x), decimal(y)), (Some(a), Some(b)) if a == b)
}

/// A value for a message: its JSON text, shortened.
fn shown(v: &Value) -> String {
    let text = v.to_string();
    match text.char_indices().nth(60) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text,
    }
}

fn escape(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

#[cfg(test)]
mod tests {
    use super::same;
    use serde_json::json;

    #[test]
    fn equal_values_in_any_member_order_are_the_same() {
        assert_eq!(
            same(
                &json!({"a": 1, "b": [true, "x"]}),
                &json!({"b": [true, "x"], "a": 1})
            ),
            Ok(())
        );
    }

    #[test]
    fn numbers_compare_by_value() {
        assert_eq!(same(&json!(1), &json!(1.0)), Ok(()));
        assert_eq!(same(&json!(0.1), &json!(0.1)), Ok(()));
        assert_eq!(same(&json!(u64::MAX), &json!(u64::MAX)), Ok(()));
        assert_eq!(
            same(&json!(1.5), &json!(2)),
            Err("/: 1.5 became 2".to_owned())
        );
    }

    #[test]
    fn decimals_date_times_and_uuids_compare_by_value() {
        assert_eq!(same(&json!("1.50"), &json!("1.5")), Ok(()));
        assert_eq!(same(&json!(1.5), &json!("1.50")), Ok(()));
        assert_eq!(
            same(
                &json!("2024-05-01T12:00:00+02:00"),
                &json!("2024-05-01T10:00:00Z")
            ),
            Ok(())
        );
        assert_eq!(
            same(
                &json!("6F9619FF-8B86-D011-B42D-00C04FC964FF"),
                &json!("6f9619ff-8b86-d011-b42d-00c04fc964ff")
            ),
            Ok(())
        );
        assert!(
            same(
                &json!("2024-05-01T12:00:00Z"),
                &json!("2024-05-01T10:00:00Z")
            )
            .is_err()
        );
        assert!(same(&json!("1.5"), &json!("1.6")).is_err());
        assert!(same(&json!("Abc"), &json!("abc")).is_err());
    }

    #[test]
    fn absent_and_null_differ() {
        assert_eq!(
            same(&json!({"a": null}), &json!({})),
            Err("/a: null became absent".to_owned())
        );
        assert_eq!(
            same(&json!({}), &json!({"a": null})),
            Err("/a: absent became null".to_owned())
        );
        assert_eq!(
            same(&json!({"a/b": 1}), &json!({})),
            Err("/a~1b: dropped".to_owned())
        );
        assert_eq!(
            same(&json!([1]), &json!([1, 2])),
            Err("/: [1] became [1,2]".to_owned())
        );
    }

    #[test]
    fn several_differences_are_counted() {
        assert_eq!(
            same(&json!({"a": 1, "b": 2, "c": 3, "d": 4}), &json!({})),
            Err("/a: dropped; /b: dropped; and 2 more differences".to_owned())
        );
    }
}
