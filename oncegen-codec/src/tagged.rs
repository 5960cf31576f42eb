//! Decoding a tagged union (`oneOf` with a `discriminator`): the member the tag property names,
//! or the union's `Unknown` variant, holding the value as received, for a tag this SDK does not
//! know (or a value without one).
//!
//! The member decodes the value's JSON text as it was received (a `RawValue`), not the
//! `serde_json::Value` the tag is read from: a `Value` keeps only the last of two members with
//! the same name, so a member would accept a duplicated field (or tag) that it rejects on its
//! own (found by `oncegen-codec/tests/differential.rs` against serde's internal tagging).

use serde::de::Error as _;
use serde::{Deserialize, Deserializer};
use serde_json::Value;
use serde_json::value::RawValue;

/// One member of a tagged union: decodes the value's JSON text into the union (wrapped in its
/// variant), an error located inside the member.
pub type TaggedMember<T> = fn(&str) -> Result<T, crate::located::Located>;

/// `Deserialize::deserialize` of a tagged union, as [`tagged_union!`](crate::tagged_union)
/// implements it: the member of `members` at the index of the tag's value in `values` decodes
/// the value's JSON text as received; any other value becomes `unknown(value)`.
pub fn deserialize<'de, D: Deserializer<'de>, T>(
    deserializer: D,
    tag: &str,
    values: &[&str],
    members: &[TaggedMember<T>],
    unknown: fn(Value) -> T,
) -> Result<T, D::Error> {
    let json = Box::<RawValue>::deserialize(deserializer)?;
    let value: Value = serde_json::from_str(json.get()).map_err(D::Error::custom)?;
    match select(&value, tag, values) {
        Some(i) => members[i](json.get()).map_err(|e| D::Error::custom(e.to_string())),
        None => Ok(unknown(value)),
    }
}

/// Which of `values` the string property `tag` of `value` holds (its index), or `None` when it
/// holds none of them, is no string, or is missing, or `value` is no object: the value then
/// goes to the union's `Unknown` variant.
pub fn select(value: &Value, tag: &str, values: &[&str]) -> Option<usize> {
    let tag = value.get(tag)?.as_str()?;
    values.iter().position(|v| *v == tag)
}

/// Implements `Deserialize` for a tagged union: the variant listed with the value of the tag
/// property (`by "kind"`), decoding the whole value (tag included) into its member; any other
/// value, an unknown tag, no tag, or no object, is kept in the variant `Unknown`
/// (a `serde_json::Value`). A variant may hold `Box<Member>`.
///
/// ```
/// #[derive(Debug, PartialEq, serde::Deserialize)]
/// pub struct Circle {
///     pub radius: f64,
/// }
/// #[derive(Debug, PartialEq)]
/// pub enum Shape {
///     Circle(Circle),
///     Nothing(Box<serde_json::Value>),
///     Unknown(serde_json::Value),
/// }
/// oncegen_codec::tagged_union!(Shape by "kind" { Circle = "circle", Nothing = "none" });
///
/// let shape: Shape = serde_json::from_str(r#"{"kind":"circle","radius":2}"#).unwrap();
/// assert_eq!(shape, Shape::Circle(Circle { radius: 2.0 }));
/// let other: Shape = serde_json::from_str(r#"{"kind":"square"}"#).unwrap();
/// assert_eq!(other, Shape::Unknown(serde_json::json!({"kind": "square"})));
/// let wrong = serde_json::from_str::<Shape>(r#"{"kind":"circle"}"#).unwrap_err();
/// assert!(wrong.to_string().contains("missing field `radius`"));
/// ```
#[macro_export]
macro_rules! tagged_union {
    ($name:ident by $tag:literal { $($variant:ident = $value:literal),+ $(,)? }) => {
        impl<'de> $crate::__private::serde::Deserialize<'de> for $name {
            fn deserialize<__D: $crate::__private::serde::Deserializer<'de>>(
                deserializer: __D,
            ) -> ::std::result::Result<Self, __D::Error> {
                let members: &[$crate::tagged::TaggedMember<Self>] =
                    &[$(|v| $crate::located::from_str(v).map(Self::$variant)),+];
                $crate::tagged::deserialize(deserializer, $tag, &[$($value),+], members, Self::Unknown)
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use serde::Deserialize;
    use serde_json::json;

    use super::select;

    #[derive(Debug, PartialEq, Deserialize)]
    struct Disk {
        kind: String,
        size: u32,
    }

    #[derive(Debug, PartialEq, Deserialize)]
    struct Image {
        url: String,
    }

    #[derive(Debug, PartialEq)]
    enum Source {
        Disk(Disk),
        Image(Box<Image>),
        Unknown(serde_json::Value),
    }
    crate::tagged_union!(Source by "type" { Disk = "disk", Image = "image" });

    fn decode(value: serde_json::Value) -> Result<Source, String> {
        serde_json::from_value(value).map_err(|e| e.to_string())
    }

    #[test]
    fn the_tag_selects_the_member_which_sees_the_tag_too() {
        assert_eq!(
            decode(json!({"type": "disk", "size": 3, "kind": "ssd"})).unwrap(),
            Source::Disk(Disk {
                kind: "ssd".into(),
                size: 3
            })
        );
        assert_eq!(
            decode(json!({"url": "u", "type": "image"})).unwrap(),
            Source::Image(Box::new(Image { url: "u".into() }))
        );
    }

    #[test]
    fn unknown_missing_or_mistyped_tags_and_non_objects_are_kept_as_received() {
        for value in [
            json!({"type": "tape", "size": 3}),
            json!({"size": 3}),
            json!({"type": 1}),
            json!({"type": null}),
            json!([{"type": "disk"}]),
            json!("disk"),
            json!(null),
        ] {
            assert_eq!(decode(value.clone()).unwrap(), Source::Unknown(value));
        }
    }

    #[test]
    fn a_known_tag_with_a_bad_member_is_an_error() {
        let err = decode(json!({"type": "disk", "size": "big"})).unwrap_err();
        assert!(
            err.starts_with("at `size`: invalid type: string \"big\""),
            "{err}"
        );
        assert!(
            decode(json!({"type": "image"}))
                .unwrap_err()
                .contains("missing field `url`")
        );
    }

    #[test]
    fn a_duplicated_field_is_refused_as_the_member_refuses_it() {
        let text = r#"{"type":"disk","size":1,"size":2,"kind":"ssd"}"#;
        let err = serde_json::from_str::<Source>(text)
            .unwrap_err()
            .to_string();
        assert!(err.contains("duplicate field `size`"), "{err}");
    }

    #[test]
    fn select_finds_the_index_of_the_tag_value() {
        let values = ["a", "b"];
        assert_eq!(select(&json!({"t": "b"}), "t", &values), Some(1));
        assert_eq!(select(&json!({"t": "c"}), "t", &values), None);
        assert_eq!(select(&json!({"u": "a"}), "t", &values), None);
        assert_eq!(select(&json!(["a"]), "t", &values), None);
    }
}
