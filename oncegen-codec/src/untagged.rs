//! Decoding an untagged union (`oneOf`/`anyOf` without a discriminator): the member the value
//! fits, not merely the first one that decodes.
//!
//! serde's `#[serde(untagged)]` takes the first member that decodes. Members are usually structs
//! that ignore unknown properties, or string enums that keep unknown values, so an earlier
//! member can accept a value that a later one describes fully, and silently drop what only the
//! later one holds. [`decode_untagged`] prefers the member whose re-encoding still holds the
//! most properties of the value (all of them, ideally), the earlier member on a tie.
//!
//! Each member decodes the value's JSON text as it was received (a `RawValue`), not a
//! `serde_json::Value` made from it: a `Value` keeps only the last of two members with the same
//! name, so a struct member would accept a duplicated field that it rejects everywhere else
//! (found by `oncegen-codec/tests/differential.rs` against serde's derive).

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;
use serde_json::value::RawValue;

use crate::located::Located;

/// One member of an untagged union: decodes the value's JSON text into the union (wrapped in
/// its variant), an error located inside the member.
pub type UntaggedMember<T> = fn(&str) -> Result<T, Located>;

/// `Deserialize::deserialize` of an untagged union, as [`untagged_union!`](crate::untagged_union)
/// implements it: reads the value's JSON text as received, then [`decode_untagged`].
pub fn deserialize<'de, D: Deserializer<'de>, T: Serialize>(
    deserializer: D,
    members: &[(&str, UntaggedMember<T>)],
    union: &str,
) -> Result<T, D::Error> {
    let json = Box::<RawValue>::deserialize(deserializer)?;
    decode_untagged(json.get(), members, union).map_err(D::Error::custom)
}

/// Decodes the JSON text `json` into the member of `members` (each named) that loses the
/// fewest of its properties when encoded again (the first of them on a tie, at once when one
/// loses none); `union` names the type in the error when no member decodes, which is the
/// error of the member that came furthest into the value, at its path.
pub fn decode_untagged<T: Serialize>(
    json: &str,
    members: &[(&str, UntaggedMember<T>)],
    union: &str,
) -> Result<T, String> {
    let mut best: Option<(usize, T)> = None;
    let mut value: Option<Value> = None;
    let mut misses = Vec::new();
    for (name, decode) in members {
        let decoded = match decode(json) {
            Ok(decoded) => decoded,
            Err(miss) => {
                misses.push((*name, miss));
                continue;
            }
        };
        let value = match &mut value {
            Some(value) => value,
            None => value.insert(serde_json::from_str(json).map_err(|e| e.to_string())?),
        };
        let lost = serde_json::to_value(&decoded).map_or(usize::MAX, |e| lost(value, &e));
        if lost == 0 {
            return Ok(decoded);
        }
        if best.as_ref().is_none_or(|(fewest, _)| lost < *fewest) {
            best = Some((lost, decoded));
        }
    }
    best.map(|(_, decoded)| decoded)
        .ok_or_else(|| no_member(union, &misses))
}

/// The error when no member decodes: the error of the member that read furthest into the
/// value before it failed (the first of them on a tie), at its path; when that is the value
/// itself, each member's error.
fn no_member(union: &str, misses: &[(&str, Located)]) -> String {
    let closest = misses
        .iter()
        .fold(None, |best: Option<&(&str, Located)>, miss| match best {
            Some(b) if b.1.reached >= miss.1.reached => best,
            _ => Some(miss),
        });
    match closest {
        Some((name, miss)) if !miss.path.is_empty() => format!(
            "at `{}`: {} (as `{name}`, the member of `{union}` that came closest)",
            miss.path, miss.message
        ),
        _ => {
            let each: Vec<String> = misses
                .iter()
                .map(|(name, miss)| format!("as `{name}`: {}", miss.message))
                .collect();
            format!(
                "the value matches no member of `{union}` ({})",
                each.join("; ")
            )
        }
    }
}

/// Implements `Deserialize` for an untagged union through [`deserialize`]: each variant
/// holds one member, in the order listed; `boxed` marks a variant holding `Box<Member>`.
///
/// ```
/// #[derive(Debug, PartialEq, serde::Serialize)]
/// #[serde(untagged)]
/// pub enum Port {
///     Number(u16),
///     Name(Box<String>),
/// }
/// oncegen_codec::untagged_union!(Port { Number, Name boxed });
///
/// assert_eq!(serde_json::from_str::<Port>("443").unwrap(), Port::Number(443));
/// assert_eq!(serde_json::from_str::<Port>("\"https\"").unwrap(), Port::Name(Box::new("https".into())));
/// assert!(serde_json::from_str::<Port>("true").unwrap_err().to_string().contains("`Port`"));
/// ```
#[macro_export]
macro_rules! untagged_union {
    ($name:ident { $($variant:ident $($boxed:ident)?),+ $(,)? }) => {
        impl<'de> $crate::__private::serde::Deserialize<'de> for $name {
            fn deserialize<__D: $crate::__private::serde::Deserializer<'de>>(
                deserializer: __D,
            ) -> ::std::result::Result<Self, __D::Error> {
                let members: &[(&str, $crate::untagged::UntaggedMember<Self>)] = &[$((
                    stringify!($variant),
                    $crate::untagged_union!(@member $variant $($boxed)?),
                )),+];
                $crate::untagged::deserialize(deserializer, members, stringify!($name))
            }
        }
    };
    (@member $variant:ident) => {
        |v| $crate::located::from_str(v).map(Self::$variant)
    };
    (@member $variant:ident boxed) => {
        |v| {
            $crate::located::from_str(v).map(|v| Self::$variant(::std::boxed::Box::new(v)))
        }
    };
}

/// How many object properties of `original`, at any depth, `encoded` no longer has (values
/// themselves may be spelled differently, e.g. `1.0` as `1` or a date-time in another offset).
fn lost(original: &Value, encoded: &Value) -> usize {
    match (original, encoded) {
        (Value::Object(original), Value::Object(encoded)) => original
            .iter()
            .map(|(key, value)| encoded.get(key).map_or(1 + size(value), |e| lost(value, e)))
            .sum(),
        (Value::Array(original), Value::Array(encoded)) => {
            let missing: usize = original
                .iter()
                .skip(encoded.len())
                .map(|o| 1 + size(o))
                .sum();
            missing
                + original
                    .iter()
                    .zip(encoded)
                    .map(|(o, e)| lost(o, e))
                    .sum::<usize>()
        }
        (Value::Object(_) | Value::Array(_), _) => 1 + size(original),
        _ => 0,
    }
}

/// The number of object properties and array items inside `value`.
fn size(value: &Value) -> usize {
    match value {
        Value::Object(map) => map.values().map(|v| 1 + size(v)).sum(),
        Value::Array(items) => items.iter().map(|v| 1 + size(v)).sum(),
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;
    use serde_json::json;

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct Token {
        scheme: String,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct OAuth {
        scheme: String,
        settings: Value,
    }

    #[derive(Debug, PartialEq, Serialize)]
    #[serde(untagged)]
    enum Connection {
        Token(Token),
        OAuth(OAuth),
    }

    const MEMBERS: &[(&str, UntaggedMember<Connection>)] = &[
        ("Token", |v| {
            crate::located::from_str(v).map(Connection::Token)
        }),
        ("OAuth", |v| {
            crate::located::from_str(v).map(Connection::OAuth)
        }),
    ];

    fn decode(value: Value) -> Result<Connection, String> {
        decode_untagged(&value.to_string(), MEMBERS, "Connection")
    }

    #[test]
    fn the_member_that_keeps_every_property_wins_over_the_first_that_decodes() {
        let value = json!({ "scheme": "OAUTH2", "settings": { "admin": true } });
        let decoded = decode(value).unwrap();
        assert!(matches!(decoded, Connection::OAuth(_)), "{decoded:?}");
    }

    #[test]
    fn the_first_member_wins_when_it_keeps_everything() {
        let decoded = decode(json!({ "scheme": "TOKEN" })).unwrap();
        assert_eq!(
            decoded,
            Connection::Token(Token {
                scheme: "TOKEN".into()
            })
        );
    }

    #[test]
    fn a_lossy_match_is_still_better_than_none() {
        let value = json!({ "scheme": "TOKEN", "extra": [1, 2] });
        let decoded = decode(value).unwrap();
        assert_eq!(
            decoded,
            Connection::Token(Token {
                scheme: "TOKEN".into()
            })
        );
    }

    #[test]
    fn a_duplicated_field_is_an_error_as_in_a_struct_of_its_own() {
        let text = r#"{"scheme": "TOKEN", "scheme": "OAUTH2"}"#;
        assert!(serde_json::from_str::<Token>(text).is_err());
        let err = decode_untagged(text, MEMBERS, "Connection").unwrap_err();
        assert!(err.contains("duplicate field `scheme`"), "{err}");
    }

    #[test]
    fn no_member_is_an_error_naming_the_union() {
        let err = decode(json!(42)).unwrap_err();
        assert!(
            err.starts_with("the value matches no member of `Connection` (as `Token`: "),
            "{err}"
        );
        assert!(
            err.contains("; as `OAuth`: invalid type: integer `42`"),
            "{err}"
        );
    }

    #[derive(Debug, PartialEq)]
    struct Key {
        scheme: String,
    }
    crate::json_object!(Key { scheme });

    #[derive(Debug, PartialEq)]
    struct Login {
        scheme: String,
        settings: u32,
    }
    crate::json_object!(Login { scheme, settings });

    #[derive(Debug, PartialEq, Serialize)]
    #[serde(untagged)]
    enum Auth {
        Key(Key),
        Login(Box<Login>),
    }
    crate::untagged_union!(Auth { Key, Login boxed });

    #[test]
    fn the_error_of_the_member_that_came_furthest_names_its_path() {
        let decode = |value: Value| {
            crate::refusing_unknown(|| serde_json::from_value::<Auth>(value))
                .map_err(|e| e.to_string())
        };
        let mistyped = decode(json!({"scheme": "a", "settings": "x"})).unwrap_err();
        assert_eq!(
            mistyped,
            "at `settings`: invalid type: string \"x\", expected u32 \
             (as `Login`, the member of `Auth` that came closest)"
        );
        let misspelt = decode(json!({"scheme": "a", "settings": 1, "setings": 2})).unwrap_err();
        assert!(
            misspelt.starts_with("at `setings`: unknown member"),
            "{misspelt}"
        );
        assert!(misspelt.contains("did you mean `settings`?"), "{misspelt}");
        let lenient = serde_json::from_value::<Auth>(json!({"scheme": "a", "x": 1}));
        assert!(
            lenient.is_ok(),
            "unknown members are skipped unless refused"
        );
    }

    #[test]
    fn the_member_that_loses_least_wins_when_every_member_loses_something() {
        let value = json!({ "scheme": "OAUTH2", "settings": 1, "extra": true });
        let decoded = decode(value).unwrap();
        assert!(matches!(decoded, Connection::OAuth(_)), "{decoded:?}");
    }

    #[test]
    fn spelling_differences_of_scalars_are_not_losses() {
        assert_eq!(
            lost(
                &json!({ "a": 1.0, "b": [null] }),
                &json!({ "a": 1, "b": [0] })
            ),
            0
        );
        assert_eq!(
            lost(&json!({ "a": { "b": 1, "c": [1] } }), &json!({ "a": {} })),
            3
        );
        assert_eq!(lost(&json!([1, 2]), &json!([1])), 1);
    }
}
