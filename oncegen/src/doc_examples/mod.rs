//! The examples a document attaches to its schemas, parameters and media types, each with the
//! generated type it decodes into, or why none applies; [`harness`] writes the crate that decodes
//! and re-encodes them.
//!
//! [`list`] walks the document (in its 3.1 form, where lowering recorded which type each schema
//! became, [`crate::lower::SchemaTypes`]) and reports every `example`, every item of a schema's
//! `examples` and every Example Object of a parameter or media type. Pointers are spelled as the
//! document is written: in a document upgraded from 3.0, a schema's `example` stays `example`,
//! and the `anyOf` the upgrade wraps a `nullable` schema into is not part of the pointer.

#[cfg(test)]
mod compare;
pub mod harness;

pub use crate::read::{Document, Node, parse};

use crate::emit::{GeneratedFile, Options};
use crate::error::Result;
use crate::ir::{Api, TypeRef};
use crate::lower::{SchemaTypes, Shape, lower_with_schema_types};
use crate::read::escape_pointer;
use serde_json::Value;
use std::fmt;

/// The model, the crate's files and the examples of a document given as text (`source_name`
/// labels errors): [`crate::generate_str`] that also lists the examples.
pub fn generate(
    text: &str,
    source_name: &str,
    options: &Options,
) -> Result<(Api, Vec<GeneratedFile>, Vec<DocExample>)> {
    let doc = parse(text, source_name)?;
    let (api, schema_types) = lower_with_schema_types(&doc)?;
    let files = crate::emit::emit(&api, options)?;
    let examples = list(&doc, &schema_types);
    Ok((api, files, examples))
}

/// One example of the document.
#[derive(Debug, Clone)]
pub struct DocExample {
    /// JSON pointer of the example as the document is written (`#/components/schemas/Pet/example`,
    /// `#/paths/~1pets/post/requestBody/content/application~1json/examples/cat`).
    pub pointer: String,
    /// The example.
    pub value: Value,
    /// What it decodes into.
    pub target: Target,
}

/// What an example decodes into.
#[derive(Debug, Clone, PartialEq)]
pub enum Target {
    /// The generated type of its place (an `Option` of it when `nullable`).
    Type(Shape),
    /// No generated type applies.
    NotApplicable(NotApplicable),
}

/// Why an example has no generated type to decode into.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum NotApplicable {
    /// An Example Object with `externalValue`: the example is not in the document.
    ExternalValue,
    /// An Example Object `$ref` that names no example.
    DanglingRef,
    /// The example of a media type that is not JSON (form, multipart, text, XML…).
    NotJson,
    /// A media type or parameter without a schema: the SDK reads it as untyped JSON.
    NoSchema,
    /// A header of a response (or of a multipart part): the SDK gives it no type.
    ResponseHeader,
    /// A file (`format: binary`): it has no JSON form.
    File,
    /// A schema the SDK does not lower: unused by every operation and webhook, an `allOf` part,
    /// an inline schema of an error response, a media type other than the one sent or read.
    NotLowered,
}

impl fmt::Display for NotApplicable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            NotApplicable::ExternalValue => "`externalValue`: the example is outside the document",
            NotApplicable::DanglingRef => "its `$ref` names no example",
            NotApplicable::NotJson => "the media type is not JSON",
            NotApplicable::NoSchema => "no schema: the SDK keeps it untyped",
            NotApplicable::ResponseHeader => "a response header: the SDK gives it no type",
            NotApplicable::File => "a file (`format: binary`): no JSON form",
            NotApplicable::NotLowered => {
                "the SDK has no type for this schema (unused, an `allOf` part, an inline error \
                 body, or another media type than the one the SDK sends or reads)"
            }
        })
    }
}

/// Every example of `doc`, in document order, with its target from `schemas`.
fn list(doc: &Document, schemas: &SchemaTypes) -> Vec<DocExample> {
    let mut walker = Walker {
        root: &doc.root,
        schemas,
        from_3_0: doc.source_version.starts_with("3.0"),
        out: Vec::new(),
    };
    walker.document(&At::root(&doc.root));
    walker.out
}

/// HTTP methods of a path item.
const METHODS: [&str; 8] = [
    "get", "put", "post", "delete", "options", "head", "patch", "trace",
];

/// A node of the document in its 3.1 form, and its pointer as the document is written.
#[derive(Clone)]
struct At<'a> {
    node: Node<'a>,
    source: String,
}

impl<'a> At<'a> {
    fn root(value: &'a Value) -> Self {
        At {
            node: Node::root(value),
            source: "#".to_owned(),
        }
    }

    fn get(&self, key: &str) -> Option<At<'a>> {
        Some(At {
            node: self.node.get(key)?,
            source: format!("{}/{}", self.source, escape_pointer(key)),
        })
    }

    fn entries(&self) -> Vec<(&'a str, At<'a>)> {
        self.node
            .entries()
            .into_iter()
            .map(|(k, node)| {
                let source = format!("{}/{}", self.source, escape_pointer(k));
                (k, At { node, source })
            })
            .collect()
    }

    fn items(&self) -> Vec<At<'a>> {
        self.node
            .items()
            .into_iter()
            .enumerate()
            .map(|(i, node)| At {
                node,
                source: format!("{}/{i}", self.source),
            })
            .collect()
    }

    /// The members of the object member `key`.
    fn members(&self, key: &str) -> Vec<(&'a str, At<'a>)> {
        self.get(key).map(|m| m.entries()).unwrap_or_default()
    }

    fn is_ref(&self) -> bool {
        self.node.reference().is_some()
    }
}

struct Walker<'a> {
    root: &'a Value,
    schemas: &'a SchemaTypes,
    from_3_0: bool,
    out: Vec<DocExample>,
}

impl<'a> Walker<'a> {
    fn document(&mut self, root: &At<'a>) {
        for (_, item) in root.members("paths") {
            self.path_item(&item);
        }
        for (_, item) in root.members("webhooks") {
            self.path_item(&item);
        }
        let Some(components) = root.get("components") else {
            return;
        };
        for (_, schema) in components.members("schemas") {
            self.schema(&schema, None, None);
        }
        for (_, p) in components.members("parameters") {
            self.parameter(&p);
        }
        for (_, h) in components.members("headers") {
            self.header(&h);
        }
        for (_, body) in components.members("requestBodies") {
            self.content(&body);
        }
        for (_, r) in components.members("responses") {
            self.response(&r);
        }
        for (_, item) in components.members("pathItems") {
            self.path_item(&item);
        }
        for (_, callback) in components.members("callbacks") {
            for (_, item) in callback.entries() {
                self.path_item(&item);
            }
        }
    }

    /// A path item; a `$ref` is walked where it points.
    fn path_item(&mut self, item: &At<'a>) {
        if item.is_ref() {
            return;
        }
        for p in item
            .get("parameters")
            .map(|l| l.items())
            .unwrap_or_default()
        {
            self.parameter(&p);
        }
        for op in METHODS.iter().filter_map(|m| item.get(m)) {
            for p in op.get("parameters").map(|l| l.items()).unwrap_or_default() {
                self.parameter(&p);
            }
            if let Some(body) = op.get("requestBody").filter(|b| !b.is_ref()) {
                self.content(&body);
            }
            for (_, r) in op.members("responses") {
                self.response(&r);
            }
            for (_, callback) in op.members("callbacks") {
                if !callback.is_ref() {
                    for (_, item) in callback.entries() {
                        self.path_item(&item);
                    }
                }
            }
        }
    }

    fn parameter(&mut self, p: &At<'a>) {
        if p.is_ref() {
            return;
        }
        let schema = p.get("schema");
        let target = match &schema {
            Some(s) => self.schema_target(s),
            None => match p.members("content").first() {
                Some((media, m)) => self.media_target(media, m),
                None => Target::NotApplicable(NotApplicable::NoSchema),
            },
        };
        self.examples_of(p, &target);
        if let Some(s) = schema {
            self.schema(&s, None, None);
        }
        for (media, m) in p.members("content") {
            self.media(media, &m, None);
        }
    }

    /// A header and everything in it: no generated type applies.
    fn header(&mut self, h: &At<'a>) {
        if h.is_ref() {
            return;
        }
        let target = Some(NotApplicable::ResponseHeader);
        self.examples_of(h, &Target::NotApplicable(NotApplicable::ResponseHeader));
        if let Some(s) = h.get("schema") {
            self.schema(&s, None, target);
        }
        for (media, m) in h.members("content") {
            self.media(media, &m, target);
        }
    }

    fn response(&mut self, r: &At<'a>) {
        if r.is_ref() {
            return;
        }
        self.content(r);
        for (_, h) in r.members("headers") {
            self.header(&h);
        }
    }

    /// The media types of a request body or response.
    fn content(&mut self, holder: &At<'a>) {
        for (media, m) in holder.members("content") {
            self.media(media, &m, None);
        }
    }

    /// A media type object; `forced` overrides every target inside it.
    fn media(&mut self, media: &str, m: &At<'a>, forced: Option<NotApplicable>) {
        let target = match forced {
            Some(reason) => Target::NotApplicable(reason),
            None => self.media_target(media, m),
        };
        self.examples_of(m, &target);
        if let Some(s) = m.get("schema") {
            self.schema(&s, None, forced);
        }
        for (_, encoding) in m.members("encoding") {
            for (_, h) in encoding.members("headers") {
                self.header(&h);
            }
        }
    }

    fn media_target(&self, media: &str, m: &At<'a>) -> Target {
        if !is_json(media) {
            return Target::NotApplicable(NotApplicable::NotJson);
        }
        match m.get("schema") {
            Some(s) => self.schema_target(&s),
            None => Target::NotApplicable(NotApplicable::NoSchema),
        }
    }

    /// The `example` and `examples` (Example Objects) of a parameter or media type.
    fn examples_of(&mut self, holder: &At<'a>, target: &Target) {
        if let Some(e) = holder.get("example") {
            self.push(&e, e.node.value.clone(), target.clone());
        }
        for (_, e) in holder.members("examples") {
            let (value, target) = match e.node.resolve(self.root) {
                Err(_) => (
                    Value::Null,
                    Target::NotApplicable(NotApplicable::DanglingRef),
                ),
                Ok(object) => match object.value.get("value") {
                    Some(v) => (v.clone(), target.clone()),
                    None if object.value.get("externalValue").is_some() => (
                        Value::Null,
                        Target::NotApplicable(NotApplicable::ExternalValue),
                    ),
                    // An Example Object with neither holds no example.
                    None => continue,
                },
            };
            self.push(&e, value, target);
        }
    }

    /// A schema and its subschemas. `owner` is the pointer whose type the schema's examples
    /// decode into when it is not the schema's own (the `nullable` schema the 3.0 upgrade
    /// wrapped it in); `forced` overrides every target inside.
    fn schema(&mut self, s: &At<'a>, owner: Option<&str>, forced: Option<NotApplicable>) {
        if !s.node.value.is_object() {
            return;
        }
        let target = match forced {
            Some(reason) => Target::NotApplicable(reason),
            None => match owner {
                Some(pointer) => self.recorded(pointer),
                None => self.schema_target(s),
            },
        };
        if let Some(e) = s.get("example") {
            self.push(&e, e.node.value.clone(), target.clone());
        }
        if let Some(list) = s.get("examples").filter(|l| l.node.value.is_array()) {
            let items = list.items();
            // The 3.0 upgrade moved a schema's one `example` into `examples`.
            let upgraded = self.from_3_0 && items.len() == 1;
            for mut e in items {
                if upgraded {
                    e.source = format!("{}/example", s.source);
                }
                self.push(&e, e.node.value.clone(), target.clone());
            }
        }
        if s.is_ref() {
            return;
        }
        if let Some(inner) = self.upgrade_wrapped(s) {
            self.schema(&inner, Some(&s.node.pointer), forced);
            return;
        }
        for key in ["items", "additionalProperties", "not", "contains"] {
            if let Some(sub) = s.get(key) {
                self.schema(&sub, None, forced);
            }
        }
        for key in ["allOf", "oneOf", "anyOf", "prefixItems"] {
            for sub in s.get(key).map(|l| l.items()).unwrap_or_default() {
                self.schema(&sub, None, forced);
            }
        }
        for key in ["properties", "patternProperties", "$defs"] {
            for (_, sub) in s.members(key) {
                self.schema(&sub, None, forced);
            }
        }
    }

    /// The schema the 3.0 upgrade wrapped a `nullable` schema without `type` into
    /// (`anyOf: [schema, {type: null}]`), located as the document writes it.
    fn upgrade_wrapped(&self, s: &At<'a>) -> Option<At<'a>> {
        if !self.from_3_0 {
            return None;
        }
        let members = s.node.value.get("anyOf")?.as_array()?;
        let null = serde_json::json!({"type": "null"});
        if members.len() != 2 || members[1] != null {
            return None;
        }
        Some(At {
            node: s.get("anyOf")?.node.index(0)?,
            source: s.source.clone(),
        })
    }

    /// The type lowering recorded for the schema at `s`, or for the schema its `$ref` names.
    fn schema_target(&self, s: &At<'a>) -> Target {
        if !self.schemas.contains_key(&s.node.pointer)
            && let Ok(target) = s.node.resolve(self.root)
        {
            return self.recorded(&target.pointer);
        }
        self.recorded(&s.node.pointer)
    }

    fn recorded(&self, pointer: &str) -> Target {
        match self.schemas.get(pointer) {
            Some(shape) if holds_file(&shape.ty) => Target::NotApplicable(NotApplicable::File),
            Some(shape) => Target::Type(shape.clone()),
            None => Target::NotApplicable(NotApplicable::NotLowered),
        }
    }

    fn push(&mut self, at: &At<'a>, value: Value, target: Target) {
        self.out.push(DocExample {
            pointer: at.source.clone(),
            value,
            target,
        });
    }
}

/// Whether a value of `ty` is a file or a container of files.
fn holds_file(ty: &TypeRef) -> bool {
    match ty {
        TypeRef::File | TypeRef::Bytes => true,
        TypeRef::Array(inner) | TypeRef::Map(inner) | TypeRef::Nullable(inner) => holds_file(inner),
        _ => false,
    }
}

/// Whether a media type carries JSON (`application/json`, `+json` types, `…/json; charset=…`).
fn is_json(media: &str) -> bool {
    let media = media.to_ascii_lowercase();
    let essence = media.split(';').next().unwrap_or("").trim();
    essence.ends_with("/json") || essence.ends_with("+json")
}

#[cfg(test)]
mod tests {
    use super::{NotApplicable, Target, list};
    use crate::ir::TypeRef;
    use crate::lower::{Shape, lower_with_schema_types};
    use crate::read::parse;

    /// Pointer and target of every example of `text`.
    fn examples(text: &str) -> Vec<(String, Target)> {
        let doc = parse(text, "test").expect("parses");
        let (_, schemas) = lower_with_schema_types(&doc).expect("lowers");
        list(&doc, &schemas)
            .into_iter()
            .map(|e| (e.pointer, e.target))
            .collect()
    }

    fn named(name: &str, nullable: bool) -> Target {
        Target::Type(Shape {
            ty: TypeRef::Named(name.to_owned()),
            nullable,
        })
    }

    #[test]
    fn a_3_0_document_keeps_its_pointers_and_nullable_refs_decode_into_options() {
        let found = examples(
            r##"{"openapi": "3.0.3", "info": {"title": "t", "version": "1"},
                "paths": {"/a": {"get": {"operationId": "getA",
                  "parameters": [{"name": "n", "in": "query", "example": 3,
                                  "schema": {"type": "integer", "example": 4}}],
                  "responses": {"200": {"description": "ok", "content": {"application/json": {
                    "schema": {"$ref": "#/components/schemas/A"}}}}}}}},
                "components": {"schemas": {
                  "A": {"type": "object", "properties": {
                    "b": {"allOf": [{"$ref": "#/components/schemas/B"}], "nullable": true,
                          "example": null}}},
                  "B": {"type": "object", "properties": {"c": {"type": "string"}},
                        "example": {"c": "x"}}}}}"##,
        );
        assert_eq!(
            found,
            vec![
                (
                    "#/paths/~1a/get/parameters/0/example".to_owned(),
                    Target::Type(Shape {
                        ty: TypeRef::Int(crate::ir::IntType::I64),
                        nullable: false
                    })
                ),
                (
                    "#/paths/~1a/get/parameters/0/schema/example".to_owned(),
                    Target::Type(Shape {
                        ty: TypeRef::Int(crate::ir::IntType::I64),
                        nullable: false
                    })
                ),
                (
                    "#/components/schemas/A/properties/b/example".to_owned(),
                    named("B", true)
                ),
                (
                    "#/components/schemas/B/example".to_owned(),
                    named("B", false)
                ),
            ]
        );
    }

    #[test]
    fn the_harness_decodes_each_example_into_its_type_by_its_path_from_outside_the_crate() {
        let text = r##"{"openapi": "3.1.0", "info": {"title": "t", "version": "1"},
            "paths": {"/a": {"get": {"operationId": "getA", "tags": ["zones"],
              "responses": {"200": {"description": "ok", "content": {"application/json": {
                "schema": {"$ref": "#/components/schemas/A"}, "example": {"b": null}}}}}}}},
            "components": {"schemas": {"A": {"type": "object", "properties": {
              "b": {"type": ["string", "null"], "example": "x"}}}}}}"##;
        let doc = parse(text, "test").expect("parses");
        let (api, schemas) = lower_with_schema_types(&doc).expect("lowers");
        let examples = list(&doc, &schemas);
        let files = super::harness::harness(
            &api,
            &examples,
            "my-sdk",
            std::path::Path::new("../my-sdk"),
            "test",
        )
        .expect("harness");
        let text = |path: &str| {
            files
                .iter()
                .find(|f| f.path == std::path::Path::new(path))
                .map(|f| f.contents.clone())
                .unwrap_or_default()
        };
        let main = text("src/main.rs").split_whitespace().collect::<String>();
        for wanted in [
            "round_trip::<::my_sdk::zones::A>asRoundTrip",
            "round_trip::<Option<String>>asRoundTrip",
            r##""#/paths/~1a/get/responses/200/content/application~1json/example","{\"b\":null}""##,
        ] {
            assert!(main.contains(wanted), "missing {wanted} in {main}");
        }
        assert!(text("Cargo.toml").contains(
            "my-sdk = { path = \"../my-sdk\", default-features = false, features = [\"zones\"] }"
        ));
        assert!(text("src/compare.rs").contains("pub fn same("));
    }

    /// A document with an example of each kind no generated type decodes.
    const WITHOUT_A_TYPE: &str = r##"{"openapi": "3.1.0", "info": {"title": "t", "version": "1"},
                "paths": {"/a": {"post": {"operationId": "postA",
                  "requestBody": {"content": {
                    "application/json": {"schema": {"$ref": "#/components/schemas/A"},
                      "examples": {"one": {"$ref": "#/components/examples/One"},
                                   "far": {"externalValue": "https://example.invalid/a"},
                                   "gone": {"$ref": "#/components/examples/Gone"}}},
                    "text/plain": {"schema": {"type": "string"}, "example": "a"}}},
                  "responses": {"200": {"description": "ok",
                    "headers": {"X-N": {"schema": {"type": "integer"}, "example": 1}}},
                    "400": {"description": "bad", "content": {"application/json": {
                      "schema": {"type": "object", "properties": {"m": {"type": "string"}}},
                      "example": {"m": "x"}}}}}}}},
                "components": {
                  "examples": {"One": {"value": {"f": "x"}}},
                  "schemas": {
                    "A": {"type": "object", "properties": {
                      "f": {"type": "string", "format": "binary", "examples": ["x"]}}},
                    "Unused": {"type": "string", "examples": ["u"]}}}}"##;

    #[test]
    fn examples_without_a_generated_type_say_why() {
        let found = examples(WITHOUT_A_TYPE);
        let na = |r| Target::NotApplicable(r);
        let media = "#/paths/~1a/post/requestBody/content";
        assert_eq!(
            found,
            vec![
                (
                    format!("{media}/application~1json/examples/one"),
                    named("A", false)
                ),
                (
                    format!("{media}/application~1json/examples/far"),
                    na(NotApplicable::ExternalValue)
                ),
                (
                    format!("{media}/application~1json/examples/gone"),
                    na(NotApplicable::DanglingRef)
                ),
                (
                    format!("{media}/text~1plain/example"),
                    na(NotApplicable::NotJson)
                ),
                (
                    "#/paths/~1a/post/responses/200/headers/X-N/example".to_owned(),
                    na(NotApplicable::ResponseHeader)
                ),
                (
                    "#/paths/~1a/post/responses/400/content/application~1json/example".to_owned(),
                    named("ErrorM", false)
                ),
                (
                    "#/components/schemas/A/properties/f/examples/0".to_owned(),
                    na(NotApplicable::File)
                ),
                (
                    "#/components/schemas/Unused/examples/0".to_owned(),
                    named("Unused", false)
                ),
            ]
        );
    }
}
