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

use std::collections::BTreeMap;

use serde::de::{
    Deserialize, DeserializeSeed, Deserializer, Error, IgnoredAny, MapAccess, Unexpected, Visitor,
};
use serde::ser::{SerializeMap, Serializer};

use crate::Nullable;
use crate::group::{Group, GroupSlot};
use crate::unknown::{self, Refuse};

/// Implements `Serialize` and `Deserialize` for a struct with named fields, as a JSON object.
///
/// Each field is `rust_name`, or `rust_name = "wire name"` when the two differ; `optional` after
/// it marks a field that is left out when empty (`None`, or [`Nullable::Absent`]) and reads as
/// empty when missing. A final `..field` names a map (`BTreeMap<String, T>` or
/// `serde_json::Map`) that keeps the members no field names. `tagged "kind" = "circle"` after
/// the name is a union tag the struct always carries without a field for it: written first,
/// and required with that value when read. `one_of source` after the name (and the tag)
/// names a field holding an `x-at-most-one-of` group ([`exclusive_group!`](crate::exclusive_group)),
/// written after the fields.
///
/// ```
/// use std::collections::BTreeMap;
///
/// #[derive(Debug, PartialEq)]
/// pub struct Zone {
///     pub name: String,
///     pub ttl: Option<u32>,
///     pub comment: oncegen_codec::Nullable<String>,
///     pub extra: BTreeMap<String, serde_json::Value>,
/// }
/// oncegen_codec::json_object!(Zone {
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
    ($name:ident $(tagged $tag:literal = $tag_value:literal)? $(one_of $group:ident)* { $($field:ident $(= $wire:literal)? $($optional:ident)?),* $(, ..$rest:ident)? $(,)? }) => {
        // One `$( … )*` repetition per list and no per-field logic: a field is an entry of the
        // writer's calls, and a name and a `dyn Slot` in the lists the runtime's `read` loops
        // over (a loop and a `match` per struct cost rustc more than the rest of it).
        // A field's wire name is `[$wire, stringify!(field)][0]` (the rename when given).
        // `optional` is both the marker and the name of the method that applies it:
        // `Field::optional` (decoding) and `Optional::optional` (encoding).
        #[allow(deprecated)]
        impl $crate::__private::serde::Serialize for $name {
            fn serialize<__S: $crate::__private::serde::Serializer>(
                &self,
                serializer: __S,
            ) -> ::std::result::Result<__S::Ok, __S::Error> {
                #[allow(unused_imports)]
                use $crate::__private::json_object::Optional as _;
                #[allow(unused_mut)]
                let mut object = $crate::__private::json_object::Writer::new(serializer)?;
                $(object.entry($tag, $tag_value);)?
                $(object.entry([$($wire,)? stringify!($field)][0], (&self.$field) $(.$optional())?);)*
                $(object.group(&self.$group);)*
                $(object.rest(&self.$rest);)?
                object.end()
            }
        }

        #[allow(deprecated)]
        impl<'de> $crate::__private::serde::Deserialize<'de> for $name {
            fn deserialize<__D: $crate::__private::serde::Deserializer<'de>>(
                deserializer: __D,
            ) -> ::std::result::Result<Self, __D::Error> {
                $crate::__private::json_object::deserialize(deserializer)
            }
        }

        #[allow(deprecated)]
        impl $crate::__private::json_object::Object for $name {
            const NAME: &'static str = stringify!($name);

            // Names with `__`: a generated type never has one, so none is shadowed.
            fn visit_map<'de, __A: $crate::__private::serde::de::MapAccess<'de>>(
                object: __A,
            ) -> ::std::result::Result<Self, __A::Error> {
                $(let mut $field = $crate::__private::json_object::Field::default() $(.$optional())?;)*
                $(let mut $group = $crate::__private::json_object::GroupField::default();)*
                // Where members no field names go: nowhere, or the `..rest` map.
                let mut __ignored = $crate::__private::json_object::Ignored;
                let __rest = &mut __ignored;
                $(let mut $rest = ::std::default::Default::default();
                let __rest = &mut $rest;)?
                // The member loop and the missing-field rule are the runtime's (`read`): each
                // field is one entry of two lists, its wire name and its slot.
                let __slots: &mut [&mut dyn $crate::__private::json_object::Slot<'de, __A>] =
                    &mut [
                        $(&mut $crate::__private::json_object::Tag::new($tag_value),)?
                        $(&mut $field),*
                    ];
                $crate::__private::json_object::read(
                    object,
                    &[$($tag,)? $([$($wire,)? stringify!($field)][0]),*],
                    __slots,
                    &mut [$(&mut $group),*],
                    __rest,
                )?;
                ::std::result::Result::Ok($name {
                    $($field: $field.into_value(),)*
                    $($group: $group.into_value(),)*
                    $($rest,)?
                })
            }
        }
    };
}

/// A struct `json_object!` implemented: its name and how it reads a JSON object.
pub trait Object: Sized {
    /// The struct's name, for "expected struct Name".
    const NAME: &'static str;

    /// Reads the struct from the members of a JSON object.
    fn visit_map<'de, A: MapAccess<'de>>(object: A) -> Result<Self, A::Error>;
}

/// `Deserialize::deserialize` of an [`Object`]: one visitor for every struct.
pub fn deserialize<'de, T: Object, D: Deserializer<'de>>(deserializer: D) -> Result<T, D::Error> {
    deserializer.deserialize_map(ObjectVisitor(PhantomData))
}

struct ObjectVisitor<T>(PhantomData<T>);

impl<'de, T: Object> Visitor<'de> for ObjectVisitor<T> {
    type Value = T;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "struct {}", T::NAME)
    }

    fn visit_map<A: MapAccess<'de>>(self, object: A) -> Result<T, A::Error> {
        T::visit_map(object)
    }
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

/// A field being decoded: the value once read ([`read`] knows its wire name).
pub struct Field<T> {
    value: Option<T>,
}

/// A field not read yet (no `T: Default` bound, as a derive would add).
impl<T> Default for Field<T> {
    fn default() -> Self {
        Field { value: None }
    }
}

impl<T> Field<T> {
    /// The value, after [`read`] reported no missing field.
    pub fn into_value(self) -> T {
        self.value
            .expect("json_object!: a missing field is filled or reported before this")
    }

    /// The field as an optional one: empty when missing.
    pub fn optional(self) -> OptionalField<T> {
        OptionalField(self)
    }
}

impl<'de, A: MapAccess<'de>, T: Deserialize<'de>> Slot<'de, A> for Field<T> {
    fn take(&mut self, wire: &'static str, object: &mut A) -> Result<(), A::Error> {
        if self.value.is_some() {
            return Err(A::Error::duplicate_field(wire));
        }
        self.value = Some(object.next_value()?);
        Ok(())
    }

    /// `None` for an `Option`, else the error "missing field".
    fn fill_missing(&mut self, wire: &'static str, error: &mut Option<A::Error>) {
        if self.value.is_none() {
            match T::deserialize(Missing(wire, PhantomData)) {
                Ok(value) => self.value = Some(value),
                Err(e) => {
                    error.get_or_insert(e);
                }
            }
        }
    }
}

/// An optional field being decoded ([`Field::optional`]): empty when missing.
pub struct OptionalField<T>(Field<T>);

impl<T: Default> OptionalField<T> {
    /// The value read, or the empty value (`None`, `Absent`) when missing.
    pub fn into_value(self) -> T {
        self.0.value.unwrap_or_default()
    }
}

impl<'de, A: MapAccess<'de>, T: Deserialize<'de>> Slot<'de, A> for OptionalField<T> {
    fn take(&mut self, wire: &'static str, object: &mut A) -> Result<(), A::Error> {
        self.0.take(wire, object)
    }

    /// Nothing to do: a missing optional field is empty.
    fn fill_missing(&mut self, _: &'static str, _: &mut Option<A::Error>) {}
}

/// A member of the struct while it is decoded from the map access `A` ([`Field`],
/// `OptionalField`, `Tag`); [`read`] calls it through `dyn`, so that the per-struct code is
/// a list, not a loop and a `match`.
pub trait Slot<'de, A: MapAccess<'de>> {
    /// Reads the value of the member `wire`; a second value for it is an error.
    fn take(&mut self, wire: &'static str, object: &mut A) -> Result<(), A::Error>;

    /// When the member `wire` was missing: fills in its empty value, or keeps the error
    /// "missing field" in `error` (unless it holds one already).
    fn fill_missing(&mut self, wire: &'static str, error: &mut Option<A::Error>);
}

/// Reads the members of a JSON object into `slots`, the slot of `names[i]` at `slots[i]`,
/// and `groups` (`x-at-most-one-of`); a member no name matches goes to `rest`, or is refused
/// under [`refusing_unknown`](crate::refusing_unknown) when `rest` does not keep it. Then the
/// first missing required member is the error (the derive's order: after every member was
/// read).
pub fn read<'de, A: MapAccess<'de>>(
    mut object: A,
    names: &[&'static str],
    slots: &mut [&mut dyn Slot<'de, A>],
    groups: &mut [&mut dyn GroupSlot<'de, A>],
    rest: &mut dyn RestOf<'de, A>,
) -> Result<(), A::Error> {
    // Members usually come in declaration order: the search starts after the last one found.
    let mut next = 0;
    while let Some(key) = object.next_key::<Key<'de>>()? {
        let k = key.as_str();
        if let Some(i) = (next..names.len()).chain(0..next).find(|&i| names[i] == k) {
            slots[i].take(names[i], &mut object)?;
            next = i + 1;
        } else if let Some(group) = groups.iter_mut().find(|g| g.members().contains(&k)) {
            group.take(k, &mut object)?;
        } else if rest.keeps() || !unknown::refusing() {
            rest.keep(key, &mut object)?;
        } else {
            let members = groups.iter().flat_map(|g| g.members().iter());
            let allowed = names.iter().chain(members).copied();
            object.next_value_seed(Refuse(unknown::message(k, allowed)))?;
        }
    }
    let mut missing = None;
    for (slot, name) in slots.iter_mut().zip(names) {
        slot.fill_missing(name, &mut missing);
    }
    missing.map_or(Ok(()), Err)
}

/// [`Rest`] for one map access `A`, so that [`read`] takes it as `dyn`.
pub trait RestOf<'de, A: MapAccess<'de>> {
    /// Reads (or skips) the value of the member `key`.
    fn keep(&mut self, key: Key<'de>, object: &mut A) -> Result<(), A::Error>;

    /// Whether the members are kept, not skipped ([`Rest::KEEPS`]).
    fn keeps(&self) -> bool;
}

impl<'de, A: MapAccess<'de>, R: Rest<'de>> RestOf<'de, A> for R {
    fn keep(&mut self, key: Key<'de>, object: &mut A) -> Result<(), A::Error> {
        Rest::keep(self, key, object)
    }

    fn keeps(&self) -> bool {
        R::KEEPS
    }
}

/// Where the members no field names go.
pub trait Rest<'de> {
    /// Whether the members are kept (a map of `additionalProperties`), not skipped.
    const KEEPS: bool = true;

    /// Reads (or skips) the value of the member `key`.
    fn keep<A: MapAccess<'de>>(&mut self, key: Key<'de>, object: &mut A) -> Result<(), A::Error>;
}

/// The union tag a struct always carries (`tagged "kind" = "circle"`) while it is decoded:
/// required, once, with that value.
pub struct Tag {
    value: &'static str,
    seen: bool,
}

impl Tag {
    /// The tag, expected to read `value`.
    pub fn new(value: &'static str) -> Self {
        Tag { value, seen: false }
    }
}

impl<'de, A: MapAccess<'de>> Slot<'de, A> for Tag {
    fn take(&mut self, wire: &'static str, object: &mut A) -> Result<(), A::Error> {
        if self.seen {
            return Err(A::Error::duplicate_field(wire));
        }
        object.next_value_seed(TagValue(self.value))?;
        self.seen = true;
        Ok(())
    }

    fn fill_missing(&mut self, wire: &'static str, error: &mut Option<A::Error>) {
        if !self.seen {
            error.get_or_insert(A::Error::missing_field(wire));
        }
    }
}

/// Reads a string and accepts only the one value (without copying it).
struct TagValue(&'static str);

impl<'de> DeserializeSeed<'de> for TagValue {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl Visitor<'_> for TagValue {
    type Value = ();

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "`{}`", self.0)
    }

    fn visit_str<E: Error>(self, v: &str) -> Result<(), E> {
        if v == self.0 {
            Ok(())
        } else {
            Err(E::invalid_value(Unexpected::Str(v), &self))
        }
    }
}

/// Unknown members are skipped.
pub struct Ignored;

impl<'de> Rest<'de> for Ignored {
    const KEEPS: bool = false;

    fn keep<A: MapAccess<'de>>(&mut self, _: Key<'de>, object: &mut A) -> Result<(), A::Error> {
        object.next_value::<IgnoredAny>().map(drop)
    }
}

impl<'de, V: Deserialize<'de>> Rest<'de> for BTreeMap<String, V> {
    fn keep<A: MapAccess<'de>>(&mut self, key: Key<'de>, object: &mut A) -> Result<(), A::Error> {
        let value = object.next_value()?;
        self.insert(key.into_string(), value);
        Ok(())
    }
}

impl<'de> Rest<'de> for serde_json::Map<String, serde_json::Value> {
    fn keep<A: MapAccess<'de>>(&mut self, key: Key<'de>, object: &mut A) -> Result<(), A::Error> {
        let value = object.next_value()?;
        self.insert(key.into_string(), value);
        Ok(())
    }
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

/// An object being written: the members go into the map until one fails; [`Writer::end`]
/// reports that failure (one early return per impl, not one per field).
pub struct Writer<M: SerializeMap> {
    map: M,
    result: Result<(), M::Error>,
}

impl<M: SerializeMap> Writer<M> {
    /// Starts the object.
    pub fn new<S>(serializer: S) -> Result<Self, S::Error>
    where
        S: Serializer<SerializeMap = M, Ok = M::Ok, Error = M::Error>,
    {
        Ok(Writer {
            map: serializer.serialize_map(None)?,
            result: Ok(()),
        })
    }

    /// Writes the member `wire`: `value` is a field (`&T`), or an optional field
    /// ([`Optional::optional`]) that is left out when empty.
    pub fn entry<V: Entry>(&mut self, wire: &'static str, value: V) {
        if self.result.is_ok() {
            self.result = value.write(&mut self.map, wire);
        }
    }

    /// Writes the present member of an `x-at-most-one-of` group.
    pub fn group<G: Group>(&mut self, group: &Option<G>) {
        if let (Some(group), Ok(())) = (group, &self.result) {
            self.result = group.write(&mut self.map);
        }
    }

    /// Writes the members of the map of `additionalProperties`.
    pub fn rest<'a, V: serde::Serialize + 'a>(
        &mut self,
        rest: impl IntoIterator<Item = (&'a String, &'a V)>,
    ) {
        for (key, value) in rest {
            if self.result.is_err() {
                return;
            }
            self.result = self.map.serialize_entry(key, value);
        }
    }

    /// Ends the object, or reports the first member that failed.
    pub fn end(mut self) -> Result<M::Ok, M::Error> {
        std::mem::replace(&mut self.result, Ok(()))?;
        self.map.end()
    }
}

/// A field's value as [`Writer::entry`] writes it.
pub trait Entry {
    /// Writes the member `wire` (or nothing).
    fn write<M: SerializeMap>(self, object: &mut M, wire: &'static str) -> Result<(), M::Error>;
}

impl<T: serde::Serialize + ?Sized> Entry for &T {
    fn write<M: SerializeMap>(self, object: &mut M, wire: &'static str) -> Result<(), M::Error> {
        object.serialize_entry(wire, self)
    }
}

/// An optional field's value ([`Optional::optional`]): left out when empty.
pub struct OmitEmpty<'a, T>(&'a T);

impl<T: Optional + serde::Serialize> Entry for OmitEmpty<'_, T> {
    fn write<M: SerializeMap>(self, object: &mut M, wire: &'static str) -> Result<(), M::Error> {
        if self.0.is_empty() {
            return Ok(());
        }
        object.serialize_entry(wire, self.0)
    }
}

/// The types of optional fields: left out of the object when empty.
pub trait Optional: Sized {
    /// Whether the field is left out (`None`, `Absent`).
    fn is_empty(&self) -> bool;

    /// The field as a member [`Writer::entry`] leaves out when empty.
    fn optional(&self) -> OmitEmpty<'_, Self> {
        OmitEmpty(self)
    }
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

    #[derive(Debug, PartialEq)]
    struct Circle {
        radius: u32,
    }
    crate::json_object!(Circle tagged "kind" = "circle" { radius });

    #[test]
    fn a_fixed_tag_is_written_first_and_required_with_its_value() {
        assert_eq!(
            serde_json::to_string(&Circle { radius: 2 }).unwrap(),
            r#"{"kind":"circle","radius":2}"#
        );
        assert_eq!(
            decode::<Circle>(r#"{"radius":2,"kind":"circle"}"#).unwrap(),
            Circle { radius: 2 }
        );
        let wrong = decode::<Circle>(r#"{"kind":"square","radius":2}"#).unwrap_err();
        assert!(
            wrong.contains(r#"invalid value: string "square", expected `circle`"#),
            "{wrong}"
        );
        let missing = decode::<Circle>(r#"{"radius":2}"#).unwrap_err();
        assert!(missing.contains("missing field `kind`"), "{missing}");
        let twice = decode::<Circle>(r#"{"kind":"circle","kind":"circle","radius":2}"#);
        assert!(twice.unwrap_err().contains("duplicate field `kind`"));
        let mistyped = decode::<Circle>(r#"{"kind":1,"radius":2}"#).unwrap_err();
        assert!(mistyped.contains("expected `circle`"), "{mistyped}");
    }

    #[test]
    fn an_empty_struct_ignores_every_member() {
        assert_eq!(decode::<Empty>(r#"{"a":{"b":[1,2]}}"#).unwrap(), Empty {});
        assert_eq!(serde_json::to_string(&Empty {}).unwrap(), "{}");
    }
}
