//! JSON Schemas of a tool's arguments and result, spelled from the surface's types with every
//! named type inlined (no `$ref` a client cannot follow).
//!
//! A schema stays bounded on any document: named types deeper than [`MAX_DEPTH`], or beyond
//! [`MAX_EXPANSIONS`] spelled out in one schema, are summarized as "an object" with their name
//! (inlining alone grows exponentially on a document whose types share many others, such as
//! Stripe's). The server still decodes the arguments into their typed body, so an argument
//! that does not fit is a tool error naming the field.
//!
//! Arguments are described exactly (required members, enum values, constraints, docs): a
//! client may validate against them; a deprecated shape of a union is left out when another is
//! not (the server still decodes it). Results are described leniently (no `required`, no enum
//! values, `null` admitted everywhere): a server that adds an enum value or leaves out a member
//! must not make a client reject the answer the SDK decoded.

use crate::surface::{FieldSurface, Shape, Surface};
use heck::ToSnakeCase;
use serde_json::{Map, Value, json};

/// Which side a schema describes.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Side {
    /// What the tool takes: exact.
    Input,
    /// What the tool answers: lenient.
    Output,
}

/// The schema of the Rust type `ty` (as the surface spells it).
pub(super) fn of(surface: &Surface, ty: &str, side: Side) -> Value {
    Schemas {
        surface,
        side,
        stack: Vec::new(),
        expansions: 0,
    }
    .of(ty)
}

/// The schema of a tool's structured result when its success type `ty` is an object (a
/// struct, or a union of structs); `None` otherwise.
pub(super) fn output(surface: &Surface, ty: &str) -> Option<Value> {
    let named = resolve(surface, ty)?;
    match &surface.types.get(named)?.shape {
        Shape::Struct { .. } => Some(of(surface, named, Side::Output)),
        Shape::Union { variants, .. }
            if variants.values().all(|v| {
                resolve(surface, v)
                    .and_then(|n| surface.types.get(n))
                    .is_some_and(|t| matches!(t.shape, Shape::Struct { .. }))
            }) =>
        {
            let mut schema = of(surface, named, Side::Output);
            let object = schema.as_object_mut()?;
            object.insert("type".into(), json!("object"));
            Some(schema)
        }
        _ => None,
    }
}

/// The named type behind aliases, when `ty` is one.
fn resolve<'s>(surface: &'s Surface, ty: &'s str) -> Option<&'s str> {
    match &surface.types.get(ty)?.shape {
        Shape::Alias { target } => resolve(surface, target),
        _ => Some(ty),
    }
}

/// How many named types may enclose one that is still spelled out.
const MAX_DEPTH: usize = 6;

/// How many structs and unions one schema spells out.
const MAX_EXPANSIONS: usize = 150;

struct Schemas<'s> {
    surface: &'s Surface,
    side: Side,
    stack: Vec<String>,
    expansions: usize,
}

impl Schemas<'_> {
    fn of(&mut self, ty: &str) -> Value {
        let ty = ty.trim();
        if let Some(inner) = generic(ty, "Option").or_else(|| generic(ty, "Box")) {
            return self.of(inner);
        }
        if let Some(inner) = generic(ty, "Vec") {
            return json!({"type": "array", "items": self.of(inner)});
        }
        for map in ["BTreeMap", "HashMap", "IndexMap", "serde_json::Map"] {
            if let Some(inner) = generic(ty, map) {
                let value = inner.split_once(',').map_or(inner, |(_, v)| v);
                return json!({"type": "object", "additionalProperties": self.of(value)});
            }
        }
        match ty {
            "String" | "str" | "Secret" => json!({"type": "string"}),
            "bool" => json!({"type": "boolean"}),
            "i8" | "i16" | "i32" | "i64" | "isize" => json!({"type": "integer"}),
            "u8" => json!({"type": "integer", "minimum": 0, "maximum": 255}),
            "u16" => json!({"type": "integer", "minimum": 0, "maximum": 65535}),
            "u32" | "u64" | "usize" => json!({"type": "integer", "minimum": 0}),
            "f32" | "f64" => json!({"type": "number"}),
            "Uuid" => json!({"type": "string", "format": "uuid"}),
            "DateTime<Utc>" => json!({"type": "string", "format": "date-time"}),
            "NaiveDate" => json!({"type": "string", "format": "date"}),
            "Decimal" => json!({"type": "string", "format": "decimal"}),
            "serde_json::Value" | "Value" => json!({}),
            "()" => json!({"type": "null"}),
            _ => self.named(ty),
        }
    }

    fn named(&mut self, ty: &str) -> Value {
        let surface = self.surface;
        let Some(def) = surface.types.get(ty) else {
            return json!({});
        };
        if self.stack.iter().any(|t| t == ty) {
            return json!({"description": format!("(recursive: the same shape as the enclosing {ty})")});
        }
        let object = matches!(
            def.shape,
            Shape::Struct { .. } | Shape::Union { .. } | Shape::Choice { .. }
        );
        if object && (self.stack.len() >= MAX_DEPTH || self.expansions >= MAX_EXPANSIONS) {
            return json!({"description": format!("A `{ty}` (not spelled out here: nested too deep or too many types in this schema).")});
        }
        self.expansions += usize::from(object);
        self.stack.push(ty.to_owned());
        let mut schema = match &def.shape {
            Shape::Struct { .. } => self.object(&def.shape),
            Shape::Enum { values } => match self.side {
                Side::Input => json!({"type": "string", "enum": values}),
                Side::Output => json!({"type": "string"}),
            },
            Shape::Union { variants, .. } | Shape::Choice { variants } => {
                let mut members: Vec<Value> = self
                    .offered(variants.values())
                    .into_iter()
                    .map(|v| self.of(v))
                    .collect();
                match members.len() {
                    1 => members.remove(0),
                    _ => json!({"anyOf": members}),
                }
            }
            Shape::Alias { target } => self.of(target),
        };
        if self.side == Side::Input {
            describe(&mut schema, def.doc.as_deref());
        }
        self.stack.pop();
        schema
    }

    /// The schema of the struct `shape`: its members (a choice group's among them), on the
    /// input side which are required, and its additional properties.
    fn object(&mut self, shape: &Shape) -> Value {
        let Shape::Struct {
            fields,
            additional,
            fixed_tag,
            ..
        } = shape
        else {
            return json!({});
        };
        let mut properties = Map::new();
        let mut required = Vec::new();
        if let Some(tag) = fixed_tag {
            properties.insert(tag.name.clone(), json!({"const": tag.value}));
            required.push(json!(tag.name));
        }
        for field in fields.values() {
            if self.group_members(field, &mut properties) {
                continue;
            }
            let mut member = match &field.const_value {
                Some(value) => json!({"const": value}),
                None => self.of(&field.ty),
            };
            if self.side == Side::Input {
                merge(&mut member, serde_json::to_value(&field.constraints).ok());
                describe(&mut member, field.doc.as_deref());
                if field.deprecated {
                    member["deprecated"] = json!(true);
                }
                if field.is_always_present() || field.const_value.is_some() && field.required {
                    required.push(json!(field.name));
                }
            }
            let member = if field.nullable || self.side == Side::Output {
                self.nullable(member)
            } else {
                member
            };
            properties.insert(field.name.clone(), member);
        }
        let mut schema = json!({"type": "object", "properties": properties});
        if !required.is_empty() {
            schema["required"] = Value::Array(required);
        }
        if let Some(value) = additional {
            schema["additionalProperties"] = self.of(value);
        }
        schema
    }

    /// Adds the members of the `x-at-most-one-of` group `field` to `properties` (of the object
    /// holding the group); `false` when `field` is no such group.
    fn group_members(&mut self, field: &FieldSurface, properties: &mut Map<String, Value>) -> bool {
        let shape = self.surface.types.get(&field.ty).map(|t| &t.shape);
        let Some(Shape::Choice { variants }) = shape else {
            return false;
        };
        for (variant, payload) in variants {
            let mut member = self.of(payload);
            let group = format!("At most one of the `{}` group.", field.name);
            describe(&mut member, Some(&group));
            properties.insert(variant.to_snake_case(), self.nullable(member));
        }
        true
    }

    /// The variants of a union an argument is offered as: on the input side the ones not
    /// deprecated, when any is not (a deprecated shape is still accepted, but a new call has no
    /// use for it).
    fn offered<'v>(&self, variants: impl Iterator<Item = &'v String>) -> Vec<&'v String> {
        let all: Vec<&String> = variants.collect();
        let deprecated = |v: &&String| {
            resolve(self.surface, v)
                .and_then(|n| self.surface.types.get(n))
                .is_some_and(|t| t.deprecated)
        };
        let current: Vec<&String> = all.iter().copied().filter(|v| !deprecated(v)).collect();
        if self.side == Side::Input && !current.is_empty() {
            current
        } else {
            all
        }
    }

    /// `schema`, admitting `null` too.
    fn nullable(&self, mut schema: Value) -> Value {
        let Some(object) = schema.as_object_mut() else {
            return schema;
        };
        match object.get("type").cloned() {
            Some(Value::String(ty)) => {
                object.insert("type".into(), json!([ty, "null"]));
                schema
            }
            None if object.is_empty()
                || !object.contains_key("anyOf") && !object.contains_key("const") =>
            {
                schema
            }
            _ => json!({"anyOf": [schema, {"type": "null"}]}),
        }
    }
}

/// Adds `doc` as the description, before any the schema has (once, when one holds the
/// other).
fn describe(schema: &mut Value, doc: Option<&str>) {
    let (Some(doc), Some(object)) = (doc, schema.as_object_mut()) else {
        return;
    };
    let text = match object.get("description").and_then(Value::as_str) {
        Some(before) if before.contains(doc) => before.to_owned(),
        Some(before) if !before.is_empty() && !doc.contains(before) => {
            format!("{doc} {before}")
        }
        _ => doc.to_owned(),
    };
    object.insert("description".into(), json!(text));
}

/// `inner` of `name<inner>`.
fn generic<'t>(ty: &'t str, name: &str) -> Option<&'t str> {
    ty.strip_prefix(name)?.strip_prefix('<')?.strip_suffix('>')
}

/// Adds the members of `extra` (an object) to `schema`.
fn merge(schema: &mut Value, extra: Option<Value>) {
    if let (Some(target), Some(Value::Object(extra))) = (schema.as_object_mut(), extra) {
        for (name, value) in extra {
            target.insert(name, value);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::describe;
    use serde_json::json;

    #[test]
    fn a_doc_goes_before_the_description_once() {
        let mut schema = json!({"type": "string", "description": "Billing period unit."});
        describe(&mut schema, Some("Billing period unit."));
        assert_eq!(schema["description"], "Billing period unit.");
        describe(&mut schema, Some("The cycle."));
        assert_eq!(schema["description"], "The cycle. Billing period unit.");
    }
}
