//! Every fact of the API comes from the spec: the runtime names none of them, and the generated
//! crate carries the ones the runtime needs (error codes, conventions) as generated data.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use sdk_tests::workspace;
use serde_json::Value;

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace root")
}

fn spec() -> Value {
    let path = repo().join("spec/openapi.yaml");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    yaml_serde::from_str(&text).expect("the spec parses")
}

/// Header names the runtime's transport conventions send or read (idempotency, correlation,
/// the envelope opt-in, rate limits, signed mode). They are the one kind of API name the
/// runtime still holds; this list pins them, so a new one cannot creep in unnoticed.
const TRANSPORT_HEADERS: &[&str] = &[
    "idempotency-key",
    "x-api-key",
    "x-client-request-id",
    "x-content-sha256",
    "x-nonce",
    "x-request-id",
    "x-signature",
    "x-svc-response-format",
    "x-ts",
];

/// A name is distinctive when it cannot be an ordinary English word of a generic mechanism
/// (`id`, `status`, `page` are not; `idempotency_key`, `actionId` and `in_progress` are).
fn distinctive(name: &str) -> bool {
    name.len() > 3
        && (name.contains('_') || name.contains('/') || name.chars().any(|c| c.is_uppercase()))
}

/// Every fact of the spec a runtime could hard-code, with what it is.
fn facts(spec: &Value) -> BTreeMap<String, &'static str> {
    let mut out = BTreeMap::new();
    for (path, item) in spec["paths"].as_object().expect("paths") {
        out.insert(path.clone(), "path");
        for op in item.as_object().into_iter().flat_map(|o| o.values()) {
            if let Some(id) = op.get("operationId").and_then(Value::as_str) {
                out.insert(id.to_owned(), "operationId");
            }
        }
    }
    for name in spec["components"]["schemas"]
        .as_object()
        .expect("schemas")
        .keys()
    {
        out.insert(name.clone(), "schema name");
    }
    collect(spec, &mut out);
    out.retain(|name, kind| {
        matches!(*kind, "path" | "operationId" | "schema name" | "error code") || distinctive(name)
    });
    for header in TRANSPORT_HEADERS {
        out.remove(*header);
    }
    out
}

/// Property, parameter, enum, error-code and capability names anywhere in the document.
fn collect(v: &Value, out: &mut BTreeMap<String, &'static str>) {
    match v {
        Value::Object(map) => {
            for (key, value) in map {
                match (key.as_str(), value) {
                    ("properties", Value::Object(props)) => {
                        for name in props.keys() {
                            out.entry(name.clone()).or_insert("property");
                        }
                    }
                    ("enum", Value::Array(values)) => {
                        for e in values.iter().filter_map(Value::as_str) {
                            out.entry(e.to_owned()).or_insert("enum value");
                        }
                    }
                    ("x-error-codes" | "x-capabilities", Value::Array(codes)) => {
                        for c in codes.iter().filter_map(Value::as_str) {
                            out.insert(c.to_owned(), "error code");
                        }
                    }
                    ("parameters", Value::Array(params)) => {
                        for p in params {
                            if let Some(name) = p.get("name").and_then(Value::as_str) {
                                out.entry(name.to_lowercase()).or_insert("parameter");
                            }
                        }
                    }
                    _ => {}
                }
                collect(value, out);
            }
        }
        Value::Array(items) => items.iter().for_each(|i| collect(i, out)),
        _ => {}
    }
}

/// The string literals of a Rust source file (comments included: a fact in a doc example
/// counts too).
fn string_literals(source: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut chars = source.chars();
    while let Some(c) = chars.next() {
        if c != '"' {
            continue;
        }
        let mut lit = String::new();
        while let Some(c) = chars.next() {
            match c {
                '\\' => {
                    if let Some(escaped) = chars.next() {
                        lit.push(escaped);
                    }
                }
                '"' => break,
                c => lit.push(c),
            }
        }
        out.push(lit);
    }
    out
}

/// The sources of the runtime, its codec, and the shared-facts crate it takes its header names
/// from.
fn runtime_sources() -> Vec<PathBuf> {
    let rust = |name: &str| name.ends_with(".rs");
    let dirs = [
        "oncegen-runtime/src",
        "oncegen-codec/src",
        "openapi-conventions/src",
    ];
    let mut files: Vec<PathBuf> = dirs
        .iter()
        .flat_map(|dir| workspace::files(&repo().join(dir), &rust))
        .collect();
    files.sort();
    files
}

/// What fact of the API the literal `lit` names, if any: one of `facts`, or a path prefix of
/// the API (e.g. its version segment).
fn fact_named(facts: &BTreeMap<String, &'static str>, lit: &str) -> Option<&'static str> {
    facts.get(lit).copied().or_else(|| {
        (lit.len() > 2 && lit.starts_with('/'))
            .then(|| facts.keys().find(|p| p.starts_with(&format!("{lit}/"))))
            .flatten()
            .map(|_| "path prefix")
    })
}

#[test]
fn the_runtime_names_no_operation_path_code_or_field_of_the_api() {
    let facts = facts(&spec());
    assert!(
        facts.len() > 300,
        "the spec yields too few facts ({}): is it the full contract?",
        facts.len()
    );
    let files = runtime_sources();
    assert!(files.len() > 15, "runtime sources not found");
    let mut found = Vec::new();
    let mut headers = BTreeSet::new();
    for file in &files {
        let text = std::fs::read_to_string(file).expect("source");
        for lit in string_literals(&text) {
            let lower = lit.to_ascii_lowercase();
            if TRANSPORT_HEADERS.contains(&lower.as_str()) {
                headers.insert(lower);
            }
            if let Some(kind) = fact_named(&facts, &lit) {
                let name = file.file_name().unwrap_or_default().to_string_lossy();
                found.push(format!("{name}: \"{lit}\" ({kind})"));
            }
        }
    }
    assert!(
        found.is_empty(),
        "the runtime names facts of the API; generate them from the spec instead:\n{}",
        found.join("\n")
    );
    assert_eq!(
        headers,
        TRANSPORT_HEADERS.iter().map(|h| (*h).to_owned()).collect(),
        "the runtime's transport headers changed: update TRANSPORT_HEADERS"
    );
}

#[test]
fn every_error_code_of_the_spec_is_a_typed_variant() {
    let mut codes = BTreeMap::new();
    collect(&spec(), &mut codes);
    let capabilities: BTreeSet<String> = spec()["paths"]
        .as_object()
        .expect("paths")
        .values()
        .flat_map(|item| item.as_object().into_iter().flat_map(|o| o.values()))
        .filter_map(|op| op.get("x-capabilities").and_then(Value::as_array))
        .flatten()
        .filter_map(|v| v.as_str().map(str::to_owned))
        .collect();
    let spec_codes: Vec<&str> = codes
        .iter()
        .filter(|(name, kind)| **kind == "error code" && !capabilities.contains(*name))
        .map(|(name, _)| name.as_str())
        .collect();
    assert_eq!(customer_cloud_sdk::ErrorCode::ALL, spec_codes.as_slice());
    for code in &spec_codes {
        let parsed = customer_cloud_sdk::ErrorCode::parse(code);
        assert!(
            !matches!(parsed, customer_cloud_sdk::ErrorCode::Unknown(_)),
            "{code}"
        );
        assert_eq!(parsed.as_str(), *code);
        assert_eq!(parsed.to_string(), *code);
    }
    assert_eq!(
        customer_cloud_sdk::ErrorCode::parse("a_code_of_a_later_revision"),
        customer_cloud_sdk::ErrorCode::Unknown("a_code_of_a_later_revision".into())
    );
}
