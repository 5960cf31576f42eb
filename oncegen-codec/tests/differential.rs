//! Differential test of the serde macros generated code uses (`json_object!`, `untagged_union!`,
//! `tagged_union!`, `string_enum!`) against serde's own derive (issue #19, item 7).
//!
//! Each type is declared twice with the same names and shapes: in `ours` through the runtime's
//! macros, as the generator writes them, and in `twin` with `#[derive(Serialize, Deserialize)]`
//! and the attributes that say the same thing (`rename`, `default` + `skip_serializing_if` for
//! optional fields, `flatten` for additional properties, `untagged`, `tag` for a tagged union). Random JSON, shaped like
//! the types and then mutated (members dropped, nulled, of the wrong type, unknown, duplicated;
//! text truncated), is decoded by both, from text and from a `serde_json::Value`, and the two
//! must agree: equal values (compared by their `Debug`, which the twins share), or both errors
//! of the same `serde_json::error::Category`. Each value both decode is encoded by both, and
//! the texts must be equal. The number of inputs tried is printed.
//!
//! Where the macros differ from the derive on purpose, the comparison is restricted and the
//! restriction counted and printed, never silently skipped:
//! - A derived struct also accepts a JSON array of its fields in order (serde's `visit_seq`);
//!   `json_object!` accepts only an object, as a JSON API sends.
//! - The twin of a string enum is an externally tagged enum with an `#[serde(untagged)]`
//!   catch-all; such an enum also accepts `{"DE": null}` for a unit variant. `string_enum!`
//!   accepts only strings.
//!
//!   Both show as a derive result whose re-encoding has another JSON kind than the input at the
//!   same place (an object where the input has an array, a string where it has an object); a
//!   disagreement is put down to them only when that walk finds such a place.
//! - `untagged_union!` picks the member whose re-encoding keeps the most of the value; serde's
//!   `untagged` picks the first member that decodes. The two agree when members accept disjoint
//!   JSON (the `Contact` union: string, integer, object, array). For overlapping members (the
//!   `Connection` union) a different choice is accepted only when the derive's choice provably
//!   loses more of the input than ours, counted by an independent count of lost properties.
//! - `tagged_union!`'s members declare the tag property and it adds `Unknown`; the twin is an
//!   internally tagged enum (`#[serde(tag = "petType")]`), whose members do not see the tag and
//!   which has no catch-all (an `untagged` one would also swallow a known tag's bad member). Pets
//!   are compared by variant and encoding; an `Unknown` the derive refuses is accepted only when
//!   the input has no known tag string and `Unknown` writes it back unchanged, and the derive's
//!   reading of a JSON array whose first item is the tag is counted apart.
//! - A struct with a fixed tag (`json_object!(Circle tagged "kind" = "circle" { .. })`) has
//!   a one-variant internally tagged enum as its twin, which also reads a JSON array whose first
//!   item is the tag (counted apart, as for pets).
//! - Text that is both mistyped and malformed: the macros stream and stop at the first wrong
//!   type, while the derive buffers flattened maps and enums with an untagged variant and meets
//!   the syntax error first. Both refuse it; only the error category differs, and only then.
//!
//! What the test found: `untagged_union!` decoded each member from a `serde_json::Value`, which
//! keeps only the last of two members with the same name, so a union accepted
//! `{"scheme": "a", "scheme": "b"}` that its struct member rejects on its own (and the derive
//! rejects). Members now decode the received JSON text (`oncegen-codec/src/untagged.rs`). The same
//! held for `tagged_union!` (`{"name":"a","name":"b","petType":"cat"}` and a duplicated tag were
//! accepted, the derive says ``duplicate field `name` ``); its member now decodes the received
//! text too (`oncegen-codec/src/tagged.rs`).

use std::collections::BTreeMap;

use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use serde_json::error::Category;
use serde_json::{Value, json};

mod ours {
    use std::collections::BTreeMap;

    use oncegen_codec::Nullable;

    #[derive(Debug, Clone)]
    pub enum Country {
        De,
        FrFr,
        Unknown(String),
    }
    oncegen_codec::string_enum!(Country, Unknown, De = "DE", FrFr = "fr-FR");

    #[derive(Debug, Clone, PartialEq)]
    pub struct Address {
        pub street: String,
        pub zip: Option<String>,
        pub country: Country,
    }
    oncegen_codec::json_object!(Address { street, zip optional, country = "countryCode" });

    #[derive(Debug, Clone, PartialEq, serde::Serialize)]
    #[serde(untagged)]
    pub enum Contact {
        Email(String),
        Phone(i64),
        Card(Box<Address>),
        Many(Vec<String>),
    }
    oncegen_codec::untagged_union!(Contact { Email, Phone, Card boxed, Many });

    #[derive(Debug, Clone, PartialEq)]
    pub struct Person {
        pub name: String,
        pub age: Option<u8>,
        pub nick: Nullable<String>,
        pub id: Option<i64>,
        pub kind: Country,
        pub tags: Vec<String>,
        pub scores: BTreeMap<String, f64>,
        pub home: Option<Box<Address>>,
        pub contacts: Option<Vec<Contact>>,
        pub notes: Nullable<Vec<Option<String>>>,
        pub extra: Option<serde_json::Value>,
        pub friends: Option<Vec<Person>>,
    }
    oncegen_codec::json_object!(Person {
        name,
        age optional,
        nick optional,
        id,
        kind = "type",
        tags,
        scores,
        home optional,
        contacts optional,
        notes optional,
        extra optional,
        friends optional,
    });

    #[derive(Debug, Clone, PartialEq)]
    pub struct Labels {
        pub id: u32,
        pub rest: BTreeMap<String, i64>,
    }
    oncegen_codec::json_object!(Labels { id, ..rest });

    #[derive(Debug, Clone, PartialEq)]
    pub struct Open {
        pub kind: Option<String>,
        pub rest: serde_json::Map<String, serde_json::Value>,
    }
    oncegen_codec::json_object!(Open { kind = "type" optional, ..rest });

    #[derive(Debug, Clone, PartialEq)]
    pub struct Token {
        pub scheme: String,
    }
    oncegen_codec::json_object!(Token { scheme });

    #[derive(Debug, Clone, PartialEq)]
    pub struct OAuth {
        pub scheme: String,
        pub settings: Option<BTreeMap<String, bool>>,
    }
    oncegen_codec::json_object!(OAuth { scheme, settings optional });

    #[derive(Debug, Clone, PartialEq, serde::Serialize)]
    #[serde(untagged)]
    pub enum Connection {
        Token(Token),
        OAuth(OAuth),
    }
    oncegen_codec::untagged_union!(Connection { Token, OAuth });

    // A tagged union as the generator writes it (`sdk-tests/tests/snapshots/
    // pipeline__discriminated_subtypes.snap`): each member declares the tag property, required
    // or optional, and the union adds `Unknown`.
    #[derive(Debug, Clone, PartialEq)]
    pub struct Cat {
        pub pet_type: String,
        pub name: Option<String>,
        pub indoor: Option<bool>,
    }
    oncegen_codec::json_object!(Cat { pet_type = "petType", name optional, indoor optional });

    #[derive(Debug, Clone, PartialEq)]
    pub struct Dog {
        pub pet_type: String,
        pub name: String,
        pub barks: Option<bool>,
    }
    oncegen_codec::json_object!(Dog { pet_type = "petType", name, barks optional });

    #[derive(Debug, Clone, PartialEq)]
    pub struct Bird {
        pub pet_type: Option<String>,
        pub wings: u8,
    }
    oncegen_codec::json_object!(Bird { pet_type = "petType" optional, wings });

    #[derive(Debug, Clone, PartialEq, serde::Serialize)]
    #[serde(untagged)]
    pub enum Pet {
        Cat(Cat),
        Dog(Box<Dog>),
        Bird(Bird),
        Unknown(serde_json::Value),
    }
    oncegen_codec::tagged_union!(Pet by "petType" { Cat = "cat", Dog = "dog", Bird = "bird" });

    // A tagged union's member whose tag property admits one value: the generator writes no
    // field for it, and `tagged` writes and checks it.
    #[derive(Debug, Clone, PartialEq)]
    pub struct Circle {
        pub radius: f64,
        pub label: Option<String>,
    }
    oncegen_codec::json_object!(Circle tagged "kind" = "circle" { radius, label optional });
}

mod twin {
    use std::collections::BTreeMap;

    use oncegen_codec::Nullable;
    use serde::{Deserialize, Serialize};

    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    pub enum Country {
        #[serde(rename = "DE")]
        De,
        #[serde(rename = "fr-FR")]
        FrFr,
        #[serde(untagged)]
        Unknown(String),
    }

    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    pub struct Address {
        pub street: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub zip: Option<String>,
        #[serde(rename = "countryCode")]
        pub country: Country,
    }

    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    #[serde(untagged)]
    pub enum Contact {
        Email(String),
        Phone(i64),
        Card(Box<Address>),
        Many(Vec<String>),
    }

    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    pub struct Person {
        pub name: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub age: Option<u8>,
        #[serde(default, skip_serializing_if = "Nullable::is_absent")]
        pub nick: Nullable<String>,
        pub id: Option<i64>,
        #[serde(rename = "type")]
        pub kind: Country,
        pub tags: Vec<String>,
        pub scores: BTreeMap<String, f64>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub home: Option<Box<Address>>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub contacts: Option<Vec<Contact>>,
        #[serde(default, skip_serializing_if = "Nullable::is_absent")]
        pub notes: Nullable<Vec<Option<String>>>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub extra: Option<serde_json::Value>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub friends: Option<Vec<Person>>,
    }

    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    pub struct Labels {
        pub id: u32,
        #[serde(flatten)]
        pub rest: BTreeMap<String, i64>,
    }

    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    pub struct Open {
        #[serde(rename = "type", default, skip_serializing_if = "Option::is_none")]
        pub kind: Option<String>,
        #[serde(flatten)]
        pub rest: serde_json::Map<String, serde_json::Value>,
    }

    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    pub struct Token {
        pub scheme: String,
    }

    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    pub struct OAuth {
        pub scheme: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub settings: Option<BTreeMap<String, bool>>,
    }

    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    #[serde(untagged)]
    pub enum Connection {
        Token(Token),
        OAuth(OAuth),
    }

    /// The members of an internally tagged enum: serde takes the tag out before the member
    /// decodes and writes it first, so they do not declare it.
    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    pub struct Cat {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub name: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub indoor: Option<bool>,
    }

    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    pub struct Dog {
        pub name: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub barks: Option<bool>,
    }

    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    pub struct Bird {
        pub wings: u8,
    }

    /// No `Unknown`: serde cannot keep a value of an unknown tag while still refusing a known
    /// tag's bad member (an `untagged` catch-all would swallow those errors too).
    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    #[serde(tag = "petType")]
    pub enum Pet {
        #[serde(rename = "cat")]
        Cat(Cat),
        #[serde(rename = "dog")]
        Dog(Box<Dog>),
        #[serde(rename = "bird")]
        Bird(Bird),
    }

    /// An internally tagged enum of one variant: the tag required, with that one value. Its
    /// `Debug` is the struct's (`Circle { radius: .., label: .. }`).
    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    #[serde(tag = "kind")]
    pub enum Circle {
        #[serde(rename = "circle")]
        Circle {
            radius: f64,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            label: Option<String>,
        },
    }
}

// ---------------------------------------------------------------------------------------------
// Inputs: JSON shaped like a type, with mutations at every level

/// Any small JSON value (the "wrong type" of a mutation).
fn any_json() -> BoxedStrategy<Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        (0u64..300).prop_map(|n| json!(n)),
        any::<u64>().prop_map(|n| json!(n)),
        (-1e6f64..1e6).prop_map(|f| json!(f)),
        Just(json!(1.0)),
        "[a-zA-Z0-9 ]{0,6}".prop_map(Value::String),
        Just(json!("DE")),
        Just(json!("fr-FR")),
    ];
    leaf.prop_recursive(3, 16, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::vec(("[a-z]{1,3}|type|id|name|scheme", inner), 0..4)
                .prop_map(|members| Value::Object(members.into_iter().collect())),
        ]
    })
    .boxed()
}

/// A value of the right shape most of the time, otherwise any JSON.
fn mostly(right: BoxedStrategy<Value>) -> BoxedStrategy<Value> {
    prop_oneof![24 => right, 1 => any_json()].boxed()
}

/// One member of an object: present (mostly with the right shape), absent, or null.
fn member(
    name: &'static str,
    value: BoxedStrategy<Value>,
) -> BoxedStrategy<Option<(String, Value)>> {
    prop_oneof![
        24 => mostly(value).prop_map(move |v| Some((name.to_owned(), v))),
        1 => Just(None),
        1 => Just(Some((name.to_owned(), Value::Null))),
    ]
    .boxed()
}

/// An object of `members`, plus sometimes unknown members, in a shuffled order.
fn object(members: Vec<BoxedStrategy<Option<(String, Value)>>>) -> BoxedStrategy<Value> {
    let unknown = prop::collection::vec(("[a-z]{1,4}|extra|rest|x-y", any_json()), 0..3);
    (members, unknown, any::<u64>())
        .prop_map(|(members, unknown, order)| {
            let mut all: Vec<(String, Value)> = members.into_iter().flatten().collect();
            all.extend(unknown);
            if !all.is_empty() {
                let n = all.len();
                all.rotate_left((order as usize) % n);
                if order % 3 == 0 {
                    all.reverse();
                }
            }
            Value::Object(all.into_iter().collect())
        })
        .boxed()
}

fn string() -> BoxedStrategy<Value> {
    "[a-z]{0,5}".prop_map(Value::String).boxed()
}

fn country() -> BoxedStrategy<Value> {
    prop_oneof![
        3 => Just(json!("DE")),
        3 => Just(json!("fr-FR")),
        2 => Just(json!("De")),
        3 => "[A-Za-z-]{0,5}".prop_map(Value::String),
        1 => Just(json!({"DE": null})),
    ]
    .boxed()
}

fn address() -> BoxedStrategy<Value> {
    object(vec![
        member("street", string()),
        member("zip", string()),
        member("countryCode", country()),
    ])
}

fn contact() -> BoxedStrategy<Value> {
    prop_oneof![
        string(),
        any::<i64>().prop_map(|n| json!(n)),
        address(),
        prop::collection::vec(string(), 0..3).prop_map(Value::Array),
    ]
    .boxed()
}

fn array_of(item: BoxedStrategy<Value>) -> BoxedStrategy<Value> {
    prop::collection::vec(mostly(item), 0..4)
        .prop_map(Value::Array)
        .boxed()
}

fn map_of(value: BoxedStrategy<Value>) -> BoxedStrategy<Value> {
    prop::collection::vec(("[a-z]{1,3}", mostly(value)), 0..4)
        .prop_map(|m| Value::Object(m.into_iter().collect()))
        .boxed()
}

fn number() -> BoxedStrategy<Value> {
    prop_oneof![
        (-1e9f64..1e9).prop_map(|f| json!(f)),
        any::<i32>().prop_map(|n| json!(n)),
    ]
    .boxed()
}

fn person(depth: u32) -> BoxedStrategy<Value> {
    let friends = if depth == 0 {
        Just(json!([])).boxed()
    } else {
        array_of(person(depth - 1))
    };
    object(vec![
        member("name", string()),
        member("age", (0u64..280).prop_map(|n| json!(n)).boxed()),
        member("nick", string()),
        member("id", any::<i64>().prop_map(|n| json!(n)).boxed()),
        member("type", country()),
        member("tags", array_of(string())),
        member("scores", map_of(number())),
        member("home", address()),
        member("contacts", array_of(contact())),
        member(
            "notes",
            array_of(prop_oneof![string(), Just(Value::Null)].boxed()),
        ),
        member("extra", any_json()),
        member("friends", friends),
    ])
}

fn labels() -> BoxedStrategy<Value> {
    let rest = prop::collection::vec(
        (
            "[a-z]{1,3}",
            mostly(any::<i32>().prop_map(|n| json!(n)).boxed()),
        ),
        0..4,
    );
    (
        object(vec![member(
            "id",
            (0u64..5_000_000_000).prop_map(|n| json!(n)).boxed(),
        )]),
        rest,
    )
        .prop_map(|(mut o, rest)| {
            if let Value::Object(m) = &mut o {
                m.extend(rest);
            }
            o
        })
        .boxed()
}

fn open() -> BoxedStrategy<Value> {
    object(vec![member("type", string())])
}

fn connection() -> BoxedStrategy<Value> {
    object(vec![
        member("scheme", string()),
        member(
            "settings",
            map_of(any::<bool>().prop_map(Value::Bool).boxed()),
        ),
    ])
}

/// The tag property of a pet: a known value mostly; otherwise another string, one in the wrong
/// case, or a value of another JSON type.
fn pet_tag() -> BoxedStrategy<Value> {
    prop_oneof![
        4 => Just(json!("cat")),
        4 => Just(json!("dog")),
        4 => Just(json!("bird")),
        1 => Just(json!("Cat")),
        1 => "[a-z]{0,4}".prop_map(Value::String),
        1 => any_json(),
    ]
    .boxed()
}

/// An object with the properties of every member of the pet union (so a tag meets both its own
/// member's and other members' properties), or a JSON array that starts with a tag, or any JSON.
fn pet() -> BoxedStrategy<Value> {
    let flag = || any::<bool>().prop_map(Value::Bool).boxed();
    let object = object(vec![
        member("petType", pet_tag()),
        member("name", string()),
        member("indoor", flag()),
        member("barks", flag()),
        member("wings", (0u64..300).prop_map(|n| json!(n)).boxed()),
    ]);
    let array = (pet_tag(), prop::collection::vec(any_json(), 0..3))
        .prop_map(|(tag, rest)| Value::Array(std::iter::once(tag).chain(rest).collect()));
    prop_oneof![16 => object, 1 => array, 1 => any_json()].boxed()
}

/// A circle: its one tag value mostly; otherwise another string or another JSON type.
fn circle() -> BoxedStrategy<Value> {
    let tag = prop_oneof![
        6 => Just(json!("circle")),
        1 => Just(json!("Circle")),
        1 => "[a-z]{0,4}".prop_map(Value::String),
        1 => any_json(),
    ]
    .boxed();
    object(vec![
        member("kind", tag),
        member("radius", number()),
        member("label", string()),
    ])
}

// ---------------------------------------------------------------------------------------------
// Text: the value written out, sometimes with a member duplicated or the text cut short

/// How a value is written as text.
#[derive(Debug, Clone)]
enum Text {
    /// As `serde_json` writes it.
    Plain,
    /// The first member of the `n`-th object (in writing order) written twice.
    DuplicateMember(usize),
    /// Cut after `n` bytes (at a character boundary).
    Truncated(usize),
}

fn text_mutation() -> impl Strategy<Value = Text> {
    prop_oneof![
        12 => Just(Text::Plain),
        2 => (0usize..6).prop_map(Text::DuplicateMember),
        1 => (0usize..200).prop_map(Text::Truncated),
    ]
}

fn write(value: &Value, mutation: &Text) -> String {
    match mutation {
        Text::Plain => value.to_string(),
        Text::DuplicateMember(n) => {
            let mut out = String::new();
            let mut seen = 0;
            write_duplicating(value, *n, &mut seen, &mut out);
            out
        }
        Text::Truncated(n) => {
            let text = value.to_string();
            let mut cut = (*n).min(text.len());
            while !text.is_char_boundary(cut) {
                cut -= 1;
            }
            text[..cut].to_owned()
        }
    }
}

fn write_duplicating(value: &Value, target: usize, seen: &mut usize, out: &mut String) {
    match value {
        Value::Object(map) => {
            let this = *seen;
            *seen += 1;
            out.push('{');
            let mut first = true;
            for (i, (k, v)) in map.iter().enumerate() {
                let times = if i == 0 && this == target { 2 } else { 1 };
                for _ in 0..times {
                    if !first {
                        out.push(',');
                    }
                    first = false;
                    out.push_str(&Value::String(k.clone()).to_string());
                    out.push(':');
                    write_duplicating(v, target, seen, out);
                }
            }
            out.push('}');
        }
        Value::Array(items) => {
            out.push('[');
            for (i, v) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_duplicating(v, target, seen, out);
            }
            out.push(']');
        }
        other => out.push_str(&other.to_string()),
    }
}

// ---------------------------------------------------------------------------------------------
// The comparison

/// What was counted over one type's run.
#[derive(Debug, Default)]
struct Tally {
    inputs: usize,
    both_decoded: usize,
    both_failed: usize,
    /// Restricted comparisons, by the documented difference.
    restricted: BTreeMap<&'static str, usize>,
}

/// Where the derive read a JSON value of another kind than it writes back: an array it took
/// as a struct, or a single-member object it took as a unit variant (see the module docs).
/// Found by walking the input beside the derive's re-encoding, independently of the runtime.
fn derive_took_another_form(input: &Value, encoded: &Value) -> Option<&'static str> {
    match (input, encoded) {
        (Value::Array(_), Value::Object(_)) => Some("derive reads a struct from a JSON array"),
        (Value::Object(_), Value::String(_)) => {
            Some("derive reads a unit variant from {\"variant\": null}")
        }
        (Value::Object(i), Value::Object(e)) => i
            .iter()
            .find_map(|(k, v)| derive_took_another_form(v, e.get(k)?)),
        (Value::Array(i), Value::Array(e)) => i
            .iter()
            .zip(e)
            .find_map(|(a, b)| derive_took_another_form(a, b)),
        _ => None,
    }
}

/// How many object properties of `input`, at any depth, `encoded` lacks (an independent count,
/// not the runtime's).
fn properties_lost(input: &Value, encoded: &Value) -> usize {
    match (input, encoded) {
        (Value::Object(i), Value::Object(e)) => i
            .iter()
            .map(|(k, v)| match e.get(k) {
                Some(ev) => properties_lost(v, ev),
                None => 1,
            })
            .sum(),
        (Value::Array(i), Value::Array(e)) => {
            i.iter()
                .zip(e)
                .map(|(a, b)| properties_lost(a, b))
                .sum::<usize>()
                + i.len().saturating_sub(e.len())
        }
        _ => 0,
    }
}

/// A twin pair: decodes `text` (and, when it parses, its `Value`) through both and compares.
fn compare<O, T>(
    text: &str,
    tally: &mut Tally,
    first_match_may_differ: bool,
) -> Result<(), TestCaseError>
where
    O: serde::de::DeserializeOwned + serde::Serialize + std::fmt::Debug,
    T: serde::de::DeserializeOwned + serde::Serialize + std::fmt::Debug,
{
    tally.inputs += 1;
    compare_results::<O, T>(
        text,
        serde_json::from_str::<O>(text),
        serde_json::from_str::<T>(text),
        tally,
        first_match_may_differ,
    )?;
    if let Ok(value) = serde_json::from_str::<Value>(text) {
        tally.inputs += 1;
        compare_results::<O, T>(
            text,
            serde_json::from_value::<O>(value.clone()),
            serde_json::from_value::<T>(value),
            tally,
            first_match_may_differ,
        )?;
    }
    Ok(())
}

fn compare_results<O, T>(
    text: &str,
    ours: Result<O, serde_json::Error>,
    twin: Result<T, serde_json::Error>,
    tally: &mut Tally,
    first_match_may_differ: bool,
) -> Result<(), TestCaseError>
where
    O: serde::Serialize + std::fmt::Debug,
    T: serde::Serialize + std::fmt::Debug,
{
    match (ours, twin) {
        (Ok(o), Ok(t)) => compare_decoded(text, (&o, &t), tally, first_match_may_differ),
        (Err(o), Err(t)) => compare_errors(text, &o, &t, tally),
        (Err(o), Ok(t)) => match explained(text, &t, tally) {
            Some(()) => Ok(()),
            None => Err(TestCaseError::fail(format!(
                "only the derive decodes {text}\n  ours: {o}\n  twin: {t:?}"
            ))),
        },
        (Ok(o), Err(t)) => Err(TestCaseError::fail(format!(
            "only the macros decode {text}\n  ours: {o:?}\n  twin: {t}"
        ))),
    }
}

/// The input `text` as JSON (`null` when it is not JSON).
fn input(text: &str) -> Value {
    serde_json::from_str::<Value>(text).unwrap_or(Value::Null)
}

/// The documented difference that explains a disagreement on `text`, if any (counted when it
/// does): the derive took another form than the input's.
fn explained<T: serde::Serialize>(text: &str, twin: &T, tally: &mut Tally) -> Option<()> {
    let encoded = serde_json::to_value(twin).unwrap_or_default();
    let why = derive_took_another_form(&input(text), &encoded)?;
    *tally.restricted.entry(why).or_default() += 1;
    Some(())
}

/// Both decoded `text`: the same value (or a documented difference, or for a union the
/// derive's first match losing more than our best match), encoded the same.
fn compare_decoded<O, T>(
    text: &str,
    (o, t): (&O, &T),
    tally: &mut Tally,
    first_match_may_differ: bool,
) -> Result<(), TestCaseError>
where
    O: serde::Serialize + std::fmt::Debug,
    T: serde::Serialize + std::fmt::Debug,
{
    tally.both_decoded += 1;
    let (od, td) = (format!("{o:?}"), format!("{t:?}"));
    if od != td {
        if explained(text, t, tally).is_some() {
            return Ok(());
        }
        let input = input(text);
        let lost_ours = properties_lost(&input, &serde_json::to_value(o).unwrap_or_default());
        let lost_twin = properties_lost(&input, &serde_json::to_value(t).unwrap_or_default());
        if first_match_may_differ && lost_twin > lost_ours {
            *tally
                .restricted
                .entry("union: derive's first match loses more than our best match")
                .or_default() += 1;
            return Ok(());
        }
        return Err(TestCaseError::fail(format!(
            "decoded values differ for {text}\n  ours: {od}\n  twin: {td}\n  properties lost: ours {lost_ours}, twin {lost_twin}"
        )));
    }
    let (oe, te) = (serde_json::to_string(o), serde_json::to_string(t));
    match (oe, te) {
        (Ok(oe), Ok(te)) if oe == te => Ok(()),
        (oe, te) => Err(TestCaseError::fail(format!(
            "encodings differ for {od}\n  ours: {oe:?}\n  twin: {te:?}"
        ))),
    }
}

/// Two refusals of `text`: of the same error category, or the text is both malformed and
/// mistyped and only which error comes first differs.
fn compare_errors(
    text: &str,
    o: &serde_json::Error,
    t: &serde_json::Error,
    tally: &mut Tally,
) -> Result<(), TestCaseError> {
    tally.both_failed += 1;
    let malformed =
        |e: &serde_json::Error| matches!(e.classify(), Category::Syntax | Category::Eof);
    if o.classify() == t.classify() {
        Ok(())
    } else if (malformed(o) || malformed(t)) && serde_json::from_str::<Value>(text).is_err() {
        // Text that is both mistyped and malformed: the macros stream and stop at the first
        // wrong type (a tagged union reads the whole value first); the derive buffers flattened
        // maps and enums with an untagged variant, so it meets the syntax error first, and
        // reads an internal tag as soon as it meets it. Both refuse it.
        *tally
            .restricted
            .entry("malformed and mistyped text: which error comes first")
            .or_default() += 1;
        Ok(())
    } else {
        Err(TestCaseError::fail(format!(
            "error categories differ for {text}\n  ours: {:?} {o}\n  twin: {:?} {t}",
            o.classify(),
            t.classify()
        )))
    }
}

/// The tag values of the pet union, as the contract would list them (not read from the runtime).
const PET_TAGS: [&str; 3] = ["cat", "dog", "bird"];

/// The pet twins: decodes `text` (and, when it parses, its `Value`) through both and compares.
fn compare_pets(text: &str, tally: &mut Tally) -> Result<(), TestCaseError> {
    tally.inputs += 1;
    compare_pet_results(
        text,
        serde_json::from_str::<ours::Pet>(text),
        serde_json::from_str::<twin::Pet>(text),
        tally,
    )?;
    if let Ok(value) = serde_json::from_str::<Value>(text) {
        tally.inputs += 1;
        compare_pet_results(
            text,
            serde_json::from_value::<ours::Pet>(value.clone()),
            serde_json::from_value::<twin::Pet>(value),
            tally,
        )?;
    }
    Ok(())
}

/// Like [`compare_results`], with the tagged union's differences from serde's internal tagging:
/// - the members of ours declare the tag property, the derive's do not, so values are compared
///   by variant and encoding (which both write with the tag first), not by `Debug`;
/// - `Unknown` keeps a value whose tag is unknown, missing or no string, or that is no object,
///   where the derive refuses it: accepted only when the input really has no known tag and
///   `Unknown` writes it back unchanged;
/// - the derive also reads an internally tagged enum from a JSON array whose first item is the
///   tag (serde's `visit_seq`); ours keeps that array in `Unknown`.
fn compare_pet_results(
    text: &str,
    ours: Result<ours::Pet, serde_json::Error>,
    twin: Result<twin::Pet, serde_json::Error>,
    tally: &mut Tally,
) -> Result<(), TestCaseError> {
    let input = serde_json::from_str::<Value>(text).ok();
    let restrict = |tally: &mut Tally, why: &'static str| {
        *tally.restricted.entry(why).or_default() += 1;
    };
    match (ours, twin) {
        (Ok(o @ ours::Pet::Unknown(_)), twin) => {
            let encoded = serde_json::to_value(&o).ok();
            let tag = input.as_ref().and_then(|i| i.get("petType")?.as_str());
            if input.is_none() || encoded != input || tag.is_some_and(|t| PET_TAGS.contains(&t)) {
                return Err(TestCaseError::fail(format!(
                    "{text} went to {o:?}, encoded {encoded:?}"
                )));
            }
            let input = input.unwrap_or_default();
            match twin {
                Err(_) => restrict(
                    tally,
                    "tagged: Unknown keeps an unknown, missing or mistyped tag, or no object; derive refuses it",
                ),
                Ok(_) if input.is_array() => restrict(
                    tally,
                    "tagged: derive reads an internally tagged enum from a JSON array, tag first",
                ),
                Ok(t) => {
                    return Err(TestCaseError::fail(format!(
                        "only the derive finds a member for {text}\n  ours: Unknown\n  twin: {t:?}"
                    )));
                }
            }
            Ok(())
        }
        (Ok(o), Ok(t)) => {
            tally.both_decoded += 1;
            let variant = |debug: String| debug.split('(').next().unwrap_or_default().to_owned();
            let (ov, tv) = (variant(format!("{o:?}")), variant(format!("{t:?}")));
            let (oe, te) = (serde_json::to_string(&o), serde_json::to_string(&t));
            match (oe, te) {
                (Ok(oe), Ok(te)) if ov == tv && oe == te => Ok(()),
                (oe, te) => Err(TestCaseError::fail(format!(
                    "decoded {text} differently\n  ours: {o:?} encoded {oe:?}\n  twin: {t:?} encoded {te:?}"
                ))),
            }
        }
        (Err(o), Err(t)) => compare_errors(text, &o, &t, tally),
        (Err(o), Ok(t)) => Err(TestCaseError::fail(format!(
            "only the derive decodes {text}\n  ours: {o}\n  twin: {t:?}"
        ))),
        (Ok(o), Err(t)) => Err(TestCaseError::fail(format!(
            "only the macros decode {text}\n  ours: {o:?}\n  twin: {t}"
        ))),
    }
}

/// Runs `cases` inputs from `shape` through the twin pair `O`/`T` and prints the tally.
fn run<O, T>(name: &str, shape: BoxedStrategy<Value>, cases: u32, first_match_may_differ: bool)
where
    O: serde::de::DeserializeOwned + serde::Serialize + std::fmt::Debug,
    T: serde::de::DeserializeOwned + serde::Serialize + std::fmt::Debug,
{
    run_with(name, shape, cases, |text, tally| {
        compare::<O, T>(text, tally, first_match_may_differ)
    });
}

/// Runs `cases` inputs from `shape` through `check` and prints the tally.
fn run_with(
    name: &str,
    shape: BoxedStrategy<Value>,
    cases: u32,
    check: impl Fn(&str, &mut Tally) -> Result<(), TestCaseError>,
) {
    let mut runner = TestRunner::new(Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    });
    let tally = std::cell::RefCell::new(Tally::default());
    let result = runner.run(&(shape, text_mutation()), |(value, mutation)| {
        let text = write(&value, &mutation);
        check(&text, &mut tally.borrow_mut())
    });
    let tally = tally.into_inner();
    // Written to the process's stderr, not through `println!`, so that the count shows in
    // `cargo test` output (CI) even though libtest captures a passing test's prints.
    eprintln_uncaptured(format_args!(
        "{name}: {} decodes compared ({} both decoded and re-encoded equal, {} both failed alike); restricted: {:?}",
        tally.inputs, tally.both_decoded, tally.both_failed, tally.restricted
    ));
    if let Err(e) = result {
        panic!("{name}: the macros and serde's derive disagree: {e}");
    }
    assert!(
        tally.both_decoded * 20 >= tally.inputs,
        "{name}: fewer than 5% of inputs decoded ({} of {}); the shapes drift from the types",
        tally.both_decoded,
        tally.inputs
    );
}

#[test]
fn person_with_nested_structs_unions_enums_maps_and_nullables_decodes_like_the_derive() {
    run::<ours::Person, twin::Person>("Person", person(1), 3000, false);
}

#[test]
fn additional_properties_decode_like_a_flattened_map() {
    run::<ours::Labels, twin::Labels>("Labels", labels(), 1500, false);
    run::<ours::Open, twin::Open>("Open", open(), 1500, false);
}

#[test]
fn unions_of_disjoint_members_decode_like_serde_untagged() {
    run::<ours::Contact, twin::Contact>("Contact", mostly(contact()), 1500, false);
    run::<Vec<ours::Contact>, Vec<twin::Contact>>("Vec<Contact>", array_of(contact()), 1000, false);
}

#[test]
fn unions_of_overlapping_members_differ_only_where_ours_keeps_more() {
    run::<ours::Connection, twin::Connection>("Connection", mostly(connection()), 1500, true);
}

#[test]
fn tagged_unions_decode_like_serde_internal_tagging_beside_unknown() {
    run_with("Pet", pet(), 3000, compare_pets);
}

#[test]
fn a_fixed_tag_decodes_like_a_one_variant_internally_tagged_enum() {
    run::<ours::Circle, twin::Circle>("Circle", mostly(circle()), 1500, false);
}

#[test]
fn string_enums_decode_like_a_derived_enum_with_a_catch_all() {
    run::<ours::Country, twin::Country>("Country", mostly(country()), 1000, false);
    run::<BTreeMap<String, ours::Country>, BTreeMap<String, twin::Country>>(
        "map of Country",
        map_of(country()),
        500,
        false,
    );
}

#[test]
fn the_comparison_catches_a_real_difference() {
    // A twin that renames a field the macros do not: the run must fail, so a disagreement
    // cannot go unnoticed.
    #[derive(Debug, serde::Serialize, serde::Deserialize)]
    struct Token {
        #[serde(rename = "kind")]
        scheme: String,
    }
    let outcome = std::panic::catch_unwind(|| {
        run::<ours::Token, Token>(
            "Token vs a wrong twin",
            object(vec![member("scheme", string())]),
            200,
            false,
        )
    });
    assert!(outcome.is_err(), "a wrong twin went unnoticed");
}

/// Writes a line straight to the process's stderr, past libtest's capture of `print!` macros.
fn eprintln_uncaptured(line: std::fmt::Arguments<'_>) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "{line}");
}
