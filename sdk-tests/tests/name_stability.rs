//! Names stay put across revisions: a type's name depends only on its own place in the
//! document, never on which other schema the generator met first. Each corpus document
//! (`sdk-tests/realspecs/`, `spec/openapi.yaml`) gets every kind of single change of the
//! revision drills, one at a time: an enum value added (to inline enums whose values another
//! place shares), a success response header added, an optional property added to a component
//! (with the values of a shared enum), and an operation added (a copy of an existing one,
//! sorted first). The revision is lowered and compared with the change report; no type of the
//! old surface may be gone, and no change may be breaking for the Rust API.
//! Lowering and the surface only: no crate is built.

use oncegen::Surface;
use oncegen::report::{Baseline, Class, Version, compare};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// How many places of each kind a document's revisions touch.
const PLACES: usize = 3;

fn documents() -> Vec<PathBuf> {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("realspecs");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&corpus)
        .expect("realspecs")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "json" || e == "yaml"))
        .collect();
    paths.sort();
    paths.push(Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec/openapi.yaml"));
    paths
}

/// The document in its 3.1 form, as the generator reads it.
fn read(path: &Path) -> Value {
    oncegen::read::load(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .root
}

fn surface(doc: &Value) -> Surface {
    let text = serde_json::to_string(doc).expect("json");
    let api = oncegen::model_str(&text, "revision.json").expect("the document lowers");
    Surface::of(&api, "stability", "1.0.0")
}

/// Pointer-like paths of the inline string enums of two or more values under component
/// properties and operation parameters, with their values.
fn inline_enums(doc: &Value) -> Vec<(Vec<String>, Vec<String>)> {
    let mut out = Vec::new();
    if let Some(schemas) = doc
        .pointer("/components/schemas")
        .and_then(Value::as_object)
    {
        for (name, schema) in schemas {
            for (prop, s) in schema["properties"].as_object().into_iter().flatten() {
                let at = ["components", "schemas", name, "properties", prop];
                push_enum(&mut out, at.iter().map(|s| s.to_string()).collect(), s);
            }
        }
    }
    for (path, item) in doc["paths"].as_object().into_iter().flatten() {
        for (method, op) in item.as_object().into_iter().flatten() {
            for (i, p) in op["parameters"]
                .as_array()
                .into_iter()
                .flatten()
                .enumerate()
            {
                let at = [
                    "paths",
                    path,
                    method,
                    "parameters",
                    &i.to_string(),
                    "schema",
                ];
                push_enum(
                    &mut out,
                    at.iter().map(|s| s.to_string()).collect(),
                    &p["schema"],
                );
            }
        }
    }
    out
}

fn push_enum(out: &mut Vec<(Vec<String>, Vec<String>)>, at: Vec<String>, schema: &Value) {
    let Some(values) = schema["enum"].as_array() else {
        return;
    };
    let values: Option<Vec<String>> = values
        .iter()
        .map(|v| v.as_str().map(str::to_owned))
        .collect();
    if let Some(mut values) = values.filter(|v| v.len() >= 2) {
        values.sort();
        out.push((at, values));
    }
}

/// The value at a path of keys (array indices as text).
fn at_mut<'a>(doc: &'a mut Value, at: &[String]) -> &'a mut Value {
    at.iter().fold(doc, |v, k| match v {
        Value::Array(items) => &mut items[k.parse::<usize>().expect("index")],
        other => &mut other[k.as_str()],
    })
}

/// Inline enums whose values another place shares (else the first ones), with a revision
/// adding a value to each.
fn enum_value_added(doc: &Value) -> Vec<(String, Value)> {
    let enums = inline_enums(doc);
    let mut count: BTreeMap<&Vec<String>, usize> = BTreeMap::new();
    for (_, values) in &enums {
        *count.entry(values).or_default() += 1;
    }
    let mut chosen: Vec<&(Vec<String>, Vec<String>)> =
        enums.iter().filter(|(_, v)| count[v] > 1).collect();
    chosen.extend(enums.iter().filter(|(_, v)| count[v] == 1));
    chosen
        .into_iter()
        .take(PLACES)
        .map(|(at, _)| {
            let mut revised = doc.clone();
            at_mut(&mut revised, at)["enum"]
                .as_array_mut()
                .expect("enum")
                .push(json!("added_value"));
            (format!("enum value added at {}", at.join("/")), revised)
        })
        .collect()
}

/// The inline success responses of the document's operations: path, method, status.
fn inline_successes(doc: &Value) -> Vec<[String; 3]> {
    let mut out = Vec::new();
    for (path, item) in doc["paths"].as_object().into_iter().flatten() {
        for (method, op) in item.as_object().into_iter().flatten() {
            let responses = op["responses"].as_object().into_iter().flatten();
            let mut success: Vec<(&String, &Value)> =
                responses.filter(|(s, _)| s.starts_with('2')).collect();
            success.sort_by(|a, b| a.0.cmp(b.0));
            if let Some((status, _)) = success.first().filter(|(_, r)| r.get("$ref").is_none()) {
                out.push([path.clone(), method.clone(), (*status).clone()]);
            }
        }
    }
    out
}

/// A header added to the success response of operations that document headers, and of one
/// that documents none.
fn header_added(doc: &Value) -> Vec<(String, Value)> {
    let successes = inline_successes(doc);
    let has_headers =
        |[p, m, s]: &[String; 3]| doc["paths"][p][m]["responses"][s]["headers"].is_object();
    let mut chosen: Vec<&[String; 3]> = successes
        .iter()
        .filter(|s| has_headers(s))
        .take(PLACES)
        .collect();
    chosen.extend(successes.iter().find(|s| !has_headers(s)));
    chosen
        .into_iter()
        .map(|[p, m, s]| {
            let mut revised = doc.clone();
            let response = &mut revised["paths"][p][m]["responses"][s];
            if !response["headers"].is_object() {
                response["headers"] = json!({});
            }
            response["headers"]["X-Added-Header"] = json!({"schema": {"type": "string"}});
            (format!("header added to {m} {p}"), revised)
        })
        .collect()
}

/// An optional property added to the first component with properties (sorted), an enum of
/// values another place has when there is one.
fn property_added(doc: &Value) -> Vec<(String, Value)> {
    let Some(schemas) = doc
        .pointer("/components/schemas")
        .and_then(Value::as_object)
    else {
        return Vec::new();
    };
    let mut names: Vec<&String> = schemas
        .keys()
        .filter(|n| schemas[*n]["properties"].is_object())
        .collect();
    names.sort();
    let Some(name) = names.first() else {
        return Vec::new();
    };
    let property = match inline_enums(doc).first() {
        Some((_, values)) => json!({"type": "string", "enum": values}),
        None => json!({"type": "string"}),
    };
    let mut revised = doc.clone();
    revised["components"]["schemas"][name.as_str()]["properties"]["addedProperty"] = property;
    vec![(format!("property added to {name}"), revised)]
}

/// A copy of existing operations under a new path sorted first, with new operation ids.
fn operation_added(doc: &Value) -> Vec<(String, Value)> {
    let mut paths: Vec<&String> = doc["paths"]
        .as_object()
        .into_iter()
        .flatten()
        .map(|(p, _)| p)
        .collect();
    paths.sort();
    let with_headers = inline_successes(doc)
        .into_iter()
        .find(|[p, m, s]| doc["paths"][p][m]["responses"][s]["headers"].is_object())
        .map(|[p, ..]| p);
    let mut chosen: Vec<String> = paths.iter().take(1).map(|p| (*p).clone()).collect();
    chosen.extend(with_headers);
    chosen.dedup();
    chosen
        .into_iter()
        .map(|path| {
            let mut item = doc["paths"][&path].clone();
            for (method, op) in item.as_object_mut().into_iter().flatten() {
                if let Some(id) = op.get("operationId").and_then(Value::as_str) {
                    op["operationId"] = json!(format!("{id}AddedCopy"));
                } else if op.is_object() && method != "parameters" {
                    op["operationId"] = json!(format!("{method}AddedCopy"));
                }
            }
            let mut revised = doc.clone();
            revised["paths"][format!("/0-added{path}")] = item;
            (format!("operation added: a copy of {path}"), revised)
        })
        .collect()
}

/// What the revision breaks, or renames away, for callers of the old surface.
fn instabilities(old: &Surface, revised: &Value) -> Vec<String> {
    let new = surface(revised);
    let mut out: Vec<String> = old
        .types
        .keys()
        .filter(|name| !new.types.contains_key(*name))
        .map(|name| format!("type `{name}` is gone"))
        .collect();
    let baseline = Baseline::Found(Box::new(old.clone()));
    let (_, report) = compare(&baseline, Version::parse("1.0.0"), new);
    out.extend(
        report
            .changes
            .iter()
            .filter(|c| c.class == Class::Breaking)
            .map(|c| format!("breaking: {}", c.text)),
    );
    out
}

fn check(path: &Path) -> Vec<String> {
    let doc = read(path);
    let old = surface(&doc);
    let revisions = [
        enum_value_added,
        header_added,
        property_added,
        operation_added,
    ]
    .iter()
    .flat_map(|drill| drill(&doc))
    .collect::<Vec<_>>();
    assert!(
        !revisions.is_empty(),
        "{}: no drill applies",
        path.display()
    );
    let file = path
        .file_name()
        .expect("name")
        .to_string_lossy()
        .into_owned();
    let file = file.as_str();
    revisions
        .iter()
        .flat_map(|(what, revised)| {
            instabilities(&old, revised)
                .into_iter()
                .map(move |problem| format!("{file}, {what}: {problem}"))
        })
        .collect()
}

#[test]
fn a_single_change_renames_no_type_elsewhere() {
    let documents = documents();
    let half = documents.len() / 2;
    let (first, second) = documents.split_at(half);
    let problems: Vec<String> = std::thread::scope(|scope| {
        let other = scope.spawn(|| second.iter().flat_map(|p| check(p)).collect::<Vec<_>>());
        let mut problems: Vec<String> = first.iter().flat_map(|p| check(p)).collect();
        problems.extend(other.join().expect("the other half runs"));
        problems
    });
    assert!(
        problems.is_empty(),
        "{} problems:\n{}",
        problems.len(),
        problems.join("\n")
    );
}
