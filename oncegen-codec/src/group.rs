//! `exclusive_group!`: an `x-at-most-one-of` group of a struct's members, held as one
//! optional enum field, one variant per member, read and written by
//! [`json_object!`](crate::json_object) (`one_of field`).
//!
//! A member that is present is decoded, and an error in it is the struct's error, with its
//! path: serde's `#[serde(flatten, default)] Option<Enum>` turned a failing member into
//! `None`, so a wrong value vanished from the request (or the response). Two present members
//! are an error; `null` counts as absent; no member leaves the field `None`.

use serde::de::{Error as _, MapAccess};
use serde::ser::SerializeMap;

/// Implements the group trait of an enum whose variants each hold one member of an
/// `x-at-most-one-of` group, `Variant = "wire name"`; the struct names its field holding
/// `Option<Enum>` as `one_of field` in [`json_object!`](crate::json_object).
///
/// ```
/// #[derive(Debug, PartialEq)]
/// pub enum Source {
///     Template(String),
///     Records(Vec<u32>),
/// }
/// oncegen_codec::exclusive_group!(Source { Template = "template", Records = "records" });
///
/// #[derive(Debug, PartialEq)]
/// pub struct Zone {
///     pub name: String,
///     pub source: Option<Source>,
/// }
/// oncegen_codec::json_object!(Zone one_of source { name });
///
/// let zone: Zone = serde_json::from_str(r#"{"name":"a","records":[1]}"#).unwrap();
/// assert_eq!(zone.source, Some(Source::Records(vec![1])));
/// assert_eq!(serde_json::to_string(&zone).unwrap(), r#"{"name":"a","records":[1]}"#);
/// assert_eq!(serde_json::from_str::<Zone>(r#"{"name":"a"}"#).unwrap().source, None);
/// let both = r#"{"name":"a","records":[1],"template":"t"}"#;
/// assert!(serde_json::from_str::<Zone>(both).is_err());
/// assert!(serde_json::from_str::<Zone>(r#"{"name":"a","records":["x"]}"#).is_err());
/// ```
#[macro_export]
macro_rules! exclusive_group {
    ($name:ident { $($variant:ident = $wire:literal),+ $(,)? }) => {
        impl $crate::__private::json_object::Group for $name {
            const MEMBERS: &'static [&'static str] = &[$($wire),+];

            fn read<'de, __A: $crate::__private::serde::de::MapAccess<'de>>(
                wire: &str,
                object: &mut __A,
            ) -> ::std::result::Result<::std::option::Option<Self>, __A::Error> {
                $(if wire == $wire {
                    return object
                        .next_value::<::std::option::Option<_>>()
                        .map(|value| value.map(Self::$variant));
                })+
                ::std::result::Result::Ok(::std::option::Option::None)
            }

            fn write<__M: $crate::__private::serde::ser::SerializeMap>(
                &self,
                object: &mut __M,
            ) -> ::std::result::Result<(), __M::Error> {
                match self {
                    $(Self::$variant(value) => object.serialize_entry($wire, value),)+
                }
            }
        }
    };
}

/// An enum holding the one present member of an `x-at-most-one-of` group
/// ([`exclusive_group!`](crate::exclusive_group)).
pub trait Group: Sized {
    /// The members' wire names.
    const MEMBERS: &'static [&'static str];

    /// Reads the value of the member `wire` (`None` for `null`).
    fn read<'de, A: MapAccess<'de>>(wire: &str, object: &mut A) -> Result<Option<Self>, A::Error>;

    /// Writes the present member.
    fn write<M: SerializeMap>(&self, object: &mut M) -> Result<(), M::Error>;
}

/// A group being decoded: its present member and that member's name.
pub struct GroupField<G> {
    value: Option<(&'static str, G)>,
}

impl<G> Default for GroupField<G> {
    fn default() -> Self {
        GroupField { value: None }
    }
}

impl<G> GroupField<G> {
    /// The present member, if any.
    pub fn into_value(self) -> Option<G> {
        self.value.map(|(_, value)| value)
    }
}

/// A group of the struct while it is decoded from the map access `A` (through `dyn`, as
/// [`Slot`](crate::__private::json_object::Slot)).
pub trait GroupSlot<'de, A: MapAccess<'de>> {
    /// The members' wire names.
    fn members(&self) -> &'static [&'static str];

    /// Reads the value of the member `wire`; a second present member is an error.
    fn take(&mut self, wire: &str, object: &mut A) -> Result<(), A::Error>;
}

impl<'de, A: MapAccess<'de>, G: Group> GroupSlot<'de, A> for GroupField<G> {
    fn members(&self) -> &'static [&'static str] {
        G::MEMBERS
    }

    fn take(&mut self, wire: &str, object: &mut A) -> Result<(), A::Error> {
        let Some(value) = G::read(wire, object)? else {
            return Ok(());
        };
        let wire = G::MEMBERS
            .iter()
            .find(|m| **m == wire)
            .copied()
            .unwrap_or("");
        match self.value {
            Some((first, _)) if first == wire => Err(A::Error::duplicate_field(wire)),
            Some((first, _)) => Err(A::Error::custom(format!(
                "`{first}` and `{wire}` are both given, and at most one of {} may be",
                G::MEMBERS
                    .iter()
                    .map(|m| format!("`{m}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ))),
            None => {
                self.value = Some((wire, value));
                Ok(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    #[derive(Debug, PartialEq)]
    struct Set {
        ttl: u32,
    }
    crate::json_object!(Set { ttl });

    #[derive(Debug, PartialEq)]
    enum Source {
        Text(String),
        Records(Vec<Set>),
    }
    crate::exclusive_group!(Source { Text = "text", Records = "records" });

    #[derive(Debug, PartialEq)]
    struct Zone {
        name: String,
        source: Option<Source>,
        rest: BTreeMap<String, u8>,
    }
    crate::json_object!(Zone one_of source { name, ..rest });

    /// Decoded as a response (unknown members skipped) and as input (refused): `Ok` when both
    /// agree, else the error with its path, which must be the same in both.
    fn decode(text: &str) -> Result<Zone, String> {
        let located = |refusing: bool| {
            let decode = || crate::located::from_str::<Zone>(text);
            let result = if refusing {
                crate::refusing_unknown(decode)
            } else {
                decode()
            };
            result.map_err(|e| e.to_string())
        };
        let (response, request) = (located(false), located(true));
        assert_eq!(response, request, "{text}");
        response
    }

    #[test]
    fn a_present_member_that_fails_is_an_error_at_its_path() {
        let err = decode(r#"{"name":"a","records":[{"ttl":"300"}]}"#).unwrap_err();
        assert!(
            err.starts_with("at `records[0].ttl`: invalid type: string"),
            "{err}"
        );
        let err = decode(r#"{"name":"a","text":7}"#).unwrap_err();
        assert!(err.starts_with("at `text`: invalid type: integer"), "{err}");
    }

    #[test]
    fn two_members_are_refused_and_null_or_absent_is_none() {
        let err = decode(r#"{"text":"x","name":"a","records":[]}"#).unwrap_err();
        assert_eq!(
            err,
            "`text` and `records` are both given, and at most one of `text`, \
             `records` may be"
        );
        let err = decode(r#"{"name":"a","records":[],"records":[]}"#).unwrap_err();
        assert!(err.contains("duplicate field `records`"), "{err}");
        let zone = decode(r#"{"name":"a","text":null,"records":[{"ttl":5}],"n":1}"#);
        let zone = zone.unwrap();
        assert_eq!(zone.source, Some(Source::Records(vec![Set { ttl: 5 }])));
        assert_eq!(zone.rest["n"], 1);
        assert_eq!(decode(r#"{"name":"a"}"#).unwrap().source, None);
    }

    #[test]
    fn the_present_member_is_written_after_the_fields() {
        let zone = Zone {
            name: "a".into(),
            source: Some(Source::Text("f".into())),
            rest: BTreeMap::from([("n".into(), 1)]),
        };
        let text = serde_json::to_string(&zone).unwrap();
        assert_eq!(text, r#"{"name":"a","text":"f","n":1}"#);
        assert_eq!(decode(&text).unwrap(), zone);
    }
}
