//! Emit invents no name: every name the generated SDK declares in public (items, methods,
//! fields, inside the codec's macros too) is one its `api.json` records, that is one the
//! surface decided, or one of the emitter's own fixed names below, each said once.

use proc_macro2::{TokenStream, TokenTree};
use sdk_tests::workspace;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Names every generated SDK has whatever the document says, with where they come from.
const FIXED: &[&str] = &[
    // client.rs: the client, its configuration and the facts it is built from
    "Client",
    "ConfigExt",
    "CONTRACT_REVISION",
    "DEFAULT",
    "ENV_PREFIX",
    "PROFILE",
    "SDK_NAME",
    "from_runtime",
    "resolve",
    "check_contract",
    // lib.rs: the journal's re-exports and the client's recovery methods
    "journal",
    "acknowledge_write",
    "recover_writes",
    "prelude",
    // error_codes.rs: the error code enum and its conversions
    "ErrorCode",
    "ErrorCodeExt",
    "as_str",
    "parse",
    // builders: how a call is sent, streamed, waited for, asked for the operation envelope
    "builders",
    "send",
    "into_stream",
    "wait",
    "wait_with",
    "operation_format",
    // types.rs: a receipt's operation read from a response's metadata
    "from_meta",
    // a struct's members its schema does not list (`additional` in api.json)
    "additional_properties",
];

/// Names emit derives from a recorded fact by a rule of its own, not recorded themselves: the
/// list may only shrink (each entry is a decision the surface should record).
const DERIVED_IN_EMIT: &[&str] = &[
    // a security requirement's `static`, named from its schemes in the document's order
    "REQUIRES_SIGNED_AUTH_OR_BEARER_AUTH",
    // a server's function, from its constant's name (`surface::access::server_function`)
    "server_1",
];

/// Every identifier in a string of `api.json`, keys included; a header's name also as the
/// field it gives (`x-request-id` → `x_request_id`).
fn recorded_words(api_json: &str) -> BTreeSet<String> {
    let value: serde_json::Value = serde_json::from_str(api_json).expect("api.json parses");
    let mut words = BTreeSet::new();
    let mut add = |s: &str| {
        for text in [s.to_owned(), s.replace('-', "_")] {
            let parts = text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'));
            words.extend(parts.filter(|w| !w.is_empty()).map(str::to_owned));
        }
    };
    let mut stack = vec![&value];
    while let Some(v) = stack.pop() {
        match v {
            serde_json::Value::String(s) => add(s),
            serde_json::Value::Array(items) => stack.extend(items),
            serde_json::Value::Object(map) => {
                map.keys().for_each(|k| add(k));
                stack.extend(map.values());
            }
            _ => {}
        }
    }
    words
}

/// The name a public declaration starting at `tokens[i]` (`pub`) gives, if it is public to
/// callers (`pub(crate)` is not) and names something (`pub use` does not).
fn declared_name(tokens: &[TokenTree], i: usize) -> Option<String> {
    let ident = |j: usize| match tokens.get(j) {
        Some(TokenTree::Ident(id)) => Some(id.to_string()),
        _ => None,
    };
    let mut j = i + 1;
    while matches!(ident(j).as_deref(), Some("async" | "unsafe" | "extern")) {
        j += 1;
    }
    let first = ident(j)?;
    match first.as_str() {
        "use" | "impl" => None,
        "const" if ident(j + 1).as_deref() == Some("fn") => ident(j + 2),
        "fn" | "struct" | "enum" | "type" | "static" | "mod" | "trait" | "const" => ident(j + 1),
        _ => match tokens.get(j + 1) {
            Some(TokenTree::Punct(p)) if p.as_char() == ':' => Some(first),
            _ => None,
        },
    }
}

/// Every name `stream` declares in public, in every group and macro body it holds.
fn declared_names(stream: TokenStream, names: &mut BTreeSet<String>) {
    let tokens: Vec<TokenTree> = stream.into_iter().collect();
    for (i, token) in tokens.iter().enumerate() {
        match token {
            TokenTree::Ident(id) if id == "pub" => names.extend(declared_name(&tokens, i)),
            TokenTree::Group(g) => declared_names(g.stream(), names),
            _ => {}
        }
    }
}

/// The names each file of the generated SDK declares in public, by name.
fn sdk_names(sdk: &Path) -> BTreeMap<String, String> {
    let mut found = BTreeMap::new();
    for file in workspace::files(&sdk.join("src"), &|name| name.ends_with(".rs")) {
        let text = std::fs::read_to_string(&file).expect("a generated file reads");
        let stream: TokenStream = text.parse().expect("a generated file lexes");
        let mut names = BTreeSet::new();
        declared_names(stream, &mut names);
        let shown = file
            .strip_prefix(sdk)
            .expect("in the crate")
            .display()
            .to_string();
        for name in names {
            found.entry(name).or_insert_with(|| shown.clone());
        }
    }
    found
}

#[test]
fn every_public_name_of_the_sdk_is_recorded_in_api_json_or_fixed() {
    let sdk = workspace::repo().join("customer-cloud-sdk");
    let api_json = std::fs::read_to_string(sdk.join("api.json")).expect("api.json reads");
    let recorded = recorded_words(&api_json);
    let names = sdk_names(&sdk);
    assert!(names.len() > 500, "the reader found {} names", names.len());
    let invented: Vec<String> = names
        .iter()
        .filter(|(n, _)| !recorded.contains(*n) && !FIXED.contains(&n.as_str()))
        .filter(|(n, _)| !DERIVED_IN_EMIT.contains(&n.as_str()))
        .map(|(n, file)| format!("{file}: `{n}`"))
        .collect();
    assert!(
        invented.is_empty(),
        "names api.json does not record:\n{}",
        invented.join("\n")
    );
    for listed in FIXED.iter().chain(DERIVED_IN_EMIT) {
        assert!(
            names.contains_key(*listed),
            "`{listed}` is listed but not declared"
        );
    }
    let recorded_now: Vec<_> = DERIVED_IN_EMIT
        .iter()
        .filter(|n| recorded.contains(**n))
        .collect();
    assert!(
        recorded_now.is_empty(),
        "now recorded, remove: {recorded_now:?}"
    );
}

#[test]
fn the_reader_sees_items_methods_fields_and_macro_bodies() {
    let text = "pub struct A { pub f: u8, g: u8 } pub(crate) fn hidden() {} \
                impl A { pub async fn m(&self) {} pub const fn c() {} } pub use x::Y; \
                json_object! { pub struct B { pub inside: u8 } } pub const K: u8 = 1;";
    let mut names = BTreeSet::new();
    declared_names(text.parse().expect("lexes"), &mut names);
    let want = ["A", "B", "K", "c", "f", "inside", "m"];
    assert_eq!(names, want.iter().map(|s| s.to_string()).collect());
}
