//! `json_object!`: `Serialize` and `Deserialize` of a generated struct as a JSON object.
//!
//! Generated code writes the struct itself (fields and docs read as plain Rust) and one
//! `json_object!` call naming each field's wire name. Written here rather than derived by
//! `serde_derive` because the derive costs more to compile than the rest of a generated crate:
//! it also emits a sequence visitor and a field-identifier enum per struct, which a JSON API
//! never uses. On the 193-operation nexus crate the derive took 53 % of a clean `cargo check`;
//! this macro's impls take about half of that (`BENCHMARKS.md`, issue #13). Behaviour is the
//! derive's with `#[serde(default, skip_serializing_if = ...)]` on optional fields and a
//! `#[serde(flatten)]` map for `additionalProperties`: unknown fields are ignored (or kept in
//! the map), a duplicate field and a missing required field are errors, a missing required
//! `Option` field reads as `None`, and fields serialize in declaration order.

use std::borrow::Cow;
use std::marker::PhantomData;

use serde::de::{Deserialize, Deserializer, Error, MapAccess, Visitor};

use crate::Nullable;

/// Implements `Serialize` and `Deserialize` for a struct with named fields, as a JSON object.
///
/// Each field is `rust_name`, or `rust_name = "wire name"` when the two differ; `optional` after
/// it marks a field that is left out when empty (`None`, or [`Nullable::Absent`]) and reads as
/// empty when missing. A final `..field` names a map (`BTreeMap<String, T>` or
/// `serde_json::Map`) that keeps the members no field names.
///
/// ```
/// use std::collections::BTreeMap;
///
/// #[derive(Debug, PartialEq)]
/// pub struct Zone {
///     pub name: String,
///     pub ttl: Option<u32>,
///     pub comment: sdk_runtime::Nullable<String>,
///     pub extra: BTreeMap<String, serde_json::Value>,
/// }
/// sdk_runtime::json_object!(Zone {
///     name,
///     ttl optional,
///     comment = "note" optional,
///     ..extra
/// });
///
/// let zone: Zone = serde_json::from_str(r#"{"name":"a.test","note":null,"x":1}"#).unwrap();
/// assert_eq!(zone.ttl, None);
/// assert!(zone.comment.is_null());
/// assert_eq!(zone.extra["x"], 1);
/// assert_eq!(
///     serde_json::to_string(&zone).unwrap(),
///     r#"{"name":"a.test","note":null,"x":1}"#
/// );
/// let missing = serde_json::from_str::<Zone>("{}").unwrap_err();
/// assert!(missing.to_string().contains("missing field `name`"));
/// ```
#[macro_export]
macro_rules! json_object {
    ($name:ident { $($field:ident $(= $wire:literal)? $($optional:ident)?),* $(, ..$rest:ident)? $(,)? }) => {
        #[allow(deprecated)]
        impl $crate::__private::serde::Serialize for $name {
            fn serialize<__S: $crate::__private::serde::Serializer>(
                &self,
                serializer: __S,
            ) -> ::std::result::Result<__S::Ok, __S::Error> {
                use $crate::__private::serde::ser::SerializeMap as _;
                #[allow(unused_mut)]
                let mut object = serializer.serialize_map(::std::option::Option::None)?;
                $($crate::json_object!(
                    @serialize object, self.$field, $crate::json_object!(@wire $field $($wire)?) $(, $optional)?
                );)*
                $(for (key, value) in &self.$rest {
                    object.serialize_entry(key, value)?;
                })?
                object.end()
            }
        }

        #[allow(deprecated)]
        impl<'de> $crate::__private::serde::Deserialize<'de> for $name {
            fn deserialize<__D: $crate::__private::serde::Deserializer<'de>>(
                deserializer: __D,
            ) -> ::std::result::Result<Self, __D::Error> {
                // Names with `__`: a generated type never has one, so none is shadowed.
                struct __Visitor;
                impl<'de> $crate::__private::serde::de::Visitor<'de> for __Visitor {
                    type Value = $name;
                    fn expecting(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                        f.write_str(concat!("struct ", stringify!($name)))
                    }
                    fn visit_map<__A: $crate::__private::serde::de::MapAccess<'de>>(
                        self,
                        mut object: __A,
                    ) -> ::std::result::Result<$name, __A::Error> {
                        $(let mut $field = ::std::option::Option::None;)*
                        $(let mut $rest = ::std::default::Default::default();)?
                        while let ::std::option::Option::Some(key) =
                            object.next_key::<$crate::__private::json_object::Key<'de>>()?
                        {
                            match key.as_str() {
                                $($crate::json_object!(@wire $field $($wire)?) => {
                                    $crate::__private::json_object::set(
                                        &mut $field,
                                        object.next_value()?,
                                        $crate::json_object!(@wire $field $($wire)?),
                                    )?
                                })*
                                _ => $crate::json_object!(@unknown object, key $(, $rest)?),
                            }
                        }
                        ::std::result::Result::Ok($name {
                            $($field: $crate::json_object!(
                                @finish $field, $crate::json_object!(@wire $field $($wire)?) $(, $optional)?
                            ),)*
                            $($rest,)?
                        })
                    }
                }
                deserializer.deserialize_map(__Visitor)
            }
        }
    };
    (@wire $field:ident) => {
        stringify!($field)
    };
    (@wire $field:ident $wire:literal) => {
        $wire
    };
    (@serialize $object:ident, $value:expr, $wire:expr) => {
        $object.serialize_entry($wire, &$value)?
    };
    (@serialize $object:ident, $value:expr, $wire:expr, optional) => {
        if !$crate::__private::json_object::Optional::is_empty(&$value) {
            $object.serialize_entry($wire, &$value)?;
        }
    };
    (@finish $slot:ident, $wire:expr) => {
        match $slot {
            ::std::option::Option::Some(value) => value,
            ::std::option::Option::None => $crate::__private::json_object::missing($wire)?,
        }
    };
    (@finish $slot:ident, $wire:expr, optional) => {
        $slot.unwrap_or_default()
    };
    (@unknown $object:ident, $key:ident) => {{
        $object.next_value::<$crate::__private::serde::de::IgnoredAny>()?;
    }};
    (@unknown $object:ident, $key:ident, $rest:ident) => {{
        $crate::__private::json_object::keep(&mut $rest, $key, &mut $object)?;
    }};
}

/// A member name, borrowed from the input when it can be.
pub struct Key<'de>(Cow<'de, str>);

impl Key<'_> {
    /// The name.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The name, owned.
    pub fn into_string(self) -> String {
        self.0.into_owned()
    }
}

impl<'de> Deserialize<'de> for Key<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct KeyVisitor;
        impl<'de> Visitor<'de> for KeyVisitor {
            type Value = Key<'de>;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a field name")
            }
            fn visit_borrowed_str<E: Error>(self, v: &'de str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Borrowed(v)))
            }
            fn visit_str<E: Error>(self, v: &str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(v.to_owned())))
            }
            fn visit_string<E: Error>(self, v: String) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(v)))
            }
        }
        deserializer.deserialize_str(KeyVisitor)
    }
}

/// Stores a field's value; a second value for the same field is an error.
pub fn set<T, E: Error>(slot: &mut Option<T>, value: T, wire: &'static str) -> Result<(), E> {
    if slot.is_some() {
        return Err(E::duplicate_field(wire));
    }
    *slot = Some(value);
    Ok(())
}

/// Keeps a member no field names in the catch-all map.
pub fn keep<'de, M, V, A>(rest: &mut M, key: Key<'de>, object: &mut A) -> Result<(), A::Error>
where
    M: Extend<(String, V)>,
    V: Deserialize<'de>,
    A: MapAccess<'de>,
{
    let value = object.next_value()?;
    rest.extend(std::iter::once((key.into_string(), value)));
    Ok(())
}

/// The value of a required field the object lacks: `None` for an `Option`, else the error
/// "missing field".
pub fn missing<'de, T: Deserialize<'de>, E: Error>(wire: &'static str) -> Result<T, E> {
    T::deserialize(Missing(wire, PhantomData))
}

/// A deserializer for a missing field, as serde's derive has: an `Option` reads `None`,
/// anything else fails with "missing field".
struct Missing<E>(&'static str, PhantomData<E>);

impl<'de, E: Error> Deserializer<'de> for Missing<E> {
    type Error = E;

    fn deserialize_any<V: Visitor<'de>>(self, _visitor: V) -> Result<V::Value, E> {
        Err(E::missing_field(self.0))
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, E> {
        visitor.visit_none()
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        unit unit_struct newtype_struct seq tuple tuple_struct map struct enum identifier
        ignored_any
    }
}

/// The types of optional fields: left out of the object when empty.
pub trait Optional {
    /// Whether the field is left out (`None`, `Absent`).
    fn is_empty(&self) -> bool;
}

impl<T> Optional for Option<T> {
    fn is_empty(&self) -> bool {
        self.is_none()
    }
}

impl<T> Optional for Nullable<T> {
    fn is_empty(&self) -> bool {
        self.is_absent()
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use crate::Nullable;

    #[derive(Debug, PartialEq)]
    struct Record {
        kind: String,
        note: Option<String>,
        cleared: Option<u32>,
        comment: Nullable<String>,
        child: Option<Box<Record>>,
    }
    crate::json_object!(Record {
        kind = "type",
        note optional,
        cleared,
        comment = "comment" optional,
        child optional,
    });

    #[derive(Debug, PartialEq)]
    struct Open {
        id: u32,
        rest: BTreeMap<String, i64>,
    }
    crate::json_object!(Open { id, ..rest });

    #[derive(Debug, PartialEq)]
    struct Empty {}
    crate::json_object!(Empty {});

    // Types named like the impls' generic parameters or locals.
    #[derive(Debug, PartialEq)]
    struct A {
        d: Option<D>,
    }
    crate::json_object!(A { d optional });
    #[derive(Debug, PartialEq)]
    struct D {
        object: u8,
        key: u8,
    }
    crate::json_object!(D { object, key });

    fn decode<T: serde::de::DeserializeOwned>(json: &str) -> Result<T, String> {
        serde_json::from_str(json).map_err(|e| e.to_string())
    }

    #[test]
    fn decodes_renamed_optional_nested_and_escaped_fields() {
        let r: Record =
            decode(r#"{"t\u0079pe":"a","child":{"type":"b","cleared":1},"comment":"c","zz":[1]}"#)
                .unwrap();
        assert_eq!(r.kind, "a");
        assert_eq!(r.note, None);
        assert_eq!(r.cleared, None, "a missing required Option reads None");
        assert_eq!(r.comment, Nullable::Value("c".into()));
        let child = r.child.unwrap();
        assert_eq!((child.kind.as_str(), child.cleared), ("b", Some(1)));
        assert_eq!(child.comment, Nullable::Absent);
    }

    #[test]
    fn encodes_in_declaration_order_leaving_out_empty_optionals() {
        let r = Record {
            kind: "a".into(),
            note: None,
            cleared: None,
            comment: Nullable::Null,
            child: None,
        };
        assert_eq!(
            serde_json::to_string(&r).unwrap(),
            r#"{"type":"a","cleared":null,"comment":null}"#
        );
        let back: Record = decode(&serde_json::to_string(&r).unwrap()).unwrap();
        assert_eq!(back, r);
    }

    #[test]
    fn reports_missing_duplicate_and_mistyped_fields() {
        assert!(
            decode::<Record>("{}")
                .unwrap_err()
                .contains("missing field `type`")
        );
        assert!(
            decode::<Record>(r#"{"type":"a","type":"b"}"#)
                .unwrap_err()
                .contains("duplicate field `type`")
        );
        assert!(
            decode::<Record>(r#"{"type":1}"#)
                .unwrap_err()
                .contains("invalid type: integer `1`, expected a string")
        );
        assert!(
            decode::<Record>("[]")
                .unwrap_err()
                .contains("expected struct Record")
        );
    }

    #[test]
    fn keeps_unnamed_members_in_the_map() {
        let o: Open = decode(r#"{"a":1,"id":7,"b":2}"#).unwrap();
        assert_eq!(o.id, 7);
        assert_eq!(o.rest, BTreeMap::from([("a".into(), 1), ("b".into(), 2)]));
        assert_eq!(
            serde_json::to_string(&o).unwrap(),
            r#"{"id":7,"a":1,"b":2}"#
        );
        assert!(decode::<Open>(r#"{"id":7,"a":"x"}"#).is_err());
        let value = serde_json::json!({"id": 1, "c": 3});
        let from_value: Open = serde_json::from_value(value).unwrap();
        assert_eq!(from_value.rest["c"], 3);
    }

    #[test]
    fn type_and_field_names_do_not_clash_with_the_impls() {
        let a: A = decode(r#"{"d":{"object":1,"key":2}}"#).unwrap();
        assert_eq!(a.d, Some(D { object: 1, key: 2 }));
        assert_eq!(
            serde_json::to_string(&a).unwrap(),
            r#"{"d":{"object":1,"key":2}}"#
        );
    }

    #[test]
    fn an_empty_struct_ignores_every_member() {
        assert_eq!(decode::<Empty>(r#"{"a":{"b":[1,2]}}"#).unwrap(), Empty {});
        assert_eq!(serde_json::to_string(&Empty {}).unwrap(), "{}");
    }
}
