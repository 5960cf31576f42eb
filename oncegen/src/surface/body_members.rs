//! What a tool's help says of an operation's JSON body, derived from the surface once: each
//! member with its JSON type (no Rust spelling), whether it is required, its allowed values
//! and the first sentence of its description, the members of an object member one level down
//! under a dotted name (`billing.cycle`, `addons[].code`); and an example body built from the
//! schema (required members only, an enum's first value, a default where there is one, a
//! placeholder by format otherwise).

use super::{FieldSurface, Shape, Surface, rust_type};
use serde_json::{Map, Value, json};

/// One member of a body as help lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Member {
    /// Wire name, dotted below the top level (`billing.cycle`, `addons[].code`).
    pub name: String,
    /// JSON type in words (`string (uuid)`, `array of object`, `integer`).
    pub ty: String,
    /// Must be given (within its parent, below the top level).
    pub required: bool,
    /// The values it accepts, when it is an enum (or an array of one).
    pub values: Vec<String>,
    /// The first sentence of its description.
    pub doc: Option<String>,
}

/// One shape of a body: a struct's members; a union body has one per variant.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BodyShape {
    /// The variant's name, for a union body.
    pub variant: Option<String>,
    /// Its members, required ones first, each followed by its own members.
    pub members: Vec<Member>,
}

/// The shapes of the body of Rust type `ty`: none when it is not an object with members (a
/// free-form object, a scalar).
pub fn shapes(surface: &Surface, ty: &str) -> Vec<BodyShape> {
    match surface.types.get(ty).map(|t| &t.shape) {
        Some(Shape::Struct { .. }) => vec![BodyShape {
            variant: None,
            members: members(surface, ty, "", true),
        }],
        Some(Shape::Union { variants, .. }) => variants
            .iter()
            .map(|(variant, payload)| BodyShape {
                variant: Some(variant.clone()),
                members: members(surface, payload, "", true),
            })
            .filter(|shape| !shape.members.is_empty())
            .collect(),
        Some(Shape::Alias { target }) => shapes(surface, target),
        _ => Vec::new(),
    }
}

/// The fields of struct `ty`, wire names prefixed with `prefix`; with `nested`, each object
/// member is followed by its own members.
fn members(surface: &Surface, ty: &str, prefix: &str, nested: bool) -> Vec<Member> {
    let Some(Shape::Struct { fields, .. }) = surface.types.get(ty).map(|t| &t.shape) else {
        return Vec::new();
    };
    let mut sorted: Vec<&FieldSurface> = fields
        .values()
        .filter(|f| f.const_value.is_none())
        .collect();
    sorted.sort_by_key(|f| (!f.required, f.name.clone()));
    let mut out = Vec::new();
    for field in sorted {
        let name = format!("{prefix}{}", field.name);
        out.push(Member {
            name: name.clone(),
            ty: json_type(surface, &field.ty, field.constraints.format.as_deref()),
            required: field.required,
            values: enum_values(surface, &field.ty),
            doc: field.doc.as_deref().map(first_sentence),
        });
        if nested {
            let (item, below) = match field
                .ty
                .strip_prefix("Vec<")
                .and_then(|t| t.strip_suffix('>'))
            {
                Some(item) => (item, format!("{name}[].")),
                None => (field.ty.as_str(), format!("{name}.")),
            };
            out.extend(members(surface, item, &below, false));
        }
    }
    out
}

/// The JSON type of Rust type `ty` in words; `format` is the schema's, when it says one.
pub fn json_type(surface: &Surface, ty: &str, format: Option<&str>) -> String {
    if let Some(item) = ty.strip_prefix("Vec<").and_then(|t| t.strip_suffix('>')) {
        return format!("array of {}", json_type(surface, item, None));
    }
    match (rust_type::json_type(ty), format) {
        (Some("string"), Some(format)) => return format!("string ({format})"),
        (Some(json), _) => return json.to_owned(),
        (None, _) => {}
    }
    match surface.types.get(ty).map(|t| &t.shape) {
        Some(Shape::Struct { .. }) => "object".to_owned(),
        Some(Shape::Enum { .. }) => "string".to_owned(),
        Some(Shape::Alias { target }) => json_type(surface, target, format),
        Some(Shape::Union { variants, .. } | Shape::Choice { variants }) => {
            let mut kinds: Vec<String> = variants
                .values()
                .map(|v| json_type(surface, v, None))
                .collect();
            kinds.dedup();
            format!("one of: {}", kinds.join(", "))
        }
        None => ty.to_owned(),
    }
}

/// The values of `ty` (or of its items) when it is a string enum.
fn enum_values(surface: &Surface, ty: &str) -> Vec<String> {
    let name = ty
        .strip_prefix("Vec<")
        .and_then(|t| t.strip_suffix('>'))
        .unwrap_or(ty);
    match surface.types.get(name).map(|t| &t.shape) {
        Some(Shape::Enum { values }) => values.clone(),
        _ => Vec::new(),
    }
}

/// The first sentence of `text` (up to the first `. ` or line break).
fn first_sentence(text: &str) -> String {
    let line = text.lines().next().unwrap_or_default().trim();
    match line.find(". ") {
        Some(end) => line[..=end].to_owned(),
        None => line.to_owned(),
    }
}

/// An example of the body of Rust type `ty`: its required members (a union's first shape),
/// each an example of its type.
pub fn example(surface: &Surface, ty: &str) -> Value {
    example_of(surface, ty, None, 0)
}

/// How deep an example object nests before its members are left out (recursive types).
const DEPTH: usize = 4;

fn example_of(surface: &Surface, ty: &str, format: Option<&str>, depth: usize) -> Value {
    if let Some(item) = ty.strip_prefix("Vec<").and_then(|t| t.strip_suffix('>')) {
        return json!([example_of(surface, item, None, depth + 1)]);
    }
    match rust_type::json_type(ty) {
        Some("string") => json!(placeholder(format.unwrap_or("string"))),
        Some("string (decimal)") => json!("0.00"),
        Some(json) if json.starts_with("string (") => {
            json!(placeholder(&json["string (".len()..json.len() - 1]))
        }
        Some("boolean") => json!(false),
        Some("number") => json!(0.0),
        Some("integer") => json!(1),
        Some(_) => json!({}),
        None => named_example(surface, ty, depth),
    }
}

fn named_example(surface: &Surface, name: &str, depth: usize) -> Value {
    match surface.types.get(name).map(|t| &t.shape) {
        Some(Shape::Enum { values }) => values.first().map_or(json!(""), |v| json!(v)),
        Some(Shape::Alias { target }) => example_of(surface, target, None, depth),
        Some(Shape::Union { variants, .. } | Shape::Choice { variants }) => variants
            .values()
            .next()
            .map_or(Value::Null, |v| example_of(surface, v, None, depth)),
        Some(Shape::Struct { fields, .. }) if depth < DEPTH => {
            let mut out = Map::new();
            for field in fields.values().filter(|f| f.required) {
                let value = match (&field.const_value, &field.constraints.default) {
                    (Some(fixed), _) => json!(fixed),
                    (None, Some(default)) => default.clone(),
                    (None, None) if field.ty == "String" && field.constraints.format.is_none() => {
                        json!(format!("<{}>", field.name))
                    }
                    (None, None) => example_of(
                        surface,
                        &field.ty,
                        field.constraints.format.as_deref(),
                        depth + 1,
                    ),
                };
                out.insert(field.name.clone(), value);
            }
            Value::Object(out)
        }
        _ => json!({}),
    }
}

/// A string that shows what goes there, by the schema's `format`.
fn placeholder(format: &str) -> &'static str {
    match format {
        "uuid" => "00000000-0000-0000-0000-000000000000",
        "date-time" => "2026-01-01T00:00:00Z",
        "date" => "2026-01-01",
        "email" => "user@example.com",
        "uri" | "url" => "https://example.com/",
        "hostname" => "host.example.com",
        "ipv4" => "192.0.2.1",
        "ipv6" => "2001:db8::1",
        _ => "string",
    }
}

#[cfg(test)]
mod tests {
    use super::{example, shapes};
    use crate::surface::Surface;
    use serde_json::json;

    /// One body: required members of each kind, an optional one, an array of objects.
    const DOCUMENT: &str = r#"
openapi: 3.1.0
info: {title: t, version: '1'}
paths:
  /things:
    post:
      operationId: thingCreate
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              required: [id, kind, parts]
              properties:
                id: {type: string, format: uuid, description: The thing. Never reused.}
                kind: {type: string, enum: [small, large]}
                note: {type: string}
                parts:
                  type: array
                  items:
                    type: object
                    required: [size]
                    properties: {size: {type: integer}}
      responses: {'204': {description: ok}}
"#;

    #[test]
    fn members_are_listed_with_json_types_and_nested_once() {
        let api = crate::model_str(DOCUMENT, "body.yaml").expect("the document lowers");
        let surface = Surface::of(&api, "t", "0.1.0");
        let body = &surface.operations["thingCreate"]
            .body
            .as_ref()
            .expect("a body")
            .ty;
        let listed: Vec<String> = shapes(&surface, body)
            .remove(0)
            .members
            .into_iter()
            .map(|m| {
                format!(
                    "{} {} {} {:?} {:?}",
                    m.name, m.ty, m.required, m.values, m.doc
                )
            })
            .collect();
        assert_eq!(
            listed,
            [
                r#"id string (uuid) true [] Some("The thing.")"#,
                r#"kind string true ["large", "small"] None"#,
                "parts array of object true [] None",
                "parts[].size integer true [] None",
                "note string false [] None",
            ]
        );
        assert_eq!(
            example(&surface, body),
            json!({"id": "00000000-0000-0000-0000-000000000000", "kind": "large", "parts": [{"size": 1}]})
        );
    }
}
